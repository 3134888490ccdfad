import { z } from "zod";
import { readJsonl } from "../core/jsonl.ts";
import { Placement, placeReports, type ReportPlacer, rulesPlacer } from "./modes/recognise.ts";
import type { FailureMode } from "./modes/schema.ts";
import {
  KIND_STEP_TEXT,
  kindsToPhases,
  type Phase,
  STEP_KINDS,
  type StepKind,
  skeletonKinds,
} from "./step-kinds.ts";

/**
 * Stage `inventory` (ABTest §3.1): mine failure reports into Interaction Patterns (workflow skeletons) and
 * Action Types (stressed operations of one failure mode), each citing the report ids it came from; every
 * report is placed in a failure mode by the modes' own recognisers (modes/recognise.ts), and reports that fit
 * no mode are kept as *unplaced*, with the reason.
 *
 * Merge rules (documented, deterministic, independent of report order — reports are taken in id order):
 * - Patterns: each report's `interaction_pattern` is abstracted into step kinds and then into workflow
 *   phases (step-kinds.ts: inspection and user instructions dropped, e.g. run/generate → execute/produce,
 *   fail/hang/interrupt → disrupt). Reports whose phase sequences are equal form one pattern; a report
 *   joins an existing pattern when the Jaccard similarity of their phase-bigram sets is ≥
 *   {@link PATTERN_MERGE_JACCARD}, or when one phase sequence (of ≥ 2 phases) is a subsequence of the
 *   other, and they start with the same phase (same workflow, different surface details). The pattern keeps
 *   the step kinds of its first report as its skeleton.
 * - Action types: reports placed in the same failure mode with the same action category form one action
 *   type; its stressed operation lists the distinct operations of its reports.
 */

export const PATTERN_MERGE_JACCARD = 0.5;

/** One public failure report of a coding agent (`agent-anomaly-reports.jsonl`, snake_case as published). */
export const AnomalyReport = z
  .object({
    id: z.string().min(1),
    agent: z.string(),
    title: z.string(),
    url: z.string().optional(),
    summary: z.string().optional(),
    user_intent: z.string().optional(),
    observed_behaviour: z.string(),
    expected_behaviour: z.string().optional(),
    interaction_pattern: z.string().min(1).describe("Workflow skeleton, steps separated by `->`."),
    action_type: z.string().min(1).describe("Action category, e.g. `File Operation`."),
    stressed_operation: z.string().min(1),
    observable_signal: z.string(),
    severity: z.string().optional(),
  })
  .describe("A user-reported, developer-confirmed anomaly of a coding agent.");
export type AnomalyReport = z.infer<typeof AnomalyReport>;

export const InteractionPattern = z
  .object({
    id: z.string().describe("`IP-NN`."),
    description: z.string().describe("Workflow at an abstract level: step kinds joined by →."),
    kinds: z.array(z.enum(STEP_KINDS)).describe("Step kinds of the skeleton, in order."),
    seqSkeletonSteps: z.array(z.string()).describe("Operational step skeleton (Table 1)."),
    categories: z.array(z.string()).describe("Action categories of the source reports."),
    sourceReports: z.array(z.string()).min(1).describe("Ids of the reports this pattern came from."),
    examples: z.array(z.string()).describe("The reports' own skeletons, verbatim."),
  })
  .describe("A reusable workflow skeleton (ABTest §3.1).");
export type InteractionPattern = z.infer<typeof InteractionPattern>;

export const ActionType = z
  .object({
    id: z.string().describe("`AT-NN`."),
    category: z.string().describe("Action category (`action_category`)."),
    mode: z.string().describe("Failure mode its reports were placed in."),
    stressedOperation: z.string().describe("Operations stressed, from the reports."),
    observableEvidence: z.array(z.string()).describe("The reports' own observable-signal sentences."),
    baselinePrompt: z.string().describe("What the mode asks of an agent, in one sentence (its title)."),
    fuzzDirections: z.array(z.string()).describe("The mode's case templates (ids and descriptions)."),
    severity: z.enum(["critical", "expected_outcome", "minor"]).describe("Worst severity among the reports."),
    sourceReports: z.array(z.string()).min(1),
  })
  .describe("A concrete stressed operation of one failure mode (ABTest §3.1).");
export type ActionType = z.infer<typeof ActionType>;

export const Inventory = z
  .object({
    reports: z.number().int().describe("Number of reports mined."),
    patterns: z.array(InteractionPattern),
    actionTypes: z.array(ActionType),
    placements: z.array(Placement).describe("Where every report was placed (or why nowhere)."),
  })
  .describe("Output of the inventory stage.");
export type Inventory = z.infer<typeof Inventory>;

/** Read and validate a failure-report corpus (JSONL). @throws InputError naming file:line:field. */
export function readReports(file: string): AnomalyReport[] {
  return readJsonl(file, AnomalyReport);
}

function bigrams(kinds: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < kinds.length; i++) out.add(`${kinds[i]}>${kinds[i + 1]}`);
  if (kinds.length === 1) out.add(kinds[0]!);
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : inter / union;
}

/** True when the shorter of `a`, `b` is a subsequence of the longer (order kept, gaps allowed). */
function isSubsequence(a: readonly string[], b: readonly string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  for (const x of long) if (x === short[i]) i++;
  return i === short.length;
}

const SEVERITY_RANK = { minor: 0, expected_outcome: 1, critical: 2 } as const;
type Severity = keyof typeof SEVERITY_RANK;

function severityOf(report: AnomalyReport): Severity {
  const s = report.severity ?? "minor";
  return s in SEVERITY_RANK ? (s as Severity) : "minor";
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Mine Interaction Patterns and Action Types from reports, placing each report in a failure mode (see the
 * module doc). Independent of report order.
 * @throws what the placer throws (a model-backed placer: StoppedError when its budget is spent)
 */
export async function mineInventory(
  input: readonly AnomalyReport[],
  modes: readonly FailureMode[],
  placer: ReportPlacer = rulesPlacer,
): Promise<Inventory> {
  const reports = [...input].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Patterns.
  const groups: { kinds: StepKind[]; phases: Phase[]; grams: Set<string>; reports: AnomalyReport[] }[] = [];
  for (const report of reports) {
    const kinds = skeletonKinds(report.interaction_pattern);
    if (kinds.length === 0) kinds.push("instruct");
    const phases = kindsToPhases(kinds);
    const grams = bigrams(phases);
    const key = phases.join(">");
    const same = groups.find((g) => g.phases.join(">") === key);
    const near =
      same ??
      groups.find(
        (g) =>
          g.phases[0] === phases[0] &&
          (jaccard(g.grams, grams) >= PATTERN_MERGE_JACCARD ||
            (Math.min(g.phases.length, phases.length) >= 2 && isSubsequence(g.phases, phases))),
      );
    if (near) near.reports.push(report);
    else groups.push({ kinds, phases, grams, reports: [report] });
  }
  const patterns = groups.map((g, i) =>
    InteractionPattern.parse({
      id: `IP-${pad(i + 1)}`,
      description: g.phases.length > 0 ? g.phases.join(" → ") : g.kinds.join(" → "),
      kinds: g.kinds,
      seqSkeletonSteps: g.kinds.map((k) => KIND_STEP_TEXT[k]),
      categories: [...new Set(g.reports.map((r) => r.action_type))],
      sourceReports: g.reports.map((r) => r.id),
      examples: g.reports.map((r) => r.interaction_pattern),
    }),
  );

  // Failure modes, then action types: one per (mode, category).
  const placements = await placeReports(reports, modes, placer);
  const modeOf = new Map(modes.map((m) => [m.id, m]));
  const actions = new Map<string, AnomalyReport[]>();
  placements.forEach((p, i) => {
    if (p.mode === null || !modeOf.has(p.mode)) return;
    const key = `${p.mode}\0${reports[i]!.action_type}`;
    actions.set(key, [...(actions.get(key) ?? []), reports[i]!]);
  });
  const actionTypes = [...actions.keys()].sort().map((key, i) => {
    const rs = actions.get(key)!;
    const mode = modeOf.get(key.split("\0")[0]!)!;
    const worst = rs
      .map(severityOf)
      .reduce((a, b) => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a), "minor" as Severity);
    return ActionType.parse({
      id: `AT-${pad(i + 1)}`,
      category: rs[0]!.action_type,
      mode: mode.id,
      stressedOperation: [...new Set(rs.map((r) => r.stressed_operation))].join("; "),
      observableEvidence: rs.map((r) => r.observable_signal),
      baselinePrompt: mode.title,
      fuzzDirections: mode.templates.map((t) => (t.description ? `${t.id}: ${t.description}` : t.id)),
      severity: worst,
      sourceReports: rs.map((r) => r.id),
    });
  });
  return { reports: reports.length, patterns, actionTypes, placements };
}
