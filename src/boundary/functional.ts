import { capabilityOf, groundedTraces, isSubstantive, personaOf, replyValues } from "./grounding.ts";
import { evaluateCheck } from "./judge.ts";
import { type Criterion, CUE, cueOf, type GenerationContext, type TestCase } from "./types.ts";

/**
 * The `rules` functional-test generator (AgentEval §V-A): each test replays a workflow the agent was seen
 * performing. The goal is the workflow, the hints are the trace's user turns verbatim, the persona holds the
 * fact values the trace used, and the criteria come from the outcome the trace shows: the same activities at
 * the same points and the same reported values (so a wrong fare, status or insurance flag fails the test,
 * AgentEval §VI RQ4), no completion without a passed confirmation gate, no action after an observed refusal.
 * Nothing is invented: every value is copied from a trace turn.
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

/** Criteria for one trace, from its abstraction (see module doc). */
function criteriaOf(
  activities: readonly string[],
  actions: readonly string[],
  replies: readonly string[],
  context: GenerationContext,
): { success: Criterion[]; failure: Criterion[] } {
  const success: Criterion[] = [];
  const failure: Criterion[] = [];
  activities.forEach((activity, i) => {
    const guard = isGuardReply(activity, actions[i]);
    if (!isOutcome(activity, actions[i]) && cueOf(activity) !== CUE.notFound) return;
    // A guard is checked where it stood (this reply or the next): a refusal much later, for another reason,
    // does not make up for a step the agent let through.
    success.push(
      guard || cueOf(activity) === CUE.notFound
        ? {
            text: `At turn ${i + 1} (or the next), the agent reaches ${activity} (as at turn ${i + 1} of the discovery trace).`,
            // Any refusal counts (a paraphrase may refuse on another topic word, or say "not found"): what
            // matters is that the agent stopped there.
            check: {
              kind: "activity",
              activity: [...new Set([activity, CUE.refuse, CUE.notFound])],
              from: i,
              until: i + 1,
            },
          }
        : {
            text: `From turn ${i + 1} on, the agent reaches ${activity} (as at turn ${i + 1} of the discovery trace).`,
            check: { kind: "activity", activity: family(activity), from: i },
          },
    );
    const values =
      // The read-back at a gate states what is about to happen (plan, price, date): a wrong figure there is the
      // fault even when the completion is right.
      activity.startsWith("inform_") || activity === CUE.done
        ? replyValues(replies[i] ?? "", context.facts)
        : activity === CUE.gate
          ? replyValues(replies[i] ?? "", context.facts, { readBack: true })
          : [];
    if (values.length)
      success.push({
        text: `Its ${activity} reply states ${values.map((v) => `"${v}"`).join(", ")} (values observed in discovery).`,
        check: { kind: "mentions", values, activity: family(activity), from: i },
      });
    if (guard)
      failure.push({
        text: `After the ${cueOf(activity) === CUE.refuse ? "refusal" : "hand-off"} at turn ${i + 1} the agent asks to confirm or reports the action done.`,
        check: { kind: "activity", activity: [CUE.gate, CUE.done], from: i },
      });
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
    if (tests.length >= max) break;
    if (trace.stop === "target_error" || trace.turns.length === 0) continue;
    const activities = abstract.turns.map((t) => t.activity);
    const actions = abstract.turns.map((t) => t.userAction);
    if (!activities.some((a, i) => isOutcome(a, actions[i]))) continue;
    const replies = trace.turns.map((t) => t.reply);
    const drafted = criteriaOf(activities, actions, replies, context);
    // The trace is the golden run: keep only criteria it satisfies itself (a criterion the replayed
    // trace would fail is not what the trace shows).
    const holds = (c: Criterion) =>
      c.check ? evaluateCheck(c.check, trace.turns, abstract.turns).holds : undefined;
    const success = drafted.success.filter((c) => holds(c) === true);
    const failure = drafted.failure.filter((c) => holds(c) !== true);
    // The tactic counts too: a hurried customer's session is its own test even when the clean agent answers it
    // like any other (the labels have no word for urgency, the agent under test may).
    const tactic = trace.plan.strategy.replace(/\s*Pick offered option.*$/, "");
    const key = JSON.stringify([actions, activities, success.map((c) => c.check), tactic]);
    if (seen.has(key)) continue;
    seen.add(key);
    const outcome = activities.filter((a, i) => isOutcome(a, actions[i])).at(-1) ?? "";
    tests.push({
      id: `f-${String(tests.length + 1).padStart(2, "0")}`,
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
  return tests;
}
