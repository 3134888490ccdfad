import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentWorkspace } from "../src/agents/coding/adapter.ts";
import { type CommandAgentConfigInput, commandAdapter } from "../src/agents/coding/command.ts";
import { formatCommandLine } from "../src/agents/coding/events.ts";
import { InputError } from "../src/core/errors.ts";

const AGENT = fileURLToPath(new URL("./fixtures/echo-agent.mjs", import.meta.url));
const NODE = process.execPath;

/** The fixture agent, given its session id on the first step and resumed with it afterwards. */
const generatedSession: CommandAgentConfigInput = {
  name: "echo-agent",
  argv: [NODE, AGENT, "--session", "{sessionId}", "--step", "{stepId}", "{prompt}"],
  resumeArgv: [NODE, AGENT, "--resume", "{sessionId}", "--step", "{stepId}", "{prompt}"],
  sessionIdFrom: "generated",
  finalMessage: "last-line",
};

/** The fixture agent in one of its modes (fail, hang, leak), one invocation per step. */
function agentInMode(mode: string): CommandAgentConfigInput {
  return {
    name: "echo-agent",
    argv: [NODE, AGENT, "--mode", mode, "--session", "{sessionId}", "--step", "{stepId}", "{prompt}"],
  };
}

let workspace: AgentWorkspace;

beforeEach(() => {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-command-"));
  workspace = { dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir } };
});

afterEach(() => {
  rmSync(workspace.dir, { recursive: true, force: true });
});

/** The runs the fixture agent recorded in the workspace. */
function agentRuns(): { step: string; prompt: string; session: string; resumed: boolean }[] {
  return readFileSync(path.join(workspace.dir, "agent-runs.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** True when `pid` is a live, non-zombie process. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line contains `marker`. */
function aliveWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker) && isAlive(Number(name));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("command adapter", () => {
  it("runs two steps in one session, resuming it with the resume template on step 2", async () => {
    const adapter = commandAdapter(generatedSession);
    expect(adapter.name).toBe("command:echo-agent");
    const session = await adapter.startSession(workspace);
    const sessionId = session.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const first = await session.runStep({ stepId: "S01", prompt: "write the notes", timeoutMs: 20_000 });
    const tricky = `it's "quoted", $HOME, \`date\` and {stepId}`;
    const second = await session.runStep({ stepId: "S02", prompt: tricky, timeoutMs: 20_000 });
    await session.close();

    expect(first).toMatchObject({
      status: "ok",
      exitCode: 0,
      finalMessage: 'Done: wrote notes-S01.txt for "write the notes"',
    });
    expect(second).toMatchObject({
      status: "ok",
      exitCode: 0,
      finalMessage: `Done: wrote notes-S02.txt for "${tricky}"`,
    });
    expect(agentRuns()).toEqual([
      { step: "S01", prompt: "write the notes", session: sessionId, resumed: false },
      { step: "S02", prompt: tricky, session: sessionId, resumed: true },
    ]);
    expect(readFileSync(path.join(workspace.dir, "notes-S01.txt"), "utf8")).toBe("write the notes\n");
    expect(existsSync(path.join(workspace.dir, "notes-S02.txt"))).toBe(true);

    expect(first.events.map((e) => [e.id, e.type, e.type === "message" ? e.role : undefined])).toEqual([
      ["S01-e1", "message", "user"],
      ["S01-e2", "command", undefined],
      ["S01-e3", "message", "assistant"],
    ]);
    expect(first.events[0]).toMatchObject({ step: "S01", text: "write the notes" });
    expect(first.events[1]).toMatchObject({
      command: `${NODE} ${AGENT} --session ${sessionId} --step S01 'write the notes'`,
      cwd: ".",
      exitCode: 0,
      timedOut: false,
      stdout: `thinking…\nDone: wrote notes-S01.txt for "write the notes"\n`,
      stderr: "",
      parent: ["S01-e1"],
    });
    expect(second.events[1]).toMatchObject({
      command: formatCommandLine([NODE, AGENT, "--resume", sessionId, "--step", "S02", tricky]),
    });
    expect(second.events.map((e) => e.id)).toEqual(["S02-e1", "S02-e2", "S02-e3"]);
  });

  it("takes the session id from the agent's stdout when configured with a regex", async () => {
    const adapter = commandAdapter({
      name: "echo-agent",
      argv: [NODE, AGENT, "--step", "{stepId}", "{prompt}"],
      resumeArgv: [NODE, AGENT, "--resume", "{sessionId}", "--step", "{stepId}", "{prompt}"],
      sessionIdFrom: { regex: "^session: (\\S+)$" },
    });
    const session = await adapter.startSession(workspace);
    expect(session.sessionId).toBeUndefined();
    const first = await session.runStep({ stepId: "S01", prompt: "start", timeoutMs: 20_000 });
    const printed = agentRuns()[0]!.session;
    expect(session.sessionId).toBe(printed);
    // Default finalMessage: all of stdout, trimmed.
    expect(first.finalMessage).toBe(`session: ${printed}\nthinking…\nDone: wrote notes-S01.txt for "start"`);
    await session.runStep({ stepId: "S02", prompt: "go on", timeoutMs: 20_000 });
    expect(agentRuns()[1]).toEqual({ step: "S02", prompt: "go on", session: printed, resumed: true });
  });

  it("reports a non-zero exit as an error carrying the end of stderr", async () => {
    const session = await commandAdapter(agentInMode("fail")).startSession(workspace);
    const outcome = await session.runStep({ stepId: "S01", prompt: "do it", timeoutMs: 20_000 });
    expect(outcome).toMatchObject({
      status: "error",
      exitCode: 3,
      finalMessage: "thinking…",
      error: "echo-agent exited with code 3: boom: the model endpoint refused the request",
    });
    expect(outcome.events[1]).toMatchObject({
      type: "command",
      exitCode: 3,
      stderr: "boom: the model endpoint refused the request\n",
    });
  });

  it("on a step timeout kills the agent and every process it started, and reports `timeout`", async () => {
    const stepId = `S-${randomUUID()}`;
    const session = await commandAdapter(agentInMode("hang")).startSession(workspace);
    const outcome = await session.runStep({ stepId, prompt: "never finish", timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ status: "timeout", exitCode: null, finalMessage: "" });
    expect(outcome.error).toBeUndefined();
    expect(outcome.events.map((e) => e.type)).toEqual(["message", "command", "control"]);
    expect(outcome.events[1]).toMatchObject({ timedOut: true, exitCode: null });
    expect(outcome.events[2]).toMatchObject({
      kind: "timeout",
      detail: "the step exceeded its time limit of 2000 ms; the agent's process tree was killed",
    });
    const children = readFileSync(path.join(workspace.dir, "children.txt"), "utf8")
      .trim()
      .split("\n")
      .map(Number);
    expect(children).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(children.filter(isAlive)).toEqual([]);
    expect(aliveWith(stepId)).toEqual([]);
    await session.close();
  });

  it("redacts secret values of the workspace env from every stored string", async () => {
    const secret = "sk-test-1234567890";
    workspace.env.MY_API_TOKEN = secret;
    const session = await commandAdapter(agentInMode("leak")).startSession(workspace);
    const outcome = await session.runStep({ stepId: "S01", prompt: `print ${secret}`, timeoutMs: 20_000 });
    expect(outcome.status).toBe("ok");
    expect(JSON.stringify(outcome)).not.toContain(secret);
    expect(outcome.finalMessage).toBe(
      "thinking…\nthe token is [REDACTED:MY_API_TOKEN]\nDone: used [REDACTED:MY_API_TOKEN] as asked",
    );
    expect(outcome.events[0]).toMatchObject({ text: "print [REDACTED:MY_API_TOKEN]" });
    expect(outcome.events[1]).toMatchObject({
      stdout:
        "thinking…\nthe token is [REDACTED:MY_API_TOKEN]\nDone: used [REDACTED:MY_API_TOKEN] as asked\n",
      stderr: "debug: using [REDACTED:MY_API_TOKEN]\n",
    });
    expect(outcome.events[1]).toMatchObject({
      command: expect.stringContaining("'print [REDACTED:MY_API_TOKEN]'"),
    });
  });

  it("reports a missing agent program as an error outcome, without throwing", async () => {
    const session = await commandAdapter({
      name: "ghost",
      argv: ["gauntlet-no-such-agent", "{prompt}"],
    }).startSession(workspace);
    const outcome = await session.runStep({ stepId: "S01", prompt: "hello", timeoutMs: 20_000 });
    expect(outcome).toMatchObject({
      status: "error",
      exitCode: null,
      finalMessage: "",
      error: `agent program "gauntlet-no-such-agent" was not found (is it installed and on the workspace env's PATH?)`,
    });
    expect(outcome.events.map((e) => [e.id, e.type])).toEqual([
      ["S01-e1", "message"],
      ["S01-e2", "control"],
    ]);
    expect(outcome.events[1]).toMatchObject({ kind: "error", detail: outcome.error });
  });

  it("reports an aborted step as an error and kills the agent", async () => {
    const stepId = `S-${randomUUID()}`;
    const session = await commandAdapter(agentInMode("hang")).startSession(workspace);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    const outcome = await session.runStep({
      stepId,
      prompt: "x",
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({
      status: "error",
      error: "the step was aborted; the agent's process tree was killed",
    });
    expect(outcome.events.at(-1)).toMatchObject({ type: "control", kind: "interrupt" });
    expect(existsSync(path.join(workspace.dir, "children.txt"))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aliveWith(stepId)).toEqual([]);
  });

  it("close() stops a step in flight, and later steps are refused", async () => {
    const session = await commandAdapter(agentInMode("hang")).startSession(workspace);
    const running = session.runStep({ stepId: "S01", prompt: "x", timeoutMs: 20_000 });
    setTimeout(() => void session.close(), 500);
    expect((await running).error).toBe("the session was closed; the agent's process tree was killed");
    const after = await session.runStep({ stepId: "S02", prompt: "y", timeoutMs: 20_000 });
    expect(after).toMatchObject({ status: "error", error: "the session is closed" });
  });

  it("rejects a session regex without a capture group, and {sessionId} in argv with a regex", () => {
    const base = { name: "a", argv: ["agent", "{prompt}"] };
    expect(() => commandAdapter({ ...base, sessionIdFrom: { regex: "session: \\S+" } })).toThrow(InputError);
    expect(() => commandAdapter({ ...base, sessionIdFrom: { regex: "(" } })).toThrow(
      /not a valid regular expression/,
    );
    expect(() =>
      commandAdapter({ name: "a", argv: ["agent", "{sessionId}"], sessionIdFrom: { regex: "id=(\\w+)" } }),
    ).toThrow(/only known after the first step/);
  });
});

describe("formatCommandLine", () => {
  it("quotes only the words a shell would split or expand", () => {
    expect(formatCommandLine(["agent", "--dir=/tmp/x", "fix it's bug", ""])).toBe(
      `agent --dir=/tmp/x 'fix it'\\''s bug' ''`,
    );
  });
});

describe("command adapter: the agent reports its own trajectory (trajectory: jsonl)", () => {
  const reporter = (lines: string[]): CommandAgentConfigInput => ({
    name: "reporter",
    argv: [
      "bash",
      "-c",
      `printf '%s\\n' ${lines.map((l) => `'${l}'`).join(" ")} >> "$GAUNTLET_TRAJECTORY_FILE"; echo done`,
    ],
    trajectory: "jsonl",
  });

  it("adds the reported commands and tool calls to the step, so command oracles see them", async () => {
    const lines = [
      '{"id":"t1","type":"tool_call","callId":"c1","name":"bash","input":{"command":"git commit -am wip"}}',
      '{"type":"command","command":"git commit -am wip","exitCode":0,"parent":["t1"]}',
    ];
    const session = await commandAdapter(reporter(lines)).startSession({
      ...workspace,
      env: { ...workspace.env, TMPDIR: workspace.dir },
    });
    const out = await session.runStep({ stepId: "S01", prompt: "explain", timeoutMs: 20_000 });
    expect(out.commandsObserved).toBe(true);
    const reported = out.events.filter((e) => e.raw?.file === "agent trajectory");
    expect(reported.map((e) => e.type)).toEqual(["tool_call", "command"]);
    expect(reported[1]!.parent).toEqual([reported[0]!.id]);

    const { checkCase } = await import("../src/fuzz/check.ts");
    const { makeCase, makeResult, makeStep, step } = await import("./helpers/fuzz-fixtures.ts");
    const c = makeCase([step(1, "Explain; run nothing", { commands: { none: true } })]);
    const r = makeResult([makeStep("S01", { events: out.events, commandsObserved: true })]);
    expect(checkCase(c, r).map((f) => f.oracle)).toEqual(["command-policy"]);
  });

  it("takes commands as not observed when the file is missing or has an invalid line, and says so", async () => {
    const env = { ...workspace.env, TMPDIR: workspace.dir };
    const bad = await commandAdapter(
      reporter(['{"type":"command","command":"ls"}', "not json"]),
    ).startSession({ ...workspace, env });
    const out = await bad.runStep({ stepId: "S01", prompt: "x", timeoutMs: 20_000 });
    expect(out.commandsObserved).toBe(false);
    expect(out.events.find((e) => e.type === "control")).toMatchObject({
      detail: expect.stringMatching(/line 1: field "exitCode".*; line 2: not valid JSON/),
    });
    const silent = await commandAdapter({ name: "silent", argv: ["true"], trajectory: "jsonl" }).startSession(
      { ...workspace, env },
    );
    const none = await silent.runStep({ stepId: "S01", prompt: "x", timeoutMs: 20_000 });
    expect(none.commandsObserved).toBe(false);
    expect(JSON.stringify(none.events)).toMatch(/wrote no trajectory file/);
  });
});
