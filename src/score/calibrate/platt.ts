import { logit, cumulativeStdLogisticProbability as sigmoid } from "simple-statistics";
import { checkSamples } from "./samples.ts";

/**
 * Platt scaling (Platt 1999; the numerically careful Newton method of Lin, Lin & Weng 2007): the risk of a
 * defect given raw score s is σ(a·s + b), with a and b fitted by minimising log-loss against Platt's smoothed
 * targets. Monotone, two parameters, so it is safe from ~30 labels; it cannot model non-sigmoid shapes
 * (use isotonic regression for those). ProcCtrlBench App. B.3 ("held-out calibrated mappings").
 */

/** Fitted Platt parameters: risk = σ(a·score + b), score in the defect's raw unit. */
export interface PlattParams {
  /** Slope per raw-score unit; ≥ 0, so a higher score never lowers the risk. */
  a: number;
  /** Intercept (log-odds of a defect at score 0). */
  b: number;
}

/** Tuning of {@link fitPlatt}; the defaults suit every detector. */
export interface PlattOptions {
  /** Most Newton iterations (default 100; convergence usually takes < 15). */
  maxIterations?: number;
}

/**
 * Fit Platt scaling by Newton's method (equivalently IRLS) on the log-loss
 *   L(a, b) = −Σ_i [t_i·log σ(f_i) + (1 − t_i)·log(1 − σ(f_i))],  f_i = a·s_i + b,
 * with Platt's smoothed targets t = (N₊ + 1)/(N₊ + 2) for positives and t = 1/(N₋ + 2) for negatives. The
 * smoothed targets keep the optimum finite on separable data and on single-class data (there the fit is the
 * constant σ(b) = mean target, e.g. (N₊ + 1)/(N₊ + 2) when every label is 1).
 *
 * Exact choices: scores are standardised internally (mean 0, s.d. 1) and the result mapped back; start at
 * a = 0, b = log((N₊ + 1)/(N₋ + 1)); each Newton step solves the 2×2 system with a 1e-12 ridge and is halved
 * until the Armijo condition holds (sufficient decrease 1e-4); stop when both gradient components are below
 * 1e-9·N or no step decreases the loss. The slope is constrained to a ≥ 0: when the unconstrained optimum
 * has a < 0 (higher scores looked *less* defective in the labels), the fit is the intercept-only model, which
 * is the constrained optimum because L is convex. When all scores are equal the fit is intercept-only too.
 *
 * @param scores raw scores (finite), one per labelled sample
 * @param labels 0 | 1, same length
 * @throws RangeError when the arrays are empty or differ in length, or hold a non-finite score or a label
 *   other than 0 | 1
 */
export function fitPlatt(
  scores: readonly number[],
  labels: readonly number[],
  options: PlattOptions = {},
): PlattParams {
  checkSamples(scores, labels);
  const n = scores.length;
  const positives = labels.reduce((sum, y) => sum + y, 0);
  const negatives = n - positives;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  const targets = labels.map((y) => (y === 1 ? hi : lo));
  const meanTarget = targets.reduce((sum, t) => sum + t, 0) / n;
  const interceptOnly: PlattParams = { a: 0, b: logit(meanTarget) };

  const mu = scores.reduce((sum, s) => sum + s, 0) / n;
  const sd = Math.sqrt(scores.reduce((sum, s) => sum + (s - mu) ** 2, 0) / n);
  if (!(sd > 0)) return interceptOnly;
  const x = scores.map((s) => (s - mu) / sd);

  let alpha = 0;
  let beta = Math.log((positives + 1) / (negatives + 1));
  let loss = logLoss(x, targets, alpha, beta);
  const maxIterations = options.maxIterations ?? 100;
  for (let iter = 0; iter < maxIterations; iter++) {
    let gA = 0;
    let gB = 0;
    let hAA = 1e-12;
    let hAB = 0;
    let hBB = 1e-12;
    for (let i = 0; i < n; i++) {
      const p = sigmoid(alpha * x[i]! + beta);
      const w = p * (1 - p);
      const r = p - targets[i]!;
      gA += r * x[i]!;
      gB += r;
      hAA += w * x[i]! * x[i]!;
      hAB += w * x[i]!;
      hBB += w;
    }
    if (Math.abs(gA) < 1e-9 * n && Math.abs(gB) < 1e-9 * n) break;
    const det = hAA * hBB - hAB * hAB;
    const dA = -(hBB * gA - hAB * gB) / det;
    const dB = -(-hAB * gA + hAA * gB) / det;
    const slope = gA * dA + gB * dB;
    let step = 1;
    let accepted = false;
    while (step >= 1e-10) {
      const nextLoss = logLoss(x, targets, alpha + step * dA, beta + step * dB);
      if (nextLoss <= loss + 1e-4 * step * slope) {
        alpha += step * dA;
        beta += step * dB;
        loss = nextLoss;
        accepted = true;
        break;
      }
      step /= 2;
    }
    if (!accepted) break;
  }
  if (!(alpha > 0) || !Number.isFinite(beta)) return interceptOnly;
  return { a: alpha / sd, b: beta - (alpha * mu) / sd };
}

/**
 * Risk under a Platt fit: σ(a·score + b), in [0, 1].
 * @param params from {@link fitPlatt}
 * @param score raw score in the defect's unit
 */
export function plattRisk(params: PlattParams, score: number): number {
  return sigmoid(params.a * score + params.b);
}

/** Log-loss of f = alpha·x + beta against soft targets, computed with softplus so it never overflows. */
function logLoss(x: readonly number[], targets: readonly number[], alpha: number, beta: number): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const f = alpha * x[i]! + beta;
    const t = targets[i]!;
    sum += t * softplus(-f) + (1 - t) * softplus(f);
  }
  return sum;
}

/** log(1 + eᶻ), stable for large |z|. */
function softplus(z: number): number {
  return Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
}
