import { labelReply } from "./abstract.ts";
import {
  answerQuestion,
  asksSomething,
  offeredCapabilities,
  type Persona,
  REENTER,
  RETRY,
  readQuestion,
} from "./answer.ts";
import {
  afterCorrection,
  anotherValue,
  CORRECTION_LEAD,
  correction,
  factsPersona,
  mistyped,
  othersIdentifier,
  retried,
} from "./driver-values.ts";
import { askingPart, fallbackAnswer, unsaidOption } from "./fallback.ts";
import { extremeValue, pastLimits, statedLimits } from "./limits.ts";
import { personaValue, sayValue, withUnit } from "./persona-values.ts";
import { remedyOf, TAKE_OFFER } from "./remedy.ts";
import { asRequest, rephrase } from "./requests.ts";
import { IDENTITY, knownValues, valueList } from "./slots.ts";
import { othersRequest, strategyValues } from "./tactics.ts";
import { CUE, type Driver, type Facts, type RoundPlan, type Turn } from "./types.ts";

/**
 * The `rules` driver of phase-guided discovery (AgentEval §III-A): plays the plan's persona one plain user
 * message per turn — the plan's request first, then answers to what the agent asks (answer.ts) — and stops
 * when the objective is met. The tactic is read from the plan's strategy words (see planner.ts STRATEGIES):
 * "decline"/"answer no" → no at the confirmation, "human" → ask for a human after the first reply,
 * "thanks"/"bye" → one closing turn after the outcome, "another customer's identity" → another persona's
 * identifier as the answer to the first question for a value, "mistype" → a typo and "out-of-range value" → a
 * value past the limit the agent stated, at the question for the slot the strategy names (the "hurry"
 * strategy's urgency is in the plan's request).
 */

/** The closing turn of the "say thanks" strategy. */
export const THANKS = "Thanks, that's all. Bye!";
/** How the "out-of-range value" strategy opens its answer (so the driver gives it once). */
export const OUT_OF_RANGE = "Let's say";
/** The turn of the "ask for a human" strategy. */
export const ASK_HUMAN = "Can I talk to a human agent, please?";

/**
 * Whether a session's objective is met, from its visible replies: in a capability round, once the agent has
 * listed what it offers; otherwise once the last reply asks nothing and offers no menu — a completion, a
 * refusal, an acknowledgement, or the information asked for.
 */
export function objectiveMet(plan: RoundPlan, turns: readonly Turn[]): boolean {
  const last = turns.at(-1)?.reply ?? "";
  if (!last.trim()) return false;
  if (plan.phase === "capability") return turns.some((t) => offeredCapabilities(t.reply).length > 0);
  return !asksSomething(last) && offeredCapabilities(last).length === 0;
}

/**
 * The persona a plan plays: the facts persona, with the slot values the strategy fixes put first; a slot it has
 * no value for that neither says who they are nor points at a record ({@link IDENTITY}) borrows the first other persona's values (asked
 * where they are heading, a customer without a destination in the facts still names one).
 */
export function personaOf(plan: RoundPlan, facts: Facts): Persona {
  const own = plan.persona % Math.max(1, facts.personas.length);
  const base = factsPersona(plan, facts);
  const borrowed: Record<string, readonly string[]> = {};
  for (let k = 1; k < facts.personas.length; k++)
    for (const [slot, values] of Object.entries(facts.personas[(own + k) % facts.personas.length] ?? {}))
      if (!(slot in base) && !(slot in borrowed) && !IDENTITY.test(slot) && values.length)
        borrowed[slot] = values;
  const { values } = strategyValues(plan.strategy);
  return { ...borrowed, ...base, ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, [v]])) };
}

/** How many times the again tactic sends its first message in all (tactics.ts `again`). */
const AGAIN_SENDS = 4;

/**
 * Whether a turn shows a write authorised: a confirmation asked (a gate), or a completion reported without one
 * (a write authorised by the card's last four digits, not a yes). The again and recheck tactics act after it.
 */
function wrote(turn: Turn, slots: readonly string[]): boolean {
  return readQuestion(turn.reply, slots)?.kind === "gate" || labelReply(turn.reply).activity === CUE.done;
}

/** The tactic words of a strategy (see module doc). */
function tactic(strategy: string) {
  const s = strategy.replace(/\bValues: .*$/, "").toLowerCase();
  return {
    decline: /\b(decline|answer no|say no)\b/.test(s),
    human: /\b(human|real person|representative)\b/.test(s),
    thanks: /\b(thanks|thank|bye|goodbye)\b/.test(s),
    impersonate: /\banother customer's identity\b/.test(s),
    correct: /\bcorrect one of the values\b/.test(s),
    mistype: /\bmistype (?:an identifier|a value)\b/.test(s),
    extreme: /\bout-of-range value\b/.test(s),
    persist: /\bkeep a wrong value\b/.test(s),
    recheck: /\bask to see the record\b/.test(s),
    again: /\bmake the same request again\b/.test(s),
    others: /\bsame record of another customer\b/.test(s),
    remedy: /\btake the offer\b/.test(s),
  };
}

/**
 * A `rules` driver (AgentEval §III-A). Turn 1 sends `plan.request` (or the objective); a capability round then
 * asks what the first offered service needs and stops. Other rounds answer what the agent asks from the
 * persona (yes at a gate, or no when declining; one of the listed options, by the strategy's pick; a count
 * from the persona, else 1; once the persona's values for a slot were all refused, an option the agent lists),
 * answer what the rules cannot read as a person would (fallback.ts: a value inside a stated range, a detail of
 * the shape asked for, "I don't have that"), restate the request once if the agent answers with its menu, and
 * stop when {@link objectiveMet} (after one closing turn with the thanks strategy) or when nothing can be answered.
 */
export const rulesDriver: Driver = {
  async next({ plan, turns, facts }) {
    if (turns.length === 0) return plan.request ?? `Hi. ${plan.objective}`;
    const last = turns.at(-1) as Turn;
    const sent = turns.map((t) => t.user);
    if (plan.phase === "capability") {
      const offered = offeredCapabilities(last.reply);
      return turns.length === 1 && offered[0]
        ? `What do you need from me to ${asRequest(offered[0])}?`
        : undefined;
    }
    const how = tactic(plan.strategy);
    const persona = personaOf(plan, facts);
    const slots = Object.keys(persona);
    const values = knownValues(facts);
    // What a reply asks, read as the answer to it is (with every persona's values: "a 6-digit code" is the
    // one-time code, not the voucher code).
    const questionIn = (reply: string) => readQuestion(reply, slots, values, sent[0]);
    // Times the first message was sent (the again tactic sends it again after each write).
    const sends = how.again ? sent.filter((u) => u === sent[0]).length : 1;
    if (how.again) {
      // The again tactic: each time a write behind a confirmation is done, the first message once more (four
      // times in all), so a duplicate or an allowance counted down meets its refusal in one session.
      const first = sent[0] as string;
      const since = turns.slice(sent.lastIndexOf(first));
      if (sends < AGAIN_SENDS && objectiveMet(plan, since) && since.some((t) => wrote(t, slots)))
        return first;
    }
    if (how.remedy && sent.filter((u) => u === sent[0]).length === 1) {
      // The remedy tactic: the way past the first refusal that offers one, taken; once that workflow is done,
      // the first message once more, carried through (remedy.ts).
      const at = turns.findIndex((t) => remedyOf(t.reply, facts) !== undefined);
      if (at === turns.length - 1) {
        // A plain offer ("I can help with that") is taken with the agent's own request its words name, which
        // the planner gives (`Give "…"`): a bot that reads requests, not context, understands that.
        const take = remedyOf(last.reply, facts);
        return take === TAKE_OFFER ? (strategyValues(plan.strategy).give ?? take) : take;
      }
      if (at >= 0 && objectiveMet(plan, turns.slice(at + 1))) return sent[0];
    }
    if (how.others && objectiveMet(plan, turns)) {
      // The others tactic: once the customer's own record is shown, another customer's asked for by the
      // identifier the customer was asked for (their own), once.
      const slot = turns.map((t) => questionIn(t.reply)?.slot).find((s) => s && IDENTITY.test(s));
      const other = slot ? othersIdentifier(facts, plan.persona, slot) : undefined;
      const ask = other ? othersRequest(sent[0] as string, other) : undefined;
      if (ask && !sent.includes(ask)) return ask;
    }
    if (objectiveMet(plan, turns)) {
      // The recheck tactic: once a write behind a confirmation is done, the record read back (its read request
      // is the strategy's `Give "…"`), and its questions answered.
      const read = how.recheck ? strategyValues(plan.strategy).give : undefined;
      if (read && !sent.includes(read) && turns.some((t) => wrote(t, slots))) return read;
      return how.thanks && !sent.includes(THANKS) ? THANKS : undefined;
    }
    if (how.human && turns.length === 1) return ASK_HUMAN;
    const { pick: first, slot: aim, give } = strategyValues(plan.strategy);
    // Again: the second send repeats the first (a duplicate), later ones take the next values (an allowance
    // counted down: a third named driver, a fifth booking).
    const pick = first + Math.max(0, sends - 2);
    // What the last reply asks, read once for every tactic below.
    const lastAsked = questionIn(last.reply);
    const gateNow = lastAsked?.kind === "gate";
    if (how.correct && gateNow && !sent.some((u) => u.startsWith(CORRECTION_LEAD))) {
      const fix = correction(plan, turns, facts);
      if (fix) return fix;
    }
    if (how.mistype) {
      // A typo at the first question for the aimed slot (else for a value with digits: an id, a date of birth),
      // the right value after.
      const fits = (slot: string | undefined) =>
        aim ? slot === aim : /\d/.test((slot && personaValue(persona, slot)) ?? "");
      const slot = lastAsked?.slot;
      const first = !turns.slice(0, -1).some((t) => fits(questionIn(t.reply)?.slot));
      const own = slot ? personaValue(persona, slot) : undefined;
      if (slot && own && first && fits(slot)) return sayValue(slot, mistyped(own));
    }
    if (how.persist && aim) {
      // The same typo each time the agent asks for the slot again (or asks to try again), three times at most.
      // Asked with other slots ("your date of birth and the last 4 digits of your payroll number?"): those right.
      const own = personaValue(persona, aim);
      const asks = (r: string) => {
        const q = questionIn(r);
        return q?.slot === undefined ? [] : [q.slot, ...(q.also ?? [])];
      };
      const read = turns.map((t) => asks(t.reply));
      const together = read.findLast((slots) => slots.includes(aim)) ?? [aim];
      const wrong = own
        ? together.length > 1
          ? together
              .map((s) => withUnit(s, s === aim ? mistyped(own) : (personaValue(persona, s) ?? "")))
              .join(", ")
          : sayValue(aim, mistyped(own))
        : undefined;
      const tries = sent.filter((u) => u === wrong).length;
      // ("Those details don't match. 2 more attempts. What's your employee ID?" asks the ID, right.)
      const now = read.at(-1) ?? [];
      const asked = now.includes(aim) || (tries > 0 && RETRY.test(last.reply) && !now.length);
      if (wrong && asked) return tries < 3 ? wrong : undefined;
    }
    if (how.extreme) {
      // Past a limit the agent stated (else far outside the usual range) at the first question for an amount,
      // a count or a date; the real value when asked again.
      const slot = lastAsked?.slot;
      const own =
        slot && !IDENTITY.test(slot) && (!aim || slot === aim) ? personaValue(persona, slot) : undefined;
      const given = sent.some((u) => u.startsWith(OUT_OF_RANGE));
      // The limit the question itself states ("Any day from 13 November to 12 December") first: a limit
      // stated elsewhere may bound something else.
      const past = (replies: readonly string[]) =>
        own ? pastLimits(own, statedLimits(replies), 1)[0]?.value : undefined;
      const value =
        own && !given
          ? (past(askingPart(last.reply)) ?? give ?? past(turns.map((t) => t.reply)) ?? extremeValue(own))
          : undefined;
      if (slot && value) return `${OUT_OF_RANGE} ${sayValue(slot, value)}`;
    }
    if (how.impersonate) {
      // Someone else's identifier at the first question for a slot, one's own details after.
      const slot = lastAsked?.slot;
      const first = !turns.slice(0, -1).some((t) => questionIn(t.reply)?.slot);
      const other = slot && first ? othersIdentifier(facts, plan.persona, slot) : undefined;
      if (slot && other) return sayValue(slot, other);
    }
    // After a correction, the agent asking what to change or for the new value: the corrected one.
    const fixed = lastAsked && afterCorrection(lastAsked, persona, sent);
    if (fixed && fixed !== sent.at(-1)) return fixed;
    const answer = answerQuestion(last.reply, persona, {
      context: sent[0],
      pick,
      decline: how.decline,
      defaultCount: 1,
      earlier: turns.slice(0, -1).map((t) => t.reply),
      values,
    });
    // "Please type the new PIN once more to confirm.": the last value given for the slot, word for word.
    if (REENTER.test(last.reply)) {
      // "Type the last four digits of the new card again": the end of the last long number given.
      const tail = /\blast (four|4|three|3|two|2) digits\b/i.exec(last.reply)?.[1]?.toLowerCase();
      const n = tail ? ({ four: 4, three: 3, two: 2 }[tail] ?? Number(tail)) : 0;
      const long = n ? sent.findLast((u) => u.replace(/\D/g, "").length > n + 2) : undefined;
      if (long) return long.replace(/\D/g, "").slice(-n);
      const own = valueList(persona[lastAsked?.slot ?? ""] ?? []);
      const given = sent.findLast((u) => own.some((v) => u.includes(v)));
      if (given !== undefined) return given;
    }
    // What the customer said in this round of the request: the again tactic's repeat says the first round's
    // values over again on purpose (a duplicate claim), so only its own round counts as said already.
    const said = how.again ? sent.slice(sent.lastIndexOf(sent[0] as string)) : sent;
    // "Would you like a different course?" after the one given was refused: the persona's next value for it.
    const other =
      answer !== undefined && said.includes(answer)
        ? anotherValue(
            last.reply,
            sent,
            plan,
            facts,
            turns.slice(0, -1).map((t) => t.reply),
          )
        : undefined;
    if (other !== undefined) return other;
    // Every value of the persona for it refused ("You're taking: 1. STA201 … 2. PHI120 … Which one?"): one the
    // agent lists.
    const listed = answer !== undefined && said.includes(answer) ? unsaidOption(last.reply, sent) : undefined;
    if (listed !== undefined) return listed;
    // The same answer twice already (the agent did not take it): saying it again only loops.
    const repeated =
      (answer === last.user && turns.at(-2)?.reply === last.reply) ||
      // (Not while a wrong value is kept: the agent asks the other values again after each try.)
      (!how.persist && said.filter((u) => u === answer).length >= 2);
    if (answer !== undefined && !repeated) return answer;
    // Asked to try again: "Tue 10 Mar 08:00 has already gone by — choose another letter", the next key of the last
    // menu answered by key that the customer has not said yet; "That's not the code we sent, please try again",
    // the slot asked last, once more, from the persona.
    if (answer === undefined && RETRY.test(last.reply)) {
      const menu = turns
        .slice(0, -1)
        .map((t) => questionIn(t.reply)?.labels)
        .findLast((l) => l?.length);
      const next = menu?.find((l) => !said.includes(l));
      if (next) return next;
      const retry = retried(turns, persona, values);
      if (retry !== undefined && sent.filter((u) => u === retry).length < 2) return retry;
    }
    // A question the rules cannot answer: what a person would say there (fallback.ts).
    const fallback = fallbackAnswer(last.reply, persona, sent);
    if (fallback !== undefined) return fallback;
    // An open question or a menu ("How can I help you today?" after the sign-in): the request once more.
    const again = sent[0] ? rephrase(sent[0]) : undefined;
    if (
      again &&
      !sent.includes(again) &&
      (asksSomething(last.reply) || offeredCapabilities(last.reply).length)
    )
      return again;
    return undefined;
  },
};
