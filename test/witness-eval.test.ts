import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CodingAgentAdapter, StepRequest } from "../src/agents/coding/adapter.ts";
import { readJsonl } from "../src/core/jsonl.ts";
import {
  alwaysFailingAgent,
  idleAgent,
  replayWitnessAgent,
  tamperingAgent,
} from "../src/witness/control-agents.ts";
import {
  EvalAttemptRecord,
  type EvalOptions,
  EvalResultRecord,
  runWitnessEval,
} from "../src/witness/eval.ts";
import { auditChanges, sourceReadingReason } from "../src/witness/eval-audit.ts";
import { packageCase } from "../src/witness/package.ts";
import { makeSumProject, nodeTest, sumCaseInput, WITNESS_TEST } from "./helpers/witness-case.ts";

let build: string;
let caseId: string;

beforeAll(async () => {
  build = mkdtempSync(path.join(os.tmpdir(), "witness-build-"));
  caseId = (await packageCase(build, sumCaseInput(makeSumProject()))).id;
});

/** Evaluate `agent` on the one case into a fresh results folder. */
function evaluate(agent: CodingAgentAdapter, extra: Partial<EvalOptions> = {}) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "witness-eval-"));
  return runWitnessEval({
    buildDir: build,
    outDir,
    agent,
    repeats: 2,
    attempts: 1,
    resolveProject: async () => ({ commandFor: nodeTest }),
    ...extra,
  });
}

const results = (outDir: string) => readJsonl(path.join(outDir, "results.jsonl"), EvalResultRecord);
const attempts = (outDir: string) => readJsonl(path.join(outDir, "attempts.jsonl"), EvalAttemptRecord);

/** Wraps an adapter to record every step request. */
function recording(agent: CodingAgentAdapter): { agent: CodingAgentAdapter; steps: StepRequest[] } {
  const steps: StepRequest[] = [];
  return {
    steps,
    agent: {
      name: agent.name,
      async startSession(ws) {
        const session = await agent.startSession(ws);
        return {
          sessionId: session.sessionId,
          runStep: (request) => {
            steps.push(request);
            return session.runStep(request);
          },
          close: () => session.close(),
        };
      },
    },
  };
}

describe("runWitnessEval with control agents", () => {
  it("accepts the replayed construction witness in both settings", async () => {
    const { agent, steps } = recording(replayWitnessAgent(build));
    const s = await evaluate(agent);
    expect(s).toMatchObject({
      agent: "control:replay",
      cases: 1,
      ran: 2,
      resumed: 0,
      errors: [],
      results: 2,
      successes: 2,
    });
    expect(s.bySetting).toEqual({
      NoEC: { total: 1, success: 1, rate: 1 },
      WithEC: { total: 1, success: 1, rate: 1 },
    });
    const [noEC, withEC] = results(s.outDir);
    expect(noEC).toMatchObject({
      caseId,
      setting: "NoEC",
      success: true,
      attempts: 1,
      witness: ["test/replay-sum.test.js"],
    });
    expect(noEC).toMatchObject({
      bugType: "in-bounds-misrouting",
      category: "logic",
      bucket: "short",
      depth: 0,
    });
    expect(withEC).toMatchObject({ setting: "WithEC", success: true });
    const a = attempts(s.outDir)[0]!;
    expect(a).toMatchObject({
      status: "accepted",
      agentStatus: "ok",
      changed: [{ path: "test/replay-sum.test.js", kind: "added" }],
    });
    expect(a.validation?.command).toEqual([process.execPath, "--test", "test/replay-sum.test.js"]);
    const saved = path.join(s.outDir, "witnesses", caseId, "NoEC", "attempt-1", "test/replay-sum.test.js");
    expect(readFileSync(saved, "utf8")).toBe(WITNESS_TEST);
    // The prompts: the case id for the agent, the context only in WithEC, never the witness.
    expect(steps.map((r) => r.caseId)).toEqual([caseId, caseId]);
    expect(steps[0]!.prompt).toContain("Location: src/sum.js:2, in function `sum`");
    expect(steps[0]!.prompt).toContain(`${process.execPath} --test test/witness.test.js`);
    expect(steps[0]!.prompt).not.toContain("Execution context");
    expect(steps[1]!.prompt).toContain("1. src/sum.js:1 sum (called 1 time)");
    for (const r of steps) expect(r.prompt).not.toContain("sum.test.js");
  });

  it("rejects a witness that comes with an edit to production code", async () => {
    const s = await evaluate(tamperingAgent(build), { settings: ["NoEC"] });
    expect(results(s.outDir)).toMatchObject([
      { success: false, reason: "edited production code: src/sum.js" },
    ]);
    expect(attempts(s.outDir)[0]).toMatchObject({
      status: "edited-production",
      audit: { productionEdits: ["src/sum.js"] },
    });
    expect(attempts(s.outDir)[0]!.validation).toBeUndefined();
  });

  it("rejects a test that fails everywhere, on its clean run", async () => {
    const s = await evaluate(alwaysFailingAgent(), { settings: ["NoEC"] });
    expect(results(s.outDir)).toMatchObject([
      { success: false, reason: "fails on clean code too (assertion)" },
    ]);
    expect(attempts(s.outDir)[0]).toMatchObject({ status: "not-a-witness" });
  });

  it("rejects an agent that writes no test", async () => {
    const s = await evaluate(idleAgent(), { settings: ["NoEC"] });
    expect(results(s.outDir)).toMatchObject([{ success: false, reason: "no test file was written" }]);
    expect(s.successes).toBe(0);
  });

  it("makes three attempts by default, each rejection fed back in the same session", async () => {
    const { agent, steps } = recording(alwaysFailingAgent());
    const s = await evaluate(agent, { settings: ["NoEC"], attempts: undefined });
    expect(steps.map((r) => r.stepId)).toEqual(["S01", "S02", "S03"]);
    expect(steps[1]!.prompt).toContain(
      "Your witness (attempt 1 of 3) was not accepted: fails on clean code too (assertion).",
    );
    expect(steps[2]!.prompt).toContain("You have 1 attempt left.");
    expect(attempts(s.outDir).map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(results(s.outDir)).toMatchObject([{ success: false, attempts: 3 }]);
  });

  it("resumes: a second run over the same results folder makes no new attempt", async () => {
    const first = await evaluate(idleAgent());
    const { agent, steps } = recording(idleAgent());
    const again = await runWitnessEval({
      buildDir: build,
      outDir: first.outDir,
      agent,
      repeats: 2,
      attempts: 1,
      resolveProject: async () => ({ commandFor: nodeTest }),
    });
    expect(steps).toEqual([]);
    expect(again).toMatchObject({ ran: 0, resumed: 2, results: 2, successes: 0 });
    expect(attempts(first.outDir)).toHaveLength(2);
    expect(results(first.outDir)).toHaveLength(2);
  });

  it("records an agent that errors, and goes on", async () => {
    const broken: CodingAgentAdapter = {
      name: "broken",
      async startSession() {
        return {
          sessionId: undefined,
          runStep: async () => {
            throw new Error("boom");
          },
          close: async () => undefined,
        };
      },
    };
    const s = await evaluate(broken, { settings: ["NoEC"] });
    expect(attempts(s.outDir)[0]).toMatchObject({
      agentStatus: "error",
      agentError: "boom",
      status: "no-test",
    });
    expect(results(s.outDir)).toMatchObject([
      { success: false, reason: "no test file was written (agent error: boom)" },
    ]);
  });
});

/** An agent whose every step takes `ms` and runs `during` first; writes nothing. */
function slowAgent(ms: number, during: () => void = () => undefined): CodingAgentAdapter {
  return {
    name: "slow",
    async startSession() {
      return {
        sessionId: undefined,
        runStep: async () => {
          during();
          await new Promise((r) => setTimeout(r, ms));
          return {
            status: "ok",
            exitCode: 0,
            finalMessage: "",
            events: [],
            durationMs: ms,
            usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.01 },
          };
        },
        close: async () => undefined,
      };
    },
  };
}

describe("runWitnessEval limits", () => {
  it("stops a case when its agent time is used up", async () => {
    const s = await evaluate(slowAgent(20), { settings: ["NoEC"], attempts: 3, caseTimeoutMs: 30 });
    expect(results(s.outDir)).toMatchObject([
      {
        attempts: 2,
        reason: "no test file was written; the case's time limit (30 ms) was reached after 2 attempts",
      },
    ]);
    expect(s.usage).toEqual({ inputTokens: 20, outputTokens: 4, costUsd: 0.02 });
  });

  it("records no result for a pair interrupted mid-step, so the next run does it again", async () => {
    const controller = new AbortController();
    const s = await evaluate(
      slowAgent(5, () => controller.abort()),
      { signal: controller.signal },
    );
    expect(s).toMatchObject({ ran: 0, interrupted: true, results: 0 });
    expect(attempts(s.outDir)).toMatchObject([{ status: "aborted", setting: "NoEC" }]);
    expect(existsSync(path.join(s.outDir, "results.jsonl"))).toBe(false);
  });
});

describe("the attempt audit", () => {
  const delta = (p: string, kind: "added" | "modified" | "deleted" = "added") => ({
    path: p,
    kind,
    binary: false,
  });

  it("sorts changes into witness files, production edits, deleted tests and byproducts", () => {
    expect(
      auditChanges([
        delta("test/a.test.js"),
        delta("test/helpers/make.js"),
        delta("test/data.json"),
        delta("test/old.test.js", "deleted"),
        delta("src/sum.js", "modified"),
        delta("npm-debug.log"),
        delta("README.md", "deleted"),
      ]),
    ).toEqual({
      witnessFiles: ["test/a.test.js", "test/data.json", "test/helpers/make.js"],
      testFiles: ["test/a.test.js", "test/helpers/make.js"],
      productionEdits: ["README.md", "src/sum.js"],
      deletedTests: ["test/old.test.js"],
      ignored: ["npm-debug.log"],
    });
  });

  it("flags a witness that reads the buggy file as text", () => {
    const text = 'import { readFileSync } from "node:fs";\nconst src = readFileSync("src/sum.js", "utf8");\n';
    expect(sourceReadingReason("test/w.test.js", text, "src/sum.js")).toBe(
      "test/w.test.js reads src/sum.js as text; a witness must exercise the code, not inspect its source",
    );
    expect(sourceReadingReason("test/w.test.js", WITNESS_TEST, "src/sum.js")).toBeUndefined();
  });
});
