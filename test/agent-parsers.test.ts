import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_AGENTS } from "../src/agents/coding/agent-install.ts";
import type { ParsedStep } from "../src/agents/coding/cli-agent.ts";
import { unwrapShell } from "../src/agents/coding/codex.ts";
import { StepEventLog } from "../src/agents/coding/events.ts";
import { TraceBuilder } from "../src/agents/coding/trace-builder.ts";
import { readAgentFile } from "../src/core/agent-file.ts";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";

/**
 * The five stream parsers on native output recorded from the real CLIs (pinned versions) against the scripted
 * model server: step 1 wrote notes file and ran `cat …; exit 3` (codex, claude, gemini, qwen); OpenCode's
 * step 2 used `apply_patch`; Codex refused `rm -f` in a turn whose refusal only its rollout file records.
 */

const FIXTURES = path.resolve(__dirname, "fixtures/agent-streams");

function parse(
  agent: string,
  stream: string,
  workspace: string,
  home = mkdtempSync(path.join(tmpdir(), "parse-home-")),
  sessionId?: string,
): { parsed: ParsedStep; events: TrajectoryEvent[] } {
  const parser = CLI_AGENTS[agent]!.parser();
  for (const line of readFileSync(path.join(FIXTURES, stream), "utf8").split("\n"))
    if (line.trim()) parser.line(JSON.parse(line));
  const log = new StepEventLog("S01", []);
  const parsed = parser.finish(new TraceBuilder(log, workspace), {
    workspace,
    home,
    endpoint: { model: "m" },
    sessionId,
  });
  return { parsed, events: log.list() };
}

const summary = (events: TrajectoryEvent[]) =>
  events.map((e) =>
    e.type === "tool_call"
      ? `call ${e.name}`
      : e.type === "command"
        ? `command ${e.command} → ${e.exitCode}`
        : e.type === "tool_result"
          ? `result${e.isError ? " (error)" : ""}`
          : e.type === "file_change"
            ? `${e.kind} ${e.path}`
            : e.type === "message"
              ? `say ${e.text}`
              : e.type === "control"
                ? `control ${e.kind}`
                : e.type,
  );

describe("agent stream parsers (recorded native output)", () => {
  it("claude-code: exit code from the result text, the written file, session id and cumulative cost", () => {
    const { parsed, events } = parse("claude-code", "claude-code-step1.jsonl", "/tmp/probe/ws");
    expect(summary(events)).toEqual([
      "call Write",
      "result",
      "added notes.txt",
      "call Bash",
      "command cat notes.txt; exit 3 → 3",
      "result (error)",
      "say Done: created notes.txt and ran the check (it exited 3).",
    ]);
    expect(parsed).toMatchObject({
      sessionId: "87282725-de02-419a-a047-0ab806204482",
      completed: true,
      finalMessage: "Done: created notes.txt and ran the check (it exited 3).",
      usage: { cumulative: false, costCumulative: true },
    });
    expect(parsed.usage.costUsd).toBeGreaterThan(0);
  });

  it("codex: exit codes and file changes from the stream, the thread id, cumulative usage", () => {
    const { parsed, events } = parse("codex", "codex-step1.jsonl", "/tmp/probe/ws2");
    expect(summary(events)).toEqual([
      "call apply_patch",
      "result",
      "added notes.txt",
      "call command_execution",
      "command cat notes.txt; exit 3 → 3",
      "result (error)",
      "say Done: created notes.txt and ran the check (it exited 3).",
    ]);
    expect(parsed.sessionId).toBe("01a22c1e-e58b-7730-9d03-a53d9c953fd2");
    expect(parsed.usage).toMatchObject({ inputTokens: 28845, outputTokens: 37, cumulative: true });
  });

  it("codex: a call its own guard refused, missing from the stream, is read from the rollout file", () => {
    const home = mkdtempSync(path.join(tmpdir(), "parse-home-"));
    const dir = path.join(home, ".codex/sessions/2026/11/30");
    mkdirSync(dir, { recursive: true });
    copyFileSync(
      path.join(FIXTURES, "codex-rollout-rejected.jsonl"),
      path.join(dir, "rollout-2026-11-30T11-21-47-01a22c30-8669-79e1-8b5f-d2894d9c280d.jsonl"),
    );
    const { events } = parse("codex", "codex-step-rejected.jsonl", "/tmp/probe/ws7", home);
    expect(summary(events)).toEqual([
      "call command_execution",
      "command ls → 0",
      "result",
      "say Done. all tests pass.",
      "call exec_command",
      "result (error)",
      "control rejection",
    ]);
    const call = events.find((e) => e.type === "tool_call" && e.name === "exec_command");
    expect(call).toMatchObject({ input: { cmd: "rm -f CHANGELOG.md" } });
  });

  it("gemini-cli: the exit code the stream lacks comes from the session file", () => {
    const home = mkdtempSync(path.join(tmpdir(), "parse-home-"));
    const chats = path.join(home, ".gemini/tmp/ws3/chats");
    mkdirSync(chats, { recursive: true });
    copyFileSync(path.join(FIXTURES, "gemini-cli-session.jsonl"), path.join(chats, "session-x.jsonl"));
    const { parsed, events } = parse("gemini-cli", "gemini-cli-step1.jsonl", "/tmp/probe/ws3", home);
    expect(summary(events)).toEqual([
      "call write_file",
      "result",
      "added notes.txt",
      "call run_shell_command",
      "command cat notes.txt; exit 3 → 3",
      "result",
      "say Done: created notes.txt and ran the check (it exited 3).",
    ]);
    expect(parsed.sessionId).toBe("b7ffef61-97c4-4184-a93d-983b63656b1d");
    // Without the session file the exit code is unknown, never guessed.
    const bare = parse("gemini-cli", "gemini-cli-step1.jsonl", "/tmp/probe/ws3");
    expect(bare.events.find((e) => e.type === "command")).toMatchObject({ exitCode: null });
  });

  it("opencode: apply_patch's file list becomes file changes; tokens are summed over model calls", () => {
    const { parsed, events } = parse("opencode", "opencode-step2-apply-patch.jsonl", "/tmp/probe/ws6");
    expect(summary(events).filter((s) => !s.startsWith("say"))).toEqual([
      "call read",
      "result",
      "call apply_patch",
      "result",
      "modified notes.txt",
    ]);
    expect(parsed.sessionId).toMatch(/^ses_/);
    expect(parsed.completed).toBe(true);
    expect(parsed.usage.inputTokens).toBeGreaterThan(0);
  });

  it("qwen-code: Claude-shaped stream, exit code from 'Exit Code: N', cumulative tokens", () => {
    const { parsed, events } = parse("qwen-code", "qwen-code-step1.jsonl", "/tmp/probe/ws5");
    expect(summary(events)).toContain("command cat notes.txt; exit 3 → 3");
    expect(summary(events)).toContain("added notes.txt");
    expect(parsed).toMatchObject({ completed: true, usage: { cumulative: true } });
  });

  it("codex shell commands are shown as the agent wrote them", () => {
    expect(unwrapShell("/bin/bash -lc ls")).toBe("ls");
    expect(unwrapShell("/bin/bash -lc 'cat a; exit 3'")).toBe("cat a; exit 3");
    expect(unwrapShell(`/bin/bash -lc "cat 'notes.txt'"`)).toBe("cat 'notes.txt'");
    expect(unwrapShell("python3 x.py")).toBe("python3 x.py");
  });
});

describe("session files an agent could have planted", () => {
  it("a FIFO, a symlink or a directory where a session log should be is skipped, never waited on", () => {
    const home = mkdtempSync(path.join(tmpdir(), "parse-home-"));
    const chats = path.join(home, ".gemini/tmp/evil/chats");
    mkdirSync(chats, { recursive: true });
    execFileSync("mkfifo", [path.join(chats, "a.jsonl")]);
    symlinkSync("/etc/passwd", path.join(chats, "b.jsonl"));
    mkdirSync(path.join(chats, "c.jsonl"));
    const started = Date.now();
    const { events } = parse("gemini-cli", "gemini-cli-step1.jsonl", "/tmp/probe/ws3", home);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(events.find((e) => e.type === "command")).toMatchObject({ exitCode: null });
    expect(readAgentFile(path.join(chats, "a.jsonl"))).toBeUndefined();
    expect(readAgentFile(path.join(chats, "b.jsonl"))).toBeUndefined();
  });
});
