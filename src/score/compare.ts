import path from "node:path";
import { z } from "zod";
import { seededRandom } from "./calibrate/prng.ts";
import { CATEGORIES } from "./defects.ts";
import type { Scorecard } from "./scorecard.ts";

/**
 * Comparison across trajectories grouped by agent, model, format or folder (ProcCtrlBench §4.4, App. C.4–
 * C.6): mean scores with stratified-bootstrap confidence intervals, the outcome-vs-process ranking and
 * the fragile-success rate when outcome labels exist.
 */

export const GROUP_KEYS = ["agent", "model", "format", "folder"] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];

const Interval = z.object({
  mean: z.number(),
  low: z.number().describe("2.5th percentile of the bootstrap means."),
  high: z.number().describe("97.5th percentile of the bootstrap means."),
});
export type Interval = z.infer<typeof Interval>;

export const GroupSummary = z
  .object({
    group: z.string(),
    trajectories: z.number().int(),
    unassessed: z
      .number()
      .int()
      .describe("Trajectories without a tool call: counted here, left out of the means."),
    summary: Interval.nullable().describe("Over assessed trajectories; null when none is."),
    processQuality: Interval.nullable(),
    controlPreservation: Interval.nullable().describe(
      "Over trajectories where control was measured; null if none.",
    ),
    dimensions: z
      .record(z.enum(CATEGORIES), z.number().nullable())
      .describe("Mean dimension scores of assessed trajectories."),
    errorFindings: z.number().int().describe("Findings in the error band, all trajectories."),
    warningFindings: z.number().int(),
    labelled: z.number().int().describe("Trajectories with an outcome label."),
    resolvedRate: z.number().nullable().describe("Share resolved among labelled; null if none labelled."),
    fragileSuccessRate: z
      .number()
      .nullable()
      .describe(
        "Share of resolved trajectories with at least one error-band finding (App. C.4); null if none resolved.",
      ),
    processRank: z
      .number()
      .int()
      .nullable()
      .describe("Rank by mean summary score (1 = best); null when no trajectory is assessed."),
    outcomeRank: z
      .number()
      .int()
      .nullable()
      .describe("Rank by resolved rate (1 = best); null without labels."),
  })
  .describe("One group's comparison row.");
export type GroupSummary = z.infer<typeof GroupSummary>;

export interface CompareOptions {
  /** Bootstrap replicates (default 1000). */
  replicates?: number;
  /** PRNG seed (default 1): the same input gives the same intervals. */
  seed?: number;
}

/**
 * A model name without routing and version noise, so one model groups as one: the provider path
 * (`openrouter/anthropic/…`), a cloud region and vendor prefix (`us.anthropic.…`), a date stamp
 * (`-20251101`) and a deployment suffix (`-v1:0`) are dropped; lower case.
 * @example modelName("bedrock/us.anthropic.claude-opus-4-5-20251101-v1:0") // "claude-opus-4-5"
 */
export function modelName(model: string): string {
  return (model.split("/").at(-1) ?? model)
    .toLowerCase()
    .replace(/^(?:(?:us|eu|apac|global)\.)?(?:anthropic|openai|google|meta|mistral|amazon|cohere)\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/[-@]\d{8}$/, "");
}

/**
 * The group a scorecard belongs to under a key: `folder` = the directory of its file; `model` = its models
 * as {@link modelName} gives them, de-duplicated and sorted.
 */
export function groupOf(card: Scorecard, key: GroupKey): string {
  switch (key) {
    case "agent":
      return card.trajectory.agent;
    case "model":
      return [...new Set(card.trajectory.models.map(modelName))].sort().join("+") || "(unknown model)";
    case "format":
      return card.trajectory.format;
    case "folder":
      return path.basename(path.dirname(card.trajectory.file));
  }
}

/**
 * Compare groups of scorecards. Intervals come from a stratified cluster bootstrap (reference §4.3): each
 * replicate resamples trajectories with replacement within strata (outcome label × format), keeping each
 * stratum's size, and takes the group mean; the interval is the 2.5th–97.5th percentile of `replicates`
 * means, from a PRNG seeded per group. Trajectories without a tool call (not assessed) are counted but left
 * out of the means and ranks. Ranks: 1 is best; ties share the smaller rank.
 */
export function compareGroups(
  cards: readonly Scorecard[],
  key: GroupKey,
  options: CompareOptions = {},
): GroupSummary[] {
  const replicates = options.replicates ?? 1000;

  const groups = new Map<string, Scorecard[]>();
  for (const c of cards) {
    const g = groupOf(c, key);
    const list = groups.get(g);
    if (list) list.push(c);
    else groups.set(g, [c]);
  }
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, members]) => {
      const assessed = members.filter((c) => c.assessed);
      const strata = stratify(assessed);
      const random = seededRandom(seedOf(group, options.seed ?? 1));
      const interval = (value: (c: Scorecard) => number | null): Interval | null => {
        const kept = strata.map((s) => s.filter((c) => value(c) !== null)).filter((s) => s.length);
        if (!kept.length) return null;
        return bootstrap(kept, (c) => value(c) as number, replicates, random);
      };
      const labelled = members.filter((c) => c.outcome);
      const resolved = labelled.filter((c) => c.outcome === "resolved");
      const fragile = resolved.filter((c) => c.findings.some((f) => f.band === "error"));
      const findings = members.flatMap((c) => c.findings);
      return {
        group,
        trajectories: members.length,
        unassessed: members.length - assessed.length,
        summary: interval((c) => c.summary),
        processQuality: interval((c) => c.processQuality),
        controlPreservation: interval((c) => c.controlPreservation),
        dimensions: Object.fromEntries(
          CATEGORIES.map((cat) => [
            cat,
            assessed.length ? round(mean(assessed.map((c) => c.dimensions[cat] ?? 0))) : null,
          ]),
        ) as Record<(typeof CATEGORIES)[number], number | null>,
        errorFindings: findings.filter((f) => f.band === "error").length,
        warningFindings: findings.filter((f) => f.band === "warning").length,
        labelled: labelled.length,
        resolvedRate: labelled.length ? round(resolved.length / labelled.length, 3) : null,
        fragileSuccessRate: resolved.length ? round(fragile.length / resolved.length, 3) : null,
        processRank: null as number | null,
        outcomeRank: null as number | null,
      };
    });
  const rank = (value: (r: (typeof rows)[number]) => number) => {
    const sorted = rows.map(value).sort((a, b) => b - a);
    return (r: (typeof rows)[number]) => sorted.indexOf(value(r)) + 1;
  };
  const byProcess = rank((r) => r.summary?.mean ?? -1);
  const byOutcome = rank((r) => r.resolvedRate ?? -1);
  for (const r of rows) {
    r.processRank = r.summary === null ? null : byProcess(r);
    r.outcomeRank = r.resolvedRate === null ? null : byOutcome(r);
  }
  return rows;
}

/** A seed per group (FNV-1a of its name mixed with the run seed): a group's interval does not depend on other groups. */
function seedOf(group: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < group.length; i++) h = Math.imul(h ^ group.charCodeAt(i), 16777619);
  return h >>> 0;
}

function stratify(members: Scorecard[]): Scorecard[][] {
  const strata = new Map<string, Scorecard[]>();
  for (const c of members) {
    const k = `${c.outcome ?? "unlabelled"}\0${c.trajectory.format}`;
    const list = strata.get(k);
    if (list) list.push(c);
    else strata.set(k, [c]);
  }
  return [...strata.values()];
}

function bootstrap(
  strata: Scorecard[][],
  value: (c: Scorecard) => number,
  replicates: number,
  random: () => number,
): Interval {
  const all = strata.flat().map(value);
  const means: number[] = [];
  for (let b = 0; b < replicates; b++) {
    let sum = 0;
    let n = 0;
    for (const s of strata)
      for (let i = 0; i < s.length; i++) {
        sum += value(s[Math.floor(random() * s.length)] as Scorecard);
        n++;
      }
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const at = (q: number) => means[Math.min(means.length - 1, Math.max(0, Math.floor(q * means.length)))] ?? 0;
  return { mean: round(mean(all)), low: round(at(0.025)), high: round(at(0.975)) };
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
