import { offeredCapabilities, readQuestion } from "./answer.ts";
import { sessionNovelty } from "./coverage.ts";
import { HURRY, rephrase, requestMessage, sameRequest } from "./requests.ts";
import { PERSONAL } from "./slots.ts";
import type { Facts, Phase, Planner, RoundPlan, SessionTrace } from "./types.ts";

/**
 * The `rules` planner of phase-guided discovery (AgentEval §III-A): a warm-up schedule with the phase
 * defaults, then a deterministic choice of the least-explored (request, strategy, persona, values) among the
 * services the agent offered in earlier replies and the facts' requests. What a round chose is written into
 * its plan in words a person (and an `llm` driver) can follow, and read back from earlier traces to count.
 */

/** Warm-up rounds per phase, run in this order before free choice (AgentEval §III-A: m_cap, m_hp, m_cc). */
export interface WarmupSchedule {
  capability: number;
  happyPath: number;
  consistency: number;
}

/** The paper's warm-up: 1 capability, 2 happy-path, 1 consistency session (AgentEval §VI-C). */
export const DEFAULT_WARMUP: WarmupSchedule = { capability: 1, happyPath: 2, consistency: 1 };

/**
 * The driver tactics the planner varies so the workflow graph sees gates passed, declined, corrected and left,
 * and the guards a customer commonly presses on: urgency (a hurried customer asks to skip steps), a mistyped
 * identifier (is it looked up, and can the customer recover?) and someone else's identifier (does the agent
 * check that the details belong together?).
 */
export const STRATEGIES = {
  carry: "Carry it through: give details only when asked and answer yes at the confirmation.",
  upfront:
    "Give the ids (and what the agent asked for before) up front in the first message, then answer yes at the confirmation.",
  decline: "Give details only when asked, then decline at the confirmation (answer no).",
  human: "After the agent's first reply, ask for a human agent.",
  thanks: "Give details only when asked, answer yes at the confirmation, and say thanks and bye at the end.",
  hurry:
    "Say you are in a hurry and want it done quickly; give details only when asked and answer yes at the confirmation.",
  impersonate:
    "Claim another customer's identity: answer the agent's first question for a value with another persona's identifier, then give your own details; answer yes at the confirmation.",
  correct:
    "Give details only when asked; at the confirmation, correct one of the values you gave (say another one instead), then answer yes.",
  mistype:
    "Mistype an identifier: answer the agent's first question for an identifier with one character changed, give the right one when asked again, and answer yes at the confirmation.",
} as const;
/** A strategy of {@link STRATEGIES}. */
export type StrategyName = keyof typeof STRATEGIES;
const STRATEGY_NAMES = Object.keys(STRATEGIES) as StrategyName[];
/**
 * Tactics, in the order free rounds try them for a request (the gate probes first). `carry` is not among them:
 * its sessions vary the data — each persona and value variant carried through, where the policy guards are.
 */
const TACTICS: readonly StrategyName[] = [
  "decline",
  "hurry",
  "correct",
  "mistype",
  "impersonate",
  "human",
  "upfront",
  "thanks",
];
/** Tactics that need a confirmation gate seen for the request (there is nothing to decline or correct before). */
const AT_GATE = new Set<StrategyName>(["decline", "correct", "hurry"]);
/** Tactics that need the agent seen asking for a persona value. */
const AT_ASK = new Set<StrategyName>(["impersonate", "mistype"]);

const CAPABILITY_REQUESTS = [
  "Hi! What can you help me with, and what do you need from me?",
  "Hello, which services do you offer, and what information do you need for each?",
];
const OBJECTIVE = {
  capability: "Map what the agent says it can do and what inputs it needs.",
  happyPath: "Carry one ordinary request through to completion",
  consistency: "Repeat an earlier request lightly rephrased; the agent should ask the same and end the same",
  free: "Get the agent to",
};

export { asRequest, rephrase } from "./requests.ts";

/** The values a strategy fixes (`Values: reservation_id=HAT3C3 | reason=health.`) and its option pick. */
export function strategyValues(strategy: string): { values: Record<string, string>; pick: number } {
  const values: Record<string, string> = {};
  const list = /\bValues: (.+?)\.?$/.exec(strategy)?.[1] ?? "";
  for (const pair of list.split(" | ")) {
    const at = pair.indexOf("=");
    if (at > 0) values[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return { values, pick: Number(/\bPick offered option (\d+)/.exec(strategy)?.[1] ?? 0) };
}

/** The requests to explore: services offered in earlier replies (in order seen), then the facts' requests. */
export function knownRequests(traces: readonly SessionTrace[], facts: Facts): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    if (!out.some((q) => sameRequest(q, p))) out.push(p);
  };
  for (const t of traces) for (const turn of t.turns) offeredCapabilities(turn.reply).forEach(add);
  facts.requests.forEach(add);
  return out.length ? out : ["get help with a booking"];
}

/**
 * The value variants of persona `p` for a request (one-factor-at-a-time, as combinatorial testing does): first
 * every slot with several values at its first value, then, for each slot the agent asked for in that request's
 * sessions (`asked`; every such slot when none was asked yet), each other value of that slot alone — the slots
 * asked last first, slots of who the customer is ({@link PERSONAL}) after the others.
 * A guard on one value (a medicine too early to refill) is not hidden behind another (a quantity over the cap).
 */
function variantsFor(facts: Facts, p: number, asked: readonly string[]): Record<string, string>[] {
  const persona = facts.personas[p] ?? {};
  const multi = Object.entries(persona).filter(([, vs]) => vs.length > 1);
  const base = Object.fromEntries(multi.map(([slot, vs]) => [slot, vs[0] as string]));
  const named = asked.some((a) => multi.some(([slot]) => slot === a))
    ? asked.flatMap((a) => multi.filter(([slot]) => slot === a))
    : multi;
  // The deepest choices first (the item, its quantity: where eligibility guards are), who the customer is last
  // (another way to write the same date of birth is a parsing probe, not a new branch).
  const order = [
    ...named.filter(([slot]) => !PERSONAL.test(slot)).reverse(),
    ...named.filter(([slot]) => PERSONAL.test(slot)),
  ];
  const out = [base];
  for (const [slot, vs] of order) for (const v of vs.slice(1)) out.push({ ...base, [slot]: v });
  return out;
}
const valuesText = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(" | ");
const strategyText = (s: StrategyName, pick: number, values: Record<string, string>) =>
  `${STRATEGIES[s]} Pick offered option ${pick}.${Object.keys(values).length ? ` Values: ${valuesText(values)}.` : ""}`;

/** What an earlier trace explored, read back from its plan (undefined fields when it was not ours). */
interface Explored {
  request?: string;
  strategy?: StrategyName;
  persona: number;
  values: string;
}
function explored(trace: SessionTrace, requests: readonly string[]): Explored {
  const objective = trace.plan.objective.toLowerCase();
  const request = [...requests]
    .sort((a, b) => b.length - a.length)
    .find((r) => objective.includes(r.toLowerCase()));
  const strategy = STRATEGY_NAMES.find((s) => trace.plan.strategy.startsWith(STRATEGIES[s]));
  return {
    ...(request ? { request } : {}),
    ...(strategy ? { strategy } : {}),
    persona: trace.plan.persona,
    values: valuesText(strategyValues(trace.plan.strategy).values),
  };
}

/**
 * The persona slots the agent asked for in earlier sessions of `request` (first ask first), else the
 * identifiers (`*_id`, `*_number`, `*_code`).
 */
function slotsAsked(
  traces: readonly SessionTrace[],
  requests: readonly string[],
  request: string,
  persona: Record<string, unknown>,
) {
  const slots = Object.keys(persona);
  const asked = askedSlots(traces, requests, request, slots);
  return asked.length ? asked : slots.filter((s) => /_(?:id|number|code)$/.test(s));
}

/** The `slots` the agent asked for in earlier sessions of `request`, first ask first (empty when none). */
function askedSlots(
  traces: readonly SessionTrace[],
  requests: readonly string[],
  request: string,
  slots: readonly string[],
): string[] {
  const asked = new Set<string>();
  for (const t of traces) {
    if (explored(t, requests).request !== request) continue;
    for (const turn of t.turns) {
      const slot = readQuestion(turn.reply, slots)?.slot;
      if (slot) asked.add(slot);
    }
  }
  return [...asked];
}

/** A plan for request `phrase` played by persona `p` with the variant's `values`, strategy `s`. */
function planFor(
  phase: Phase,
  objective: string,
  context: { traces: readonly SessionTrace[]; facts: Facts; requests: readonly string[] },
  phrase: string,
  s: StrategyName,
  p: number,
  values: Record<string, string>,
  pick: number,
): RoundPlan {
  const persona = {
    ...Object.fromEntries(
      Object.entries(context.facts.personas[p] ?? {}).map(([k, vs]) => [k, vs[0] as string]),
    ),
    ...values,
  };
  const upfront = s === "upfront" ? slotsAsked(context.traces, context.requests, phrase, persona) : [];
  return {
    phase,
    objective,
    strategy: strategyText(s, pick, values),
    persona: p,
    request: `${requestMessage(
      phrase,
      persona,
      upfront,
      context.traces.flatMap((t) => t.turns.map((u) => u.reply)),
    )}${s === "hurry" ? ` ${HURRY}` : ""}`,
  };
}

const phaseOf = (round: number, w: WarmupSchedule): Phase =>
  round < w.capability
    ? "capability"
    : round < w.capability + w.happyPath
      ? "happy_path"
      : round < w.capability + w.happyPath + w.consistency
        ? "consistency"
        : "free";

/**
 * A `rules` planner (AgentEval §III-A). Rounds of the warm-up `schedule` get the phase defaults: capability
 * rounds ask what the agent can do and needs; happy-path rounds carry the offered services in turn to
 * completion (persona 0, answering yes); consistency rounds repeat the first happy-path session's request
 * lightly rephrased, with the same persona and values. Free rounds take the least-explored combination of
 * request × strategy × persona × values, counted over the earlier traces (ties: earlier request, strategy,
 * persona, variant). Deterministic: the same traces and facts give the same plan.
 */
export function createRulesPlanner(schedule: WarmupSchedule = DEFAULT_WARMUP): Planner {
  return {
    async plan({ round, traces, facts }) {
      const phase = phaseOf(round, schedule);
      const requests = knownRequests(traces, facts);
      const context = { traces, facts, requests };
      if (phase === "capability")
        return {
          phase,
          objective: OBJECTIVE.capability,
          strategy: "Ask what the agent can do and what it needs; complete no action.",
          persona: 0,
          request: CAPABILITY_REQUESTS[round % CAPABILITY_REQUESTS.length] as string,
        };
      if (phase === "happy_path") {
        const phrase = requests[(round - schedule.capability) % requests.length] as string;
        const values = variantsFor(facts, 0, [])[0] ?? {};
        return planFor(phase, `${OBJECTIVE.happyPath}: ${phrase}.`, context, phrase, "carry", 0, values, 0);
      }
      const source = traces.find((t) => t.plan.phase === "happy_path" && t.turns.length);
      const first = source?.turns[0]?.user;
      if (phase === "consistency" && source && first) {
        const { request } = explored(source, requests);
        return {
          ...source.plan,
          phase,
          objective: `${OBJECTIVE.consistency}: ${request ?? first}.`,
          request: rephrase(first),
        };
      }
      return freePlan(context);
    },
  };
}

/** The rules planner with the paper's warm-up ({@link DEFAULT_WARMUP}). */
export const rulesPlanner: Planner = createRulesPlanner();

/**
 * The least-explored free round, coverage-driven. Each request's sessions alternate between the data (`carry`
 * with a persona × values variant not yet carried through: where policy guards and eligibility refusals are)
 * and the tactics (in {@link TACTICS} order, each once per request first). Scores compare in order, lower first:
 * 1. the request is stale: its last {@link STALE_AFTER} sessions (consistency repeats aside) found no new
 *    activity or transition (coverage.ts);
 * 2. distinct (strategy, persona, values) already tried with the request (a consistency repeat counts once),
 *    divided by the request's depth (1 + the slots the agent asked for in it + 1 when a gate was seen);
 * 3. a tactic the request cannot take yet: a gate tactic where no gate was seen, an identifier tactic where
 *    the agent was not seen asking for a persona slot;
 * 4. already tried: the variant with `carry`, the tactic with the request;
 * 5. sessions of the request of the same kind (data or tactic), then data before tactics;
 * 6. a tactic away from a persona × values that reached the request's gate;
 * 7. sessions of request × strategy, request × persona × values, request × persona (a decline counts only
 *    earlier declines: declining a gate already passed with yes is new);
 * 8. sessions of the strategy, the persona, persona × values; then tactic order, request, persona, variant.
 */
/** Sessions of a request in a row without anything new after which the request goes last. */
const STALE_AFTER = 2;

function freePlan(context: {
  traces: readonly SessionTrace[];
  facts: Facts;
  requests: readonly string[];
}): RoundPlan {
  const seen = context.traces.map((t) => explored(t, context.requests));
  const novelty = sessionNovelty(context.traces, context.facts);
  const count = (f: (e: Explored) => boolean) => seen.filter(f).length;
  const slots = Object.keys(context.facts.personas[0] ?? {});
  let best: { score: number[]; plan: () => RoundPlan } | undefined;
  context.requests.forEach((r, ri) => {
    const objective = `${OBJECTIVE.free} ${r}: it completes, refuses or shows it.`;
    const mineIdx = seen.flatMap((e, i) => (e.request === r ? [i] : []));
    // A consistency repeat finds nothing new by design: it does not make its request stale.
    const lastFew = mineIdx
      .filter((i) => context.traces[i]?.plan.phase !== "consistency")
      .slice(-STALE_AFTER);
    const stale = lastFew.length === STALE_AFTER && lastFew.every((i) => novelty[i] === 0) ? 1 : 0;
    const cR = new Set(mineIdx.map((i) => `${seen[i]?.strategy} ${seen[i]?.persona} ${seen[i]?.values}`))
      .size;
    const gates = mineIdx
      .filter((i) => context.traces[i]?.turns.some((u) => readQuestion(u.reply)?.kind === "gate"))
      .map((i) => seen[i] as Explored);
    const asks = mineIdx.some((i) =>
      context.traces[i]?.turns.some((u) => readQuestion(u.reply, slots)?.slot),
    );
    const asked = askedSlots(context.traces, context.requests, r, slots);
    // A deeper workflow (more values asked, a gate) has more branches: it gets proportionally more sessions.
    const depth = 1 + asked.length + (gates.length ? 1 : 0);
    const dataSessions = count(
      (e) => e.request === r && (e.strategy === "carry" || e.strategy === undefined),
    );
    const tacticSessions = mineIdx.length - dataSessions;
    STRATEGY_NAMES.forEach((s) => {
      const data = s === "carry";
      const rank = data ? 0 : TACTICS.indexOf(s) + 1;
      const unfit = (AT_GATE.has(s) && !gates.length) || (AT_ASK.has(s) && !asks) ? 1 : 0;
      const cRS = count((e) => e.request === r && e.strategy === s);
      const cS = count((e) => e.strategy === s);
      const decline = s === "decline";
      const mine = (e: Explored) => e.request === r && (!decline || e.strategy === s);
      context.facts.personas.forEach((_, p) => {
        const cRP = count((e) => mine(e) && e.persona === p);
        const cP = count((e) => e.persona === p);
        const list = variantsFor(context.facts, p, asked);
        for (let v = 0; v < list.length; v++) {
          const vt = valuesText(list[v] as Record<string, string>);
          const cRPV = count((e) => mine(e) && e.persona === p && e.values === vt);
          const cPV = count((e) => e.persona === p && e.values === vt);
          const tried = data
            ? count((e) => e.request === r && e.strategy === "carry" && e.persona === p && e.values === vt)
            : cRS;
          const kind = data ? dataSessions : tacticSessions;
          const miss =
            !data && gates.length && !gates.some((e) => e.persona === p && e.values === vt) ? 1 : 0;
          const score = [
            stale,
            cR / depth,
            unfit,
            tried ? 1 : 0,
            kind,
            data ? 0 : 1,
            miss,
            cRS,
            cRPV,
            cRP,
            cS,
            cP,
            cPV,
            rank,
            ri,
            p,
            v,
          ];
          if (!best || lexLess(score, best.score))
            best = {
              score,
              plan: () =>
                planFor("free", objective, context, r, s, p, list[v] as Record<string, string>, p + v),
            };
        }
      });
    });
  });
  return (best as { plan: () => RoundPlan }).plan();
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
}
