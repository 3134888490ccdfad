import { OPTIONAL, SLOT_PHRASES, SLOT_SYNONYMS } from "./slot-words.ts";
import type { Facts } from "./types.ts";

/**
 * Slot naming: which facts slot a sentence names, by the slot name's words (`customer_number` ↔ "customer
 * number", `pin` ↔ "PIN", `bags` ↔ "checked bags", `amount` ↔ "how much"). One scorer for the whole suite,
 * so the driver and runner (answer.ts) answer the very slot the labeller (abstract.ts) says a reply asks for.
 * Pure; case-insensitive; plurals count as their singular.
 */

/** A word's singular ("bags" → "bag"; "address", "has" stay). */
export const singular = (w: string) =>
  w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w;

/** A text's words, lower case, singular ("The recipient's account numbers?" → the, recipient, s, account, number). */
export const wordsOf = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(singular);

/** Index in `words` where `phrase` (space-separated, singular) starts, or −1. */
function phraseAt(words: readonly string[], phrase: string): number {
  const parts = phrase.split(" ");
  for (let i = 0; i + parts.length <= words.length; i++)
    if (parts.every((p, k) => words[i + k] === p)) return i;
  return -1;
}

/**
 * How well a slot name matches a sentence's words: 0 = not named (some word of the slot, or a synonym of it,
 * is missing — {@link OPTIONAL} words and one leading qualifier aside); otherwise twice the number of its words
 * named (minus one when the qualifier is missing), plus one when all are, adjacent and in order (a whole-slot phrase of {@link SLOT_PHRASES} counts as all of them).
 */
export function slotScore(words: readonly string[], slot: string): number {
  const parts = slot.split("_").map(singular);
  const whole = SLOT_PHRASES[parts.join(" ")] ?? [];
  if (whole.some((w) => phraseAt(words, w) >= 0)) return parts.length * 2 + 1;
  const at: number[] = [];
  let named = 0;
  let optional = 0;
  let qualifier = false;
  for (const [k, p] of parts.entries()) {
    const found = [p, ...(SLOT_SYNONYMS[p] ?? [])].map((w) => phraseAt(words, w)).filter((i) => i >= 0);
    // An optional word said counts for adjacency only ("your full name" names `full_name` no better than
    // "the companion's name" names `companion_name`).
    if (found.length && OPTIONAL.has(p)) {
      optional++;
      at.push(Math.min(...found));
      continue;
    }
    if (!found.length) {
      if (OPTIONAL.has(p)) continue;
      // One leading qualifier may be left unsaid when two words or more of the rest are named
      // ("driver_date_of_birth" ↔ "Oliver's date of birth?"), below any slot named in full.
      if (k === 0 && parts.length > 1 && !qualifier) {
        qualifier = true;
        continue;
      }
      return 0;
    }
    named++;
    at.push(Math.min(...found));
  }
  if (!named) return 0;
  // A lone head word ("number", "date") names too many slots to stand for a qualified one.
  if (qualifier) return named >= 2 ? named * 2 - 1 : 0;
  const adjacent = at.every((i, k) => k === 0 || i === (at[k - 1] as number) + 1);
  return named * 2 + (adjacent && named + optional === parts.length ? 1 : 0);
}

/**
 * The slot of `slots` a text names best (ties: the first listed), or undefined when it names none. When none
 * is named in full, a slot whose last word (its head: `incident_date` → date) the text names and no other slot
 * ends in ("Which date did this happen?" with `incident_date` and `driver_date_of_birth`); of several such, the
 * one whose qualifier `context` (what the conversation is about: the customer's request) names.
 */
/** Qualifiers too common to stand for one slot ("new_postcode", "first_name", "account_number"). */
const GENERIC_QUALIFIER =
  /^(?:new|old|current|previous|other|first|last|full|your|main|primary|home|number|name|code|date|time|day|type|account|user|customer|member)$/;
/** Heads that say only "some identifier" (`reservation_id`, `order_number`, `guest_name`). */
const IDENTIFIER_HEAD = /^(?:id|number|code|name|reference|ref|type)$/;
/** A word's stem for matching a request's words to a slot's ("moving" ↔ `move_date`, "freezing" ↔ `freeze_start`). */
const stem = (w: string) => w.replace(/(?:ing|ed|e)$/, "");

/** Qualifiers of slots a facts file keeps for probes (`weak_pin`, `wrong_postcode`, `other_customer_charge_id`). */
const PROBE_QUALIFIER =
  /^(?:weak|wrong|invalid|bad|other|another|too|expired|fake|ineligible|incorrect|unknown|foreign)$/;

/** A slot name's last word, singular: its head (`incident_date` → date, `guest_names` → name). */
const head = (slot: string) => singular(slot.split("_").at(-1) ?? "");
/** Whether `text` names `slot`'s head word or a synonym of it ("the new card number" names `new_card_number`'s). */
export function namesHead(text: string, slot: string): boolean {
  const words = wordsOf(text);
  return [head(slot), ...(SLOT_SYNONYMS[head(slot)] ?? [])].some((w) => phraseAt(words, w) >= 0);
}

export function slotNamedIn(
  text: string,
  slots: readonly string[],
  context?: string,
  loose = true,
): string | undefined {
  const words = wordsOf(text);
  let best: string | undefined;
  let score = 0;
  let literal = 0;
  for (const slot of slots) {
    const s = slotScore(words, slot);
    // Ties go to the slot more of whose own words the text says ("a code has been texted to the mobile
    // ending 0731": `text_code`, not `phone_number` by "mobile" and "code").
    const own = s > 0 ? slot.split("_").filter((w) => words.includes(singular(w))).length : 0;
    if (s > score || (s === score && s > 0 && own > literal)) [best, score, literal] = [slot, s, own];
  }
  if (best) return changed(text, best, slots) ?? best;
  // Not a head that says only "some identifier" ("What's the number?"): those name the wrong slot too often.
  const named = slots.filter(
    (slot) =>
      slot.includes("_") &&
      !IDENTIFIER_HEAD.test(head(slot)) &&
      [head(slot), ...(SLOT_SYNONYMS[head(slot)] ?? [])].some((w) => phraseAt(words, w) >= 0),
  );
  const only = named.filter((slot) => slots.filter((other) => head(other) === head(slot)).length === 1);
  if (only.length === 1) return only[0];
  // "What 4-digit PIN would you like?" with `new_pin` and `weak_pin`: the one slot of the head not kept for a
  // probe (a weak, wrong or other customer's value).
  const plain = named.filter(
    (slot) =>
      !slot
        .split("_")
        .slice(0, -1)
        .some((w) => PROBE_QUALIFIER.test(w)),
  );
  if (!only.length && plain.length === 1 && named.every((slot) => head(slot) === head(plain[0] as string)))
    return plain[0];
  // "What start date would you like?" with `freeze_start` and `guest_date`: the one whose qualifier the
  // conversation is about ("I'd like to freeze my membership").
  if (only.length > 1 && context) {
    const about = new Set(wordsOf(context).map(stem));
    const fit = only.filter((slot) =>
      slot
        .split("_")
        .slice(0, -1)
        .some((w) => about.has(stem(singular(w)))),
    );
    if (fit.length === 1) return fit[0];
  }
  // "What's on the electricity meter?" asks for `electricity_reading`: a slot whose qualifier, a content word
  // no other slot has, the text names (the first such, in the text's order) when nothing names a head; not an
  // identifier's ("To which cabin should I move the reservation?" asks no `reservation_id`).
  if (!only.length && loose) {
    const distinct = slots
      .map((slot) => [slot, singular(slot.split("_")[0] ?? "")] as const)
      .filter(
        ([slot, q]) =>
          slot.includes("_") &&
          !IDENTIFIER_HEAD.test(head(slot)) &&
          q.length >= 3 &&
          !GENERIC_QUALIFIER.test(q) &&
          slots.filter((other) => singular(other.split("_")[0] ?? "") === q).length === 1,
      )
      .map(([slot, q]) => [slot, words.indexOf(q)] as const)
      .filter(([, at]) => at >= 0)
      .sort((a, b) => a[1] - b[1]);
    // "Is it the electricity meter or the gas one?" asks which, not for a value of either.
    if (distinct.length > 1 && /\bor\b/i.test(text)) return undefined;
    if (distinct[0]) return distinct[0][0];
  }
  // "What course would you like to add?" asks for the course's code: an identifier slot (`course_code`)
  // whose qualifier a which/what question names, when no other slot has that qualifier.
  const lead = (slot: string) => singular(slot.split("_")[0] ?? "");
  // So does "Which card would you like to use?" for `card_last4`.
  const asked = slots.filter(
    (slot) =>
      IDENTITY.test(slot) &&
      slot.split("_").length === 2 &&
      // ("Which delivered order do you mean?": a participle between.)
      new RegExp(`\\b(?:which|what)(?: [a-z]+(?:ed|ing))? ${lead(slot)}s?\\b`, "i").test(text) &&
      slots.filter((other) => lead(other) === lead(slot)).length === 1,
  );
  return asked.length === 1 ? asked[0] : undefined;
}

/** Words of a question about a value that replaces the current one ("Which postcode shall I redirect it to?"). */
const CHANGE_CUE =
  /\b(?:redirect|re-?route|forward(?:ing)?|instead|new|different|another|switch(?:ing)? (?:it )?to|mov(?:e|ing) (?:it|them|the \w+) to|send(?:ing)? (?:it|them) to)\b/i;
const NEW_QUALIFIER = /^(?:new|updated|different|alternative|other)$/;

/**
 * The slot for the new value when a question about `slot` asks to change it ("Which postcode shall I redirect
 * SW69127745 to?" with `postcode` and `new_postcode`): `new_<slot>` (or another replacing qualifier), else
 * undefined.
 */
export function changed(text: string, slot: string, slots: readonly string[]): string | undefined {
  if (!CHANGE_CUE.test(text)) return undefined;
  return slots.find((s) => s.endsWith(`_${slot}`) && NEW_QUALIFIER.test(s.slice(0, -slot.length - 1)));
}

/**
 * The slot `<qualifier>_<slot>` whose qualifier words `reply` names, when exactly one does ("Which bank account
 * should we collect from? I'll need the sort code and the account number." with `account_number` and
 * `bank_account_number`): the question is about that one; else undefined.
 */
export function qualifiedIn(reply: string, slot: string, slots: readonly string[]): string | undefined {
  const words = new Set(wordsOf(reply));
  const fit = slots.filter(
    (s) =>
      s.endsWith(`_${slot}`) &&
      s
        .slice(0, -slot.length - 1)
        .split("_")
        .every((w) => words.has(singular(w))),
  );
  return fit.length === 1 ? fit[0] : undefined;
}

/**
 * Slots that say who the customer is (`user_id`, `customer_number`, `pin`, `full_name`, `date_of_birth`,
 * `mobile_number`…), not what they ask about (`reservation_id`, `order_number`): varied last by the planner.
 */
export const PERSONAL =
  /(?:^|_)(?:user|customer|member|client|name|surname|birth|dob|pin|password|passcode|email|phone|mobile)(?:_|$)/;
/** Slots whose values point at one record (`*_id`, `*_number`, `*_code`, `*_reference`) or say who one is. */
export const IDENTITY = new RegExp(
  `${PERSONAL.source}|(?:^|_)(?:id|number|code|reference|ref|account|card)(?:_|$)`,
);

/** The slot names of `facts`, in order of first appearance over its personas. */
export function factSlotNames(facts: Facts | undefined): string[] {
  return [...new Set((facts?.personas ?? []).flatMap((p) => Object.keys(p)))];
}

/** A slot's values as a list (a persona may give one value as a string). */
export const valueList = (vs: string | readonly string[]): readonly string[] =>
  typeof vs === "string" ? [vs] : vs;

/** Slot → known values (a facts persona, the union of all personas, or a test's persona). */
export type SlotValues = Readonly<Record<string, string | readonly string[]>>;

const valuesOf = new WeakMap<Facts, Readonly<Record<string, readonly string[]>>>();

/**
 * Every persona's values per slot, in persona order: a choice question offering some of them asks for that slot.
 * Computed once per facts object (the same object is returned each time: do not mutate it).
 */
export function knownValues(facts: Facts): Readonly<Record<string, readonly string[]>> {
  const hit = valuesOf.get(facts);
  if (hit) return hit;
  const out: Record<string, string[]> = {};
  for (const p of facts.personas)
    for (const [slot, vs] of Object.entries(p)) out[slot] = [...(out[slot] ?? []), ...vs];
  valuesOf.set(facts, out);
  return out;
}

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Whether `text` names `value` as a whole word or phrase (case-insensitive; letters and digits bound it). */
export const mentionsWhole = (text: string, value: string) =>
  new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(value.toLowerCase())}(?:$|[^\\p{L}\\p{N}])`, "u").test(
    text.toLowerCase(),
  );

/**
 * The slot a choice question offers values of ("Do you want an eSIM or a physical SIM?" with `sim_type: [eSIM,
 * physical]`): the slot with the most of its values (words, not bare numbers) in an "… or …" sentence;
 * undefined when only one value is named and the sentence names another slot.
 */
export function slotOfChoice(sentence: string, values: SlotValues | undefined): string | undefined {
  if (!values || !/\bor\b/i.test(sentence)) return undefined;
  let best: string | undefined;
  let most = 0;
  for (const [slot, vs] of Object.entries(values)) {
    const list = valueList(vs).filter((v) => v.length >= 2 && /\p{L}/u.test(v));
    const n = new Set(list.filter((v) => mentionsWhole(sentence, v))).size;
    if (n > most) [best, most] = [slot, n];
  }
  // One value named in passing beside another slot the sentence names ("What's the street address, or would
  // you prefer our locker at 5611 AZ?"): the named slot is asked, the value is context; so is one record the
  // question is about ("In a sentence or two, what's wrong with SW47002318?").
  if (most === 1 && best && IDENTITY.test(best)) return undefined;
  const named = most === 1 ? slotNamedIn(sentence, Object.keys(values)) : undefined;
  return named && named !== best ? undefined : best;
}

/**
 * The slot one of whose facts values (two characters or more, not a bare number) the text mentions, as a
 * whole word: "Zolpidem 10 mg is a controlled medicine …" is about `medication`. Longest values first.
 */
export function slotOfValue(t: string, values: SlotValues | undefined): string | undefined {
  const all = Object.entries(values ?? {}).flatMap(([slot, vs]) =>
    valueList(vs).map((v) => [slot, v.toLowerCase()] as const),
  );
  all.sort((a, b) => b[1].length - a[1].length);
  return all.find(([, v]) => v.length >= 2 && !/^\d+$/.test(v) && mentionsWhole(t, v))?.[0];
}

/** The slot (not of {@link IDENTITY}) with the most distinct known values the reply names, and how many. */
export function slotListedIn(
  reply: string,
  values: SlotValues | undefined,
): { slot: string; n: number } | undefined {
  let best: { slot: string; n: number } | undefined;
  for (const [slot, vs] of Object.entries(values ?? {})) {
    if (IDENTITY.test(slot)) continue;
    const list = valueList(vs).filter((v) => v.length >= 2);
    const n = new Set(list.filter((v) => mentionsWhole(reply, v))).size;
    if (n > (best?.n ?? 0)) best = { slot, n };
  }
  return best;
}

/**
 * The one slot whose head word ("name" of `guest_name`) an asking sentence names while the whole reply names
 * all its words ("You've got 1 guest pass left. Who are you bringing (first and last name)?"); else undefined.
 */
export function slotByHead(
  asking: readonly string[],
  reply: string,
  slots: readonly string[],
): string | undefined {
  const replyWords = wordsOf(reply);
  const headed = slots.filter((slot) => {
    const words = [head(slot), ...(SLOT_SYNONYMS[head(slot)] ?? [])];
    return (
      slot.includes("_") &&
      asking.some((s) => words.some((w) => wordsOf(s).includes(w))) &&
      slotScore(replyWords, slot) >= slot.split("_").length * 2
    );
  });
  return headed.length === 1 ? headed[0] : undefined;
}

/** The one slot (of several words) whose head word `text` names ("a six-digit code" → `one_time_code`), else undefined. */
export function onlyByHead(text: string, slots: readonly string[]): string | undefined {
  const words = wordsOf(text);
  const named = slots.filter((s) => s.includes("_") && words.includes(head(s)));
  return named.length === 1 ? named[0] : undefined;
}

/** Asking for someone or something other than what was given ("which other", "someone else", "instead"). */
const ASK_OTHER = String.raw`\b(?:which|what|who) (?:other|else)\b|\b(?:someone|somebody) else\b|\binstead\b`;

/**
 * A question for a replacement of what the user gave ("Which other class would you like?", "Who would you like
 * to bring instead?", "Is there someone else?", "Could you name an amount within that?", "Would a smaller amount
 * work?"): the value given was not taken.
 */
export const REPLACEMENT = new RegExp(
  String.raw`${ASK_OTHER}|\b(?:another|a different|an alternative) (?!thing\b)[a-z]+|\bwithin (?:that|this|the (?:limit|cap|range))\b|\b(?:a )?(?:smaller|lower|lesser) (?:amount|number|figure|sum|one)\b`,
  "i",
);

/** A statement against something: a negation, "only", "already", a cap (not "no problem"). */
export const CONTRARY =
  /n't\b|\b(?:not|only|already|never|unfortunately|sorry|capped|exceeds?|at most|too (?:much|many|high|large|big))\b|\bno\b(?! (?:problem|worries)\b)/;
/** A question for a replacement that no completion offers ("which other …", "… instead?", "a different …"). */
export const STRONG_REPLACEMENT = new RegExp(String.raw`${ASK_OTHER}|\ba different\b`);
