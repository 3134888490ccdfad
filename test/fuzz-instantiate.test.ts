import { describe, expect, it } from "vitest";
import { FuzzCase } from "../src/fuzz/case.ts";
import { composeSeedTemplates } from "../src/fuzz/compose.ts";
import { instantiateCases } from "../src/fuzz/instantiate.ts";
import { mineInventory, readReports } from "../src/fuzz/inventory.ts";
import { DEFAULT_REPORTS } from "../src/fuzz/pipeline.ts";

// The corpus shipped in data/ (a copy of ../shared/data/agent-anomaly-reports.jsonl).
const CORPUS = DEFAULT_REPORTS;
const MINIMIST_FILES = [
  "CHANGELOG.md",
  "LICENSE",
  "README.md",
  "example/parse.js",
  "index.js",
  "package.json",
  "test/all_bool.js",
  "test/bool.js",
  "test/parse.js",
];
const repo = { spec: "npm:minimist@1.2.8", testCommand: "npm run tests-only", files: MINIMIST_FILES };

describe("fuzz instantiate (ABTest §3.3)", async () => {
  const { templates } = await composeSeedTemplates(mineInventory(readReports(CORPUS)));
  const { cases, rejected } = await instantiateCases(templates, repo, { maxCases: 14 });

  it("builds 14 valid cases spanning at least 6 action categories and every recipe", () => {
    expect(cases).toHaveLength(14);
    expect(rejected).toEqual([]);
    expect(new Set(cases.map((c) => c.category)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(cases.map((c) => c.recipe)).size).toBe(10);
    for (const c of cases) expect(FuzzCase.safeParse(c).success).toBe(true);
  });

  it("grounds steps in the real repository: its test command and its files", () => {
    const preserve = cases.find((c) => c.recipe === "preserve-artifact")!;
    expect(preserve.steps.some((s) => s.instruction.includes("`npm run tests-only`"))).toBe(true);
    expect(preserve.protectedPaths).toEqual(["CHANGELOG.md"]);
  });

  it("marks rollback and post-rollback verification steps like Figure 6", () => {
    const rollback = cases.find((c) => c.recipe === "rollback-artifacts")!;
    const ids = rollback.steps.map((s) => s.stepId);
    expect(ids).toContain(rollback.rollbackSteps[0]);
    expect(ids).toContain(rollback.postRollbackVerificationSteps[0]);
    const stepOf = (id: string) => rollback.steps.find((s) => s.stepId === id)!;
    expect(stepOf(rollback.rollbackSteps[0]!).intent.deletes[0]).toMatch(/test_report\.txt$/);
  });

  it("varies the fuzz direction between cases of one recipe", () => {
    const rollbacks = cases.filter((c) => c.recipe === "rollback-artifacts");
    const summaries = rollbacks.map((c) => c.expectedNewFiles.find((f) => f.endsWith("summary.json")));
    expect(new Set(summaries).size).toBe(2);
  });

  it("rejects a case with an absolute or traversing path, naming the field", () => {
    const bad = structuredClone(cases[0]!);
    bad.expectedNewFiles = ["/etc/passwd"];
    const r1 = FuzzCase.safeParse(bad);
    expect(r1.success).toBe(false);
    expect(r1.error?.issues[0]?.path).toEqual(["expectedNewFiles", 0]);
    expect(r1.error?.issues[0]?.message).toMatch(/absolute/);
    bad.expectedNewFiles = ["out/../../x"];
    expect(FuzzCase.safeParse(bad).error?.issues[0]?.message).toMatch(/traversal/);
  });

  it("rejects more than 8 steps", () => {
    const bad = structuredClone(cases[0]!);
    bad.steps = Array.from({ length: 9 }, (_, i) => ({
      ...bad.steps[0]!,
      stepId: `S${String(i + 1).padStart(2, "0")}`,
    }));
    expect(FuzzCase.safeParse(bad).success).toBe(false);
  });

  it("says why a template cannot be grounded in a repository without tests", async () => {
    const bare = { spec: "./bare", testCommand: undefined, files: ["index.js"] };
    const r = await instantiateCases(templates, bare, { maxCases: 30 });
    expect(r.rejected.some((x) => /has no test command/.test(x.reason))).toBe(true);
    expect(r.cases.every((c) => !c.steps.some((s) => s.intent.runs?.kind === "test"))).toBe(true);
  });
});
