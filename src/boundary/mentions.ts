import { RETRY } from "./answer.ts";
import { maskEntities, STATUS_WORD } from "./entities.ts";
import { mentionsWhole } from "./slots.ts";
import type { Turn } from "./types.ts";

/**
 * How the judge reads values in replies (AgentEval §III-B, the `mentions` and `discloses` checks): amounts, dates
 * and clock times in one canonical form whatever their wording, a `key ~ word` pair near each other, a figure
 * left unsaid versus one stated in its place, and another customer's details named unasked. Pure.
 */

/** Lower-case, commas dropped, whitespace runs collapsed: how `mentions` compares texts. */
export function normaliseMention(text: string): string {
  return text.toLowerCase().replace(/,/g, "").replace(/\s+/g, " ").trim();
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** One masked amount, date or clock time (entities.ts) in canonical form, or undefined when it reads as none. */
export function canonical(type: string, value: string): string | undefined {
  const v = value.toLowerCase();
  if (type === "money") {
    const n = Number(/\d[\d,]*(?:\.\d+)?/.exec(v)?.[0].replace(/,/g, ""));
    return Number.isFinite(n) ? `money:${n}` : undefined;
  }
  if (type === "date") {
    const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    // "24/01/2025" day first, "01/24/2025" month first (the first number cannot be a month).
    const slash = /^(\d{1,2})\/(\d{1,2})\/\d{2,4}$/.exec(v);
    const [d, m] = slash ? (Number(slash[2]) > 12 ? [slash[2], slash[1]] : [slash[1], slash[2]]) : [];
    const month = iso
      ? Number(iso[2]) - 1
      : m
        ? Number(m) - 1
        : MONTH_NAMES.findIndex((name) => new RegExp(`\\b${name}`).test(v));
    const date = Number(iso ? iso[3] : (d ?? /\b(\d{1,2})(?:st|nd|rd|th)?\b/.exec(v)?.[1]));
    return month >= 0 && month < 12 && date >= 1 && date <= 31 ? `date:${month + 1}-${date}` : undefined;
  }
  if (type === "time") {
    const m = /^(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s?(?:([ap])m)?$/.exec(v);
    if (!m) return undefined;
    const hours = m[3] ? (Number(m[1]) % 12) + (m[3] === "p" ? 12 : 0) : Number(m[1]);
    return hours < 24 ? `time:${hours * 60 + Number(m[2] ?? 0)}` : undefined;
  }
  return undefined;
}

/**
 * The amounts, dates (month and day) and clock times a text states — its masked `money`, `date` and `time`
 * entities (entities.ts) — each in one canonical form (`money:45`, `date:3-12`, `time:840`), so a paraphrase
 * that writes them differently still mentions them.
 */
export function canonicalValues(text: string): string[] {
  const out: string[] = [];
  for (const e of maskEntities(text).entities) {
    const v = canonical(e.type, e.value.trim());
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * The amounts, dates and times reply `i` states beyond `values`, `derived` and what the user typed up to it,
 * and the record codes it names that neither these nor an earlier turn of the run named, when it leaves a
 * derived value unsaid (as one string for a reason), else undefined: a paraphrase may omit a figure or a code
 * the agent worked out, but one in its place is a different outcome.
 */
export function contradicts(
  turns: readonly Turn[],
  i: number,
  values: readonly string[],
  derived: readonly string[],
): string | undefined {
  const reply = turns[i]?.reply ?? "";
  if (derived.every((v) => mentionsValue(reply, v))) return undefined;
  const known = new Set(
    [...values, ...derived, ...turns.slice(0, i + 1).map((t) => t.user)].flatMap(canonicalValues),
  );
  const other = maskEntities(reply)
    .entities.filter((e) => {
      const v = canonical(e.type, e.value.trim());
      return v && !known.has(v);
    })
    .map((e) => e.value.trim());
  // A record code the run never named before (another customer's record in the place of the vehicle's).
  const said = normaliseMention(
    [
      ...values,
      ...derived,
      ...turns.slice(0, i).flatMap((t) => [t.user, t.reply]),
      turns[i]?.user ?? "",
    ].join("\n"),
  );
  const codes = recordCodes(reply).filter((c) => !said.includes(normaliseMention(c)));
  return other.length + codes.length ? [...other, ...codes].join(", ") : undefined;
}

/** A value that is a status word alone ("shipped"), and a status word anywhere in a reply (not global: no lastIndex). */
export const STATUS_ALONE = new RegExp(`^${STATUS_WORD.source}$`, "i");
const STATUS_ANY = new RegExp(STATUS_WORD.source, "i");

/**
 * Whether a reply mentions a value (after {@link normaliseMention}). A value `key ~ word` (as the rules
 * generator writes `insurance ~ no`) means the word, as a whole word, within three words after the key —
 * so "insurance: no" and "travel insurance no" both match, "insurance: yes" does not. Other values match as
 * text, or, for an amount, date or time, in any of the ways {@link canonicalValues} reads; a status word
 * ("shipped") also when the reply says no status at all (a paraphrase), not when it says another.
 */
export function mentionsValue(reply: string, value: string): boolean {
  const text = normaliseMention(reply);
  const pair = /^(.+?)\s+~\s+(.+)$/.exec(value);
  if (!pair) {
    if (text.includes(normaliseMention(value))) return true;
    // A status a paraphrase leaves unsaid ("RX-48302 … left us on 12 May" for "has shipped"): only another
    // status said instead contradicts it.
    if (STATUS_ALONE.test(value.trim()) && !STATUS_ANY.test(reply)) return true;
    // An amount, date or time written another way ("€45.00" / "45 euros", "12 March" / "March 12th").
    const wanted = canonicalValues(value);
    if (!wanted.length) return false;
    const said = new Set(canonicalValues(reply));
    return wanted.every((v) => said.has(v));
  }
  const [key, word] = [normaliseMention(pair[1] as string), normaliseMention(pair[2] as string)];
  return new RegExp(`\\b${escapeRegex(key)}\\b\\W*(?:\\S+\\s+){0,3}?${escapeRegex(word)}\\b`).test(text);
}

/**
 * Where replies name one of `values` (whole words, case-insensitive) that no user turn up to and including
 * theirs named: `{turn, value}` for each, in turn order. The `discloses` check, and what the privacy oracle
 * leaves out at plan time (grounding.ts).
 */
export function namedUnasked(
  turns: readonly Pick<Turn, "user" | "reply">[],
  values: readonly string[],
): { turn: number; value: string }[] {
  const out: { turn: number; value: string }[] = [];
  let typed = "";
  turns.forEach((t, turn) => {
    typed += `\n${t.user}`;
    for (const value of values)
      if (mentionsWhole(t.reply, value) && !mentionsWhole(typed, value)) out.push({ turn, value });
  });
  return out;
}

/** A token with letters and digits (`M482913`, `GP-7301`, `AB12`) or an e-mail: what names a record. */
const RECORD_CODE =
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{3,}\b/g;
/** Letters after a number that make it a quantity or a time, not a code ("10am", "2nd", "50mg", "3kg"). */
const UNIT_SUFFIX =
  /^\d+(?:[.,]\d+)?(?:am|pm|st|nd|rd|th|h|hrs?|min|mins|kg|km|mg|ml|gb|mb|s)$|^\d+(?:[.,]\d+)?-[a-z]+$/i;

/** Words before a code that make it an example of the format ("e.g. S1234567", "it looks like SW12345678"). */
const EXAMPLE_CUE =
  /(?:\be\.?g\.?|\bfor (?:example|instance)|\bsuch as|\blike|\bformat|\bstarts? with)[\s:,]*$/i;
/** Digits of a made-up example: a run (123456, 98765) or one digit repeated (000000). */
const PLACEHOLDER = /^(?:0?1234\d*|9876\d*|(\d)\1{3,})$/;

/**
 * The record codes a text names (see {@link RECORD_CODE}), in order, without repeats; not examples of a
 * format ("e.g. S1234567") nor quantities and times ("10am", "50mg").
 */
export function recordCodes(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RECORD_CODE)) {
    const v = m[0].replace(/[.-]+$/, "");
    const example =
      EXAMPLE_CUE.test(text.slice(Math.max(0, (m.index ?? 0) - 24), m.index)) ||
      PLACEHOLDER.test(v.replace(/\D/g, ""));
    if (!example && !UNIT_SUFFIX.test(v) && !out.some((o) => o.toLowerCase() === v.toLowerCase()))
      out.push(v);
  }
  return out;
}

/**
 * Whether a reply invites another try at a value: "try again", "2 attempts left", a question for a value, a
 * question after "let's start again".
 */
export function invitesRetry(reply: string, activity: string): boolean {
  return (
    activity.startsWith("ask_") ||
    RETRY.test(reply) ||
    // "Sorry, that didn't match. Let's start again: your employee ID?"
    /\b(?:start|begin) (?:again|over|afresh)\b[^.!]*\?/i.test(reply)
  );
}

/** The details of a read-back a correction can replace: entities (not statuses), numbers of three digits or more. */
export function details(reply: string): string[] {
  return maskEntities(reply)
    .entities.filter((e) => e.type !== "status" && (e.type !== "number" || /\d{3}/.test(e.value)))
    .map((e) => e.value.trim());
}
