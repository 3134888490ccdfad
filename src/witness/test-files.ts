import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { SetupError } from "../core/errors.ts";
import { globToRegExp, type RunnerInvocation } from "./test-script.ts";

/**
 * Which files a test runner would run, found the way the runner finds them: the script's patterns (globs,
 * files, folders) or the runner's defaults and config (mocha `.mocharc.*`/`package.json#mocha`, jest
 * `package.json#jest`/`jest.config.json` `testMatch`/`testRegex`). JS config files (`jest.config.js`,
 * `vitest.config.ts`) are not evaluated: the runner's defaults are used instead.
 */

/** Test files of a project and the extra runner options needed to run one of them alone. */
export interface TestSelection {
  /** Project-relative POSIX paths, sorted. */
  files: string[];
  /** Options to put before the script's own (mocha: the config's options as flags when its `spec` is bypassed). */
  extraOptions: string[];
  /** Script options to drop (e.g. a mocha `--config <file>` replaced by `extraOptions`). */
  dropOptions: string[];
}

const JS = "?(c|m)js";
const NODE_TEST_DEFAULTS = [
  `**/*.test.${JS}`,
  `**/*-test.${JS}`,
  `**/*_test.${JS}`,
  `**/test-*.${JS}`,
  `**/test.${JS}`,
  `**/test/**/*.${JS}`,
];
const JEST_DEFAULTS = ["**/__tests__/**/*.?([mc])[jt]s?(x)", "**/?(*.)+(spec|test).?([mc])[jt]s?(x)"];
const VITEST_DEFAULTS = ["!(dist|cypress)/**/*.{test,spec}.?(c|m)[jt]s?(x)", "*.{test,spec}.?(c|m)[jt]s?(x)"];

/**
 * The test files `invocation` runs in a project, from its file list.
 * @param files project-relative POSIX paths of every file (no `node_modules`, `.git`)
 * @param dir the project folder (config files are read from it)
 * @throws SetupError when a mocha JS config sets `spec` (one file cannot then be run alone)
 */
export function selectTestFiles(
  invocation: RunnerInvocation,
  files: readonly string[],
  dir: string,
  manifest: Record<string, unknown> | undefined,
): TestSelection {
  const { runner, patterns } = invocation;
  const selection: TestSelection = { files: [], extraOptions: [], dropOptions: [] };
  let chosen: string[];
  if (runner === "jest" || runner === "vitest") {
    const defaults = runner === "jest" ? jestMatcher(dir, manifest) : matchAny(VITEST_DEFAULTS);
    const filters = patterns.map((p) => (runner === "jest" ? regExpOrUndefined(p) : undefined));
    chosen = files.filter(
      (f) =>
        defaults(f) &&
        (patterns.length === 0 || patterns.some((p, i) => filters[i]?.test(f) ?? f.includes(p))),
    );
  } else if (runner === "mocha") {
    const mocha = mochaConfig(invocation, dir, manifest);
    Object.assign(selection, { extraOptions: mocha.extraOptions, dropOptions: mocha.dropOptions });
    const recursive = invocation.options.includes("--recursive") || mocha.recursive;
    const extensions = mocha.extensions.map((e) => e.replace(/^\./, ""));
    const asFolder = (d: string) =>
      globToRegExp(`${d ? `${d}/` : ""}${recursive ? "**/" : ""}*.{${extensions.join(",")}}`);
    const specs = patterns.length > 0 ? patterns : mocha.spec.length > 0 ? mocha.spec : ["./test"];
    chosen = expand(specs, files, asFolder);
  } else if (runner === "tape") {
    const defaults = [`test/**/*.${JS}`, `tests/**/*.${JS}`];
    chosen = expand(patterns.length > 0 ? patterns : defaults, files, (d) =>
      globToRegExp(`${d ? `${d}/` : ""}**/*.${JS}`),
    );
  } else {
    const named = matchAny(NODE_TEST_DEFAULTS);
    const inFolder = (d: string) => ({
      test: (f: string) => (d === "" || f.startsWith(`${d}/`)) && named(f),
    });
    chosen = patterns.length > 0 ? expand(patterns, files, inFolder) : files.filter(named);
  }
  selection.files = [...new Set(chosen)].sort();
  return selection;
}

/** Files matched by each pattern: a glob, a file, or a folder (its files per `folder`). */
function expand(
  patterns: readonly string[],
  files: readonly string[],
  folder: (dir: string) => { test(file: string): boolean },
): string[] {
  const out: string[] = [];
  const all = new Set(files);
  for (const raw of patterns) {
    const p = raw.replace(/^\.\//, "").replace(/\/+$/, "");
    if (/[*?{[]/.test(p)) {
      const re = globToRegExp(p);
      out.push(...files.filter((f) => re.test(f)));
    } else if (all.has(p)) out.push(p);
    else {
      const inside = folder(p === "." ? "" : p);
      out.push(...files.filter((f) => inside.test(f)));
    }
  }
  return out;
}

function matchAny(globs: readonly string[]): (file: string) => boolean {
  const res = globs.map(globToRegExp);
  return (file) => res.some((re) => re.test(file));
}

/** Jest's test matcher: `testMatch` or `testRegex` from package.json#jest or jest.config.json, else defaults. */
function jestMatcher(dir: string, manifest: Record<string, unknown> | undefined): (file: string) => boolean {
  const config = (manifest?.jest ?? readJson(path.join(dir, "jest.config.json"))) as
    | { testMatch?: unknown; testRegex?: unknown }
    | undefined;
  const regex = config?.testRegex;
  if (typeof regex === "string" || Array.isArray(regex)) {
    const res = ([] as unknown[]).concat(regex).map((r) => regExpOrUndefined(String(r)));
    if (res.every((re) => re !== undefined)) return (file) => res.some((re) => re.test(file));
  }
  const match = Array.isArray(config?.testMatch) ? config.testMatch.map(String) : JEST_DEFAULTS;
  return matchAny(match.map((g) => g.replace(/^<rootDir>\//, "").replace(/^!/, "")));
}

interface MochaSettings {
  spec: string[];
  recursive: boolean;
  extensions: string[];
  extraOptions: string[];
  dropOptions: string[];
}

const MOCHARC = [
  ".mocharc.js",
  ".mocharc.cjs",
  ".mocharc.yaml",
  ".mocharc.yml",
  ".mocharc.jsonc",
  ".mocharc.json",
];

/**
 * Mocha's settings from its config file and package.json#mocha. Mocha adds a config `spec` to the files
 * named on its command line, so when one is set the configs are bypassed (`--no-config --no-package`) and
 * their other options passed as flags.
 */
function mochaConfig(
  invocation: RunnerInvocation,
  dir: string,
  manifest: Record<string, unknown> | undefined,
): MochaSettings {
  const at = invocation.options.indexOf("--config");
  const explicit = at >= 0 ? invocation.options[at + 1] : undefined;
  const file = explicit ?? MOCHARC.find((name) => existsSync(path.join(dir, name)));
  const configs: Record<string, unknown>[] = [];
  if (manifest && typeof manifest.mocha === "object" && manifest.mocha)
    configs.push(manifest.mocha as Record<string, unknown>);
  if (file !== undefined && existsSync(path.join(dir, file))) {
    const text = readFileSync(path.join(dir, file), "utf8");
    if (/\.[cm]?js$/.test(file)) {
      if (/\bspec\b/.test(text)) {
        throw new SetupError(
          `mocha config ${file} sets spec, which mocha adds to any file named on its command line, so one test file cannot be run alone`,
          "move the spec patterns into the test script (e.g. mocha 'test/**/*.spec.js'), or use .mocharc.json",
        );
      }
    } else configs.push(parseConfig(text, file));
  }
  const spec = configs.flatMap((c) => ([] as unknown[]).concat(c.spec ?? []).map(String));
  const extensions = configs.flatMap((c) => ([] as unknown[]).concat(c.extension ?? []).map(String));
  const settings: MochaSettings = {
    spec,
    recursive: configs.some((c) => c.recursive === true),
    extensions: extensions.length > 0 ? ["js", "cjs", "mjs", ...extensions] : ["js", "cjs", "mjs"],
    extraOptions: [],
    dropOptions: [],
  };
  if (spec.length > 0) {
    settings.extraOptions = ["--no-config", "--no-package", ...configs.flatMap(asFlags)];
    if (explicit !== undefined) settings.dropOptions = ["--config", explicit];
  }
  return settings;
}

function parseConfig(text: string, file: string): Record<string, unknown> {
  try {
    const parsed: unknown = parseYaml(file.endsWith(".jsonc") ? text.replace(/^\s*\/\/.*$/gm, "") : text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch (error) {
    throw new SetupError(
      `cannot read mocha config ${file}: ${(error as Error).message}`,
      "fix the config file",
    );
  }
}

/** A mocha config object (minus `spec`) as command-line flags. */
function asFlags(config: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === "spec" || key === "_" || key === "config" || key === "package") continue;
    for (const v of ([] as unknown[]).concat(value)) {
      if (v === true) out.push(`--${key}`);
      else if (v === false) out.push(`--no-${key}`);
      else if (typeof v === "string" || typeof v === "number") out.push(`--${key}`, String(v));
    }
  }
  return out;
}

function regExpOrUndefined(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
