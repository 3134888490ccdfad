import type { ChatTarget } from "../agents/chat/target.ts";
import { TargetError } from "../agents/chat/target.ts";
import { evaluateCheck, mentionsValue } from "./judge.ts";
import type { Criterion, Facts, Labeller, TestCase, Turn } from "./types.ts";

/**
 * Stabilise functional tests against the agent they were discovered on (plan stage, before the plan is
 * written): replay each test's hints once in a fresh session and keep only what reproduces. A value the agent
 * makes up per conversation (a transfer reference, a timestamp, a random id) is not a fact of the workflow,
 * and asserting it would fail the next run of a correct agent; a criterion the replay does not satisfy is
 * flaky the same way. What the replay confirms stays, so value faults (a wrong fare or status) still fail.
 * This is Gauntlet's addition to AgentEval §V-A, whose functional tests copy values from a single trace.
 */

/** What {@link stabiliseFunctionalTests} removed, for the progress line and the summary. */
export interface Stabilisation {
  tests: TestCase[];
  /** Values dropped from `mentions` checks, criteria dropped, tests dropped (no success criterion left). */
  droppedValues: number;
  droppedCriteria: number;
  droppedTests: number;
  /** Target turns the replays took. */
  targetTurns: number;
}

async function replay(target: ChatTarget, hints: readonly string[]): Promise<Turn[] | undefined> {
  const turns: Turn[] = [];
  try {
    await target.reset();
    for (const user of hints) {
      const reply = await target.send(user);
      turns.push({ user, reply: reply.text, ms: reply.ms });
    }
  } catch (error) {
    if (error instanceof TargetError) return undefined;
    throw error;
  }
  return turns;
}

/**
 * Replay every functional test once and keep what reproduces (see module doc). Boundary tests are returned
 * unchanged; a functional test whose replay hits a target error is kept as it is.
 */
export async function stabiliseFunctionalTests(
  target: ChatTarget,
  tests: readonly TestCase[],
  labeller: Labeller,
  facts: Facts,
): Promise<Stabilisation> {
  const out: Stabilisation = {
    tests: [],
    droppedValues: 0,
    droppedCriteria: 0,
    droppedTests: 0,
    targetTurns: 0,
  };
  for (const test of tests) {
    if (test.kind !== "functional") {
      out.tests.push(test);
      continue;
    }
    const turns = await replay(target, test.hints);
    if (!turns) {
      out.tests.push(test);
      continue;
    }
    out.targetTurns += turns.length;
    const labels = await labeller.label({ id: test.id, turns }, facts, []);
    const success: Criterion[] = [];
    for (const c of test.success) {
      if (c.check?.kind === "mentions") {
        const check = c.check;
        const replies = turns.filter(
          (_, i) =>
            i >= check.from && (!check.activity || check.activity.includes(labels[i]?.activity ?? "")),
        );
        const values = check.values.filter((v) => replies.some((t) => mentionsValue(t.reply, v)));
        out.droppedValues += check.values.length - values.length;
        const text =
          values.length === check.values.length
            ? c.text
            : c.text.replace(
                /states .*? \(values/,
                `states ${values.map((v) => `"${v}"`).join(", ")} (values`,
              );
        if (values.length) success.push({ text, check: { ...check, values } });
        else out.droppedCriteria++;
        continue;
      }
      if (!c.check || evaluateCheck(c.check, turns, labels).holds === true) success.push(c);
      else out.droppedCriteria++;
    }
    const failure = test.failure.filter(
      (c) => !c.check || evaluateCheck(c.check, turns, labels).holds !== true,
    );
    out.droppedCriteria += test.failure.length - failure.length;
    if (!success.length) {
      out.droppedTests++;
      continue;
    }
    out.tests.push({ ...test, success, failure });
  }
  return out;
}
