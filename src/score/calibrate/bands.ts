import { DEFECTS, type DefectId } from "../defects.ts";

/**
 * Reporting bands over posterior risk (ProcCtrlBench §3.4: risks "map to warning/error/none reporting bands";
 * App. C.2: error-level findings must show the highest empirical defect frequency, warning-level an
 * intermediate one, none the lowest), and the plain-thresholding baseline that §4.3 compares calibration
 * against ("direct hard-threshold interpretation").
 */

/** The reporting bands, lowest first. */
export const RISK_BANDS = ["none", "warning", "error"] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

/** Risk cut points: a risk ≥ `warning` is a warning, ≥ `error` an error. */
export interface BandCuts {
  /** Lowest risk reported as a warning, in (0, 1]. */
  warning: number;
  /** Lowest risk reported as an error, in [warning, 1]. */
  error: number;
}

/**
 * Default cuts: warning at risk ≥ 0.5 (a defect is at least as likely as not: a reviewer who opens every
 * warning finds a real defect at least half the time, if the risks are calibrated), error at risk ≥ 0.8 (odds
 * of at least 4 to 1). Because the bands are intervals of one monotone risk, a calibrated risk gives monotone
 * separation (App. C.2) in expectation: the none band's frequency is < 0.5, warning's in [0.5, 0.8), error's
 * ≥ 0.8. With the shipped default priors (`default-priors.ts`) these cuts reproduce plain thresholding's bands
 * exactly.
 */
export const DEFAULT_BAND_CUTS: BandCuts = { warning: 0.5, error: 0.8 };

/**
 * The band of a posterior risk.
 * @param risk in [0, 1]
 * @param cuts default {@link DEFAULT_BAND_CUTS}
 * @throws RangeError when the risk is outside [0, 1] or the cuts do not satisfy 0 < warning ≤ error ≤ 1
 */
export function riskBand(risk: number, cuts: BandCuts = DEFAULT_BAND_CUTS): RiskBand {
  if (!(cuts.warning > 0 && cuts.warning <= cuts.error && cuts.error <= 1))
    throw new RangeError(
      `band cuts must satisfy 0 < warning ≤ error ≤ 1, got ${cuts.warning}, ${cuts.error}`,
    );
  if (!(risk >= 0 && risk <= 1)) throw new RangeError(`risk ${risk} is outside [0, 1]`);
  if (risk >= cuts.error) return "error";
  if (risk >= cuts.warning) return "warning";
  return "none";
}

/**
 * Plain thresholding's band of a raw score: error when score ≥ DEFECTS[defect].error, warning when score ≥
 * DEFECTS[defect].warning, else none.
 */
export function thresholdBand(defect: DefectId, score: number): RiskBand {
  const { warning, error } = DEFECTS[defect];
  if (score >= error) return "error";
  if (score >= warning) return "warning";
  return "none";
}

/**
 * The risk plain thresholding implies, read as a claim about the defect: an error says "defect" (1), a none
 * says "no defect" (0), a warning says "undecided" (0.5). This is what makes the ECE and Brier score of the
 * thresholding baseline computable (ProcCtrlBench §4.3 compares calibrated ECE against it).
 */
export const THRESHOLD_RISK: Record<RiskBand, number> = { none: 0, warning: 0.5, error: 1 };

/** The risk plain thresholding implies for a raw score: {@link THRESHOLD_RISK} of {@link thresholdBand}. */
export function thresholdRisk(defect: DefectId, score: number): number {
  return THRESHOLD_RISK[thresholdBand(defect, score)];
}

/** Empirical defect frequency of one band. */
export interface BandFrequency {
  band: RiskBand;
  /** Samples in the band. */
  n: number;
  /** Of them, labelled defects. */
  positives: number;
  /** positives / n, or null for an empty band. */
  frequency: number | null;
}

/**
 * Empirical defect frequency per band, and whether the bands are monotonically separated (App. C.2): the
 * frequencies of the non-empty bands strictly increase from none to warning to error.
 *
 * @param bands one band per sample
 * @param labels 0 | 1, same length
 * @throws RangeError when the lengths differ
 */
export function bandSeparation(
  bands: readonly RiskBand[],
  labels: readonly number[],
): { bands: BandFrequency[]; monotone: boolean } {
  if (bands.length !== labels.length)
    throw new RangeError(`bands (${bands.length}) and labels (${labels.length}) differ in length`);
  const out = RISK_BANDS.map((band) => {
    let n = 0;
    let positives = 0;
    bands.forEach((b, i) => {
      if (b !== band) return;
      n++;
      positives += labels[i]!;
    });
    return { band, n, positives, frequency: n > 0 ? positives / n : null };
  });
  const frequencies = out.flatMap((b) => (b.frequency === null ? [] : [b.frequency]));
  const monotone = frequencies.every((f, i) => i === 0 || f > frequencies[i - 1]!);
  return { bands: out, monotone };
}
