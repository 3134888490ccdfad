import { describe, expect, it } from "vitest";
import { FuzzCase } from "../src/fuzz/case.ts";
import { composeSeedTemplates } from "../src/fuzz/compose.ts";
import { diversityOf } from "../src/fuzz/coverage.ts";
import { instantiateCases } from "../src/fuzz/instantiate.ts";
import { mineInventory, readReports } from "../src/fuzz/inventory.ts";
import { loadModes } from "../src/fuzz/modes/load.ts";
import { DEFAULT_REPORTS } from "../src/fuzz/pipeline.ts";
import { casesOfEveryTemplate } from "./helpers/mode-cases.ts";

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
const minimist = { spec: "npm:minimist@1.2.8", testCommand: "npm run tests-only", files: MINIMIST_FILES };
// A second, unlike package: TypeScript sources under src/, jest-style tests under __tests__/, no changelog.
const other = {
  spec: "npm:left-pad-ts@2.0.0",
  testCommand: "npx jest",
  files: [
    "README.md",
    "package.json",
    "src/index.ts",
    "src/pad.ts",
    "__tests__/pad.test.ts",
    "tsconfig.json",
  ],
};
const modes = loadModes().map((m) => m.mode);
const reports = readReports(DEFAULT_REPORTS);

describe("fuzz instantiate (ABTest §3.3)", async () => {
  const { templates } = await composeSeedTemplates(await mineInventory(reports, modes), modes);
  const { cases, rejected } = await instantiateCases(templates, minimist, { maxCases: 50, modes });

  it("builds 50 valid cases over many failure modes, most of them multi-step", () => {
    expect(cases).toHaveLength(50);
    for (const c of cases) expect(FuzzCase.safeParse(c).success).toBe(true);
    const d = diversityOf(cases);
    expect(d.modes).toBeGreaterThanOrEqual(25);
    expect(d.distinctSequences).toBeGreaterThanOrEqual(30);
    expect(d.medianSteps).toBeGreaterThanOrEqual(3);
    expect(rejected.filter((r) => !/no case template fits/.test(r.reason))).toEqual([]);
  });

  it("cites only the reports placed in the mode the case stresses", async () => {
    const inventory = await mineInventory(reports, modes);
    const modeOf = new Map(inventory.placements.map((p) => [p.reportId, p.mode]));
    for (const c of cases) for (const id of c.sourceReports) expect(modeOf.get(id)).toBe(c.mode);
  });

  const every = await casesOfEveryTemplate(modes, minimist);

  it("grounds steps in the real repository: its test command and its files", () => {
    const preserve = every.find((c) => c.template === "artifact-overwrite/summary-beside-doc")!;
    expect(preserve.steps.some((s) => s.instruction.includes("`npm run tests-only`"))).toBe(true);
    expect(preserve.protectedPaths).toEqual(["CHANGELOG.md"]);
  });

  it("marks the stressed step with the mode and its misbehaviour, tied to real reports", () => {
    const ids = new Set(reports.map((r) => r.id));
    for (const c of cases) {
      const stressed = c.steps.filter((s) => s.intent.misbehaviour);
      expect(stressed).toHaveLength(1);
      expect(stressed[0]!.intent.stresses).toBe(c.mode);
      for (const r of stressed[0]!.intent.misbehaviour!.reports) expect(ids.has(r)).toBe(true);
    }
  });

  it("never gives two packages the same case, even with the same layout and test command", async () => {
    const twin = { ...minimist, spec: "npm:object-keys@1.1.1" };
    const mine = new Set(cases.map((c) => JSON.stringify(c.steps.map((s) => s.instruction))));
    for (const repo of [other, twin]) {
      const { cases: theirs } = await instantiateCases(templates, repo, { maxCases: 50, modes });
      expect(theirs.length).toBeGreaterThanOrEqual(40);
      for (const c of theirs) expect(mine.has(JSON.stringify(c.steps.map((s) => s.instruction)))).toBe(false);
    }
  });

  it("renumbers rollback steps around the steps a pattern adds", () => {
    const rollback = every.find((c) => c.mode === "incomplete-rollback")!;
    const ids = rollback.steps.map((s) => s.stepId);
    expect(ids).toContain(rollback.rollbackSteps[0]);
    expect(ids).toContain(rollback.postRollbackVerificationSteps[0]);
    const stepOf = (id: string) => rollback.steps.find((s) => s.stepId === id)!;
    expect(stepOf(rollback.rollbackSteps[0]!).intent.deletes[0]).toMatch(/test_report\.txt$/);
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

  it("rejects more than 8 steps and fields no oracle reads", () => {
    const bad = structuredClone(cases[0]!);
    bad.steps = Array.from({ length: 9 }, (_, i) => ({
      ...bad.steps[0]!,
      stepId: `S${String(i + 1).padStart(2, "0")}`,
    }));
    expect(FuzzCase.safeParse(bad).success).toBe(false);
    const extra = { ...structuredClone(cases[0]!), mustNotCrash: true };
    expect(FuzzCase.safeParse(extra).error?.issues[0]?.message).toMatch(/Unrecognized key/);
  });

  it("says why a template cannot be grounded in a repository without tests", async () => {
    const bare = { spec: "./bare", testCommand: undefined, files: ["index.js"] };
    const r = await instantiateCases(templates, bare, { maxCases: 60, modes });
    expect(r.rejected.some((x) => /no test command/.test(x.reason))).toBe(true);
    expect(
      r.cases.every(
        (c) => !c.steps.some((s) => s.intent.runs?.kind === "test" && s.intent.runs.command === "undefined"),
      ),
    ).toBe(true);
  });
});
