import { MONTHS } from "./entities.ts";
import { PERSONAL, type SlotValues, valueList } from "./slots.ts";

/**
 * The format a question states for the value it asks ("It starts with FR", "RV followed by eight digits", "the
 * six-digit code", "for example AB12 CDE"), and the one slot of the facts whose values have it (issue 15: a driver
 * that completes unseen workflows). Agents often name a value by a word several slots share ("the reference
 * number", "the code") but show its form; the form then tells the slot apart. Pure functions of the text and the
 * facts' values.
 */

/** Numbers written as words, as agents state lengths and digit counts ("six months", "a six-digit code"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
};

/**
 * The letters a reply says the value it asks for starts with ("It starts with FR", "for example FR-1234", "it
 * looks like HX followed by four digits", "in the form AB123456C", "RV followed by eight digits"), upper-cased;
 * undefined when it states none.
 */
export function statedPrefix(reply: string): string | undefined {
  const m =
    /\b(?:[Ss]tarts?|[Bb]egins?|[Bb]eginning|[Ss]tarting) with (?:the letters? )?["'“‘]?([A-Z]{1,4})\b/.exec(
      reply,
    ) ??
    /\b(?:for example|for instance|e\.g\.|like|such as|in the form(?: of)?|format)[:,]?\s+["'“‘]?([A-Z]{1,4})(?=[- ]?\d|-| followed\b)/.exec(
      reply,
    ) ??
    /(?:^|[\s(])([A-Z]{1,4})-? followed by\b/.exec(reply);
  return m?.[1]?.toUpperCase();
}

/** The count of digits a reply says the value has ("a six-digit code", "eight digits", "6 digits"), or undefined. */
export function statedDigits(reply: string): number | undefined {
  const m = /\b(\d{1,2}|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]digits?\b/i.exec(reply);
  if (!m?.[1]) return undefined;
  return /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()];
}

/** An example value a reply shows ("for example FR-1234", "e.g. AB12 CDE", "like RC-12345"), or undefined. */
export function statedExample(reply: string): string | undefined {
  const m =
    /\b(?:for example|for instance|e\.g\.|such as|like|looks like)[:,]?\s+["'“‘]?([A-Z0-9]*\d[A-Z0-9]*(?:[- ][A-Z0-9]+)?|[A-Z]+[- ]?\d[A-Z0-9]*(?:[- ][A-Z0-9]+)?)["'”’]?(?=[.,;)?!]|\s*$)/.exec(
      reply,
    );
  return m?.[1];
}

/** A value's form: letters → A, digits → 9, separators dropped ("FR-1234" → "AA9999"). */
const shapeOf = (v: string) =>
  v
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .replace(/[A-Z]/g, "A")
    .replace(/\d/g, "9");

/**
 * The one slot of `values` every value of which has the form `reply` states (prefix, digit count, an example's
 * shape; at least one of them stated) — of several, for a digit count alone, the one written as digits alone —
 * or undefined when it states none or no slot or several slots fit.
 */
export function slotByFormat(reply: string, values: SlotValues): string | undefined {
  const prefix = statedPrefix(reply);
  const digits = statedDigits(reply);
  const example = statedExample(reply);
  if (!prefix && digits === undefined && !example) return undefined;
  const fits = (v: string) => {
    const t = v.trim();
    if (!/\d/.test(t) || t.split(/\s+/).length > 3) return false;
    if (prefix && !t.toUpperCase().startsWith(prefix)) return false;
    if (digits !== undefined) {
      const n = t.replace(/\D/g, "").length;
      if (n !== digits) return false;
    }
    return !example || shapeOf(example) === shapeOf(t);
  };
  const slots = Object.entries(values).filter(([, vs]) => {
    const list = valueList(vs);
    return list.length > 0 && list.every(fits);
  });
  // "a 6-digit code" with a verification code (592046) and a sort code (40-47-12): the one written as digits alone.
  const plain =
    slots.length > 1 && digits !== undefined && !prefix && !example
      ? slots.filter(([, vs]) => valueList(vs).every((v) => /^\d+$/.test(v.trim())))
      : slots;
  return plain.length === 1 ? plain[0]?.[0] : undefined;
}

/** A question for a day ("Which day would suit you?", "When would you like it delivered?"). */
const DAY_QUESTION = /\b(?:which|what) (?:day|date)\b|\bwhen (?:would|should|do|can|will|shall)\b/i;
const DATE_VALUE = new RegExp(
  `\\b(?:${MONTHS})\\b|^\\d{1,4}[-/.]\\d{1,2}[-/.]\\d{1,4}$|^the \\d{1,2}(?:st|nd|rd|th)$`,
  "i",
);

/**
 * Whether a slot's values are dates while `question` asks where or who ("Where should we send post after you move
 * out?" is no question for `move_in_date`): the slot cannot answer it.
 */
export function dateForPlace(question: string, values: readonly string[]): boolean {
  return (
    /^\W*(?:\w+,? ){0,2}(?:where|who)\b/i.test(question) &&
    values.length > 0 &&
    values.every((v) => DATE_VALUE.test(v.trim()))
  );
}

/**
 * The one slot of `values` holding dates that is not about who the customer is (a delivery date, not a date of
 * birth) when `question` asks for a day in words no slot name says ("Which day would suit you?"); undefined when
 * it asks for no day or no slot, or several, hold dates.
 */
export function slotOfDay(question: string, values: SlotValues): string | undefined {
  if (!DAY_QUESTION.test(question)) return undefined;
  const dated = Object.entries(values).filter(([slot, vs]) => {
    const list = valueList(vs);
    return (
      !PERSONAL.test(slot) &&
      list.length > 0 &&
      list.filter((v) => DATE_VALUE.test(v.trim())).length * 2 >= list.length
    );
  });
  return dated.length === 1 ? dated[0]?.[0] : undefined;
}
