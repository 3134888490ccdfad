import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CodingAgentAdapter } from "../agents/coding/adapter.ts";
import { InputError } from "../core/errors.ts";
import { newRunId } from "../core/ids.ts";
import { readJsonlIfExists } from "../core/jsonl.ts";
import { copyTree } from "../workspace/copy-tree.ts";
import { detectBwrap } from "../workspace/sandbox.ts";
import { type PreparedSource, resolveSource } from "../workspace/source.ts";
import { type OracleFile, readCase, readOracle } from "./case-file.ts";
import { EVAL_SETTINGS, type EvalSetting } from "./eval-prompt.ts";
import { type AttemptStatus, EvalAttemptRecord, EvalResultRecord, type Usage } from "./eval-records.ts";
import { type Run, runPair } from "./eval-session.ts";
import { openWitnessProject } from "./project.ts";

export { EVAL_SETTINGS, type EvalSetting } from "./eval-prompt.ts";
export { EvalAttemptRecord, EvalResultRecord } from "./eval-records.ts";

/**
 * The `eval` stage (issue 6 §1 eval; WitnessGym §4): for each packaged case and setting (NoEC, WithEC), give a
 * coding agent the bug report in a fresh workspace holding only the buggy snapshot, and accept its test as a
 * witness iff `validateWitness` does — run in fresh copies of the clean and buggy trees, never in the agent's
 * workspace (WitnessGym notes §4 weak point 9), with every file the agent added under test folders (weak
 * point 10). Up to `attempts` steps per session, each rejected one followed by feedback. Logs: `attempts.jsonl`
 * and `results.jsonl` under `outDir` (see eval-records.ts), plus `witnesses/<case>/<setting>/attempt-<n>/`.
 */

/** What the evaluation needs of a project: its dependencies and how to run chosen test files. */
export interface EvalProject {
  /** A `node_modules` folder to link beside each workspace and validation copy. */
  deps?: string;
  /** Program and arguments running exactly these project-relative test files. */
  commandFor(files: readonly string[]): string[];
  /** The pristine project (its clean code and the construction witness): hidden from the agent and its tests. */
  dir?: string;
}

/** Progress of {@link runWitnessEval}. */
export type EvalEvent =
  | { kind: "pair"; caseId: string; setting: EvalSetting; index: number; total: number }
  | {
      kind: "attempt";
      caseId: string;
      setting: EvalSetting;
      attempt: number;
      status: AttemptStatus;
      reason: string;
    }
  | {
      kind: "result";
      caseId: string;
      setting: EvalSetting;
      success: boolean;
      attempts: number;
      reason: string;
    }
  | { kind: "resumed"; caseId: string; setting: EvalSetting }
  | { kind: "error"; caseId: string; setting?: EvalSetting; message: string };

/** Options of {@link runWitnessEval}. */
export interface EvalOptions {
  /** A build folder holding `cases/` and `oracle/`. */
  buildDir: string;
  /** Results folder; an earlier evaluation there is resumed. */
  outDir: string;
  agent: CodingAgentAdapter;
  /** Default both, NoEC first. */
  settings?: EvalSetting[];
  /** Agent steps per (case, setting). Default 3. */
  attempts?: number;
  /** Time limit of one agent step, ms. Default 600,000. */
  attemptTimeoutMs?: number;
  /** Agent time allowed per (case, setting) over all its attempts, ms. Default 1,800,000. */
  caseTimeoutMs?: number;
  /** Validation runs per side. Default 3. */
  repeats?: number;
  /** Time limit of one validation test run, ms. Default 60,000. */
  testTimeoutMs?: number;
  /** Default: `openWitnessProject` from project.ts. Called once per project spec. */
  resolveProject?: (spec: string) => Promise<EvalProject>;
  /** Confine the agent and the validation runs with bubblewrap (build, results and clean trees hidden). Default: when bwrap works. */
  sandbox?: boolean;
  /** Names of our environment variables to pass to the agent (others are scrubbed). */
  passEnv?: readonly string[];
  onProgress?: (event: EvalEvent) => void;
  /** Stops after the running step; finished results are kept and the rest is resumed next time. */
  signal?: AbortSignal;
  /** Evaluate only these case ids. */
  caseIds?: string[];
}

/** Successes over decided (case, setting) pairs. */
export interface SettingRate {
  total: number;
  success: number;
  /** success / total, or null when total is 0. */
  rate: number | null;
}

/** What {@link runWitnessEval} returns. */
export interface EvalSummary {
  agent: string;
  outDir: string;
  /** Cases selected. */
  cases: number;
  /** Pairs decided by this run. */
  ran: number;
  /** Pairs skipped because results.jsonl already had them. */
  resumed: number;
  /** Pairs that could not be evaluated (setup failures); retried by the next run. */
  errors: { caseId: string; setting?: EvalSetting; message: string }[];
  interrupted: boolean;
  /** Results in results.jsonl for this agent and the selected cases (this run's and earlier runs'). */
  results: number;
  /** Of those, successes. */
  successes: number;
  /** The same, per setting. */
  bySetting: Record<EvalSetting, SettingRate>;
  /** Agent time and usage of this run. */
  agentMs: number;
  usage: Usage;
}

/**
 * Evaluate an agent on packaged cases. Agent failures and timeouts are recorded, never thrown; a case whose
 * workspace or session cannot be set up is reported in `errors` (and retried on the next run).
 * @throws InputError when `buildDir` has no cases, a requested case id is unknown, or an option is invalid
 */
export async function runWitnessEval(given: EvalOptions): Promise<EvalSummary> {
  // Relative folders would be read relative to whichever process copies them (cp, the agent): make them absolute.
  const options = { ...given, buildDir: path.resolve(given.buildDir), outDir: path.resolve(given.outDir) };
  const settings = options.settings ?? [...EVAL_SETTINGS];
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new InputError({ field: "attempts" }, `attempts must be a positive integer, got ${attempts}`);
  const ids = selectCases(options.buildDir, options.caseIds);
  const outDir = path.resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const run: Run = {
    options,
    runId: newRunId(),
    attempts,
    attemptsFile: path.join(outDir, "attempts.jsonl"),
    resultsFile: path.join(outDir, "results.jsonl"),
    bwrap: options.sandbox === false ? undefined : detectBwrap(),
    agentMs: 0,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  };
  // A line torn by a crash is cut away before anything is appended after it.
  readJsonlIfExists(run.attemptsFile, EvalAttemptRecord, { repairTornTail: true });
  const key = (caseId: string, setting: string) => `${caseId}\0${setting}\0${options.agent.name}`;
  const done = new Set(
    readJsonlIfExists(run.resultsFile, EvalResultRecord, { repairTornTail: true }).map((r) =>
      key(r.caseId, r.setting),
    ),
  );
  const projects = new Map<string, Promise<EvalProject>>();
  const resolveProject = options.resolveProject ?? defaultResolveProject;
  const summary = { ran: 0, resumed: 0, errors: [] as EvalSummary["errors"], interrupted: false };
  const emit = (e: EvalEvent) => options.onProgress?.(e);
  const error = (caseId: string, setting: EvalSetting | undefined, message: string) => {
    summary.errors.push({ caseId, ...(setting ? { setting } : {}), message });
    emit({ kind: "error", caseId, ...(setting ? { setting } : {}), message });
  };
  const total = ids.length * settings.length;
  let index = 0;

  for (const id of ids) {
    if (options.signal?.aborted) break;
    const todo = settings.filter((s) => !done.has(key(id, s)));
    for (const s of settings.filter((s) => done.has(key(id, s)))) {
      index++;
      summary.resumed++;
      emit({ kind: "resumed", caseId: id, setting: s });
    }
    if (todo.length === 0) continue;
    let cleanRoot: string | undefined;
    try {
      const c = readCase(path.join(options.buildDir, "cases", id));
      const oracle = readOracle(path.join(options.buildDir, "oracle", id));
      if (!projects.has(c.project.spec)) projects.set(c.project.spec, resolveProject(c.project.spec));
      const project = await projects.get(c.project.spec)!;
      cleanRoot = mkdtempSync(path.join(os.tmpdir(), "gauntlet-witness-eval-"));
      const clean = await cleanTree(options.buildDir, oracle, path.join(cleanRoot, "clean"));
      const source: PreparedSource = {
        ...(await resolveSource(path.join(options.buildDir, "cases", id, "repo"))),
      };
      if (project.deps) source.depsDir = project.deps;
      else delete source.depsDir;
      for (const setting of todo) {
        if (options.signal?.aborted) break;
        emit({ kind: "pair", caseId: id, setting, index: ++index, total });
        try {
          const result = await runPair(run, { c, setting, project, source, clean, cleanRoot });
          if (result === "aborted") break;
          summary.ran++;
        } catch (e) {
          error(id, setting, message(e));
        }
      }
    } catch (e) {
      error(id, undefined, message(e));
    } finally {
      if (cleanRoot) rmSync(cleanRoot, { recursive: true, force: true });
    }
  }
  summary.interrupted = options.signal?.aborted ?? false;

  const latest = new Map<string, EvalResultRecord>();
  const selected = new Set(ids);
  for (const r of readJsonlIfExists(run.resultsFile, EvalResultRecord))
    if (r.agent === options.agent.name && selected.has(r.caseId)) latest.set(key(r.caseId, r.setting), r);
  const bySetting = {} as Record<EvalSetting, SettingRate>;
  for (const s of EVAL_SETTINGS) {
    const rows = [...latest.values()].filter((r) => r.setting === s);
    const success = rows.filter((r) => r.success).length;
    bySetting[s] = { total: rows.length, success, rate: rows.length === 0 ? null : success / rows.length };
  }
  const all = [...latest.values()];
  return {
    agent: options.agent.name,
    outDir,
    cases: ids.length,
    ...summary,
    results: all.length,
    successes: all.filter((r) => r.success).length,
    bySetting,
    agentMs: run.agentMs,
    usage: run.usage,
  };
}

/** The clean tree: the case snapshot with the oracle's originals put back (and files the bug added removed). */
async function cleanTree(buildDir: string, oracle: OracleFile, into: string): Promise<string> {
  mkdirSync(into, { recursive: true });
  await copyTree(path.join(buildDir, "cases", oracle.id, "repo"), into);
  for (const f of oracle.changedFiles) {
    const target = path.join(into, f.path);
    rmSync(target, { force: true });
    if (f.kind === "modified")
      copyFileSync(path.join(buildDir, "oracle", oracle.id, "clean", f.path), target);
  }
  return into;
}

/** The case ids under `<buildDir>/cases`, sorted, or the requested subset. */
function selectCases(buildDir: string, wanted: readonly string[] | undefined): string[] {
  const root = path.join(buildDir, "cases");
  if (!existsSync(root))
    throw new InputError(
      { field: "buildDir" },
      `${buildDir} holds no cases/ folder`,
      "build cases first with `gauntlet witness build`",
    );
  const all = readdirSync(root)
    .filter((d) => existsSync(path.join(root, d, "case.json")))
    .sort();
  if (wanted === undefined) return all;
  const unknown = wanted.filter((id) => !all.includes(id));
  if (unknown.length > 0)
    throw new InputError(
      { field: "caseIds" },
      `unknown case id${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
      `cases in ${root}: ${all.slice(0, 5).join(", ")}${all.length > 5 ? ", …" : ""}`,
    );
  return [...new Set(wanted)].sort();
}

async function defaultResolveProject(spec: string): Promise<EvalProject> {
  return openWitnessProject(spec);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
