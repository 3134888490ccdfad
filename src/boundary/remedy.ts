import { labelReply } from "./abstract.ts";
import { cueOf, type Facts } from "./types.ts";

/**
 * The way past a refusal that the refusal itself offers — "I can't make new bookings while £24.99 is overdue.
 * Say 'pay my balance' and I can take it now", "Bookings are on hold until the payment is settled; I can help
 * with that" — as the user turn that takes it: the quoted instruction, else a plain yes to the offer. A tester
 * that takes it and then asks again reaches what the first guard hid (the next guard, the write itself) and
 * the remedy's own workflow (is the balance really cleared?). The remedy tactic (tactics.ts `remedy`) plays it.
 */

/** An instruction the agent quotes for the user to send ("Say 'pay my balance'", "reply “top up”"). */
const QUOTED =
  /\b(?:just |simply )?(?:say|type|reply(?: with)?|write|send|ask (?:me )?(?:for|to))\s*:?\s*["'‘“]([^"'‘’“”\n]{3,60}?)["'’”]/i;
/** A quoted word that is a gate's answer or a hand-off, not a way past the refusal. */
const NOT_A_REMEDY =
  /^(?:yes|yeah|no|y|n|ok|okay|confirm|cancel|stop|back|menu|help|agent|human|person|representative)\b/i;
/** An offer to do what lifts the refusal, made in the refusal ("I can help with that", "I can take it now"). */
const OFFER =
  /\b(?:i|we) (?:can|could) (?:help (?:you )?(?:with|sort) (?:that|this|it)|take (?:it|that|this|the payment|payment|it off)(?: (?:now|here|today|for you))?|sort (?:that|this|it) (?:out )?(?:for you|now|here)|do (?:that|this|it) (?:for you|now|here)|settle (?:that|this|it)|clear (?:that|this|it))\b/i;
/** A hand-off or a different channel is not a remedy the chat can take. */
const ELSEWHERE =
  /\b(?:transfer|put you through|hand (?:you )?over|connect you|colleague|human|team|branch|desk|phone|call us|in person|visit)\b/i;

/** Words too common to say what a request is about. */
const COMMON =
  /^(?:about|after|again|also|anything|because|before|could|there|these|their|thing|those|what|when|where|which|while|would|with|your|yours|that|this|have|from|help|like|once|then|than|just|want|need|here|some|only|please|thanks|today|straight|away|else)$/;
/** The content words of `text` as 5-letter stems ("settled", "settling" → "settl"). */
const stems = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !COMMON.test(w)).map((w) => w.slice(0, 5)),
  );

/**
 * The request among `requests` that most plausibly takes the offer in `refusal` ("Bookings are on hold until
 * the overdue payment is settled; I can help with that" → "make my overdue payment"): the one sharing the most
 * content words with the refusal that `own` (the request refused) does not have; undefined when none shares
 * one. Ties: the earlier request. Pure.
 */
export function remedyRequest(refusal: string, requests: readonly string[], own: string): string | undefined {
  // A word of the refused request's family ("bookings" of "book my class") names what was refused, not the way past.
  const mine = [...stems(own)].map((w) => w.slice(0, 4));
  const said = [...stems(refusal)].filter((w) => !mine.includes(w.slice(0, 4)));
  let best: { request: string; n: number } | undefined;
  for (const request of requests) {
    if (request === own) continue;
    const words = stems(request);
    const n = said.filter((w) => words.has(w)).length;
    if (n > 0 && (!best || n > best.n)) best = { request, n };
  }
  return best?.request;
}

/** The user turn that takes the remedy a plain offer makes (when no request of the agent's says it). */
export const TAKE_OFFER = "Yes, please help me with that first.";

/**
 * The user turn that takes the way past a refusal which `reply` offers: its quoted instruction, else
 * {@link TAKE_OFFER} when it offers to do what lifts the refusal; undefined when `reply` is not a refusal
 * (labelReply's `refuse` family) or offers nothing the chat can do (a hand-off, a visit). Pure.
 */
export function remedyOf(reply: string, facts?: Facts): string | undefined {
  const quoted = QUOTED.exec(reply)?.[1]?.trim();
  const offer = OFFER.exec(reply);
  let take: string | undefined;
  if (quoted && !NOT_A_REMEDY.test(quoted)) take = quoted;
  else if (offer) {
    // The sentence making the offer must not send the customer elsewhere.
    const start = Math.max(0, reply.lastIndexOf(".", offer.index) + 1);
    const end = reply.indexOf(".", offer.index);
    if (!ELSEWHERE.test(reply.slice(start, end < 0 ? undefined : end))) take = TAKE_OFFER;
  }
  // The labeller last: the cheap patterns rule out nearly every reply (the planner asks of every reply).
  return take && cueOf(labelReply(reply, facts).activity) === "refuse" ? take : undefined;
}
