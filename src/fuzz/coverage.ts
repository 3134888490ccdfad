import { z } from "zod";
import { sha256 } from "../core/ids.ts";
import { readJsonl } from "../core/jsonl.ts";
import type { FuzzCase } from "./case.ts";
import { composeSeedTemplates } from "./compose.ts";
import { instantiateCases } from "./instantiate.ts";
import { type AnomalyReport, mineInventory } from "./inventory.ts";
import type { RepoContext } from "./modes/bindings.ts";
import type { Placement, ReportPlacer } from "./modes/recognise.ts";
import type { FailureMode } from "./modes/schema.ts";

/**
 * How well a failure-report corpus is covered by the mode library on one repository (ABTest's claim that
 * real reports become cases that stress what went wrong): for every report, the mode it was placed in, the
 * signals that placed it and the cases generated for that mode that cite it — or why it has none. Also the
 * diversity of a campaign-sized sample of the cases (distinct instruction sequences, steps per case).
 *
 * Held-out split: a report is held out when the first byte of sha256(id) is divisible by 4 (about a
 * quarter), decided before any mode was written, so figures on it were not tuned.
 */

/** True when a report belongs to the held-out split (see the module doc). */
export function isHeldOut(reportId: string): boolean {
  return Number.parseInt(sha256(reportId).slice(0, 2), 16) % 4 === 0;
}

export const ModeLabel = z
  .object({
    id: z.string().min(1).describe("Report id."),
    mode: z.string().nullable().describe("The failure mode whose cases stress the report; null when none."),
    also: z.array(z.string()).default([]).describe("Other modes whose cases would clearly stress it too."),
    kind: z
      .enum(["mode", "untestable", "gap"])
      .describe(
        "mode: `mode` fits; untestable: no workspace run can observe it; gap: testable, no mode fits.",
      ),
    note: z.string().default(""),
  })
  .describe("A reviewer's judgement of where a failure report belongs (for `fuzz coverage --labels`).");
export type ModeLabel = z.infer<typeof ModeLabel>;

/** Read a labels file (JSONL of {@link ModeLabel}). @throws InputError naming file:line:field */
export function readModeLabels(file: string): ModeLabel[] {
  return readJsonl(file, ModeLabel);
}

/** Agreement of the placements with reviewers' labels, per split. */
export interface LabelAgreement {
  labelled: number;
  /** Placed in the labelled mode (or an accepted alternative), or unplaced when the label says no mode fits. */
  agree: number;
  /** Placed in a labelled mode and covered by a case of it: the reports really stressed. */
  stressed: number;
  /** Reports labelled with a mode (testable and in the catalogue's reach). */
  testable: number;
}

/** Does the placement of `row` agree with `label`? */
export function agrees(row: CoverageRow, label: ModeLabel): boolean {
  return label.kind === "mode"
    ? row.placement.mode !== null && [label.mode, ...label.also].includes(row.placement.mode)
    : row.placement.mode === null;
}

/** Agreement of `rows` with `labels` (rows without a label are not counted). */
export function labelAgreement(rows: readonly CoverageRow[], labels: readonly ModeLabel[]): LabelAgreement {
  const byId = new Map(labels.map((l) => [l.id, l]));
  const out: LabelAgreement = { labelled: 0, agree: 0, stressed: 0, testable: 0 };
  for (const r of rows) {
    const l = byId.get(r.reportId);
    if (!l) continue;
    out.labelled++;
    if (l.kind === "mode") out.testable++;
    if (agrees(r, l)) {
      out.agree++;
      if (l.kind === "mode" && r.covered) out.stressed++;
    }
  }
  return out;
}

/**
 * How often two reviewers agree on the reports both labelled: the same kind, and for a `mode` label, one's
 * mode is among the other's accepted modes (`mode` or `also`). The ceiling a placer can be held to.
 * @returns {both: reports labelled by both, agree: those they agree on}
 */
export function reviewerAgreement(
  a: readonly ModeLabel[],
  b: readonly ModeLabel[],
): { both: number; agree: number } {
  const byId = new Map(b.map((l) => [l.id, l]));
  let both = 0;
  let agree = 0;
  for (const x of a) {
    const y = byId.get(x.id);
    if (!y) continue;
    both++;
    if (x.kind !== y.kind) continue;
    if (x.kind !== "mode" || [y.mode, ...y.also].includes(x.mode) || [x.mode, ...x.also].includes(y.mode))
      agree++;
  }
  return { both, agree };
}

/** One report's row. */
export interface CoverageRow {
  reportId: string;
  split: "dev" | "heldout";
  placement: Placement;
  /** Cases that stress the report's mode and cite it. */
  caseIds: string[];
  covered: boolean;
  /** Why the report has no case (unplaced, no compatible pattern, templates not grounded). */
  gap?: string;
}

/** Diversity of a sample of cases. */
export interface Diversity {
  cases: number;
  /** Distinct instruction sequences (the steps' prompts, in order). */
  distinctSequences: number;
  medianSteps: number;
  modes: number;
}

/** The whole coverage result. */
export interface Coverage {
  rows: CoverageRow[];
  totals: Record<"all" | "dev" | "heldout", { reports: number; placed: number; covered: number }>;
  /** Diversity of the first `sampleSize` cases a campaign would run. */
  sample: Diversity;
  /** Diversity of every case generated. */
  allCases: Diversity;
  cases: FuzzCase[];
}

/** Distinct instruction sequences and the median number of steps of `cases`. */
export function diversityOf(cases: readonly FuzzCase[]): Diversity {
  const steps = cases.map((c) => c.steps.length).sort((a, b) => a - b);
  const mid = steps.length
    ? steps.length % 2
      ? steps[(steps.length - 1) / 2]!
      : (steps[steps.length / 2 - 1]! + steps[steps.length / 2]!) / 2
    : 0;
  return {
    cases: cases.length,
    distinctSequences: new Set(cases.map((c) => JSON.stringify(c.steps.map((s) => s.instruction)))).size,
    medianSteps: mid,
    modes: new Set(cases.map((c) => c.mode)).size,
  };
}

/**
 * Coverage of `reports` by `modes` on `repo`.
 * @param sampleSize cases in the diversity sample (a campaign's `--max-cases`)
 */
export async function measureCoverage(
  reports: readonly AnomalyReport[],
  modes: readonly FailureMode[],
  repo: RepoContext,
  options: { sampleSize?: number; placer?: ReportPlacer } = {},
): Promise<Coverage> {
  const inventory = await mineInventory(reports, modes, options.placer);
  const { screenings, templates } = await composeSeedTemplates(inventory, modes);
  const all = await instantiateCases(templates, repo, { maxCases: templates.length, modes });
  // Selection never looks at `maxCases`, so a campaign's first N cases are the first N of all of them.
  const sample = all.cases.slice(0, options.sampleSize ?? 50);
  const rejectedOf = new Map(all.rejected.map((r) => [r.seedTemplateId, r.reason]));
  const rows = inventory.placements.map((placement): CoverageRow => {
    const id = placement.reportId;
    const caseIds = all.cases
      .filter((c) => c.mode === placement.mode && c.sourceReports.includes(id))
      .map((c) => c.caseId);
    const row: CoverageRow = {
      reportId: id,
      split: isHeldOut(id) ? "heldout" : "dev",
      placement,
      caseIds,
      covered: placement.mode !== null && caseIds.length > 0,
    };
    if (placement.mode === null) row.gap = `unplaced: ${placement.reason}`;
    else if (!caseIds.length) {
      const action = inventory.actionTypes.find((a) => a.sourceReports.includes(id));
      const mine = templates.filter((t) => t.action.id === action?.id);
      if (!mine.length) {
        const pattern = inventory.patterns.find((x) => x.sourceReports.includes(id));
        const why =
          screenings.find((s) => s.actionId === action?.id && s.patternId === pattern?.id && !s.compatible) ??
          screenings.find((s) => s.actionId === action?.id && !s.compatible);
        row.gap = `no interaction pattern is compatible with ${action?.id ?? "its action type"}${why ? ` (e.g. its own ${why.patternId}: ${[why.insertion, why.coherence, why.observability].find((c) => !c.ok)?.reason}; a mode's \`phases\` list where its operation can go)` : ""}`;
      } else
        row.gap = `no case template could be grounded: ${rejectedOf.get(mine[0]!.seedTemplateId) ?? "rejected"}`;
    }
    return row;
  });
  const total = (split?: "dev" | "heldout") => {
    const rs = rows.filter((r) => !split || r.split === split);
    return {
      reports: rs.length,
      placed: rs.filter((r) => r.placement.mode !== null).length,
      covered: rs.filter((r) => r.covered).length,
    };
  };
  return {
    rows,
    totals: { all: total(), dev: total("dev"), heldout: total("heldout") },
    sample: diversityOf(sample),
    allCases: diversityOf(all.cases),
    cases: all.cases,
  };
}
