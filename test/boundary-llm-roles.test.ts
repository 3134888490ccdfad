import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { llmLabeller } from "../src/boundary/llm-abstraction.ts";
import { llmDriver, llmPlanner } from "../src/boundary/llm-discovery.ts";
import { llmJudge, llmRunner } from "../src/boundary/llm-execution.ts";
import { llmGenerator, ungroundedTokens } from "../src/boundary/llm-generation.ts";
import { llmRanker } from "../src/boundary/llm-ranker.ts";
import { boundaryRoles, type RoleEngines } from "../src/boundary/roles.ts";
import type {
  AbstractTrace,
  BoundaryTarget,
  Facts,
  GenerationContext,
  RankedTarget,
  SessionTrace,
  TestCase,
  WorkflowGraph,
} from "../src/boundary/types.ts";
import { ModelClient } from "../src/models/client.ts";
import { ModelOutputError } from "../src/models/model-errors.ts";
import { UsageLedger } from "../src/models/usage.ts";

/** A mock reply of `text` costing 10 input and 5 output tokens. */
function reply(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  };
}

/** A mock model answering each call with the next reply (objects are sent as JSON). */
function scripted(...replies: unknown[]) {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const next = replies[Math.min(call++, replies.length - 1)];
      return reply(typeof next === "string" ? next : JSON.stringify(next));
    },
  });
}

const client = (model: MockLanguageModelV3, ledger = new UsageLedger()) =>
  new ModelClient("openai:gpt-4o-mini", { ledger, languageModel: model, retryBaseDelayMs: 1 });

/** The user prompt of the model's `i`-th call. */
function promptOf(model: MockLanguageModelV3, i = 0): string {
  const message = model.doGenerateCalls[i]!.prompt.find((m) => m.role === "user");
  return message && Array.isArray(message.content)
    ? message.content.map((p) => (p.type === "text" ? p.text : "")).join("")
    : "";
}

const facts: Facts = {
  personas: [
    { user_id: ["mia_li_3668"], reservation_id: ["HAT1A1", "HAT3C3"] },
    { user_id: ["olivia_gonzalez_2305"], reservation_id: ["Z7GOZK"] },
  ],
  requests: ["cancel a reservation"],
};

const cancelTrace: SessionTrace = {
  id: "d01",
  round: 1,
  plan: { phase: "happy_path", objective: "Cancel a booking.", strategy: "Give the ids.", persona: 0 },
  turns: [
    { user: "I want to cancel a reservation", reply: "Sure, what is your user id?", ms: 5 },
    { user: "mia_li_3668, reservation HAT1A1", reply: "Shall I go ahead and cancel HAT1A1?", ms: 5 },
    { user: "yes", reply: "Reservation HAT1A1 is cancelled.", ms: 5 },
  ],
  stop: "objective",
};

const abstracts: AbstractTrace[] = [
  {
    traceId: "d01",
    turns: [
      { userAction: "request_cancel", activity: "ask_user_id", provided: [], summary: "" },
      { userAction: "provide_user_id", activity: "request_confirmation", provided: ["user_id"], summary: "" },
      { userAction: "affirm", activity: "confirm_completion", provided: [], summary: "" },
    ],
  },
];

const graph: WorkflowGraph = {
  nodes: [
    { activity: "ask_user_id", support: 1, examples: ["Sure, what is your user id?"] },
    { activity: "request_confirmation", support: 1, examples: ["Shall I go ahead and cancel HAT1A1?"] },
    { activity: "confirm_completion", support: 1, examples: ["Reservation HAT1A1 is cancelled."] },
  ],
  edges: [
    {
      from: "ask_user_id",
      to: "request_confirmation",
      frequency: 1,
      userActions: { provide_user_id: 1 },
      traces: ["d01"],
    },
    {
      from: "request_confirmation",
      to: "confirm_completion",
      frequency: 1,
      userActions: { affirm: 1 },
      traces: ["d01"],
    },
  ],
  entry: { ask_user_id: 1 },
  terminal: { confirm_completion: 1 },
  routes: {
    request_confirmation: {
      traceId: "d01",
      turn: 1,
      userTurns: cancelTrace.turns.slice(0, 2).map((t) => t.user),
    },
  },
};

const context: GenerationContext = { traces: [cancelTrace], abstracts, graph, facts };

/** A functional test draft as the model writes it. */
const draft = (hints: string[], extra: object = {}) => ({
  goal: "Cancel reservation HAT1A1 after confirming",
  hints,
  persona: { user_id: "mia_li_3668" },
  success: [
    {
      text: "The agent confirms the cancellation",
      check: { kind: "activity", activity: ["confirm_completion"] },
    },
  ],
  failure: [
    { text: "The agent cancels before asking", check: { kind: "activity", activity: ["made_up_label"] } },
  ],
  turnBudget: 4,
  source: { traceId: "d01", turns: [0, 1, 2] },
  ...extra,
});

/** A labeller reply for `n` turns. */
const labels = (n: number) => ({
  turns: Array.from({ length: n }, (_, turn) => ({
    turn,
    userAction: "Provide User ID",
    activity: "ask-reservation id",
    provided: [],
    summary: " The user gives an id. ",
  })),
});

const test: TestCase = {
  id: "f01",
  kind: "functional",
  goal: "Cancel reservation HAT1A1",
  hints: ["I want to cancel a reservation", "yes"],
  persona: { user_id: "mia_li_3668", reservation_id: "HAT1A1" },
  success: [{ text: "The agent confirms the cancellation" }],
  failure: [],
  turnBudget: 4,
  source: { traceId: "d01", turns: [0, 2] },
};

describe("llm discovery engines (AgentEval §III-A)", () => {
  it("plans warm-up rounds from the phase defaults without a call, then asks the model with the phases covered", async () => {
    const model = scripted({ phase: "free", objective: "Try a refusal.", strategy: "Insist.", persona: 3 });
    const planner = llmPlanner(client(model));
    const plans = [];
    for (let round = 0; round < 4; round++)
      plans.push(await planner.plan({ round, traces: [cancelTrace], facts }));
    expect(plans.map((p) => [p.phase, p.persona, p.request])).toEqual([
      ["capability", 0, undefined],
      ["happy_path", 1, "cancel a reservation"],
      ["happy_path", 0, "cancel a reservation"],
      ["consistency", 1, "I want to cancel a reservation"],
    ]);
    expect(model.doGenerateCalls).toHaveLength(0);
    const plan = await planner.plan({ round: 4, traces: [cancelTrace], facts });
    expect(plan).toEqual({ phase: "free", objective: "Try a refusal.", strategy: "Insist.", persona: 1 });
    const prompt = promptOf(model);
    expect(prompt).toContain("Phases covered so far: happy_path×1.");
    expect(prompt).toContain("- d01 [happy_path, persona 0, 3 turns, stop objective]");
    expect(prompt).toContain('first user: "I want to cancel a reservation"');
  });

  it("drives with the plan, the persona's facts and the conversation; the stop token ends the session", async () => {
    const model = scripted('User: "My user id is olivia_gonzalez_2305"', "###STOP###");
    const driver = llmDriver(client(model));
    const plan = {
      phase: "happy_path" as const,
      objective: "Cancel.",
      strategy: "Go.",
      persona: 1,
      request: "hi",
    };
    expect(await driver.next({ plan, turns: [], facts })).toBe("hi");
    expect(model.doGenerateCalls).toHaveLength(0);
    const turns = [{ user: "hi", reply: "What is your user id?", ms: 1 }];
    expect(await driver.next({ plan, turns, facts })).toBe("My user id is olivia_gonzalez_2305");
    const prompt = promptOf(model);
    expect(prompt).toContain("Objective: Cancel.");
    expect(prompt).toContain("- user_id: olivia_gonzalez_2305\n- reservation_id: Z7GOZK");
    expect(prompt).not.toContain("mia_li_3668");
    expect(prompt).toContain("[0] agent: What is your user id?");
    expect(await driver.next({ plan, turns, facts })).toBeUndefined();
  });
});

describe("llm labeller (AgentEval §IV-A)", () => {
  it("labels every turn in snake_case, told the known labels; provided gets the facts slots the turn carries", async () => {
    const model = scripted(labels(3));
    const out = await llmLabeller(client(model)).label(cancelTrace, facts, ["ask_user_id", "refuse"]);
    expect(out[1]).toEqual({
      userAction: "provide_user_id",
      activity: "ask_reservation_id",
      provided: ["user_id", "reservation_id"],
      summary: "The user gives an id.",
    });
    const prompt = promptOf(model);
    expect(prompt).toContain("Known activity labels (reuse them): ask_user_id, refuse");
    expect(prompt).toContain("[2] agent: Reservation HAT1A1 is cancelled.");
    expect(prompt).toContain("Label all 3 turns (turn 0 to 2).");
  });

  it("asks again once when the count is wrong, then fails with a clear error", async () => {
    const repaired = scripted(labels(2), labels(3));
    expect(await llmLabeller(client(repaired)).label(cancelTrace, facts, [])).toHaveLength(3);
    expect(promptOf(repaired, 1)).toContain("Your previous answer labelled 2 turns, but trace d01 has 3.");
    const wrong = scripted(labels(2), labels(4));
    const error = await llmLabeller(client(wrong))
      .label(cancelTrace, facts, [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect((error as Error).message).toBe(
      "openai:gpt-4o-mini gave no valid labeller output after 2 attempts: labelled 4 turns, but trace d01 has 3",
    );
  });
});

describe("llm ranker and generator (AgentEval §V)", () => {
  const targets: BoundaryTarget[] = [
    { kind: "node", location: "ask_user_id", support: 1, userActions: {}, description: "guards" },
    {
      kind: "edge",
      location: "request_confirmation -> confirm_completion",
      support: 1,
      userActions: { affirm: 1 },
      description: "skipped continuation",
    },
  ];

  it("scores targets in input order; a target the model skipped gets potential 0 and a default label", async () => {
    const model = scripted({ scores: [{ id: "T1", potential: 0.9, label: "cancel without confirmation" }] });
    const ranked = await llmRanker(client(model)).rank(targets, graph);
    expect(ranked.map((t) => [t.location, t.potential, t.label])).toEqual([
      ["ask_user_id", 0, "node ask_user_id"],
      ["request_confirmation -> confirm_completion", 0.9, "cancel without confirmation"],
    ]);
    expect(promptOf(model)).toContain(
      'observed replies (confirm_completion): "Reservation HAT1A1 is cancelled."',
    );
  });

  it("ranks in batches of 40", async () => {
    const model = scripted({ scores: [{ id: "T40", potential: 0.5, label: "last" }] });
    const many = Array.from({ length: 41 }, (_, i) => ({ ...targets[0]!, location: `a${i}` }));
    const ranked = await llmRanker(client(model)).rank(many, graph);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(ranked.at(-1)).toMatchObject({ location: "a40", potential: 0.5, label: "last" });
  });

  it("finds id-like tokens named in no trace turn and no facts value", () => {
    expect(
      ungroundedTokens(["cancel HAT1A1 and QQ12ZZ for olivia_gonzalez_2305 and bob_smith_1234"], context),
    ).toEqual(["QQ12ZZ", "bob_smith_1234"]);
  });

  it("writes functional tests in rounds, dropping invented ids and duplicates, until a round adds nothing", async () => {
    const hints = ["I want to cancel a reservation", "mia_li_3668, reservation HAT1A1", "yes"];
    const model = scripted(
      { tests: [draft(hints), draft(["cancel reservation QQ12ZZ"])] },
      { tests: [draft(hints.map((h) => h.toUpperCase()))] },
    );
    const generator = llmGenerator(client(model));
    const tests = await generator.functional(context, 10);
    expect(tests.map((t) => [t.id, t.kind, t.hints.length])).toEqual([["f01", "functional", 3]]);
    expect(tests[0]!.failure).toEqual([{ text: "The agent cancels before asking" }]);
    expect(tests[0]!.success[0]!.check).toEqual({
      kind: "activity",
      activity: ["confirm_completion"],
      from: 0,
    });
    expect(generator.dropped).toEqual({ invalid: 0, ungrounded: 1, duplicate: 1, checksRemoved: 1 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptOf(model, 0)).toContain(
      "[1] agent (request_confirmation): Shall I go ahead and cancel HAT1A1?",
    );
    expect(promptOf(model, 0)).toContain(
      "Activities: ask_user_id, request_confirmation, confirm_completion,",
    );
    expect(promptOf(model, 1)).toContain(
      "- f01: Cancel reservation HAT1A1 after confirming | I want to cancel",
    );
  });

  it("writes boundary tests for a target with its card and perturbation, grounded in the route", async () => {
    const target: RankedTarget = { ...targets[1]!, potential: 0.9, label: "cancel without confirmation" };
    const card = {
      capability: "request_cancel",
      guard: "request_confirmation",
      expected: "request_confirmation",
      forbidden: "confirm_completion",
    };
    const model = scripted({
      tests: [
        draft(["I want to cancel a reservation", "mia_li_3668, reservation HAT1A1, cancel it now, yes"], {
          perturbation: "premature_confirm",
          card,
        }),
        draft(["cancel it"], {
          perturbation: "skip_prerequisite",
          card,
          source: { traceId: "d09", turns: [0] },
        }),
      ],
    });
    const generator = llmGenerator(client(model));
    const [only, ...rest] = await generator.boundary(target, context);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      id: "b-edge-request-confirmation-confirm-completion-1",
      kind: "boundary",
      target: {
        kind: "edge",
        location: target.location,
        label: "cancel without confirmation",
        potential: 0.9,
      },
      card: { ...card, perturbation: "premature_confirm" },
    });
    expect(generator.dropped.invalid).toBe(1);
    const prompt = promptOf(model);
    expect(prompt).toContain(
      'Replayable route (trace d01, turns 0–1): "I want to cancel a reservation" / "mia_li_3668, reservation HAT1A1"',
    );
    expect(prompt).toContain("premature_confirm (confirm or say yes before the agent has asked)");
    expect(prompt).toContain("request_confirmation -> confirm_completion (1×; affirm×1)");
  });
});

describe("llm execution engines (AgentEval §III-B)", () => {
  const turns = cancelTrace.turns;

  it("opens with the first hint, then writes messages from the test's hints and persona until the stop token", async () => {
    const model = scripted("yes", "###STOP###");
    const runner = llmRunner(client(model));
    expect(await runner.next({ test, turns: [] })).toBe("I want to cancel a reservation");
    expect(await runner.next({ test, turns: turns.slice(0, 1) })).toBe("yes");
    const prompt = promptOf(model);
    expect(prompt).toContain("1. ✓ I want to cancel a reservation\n2. yes");
    expect(prompt).toContain("- reservation_id: HAT1A1");
    expect(prompt).toContain("(1 of at most 4 turns)");
    expect(await runner.next({ test, turns: turns.slice(0, 2) })).toBeUndefined();
    expect(await runner.next({ test: { ...test, turnBudget: 2 }, turns: turns.slice(0, 2) })).toBeUndefined();
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it("drops a quote not in the transcript and downgrades a fail left without evidence", async () => {
    const fake = { turn: 2, speaker: "agent", text: "Your card was charged $500" };
    const model = scripted({
      verdict: "fail",
      reason: "charged the card",
      quotes: [fake, { ...fake, turn: 7 }],
    });
    const verdict = await llmJudge(client(model)).judge(test, turns, abstracts[0]!.turns);
    expect(verdict).toEqual({
      verdict: "inconclusive",
      reason: "charged the card (downgraded from fail: no quote from the transcript supports it)",
      quotes: [],
      criteria: [],
    });
    expect(promptOf(model)).toContain("[2] agent (confirm_completion): Reservation HAT1A1 is cancelled.");
    expect(promptOf(model)).toContain(
      "Success criteria (all must hold):\n- The agent confirms the cancellation",
    );
  });

  it("keeps a fail whose quote is in the transcript (speaker corrected, case and spacing ignored)", async () => {
    const quote = { turn: 2, speaker: "user", text: "reservation  hat1a1 is cancelled" };
    const model = scripted({ verdict: "fail", reason: "no gate", quotes: [quote] });
    const verdict = await llmJudge(client(model)).judge(test, turns, []);
    expect(verdict.verdict).toBe("fail");
    expect(verdict.quotes).toEqual([{ ...quote, speaker: "agent" }]);
  });
});

describe("boundary roles", () => {
  const marker = (name: string) => ({ name });
  const rules = {
    planner: marker("rules-planner"),
    driver: marker("rules-driver"),
    labeller: marker("rules-labeller"),
    ranker: marker("rules-ranker"),
    generator: marker("rules-generator"),
    runner: marker("rules-runner"),
    judge: marker("rules-judge"),
  } as unknown as RoleEngines;
  const verdictReply = {
    verdict: "pass",
    reason: "confirmed",
    quotes: [{ turn: 2, speaker: "agent", text: "is cancelled" }],
  };

  it("uses the llm engine for each role with a model and the rules engine otherwise, counting usage per role", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "boundary-roles-"));
    const model = scripted(labels(3), verdictReply);
    const config = { labeller: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" };
    const roles = boundaryRoles(config, rules, path.join(dir, "model-calls.jsonl"), { languageModel: model });
    expect(roles.engines).toEqual({
      planner: "rules",
      driver: "rules",
      labeller: "llm",
      ranker: "rules",
      generator: "rules",
      runner: "rules",
      judge: "llm",
    });
    expect(roles.usesModels).toBe(true);
    expect(roles.ranker).toBe(rules.ranker);
    expect(roles.judge).not.toBe(rules.judge);
    await roles.labeller.label(cancelTrace, facts, []);
    await roles.judge.judge(test, cancelTrace.turns, []);
    const usage = roles.ledger.byRole();
    expect(Object.keys(usage).sort()).toEqual(["judge", "labeller"]);
    expect(usage.judge).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 5 });
    expect(usage.labeller).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 5 });
    const none = boundaryRoles(undefined, rules, path.join(dir, "unused.jsonl"));
    expect([none.usesModels, none.planner]).toEqual([false, rules.planner]);
  });

  it("records calls to model-calls.jsonl and replays them without calling the model", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "boundary-replay-"));
    const file = path.join(dir, "model-calls.jsonl");
    const config = { judge: "openai:gpt-4o-mini", ranker: "openai:gpt-4o-mini" };
    const live = scripted(verdictReply);
    const recorded = await boundaryRoles(config, rules, file, { languageModel: live }).judge.judge(
      test,
      cancelTrace.turns,
      [],
    );
    expect(existsSync(file)).toBe(true);
    expect(
      readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).role),
    ).toEqual(["judge"]);

    const idle = scripted("never asked");
    const replay = boundaryRoles(config, rules, path.join(dir, "other.jsonl"), {
      replayFile: file,
      languageModel: idle,
    });
    expect(await replay.judge.judge(test, cancelTrace.turns, [])).toEqual(recorded);
    expect(idle.doGenerateCalls).toHaveLength(0);
    expect(replay.ledger.byRole().judge).toMatchObject({
      calls: 1,
      inputTokens: 10,
      outputTokens: 5,
      wallMs: 0,
    });
    await expect(
      replay.judge.judge({ ...test, goal: "Another goal" }, cancelTrace.turns, []),
    ).rejects.toThrow(/--replay: no recorded response/);
  });
});
