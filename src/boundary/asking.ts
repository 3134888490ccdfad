import { gateWord, STATEMENT_GATE } from "./gates.ts";
import { keyedOptions, menuGate } from "./menus.ts";

/**
 * Whether a reply asks anything, sentence by sentence (answer.ts reads what it asks): the sentences of a reply,
 * the cues of a question or a request for input, an invitation to try again, a closing offer. Pure functions of
 * the text.
 */

/** A request for input in a sentence ("Please share the id", "I will need your PIN", "— tell me the order number"). */
const ASK_CUE =
  /\b(please (give|share|tell|provide|confirm|send|enter|type|choose|select|specify|answer|reply)|(?:i|we) (?:just |first |also |still |now |next )?need (?:your|their|his|her|a|an|the|to (?:verify|check|confirm) (?:your|who)) |(?:i|we) (?:just |now |next |also )?need (?:two|three|a few|a couple of|some) (?:more )?(?:things|details|bits)\b|i('ll| will) need|(may|could|can) i (have|get|ask)|let me know)\b|^(?:(?:just|simply|now|next|first|then|so|ok(?:ay)?|great|thanks),? )?(?:(?:go ahead and|kindly|please) )?(?:tell|give|send|share|type|enter|provide|supply|write|specify|describe|explain|pick|choose|select|pop|drop|list|include)\b(?!(?: me| us)? (?:a moment|a sec|a second|a minute|time)\b)|^(?:[a-z]+,? ){0,4}(?:your|the) [a-z0-9' ]{2,70},? please\b|^[a-z]+(?: [a-z0-9']+){1,10},? please[.!]?$|^(?:ok(?:ay)?,? )?go ahead with (?:the|your)\b|\bjust (?:give|tell|send) (?:me|us)\b|\breply with (?:the|a|an|its|your)\b|[—–]\s*(?:(?:just|simply|now|please),? )?(?:tell|give|send|share) (?:me|us)\b|(?:[—–]|\s-)\s*(?:(?:just|simply|now|please|then),? )?(?:type|enter|pop|drop|put|key|paste|reply with|pick|choose|select)\b|\b(?:and|then) (?:pop|type|enter|put|key|paste|send) (?:it|them|that|the (?:code|digits|number)) (?:in|here|below|back|over)\b|^(?!(?:if|when|whenever|once|should|after|as soon as)\b)(?:[a-z']+ ){1,6}[a-z']+,\s*(?:(?:just|simply|now|please|kindly),? )?(?:tell|give|send|share|type|enter|provide|pop|pick|choose|select|reply with)\b(?!(?: me| us)? (?:a moment|a sec|a second|a minute|time)\b)/i;

/** An example e-mail address ("… again, like name@example.com?"): it names the e-mail, not a `name`. */
const EXAMPLE_ADDRESS =
  /\b(like|e\.g\.?|such as|for example|for instance),? [^\s@(]+@[^\s@)]+\.[a-z]{2,}\b/gi;

/**
 * Split a reply into sentences: at a full stop, question or exclamation mark (not after a list number, "1. Basic
 * … 2. Plus", but after the digits a number ends in: "the phone ending 42. Pop the 6 digits in"; after a closing
 * bracket: "(Incident: theft, £900.) Anything else?") and at a line break; a parenthesised sentence joins the one
 * before it ("…cancel? (a, b or c)"). An example address ("like name@example.com") reads as "an e-mail address".
 */
export function sentences(reply: string): string[] {
  const out: string[] = [];
  for (const part of reply
    .replace(EXAMPLE_ADDRESS, "$1 an e-mail address")
    .split(
      /\s*\n\s*|(?<![\s:(]\d{1,2}[.)])(?<!\b(?:e\.g|i\.e)\.)(?<=[.?!]\)?)\s+(?=\S)|(?<=\bend(?:ing|s)(?: in| with)? \d{1,2}\.)\s+(?=\S)/,
    )) {
    const s = part.trim();
    if (!s) continue;
    if (s.startsWith("(") && out.length) out[out.length - 1] += ` ${s}`;
    else out.push(s);
  }
  return out;
}

/** A count of tries ("2 more attempts", "one more try", "3 goes"): with "left" or a full stop after it, a lock-out countdown. */
export const TRIES_LEFT = /\b(?:\d+|one|two|three) (?:more )?(?:attempts?|tries|try|goes?|chances?)\b/i;

/**
 * An invitation to give a value again ("Please check the SMS and try again", "could you re-enter it?", "Please try
 * another e-mail address", "Please use a format like 2004-03-09", "choose another letter"): the reply asks for the slot asked before, even when it names none. Not "please try
 * again from 3 July" (a refusal saying when).
 */
export const RETRY = new RegExp(
  String.raw`\b(?:try again|try once more|re-?(?:enter|type|send) (?:it|the|your)|double[- ]check|check (?:it|that|the [a-z]+) and|have another (?:go|try|look)|${TRIES_LEFT.source}(?: (?:left|remaining|to go|before)|(?=\(s\)|[.!]))|(?:give|send|tell me|enter|type|provide) (?:[a-z]+ ){0,3}again|(?:please |could you |can you )(?:try|use|give me|enter) (?:a |an )?(?:another|different|other)(?= [a-z])|use (?:a |the )?(?:format|form) (?:like|such as)|(?:start|begin) (?:again|over|afresh) (?:with|by (?:giving|entering|telling me))|(?:choose|pick|select) (?:another|a different|a new) (?:letter|number|one|option|slot|time|day))\b(?! (?:from|later|after|in|on|tomorrow|next|once|when)\b)`,
  "i",
);

/**
 * A request to type a value once more to confirm it ("Please type the new PIN once more to confirm.", "Re-enter
 * the account number to make sure", "Just to be safe, enter the same 4-digit PIN again.", "Could you re-enter the
 * PIN so I know there's no typo?"): the value just given, again — not another try at a wrong one.
 */
export const REENTER =
  /\b(?:once more|again|a second time)\b[^.?!]*\b(?:to (?:confirm|check|make sure|verify|double-check)|so (?:i|we) (?:know|can (?:check|be sure)))\b|\b(?:enter|type|give|send) the same\b[^.?!]{0,30}\b(?:again|once more)\b|\bre-?enter (?:it|the|your)\b[^.?!]*\b(?:typo|mistake|match|sure)\b|\bre-?(?:enter|type) (?:the |your |that )?(?:new )?[a-z]+(?: [a-z]+)? (?:once more|again|to (?:confirm|make sure|check))\b/i;

/** Whether one sentence asks the user for something (a question, a request for input, a gate). */
export const isAsking = (s: string) =>
  /\?\s*(\([^)]*\)\s*)?[.]?$/.test(s) ||
  // "Would you like to:" before its options.
  /^(?:[a-z']+, )?(?:would|do|shall|should|can|could|which|how)\b[^.?!]*:$|^(?:your |the )?options(?: are)?:$/i.test(
    s,
  ) ||
  ASK_CUE.test(s) ||
  RETRY.test(s) ||
  REENTER.test(s) ||
  STATEMENT_GATE.test(s) ||
  gateWord(s) !== undefined;

/**
 * A headline question the next sentence answers with advice ("Smell gas? Leave and call 0800 111 999.", "Need
 * help? Ring us on …", "Lost your card? Freeze it in the app."): short, and followed by an imperative that sends
 * the user elsewhere, so it asks for no input.
 */
const ADVICE_AFTER =
  /^(?:please )?(?:call|ring|phone|dial|leave|get out|evacuate|e-?mail|visit|head|go to|contact|text|freeze|see|open|switch|turn off)\b/i;

/** The sentences of `all` (a reply's {@link sentences}) that ask the user something, headline questions aside. */
export function askingSentences(all: readonly string[]): string[] {
  return all.filter(
    (s, i) =>
      isAsking(s) && !(/\?$/.test(s) && s.split(/\s+/).length <= 5 && ADVICE_AFTER.test(all[i + 1] ?? "")),
  );
}

/**
 * A closing offer ("Anything else?", "Can I help with anything else?"): it asks for no input. Not an option
 * ("e: something else", "… or something else?").
 */
export const CLOSING_OFFER =
  /(?<!\b[a-h\d][:.)]\s+)\b(?:anything|(?<!\bor\s+)something) else\b(?! to\b)|\bany (?:other|more|further) (?:questions?|help)\b|\bwhat else (?:can|could|may) (?:i|we)\b/i;

/**
 * Whether a reply asks the user anything: a question, or a request for input ("Please share the id."). A
 * closing offer ("… is €2,450.00. Anything else?") asks nothing: the reply is an outcome.
 */
export function asksSomething(reply: string): boolean {
  return (
    // "Type CHANGE to go ahead, or anything else to cancel." is a gate, whatever else it says.
    askingSentences(sentences(reply)).some((s) => !CLOSING_OFFER.test(s) || gateWord(s) !== undefined) ||
    menuGate(reply) !== undefined ||
    keyedOptions(reply).length > 0
  );
}

/** A sentence that is, or ends in, the form of a yes/no answer ("(yes/no)", "Y/N"). */
export const YES_NO_ALONE =
  /\(\s*(?:yes\s*(?:\/|or)\s*no|y\s*\/\s*n)\s*\)\s*[.?!]?$|^(?:yes\s*(?:\/|or)\s*no|y\s*\/\s*n)\s*[.?!]?$/i;

/** A sentence asking the user to give "it" (what the sentence before names). */
export const GIVE_IT =
  /\b(?:type|enter|send|give|provide|share|tell|paste|repeat|read)\b[^.?!]*\b(?:it|this|that one)\b|\b(?:what|which) (?:is|was|'s) (?:it|this)\b|\bwhat (?:would you like|do you want|should) (?:it|this|that) (?:to )?be\b/i;

/** An option line of a list ("1. Margherita pizza", "B) cancel it"): no statement of the reply's own. */
const OPTION_LINE = /^(?:\d{1,2}|[A-Ha-h])[.)]\s/;

/**
 * What a reply states besides what it asks: its sentences that ask nothing, option lines aside ("Your Plus
 * membership is paused until 1 August." of "… paused until 1 August. Would you like to: A) resume it …").
 */
export function statementsOf(reply: string): string {
  return sentences(reply)
    .filter((s) => !isAsking(s) && !OPTION_LINE.test(s))
    .join(" ");
}
