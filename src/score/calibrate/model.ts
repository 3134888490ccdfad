import { z } from "zod";
import type { InputLocation } from "../../core/errors.ts";
import { parseWith } from "../../core/validate.ts";
import { type DefectId, DefectIdSchema } from "../defects.ts";
import { betaBinomialRisk, SCORE_BINS } from "./beta-binomial.ts";
import { defaultPriorRisk } from "./default-priors.ts";
import { isotonicRisk } from "./isotonic.ts";
import { plattRisk } from "./platt.ts";

/**
 * The serialisable calibration model (ProcCtrlBench §3.4 "calibrated posterior risks"): per defect, the
 * method chosen by cross-fitting, its parameters, how many labels it was fitted on and how well it did out of
 * fold. Written as JSON by `gauntlet score calibrate`, read back by `gauntlet score`; {@link calibrateRisk}
 * applies it, falling back to the shipped default priors for defects it does not cover.
 */

/** The calibration methods, in the order a tie in cross-fitted Brier score is broken (simplest first). */
export const CALIBRATION_METHODS = ["beta-binomial", "platt", "isotonic"] as const;
export const CalibrationMethod = z
  .enum(CALIBRATION_METHODS)
  .describe(
    "beta-binomial: per-bin posterior pooled by category; platt: σ(a·score + b); isotonic: smoothed PAV.",
  );
export type CalibrationMethod = z.infer<typeof CalibrationMethod>;

export const CalibrationMetrics = z
  .object({
    ece: z.number().min(0).max(1).describe("Expected calibration error, equal-width bins (see `eceBins`)."),
    brier: z.number().min(0).max(1).describe("Brier score: mean squared error of risk against label."),
  })
  .describe("Calibration quality of a set of risks against labels.");
export type CalibrationMetrics = z.infer<typeof CalibrationMetrics>;

const common = {
  n: z.number().int().positive().describe("Labels the final mapping was fitted on."),
  positives: z.number().int().nonnegative().describe("Of them, labelled defects."),
  crossFitted: z
    .object({
      calibrated: CalibrationMetrics.describe("The chosen method's out-of-fold risks."),
      thresholding: CalibrationMetrics.describe("Plain thresholding on the same samples (risk 0 / 0.5 / 1)."),
    })
    .describe("Out-of-fold quality: each risk comes from a mapping fitted without the sample's trajectory."),
};

const Knot = z.object({
  score: z.number().describe("Block centre: mean raw score of the block."),
  risk: z.number().min(0).max(1).describe("Smoothed defect rate of the block."),
  n: z.number().int().positive().describe("Labels in the block."),
});

const BinPosterior = z.object({
  bin: z.enum(SCORE_BINS).describe("zero, (0, warning), [warning, error), [error, ∞)."),
  n: z.number().int().nonnegative().describe("Labels of this defect in the bin."),
  positives: z.number().int().nonnegative().describe("Of them, defects."),
  alpha: z.number().positive().describe("Category Beta prior, pseudo-defects."),
  beta: z.number().positive().describe("Category Beta prior, pseudo-non-defects."),
  risk: z.number().min(0).max(1).describe("Posterior mean (k + α)/(n + α + β), non-decreasing across bins."),
});

export const DefectCalibration = z
  .discriminatedUnion("method", [
    z.object({
      method: z.literal("platt"),
      platt: z
        .object({
          a: z.number().nonnegative().describe("Slope per raw-score unit."),
          b: z.number().describe("Intercept (log-odds at score 0)."),
        })
        .describe("risk = σ(a·score + b) (Platt 1999)."),
      ...common,
    }),
    z.object({
      method: z.literal("isotonic"),
      isotonic: z
        .object({
          knots: z
            .array(Knot)
            .min(1)
            .refine(
              (k) => k.every((x, i) => i === 0 || (x.score > k[i - 1]!.score && x.risk >= k[i - 1]!.risk)),
              {
                message: "knot scores must strictly increase and risks must not decrease",
              },
            )
            .describe("Blocks, low to high; risk is interpolated linearly between centres."),
        })
        .describe("Smoothed pool-adjacent-violators (Zadrozny & Elkan 2002)."),
      ...common,
    }),
    z.object({
      method: z.literal("beta-binomial"),
      betaBinomial: z
        .object({
          warning: z.number().nonnegative().describe("Warning threshold used as a bin edge (raw units)."),
          error: z.number().nonnegative().describe("Error threshold used as a bin edge (raw units)."),
          bins: z
            .array(BinPosterior)
            .length(SCORE_BINS.length)
            .refine(
              (b) => b.every((x, i) => x.bin === SCORE_BINS[i] && (i === 0 || x.risk >= b[i - 1]!.risk)),
              {
                message:
                  "bins must be zero, below-warning, warning, error in order, with non-decreasing risk",
              },
            )
            .describe("One posterior per bin."),
        })
        .describe("Beta-binomial posterior per score bin, prior pooled by category (ProcCtrlBench §4.3)."),
      ...common,
    }),
  ])
  .describe("How one defect's raw score becomes a risk.");
export type DefectCalibration = z.infer<typeof DefectCalibration>;

export const CalibrationModel = z
  .object({
    version: z.literal(1).describe("Format version of this file."),
    folds: z.number().int().min(2).describe("Cross-fitting folds used to choose methods and measure them."),
    seed: z.number().int().describe("PRNG seed of the fold assignment."),
    eceBins: z.number().int().positive().describe("Equal-width bins of the ECE figures."),
    defects: z
      .partialRecord(DefectIdSchema, DefectCalibration)
      .describe("Per defect id; a defect left out uses the shipped default priors."),
  })
  .describe("A fitted calibration: raw detector scores → posterior risks (ProcCtrlBench §3.4).");
export type CalibrationModel = z.infer<typeof CalibrationModel>;

/**
 * Validate a decoded calibration model (e.g. `JSON.parse` of the file `gauntlet score calibrate` wrote).
 * @throws InputError naming the file and the first bad field
 */
export function parseCalibrationModel(value: unknown, where: InputLocation = {}): CalibrationModel {
  return parseWith(
    CalibrationModel,
    value,
    where,
    "refit it with `gauntlet score calibrate --labels <file>`",
  );
}

/**
 * The posterior risk of `defect` at raw score `score`: the fitted mapping of `model` if it covers the defect,
 * else the shipped default prior (`default-priors.ts`).
 *
 * @param model a fitted model, or undefined to use the default priors for every defect
 * @param defect defect id
 * @param score raw score after exemptions, in the defect's unit (RawFinding.score)
 * @returns risk in [0, 1]
 * @throws RangeError when `score` is not a finite number
 */
export function calibrateRisk(model: CalibrationModel | undefined, defect: DefectId, score: number): number {
  if (!Number.isFinite(score)) throw new RangeError(`score ${score} is not a finite number`);
  const entry = model?.defects[defect];
  return entry ? clamp01(applyDefectCalibration(entry, score)) : defaultPriorRisk(defect, score);
}

/** The risk under one defect's fitted mapping (no fallback). */
export function applyDefectCalibration(entry: DefectCalibration, score: number): number {
  switch (entry.method) {
    case "platt":
      return plattRisk(entry.platt, score);
    case "isotonic":
      return isotonicRisk(entry.isotonic, score);
    case "beta-binomial":
      return betaBinomialRisk(entry.betaBinomial, score);
  }
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
