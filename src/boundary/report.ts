import type { GuardCoverage } from "./guards.ts";
import type { RejectedTest } from "./stabilise.ts";
import type {
  AuditRates,
  AuditSummary,
  StageCost,
  TestCase,
  TestRun,
  Verdict,
  WorkflowGraph,
} from "./types.ts";

/**
 * The boundary report's data: what a campaign hands the renderers, the verdict summary, and the table rows
 * shared by the HTML page and any text rendering (AgentEval §VI: verdicts, Table VIII costs, Tables III/VII
 * audit).
 */

/** Everything the boundary report shows. */
export interface BoundaryReportInput {
  /** Name of the agent under test. */
  target: string;
  /** ISO 8601 time the report was made. */
  createdAt: string;
  /** The workflow graph drawn by our own renderer; inlined as is (trusted). */
  graphSvg?: string;
  /** The graph, for its node / edge / entry / terminal counts. */
  graph?: WorkflowGraph;
  tests: TestCase[];
  /** Guards and branches discovery saw, with the tests targeting each (guards.ts). */
  guards?: GuardCoverage[];
  /** Tests dropped at plan time because the agent failed them (stabilise.ts): possible faults to review. */
  rejected?: RejectedTest[];
  runs: TestRun[];
  costs: StageCost[];
  audit?: AuditSummary;
  /** All stages' tokens (in + out) divided by the distinct boundaries the plan covers (AgentEval Table VIII). */
  tokensPerDistinctBoundary?: number;
}

/** Verdict counts; `notRun` = planned tests without a run. */
export interface VerdictCounts {
  pass: number;
  fail: number;
  inconclusive: number;
  notRun: number;
}

/** Verdict counts overall and per test kind. */
export interface RunSummary extends VerdictCounts {
  /** Tests counted (planned tests, plus runs of tests not in the plan). */
  total: number;
  byKind: Record<TestCase["kind"], VerdictCounts>;
}

const zero = (): VerdictCounts => ({ pass: 0, fail: 0, inconclusive: 0, notRun: 0 });

/**
 * The last run of each test id, in run order (a re-run replaces the earlier run).
 * @returns map test id → run.
 */
export function latestRuns(runs: readonly TestRun[]): Map<string, TestRun> {
  return new Map(runs.map((r) => [r.testId, r]));
}

/**
 * Count verdicts overall and by kind (the last run of each test counts). Without `tests` every run counts
 * overall only and nothing is `notRun`; with them, planned tests without a run count as `notRun` and runs
 * of unplanned tests count overall only.
 */
export function summarizeRuns(runs: readonly TestRun[], tests: readonly TestCase[] = []): RunSummary {
  const latest = latestRuns(runs);
  const summary: RunSummary = { ...zero(), total: 0, byKind: { functional: zero(), boundary: zero() } };
  const planned = new Set(tests.map((t) => t.id));
  const add = (counts: VerdictCounts, run: TestRun | undefined) => {
    if (run) counts[run.verdict.verdict] += 1;
    else counts.notRun += 1;
  };
  for (const t of tests) {
    add(summary, latest.get(t.id));
    add(summary.byKind[t.kind], latest.get(t.id));
  }
  for (const r of latest.values()) if (!planned.has(r.testId)) add(summary, r);
  summary.total = summary.pass + summary.fail + summary.inconclusive + summary.notRun;
  return summary;
}

/** Order for reading: fail, inconclusive, not run, pass; plan order within each. */
export function orderForReport(tests: readonly TestCase[], runs: ReadonlyMap<string, TestRun>): TestCase[] {
  const rank = (v: Verdict["verdict"] | undefined) =>
    v === "fail" ? 0 : v === "inconclusive" ? 1 : v === undefined ? 2 : 3;
  return tests
    .map((t, i) => ({ t, i, r: rank(runs.get(t.id)?.verdict.verdict) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.t);
}

/** Longest text of a turn, quote, reason or target error the report and JUnit show, characters (UTF-16 units). */
export const SHOWN_CHARS = 4000;

/**
 * Text from the target made safe to show: `\r\n` and lone `\r` become `\n`, ANSI escape sequences (colours
 * of a process's stderr) and every other control character — C0 except `\n` and `\t`, DEL, C1 — are removed.
 */
export function stripControls(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences (CSI … final byte)
      .replace(/\u001B\[[0-?]*[ -/]*[@-~]/g, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, "")
  );
}

/**
 * Cut a text to `max` characters, saying how much was left out: `…` and ` (N more characters)`. A surrogate
 * pair is never split.
 */
export function clipText(text: string, max = SHOWN_CHARS): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString("en-US")} more characters)`;
}

/** A text from a run or plan as shown to people: {@link stripControls}, then {@link clipText}. */
export const shownText = (text: string, max = SHOWN_CHARS) => clipText(stripControls(text), max);

const int = (n: number) => Math.round(n).toLocaleString("en-US");
/** A rate in [0, 1] as a percentage with one decimal, e.g. `83.3%`. */
export const percent = (x: number | undefined) => (x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);

/** Cost table rows (header first, total last): stage, calls, tokens in/out, wall time s, target turns. */
export function costRows(costs: readonly StageCost[]): string[][] {
  const total = costs.reduce(
    (s, c) => ({
      calls: s.calls + c.calls,
      inputTokens: s.inputTokens + c.inputTokens,
      outputTokens: s.outputTokens + c.outputTokens,
      ms: s.ms + c.ms,
      targetTurns: s.targetTurns + c.targetTurns,
    }),
    { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0, targetTurns: 0 },
  );
  const row = (name: string, c: typeof total) => [
    name,
    int(c.calls),
    int(c.inputTokens),
    int(c.outputTokens),
    (c.ms / 1000).toFixed(1),
    int(c.targetTurns),
  ];
  return [
    ["stage", "model calls", "tokens in", "tokens out", "wall time (s)", "target turns"],
    ...costs.map((c) => row(c.stage, c)),
    row("total", total),
  ];
}

/** Audit rates rows (AgentEval Table III), header first: one row per test kind. */
export function auditRateRows(audit: AuditSummary): string[][] {
  const row = (kind: string, r: AuditRates) => [
    kind,
    String(r.tests),
    String(r.valid),
    percent(r.validity),
    r.distinct === undefined ? "—" : String(r.distinct),
    percent(r.duplicateRate),
    percent(r.falseAlarmRate),
    percent(r.accuracy),
    percent(r.inconclusiveRate),
  ];
  return [
    [
      "kind",
      "tests",
      "valid",
      "validity",
      "distinct",
      "duplicate rate",
      "false alarm rate",
      "accuracy",
      "inconclusive rate",
    ],
    row("functional", audit.functional),
    row("boundary", audit.boundary),
  ];
}
