import { CATEGORIES, DEFECT_IDS, DEFECTS, type DefectCategory, type DefectId } from "../defects.ts";
import { thresholdPriorRisk } from "./default-priors.ts";
import { poolAdjacentViolators } from "./isotonic.ts";

/**
 * Beta-binomial pooling by category (ProcCtrlBench §4.3 "hierarchical Bayesian calibration"; App. B.3
 * "Bayesian or frequency-smoothed updates for low-dimensional count-based detectors"). Raw scores fall into
 * four bins set by each defect's thresholds; in each bin a defect's k defects out of n labels get the
 * posterior mean (k + α)/(n + α + β) under a Beta(α, β) prior shared by the defects of its category and
 * estimated from them by empirical Bayes. A defect with few labels borrows strength from its siblings; one
 * with many labels keeps close to its own rate.
 */

/** The score bins, lowest first: exactly 0, (0, warning), [warning, error), [error, ∞). */
export const SCORE_BINS = ["zero", "below-warning", "warning", "error"] as const;
export type ScoreBin = (typeof SCORE_BINS)[number];

/** The bin of a raw score, given a defect's warning and error thresholds (raw units). */
export function scoreBin(score: number, edges: { warning: number; error: number }): ScoreBin {
  if (score >= edges.error) return "error";
  if (score >= edges.warning) return "warning";
  if (score <= 0) return "zero";
  return "below-warning";
}

/** One bin of one defect: its labels, the category prior it was shrunk towards, and the posterior risk. */
export interface BinPosterior {
  bin: ScoreBin;
  /** Labels of this defect in this bin. */
  n: number;
  /** Of them, defects. */
  positives: number;
  /** Beta prior of the category in this bin (pseudo-defects). */
  alpha: number;
  /** Beta prior of the category in this bin (pseudo-non-defects). */
  beta: number;
  /** Posterior mean (k + α)/(n + α + β), made non-decreasing across bins (see {@link fitBetaBinomial}). */
  risk: number;
}

/** A defect's Beta-binomial calibration: the bin edges it was fitted with and one posterior per bin. */
export interface BetaBinomialFit {
  /** Warning threshold (raw units) used as a bin edge. */
  warning: number;
  /** Error threshold (raw units) used as a bin edge. */
  error: number;
  /** The four bins, in {@link SCORE_BINS} order. */
  bins: BinPosterior[];
}

/** Empirical-Bayes settings of {@link fitBetaBinomial}. */
export interface BetaBinomialOptions {
  /** Weakest prior, in pseudo-labels α + β (default 2). */
  minStrength?: number;
  /** Strongest prior, in pseudo-labels α + β (default 50: no prior outweighs 50 real labels). */
  maxStrength?: number;
}

/** A Beta prior as mean α/(α + β) and strength α + β. */
export interface BetaPrior {
  mean: number;
  strength: number;
}

/**
 * Method-of-moments estimate of a Beta prior from sibling cells (k_i defects in n_i labels). The prior mean is
 * the Laplace-smoothed pooled rate (Σk + 1)/(Σn + 2) (never exactly 0 or 1). The strength comes from the
 * ANOVA-type estimate of the intra-class correlation ρ = 1/(α + β + 1): with p̄ = Σk/Σn, N = Σn, K cells and
 * S = Σ n_i·(k_i/n_i − p̄)², the beta-binomial model gives E[S] = p̄(1 − p̄)·[(K − 1) + ρ·(N − Σn_i²/N − (K − 1))],
 * so ρ̂ = (S/(p̄(1 − p̄)) − (K − 1)) / (N − Σn_i²/N − (K − 1)) and strength = 1/ρ̂ − 1, clamped to
 * [minStrength, maxStrength]. No excess spread between cells (ρ̂ ≤ 0, or p̄ ∈ {0, 1}) gives maxStrength (pool
 * fully); an unidentifiable spread (fewer than 2 cells, or every cell of 1 label) gives minStrength.
 *
 * @param cells sibling cells with n ≥ 1; cells with n = 0 are ignored
 * @returns undefined when no cell has a label
 */
export function estimateBetaPrior(
  cells: readonly { n: number; k: number }[],
  options: BetaBinomialOptions = {},
): BetaPrior | undefined {
  const { minStrength, maxStrength } = strengthBounds(options);
  const used = cells.filter((c) => c.n > 0);
  const total = used.reduce((sum, c) => sum + c.n, 0);
  if (total === 0) return undefined;
  const hits = used.reduce((sum, c) => sum + c.k, 0);
  const mean = (hits + 1) / (total + 2);
  const pooled = hits / total;
  const spreadDf = used.length - 1;
  const denominator = total - used.reduce((sum, c) => sum + c.n * c.n, 0) / total - spreadDf;
  if (spreadDf < 1 || !(denominator > 0)) return { mean, strength: minStrength };
  if (pooled === 0 || pooled === 1) return { mean, strength: maxStrength };
  const s = used.reduce((sum, c) => sum + c.n * (c.k / c.n - pooled) ** 2, 0);
  const rho = (s / (pooled * (1 - pooled)) - spreadDf) / denominator;
  if (!(rho > 0)) return { mean, strength: maxStrength };
  return { mean, strength: Math.min(maxStrength, Math.max(minStrength, 1 / rho - 1)) };
}

/**
 * Fit Beta-binomial calibrations for all 11 defects. Exact choices:
 * 1. Bin each labelled sample by its defect's thresholds (`DEFECTS`, or `thresholds` to override).
 * 2. For each category and bin, estimate one Beta prior ({@link estimateBetaPrior}) from the cells of the
 *    category's defects in that bin. When no defect of the category has a label in the bin, the prior mean is
 *    the shipped default risk (`default-priors.ts`) at the bin's representative score (0; warning/2;
 *    (warning + error)/2; error) and the strength is minStrength.
 * 3. Each defect's bin risk is the posterior mean (k + α)/(n + α + β).
 * 4. If a defect's four risks are not non-decreasing, they are pooled by weighted PAV (weights n + α + β), so
 *    a higher bin never carries a lower risk (App. C.2 monotone separation).
 * A defect with no labels at all gets its category's priors: that is the hierarchical fallback.
 *
 * @param samples labelled raw scores (defect id, score ≥ 0, label 0 | 1)
 * @throws RangeError when a label is not 0 | 1 or a score is not finite
 */
export function fitBetaBinomial(
  samples: readonly { defect: DefectId; score: number; label: number }[],
  options: BetaBinomialOptions & {
    thresholds?: Partial<Record<DefectId, { warning: number; error: number }>>;
  } = {},
): Record<DefectId, BetaBinomialFit> {
  const { minStrength } = strengthBounds(options);
  const edges = (d: DefectId) => options.thresholds?.[d] ?? DEFECTS[d];
  const counts = new Map<string, { n: number; k: number }>();
  for (const s of samples) {
    if (s.label !== 0 && s.label !== 1) throw new RangeError(`label ${s.label} is not 0 or 1`);
    if (!Number.isFinite(s.score)) throw new RangeError(`score ${s.score} is not a finite number`);
    const key = `${s.defect}|${scoreBin(s.score, edges(s.defect))}`;
    const cell = counts.get(key) ?? { n: 0, k: 0 };
    cell.n++;
    cell.k += s.label;
    counts.set(key, cell);
  }
  const cell = (d: DefectId, bin: ScoreBin) => counts.get(`${d}|${bin}`) ?? { n: 0, k: 0 };

  const priors = new Map<string, BetaPrior | undefined>();
  for (const category of CATEGORIES)
    for (const bin of SCORE_BINS)
      priors.set(
        `${category}|${bin}`,
        estimateBetaPrior(
          membersOf(category).map((d) => cell(d, bin)),
          options,
        ),
      );

  const out = {} as Record<DefectId, BetaBinomialFit>;
  for (const d of DEFECT_IDS) {
    const { warning, error } = edges(d);
    const bins = SCORE_BINS.map((bin): BinPosterior => {
      const { n, k } = cell(d, bin);
      const prior = priors.get(`${DEFECTS[d].category}|${bin}`) ?? {
        mean: thresholdPriorRisk(representativeScore(bin, warning, error), warning, error),
        strength: minStrength,
      };
      const alpha = prior.mean * prior.strength;
      const beta = (1 - prior.mean) * prior.strength;
      return { bin, n, positives: k, alpha, beta, risk: (k + alpha) / (n + alpha + beta) };
    });
    const pooled = poolAdjacentViolators(
      bins.map((b) => b.risk),
      bins.map((b) => b.n + b.alpha + b.beta),
    );
    out[d] = { warning, error, bins: bins.map((b, i) => ({ ...b, risk: pooled[i]! })) };
  }
  return out;
}

/**
 * Risk under a Beta-binomial fit: the posterior risk of the score's bin. Piecewise constant, non-decreasing.
 * @throws RangeError when the fit lacks the bin
 */
export function betaBinomialRisk(fit: BetaBinomialFit, score: number): number {
  const bin = scoreBin(score, fit);
  const posterior = fit.bins.find((b) => b.bin === bin);
  if (!posterior) throw new RangeError(`Beta-binomial fit has no "${bin}" bin`);
  return posterior.risk;
}

function membersOf(category: DefectCategory): DefectId[] {
  return DEFECT_IDS.filter((d) => DEFECTS[d].category === category);
}

function representativeScore(bin: ScoreBin, warning: number, error: number): number {
  if (bin === "zero") return 0;
  if (bin === "below-warning") return warning / 2;
  if (bin === "warning") return (warning + error) / 2;
  return error;
}

function strengthBounds(options: BetaBinomialOptions): { minStrength: number; maxStrength: number } {
  const minStrength = options.minStrength ?? 2;
  const maxStrength = options.maxStrength ?? 50;
  if (!(minStrength > 0 && maxStrength >= minStrength))
    throw new RangeError(`prior strengths must satisfy 0 < min ≤ max, got ${minStrength}, ${maxStrength}`);
  return { minStrength, maxStrength };
}
