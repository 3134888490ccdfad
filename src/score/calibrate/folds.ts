import { seededRandom, seededShuffle } from "./prng.ts";

/**
 * Cross-fitting folds (trajectory-formats.md §4.2 "always cross-fit, k-fold, grouped by trajectory"): every
 * trajectory's samples go to one fold, so a calibrator is never scored on a trajectory it was fitted on, and
 * the folds are balanced per defect, label and stratum (ProcCtrlBench B.4 stratifies by benchmark source and
 * task outcome).
 */

/** What fold assignment reads from a labelled sample. */
export interface FoldSample {
  defect: string;
  label: number;
  /** Trajectory the sample comes from; samples without one are each their own group. */
  trajectory?: string;
  /** Stratum (e.g. benchmark source, or source × task outcome) to balance across folds. */
  stratum?: string;
}

/**
 * Assign each sample to one of `folds` folds, grouped by trajectory and stratified by (defect, label,
 * stratum). Deterministic for a given seed. Exact method (a greedy stratified group k-fold):
 * 1. group samples by trajectory; shuffle the groups with {@link seededRandom}`(seed)`, then order them by
 *    size, largest first (stable, so equal sizes keep the shuffled order);
 * 2. put each group in the fold where its cells are least filled so far: the fold minimising
 *    Σ_cells (group's count in cell) × (fold's count in cell) / (total count in cell); ties go to the fold with
 *    fewest samples, then the lowest index.
 * With fewer groups than folds, only as many folds as groups are used.
 *
 * @param samples labelled samples
 * @param folds number of folds, an integer ≥ 2
 * @param seed PRNG seed
 * @returns one fold index in [0, min(folds, groups)) per sample, in input order
 * @throws RangeError when `folds` < 2 or is not an integer
 */
export function assignFolds(samples: readonly FoldSample[], folds: number, seed: number): number[] {
  if (!Number.isInteger(folds) || folds < 2)
    throw new RangeError(`folds must be an integer ≥ 2, got ${folds}`);
  const groups = new Map<string, number[]>();
  samples.forEach((s, i) => {
    const key = s.trajectory === undefined ? `\u0000sample ${i}` : `trajectory ${s.trajectory}`;
    const members = groups.get(key) ?? [];
    members.push(i);
    groups.set(key, members);
  });
  const cellOf = (i: number) => {
    const s = samples[i]!;
    return JSON.stringify([s.defect, s.label, s.stratum ?? null]);
  };
  const totals = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) totals.set(cellOf(i), (totals.get(cellOf(i)) ?? 0) + 1);

  const k = Math.min(folds, groups.size);
  const ordered = seededShuffle([...groups.values()], seededRandom(seed)).sort((a, b) => b.length - a.length);
  const fill = Array.from({ length: k }, () => new Map<string, number>());
  const sizes = new Array<number>(k).fill(0);
  const out = new Array<number>(samples.length).fill(0);
  for (const members of ordered) {
    const cells = new Map<string, number>();
    for (const i of members) cells.set(cellOf(i), (cells.get(cellOf(i)) ?? 0) + 1);
    let best = 0;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let f = 0; f < k; f++) {
      let cost = 0;
      for (const [cell, count] of cells) cost += (count * (fill[f]!.get(cell) ?? 0)) / totals.get(cell)!;
      if (cost < bestCost - 1e-12 || (Math.abs(cost - bestCost) <= 1e-12 && sizes[f]! < sizes[best]!)) {
        best = f;
        bestCost = cost;
      }
    }
    for (const [cell, count] of cells) fill[best]!.set(cell, (fill[best]!.get(cell) ?? 0) + count);
    sizes[best]! += members.length;
    for (const i of members) out[i] = best;
  }
  return out;
}
