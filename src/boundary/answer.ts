import { askingSentences, CLOSING_OFFER, GIVE_IT, isAsking, sentences, YES_NO_ALONE } from "./asking.ts";
import { dateForPlace, slotByFormat, slotOfDay } from "./formats.ts";
import { GATE, gateWord, safetyCheck } from "./gates.ts";
import {
  alternativesIn,
  BY_LABEL,
  KEY_OR_NAME,
  keyedOptions,
  letteredOptions,
  MENU_NO,
  MENU_YES,
  menuGate,
  numberedOptions,
  optionsIn,
} from "./menus.ts";
import { oneOf, ownOption, personaValue, sayValue, withUnit } from "./persona-values.ts";
import { objectAsked, optionsSlot, slotsOfParts } from "./question-slots.ts";
import {
  escapeRegExp,
  IDENTITY,
  mentionsWhole,
  namesHead,
  onlyByHead,
  qualifiedIn,
  REPLACEMENT,
  type SlotValues,
  slotByHead,
  slotListedIn,
  slotNamedIn,
  slotOfChoice,
  slotOfValue,
  valueList,
} from "./slots.ts";

export { asksSomething, CLOSING_OFFER, GIVE_IT, REENTER, RETRY, sentences } from "./asking.ts";
export { echoFigure, GATE, gateWord, KEYWORD_GATE } from "./gates.ts";
export { menuGate, numberedOptions, optionsIn } from "./menus.ts";
export { offeredCapabilities } from "./services.ts";

/**
 * Answering the agent as a customer would (the rules driver of AgentEval §III-A and runner of §III-B): read
 * what a reply asks for — a persona slot, a yes/no confirmation, one of the options it lists, a count — and
 * answer it from a persona. Pure and deterministic: the same reply, persona and pick give the same answer.
 * Only the visible reply is read; slot names are matched to the question's words (`reservation_id` answers
 * "Could you tell me the reservation id?", `amount` answers "How much would you like to send?") by the scorer
 * the labeller uses too (slots.ts), so the driver answers the slot a reply is labelled as asking for.
 */

/** Slot → values (a facts persona) or slot → value (a test's persona). */
export type Persona = Readonly<Record<string, string | readonly string[]>>;

/** What a reply asks the user (see {@link readQuestion}). */
export interface Question {
  /**
   * `gate`: a yes/no confirmation before acting; `screen`: a yes/no safety check ("Is anyone hurt?", gates.ts
   * `safetyCheck`); `count`: how many of `noun`; `value`: a slot or an option.
   */
  kind: "gate" | "screen" | "count" | "value";
  /** The persona slot the question's wording names, when one does. */
  slot?: string;
  /** Count questions: what is counted, as worded ("checked bags"). */
  noun?: string;
  /** Choices the question lists ("basic economy, economy or business"), in order; empty when none. */
  options: string[];
  /** Gates that ask for a word rather than a yes ("Reply CONFIRM to go ahead"): that word, as written. */
  keyword?: string;
  /** Gates offered as a menu ("1) Confirm 2) Change something 3) Cancel"): the option that says no. */
  no?: string;
  /** Further slots the same sentence asks for with "and" ("the postcode and last name"), in order. */
  also?: string[];
  /**
   * Menus answered by an option's key, not its words ("A) Tue 10 Mar 08:00 … — reply with the letter", "Reply 1
   * for your card, or 2 for account credit"): each option's key, in the order of `options`.
   */
  labels?: string[];
}

/** How to answer (see {@link answerQuestion}). */
export interface AnswerOptions {
  /** Which value or option to take when there are several (index, wrapped); default 0. */
  pick?: number;
  /** Answer a confirmation gate with no instead of yes. */
  decline?: boolean;
  /** Count to give when the persona has none; without it such a question is left unanswered. */
  defaultCount?: number;
  /** Earlier agent replies: options they mention (the current value) are picked last. */
  earlier?: readonly string[];
  /** Known values per slot (e.g. every persona's), to read a choice between them; default the persona's. */
  values?: SlotValues;
  /** What the conversation is about (the customer's request), to tell apart slots a question names alike. */
  context?: string;
}

/** The user's answer to a confirmation gate. */
export const YES_ANSWER = "Yes, please go ahead.";
/** The user's refusal at a confirmation gate. */
export const NO_ANSWER = "No, please don't do that.";

/** The user's answers to a safety check: no (the ordinary case, pick 0), and yes (the emergency branch, pick 1). */
export const SAFETY_ANSWERS = ["No, nothing like that.", "Yes, it is."] as const;

/** "how many …", "(the/a/total) number of …" — not "the mobile number of your line". */
const COUNT = /\b(?:how many|(?:^|\b(?:the|a|total|exact)\s+)number of)\s+([a-z]+(?:\s+[a-z]+){0,3})/i;
const COUNT_STOP = new Set(
  "should would do does are is will did in for to on you have the that this per we i can shall may could must and or".split(
    " ",
  ),
);

/**
 * What a reply asks the user, or undefined when it asks nothing answerable (no question, or a question that
 * names no slot of `slots` and lists no options, like "What would you like to do?"). A gate asking for a word
 * or a confirmation wins over everything else in the reply; then a count ("how many …", "the number of …");
 * then the first asking sentence offering values of a slot as a choice (`values`), or naming a slot — a
 * sentence asking for "it" takes the slot the sentence before it names ("We sent a code. Please type it
 * here."); then a list of options.
 */
export function readQuestion(
  reply: string,
  slots: readonly string[] = [],
  values?: SlotValues,
  context?: string,
): Question | undefined {
  const all = sentences(reply);
  const keyword = all.map(gateWord).find(Boolean);
  if (keyword) return { kind: "gate", options: [], keyword };
  const menu = menuGate(reply);
  if (menu)
    return { kind: "gate", options: menu.options, keyword: menu.yes, ...(menu.no ? { no: menu.no } : {}) };
  // "Reply 1 to confirm, or 2 to cancel": a gate keyed like a menu; "Reply 1 for your card ending 4417, or 2 for
  // account credit": options answered by their key.
  const keyed = keyedOptions(reply);
  const yes = keyed.find(([, o]) => MENU_YES.test(o));
  const no = keyed.find(([, o]) => MENU_NO.test(o));
  if (yes && no) return { kind: "gate", options: keyed.map(([, o]) => o), keyword: yes[0], no: no[0] };
  const asking = askingSentences(all);
  if (!asking.length && !keyed.length) return undefined;
  const text = asking.join(" ");
  // "Pay £250.00 now with the card on file? Your balance would then be £1,000.00. (yes/no)": the answer's form,
  // alone after the question, makes it a gate.
  if (safetyCheck(asking)) return { kind: "screen", options: [] };
  if (GATE.test(text) || all.some((s) => YES_NO_ALONE.test(s))) return { kind: "gate", options: [] };
  const { options, labels } = offered(asking, reply, keyed);
  const keys = labels ? { labels } : {};
  // "Could you tell me the date, the start time, how many hours and how many people?": a count among other values
  // is one part of a question for several (the value question below, with the others beside it).
  const counted = asking.find((s) => COUNT.test(s));
  const count = counted && slotsOfParts(counted, reply, slots).length < 2 ? COUNT.exec(text)?.[1] : undefined;
  if (count) {
    const words = count.toLowerCase().split(/\s+/);
    const end = words.findIndex((w) => COUNT_STOP.has(w));
    const noun = words.slice(0, end < 0 ? words.length : end).join(" ");
    // "How much should I send? Tell me the number of days' supply": the slot the noun names, else the question.
    // "How many transcripts shall I order?" with a `copies` slot: the one slot whose values are all counts.
    const counts = Object.entries(values ?? {}).filter(
      ([s, vs]) => !IDENTITY.test(s) && valueList(vs).every((v) => /^\d{1,3}$/.test(v)),
    );
    const slot =
      slotNamedIn(noun, slots) ??
      slotNamedIn(text, slots) ??
      (counts.length === 1 && slots.includes(counts[0]?.[0] ?? "") ? counts[0]?.[0] : undefined);
    // "the number of the one you want" counts nothing: it asks for a choice.
    if (noun) return { kind: "count", noun, ...(slot ? { slot } : {}), options };
    // "You have 1,250 loyalty points. … How many would you like to redeem?": the one count slot the reply names.
    const named = Object.entries(values ?? {}).filter(
      ([s, vs]) =>
        !IDENTITY.test(s) &&
        valueList(vs).every((v) => /^\d[\d,]*$/.test(v)) &&
        mentionsWhole(reply, s.replace(/_/g, " ")), // its own words, not a synonym ("how many" is every count's)
    );
    if (named.length === 1 && named[0]) {
      const [only] = named[0];
      return { kind: "count", noun: only.replace(/_/g, " "), slot: only, options };
    }
  }
  // What the conversation is about, to tell apart slots a question names alike: the request, and the reply's
  // own statements ("Which day will you hand over the keys? I can record a move date until …").
  const about = `${context ?? ""} ${all.filter((s) => !isAsking(s)).join(" ")}`;
  // The question for `slot` one sentence asks, with the slots its other parts ask beside it.
  const askedIn = (sentence: string, slot: string): Question => {
    const named = slotsOfParts(sentence, reply, slots);
    // In the order the sentence asks for them.
    const asked = qualifiedIn(reply, slot, slots) ?? slot;
    // (The whole sentence may name a slot no part does: "the companion's name and your date of birth".)
    if (named.length > 1 && named.some((n) => n === asked || asked.endsWith(`_${n}`)))
      return { kind: "value", slot: named[0] as string, options, also: named.slice(1), ...keys };
    return { kind: "value", slot: asked, options, ...keys };
  };
  // "On what grounds? 1) … 2) someone else moved the vehicle after my ride": a slot the options name is no question.
  const bare = (sentence: string) =>
    options.reduce((t, o) => (o.split(/\s+/).length > 2 ? t.split(o).join(" ") : t), sentence);
  // "Which item was missing? Reply with the number or the name.": an option's name (listed now or before), no slot's.
  const byKey = (said: string) => BY_LABEL.test(said) || KEY_OR_NAME.test(said);
  for (const said of asking) {
    if (byKey(said)) continue;
    const sentence = bare(said);
    // "Which meter is the reading for — electricity or gas?" with `electricity_reading` and `gas_reading`: a
    // choice between slots of one head, answered with a qualifier ("gas"); the value is asked next.
    const kinds = said
      .split(/,?\s+or\s+/i)
      .map((h) => slotNamedIn(h, slots))
      .filter((x, i, xs): x is string => x !== undefined && xs.indexOf(x) === i);
    if (
      kinds.length > 1 &&
      kinds.every((k) => k.includes("_") && k.split("_").at(-1) === kinds[0]?.split("_").at(-1))
    )
      return { kind: "value", options: kinds.map((k) => k.split("_").slice(0, -1).join(" ")) };
    // "Which item from BK-40190 was missing or damaged?" asks for the item, not for one of the choices after it.
    const which = /\b(?:which|what) ([a-z]+)\b/i.exec(sentence)?.[1];
    const choice = slotOfChoice(sentence, values);
    // "What's the postcode of your delivery address? (Your order number works too.)": the question's own slot
    // before the alternative in brackets.
    const main = sentence.replace(/\s*\([^()]*\)/g, "");
    // "Which profile's maturity rating should I change?", "Which profile would you like to lock with a PIN?" ask
    // which profile: its name (id, number).
    const owner = /\bwhich ([a-z]+)\b/i.exec(sentence)?.[1]?.toLowerCase();
    const named = owner
      ? slots.filter((s) => new RegExp(`^${owner}_(?:name|id|number|code|reference)$`).test(s))
      : [];
    const slot =
      (named.length === 1 ? named[0] : undefined) ??
      (choice && which ? slotNamedIn(which, slots, undefined, false) : undefined) ??
      choice ??
      (main !== sentence ? slotNamedIn(main, slots, about, false) : undefined) ??
      slotNamedIn(sentence, slots, about, false);
    // "Where in your home is the problem — kitchen, bathroom, bedroom …?" asks the room its choices are values
    // of, not the problem the sentence also names.
    if (slot && dateForPlace(sentence, valueList(values?.[slot] ?? []))) continue;
    // "Which card should we use? Send me the new card number.": a slot named by a qualifier only ("card") gives
    // way to one a later sentence names by its head.
    if (slot && slot !== choice && !namesHead(sentence, slot)) {
      const later = asking.slice(asking.indexOf(said) + 1).map(bare);
      const headed = later
        .map((l) => [l, slotNamedIn(l, slots, about, false)] as const)
        .find(([l, s]) => s && s !== slot && namesHead(l, s));
      if (headed?.[1]) return askedIn(headed[0], headed[1]);
    }
    const asked = slot ? askedIn(sentence, slot) : undefined;
    if (asked && slot === choice && asked.slot !== choice)
      return { kind: "value", slot: choice, options, ...keys };
    if (asked) return asked;
    const before = all[all.indexOf(said) - 1];
    // "We sent a code. Please type it here." / "What is it?" (not "When would you like it to begin?"): the
    // slot the sentence before names, or the one whose head it names ("a six-digit code" → one_time_code).
    const referred =
      GIVE_IT.test(sentence) && before
        ? (slotNamedIn(before, slots, context) ?? onlyByHead(before, slots))
        : undefined;
    if (referred) return { kind: "value", slot: referred, options };
  }
  // A slot named only by its qualifier ("the electricity meter") after every sentence that names one in full: "To
  // book a bulky collection I need to confirm who you are. What's your account number?" asks no collection date.
  for (const said of asking) {
    if (byKey(said)) continue;
    const sentence = bare(said);
    const slot = slotNamedIn(sentence, slots, about, true);
    if (slot) return askedIn(sentence, slot);
  }
  // "Grace Okoro is a member. Who would you like to bring instead?": the slot of the value it names, again;
  // "1 guest pass left. Who are you bringing (full name)?": the slot whose head it asks, qualifier aside.
  const replaced = asking.some((s) => REPLACEMENT.test(s) && !CLOSING_OFFER.test(s));
  // ("Reply with the number." after a numbered menu asks for an option's number, no slot's.)
  const again =
    (replaced ? slotOfValue(reply, values) : undefined) ??
    slotByHead(options.length ? asking.filter((a) => !BY_LABEL.test(a)) : asking, bare(reply), slots);
  if (again) return { kind: "value", slot: again, options };
  // "What would you like to add to FF-10233, and how many?" after "add an item to my order": the slot the request
  // names as the object of the verb the question asks about.
  const object = objectAsked(asking, context, slots, values);
  if (object && !options.length) return { kind: "value", slot: object, options };
  // "1. HI33 HIIT Blast … 5. YO22 Yin Yoga. Just give me the code or the name.": the slot whose values it lists.
  if (options.length) {
    const slot = values && optionsSlot(options, values);
    return { kind: "value", options, ...(slot ? { slot } : {}), ...keys };
  }
  // "Here's the catalogue: CS101 …, STA201 … Want to enrol in one?": the question is about the slot whose
  // values the reply lists (not who the customer is: a verified record's number is no question).
  const listed = asking.some((s) => !CLOSING_OFFER.test(s)) ? slotListedIn(reply, values) : undefined;
  const which = asking.some((s) => /\b(?:which|what|one|any of (?:them|these|those))\b/i.test(s));
  if (listed && (listed.n >= 2 || which)) return { kind: "value", slot: listed.slot, options: [] };
  // "Please give me the reference number, for example FR-1234.": the one slot whose values have the form shown.
  const formatted = values && (slotByFormat(reply, values) ?? slotOfDay(text, values));
  if (formatted) return { kind: "value", slot: formatted, options: [] };
  return undefined;
}

/**
 * The options a question offers — listed at the end of an asking sentence, keyed ("Reply 1 for …, or 2 for …"),
 * numbered, else lettered — and, for a menu answered by key, each option's key: always a keyed or lettered
 * menu's, a numbered menu's when the reply asks for the number ("Reply with the number."). See Question.labels.
 */
function offered(
  asking: readonly string[],
  reply: string,
  keyed: readonly [string, string][],
): { options: string[]; labels?: string[] } {
  const listed = asking.map(optionsIn).find((o) => o.length);
  if (listed) return { options: listed };
  if (keyed.length) return { options: keyed.map(([, o]) => o), labels: keyed.map(([k]) => k) };
  const numbered = numberedOptions(reply);
  if (numbered.length)
    return BY_LABEL.test(reply)
      ? { options: numbered, labels: numbered.map((_, i) => String(i + 1)) }
      : { options: numbered };
  const lettered = letteredOptions(reply);
  if (lettered.length)
    return { options: lettered, labels: lettered.map((_, i) => String.fromCharCode(65 + i)) };
  // "Would you like the refund to your card or as app credit?": the two sides of its "or".
  return { options: asking.map(alternativesIn).find((o) => o.length) ?? [] };
}

/** One of `options`, preferring those not mentioned in `visible` (longer options are matched first). */
function choose(options: readonly string[], pick: number, visible: readonly string[]): string {
  let seen = visible.join(" ").toLowerCase();
  const mentioned = new Set<string>();
  for (const o of [...options].sort((a, b) => b.length - a.length)) {
    const re = new RegExp(`\\b${escapeRegExp(o.toLowerCase())}\\b`, "g");
    if (re.test(seen)) mentioned.add(o);
    seen = seen.replace(re, " ");
  }
  const fresh = options.filter((o) => !mentioned.has(o));
  const pool = fresh.length ? fresh : options;
  return pool[pick % pool.length] as string;
}

/**
 * The user's answer to `question` from `persona`, or undefined when the persona cannot answer it. Gates get
 * {@link YES_ANSWER} (or {@link NO_ANSWER} with `decline`); counts "2 checked bags" (the persona's number, else
 * `defaultCount`); slots the persona's value; otherwise one of the listed options, by `pick`, preferring one
 * not mentioned in `visible` (what the agent said is current).
 */
export function answerTo(
  question: Question,
  persona: Persona,
  options: AnswerOptions & { visible?: readonly string[] } = {},
): string | undefined {
  const pick = options.pick ?? 0;
  if (question.kind === "gate")
    return options.decline ? (question.no ?? NO_ANSWER) : (question.keyword ?? YES_ANSWER);
  if (question.kind === "screen") return SAFETY_ANSWERS[pick % 2];
  const value = question.slot === undefined ? undefined : personaValue(persona, question.slot, pick);
  if (question.kind === "count") {
    // A count the persona has no value for ("How many points would you like to redeem?"): another customer's.
    const known = question.slot ? valueList(options.values?.[question.slot] ?? [])[0] : undefined;
    const n =
      value ?? known ?? (options.defaultCount === undefined ? undefined : String(options.defaultCount));
    if (n === undefined) return undefined;
    if (!/^\d+$/.test(n) || !question.noun) return n;
    return `${n} ${n === "1" ? oneOf(question.noun) : question.noun}`;
  }
  // A menu answered by key: the key of the option the persona names (else, without a value of the slot asked,
  // of the option chosen).
  const own = question.labels ? ownOption(question.options, persona, pick, options.visible) : undefined;
  if (question.labels && (own || value === undefined) && question.options.length) {
    const chosen = own ?? choose(question.options, pick, options.visible ?? []);
    return question.labels[question.options.indexOf(chosen)] ?? chosen;
  }
  // "Where should it go? 1) Back to card ending 4417 2) Account credit": the option holding the persona's value.
  const holding =
    value !== undefined && value.length >= 2 && !question.also?.length
      ? question.options.find((o) => o.length > value.length && mentionsWhole(o, value))
      : undefined;
  if (holding) return holding;
  if (value !== undefined && question.slot) {
    const more = (question.also ?? []).flatMap((slot) => {
      const v = personaValue(persona, slot, pick);
      return v === undefined ? [] : [withUnit(slot, v)];
    });
    return more.length
      ? [withUnit(question.slot, value), ...more].join(", ")
      : sayValue(question.slot, value);
  }
  if (question.options.length) {
    // An option the persona names (its plan, its time slot) is the customer's own choice.
    const own = ownOption(question.options, persona, pick, options.visible);
    if (own) return own;
    // A list of some of a slot's values ("1. HI33 HIIT Blast … 5. YO22 Yin Yoga") without the one the customer
    // wants: the customer names theirs anyway (a cancelled class, a class not open yet: where the guards are).
    const slot = optionsSlot(question.options, options.values ?? persona);
    const mine = slot && personaValue(persona, slot, pick);
    return mine ? sayValue(slot, mine) : choose(question.options, pick, options.visible ?? []);
  }
  return undefined;
}

/**
 * The user's answer to what `reply` asks (see {@link readQuestion} and {@link answerTo}), or undefined when it
 * asks nothing the persona (or the reply's own options) can answer. `earlier` replies and the reply's own
 * statements count as visible when choosing among options.
 */
export function answerQuestion(
  reply: string,
  persona: Persona,
  options: AnswerOptions = {},
): string | undefined {
  const question = readQuestion(reply, Object.keys(persona), options.values ?? persona, options.context);
  if (!question) return undefined;
  const statements = sentences(reply).filter((s) => !isAsking(s));
  return answerTo(question, persona, { ...options, visible: [...(options.earlier ?? []), ...statements] });
}
