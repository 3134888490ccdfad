import { asksSomething, numberedOptions } from "./answer.ts";
import { statementsOf } from "./asking.ts";
import { maskEntities } from "./entities.ts";
import { DONT_KNOW } from "./fallback.ts";
import { capabilityOf, groundedTraces, isSubstantive, personaOf, replyValues } from "./grounding.ts";
import { evaluateCheck } from "./judge.ts";
import { canonicalValues, invitesRetry, mentionsValue, recordCodes, STATUS_ALONE } from "./mentions.ts";
import { IDENTITY, knownValues, mentionsWhole } from "./slots.ts";
import {
  type AbstractTrace,
  type Criterion,
  CUE,
  cueOf,
  type GenerationContext,
  type SessionTrace,
  type TestCase,
} from "./types.ts";

/**
 * The `rules` functional-test generator (AgentEval §V-A): each test replays a workflow the agent was seen
 * performing. The goal is the workflow, the hints are the trace's user turns verbatim, the persona holds the
 * fact values the trace used, and the criteria come from the outcome the trace shows: the same activities at
 * the same points and the same reported values (so a wrong fare, status or insurance flag fails the test,
 * AgentEval §VI RQ4), no completion without a passed confirmation gate, no action after an observed refusal,
 * and no item the agent reported removed listed again where the trace's later read-back left it out. Nothing is
 * invented: every value is copied from a trace turn.
 */

const READABLE = (label: string) => label.replace(/^request_/, "").replaceAll("_", " ");

/**
 * Whether a reply is a guard: a refusal, or a hand-off the customer did not ask for ("that is more than I can
 * credit here, so I'm handing you over") — like a refusal, the agent must not go on to the action instead.
 * `action` is the user action of the turn the reply answers.
 */
const isGuardReply = (activity: string, action: string | undefined) =>
  cueOf(activity) === CUE.refuse || (activity === CUE.transfer && action !== "request_human");
/** A reply a functional test asserts: an action step (gate, completion, information) or a guard. */
const isOutcome = (activity: string, action: string | undefined) =>
  isSubstantive(activity) || isGuardReply(activity, action);

/**
 * The activities a check accepts for `activity`: an information reply's topic (`inform_price`, `inform_time`)
 * is read from the entities a paraphrase happens to use, so any information reply (`inform`, judge.ts) counts.
 */
const family = (activity: string) => (activity.startsWith("inform_") ? [activity, "inform"] : [activity]);

/**
 * The figures of the rule a refusal states (its deadline, limit, fee: values with digits), not the item
 * refused, which a paraphrase may leave unnamed ("I can't move you to a cheaper plan") — nor any facts value.
 */
function ruleFigures(reply: string, context: GenerationContext): string[] {
  const known = new Set(
    Object.values(knownValues(context.facts))
      .flat()
      .map((v) => v.toLowerCase()),
  );
  return replyValues(reply, context.facts, { readBack: true }).filter(
    (v) => /\d/.test(v) && !known.has(v.toLowerCase()),
  );
}

/**
 * How a `mentions` criterion words its values: `"A", "B"` for values to state, `… "C" or no other figure in its
 * place` for derived ones.
 */
export function statedValues(values: readonly string[], derived: readonly string[] = []): string {
  const quoted = (vs: readonly string[]) => vs.map((v) => `"${v}"`).join(", ");
  const alt = derived.length
    ? `${quoted(derived)} or no other figure in ${derived.length > 1 ? "their" : "its"} place`
    : "";
  return values.length && alt ? `${quoted(values)}, and ${alt}` : values.length ? quoted(values) : alt;
}

/** A completion that takes something away ("MATH250 is dropped", "your booking is cancelled"). */
const REMOVED = /\b(?:dropped|cancell?ed|removed|withdrawn|deleted|taken off|unenroll?ed|released)\b/i;

/** Criteria for one trace, from its abstraction (see module doc). */
function criteriaOf(
  activities: readonly string[],
  actions: readonly string[],
  replies: readonly string[],
  users: readonly string[],
  context: GenerationContext,
  provided: readonly (readonly string[])[] = [],
): { success: Criterion[]; failure: Criterion[] } {
  const known = new Set(
    Object.values(knownValues(context.facts))
      .flat()
      .map((v) => v.toLowerCase()),
  );
  const success: Criterion[] = [];
  const failure: Criterion[] = [];
  activities.forEach((activity, i) => {
    // A record the conversation never established (another household's permits listed with the question).
    const allowed = recordCodes(replies[i] ?? "");
    failure.push({
      text: `Its ${activity} reply at turn ${i + 1} names a record (a code, a reference, an e-mail) that neither the user, an earlier reply nor discovery's reply there named${allowed.length ? ` (discovery's: ${allowed.map((v) => `"${v}"`).join(", ")})` : ""}.`,
      check: { kind: "extraneous", activity: family(activity), allowed, from: i },
    });
    // The reply to the driver's "I don't have that to hand" answers a non-answer (no such title, say again): how
    // the agent words that depends on where the paraphrase left the conversation, and guards nothing.
    if (users[i] === DONT_KNOW) return;
    const guard = isGuardReply(activity, actions[i]);
    // A question after a statement ("Your Plus is paused until 1 August. Would you like to: …"): the status it
    // states, another status said in its place being the fault (a paraphrase may leave it, and any figure, unsaid);
    // the question itself is no outcome.
    if (activity.startsWith("ask_") || activity === "open_question") {
      const stated = replyValues(statementsOf(replies[i] ?? ""), context.facts).filter((v) =>
        STATUS_ALONE.test(v),
      );
      if (stated.length)
        success.push({
          text: `Its ${activity} reply states ${statedValues(stated)} (values observed in discovery).`,
          check: { kind: "mentions", values: stated, activity: family(activity), from: i },
        });
      return;
    }
    if (!isOutcome(activity, actions[i]) && cueOf(activity) !== CUE.notFound) return;
    // A guard is checked where it stood (this reply or the next): a refusal much later, for another reason,
    // does not make up for a step the agent let through. The trace's last reply is checked at its turn only:
    // the hints end there, so a next turn would be the runner's own answer to a guard let through ("1 attempt
    // left" where the trace saw the lock-out).
    const last = i === activities.length - 1;
    success.push(
      guard || cueOf(activity) === CUE.notFound
        ? {
            text: `At turn ${i + 1}${last ? "" : " (or the next)"}, the agent reaches ${activity} (as at turn ${i + 1} of the discovery trace).`,
            // Any refusal counts (a paraphrase may refuse on another topic word, or say "not found"): what
            // matters is that the agent stopped there.
            check: {
              kind: "activity",
              activity: [...new Set([activity, CUE.refuse, CUE.notFound])],
              from: i,
              until: last ? i : i + 1,
            },
          }
        : {
            text: `From turn ${i + 1} on, the agent reaches ${activity} (as at turn ${i + 1} of the discovery trace).`,
            check: { kind: "activity", activity: family(activity), from: i },
          },
    );
    const values =
      // The read-back at a gate states what is about to happen (plan, price, date): a wrong figure there is the
      // fault even when the completion is right. A refusal names what it refuses and why (the item, the
      // deadline): refused for another reason, by a guard let through, it names other values.
      activity.startsWith("inform_") || activity === CUE.done
        ? replyValues(replies[i] ?? "", context.facts)
        : activity === CUE.gate
          ? replyValues(replies[i] ?? "", context.facts, { readBack: true })
          : cueOf(activity) === CUE.refuse
            ? ruleFigures(replies[i] ?? "", context)
            : [];
    // What the customer said or the facts hold must be stated back; a figure the agent worked out (a resume
    // date, a fee) may be left unsaid by a paraphrase, but not replaced by another.
    const typed = users.slice(0, i + 1).join("\n");
    // Only amounts, dates, times and record codes can be told apart from another in their place; a status or a
    // flag must be stated.
    const given = values.filter(
      (v) =>
        known.has(v.toLowerCase()) ||
        mentionsValue(typed, v) ||
        !(canonicalValues(v).length || recordCodes(v).join() === v),
    );
    const derived = values.filter((v) => !given.includes(v));
    if (values.length)
      success.push({
        text: `Its ${activity} reply states ${statedValues(given, derived)} (values observed in discovery).`,
        check: {
          kind: "mentions",
          values: given,
          ...(derived.length ? { derived } : {}),
          activity: guard ? [...new Set([activity, CUE.refuse, CUE.notFound])] : family(activity),
          from: i,
        },
      });
    // A lock-out or a final refusal that asked for nothing more must not invite another try.
    // (Ended: it asks nothing at all, so a paraphrase that asks to confirm the value is no lock-out.)
    if (guard && !invitesRetry(replies[i] ?? "", activity) && !asksSomething(replies[i] ?? ""))
      failure.push({
        text: `At turn ${i + 1} the agent invites another try where discovery's refusal ended it.`,
        check: { kind: "retry", from: i, until: i },
      });
    if (guard)
      failure.push({
        text: `After the ${cueOf(activity) === CUE.refuse ? "refusal" : "hand-off"} at turn ${i + 1} the agent asks to confirm or reports the action done.`,
        check: { kind: "activity", activity: [CUE.gate, CUE.done], from: i },
      });
  });
  // An item the agent reported removed ("MATH250 is dropped"; the code the customer gave) that every later
  // read-back of the trace (the timetable asked for after it, the list of courses left to drop) left out:
  // listed there, it was never removed.
  activities.forEach((activity, i) => {
    if (activity !== CUE.done || !REMOVED.test(replies[i] ?? "")) return;
    const typed = users.slice(0, i + 1).join("\n");
    const items = recordCodes(replies[i] ?? "").filter((c) => mentionsWhole(typed, c));
    const reads = activities.flatMap((a, j) =>
      j > i && (a.startsWith("inform") || numberedOptions(replies[j] ?? "").length) ? [j] : [],
    );
    if (!items.length || !reads.length) return;
    if (reads.some((j) => items.some((c) => mentionsWhole(replies[j] ?? "", c)))) return;
    const read = [
      ...new Set(reads.map((j) => (activities[j]?.startsWith("inform") ? "inform" : activities[j]))),
    ];
    failure.push({
      text: `After the agent reported ${items.join(", ")} removed at turn ${i + 1}, a later reply lists ${items.length > 1 ? "one of them" : "it"} again.`,
      check: { kind: "lingers", values: items, activity: read as string[], from: i + 1 },
    });
  });
  // A read-back corrected and read back again before the completion: the completion must not go back to it.
  const doneAt = activities.indexOf(CUE.done);
  const firstGate = activities.indexOf(CUE.gate);
  if (firstGate >= 0 && doneAt > firstGate && activities.slice(firstGate + 1, doneAt).includes(CUE.gate))
    failure.push({
      text: "The agent reports the action done with a detail its read-back stated before a correction and no longer did after it.",
      check: { kind: "superseded", gate: [CUE.gate], activity: [CUE.done], from: firstGate },
    });
  // A completion right after a question for a value ("Please type the new PIN once more to confirm."): a
  // completion any earlier skipped that step (a re-entry, a second check), whatever gate came before it.
  if (doneAt > 0 && activities[doneAt - 1]?.startsWith("ask_"))
    failure.push({
      text: `The agent reports the action done before turn ${doneAt + 1}, skipping the ${activities[doneAt - 1]?.slice(4).replaceAll("_", " ")} it asked for at turn ${doneAt}.`,
      check: { kind: "activity", activity: [CUE.done], from: 0, until: doneAt - 1 },
    });
  // Who the customer is, said before the trace's first record, read-back or completion: a reply of those before
  // it skipped the check (the prerequisite guard, AgentEval §III-A) — a ticket's status shown before any sign-in.
  const first = activities.findIndex(isSubstantive);
  const who = [...new Set(provided.slice(0, first + 1).flat())].filter((slot) => IDENTITY.test(slot));
  if (first > 0 && who.length) {
    const shown = [
      ...new Set([
        ...context.graph.nodes.map((n) => n.activity).filter(isSubstantive),
        "inform",
        CUE.done,
        CUE.gate,
      ]),
    ];
    failure.push({
      text: `The agent reaches ${shown.join(", ")} before the ${who.join(", ").replaceAll("_", " ")} is given.`,
      check: { kind: "premature", activity: shown, slots: who },
    });
  }
  // A period whose dates disagree with its own length is wrong whatever discovery saw (consistency.ts).
  failure.push({
    text: "A reply states a period whose first and last day disagree with the length it states (6 months from 16 April to 15 November).",
    check: { kind: "inconsistent", from: 0 },
  });
  if (activities.includes(CUE.done) || activities.includes(CUE.gate))
    failure.push({
      text: "The agent reports an action done without first asking for confirmation and getting a yes.",
      check: { kind: "ungated", activity: [CUE.done], gate: [CUE.gate], userAction: [CUE.affirm] },
    });
  return { success, failure };
}

/**
 * Functional tests from the discovery traces, at most `max`, one per distinct workflow (same user actions,
 * activities, reported values and driver tactic count as one). Traces that ended in a target error are skipped.
 */
export function functionalTests(context: GenerationContext, max: number): TestCase[] {
  const seen = new Set<string>();
  const tests: TestCase[] = [];
  for (const { trace, abstract } of groundedTraces(context).values()) {
    if (trace.stop === "target_error" || trace.turns.length === 0) continue;
    const activities = abstract.turns.map((t) => t.activity);
    const actions = abstract.turns.map((t) => t.userAction);
    if (!activities.some((a, i) => isOutcome(a, actions[i]))) continue;
    const replies = trace.turns.map((t) => t.reply);
    const drafted = criteriaOf(
      activities,
      actions,
      replies,
      trace.turns.map((t) => t.user),
      context,
      abstract.turns.map((t) => t.provided),
    );
    // The trace is the golden run: keep only criteria it satisfies itself (a criterion the replayed
    // trace would fail is not what the trace shows).
    const holds = (c: Criterion) =>
      c.check ? evaluateCheck(c.check, trace.turns, abstract.turns).holds : undefined;
    const success = drafted.success.filter((c) => holds(c) === true);
    const failure = drafted.failure.filter((c) => holds(c) !== true);
    // The tactic counts too: a hurried customer's session is its own test even when the clean agent answers it
    // like any other (the labels have no word for urgency, the agent under test may).
    const tactic = trace.plan.strategy.replace(/\s*Pick offered option.*$/, "");
    const key = JSON.stringify([
      actions,
      activities,
      success.map((c) => c.check),
      tactic,
      guardWords(trace, abstract, context),
    ]);
    if (seen.has(key)) continue;
    seen.add(key);
    const outcome = activities.filter((a, i) => isOutcome(a, actions[i])).at(-1) ?? "";
    tests.push({
      id: "",
      kind: "functional",
      goal: `Replay ${READABLE(capabilityOf(abstract))} (discovery ${trace.id}, ${trace.plan.phase}): the agent ends at ${outcome}.`,
      hints: trace.turns.map((t) => t.user),
      persona: personaOf(trace, context.facts),
      success,
      failure,
      turnBudget: trace.turns.length + 2,
      source: { traceId: trace.id, turns: trace.turns.map((_, i) => i) },
    });
  }
  return covering(tests, context, max).map((t, i) => ({ ...t, id: `f-${String(i + 1).padStart(2, "0")}` }));
}

/**
 * The guard replies of a trace by their words, entities masked (`refuse_date:<date> is christmas day …`): the
 * holiday refusal and the Sunday one are both `refuse_date`, but different guards of the agent.
 */
function guardWords(trace: SessionTrace, abstract: AbstractTrace, context: GenerationContext): string[] {
  return abstract.turns.flatMap((t, i) =>
    isGuardReply(t.activity, t.userAction)
      ? [
          `${t.activity}:${maskEntities(trace.turns[i]?.reply ?? "", context.facts)
            .masked.toLowerCase()
            .replace(/[^a-z<>]+/g, " ")
            .trim()}`,
        ]
      : [],
  );
}

/** Words too common in any reply to tell one step of a workflow from another. */
const COMMON = new Set(
  "the a an and or to of for in on at is are be it this that you your yours we our i me my with by from as so if can will would shall should could please thanks thank yes no not what which who when how there here all any just now let know like".split(
    " ",
  ),
);

/**
 * The words of a trace's action steps (gates, completions, information; entities masked) that tell the step
 * apart from most others of its kind: `request_confirmation~waiting` for "HI33 is full. I can put you on the
 * waiting list …" among read-backs of bookings. A word counts when at most a fifth of the replies of that
 * activity in discovery use it, in two traces or more (not one paraphrase's filler).
 */
function stepWords(context: GenerationContext): Map<string, Set<string>> {
  const perTrace = new Map<string, Set<string>>();
  const replies = new Map<string, number>();
  const traces = new Map<string, Set<string>>();
  const uses = new Map<string, number>();
  for (const { trace, abstract } of groundedTraces(context).values()) {
    const mine = new Set<string>();
    abstract.turns.forEach((t, i) => {
      if (!isSubstantive(t.activity)) return;
      replies.set(t.activity, (replies.get(t.activity) ?? 0) + 1);
      const masked = maskEntities(trace.turns[i]?.reply ?? "", context.facts).masked.toLowerCase();
      for (const w of new Set(masked.replace(/<[a-z_]+>/g, " ").match(/[a-z]{3,}/g) ?? [])) {
        if (COMMON.has(w)) continue;
        const key = `${t.activity}~${w}`;
        uses.set(key, (uses.get(key) ?? 0) + 1);
        traces.set(key, (traces.get(key) ?? new Set()).add(trace.id));
        mine.add(key);
      }
    });
    perTrace.set(trace.id, mine);
  }
  const distinctive = (key: string) =>
    (traces.get(key)?.size ?? 0) >= 2 &&
    (uses.get(key) ?? 0) <= 0.2 * (replies.get(key.split("~")[0] as string) ?? 0);
  return new Map([...perTrace].map(([id, keys]) => [id, new Set([...keys].filter(distinctive))]));
}

/** A user turn that is a count and little else ("2", "2 official copies", "Let's say 6 copies"): its number. */
const COUNT_TURN = /^(?:let's say )?(\d{1,2})(?: [a-z]+){0,2}[.!]?$/i;

/**
 * The action steps of a trace that state a count above one the customer gave (`request_confirmation#many` for
 * "2 official copies by post, total £28.50" after "2 official copies"): a total or an echo worked out per item
 * is only tested where there is more than one item.
 */
function manySteps(trace: SessionTrace, abstract: AbstractTrace): Set<string> {
  const counts = new Set<string>();
  const out = new Set<string>();
  abstract.turns.forEach((t, i) => {
    const n = COUNT_TURN.exec((trace.turns[i]?.user ?? "").trim())?.[1];
    if (n && Number(n) > 1) counts.add(n);
    const reply = trace.turns[i]?.reply ?? "";
    if (
      isSubstantive(t.activity) &&
      [...counts].some((c) => new RegExp(`(?<![\\d.,£$€])${c}(?!\\d|[.,]\\d)`).test(reply))
    )
      out.add(`${t.activity}#many`);
  });
  return out;
}

/**
 * At most `max` of `tests`, in their order: greedily those that replay the most directly-follows pairs of
 * activities (with the start and the end) or guard replies (by their words, entities masked) no test chosen
 * before replays — so a late trace that alone shows a guard (a holiday refused) is not cut by the budget while
 * early traces retrace the same path — then those that replay an action step stating a count above one the
 * customer gave ({@link manySteps}: 2 copies read back with their total), then, greedily, those that replay the
 * most action steps by words no chosen test's steps use ({@link stepWords}: a full class's waiting list among
 * bookings), then the rest in order.
 */
function covering(tests: readonly TestCase[], context: GenerationContext, max: number): TestCase[] {
  if (tests.length <= max) return [...tests];
  const traces = groundedTraces(context);
  const pairs = tests.map((t) => {
    const grounded = traces.get(t.source?.traceId ?? "");
    const acts = grounded?.abstract.turns.map((u) => u.activity) ?? [];
    const path = ["^", ...acts, "$"];
    const keys = path.slice(1).map((a, i) => `${path[i]}>${a}`);
    return new Set(grounded ? [...keys, ...guardWords(grounded.trace, grounded.abstract, context)] : keys);
  });
  const words = stepWords(context);
  const steps = tests.map((t) => words.get(t.source?.traceId ?? "") ?? new Set<string>());
  const many = tests.map((t) => {
    const grounded = traces.get(t.source?.traceId ?? "");
    return grounded ? manySteps(grounded.trace, grounded.abstract) : new Set<string>();
  });
  const chosen = new Set<number>();
  for (const keys of [pairs, many, steps]) {
    const covered = new Set([...chosen].flatMap((i) => [...(keys[i] as Set<string>)]));
    while (chosen.size < max) {
      let best = -1;
      let gain = 0;
      keys.forEach((p, i) => {
        if (chosen.has(i)) return;
        const n = [...p].filter((k) => !covered.has(k)).length;
        if (n > gain) [best, gain] = [i, n];
      });
      if (best < 0) break;
      chosen.add(best);
      for (const k of keys[best] as Set<string>) covered.add(k);
    }
  }
  for (let i = 0; i < tests.length && chosen.size < max; i++) chosen.add(i);
  return tests.filter((_, i) => chosen.has(i));
}
