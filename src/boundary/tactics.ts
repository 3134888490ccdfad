import { extremeValue, pastLimits, type StatedLimit } from "./limits.ts";
import { IDENTITY, PERSONAL } from "./slots.ts";
import type { Facts } from "./types.ts";

/**
 * The tactics of the `rules` discovery planner and driver (AgentEval §III-A: phase-guided strategies), written
 * into each round's plan as plain words a person or an `llm` driver can follow, and the persona × values
 * variants a request is carried through with. The planner (planner.ts) chooses among them; the driver
 * (driver.ts) reads them back from the plan's strategy.
 */

/**
 * The driver tactics the planner varies so the workflow graph sees gates passed, declined, corrected and left,
 * and the guards a customer commonly presses on: urgency (a hurried customer asks to skip steps), a mistyped
 * identifier (is it looked up, and can the customer recover?), someone else's identifier (does the agent
 * check that the details belong together?), the same write made again in one session (is a duplicate
 * refused, is an allowance — "booking 3 of the 4 your plan allows" — counted down to its refusal?) and, once
 * signed in, another customer's record asked for by its identifier (is it refused, or shown?) and the way past a
 * refusal the refusal offers taken ("settle the balance first"), then the request made again (is the remedy
 * real, and what guard comes next?: remedy.ts).
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
    "Mistype a value: answer the agent's first question for it (an identifier, unless the slot is named) with one character changed, give the right one when asked again, and answer yes at the confirmation.",
  persist:
    "Keep a wrong value: answer every question for it with one character changed, three times at most, then stop.",
  extreme:
    "Give an out-of-range value: answer the agent's first question for an amount, a count or a date with one past the limit it stated (else far outside the usual range), give the real one when asked again, and answer yes at the confirmation.",
  recheck:
    "Carry it through and answer yes at the confirmation; once it is done, ask to see the record (the request given).",
  again:
    "Carry it through and answer yes at the confirmation; once it is done, make the same request again, up to four times in all, carried through the same way.",
  others:
    "Carry it through with your own details; once your record is shown, ask for the same record of another customer, naming their identifier.",
  remedy:
    "Give details only when asked; when the agent turns the request down and offers a way past it, take the offer and carry it through, then make the same request again.",
} as const;
/** A strategy of {@link STRATEGIES}. */
export type StrategyName = keyof typeof STRATEGIES;
export const STRATEGY_NAMES = Object.keys(STRATEGIES) as StrategyName[];
/**
 * Tactics, in the order free rounds try them for a request (the gate probes first). `carry` is not among them:
 * its sessions vary the data — each persona and value variant carried through, where the policy guards are.
 */
export const TACTICS: readonly StrategyName[] = [
  "decline",
  "hurry",
  "correct",
  "recheck",
  "again",
  "others",
  "remedy",
  "mistype",
  "extreme",
  "persist",
  "impersonate",
  "human",
  "upfront",
  "thanks",
];
/** Tactics that need a confirmation gate seen for the request (there is nothing to decline or correct before). */
export const AT_GATE = new Set<StrategyName>(["decline", "correct", "hurry", "recheck", "again"]);
/** Tactics that need the agent seen asking for a persona value. */
export const AT_ASK = new Set<StrategyName>(["impersonate", "mistype", "others"]);
/**
 * Tactics aimed at one slot the agent asked for ("At the question for medication."): tried once per such slot,
 * so a typo in the medication's name is explored as well as one in the date of birth.
 */
export const SLOT_TACTICS = new Set<StrategyName>(["mistype", "extreme", "persist"]);
/** Tactics aimed only at an identifier or a credential the agent asked for (does it lock the session?). */
export const AT_CREDENTIAL = new Set<StrategyName>(["persist"]);
/** Tactics that need the agent seen asking for an amount, a count or a date ({@link rangeSlot}). */
export const AT_RANGE = new Set<StrategyName>(["extreme"]);

/** The values a strategy fixes (`Values: reservation_id=HAT3C3 | reason=health.`) and its option pick. */
export function strategyValues(strategy: string): {
  values: Record<string, string>;
  pick: number;
  slot?: string;
  /** The value a slot tactic gives there (`Give "1001".`: just past a limit an earlier session stated). */
  give?: string;
} {
  const values: Record<string, string> = {};
  const slot = /\bAt the question for ([a-z0-9_]+)\./.exec(strategy)?.[1];
  const give = /\bGive "([^"]+)"\./.exec(strategy)?.[1];
  const list = /\bValues: (.+?)\.?$/.exec(strategy)?.[1] ?? "";
  for (const pair of list.split(" | ")) {
    const at = pair.indexOf("=");
    if (at > 0) values[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return {
    values,
    pick: Number(/\bPick offered option (\d+)/.exec(strategy)?.[1] ?? 0),
    ...(slot ? { slot } : {}),
    ...(give ? { give } : {}),
  };
}

/**
 * The value variants of persona `p` for a request (one-factor-at-a-time, as combinatorial testing does): first
 * every slot with several values at its first value, then, for each slot the agent asked for in that request's
 * sessions (`asked`; every such slot when none was asked yet, none when only single values were), each other
 * value of that slot alone — the slots
 * asked last first, slots of who the customer is ({@link PERSONAL}) after the others.
 * A guard on one value (a medicine too early to refill) is not hidden behind another (a quantity over the cap).
 * Lists of one subject with as many values (`driver_name`, `driver_date_of_birth`) are read as parallel and
 * vary together.
 */
export function variantsFor(facts: Facts, p: number, asked: readonly string[]): Record<string, string>[] {
  const persona = facts.personas[p] ?? {};
  const multi = Object.entries(persona).filter(([, vs]) => vs.length > 1);
  const base = Object.fromEntries(multi.map(([slot, vs]) => [slot, vs[0] as string]));
  // Nothing asked yet: every slot may matter; asked only for single values: nothing to vary.
  const named = asked.length ? asked.flatMap((a) => multi.filter(([slot]) => slot === a)) : multi;
  // The deepest choices first (the item, its quantity: where eligibility guards are), who the customer is last
  // (another way to write the same date of birth is a parsing probe, not a new branch).
  const order = [
    ...named.filter(([slot]) => !PERSONAL.test(slot)).reverse(),
    ...named.filter(([slot]) => PERSONAL.test(slot)),
  ];
  const out = [base];
  const seen = new Set([valuesText(base)]);
  for (const [slot, vs] of order)
    vs.slice(1).forEach((v, k) => {
      const variant: Record<string, string> = { ...base, [slot]: v };
      // Parallel lists go together: the second driver's name with the second driver's date of birth.
      for (const [other, ws] of multi)
        if (other !== slot && ws.length === vs.length && sameSubject(slot, other))
          variant[other] = ws[k + 1] as string;
      const key = valuesText(variant);
      if (!seen.has(key)) out.push(variant);
      seen.add(key);
    });
  return out;
}

/**
 * Variants beyond a persona's own values ({@link variantsFor}): for each slot the agent asked for (not who the
 * customer is, nor a slot holding each customer's own key), up to two values other personas hold and this one
 * does not, the most widely held first, the persona's other values at their first — a premium class for a
 * basic member, someone else's booking: guards between a customer and an item that no customer's own values
 * reach. The planner tries them after the request's own variants and tactics.
 */
export function foreignVariants(facts: Facts, p: number, asked: readonly string[]): Record<string, string>[] {
  const persona = facts.personas[p] ?? {};
  const base = Object.fromEntries(
    Object.entries(persona)
      .filter(([, vs]) => vs.length > 1)
      .map(([slot, vs]) => [slot, vs[0] as string]),
  );
  const out: Record<string, string>[] = [];
  const seen = new Set<string>();
  for (const slot of asked) {
    if (PERSONAL.test(slot) || !(slot in persona) || isKey(facts, slot)) continue;
    const own = new Set(persona[slot]);
    const held = new Map<string, number>();
    facts.personas.forEach((other, q) => {
      if (q !== p) for (const v of other[slot] ?? []) if (!own.has(v)) held.set(v, (held.get(v) ?? 0) + 1);
    });
    const foreign = [...held].sort((a, b) => b[1] - a[1]).slice(0, 2);
    for (const [v] of foreign) {
      const variant = { ...base, [slot]: v };
      const key = valuesText(variant);
      if (!seen.has(key)) out.push(variant);
      seen.add(key);
    }
  }
  return out;
}

/**
 * Whether a slot holds one value per customer, each customer's own (`card_number`, `account_id`): it says whose
 * record this is — someone else's is impersonation, a tactic of its own — not an item a customer picks.
 */
const isKey = (facts: Facts, slot: string) => {
  const values = facts.personas.map((q) => q[slot] ?? []);
  return values.every((vs) => vs.length <= 1) && new Set(values.flat()).size === values.flat().length;
};

/** Slots about one subject: the same first word (`driver_name`, `driver_date_of_birth`). */
const sameSubject = (a: string, b: string) =>
  a.split("_")[0] === b.split("_")[0] && a.includes("_") && b.includes("_");
export const valuesText = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(" | ");
export const strategyText = (
  s: StrategyName,
  pick: number,
  values: Record<string, string>,
  slot?: string,
  give?: string,
) =>
  `${STRATEGIES[s]}${slot ? ` At the question for ${slot}.` : ""}${give ? ` Give "${give}".` : ""} Pick offered option ${pick}.${Object.keys(values).length ? ` Values: ${valuesText(values)}.` : ""}`;

/** Whether `slot` holds amounts, counts or dates (some persona's value has an out-of-range form, limits.ts). */
export function rangeSlot(facts: Facts, slot: string): boolean {
  return (
    !IDENTITY.test(slot) &&
    facts.personas.some((p) => (p[slot] ?? []).some((v) => extremeValue(v) !== undefined))
  );
}

/**
 * The tactics a request the agent answers without asking anything still takes (a refusal answering it at once
 * may offer its own way past: the planner gives the remedy tactic only to a persona it was offered to).
 */
export const SHALLOW_TACTICS = new Set<StrategyName>(["human", "thanks", "remedy"]);

/**
 * For the "out-of-range value" tactic at `slot`: persona 0's value moved just past one of `limits` (those the
 * agent stated in earlier sessions: "transfers above €1,000 can't be made in chat" → 1001), so the probe lands between the
 * limit and whatever else might refuse it; undefined when none was stated (the driver then goes far out).
 */
export function pastStated(
  s: StrategyName,
  slot: string,
  facts: Facts,
  limits: readonly StatedLimit[],
): string | undefined {
  const own = facts.personas[0]?.[slot]?.[0];
  if (s !== "extreme" || !own) return undefined;
  return pastLimits(own, limits, 1)[0]?.value;
}

/** A request that reads the customer's own record ("show my booking details", "where is my order?"). */
const READ =
  /^(?:show|check|see|view|track|list|where|what|when|which|how much|how many|is|are|do|can i see|have i)\b|\b(?:status|balance|details|bookings?|account|grades|history|usage|statement|orders?|records?)\b/i;
/** A request that changes something (not a read). */
const WRITE =
  /^(?:(?:i(?:'d| would)? (?:like|want|need|have) to|please|can (?:you|i)|could (?:you|i)|help me|i'm (?:trying|looking) to)\s+)?(?:book|cancel|change|freeze|pay|order|refill|renew|add|remove|apply|report|challenge|submit|register|enrol|enroll|make|send|leave|bring|switch|claim|upgrade|downgrade|transfer|request|move|update|speak|talk)\b/i;
/** Whose: the customer's own record, not the agent's catalogue or policy. */
const OWN = /\b(?:my|our|mine|i have|i've|we have|we've)\b/i;
/** A greeting before the request ("Hi, ", "Hello! "): not part of what is asked. */
const GREETING = /^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b[\s,.!]*/i;

/** Whether `request` reads the customer's own record and changes nothing ("see my account summary"). */
export function readsOwnRecord(request: string): boolean {
  const r = request.replace(GREETING, "");
  return READ.test(r) && !WRITE.test(r) && OWN.test(r);
}

/**
 * For the "others" tactic: `request` asked for another customer's record, `id` their identifier —
 * "Hi, I'd like to see my account summary." → "I'd like to see the account summary for M482913, please."
 */
export function othersRequest(request: string, id: string): string {
  const r = request
    .replace(GREETING, "")
    .replace(/\b(?:my|our)\b/gi, "the")
    .replace(/[\s.!?]+$/, "");
  return `${r.charAt(0).toUpperCase()}${r.slice(1)} for ${id}, please.`;
}

/**
 * For the "recheck" tactic: the request among `requests` that reads the customer's own record, the one sharing
 * the most words with `request` (a booking read back after a booking); undefined when none reads one. A write
 * the agent reported done is then read back in the same session: a reply that says one thing while the record
 * holds another (the payment taken, the arrears still owed) shows there.
 */
export function readRequestFor(request: string, requests: readonly string[]): string | undefined {
  const words = (t: string) => new Set(t.toLowerCase().match(/[a-z]{4,}/g) ?? []);
  const mine = words(request);
  let best: string | undefined;
  let most = -1;
  for (const r of requests) {
    if (r === request || !readsOwnRecord(r)) continue;
    const shared = [...words(r)].filter((w) => mine.has(w) || mine.has(w.replace(/s$/, ""))).length;
    if (shared > most) [best, most] = [r, shared];
  }
  return best;
}
