import {
  asksSomething,
  CLOSING_OFFER,
  GIVE_IT,
  menuGate,
  type Question,
  readQuestion,
  sentences,
} from "./answer.ts";
import { askingSentences } from "./asking.ts";
import { DONE, DONE_FIRST } from "./completions.ts";
import { maskEntities } from "./entities.ts";
import { securitySlot } from "./fallback.ts";
import { slotByFormat } from "./formats.ts";
import { echoFigure, GATE, gateWord, safetyCheck } from "./gates.ts";
import { BY_LABEL, KEY_OR_NAME } from "./menus.ts";
import {
  ABORT,
  ALTERNATIVE_OFFER,
  ASKING,
  CAPABILITY,
  CLARIFY,
  CLOSE,
  CONDITION,
  ERROR,
  GREET,
  HANDOFF_OFFER,
  HELP_LIST,
  LIMIT_STATEMENT,
  NOT_FOUND,
  REFUSE,
  SLOTS,
  TRANSFER,
} from "./reply-cues.ts";
import {
  CONTRARY,
  factSlotNames,
  knownValues,
  REPLACEMENT,
  type SlotValues,
  STRONG_REPLACEMENT,
  slotNamedIn,
  slotOfChoice,
  slotOfValue,
} from "./slots.ts";
import { POLICY_TOPICS } from "./topics.ts";
import {
  type AbstractTurn,
  CUE,
  cueOf,
  type Facts,
  type Labeller,
  TOPIC_FAMILIES,
  type Turn,
} from "./types.ts";
import { labelUserTurn, norm, userSays } from "./user-actions.ts";

/**
 * The `rules` engine of the labeller (AgentEval §IV-A): each turn → the user action of the utterance and the
 * agent activity of the reply, offline and deterministic (reference conversational-and-airline.md §4.2:
 * entity masking, then dialogue-act cue rules, then an entity-signature label for what is left). A reply's
 * label is a pure function of its text and the campaign's facts (whose slot names name what a question asks
 * for), so the judge re-labelling a run gets the labels the graph was built with. User turns: user-actions.ts.
 */

export { type Entity, type Masked, type MinedTemplate, maskEntities, mineTemplates } from "./entities.ts";
export { labelUserTurn } from "./user-actions.ts";

/* ---- Replies ---- */

/**
 * The slot a sentence asks for, if it is a question or request for a value: a facts slot the sentence names
 * (slots.ts, the scorer the driver answers with), else a built-in slot noun, else "your <…> id/number/pin/…"
 * (words with digits or hyphens dropped: "your 4-digit PIN" → `pin`).
 */
function askedSlot(sentence: string, slots: readonly string[], loose = true): string | undefined {
  if (!ASKING.test(sentence)) return undefined;
  const named = slotNamedIn(sentence, slots, undefined, loose);
  if (named) return named;
  for (const [slot, pattern] of SLOTS) if (pattern.test(sentence)) return slot;
  const noun =
    /\byour ((?:[a-z0-9-]+ ){0,2}?(?:id|number|code|address|name|date|pin|password|passcode))\b/.exec(
      sentence,
    )?.[1];
  return noun
    ?.split(" ")
    .filter((w) => /^[a-z]+$/.test(w))
    .join("_");
}

/** Entity types in the order they name an informed topic. */
const TOPIC_TYPES = [
  "booking_code",
  "flight_number",
  "money",
  "date",
  "time",
  "airport",
  "email",
  "user_handle",
  "payment_id",
];
const TOPIC_WORDS: readonly [string, RegExp][] = [
  ["policy", /\bpolic(?:y|ies)\b|\brules?\b/],
  ["price", /\bprices?\b|\bfares?\b|\bcosts?\b|\bfees?\b|\brefunds?\b/],
  ["baggage", /\bbags?\b|\bbaggage\b|\bluggage\b/],
  ["insurance", /\binsurance\b/],
  ["membership", /\bmembership\b|\bmember\b/],
  ["schedule", /\bschedules?\b|\bdepart\w*\b|\barriv\w*\b/],
];

/** `inform_<topic>` from the entity-type signature of the masked reply, then topic keywords. */
function informLabel(text: string): string {
  const types = new Set(maskEntities(text).entities.map((e) => e.type));
  types.delete("number");
  if (types.has("booking_code") && types.size >= 3) return "inform_booking_details";
  if (types.has("flight_number") && types.has("money")) return "inform_flight_options";
  if (types.has("status")) return types.has("flight_number") ? "inform_flight_status" : "inform_status";
  const named = TOPIC_TYPES.filter((t) => types.has(t)).slice(0, 2);
  if (named.length > 0) return `inform_${named.join("_")}`;
  const t = norm(text);
  const topic = TOPIC_WORDS.find(([, pattern]) => pattern.test(t))?.[0];
  return topic ? `inform_${topic}` : "inform";
}

/**
 * What a refusal, error or not-found is about, by policy cue first (two guards on one slot — a limit and a
 * deadline — stay apart; topics.ts), then the facts slot or built-in slot noun it names: `already`,
 * `availability`, `balance`, `timing`, `limit`, `identity`, `eligibility`, `policy`, `pin`, `reservation_id`.
 * No entity types: they vary with the wording, and a label must stay the same across paraphrases.
 */
function topicOf(t: string, slots: readonly string[], values?: SlotValues): string | undefined {
  const policy = POLICY_TOPICS.find(([, re]) => re.test(t))?.[0];
  if (policy) return policy;
  return slotNamedIn(t, slots) ?? SLOTS.find(([, re]) => re.test(t))?.[0] ?? slotOfValue(t, values);
}

/** The pattern of each topic family's cue: its topic is read from the sentences the cue is in. */
const FAMILY_CUE: Readonly<Record<string, RegExp>> = { [CUE.refuse]: REFUSE, [CUE.error]: ERROR };

/**
 * A family cue with its topic (`refuse_limit`), or the bare cue when the reply names none. The topic is read
 * from the sentences that carry the cue (and the one after each: "I can't do that. Your balance is overdue."),
 * so a greeting before a refusal ("Great, that's you verified. I can't add a pass to a prepaid line.") does
 * not name it; from the whole reply when no single sentence carries the cue.
 */
const withTopic = (
  cue: string,
  t: string,
  parts: readonly string[],
  slots: readonly string[],
  values?: SlotValues,
) => {
  const re = FAMILY_CUE[cue];
  const at = re ? parts.flatMap((p, i) => (re.test(p) ? [i] : [])) : [];
  const scope = at.length
    ? [...new Set(at.flatMap((i) => [i, i + 1]))].map((i) => parts[i] ?? "").join(" ")
    : t;
  const topic = topicOf(scope, slots, values);
  return topic ? `${cue}_${topic}` : cue;
};

/**
 * What a reply that reports something done asks: the question its words name, else the slot whose form it
 * states ("I've sent a one-time code … Pop the 6 digits in here": the 6-digit code). Not the slot of a record it
 * names ("I've booked F12. Would you like to book another one?" asks for no seat).
 */
function askedAfterDone(raw: string, slots: readonly string[], values?: SlotValues): Question | undefined {
  const asked = readQuestion(raw, slots);
  if (asked || !values || !asksSomething(raw)) return asked;
  const slot = slotByFormat(raw, values);
  return slot ? { kind: "value", slot, options: [] } : undefined;
}

/** Cue rules in order: a gate listing details is a gate, a refusal that mentions cancelling is a refusal. */
const CUES: readonly [
  string,
  (t: string, parts: string[], raw: string, slots: readonly string[], values?: SlotValues) => boolean,
][] = [
  // "Zolpidem can't be refilled in chat — would you like me to connect you?", "We can't add a bed to a Standard
  // room. Would you like me to check a Family room instead?": the refusal is the outcome, not a gate.
  [CUE.refuse, (t) => REFUSE.test(t) && (HANDOFF_OFFER.test(t) || ALTERNATIVE_OFFER.test(t))],
  // A gate word unquoted must be in capitals ("reply CONFIRM"); not "That amount doesn't match. Please type 35.00.".
  [
    CUE.gate,
    (t, _, r) =>
      (GATE.test(t) && !safetyCheck(askingSentences(sentences(r)))) ||
      menuGate(r) !== undefined ||
      (gateWord(r) !== undefined && !(echoFigure(r) && REFUSE.test(t))),
  ],
  // "Done: one of our team will call you …", "All arranged.": a completion said first is the outcome.
  // Not "Code accepted. What's the registration of the vehicle?": a step passed, then a question for a value.
  [
    CUE.done,
    (_, parts, raw, slots, values) =>
      DONE_FIRST.test(parts[0] ?? "") && askedAfterDone(raw, slots, values)?.slot === undefined,
  ],
  [CUE.transfer, (t) => TRANSFER.test(t)],
  [CUE.abort, (t) => ABORT.test(t)],
  [CUE.error, (t) => ERROR.test(t)],
  [CUE.notFound, (t) => NOT_FOUND.test(t)],
  // "How much would you like to claim? The declared value is €120.00, which is the most we can pay.": a limit
  // stated beside the question for the value is the question, not a refusal.
  [
    CUE.refuse,
    (_, parts, raw, slots) => {
      // A rule stated as a condition ("If a loss costs less than your deductible, there's nothing for us to
      // pay.") informs; it refuses nothing asked.
      const t = parts.filter((p) => !CONDITION.test(p)).join(" ");
      return (
        REFUSE.test(t) &&
        (REFUSE.test(t.replace(LIMIT_STATEMENT, " ")) || readQuestion(raw, slots)?.kind !== "value")
      );
    },
  ],
  // "Sorry, AQ17 has been cancelled. Which other class would you like?": a reason against, then a question for a
  // replacement, refuses what was given (not "… cancelled, no fee. Would you like to book another one?").
  [
    CUE.refuse,
    (_, parts) => {
      const question = parts.filter((p) => p.endsWith("?")).at(-1);
      if (!question || !REPLACEMENT.test(question) || CLOSING_OFFER.test(question)) return false;
      // The reason comes first: "What date instead? Choose a day … (no Sundays)." asks, it refuses nothing.
      const statements = parts
        .slice(0, parts.lastIndexOf(question))
        .filter((p) => !p.endsWith("?") && !CLARIFY.test(p));
      if (!statements.some((p) => CONTRARY.test(p))) return false;
      return STRONG_REPLACEMENT.test(question) || !statements.some((p) => DONE.test(p));
    },
  ],
  // Not "You're enrolled in: 1. CS201 … Which course do you want to withdraw from?": a state, then a question.
  [
    CUE.done,
    // Nor "I've sent a code to the mobile ending 4471. Please type it here.": a request for what was sent.
    (_, parts, raw, slots, values) =>
      parts.some((s) => DONE.test(s)) &&
      askedAfterDone(raw, slots, values)?.kind !== "value" &&
      !GIVE_IT.test(raw),
  ],
  [
    CUE.capabilities,
    (t, parts) =>
      /\bhere(?:'s| is) what (?:i|we) can\b/.test(t) ||
      parts.some(
        (s) =>
          !s.endsWith("?") &&
          ((CAPABILITY.test(s) && (s.match(/,/g) ?? []).length >= 2) || helpList(s).length >= 2),
      ),
  ],
];

/** The services of an "I can help you (with) X, Y or Z" sentence (one comma is enough); empty when none. */
function helpList(sentence: string): string[] {
  const list = HELP_LIST.exec(sentence)?.[1]?.replace(/[.!]+$/, "");
  if (!list) return [];
  const items = list.split(/\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+/).map((i) => i.trim());
  return items.every((i) => i.length > 0 && i.split(" ").length <= 8) ? items : [];
}

const LATE_CUES: readonly [string, RegExp][] = [
  [CUE.clarify, CLARIFY],
  [CUE.close, CLOSE],
];

const SAYS: Record<string, string> = {
  [CUE.gate]: "asks for a yes/no confirmation before acting",
  [CUE.safety]: "asks a yes/no safety question (is anyone hurt, is it dangerous)",
  [CUE.done]: "reports the action as done",
  [CUE.refuse]: "refuses the request",
  [CUE.abort]: "acknowledges that nothing will be done",
  [CUE.notFound]: "reports that what was asked for was not found",
  [CUE.transfer]: "transfers the user to a human agent",
  [CUE.capabilities]: "lists what it can do",
  [CUE.clarify]: "asks the user to clarify",
  [CUE.close]: "closes the conversation",
  [CUE.error]: "reports an error",
  greet: "greets the user",
  open_question: "asks an open question",
  no_reply: "gives no reply",
};

/**
 * Label an agent reply with its activity (AgentEval §IV-A): the first cue rule that applies —
 * `request_confirmation`, `transfer_to_human`, `acknowledge_abort`, `report_error`, `report_not_found`,
 * `refuse`, `confirm_completion`, `offer_capabilities` — then `ask_<slot>` (a sentence asking for a value;
 * the slot a facts slot name the sentence names, else a built-in slot noun), `clarify`, `close_conversation`,
 * then information followed only by a closing offer ("… is €2,450.00. Anything else?") as the information,
 * a closing offer alone ("Is there anything else I can help you with?") as `close_conversation`,
 * `greet` (when it informs of nothing), `open_question` (any other question: what the user wants); otherwise
 * `inform_<topic>` from the masked text's entity types (`inform_flight_status`, `inform_booking_details`,
 * `inform_flight_options`, `inform_<type>[_<type>]`) or topic words (`inform_policy`…), else `inform`. An
 * empty reply is `no_reply`. Pure function of `text` and `facts` (whose slot names only name slots); never
 * throws.
 *
 * @returns the activity label (snake_case) and a one-sentence summary.
 */
export function labelReply(text: string, facts?: Facts): { activity: string; summary: string } {
  const t = norm(text);
  const activity = replyActivity(t, text, factSlotNames(facts), facts);
  const cue = cueOf(activity);
  const topic = cue === activity ? "" : ` (${activity.slice(cue.length + 1).replace(/_/g, " ")})`;
  const says =
    SAYS[activity] ??
    (SAYS[cue] ? `${SAYS[cue]}${topic}` : undefined) ??
    (activity.startsWith("ask_")
      ? `asks for the ${activity.slice(4).replace(/_/g, " ")}`
      : `informs about ${activity.replace(/^inform_?/, "").replace(/_/g, " ") || "something"}`);
  return { activity, summary: `The agent ${says}.` };
}

/** The facts slot some of whose values are among `options` (a menu of plans → `plan`), if any. */
function slotOfOptions(options: readonly string[], facts: Facts): string | undefined {
  const listed = new Set(options.map((o) => norm(o)));
  for (const persona of facts.personas)
    for (const [slot, values] of Object.entries(persona))
      if (values.some((v) => listed.has(norm(v)))) return slot;
  return undefined;
}

function replyActivity(t: string, text: string, slots: readonly string[], facts?: Facts): string {
  if (t.length === 0) return "no_reply";
  // Sentences as written (a line break ends one too: "- Guest passes left: 0\nCan I help …?"), normalised.
  const raw = sentences(text);
  const parts = raw.map(norm);
  const values = facts && knownValues(facts);
  for (const [activity, applies] of CUES)
    if (applies(t, parts, text, slots, values))
      return TOPIC_FAMILIES.includes(activity) ? withTopic(activity, t, parts, slots, values) : activity;
  // A slot named only by its qualifier after any sentence naming one in full (as the driver reads it).
  for (const loose of [false, true])
    for (const s of parts) {
      // ("Tell me which one was missing (number or name).": an option's name, no slot's.)
      if (KEY_OR_NAME.test(s) || BY_LABEL.test(s)) continue;
      const slot = (ASKING.test(s) ? slotOfChoice(s, values) : undefined) ?? askedSlot(s, slots, loose);
      if (slot) return `ask_${slot}`;
    }
  const listed = readQuestion(text, slots, values);
  if (listed?.kind === "screen") return CUE.safety;
  if (listed?.slot && listed.kind !== "gate") return `ask_${listed.slot}`;
  if (listed?.kind === "value" && listed.options.length) {
    const slot = facts && slotOfOptions(listed.options, facts);
    // "Hmm, I didn't catch that. Here are the charges: 1. … Which one?": a list of no known slot, re-offered
    // because the answer was not understood, is the clarification.
    if (!slot && CLARIFY.test(t.replace(/\bwhich one\b/g, " "))) return CUE.clarify;
    return `ask_${slot ?? "choice"}`;
  }
  // A security question in its own words ("What was the make of your first car?"): the slot holding its answer.
  const secret = securitySlot(text, slots);
  if (secret) return `ask_${secret}`;
  for (const [activity, pattern] of LATE_CUES) if (pattern.test(t)) return activity;
  // Sentences of the original text (same split as `parts`), without closing offers.
  const body = raw
    .map((r) =>
      r
        .replace(/[\u2018\u2019]/g, "'")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((_, i) => !(CLOSING_OFFER.test(parts[i] ?? "") && parts[i]?.endsWith("?")));
  // Statements only (a closing offer aside): information, whatever it names ("Put simply, the deductible is
  // the part you cover. Can I help with anything else?").
  if (body.length > 0 && !body.some((s) => s.endsWith("?"))) return informLabel(body.join(" "));
  if (body.length === 0) return CUE.close;
  if (GREET.test(t)) return "greet";
  if (parts.some((p) => p.endsWith("?"))) return "open_question";
  return informLabel(text);
}

/**
 * The `rules` labeller (AgentEval §IV-A, {@link Labeller}): each reply through {@link labelReply}, each user
 * turn through {@link labelUserTurn} with the previous reply's activity, and a one-sentence summary per turn.
 * `known` is ignored: rules labels are a pure function of the text, so they are stable across traces anyway.
 */
export const rulesLabeller: Labeller = {
  async label(trace: { id: string; turns: readonly Turn[] }, facts: Facts): Promise<AbstractTurn[]> {
    let previous: string | undefined;
    return trace.turns.map((turn) => {
      const user = labelUserTurn(turn.user, facts, previous);
      const reply = labelReply(turn.reply, facts);
      previous = reply.activity;
      const agent = reply.summary.replace(/^The agent/, "the agent");
      return {
        userAction: user.userAction,
        activity: reply.activity,
        provided: user.provided,
        summary: `${userSays(user.userAction, user.provided)}; ${agent}`,
      };
    });
  },
};
