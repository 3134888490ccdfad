import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InputError } from "../core/errors.ts";
import { copyTree } from "../workspace/copy-tree.ts";
import { runProcess } from "../workspace/process.ts";
import { confine, detectBwrap, makeSandbox } from "../workspace/sandbox.ts";
import { classifyTestRun, isSemanticFailure, type TestOutcome } from "./failure.ts";

/**
 * The one acceptance predicate for a bug witness (issue 6 §1 validate): the witness passes on clean code and
 * fails on buggy code with a semantic failure, the same way on every repeat, each run in a fresh copy.
 * WitnessGym's construction accepts on `rc != 0` alone, with no clean-baseline run (WitnessGym §1.5, §3).
 */

/** A test file to add to both versions. */
export interface WitnessFile {
  /** Path relative to the project root, e.g. `test/witness.test.mjs`; must stay inside it. */
  path: string;
  /** Full file text (UTF-8). */
  content: string;
}

/** Options of {@link validateWitness}. */
export interface ValidateWitnessOptions {
  /** Folder of the clean project; only read. */
  clean: string;
  /** Folder of the buggy project; only read. */
  buggy: string;
  /** The witness test file(s) (a witness may bring helper files), written into both copies. */
  witness: WitnessFile | readonly WitnessFile[];
  /**
   * A `node_modules` folder to link as `<copy>/node_modules` (the project's dependencies, never copied).
   * The sides' own `node_modules` and `.git` are never copied.
   */
  deps?: string;
  /**
   * Clean runs already made for this exact clean folder, witness and command (e.g. by the contexts stage, or
   * for an earlier candidate of the same test): used instead of running the clean side again. Must hold
   * `repeats` runs.
   */
  knownClean?: readonly RunSummary[];
  /**
   * Folders the test must not read (e.g. the build's oracle, an agent's results): hidden under bwrap. The
   * other side's copy is always hidden. Without bwrap nothing is hidden (and the docs say so).
   */
  hide?: readonly string[];
  /** Run the test command under bubblewrap (read-only filesystem outside the copy, HOME hidden). Default: when bwrap works here. */
  sandbox?: boolean;
  /** Program and arguments, run in the project copy, e.g. `["node", "--test", "witness.test.mjs"]`. */
  command: readonly string[];
  /** Runs per side; a flaky witness is rejected. Default 3. */
  repeats?: number;
  /** Time limit per run, ms. Default 60,000. */
  timeoutMs?: number;
  /** Full environment of the test command. Default: PATH, HOME, TMPDIR and LANG from ours, plus NO_COLOR=1, CI=1. */
  env?: Record<string, string | undefined>;
}

/** One run of the witness on one side. */
export interface RunSummary {
  side: "clean" | "buggy";
  /** 1-based repeat number. */
  attempt: number;
  outcome: TestOutcome;
  /** The deciding output line(s), from {@link classifyTestRun}. */
  evidence: string;
  exitCode: number | null;
  timedOut: boolean;
  /** Wall time of the test command, ms. */
  durationMs: number;
}

/** Verdict of {@link validateWitness}. */
export interface WitnessValidation {
  accepted: boolean;
  /** One sentence: why it was accepted or rejected, naming the side and the outcome. */
  reason: string;
  /** Clean runs made, in order (fewer than `repeats` when an earlier repeat already ruled acceptance out). */
  clean: RunSummary[];
  /** Buggy runs made, in order. */
  buggy: RunSummary[];
}

/**
 * Decide whether a witness test tells the buggy version from the clean one.
 *
 * For each of `repeats` rounds, copies `clean` and `buggy` into fresh temp folders (the inputs are never
 * written), writes the witness into each and runs `command` in both at once. Accepted iff every clean run
 * passes and every buggy run fails with a semantic failure (assertion or runtime exception, see
 * {@link classifyTestRun}) of the same class each time. Stops after the first round that rules acceptance
 * out. Temp folders are removed before returning, on success or error.
 *
 * @throws InputError when a folder is missing, the witness path leaves the project, the command is empty or
 *   `repeats` is not a positive integer
 * @throws SetupError when a project cannot be copied
 * Source: issue 6 §1 validate; WitnessGym §3 (the core runner's differential rule, enforced here at construction).
 */
export async function validateWitness(options: ValidateWitnessOptions): Promise<WitnessValidation> {
  const repeats = options.repeats ?? 3;
  checkOptions(options, repeats);
  const clean: RunSummary[] = [];
  const buggy: RunSummary[] = [];
  for (let attempt = 1; attempt <= repeats; attempt++) {
    const known = options.knownClean?.[attempt - 1];
    // Both copies exist before either run starts, so each run's sandbox can hide the other copy.
    const cleanRoot = known ? undefined : newRunRoot("clean");
    const buggyRoot = newRunRoot("buggy");
    const [c, b] = await Promise.all([
      known
        ? Promise.resolve({ ...known, attempt })
        : runWitnessOnce(options, "clean", attempt, cleanRoot as string, [buggyRoot]),
      runWitnessOnce(options, "buggy", attempt, buggyRoot, cleanRoot ? [cleanRoot] : []),
    ]);
    clean.push(c);
    buggy.push(b);
    const reason = rejection(clean, buggy, repeats);
    if (reason !== undefined) return { accepted: false, reason, clean, buggy };
  }
  const outcome = buggy[0]?.outcome ?? "assertion";
  return {
    accepted: true,
    reason: `passes on clean code and fails with ${outcome} on buggy code in all ${repeats} runs`,
    clean,
    buggy,
  };
}

/**
 * Run the witness on the clean side alone, `repeats` times (stopping at the first run that does not pass):
 * the clean baseline that {@link validateWitness} accepts as `knownClean` for every candidate bug sharing
 * this clean folder, witness and command. It decides nothing itself.
 * @throws InputError like {@link validateWitness}
 */
export async function runCleanBaseline(
  options: Omit<ValidateWitnessOptions, "buggy" | "knownClean">,
): Promise<RunSummary[]> {
  const repeats = options.repeats ?? 3;
  checkOptions({ ...options, buggy: options.clean }, repeats);
  const runs: RunSummary[] = [];
  for (let attempt = 1; attempt <= repeats; attempt++) {
    const run = await runWitnessOnce(
      { ...options, buggy: options.clean },
      "clean",
      attempt,
      newRunRoot("clean"),
      [],
    );
    runs.push(run);
    if (run.outcome !== "pass") break;
  }
  return runs;
}

/** Why the runs so far rule acceptance out (the latest round is the last element), or undefined. */
function rejection(clean: RunSummary[], buggy: RunSummary[], repeats: number): string | undefined {
  const c = clean.at(-1);
  const b = buggy.at(-1);
  if (c === undefined || b === undefined) return undefined;
  const n = c.attempt;
  const runOf = `run ${n} of ${repeats}`;
  if (c.outcome !== "pass") {
    if (n > 1) return `flaky: clean ${runOf} failed (${c.outcome})`;
    if (c.outcome === "timeout") return "timeout on clean";
    return `fails on clean code too (${c.outcome})`;
  }
  if (b.outcome === "pass") {
    return n > 1 ? `flaky: buggy ${runOf} passed` : "passes on buggy code too: it does not witness the bug";
  }
  if (b.outcome === "timeout") return n > 1 ? `timeout on buggy (${runOf})` : "timeout on buggy";
  if (!isSemanticFailure(b.outcome)) {
    return `buggy side fails with ${b.outcome}, not a semantic failure${n > 1 ? ` (${runOf})` : ""}`;
  }
  const first = buggy[0];
  if (first !== undefined && first.outcome !== b.outcome) {
    return `flaky: buggy ${runOf} failed with ${b.outcome}, run 1 with ${first.outcome}`;
  }
  return undefined;
}

/** A fresh run folder; both sides get the same kind of name, so a test cannot tell from its path which it is on. */
function newRunRoot(_side: "clean" | "buggy"): string {
  return mkdtempSync(path.join(os.tmpdir(), "gauntlet-run-"));
}

/**
 * Copy one side into `root` (a fresh temp folder), add the witness, run the command there, classify, remove
 * `root`. Under bwrap, `others` (the other side's copy) and `options.hide` are hidden from the test.
 */
async function runWitnessOnce(
  options: ValidateWitnessOptions,
  side: "clean" | "buggy",
  attempt: number,
  root: string,
  others: readonly string[],
): Promise<RunSummary> {
  try {
    const repo = path.join(root, "repo");
    const home = path.join(root, "home");
    const tmp = path.join(root, "tmp");
    for (const d of [repo, home, tmp]) mkdirSync(d);
    await copyTree(options[side], repo, { exclude: ["node_modules", ".git"] });
    if (options.deps) symlinkSync(options.deps, path.join(repo, "node_modules"));
    for (const w of witnessFiles(options)) {
      const target = path.join(repo, w.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, w.content);
    }
    const bwrap = options.sandbox === false ? undefined : detectBwrap();
    const hidden = [...others, ...(options.hide ?? [])];
    const sandbox = bwrap ? makeSandbox(bwrap, root, options.deps ? [options.deps] : [], hidden) : undefined;
    const [file, ...args] = options.command as [string, ...string[]];
    let result: Awaited<ReturnType<typeof runProcess>> | undefined;
    let spawnError: string | undefined;
    const started = Date.now();
    try {
      result = await runProcess(confine({ file, args }, sandbox, repo), {
        cwd: repo,
        env: { ...(options.env ?? defaultEnv()), HOME: home, TMPDIR: tmp },
        timeoutMs: options.timeoutMs ?? 60_000,
      });
    } catch (error) {
      spawnError = `could not start ${file}: ${error instanceof Error ? error.message : String(error)}`;
    }
    const { outcome, evidence } = classifyTestRun({
      exitCode: result?.exitCode ?? null,
      timedOut: result?.timedOut ?? false,
      stdout: result?.stdout ?? "",
      stderr: result?.stderr ?? "",
      spawnError,
    });
    return {
      side,
      attempt,
      outcome,
      evidence,
      exitCode: result?.exitCode ?? null,
      timedOut: result?.timedOut ?? false,
      durationMs: result?.durationMs ?? Date.now() - started,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function checkOptions(options: ValidateWitnessOptions, repeats: number): void {
  for (const side of ["clean", "buggy"] as const) {
    let isDir = false;
    try {
      isDir = statSync(options[side]).isDirectory();
    } catch {
      // Missing: reported below.
    }
    if (!isDir) {
      throw new InputError(
        { field: side },
        `not a folder: ${options[side]}`,
        `pass the ${side} project's folder`,
      );
    }
  }
  const files = witnessFiles(options);
  if (files.length === 0)
    throw new InputError({ field: "witness" }, "no witness file given", "pass the witness test file");
  for (const w of files) {
    const rel = path.normalize(w.path);
    if (path.isAbsolute(rel) || rel === ".." || rel.startsWith(`..${path.sep}`) || rel === ".") {
      throw new InputError(
        { field: "witness.path" },
        `witness path must be a file inside the project: ${w.path}`,
        "give a relative path such as test/witness.test.mjs",
      );
    }
  }
  if (options.knownClean !== undefined && options.knownClean.length < repeats) {
    throw new InputError(
      { field: "knownClean" },
      `knownClean holds ${options.knownClean.length} runs, ${repeats} needed`,
      "pass one clean run per repeat, or leave knownClean out",
    );
  }
  if (options.command.length === 0 || options.command[0] === "") {
    throw new InputError(
      { field: "command" },
      "the test command is empty",
      'e.g. ["node", "--test", "witness.test.mjs"]',
    );
  }
  if (!Number.isInteger(repeats) || repeats < 1) {
    throw new InputError({ field: "repeats" }, `repeats must be a positive integer, got ${repeats}`);
  }
}

function witnessFiles(options: ValidateWitnessOptions): readonly WitnessFile[] {
  return Array.isArray(options.witness) ? options.witness : [options.witness as WitnessFile];
}

/** A scrubbed environment: enough to find and run Node tools, no secrets, no colours. */
function defaultEnv(): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: os.tmpdir(),
    LANG: process.env.LANG,
    NO_COLOR: "1",
    CI: "1",
  };
}
