import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";
import { detectFormat, importTrajectory } from "../src/score/import/index.ts";

/**
 * Score suite, import (issue 4 §1): real Claude Code logs from ../shared/data/trajectories. Expected counts
 * were taken from the files by hand (a separate Python count of tool_use / tool_result blocks and Bash calls).
 */

const DATA = path.resolve(__dirname, "../../shared/data/trajectories");
const count = (events: TrajectoryEvent[], type: TrajectoryEvent["type"]) =>
  events.filter((e) => e.type === type).length;

describe("Claude Code importers on real logs", () => {
  it.each([
    ["claude-code-jsonl/agentcmd__full-session-two.jsonl", 10, 10, 0],
    ["claude-code-jsonl/drmaciver__coverage-test-fix.transcript.jsonl", 13, 13, 5],
    ["claude-code-jsonl/drmaciver__python-to-rust-port.transcript.jsonl", 39, 39, 16],
    ["claude-code-jsonl/harbor__d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl", 1, 1, 0],
  ])(
    "%s: %i tool calls, %i results (all paired), %i shell commands",
    async (file, calls, results, commands) => {
      const t = await importTrajectory(path.join(DATA, file));
      expect(t.format).toBe("claude-code-jsonl");
      expect(count(t.events, "tool_call")).toBe(calls);
      expect(count(t.events, "tool_result")).toBe(results);
      expect(count(t.events, "command")).toBe(commands);
      // Every result is paired with its call, by id.
      const callIds = new Map(t.events.filter((e) => e.type === "tool_call").map((e) => [e.callId, e.id]));
      for (const r of t.events.filter((e) => e.type === "tool_result"))
        expect(r.parent).toEqual([callIds.get(r.callId)]);
      expect(t.skipped).toEqual([]);
      expect(t.events.every((e) => e.raw?.line && e.raw.file.endsWith(file))).toBe(true);
    },
  );

  it("reads the session id, the model, usage once per API message, and parent links", async () => {
    const t = await importTrajectory(
      path.join(DATA, "claude-code-jsonl/harbor__d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl"),
    );
    expect(t.id).toBe("d7d4e19e-608d-44ef-b166-cd050ef274ba");
    expect(t.models.length).toBeGreaterThan(0);
    expect(count(t.events, "usage")).toBeGreaterThan(0);
    expect(t.events.filter((e) => e.type === "message" && e.role === "user").length).toBeGreaterThan(0);
  });

  it("turns a compaction boundary into a context event with the tokens before it", async () => {
    const t = await importTrajectory(
      path.join(DATA, "claude-code-jsonl/synthetic-fixtures/claude-code-log__dag_compact_after_rewind.jsonl"),
    );
    const compactions = t.events.filter((e) => e.type === "context" && e.compaction);
    expect(compactions).toHaveLength(1);
  });

  it("reads stream-json (Agent SDK messages), detected from its init line", async () => {
    const file = path.join(DATA, "claude-code-stream-json/claude-agent-sdk-gleam__basic_query.ndjson");
    expect(detectFormat(file)).toBe("claude-code-stream-json");
    const t = await importTrajectory(file);
    expect(t.events.filter((e) => e.type === "message" && e.role === "assistant")).toHaveLength(1);
    expect(t.skipped).toEqual([]);
  });
});

describe("bad input", () => {
  it("counts a malformed line with its line number and an unknown line type, never dropping them silently", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "score-"));
    const file = path.join(dir, "s.jsonl");
    writeFileSync(
      file,
      [
        '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S","message":{"role":"user","content":"hi"}}',
        "{not json",
        '{"type":"brand-new-thing","uuid":"x"}',
        '{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"S","message":{"role":"user","content":"[Request interrupted by user]"}}',
      ].join("\n"),
    );
    const t = await importTrajectory(file);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3]);
    expect(t.skipped[1]!.reason).toContain("brand-new-thing");
    expect(t.events.map((e) => e.type)).toEqual(["message", "control"]);
    expect(t.events[1]!.parent).toEqual(["e1"]);
  });

  it("names the file when no importer recognises it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "score-"));
    const file = path.join(dir, "x.txt");
    writeFileSync(file, "hello\n");
    expect(() => detectFormat(file)).toThrow(InputError);
  });
});
