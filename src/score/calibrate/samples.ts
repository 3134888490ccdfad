import { DEFECTS, type DefectId } from "../defects.ts";

/**
 * Labelled samples, the input of calibration, and the checks the calibrators share.
 */

/** One labelled raw score: a detector's score on a trajectory and whether annotators found the defect. */
export interface CalibrationSample {
  defect: DefectId;
  /** Raw score after exemptions, in the defect's unit (RawFinding.score), finite and ≥ 0. */
  score: number;
  /** 1 when annotators judged the defect present, 0 when absent (exempted counts as absent). */
  label: 0 | 1;
  /** Trajectory path or id; cross-fitting never splits one trajectory across train and test. */
  trajectory?: string;
  /** Stratum balanced across folds, e.g. benchmark source (ProcCtrlBench B.4). */
  stratum?: string;
}

/**
 * Check that `scores` and `labels` are non-empty, of equal length, with finite scores and 0 | 1 labels.
 * @throws RangeError naming the first problem
 */
export function checkSamples(scores: readonly number[], labels: readonly number[]): void {
  if (scores.length === 0) throw new RangeError("no samples: a calibrator needs at least one labelled score");
  if (scores.length !== labels.length)
    throw new RangeError(`scores (${scores.length}) and labels (${labels.length}) differ in length`);
  for (const s of scores) if (!Number.isFinite(s)) throw new RangeError(`score ${s} is not a finite number`);
  for (const y of labels) if (y !== 0 && y !== 1) throw new RangeError(`label ${y} is not 0 or 1`);
}

/**
 * Check labelled samples before fitting a calibration model (`fit.ts`).
 * @throws RangeError when there are none, or one has an unknown defect, a non-finite or negative score, or a
 *   label other than 0 | 1
 */
export function checkCalibrationSamples(samples: readonly CalibrationSample[]): void {
  if (samples.length === 0) throw new RangeError("no labelled samples to calibrate on");
  samples.forEach((s, i) => {
    if (!Object.hasOwn(DEFECTS, s.defect)) throw new RangeError(`sample ${i}: unknown defect "${s.defect}"`);
    if (!(Number.isFinite(s.score) && s.score >= 0))
      throw new RangeError(`sample ${i}: score ${s.score} is not a finite number ≥ 0`);
    if (s.label !== 0 && s.label !== 1) throw new RangeError(`sample ${i}: label ${s.label} is not 0 or 1`);
  });
}

/** Indices of the samples `keep` accepts, in order. */
export function indicesOf(
  samples: readonly CalibrationSample[],
  keep: (s: CalibrationSample, i: number) => boolean,
): number[] {
  return samples.flatMap((s, i) => (keep(s, i) ? [i] : []));
}
