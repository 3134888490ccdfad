import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { copyTree } from "../workspace/copy-tree.ts";
import { runProcess } from "../workspace/process.ts";
import { confine, detectBwrap, makeSandbox, programDirs, withReadable } from "../workspace/sandbox.ts";
import { readV8Coverage } from "./coverage.ts";
import { classifyTestRun, type TestOutcome } from "./failure.ts";
import { type ProbeTarget, readProbeTrace } from "./probes.ts";
import type { WitnessProject } from "./project.ts";
import type { ContextFunction, SourceFunction } from "./types.ts";

/**
 * One traced run of one test file for the contexts stage: a fresh copy of the project, the test alone, then
 * what it entered (from the probes' trace or V8 coverage), classified like `validateWitness` runs.
 */

/** The production files' function tables, and what each probe id stands for. */
export interface FunctionTables {
  /** Project-relative path → the file's functions (from `listFunctions` on the pristine text). */
  functions: Map<string, SourceFunction[]>;
  /** Probe id → its target (empty without probes). */
  targets: ProbeTarget[];
}

/** How to run and trace. */
export interface TraceRunSetup {
  /** Temp folder the run's own folder is made in (and removed from). */
  root: string;
  /** Folder copied as the project: the instrumented template, or the pristine project. */
  from: string;
  /** The probe preload (`--require`d through NODE_OPTIONS), when `from` holds probes. */
  preload?: string;
  /** Set NODE_V8_COVERAGE and read it. */
  v8: boolean;
  tables: FunctionTables;
  /** Time limit, ms. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Run under bubblewrap when it works here (default true). */
  sandbox?: boolean;
}

/** Result of {@link runTracedTest}. */
export interface TracedRun {
  outcome: TestOutcome;
  /** The deciding output line(s), from `classifyTestRun`. */
  evidence: string;
  /** Wall time of the test command, ms. */
  durationMs: number;
  /** Production functions entered: in first-entry order with probes, else by file and line. Empty unless passed. */
  functions: ContextFunction[];
  /** Production modules whose top level ran (probe runs only). */
  modules: number;
}

/**
 * Run `project.commandFor([test])` in a fresh copy of `setup.from` (deps linked as `node_modules`), in a
 * scrubbed environment (PATH, LANG, temp HOME and TMPDIR, NO_COLOR=1, CI=1; NODE_OPTIONS only the probe
 * preload), and read what a passing run entered. Never throws for a failing or unstartable test (its outcome
 * says so); the run's folder is removed before returning.
 * @throws SetupError when the project cannot be copied
 */
export async function runTracedTest(
  project: WitnessProject,
  test: string,
  setup: TraceRunSetup,
): Promise<TracedRun> {
  const dir = mkdtempSync(path.join(setup.root, "run-"));
  const [repo, home, tmp, traceDir, coverage] = ["repo", "home", "tmp", "trace", "coverage"].map((d) => {
    mkdirSync(path.join(dir, d));
    return path.join(dir, d);
  }) as [string, string, string, string, string];
  try {
    await copyTree(setup.from, repo, { exclude: ["node_modules", ".git"] });
    if (project.deps) symlinkSync(project.deps, path.join(repo, "node_modules"));
    const [file, ...args] = project.commandFor([test]) as [string, ...string[]];
    const bwrap = setup.sandbox === false ? undefined : detectBwrap();
    const confined = bwrap && makeSandbox(bwrap, dir, project.deps ? [project.deps] : []);
    // The test processes write the trace folders too; the preload lives in `root`.
    const sandbox = confined
      ? withReadable({ ...confined, writable: [...confined.writable, traceDir, coverage] }, [
          ...programDirs(file),
          setup.root,
        ])
      : undefined;
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      LANG: process.env.LANG,
      HOME: home,
      TMPDIR: tmp,
      NO_COLOR: "1",
      CI: "1",
    };
    if (setup.preload !== undefined) {
      env.NODE_OPTIONS = `--require ${JSON.stringify(setup.preload)}`;
      env.GAUNTLET_TRACE_DIR = traceDir;
    }
    if (setup.v8) env.NODE_V8_COVERAGE = coverage;
    let result: Awaited<ReturnType<typeof runProcess>> | undefined;
    let spawnError: string | undefined;
    const started = Date.now();
    try {
      result = await runProcess(confine({ file, args }, sandbox, repo), {
        cwd: repo,
        env,
        timeoutMs: setup.timeoutMs,
        signal: setup.signal,
      });
    } catch (error) {
      spawnError = `could not start ${file}: ${(error as Error).message}`;
    }
    const { outcome, evidence } = classifyTestRun({
      exitCode: result?.exitCode ?? null,
      timedOut: result?.timedOut ?? false,
      stdout: result?.stdout ?? "",
      stderr: result?.stderr ?? "",
      spawnError,
    });
    const durationMs = result?.durationMs ?? Date.now() - started;
    const run: TracedRun = { outcome, evidence, durationMs, functions: [], modules: 0 };
    if (outcome !== "pass") return run;
    if (setup.preload !== undefined) {
      for (const hit of readProbeTrace(traceDir)) {
        const target = setup.tables.targets[hit.id];
        if (target?.kind === "function") run.functions.push(entry(target.fn, hit.calls));
        else if (target?.kind === "module") run.modules++;
      }
    } else if (setup.v8) {
      run.functions = readV8Coverage(coverage, repo, setup.tables.functions).map((c) => entry(c.fn, c.calls));
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function entry(fn: SourceFunction, calls: number): ContextFunction {
  return { id: fn.id, file: fn.file, name: fn.name, line: fn.line, calls };
}
