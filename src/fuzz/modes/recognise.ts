import { z } from "zod";
import type { AnomalyReport } from "../inventory.ts";
import type { FailureMode, ReportField } from "./schema.ts";

/**
 * Placing failure reports in failure modes (ABTest §3.1, made declarative): each mode's recogniser sums the
 * weights of its signals that match the report's fields; the report goes to the mode with the highest
 * score at or above that mode's threshold (ties: the mode's `priority`, then its id), with the matched
 * signals recorded. A report no mode reaches is *unplaced*, with the reason (the closest mode and what it
 * matched). Pure and independent of report order.
 */

export const SignalMatch = z
  .object({
    signal: z.string().describe("Signal id."),
    field: z.string().describe("Report field it matched in."),
    excerpt: z.string().describe("The matched text with a little context."),
    weight: z.number().int(),
  })
  .describe("One signal of a mode that matched a report.");
export type SignalMatch = z.infer<typeof SignalMatch>;

export const Placement = z
  .object({
    reportId: z.string(),
    mode: z.string().nullable().describe("Failure mode the report was placed in; null when unplaced."),
    score: z.number().describe("Total weight of the matched signals of that mode (rules engine)."),
    signals: z.array(SignalMatch).describe("Signals of the chosen (or closest) mode that matched."),
    reason: z.string().describe("Why it was placed there, or why nowhere."),
    engine: z.string().describe("`rules` or `llm:<model>`."),
  })
  .describe("Where one failure report was placed, and on what evidence.");
export type Placement = z.infer<typeof Placement>;

/** The role that places reports in modes (engines: rules, llm). */
export interface ReportPlacer {
  readonly engine: string;
  place(report: AnomalyReport, modes: readonly FailureMode[]): Promise<Placement> | Placement;
}

/** A short excerpt of `text` around index `at` (match of length `len`). */
function excerpt(text: string, at: number, len: number): string {
  const start = Math.max(0, at - 30);
  const end = Math.min(text.length, at + len + 30);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

/** The signals of `mode` that match `report`, and their total weight. */
export function scoreMode(
  report: AnomalyReport,
  mode: FailureMode,
): { score: number; matched: SignalMatch[] } {
  const matched: SignalMatch[] = [];
  for (const s of mode.recognise.signals) {
    const re = new RegExp(s.match, "i");
    for (const field of s.in) {
      const text = (report as Record<ReportField, string | undefined>)[field];
      if (!text) continue;
      const m = re.exec(text);
      if (m) {
        matched.push({ signal: s.id, field, excerpt: excerpt(text, m.index, m[0].length), weight: s.weight });
        break;
      }
    }
  }
  return { score: matched.reduce((a, m) => a + m.weight, 0), matched };
}

const describe = (ms: readonly SignalMatch[]) =>
  ms.map((m) => `${m.signal} (${m.field}: "${m.excerpt}")`).join("; ");

/** Place one report by the modes' recognisers (the rules engine, synchronous). */
export function placeByRecognisers(report: AnomalyReport, modes: readonly FailureMode[]): Placement {
  const scored = modes
    .map((mode) => ({ mode, ...scoreMode(report, mode) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.mode.priority - a.mode.priority ||
        b.score / b.mode.recognise.threshold - a.score / a.mode.recognise.threshold ||
        a.mode.id.localeCompare(b.mode.id),
    );
  const placed = scored.find((s) => s.score >= s.mode.recognise.threshold);
  if (placed?.mode.untestable)
    return {
      reportId: report.id,
      mode: null,
      score: placed.score,
      signals: placed.matched,
      reason: `not observable in a workspace run (${placed.mode.id}): ${placed.mode.untestable.trim()}; matched ${describe(placed.matched.filter((m) => m.weight > 0))}`,
      engine: "rules",
    };
  if (placed)
    return {
      reportId: report.id,
      mode: placed.mode.id,
      score: placed.score,
      signals: placed.matched,
      reason: `score ${placed.score} ≥ threshold ${placed.mode.recognise.threshold}: ${describe(placed.matched.filter((m) => m.weight > 0))}`,
      engine: "rules",
    };
  const closest = scored.find((s) => s.matched.some((m) => m.weight > 0));
  return {
    reportId: report.id,
    mode: null,
    score: closest?.score ?? 0,
    signals: closest?.matched ?? [],
    reason: closest
      ? `no mode reached its threshold; closest: ${closest.mode.id} (score ${closest.score} of ${closest.mode.recognise.threshold}: ${describe(closest.matched)})`
      : "no signal of any failure mode matched the report",
    engine: "rules",
  };
}

/** The deterministic rules engine of the placement role. */
export const rulesPlacer: ReportPlacer = { engine: "rules", place: placeByRecognisers };

/** Place every report (in report order; each placement is independent of the others). */
export async function placeReports(
  reports: readonly AnomalyReport[],
  modes: readonly FailureMode[],
  placer: ReportPlacer = rulesPlacer,
): Promise<Placement[]> {
  const settled = await Promise.allSettled(reports.map((r) => placer.place(r, modes)));
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<Placement>).value);
}
