import { serviceVerb } from "./services.ts";

/**
 * What the `rules` customer says first in a discovery session (AgentEval §III-A): a service the agent offered,
 * phrased as the customer's own request ("change its cabin" → "Hi, I'd like to change my cabin."), lightly
 * rephrased for a consistency round, with values given up front in the agent's own words for them ("My
 * customer number is 40778899 and my PIN is 9024."), and the urgency of a customer in a hurry. Pure.
 */

/**
 * A request phrase as the customer says it: "change its cabin" → "change my cabin", "put you through to a
 * pharmacist" → "talk to a pharmacist", "tell you our opening hours" → "know the opening hours", "tell you where a
 * parcel is" → "know where my parcel is", "let you pay customs charges" → "pay customs charges", "answer questions
 * about deductibles" → "ask about deductibles".
 */
export function asRequest(phrase: string): string {
  // "changing your delivery address" → "change my delivery address".
  const verb = /^\S+ing\b/.test(phrase) ? serviceVerb(phrase) : undefined;
  if (verb) phrase = phrase.replace(/^\S+/, verb);
  return (
    phrase
      .replace(
        /\b(?:put you through|connect you|transfer you|pass you|hand you over)\s+(?:to|with)\b/gi,
        "talk to",
      )
      // The agent's "I can tell you our opening hours" is the customer's "know the opening hours", its "tell
      // you where a parcel is" the customer's "know where my parcel is".
      .replace(/\b(?:tell|give|show) you (?:about )?(?:our|the)\b/gi, "know the")
      .replace(/\b(?:tell|show) you (?=where|when|what|how|why|whether|if|which|about)\b/gi, "know ")
      // "let you pay customs charges", "help you file a claim": the customer's "pay customs charges".
      .replace(/^(?:let|help) you (?:to )?/i, "")
      .replace(/^(?:take|accept|process) (?:a |the )?payments? (?:of|for)\b/i, "pay")
      // "share the timetable with anyone": the customer's "see the timetable".
      .replace(/^(?:share|show|send)( you)? (the|our)\b/i, "see $2")
      .replace(/\s+with (?:anyone|everyone|you)$/i, "")
      // "answer questions about deductibles" is the customer's "ask about deductibles".
      .replace(/\banswer (?:your |any )?questions? (?:about|on|regarding)\b/gi, "ask about")
      // "Customers can … update their address": the customer's own.
      .replace(/\btheir\b/gi, "my")
      // "change its cabin" is "change my cabin"; "make a booking" stays a new one.
      .replace(
        /\b(?<!\b(?:make|get|place|file|open|add|report|request|book|talk to|speak to|speak with) )(a|an|its|your)\b/gi,
        "my",
      )
  );
}

/**
 * Lightly rephrase a first request ("Hi, I'd like to X." → "Hello, could you help me X?"), a verb's plural object
 * made one ("apply vouchers" → "apply a voucher": a bot may know only the singular).
 */
export function rephrase(text: string): string {
  const core = text.replace(/^(hi|hello)[,!]?\s*/i, "");
  const one = (clause: string) =>
    clause.replace(
      /^([a-z]+) ([a-z]{2,}[^s\W])s$/i,
      (_, verb: string, noun: string) => `${verb} ${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`,
    );
  const r = core.replace(
    /^i'?d like to ([^.?!]+)\./i,
    (_, clause: string) => `Could you help me ${one(clause)}?`,
  );
  return r === core ? `Hello again. ${text}` : `Hello, ${r.charAt(0).toLowerCase()}${r.slice(1)}`;
}

/**
 * How the agent writes a slot's name, from its replies: "PIN" for `pin` when it asked for "your 4-digit PIN",
 * else the slot's words ("customer number"); acronyms keep their capitals, other words go lower case.
 */
function slotWording(slot: string, replies: readonly string[]): string {
  const words = slot.replace(/_/g, " ");
  const re = new RegExp(`\\b${slot.split("_").join("\\s+")}s?\\b`, "i");
  for (const reply of replies) {
    const seen = re.exec(reply)?.[0];
    if (seen) return seen === seen.toUpperCase() && seen.length <= 5 ? seen : words;
  }
  return words;
}

/** A request already worded as the customer's sentence ("I want to cancel my line", "can I pay later"). */
const FIRST_PERSON = /^(?:i|i'd|i'm|i've|my|we|we'd|our|can i|could i|could you|can you|please)\b/i;

/** Slots the customer owns ("my card"), by their last word; others are "the amount". */
const OWNED = /(?:^|_)(?:id|number|code|pin|card|account|name|email|address|handle|reference|phone)$/;

/**
 * The first message: the request, then the persona's values for `slots` said as a customer would ("My
 * customer number is 40778899 and my PIN is 9024."; a count as "2 bags"; a phrase as "Reason: health.").
 */
export function requestMessage(
  phrase: string,
  persona: Record<string, string>,
  slots: readonly string[],
  replies: readonly string[],
): string {
  // A sentence of the facts file ("The car won't start, I need help") is said as written.
  const base = /[.?!]$/.test(phrase)
    ? phrase
    : /^[A-Z][a-z]/.test(phrase) && /\s/.test(phrase) && !serviceVerb(phrase)
      ? `${phrase}.`
      : FIRST_PERSON.test(phrase)
        ? `Hi, ${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`
        : `Hi, I'd like to ${asRequest(phrase.charAt(0).toLowerCase() + phrase.slice(1))}.`;
  const mine: string[] = [];
  const other: string[] = [];
  for (const slot of slots) {
    const v = persona[slot];
    if (v === undefined) continue;
    const words = slotWording(slot, replies);
    if (/^\d+$/.test(v) && slot.endsWith("s")) mine.push(`${v} ${words}`);
    else if (/\s/.test(v)) other.push(`${words.charAt(0).toUpperCase()}${words.slice(1)}: ${v}.`);
    else mine.push(`${OWNED.test(slot) ? "my" : "the"} ${words} is ${v}`);
  }
  const listed = mine.length > 1 ? `${mine.slice(0, -1).join(", ")} and ${mine.at(-1)}` : (mine[0] ?? "");
  const said = listed ? `${listed.charAt(0).toUpperCase()}${listed.slice(1)}.` : "";
  return [base, said, ...other].filter(Boolean).join(" ");
}

/** What a customer in a hurry adds to the request (the `hurry` strategy). */
export const HURRY = "I'm in a hurry, please do it quickly.";

/** Words of a request other than function words ("change my order's address" → change, order, address). */
const FUNCTION_WORDS = new Set(
  "a an the my your its our i me to of for on in with and or please can could would you help like want need".split(
    " ",
  ),
);
function contentWords(request: string): Set<string> {
  return new Set(
    (request.match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [])
      .map((w) => w.replace(/'s$/, ""))
      .filter((w) => !FUNCTION_WORDS.has(w)),
  );
}
const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((w) => b.has(w));

/**
 * Whether two request phrases are the same request in other words: one's content words within the other's
 * ("change the delivery address" and "change an order's delivery address"); a phrase of function words only
 * is the same as anything (it adds nothing).
 */
export function sameRequest(a: string, b: string): boolean {
  const [x, y] = [a, b].map((p) => contentWords(asRequest(p.toLowerCase())));
  return !x?.size || !y?.size || subset(x, y as Set<string>) || subset(y as Set<string>, x);
}
