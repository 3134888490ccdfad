import { maskEntities } from "./entities.ts";
import { type AbstractTurn, CUE, type Facts, type Labeller, type Turn } from "./types.ts";

/**
 * The `rules` engine of the labeller (AgentEval §IV-A): each turn → the user action of the utterance and the
 * agent activity of the reply, offline and deterministic (reference conversational-and-airline.md §4.2:
 * entity masking, then dialogue-act cue rules, then an entity-signature label for what is left). A reply's
 * label is a pure function of its text, so the judge re-labelling a run gets the labels the graph was built
 * with.
 */

export { type Entity, type Masked, type MinedTemplate, maskEntities, mineTemplates } from "./entities.ts";

/** Lower case, straight quotes, single spaces. */
const norm = (text: string) =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
const sentences = (t: string) => t.split(/(?<=[.!?])\s+/).filter((s) => s.length > 0);
const words = (t: string) => t.split(/[^a-z0-9_']+/).filter((w) => w.length > 0).length;

/* ---- Replies ---- */

const GATE =
  /\byes\s*(?:\/|or)\s*no\b|\bconfirm with (?:a )?"?yes\b|\b(?:shall|should|may|can) i (?:proceed|go ahead|continue|do (?:that|this|it)|make (?:that|this|the) change)\b|\b(?:do|would) you (?:like|want) me to\b|\b(?:ready|ok(?:ay)?) to proceed\?|\bconfirm (?:that )?you (?:want|wish|would like)\b|\bis (?:that|this) (?:correct|right|ok(?:ay)?)\?/;
const TRANSFER =
  /\btransferr?(?:ed|ing)? (?:you )?to an? (?:human|live|real)\b|\b(?:human|live) (?:agent|representative)\b|\bconnect(?:ing)? you (?:with|to) an? (?:human|person|representative|colleague|specialist)\b|\bhand(?:ing)? (?:you )?(?:over|off) to\b/;
const ABORT =
  /\bi (?:will not|won't|shall not) (?:make|do|proceed|change|cancel|go ahead|apply)\b|\bnothing (?:has been|was|is|will be) (?:changed|modified|cancell?ed|done)\b|\b(?:left|leaving|keep(?:ing)?) (?:it|everything|the \w+|your \w+) (?:as (?:it is|is)|unchanged)\b|\bno changes? (?:has|have|were|was|will be) (?:been )?made\b|\bthe (?:request|operation|change) (?:has been|was|is) (?:aborted|withdrawn|dropped)\b/;
const ERROR =
  /\bsomething went wrong\b|\bcould not be (?:made|completed|processed|saved|applied)\b|\b(?:technical|unexpected|internal|system) (?:error|issue|problem)\b|\berror (?:has )?occurred\b|\btry again later\b|\bfailed to\b|\b(?:system|service) is (?:currently )?(?:down|unavailable)\b/;
const NOT_FOUND =
  /\b(?:could not|couldn't|can't|cannot|was unable to|am unable to) (?:find|locate)\b|\bi found no\b|\bno (?:such|matching) \w+|\b(?:does not|doesn't) exist\b|\bthere (?:is|are) no \S+(?: \S+)? (?:with|in our|found|matching|available|for)\b|\bno \w+(?: \w+)? (?:was|were) found\b|\bnot found\b|\bno (?:records?|results?) (?:of|for|found)\b/;
const REFUSE =
  /\b(?:i|we) (?:can't|cannot|can not|am unable to|are unable to|am not able to|are not able to|won't be able to)\b|\bi'm (?:unable|not able) to\b|\bnot (?:possible|allowed|permitted|eligible)\b|\bunfortunately\b|\b(?:does not|doesn't) belong to\b|\bnot under your\b|\b(?:do|does) not qualify\b|\bagainst (?:our |the )?policy\b/;
const COMPLETED =
  "(?:cancell?ed|completed|added|updated|changed|issued|booked|processed|refunded|modified|upgraded|downgraded|removed|applied|sent|credited|made|moved)";
const DONE = new RegExp(
  String.raw`^(?:done|all set|completed)\b|\bit(?:'s| is| has been) done\b|\b(?:has|have) (?:now )?been (?:successfully )?${COMPLETED}\b|\bi(?: have|'ve) (?:now )?(?:successfully )?${COMPLETED}\b|\bis now (?!(?:on time|delayed|boarding|flying|landed|scheduled|available|departed)\b)|\bsuccessfully\b`,
);
const CAPABILITY = /\b(?:i|we) (?:can|could|am able to|are able to)\b|\bi'm able to\b/;
const CLARIFY =
  /\bdid you mean\b|\b(?:could|can) you (?:please )?(?:clarify|rephrase|be more specific)\b|\bnot sure (?:what|which|i understand)\b|\bi (?:didn't|did not|don't|do not) (?:get|understand|catch|follow)\b|\bwhich one\b|\bdo you mean\b/;
const CLOSE =
  /\bgood ?bye\b|\bbye\b|\bhave a (?:great|good|nice|wonderful) (?:day|trip|flight|evening)\b|\bsafe travels\b|\btake care\b/;
const GREET =
  /^(?:hello|hi|hey|welcome|greetings|good (?:morning|afternoon|evening))\b|\bhow (?:can|may) i (?:help|assist)\b|\bwhat can i do for you\b/;
const ASKING =
  /\?$|^(?:please|kindly)\b|\b(?:could|can|would) you (?:please )?(?:give|tell|share|provide|send|enter|let me know)\b|\bi(?: will)? need (?:your|the|to know)\b|\bmay i (?:have|ask|get|know)\b|\bplease (?:give|tell|share|provide|send|enter|let me know|confirm)\b/;

/** Slots a question can ask for, by the noun phrase it names; first match wins. */
const SLOTS: readonly [string, RegExp][] = [
  ["user_id", /\buser ?(?:id|name)\b|\b(?:customer|account|member(?:ship)?) (?:id|number)\b/],
  [
    "reservation_id",
    /\breservation (?:id|code|number)\b|\bwhich reservation\b|\bbooking (?:reference|code|number|id)\b|\bconfirmation (?:number|code)\b/,
  ],
  ["reason", /\breason\b|\bwhy\b/],
  ["cabin", /\bcabin\b|\b(?:which|fare) class\b/],
  ["bags", /\bbags?\b|\bbaggage\b|\bluggage\b|\bsuitcases?\b/],
  [
    "route",
    /\broute\b|\borigin\b|\bdestination\b|\bwhere (?:to|from)\b|\b(?:travel|which|what) date\b|\bwhen (?:do|would|will) you\b/,
  ],
  ["flight", /\bwhich flight\b|\bflight number\b/],
  ["passengers", /\bpassengers?\b|\bhow many (?:people|travell?ers)\b/],
  ["payment_method", /\bpayment(?: method)?\b|\bpay with\b/],
  ["email", /\be-?mail\b/],
];

/** The slot a sentence asks for, if it is a question or request for a value. */
function askedSlot(sentence: string): string | undefined {
  if (!ASKING.test(sentence)) return undefined;
  for (const [slot, pattern] of SLOTS) if (pattern.test(sentence)) return slot;
  const named = /\byour ((?:[a-z]+ ){0,2}?(?:id|number|code|address|name|date))\b/.exec(sentence)?.[1];
  return named?.replace(/ /g, "_");
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

/** Cue rules in order: a gate listing details is a gate, a refusal that mentions cancelling is a refusal. */
const CUES: readonly [string, (t: string, parts: string[]) => boolean][] = [
  [CUE.gate, (t) => GATE.test(t)],
  [CUE.transfer, (t) => TRANSFER.test(t)],
  [CUE.abort, (t) => ABORT.test(t)],
  [CUE.error, (t) => ERROR.test(t)],
  [CUE.notFound, (t) => NOT_FOUND.test(t)],
  [CUE.refuse, (t) => REFUSE.test(t)],
  [CUE.done, (_, parts) => parts.some((s) => DONE.test(s))],
  [
    CUE.capabilities,
    (t, parts) =>
      /\bhere(?:'s| is) what (?:i|we) can\b/.test(t) ||
      parts.some((s) => CAPABILITY.test(s) && !s.endsWith("?") && (s.match(/,/g) ?? []).length >= 2),
  ],
];
const LATE_CUES: readonly [string, RegExp][] = [
  [CUE.clarify, CLARIFY],
  [CUE.close, CLOSE],
  ["greet", GREET],
];

const SAYS: Record<string, string> = {
  [CUE.gate]: "asks for a yes/no confirmation before acting",
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
 * the slot from the noun phrase asked for), `clarify`, `close_conversation`, `greet`, `open_question` (any
 * other question: what the user wants); otherwise
 * `inform_<topic>` from the masked text's entity types (`inform_flight_status`, `inform_booking_details`,
 * `inform_flight_options`, `inform_<type>[_<type>]`) or topic words (`inform_policy`…), else `inform`. An
 * empty reply is `no_reply`. Pure function of `text`; never throws.
 *
 * @returns the activity label (snake_case) and a one-sentence summary.
 */
export function labelReply(text: string): { activity: string; summary: string } {
  const t = norm(text);
  const activity = replyActivity(t, text);
  const says =
    SAYS[activity] ??
    (activity.startsWith("ask_")
      ? `asks for the ${activity.slice(4).replace(/_/g, " ")}`
      : `informs about ${activity.replace(/^inform_?/, "").replace(/_/g, " ") || "something"}`);
  return { activity, summary: `The agent ${says}.` };
}

function replyActivity(t: string, text: string): string {
  if (t.length === 0) return "no_reply";
  const parts = sentences(t);
  for (const [activity, applies] of CUES) if (applies(t, parts)) return activity;
  for (const s of parts) {
    const slot = askedSlot(s);
    if (slot) return `ask_${slot}`;
  }
  for (const [activity, pattern] of LATE_CUES) if (pattern.test(t)) return activity;
  if (parts.some((p) => p.endsWith("?"))) return "open_question";
  return informLabel(text);
}

/* ---- User turns ---- */

const YES =
  /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|confirm(?:ed)?|correct|right|absolutely|definitely|of course|go ahead|please do|proceed|do it|that's (?:right|correct))\b/;
const NO = /^(?:no|nope|nah|don't|do not|not now|never ?mind|cancel that|stop|negative)\b/;
const INSIST =
  /\bi insist\b|\bjust do it\b|\banyway\b|\bi (?:already|just) (?:told|said|gave)\b|\bas i (?:said|told you|mentioned)\b|\byou (?:must|have to)\b|\bcome on\b|\bi don't care\b|\bmake an exception\b/;
const THANK = /^(?:thanks|thank you|thx|cheers|great,? thanks?|bye|goodbye|that's all|that is all)\b/;

/** Request verbs, in priority order (`request_<verb>`). */
const VERBS: readonly [string, RegExp][] = [
  ["human", /\b(?:human|real person|representative|supervisor|manager|live agent)\b/],
  ["compensate", /\b(?:compensat\w*|vouchers?|certificates?|reimburs\w*)\b/],
  ["cancel", /(?<!\b(?:was|were|got|been|is|are|be) )\bcancel(?:l?ing|l?ation|s)?\b/],
  ["upgrade", /\b(?:upgrade|downgrade)\b/],
  ["add", /\badd(?:ing)?\b|\b(?:more|extra) (?:bags?|luggage|baggage)\b/],
  ["remove", /\b(?:remove|delete|drop)\b/],
  ["change", /\b(?:change|modify|switch|move|update|reschedule)\b(?! of\b)/],
  ["refund", /\brefund\b/],
  ["book", /\b(?:book|reserve|buy|purchase)\b/],
  ["search", /\b(?:search|find|look(?:ing)? for|any flights|available flights|flights? from)\b/],
  ["check", /\b(?:check|status|track|verify|on time|delayed|is my flight)\b/],
  ["show", /\b(?:show|details?|see|view|list|what did i|tell me about|look up|info(?:rmation)?)\b/],
];

/** Entity types that are not a slot value on their own (they are when they answer a question). */
const NOT_SLOTS = new Set(["number", "status"]);

/**
 * Label a user utterance (AgentEval §IV-A): `affirm` / `deny` (a short yes or no), `insist` (pushing:
 * "I insist", "anyway", or a request repeated right after a `refuse`), `request_<verb>` (verbs: human,
 * compensate, cancel, upgrade, add, remove, change, refund, book, search, check, show), `provide_<slot>`
 * (only values: the asked slot when provided, else the first provided), `thank`, else `other`.
 *
 * `provided` lists every slot the turn carries a value for: a value listed in `facts` gives its slot; the
 * first other value (or, with none, a free-text answer) answers the previous `ask_<slot>`; other values give
 * their entity type (`booking_code`, `date`…; plain numbers and status words only when answering a question).
 * `previousActivity` is the activity of the agent's previous reply (undefined on the first turn).
 */
export function labelUserTurn(
  text: string,
  facts: Facts | undefined,
  previousActivity?: string,
): { userAction: string; provided: string[] } {
  const t = norm(text);
  if (t.length === 0) return { userAction: "other", provided: [] };
  const factSlots = new Set((facts?.personas ?? []).flatMap((p) => Object.keys(p)));
  const asked = previousActivity?.startsWith("ask_") ? previousActivity.slice(4) : undefined;
  const provided: string[] = [];
  const add = (slot: string) => {
    if (!provided.includes(slot)) provided.push(slot);
  };
  let answered = false;
  const entities = maskEntities(text, facts).entities;
  for (const e of entities) {
    if (factSlots.has(e.type)) add(e.type);
    else if (asked && !answered && !provided.includes(asked)) add(asked);
    else if (!NOT_SLOTS.has(e.type)) add(e.type);
    answered ||= e.type === asked || (asked !== undefined && !factSlots.has(e.type));
  }
  const verb = VERBS.find(([, pattern]) => pattern.test(t))?.[0];
  const yes = YES.test(t);
  const no = !yes && NO.test(t);
  const thank = THANK.test(t);
  if (asked && entities.length === 0 && !verb && !yes && !no && !thank) add(asked);
  let userAction: string;
  if ((yes || no) && words(t) <= 6 && provided.length === 0) userAction = yes ? CUE.affirm : CUE.deny;
  else if (INSIST.test(t) || (verb && previousActivity === CUE.refuse)) userAction = CUE.insist;
  else if (verb) userAction = `request_${verb}`;
  else if (provided.length > 0)
    userAction = `provide_${asked && provided.includes(asked) ? asked : provided[0]}`;
  else if (yes || no) userAction = yes ? CUE.affirm : CUE.deny;
  else if (thank) userAction = "thank";
  else userAction = "other";
  return { userAction, provided };
}

const userSays = (action: string, provided: readonly string[]) => {
  const values = provided.length > 0 ? ` (giving ${provided.join(", ").replace(/_/g, " ")})` : "";
  if (action.startsWith("request_")) return `The user asks to ${action.slice(8)}${values}`;
  if (action.startsWith("provide_"))
    return `The user gives the ${(provided.length > 0 ? provided : [action.slice(8)]).join(", ").replace(/_/g, " ")}`;
  const verbs: Record<string, string> = {
    affirm: "says yes",
    deny: "says no",
    insist: "insists",
    thank: "thanks",
  };
  return `The user ${verbs[action] ?? "says something else"}${values}`;
};

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
      const reply = labelReply(turn.reply);
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
