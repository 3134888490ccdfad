import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InputError, SetupError, StoppedError } from "../core/errors.ts";
import { copyTree } from "../workspace/copy-tree.ts";
import type { TestOutcome } from "./failure.ts";
import { listFunctions } from "./functions.ts";
import { instrumentSource, PROBE_PRELOAD } from "./probes.ts";
import type { WitnessProject } from "./project.ts";
import { type FunctionTables, runTracedTest, type TracedRun } from "./trace-run.ts";
import type { ExecutionContext, LengthBucket, SourceFunction } from "./types.ts";

/**
 * The contexts stage (WitnessGym §3.1): for each test file, the production functions it executes (τ_t), in
 * the order they were first entered. Each test file runs alone, in its own copy of the project, with entry
 * probes in the production code (see `probes.ts`); V8 coverage (`coverage.ts`) is the unordered fallback.
 */

/** A test that got no context: it does not pass on the clean project, or its functions could not be seen. */
export interface SkippedTest {
  /** Project-relative test file. */
  test: string;
  /**
   * Outcome of the clean run (from `classifyTestRun`), or `untraced`: it passes, but loads no production
   * module, or no probe was visible to it (a jest/vitest environment outside Node's global, e.g. jsdom), or
   * (jest/vitest) it passes only without probes.
   */
  outcome: TestOutcome | "untraced";
  /** The deciding output line(s), or why it is untraced. */
  evidence: string;
  /** Wall time of the deciding run, ms. */
  durationMs: number;
}

/** What {@link collectContexts} found. */
export interface ContextCollection {
  /** One context per passing test, in the order of the tests given. */
  contexts: ExecutionContext[];
  skipped: SkippedTest[];
  /** Caveats, one sentence each: files left uninstrumented, tests traced by the fallback. */
  notes: string[];
}

/** Options of {@link collectContexts}. */
export interface CollectContextsOptions {
  /** Test files to trace (project-relative). Default: all of `project.testFiles`. */
  tests?: readonly string[];
  /** Time limit per test file run, ms. Default 60,000. */
  timeoutMs?: number;
  /** Test files run at once. Default 2. */
  concurrency?: number;
  /** Called after each test file, with the count done so far. */
  onProgress?: (done: number, total: number, test: string) => void;
  signal?: AbortSignal;
  /**
   * `probes` (default): first-entry order and call counts, for every runner; a test that fails with probes
   * is run again without them, and traced with V8 coverage when that passes (node:test, tape, mocha).
   * `v8`: V8 coverage only (no order; node:test, tape and mocha only; code stays byte-identical).
   */
  tracer?: "probes" | "v8";
  /** Run tests under bubblewrap, as `validateWitness` does. Default: when bwrap works here. */
  sandbox?: boolean;
}

const PLAIN_NODE = new Set(["node:test", "tape", "mocha"]);

/**
 * Record the execution context of each test file of `project`.
 *
 * Copies the project once into a temp template (with probes in every production file that parses), then
 * runs each test file alone (`project.commandFor([file])`) in its own copy of that template with
 * `project.deps` linked as `node_modules`, in a scrubbed environment (PATH, LANG, temp HOME and TMPDIR,
 * NO_COLOR=1, CI=1, NODE_OPTIONS only the probe preload). A test gets a context only when that run passes
 * (`classifyTestRun`); the others are listed in `skipped`. A test that fails with probes (other than by a
 * timeout) is run once more on the pristine code, to tell a real failure from one the probes caused (e.g. a
 * test comparing `fn.toString()`). Functions are those of `project.productionFiles`
 * whose body ran; `ordered` is true when the probes recorded them (every runner; jest and vitest only when
 * their environment shares Node's global, else the test is skipped as `untraced`). The project folder is
 * only read; temp folders are removed before returning, on success or error.
 *
 * @throws InputError when a test is not a file of the project
 * @throws SetupError when the project cannot be copied, or `tracer: "v8"` is asked for jest or vitest
 * @throws StoppedError when `signal` aborts
 * Source: WitnessGym §3.1 (execution contexts), §4.1 (length buckets).
 */
export async function collectContexts(
  project: WitnessProject,
  options: CollectContextsOptions = {},
): Promise<ContextCollection> {
  const tests = [...(options.tests ?? project.testFiles)];
  for (const test of tests) {
    const inside = !path.isAbsolute(test) && !test.split("/").includes("..");
    if (!inside || !statSync(path.join(project.dir, test), { throwIfNoEntry: false })?.isFile()) {
      throw new InputError({ field: "tests" }, `not a test file of ${project.name}: ${test}`);
    }
  }
  const tracer = options.tracer ?? "probes";
  if (tracer === "v8" && !PLAIN_NODE.has(project.runner)) {
    throw new SetupError(
      `V8 coverage cannot trace ${project.runner} tests: the runner transforms the code it loads`,
      "use the default probes tracer",
    );
  }
  const root = mkdtempSync(path.join(os.tmpdir(), "gauntlet-contexts-"));
  const notes: string[] = [];
  try {
    const template = path.join(root, "template");
    mkdirSync(template);
    await copyTree(project.dir, template, { exclude: ["node_modules", ".git"] });
    const tables = prepareTemplate(project, template, tracer === "probes", notes);
    const preload = tracer === "probes" ? path.join(root, "probe.cjs") : undefined;
    if (preload !== undefined) writeFileSync(preload, PROBE_PRELOAD);
    const shared: Shared = { root, template, preload, tables };
    const outcomes: (ExecutionContext | SkippedTest)[] = new Array(tests.length);
    const testNotes: string[][] = tests.map(() => []);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < tests.length && !options.signal?.aborted) {
        const i = next++;
        const test = tests[i]!;
        outcomes[i] = await traceTest(project, test, options, shared, testNotes[i]!);
        options.onProgress?.(++done, tests.length, test);
      }
    };
    const lanes = Math.max(1, Math.min(options.concurrency ?? 2, tests.length));
    await Promise.all(Array.from({ length: lanes }, worker));
    if (options.signal?.aborted)
      throw new StoppedError("context collection stopped", "run it again to resume");
    const result: ContextCollection = { contexts: [], skipped: [], notes: [...notes, ...testNotes.flat()] };
    for (const o of outcomes) {
      if ("functions" in o) result.contexts.push(o);
      else result.skipped.push(o);
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The context-length bucket of a context with `distinctFunctions` functions (WitnessGym §4.1): 1–40 short
 * (0 too), 41–70 mid-short, 71–120 mid-long, 121 and more long.
 */
export function lengthBucket(distinctFunctions: number): LengthBucket {
  if (distinctFunctions <= 40) return "short";
  if (distinctFunctions <= 70) return "mid-short";
  if (distinctFunctions <= 120) return "mid-long";
  return "long";
}

/** Function tables of the production files; with probes, instrument the template's copies in place. */
function prepareTemplate(
  project: WitnessProject,
  template: string,
  probes: boolean,
  notes: string[],
): FunctionTables {
  const tables: FunctionTables = { functions: new Map(), targets: [] };
  for (const file of project.productionFiles) {
    const text = readFileSync(path.join(project.dir, file), "utf8");
    let functions: SourceFunction[];
    try {
      functions = listFunctions(file, text);
    } catch (error) {
      notes.push(`${file} is not traced: ${(error as Error).message}`);
      continue;
    }
    tables.functions.set(file, functions);
    if (!probes) continue;
    const instrumented = instrumentSource(file, text, tables.targets.length);
    if (instrumented === undefined) {
      notes.push(`${file} is not traced: it no longer parses with probes inserted`);
      continue;
    }
    tables.targets.push(...instrumented.targets);
    writeFileSync(path.join(template, file), instrumented.text);
  }
  return tables;
}

interface Shared {
  root: string;
  template: string;
  /** The probe preload, or undefined with `tracer: "v8"`. */
  preload: string | undefined;
  tables: FunctionTables;
}

/**
 * Trace one test file: a probe run; when that fails (other than by a timeout), a plain run decides whether
 * the probes were the cause. Caveats go to `notes`.
 */
async function traceTest(
  project: WitnessProject,
  test: string,
  options: CollectContextsOptions,
  shared: Shared,
  notes: string[],
): Promise<ExecutionContext | SkippedTest> {
  const plainNode = PLAIN_NODE.has(project.runner);
  const setup = {
    root: shared.root,
    tables: shared.tables,
    timeoutMs: options.timeoutMs ?? 60_000,
    signal: options.signal,
    sandbox: options.sandbox,
  };
  const { preload, template } = shared;
  const first = await runTracedTest(project, test, {
    ...setup,
    from: template,
    preload,
    v8: preload === undefined,
  });
  if (first.outcome === "pass") {
    if (shared.preload !== undefined && first.modules === 0 && first.functions.length === 0) {
      const evidence = plainNode
        ? "no production module was loaded (or the probes could not record)"
        : `no probe fired: the test loads no production module, or ${project.runner} ran it outside Node's global (e.g. a jsdom environment)`;
      return { test, outcome: "untraced", evidence, durationMs: first.durationMs };
    }
    return context(test, first, shared.preload !== undefined);
  }
  const final = shared.preload === undefined || first.outcome === "timeout" || options.signal?.aborted;
  if (final) return skip(test, first);
  const plain = await runTracedTest(project, test, { ...setup, from: project.dir, v8: plainNode });
  if (plain.outcome !== "pass") return skip(test, plain);
  const why = `fails with probes (${first.outcome}: ${first.evidence.split("\n").at(-1)})`;
  if (!plainNode)
    return {
      test,
      outcome: "untraced",
      evidence: `passes only without probes; ${why}`,
      durationMs: plain.durationMs,
    };
  notes.push(`${test} ${why}; traced with V8 coverage instead (no order)`);
  return context(test, plain, false);
}

function skip(test: string, run: TracedRun): SkippedTest {
  return { test, outcome: run.outcome, evidence: run.evidence, durationMs: run.durationMs };
}

function context(test: string, run: TracedRun, ordered: boolean): ExecutionContext {
  return {
    test: { file: test },
    functions: run.functions,
    ordered,
    length: run.functions.length,
    bucket: lengthBucket(run.functions.length),
    cleanOutcome: run.outcome,
    durationMs: run.durationMs,
  };
}
