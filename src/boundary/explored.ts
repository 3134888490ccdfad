import { type Question, readQuestion } from "./answer.ts";
import { knownRequests, requestAliases } from "./known-requests.ts";
import { factSlotNames, IDENTITY, knownValues, PERSONAL, type SlotValues } from "./slots.ts";
import {
  AT_CREDENTIAL,
  AT_RANGE,
  foreignVariants,
  rangeSlot,
  SLOT_TACTICS,
  STRATEGIES,
  STRATEGY_NAMES,
  type StrategyName,
  strategyValues,
  valuesText,
  variantsFor,
} from "./tactics.ts";
import type { Facts, SessionTrace } from "./types.ts";

/**
 * What earlier discovery sessions explored, read back from their plans (AgentEval §III-A: the planner counts
 * them to pick the least-explored round): the request, strategy, persona and values of each, the requests the
 * agent answered alike merged (known-requests.ts), the slots the agent asked for per request, and the
 * customers not yet carried through a request. Pure.
 */

/**
 * What a round is planned from: the traces, the facts, every known request (`all`, to read back what a trace
 * explored), the requests that repeat an earlier one in the agent's eyes (`alias`, aliases.ts) and the
 * requests still explored on their own (`requests`).
 */
export interface Requests {
  traces: readonly SessionTrace[];
  facts: Facts;
  all: readonly string[];
  alias: ReadonlyMap<string, string>;
  requests: readonly string[];
}

/**
 * Whether a session played its persona with the persona's first value of every slot it has (the same input in
 * any request: what {@link requestAliases} compares).
 */
const basic = (trace: SessionTrace, facts: Facts) => {
  const own = facts.personas[trace.plan.persona % Math.max(1, facts.personas.length)] ?? {};
  return Object.entries(strategyValues(trace.plan.strategy).values).every(
    ([slot, v]) => own[slot] === undefined || own[slot]?.[0] === v,
  );
};

/** The {@link Requests} of a round: known requests, those the agent answered alike merged into the first. */
export function requestContext(traces: readonly SessionTrace[], facts: Facts): Requests {
  const all = knownRequests(traces, facts);
  const sessions = traces.map((trace) => ({ trace, ...explored(trace, all) }));
  const carried = sessions.flatMap((s) =>
    s.request && s.strategy === "carry" && basic(s.trace, facts)
      ? [{ request: s.request, who: `${s.persona}`, trace: s.trace }]
      : [],
  );
  const alias = requestAliases(all, carried, sessions, facts);
  return { traces, facts, all, alias, requests: all.filter((r) => !alias.has(r)) };
}

/** What an earlier trace explored, read back from its plan (undefined fields when it was not ours). */
export interface Explored {
  request?: string;
  strategy?: StrategyName;
  persona: number;
  values: string;
  /** The slot a slot tactic aimed at ({@link SLOT_TACTICS}), and the value it was told to give there. */
  slot?: string | undefined;
  give?: string | undefined;
}
export function explored(
  trace: SessionTrace,
  requests: readonly string[],
  alias: ReadonlyMap<string, string> = new Map(),
): Explored {
  const objective = trace.plan.objective.toLowerCase();
  const found = [...requests]
    .sort((a, b) => b.length - a.length)
    .find((r) => objective.includes(r.toLowerCase()));
  const request = found && (alias.get(found) ?? found);
  const strategy = STRATEGY_NAMES.find((s) => trace.plan.strategy.startsWith(STRATEGIES[s]));
  const { values, slot, give } = strategyValues(trace.plan.strategy);
  return {
    ...(request ? { request } : {}),
    ...(strategy ? { strategy } : {}),
    persona: trace.plan.persona,
    values: valuesText(values),
    slot,
    give,
  };
}

const seenCache = new WeakMap<Requests, readonly Explored[]>();

/** What each trace of the context explored ({@link explored} with its requests and aliases), computed once per context. */
export function exploredAll(context: Requests): readonly Explored[] {
  const hit = seenCache.get(context);
  if (hit) return hit;
  const seen = context.traces.map((t) => explored(t, context.all, context.alias));
  seenCache.set(context, seen);
  return seen;
}

const questions = new WeakMap<SessionTrace, Map<string, readonly (Question | undefined)[]>>();
const valuesIds = new WeakMap<SlotValues, number>();
let lastValuesId = 0;

/**
 * What each reply of a trace asks (answer.ts `readQuestion` with `slots` and `values`), one entry per turn,
 * memoised per trace, slots and values object: the planner reads every earlier trace each round.
 */
export function questionsOf(
  trace: SessionTrace,
  slots: readonly string[] = [],
  values?: SlotValues,
): readonly (Question | undefined)[] {
  let byKey = questions.get(trace);
  if (!byKey) {
    byKey = new Map();
    questions.set(trace, byKey);
  }
  let id = values ? valuesIds.get(values) : 0;
  if (id === undefined) {
    id = ++lastValuesId;
    valuesIds.set(values as SlotValues, id);
  }
  const key = `${id}\u0000${slots.join("\u0000")}`;
  const hit = byKey.get(key);
  if (hit) return hit;
  const read = trace.turns.map((t) => readQuestion(t.reply, slots, values));
  byKey.set(key, read);
  return read;
}

/**
 * The persona slots the agent asked for in earlier sessions of `request` (first ask first), else the
 * identifiers (`*_id`, `*_number`, `*_code`).
 */
export function slotsAsked(context: Requests, request: string, persona: Record<string, unknown>) {
  const slots = Object.keys(persona);
  const asked = askedSlots(context, request, slots);
  return asked.length ? asked : slots.filter((s) => /_(?:id|number|code)$/.test(s));
}

/**
 * The `slots` the agent asked for in earlier sessions of `request` (played by `persona` when given), first ask
 * first (empty when none).
 */
export function askedSlots(
  context: Requests,
  request: string,
  slots: readonly string[],
  persona?: number,
): string[] {
  const asked = new Set<string>();
  const values = knownValues(context.facts);
  const seen = exploredAll(context);
  for (const [i, t] of context.traces.entries()) {
    if (seen[i]?.request !== request) continue;
    if (persona !== undefined && t.plan.persona !== persona) continue;
    for (const q of questionsOf(t, slots, values)) if (q?.slot) asked.add(q.slot);
  }
  return [...asked];
}

/**
 * The sign-in's slots: those among the first two the agent asked for in sessions of two requests or more (the
 * account number and the postcode it checks before any request, whatever the request). With the identifiers,
 * the credentials a customer may keep getting wrong (tactics.ts `persist`: does the agent lock the session?).
 */
export function signInSlots(context: Requests): Set<string> {
  const slots = factSlotNames(context.facts);
  const values = knownValues(context.facts);
  const seen = exploredAll(context);
  const byRequest = new Map<string, Set<string>>();
  for (const [i, t] of context.traces.entries()) {
    const request = seen[i]?.request;
    if (request === undefined) continue;
    const first = [...new Set(questionsOf(t, slots, values).flatMap((q) => (q?.slot ? [q.slot] : [])))];
    const mine = byRequest.get(request) ?? new Set<string>();
    for (const slot of first.slice(0, 2)) mine.add(slot);
    byRequest.set(request, mine);
  }
  const requests = (slot: string) => [...byRequest.values()].filter((m) => m.has(slot)).length;
  return new Set(slots.filter((slot) => requests(slot) >= 2));
}

/** Whether the `persist` tactic fits `slot`: an identifier, or a slot of the sign-in ({@link signInSlots}). */
const credential = (slot: string, signIn: ReadonlySet<string>) => IDENTITY.test(slot) || signIn.has(slot);

/**
 * How many (request, persona) pairs no session has carried through yet: the data round every customer gets
 * for every request before discovery may stop for lack of news (a request answered without any question
 * needs one customer only).
 */
export function uncarried(context: Requests): number {
  const seen = exploredAll(context);
  const slots = factSlotNames(context.facts);
  let n = 0;
  for (const r of context.requests) {
    const mine = seen.filter((e) => e.request === r);
    const asks = context.traces.some(
      (t, i) => seen[i]?.request === r && questionsOf(t, slots).some((q) => q?.slot),
    );
    const personas = mine.length && !asks ? 1 : context.facts.personas.length;
    for (let p = 0; p < personas; p++)
      if (!mine.some((e) => e.persona === p && (e.strategy === "carry" || e.strategy === undefined))) n++;
  }
  return n;
}

/**
 * How many value variants of the slots a request asked after its sign-in (not who the customer is) are untried by
 * customers the agent took as far as a confirmation in that request: an item, a quantity or a
 * date another customer's first value did not show a guard for (a controlled medicine, a full class), and the
 * values other customers hold for those slots (tactics.ts `foreignVariants`: a premium class for a basic member,
 * a transfer to one's own account). Discovery goes on past its patience for them.
 */
export function untriedVariants(context: Requests): number {
  const seen = exploredAll(context);
  const slots = factSlotNames(context.facts);
  const values = knownValues(context.facts);
  let n = 0;
  for (const r of context.requests)
    context.facts.personas.forEach((_, p) => {
      const mine = context.traces.flatMap((t, i) => {
        const e = seen[i];
        return e?.request === r && t.plan.persona === p && e.strategy === "carry" ? [{ t, e }] : [];
      });
      const far = mine.some(({ t }) => questionsOf(t, slots, values).some((q) => q?.kind === "gate"));
      if (!far) return;
      const asked = askedSlots(context, r, slots, p).filter((s) => !PERSONAL.test(s));
      const tried = new Set(mine.map(({ e }) => e.values));
      const foreign = foreignVariants(context.facts, p, asked);
      for (const variant of [...variantsFor(context.facts, p, asked).slice(1), ...foreign])
        if (!tried.has(valuesText(variant))) n++;
    });
  return n;
}

/**
 * How many (slot tactic, slot) pairs no session has tried yet, over the slots the agent asked for in any
 * request and the tactics that fit each (tactics.ts {@link SLOT_TACTICS}: a typo, an out-of-range value, a wrong
 * credential kept): the input guards — a malformed order number, a quantity past the limit — that discovery
 * goes on past its patience for. A slot tactic counts wherever it was aimed (the planner tries it once per slot).
 */
export function untriedSlotTactics(context: Requests): number {
  const seen = exploredAll(context);
  const slots = factSlotNames(context.facts);
  const asked = new Set(context.requests.flatMap((r) => askedSlots(context, r, slots)));
  const signIn = signInSlots(context);
  let n = 0;
  for (const s of SLOT_TACTICS)
    for (const slot of asked) {
      if (AT_RANGE.has(s) && !rangeSlot(context.facts, slot)) continue;
      if (AT_CREDENTIAL.has(s) && !credential(slot, signIn)) continue;
      if (!seen.some((e) => e.strategy === s && e.slot === slot)) n++;
    }
  return n;
}
