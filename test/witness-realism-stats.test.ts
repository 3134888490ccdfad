import { describe, expect, it } from "vitest";
import {
  aucMannWhitney,
  clusterBootstrap,
  type JudgmentRecord,
  positiveControlCheck,
  quantileSorted,
  realismStats,
  seededRandom,
  tostEquivalent,
  weightedMean,
} from "../src/witness/realism-stats.ts";

describe("realism statistics", () => {
  it("draws the same numbers from the same seed", () => {
    const a = seededRandom("s1");
    const b = seededRandom("s1");
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom("s2")()).not.toBe(xs[0]);
  });

  it("computes the Mann–Whitney AUC with ties counted half", () => {
    const scored = [
      { score: 0.9, positive: true },
      { score: 0.5, positive: true },
      { score: 0.5, positive: false },
      { score: 0.1, positive: false },
    ];
    expect(aucMannWhitney(scored)).toBe(3.5 / 4);
    expect(aucMannWhitney(scored.map((s) => ({ ...s, score: 0.7 })))).toBe(0.5);
    expect(aucMannWhitney(scored.filter((s) => s.positive))).toBeNaN();
  });

  it("interpolates quantiles linearly", () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.05)).toBeCloseTo(1.15, 12);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });

  it("resamples whole clusters, deterministically for a seed", () => {
    // Cluster 0 holds four correct judgments, cluster 1 one wrong: a resample is (0,0), (0,1) or (1,1).
    const values = [0, 0, 0, 0, 1].map((cluster) => ({ cluster, value: cluster === 0 ? 1 : 0 }));
    const seen = new Set<number>();
    const stat = (w: Float64Array) => {
      const m = weightedMean(values, w);
      seen.add(m);
      return m;
    };
    const ci = clusterBootstrap(2, { acc: stat }, { resamples: 2000, level: 0.9, seed: 7 });
    expect(ci.acc).toEqual({ estimate: 0.8, lower: 0, upper: 1, level: 0.9 });
    expect([...seen].sort()).toEqual([0, 0.8, 1]);
    const again = clusterBootstrap(2, { acc: stat }, { resamples: 2000, level: 0.9, seed: 7 });
    expect(again).toEqual(ci);
  });

  it("decides equivalence only when the whole 90% CI lies strictly inside (0.45, 0.55)", () => {
    expect(tostEquivalent({ lower: 0.46, upper: 0.54 })).toBe(true);
    expect(tostEquivalent({ lower: 0.45, upper: 0.54 })).toBe(false);
    expect(tostEquivalent({ lower: 0.4, upper: 0.6 })).toBe(false); // includes chance: not enough
    expect(tostEquivalent({ lower: 0.5, upper: 0.56 })).toBe(false);
  });

  /** Pairwise records of `pairs` pairs; pair i has pattern[i % pattern.length] correct orientations of 2. */
  function pairwise(
    pairs: number,
    pattern: number[],
    task: "pairwise" | "control" = "pairwise",
  ): JudgmentRecord[] {
    return Array.from({ length: pairs }, (_, i) =>
      (["injected", "historical"] as const).map((left, k) => ({
        judge: "A",
        model: "m",
        task,
        cluster: `c${i}`,
        pair: `p${i}`,
        left,
        correct: k < pattern[i % pattern.length]!,
        probability: k < pattern[i % pattern.length]! === (left === "historical") ? 0.8 : 0.2,
      })),
    ).flat();
  }

  it("establishes pairwise equivalence on 400 chance-level pairs but not on 40", () => {
    const big = realismStats(pairwise(400, [2, 1, 0, 1]), { seed: 1 })[0]!;
    expect(big.pairwise.accuracy.estimate).toBe(0.5);
    expect(big.pairwise).toMatchObject({ correct: 400, total: 800, pairs: 400 });
    expect(big.pairwise.accuracy.lower).toBeGreaterThan(0.45);
    expect(big.equivalent).toBe(true);
    const small = realismStats(pairwise(40, [2, 1, 0, 1]), { seed: 1 })[0]!;
    expect(small.pairwise.accuracy.lower).toBeLessThan(0.45);
    expect(small.pairwise.accuracy.upper).toBeGreaterThan(0.5);
    expect(small.equivalent).toBe(false);
  });

  it("passes the positive-control check at 92% and fails it at 78% or with a wide CI", () => {
    const options = { resamples: 10_000, seed: "ctl" };
    const pass = positiveControlCheck(
      pairwise(100, [...Array(84).fill(2), ...Array(16).fill(1)], "control"),
      options,
    );
    expect(pass).toMatchObject({ correct: 184, total: 200, pass: true });
    expect(pass.accuracy.estimate).toBe(0.92);
    const low = positiveControlCheck(
      pairwise(100, [...Array(78).fill(2), ...Array(22).fill(0)], "control"),
      options,
    );
    expect(low.pass).toBe(false);
    // 4 of 5 pairs right (80%), but the 95% CI of five clusters reaches down to 40%.
    const wide = positiveControlCheck(pairwise(5, [2, 2, 2, 2, 0], "control"), options);
    expect(wide.accuracy.estimate).toBe(0.8);
    expect(wide.accuracy.lower).toBe(0.4);
    expect(wide.pass).toBe(false);
  });

  it("reports single-patch accuracy, AUC and repeat agreement", () => {
    const single = (patch: string, injected: boolean, ps: number[]): JudgmentRecord[] =>
      ps.map((probability) => ({
        judge: "A",
        model: "m",
        task: "single",
        cluster: "c1",
        patch,
        injected,
        probability,
        correct: probability >= 0.5 === injected,
      }));
    const [s] = realismStats(
      [...single("i1", true, [0.9, 0.6, 0.2]), ...single("h1", false, [0.3, 0.3, 0.3])],
      {
        seed: 1,
      },
    );
    expect(s!.single).toMatchObject({ correct: 5, total: 6 });
    expect(s!.single.accuracy.estimate).toBeCloseTo(5 / 6, 12);
    expect(s!.single.auc.estimate).toBeCloseTo(6 / 9, 12); // 0.9 and 0.6 beat all three 0.3s; 0.2 beats none
    expect(s!.diagnostics.singleRepeatAgreement).toBeCloseTo(4 / 6, 12); // i1: 1 of 3, h1: 3 of 3
  });
});
