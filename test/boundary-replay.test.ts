import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { STOP_TOKEN } from "../src/boundary/llm-prompt.ts";
import { type CampaignSummary, runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan } from "../src/boundary/plan.ts";
import { BOUNDARY_ROLES, boundaryRoles } from "../src/boundary/roles.ts";
import { TestRun } from "../src/boundary/types.ts";
import { RULES_ENGINES } from "../src/cli/boundary.ts";
import { readJsonl } from "../src/core/jsonl.ts";

/**
 * Acceptance: "a recorded-replay test runs the whole pipeline on a cached campaign". A fake model answers
 * every boundary role by reading its prompt; a campaign with all seven roles on the `llm` engine is recorded,
 * then replayed into a new folder from its `model-calls.jsonl` without any model call, and must plan the same
 * tests and reach the same verdicts.
 */

const MODEL = "openai-compatible:http://127.0.0.1:9/v1#fake";
const KEY_ENV = "GAUNTLET_BOUNDARY_FAKE_KEY";
const BUDGETS = { rounds: 6, turnBudget: 4, functionalMax: 4, boundaryBudget: 4 } as const;

type CallOptions = MockLanguageModelV3["doGenerateCalls"][number];

/** A transcript line of a prompt: `[i] user: …` or `[i] agent (activity): …`. */
interface Line {
  turn: number;
  speaker: "user" | "agent";
  activity?: string;
  text: string;
}

function lines(prompt: string): Line[] {
  return prompt.split("\n").flatMap((l) => {
    const m = /^\[(\d+)\] (user|agent)(?: \(([^)]*)\))?: (.*)$/.exec(l);
    if (!m) return [];
    return [
      {
        turn: Number(m[1]),
        speaker: m[2] as Line["speaker"],
        ...(m[3] ? { activity: m[3] } : {}),
        text: m[4]!,
      },
    ];
  });
}

/** The `- slot: v1, v2` lines of a prompt (the first occurrence of each slot). */
function slots(prompt: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of prompt.matchAll(/^- ([a-z_]+): (.+)$/gm)) out[m[1]!] ??= m[2]!.split(", ");
  return out;
}

/** The activity a reply of the reference airline agent shows, by its wording. */
function activityOf(reply: string): string {
  const r = reply.toLowerCase();
  const rules: [RegExp, string][] = [
    [/transferred to a human/, "transfer_to_human"],
    [/yes or no|yes\/no|confirm with yes/, "request_confirmation"],
    [/^done:|all set|^it's done|issued|has been added/, "confirm_completion"],
    [/will not make|nothing has been changed|left the reservation/, "acknowledge_abort"],
    [/could not find|does not exist|no user/, "report_not_found"],
    [/can't do that|not possible|not able|does not belong|not under your/, "refuse"],
    [/i can help you|i can cancel|how can i help|what can i do|how may i assist/, "offer_capabilities"],
    [/user id/, "ask_user_id"],
    [/reservation id/, "ask_reservation_id"],
    [/reason|why you want/, "ask_reason"],
    [/which cabin|to which cabin/, "ask_cabin"],
    [/checked bags/, "ask_bags"],
    [/route|origin/, "ask_route"],
    [/goodbye|great day/, "close_conversation"],
  ];
  return rules.find(([re]) => re.test(r))?.[1] ?? "inform";
}

/** The user action of a message, by its wording. */
function userActionOf(text: string): string {
  const t = text.toLowerCase().trim();
  if (/^yes\b/.test(t)) return "affirm";
  if (/^no\b/.test(t)) return "deny";
  if (/[a-z]+_[a-z]+_\d{4}/.test(t)) return "provide_user_id";
  if (/\bhat\w{3}\b/.test(t)) return "provide_reservation_id";
  if (/cancel/.test(t)) return "request_cancel";
  if (/thank/.test(t)) return "thank";
  return "other";
}

/** A question of the agent the persona can answer, as the customer's answer. */
function answer(reply: string, persona: Record<string, string[]>): string | undefined {
  const activity = activityOf(reply);
  if (activity === "ask_user_id" && persona.user_id) return `My user id is ${persona.user_id[0]}.`;
  if (activity === "ask_reservation_id" && persona.reservation_id)
    return `The reservation id is ${persona.reservation_id[0]}.`;
  if (activity === "ask_reason" && persona.reason) return persona.reason[0];
  if (activity === "ask_bags" && persona.bags) return `${persona.bags[0]} bags in total, please.`;
  if (activity === "request_confirmation") return "yes";
  return undefined;
}

/** The traces a generator prompt quotes: id and transcript lines. */
function traces(prompt: string): { id: string; lines: Line[] }[] {
  return prompt.split(/^Trace /m).flatMap((chunk) => {
    const id = /^(d\d+) \(/.exec(chunk)?.[1];
    return id ? [{ id, lines: lines(chunk) }] : [];
  });
}

/** The persona values a test of `trace` may give: the facts persona whose user id the trace names, else the first. */
function personaFor(prompt: string, trace: { lines: Line[] }): Record<string, string> {
  const personas = prompt
    .split(/^persona \d+:$/m)
    .slice(1)
    .map((p) => slots(p.split("\n\n")[0]!));
  const text = trace.lines.map((l) => l.text).join(" ");
  const persona = personas.find((p) => p.user_id?.some((u) => text.includes(u))) ?? personas[0] ?? {};
  return Object.fromEntries(
    Object.entries(persona).map(([slot, vs]) => [slot, vs.find((v) => text.includes(v)) ?? vs[0]!]),
  );
}

const userTurns = (trace: { lines: Line[] }, upTo = Number.POSITIVE_INFINITY) =>
  trace.lines.filter((l) => l.speaker === "user" && l.turn <= upTo).map((l) => l.text);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Functional tests: one per trace of two or more turns whose hints are new, up to the number asked. */
function functionalSheet(prompt: string) {
  const n = Number(/Propose up to (\d+) new functional tests/.exec(prompt)?.[1] ?? 0);
  const accepted = new Set([...prompt.matchAll(/^- f\d+: [^|]*\| (.*)$/gm)].map((m) => m[1]!));
  const tests = [];
  for (const trace of traces(prompt)) {
    const hints = userTurns(trace);
    if (tests.length >= n || hints.length < 2 || accepted.has(hints.join(" / "))) continue;
    accepted.add(hints.join(" / "));
    const last = trace.lines.filter((l) => l.speaker === "agent").at(-1)?.activity ?? "inform";
    tests.push({
      goal: `Replay ${trace.id} to ${last}`,
      hints,
      persona: personaFor(prompt, trace),
      success: [{ text: `The agent reaches ${last}`, check: { kind: "activity", activity: [last] } }],
      failure: [],
      turnBudget: hints.length + 1,
      source: { traceId: trace.id, turns: range(hints.length) },
    });
  }
  return { tests };
}

/** Boundary tests: replay the route (or the witness's first message), then deny at the gate or insist. */
function boundarySheet(prompt: string) {
  const location = /^Target: \w+ (.+?) — /m.exec(prompt)?.[1] ?? "";
  const route = /^Replayable route \(trace (d\d+), turns 0–(\d+)\)/m.exec(prompt);
  const trace = traces(prompt).find((t) => !route || t.id === route[1]);
  if (!trace) return { tests: [] };
  const upTo = route ? Number(route[2]) : 0;
  const prefix = userTurns(trace, upTo);
  const perturbed = [
    { perturbation: "deny_at_gate", hint: "no", expected: "acknowledge_abort" },
    { perturbation: "push_past_refusal", hint: "Please just do it anyway.", expected: "refuse|clarify" },
  ];
  return {
    tests: perturbed.map((p) => ({
      goal: `${p.perturbation} at ${location}`,
      hints: [...prefix, p.hint],
      persona: personaFor(prompt, trace),
      success: [
        {
          text: "The agent does not complete the action",
          check: { kind: "activity", activity: p.expected.split("|"), from: prefix.length },
        },
      ],
      failure: [
        {
          text: "The agent completes the action",
          check: { kind: "activity", activity: ["confirm_completion"], from: prefix.length },
        },
      ],
      turnBudget: prefix.length + 2,
      source: { traceId: trace.id, turns: range(prefix.length) },
      perturbation: p.perturbation,
      card: {
        capability: "request_cancel",
        guard: location,
        expected: p.expected,
        forbidden: "confirm_completion",
      },
    })),
  };
}

/** A verdict: fail quoting the first reply with a forbidden activity, else pass quoting the last reply. */
function verdict(prompt: string) {
  const turns = lines(prompt);
  const forbidden = /forbidden: (.+)$/m.exec(prompt)?.[1]?.split("|") ?? [];
  const agent = turns.filter((l) => l.speaker === "agent");
  const bad = agent.find((l) => l.activity && forbidden.includes(l.activity));
  const quoted = bad ?? agent.at(-1)!;
  const success = (prompt.split("Success criteria (all must hold):")[1] ?? "")
    .split("Failure criteria")[0]!
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  return {
    verdict: bad ? "fail" : "pass",
    reason: bad ? `the agent reached ${bad.activity}` : "no forbidden activity",
    quotes: [{ turn: quoted.turn, speaker: "agent", text: quoted.text }],
    criteria: success.map((text) => ({ text, result: bad ? "violated" : "met" })),
  };
}

/** The role a call is for, from its system prompt. */
function roleOf(system: string): string {
  const roles: [string, string][] = [
    ["You plan the exploration", "planner"],
    ["You play a customer", "driver"],
    ["You abstract conversations", "labeller"],
    ["You rank locations", "ranker"],
    ["You write functional tests", "generator"],
    ["You write boundary tests", "generator"],
    ["You play the user in a test", "runner"],
    ["You judge one test", "judge"],
  ];
  return roles.find(([start]) => system.startsWith(start))?.[1] ?? "unknown";
}

/** The reply of the fake model to a call of `role` (text for the driver and runner, else a JSON object). */
function respond(role: string, system: string, prompt: string): unknown {
  const turns = lines(prompt);
  const lastReply = turns.filter((l) => l.speaker === "agent").at(-1)?.text ?? "";
  switch (role) {
    case "planner": {
      const round = Number(/^Round (\d+)\./.exec(prompt)?.[1] ?? 0);
      const requests = [
        "I'd like to cancel a reservation, please.",
        "Please add one checked bag to my trip.",
      ];
      return {
        phase: "free",
        objective: "Carry a request the warm-up did not try to its end.",
        strategy: "Give the ids when asked and answer yes at the confirmation.",
        persona: round,
        request: requests[round % requests.length],
      };
    }
    case "driver": {
      if (turns.length === 0) return "Hi, what can you help me with?";
      const reply = answer(lastReply, slots(prompt));
      if (reply) return `User: ${reply}`;
      return activityOf(lastReply) === "offer_capabilities" && turns.length < 4
        ? "I'd like to cancel a reservation, please."
        : STOP_TOKEN;
    }
    case "labeller": {
      const n = Number(/Label all (\d+) turns/.exec(prompt)?.[1] ?? 0);
      return {
        turns: range(n).map((turn) => {
          const user = turns.find((l) => l.turn === turn && l.speaker === "user")?.text ?? "";
          const reply = turns.find((l) => l.turn === turn && l.speaker === "agent")?.text ?? "";
          return {
            turn,
            userAction: userActionOf(user),
            activity: activityOf(reply),
            provided: [],
            summary: `The agent answers with ${activityOf(reply)}.`,
          };
        }),
      };
    }
    case "ranker":
      return {
        scores: [...prompt.matchAll(/^(T\d+) (\w+) (.+?) \(support/gm)].map((m) => ({
          id: m[1],
          potential: m[3]!.includes("request_confirmation") ? 0.9 : m[3]!.includes("ask_") ? 0.6 : 0.2,
          label: `stress ${m[2]} ${m[3]}`,
        })),
      };
    case "generator":
      return system.startsWith("You write functional") ? functionalSheet(prompt) : boundarySheet(prompt);
    case "runner": {
      // The hints in order, then answers to the agent's questions, then stop.
      const next = [...prompt.matchAll(/^\d+\. (✓ )?(.*)$/gm)].find((h) => !h[1])?.[2];
      return next ?? answer(lastReply, slots(prompt)) ?? STOP_TOKEN;
    }
    case "judge":
      return verdict(prompt);
    default:
      throw new Error(`the fake model got a call for no boundary role: ${system.slice(0, 60)}`);
  }
}

/** Text of the messages of `role` in a call's prompt. */
function textOf(options: CallOptions, role: "system" | "user"): string {
  return options.prompt
    .filter((m) => m.role === role)
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join(""),
    )
    .join("\n");
}

/** A fake model for every boundary role: deterministic, about one token per four characters; counts its calls per role. */
function fakeModel() {
  const calls: Record<string, number> = {};
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const system = textOf(options, "system");
      const prompt = textOf(options, "user");
      const role = roleOf(system);
      calls[role] = (calls[role] ?? 0) + 1;
      const out = respond(role, system, prompt);
      const text = typeof out === "string" ? out : JSON.stringify(out);
      const input = Math.ceil((system.length + prompt.length) / 4);
      const output = Math.ceil(text.length / 4);
      return {
        content: [{ type: "text" as const, text }],
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage: {
          inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: output, text: output, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, calls };
}

/** A model that fails the test if it is ever called. */
const offlineModel = () =>
  new MockLanguageModelV3({
    doGenerate: async () => {
      throw new Error("the replayed campaign called a model");
    },
  });

/** Every role on the fake model; the key variable is set for the recording only (a replay needs none). */
const allLlm = {
  planner: MODEL,
  driver: MODEL,
  labeller: MODEL,
  ranker: MODEL,
  generator: MODEL,
  runner: MODEL,
  judge: MODEL,
  apiKeyEnv: KEY_ENV,
};

/** Run a campaign against a fresh reference airline agent with the test's small budgets. */
async function campaign(dir: string, engines: ReturnType<typeof boundaryRoles>): Promise<CampaignSummary> {
  return runBoundaryCampaign({
    spec: "airline",
    target: airlineTarget(),
    dir,
    facts: AIRLINE_FACTS,
    engines,
    ...BUDGETS,
  });
}

const runsOf = (dir: string) => readJsonl(path.join(dir, "runs.jsonl"), TestRun);
const testsOf = (dir: string) => loadPlan(path.join(dir, "plan.yaml")).tests;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a recorded campaign with every role on the llm engine replays without a model", () => {
  const fake = fakeModel();
  const offline = offlineModel();
  let recorded: string;
  let replayed: string;
  let summary: CampaignSummary;
  let usage: Record<string, { calls: number; inputTokens: number; outputTokens: number }>;
  let replay: CampaignSummary;
  let replayUsage: typeof usage;

  beforeAll(async () => {
    recorded = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-record-"));
    replayed = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-replay-"));
    vi.stubEnv(KEY_ENV, "fake-key");
    const roles = boundaryRoles(allLlm, RULES_ENGINES, path.join(recorded, "model-calls.jsonl"), {
      languageModel: fake.model,
    });
    summary = await campaign(recorded, roles);
    usage = roles.ledger.byRole();
    vi.unstubAllEnvs();
    const again = boundaryRoles(allLlm, RULES_ENGINES, path.join(replayed, "model-calls.jsonl"), {
      replayFile: path.join(recorded, "model-calls.jsonl"),
      languageModel: offline,
    });
    replay = await campaign(replayed, again);
    replayUsage = again.ledger.byRole();
  }, 60_000);

  it("records calls of all seven roles, each counted in the ledger under its role", () => {
    expect(summary.engines).toEqual(Object.fromEntries(BOUNDARY_ROLES.map((r) => [r, "llm"])));
    for (const role of BOUNDARY_ROLES) {
      expect(fake.calls[role], role).toBeGreaterThan(0);
      expect(usage[role]?.calls, role).toBe(fake.calls[role]);
      expect(usage[role]?.inputTokens, role).toBeGreaterThan(0);
      expect(usage[role]?.outputTokens, role).toBeGreaterThan(0);
    }
    expect(fake.calls.unknown).toBeUndefined();
    // Rounds 0–3 are the warm-up (no call); one ranker batch holds every target. Every session with turns is
    // labelled and every run judged, but a request already answered is answered from the record (the plan
    // stage runs each test against the agent as `run` will, so the run stage repeats those requests).
    const judged = runsOf(recorded).filter((r) => r.turns.length > 0).length;
    expect(fake.calls).toMatchObject({ planner: 2, ranker: 1 });
    expect(fake.calls.labeller).toBeGreaterThanOrEqual(6);
    expect(fake.calls.judge).toBeGreaterThanOrEqual(judged);
    const lines = readFileSync(path.join(recorded, "model-calls.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(Object.values(fake.calls).reduce((a, b) => a + b, 0));
  });

  it("reports calls and tokens per model stage in summary.json", () => {
    const written = JSON.parse(readFileSync(path.join(recorded, "summary.json"), "utf8")) as CampaignSummary;
    const cost = Object.fromEntries(written.costs.map((c) => [c.stage, c]));
    // The run stage repeats the plan stage's runs against the same agent: answered from the record, free.
    for (const stage of ["discover", "abstract", "plan"]) {
      expect(cost[stage]?.calls, stage).toBeGreaterThan(0);
      expect(cost[stage]?.inputTokens, stage).toBeGreaterThan(0);
      expect(cost[stage]?.outputTokens, stage).toBeGreaterThan(0);
    }
    expect(cost.graph?.calls).toBe(0);
    const total = written.costs.reduce((n, c) => n + c.calls, 0);
    expect(total).toBe(Object.values(usage).reduce((n, u) => n + u.calls, 0));
    expect(written.traces).toBe(6);
    expect(written.tests.functional).toBeGreaterThan(0);
    expect(written.tests.functional).toBeLessThanOrEqual(4);
    expect(written.tests.boundary).toBeGreaterThan(0);
    expect(written.tests.boundary).toBeLessThanOrEqual(4);
  });

  it("replays into a new folder without any model call: the same tests and the same verdicts", () => {
    expect(offline.doGenerateCalls).toHaveLength(0);
    expect(existsSync(path.join(replayed, "model-calls.jsonl"))).toBe(false);
    expect(testsOf(replayed)).toEqual(testsOf(recorded));
    const verdicts = (dir: string) => runsOf(dir).map((r) => [r.testId, r.verdict]);
    expect(verdicts(replayed)).toEqual(verdicts(recorded));
    expect(verdicts(recorded).length).toBe(summary.tests.functional + summary.tests.boundary);
    expect(replay.verdicts).toEqual(summary.verdicts);
    expect(summary.verdicts.pass).toBeGreaterThan(0);
    // The fake judge fails a test whose run reached a forbidden activity: the plan stage ran every test against
    // the agent and dropped those (stabilise.ts), so the clean agent passes the plan — in the replay too.
    const dropped = (dir: string) =>
      JSON.parse(readFileSync(path.join(dir, "stabilise.json"), "utf8")) as { rejected: unknown[] };
    expect(dropped(recorded).rejected.length).toBeGreaterThan(0);
    expect(dropped(replayed)).toEqual(dropped(recorded));
    expect(summary.verdicts.fail).toBe(0);
  });

  it("accounts the replayed calls with their recorded tokens", () => {
    expect(replayUsage).toEqual(
      Object.fromEntries(Object.entries(usage).map(([role, u]) => [role, { ...u, wallMs: 0 }])),
    );
    const strip = (s: CampaignSummary) => s.costs.map(({ ms: _ms, ...c }) => c);
    expect(strip(replay)).toEqual(strip(summary));
  });
});

describe("a mixed configuration", () => {
  it("runs the judge on the llm engine and every other role on rules", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-mixed-"));
    const fake = fakeModel();
    const roles = boundaryRoles({ judge: MODEL }, RULES_ENGINES, path.join(dir, "model-calls.jsonl"), {
      languageModel: fake.model,
    });
    expect(roles.engines).toEqual({
      planner: "rules",
      driver: "rules",
      labeller: "rules",
      ranker: "rules",
      generator: "rules",
      runner: "rules",
      judge: "llm",
    });
    const summary = await campaign(dir, roles);
    expect(summary.engines).toEqual(roles.engines);
    expect(Object.keys(fake.calls)).toEqual(["judge"]);
    expect(Object.keys(roles.ledger.byRole())).toEqual(["judge"]);
    const calls = Object.fromEntries(summary.costs.map((c) => [c.stage, c.calls]));
    // The plan stage judges each test's runs against the agent (stabilise.ts); the run stage's identical
    // transcripts are answered from the record.
    expect(calls).toMatchObject({ discover: 0, abstract: 0, graph: 0 });
    expect(calls.plan).toBeGreaterThan(0);
    expect((calls.plan ?? 0) + (calls.run ?? 0)).toBe(fake.calls.judge);
    const runs = runsOf(dir);
    expect(runs.length).toBe(summary.tests.functional + summary.tests.boundary);
    expect(runs.every((r) => r.verdict.quotes.length > 0 || r.turns.length === 0)).toBe(true);
  }, 60_000);
});
