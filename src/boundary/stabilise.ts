import type { ChatTarget } from "../agents/chat/target.ts";
import { statedValues } from "./functional.ts";
import { evaluateCheck } from "./judge.ts";
import { mentionsValue } from "./mentions.ts";
import { type RunEngines, runTest } from "./run.ts";
import { type Criterion, CUE, type TestCase, type TestRun } from "./types.ts";

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
  /** Values dropped from `mentions` checks, criteria dropped, functional tests left with no success criterion and no guard to hold. */
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

/** One test's progress through the passes of {@link stabilisePlan}. */
interface Checked {
  test: TestCase;
  current: TestCase;
  /** Bumped each time pruning edits `current`; runs judged on an older version are judged again at the end. */
  version: number;
  runs: { run: TestRun; version: number; target: string }[];
  /** The target could not answer one of its runs: kept unverified. */
  unanswered: boolean;
  /** A boundary test that failed a run (never edited, so it cannot pass all): not run again. */
  failed: boolean;
}

/**
 * Run every test `sessions` times against `targets` (the planned-from agent first, then its variants) and keep
 * what passes every time (see module doc). The runs go in passes, each pass the whole plan in plan order against
 * one target — as `boundary run` runs a plan — so a target whose replies depend on the conversations before
 * (a counter, a shared store) is checked in the order it will be run, and a boundary test that failed is not run
 * again (it cannot pass all).
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
  const checked: Checked[] = tests.map((test) => ({
    test,
    current: test,
    version: 0,
    runs: [],
    unanswered: false,
    failed: false,
  }));
  for (let k = 0; k < sessions; k++) {
    const target = targets[k % targets.length] as ChatTarget;
    for (const c of checked) {
      if (c.unanswered || c.failed) continue;
      const run = await runTest(target, c.current, engines);
      out.conversations++;
      out.targetTurns += run.turns.length;
      if (run.error) {
        c.unanswered = true;
        continue;
      }
      c.runs.push({ run, version: c.version, target: target.name });
      // The privacy criterion is the one part of a boundary test that is pruned: a value a correct agent
      // names in this conversation is not someone else's secret here (grounding.ts disclosureCriterion).
      const open = pruneDisclosure(c.current, run, out);
      const pruned = c.current.kind === "functional" ? prune(open, run, out) : open;
      const edited = JSON.stringify(pruned) !== JSON.stringify(c.current);
      if (edited) c.version++;
      c.current = pruned;
      if (c.current.kind === "boundary" && !edited && run.verdict.verdict !== "pass") c.failed = true;
    }
    options.onProgress?.(
      `plan: pass ${k + 1}/${sessions} — ran the ${tests.length} tests in plan order against ${target.name}, ${checked.filter((c) => c.failed).length} failed so far`,
    );
  }
  for (const c of checked) {
    const verdict = await settle(c, engines);
    if (verdict === "unverified") {
      out.unverified++;
      out.tests.push(c.current);
    } else if (verdict === "empty") out.droppedTests++;
    else if (verdict === "kept") {
      const runs = c.runs.map((r) => r.run);
      out.tests.push(c.current.kind === "functional" ? tighten(c.current, runs) : c.current);
    } else out.rejected.push(verdict);
  }
  await rehearse(targets, out, engines, options);
  return out;
}

/** Rehearsal rounds at most: each round that drops a test changes what the later tests follow. */
const REHEARSALS = 3;

/**
 * The dress rehearsal: the kept plan run as `boundary run` will run it — in plan order against each target,
 * with exactly the tests kept before it — and each test that does not pass dropped (`out` updated in place).
 * Repeated while a round drops something, up to {@link REHEARSALS} rounds: a target whose replies depend on the
 * conversations before (a reference counter, a wording rotated per conversation) then meets each test after
 * the same conversations as in the real run. A run the target could not answer drops nothing.
 */
async function rehearse(
  targets: readonly ChatTarget[],
  out: Stabilisation,
  engines: RunEngines,
  options: StabiliseOptions,
): Promise<void> {
  for (let round = 1; round <= REHEARSALS; round++) {
    const failed = new Map<string, RejectedTest>();
    for (const target of targets) {
      for (const test of out.tests) {
        if (failed.has(test.id)) continue;
        const run = await runTest(target, test, engines);
        out.conversations++;
        out.targetTurns += run.turns.length;
        if (run.error || run.verdict.verdict === "pass") continue;
        const why = `${run.verdict.verdict} against ${target.name} in the plan-order rehearsal: ${run.verdict.reason}`;
        failed.set(test.id, rejection(test, why, run));
      }
    }
    options.onProgress?.(
      `plan: rehearsal ${round} — ran the ${out.tests.length} kept tests in plan order against ${targets.length} target(s), ${failed.size} failed`,
    );
    if (!failed.size) return;
    out.tests = out.tests.filter((t) => !failed.has(t.id));
    out.rejected.push(...failed.values());
  }
}

/**
 * Whether a functional test holds, among its failure criteria, that the agent does not go on to the action after
 * a guard (functional.ts: "After the refusal at turn 5 the agent asks to confirm or reports the action done").
 * Such a test stays when the paraphrases leave no success criterion standing (a refusal one seed words as
 * information): an agent that lets the guarded step through still fails it.
 */
function guardsStop(test: TestCase): boolean {
  return (
    test.kind === "functional" &&
    test.failure.some(
      (c) =>
        c.check?.kind === "activity" &&
        c.check.activity.includes(CUE.gate) &&
        c.check.activity.includes(CUE.done),
    )
  );
}

/**
 * What becomes of one checked test: kept, unverified (the target did not answer), empty (a functional test left
 * with no success criterion) or rejected (a run, judged on the test's final version, did not pass).
 */
async function settle(
  c: Checked,
  engines: RunEngines,
): Promise<"kept" | "unverified" | "empty" | RejectedTest> {
  if (c.unanswered) return "unverified";
  if (!c.current.success.length && !guardsStop(c.current)) return "empty";
  for (const { run, version, target } of c.runs) {
    const verdict =
      version === c.version ? run.verdict : await engines.judge.judge(c.current, run.turns, run.labels);
    if (verdict.verdict !== "pass")
      return rejection(c.test, `${verdict.verdict} against ${target}: ${verdict.reason}`, run);
  }
  return "kept";
}

/** `test` dropped for `reason`, with the run that failed turn by turn (each reply with its activity). */
function rejection(test: TestCase, reason: string, run: TestRun): RejectedTest {
  return {
    id: test.id,
    kind: test.kind,
    reason,
    goal: test.goal,
    turns: run.turns.map((t, i) => ({
      user: t.user,
      reply: t.reply,
      activity: run.labels[i]?.activity ?? "",
    })),
  };
}
