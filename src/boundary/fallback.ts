import {
  asksSomething,
  numberedOptions,
  offeredCapabilities,
  optionsIn,
  type Persona,
  sentences,
} from "./answer.ts";
import { MONTHS } from "./entities.ts";
import { statedPrefix } from "./formats.ts";
import { dateInside } from "./limits.ts";
import { oneOf, sayValue } from "./persona-values.ts";
import { mentionsWhole, valueList } from "./slots.ts";

/**
 * What the rules driver says when the rules cannot answer the agent (issue 15: a driver that completes unseen
 * workflows): the question names no slot of the facts in words the slot scorer knows ("What was the make of
 * your first car?", "At which house number?"), or it names one the persona has no value for, or the persona's
 * values for it were all refused. A person in that place does not go silent: they pick an option the agent
 * listed, give a value inside the range the agent stated, give the one of their details that has the shape
 * asked for, or say they do not have it — and the agent's answer to that is a branch of its workflow (a
 * re-ask, a refusal, a hand-off). Pure functions of the reply, the persona and what the user already said.
 */

/** What the customer says when they do not have what the agent asks for. */
export const DONT_KNOW = "Sorry, I don't have that to hand.";

/** What the customer says to an offer of a next step ({@link OFFER}). */
export const TAKE_OFFER = "Yes, please.";
/** A yes/no question offering a next step ("Would you like to book?", "Shall I change the dates instead?"). */
const OFFER =
  /^(?:[a-z,' ]{0,40}[,;:—–-]\s*)?(?:would you like|do you want|shall i|should i|want me to)\b[^?]*\?$/i;

/** Times {@link DONT_KNOW} is said in one session at most (an agent may allow more than one attempt). */
const DONT_KNOW_MAX = 2;

/** Whether the user named `value` (as a whole word) in any of the turns `sent`. */
const said = (sent: readonly string[], value: string) => sent.some((u) => mentionsWhole(u, value));

/** The asking sentences of a reply (see answer.ts `asksSomething`). */
const asking = (reply: string) => sentences(reply).filter((s) => asksSomething(s));

/**
 * An option the reply lists (numbered, or after a colon or in parentheses) that the user has not said yet —
 * for "You're taking: 1. STA201 … 2. PHI120 … Which one?" once every value of the persona was refused; the
 * first such, or undefined when the reply lists none or all were said.
 */
export function unsaidOption(reply: string, sent: readonly string[]): string | undefined {
  const listed = numberedOptions(reply);
  const options = listed.length
    ? listed
    : (asking(reply)
        .map(optionsIn)
        .find((o) => o.length) ?? []);
  return options.find((o) => !said(sent, o) && !said(sent, o.split(/\s+/)[0] ?? o));
}

/** "1 to 8 weeks", "between 2 and 6 nights", "1-4 people": the bounds and the unit. */
const RANGE =
  /\b(?:between\s+)?(\d{1,4})\s*(?:to|-|–|and|through)\s*(\d{1,4})\s+([a-z]+(?:\s[a-z]+)?)\b|\bup to (\d{1,4})\s+([a-z]+)\b/i;

/** A sentence stating a range or a bound of numbers ("0 to 60", "the maximum is 60"), not a date a hold runs until. */
const STATES_RANGE =
  /\b\d[\d,.]*\s*(?:to|–|-)\s*[£$€]?\d|\b(?:max(?:imum)?|min(?:imum)?|at most|at least|up to|no more than|limit)\b[^.?!]*\d/i;

/**
 * The first asking sentence of a reply with the ones next to it, where a question states its own range ("… be? It
 * can be 1 to 8 weeks.", "Allowed depth: 0 to 60. How deep is it?"): the sentence after it, and the one before it
 * when that states a range or bound ({@link STATES_RANGE}); empty when the reply asks nothing.
 */
export function askingPart(reply: string): string[] {
  const all = sentences(reply);
  const ask = all.findIndex((s) => asksSomething(s));
  if (ask < 0) return [];
  const before = ask > 0 && STATES_RANGE.test(all[ask - 1] ?? "") ? ask - 1 : ask;
  return all.slice(before, ask + 2);
}

const MONTH_UNIT = new RegExp(`^(?:${MONTHS})\\b`, "i");

/**
 * A value inside the range an asking sentence of the reply states ("How long should the freeze be? It can be
 * 1 to 8 weeks" → "2 weeks"; "up to 4 guests" → "1 guest"), or undefined when none states one. The second
 * value of a range (its first when it has one value) — inside, and not the edge a boundary test probes.
 */
export function inStatedRange(reply: string): string | undefined {
  const near = askingPart(reply);
  // A date window ("any day from 13 November 2025 to 12 December 2025"): the day after its first.
  const day = dateInside(near.join(" "));
  if (day) return day;
  for (const s of near) {
    const m = RANGE.exec(s);
    // "up to 26 November" is a date, not 26 of something.
    if (!m || MONTH_UNIT.test(m[3] ?? m[5] ?? "")) continue;
    if (m[4] !== undefined) return `1 ${oneOf(m[5] as string)}`;
    const lo = Number(m[1]);
    const hi = Number(m[2]);
    if (!(hi > lo)) continue;
    const n = lo + 1;
    const unit = (m[3] as string).split(" ")[0] as string;
    return `${n} ${n === 1 ? oneOf(unit) : unit}`;
  }
  return undefined;
}

/** A reply about checking who the customer is ("I need to check your identity", "your security question"). */
const VERIFY_CUE = /\b(?:identity|verify|verification|security|secret|memorable)\b/i;
/** A slot holding the answer to a security question (`security_answer`, `memorable_word`, `password`). */
const SECRET_SLOT = /secur|secret|memorable|passphrase|password|answer/i;

/**
 * The slot of `slots` holding the answer to a security question when `reply` asks one in words no slot name
 * says ("Before I go on, I need to check your identity. What was the make of your first car?"); undefined when
 * the reply asks nothing, is not about checking who the customer is, or no slot is such an answer.
 */
export function securitySlot(reply: string, slots: readonly string[]): string | undefined {
  return asksSomething(reply) && VERIFY_CUE.test(reply) ? slots.find((s) => SECRET_SLOT.test(s)) : undefined;
}

/**
 * The shapes a question can ask for, by its words (`whole`: anywhere in the reply, else in its asking
 * sentences), each with a test of a value's form or of its slot's name.
 */
const SHAPES: readonly { cue: RegExp; whole?: boolean; fits: (value: string, slot: string) => boolean }[] = [
  // "I need to check your identity. What was the make of your first car?": the answer to a security question.
  { cue: VERIFY_CUE, whole: true, fits: (_, slot) => SECRET_SLOT.test(slot) },
  { cue: /\be-?mail\b/i, fits: (v) => /@/.test(v) },
  {
    cue: /\b(?:date|when|day|birth|born|dob|birthday)\b/i,
    fits: (v) =>
      new RegExp(`\\b(?:${MONTHS})\\b`, "i").test(v) || /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(v.trim()),
  },
  { cue: /\b(?:phone|mobile|telephone|cell)\b/i, fits: (v) => v.replace(/\D/g, "").length >= 7 },
  // A code or number: one token of letters and digits ("RC-20577", "DP68 WNF"), not a phrase that holds a number
  // ("Mill Lane outside number 12", "6 months") nor a date.
  {
    cue: /\b(?:number|no\.|id|code|reference|ref|pin|digits?)\b/i,
    fits: (v) =>
      /\d/.test(v) &&
      /^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$/.test(v.trim()) &&
      v.trim().split(/\s+/).length <= 2 &&
      !/^\d+\s+[A-Za-z]+$/.test(v.trim()),
  },
  { cue: /\bname\b/i, fits: (v) => /^[\p{L}'-]+(?: [\p{L}'-]+)+$/u.test(v.trim()) },
];

/**
 * The persona's first value (slots in persona order) that has the shape the reply asks for (the answer to a
 * security question, an e-mail address, a date, a phone number, a number or code, a full name; the first shape
 * with an unsaid value wins) and that the user has not said yet, as a user turn; undefined when the reply names
 * no shape or no unsaid value fits.
 */
export function shapedValue(reply: string, persona: Persona, sent: readonly string[]): string | undefined {
  const text = asking(reply).join(" ");
  const prefix = statedPrefix(reply);
  const fitsPrefix = (v: string) => !prefix || v.trim().toUpperCase().startsWith(prefix);
  for (const shape of SHAPES) {
    if (!shape.cue.test(shape.whole ? reply : text)) continue;
    for (const [slot, vs] of Object.entries(persona))
      for (const v of valueList(vs))
        if (shape.fits(v, slot) && fitsPrefix(v) && !said(sent, v)) return sayValue(slot, v);
  }
  return undefined;
}

/** An open question ("What would you like to do?", "How can I help?"): nothing to have or not have. */
const OPEN =
  /\b(?:what|how) (?:else )?(?:can|may|shall|could) (?:i|we)\b|\bwhat (?:would|do) you (?:like|want|need)\b(?! (?:me )?to (?:use|call|enter|give))|\bhow can i help\b|\banything else\b|\bwhat brings you\b/i;

/** Whether the reply asks an open question or offers its menu (the request is the answer there, not a value). */
export const isOpen = (reply: string) =>
  OPEN.test(asking(reply).join(" ")) || offeredCapabilities(reply).length > 0;

/**
 * The fallback answer when the rules read no answer in `reply` (see module doc), in order: a value inside a
 * stated range; the persona's unsaid value of the shape asked for; {@link DONT_KNOW} (twice a session at most).
 * Undefined when the reply asks nothing, asks an open question or offers a menu ({@link isOpen}), or none applies.
 */
export function fallbackAnswer(reply: string, persona: Persona, sent: readonly string[]): string | undefined {
  if (!asksSomething(reply) || isOpen(reply)) return undefined;
  const ranged = inStatedRange(reply);
  if (ranged && !sent.includes(ranged)) return ranged;
  const shaped = shapedValue(reply, persona, sent);
  if (shaped) return shaped;
  // "… is GBP 504.00. Would you like to book?": an offer of a next step, taken once (where it leads is more of
  // the workflow).
  if (asking(reply).some((q) => OFFER.test(q)) && !sent.includes(TAKE_OFFER)) return TAKE_OFFER;
  return sent.filter((u) => u === DONT_KNOW).length < DONT_KNOW_MAX ? DONT_KNOW : undefined;
}
