/**
 * The values the rules driver gives besides a persona's plain answer (driver.ts): another customer's identifier,
 * a typo, a correction at a gate, the next value after one was refused, the answer to a question asked again.
 * Pure functions of the turns, the persona and the facts.
 */
import { answerTo, type Persona, type Question, readQuestion } from "./answer.ts";
import { MONTHS } from "./entities.ts";
import { sayValue } from "./persona-values.ts";
import { IDENTITY, knownValues, PERSONAL, type SlotValues } from "./slots.ts";
import type { Facts, RoundPlan, Turn } from "./types.ts";

/** The facts persona a plan names (its index taken modulo the number of personas; empty when there are none). */
export const factsPersona = (plan: RoundPlan, facts: Facts) =>
  facts.personas[plan.persona % Math.max(1, facts.personas.length)] ?? {};

/**
 * Another persona's value for `slot` that is an identifier (has a digit, no spaces) and not one of `own`'s
 * values: of the persona with the most facts (a customer with a record, not the visitor a facts file holds for
 * an unknown identifier), the first after `own` among equals; undefined when the facts have none.
 */
export function othersIdentifier(facts: Facts, own: number, slot: string): string | undefined {
  const n = facts.personas.length;
  const mine = new Set(facts.personas[own % n]?.[slot] ?? []);
  const others = Array.from({ length: n - 1 }, (_, k) => facts.personas[(own + k + 1) % n] ?? {}).sort(
    (a, b) => Object.keys(b).length - Object.keys(a).length,
  );
  for (const p of others)
    for (const v of p[slot] ?? []) if (/\d/.test(v) && !/\s/.test(v) && !mine.has(v)) return v;
  return undefined;
}

/**
 * `value` with its last digit (else its last letter) changed: a plausible typo of an identifier. A 9 becomes 8, not
 * 0, so a date stays a date ("2004-03-09" → "2004-03-08", not the invalid "2004-03-00").
 */
export function mistyped(value: string): string {
  const at = value.search(/\d(?=\D*$)/);
  if (at >= 0) {
    const d = Number(value[at]);
    return `${value.slice(0, at)}${d === 9 ? 8 : d + 1}${value.slice(at + 1)}`;
  }
  const letter = value.search(/[A-Za-z](?=[^A-Za-z]*$)/);
  if (letter < 0) return `${value}1`;
  const c = value[letter] as string;
  const next = c === "z" ? "a" : c === "Z" ? "A" : String.fromCharCode(c.charCodeAt(0) + 1);
  return `${value.slice(0, letter)}${next}${value.slice(letter + 1)}`;
}

const mentions = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());
/** A month name or its short form (entities.ts): a number next to one is a day of a date ("valid until 30 June"). */
const MONTH = `(?:${MONTHS})`;
/**
 * Whether a gate's `text` reads back `value`: a plain number as a figure of its own, not a digit of a longer one,
 * a day of a date or a time ("5" is not in "£15.00", "30" not in "until 30 June").
 */
function readsBack(text: string, value: string): boolean {
  if (!/^\d+$/.test(value)) return mentions(text, value);
  return new RegExp(
    `(?<![\\d.,:/]|\\b${MONTH}\\s)\\b${value}\\b(?![:/]\\d|[.,]\\d{3}|\\s*(?:st|nd|rd|th)?\\s+${MONTH}\\b)`,
    "i",
  ).test(text);
}
/** A reply turning something down ("won't work", "can't", "isn't registered", "already", "too early"). */
const NEGATIVE = /\b(?:not|no|cannot|unable|already|too|only|sorry)\b|n't\b/i;

/**
 * A correction at a gate: a value the gate reads back (one the customer gave first) that has another
 * candidate — another of the persona's values for the slot, else another persona's — with the sentence
 * "Actually, please make it <other> instead of <value>."; undefined when none has. Identifiers are skipped.
 */
export function correctionAt(
  persona: Readonly<Record<string, readonly string[]>>,
  turns: readonly Turn[],
  facts: Facts,
): { slot: string; given: string; other: string; text: string } | undefined {
  const answers = turns
    .slice(1)
    .map((t) => t.user)
    .join(" \n ");
  const request = turns[0]?.user ?? "";
  const gate = turns.at(-1)?.reply ?? "";
  const all = knownValues(facts);
  // One the agent offered earlier (the courses it listed) is a correction it can take.
  const offered = turns
    .slice(0, -1)
    .map((t) => t.reply)
    .join(" \n ");
  // Not a value the agent turned down when the customer gave it ("We don't collect at weekends, so Saturday 26
  // April won't work."): the correction would be refused again, and the corrected gate never seen.
  const refused = turns
    .slice(1, -1)
    .map((t) => ({
      reply: t.reply,
      value: t.user.replace(/^(?:my [a-z ]{2,30} is|it's|it is)\s+|[.!]\s*$/gi, ""),
    }))
    .filter((t) => t.value.length > 1 && NEGATIVE.test(t.reply) && mentions(t.reply, t.value))
    .map((t) => t.value);
  // What a customer corrects is what they answered and the gate reads back; else what their request named
  // and the gate reads back ("my car claim"); else a value only read back.
  for (const rank of [0, 1, 2])
    for (const [slot, own] of Object.entries(persona)) {
      // Identifiers and who the customer is are not what they chose.
      if (/_(?:id|number|code)$|^code$/.test(slot) || PERSONAL.test(slot)) continue;
      const given = own.find(
        (v) =>
          v.length > 1 &&
          readsBack(gate, v) &&
          (rank === 0 ? mentions(answers, v) : rank === 1 ? mentions(request, v) : true),
      );
      if (!given) continue;
      const pool = [...own, ...(all[slot] ?? [])].filter(
        (v) => v !== given && !mentions(gate, v) && !refused.some((r) => mentions(r, v) || mentions(v, r)),
      );
      const other = pool.find((v) => mentions(offered, v)) ?? pool[0];
      if (other) return { slot, given, other, text: `${CORRECTION_LEAD} ${other} instead of ${given}.` };
    }
  return undefined;
}

/** How a correction turn ({@link correctionAt}) begins. */
export const CORRECTION_LEAD = "Actually, please make it";
const CORRECTION = new RegExp(`^${CORRECTION_LEAD} (.+) instead of (.+)\\.$`);

/**
 * What the customer asks for after the correction sent last among `said` (a {@link correctionAt} turn) when the
 * agent asks about it instead of reading the gate back at once: at "What needs changing? 1 - Appointment type;
 * 2 - Vet", the option naming the corrected slot; asked for that slot ("What should your postcode be?"), the
 * corrected value. The corrected slot is the persona's slot holding the value corrected (or the correction). Undefined otherwise
 * (no correction sent, or the question is about something else).
 */
export function afterCorrection(
  question: Question,
  persona: Persona,
  said: readonly string[],
): string | undefined {
  if (question.kind !== "value") return undefined;
  const fix = said.map((u) => CORRECTION.exec(u)).findLast(Boolean);
  if (!fix) return undefined;
  const [, other, given] = fix as unknown as [string, string, string];
  const held = (v: string | readonly string[]) =>
    (typeof v === "string" ? [v] : v).some((x) =>
      [given, other].some((g) => x.toLowerCase() === g.toLowerCase()),
    );
  const slots = Object.entries(persona)
    .filter(([, v]) => held(v))
    .map(([slot]) => slot);
  const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];
  // An option that names the slot in a few of its words ("Date" for `preferred_date`, "Appointment type").
  const names = (option: string, slot: string) => {
    const own = words(option);
    return own.length > 0 && own.length <= 3 && own.every((w) => slot.split("_").includes(w));
  };
  const at = question.options.findIndex((o) => slots.some((slot) => names(o, slot)));
  // "Which of these does Pepper need? 1 - Check-up; 2 - Vaccination": the option holding the corrected value.
  const offered = question.options.findIndex((o) => o.toLowerCase().includes(other.toLowerCase()));
  const pick = at >= 0 ? at : offered;
  if (pick >= 0) return question.labels?.[pick] ?? question.options[pick];
  if (!question.slot || !slots.includes(question.slot)) return undefined;
  return sayValue(question.slot, other);
}

/** The driver's "correct a value" tactic: {@link correctionAt} for the round's persona, as a user turn. */
export function correction(plan: RoundPlan, turns: readonly Turn[], facts: Facts): string | undefined {
  return correctionAt(factsPersona(plan, facts), turns, facts)?.text;
}

/**
 * When `reply` asks again for a slot the user already answered ("Would you like a different course?", "A
 * parcel that must be signed for can't be left in a locker. What street address should we use?"): the round's
 * facts persona's first value for that slot the user has not said yet, else (a slot that does not say who the
 * customer is or point at their record, {@link IDENTITY}) another persona's, as a user turn; where the agent listed
 * options for the slot (this reply, else the last one that did), only such a value among them, else the first
 * option not said yet; undefined otherwise. `earlier`: the replies before `reply`.
 */
export function anotherValue(
  reply: string,
  sent: readonly string[],
  plan: RoundPlan,
  facts: Facts,
  earlier: readonly string[],
): string | undefined {
  const own = factsPersona(plan, facts);
  const ask = (text: string) => readQuestion(text, Object.keys(own), knownValues(facts));
  const slot = ask(reply)?.slot;
  if (!slot) return undefined;
  const pool = [...(own[slot] ?? []), ...(IDENTITY.test(slot) ? [] : (knownValues(facts)[slot] ?? []))];
  // "Which course would you like to drop? 1. CS201 … 2. PSYC100 …" (this reply's list, else the last one listed for
  // the slot): once a value was refused, one the agent lists — the next from the facts would be refused alike.
  const options =
    [reply, ...[...earlier].reverse()]
      .map((text) => ask(text))
      .find((q) => q?.slot === slot && q.options.length >= 2)?.options ?? [];
  const unsaid = (v: string) => !sent.some((u) => mentions(u, v));
  const fresh = pool.find((v) => unsaid(v) && (!options.length || options.some((o) => mentions(o, v))));
  if (fresh) return sayValue(slot, fresh);
  const listed = options.find((o) => unsaid(o) && unsaid(o.split(/\s+/)[0] ?? o));
  return listed && sayValue(slot, listed);
}

/**
 * The persona's answer to the last reply that asked for a slot it has (with the slots asked beside it: "please
 * give the dates again" after "the pickup and return dates?"), as a user turn.
 */
export function retried(turns: readonly Turn[], persona: Persona, values: SlotValues): string | undefined {
  const slots = Object.keys(persona);
  for (const t of [...turns].reverse()) {
    const question = readQuestion(t.reply, slots, values);
    const answer = question?.slot ? answerTo(question, persona, { values }) : undefined;
    if (answer !== undefined) return answer;
  }
  return undefined;
}
