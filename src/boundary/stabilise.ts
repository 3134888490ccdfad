import type { ChatTarget } from "../agents/chat/target.ts";
import { statedValues } from "./functional.ts";
import { evaluateCheck } from "./judge.ts";
import { mentionsValue } from "./mentions.ts";
import { type RunEngines, runTest } from "./run.ts";
import type { Criterion, TestCase, TestRun } from "./types.ts";

/**
 * Zero false alarms by construction (issue 15 §3; Gauntlet's addition to AgentEval §V-A): before the plan is
 * written, every test is run against the agent it was planned from exactly as `boundary run` will run it — the
 * same runner, labeller, judge and known activities (run.ts {@link runTest}) — in several fresh sessions,
 * spread over the target's paraphrase variants when it has them (other seeds of the same agent). A test is
 * kept only when every one of those runs passes: a test a correct agent fails would make CI red for it.
 *
 * Functional tests are first pruned to what reproduces: a value the agent makes up per conversation (a
 * reference, a timestamp) or a criterion one of the runs does not satisfy is dropped (values that reproduce
 * stay, so a wrong fare or status still fails); a guard every run reached at its own turn is held to it, and a
 * figure the agent works out (a fee) that every run stated must be stated. Boundary tests are never edited —
 * they pass as planned or are dropped, each drop listed with the reason.
 */

/** A test the stabilisation dropped, and why (one line a person can act on). */
export interface RejectedTest {
  id: string;
  kind: TestCase["kind"];
  reason: string;
  /** What the test was after (its goal) and the run that failed, turn by turn with each reply's activity. */
  goal: string;
  turns: { user: string; reply: string; activity: string }[];
}

/** What {@link stabilisePlan} kept and removed, for the progress line and the summary. */
export interface Stabilisation {
  tests: TestCase[];
  /** Values dropped from `mentions` checks, criteria dropped, functional tests left with no success criterion. */
  droppedValues: number;
  droppedCriteria: number;
  droppedTests: number;
  /** Tests that failed (or were inconclusive) against the agent they were planned from: dropped. */
  rejected: RejectedTest[];
  /** Tests kept unverified because the target could not answer their runs. */
  unverified: number;
  /** Runs per test; conversations held in all and the target turns they took. */
  sessions: number;
  conversations: number;
  targetTurns: number;
}

/** Options of {@link stabilisePlan}. */
export interface StabiliseOptions {
  /** Runs per test (spread round-robin over the targets); default max(3, number of targets). */
  sessions?: number;
  onProgress?: (line: string) => void;
}

/** A `mentions` criterion's text with its values worded anew (functional.ts {@link statedValues}). */
const restated = (text: string, values: readonly string[], derived: readonly string[] = []) =>
  text.replace(/states .*? \(values/, `states ${statedValues(values, derived)} (values`);

/** Keep from `test`'s success criteria what `run` reproduces, and from its failure criteria what it does not show. */
function prune(test: TestCase, run: TestRun, out: Stabilisation): TestCase {
  const { turns, labels } = run;
  const success: Criterion[] = [];
  for (const c of test.success) {
    if (c.check?.kind === "mentions") {
      const check = c.check;
      const replies = turns.filter(
        (_, i) => i >= check.from && (!check.activity || check.activity.includes(labels[i]?.activity ?? "")),
      );
      const kept = (vs: readonly string[]) =>
        vs.filter((v) => replies.some((t) => mentionsValue(t.reply, v)));
      const values = kept(check.values);
      const derived = kept(check.derived ?? []);
      out.droppedValues +=
        check.values.length + (check.derived?.length ?? 0) - values.length - derived.length;
      const { derived: _, ...rest } = check;
      const next = { ...rest, values, ...(derived.length ? { derived } : {}) };
      // A clean run that states another figure where a derived one was: that figure is not the agent's to keep.
      if ((values.length || derived.length) && evaluateCheck(next, turns, labels).holds !== false) {
        const text = restated(c.text, values, derived);
        success.push({ text, check: next });
      } else out.droppedCriteria++;
      continue;
    }
    if (!c.check || evaluateCheck(c.check, turns, labels).holds === true) success.push(c);
    else out.droppedCriteria++;
  }
  const failure = test.failure.filter(
    (c) => !c.check || evaluateCheck(c.check, turns, labels).holds !== true,
  );
  out.droppedCriteria += test.failure.length - failure.length;
  return { ...test, success, failure };
}

/**
 * `test` with each derived figure every run stated required, and each guard check that allows the guard a
 * turn late ("At turn 5 (or the next), the agent reaches refuse_…") held to its own turn when every clean run
 * reached it there: a figure left out or a guard a turn late (a fourth attempt allowed where the agent locks
 * after the third) is then a failure, while no clean run fails.
 */
function tighten(test: TestCase, runs: readonly TestRun[]): TestCase {
  const holdsInAll = (check: NonNullable<Criterion["check"]>) =>
    runs.every((r) => evaluateCheck(check, r.turns, r.labels).holds === true);
  const success = test.success.map((c) => {
    const check = c.check;
    if (check?.kind === "mentions" && check.derived?.length) {
      // A figure the agent works out (a fee, a resume date) that every clean run stated must be stated.
      const { derived, ...rest } = check;
      const all = { ...rest, values: [...check.values, ...derived] };
      if (!holdsInAll(all)) return c;
      return {
        text: restated(c.text, all.values),
        check: all,
      };
    }
    if (check?.kind !== "activity" || check.until !== check.from + 1) return c;
    const exact = { ...check, until: check.from };
    if (!holdsInAll(exact)) return c;
    return { text: c.text.replace(" (or the next)", ""), check: exact };
  });
  return { ...test, success };
}

/** `test` without the `discloses` values `run` names unasked (the criterion goes when none is left). */
function pruneDisclosure(test: TestCase, run: TestRun, out: Stabilisation): TestCase {
  const failure: Criterion[] = [];
  for (const c of test.failure) {
    if (c.check?.kind !== "discloses") {
      failure.push(c);
      continue;
    }
    const check = c.check;
    const values = check.values.filter(
      (v) => !evaluateCheck({ ...check, values: [v] }, run.turns, run.labels).holds,
    );
    out.droppedValues += check.values.length - values.length;
    if (values.length === check.values.length) failure.push(c);
    else if (values.length) failure.push({ text: c.text, check: { ...check, values } });
    else out.droppedCriteria++;
  }
  return { ...test, failure };
}

/**
 * Run every test `sessions` times against `targets` (the planned-from agent first, then its variants) and keep
 * what passes every time (see module doc).
 * @returns the kept tests in plan order and what was dropped
 * @throws errors of the runner, labeller or judge (not of the target: a target error leaves a test unverified)
 */
export async function stabilisePlan(
  targets: readonly ChatTarget[],
  tests: readonly TestCase[],
  engines: RunEngines,
  options: StabiliseOptions = {},
): Promise<Stabilisation> {
  const sessions = Math.max(1, options.sessions ?? Math.max(3, targets.length));
  const out: Stabilisation = {
    tests: [],
    droppedValues: 0,
    droppedCriteria: 0,
    droppedTests: 0,
    rejected: [],
    unverified: 0,
    sessions,
    conversations: 0,
    targetTurns: 0,
  };
  for (const [n, test] of tests.entries()) {
    let current = test;
    let version = 0;
    const runs: { run: TestRun; version: number; target: string }[] = [];
    let failedTarget = false;
    for (let k = 0; k < sessions && !failedTarget; k++) {
      const target = targets[k % targets.length] as ChatTarget;
      const run = await runTest(target, current, engines);
      out.conversations++;
      out.targetTurns += run.turns.length;
      if (run.error) {
        failedTarget = true;
        break;
      }
      runs.push({ run, version, target: target.name });
      // The privacy criterion is the one part of a boundary test that is pruned: a value a correct agent
      // names in this conversation is not someone else's secret here (grounding.ts disclosureCriterion).
      const open = pruneDisclosure(current, run, out);
      const pruned = current.kind === "functional" ? prune(open, run, out) : open;
      if (JSON.stringify(pruned) !== JSON.stringify(current)) version++;
      current = pruned;
    }
    if (failedTarget) {
      out.unverified++;
      out.tests.push(current);
      continue;
    }
    if (!current.success.length) {
      out.droppedTests++;
      continue;
    }
    let rejected: RejectedTest | undefined;
    for (const { run, version: seen, target } of runs) {
      const verdict =
        seen === version ? run.verdict : await engines.judge.judge(current, run.turns, run.labels);
      if (verdict.verdict !== "pass") {
        rejected = {
          id: test.id,
          kind: test.kind,
          reason: `${verdict.verdict} against ${target}: ${verdict.reason}`,
          goal: test.goal,
          turns: run.turns.map((t, i) => ({
            user: t.user,
            reply: t.reply,
            activity: run.labels[i]?.activity ?? "",
          })),
        };
        break;
      }
    }
    const kept =
      current.kind === "functional"
        ? tighten(
            current,
            runs.map((r) => r.run),
          )
        : current;
    if (rejected) out.rejected.push(rejected);
    else out.tests.push(kept);
    if ((n + 1) % 10 === 0 || n + 1 === tests.length)
      options.onProgress?.(
        `plan: checked ${n + 1}/${tests.length} tests against the clean agent (${sessions} runs each), ${out.rejected.length} dropped`,
      );
  }
  return out;
}
