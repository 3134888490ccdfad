import { sha256 } from "../core/ids.ts";
import { seededRandom as mulberry32 } from "../score/calibrate/prng.ts";

/**
 * Statistics of the blinded patch-realism study (WitnessGym App. H.2), pure functions over judgments:
 * pairwise accuracy (primary endpoint; per pair s_i = (y_i1 + y_i2) / 2, averaged over pairs), single-patch
 * accuracy and AUC (injected = positive class), supplementary pairwise AUC (left-more-realistic probability,
 * real-on-the-left = positive class), percentile CIs from whole-cluster bootstrap resamples with a seeded PRNG,
 * the TOST equivalence decision against 0.45 < θ < 0.55 (the complete 90% CI strictly inside), the
 * positive-control sensitivity check (accuracy ≥ 80% and 95% CI lower bound > 50%) and the stability
 * diagnostics of Table 12. Judges are analysed separately.
 */

/** A judgment as the statistics read it (a line of `realism.jsonl`, see `realism-plan.ts`). */
export interface JudgmentRecord {
  judge: string;
  model: string;
  task: "single" | "pairwise" | "control";
  /** Bootstrap cluster: patch repetitions, orientations and pairs sharing an injection or a control. */
  cluster: string;
  /** Pairwise and control judgments: the pair judged. */
  pair?: string | undefined;
  /** Single judgments: the patch judged. */
  patch?: string | undefined;
  /** Single judgments: whether the patch was injected (the truth). */
  injected?: boolean | undefined;
  /** Pairwise and control judgments: the source of the patch shown on the left. */
  left?: "injected" | "historical" | undefined;
  /** probabilityInjected (single) or probabilityLeftMoreRealistic (pairwise, control), in [0, 1]. */
  probability: number;
  /** Label (p ≥ 0.5 = injected) matches the truth, or the chosen patch (p ≥ 0.5 = left) is the historical one. */
  correct: boolean;
}

/** A point estimate with its bootstrap percentile interval (NaN when undefined, e.g. AUC with one class). */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
  /** Confidence level, e.g. 0.9. */
  level: number;
}

/** Options of the bootstrap. */
export interface BootstrapOptions {
  /** Whole-cluster resamples; the paper uses 10,000. */
  resamples: number;
  /** Confidence level of the percentile interval, e.g. 0.9 for TOST at α = 0.05. */
  level: number;
  /** PRNG seed; the same seed gives the same interval. */
  seed: number | string;
}

/** The study's equivalence margin: chance ± 5 points (WitnessGym App. H.2). */
export const EQUIVALENCE_MARGIN = { lower: 0.45, upper: 0.55 } as const;

/** The shared seeded generator ({@link mulberry32}); a string seed is hashed to 32 bits first. */
export function seededRandom(seed: number | string): () => number {
  return mulberry32(typeof seed === "number" ? seed : Number.parseInt(sha256(seed).slice(0, 8), 16));
}

/** Cluster multiplicities of one resample (or all 1 for the point estimate) → a statistic. */
export type WeightedStatistic = (weights: Float64Array) => number;

/**
 * Percentile intervals from whole-cluster bootstrap resamples (Field and Welsh 2007): each resample draws
 * `clusterCount` clusters with replacement and evaluates every statistic with the clusters' multiplicities as
 * weights; non-finite values are left out. Quantiles interpolate linearly (R type 7).
 */
export function clusterBootstrap<K extends string>(
  clusterCount: number,
  statistics: Record<K, WeightedStatistic>,
  options: BootstrapOptions,
): Record<K, Interval> {
  const names = Object.keys(statistics) as K[];
  const draws = new Map<K, number[]>(names.map((n) => [n, []]));
  const random = seededRandom(options.seed);
  const weights = new Float64Array(clusterCount);
  for (let r = 0; r < options.resamples && clusterCount > 0; r++) {
    weights.fill(0);
    for (let k = 0; k < clusterCount; k++) weights[Math.floor(random() * clusterCount)]! += 1;
    for (const n of names) {
      const value = statistics[n](weights);
      if (Number.isFinite(value)) draws.get(n)!.push(value);
    }
  }
  const alpha = (1 - options.level) / 2;
  const out = {} as Record<K, Interval>;
  for (const n of names) {
    const sorted = draws.get(n)!.sort((a, b) => a - b);
    out[n] = {
      estimate: statistics[n](new Float64Array(clusterCount).fill(1)),
      lower: quantileSorted(sorted, alpha),
      upper: quantileSorted(sorted, 1 - alpha),
      level: options.level,
    };
  }
  return out;
}

/** Linear-interpolation quantile (R type 7) of ascending values; NaN for none. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** A value of a cluster (a judgment's correctness, a pair's score s_i). */
export interface ClusterValue {
  cluster: number;
  value: number;
}

/** Mean of the values, each weighted by its cluster's multiplicity; NaN when nothing has weight. */
export function weightedMean(values: readonly ClusterValue[], weights: Float64Array): number {
  let sum = 0;
  let total = 0;
  for (const v of values) {
    sum += weights[v.cluster]! * v.value;
    total += weights[v.cluster]!;
  }
  return total > 0 ? sum / total : Number.NaN;
}

/** A scored observation for the AUC. */
export interface Scored {
  cluster: number;
  score: number;
  positive: boolean;
}

/**
 * The AUC (Mann–Whitney U / (n⁺·n⁻), ties counted ½) as a weighted statistic: the observations are sorted once,
 * each evaluation is one pass. NaN when a class has no weight.
 */
export function aucStatistic(items: readonly Scored[]): WeightedStatistic {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  return (weights) => {
    let negativesBelow = 0;
    let u = 0;
    let positives = 0;
    for (let i = 0; i < sorted.length; ) {
      let pos = 0;
      let neg = 0;
      let j = i;
      for (; j < sorted.length && sorted[j]!.score === sorted[i]!.score; j++) {
        const w = weights[sorted[j]!.cluster]!;
        if (sorted[j]!.positive) pos += w;
        else neg += w;
      }
      u += pos * (negativesBelow + neg / 2);
      negativesBelow += neg;
      positives += pos;
      i = j;
    }
    return positives > 0 && negativesBelow > 0 ? u / (positives * negativesBelow) : Number.NaN;
  };
}

/** The AUC of unweighted observations (Mann–Whitney, ties ½); NaN when a class is empty. */
export function aucMannWhitney(items: readonly { score: number; positive: boolean }[]): number {
  return aucStatistic(items.map((i) => ({ ...i, cluster: 0 })))(new Float64Array([1]));
}

/**
 * TOST equivalence (Schuirmann 1987; Lakens 2017) at α = 0.05: true when the complete 90% CI lies strictly
 * inside the margin. An interval that merely includes chance is not enough.
 */
export function tostEquivalent(ci: { lower: number; upper: number }, margin = EQUIVALENCE_MARGIN): boolean {
  return ci.lower > margin.lower && ci.upper < margin.upper;
}

/** Pair scores s_i = mean correctness of the pair's judgments (two orientations). */
export function pairScores(
  records: readonly JudgmentRecord[],
  clusterIndex: Map<string, number>,
): ClusterValue[] {
  const byPair = groupBy(records, (r) => r.pair ?? "");
  return [...byPair.values()].map((rs) => ({
    cluster: clusterIndex.get(rs[0]!.cluster)!,
    value: rs.filter((r) => r.correct).length / rs.length,
  }));
}

/** Result of the positive-control sensitivity check (Table 11). */
export interface PositiveControlCheck {
  correct: number;
  total: number;
  /** Pairwise accuracy over control pairs, with its 95% CI. */
  accuracy: Interval;
  /** Accuracy ≥ 80% and 95% CI lower bound > 50% (WitnessGym App. H.1). */
  pass: boolean;
}

/** The sensitivity check over a judge's control judgments. */
export function positiveControlCheck(
  controls: readonly JudgmentRecord[],
  options: Omit<BootstrapOptions, "level">,
): PositiveControlCheck {
  const clusters = indexClusters(controls);
  const scores = pairScores(controls, clusters);
  const { accuracy } = clusterBootstrap(
    clusters.size,
    { accuracy: (w) => weightedMean(scores, w) },
    { ...options, level: 0.95 },
  );
  const correct = controls.filter((r) => r.correct).length;
  return {
    correct,
    total: controls.length,
    accuracy,
    pass: accuracy.estimate >= 0.8 && accuracy.lower > 0.5,
  };
}

/** One discrimination endpoint (a Table 10 row). */
export interface Endpoint {
  correct: number;
  total: number;
  /** Accuracy with its 90% CI. */
  accuracy: Interval;
  auc: Interval;
  /** TOST verdicts of the accuracy and the AUC against {@link EQUIVALENCE_MARGIN}. */
  equivalent: { accuracy: boolean; auc: boolean };
}

/** Everything the study reports for one judge (Tables 10–12). */
export interface JudgeRealism {
  judge: string;
  model: string;
  /** Single-patch accuracy and AUC (auxiliary endpoints). */
  single: Endpoint;
  /** Pairwise accuracy (primary endpoint) and supplementary pairwise AUC. */
  pairwise: Endpoint & { pairs: number };
  /** Primary verdict: pairwise-accuracy equivalence to chance. */
  equivalent: boolean;
  controls: PositiveControlCheck;
  diagnostics: {
    /** Agreeing label pairs among each patch's repeated single judgments / all such pairs. */
    singleRepeatAgreement: number;
    /** Pairs judged in both orientations where the same underlying patch was chosen. */
    orientationAgreement: number;
    /** Pairwise judgments choosing the left patch. */
    leftChoiceRate: number;
  };
}

/**
 * The study's figures per judge (sorted by judge name): Table 10 (90% CIs, TOST verdicts), Table 11 (controls,
 * 95% CI, check), Table 12 diagnostics. Bootstrap seeds derive from `seed` and the judge name.
 */
export function realismStats(
  records: readonly JudgmentRecord[],
  options: { seed: number | string; resamples?: number },
): JudgeRealism[] {
  const resamples = options.resamples ?? 10_000;
  return [...groupBy(records, (r) => r.judge)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([judge, rs]) => {
      const main = rs.filter((r) => r.task !== "control");
      const single = main.filter((r) => r.task === "single");
      const pairwise = main.filter((r) => r.task === "pairwise");
      const clusters = indexClusters(main);
      const at = (r: JudgmentRecord) => clusters.get(r.cluster)!;
      const singleValues = single.map((r) => ({ cluster: at(r), value: r.correct ? 1 : 0 }));
      const pairValues = pairScores(pairwise, clusters);
      const ci = clusterBootstrap(
        clusters.size,
        {
          singleAccuracy: (w) => weightedMean(singleValues, w),
          singleAuc: aucStatistic(
            single.map((r) => ({ cluster: at(r), score: r.probability, positive: !!r.injected })),
          ),
          pairwiseAccuracy: (w) => weightedMean(pairValues, w),
          pairwiseAuc: aucStatistic(
            pairwise.map((r) => ({
              cluster: at(r),
              score: r.probability,
              positive: r.left === "historical",
            })),
          ),
        },
        { resamples, level: 0.9, seed: `${options.seed}/${judge}/main` },
      );
      const endpoint = (list: JudgmentRecord[], accuracy: Interval, auc: Interval): Endpoint => ({
        correct: list.filter((r) => r.correct).length,
        total: list.length,
        accuracy,
        auc,
        equivalent: { accuracy: tostEquivalent(accuracy), auc: tostEquivalent(auc) },
      });
      const pairwiseEndpoint = endpoint(pairwise, ci.pairwiseAccuracy, ci.pairwiseAuc);
      return {
        judge,
        model: rs[0]!.model,
        single: endpoint(single, ci.singleAccuracy, ci.singleAuc),
        pairwise: { ...pairwiseEndpoint, pairs: pairValues.length },
        equivalent: pairwiseEndpoint.equivalent.accuracy,
        controls: positiveControlCheck(
          rs.filter((r) => r.task === "control"),
          { resamples, seed: `${options.seed}/${judge}/controls` },
        ),
        diagnostics: diagnostics(single, pairwise),
      };
    });
}

/** Table 12: repeat agreement, orientation agreement, left-choice rate (NaN when undefined). */
function diagnostics(single: readonly JudgmentRecord[], pairwise: readonly JudgmentRecord[]) {
  let agree = 0;
  let comparisons = 0;
  for (const rs of groupBy(single, (r) => r.patch ?? "").values()) {
    const injected = rs.filter((r) => r.probability >= 0.5).length;
    const n = rs.length;
    agree += (injected * (injected - 1) + (n - injected) * (n - injected - 1)) / 2;
    comparisons += (n * (n - 1)) / 2;
  }
  const chosen = (r: JudgmentRecord) => r.probability >= 0.5 === (r.left === "historical");
  const both = [...groupBy(pairwise, (r) => r.pair ?? "").values()].filter((rs) => rs.length === 2);
  return {
    singleRepeatAgreement: agree / comparisons,
    orientationAgreement: both.filter(([a, b]) => chosen(a!) === chosen(b!)).length / both.length,
    leftChoiceRate: pairwise.filter((r) => r.probability >= 0.5).length / pairwise.length,
  };
}

/** Cluster name → index, in sorted order (so resamples do not depend on record order). */
function indexClusters(records: readonly JudgmentRecord[]): Map<string, number> {
  return new Map([...new Set(records.map((r) => r.cluster))].sort().map((c, i) => [c, i]));
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const list = out.get(key(t));
    if (list) list.push(t);
    else out.set(key(t), [t]);
  }
  return out;
}
