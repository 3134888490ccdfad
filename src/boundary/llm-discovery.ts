import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { clip, personaLines, STOP_TOKEN, transcript, userMessage } from "./llm-prompt.ts";
import { DEFAULT_WARMUP, type WarmupSchedule } from "./planner.ts";
import {
  type Driver,
  type Facts,
  Phase,
  type Planner,
  type RoundPlan,
  type SessionTrace,
  type Turn,
} from "./types.ts";

/**
 * The `llm` engines of phase-guided discovery (AgentEval §III-A): the planner picks what each round explores,
 * the driver plays the customer one plain message at a time. The warm-up schedule is the rules planner's
 * ({@link WarmupSchedule}); the prompt pieces shared with the runner are in `llm-prompt.ts`.
 */

/** Default objective and strategy of each warm-up phase (AgentEval §III-A). */
export const PHASE_DEFAULTS: Readonly<
  Record<Exclude<Phase, "free">, { objective: string; strategy: string }>
> = {
  capability: {
    objective: "Find out what the agent can do for a customer and which inputs each service needs.",
    strategy: "Ask what it can help with; for each service it names, ask what it needs; complete no action.",
  },
  happy_path: {
    objective: "Carry one ordinary request through to completion.",
    strategy: "Pick one service it offers, give the values it asks for from your facts, confirm when asked.",
  },
  consistency: {
    objective:
      "Repeat an earlier request and see whether the agent asks for the same things and ends the same way.",
    strategy:
      "Send the earlier request verbatim or lightly rephrased, give the same values, follow it to its end.",
  },
};

/**
 * The warm-up phase of a 0-based round (the schedule's phases in order: capability, happy path, consistency),
 * or undefined once the warm-up is over.
 */
export function warmupPhase(round: number, warmup: WarmupSchedule): Phase | undefined {
  const order = [
    ["capability", warmup.capability],
    ["happy_path", warmup.happyPath],
    ["consistency", warmup.consistency],
  ] as const;
  let end = 0;
  for (const [phase, rounds] of order) {
    end += rounds;
    if (round < end) return phase;
  }
  return undefined;
}

/** What the planner model answers (a {@link RoundPlan}; the persona index is wrapped into range). */
export const PlanDraft = z
  .object({
    phase: Phase.describe("Kind of exploration: capability, happy_path, consistency or free."),
    objective: z.string().min(1).describe("The goal the session should reach."),
    strategy: z.string().min(1).describe("A short tactical plan for the driver."),
    persona: z.number().int().nonnegative().describe("Index of the persona the driver plays."),
    request: z.string().min(1).optional().describe("The first user message, when you want it fixed."),
  })
  .describe("The plan of one discovery round (AgentEval §III-A).");

const PLANNER_SYSTEM = [
  "You plan the exploration of a customer-service chat agent seen only through its replies (AgentEval §III-A).",
  "Each round is one fresh session of a few turns, run by a driver playing a customer from the facts given.",
  "Read which phases are covered and what earlier sessions did, then choose a behaviour not yet well",
  "represented: a service never completed, a request never tried, an input never given, a refusal or a",
  "confirmation never seen. Phases: capability (what it can do and needs), happy_path (one workflow to its end),",
  "consistency (repeat an earlier request), free (anything else). Give the objective and a short strategy,",
  "and the persona to play. Answer only with the JSON object asked for.",
].join("\n");

const DRIVER_SYSTEM = [
  "You play a customer chatting with a customer-service agent, to explore its workflow (AgentEval §III-A).",
  "Write only your next message: plain text as a customer types it, no quotes, no labels, no narration.",
  "Give only values from your facts or from the agent's own replies; never invent an identifier, name, date or",
  "amount. If the agent asks for something your facts lack, say you do not have it.",
  `When the objective is met, the agent closed the conversation, or you cannot progress, answer exactly ${STOP_TOKEN}.`,
].join("\n");

/** Earlier traces the planner sees (the most recent ones). */
const MAX_TRACES_SHOWN = 30;

/** One line per earlier trace: id, phase, length, stop reason, objective, first message, last reply. */
function traceSummaries(traces: readonly SessionTrace[]): string[] {
  const shown = traces.slice(-MAX_TRACES_SHOWN);
  const lines = shown.map((t) => {
    const first = t.turns[0]?.user ?? "";
    const last = t.turns.at(-1)?.reply ?? "";
    return (
      `- ${t.id} [${t.plan.phase}, persona ${t.plan.persona}, ${t.turns.length} turns, stop ${t.stop}] ` +
      `objective: ${clip(t.plan.objective, 120)} | first user: "${clip(first, 120)}" | last agent: "${clip(last, 160)}"`
    );
  });
  if (traces.length > shown.length) lines.unshift(`(${traces.length - shown.length} older traces omitted)`);
  return lines;
}

/** The planner's prompt for a round after the warm-up (exported for tests and cache-key stability). */
export function plannerPrompt(context: {
  round: number;
  traces: readonly SessionTrace[];
  facts: Facts;
}): string {
  const { round, traces, facts } = context;
  const covered = new Map<string, number>();
  for (const t of traces) covered.set(t.plan.phase, (covered.get(t.plan.phase) ?? 0) + 1);
  return [
    `Round ${round}. Phases covered so far: ${[...covered].map(([p, n]) => `${p}×${n}`).join(", ") || "none"}.`,
    "",
    `Earlier sessions (${traces.length}):`,
    ...(traces.length ? traceSummaries(traces) : ["(none)"]),
    "",
    `Personas (${facts.personas.length}): ${facts.personas.map((p, i) => `${i}: ${Object.keys(p).join(", ")}`).join("; ")}`,
    `Requests to try besides the agent's own offers: ${facts.requests.join(" | ") || "none"}`,
  ].join("\n");
}

/** The plan of a warm-up round: the phase default, personas in turn, a fixed request where one is known. */
function warmupPlan(
  phase: Exclude<Phase, "free">,
  round: number,
  traces: readonly SessionTrace[],
  facts: Facts,
) {
  const persona = round % facts.personas.length;
  let request: string | undefined;
  if (phase === "happy_path" && facts.requests.length)
    request =
      facts.requests[traces.filter((t) => t.plan.phase === "happy_path").length % facts.requests.length];
  if (phase === "consistency")
    request = traces.findLast((t) => t.plan.phase === "happy_path" && t.turns.length)?.turns[0]?.user;
  return { phase, ...PHASE_DEFAULTS[phase], persona, ...(request ? { request } : {}) } satisfies RoundPlan;
}

/**
 * An `llm` planner (AgentEval §III-A). Warm-up rounds (by `options.warmup`, default {@link DEFAULT_WARMUP})
 * get the phase defaults without a model call; later rounds ask the model, reading the phases covered and one
 * summary line per earlier trace. The persona index is wrapped into the facts' range.
 * @param client the model client of the `planner` role
 * @throws (from `plan`) StoppedError when the model budget is spent; ModelOutputError when no reply is valid
 */
export function llmPlanner(client: ModelClient, options: { warmup?: WarmupSchedule } = {}): Planner {
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  return {
    async plan(context) {
      const { round, traces, facts } = context;
      const phase = warmupPhase(round, warmup);
      if (phase && phase !== "free") return warmupPlan(phase, round, traces, facts);
      const draft = await client.generateObject("planner", {
        system: PLANNER_SYSTEM,
        prompt: plannerPrompt(context),
        schema: PlanDraft,
        schemaName: "round_plan",
      });
      return { ...draft, persona: draft.persona % facts.personas.length };
    },
  };
}

/** The driver's prompt for the next turn (exported for tests and cache-key stability). */
export function driverPrompt(context: { plan: RoundPlan; turns: readonly Turn[]; facts: Facts }): string {
  const { plan, turns, facts } = context;
  const persona = facts.personas[plan.persona % facts.personas.length] ?? {};
  return [
    `Phase: ${plan.phase}`,
    `Objective: ${plan.objective}`,
    `Strategy: ${plan.strategy}`,
    ...(plan.request ? [`Opening request: ${plan.request}`] : []),
    "",
    "Your facts (slot: values) — the only identifiers you may give:",
    ...personaLines(persona),
    ...(facts.requests.length ? [`Other requests you may make: ${facts.requests.join(" | ")}`] : []),
    "",
    `Conversation so far (${turns.length} turns):`,
    transcript(turns),
    "",
    `Write your next message, or ${STOP_TOKEN}.`,
  ].join("\n");
}

/**
 * An `llm` driver (AgentEval §III-A): one plain user message per turn, or undefined when the model answers
 * {@link STOP_TOKEN}. The plan's fixed `request` opens the session verbatim, without a model call.
 * @param client the model client of the `driver` role
 * @throws (from `next`) StoppedError when the model budget is spent; ModelCallError when the call fails
 */
export function llmDriver(client: ModelClient): Driver {
  return {
    async next(context) {
      if (context.turns.length === 0 && context.plan.request) return context.plan.request;
      const reply = await client.generateText("driver", {
        system: DRIVER_SYSTEM,
        prompt: driverPrompt(context),
      });
      return userMessage(reply);
    },
  };
}
