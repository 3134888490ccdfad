import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentConfig } from "../agents/coding/registry.ts";
import { resolveCodingAgent } from "../agents/coding/registry.ts";
import { InputError, StoppedError } from "../core/errors.ts";
import type { Finding } from "../core/finding.ts";
import { Finding as FindingSchema } from "../core/finding.ts";
import { isInsidePath } from "../core/paths.ts";
import { RunStore } from "../core/run-store.ts";
import type { UsageTotals } from "../models/usage.ts";
import { detectBwrap } from "../workspace/sandbox.ts";
import { resolveSource } from "../workspace/source.ts";
import { sweepStaleWorkspaces } from "../workspace/workspace.ts";
import { type Calibration, calibrate, deriveStepLimitSec } from "./calibrate.ts";
import { FuzzCase } from "./case.ts";
import { checkResults } from "./check.ts";
import { composeSeedTemplates } from "./compose.ts";
import { readCaseFile, readReportFiles, repoContextOf } from "./inputs.ts";
import { instantiateCases } from "./instantiate.ts";
import { mineInventory } from "./inventory.ts";
import { type CampaignRoles, campaignRoles, type ModelsConfig } from "./model-roles.ts";
import { loadModes } from "./modes/load.ts";
import type { FailureMode } from "./modes/schema.ts";
import { buildFuzzReport, type FuzzReport, renderFuzzMarkdown } from "./report.ts";
import { renderFuzzHtml } from "./report-html.ts";
import { CaseResult } from "./result.ts";
import { applyReviews, ReviewDecision } from "./review.ts";
import { type RunProgress, runCases } from "./run.ts";
import { applySecondOpinions, type FindingReviewer, SecondOpinion } from "./second-opinion.ts";
import { inventoryRecords } from "./stage-files.ts";

/**
 * `gauntlet fuzz run`: the whole ABTest pipeline in one run directory — inventory → compose → instantiate →
 * run → check → report — each stage's output a file in `.gauntlet/runs/<run-id>/`. A run started with
 * `resume` reuses the stored options and cases and only runs the (agent, case) pairs not yet finished.
 */

/** The failure-report corpus shipped with Gauntlet (public reports of coding agents). */
export const DEFAULT_REPORTS = fileURLToPath(
  new URL("../../data/agent-anomaly-reports.jsonl", import.meta.url),
);

export { readCaseFile, readReportFiles, repoContextOf } from "./inputs.ts";

/** Options of a campaign, stored in `run.json`. */
export interface CampaignOptions {
  repo: string;
  /** Failure-report corpus, one file or several (read in order; ids must be unique across them). */
  reports: string | string[];
  agents: string[];
  maxCases: number;
  /** Per-step time limit, seconds; undefined: derived from the calibration run (calibrate.ts). */
  stepTimeoutSec?: number;
  /** Folders of the user's own failure modes, added to the shipped library (data/modes). */
  modes?: string[];
  onTimeout: "continue" | "stop";
  jobs: number;
  keep: boolean;
  passEnv: string[];
  /** Run these cases (a `cases.jsonl` kept as a regression suite) instead of generating new ones. */
  cases?: string;
  /** Confine agent processes with bubblewrap when it is available (`auto`, the default) or never (`off`). */
  sandbox?: "auto" | "off";
  /** Sentences shown at the top of the report (e.g. that a demo's model was scripted to misbehave). */
  notes?: string[];
  /** Models of the model-backed roles (screener, task generator, reviewer); rules engines when absent. */
  models?: ModelsConfig;
  /** Answer every model call from this earlier run's `model-calls.jsonl` (no live calls). */
  replay?: string;
  /** The configured agents (from gauntlet.yaml) this run uses, stored so a resume runs exactly them. */
  commandAgents?: AgentConfig[];
}

/** Side channels of a campaign: progress, cancellation, configured agents, where the run store lives. */
export interface CampaignHooks {
  /** Log one line of progress text (stage starts, counts). */
  log?: (line: string) => void;
  onProgress?: (event: RunProgress) => void;
  signal?: AbortSignal;
  /** Agents declared in the config. */
  commandAgents?: readonly AgentConfig[];
  /** Base directory of the run store (default `.gauntlet`). */
  base?: string;
}

/**
 * Run a new campaign, or resume one (`resumeRunId`), and write its reports.
 * @throws InputError / SetupError for bad input (unknown agent, missing repository, bad corpus line)
 */
export async function runFuzzCampaign(
  options: CampaignOptions | { resumeRunId: string; modelLimits?: Pick<ModelsConfig, "budget" | "prices"> },
  hooks: CampaignHooks = {},
): Promise<{ store: RunStore; report: FuzzReport }> {
  const log = hooks.log ?? (() => {});
  const base = hooks.base ?? RunStore.defaultBase();
  let store: RunStore | undefined;
  let unlock: (() => void) | undefined;
  let opts: CampaignOptions;
  if ("resumeRunId" in options) {
    store = RunStore.open(base, options.resumeRunId);
    unlock = store.lock();
    opts = store.readJson("run.json") as CampaignOptions;
    log(`resuming run ${store.runId}`);
    // Budget and prices are limits, not part of what the run tests: a resume takes the current ones (a run
    // stopped by its budget goes on once the budget is raised).
    if (options.modelLimits && opts.models) {
      const before = JSON.stringify(opts.models.budget ?? {});
      opts = { ...opts, models: { ...opts.models, ...options.modelLimits } };
      if (JSON.stringify(opts.models!.budget) !== before)
        log(`model budget now ${JSON.stringify(opts.models!.budget)} (was ${before})`);
      store.writeJson("run.json", opts);
    }
  } else {
    // The command agents this run uses are stored with it, so a resume runs the same agents whatever
    // gauntlet.yaml says by then.
    const used = (hooks.commandAgents ?? []).filter((a) =>
      options.agents.some((s) => s === `command:${a.name}` || s === a.name),
    );
    opts = { ...options, commandAgents: used };
    // Validate every input before any work, so a bad one leaves no run directory behind.
    for (const a of opts.agents) resolveCodingAgent(a, used);
    if (opts.replay && !existsSync(opts.replay))
      throw new InputError(
        { file: opts.replay },
        "model-call record not found",
        "give the model-calls.jsonl of an earlier run (.gauntlet/runs/<id>/model-calls.jsonl)",
      );
    campaignRoles(opts.models, path.join(os.tmpdir(), "gauntlet-validate-only.jsonl"), {
      replayFile: opts.replay,
    });
    loadModes(opts.modes ?? []);
    if (opts.cases) {
      const given = readCaseFile(opts.cases);
      if (given.length === 0)
        throw new InputError(
          { file: opts.cases },
          "holds no case",
          "give a cases.jsonl with at least one case",
        );
    } else readReportFiles(opts.reports);
  }
  const commandAgents = opts.commandAgents ?? hooks.commandAgents ?? [];
  opts = { ...opts, agents: [...new Set(opts.agents)] };
  const agents = opts.agents.map((a) => resolveCodingAgent(a, commandAgents));
  for (const name of opts.passEnv)
    if (process.env[name] === undefined)
      log(`warning: --pass-env ${name}: not set in this environment, so not passed`);
  const bwrap = opts.sandbox === "off" ? undefined : detectBwrap();
  if (opts.sandbox === "off") log("sandbox: off (--no-sandbox): agents can write anywhere this user can");
  else if (!bwrap)
    log(
      "warning: bwrap (Debian package bubblewrap) not found or not usable: agents run without a filesystem sandbox",
    );
  else if (isInsidePath(os.tmpdir(), os.homedir()))
    log(
      `warning: the temp directory ${os.tmpdir()} is inside your HOME, so the sandbox cannot hide HOME; set TMPDIR elsewhere`,
    );
  const swept = sweepStaleWorkspaces();
  if (swept.length) log(`removed ${swept.length} workspace(s) left by an interrupted run`);
  const source = await resolveSource(opts.repo, { onProgress: (m) => log(m) });
  if (!store) {
    store = RunStore.create(base, opts);
    log(`run ${store.runId} → ${store.dir}`);
  }

  const usedBefore = existsSync(store.file("model-usage.json"))
    ? (store.readJson("model-usage.json") as { byRole?: Record<string, UsageTotals> }).byRole
    : undefined;
  const roles = campaignRoles(opts.models, store.file("model-calls.jsonl"), {
    replayFile: opts.replay,
    onRetry: (line) => log(`model: ${line}`),
    usedBefore,
  });
  if (roles.usesModels)
    log(
      `models: screener ${roles.screener.engine}, task generator ${roles.taskGenerator.engine}, reviewer ${roles.reviewer?.engine ?? "none"}${opts.replay ? ` (replaying ${opts.replay})` : ""}`,
    );
  unlock ??= store.lock();
  try {
    return await campaignStages(store, opts, roles, { source, bwrap, agents, log, hooks });
  } finally {
    if (roles.usesModels) reportModelUsage(store, roles, log, opts.replay !== undefined);
    unlock();
  }
}

/** Write `model-usage.json` (totals per role) and log one line of totals. */
function reportModelUsage(
  store: RunStore,
  roles: CampaignRoles,
  log: (line: string) => void,
  replayed: boolean,
): void {
  const total = roles.ledger.total();
  store.writeJson("model-usage.json", {
    replayed,
    total,
    byRole: roles.ledger.byRole(),
    unpriced: [...roles.ledger.unpriced],
  });
  log(
    `model usage${replayed ? " (replayed from the record: nothing was spent)" : ""}: ${total.calls} calls, ${total.inputTokens} input + ${total.outputTokens} output tokens, $${total.costUsd.toFixed(4)}${roles.ledger.unpriced.size ? ` (no price for ${[...roles.ledger.unpriced].join(", ")})` : ""}`,
  );
}

/** The stages after set-up: inventory → compose → instantiate (unless resumed or given cases) → run → check. */
async function campaignStages(
  store: RunStore,
  opts: CampaignOptions,
  roles: CampaignRoles,
  ctx: {
    source: Awaited<ReturnType<typeof resolveSource>>;
    bwrap: string | undefined;
    agents: ReturnType<typeof resolveCodingAgent>[];
    log: (line: string) => void;
    hooks: CampaignHooks;
  },
): Promise<{ store: RunStore; report: FuzzReport }> {
  const { source, bwrap, agents, log, hooks } = ctx;
  let cases = store.read("cases", FuzzCase);
  // Calibration: files the project's tests write by themselves are never blamed on an agent, and the test
  // duration on this machine, now, sets the default step limit.
  let calibration: Calibration;
  if (existsSync(store.file("calibration.json")))
    calibration = store.readJson("calibration.json") as Calibration;
  else {
    calibration = await calibrate(source, { signal: hooks.signal, bwrap });
    if (hooks.signal?.aborted)
      return {
        store,
        report: writeFuzzReports(store, [], [], { spec: opts.repo, testCommand: source.testCommand }),
      };
    store.writeJson("calibration.json", calibration);
  }
  const byproducts = calibration.byproducts;
  if (calibration.testMs !== undefined)
    log(
      `calibration: \`${source.testCommand}\` took ${(calibration.testMs / 1000).toFixed(1)} s${byproducts.length ? ` and writes ${byproducts.join(", ")} itself` : ""}`,
    );
  if (calibration.exitCode !== undefined && calibration.exitCode !== 0)
    log(
      `warning: the project's own tests fail with no agent at all (\`${source.testCommand}\` exited with ${calibration.exitCode ?? "a signal"}): cases that run them test little; fix the project, or pick another version`,
    );
  const realAgents = opts.agents.some((a) => !a.startsWith("scripted:"));
  const stepLimitSec = opts.stepTimeoutSec ?? deriveStepLimitSec(calibration.testMs, realAgents);
  const library = loadModes(opts.modes ?? []);
  const modes: FailureMode[] = library.map((m) => m.mode);
  const withByproducts = (c: FuzzCase): FuzzCase =>
    byproducts.length ? { ...c, repository: { ...c.repository, testByproducts: byproducts } } : c;
  if (cases.length === 0 && opts.cases) {
    cases = readCaseFile(opts.cases).map(withByproducts);
    for (const c of cases) store.append("cases", c);
    log(`cases: ${cases.length} from ${opts.cases}`);
  } else if (cases.length === 0) {
    const reports = readReportFiles(opts.reports);
    const inventory = await mineInventory(reports, modes, roles.placer);
    for (const r of inventoryRecords(inventory)) store.append("inventory", r);
    const unplaced = inventory.placements.filter((p) => p.mode === null);
    for (const m of library.filter((x) => x.user && !x.mode.untestable))
      if (!inventory.placements.some((p) => p.mode === m.mode.id))
        log(
          `note: your mode ${m.mode.id} (${m.file}) got no report, so no case of it is made; give reports that show it with --reports (add --reports ${DEFAULT_REPORTS} to keep the shipped ones), and check its recognisers with \`gauntlet fuzz coverage\``,
        );
    log(
      `inventory: ${reports.length} reports → ${reports.length - unplaced.length} placed in ${new Set(inventory.placements.map((p) => p.mode).filter(Boolean)).size} of ${modes.length} failure modes (${unplaced.length} unplaced, listed in inventory.jsonl), ${inventory.patterns.length} interaction patterns, ${inventory.actionTypes.length} action types`,
    );
    const { screenings, templates } = await composeSeedTemplates(inventory, modes, roles.screener);
    for (const s of screenings) store.append("screenings", s);
    for (const t of templates) store.append("templates", t);
    log(`compose: ${screenings.length} pattern × action pairs screened → ${templates.length} seed templates`);
    const repo = repoContextOf(opts.repo, source);
    const instantiated = await instantiateCases(templates, repo, {
      maxCases: opts.maxCases,
      modes,
      generator: roles.taskGenerator,
    });
    for (const r of instantiated.rejected) store.append("rejected", r);
    cases = instantiated.cases.map(withByproducts);
    for (const c of cases) store.append("cases", c);
    log(
      `instantiate: ${cases.length} cases in ${new Set(cases.map((c) => c.category)).size} action categories (${instantiated.rejected.length} templates rejected${instantiated.rejected.length ? `; reasons in rejected.jsonl, e.g. ${instantiated.rejected[0]!.reason}` : ""})`,
    );
    if (cases.length === 0)
      throw new InputError(
        { file: typeof opts.reports === "string" ? opts.reports : opts.reports.join(", ") },
        "no case could be made: no template of a mode the reports were placed in fits this repository",
        "see the reasons in rejected.jsonl and `gauntlet fuzz coverage --repo <spec>` for where each report went",
      );
  }

  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  log(
    `run: ${plural(cases.length, "case")} × ${plural(agents.length, "agent")}, ${opts.jobs} at a time, step limit ${stepLimitSec} s${opts.stepTimeoutSec === undefined ? " (from calibration)" : ""}`,
  );
  const longest = Math.max(0, ...cases.flatMap((c) => c.steps.map((s) => s.intent.runs?.boundSeconds ?? 0)));
  if (longest && stepLimitSec < longest + 5)
    log(
      `warning: some steps ask the agent to wait up to ${longest} s; a step limit of ${stepLimitSec} s leaves a careful agent too little time (use --step-timeout-sec ${longest + 10} or more)`,
    );
  const results = await runCases({
    agents,
    cases,
    source,
    store,
    stepTimeoutMs: stepLimitSec * 1000,
    onTimeout: opts.onTimeout,
    jobs: opts.jobs,
    keep: opts.keep,
    passEnv: opts.passEnv,
    bwrap,
    onProgress: hooks.onProgress,
    signal: hooks.signal,
  });
  if (roles.reviewer && !hooks.signal?.aborted)
    await secondOpinions(store, cases, results, roles.reviewer, log);
  const report = writeFuzzReports(store, cases, results, {
    spec: opts.repo,
    testCommand: source.testCommand,
  });
  return { store, report };
}

/**
 * Ask the reviewer about every finding that has no stored opinion yet; each opinion is stored as it
 * arrives, so a resumed run asks only about the rest. A spent budget stops the asking, keeping the opinions
 * so far (the remaining findings stand as the oracles classed them).
 */
async function secondOpinions(
  store: RunStore,
  cases: FuzzCase[],
  results: CaseResult[],
  reviewer: FindingReviewer,
  log: (line: string) => void,
): Promise<void> {
  const done = new Set(store.read("second-opinions", SecondOpinion).map((o) => o.id));
  const { findings } = checkResults(cases, results);
  const todo = findings.filter((f) => !done.has(f.id));
  if (!todo.length) return;
  log(`review: asking ${reviewer.engine} for a second opinion on ${todo.length} finding(s)`);
  const caseOf = new Map(cases.map((c) => [c.caseId, c]));
  const resultOf = new Map(results.map((r) => [`${r.agent}\0${r.caseId}`, r]));
  let stopped: StoppedError | undefined;
  await Promise.all(
    todo.map(async (f) => {
      if (stopped) return;
      try {
        const opinion = await reviewer.review(
          f,
          caseOf.get(f.caseId),
          resultOf.get(`${f.agent}\0${f.caseId}`),
        );
        store.append("second-opinions", opinion);
      } catch (error) {
        if (error instanceof StoppedError) stopped ??= error;
        else throw error;
      }
    }),
  );
  if (stopped) log(`review stopped: ${stopped.message}; the other findings keep the oracles' classes`);
}

/**
 * Stage `check` + `report` over a run's files: recompute findings (rewrites `findings.jsonl`), apply the
 * stored review decisions, and write `report.json`, `report.md`, `report.html`.
 */
export function writeFuzzReports(
  store: RunStore,
  cases: FuzzCase[],
  results: CaseResult[],
  repository: { spec: string; testCommand?: string },
): FuzzReport {
  const { findings: raw, filtered } = checkResults(cases, results);
  const findings: Finding[] = applySecondOpinions(
    applyReviews(raw, store.read("reviews", ReviewDecision)),
    store.read("second-opinions", SecondOpinion),
  );
  store.writeText(
    "findings.jsonl",
    findings.map((f) => `${JSON.stringify(FindingSchema.parse(f))}\n`).join(""),
  );
  let notes: string[] = [];
  try {
    notes = (store.readJson("run.json") as CampaignOptions).notes ?? [];
  } catch {
    // A run directory without run.json (made by hand or by tests) has no notes.
  }
  const report = buildFuzzReport({
    runId: store.runId,
    repository,
    cases,
    results,
    findings,
    filtered,
    notes,
  });
  store.writeJson("report.json", report);
  store.writeText("report.md", renderFuzzMarkdown(report));
  store.writeText("report.html", renderFuzzHtml(report));
  return report;
}

/** Re-read a run's cases and results and rewrite its findings and reports. */
export function rebuildFuzzReports(store: RunStore): FuzzReport {
  const opts = store.readJson("run.json") as CampaignOptions;
  const cases = store.read("cases", FuzzCase);
  const results = store.read("results", CaseResult);
  const testCommand = cases[0]?.repository.testCommand;
  return writeFuzzReports(store, cases, results, { spec: opts.repo, testCommand });
}
