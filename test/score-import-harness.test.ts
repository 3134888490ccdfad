import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import { sumUsage, type TrajectoryEvent } from "../src/core/trajectory.ts";
import {
  detectFormat,
  importTrajectory,
  instanceIdOf,
  isOutcomeReport,
  loadOutcomeLabels,
} from "../src/score/import/index.ts";

/**
 * Score suite, import of agent-harness logs (trajectory-formats.md §1.6–§1.8): real OpenHands, SWE-agent and
 * mini-swe-agent logs copied unchanged from ../shared/data/trajectories into data/trajectories. Every expected
 * count was taken from the file itself with the jq one-liner written next to it (and cross-checked against
 * the `stats` of the shared manifest.json), not from the importer.
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
const count = (events: TrajectoryEvent[], type: TrajectoryEvent["type"]) =>
  events.filter((e) => e.type === type).length;
const controls = (events: TrajectoryEvent[]) => events.flatMap((e) => (e.type === "control" ? [e.kind] : []));
const exitCodes = (events: TrajectoryEvent[]) =>
  events.flatMap((e) => (e.type === "command" ? [e.exitCode] : []));
const tmp = () => mkdtempSync(path.join(tmpdir(), "score-harness-"));

/** Every result is parented to the call with its id; every command and file change hangs off a call. */
function expectPaired(events: TrajectoryEvent[]) {
  const calls = new Map(events.flatMap((e) => (e.type === "tool_call" ? [[e.callId, e.id] as const] : [])));
  for (const r of events.filter((e) => e.type === "tool_result"))
    expect(r.parent).toEqual([calls.get(r.callId)]);
  for (const c of events.filter((e) => e.type === "command")) expect(c.parent).toHaveLength(1);
  for (const f of events.filter((e) => e.type === "file_change")) expect(f.parent).toHaveLength(1);
}

describe("OpenHands event arrays on real logs", () => {
  // calls:    V0 jq '[.[] | select(.action and .tool_call_metadata)] | length'
  //           V1 jq '[.[] | select(.kind == "ActionEvent")] | length'
  // results:  V0 jq '[.[] | select(.observation and .tool_call_metadata)] | length'
  //           V1 jq '[.[] | select(.kind == "ObservationEvent")] | length'
  // commands: V0 jq '[.[] | select(.observation == "run")] | length'
  //           V1 jq '[.[] | select(.kind == "ActionEvent" and .tool_name == "terminal"
  //                      and ((.action.is_input or .action.reset) | not))] | length'   (43 terminal − 4 C-c − 1 reset)
  // derived shell writes (labels.jsonl file_writes): `mv` → added + deleted; `printf … > hello.txt`; a heredoc
  it.each([
    ["openhands__wrong_initial_state.json", 4, 3, 1, [], ["added", "deleted"]],
    ["harbor__rfc-openhands_trajectory.json", 2, 1, 1, [], ["added"]],
    [
      "openhands-trajectory-visualizer__738af793554247daab6f62001054d891.events.json",
      45,
      45,
      38,
      ["error"],
      ["added"],
    ],
  ])(
    "%s: %i calls, %i results, %i commands, controls %j, derived writes %j",
    async (file, calls, results, commands, control, derived) => {
      const full = path.join(DATA, "openhands-events", file);
      expect(detectFormat(full)).toBe("openhands-events");
      const t = await importTrajectory(full);
      expect(t.agent).toBe("openhands");
      expect(count(t.events, "tool_call")).toBe(calls);
      expect(count(t.events, "tool_result")).toBe(results);
      expect(count(t.events, "command")).toBe(commands);
      const changes = t.events.filter((e) => e.type === "file_change");
      expect(changes.filter((e) => !e.derived)).toEqual([]);
      expect(changes.map((e) => e.kind)).toEqual(derived);
      expect(controls(t.events)).toEqual(control);
      expect(t.skipped).toEqual([]);
      expectPaired(t.events);
      expect(t.events.every((e) => e.raw?.file === full && e.raw.line === undefined)).toBe(true);
    },
  );

  it("V0: counts each model response's usage once (wrong_initial_state has no llm_metrics)", async () => {
    // jq '[.[] | .tool_call_metadata.model_response | select(.) | {id, usage}] | unique_by(.id)
    //      | map(.usage.prompt_tokens) | add'  → 14828 (completion_tokens → 358); 4 distinct response ids
    const t = await importTrajectory(path.join(DATA, "openhands-events/openhands__wrong_initial_state.json"));
    expect(count(t.events, "usage")).toBe(4);
    expect(sumUsage(t.events)).toEqual({ inputTokens: 14828, outputTokens: 358, costUsd: 0 });
    expect(t.models).toEqual(["claude-3-5-sonnet-20241022"]);
    const run = t.events.find((e) => e.type === "command");
    expect(run).toMatchObject({ command: "mv /workspace/game_2048.py /workspace/2048.py", exitCode: 0 });
  });

  it("V0: takes deltas of the cumulative llm_metrics, never their sum, with the context window", async () => {
    // jq '[.[] | .llm_metrics | select(.) | .accumulated_token_usage.prompt_tokens] | last' → 11859 (the
    // last cumulative value: 5863 + 5996), completion 1086, accumulated_cost 0.01934775, context_window 272000
    const t = await importTrajectory(
      path.join(DATA, "openhands-events/harbor__rfc-openhands_trajectory.json"),
    );
    const total = sumUsage(t.events);
    expect(total.inputTokens).toBe(11859);
    expect(total.outputTokens).toBe(1086);
    expect(total.costUsd).toBeCloseTo(0.01934775, 10);
    expect(t.events.filter((e) => e.type === "context").map((e) => e.type === "context" && e.window)).toEqual(
      [272000, 272000],
    );
    expect(t.events.filter((e) => e.type === "message").map((e) => e.type === "message" && e.role)).toEqual([
      "system",
      "user",
      "assistant",
    ]);
  });

  it("V1: still-running commands (exit -1) have no exit code and are marked timed out", async () => {
    // jq '[.[] | select(.kind == "ObservationEvent" and .observation.exit_code == -1)] | length' → 4
    // jq '[.[] | select(.kind == "ObservationEvent" and .observation.exit_code == 1)] | length'  → 8, of which
    //    4 answer C-c inputs (`and .observation.command == "C-c"` → 4; no command event): 4 commands exit 1
    const t = await importTrajectory(
      path.join(
        DATA,
        "openhands-events/openhands-trajectory-visualizer__738af793554247daab6f62001054d891.events.json",
      ),
    );
    const commands = t.events.filter((e) => e.type === "command");
    expect(commands.filter((c) => c.timedOut && c.exitCode === null)).toHaveLength(4);
    expect(exitCodes(t.events).filter((c) => c === 1)).toHaveLength(4);
    // 1 system prompt + 3 MessageEvents + 16 actions with a non-empty thought.
    expect(count(t.events, "message")).toBe(20);
    expect(t.models).toEqual([]);
  });
});

describe("SWE-agent .traj on real logs", () => {
  // steps: jq -c '[.trajectory[].action | capture("^(?<w>\\S+)").w] | group_by(.) | map({(.[0]): length}) | add'
  //   6e44b9: {edit:1, find_file:1, open:1, python3:1, submit:1}       → 1 shell command (python3)
  //   pydicom: {create:1, edit:5, find_file:1, open:1, python:2, rm:1, submit:1} → 3 shell commands;
  //            file changes: create + the 2 edits not refused ("Your proposed edit has introduced new syntax
  //            error", steps 6–8: jq '[.trajectory[].observation | select(test("proposed edit has introduced"))] | length' → 3)
  //   demo: {create:1, disassemble:2, edit:2, python:1, submit:1}      → 1 shell command, 3 file changes
  it.each([
    ["swe-agent__6e44b9__sweagenttestrepo-1c2844.traj", 5, 1, 1],
    ["swe-agent__pydicom__pydicom-1458.traj", 12, 3, 4], // 3 edits + the derived delete of `rm reproduce_bug.py`
    ["swe-agent__demo-ctf-pwn-warmup.traj", 7, 1, 3],
  ])(
    "%s: %i steps as calls and results, %i commands, %i file changes",
    async (file, steps, commands, changes) => {
      const full = path.join(DATA, "swe-agent-traj", file);
      expect(detectFormat(full)).toBe("swe-agent-traj");
      const t = await importTrajectory(full);
      expect(t.agent).toBe("swe-agent");
      expect(t.lines).toBe(steps);
      expect(count(t.events, "tool_call")).toBe(steps);
      expect(count(t.events, "tool_result")).toBe(steps);
      expect(count(t.events, "command")).toBe(commands);
      expect(count(t.events, "file_change")).toBe(changes);
      // jq '.info.exit_status' → "submitted" in all three
      expect(controls(t.events)).toEqual(["handoff"]);
      expect(t.skipped).toEqual([]);
      expectPaired(t.events);
    },
  );

  it("reads function calls, the model and the instance from the history and replay config", async () => {
    // jq '.history[] | .tool_calls // empty | .[].function.name' → find_file, open, edit, bash
    // jq '.replay_config.agent.model.name, .replay_config.problem_statement.id, .info.model_stats'
    const t = await importTrajectory(
      path.join(DATA, "swe-agent-traj/swe-agent__6e44b9__sweagenttestrepo-1c2844.traj"),
    );
    expect(
      t.events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.name),
    ).toEqual(["find_file", "open", "edit", "bash", "submit"]);
    expect(t.models).toEqual(["gpt-4o"]);
    expect(instanceIdOf(t)).toBe("SWE-agent__test-repo-i1");
    expect(t.events.find((e) => e.type === "file_change")).toMatchObject({
      path: "tests/missing_colon.py",
      kind: "modified",
    });
    expect(sumUsage(t.events)).toEqual({
      inputTokens: 7141,
      outputTokens: 243,
      costUsd: 0.019520000000000006,
    });
    // The system prompt and the issue open the trajectory.
    expect(t.events.slice(0, 2).map((e) => e.type === "message" && e.role)).toEqual(["system", "user"]);
  });

  it("marks refused edits as errors and leaves out their file change; classic logs skip the demonstration", async () => {
    const t = await importTrajectory(path.join(DATA, "swe-agent-traj/swe-agent__pydicom__pydicom-1458.traj"));
    const edits = t.events.filter((e) => e.type === "tool_call" && e.name === "edit").map((e) => e.id);
    const results = t.events.filter((e) => e.type === "tool_result" && edits.includes(e.parent?.[0] ?? ""));
    expect(results.map((r) => r.type === "tool_result" && r.isError)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    // jq '[.history[] | select(.is_demo)] | length' → 1, left out: the opening messages are the system prompt and the issue.
    expect(t.events.slice(0, 3).map((e) => e.type)).toEqual(["message", "message", "message"]);
    expect(t.events[1]).toMatchObject({ role: "user" });
    expect((t.events[1] as { text: string }).text).toContain("Pixel Representation");
    expect(instanceIdOf(t)).toBe("pydicom__pydicom-1458");
  });
});

describe("mini-swe-agent trajectories on real logs", () => {
  // calls = commands = results: jq '[.messages[] | select(.role == "assistant")] | length' (each has exactly one
  //   ```bash block); exit codes: jq -c '[.messages[] | select(.role == "user") | .content
  //   | capture("^<returncode>(?<rc>-?[0-9]+)").rc] | group_by(.) | map({(.[0]): length}) | add'
  //   The last command (echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT …) is answered by the submission, with no
  //   return code: exit code null. (manifest.json counts that answer as its one "format_errors".)
  it.each([
    ["gruckion__django__django-10999.traj.json", "django__django-10999", 18, { 0: 17 }],
    ["gruckion__django__django-16255.traj.json", "django__django-16255", 17, { 0: 16 }],
    ["gruckion__pytest-dev__pytest-7205.traj.json", "pytest-dev__pytest-7205", 27, { 0: 22, 1: 4 }],
    ["gruckion__sympy__sympy-23534.traj.json", "sympy__sympy-23534", 21, { 0: 19, 127: 1 }],
  ])("%s (%s): %i commands with exit codes %j", async (file, instance, commands, codes) => {
    const full = path.join(DATA, "mini-swe-agent", file);
    expect(detectFormat(full)).toBe("mini-swe-agent");
    const t = await importTrajectory(full);
    expect(t.agent).toBe("mini-swe-agent");
    expect(t.id).toBe(instance);
    expect(instanceIdOf(t)).toBe(instance);
    expect(t.models).toEqual(["google/gemini-3-pro-preview"]);
    expect(count(t.events, "tool_call")).toBe(commands);
    expect(count(t.events, "tool_result")).toBe(commands);
    expect(count(t.events, "command")).toBe(commands);
    const histogram: Record<string, number> = {};
    for (const c of exitCodes(t.events)) if (c !== null) histogram[c] = (histogram[c] ?? 0) + 1;
    expect(histogram).toEqual(codes);
    expect(exitCodes(t.events).at(-1)).toBeNull();
    // jq '.info.exit_status' → "Submitted"
    expect(controls(t.events)).toEqual(["handoff"]);
    expect(t.skipped).toEqual([]);
    expectPaired(t.events);
  });

  it("counts usage once per model response: the per-message costs add up to the instance cost", async () => {
    // jq '[.messages[].extra.response.usage.cost // empty] | add' and jq '.info.model_stats.instance_cost' → 0.1153698
    const t = await importTrajectory(
      path.join(DATA, "mini-swe-agent/gruckion__sympy__sympy-23534.traj.json"),
    );
    expect(count(t.events, "usage")).toBe(21);
    expect(sumUsage(t.events).costUsd).toBeCloseTo(0.1153698, 9);
    // jq '[.messages[].extra.response.usage.prompt_tokens // empty] | add' → 110538
    expect(sumUsage(t.events).inputTokens).toBe(110538);
    // jq '[.messages[].extra.response.choices[0].message.reasoning // empty | select(. != "")] | length' → 2
    expect(t.events.filter((e) => e.type === "message" && e.reasoning)).toHaveLength(2);
  });
});

describe("outcome labels (SWE-bench report.json)", () => {
  it("loads the 4 mini-swe-agent instances: 2 resolved, 2 not, from a folder that also holds trajectories", async () => {
    // jq '.resolved' eval-reports/*.report.json → false (django-10999), true (django-16255), false (pytest-7205), true (sympy-23534)
    const labels = await loadOutcomeLabels(path.join(DATA, "mini-swe-agent"));
    expect(Object.fromEntries(labels)).toEqual({
      "django__django-10999": false,
      "django__django-16255": true,
      "pytest-dev__pytest-7205": false,
      "sympy__sympy-23534": true,
    });
  });

  it("joins each imported trajectory to its label by instance id", async () => {
    const labels = await loadOutcomeLabels([
      path.join(DATA, "mini-swe-agent/eval-reports/gruckion__django__django-16255.report.json"),
    ]);
    const t = await importTrajectory(
      path.join(DATA, "mini-swe-agent/gruckion__django__django-16255.traj.json"),
    );
    expect(labels.get(instanceIdOf(t)!)).toBe(true);
  });

  it("never takes a report for a trajectory", () => {
    const report = path.join(DATA, "mini-swe-agent/eval-reports/gruckion__sympy__sympy-23534.report.json");
    expect(isOutcomeReport(report)).toBe(true);
    expect(isOutcomeReport(path.join(DATA, "mini-swe-agent/gruckion__sympy__sympy-23534.traj.json"))).toBe(
      false,
    );
    expect(() => detectFormat(report)).toThrow(InputError);
    expect(() => detectFormat(report)).toThrow(/evaluation report/);
  });

  it("reads the harness's wrapped per-instance report and a run summary", async () => {
    const dir = tmp();
    writeFileSync(
      path.join(dir, "report.json"),
      JSON.stringify({
        "astropy__astropy-12907": { patch_is_None: false, resolved: true, tests_status: {} },
      }),
    );
    writeFileSync(
      path.join(dir, "run.json"),
      JSON.stringify({
        resolved_ids: ["a__b-1"],
        unresolved_ids: ["a__b-2"],
        error_ids: ["a__b-3"],
        completed_ids: [],
      }),
    );
    writeFileSync(path.join(dir, "notes.json"), JSON.stringify({ hello: "world" }));
    expect(Object.fromEntries(await loadOutcomeLabels(dir))).toEqual({
      "astropy__astropy-12907": true,
      "a__b-1": true,
      "a__b-2": false,
      "a__b-3": false,
    });
  });
});

describe("bad input", () => {
  it("OpenHands: reports unmappable elements by their 1-based array position, keeping the rest", async () => {
    const file = path.join(tmp(), "events.json");
    writeFileSync(
      file,
      JSON.stringify([
        { id: 0, source: "user", action: "message", args: { content: "hi" } },
        42,
        { id: 2, source: "agent", action: "teleport", args: {} },
        { id: 3, source: "agent", observation: "run", cause: 99, content: "orphan", extras: {} },
        {
          id: 4,
          source: "environment",
          observation: "agent_state_changed",
          extras: { agent_state: "paused" },
        },
        { id: 5, source: "agent", kind: "BrandNewEvent" },
      ]),
    );
    expect(detectFormat(file)).toBe("openhands-events");
    const t = await importTrajectory(file);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3, 4, 6]);
    expect(t.skipped[1]!.reason).toContain('"teleport"');
    expect(t.skipped[3]!.reason).toContain("BrandNewEvent");
    expect(t.events.map((e) => e.type)).toEqual(["message", "control"]);
    expect(controls(t.events)).toEqual(["interrupt"]);
    expect(t.lines).toBe(6);
  });

  it("OpenHands: a result without its call is kept, unparented; a call without a result stays alone", async () => {
    const file = path.join(tmp(), "events.json");
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 1,
          source: "agent",
          observation: "run",
          content: "done",
          tool_call_metadata: { function_name: "execute_bash", tool_call_id: "lost" },
          extras: { command: "ls", metadata: { exit_code: 2 } },
        },
        { id: 2, source: "agent", action: "run", args: { command: "sleep 9" } },
      ]),
    );
    const t = await importTrajectory(file, "openhands-events");
    expect(t.events.map((e) => e.type)).toEqual(["command", "tool_result", "tool_call"]);
    expect(t.events[0]).toMatchObject({ exitCode: 2 });
    expect(t.events[1]).toMatchObject({ callId: "lost", isError: true });
    expect(t.events[1]!.parent).toBeUndefined();
    expect(t.skipped).toEqual([]);
  });

  it("a truncated JSON document is an InputError naming the file", async () => {
    const file = path.join(tmp(), "cut.json");
    writeFileSync(
      file,
      '[{"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}}, {"id": 1, ',
    );
    await expect(importTrajectory(file, "openhands-events")).rejects.toThrow(InputError);
    await expect(importTrajectory(file, "openhands-events")).rejects.toThrow(file);
    const traj = path.join(tmp(), "cut.traj");
    writeFileSync(traj, '{"environment": "main", "trajectory": [{"action": "ls", "observation": "a"');
    await expect(importTrajectory(traj, "swe-agent-traj")).rejects.toThrow(InputError);
  });

  it("SWE-agent and mini-swe-agent: report a step or message that is not an object, or of an unknown role", async () => {
    const dir = tmp();
    const traj = path.join(dir, "x.traj");
    writeFileSync(
      traj,
      JSON.stringify({
        trajectory: [{ action: "ls\n", observation: "a b", thought: "look" }, "garbage"],
        history: [],
        info: { exit_status: "exit_cost" },
      }),
    );
    const s = await importTrajectory(traj);
    expect(s.format).toBe("swe-agent-traj");
    expect(s.skipped).toEqual([{ line: 2, reason: "trajectory step 2: not a JSON object" }]);
    expect(controls(s.events)).toEqual(["timeout"]);
    expect(count(s.events, "command")).toBe(1);

    const mini = path.join(dir, "y.traj.json");
    writeFileSync(
      mini,
      JSON.stringify({
        info: { exit_status: "LimitsExceeded", mini_version: "1.15.0" },
        messages: [
          { role: "assistant", content: "no action here" },
          {
            role: "user",
            content: "Please always provide EXACTLY ONE action in triple backticks, found 0 actions.",
          },
          { role: "wizard", content: "?" },
        ],
        trajectory_format: "mini-swe-agent-1",
      }),
    );
    const m = await importTrajectory(mini);
    expect(m.format).toBe("mini-swe-agent");
    expect(m.skipped.map((x) => x.line)).toEqual([3]);
    expect(controls(m.events)).toEqual(["error", "timeout"]);
  });

  it("mini-swe-agent v2 (made up from the format description): tool calls, tool messages, exit message", async () => {
    const file = path.join(tmp(), "v2.traj.json");
    writeFileSync(
      file,
      JSON.stringify({
        info: { mini_version: "2.0.0" },
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "task" },
          {
            role: "assistant",
            content: "run it",
            tool_calls: [
              { id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
            ],
            extra: { cost: 0.01 },
          },
          { role: "tool", tool_call_id: "c1", content: '{"returncode": 2, "output": "no such file"}' },
          { role: "exit", content: "", extra: { exit_status: "Submitted", submission: "" } },
        ],
        trajectory_format: "mini-swe-agent-1.1",
      }),
    );
    const t = await importTrajectory(file);
    expect(t.events.map((e) => e.type)).toEqual([
      "message",
      "message",
      "message",
      "tool_call",
      "usage",
      "command",
      "tool_result",
      "control",
    ]);
    expect(exitCodes(t.events)).toEqual([2]);
    expectPaired(t.events);
    expect(sumUsage(t.events).costUsd).toBe(0.01);
  });
});
