import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveCodingAgent } from "../src/agents/coding/registry.ts";
import { InputError } from "../src/core/errors.ts";
import { RunStore } from "../src/core/run-store.ts";
import { sumUsage, type TrajectoryEvent } from "../src/core/trajectory.ts";
import { runCases } from "../src/fuzz/run.ts";
import {
  AtifDocument,
  detectFormat,
  exportAtif,
  type ImportedTrajectory,
  importTrajectories,
  importTrajectory,
} from "../src/score/import/index.ts";
import { resolveSource } from "../src/workspace/source.ts";
import { makeCase, makeResult, makeStep, step } from "./helpers/fuzz-fixtures.ts";

/**
 * Score suite, import of interchange formats (trajectory-formats.md §1.9–1.11): Harbor ATIF (real files copied
 * from ../shared/data/trajectories into data/trajectories/atif), Inspect AI and OpenTelemetry GenAI (made-up
 * fixtures in test/fixtures/trajectories, see its README), Gauntlet's own results.jsonl (from a real tiny run),
 * and the ATIF exporter.
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
const FIXTURES = path.resolve(__dirname, "fixtures/trajectories");
const count = (events: TrajectoryEvent[], type: TrajectoryEvent["type"]) =>
  events.filter((e) => e.type === type).length;
const kinds = (events: TrajectoryEvent[]) =>
  events.filter((e) => e.type === "control").map((e) => (e.type === "control" ? e.kind : ""));
const tmp = () => mkdtempSync(path.join(tmpdir(), "score-interchange-"));

/** Every result is paired with its call by id, and depends on it. */
function expectPaired(t: ImportedTrajectory) {
  const calls = new Map(t.events.filter((e) => e.type === "tool_call").map((e) => [e.callId, e.id]));
  for (const r of t.events.filter((e) => e.type === "tool_result"))
    expect(r.parent).toEqual([calls.get(r.callId)]);
}

describe("ATIF importer on real Harbor trajectories", () => {
  // Expected counts by hand, per file:
  //   python3 -c "import json,sys; S=json.load(open(sys.argv[1]))['steps'];
  //     print(sum(len(s.get('tool_calls') or []) for s in S),                                    # tool calls
  //       sum(1 for s in S for r in (s.get('observation') or {}).get('results', [])
  //           if r.get('source_call_id') or s.get('tool_calls')),                                 # results
  //       sum(1 for s in S for c in s.get('tool_calls') or [] if c['function_name'] in ('Bash', 'bash_command')),
  //       sum(1 for s in S if s['message'].strip()) + sum(1 for s in S if (s.get('reasoning_content') or '').strip()))" FILE
  it.each([
    ["harbor__atif2otel-trajectory_fail.json", 46, 46, 13, 26],
    ["harbor__atif2otel-trajectory_pass.json", 12, 12, 5, 7],
    ["harbor__hello-load-atif-trajectory.json", 1, 1, 0, 2],
    ["harbor__job-hermes-telegram-mirror-drop__NqjyGGW.trajectory.json", 3, 3, 0, 7],
    ["harbor__job-hermes-telegram-mirror-drop__ey2rnib.trajectory.json", 2, 2, 0, 6],
    ["harbor__terminus2-hello-world-context-summarization.trajectory.json", 7, 7, 5, 10],
  ])(
    "%s: %i tool calls, %i results (all paired), %i shell commands, %i messages",
    async (file, calls, results, commands, messages) => {
      const full = path.join(DATA, "atif", file);
      expect(detectFormat(full)).toBe("atif");
      const t = await importTrajectory(full);
      expect(t.format).toBe("atif");
      expect(count(t.events, "tool_call")).toBe(calls);
      expect(count(t.events, "tool_result")).toBe(results);
      expect(count(t.events, "command")).toBe(commands);
      expect(count(t.events, "message")).toBe(messages);
      expectPaired(t);
      expect(t.skipped).toEqual([]);
      expect(t.events.every((e) => e.raw?.file === full)).toBe(true);
      // Every event names its ATIF step, but the remainder of final_metrics over the steps' sums.
      expect(t.events.filter((e) => e.step === undefined).every((e) => e.type === "usage")).toBe(true);
    },
  );

  it("pairs Terminus-2 results that carry no source_call_id with the step's call, and reads the summarisation step as compaction and hand-offs", async () => {
    const t = await importTrajectory(
      path.join(DATA, "atif/harbor__terminus2-hello-world-context-summarization.trajectory.json"),
    );
    expect(t.id).toBe("NORMALIZED_SESSION_ID");
    expect(t.agent).toBe("terminus-2");
    const complete = t.events.filter((e) => e.type === "tool_call" && e.name === "mark_task_complete");
    expect(complete).toHaveLength(2);
    expect(t.events.filter((e) => e.type === "context" && e.compaction)).toHaveLength(1);
    expect(kinds(t.events)).toEqual(["handoff", "handoff", "handoff"]);
    // Terminus-2 records no exit code: it stays unknown, never an invented success.
    expect(t.events.find((e) => e.type === "command")).toMatchObject({
      command: "mkdir test_dir",
      exitCode: null,
    });
    // The steps' metrics sum to 6502 / 690 tokens and $0.023155; final_metrics (7802 / 1030, $0.029805) also
    // counts the summarisation sub-agents: the remainder is one more usage event, so the totals match.
    expect(sumUsage(t.events)).toEqual({
      inputTokens: 7802,
      outputTokens: 1030,
      costUsd: expect.closeTo(0.029805, 9),
    });
    expect(t.events.at(-1)).toMatchObject({ type: "usage", inputTokens: 1300, outputTokens: 340 });
  });

  it("counts tokens once: per-step metrics, and final_metrics only for what no step carried (here the cost)", async () => {
    // python3 -c "import json; d=json.load(open(F)); print(sum(s.get('metrics',{}).get('prompt_tokens',0) for s in d['steps']))"
    const t = await importTrajectory(path.join(DATA, "atif/harbor__atif2otel-trajectory_pass.json"));
    expect(sumUsage(t.events)).toEqual({
      inputTokens: 485630,
      outputTokens: 3304,
      costUsd: 0.46238100000000004,
    });
    expect(t.events.filter((e) => e.type === "message" && e.reasoning)).toHaveLength(1);
  });

  it("reads the same run as the Claude Code session it was converted from (Harbor's pair)", async () => {
    const atif = await importTrajectory(path.join(DATA, "atif/harbor__hello-load-atif-trajectory.json"));
    const native = await importTrajectory(
      path.join(DATA, "claude-code-jsonl/harbor__d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl"),
    );
    expect(atif.id).toBe(native.id);
    for (const type of ["tool_call", "tool_result", "command", "file_change"] as const)
      expect(count(atif.events, type)).toBe(count(native.events, type));
    const names = (t: ImportedTrajectory) =>
      t.events.flatMap((e) => (e.type === "tool_call" ? [e.name] : []));
    expect(names(atif)).toEqual(names(native));
    const tokens = (t: ImportedTrajectory) => {
      const { inputTokens, outputTokens } = sumUsage(t.events);
      return { inputTokens, outputTokens };
    };
    expect(tokens(atif)).toEqual(tokens(native));
    expect(tokens(atif)).toEqual({ inputTokens: 37933, outputTokens: 107 });
    expect(atif.events.find((e) => e.type === "file_change")).toMatchObject({
      path: "/app/hello.txt",
      kind: "added",
    });
  });
});

describe("ATIF export", () => {
  it.each([
    ["claude-code-jsonl/drmaciver__python-to-rust-port.transcript.jsonl"],
    ["claude-code-jsonl/agentcmd__full-session-two.jsonl"],
    ["codex-rollout/agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl"],
    ["codex-rollout/localpush__rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl"],
    ["gemini-cli-json/m-gemini__session-2026-01-02T01-44-320099a3.json"],
    ["atif/harbor__terminus2-hello-world-context-summarization.trajectory.json"],
  ])(
    "%s: the exported document is valid ATIF and re-imports with the same calls, results, commands, messages, controls and usage",
    async (file) => {
      const t = await importTrajectory(path.join(DATA, file));
      const doc = exportAtif(t);
      expect(AtifDocument.safeParse(doc).error?.issues ?? []).toEqual([]);
      expect(doc.session_id).toBe(t.id);
      expect(doc.agent.name).toBe(t.agent);
      const out = path.join(tmp(), "trajectory.json");
      writeFileSync(out, JSON.stringify(doc));
      expect(detectFormat(out)).toBe("atif");
      const back = await importTrajectory(out);
      for (const type of ["tool_call", "tool_result", "command", "message"] as const)
        expect(count(back.events, type), type).toBe(count(t.events, type));
      expect(kinds(back.events).sort()).toEqual(kinds(t.events).sort());
      expect(sumUsage(back.events)).toEqual(sumUsage(t.events));
      expectPaired(back);
      expect(back.skipped).toEqual([]);
    },
  );

  it("round-trips the Inspect and OpenTelemetry fixtures' calls and results", async () => {
    for (const file of ["inspect/repo-fix.json", "otel/two-traces.otlp.json"])
      for (const t of await importTrajectories(path.join(FIXTURES, file))) {
        const out = path.join(tmp(), "trajectory.json");
        writeFileSync(out, JSON.stringify(AtifDocument.parse(exportAtif(t))));
        const back = await importTrajectory(out);
        expect(count(back.events, "tool_call")).toBe(count(t.events, "tool_call"));
        expect(count(back.events, "tool_result")).toBe(count(t.events, "tool_result"));
        expect(sumUsage(back.events)).toEqual(sumUsage(t.events));
      }
  });

  it("keeps shell exit codes and marks errors in result extras", async () => {
    const t = await importTrajectory(
      path.join(
        DATA,
        "codex-rollout/agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
      ),
    );
    const doc = exportAtif(t);
    const results = doc.steps.flatMap((s) => s.observation?.results ?? []);
    expect(results.filter((r) => r.extra?.exit_code !== undefined)).toHaveLength(count(t.events, "command"));
    expect(doc.final_metrics.total_steps).toBe(doc.steps.length);
  });

  it("the schema rejects documents that break ATIF's rules", () => {
    const base = {
      schema_version: "ATIF-v1.4",
      session_id: "S",
      agent: { name: "a", version: "1" },
      final_metrics: {
        total_prompt_tokens: 0,
        total_completion_tokens: 0,
        total_cost_usd: 0,
        total_steps: 2,
      },
    };
    const bad = AtifDocument.safeParse({
      ...base,
      steps: [
        { step_id: 1, source: "user", message: "hi", metrics: { prompt_tokens: 1 } },
        {
          step_id: 3,
          source: "agent",
          message: "",
          tool_calls: [{ tool_call_id: "c1", function_name: "Bash", arguments: {} }],
          observation: { results: [{ source_call_id: "c9", content: "" }] },
        },
      ],
    });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      "metrics is for agent steps only",
      "step_id must be 2",
      "source_call_id c9 names no tool call of this step",
    ]);
  });
});

describe("Inspect AI importer (made-up fixtures)", () => {
  it.each([
    ["repo-fix.json", "inspect-json"],
    ["repo-fix.eval", "inspect-eval"],
  ])("%s: one trajectory per sample, messages placed among the transcript events", async (file, format) => {
    const full = path.join(FIXTURES, "inspect", file);
    expect(detectFormat(full)).toBe(format);
    const [fix, math, ...rest] = await importTrajectories(full);
    expect(rest).toEqual([]);
    expect(fix).toMatchObject({ id: "smp-7Qk2fix", instanceId: "fix-add", format, agent: "basic_agent" });
    expect(fix!.models).toEqual(["anthropic/claude-sonnet-x"]);
    // Sample fix-add: 9 messages → system, user, 3 assistant texts + 1 reasoning part, 3 calls, 3 results;
    // events → 2 sandbox exec, 1 write_file, 4 model calls, 1 compaction, 1 approval (reject).
    const types = (t: ImportedTrajectory) => t.events.map((e) => e.type).join(" ");
    expect(types(fix!)).toBe(
      [
        "message message message message tool_call usage context", // model call 1 (system, user, reasoning, text)
        "command tool_result", // npm test in the sandbox, then its result
        "tool_call usage context", // model call 2
        "command file_change tool_result", // sed, write_file, result
        "context", // compaction
        "message tool_call usage context", // model call 3
        "control tool_result", // the approver rejects rm -rf
        "message usage context", // model call 4
      ].join(" "),
    );
    expectPaired(fix!);
    expect(
      fix!.events.filter((e) => e.type === "command").map((e) => e.type === "command" && e.exitCode),
    ).toEqual([1, 0]);
    const [c1, c2] = fix!.events.filter((e) => e.type === "tool_call").map((e) => e.id);
    expect(fix!.events.filter((e) => e.type === "command").map((e) => e.parent)).toEqual([[c1], [c2]]);
    expect(fix!.events.find((e) => e.type === "context" && e.compaction)).toMatchObject({ tokens: 90000 });
    expect(fix!.events.find((e) => e.type === "control")).toMatchObject({ kind: "rejection" });
    expect(fix!.events.filter((e) => e.type === "tool_result" && e.isError)).toHaveLength(1);
    expect(fix!.events.at(-3)).toMatchObject({ type: "message", text: "Done: the add test passes now." });
    expect(fix!.events.find((e) => e.type === "message" && e.reasoning)).toMatchObject({
      text: "Run the tests first.",
    });
    // Input = total − output per model call: (1240−40) + (1330−30) + (1525−25) + (1662−12); model_usage not added.
    expect(sumUsage(fix!.events)).toEqual({ inputTokens: 5650, outputTokens: 107, costUsd: 0 });
    expect(fix!.skipped).toEqual([]);

    // Sample 2 has no events: usage from model_usage, the time limit as a timeout.
    expect(math).toMatchObject({ id: "smp-9Rt2math", instanceId: "2" });
    expect(types(math!)).toBe("message tool_call tool_result message usage control");
    expect(sumUsage(math!.events)).toEqual({ inputTokens: 600, outputTokens: 50, costUsd: 0.0012 });
    expect(kinds(math!.events)).toEqual(["timeout"]);
  });

  it("reports an unknown event and an unknown message role by their index in the sample", async () => {
    const file = path.join(tmp(), "log.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        eval: { task: "t", task_id: "t1", model: "m" },
        samples: [
          {
            id: 7,
            epoch: 1,
            messages: [
              { id: "a", role: "user", content: "hi" },
              { id: "b", role: "narrator", content: "?" },
            ],
            events: [{ event: "sample_init" }, { event: "teleport", timestamp: "2026-01-01T00:00:00Z" }],
          },
        ],
      }),
    );
    const [t] = await importTrajectories(file);
    expect(t!.skipped).toEqual([
      { line: 2, reason: 'events[2] of sample 7: unknown event "teleport"' },
      { line: 2, reason: 'messages[2] of sample 7: unknown role "narrator"' },
    ]);
    expect(t!.agent).toBe("inspect");
  });
});

describe("OpenTelemetry GenAI importer (made-up fixtures)", () => {
  it("OTLP/JSON: one trajectory per trace, tool spans as calls and results, chat spans as usage and messages", async () => {
    const file = path.join(FIXTURES, "otel/two-traces.otlp.json");
    expect(detectFormat(file)).toBe("otel-json");
    const [a, b, ...rest] = await importTrajectories(file);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ id: "5b8efff798038103d269b633813fc60c", agent: "repo-fixer", lines: 7 });
    expect(a!.models).toEqual(["gpt-4.1-2025-04-14"]);
    expect(count(a!.events, "tool_call")).toBe(2);
    expect(count(a!.events, "tool_result")).toBe(2);
    expectPaired(a!);
    expect(
      a!.events.filter((e) => e.type === "tool_result").map((e) => e.type === "tool_result" && e.isError),
    ).toEqual([false, true]);
    expect(a!.events.find((e) => e.type === "tool_call")).toMatchObject({
      callId: "call_1",
      name: "run_tests",
      input: { path: "." },
    });
    // System and user once (re-sent history is not repeated), two assistant texts.
    expect(a!.events.filter((e) => e.type === "message").map((e) => e.type === "message" && e.role)).toEqual([
      "system",
      "user",
      "assistant",
      "assistant",
    ]);
    // 1200+1400+1600 input, 45+60+20 output from the chat spans; the agent span's aggregate is not added.
    expect(sumUsage(a!.events)).toEqual({ inputTokens: 4200, outputTokens: 125, costUsd: 0 });
    expect(a!.skipped).toEqual([
      { line: 2, reason: 'span 2 of the document: not a GenAI span ("POST /v1/chat/completions")' },
    ]);

    expect(b).toMatchObject({ id: "0af7651916cd43dd8448eb211c80319c", agent: "planner" });
    expect(kinds(b!.events)).toEqual(["handoff", "error"]);
    expect(b!.events.find((e) => e.type === "usage")!.parent).toEqual([b!.events[0]!.id]);
    expect(sumUsage(b!.events)).toEqual({ inputTokens: 100, outputTokens: 10, costUsd: 0 });
  });

  it("JSONL (one export request per line) gives the same trace, with line numbers", async () => {
    const file = path.join(FIXTURES, "otel/agent-run.otlp.jsonl");
    expect(detectFormat(file)).toBe("otel-json");
    const [t, ...rest] = await importTrajectories(file);
    expect(rest).toEqual([]);
    const doc = (await importTrajectories(path.join(FIXTURES, "otel/two-traces.otlp.json")))[0]!;
    expect(t!.events.map((e) => e.type)).toEqual(doc.events.map((e) => e.type));
    expect(t!.events.map((e) => e.raw?.line)).toEqual([1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4]);
    expect(t!.skipped).toEqual([
      { line: 1, reason: 'line 1: not a GenAI span ("POST /v1/chat/completions")' },
    ]);
  });

  it("a plain array of Python SDK spans: 0x ids, ISO times, older message events, an error status", async () => {
    const file = path.join(FIXTURES, "otel/python-sdk-spans.json");
    expect(detectFormat(file)).toBe("otel-json");
    const t = await importTrajectory(file);
    expect(t).toMatchObject({ id: "4bf92f3577b34da6a3ce929d0e0e4736", agent: "py-agent" });
    expect(t.events.map((e) => e.type).join(" ")).toBe(
      "message message usage context tool_call tool_result message usage context",
    );
    expect(t.events.find((e) => e.type === "tool_result")).toMatchObject({
      isError: true,
      output: "FileNotFoundError: no such directory: src",
    });
    expect(t.events[0]).toMatchObject({
      role: "user",
      text: "List the files.",
      ts: Date.parse("2026-03-02T11:00:00.500Z"),
    });
    expect(sumUsage(t.events)).toEqual({ inputTokens: 200, outputTokens: 21, costUsd: 0 });
  });
});

describe("Gauntlet results.jsonl importer", () => {
  let results = "";

  beforeAll(async () => {
    // A real tiny run, the way test/fuzz-run.test.ts makes one: a two-step case, two scripted agents.
    const repo = tmp();
    writeFileSync(
      path.join(repo, "package.json"),
      JSON.stringify({ name: "tiny", version: "1.0.0", scripts: { test: "node test/run.js" } }),
    );
    writeFileSync(path.join(repo, "index.js"), "module.exports = (a, b) => a + b;\n");
    mkdirSync(path.join(repo, "test"));
    writeFileSync(path.join(repo, "test/run.js"), "console.log('# pass 2'); console.log('# fail 0');\n");
    const store = RunStore.create(tmp(), {});
    await runCases({
      agents: ["scripted:careful", "scripted:reckless"].map((a) => resolveCodingAgent(a)),
      cases: [
        makeCase(
          [
            step(1, "Append a line to index.js", {
              modifies: [{ path: "index.js", appendLine: "// reviewed" }],
            }),
            step(2, "Run the tests", {
              runs: { command: "npm test", kind: "test", saveOutputTo: "out/t.txt" },
            }),
          ],
          { repository: { spec: repo, testCommand: "npm test", testByproducts: [] } },
        ),
      ],
      source: await resolveSource(repo),
      store,
      stepTimeoutMs: 30_000,
      onTimeout: "continue",
      jobs: 1,
      keep: false,
    });
    results = path.join(store.dir, "results.jsonl");
    expect(readdirSync(store.dir)).toContain("results.jsonl");
  }, 120_000);

  it("reads one trajectory per (case, agent) line, events copied with step ids and line provenance", async () => {
    expect(detectFormat(results)).toBe("gauntlet-results");
    const all = await importTrajectories(results);
    expect(all.map((t) => t.agent).sort()).toEqual(["scripted:careful", "scripted:reckless"]);
    for (const t of all) {
      expect(t.format).toBe("gauntlet-results");
      expect(t.id).toBe(`${t.instanceId}/${t.agent}`);
      expect(new Set(t.events.map((e) => e.id)).size).toBe(t.events.length);
      expect(t.events.map((e) => e.id)).toEqual(t.events.map((_, i) => `e${i + 1}`));
      expect(new Set(t.events.map((e) => e.step))).toEqual(new Set(["S01", "S02"]));
      expect(t.events.every((e) => e.raw?.file === results && e.raw.line !== undefined)).toBe(true);
      expect(t.events.filter((e) => e.type === "command" && e.command === "npm test")).toHaveLength(1);
      expect(t.events.filter((e) => e.type === "message" && e.role === "user")).toHaveLength(2);
      // The scripted agent links a shell result to its command, the command to the call; ids still pair.
      const callIds = t.events.flatMap((e) => (e.type === "tool_call" ? [e.callId] : []));
      const resultIds = t.events.flatMap((e) => (e.type === "tool_result" ? [e.callId] : []));
      expect(resultIds.sort()).toEqual(callIds.sort());
      expect(t.skipped).toEqual([]);
    }
  });

  it("renumbers ids across steps, keeps parents, separates a call id reused by a later step, adds step-level signals", async () => {
    const file = path.join(tmp(), "results.jsonl");
    // Two steps whose events reuse ids and a call id (as a per-step adapter log may), one invalid event.
    const calls = [
      { id: "e1", type: "tool_call", callId: "c1", name: "shell", input: { command: "ls" } },
      { id: "e2", type: "tool_result", callId: "c1", output: "x", isError: false, parent: ["e1"] },
    ] as TrajectoryEvent[];
    const usage = { inputTokens: 10, outputTokens: 2, costUsd: 0.01 };
    const line = makeResult(
      [
        makeStep("S01", { events: calls, usage }),
        makeStep("S02", {
          status: "timeout",
          error: "killed after 1s",
          usage,
          events: [...calls, { id: "e3", type: "bogus" } as unknown as TrajectoryEvent],
        }),
      ],
      { agent: "cmd:x", caseId: "T-9", status: "incomplete" },
    );
    writeFileSync(file, `${JSON.stringify(line)}\n{torn\n`);
    const [t, ...rest] = await importTrajectories(file, "gauntlet-results");
    expect(rest).toEqual([]);
    expect(t!.events.map((e) => [e.id, e.type, e.step, e.parent])).toEqual([
      ["e1", "tool_call", "S01", undefined],
      ["e2", "tool_result", "S01", ["e1"]],
      ["e3", "usage", "S01", undefined],
      ["e4", "tool_call", "S02", undefined],
      ["e5", "tool_result", "S02", ["e4"]],
      ["e6", "usage", "S02", undefined],
      ["e7", "control", "S02", undefined],
      ["e8", "control", undefined, undefined],
    ]);
    expect(
      t!.events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.callId),
    ).toEqual(["c1", "S02:c1"]);
    expect(kinds(t!.events)).toEqual(["timeout", "error"]);
    expect(t!.skipped.map((s) => s.line)).toEqual([2, 1]);
    expect(t!.skipped[1]!.reason).toMatch(/^step S02 event 3: not a standard event/);
  });
});

describe("malformed input", () => {
  const write = (name: string, text: string) => {
    const file = path.join(tmp(), name);
    writeFileSync(file, text);
    return file;
  };

  it.each([
    ["trajectory.json", '{"schema_version": "ATIF-v1.4", "steps": [{"step_id": 1', "atif"],
    ["log.json", '{"version": 2, "eval": {"task_id": "t"}, "samples": [', "inspect-json"],
    ["spans.json", '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "a"', "otel-json"],
  ])("a document cut short (%s) is an InputError naming the file", async (name, text, format) => {
    const file = write(name, text);
    const error = await importTrajectories(file, format).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(file);
    expect((error as InputError).hint).toBeTruthy();
  });

  it.each([
    ["atif", '{"session_id": "S", "agent": {"name": "x"}}', /not an ATIF trajectory/],
    ["atif", '[{"step_id": 1}]', /not an ATIF trajectory/],
    ["inspect-json", '{"version": 2, "samples": []}', /not an Inspect eval log/],
    ["otel-json", '{"resourceSpans": []}', /no OpenTelemetry span/],
  ])("valid JSON that is not %s is an InputError", async (format, text, message) => {
    const file = write("x.json", text);
    await expect(importTrajectories(file, format)).rejects.toThrow(message);
  });

  it("a zip that is not an Inspect log is an InputError", async () => {
    const file = write("x.eval", "PK\u0003\u0004 not really a zip");
    await expect(importTrajectories(file, "inspect-eval")).rejects.toBeInstanceOf(InputError);
  });

  it("an ATIF step of unknown source is skipped with its index in steps[]", async () => {
    const file = write(
      "t.json",
      JSON.stringify({
        schema_version: "ATIF-v1.4",
        session_id: "S",
        agent: { name: "x", version: "1" },
        steps: [
          { step_id: 1, source: "user", message: "go" },
          { step_id: 2, source: "oracle", message: "?" },
          "nonsense",
        ],
      }),
    );
    const t = await importTrajectory(file);
    expect(t.skipped).toEqual([
      { line: 2, reason: 'step 2 of steps[]: unknown source "oracle"' },
      { line: 3, reason: "step 3 of steps[]: not an object" },
    ]);
    expect(t.events.map((e) => e.type)).toEqual(["message"]);
  });
});
