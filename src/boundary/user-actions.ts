import { maskEntities } from "./entities.ts";
import { CUE, cueOf, type Facts } from "./types.ts";

/**
 * The user side of the `rules` labeller (AgentEval §IV-A): each user utterance → its user action (`affirm`,
 * `deny`, `insist`, `request_<verb>`, `provide_<slot>`, `thank`, `other`) and the slots whose values it
 * carries. Pure and deterministic.
 */

/** Lower case, straight quotes, single spaces. */
export const norm = (text: string) =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
const wordList = (t: string) => t.split(/[^a-z0-9_']+/).filter((w) => w.length > 0);

const YES =
  /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|confirm(?:ed)?|correct|right|absolutely|definitely|of course|go ahead|please do|proceed|do it|that's (?:right|correct))\b/;
const NO = /^(?:no|nope|nah|don't|do not|not now|never ?mind|cancel that|stop|negative)\b/;
const INSIST =
  /\bi insist\b|\bjust do it\b|\banyway\b|\bi (?:already|just) (?:told|said|gave)\b|\bas i (?:said|told you|mentioned)\b|\byou (?:must|have to)\b|\bcome on\b|\bi don't care\b|\bmake an exception\b/;
const THANK = /^(?:thanks|thank you|thx|cheers|great,? thanks?|bye|goodbye|that's all|that is all)\b/;
/** Words a short yes or no may carry besides the yes or no itself ("Yes, please go ahead with the change"). */
const FILLER = new Set(
  "yes yeah yep yup sure ok okay no nope nah please go ahead proceed do it that that's this is right correct confirm confirmed i absolutely definitely of course fine good great perfect sounds thanks thank you let's now don't not with the a".split(
    " ",
  ),
);
/** Words that make a yes vague ("Okay, do that thing with it"): it no longer answers the question asked. */
const VAGUE = /\b(?:thing|things|stuff|something|other|else|maybe|whatever|somehow)\b/;

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
/** Any other request, by the verb after a request phrase ("I'd like to transfer money" → `transfer`). */
const REQUEST_PHRASE =
  /\b(?:i'?d like to|i would like to|i want to|i need to|i wish to|help me(?: to)?|can you|could you|would you|please)\s+(?=([a-z]+))/g;
/** Words after a request phrase that are not the verb of the request. */
const NOT_VERBS = new Set(
  "a an the my me you your it this that with to be have get help know tell talk speak ask let please do go just also".split(
    " ",
  ),
);

/** The verb of a request: the first of {@link VERBS} that applies, else the verb after a request phrase. */
function requestVerb(t: string): string | undefined {
  const known = VERBS.find(([, pattern]) => pattern.test(t))?.[0];
  if (known) return known;
  for (const m of t.matchAll(REQUEST_PHRASE)) {
    const verb = m[1] as string;
    if (!NOT_VERBS.has(verb) && verb.length > 2) return verb;
  }
  return undefined;
}

/** Entity types that are not a slot value on their own (they are when they answer a question). */
const NOT_SLOTS = new Set(["number", "status"]);

/**
 * Label a user utterance (AgentEval §IV-A): `affirm` / `deny` (a short answer that is mainly a yes or a no:
 * at most six words, at most one beyond yes/no words and politeness, nothing vague like "that thing"), `insist` (pushing: "I insist",
 * "anyway", or a request repeated right after a `refuse`), `request_<verb>` (verbs: human, compensate,
 * cancel, upgrade, add, remove, change, refund, book, search, check, show; else the verb after "I'd like
 * to", "could you", "please"…: `request_transfer`), `provide_<slot>` (only values: the asked slot when
 * provided, else the first provided), `thank`, else `other`.
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
  const verb = requestVerb(t);
  const yes = YES.test(t);
  const no = !yes && NO.test(t);
  const thank = THANK.test(t);
  if (asked && entities.length === 0 && !verb && !yes && !no && !thank) add(asked);
  const words = wordList(t);
  const mainly = words.length <= 6 && words.filter((w) => !FILLER.has(w)).length <= 1 && !VAGUE.test(t);
  let userAction: string;
  if ((yes || no) && mainly && provided.length === 0) userAction = yes ? CUE.affirm : CUE.deny;
  else if (
    INSIST.test(t) ||
    (verb && previousActivity !== undefined && cueOf(previousActivity) === CUE.refuse)
  )
    userAction = CUE.insist;
  else if (verb) userAction = `request_${verb}`;
  else if (provided.length > 0)
    userAction = `provide_${asked && provided.includes(asked) ? asked : provided[0]}`;
  else if (no) userAction = CUE.deny;
  else if (thank) userAction = "thank";
  else userAction = "other";
  return { userAction, provided };
}

/** One sentence saying what a labelled user turn does ("The user gives the user id"). */
export function userSays(action: string, provided: readonly string[]): string {
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
}
