import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AirlineFaults } from "../agents/chat/airline/agent.ts";
import type { ChatTarget } from "../agents/chat/target.ts";
import { InputError, SetupError } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";
import { appendJsonl, readJsonlIfExists } from "../core/jsonl.ts";
import { makeDirectory, shownPath } from "../core/paths.ts";
import type { UsageLedger } from "../models/usage.ts";
import { auditPlan } from "./audit.ts";
import { discover } from "./discover.ts";
import { mineDirectlyFollowsGraph, renderGraphSvg } from "./graph.ts";
import { guardCoverage, guardCoverageLine } from "./guards.ts";
import { type CampaignSummary, writeCampaignOutputs } from "./outputs.ts";
import { buildPlan, loadPlan, type PlanFile, writePlan } from "./plan.ts";
import type { RoleEngines } from "./roles.ts";
import { runPlan } from "./run.ts";
import { stabilisePlan } from "./stabilise.ts";
import {
  AbstractTrace,
  type AuditSummary,
  type Facts,
  type Labeller,
  type SessionTrace,
  type StageCost,
  type TestCase,
  type TestRun,
  type WorkflowGraph,
} from "./types.ts";

/**
 * A boundary campaign end to end (AgentEval Fig. 3): discover → abstract → graph → plan → run (→ audit for
 * the reference agent) → report. Every stage writes its output into the campaign folder as it goes, and a
 * stage whose output is already there is not redone, so an interrupted campaign resumes where it stopped:
 * `traces.jsonl`, `abstract.jsonl`, `graph.json` + `graph.svg`, `plan.yaml` (kept if present, so edits
 * survive), `runs.jsonl`, `audit.json`, then `summary.json`, `report.html` and `junit.xml`. A folder is
 * resumed only for the target spec it was made for (the `target` of its `summary.json`, and of its
 * `plan.yaml` when discovering): another target's traces and verdicts must never be reported as this one's.
 */

/** The engines of a campaign, one per model role; `ledger` counts model usage per role. */
export interface BoundaryEngines extends RoleEngines {
  ledger?: UsageLedger;
  /** Engine per role, for the summary (e.g. `{judge: "llm"}`). */
  engines?: Record<string, string>;
}

export type { CampaignSummary };

/** What a campaign needs. */
export interface CampaignOptions {
  /** The `--target` spec (recorded in the plan) and the opened target. */
  spec: string;
  target: ChatTarget;
  dir: string;
  facts: Facts;
  engines: BoundaryEngines;
  /** R_disc, B_turn (AgentEval §VI-C defaults 12 and 6; ours 24, on while coverage grows up to 100, and 10). */
  rounds?: number;
  /** Budget of coverage-driven discovery (discover.ts `maxRounds`); default `rounds` when that is given, else 200. */
  maxRounds?: number;
  turnBudget?: number;
  functionalMax?: number;
  boundaryBudget?: number;
  /** Reference agent only: faults to audit the plan against (privileged view). */
  auditFaults?: readonly (keyof AirlineFaults)[];
  /** Paraphrase seed of the audited reference agent (the target's own). */
  auditSeed?: number;
  /**
   * Other instances of the same agent (e.g. its other paraphrase seeds): the plan stage runs every test against
   * `target` and these, and keeps only what passes on all (stabilise.ts). Closed by the caller.
   */
  variants?: readonly ChatTarget[];
  /** Runs per test at plan time (stabilise.ts); default max(3, 1 + variants). */
  stabiliseSessions?: number;
  /** Run this plan instead of discovering and planning (`boundary run --plan`). */
  plan?: PlanFile;
  /** With `plan`: the workflow graph picture made with it (its folder's `graph.svg`), for the report. */
  graphSvgFile?: string;
  /** Stop after this stage (`discover` and `plan` commands). */
  until?: "discover" | "plan" | "run";
  onProgress?: (line: string) => void;
}

/** Time a stage and take the ledger's delta and the target turns it used. */
async function stage<T>(
  name: StageCost["stage"],
  ledger: UsageLedger | undefined,
  costs: StageCost[],
  work: () => Promise<{ value: T; targetTurns: number }>,
): Promise<T> {
  const before = ledger?.total();
  const started = performance.now();
  const { value, targetTurns } = await work();
  const after = ledger?.total();
  costs.push({
    stage: name,
    calls: (after?.calls ?? 0) - (before?.calls ?? 0),
    inputTokens: (after?.inputTokens ?? 0) - (before?.inputTokens ?? 0),
    outputTokens: (after?.outputTokens ?? 0) - (before?.outputTokens ?? 0),
    ms: Math.round(performance.now() - started),
    targetTurns,
  });
  return value;
}

/** Label every trace (resuming from `abstract.jsonl`), reusing known activity labels across traces. */
async function abstractTraces(
  traces: readonly SessionTrace[],
  labeller: Labeller,
  facts: Facts,
  file: string,
): Promise<AbstractTrace[]> {
  const done = new Map(readJsonlIfExists(file, AbstractTrace).map((a) => [a.traceId, a]));
  const hashOf = (trace: SessionTrace) =>
    sha256(JSON.stringify(trace.turns.map((t) => [t.user, t.reply]))).slice(0, 16);
  const known = new Set([...done.values()].flatMap((a) => a.turns.map((t) => t.activity)));
  const out: AbstractTrace[] = [];
  for (const trace of traces) {
    let a = done.get(trace.id);
    if (!a || a.turns.length !== trace.turns.length || (a.hash !== undefined && a.hash !== hashOf(trace))) {
      a = { traceId: trace.id, turns: await labeller.label(trace, facts, [...known]), hash: hashOf(trace) };
      appendJsonl(file, a);
    }
    for (const t of a.turns) known.add(t.activity);
    out.push(a);
  }
  return out;
}

/**
 * The traces and abstractions without the turn a target failed on: a session that ended with `target_error`
 * keeps that turn with an empty reply, which is the target's failure, not a step of its workflow — mined, it
 * would become an activity (and terminal) the plan then tests.
 */
function answeredTurns(
  traces: readonly SessionTrace[],
  abstracts: readonly AbstractTrace[],
): { traces: SessionTrace[]; abstracts: AbstractTrace[] } {
  const failed = new Set(
    traces.filter((t) => t.stop === "target_error" && t.turns.at(-1)?.reply === "").map((t) => t.id),
  );
  return {
    traces: traces.map((t) => (failed.has(t.id) ? { ...t, turns: t.turns.slice(0, -1) } : t)),
    abstracts: abstracts.map((a) => (failed.has(a.traceId) ? { ...a, turns: a.turns.slice(0, -1) } : a)),
  };
}

/** Discover, abstract, mine the graph and (unless `until` is `discover`) build the plan. */
async function discoverAndPlan(
  options: CampaignOptions,
  costs: StageCost[],
): Promise<{ traces: SessionTrace[]; abstracts: AbstractTrace[]; graph: WorkflowGraph; plan?: PlanFile }> {
  const { dir, facts, engines, target } = options;
  const file = (name: string) => path.join(dir, name);
  const say = options.onProgress ?? (() => {});
  const ledger = engines.ledger;
  const traces = await stage("discover", ledger, costs, async () => {
    const value = await discover(target, {
      planner: engines.planner,
      driver: engines.driver,
      facts,
      rounds: options.rounds ?? 24,
      maxRounds: options.maxRounds ?? options.rounds ?? 200,
      turnBudget: options.turnBudget ?? 10,
      file: file("traces.jsonl"),
      onProgress: say,
    });
    return { value, targetTurns: value.reduce((n, t) => n + t.turns.length, 0) };
  });
  const failed = traces.filter((t) => t.stop === "target_error");
  if (traces.length && failed.length === traces.length)
    throw new SetupError(
      `${options.spec} did not answer in any of the ${traces.length} discovery sessions: ${failed[0]?.error ?? "no reply"}`,
      /reply has no text|not JSON|reply path|HTTP 4\d\d/i.test(failed[0]?.error ?? "")
        ? "the target answers but not as the target spec expects: check its URL path and reply field (`gauntlet schema boundary-target`), then run the same command again"
        : "check that the target is running and reachable, then run the same command again (failed sessions are redone)",
    );
  if (failed.length)
    say(
      `discover: ${failed.length} of ${traces.length} sessions ended in a target error (redone on the next run)`,
    );
  const abstracts = await stage("abstract", ledger, costs, async () => ({
    value: await abstractTraces(traces, engines.labeller, facts, file("abstract.jsonl")),
    targetTurns: 0,
  }));
  const answered = answeredTurns(traces, abstracts);
  const graph = await stage("graph", ledger, costs, async () => {
    const value = mineDirectlyFollowsGraph(answered.traces, answered.abstracts);
    writeFileSync(file("graph.json"), `${JSON.stringify(value, null, 2)}\n`);
    writeFileSync(file("graph.svg"), renderGraphSvg(value));
    say(`graph: ${value.nodes.length} activities, ${value.edges.length} transitions`);
    return { value, targetTurns: 0 };
  });
  let plan: PlanFile | undefined;
  if (options.until !== "discover") {
    plan = await stage("plan", ledger, costs, async () => {
      if (existsSync(file("plan.yaml"))) {
        say(
          `plan: ${file("plan.yaml")} exists and is kept as it is (edits survive); delete it to plan again`,
        );
        return { value: loadPlan(file("plan.yaml")), targetTurns: 0 };
      }
      const planned = await buildPlan(
        { ...answered, graph, facts },
        { ranker: engines.ranker, generator: engines.generator },
        { functionalMax: options.functionalMax ?? 50, boundaryBudget: options.boundaryBudget ?? 50 },
      );
      const known = knownActivities(answered.abstracts, planned.tests);
      const stable = await stabilisePlan(
        [target, ...(options.variants ?? [])],
        planned.tests,
        { runner: engines.runner, labeller: engines.labeller, judge: engines.judge, facts, known },
        { ...(options.stabiliseSessions ? { sessions: options.stabiliseSessions } : {}), onProgress: say },
      );
      if (stable.droppedValues || stable.droppedCriteria || stable.droppedTests)
        say(
          `plan: running the functional tests dropped ${stable.droppedValues} value(s) and ${stable.droppedCriteria} criterion(s) that did not reproduce, and ${stable.droppedTests} test(s) left with nothing to check`,
        );
      if (stable.rejected.length)
        say(
          `plan: ${stable.rejected.length} test(s) dropped: they did not pass all ${stable.sessions} runs against the agent they were planned from (${stable.rejected.map((r) => r.id).join(", ")})`,
        );
      writeFileSync(
        file("stabilise.json"),
        `${JSON.stringify({ ...stable, tests: stable.tests.map((t) => t.id) }, null, 2)}\n`,
      );
      if (stable.unverified)
        say(`plan: ${stable.unverified} test(s) kept unverified: the target did not answer their runs`);
      say(guardCoverageLine(guardCoverage(graph, stable.tests)));
      const built = { ...planned, tests: stable.tests };
      const value: PlanFile = {
        version: 1,
        target: options.spec,
        createdAt: new Date().toISOString(),
        labeller: engines.engines?.labeller ?? "rules",
        facts,
        activities: graph.nodes.map((n) => n.activity),
        tests: built.tests,
      };
      writePlan(file("plan.yaml"), value);
      say(
        `plan: ${built.tests.filter((t) => t.kind === "functional").length} functional, ${built.tests.filter((t) => t.kind === "boundary").length} boundary tests from ${built.ranked.length} targets`,
      );
      return { value, targetTurns: stable.targetTurns };
    });
  }
  return { traces, abstracts, graph, ...(plan ? { plan } : {}) };
}

/**
 * Run a campaign (see module doc).
 * @returns the summary written to `summary.json` (its costs cover the stages run in this invocation)
 * @throws TargetError never — target failures end a session or make a run inconclusive; InputError for a bad
 *   plan file in the folder, or a folder made for another target spec
 */
export async function runBoundaryCampaign(options: CampaignOptions): Promise<CampaignSummary> {
  const { dir, facts, engines, target } = options;
  checkSameTarget(options);
  makeDirectory(dir);
  const file = (name: string) => path.join(dir, name);
  const say = options.onProgress ?? (() => {});
  const costs: StageCost[] = [];
  const ledger = engines.ledger;

  let traces: SessionTrace[] = [];
  let abstracts: AbstractTrace[] = [];
  let graph: WorkflowGraph | undefined;
  let plan = options.plan;
  if (!plan) {
    ({ traces, abstracts, graph, plan } = await discoverAndPlan(options, costs));
  }
  let runs: TestRun[] = [];
  if (plan && options.until !== "discover" && options.until !== "plan") {
    const tests = plan.tests;
    const known = knownActivities(abstracts, tests);
    runs = await stage("run", ledger, costs, async () => {
      const value = await runPlan(target, tests, {
        runner: engines.runner,
        labeller: engines.labeller,
        judge: engines.judge,
        facts,
        known,
        file: file("runs.jsonl"),
        onProgress: say,
      });
      return { value, targetTurns: value.reduce((n, r) => n + r.turns.length, 0) };
    });
  }
  let audit: AuditSummary | undefined;
  if (plan && options.auditFaults && options.until === undefined) {
    const tests = plan.tests;
    const faults = options.auditFaults;
    audit = await stage("audit", ledger, costs, async () => {
      const { summary } = await auditPlan(
        tests,
        { runner: engines.runner, labeller: engines.labeller, judge: engines.judge, facts },
        { faults, seed: options.auditSeed ?? 1, onProgress: say },
      );
      writeFileSync(file("audit.json"), `${JSON.stringify(summary, null, 2)}\n`);
      return { value: summary, targetTurns: 0 };
    });
  }
  return writeCampaignOutputs(options, { traces, graph, plan, runs, costs, audit });
}

/**
 * Refuse a folder whose records were made for another target spec.
 * @throws InputError naming the folder's file and the two specs
 */
function checkSameTarget(options: CampaignOptions): void {
  const file = (name: string) => path.join(options.dir, name);
  const recorded: { file: string; target: string }[] = [];
  if (existsSync(file("summary.json"))) {
    try {
      const { target } = JSON.parse(readFileSync(file("summary.json"), "utf8")) as { target?: unknown };
      if (typeof target === "string") recorded.push({ file: file("summary.json"), target });
    } catch {
      // An unreadable summary is rewritten at the end; the other records still say which target it was.
    }
  }
  if (!options.plan && existsSync(file("plan.yaml"))) {
    try {
      recorded.push({ file: file("plan.yaml"), target: loadPlan(file("plan.yaml")).target });
    } catch {
      // A plan that does not load is reported by the plan stage, with its file, line and field.
    }
  }
  const other = recorded.find((r) => r.target.trim() !== options.spec.trim());
  if (other)
    throw new InputError(
      { file: shownPath(other.file) },
      `this campaign folder was made for target "${other.target}", not "${options.spec}"; resuming it would report that target's results as this one's`,
      "give another --out (or delete the folder to start over)",
    );
}

/**
 * Activity labels the run-stage labeller should reuse: those of the discovery abstraction and those the plan's
 * checks name (a plan run on its own has no abstraction, and its checks are what the judge compares against).
 */
function knownActivities(abstracts: readonly AbstractTrace[], tests: readonly TestCase[]): string[] {
  const known = new Set(abstracts.flatMap((a) => a.turns.map((t) => t.activity)));
  for (const test of tests)
    for (const { check } of [...test.success, ...test.failure]) {
      if (!check || check.kind === "discloses" || check.kind === "retry" || check.kind === "inconsistent")
        continue;
      for (const a of check.activity ?? []) known.add(a);
      if (check.kind === "ungated" || check.kind === "superseded") for (const g of check.gate) known.add(g);
    }
  return [...known];
}
