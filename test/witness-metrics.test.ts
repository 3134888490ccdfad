import { describe, expect, it } from "vitest";
import { computeWitnessMetrics, type EvalOutcome, formatWitnessMetrics } from "../src/witness/metrics.ts";

const base = {
  agent: "a1",
  bugType: "guard-predicate-inversion",
  category: "logic",
  bucket: "short",
  depth: 1,
};
const outcome = (
  caseId: string,
  setting: "NoEC" | "WithEC",
  success: boolean,
  extra: Partial<EvalOutcome> = {},
) => ({
  ...base,
  caseId,
  setting,
  success,
  ...extra,
});

describe("witness metrics", () => {
  it("computes success rates per agent and setting, the later result of a re-run replacing the earlier", () => {
    const m = computeWitnessMetrics([
      outcome("c1", "NoEC", false),
      outcome("c1", "NoEC", true), // re-run: replaces the line above
      outcome("c1", "WithEC", true),
      outcome("c2", "NoEC", false, { bucket: "long", depth: 3 }),
      outcome("c2", "WithEC", true, { bucket: "long", depth: 3 }),
    ]);
    expect(m.results).toBe(4);
    expect(m.cases).toBe(2);
    expect(m.overall).toEqual([
      {
        agent: "a1",
        group: "all",
        NoEC: { success: 1, total: 2, rate: 0.5 },
        WithEC: { success: 2, total: 2, rate: 1 },
      },
    ]);
    expect(m.byBucket.map((r) => r.group)).toEqual(["short", "long"]);
    expect(m.byDepth.map((r) => [r.group, r.NoEC.rate])).toEqual([
      ["1", 1],
      ["3", 0],
    ]);
  });

  it("keeps agents apart and reports an empty setting as no rate", () => {
    const m = computeWitnessMetrics([
      outcome("c1", "NoEC", true),
      outcome("c1", "NoEC", false, { agent: "a2" }),
    ]);
    expect(m.overall.map((r) => [r.agent, r.NoEC.rate, r.WithEC.rate])).toEqual([
      ["a1", 1, null],
      ["a2", 0, null],
    ]);
    expect(formatWitnessMetrics(m)).toContain("| a2 | all | – | 0.0% (0/1) |");
  });
});
