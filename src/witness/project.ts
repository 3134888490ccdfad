import path from "node:path";
import { SetupError } from "../core/errors.ts";
import { readPackageJson, resolveSource } from "../workspace/source.ts";
import { SOURCE_EXTENSIONS } from "./functions.ts";
import { selectTestFiles } from "./test-files.ts";
import { findRunnerInvocation, type RunnerInvocation, type TestRunner } from "./test-script.ts";

/**
 * The project a witness benchmark is built from (WitnessGym §3: "a repository with a passing test suite"):
 * its pristine sources, linked dependencies, test runner, test files and production files, and how to run
 * one test file of it alone.
 */

export type { TestRunner } from "./test-script.ts";

/** An opened project. Nothing here is ever written by Gauntlet. */
export interface WitnessProject {
  /** The spec as given: a folder or `npm:<name>[@<version>]`. */
  spec: string;
  name: string;
  version?: string;
  /** Absolute path of the pristine sources (read only, never written). */
  dir: string;
  /** Absolute path of the `node_modules` folder to link into copies (never copied), if the project has one. */
  deps?: string;
  runner: TestRunner;
  /** Test files the runner runs, project-relative POSIX, sorted. */
  testFiles: string[];
  /**
   * JS/TS files ({@link SOURCE_EXTENSIONS}) that are neither tests nor config, declaration or minified files,
   * outside `node_modules`, `dist`, `build`, `coverage`, `.git`, `example(s)`, `bench(mark(s))` and fixture
   * folders; project-relative POSIX, sorted.
   */
  productionFiles: string[];
  /**
   * The argv that runs exactly `testFiles` (project-relative), with cwd = a copy of the project that has
   * `deps` linked as its `node_modules`: the current node, the runner's bin resolved inside `deps` (no npx),
   * the script's options and node flags, e.g. `[node, "<deps>/tape/bin/tape", "test/a.js"]`; node:test is
   * `[node, "--test", …files]`; env assignments of the script come first as `env NAME=value …`.
   */
  commandFor(testFiles: readonly string[]): string[];
}

/** Options of {@link openWitnessProject}. */
export interface OpenProjectOptions {
  /** Gauntlet's cache root for npm sources (see `resolveSource`). */
  cacheDir?: string;
  /** Called with one line per slow step (download, install) and for warnings. */
  onProgress?: (message: string) => void;
}

const RUNNER_HINT = "gauntlet witness needs a test script using node --test, tape, mocha, jest or vitest";

/**
 * Open a project: resolve the source (a local folder, or `npm:` fetched into the cache with its dependencies
 * installed), read the runner from package.json (see `findRunnerInvocation`; falling back to the one runner
 * among the dependencies, with its default patterns), and list its test and production files.
 *
 * @throws SetupError when the source cannot be resolved, no supported runner is found, the runner is not
 *   installed in the dependencies, or the runner would run no test file
 * @throws InputError when an `npm:` spec is malformed
 */
export async function openWitnessProject(
  spec: string,
  options: OpenProjectOptions = {},
): Promise<WitnessProject> {
  const source = await resolveSource(spec, options);
  const manifest = readPackageJson(source.sourceDir);
  const label = `${source.name}${source.version ? `@${source.version}` : ""}`;
  const invocation = findRunnerInvocation(manifest) ?? runnerFromDependencies(manifest);
  if (invocation === undefined) {
    const test = (manifest?.scripts as Record<string, unknown> | undefined)?.test;
    throw new SetupError(
      `${label}: no supported test runner found${typeof test === "string" ? ` (test script: ${test})` : ""}`,
      RUNNER_HINT,
    );
  }
  const selection = selectTestFiles(invocation, source.files, source.sourceDir, manifest);
  if (selection.files.length === 0) {
    const where = invocation.patterns.length
      ? invocation.patterns.join(" ")
      : `${invocation.runner}'s default patterns`;
    throw new SetupError(
      `${label}: no test files match ${where}`,
      `${RUNNER_HINT}, naming test files that exist`,
    );
  }
  const bin =
    invocation.runner === "node:test" ? undefined : runnerBin(invocation.runner, source.depsDir, label);
  const tests = new Set(selection.files);
  const dropped = new Set(selection.dropOptions);
  const runnerOptions = [...selection.extraOptions, ...invocation.options.filter((o) => !dropped.has(o))];
  const project: WitnessProject = {
    spec,
    name: source.name,
    dir: source.sourceDir,
    runner: invocation.runner,
    testFiles: selection.files,
    productionFiles: source.files.filter((f) => !tests.has(f) && isProductionFile(f)),
    commandFor: (files) => runnerCommand(invocation, bin, runnerOptions, files),
  };
  if (source.version !== undefined) project.version = source.version;
  if (source.depsDir !== undefined) project.deps = source.depsDir;
  return project;
}

/** True for a test file by its path: under `test/`, `tests/` or `__tests__/`, or named `*.test.*` or `*.spec.*`. */
export function isTestFile(relPath: string): boolean {
  const parts = relPath.split("/");
  const base = parts.at(-1) ?? "";
  return parts.slice(0, -1).some((d) => TEST_DIRS.has(d)) || /\.(?:test|spec)\.[^/]+$/.test(base);
}

const TEST_DIRS = new Set(["test", "tests", "__tests__"]);
const EXCLUDED_DIRS = new Set([
  "node_modules",
  "dist",
  "build",
  "coverage",
  ".git",
  ".nyc_output",
  "example",
  "examples",
  "bench",
  "benchmark",
  "benchmarks",
  "fixtures",
  "__fixtures__",
  "__mocks__",
]);

/** True for a production source file by its path (see {@link WitnessProject.productionFiles}). */
export function isProductionFile(relPath: string): boolean {
  const parts = relPath.split("/");
  const base = parts.at(-1) ?? "";
  if (!SOURCE_EXTENSIONS.some((ext) => base.endsWith(ext))) return false;
  if (/\.d\.[cm]?ts$/.test(base) || /\.min\.[cm]?js$/.test(base)) return false;
  if (
    /(?:^|\.)config\.[cm]?[jt]s$/.test(base) ||
    /^\..*rc\.[cm]?js$/.test(base) ||
    /^(?:gulpfile|Gruntfile)\./.test(base)
  )
    return false;
  return !isTestFile(relPath) && !parts.slice(0, -1).some((d) => EXCLUDED_DIRS.has(d));
}

function runnerCommand(
  invocation: RunnerInvocation,
  bin: string | undefined,
  options: readonly string[],
  files: readonly string[],
): string[] {
  const env = Object.entries(invocation.env).map(([k, v]) => `${k}=${v}`);
  const prefix = env.length > 0 ? ["env", ...env] : [];
  const node = [process.execPath, ...invocation.nodeFlags];
  switch (invocation.runner) {
    case "node:test":
      return [...prefix, ...node, ...(options.includes("--test") ? [] : ["--test"]), ...options, ...files];
    case "jest":
      return [...prefix, ...node, bin!, "--ci", "--no-watchman", "--runTestsByPath", ...options, ...files];
    case "vitest":
      return [...prefix, ...node, bin!, "run", ...options, ...files];
    default:
      return [...prefix, ...node, bin!, ...options, ...files];
  }
}

/** The runner's bin script inside `deps` (absolute), from its package.json `bin`. */
function runnerBin(
  runner: Exclude<TestRunner, "node:test">,
  deps: string | undefined,
  label: string,
): string {
  const hint = "install the project's dependencies first (npm install in the project folder)";
  if (deps === undefined) throw new SetupError(`${label}: uses ${runner} but has no node_modules`, hint);
  const manifest = readPackageJson(path.join(deps, runner));
  const bin = manifest?.bin;
  const rel = typeof bin === "string" ? bin : (bin as Record<string, unknown> | undefined)?.[runner];
  if (typeof rel !== "string") throw new SetupError(`${label}: ${runner} is not installed in ${deps}`, hint);
  return path.join(deps, runner, rel);
}

/** The one supported runner among the dependencies (script-less projects), with its default patterns. */
function runnerFromDependencies(manifest: Record<string, unknown> | undefined): RunnerInvocation | undefined {
  const deps = { ...(manifest?.dependencies as object), ...(manifest?.devDependencies as object) };
  const found = (["tape", "mocha", "jest", "vitest"] as const).filter((r) => r in deps);
  if (found.length !== 1) return undefined;
  return {
    runner: found[0]!,
    script: "(devDependencies)",
    options: [],
    patterns: [],
    env: {},
    nodeFlags: [],
  };
}
