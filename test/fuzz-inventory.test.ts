import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import { composeSeedTemplates, rulesScreener } from "../src/fuzz/compose.ts";
import { mineInventory, readReports } from "../src/fuzz/inventory.ts";
import { DEFAULT_REPORTS } from "../src/fuzz/pipeline.ts";
import { skeletonKinds } from "../src/fuzz/step-kinds.ts";

// The corpus shipped in data/ (a copy of ../shared/data/agent-anomaly-reports.jsonl).
const CORPUS = DEFAULT_REPORTS;
const reports = readReports(CORPUS);

describe("fuzz inventory (ABTest §3.1)", () => {
  const inventory = mineInventory(reports);

  it("mines the real corpus into merged patterns and action types", () => {
    expect(reports).toHaveLength(45);
    expect(inventory.patterns).toHaveLength(20);
    expect(inventory.actionTypes).toHaveLength(23);
  });

  it("cites every report exactly once among patterns and once among action types", () => {
    const inPatterns = inventory.patterns.flatMap((p) => p.sourceReports).sort();
    const inActions = inventory.actionTypes.flatMap((a) => a.sourceReports).sort();
    const ids = reports.map((r) => r.id).sort();
    expect(inPatterns).toEqual(ids);
    expect(inActions).toEqual(ids);
  });

  it("groups the three long-running-command reports under one hang action type", () => {
    const hang = inventory.actionTypes.find(
      (a) => a.category === "CLI / Terminal Interaction" && a.targetAnomalySurface === "hang",
    );
    expect(hang?.sourceReports).toEqual(["claude-code#292", "gemini-cli#4322", "gemini-cli#10109"]);
    expect(hang?.observableFailureSignal).toBe("STEP_TIMEOUT");
  });

  it("abstracts a skeleton into step kinds", () => {
    expect(
      skeletonKinds("run npm run dev -> server starts -> process never exits -> agent waits -> user cancels"),
    ).toEqual(["run", "hang", "interrupt"]);
  });

  it("names the file and line of a malformed report", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-inv-"));
    const file = path.join(dir, "reports.jsonl");
    writeFileSync(file, `${JSON.stringify({ ...reports[0] })}\n{"id": "x", oops\n`);
    expect(() => readReports(file)).toThrow(InputError);
    expect(() => readReports(file)).toThrow(/reports\.jsonl:2: not valid JSON/);
    writeFileSync(file, `${JSON.stringify({ ...reports[0], action_type: 7 })}\n`);
    expect(() => readReports(file)).toThrow(/reports\.jsonl:1: field "action_type"/);
  });
});

describe("fuzz compose (ABTest §3.2)", () => {
  const inventory = mineInventory(reports);

  it("keeps only pairs meeting all three criteria", async () => {
    const { screenings, templates } = await composeSeedTemplates(inventory);
    expect(screenings).toHaveLength(inventory.patterns.length * inventory.actionTypes.length);
    expect(templates.length).toBe(
      screenings.filter((s) => s.insertion.ok && s.coherence.ok && s.observability.ok).length,
    );
    expect(templates.length).toBe(187);
  });

  it("rejects an action whose anomaly no oracle can observe, with the reason", () => {
    const budget = inventory.actionTypes.find((a) => a.targetAnomalySurface === "budget-overrun")!;
    const s = rulesScreener.screen(inventory.patterns[0]!, budget) as ReturnType<
      typeof rulesScreener.screen
    > & { compatible: boolean };
    expect(s.compatible).toBe(false);
    expect("observability" in s && s.observability.reason).toMatch(/no oracle observes "budget-overrun"/);
  });

  it("rejects a pattern without an insertion point for the operation", () => {
    const commitOnly = inventory.patterns.find((p) => p.description === "commit")!;
    const hang = inventory.actionTypes.find((a) => a.targetAnomalySurface === "hang")!;
    const s = rulesScreener.screen(commitOnly, hang) as { insertion: { ok: boolean; reason: string } };
    expect(s.insertion.ok).toBe(false);
    expect(s.insertion.reason).toMatch(/none of the phases/);
  });
});
