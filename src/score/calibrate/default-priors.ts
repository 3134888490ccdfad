import { logit, cumulativeStdLogisticProbability as sigmoid } from "simple-statistics";
import { DEFECTS, type DefectId } from "../defects.ts";

/**
 * The shipped default calibration, used for a defect when the user has fitted nothing (`gauntlet score
 * calibrate` not run, or no labels for that defect). It is a PRIOR built from the heuristic warning/error
 * thresholds of `defects.ts` (ProcCtrlBench App. B.3: "thresholds begin with heuristic rules and pilot
 * inspection"), not a mapping fitted on data: the risks it gives say what the thresholds mean, not how often
 * defects were found. Fit a calibration on labelled trajectories to replace it.
 */

/** The risks the default prior assigns at its anchor scores. */
export interface DefaultPriorPoints {
  /** Risk at raw score 0 (an assumed low base rate). */
  base: number;
  /** Risk at the warning threshold. */
  atWarning: number;
  /** Risk at the error threshold. */
  atError: number;
  /** Highest risk the prior ever gives: a heuristic threshold never claims certainty. */
  ceiling: number;
}

/**
 * Default anchors: 0.05 at score 0, 0.5 at the warning threshold, 0.8 at the error threshold, never above
 * 0.95. They are chosen so that, with the default band cuts of `bands.ts` (warning ≥ 0.5, error ≥ 0.8), the
 * uncalibrated default reports exactly the bands plain thresholding reports: risk ≥ 0.5 ⇔ score ≥ warning and
 * risk ≥ 0.8 ⇔ score ≥ error.
 */
export const DEFAULT_PRIOR_POINTS: DefaultPriorPoints = {
  base: 0.05,
  atWarning: 0.5,
  atError: 0.8,
  ceiling: 0.95,
};

/**
 * Default risk of `defect` at raw score `score`; {@link thresholdPriorRisk} with the defect's thresholds from
 * `DEFECTS` and {@link DEFAULT_PRIOR_POINTS}.
 * @throws RangeError when `score` is not finite
 */
export function defaultPriorRisk(defect: DefectId, score: number): number {
  const { warning, error } = DEFECTS[defect];
  return thresholdPriorRisk(score, warning, error);
}

/**
 * A monotone mapping raw score → risk through the anchors, piecewise linear in log-odds:
 * (0, base) → (warning, atWarning) → (error, atError), then rising with the slope of the last segment until it
 * saturates at `ceiling`; scores ≤ 0 get `base`. An anchor whose score does not exceed the previous anchor's
 * (e.g. warning = error, or warning = 0) replaces it, so a score at a threshold always gets that threshold's
 * risk. Continuous except where anchors coincide, and non-decreasing everywhere.
 *
 * @param score raw score in the defect's unit
 * @param warning warning threshold (raw units, ≥ 0)
 * @param error error threshold (raw units, ≥ warning)
 * @param points anchors, each strictly between 0 and 1, non-decreasing base ≤ atWarning ≤ atError ≤ ceiling
 * @throws RangeError when `score` is not finite or the thresholds or anchors are out of order
 */
export function thresholdPriorRisk(
  score: number,
  warning: number,
  error: number,
  points: DefaultPriorPoints = DEFAULT_PRIOR_POINTS,
): number {
  if (!Number.isFinite(score)) throw new RangeError(`score ${score} is not a finite number`);
  if (!(warning >= 0 && error >= warning))
    throw new RangeError(`thresholds must satisfy 0 ≤ warning ≤ error, got ${warning} and ${error}`);
  const { base, atWarning, atError, ceiling } = points;
  if (!(base > 0 && base <= atWarning && atWarning <= atError && atError <= ceiling && ceiling < 1))
    throw new RangeError("prior anchors must satisfy 0 < base ≤ atWarning ≤ atError ≤ ceiling < 1");

  const anchors: { x: number; z: number }[] = [];
  for (const [x, p] of [
    [0, base],
    [warning, atWarning],
    [error, atError],
  ] as const) {
    const last = anchors.at(-1);
    if (last && x <= last.x) anchors.pop();
    anchors.push({ x, z: logit(p) });
  }
  const first = anchors[0]!;
  if (score < first.x || (score === first.x && anchors.length === 1)) return sigmoid(first.z);
  for (let i = 1; i < anchors.length; i++) {
    const a = anchors[i - 1]!;
    const b = anchors[i]!;
    if (score < b.x) return sigmoid(a.z + ((b.z - a.z) * (score - a.x)) / (b.x - a.x));
  }
  const last = anchors.at(-1)!;
  const previous = anchors.at(-2);
  const slope = previous ? (last.z - previous.z) / (last.x - previous.x) : 0;
  return sigmoid(Math.min(last.z + slope * (score - last.x), logit(ceiling)));
}
