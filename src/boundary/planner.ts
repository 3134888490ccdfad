import { labelReply } from "./abstract.ts";
import { sessionNovelty } from "./coverage.ts";
import {
  askedSlots,
  type Explored,
  explored,
  exploredAll,
  questionsOf,
  type Requests,
  requestContext,
  signInSlots,
  slotsAsked,
  uncarried,
  untriedSlotTactics,
  untriedVariants,
} from "./explored.ts";
import { statedLimits } from "./limits.ts";
import { remedyOf, remedyRequest, TAKE_OFFER } from "./remedy.ts";
import { HURRY, rephrase, requestMessage } from "./requests.ts";
import { factSlotNames, IDENTITY, knownValues } from "./slots.ts";
import {
  AT_ASK,
  AT_CREDENTIAL,
  AT_GATE,
  AT_RANGE,
  foreignVariants,
  pastStated,
  rangeSlot,
  readRequestFor,
  readsOwnRecord,
  SHALLOW_TACTICS,
  SLOT_TACTICS,
  STRATEGY_NAMES,
  type StrategyName,
  strategyText,
  TACTICS,
  valuesText,
  variantsFor,
} from "./tactics.ts";
import { CUE, type Phase, type Planner, type RoundPlan, type SessionTrace } from "./types.ts";

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

export { knownRequests } from "./known-requests.ts";
export { asRequest, rephrase } from "./requests.ts";
export { STRATEGIES, type StrategyName, strategyValues } from "./tactics.ts";

/** A plan for request `phrase` played by persona `p` with the variant's `values`, strategy `s`. */
function planFor(
  phase: Phase,
  objective: string,
  context: Requests,
  phrase: string,
  s: StrategyName,
  p: number,
  values: Record<string, string>,
  pick: number,
  slot?: string,
  give?: string,
): RoundPlan {
  const persona = {
    ...Object.fromEntries(
      Object.entries(context.facts.personas[p] ?? {}).map(([k, vs]) => [k, vs[0] as string]),
    ),
    ...values,
  };
  const upfront = s === "upfront" ? slotsAsked(context, phrase, persona) : [];
  return {
    phase,
    objective,
    strategy: strategyText(s, pick, values, slot, give),
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
      const context = requestContext(traces, facts);
      const { requests } = context;
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
        const { request } = explored(source, context.all, context.alias);
        return {
          ...source.plan,
          phase,
          objective: `${OBJECTIVE.consistency}: ${request ?? first}.`,
          request: rephrase(first),
        };
      }
      return freePlan(context);
    },
    pending({ traces, facts }) {
      if (traces.length < schedule.capability + schedule.happyPath + schedule.consistency) return true;
      const context = requestContext(traces, facts);
      return uncarried(context) > 0 || untriedVariants(context) > 0 || untriedSlotTactics(context) > 0;
    },
  };
}

/** The rules planner with the paper's warm-up ({@link DEFAULT_WARMUP}). */
export const rulesPlanner: Planner = createRulesPlanner();

/** Gate tactics that need a completed write, not a gate to answer: the write made again, or read back. */
const WRITE_TACTICS = new Set<StrategyName>(["again", "recheck"]);

/** Whether a session reached a completion (labelReply `confirm_completion`); cached per trace. */
const completed = new WeakMap<SessionTrace, boolean>();
function completes(trace: SessionTrace): boolean {
  let done = completed.get(trace);
  if (done === undefined) {
    done = trace.turns.some((t) => labelReply(t.reply).activity === CUE.done);
    completed.set(trace, done);
  }
  return done;
}

/** Sessions of a request in a row without anything new after which the request goes last. */
const STALE_AFTER = 2;

/**
 * The least-explored free round, coverage-driven. Each request's sessions alternate between the data (`carry`
 * with a persona × values variant not yet carried through: where policy guards and eligibility refusals are)
 * and the tactics (in {@link TACTICS} order, each once per request first). Scores compare in order, lower first:
 * 1. the request is stale: its last {@link STALE_AFTER} sessions (consistency repeats aside) found no new
 *    activity or transition (coverage.ts);
 * 2. distinct (strategy, persona, values) already tried with the request (a consistency repeat counts once),
 *    divided by the request's depth (1 + the slots the agent asked for in it + 1 when a gate was seen);
 * 3. a tactic the request cannot take yet: a gate tactic where no gate was seen, an identifier tactic where
 *    the agent was not seen asking for a persona slot (again and recheck fit once a gate or a completion was
 *    seen: a write authorised by card digits has no gate; the remedy tactic is played only by a persona a refusal
 *    of the request offered a way past);
 * 4. already tried: the variant with `carry`, the tactic with the request; then another customer's values
 *    (tactics.ts `foreignVariants`, which never keep a stale request first);
 * 5. sessions of the request of the same kind (data or tactic), then data before tactics;
 * 6. a tactic away from a persona × values that reached the request's gate;
 * 7. sessions of request × strategy; for data, the persona asked fewer slots in the request goes later;
 *    sessions of request × persona × values, request × persona (a decline counts only
 *    earlier declines: declining a gate already passed with yes is new);
 * 8. sessions of the strategy, of the persona and of persona × values (data and tactics spread over the
 *    customers); then tactic order, request, persona, variant.
 */
function freePlan(context: Requests): RoundPlan {
  const seen = exploredAll(context);
  // The limits the agent stated in any session so far, read once for every slot probe below.
  const limits = statedLimits(context.traces.flatMap((t) => t.turns.map((u) => u.reply)));
  const novelty = sessionNovelty(context.traces, context.facts);
  const count = (f: (e: Explored) => boolean) => seen.filter(f).length;
  const slots = factSlotNames(context.facts);
  const signIn = signInSlots(context);
  const stuck = stuckOn(context, seen, slots);
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
      .filter((i) => questionsOf(context.traces[i] as SessionTrace).some((q) => q?.kind === "gate"))
      .map((i) => seen[i] as Explored);
    // A write authorised another way (the card's last four digits typed, not a yes): the again and recheck
    // tactics repeat or read back any completed write.
    const writes = gates.length > 0 || mineIdx.some((i) => completes(context.traces[i] as SessionTrace));
    const asks = mineIdx.some((i) =>
      questionsOf(context.traces[i] as SessionTrace, slots).some((q) => q?.slot),
    );
    const asked = askedSlots(context, r, slots);
    // The personas a refusal of the request offered a way past (remedy.ts), the remedy tactic's only players,
    // with the request that takes a plain offer ("I can help with that": the agent's own request that the
    // refusal's words name) when one does.
    const offered = new Map<number, string | undefined>();
    for (const i of mineIdx) {
      const t = context.traces[i] as SessionTrace;
      const refusal = t.turns.find((u) => remedyOf(u.reply, context.facts))?.reply;
      if (refusal === undefined || offered.has(t.plan.persona)) continue;
      const take =
        remedyOf(refusal, context.facts) === TAKE_OFFER
          ? remedyRequest(refusal, context.requests, r)
          : undefined;
      offered.set(t.plan.persona, take && requestMessage(take, {}, [], []));
    }
    // A deeper workflow (more values asked, a gate) has more branches: it gets proportionally more sessions.
    const depth = 1 + asked.length + (gates.length ? 1 : 0);
    const shallow = mineIdx.length > 0 && depth === 1;
    const dataSessions = count(
      (e) => e.request === r && (e.strategy === "carry" || e.strategy === undefined),
    );
    const tacticSessions = mineIdx.length - dataSessions;
    const read = readRequestFor(r, context.requests);
    // A slot tactic is tried once per slot the agent asked for that fits it; other strategies once.
    const choices = STRATEGY_NAMES.flatMap((s) =>
      SLOT_TACTICS.has(s)
        ? asked
            .filter((a) =>
              AT_RANGE.has(s)
                ? rangeSlot(context.facts, a)
                : AT_CREDENTIAL.has(s)
                  ? // A sign-in credential locks alike whatever the request: kept wrong once in all.
                    IDENTITY.test(a) || (signIn.has(a) && !seen.some((e) => e.strategy === s && e.slot === a))
                  : true,
            )
            .map((a) => ({ s, slot: a as string | undefined, give: pastStated(s, a, context.facts, limits) }))
        : // The record read back after the write needs a read request of the customer's own; another
          // customer's record is asked for only where the request reads the customer's own.
          (s === "recheck" && !read) || (s === "others" && !readsOwnRecord(r))
          ? []
          : [{ s, slot: undefined as string | undefined, give: s === "recheck" ? read : undefined }],
    );
    choices.forEach(({ s, slot, give }) => {
      const data = s === "carry";
      const rank = data ? 0 : TACTICS.indexOf(s) + 1;
      const unfit =
        (AT_GATE.has(s) && !(WRITE_TACTICS.has(s) ? writes : gates.length > 0)) || (AT_ASK.has(s) && !asks)
          ? 1
          : 0;
      const cRS = count((e) => e.request === r && e.strategy === s && e.slot === slot);
      const cS = count((e) => e.strategy === s);
      const decline = s === "decline";
      const mine = (e: Explored) => e.request === r && (!decline || e.strategy === s);
      // A request the agent answered without asking anything: who asks, with which values, changes nothing,
      // and there is no value to give early, mistype or borrow.
      if (shallow && !data && !SHALLOW_TACTICS.has(s)) return;
      context.facts.personas.forEach((_, p) => {
        if (data && shallow && p > 0) return;
        if (s === "remedy" && !offered.has(p)) return;
        const take = s === "remedy" ? offered.get(p) : give;
        // A data round counts the persona's data rounds of the request (its tactic rounds vary no value).
        const cRP = count(
          (e) => mine(e) && e.persona === p && (!data || e.strategy === "carry" || e.strategy === undefined),
        );
        const cP = count((e) => e.persona === p);
        // Values of the slots the agent asked this persona for (a persona refused before the incident's date
        // has no date to vary); of the slots asked anyone while this persona has not carried the request.
        const carried = seen.some((e) => e.request === r && e.persona === p && e.strategy === "carry");
        const mineAsked = carried ? askedSlots(context, r, slots, p) : asked;
        const all = variantsFor(context.facts, p, mineAsked);
        // A request carried through without any question for a value (a hand-off offer, information) has no
        // value to vary for this persona; other customers' values only in data rounds.
        const flat = shallow || (carried && !mineAsked.length);
        const own = data && flat ? all.slice(0, 1) : all;
        const list = [...own, ...(data && !flat ? foreignVariants(context.facts, p, mineAsked) : [])];
        for (let v = 0; v < list.length; v++) {
          const foreign = v >= own.length ? 1 : 0;
          const vt = valuesText(list[v] as Record<string, string>);
          const cRPV = count((e) => mine(e) && e.persona === p && e.values === vt);
          const cPV = count((e) => e.persona === p && e.values === vt);
          // A slot tactic counts wherever the slot was aimed at: the same sign-in typo in another request
          // finds nothing new.
          const tried = data
            ? count((e) => e.request === r && e.strategy === "carry" && e.persona === p && e.values === vt)
            : slot
              ? // A limit stated since the slot was probed makes a new probe: just past it.
                count((e) => e.strategy === s && e.slot === slot && e.give === give)
              : cRS;
          const kind = data ? dataSessions : tacticSessions;
          const miss =
            !data && gates.length && !gates.some((e) => e.persona === p && e.values === vt) ? 1 : 0;
          // A slot tactic at another slot, once the request has had it at one: after every tactic had its turn.
          const extra = slot && count((e) => e.request === r && e.strategy === s) > 0 ? 1 : 0;
          // A customer the agent asked for what they do not have (a booking reference, for a customer with none)
          // gets no further in the request: after every other choice.
          const lacks = stuck.has(`${r}\u0000${p}`) ? 1 : 0;
          const score = [
            // An untried persona × values variant is never stale: it is where a policy guard may be.
            data && !tried && !foreign && !lacks ? 0 : stale,
            cR / depth,
            unfit,
            lacks,
            tried ? 1 : 0,
            // Another customer's values: after the request's own variants and tactics.
            foreign,
            extra,
            kind,
            data ? 0 : 1,
            miss,
            cRS,
            // A persona the agent took further in this request (asked more of) has more to vary.
            data ? -mineAsked.length : 0,
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
                planFor(
                  "free",
                  objective,
                  context,
                  r,
                  s,
                  p,
                  list[v] as Record<string, string>,
                  p + v,
                  slot,
                  take,
                ),
            };
        }
      });
    });
  });
  return (best as { plan: () => RoundPlan }).plan();
}

/**
 * The (request, persona) pairs, as `request\u0000persona`, whose session the driver could not go on with because
 * the agent asked the persona for a value it does not have.
 */
function stuckOn(context: Requests, seen: readonly Explored[], slots: readonly string[]): Set<string> {
  const out = new Set<string>();
  const values = knownValues(context.facts);
  context.traces.forEach((t, i) => {
    const request = seen[i]?.request;
    if (t.stop !== "driver_stop" || request === undefined) return;
    const slot = questionsOf(t, slots, values).at(-1)?.slot;
    if (slot && context.facts.personas[t.plan.persona]?.[slot] === undefined)
      out.add(`${request}\u0000${t.plan.persona}`);
  });
  return out;
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
}
