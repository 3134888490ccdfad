import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildView } from "../src/score/detect/view.ts";
import { detectFormat, importTrajectory } from "../src/score/import/index.ts";
import { gauntlet } from "./helpers/cli.ts";

/**
 * Issue 14 §1: a folder with a log whose first record is over 64 KiB, a truncated log, an unknown file and a
 * log that reuses tool-call ids — every file accounted for, results paired right, the exit code saying
 * something was skipped.
 */

const DATA = path.join(import.meta.dirname, "..", "data", "trajectories");

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-robust-"));
  // A Codex rollout whose session_meta carries 200 KiB of instructions.
  const codex = readFileSync(
    path.join(
      DATA,
      "codex-rollout",
      "agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
    ),
    "utf8",
  ).split("\n");
  const meta = JSON.parse(codex[0]!);
  meta.payload.instructions = "Follow the house rules. ".repeat(9000);
  writeFileSync(
    path.join(dir, "long-first-record.jsonl"),
    [JSON.stringify(meta), ...codex.slice(1)].join("\n"),
  );
  // A Claude Code log cut in the middle of its last record.
  const claude = readFileSync(
    path.join(DATA, "claude-code-jsonl", "drmaciver__coverage-test-fix.transcript.jsonl"),
    "utf8",
  );
  writeFileSync(path.join(dir, "truncated.jsonl"), claude.slice(0, Math.floor(claude.length * 0.8)));
  // Not an agent log.
  writeFileSync(path.join(dir, "notes.jsonl"), '{"hello": "world"}\n');
  // Two Bash calls that share one tool_use id, each with its own result.
  const base = { sessionId: "s1", cwd: "/w", version: "2.0.0" };
  const use = (id: string, command: string, uuid: string) => ({
    ...base,
    type: "assistant",
    uuid,
    message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] },
  });
  const result = (id: string, out: string, uuid: string) => ({
    ...base,
    type: "user",
    uuid,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: out }] },
  });
  writeFileSync(
    path.join(dir, "reused-ids.jsonl"),
    `${[
      { ...base, type: "user", uuid: "u0", message: { role: "user", content: "list and count" } },
      use("toolu_1", "ls", "a1"),
      result("toolu_1", "a.txt b.txt", "r1"),
      use("toolu_1", "wc -l a.txt", "a2"),
      result("toolu_1", "3 a.txt", "r2"),
    ]
      .map((r) => JSON.stringify(r))
      .join("\n")}\n`,
  );
  return dir;
}

describe("score imports that lose nothing", () => {
  it("recognises a log whose first record is over 64 KiB", () => {
    const dir = folder();
    expect(detectFormat(path.join(dir, "long-first-record.jsonl"))).toBe("codex-rollout");
  });

  it("reads a minified (one-line) Gemini CLI session document as the JSON form, streamed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-gemini-"));
    const file = path.join(dir, "session.json");
    const messages = [
      { id: "m0", type: "user", content: "read a.ts" },
      ...Array.from({ length: 50 }, (_, i) => ({
        id: `m${i + 1}`,
        type: "gemini",
        content: "reading",
        toolCalls: [
          {
            id: `c${i}`,
            name: "read_file",
            args: { absolute_path: `/r/f${i}.ts` },
            result: [
              {
                functionResponse: { id: `c${i}`, name: "read_file", response: { output: "x".repeat(3000) } },
              },
            ],
            status: "success",
          },
        ],
      })),
    ];
    writeFileSync(file, JSON.stringify({ sessionId: "s1", projectHash: "a".repeat(64), messages }));
    expect(detectFormat(file)).toBe("gemini-cli-json");
    const t = await importTrajectory(file);
    expect(t.events.filter((e) => e.type === "tool_call")).toHaveLength(50);
    expect(t.events.find((e) => e.type === "tool_call")?.raw).toEqual({ file, index: 1 });
  });

  it("pairs each result with its own call when a log reuses call ids", async () => {
    const t = await importTrajectory(path.join(folder(), "reused-ids.jsonl"));
    const calls = buildView(t.events).calls;
    expect(calls.map((c) => [c.commandText, c.result?.output])).toEqual([
      ["ls", "a.txt b.txt"],
      ["wc -l a.txt", "3 a.txt"],
    ]);
  });

  it("accounts for every file of a folder and exits 3 when one was skipped", () => {
    const dir = folder();
    const r = gauntlet(dir, ["score", ".", "--out", path.join(dir, "report")]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("not agent logs and were left out");
    expect(r.stdout).toContain("notes.jsonl");
    for (const f of ["long-first-record.jsonl", "truncated.jsonl", "reused-ids.jsonl"])
      expect(readFileSync(path.join(dir, "report", "scorecards.jsonl"), "utf8")).toContain(f);
  });

  it("keeps Codex developer messages, web searches and exec reasoning; reports an unknown item instead of dropping it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-codex-"));
    const rollout = path.join(dir, "rollout.jsonl");
    const item = (payload: unknown) =>
      JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", type: "response_item", payload });
    writeFileSync(
      rollout,
      `${[
        JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", type: "session_meta", payload: { id: "r1" } }),
        item({
          type: "message",
          role: "developer",
          content: [{ type: "input_text", text: "Never push to main." }],
        }),
        item({
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>cwd=/w</environment_context>" }],
        }),
        item({ type: "message", role: "user", content: [{ type: "input_text", text: "look it up" }] }),
        item({
          type: "web_search_call",
          id: "ws1",
          status: "completed",
          action: { type: "search", query: "zod 4" },
        }),
      ].join("\n")}\n`,
    );
    const r = await importTrajectory(rollout);
    expect(r.events.filter((e) => e.type === "message").map((e) => e.type === "message" && e.role)).toEqual([
      "system",
      "system",
      "user",
    ]);
    expect(r.events.find((e) => e.type === "tool_call")).toMatchObject({
      name: "web_search",
      input: { query: "zod 4" },
    });
    const exec = path.join(dir, "exec.jsonl");
    writeFileSync(
      exec,
      `${[
        { type: "thread.started", thread_id: "t1" },
        { type: "item.completed", item: { id: "i1", type: "reasoning", text: "Check the docs first." } },
        { type: "item.completed", item: { id: "i2", type: "web_search", query: "vitest 4" } },
        { type: "item.completed", item: { id: "i3", type: "hologram", text: "?" } },
      ]
        .map((x) => JSON.stringify(x))
        .join("\n")}\n`,
    );
    const e = await importTrajectory(exec);
    expect(e.events.some((x) => x.type === "message" && x.reasoning)).toBe(true);
    expect(
      e.events.filter((x) => x.type === "tool_call").map((x) => x.type === "tool_call" && x.name),
    ).toEqual(["web_search"]);
    expect(e.skipped).toEqual([{ line: 4, reason: 'unknown item type "hologram"' }]);
  });

  it("maps Claude Code stop hooks and API errors to control events, and counts every record it does not map, by reason", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-claude-"));
    const file = path.join(dir, "session.jsonl");
    const base = { sessionId: "s1", cwd: "/w", timestamp: "2026-01-01T00:00:00Z" };
    const lines = [
      { ...base, type: "user", uuid: "u1", message: { role: "user", content: "fix the test" } },
      {
        ...base,
        type: "user",
        uuid: "u2",
        isMeta: true,
        message: { role: "user", content: "<caveat>x</caveat>" },
      },
      { ...base, type: "file-history-snapshot", messageId: "u1", snapshot: {} },
      { ...base, type: "file-history-snapshot", messageId: "u1", snapshot: {} },
      { ...base, type: "system", subtype: "turn_duration", durationMs: 5 },
      { ...base, type: "system", subtype: "api_error", uuid: "x1", error: { message: "overloaded" } },
      {
        ...base,
        type: "system",
        subtype: "stop_hook_summary",
        uuid: "h1",
        hookCount: 1,
        hookInfos: [{ command: "./check.sh" }],
        hookErrors: [],
        preventedContinuation: true,
        stopReason: "tests fail",
      },
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const t = await importTrajectory(file);
    expect(
      t.events.filter((e) => e.type === "control").map((e) => e.type === "control" && [e.kind, e.detail]),
    ).toEqual([
      ["error", "overloaded"],
      ["hook", "1 stop hook(s) ran: ./check.sh; stopped the run: tests fail"],
    ]);
    expect(t.skipped).toEqual([]);
    expect(t.unmapped?.map((u) => [u.count, u.line])).toEqual([
      [2, 3],
      [1, 2],
      [1, 5],
    ]);
    expect(t.unmapped?.[2]?.reason).toMatch(/turn_duration/);
    // Every line is accounted for: an event, or a counted record not mapped.
    const accounted = new Set([
      ...t.events.map((e) => e.raw?.line),
      ...t.unmapped!.flatMap((u) => Array.from({ length: u.count }, (_, i) => u.line + i)),
    ]);
    expect(accounted.size).toBe(lines.length);
  });

  it("reads OpenHands V1 events one per line (the SDK's event log), with line provenance", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-oh-"));
    const file = path.join(dir, "events.jsonl");
    const lines = [
      {
        id: "s",
        source: "environment",
        kind: "ConversationStateUpdateEvent",
        key: "execution_status",
        value: "running",
      },
      {
        id: "a1",
        source: "agent",
        kind: "ActionEvent",
        tool_name: "terminal",
        tool_call_id: "t1",
        thought: [{ type: "text", text: "list the files" }],
        action: { kind: "TerminalAction", command: "ls" },
        tool_call: { id: "t1", name: "terminal", arguments: '{"command": "ls"}' },
      },
      {
        id: "o1",
        source: "environment",
        kind: "ObservationEvent",
        tool_name: "terminal",
        tool_call_id: "t1",
        action_id: "a1",
        observation: { kind: "TerminalObservation", content: [{ type: "text", text: "a.ts" }], exit_code: 0 },
      },
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    expect(detectFormat(file)).toBe("openhands-events");
    const t = await importTrajectory(file);
    expect(
      t.events
        .filter((e) => e.type === "tool_call" || e.type === "tool_result")
        .map((e) => [e.type, e.raw?.line]),
    ).toEqual([
      ["tool_call", 2],
      ["tool_result", 3],
    ]);
  });

  it("reads a mini-swe-agent trajectory saved as the bare messages array", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-mini-"));
    const file = path.join(dir, "run.traj.json");
    const messages = [
      { role: "system", content: "Your response must contain exactly ONE bash code block with ONE command." },
      { role: "user", content: "Fix the bug." },
      { role: "assistant", content: "THOUGHT: look first.\n\n```bash\nls\n```" },
      { role: "user", content: "<returncode>0</returncode>\n<output>\na.py\n</output>" },
    ];
    writeFileSync(file, JSON.stringify(messages, null, 2));
    expect(detectFormat(file)).toBe("mini-swe-agent");
    const t = await importTrajectory(file);
    expect(
      t.events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.input),
    ).toEqual([{ command: "ls" }]);
    // The submission has no observation of its own: the exit message answers it.
    const submitted = path.join(dir, "submitted.traj.json");
    writeFileSync(
      submitted,
      JSON.stringify([
        ...messages,
        {
          role: "assistant",
          content: "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```",
        },
        { role: "exit", content: "diff --git a/a.py b/a.py", extra: { exit_status: "Submitted" } },
      ]),
    );
    const s = await importTrajectory(submitted);
    expect(
      s.events.filter((e) => e.type === "tool_result").map((e) => e.type === "tool_result" && e.output),
    ).toEqual([expect.stringContaining("a.py"), "diff --git a/a.py b/a.py"]);
  });

  it("turns Codex's apply_patch (the freeform tool, or through the shell) into file changes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-patch-"));
    const file = path.join(dir, "rollout.jsonl");
    const item = (payload: unknown) =>
      JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", type: "response_item", payload });
    const patch =
      "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+new\n*** Update File: src/c.ts\n*** Move to: src/d.ts\n*** End Patch\n";
    writeFileSync(
      file,
      `${[
        JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", type: "session_meta", payload: { id: "r2" } }),
        item({
          type: "custom_tool_call",
          status: "completed",
          call_id: "p1",
          name: "apply_patch",
          input: patch,
        }),
        item({
          type: "custom_tool_call_output",
          call_id: "p1",
          output: "Success. Updated the following files:\nM src/a.ts",
        }),
        item({
          type: "function_call",
          call_id: "p2",
          name: "shell",
          arguments: JSON.stringify({
            command: ["apply_patch", "*** Begin Patch\n*** Delete File: src/e.ts\n*** End Patch"],
          }),
        }),
        item({
          type: "function_call_output",
          call_id: "p2",
          output: JSON.stringify({ output: "Done!", metadata: { exit_code: 0 } }),
        }),
      ].join("\n")}\n`,
    );
    const t = await importTrajectory(file);
    expect(
      t.events
        .filter((e) => e.type === "file_change")
        .map((e) => e.type === "file_change" && [e.path, e.kind]),
    ).toEqual([
      ["src/a.ts", "modified"],
      ["src/b.ts", "added"],
      ["src/c.ts", "deleted"],
      ["src/d.ts", "added"],
      ["src/e.ts", "deleted"],
    ]);
  });

  it("shows control bytes of an unreadable line escaped, never raw", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-ctl-"));
    const file = path.join(dir, "rollout.jsonl");
    writeFileSync(file, '{"type":"session_meta","payload":{"id":"x"}}\n\u0000\u0001garbage{{\n');
    const t = await importTrajectory(file);
    expect(t.skipped[0]?.reason).toContain("\\u0000\\u0001garbage");
    expect([...(t.skipped[0]?.reason ?? "")].some((c) => c.charCodeAt(0) < 9)).toBe(false);
  });
});
