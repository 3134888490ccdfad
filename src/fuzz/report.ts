import type { Finding, FindingClass } from "../core/finding.ts";
import { mdTable, textTable } from "../report/tables.ts";
import { caseResultTrajectory } from "../score/import/gauntlet-run.ts";
import { flagged } from "../score/report.ts";
import { type Scorecard, scoreTrajectory } from "../score/scorecard.ts";
import type { FuzzCase } from "./case.ts";
import type { FilteredRun } from "./check.ts";
import { ORACLES } from "./oracles/index.ts";
import type { CaseResult } from "./result.ts";
import { precision } from "./review.ts";
import { counts } from "./second-opinion.ts";

/**
 * The fuzz report model (ABTest Table 2 per agent, plus the evidence behind every finding), built from the
 * run's stage files; rendered as JSON, Markdown and a self-contained HTML page.
 */

export interface AgentSummary {
  agent: string;
  cases: number;
  complete: number;
  incomplete: number;
  findings: Record<FindingClass, number>;
  /** Findings confirmed / reported (null when none reported). */
  precision: number | null;
  reported: number;
  reviewed: number;
  confirmed: number;
  /** Misbehaviours a scripted persona committed on purpose, and how many the oracles caught. */
  seeded: number;
  caught: number;
  /** caught / seeded (null when nothing was seeded). */
  recall: number | null;
}

/** A misbehaviour a scripted persona committed on purpose, and whether an oracle found it (recall). */
export interface ExpectedFinding {
  agent: string;
  caseId: string;
  stepId: string;
  misbehaviour: string;
  oracle: string;
  class: FindingClass;
  found: boolean;
  /**
   * Why a misbehaviour not found was not judged: its step timed out or the case stopped before the oracles
   * had evidence (a timeout is not an oracle miss). Undefined when found, or when it was a real miss.
   */
  notJudged?: string;
  findingId?: string;
}

/** Everything `report.json` holds; `report.md` and `report.html` render it. */
export interface FuzzReport {
  runId: string;
  /** Sentences about the run a reader must see first (from the campaign options). */
  notes: string[];
  createdAt: string;
  repository: { spec: string; testCommand?: string };
  agents: AgentSummary[];
  categories: string[];
  cases: FuzzCase[];
  results: CaseResult[];
  findings: Finding[];
  filtered: FilteredRun[];
  expectedVsFound: ExpectedFinding[];
  /** Findings per action category and agent (ABTest RQ2, Table 4 by category). */
  byCategory: {
    category: string;
    agent: string;
    cases: number;
    critical: number;
    expected_outcome: number;
    minor: number;
  }[];
  oracles: { name: string; description: string }[];
  /** Process scorecard of each case's trajectory (ProcCtrlBench, `gauntlet score`), one per case and agent. */
  scorecards: { caseId: string; agent: string; scorecard: Scorecard }[];
}

/**
 * Rows of the per-case process scorecard table (header first): summary, process quality, control
 * preservation and the flagged defects of each case's trajectory.
 */
export function scorecardRows(report: FuzzReport): string[][] {
  const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(1));
  return [
    ["agent", "case", "calls", "summary", "process", "control", "flagged"],
    ...report.scorecards.map(({ agent, caseId, scorecard: c }) => [
      agent,
      caseId,
      String(c.trajectory.toolCalls),
      f(c.summary),
      f(c.processQuality),
      f(c.controlPreservation),
      flagged(c) || "-",
    ]),
  ];
}

/** One line on a finding's second opinion, e.g. "downgraded from critical by llm:…: reason". */
export function secondOpinionText(f: Finding): string {
  const o = f.secondOpinion!;
  const what =
    o.verdict === "keep"
      ? "kept"
      : o.verdict === "downgrade"
        ? `downgraded from ${o.oracleClass}`
        : "set aside as a false alarm (not counted)";
  return `second opinion: ${what} by ${o.reviewer}${o.verdict === "keep" ? "" : `: ${o.reason}`}`;
}

/** Build the report model (pure). */
export function buildFuzzReport(input: {
  runId: string;
  repository: { spec: string; testCommand?: string };
  cases: FuzzCase[];
  results: CaseResult[];
  findings: Finding[];
  filtered: FilteredRun[];
  notes?: string[];
  now?: Date;
}): FuzzReport {
  // Findings a second opinion set aside are listed but not counted (see second-opinion.ts).
  const counted = input.findings.filter(counts);
  const expectedVsFound: ExpectedFinding[] = input.results.flatMap((r) =>
    r.steps.flatMap((s) =>
      s.seeded.map((m) => {
        const hit = counted.find(
          (f) =>
            f.agent === r.agent &&
            f.caseId === r.caseId &&
            f.stepId === m.stepId &&
            f.oracle === m.oracle &&
            // The oracle's own class: a reviewer's downgrade does not make the detection a miss.
            (f.secondOpinion?.oracleClass ?? f.class) === m.class,
        );
        const step = r.steps.find((x) => x.stepId === m.stepId);
        const timedOut = m.oracle !== "step-timeout" && step?.status === "timeout";
        const notJudged = hit
          ? undefined
          : timedOut
            ? `step ${m.stepId} timed out after ${Math.round((step?.durationMs ?? 0) / 1000)} s (limit ${Math.round((step?.limitMs ?? 0) / 1000)} s) before the oracles had evidence`
            : r.status === "incomplete"
              ? `the case was incomplete: ${r.incompleteReason ?? "an agent step failed"}`
              : undefined;
        return {
          agent: r.agent,
          caseId: r.caseId,
          stepId: m.stepId,
          misbehaviour: m.id,
          oracle: m.oracle,
          class: m.class,
          found: Boolean(hit),
          ...(notJudged ? { notJudged } : {}),
          findingId: hit?.id,
        };
      }),
    ),
  );
  const agents = [...new Set(input.results.map((r) => r.agent))].sort().map((agent): AgentSummary => {
    const results = input.results.filter((r) => r.agent === agent);
    const findings = counted.filter((f) => f.agent === agent);
    const seeded = expectedVsFound.filter((e) => e.agent === agent);
    const p = precision(findings);
    const caught = seeded.filter((e) => e.found).length;
    return {
      agent,
      cases: results.length,
      complete: results.filter((r) => r.status === "complete").length,
      incomplete: results.filter((r) => r.status === "incomplete").length,
      findings: {
        critical: findings.filter((f) => f.class === "critical").length,
        expected_outcome: findings.filter((f) => f.class === "expected_outcome").length,
        minor: findings.filter((f) => f.class === "minor").length,
      },
      precision: p.precision,
      reported: p.reported,
      reviewed: p.reviewed,
      confirmed: p.confirmed,
      seeded: seeded.length,
      caught,
      recall: seeded.length ? caught / seeded.length : null,
    };
  });
  const categoryOf = new Map(input.cases.map((c) => [c.caseId, c.category]));
  const byCategory = [...new Set(input.cases.map((c) => c.category))].sort().flatMap((category) =>
    agents.map(({ agent }) => {
      const fs = counted.filter((f) => f.agent === agent && categoryOf.get(f.caseId) === category);
      return {
        category,
        agent,
        cases: input.results.filter((r) => r.agent === agent && categoryOf.get(r.caseId) === category).length,
        critical: fs.filter((f) => f.class === "critical").length,
        expected_outcome: fs.filter((f) => f.class === "expected_outcome").length,
        minor: fs.filter((f) => f.class === "minor").length,
      };
    }),
  );
  return {
    runId: input.runId,
    notes: input.notes ?? [],
    createdAt: (input.now ?? new Date()).toISOString(),
    repository: input.repository,
    agents,
    categories: [...new Set(input.cases.map((c) => c.category))].sort(),
    cases: input.cases,
    results: input.results,
    findings: input.findings,
    filtered: input.filtered,
    expectedVsFound,
    byCategory,
    oracles: ORACLES.map((o) => ({ name: o.name, description: o.description })),
    scorecards: input.results.map((r, i) => ({
      caseId: r.caseId,
      agent: r.agent,
      scorecard: scoreTrajectory(
        caseResultTrajectory(r as unknown as Record<string, unknown>, "results.jsonl", i + 1),
      ),
    })),
  };
}

/**
 * Precision as ABTest §4.4 defines it (confirmed / reported), shown only once findings have been reviewed;
 * while some are unreviewed it is a lower bound ("≥").
 */
function precisionText(a: AgentSummary): string {
  if (a.reported === 0 || a.reviewed === 0) return "–";
  const unreviewed = a.reported - a.reviewed;
  return unreviewed ? `≥ ${pct(a.precision)} (${unreviewed} unreviewed)` : pct(a.precision);
}

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 1000) / 10}%`);

/** Rows of the per-agent summary table (shared by the terminal, Markdown and HTML renderings). */
export function summaryRows(report: FuzzReport): string[][] {
  return [
    [
      "agent",
      "cases",
      "complete",
      "critical",
      "expected_outcome",
      "minor",
      "confirmed / reported",
      "precision",
      "seeded caught",
    ],
    ...report.agents.map((a) => [
      a.agent,
      String(a.cases),
      String(a.complete),
      String(a.findings.critical),
      String(a.findings.expected_outcome),
      String(a.findings.minor),
      `${a.confirmed}/${a.reported}`,
      precisionText(a),
      a.seeded ? `${a.caught}/${a.seeded} (${pct(a.recall)})` : "–",
    ]),
  ];
}

/** Rows of the findings-per-action-category table (ABTest RQ2). */
export function categoryRows(report: FuzzReport): string[][] {
  return [
    ["action category", "agent", "cases", "critical", "expected_outcome", "minor"],
    ...report.byCategory.map((r) => [
      r.category,
      r.agent,
      String(r.cases),
      String(r.critical),
      String(r.expected_outcome),
      String(r.minor),
    ]),
  ];
}

/** Text as an indented Markdown code block (list-item level), at most `maxLines` lines. */
function indentedBlock(text: string, maxLines: number): string {
  const lines = text.split("\n");
  const shown = lines.slice(0, maxLines).map((l) => `      ${l}`);
  if (lines.length > maxLines) shown.push(`      … (${lines.length - maxLines} more lines)`);
  return shown.join("\n");
}

/** Markdown summary of a fuzz report. */
export function renderFuzzMarkdown(report: FuzzReport): string {
  const out: string[] = [
    `# Gauntlet fuzz report — run ${report.runId}`,
    "",
    ...report.notes.flatMap((n) => [`> **Note:** ${n}`, ""]),
    `Repository: \`${report.repository.spec}\` (test command: \`${report.repository.testCommand ?? "none"}\`). ` +
      `${report.cases.length} cases across ${report.categories.length} action categories (${report.categories.join(", ")}).`,
    "",
    mdTable(summaryRows(report)),
    "",
  ];
  out.push("## Findings by action category", "", mdTable(categoryRows(report)), "");
  out.push(
    "## Process scorecards",
    "",
    "Each case's trajectory scored like `gauntlet score` does (0–100, higher is better; W warning, E error).",
    "",
    mdTable(scorecardRows(report)),
    "",
  );
  if (report.expectedVsFound.length) {
    out.push("## Seeded misbehaviours: expected vs found", "");
    out.push(
      mdTable([
        ["agent", "case", "step", "misbehaviour", "expected oracle", "class", "found"],
        ...report.expectedVsFound.map((e) => [
          e.agent,
          e.caseId,
          e.stepId,
          e.misbehaviour,
          e.oracle,
          e.class,
          e.found ? "yes" : e.notJudged ? `not judged: ${e.notJudged}` : "**NO**",
        ]),
      ]),
      "",
    );
  }
  out.push("## Findings", "");
  if (report.findings.length === 0) out.push("No findings.", "");
  for (const f of report.findings)
    out.push(
      `- **${f.class}** \`${f.oracle}\` — ${f.agent} · ${f.caseId} · ${f.stepId ?? "case"}: ${f.title}` +
        (f.review.status !== "unreviewed"
          ? ` _(${f.review.status}${f.review.reason ? `: ${f.review.reason}` : ""})_`
          : "") +
        (f.secondOpinion ? ` _(${secondOpinionText(f)})_` : "") +
        (f.evidence.quotes.length ? `\n\n${indentedBlock(f.evidence.quotes.join("\n"), 12)}\n` : ""),
    );
  if (report.filtered.length) {
    out.push("", "## Incomplete runs (filtered, ABTest §3.5)", "");
    for (const r of report.filtered) out.push(`- ${r.agent} · ${r.caseId}: ${r.reason}`);
  }
  return `${out.join("\n")}\n`;
}

export { textTable };
