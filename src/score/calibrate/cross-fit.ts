import { DEFECT_IDS } from "../defects.ts";
import { type BetaBinomialOptions, betaBinomialRisk, fitBetaBinomial } from "./beta-binomial.ts";
import { defaultPriorRisk } from "./default-priors.ts";
import { fitIsotonic, type IsotonicOptions, isotonicRisk } from "./isotonic.ts";
import { CALIBRATION_METHODS, type CalibrationMethod } from "./model.ts";
import { fitPlatt, plattRisk } from "./platt.ts";
import { type CalibrationSample, indicesOf } from "./samples.ts";

/**
 * Cross-fitting (trajectory-formats.md §4.2): every sample's risk under every method, from a mapping fitted
 * without the sample's fold, so a method is never scored on the data it was fitted on.
 */

/**
 * Out-of-fold risks of every method for every sample. For each fold f: Platt scaling and smoothed isotonic
 * regression are fitted on the defect's samples outside f, Beta-binomial on all defects' samples outside f
 * (its priors pool the category); a method with no training labels for the defect predicts the shipped
 * default prior (`default-priors.ts`).
 *
 * @param samples labelled samples (already checked)
 * @param foldOf fold index per sample, in [0, k) (see `folds.ts`)
 * @param k number of folds
 * @returns per method, one risk per sample, in input order
 */
export function crossFit(
  samples: readonly CalibrationSample[],
  foldOf: readonly number[],
  k: number,
  options: { isotonic?: IsotonicOptions; betaBinomial?: BetaBinomialOptions } = {},
): Record<CalibrationMethod, number[]> {
  const out = Object.fromEntries(
    CALIBRATION_METHODS.map((m) => [m, new Array<number>(samples.length).fill(0)]),
  ) as Record<CalibrationMethod, number[]>;
  for (let f = 0; f < k; f++) {
    const train = samples.filter((_, i) => foldOf[i] !== f);
    const betaBinomial = fitBetaBinomial(train, options.betaBinomial);
    for (const defect of DEFECT_IDS) {
      const test = indicesOf(samples, (s, i) => s.defect === defect && foldOf[i] === f);
      if (test.length === 0) continue;
      const own = train.filter((s) => s.defect === defect);
      const scores = own.map((s) => s.score);
      const labels = own.map((s) => s.label);
      const platt = own.length ? fitPlatt(scores, labels) : undefined;
      const isotonic = own.length ? fitIsotonic(scores, labels, options.isotonic) : undefined;
      for (const i of test) {
        const s = samples[i]!.score;
        out["beta-binomial"][i] = betaBinomialRisk(betaBinomial[defect], s);
        out.platt[i] = platt ? plattRisk(platt, s) : defaultPriorRisk(defect, s);
        out.isotonic[i] = isotonic ? isotonicRisk(isotonic, s) : defaultPriorRisk(defect, s);
      }
    }
  }
  return out;
}
