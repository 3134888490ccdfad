import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import { composeSeedTemplates, rulesScreener } from "../src/fuzz/compose.ts";
import { type AnomalyReport, mineInventory, readReports } from "../src/fuzz/inventory.ts";
import { loadModes } from "../src/fuzz/modes/load.ts";
import { placeByRecognisers } from "../src/fuzz/modes/recognise.ts";
import { DEFAULT_REPORTS } from "../src/fuzz/pipeline.ts";
import { skeletonKinds } from "../src/fuzz/step-kinds.ts";

// The corpus shipped in data/: ../shared/data/agent-anomaly-reports.jsonl (45) + agent-anomaly-reports-more.jsonl (101).
const reports = readReports(DEFAULT_REPORTS);
const modes = loadModes().map((m) => m.mode);

describe("fuzz inventory (ABTest §3.1)", async () => {
  const inventory = await mineInventory(reports, modes);

  it("ships the combined corpus of 146 real reports", () => {
    expect(reports).toHaveLength(146);
    expect(new Set(reports.map((r) => r.id)).size).toBe(146);
  });

  it("places every report in a mode or lists it unplaced with the reason — none is dropped", () => {
    expect(inventory.placements.map((p) => p.reportId).sort()).toEqual(reports.map((r) => r.id).sort());
    for (const p of inventory.placements) {
      expect(p.reason.length).toBeGreaterThan(10);
      if (p.mode) expect(p.signals.some((s) => s.weight > 0)).toBe(true);
    }
    const placed = inventory.placements
      .filter((p) => p.mode)
      .map((p) => p.reportId)
      .sort();
    expect(inventory.actionTypes.flatMap((a) => a.sourceReports).sort()).toEqual(placed);
    expect(inventory.patterns.flatMap((p) => p.sourceReports).sort()).toEqual(
      reports.map((r) => r.id).sort(),
    );
  });

  it("merges independently of report order", async () => {
    const reversed = await mineInventory([...reports].reverse(), modes);
    expect(reversed).toEqual(inventory);
  });

  it("records the matched signals with the field and the words that matched", () => {
    const p = inventory.placements.find((x) => x.reportId === "gptme#768")!;
    expect(p.mode).toBe("process-kill");
    const s = p.signals.find((x) => x.signal === "kill-command")!;
    expect(s.excerpt).toMatch(/pkill/);
  });

  it("recognises a report by what the agent did, not by its title", () => {
    const plain: AnomalyReport = {
      id: "made-up#1",
      agent: "x",
      title: "Weird behaviour",
      observed_behaviour: "Ran git reset --hard in the main checkout and the uncommitted changes were lost",
      interaction_pattern: "fix -> reset -> lost",
      action_type: "Version Control",
      stressed_operation: "working tree safety",
      observable_signal: "git status shows the modified files vanish",
    };
    expect(placeByRecognisers(plain, modes)).toMatchObject({ mode: "uncommitted-work" });
    const nothing = placeByRecognisers(
      {
        ...plain,
        title: "Billing page",
        observed_behaviour: "Invoice shows the wrong VAT",
        stressed_operation: "billing",
        observable_signal: "UI",
      },
      modes,
    );
    expect(nothing.mode).toBeNull();
    expect(nothing.reason).toMatch(/no signal of any failure mode matched|no mode reached its threshold/);
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

describe("fuzz compose (ABTest §3.2)", async () => {
  const inventory = await mineInventory(reports, modes);

  it("keeps only pairs meeting all three criteria", async () => {
    const { screenings, templates } = await composeSeedTemplates(inventory, modes);
    expect(screenings).toHaveLength(inventory.patterns.length * inventory.actionTypes.length);
    expect(templates.length).toBe(
      screenings.filter((s) => s.insertion.ok && s.coherence.ok && s.observability.ok).length,
    );
    const withTemplates = new Set(templates.map((t) => t.action.mode));
    expect(withTemplates.size).toBeGreaterThanOrEqual(
      new Set(inventory.actionTypes.map((a) => a.mode)).size - 1,
    );
  });

  it("rejects an action whose failure mode is not in the library, with the reason", () => {
    const action = { ...inventory.actionTypes[0]!, mode: "no-such-mode" };
    const s = rulesScreener.screen(inventory.patterns[0]!, action, undefined) as {
      compatible: boolean;
      observability: { reason: string };
    };
    expect(s.compatible).toBe(false);
    expect(s.observability.reason).toMatch(/no failure mode "no-such-mode"/);
  });

  it("rejects a pattern without an insertion point for the operation", () => {
    const commitOnly = inventory.patterns.find((p) => p.description === "commit")!;
    const hang = inventory.actionTypes.find((a) => a.mode === "hang")!;
    const s = rulesScreener.screen(
      commitOnly,
      hang,
      modes.find((m) => m.id === "hang"),
    ) as {
      insertion: { ok: boolean; reason: string };
    };
    expect(s.insertion.ok).toBe(false);
    expect(s.insertion.reason).toMatch(/none of the phases/);
  });
});
