/**
 * How well risks match outcomes: expected calibration error, maximum calibration error, Brier score, and the
 * bins of a reliability diagram (trajectory-formats.md §4.2; ProcCtrlBench §4.3 reports ECE, App. C.8 draws
 * reliability diagrams). Pure functions over parallel arrays of risks in [0, 1] and labels 0 | 1.
 */

/** Default number of equal-width bins on [0, 1] for ECE and reliability diagrams. */
export const DEFAULT_ECE_BINS = 10;

/** One bin of a reliability diagram: the risks that fell in [lo, hi) and how often the defect was there. */
export interface ReliabilityBin {
  /** Lower edge of the bin (risk, inclusive). */
  lo: number;
  /** Upper edge of the bin (risk; exclusive, except that the last bin includes 1). */
  hi: number;
  /** Samples in the bin (≥ 1: empty bins are left out). */
  n: number;
  /** Mean predicted risk in the bin. */
  meanRisk: number;
  /** Empirical defect frequency in the bin: positives / n. */
  frequency: number;
}

/**
 * Reliability-diagram bins: `bins` equal-width bins on [0, 1]; a risk r falls in bin ⌊r·bins⌋ (the last bin
 * also takes r = 1). Empty bins are left out.
 *
 * @param risks predicted risks in [0, 1]
 * @param labels 0 | 1, same length
 * @param bins number of bins, a positive integer (default {@link DEFAULT_ECE_BINS})
 * @returns the non-empty bins, low to high
 * @throws RangeError when the arrays are empty or differ in length, a risk is outside [0, 1], a label is not
 *   0 | 1, or `bins` is not a positive integer
 */
export function reliabilityBins(
  risks: readonly number[],
  labels: readonly number[],
  bins = DEFAULT_ECE_BINS,
): ReliabilityBin[] {
  checkInputs(risks, labels);
  if (!Number.isInteger(bins) || bins < 1)
    throw new RangeError(`bins must be a positive integer, got ${bins}`);
  const count = new Array<number>(bins).fill(0);
  const riskSum = new Array<number>(bins).fill(0);
  const positives = new Array<number>(bins).fill(0);
  risks.forEach((r, i) => {
    const b = Math.min(bins - 1, Math.floor(r * bins));
    count[b]!++;
    riskSum[b]! += r;
    positives[b]! += labels[i]!;
  });
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const n = count[b]!;
    if (n === 0) continue;
    out.push({
      lo: b / bins,
      hi: (b + 1) / bins,
      n,
      meanRisk: riskSum[b]! / n,
      frequency: positives[b]! / n,
    });
  }
  return out;
}

/**
 * Expected calibration error (Naeini, Cooper & Hauskrecht 2015): Σ_b (n_b / N)·|frequency_b − meanRisk_b| over
 * the equal-width bins of {@link reliabilityBins}. 0 is perfect; biased upwards on small samples and sensitive
 * to the number of bins, so compare ECEs only on the same samples and bins.
 *
 * @returns ECE in [0, 1]
 * @throws RangeError as {@link reliabilityBins}
 */
export function expectedCalibrationError(
  risks: readonly number[],
  labels: readonly number[],
  bins = DEFAULT_ECE_BINS,
): number {
  const total = risks.length;
  return reliabilityBins(risks, labels, bins).reduce(
    (sum, bin) => sum + (bin.n / total) * Math.abs(bin.frequency - bin.meanRisk),
    0,
  );
}

/**
 * Maximum calibration error (Naeini et al. 2015): the largest |frequency_b − meanRisk_b| over non-empty bins.
 * @throws RangeError as {@link reliabilityBins}
 */
export function maximumCalibrationError(
  risks: readonly number[],
  labels: readonly number[],
  bins = DEFAULT_ECE_BINS,
): number {
  return Math.max(
    ...reliabilityBins(risks, labels, bins).map((bin) => Math.abs(bin.frequency - bin.meanRisk)),
  );
}

/**
 * Brier score (Brier 1950): mean squared difference between risk and label, (1/N)·Σ (r_i − y_i)². 0 is perfect;
 * a constant 0.5 scores 0.25.
 * @throws RangeError as {@link reliabilityBins}
 */
export function brierScore(risks: readonly number[], labels: readonly number[]): number {
  checkInputs(risks, labels);
  let sum = 0;
  risks.forEach((r, i) => {
    sum += (r - labels[i]!) ** 2;
  });
  return sum / risks.length;
}

function checkInputs(risks: readonly number[], labels: readonly number[]): void {
  if (risks.length === 0) throw new RangeError("no samples: calibration metrics need at least one risk");
  if (risks.length !== labels.length)
    throw new RangeError(`risks (${risks.length}) and labels (${labels.length}) differ in length`);
  for (const r of risks) if (!(r >= 0 && r <= 1)) throw new RangeError(`risk ${r} is outside [0, 1]`);
  for (const y of labels) if (y !== 0 && y !== 1) throw new RangeError(`label ${y} is not 0 or 1`);
}
