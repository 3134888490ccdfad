import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import {
  assignFolds,
  brierScore,
  type CalibrationSample,
  calibrateRisk,
  defaultPriorRisk,
  estimateBetaPrior,
  expectedCalibrationError,
  fitBetaBinomial,
  fitCalibration,
  fitIsotonic,
  fitPlatt,
  isotonicRisk,
  parseCalibrationModel,
  plattRisk,
  poolAdjacentViolators,
  readLabels,
  reliabilityBins,
  riskBand,
  seededRandom,
  thresholdBand,
  thresholdRisk,
} from "../src/score/calibrate/index.ts";
import { DEFECT_IDS, DEFECTS, type DefectId } from "../src/score/defects.ts";

/**
 * Score suite, calibrate: Platt scaling, smoothed isotonic regression, Beta-binomial pooling by category,
 * calibration metrics, bands, and the known-answer test (ProcCtrlBench §4.3): on data whose true defect
 * probability is a known function of the raw score, cross-fitted calibration beats plain thresholding.
 */

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Labels drawn from p = σ(a·s + b) at scores spread uniformly over [0, 10]. */
function logisticData(a: number, b: number, n: number, seed: number): { scores: number[]; labels: number[] } {
  const random = seededRandom(seed);
  const scores: number[] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = random() * 10;
    scores.push(s);
    labels.push(random() < sigmoid(a * s + b) ? 1 : 0);
  }
  return { scores, labels };
}

describe("Platt scaling", () => {
  it("recovers the slope and intercept of the logistic model that generated the labels", () => {
    const { scores, labels } = logisticData(1.2, -4, 5000, 11);
    const { a, b } = fitPlatt(scores, labels);
    expect(a).toBeGreaterThan(1.1);
    expect(a).toBeLessThan(1.3);
    expect(b).toBeGreaterThan(-4.35);
    expect(b).toBeLessThan(-3.65);
  });

  it("stays finite on separable data, with risks between Platt's smoothed targets", () => {
    const fit = fitPlatt([0, 1, 2, 3, 4, 5], [0, 0, 0, 1, 1, 1]);
    expect(Number.isFinite(fit.a) && Number.isFinite(fit.b)).toBe(true);
    expect(fit.a).toBeGreaterThan(0);
    expect(plattRisk(fit, 0)).toBeGreaterThan(0);
    expect(plattRisk(fit, 0)).toBeLessThan(0.2);
    expect(plattRisk(fit, 5)).toBeGreaterThan(0.8);
    expect(plattRisk(fit, 5)).toBeLessThan(1);
  });

  it("gives the constant mean smoothed target on single-class data", () => {
    const ones = fitPlatt([0, 1, 2, 7], [1, 1, 1, 1]);
    expect(ones.a).toBeCloseTo(0, 9);
    expect(plattRisk(ones, 3)).toBeCloseTo(5 / 6, 9);
    const zeros = fitPlatt([0, 1, 2, 7], [0, 0, 0, 0]);
    expect(plattRisk(zeros, 3)).toBeCloseTo(1 / 6, 9);
    expect(plattRisk(fitPlatt([2, 2, 2], [0, 1, 1]), 9)).toBeCloseTo((2 * (3 / 4) + 1 / 3) / 3, 9);
  });

  it("does not let a higher score lower the risk: decreasing labels give slope 0", () => {
    const fit = fitPlatt([0, 1, 2, 3], [1, 1, 0, 0]);
    expect(fit.a).toBe(0);
    expect(plattRisk(fit, 0)).toBeCloseTo(0.5, 12);
  });
});

describe("isotonic regression", () => {
  it("pools adjacent violators to the hand-worked values", () => {
    expect(poolAdjacentViolators([1, 3, 2, 4, 3, 5])).toEqual([1, 2.5, 2.5, 3.5, 3.5, 5]);
    expect(poolAdjacentViolators([3, 1], [1, 3])).toEqual([1.5, 1.5]);
    expect(poolAdjacentViolators([4, 3, 2, 1])).toEqual([2.5, 2.5, 2.5, 2.5]);
  });

  it("without smoothing is classic PAV on the labels, knots at block centres, ties sharing a block", () => {
    expect(fitIsotonic([0, 1, 2, 3], [0, 1, 0, 1], { priorStrength: 0 }).knots).toEqual([
      { score: 0, risk: 0, n: 1 },
      { score: 1.5, risk: 0.5, n: 2 },
      { score: 3, risk: 1, n: 1 },
    ]);
    expect(fitIsotonic([2, 1, 1], [1, 1, 0], { priorStrength: 0 }).knots).toEqual([
      { score: 1, risk: 0.5, n: 2 },
      { score: 2, risk: 1, n: 1 },
    ]);
  });

  it("smooths each block with Beta pseudo-counts and interpolates linearly between centres", () => {
    // Prior mean (2 + 1)/(4 + 2) = 0.5, strength 2: α = β = 1, so a block's risk is (k + 1)/(n + 2).
    const fit = fitIsotonic([0, 1, 2, 3], [0, 1, 0, 1]);
    expect(fit.knots.map((k) => [k.score, k.risk])).toEqual([
      [0, 1 / 3],
      [1.5, 0.5],
      [3, 2 / 3],
    ]);
    expect(isotonicRisk(fit, -5)).toBe(1 / 3);
    expect(isotonicRisk(fit, 0.75)).toBeCloseTo(5 / 12, 12);
    expect(isotonicRisk(fit, 10)).toBe(2 / 3);
  });

  it("is monotone on noisy data", () => {
    const { scores, labels } = logisticData(0.8, -4, 400, 3);
    const fit = fitIsotonic(scores, labels);
    const risks = Array.from({ length: 101 }, (_, i) => isotonicRisk(fit, i / 10));
    expect(risks.every((r, i) => i === 0 || r >= risks[i - 1]!)).toBe(true);
    expect(risks[0]).toBeGreaterThan(0);
    expect(risks[100]).toBeLessThan(1);
  });
});

describe("Beta-binomial pooling by category", () => {
  const cells = (defect: DefectId, score: number, n: number, positives: number): CalibrationSample[] =>
    Array.from({ length: n }, (_, i) => ({ defect, score, label: i < positives ? 1 : 0 }));
  const siblings = [
    ...cells("duplicate-step", 5, 200, 180),
    ...cells("tool-call-chain", 5, 200, 180),
    ...cells("dead-step", 7, 200, 180),
  ];
  const errorRisk = (samples: CalibrationSample[], defect: DefectId) =>
    fitBetaBinomial(samples)[defect].bins.find((b) => b.bin === "error")!.risk;

  it("pulls a defect with 2 labels towards its category's rate", () => {
    // Long Chain's own error-bin rate is 0/2; its tool-use siblings' is 0.9.
    expect(errorRisk([...siblings, ...cells("long-chain", 70, 2, 0)], "long-chain")).toBeGreaterThan(0.75);
  });

  it("keeps a defect with 500 labels close to its own rate", () => {
    expect(errorRisk([...siblings, ...cells("long-chain", 70, 500, 100)], "long-chain")).toBeCloseTo(0.2, 2);
  });

  it("estimates the prior by the method of moments (hand-computed)", () => {
    // p̄ = 0.5, S = 1.8, ρ̂ = (1.8/0.25 − 1)/(20 − 200/20 − 1) = 6.2/9, strength = 1/ρ̂ − 1 = 14/31.
    const prior = estimateBetaPrior(
      [
        { n: 10, k: 2 },
        { n: 10, k: 8 },
      ],
      { minStrength: 0.1 },
    );
    expect(prior!.mean).toBe(0.5);
    expect(prior!.strength).toBeCloseTo(14 / 31, 12);
    // Cells that agree exactly: no excess spread, so the strongest prior.
    expect(
      estimateBetaPrior([
        { n: 10, k: 5 },
        { n: 10, k: 5 },
      ])!.strength,
    ).toBe(50);
  });

  it("falls back to the shipped default prior for a category without labels, monotone across bins", () => {
    const fit = fitBetaBinomial(siblings)["weak-tool"];
    expect(fit.bins.map((b) => b.n)).toEqual([0, 0, 0, 0]);
    const risks = fit.bins.map((b) => b.risk);
    expect(risks[0]).toBeCloseTo(0.05, 12);
    expect(risks.every((r, i) => i === 0 || r >= risks[i - 1]!)).toBe(true);
  });
});

describe("calibration metrics", () => {
  const risks = [0.1, 0.4, 0.45, 0.9];
  const labels = [0, 1, 0, 1];

  it("computes ECE over 10 equal-width bins and the Brier score (hand-computed)", () => {
    // Bins: [0.1,0.2) gap 0.1; [0.4,0.5) mean risk 0.425 vs frequency 0.5, gap 0.075 (2 samples); [0.9,1] gap 0.1.
    expect(expectedCalibrationError(risks, labels)).toBeCloseTo((0.1 + 2 * 0.075 + 0.1) / 4, 12);
    expect(brierScore(risks, labels)).toBeCloseTo((0.01 + 0.36 + 0.2025 + 0.01) / 4, 12);
    expect(reliabilityBins(risks, labels).map((b) => [b.lo, b.n, b.frequency])).toEqual([
      [0.1, 1, 0],
      [0.4, 2, 0.5],
      [0.9, 1, 1],
    ]);
  });

  it("scores plain thresholding's implied risks 0 / 0.5 / 1", () => {
    // Scores at 0, half the warning threshold, the warning threshold, between it and error, and error.
    const { warning, error } = DEFECTS["long-chain"];
    const at = [0, warning / 2, warning, (warning + error) / 2, error];
    expect(at.map((s) => thresholdRisk("long-chain", s))).toEqual([0, 0, 0.5, 0.5, 1]);
    // Bins 0 (2 samples, frequency 0.5), 5 (frequency 0.5, risk 0.5), 9 (frequency 1): ECE = 2/5 · 0.5.
    expect(expectedCalibrationError([0, 0, 0.5, 0.5, 1], [0, 1, 1, 0, 1])).toBeCloseTo(0.2, 12);
  });

  it("rejects empty or mismatched inputs", () => {
    expect(() => brierScore([], [])).toThrow(RangeError);
    expect(() => expectedCalibrationError([0.5], [1, 0])).toThrow(RangeError);
  });
});

describe("default priors and bands", () => {
  it("reproduce plain thresholding's bands exactly for every defect", () => {
    for (const d of DEFECT_IDS) {
      const { error } = DEFECTS[d];
      for (let s = 0; s <= 3 * error; s += error / 40)
        expect([d, s, riskBand(defaultPriorRisk(d, s))]).toEqual([d, s, thresholdBand(d, s)]);
    }
  });

  it("pass through the documented anchors and saturate at 0.95", () => {
    // long-chain: warning at 30, error at 60.
    expect(defaultPriorRisk("long-chain", 0)).toBeCloseTo(0.05, 12);
    expect(defaultPriorRisk("long-chain", 30)).toBeCloseTo(0.5, 12);
    expect(defaultPriorRisk("long-chain", 60)).toBeCloseTo(0.8, 12);
    expect(defaultPriorRisk("long-chain", 6000)).toBeCloseTo(0.95, 12);
    expect(calibrateRisk(undefined, "long-chain", 30)).toBeCloseTo(0.5, 12);
  });
});

describe("cross-fitting folds", () => {
  it("never splits a trajectory across folds and is reproducible", () => {
    const samples = Array.from({ length: 60 }, (_, i) => ({
      defect: DEFECT_IDS[i % 3]!,
      label: (i % 5 === 0 ? 1 : 0) as 0 | 1,
      trajectory: `t${Math.floor(i / 3)}`,
    }));
    const folds = assignFolds(samples, 5, 42);
    expect(assignFolds(samples, 5, 42)).toEqual(folds);
    const foldsOf = new Map<string, Set<number>>();
    samples.forEach((s, i) => {
      foldsOf.set(s.trajectory, new Set([...(foldsOf.get(s.trajectory) ?? []), folds[i]!]));
    });
    expect([...foldsOf.values()].every((f) => f.size === 1)).toBe(true);
    expect(new Set(folds).size).toBe(5);
  });
});

describe("known-answer test: calibration beats plain thresholding (ProcCtrlBench §4.3)", () => {
  // True defect probability p(s) = σ(3·(s − warning)/(error − warning)): 0.5 at the warning threshold, 0.95 at
  // the error threshold, in every defect's own unit. One score per defect per trajectory, 1000 trajectories.
  const defects: DefectId[] = [
    "ghost-context",
    "duplicate-step",
    "dead-step",
    "long-chain",
    "wrapper-workflow",
    "weak-tool",
  ];
  const truth = (d: DefectId, s: number) => {
    const { warning, error } = DEFECTS[d];
    return sigmoid((3 * (s - warning)) / (error - warning));
  };
  const random = seededRandom(7);
  const samples: CalibrationSample[] = [];
  for (let t = 0; t < 1000; t++)
    for (const d of defects) {
      const max = 2 * DEFECTS[d].error;
      const s =
        d === "ghost-context" ? Math.round(random() * max * 10) / 10 : Math.floor(random() * (max + 1));
      samples.push({ defect: d, score: s, label: random() < truth(d, s) ? 1 : 0, trajectory: `t${t}` });
    }
  const { model, report } = fitCalibration(samples);

  it.each(defects)("%s: cross-fitted ECE and Brier are below plain thresholding's", (d) => {
    const r = report.defects.find((x) => x.defect === d)!;
    expect(r.n).toBe(1000);
    expect(r.calibrated.ece).toBeLessThan(r.thresholding.ece);
    expect(r.calibrated.brier).toBeLessThan(r.thresholding.brier);
    expect(r.calibrated.ece).toBeLessThan(0.03);
    expect(r.calibrated.monotone).toBe(true);
  });

  it.each(defects)(
    "%s: calibrated risk is within 0.1 of the true probability at 0, warning and error",
    (d) => {
      const { warning, error } = DEFECTS[d];
      for (const s of [0, warning, error])
        expect(Math.abs(calibrateRisk(model, d, s) - truth(d, s))).toBeLessThan(0.1);
    },
  );

  it("beats thresholding in every category and survives a JSON round trip", () => {
    expect(report.categories.map((c) => c.category)).toEqual([
      "context",
      "tool-use",
      "workflow",
      "ecosystem",
    ]);
    for (const c of report.categories) expect(c.calibrated.ece).toBeLessThan(c.thresholding.ece);
    const reloaded = parseCalibrationModel(JSON.parse(JSON.stringify(model)));
    for (const d of defects) expect(calibrateRisk(reloaded, d, 3)).toBe(calibrateRisk(model, d, 3));
    expect(fitCalibration(samples).model).toEqual(model);
  });

  it("uses Beta-binomial below the minimum number of labels", () => {
    const few = samples.filter((s) => s.defect === "weak-tool").slice(0, 20);
    const { model: small, report: smallReport } = fitCalibration(few);
    expect(smallReport.defects[0]!.method).toBe("beta-binomial");
    expect(smallReport.defects[0]!.reason).toMatch(/20 labels, fewer than the 30/);
    // In the model only if it beat the uncalibrated priors on the held-out folds.
    expect(small.defects["weak-tool"] !== undefined).toBe(smallReport.defects[0]!.used);
  });
});

describe("labels file", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-labels-"));
  const write = (name: string, lines: string[]) => {
    const file = path.join(dir, name);
    writeFileSync(file, `${lines.join("\n")}\n`);
    return file;
  };

  it("reads both line shapes, in file order, with line numbers", async () => {
    const file = write("ok.jsonl", [
      '{"trajectory": "runs/a.jsonl", "defect": "dead-step", "label": 1, "score": 4}',
      "",
      '{"trajectory": "runs/b.jsonl", "labels": {"weak-tool": 0, "long-chain": 1}, "scores": {"long-chain": 72}}',
    ]);
    expect(await readLabels(file)).toEqual([
      { trajectory: "runs/a.jsonl", defect: "dead-step", label: 1, score: 4, line: 1 },
      { trajectory: "runs/b.jsonl", defect: "weak-tool", label: 0, line: 3 },
      { trajectory: "runs/b.jsonl", defect: "long-chain", label: 1, score: 72, line: 3 },
    ]);
  });

  it.each([
    [
      '{"trajectory": "a", "defect": "dead-steps", "label": 1}',
      'bad.jsonl:2: field "defect": unknown defect id "dead-steps"',
    ],
    [
      '{"trajectory": "a", "defect": "dead-step", "label": 2}',
      'bad.jsonl:2: field "label": must be 0 (no defect) or 1',
    ],
    [
      '{"trajectory": "a", "labels": {"weak-tool": 1, "ghost": 0}}',
      'bad.jsonl:2: field "labels.ghost": unknown defect id',
    ],
    [
      '{"trajectory": "a", "labels": {"weak-tool": 1}, "scores": {"weak-tool": -1}}',
      'field "scores.weak-tool": must be ≥ 0',
    ],
    [
      '{"trajectory": "z", "labels": {"long-chain": 0}}',
      'bad.jsonl:2: field "labels.long-chain": trajectory "z" is already',
    ],
    ["{not json", "bad.jsonl:2: not JSON"],
  ])("reports file:line and the field for %s", async (line, message) => {
    const file = write("bad.jsonl", ['{"trajectory": "z", "defect": "long-chain", "label": 1}', line]);
    const error = await readLabels(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(message);
    expect((error as InputError).hint).toBeTruthy();
  });

  it("names a missing file", async () => {
    await expect(readLabels(path.join(dir, "missing.jsonl"))).rejects.toThrow(
      /missing.jsonl: file not found/,
    );
  });
});
