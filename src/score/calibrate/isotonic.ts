import { checkSamples } from "./samples.ts";

/**
 * Isotonic calibration (Zadrozny & Elkan 2002): the risk is a non-decreasing function of the raw score, found
 * by pool-adjacent-violators (PAV; Ayer et al. 1955), with Beta pseudo-counts in every block so small blocks do
 * not claim a hard 0 or 1, and linear interpolation between block centres so the mapping is continuous.
 * Flexible (any monotone shape), so it wants more labels than Platt scaling. ProcCtrlBench App. B.3.
 */

/** One block of a fitted isotonic mapping: where it sits on the score axis and the risk it carries. */
export interface IsotonicKnot {
  /** Block centre: mean raw score of the block's samples. Strictly increasing across knots. */
  score: number;
  /** Smoothed defect rate of the block, (k + α)/(n + α + β); non-decreasing across knots. */
  risk: number;
  /** Labelled samples in the block. */
  n: number;
}

/** A fitted isotonic mapping: at least one knot; see {@link isotonicRisk} for how it is read. */
export interface IsotonicFit {
  knots: IsotonicKnot[];
}

/** Smoothing of {@link fitIsotonic}. */
export interface IsotonicOptions {
  /**
   * Total Beta pseudo-counts α + β added to each block (default 2). 0 gives classic unsmoothed PAV.
   */
  priorStrength?: number;
  /**
   * Prior mean α/(α + β) (default: the Laplace-smoothed overall rate (N₊ + 1)/(N + 2) of the fitting data).
   */
  priorMean?: number;
}

/** Default total pseudo-counts per isotonic block. */
export const DEFAULT_ISOTONIC_PRIOR_STRENGTH = 2;

/**
 * Classic weighted pool-adjacent-violators: the non-decreasing sequence closest to `values` in weighted least
 * squares. Each run of adjacent violators is replaced by its weighted mean.
 *
 * @example poolAdjacentViolators([1, 3, 2, 4, 3, 5]) // [1, 2.5, 2.5, 3.5, 3.5, 5]
 * @param values the sequence, in the order that must become non-decreasing
 * @param weights positive weights (default all 1)
 * @returns the fitted values, same length
 * @throws RangeError when the lengths differ or a weight is not positive
 */
export function poolAdjacentViolators(values: readonly number[], weights?: readonly number[]): number[] {
  const w = weights ?? values.map(() => 1);
  if (w.length !== values.length)
    throw new RangeError(`values (${values.length}) and weights (${w.length}) differ in length`);
  for (const x of w) if (!(x > 0)) throw new RangeError(`weight ${x} is not positive`);
  const blocks = pool(
    values.map((v, i) => ({ sum: v * w[i]!, weight: w[i]!, size: 1, scoreSum: 0 })),
    (b) => b.sum / b.weight,
  );
  return blocks.flatMap((b) => new Array<number>(b.size).fill(b.sum / b.weight));
}

/**
 * Fit an isotonic calibration with smoothed blocks. Exact choices:
 * 1. Sort samples by raw score; samples with equal scores start as one block (so ties share one risk).
 * 2. Give every block the value (k + α)/(n + α + β) — k positives of n, α = c·m, β = c·(1 − m), with c the
 *    prior strength and m the prior mean ({@link IsotonicOptions}) — and pool adjacent blocks while a block's
 *    value exceeds the next one's, the pooled block taking the value of its pooled counts. With c = 0 this is
 *    exactly classic PAV on the labels; with c > 0 each final block's risk is the Beta-posterior mean of its
 *    pooled counts, and the values are non-decreasing by construction.
 * 3. Each block becomes a knot at its centre (mean score of its samples).
 *
 * @param scores raw scores (finite), one per labelled sample
 * @param labels 0 | 1, same length
 * @throws RangeError as {@link checkSamples}, or when the prior mean is outside [0, 1] or the strength < 0
 */
export function fitIsotonic(
  scores: readonly number[],
  labels: readonly number[],
  options: IsotonicOptions = {},
): IsotonicFit {
  checkSamples(scores, labels);
  const n = scores.length;
  const positives = labels.reduce((sum, y) => sum + y, 0);
  const strength = options.priorStrength ?? DEFAULT_ISOTONIC_PRIOR_STRENGTH;
  const mean = options.priorMean ?? (positives + 1) / (n + 2);
  if (!(strength >= 0)) throw new RangeError(`prior strength ${strength} must be ≥ 0`);
  if (!(mean >= 0 && mean <= 1)) throw new RangeError(`prior mean ${mean} must be in [0, 1]`);
  const alpha = strength * mean;

  const order = scores.map((_, i) => i).sort((i, j) => scores[i]! - scores[j]!);
  const initial: Block[] = [];
  let previous = Number.NaN;
  for (const i of order) {
    const last = initial.at(-1);
    const s = scores[i]!;
    const tied = s === previous;
    previous = s;
    if (last && tied) {
      last.sum += labels[i]!;
      last.weight += 1;
      last.size += 1;
      last.scoreSum += s;
    } else initial.push({ sum: labels[i]!, weight: 1, size: 1, scoreSum: s });
  }
  const smoothed = (b: Block) => (b.sum + alpha) / (b.weight + strength);
  const blocks = pool(initial, smoothed);
  return {
    knots: blocks.map((b) => ({ score: b.scoreSum / b.size, risk: smoothed(b), n: b.size })),
  };
}

/**
 * Risk under an isotonic fit: linear interpolation between adjacent knots, constant below the first knot and
 * above the last. Continuous and non-decreasing in `score`.
 *
 * @param fit from {@link fitIsotonic} (at least one knot, scores strictly increasing)
 * @param score raw score in the defect's unit
 * @throws RangeError when the fit has no knots
 */
export function isotonicRisk(fit: IsotonicFit, score: number): number {
  const { knots } = fit;
  const first = knots[0];
  const last = knots.at(-1);
  if (!first || !last) throw new RangeError("isotonic fit has no knots");
  if (score <= first.score) return first.risk;
  if (score >= last.score) return last.risk;
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid]!.score <= score) lo = mid;
    else hi = mid;
  }
  const a = knots[lo]!;
  const b = knots[hi]!;
  return a.risk + ((b.risk - a.risk) * (score - a.score)) / (b.score - a.score);
}

/** A run of pooled samples: Σ label (or Σ weight·value), Σ weight, sample count, Σ score. */
interface Block {
  sum: number;
  weight: number;
  size: number;
  scoreSum: number;
}

/**
 * Stack-based PAV with a pluggable block value: push blocks left to right, merging the top two while the lower
 * one's value exceeds the upper one's. Ends non-decreasing whatever `value` is, because every merge re-checks
 * the new top against the block below it.
 */
function pool(blocks: readonly Block[], value: (b: Block) => number): Block[] {
  const stack: Block[] = [];
  for (const block of blocks) {
    let top: Block = { ...block };
    while (stack.length > 0 && value(stack.at(-1)!) > value(top)) {
      const below = stack.pop()!;
      top = {
        sum: below.sum + top.sum,
        weight: below.weight + top.weight,
        size: below.size + top.size,
        scoreSum: below.scoreSum + top.scoreSum,
      };
    }
    stack.push(top);
  }
  return stack;
}
