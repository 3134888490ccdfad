import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";
import { detectFormat, importTrajectory } from "../src/score/import/index.ts";
import { readJsonLines } from "../src/score/import/read-lines.ts";

/**
 * Score suite, import (issue 4 §1): real agent logs copied from ../shared/data/trajectories into data/trajectories. Expected counts
 * were taken from the files by hand (a separate Python count of tool_use / tool_result blocks and Bash calls).
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
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

describe("Codex importers on real logs", () => {
  it.each([
    [
      "codex-rollout/agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
      34,
      34,
      34,
    ],
    [
      "codex-rollout/localpush__rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl",
      118,
      118,
      116,
    ],
    // Ends on a call with no output: the call is kept, nothing is invented for it.
    [
      "codex-rollout/localpush__rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
      1,
      0,
      0,
    ],
    ["codex-rollout/claude-code-transcripts__sample_codex_session.jsonl", 0, 0, 0],
  ])("%s: %i calls, %i results, %i shell commands", async (file, calls, results, commands) => {
    const t = await importTrajectory(path.join(DATA, file));
    expect(t.format).toBe("codex-rollout");
    expect(count(t.events, "tool_call")).toBe(calls);
    expect(count(t.events, "tool_result")).toBe(results);
    expect(count(t.events, "command")).toBe(commands);
    expect(t.skipped).toEqual([]);
  });

  it("reads exit codes from the older `{output, metadata}` outputs and shell argv as a command line", async () => {
    const t = await importTrajectory(
      path.join(
        DATA,
        "codex-rollout/agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
      ),
    );
    const first = t.events.find((e) => e.type === "command")!;
    expect(first).toMatchObject({ exitCode: 0 });
    expect(first.type === "command" && first.command.startsWith("bash")).toBe(false);
    expect(count(t.events, "usage")).toBeGreaterThan(0);
  });

  it.each([
    ["agentcmd__stream-output-2.jsonl", 1, 0],
    ["agentcmd__stream-output-3.jsonl", 0, 1],
    ["agentcmd__stream-output-5.jsonl", 1, 0],
    ["agentcmd__stream-output-multi-1.jsonl", 0, 0],
  ])("codex exec --json %s: %i commands, %i file-change items", async (file, commands, patches) => {
    const t = await importTrajectory(path.join(DATA, "codex-exec-json", file));
    expect(t.format).toBe("codex-exec-json");
    expect(count(t.events, "command")).toBe(commands);
    expect(t.events.filter((e) => e.type === "tool_call" && e.name === "apply_patch")).toHaveLength(patches);
    expect(t.skipped).toEqual([]);
  });
});

describe("Gemini CLI importers on real logs", () => {
  it.each([
    ["m-gemini__session-2025-12-03T08-28-fc2fd534.json", 14, 14, 6],
    ["m-gemini__session-2025-12-26T04-02-b68abb2e.json", 9, 9, 9],
    ["m-gemini__session-2026-01-02T01-44-320099a3.json", 24, 24, 13],
  ])("%s: %i calls, %i results, %i shell commands", async (file, calls, results, commands) => {
    const t = await importTrajectory(path.join(DATA, "gemini-cli-json", file));
    expect(t.format).toBe("gemini-cli-json");
    expect(count(t.events, "tool_call")).toBe(calls);
    expect(count(t.events, "tool_result")).toBe(results);
    expect(count(t.events, "command")).toBe(commands);
    expect(t.skipped).toEqual([]);
  });

  it("reads a JSONL session with a rewind as a control event", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "score-"));
    const file = path.join(dir, "session.jsonl");
    writeFileSync(
      file,
      [
        '{"sessionId":"S","projectHash":"p","startTime":"2026-01-01T00:00:00Z","kind":"main"}',
        '{"id":"m1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":[{"text":"fix it"}]}',
        '{"id":"m2","type":"gemini","model":"gemini-x","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"npm test"},"result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"Output: 1 failing\\nExit Code: 1"}}}],"status":"success"}]}',
        '{"$set":{"lastUpdated":"x"}}',
        '{"$rewindTo":"m2"}',
      ].join("\n"),
    );
    const t = await importTrajectory(file);
    expect(t.format).toBe("gemini-cli-jsonl");
    expect(t.id).toBe("S");
    expect(t.events.map((e) => e.type)).toEqual([
      "message",
      "tool_call",
      "command",
      "tool_result",
      "control",
    ]);
    expect(t.events.find((e) => e.type === "command")).toMatchObject({ command: "npm test", exitCode: 1 });
    expect(t.events.at(-1)).toMatchObject({ kind: "rewind" });
  });
});

describe("readJsonLines", () => {
  it("reports an over-long line with its number and reads on; CRLF, a BOM and a cut multi-byte character are handled", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-lines-"));
    const file = path.join(dir, "x.jsonl");
    writeFileSync(file, `\uFEFF{"a":1}\r\n{"b":"${"é".repeat(300)}"}\n\n{"c":3}\nnot json\n{"d":4}`);
    const out = [];
    for await (const l of readJsonLines(file, 200)) out.push(l);
    expect(out).toEqual([
      { line: 1, record: { a: 1 } },
      { line: 2, error: "longer than 200 bytes: not read" },
      { line: 4, record: { c: 3 } },
      { line: 5, error: expect.stringMatching(/^not JSON/) },
      { line: 6, record: { d: 4 } },
    ]);
  });
});
