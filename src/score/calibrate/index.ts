/**
 * Calibration of raw detector scores into posterior risks and reporting bands (ProcCtrlBench §3.4, §4.3,
 * App. B.3, C.2, C.8). Pure functions, except the labels reader; the public surface of `score/calibrate`.
 */

export {
  type BandCuts,
  type BandFrequency,
  bandSeparation,
  DEFAULT_BAND_CUTS,
  RISK_BANDS,
  type RiskBand,
  riskBand,
  THRESHOLD_RISK,
  thresholdBand,
  thresholdRisk,
} from "./bands.ts";
export {
  type BetaBinomialFit,
  type BetaBinomialOptions,
  type BetaPrior,
  type BinPosterior,
  betaBinomialRisk,
  estimateBetaPrior,
  fitBetaBinomial,
  SCORE_BINS,
  type ScoreBin,
  scoreBin,
} from "./beta-binomial.ts";
export {
  DEFAULT_PRIOR_POINTS,
  type DefaultPriorPoints,
  defaultPriorRisk,
  thresholdPriorRisk,
} from "./default-priors.ts";
export {
  type CalibrationQuality,
  type CalibrationReport,
  type DefectCalibrationReport,
  type FitCalibrationOptions,
  fitCalibration,
  type GroupCalibrationReport,
} from "./fit.ts";
export { assignFolds, type FoldSample } from "./folds.ts";
export {
  DEFAULT_ISOTONIC_PRIOR_STRENGTH,
  fitIsotonic,
  type IsotonicFit,
  type IsotonicKnot,
  type IsotonicOptions,
  isotonicRisk,
  poolAdjacentViolators,
} from "./isotonic.ts";
export { type LabelRecord, parseLabelLine, readLabels, streamLabels } from "./labels.ts";
export {
  brierScore,
  DEFAULT_ECE_BINS,
  expectedCalibrationError,
  maximumCalibrationError,
  type ReliabilityBin,
  reliabilityBins,
} from "./metrics.ts";
export {
  applyDefectCalibration,
  CALIBRATION_METHODS,
  CalibrationMethod,
  CalibrationMetrics,
  CalibrationModel,
  calibrateRisk,
  DefectCalibration,
  parseCalibrationModel,
} from "./model.ts";
export { fitPlatt, type PlattOptions, type PlattParams, plattRisk } from "./platt.ts";
export { seededRandom, seededShuffle } from "./prng.ts";
export type { CalibrationSample } from "./samples.ts";
