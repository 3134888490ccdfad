import { CATEGORIES, DEFECT_IDS, DEFECTS, type DefectCategory, type DefectId } from "../defects.ts";
import {
  type BandCuts,
  type BandFrequency,
  bandSeparation,
  DEFAULT_BAND_CUTS,
  type RiskBand,
  riskBand,
  thresholdBand,
  thresholdRisk,
} from "./bands.ts";
import { type BetaBinomialOptions, fitBetaBinomial } from "./beta-binomial.ts";
import { crossFit } from "./cross-fit.ts";
import { defaultPriorRisk } from "./default-priors.ts";
import { assignFolds } from "./folds.ts";
import { fitIsotonic, type IsotonicOptions } from "./isotonic.ts";
import {
  brierScore,
  DEFAULT_ECE_BINS,
  expectedCalibrationError,
  type ReliabilityBin,
  reliabilityBins,
} from "./metrics.ts";
import {
  CALIBRATION_METHODS,
  type CalibrationMethod,
  type CalibrationMetrics,
  type CalibrationModel,
  type DefectCalibration,
} from "./model.ts";
import { fitPlatt } from "./platt.ts";
import { type CalibrationSample, checkCalibrationSamples, indicesOf } from "./samples.ts";

/**
 * Fitting a calibration model from labelled raw scores, with K-fold cross-fitting to choose each defect's
 * method and to measure it against plain thresholding (ProcCtrlBench §4.3 compares calibrated ECE with
 * "direct hard-threshold interpretation"; App. C.8 draws the reliability diagrams).
 */

/** Options of {@link fitCalibration}; every field has a default. */
export interface FitCalibrationOptions {
  /** Cross-fitting folds (default 5; fewer when there are fewer trajectories). */
  folds?: number;
  /** Seed of the fold assignment (default 1). */
  seed?: number;
  /** Equal-width bins of every ECE and reliability diagram (default 10). */
  eceBins?: number;
  /** Below this many labels a defect uses Beta-binomial whatever the scores (default 30). */
  minLabels?: number;
  /** Below this many labels of the rarer class a defect uses Beta-binomial (default 5). */
  minPerClass?: number;
  /** Band cut points for the band-separation figures (default warning 0.5, error 0.8). */
  bandCuts?: BandCuts;
  isotonic?: IsotonicOptions;
  betaBinomial?: BetaBinomialOptions;
}

/** Calibration quality of one set of risks, with its reliability diagram and band frequencies. */
export interface CalibrationQuality extends CalibrationMetrics {
  reliability: ReliabilityBin[];
  /** Empirical defect frequency per band (App. C.2). */
  bands: BandFrequency[];
  /** True when the non-empty bands' frequencies strictly increase none → warning → error. */
  monotone: boolean;
}

/** Out-of-fold figures of a group of samples (a defect, a category, or all). */
export interface GroupCalibrationReport {
  n: number;
  positives: number;
  /** The chosen methods' cross-fitted risks. */
  calibrated: CalibrationQuality;
  /** Plain thresholding's implied risks (0 / 0.5 / 1) on the same samples. */
  thresholding: CalibrationQuality;
  /** The uncalibrated default priors' risks (`default-priors.ts`) on the same samples. */
  priors: CalibrationQuality;
}

/** One defect's figures: the method chosen, why, and every method's cross-fitted ECE and Brier. */
export interface DefectCalibrationReport extends GroupCalibrationReport {
  defect: DefectId;
  category: DefectCategory;
  method: CalibrationMethod;
  /** Why this method, one sentence. */
  reason: string;
  methods: Record<CalibrationMethod, CalibrationMetrics>;
  /**
   * Whether the model uses the calibration: only when its cross-fitted (held-out) Brier score beats the
   * uncalibrated priors'; otherwise the defect keeps the default priors.
   */
  used: boolean;
}

/** What {@link fitCalibration} reports beside the model. */
export interface CalibrationReport {
  /** Folds actually used (≤ the folds asked for). */
  folds: number;
  seed: number;
  eceBins: number;
  bandCuts: BandCuts;
  /** Defects with at least one label, in paper order. */
  defects: DefectCalibrationReport[];
  /** Categories with at least one label, in paper order, pooling their defects. */
  categories: (GroupCalibrationReport & { category: DefectCategory })[];
  overall: GroupCalibrationReport;
}

/**
 * Fit a calibration model. Per defect with labels:
 * 1. assign folds ({@link assignFolds}: grouped by trajectory, stratified by defect × label × stratum);
 * 2. for each fold, fit Platt scaling and smoothed isotonic regression on the defect's other-fold samples and
 *    Beta-binomial on all defects' other-fold samples (its priors pool the category), and predict the fold:
 *    every sample gets one out-of-fold risk per method (a method with no training labels for the defect in a
 *    fold predicts the default prior there);
 * 3. choose Beta-binomial when the defect has fewer than `minLabels` labels or fewer than `minPerClass` of
 *    the rarer class, else the method with the lowest cross-fitted Brier score (ties: beta-binomial, platt,
 *    isotonic);
 * 4. keep it only when its cross-fitted (held-out) Brier score beats the uncalibrated default priors' on the
 *    same samples — otherwise the defect keeps the priors (issue 14 §4: calibration must earn its place);
 * 5. refit the chosen method on all the defect's samples (Beta-binomial on all samples) for the model.
 * The report gives n, positives, ECE, Brier, reliability bins and band frequencies of the cross-fitted
 * calibrated risks (the priors' where calibration was not used), of plain thresholding and of the
 * uncalibrated priors, per defect, per category and overall. Deterministic for a seed.
 *
 * @throws RangeError when there are no samples, a sample has an unknown defect, a non-finite or negative
 *   score or a label other than 0 | 1, or the samples come from fewer than 2 trajectories
 */
export function fitCalibration(
  samples: readonly CalibrationSample[],
  options: FitCalibrationOptions = {},
): { model: CalibrationModel; report: CalibrationReport } {
  const folds = options.folds ?? 5;
  const seed = options.seed ?? 1;
  const eceBins = options.eceBins ?? DEFAULT_ECE_BINS;
  const minLabels = options.minLabels ?? 30;
  const minPerClass = options.minPerClass ?? 5;
  const bandCuts = options.bandCuts ?? DEFAULT_BAND_CUTS;
  checkCalibrationSamples(samples);

  const foldOf = assignFolds(samples, folds, seed);
  const k = foldOf.reduce((max, f) => Math.max(max, f + 1), 0);
  if (k < 2) throw new RangeError("cross-fitting needs labels from at least 2 trajectories");
  const outOfFold = crossFit(samples, foldOf, k, options);

  const labelOf = (i: number) => samples[i]!.label;
  const chosen = new Array<number>(samples.length).fill(0);
  const thresholded = samples.map((s) => thresholdRisk(s.defect, s.score));
  const prior = samples.map((s) => defaultPriorRisk(s.defect, s.score));
  const group = (indices: number[]): GroupCalibrationReport => ({
    n: indices.length,
    positives: indices.reduce((sum, i) => sum + labelOf(i), 0),
    calibrated: quality(
      indices.map((i) => chosen[i]!),
      indices.map(labelOf),
      indices.map((i) => riskBand(chosen[i]!, bandCuts)),
      eceBins,
    ),
    thresholding: quality(
      indices.map((i) => thresholded[i]!),
      indices.map(labelOf),
      indices.map((i) => thresholdBand(samples[i]!.defect, samples[i]!.score)),
      eceBins,
    ),
    priors: quality(
      indices.map((i) => prior[i]!),
      indices.map(labelOf),
      indices.map((i) => riskBand(prior[i]!, bandCuts)),
      eceBins,
    ),
  });

  const finalBetaBinomial = fitBetaBinomial(samples, options.betaBinomial);
  const defects: DefectCalibrationReport[] = [];
  const modelDefects: CalibrationModel["defects"] = {};
  for (const defect of DEFECT_IDS) {
    const indices = indicesOf(samples, (s) => s.defect === defect);
    if (indices.length === 0) continue;
    const labels = indices.map(labelOf);
    const n = indices.length;
    const positives = labels.reduce<number>((sum, y) => sum + y, 0);
    const methods = Object.fromEntries(
      CALIBRATION_METHODS.map((m) => {
        const r = indices.map((i) => outOfFold[m][i]!);
        return [m, { ece: expectedCalibrationError(r, labels, eceBins), brier: brierScore(r, labels) }];
      }),
    ) as Record<CalibrationMethod, CalibrationMetrics>;
    const { method, reason } = chooseMethod(n, positives, methods, minLabels, minPerClass);
    for (const i of indices) chosen[i] = outOfFold[method][i]!;
    const figures = group(indices);
    // Calibration earns its place only by beating the uncalibrated priors on held-out (out-of-fold) samples.
    const used = figures.calibrated.brier < figures.priors.brier;
    if (!used) for (const i of indices) chosen[i] = prior[i]!;
    const report: DefectCalibrationReport = {
      defect,
      category: DEFECTS[defect].category,
      method,
      reason: used
        ? reason
        : `${reason}; not used: its cross-fitted Brier ${figures.calibrated.brier.toFixed(4)} does not beat the priors' ${figures.priors.brier.toFixed(4)}, so the default priors stay`,
      methods,
      used,
      ...figures,
    };
    defects.push(report);
    if (!used) continue;
    const crossFitted = {
      calibrated: { ece: report.calibrated.ece, brier: report.calibrated.brier },
      thresholding: { ece: report.thresholding.ece, brier: report.thresholding.brier },
    };
    const scores = indices.map((i) => samples[i]!.score);
    const common = { n, positives, crossFitted };
    const entry: DefectCalibration =
      method === "platt"
        ? { method, platt: fitPlatt(scores, labels), ...common }
        : method === "isotonic"
          ? { method, isotonic: { knots: fitIsotonic(scores, labels, options.isotonic).knots }, ...common }
          : { method, betaBinomial: finalBetaBinomial[defect], ...common };
    modelDefects[defect] = entry;
  }

  const categories = CATEGORIES.flatMap((category) => {
    const indices = indicesOf(samples, (s) => DEFECTS[s.defect].category === category);
    return indices.length ? [{ category, ...group(indices) }] : [];
  });
  return {
    model: { version: 1, folds: k, seed, eceBins, defects: modelDefects },
    report: {
      folds: k,
      seed,
      eceBins,
      bandCuts,
      defects,
      categories,
      overall: group(samples.map((_, i) => i)),
    },
  };
}

/**
 * Step 3 of {@link fitCalibration}: Beta-binomial below the label minimums, else the lowest cross-fitted Brier
 * score, ties broken in {@link CALIBRATION_METHODS} order.
 */
function chooseMethod(
  n: number,
  positives: number,
  methods: Record<CalibrationMethod, CalibrationMetrics>,
  minLabels: number,
  minPerClass: number,
): { method: CalibrationMethod; reason: string } {
  const rarer = Math.min(positives, n - positives);
  if (n < minLabels)
    return {
      method: "beta-binomial",
      reason: `${n} labels, fewer than the ${minLabels} needed to fit a mapping of its own`,
    };
  if (rarer < minPerClass)
    return {
      method: "beta-binomial",
      reason: `only ${rarer} labels of the rarer class (minimum ${minPerClass})`,
    };
  let method: CalibrationMethod = CALIBRATION_METHODS[0];
  for (const m of CALIBRATION_METHODS) if (methods[m].brier < methods[method].brier) method = m;
  return { method, reason: `lowest cross-fitted Brier score (${methods[method].brier.toFixed(4)})` };
}

/** ECE, Brier, reliability bins and band separation of one set of risks. */
function quality(risks: number[], labels: number[], bands: RiskBand[], eceBins: number): CalibrationQuality {
  return {
    ece: expectedCalibrationError(risks, labels, eceBins),
    brier: brierScore(risks, labels),
    reliability: reliabilityBins(risks, labels, eceBins),
    ...bandSeparation(bands, labels),
  };
}
