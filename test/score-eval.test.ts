import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  agreementStats,
  citedRefs,
  countEvents,
  evaluateFile,
  readTrajectoryLabels,
  summarise,
  TrajectoryLabel,
} from "../src/score/eval.ts";
import type { ImportedTrajectory } from "../src/score/import/imported.ts";
import { gauntlet } from "./helpers/cli.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

/** `gauntlet score eval`: detectors against hand labels (issue 14 §2). */

const ROOT = path.join(import.meta.dirname, "..");

function imported(t: MadeUp, lines: boolean): ImportedTrajectory {
  return {
    id: "t",
    format: "claude-code-jsonl",
    file: "/logs/t.jsonl",
    agent: "claude-code",
    models: [],
    events: t.events.map((e, i) => ({
      ...e,
      raw: lines ? { file: "t.jsonl", line: i + 1 } : { file: "t.json", index: i },
    })),
    skipped: [],
    lines: t.events.length,
  };
}

describe("score eval", () => {
  it("reads the cited events of a label: lines, indexes and ranges", () => {
    expect([...citedRefs("L36 `git add` right after L34; (L37 Exit 1)")]).toEqual(["L36", "L34", "L37"]);
    expect([...citedRefs("write_todos M4-M8; E20->E22 and S5–S7")]).toEqual(
      ["#4", "#5", "#6", "#7", "#8", "#20", "#21", "#22", "#5", "#6", "#7"].filter(
        (x, i, a) => a.indexOf(x) === i,
      ),
    );
    expect(citedRefs("no references, M, L0x").size).toBe(0);
  });

  it("computes precision, recall and Cohen's κ; undefined where there is nothing to divide", () => {
    expect(agreementStats({ tp: 8, fp: 2, fn: 2, tn: 88 })).toEqual({
      precision: 0.8,
      recall: 0.8,
      kappa: expect.closeTo(0.778, 3),
    });
    // Always "absent" against labels with positives: κ = 0 (the baseline the issue reports).
    expect(agreementStats({ tp: 0, fp: 0, fn: 3, tn: 30 })).toEqual({ precision: null, recall: 0, kappa: 0 });
    expect(agreementStats({ tp: 0, fp: 0, fn: 0, tn: 5 }).kappa).toBeNull();
  });

  it("judges a file: a found labelled defect, whether it cites the labelled events, and the counts", () => {
    const t = new MadeUp().user("fix it");
    for (let i = 0; i < 4; i++) t.bash("npm test", "1 failing", 1);
    t.say("done");
    const label = TrajectoryLabel.parse({
      file: "x/t.jsonl",
      defects: {
        "Duplicate Step": { label: "present", evidence: "npm test repeated L2-L13 with nothing changed" },
        "Weak Tool": { label: "n/a" },
        "Ghost Context": { label: "absent" },
      },
      counts: {
        tool_calls: 4,
        tool_results: 4,
        shell_commands: { count: 4 },
        file_writes: 0,
        user_interrupts: 1,
      },
    });
    const e = evaluateFile(label, [imported(t, true)]);
    const dup = e.judgements.find((j) => j.defect === "duplicate-step")!;
    expect(dup.anyInstance).toBe(true);
    expect(dup.citesLabelled).toBe(true);
    expect(e.judgements.map((j) => j.defect)).not.toContain("weak-tool"); // n/a is left out
    expect(e.counts).toEqual([
      { key: "tool_calls", labelled: 4, imported: 4 },
      { key: "tool_results", labelled: 4, imported: 4 },
      { key: "shell_commands", labelled: 4, imported: 4 },
      { key: "file_writes", labelled: 0, imported: 0 },
      { key: "user_interrupts", labelled: 1, imported: 0 },
    ]);
    // The same trajectory read from a JSON document, with the label citing other records: not cited.
    const other = TrajectoryLabel.parse({
      file: "x/t.json",
      defects: { "Duplicate Step": { label: "present", evidence: "M40-M44" } },
    });
    expect(evaluateFile(other, [imported(t, false)]).judgements[0]!.citesLabelled).toBe(false);
    const s = summarise([e]);
    expect(s.perDefect.find((r) => r.defect === "duplicate-step")!.any).toEqual({
      tp: 1,
      fp: 0,
      fn: 0,
      tn: 0,
    });
    expect(s.counts.find((c) => c.key === "user_interrupts")).toEqual({
      key: "user_interrupts",
      exact: 0,
      files: 1,
    });
  });

  it("counts file writes and shell-tool calls as LABELS.md does", () => {
    const t = new MadeUp().tool("Write", { file_path: "a" }, "ok", { change: { path: "a" } });
    t.tool("Bash", { command: "rm a" }, "", { change: { path: "a", kind: "deleted" } });
    const c = countEvents(t.events);
    expect(c.file_writes).toBe(1);
    expect(c.tool_calls).toBe(2);
  });

  it("runs on the shipped labels, prints every split, and names a missing file", () => {
    const r = gauntlet(ROOT, ["score", "eval", "--labels", "data/trajectories/labels.jsonl"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^all \(34 files\)/m);
    expect(r.stdout).toMatch(/^held out \(\d+ files\)/m);
    expect(r.stdout).toMatch(/^overall +\d+ +\d+\/\d+\/\d+\/\d+/m);
    expect(r.stdout).toMatch(/counts exact: tool_calls \d+\/34/);
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-eval-"));
    writeFileSync(
      path.join(dir, "labels.jsonl"),
      `${JSON.stringify({ file: "nowhere.jsonl", defects: { "Dead Step": { label: "absent" } } })}\n`,
    );
    const none = gauntlet(dir, ["score", "eval", "--labels", "labels.jsonl"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/none of its 1 labelled files could be evaluated .*nowhere\.jsonl/);
    // One file found, one missing: evaluated, the missing one named with where it was looked for, exit 1.
    copyFileSync(
      path.join(ROOT, "data", "trajectories", "codex-exec-json", "agentcmd__stream-output-2.jsonl"),
      path.join(dir, "x.jsonl"),
    );
    writeFileSync(
      path.join(dir, "labels.jsonl"),
      `${JSON.stringify({ file: "x.jsonl", defects: { "Dead Step": { label: "absent" } } })}\n${JSON.stringify({ file: "nowhere.jsonl", defects: { "Dead Step": { label: "absent" } } })}\n`,
    );
    const bad = gauntlet(dir, ["score", "eval", "--labels", "labels.jsonl"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/not found: nowhere\.jsonl \(looked for .*nowhere\.jsonl\)/);
  });

  it("refuses a label for a defect it does not know, naming the line; takes ids as well as names", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-labels-"));
    const file = path.join(dir, "labels.jsonl");
    const line = (defects: Record<string, unknown>) => JSON.stringify({ file: "a.jsonl", defects });
    writeFileSync(
      file,
      `${line({ "Dead Step": { label: "absent" } })}\n${line({ "Dead Stepp": { label: "absent" } })}\n`,
    );
    expect(() => readTrajectoryLabels(file)).toThrow(
      /labels\.jsonl:2: field "defects\.Dead Stepp": unknown defect "Dead Stepp"/,
    );
    writeFileSync(file, `${line({ "dead-step": { label: "present" } })}\n`);
    expect(readTrajectoryLabels(file)[0]?.defects["dead-step"]?.label).toBe("present");
  });
});
