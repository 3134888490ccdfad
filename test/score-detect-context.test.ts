import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";
import { contextThrashing } from "../src/score/detect/context-thrashing.ts";
import { ghostContext } from "../src/score/detect/ghost-context.ts";
import { oversizedRules } from "../src/score/detect/oversized-rules.ts";
import { buildView } from "../src/score/detect/view.ts";
import { importTrajectory } from "../src/score/import/index.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

/**
 * Score suite, context-management detectors (ProcCtrlBench App. A.1): Ghost Context, Oversized Rules,
 * Context Window Thrashing, on made-up trajectories (event ids `e1`, `e2`, … in order of addition) and on
 * real agent logs in data/trajectories.
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
const run = (detector: typeof ghostContext, events: TrajectoryEvent[]) => detector.detect(buildView(events));

/** `n` distinct identifier-like words, padded with dots to exactly `chars` characters (chars / 4 tokens). */
function words(prefix: string, n: number, chars: number): string {
  const text = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`).join(" ");
  return text.padEnd(chars, ".");
}

// 8,000 characters = 2,000 estimated tokens, 300 distinct terms.
const BIG = words("telemetry", 300, 8000);

describe("ghost-context", () => {
  it("flags a large tool output nothing later draws on, weighed in thousand tokens", () => {
    const t = new MadeUp()
      .user("look at the log")
      .bash("cat data.log", BIG)
      .say("The log looks fine.")
      .bash("ls");
    const f = run(ghostContext, t.events);
    expect(f.score).toBe(2);
    expect(f.instances).toHaveLength(1);
    expect(f.instances[0]?.events).toEqual(["e2", "e4"]);
    expect(f.exempted).toEqual([]);
  });

  it("does not flag a large output a later message draws on", () => {
    const t = new MadeUp()
      .user("look")
      .bash("cat data.log", BIG)
      .say(`Found: ${BIG.slice(0, 2000)}`);
    expect(run(ghostContext, t.events).score).toBe(0);
  });

  it("ends retention at a compaction: uses after it do not count", () => {
    const t = new MadeUp()
      .user("look")
      .bash("cat data.log", BIG)
      .say("Let me think about this.")
      .context(150000, 200000, true)
      .say(`Found: ${BIG.slice(0, 2000)}`);
    const f = run(ghostContext, t.events);
    expect(f.score).toBe(2);
    expect(f.instances[0]?.events).toEqual(["e2", "e4"]);
  });

  it("flags a read made stale by an edit and a re-read, weighed by the stale copy", () => {
    const t = new MadeUp()
      .user("fix it")
      .read("/w/src/a.ts", "x".repeat(400))
      .edit("/w/src/a.ts", "x", "y")
      .read("src/a.ts", "y".repeat(400))
      .say("done");
    const f = run(ghostContext, t.events);
    expect(f.score).toBe(0.1);
    expect(f.instances).toHaveLength(1);
    expect(f.instances[0]?.events).toEqual(["e2", "e3", "e4", "e7"]);
  });

  it("also sees a change no call is linked to (a patch event) between the reads", () => {
    const t = new MadeUp()
      .user("fix")
      .read("/w/src/a.ts", "x".repeat(400))
      .change("src/a.ts")
      .read("/w/src/a.ts")
      .say("ok");
    const f = run(ghostContext, t.events);
    expect(f.instances.map((i) => [i.events, i.weight])).toEqual([[["e2", "e3", "e4", "e5"], 0.1]]);
  });

  it("does not call a read stale when a compaction came between it and the re-read", () => {
    const t = new MadeUp()
      .user("fix it")
      .read("/w/src/a.ts", "x".repeat(400))
      .edit("/w/src/a.ts", "x", "y")
      .context(150000, 200000, true)
      .read("/w/src/a.ts", "y".repeat(400))
      .say("done");
    expect(run(ghostContext, t.events).score).toBe(0);
  });

  it("exempts long-lived rule files, plan output and sub-agent reports (App. A.1)", () => {
    const t = new MadeUp()
      .user("go")
      .read("/w/CLAUDE.md", BIG)
      .tool("TodoWrite", { todos: [] }, words("milestone", 300, 8000))
      .tool("Task", { prompt: "explore the repository" }, words("component", 300, 8000))
      .say("Starting.");
    const f = run(ghostContext, t.events);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(6);
    expect(f.exempted.map((x) => [x.events, x.reason.split(" ")[0]])).toEqual([
      [["e2", "e3"], "long-lived"],
      [["e4", "e5"], "plan/todo"],
      [["e6", "e7"], "sub-agent"],
    ]);
  });

  it("exempts an output the log ends before anything could use", () => {
    const f = run(ghostContext, new MadeUp().user("look").bash("cat data.log", BIG).events);
    expect(f.score).toBe(0);
    expect(f.exempted[0]).toMatchObject({
      events: ["e2", "e4"],
      weight: 2,
      reason: expect.stringMatching(/log ends/),
    });
  });

  it("finds the unused 2,068-token rg listing in a real Codex rollout", async () => {
    const t = await importTrajectory(
      path.join(
        DATA,
        "codex-rollout/agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl",
      ),
    );
    const view = buildView(t.events);
    const rg = view.calls.find((c) => c.commandText === 'rg "createService" -g"*.ts"');
    const f = ghostContext.detect(view);
    expect(f.score).toBe(2.068);
    expect(f.instances.map((i) => i.events)).toEqual([[rg?.call.id, rg?.result?.id]]);
  });
});

// Two rule sections of well over 200 characters each, in one system prompt.
const DEPLOY =
  "## Deployment\nCoordinate kubernetes rollouts through the staging cluster before promoting manifests; " +
  "announce maintenance windows in the operations channel, keep rollback playbooks rehearsed quarterly " +
  "and archive incident timelines.";
const TESTING =
  "## Testing\nRun pytest with --maxfail=1 against tests/integration_suite and regenerate snapshots with " +
  "snapshot_refresh whenever fixtures change; coverage thresholds live in pyproject configuration and " +
  "flaky markers need an issue link.";

describe("oversized-rules", () => {
  it("flags static rule text the run never draws on, in thousand tokens", () => {
    const t = new MadeUp().system(DEPLOY).user("list files").bash("ls", "a.ts").say("One file.");
    const f = run(oversizedRules, t.events);
    expect(f.score).toBe(Math.ceil(DEPLOY.length / 4) / 1000);
    expect(f.instances).toHaveLength(1);
    expect(f.instances[0]?.events).toEqual(["e1"]);
  });

  it("counts every re-injection of a system reminder", () => {
    const reminder = `<system-reminder>${DEPLOY}</system-reminder>`;
    const t = new MadeUp()
      .user("read them")
      .read("/w/a.ts", `1 const a = 1;\n${reminder}`)
      .read("/w/b.ts", `1 const b = 2;\n${reminder}`)
      .say("Read both.");
    const f = run(oversizedRules, t.events);
    expect(f.score).toBe((2 * Math.ceil(DEPLOY.length / 4)) / 1000);
    expect(f.instances[0]?.events).toEqual(["e3", "e5"]);
  });

  it("counts identical user messages re-injected as static text", () => {
    const t = new MadeUp().user(DEPLOY.slice(14)).bash("ls").user(DEPLOY.slice(14)).say("Noted.");
    const f = run(oversizedRules, t.events);
    expect(f.instances.map((i) => i.events)).toEqual([["e1", "e5"]]);
  });

  it("does not treat a compaction summary, a one-off reminder in a result or ordinary messages as rules", () => {
    const t = new MadeUp()
      .user("go")
      .context(150000, 200000, true)
      .system(`This session is being continued from a previous conversation. ${DEPLOY}`)
      .read("/w/a.ts", `<system-reminder>${DEPLOY}</system-reminder>`)
      .bash("ls")
      .say("ok");
    expect(run(oversizedRules, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("leaves the task statement out of an instruction template", () => {
    const rules = `# Instructions\n${DEPLOY.slice(14)}`;
    const t = new MadeUp()
      .user(`<pr_description>\nFix the tokenizer crash on empty input.\n</pr_description>\n${rules}`)
      .bash("ls")
      .say("ok");
    const f = run(oversizedRules, t.events);
    expect(f.score).toBe(Math.ceil(rules.length / 4) / 1000);
    expect(f.instances.map((i) => i.events)).toEqual([["e1"]]);
  });

  it("exempts a rule section the run demonstrably uses, citing the first use (App. A.1)", () => {
    const t = new MadeUp()
      .system(`${DEPLOY}\n${TESTING}`)
      .user("run the tests")
      .bash("pytest --maxfail=1 tests/integration_suite", "3 passed")
      .say("All pass.");
    const f = run(oversizedRules, t.events);
    expect(f.score).toBe(Math.ceil(DEPLOY.length / 4) / 1000);
    expect(f.instances.map((i) => i.events)).toEqual([["e1"]]);
    expect(f.exempted).toHaveLength(1);
    expect(f.exempted[0]?.events).toEqual(["e1", "e3"]);
    expect(f.exempted[0]?.reason).toMatch(/necessary long-lived rule: drawn on later, first by e3/);
  });

  it("exempts rule text the log ends before anything could draw on", () => {
    const f = run(oversizedRules, new MadeUp().system(DEPLOY).user("hello").events);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/log ends/);
  });

  it("finds Claude Code's file-read reminder re-injected three times in a real session", async () => {
    const t = await importTrajectory(
      path.join(DATA, "claude-code-jsonl/drmaciver__coverage-test-fix.transcript.jsonl"),
    );
    const reads = t.events.filter(
      (e) => e.type === "tool_result" && e.output.includes("<system-reminder>\nWhenever you read a file"),
    );
    const f = oversizedRules.detect(buildView(t.events));
    expect(reads).toHaveLength(3);
    expect(f.instances.map((i) => i.events)).toEqual([reads.map((e) => e.id)]);
    expect(f.score).toBe(0.228);
  });
});

describe("context-thrashing", () => {
  it("counts compactions, saturation episodes and half of each rediscovery", () => {
    const t = new MadeUp()
      .user("go")
      .read("/w/a.ts")
      .context(185000, 200000) // e4: saturated
      .context(40000, 200000) // e5: fell without a compaction
      .context(190000, 200000) // e6: saturated again
      .context(20000, 200000, true) // e7: compaction (ends the episode; counted once)
      .read("/w/a.ts") // e8: rediscovery
      .read("/w/a.ts"); // e10: already re-read in this epoch
    const f = run(contextThrashing, t.events);
    expect(f.score).toBe(2.5);
    expect(f.instances.map((i) => [i.events, i.weight])).toEqual([
      [["e4", "e5"], 1],
      [["e7"], 1],
      [["e2", "e7", "e8"], 0.5],
    ]);
  });

  it("scores 0 without compactions or saturation", () => {
    const t = new MadeUp()
      .user("go")
      .read("/w/a.ts")
      .context(100000, 200000)
      .read("/w/a.ts")
      .context(120000, 200000);
    expect(run(contextThrashing, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("counts one compaction logged twice (Codex writes two records) once", () => {
    const t = new MadeUp().user("go").read("/w/a.ts").context(150000, 200000, true).context(0, 200000, true);
    const f = run(contextThrashing, t.events);
    expect(f.instances.map((i) => i.events)).toEqual([["e4"]]);
  });

  it("exempts a compaction the user asked for, and the re-reads after it", () => {
    const t = new MadeUp()
      .user("go")
      .read("/w/a.ts")
      .user("<command-name>/compact</command-name>")
      .context(150000, 200000, true)
      .read("/w/a.ts");
    const f = run(contextThrashing, t.events);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(1.5);
    expect(f.exempted.map((x) => [x.events, x.reason])).toEqual([
      [["e5"], "compaction the user asked for (/compact)"],
      [["e2", "e5", "e6"], "re-read after a compaction the user asked for (/compact)"],
    ]);
  });

  it("counts the compaction in the (synthetic) Claude Code compaction fixture", async () => {
    const t = await importTrajectory(
      path.join(DATA, "claude-code-jsonl/synthetic-fixtures/claude-code-log__dag_compact_after_rewind.jsonl"),
    );
    const compaction = t.events.find((e) => e.type === "context" && e.compaction);
    const f = contextThrashing.detect(buildView(t.events));
    expect(f.score).toBe(1);
    expect(f.instances[0]?.events).toEqual([compaction?.id]);
  });
});

describe("context detectors on long trajectories", () => {
  it("process 50,000 events without quadratic blow-up", () => {
    const t = new MadeUp().system(DEPLOY).user("go");
    for (let i = 0; t.events.length < 50000; i++) {
      t.read(`/w/src/file${i % 500}.ts`, `export const value${i} = ${i};`);
      t.edit(`/w/src/file${i % 500}.ts`, `value${i}`, `value${i + 1}`);
      if (i % 1000 === 0) t.context(190000, 200000, true);
      t.say(`step ${i}`);
    }
    for (const d of [ghostContext, oversizedRules, contextThrashing]) {
      const f = run(d, t.events);
      expect(f.score).toBeGreaterThanOrEqual(0);
    }
  });
});
