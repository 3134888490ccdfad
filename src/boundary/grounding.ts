import { maskEntities } from "./abstract.ts";
import { type AbstractTrace, CUE, type Facts, type GenerationContext, type SessionTrace } from "./types.ts";

/**
 * What the `rules` test generators copy from discovery traces (AgentEval §V-A: every concrete value a test
 * names is copied from a quoted trace turn or from the provided facts): the persona values a trace used, the
 * capability it exercised, and the values an agent reply reported.
 */

/** A trace with its abstraction, looked up by id. */
export interface Grounded {
  trace: SessionTrace;
  abstract: AbstractTrace;
}

/** Index the context's traces by id (traces without an abstraction are left out). */
export function groundedTraces(context: GenerationContext): Map<string, Grounded> {
  const abstracts = new Map(context.abstracts.map((a) => [a.traceId, a]));
  const out = new Map<string, Grounded>();
  for (const trace of context.traces) {
    const abstract = abstracts.get(trace.id);
    if (abstract && abstract.turns.length === trace.turns.length) out.set(trace.id, { trace, abstract });
  }
  return out;
}

const mentionsWord = (text: string, value: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z0-9_])`, "i").test(
    text,
  );

/**
 * The fact values a trace's user turns used, slot → first value seen (e.g. `{user_id: "mia_li_3668",
 * reservation_id: "HAT1A1"}`), looked up in every persona of `facts`.
 */
export function traceValues(
  trace: SessionTrace,
  facts: Facts,
  upToTurn = trace.turns.length - 1,
): Record<string, string> {
  const text = trace.turns
    .slice(0, upToTurn + 1)
    .map((t) => t.user)
    .join("\n");
  const out: Record<string, string> = {};
  for (const persona of facts.personas)
    for (const [slot, values] of Object.entries(persona))
      for (const v of values) if (!(slot in out) && mentionsWord(text, v)) out[slot] = v;
  return out;
}

/** The persona (index) whose values a trace used most, for the runner's answers. */
export function personaOf(trace: SessionTrace, facts: Facts): Record<string, string> {
  const used = traceValues(trace, facts);
  let best = 0;
  let bestScore = -1;
  facts.personas.forEach((p, i) => {
    const score = Object.entries(used).filter(([slot, v]) => p[slot]?.includes(v)).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  const persona = facts.personas[best] ?? {};
  const out: Record<string, string> = {};
  for (const [slot, values] of Object.entries(persona)) out[slot] = used[slot] ?? (values[0] as string);
  // A value the driver borrowed from another persona (a slot this one has none for) is the customer's too.
  for (const [slot, v] of Object.entries(used)) if (!(slot in out)) out[slot] = v;
  return out;
}

/** Values of the same slot from other personas (for foreign-value perturbations), e.g. someone else's reservation. */
export function foreignValues(slot: string, own: Record<string, string>, facts: Facts): string[] {
  const out: string[] = [];
  for (const p of facts.personas) {
    if (own[slot] !== undefined && p[slot]?.includes(own[slot] as string)) continue;
    for (const v of p[slot] ?? []) out.push(v);
  }
  return out;
}

/** The capability a trace exercised: its first `request_*` user action (`request_other` when none). */
export function capabilityOf(abstract: AbstractTrace): string {
  return abstract.turns.find((t) => t.userAction.startsWith("request_"))?.userAction ?? "request_other";
}

/** Activities that show information or act (the things a prerequisite or a gate protects). */
export const isSubstantive = (activity: string) =>
  activity === CUE.gate || activity === CUE.done || activity.startsWith("inform_");

const YES_NO_KEY = /\b([a-z]+)\s*[:=]?\s+(yes|no)\b/gi;
/** Words before a yes or no that ask for one ("please answer yes or no", "reply yes"): no fact is stated. */
const NOT_A_KEY = new Set("answer reply say type respond or and with either simply just please".split(" "));

/**
 * The values an agent reply reports, to assert in a functional test: its masked entities (amounts, dates,
 * statuses, codes…) and `key ~ yes|no` facts such as `insurance ~ no` (the judge reads `~` as "the value
 * within a few words after the key"). Deduplicated, in order of appearance. With `readBack` (a confirmation
 * gate's summary): only amounts, dates, times, identifiers and facts values.
 */
export function replyValues(reply: string, facts?: Facts, options: { readBack?: boolean } = {}): string[] {
  const values: string[] = [];
  for (const e of maskEntities(reply, facts).entities) {
    const v = e.value.trim();
    // A read-back is checked for what it is about to do (amounts, dates, ids, the customer's values), not for
    // words a paraphrase may drop ("delivered to", the house number inside an address).
    if (options.readBack && (e.type === "status" || e.type === "number")) continue;
    // A capitalised status word opens a sentence of the template ("Available options: …"), it is not data.
    if (e.type === "status" && /^[A-Z]/.test(v)) continue;
    if (v.length >= 2 && !values.includes(v)) values.push(v);
  }
  if (options.readBack) return values;
  for (const m of reply.matchAll(YES_NO_KEY)) {
    const key = (m[1] as string).toLowerCase();
    if (key.length < 3 || NOT_A_KEY.has(key)) continue;
    const v = `${(m[1] as string).toLowerCase()} ~ ${(m[2] as string).toLowerCase()}`;
    if (!values.includes(v)) values.push(v);
  }
  return values;
}
