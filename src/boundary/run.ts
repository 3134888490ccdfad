import path from "node:path";
import { distance } from "fastest-levenshtein";
import { type ChatTarget, TargetError } from "../agents/chat/target.ts";
import { sha256 } from "../core/ids.ts";
import { appendJsonl, readJsonlIfExists } from "../core/jsonl.ts";
import { makeDirectory } from "../core/paths.ts";
import { answerTo, type Question, readQuestion } from "./answer.ts";
import { OUT_OF_RANGE } from "./driver.ts";
import { afterCorrection } from "./driver-values.ts";
import {
  type Facts,
  type Judge,
  type Labeller,
  type Runner,
  type TestCase,
  TestRun,
  type Turn,
  type Verdict,
} from "./types.ts";

/**
 * Execution (AgentEval §III-B): each test of the plan in a fresh session — the runner re-enacts it turn by
 * turn, the labeller abstracts the transcript, and a separate judge gives the verdict from the visible
 * transcript alone. Runs are appended to `runs.jsonl` as they finish, so an interrupted run resumes.
 */

/** The engines and facts a test run needs. */
export interface RunEngines {
  runner: Runner;
  labeller: Labeller;
  judge: Judge;
  facts: Facts;
  /** Activity labels already in use (from the abstraction stage), passed to the labeller to reuse. */
  known?: readonly string[];
}

/** Hash of a test's content (what it sends and checks), for resuming only identical tests. */
export function testHash(test: TestCase): string {
  return sha256(JSON.stringify(test)).slice(0, 16);
}

/** Index of the next hint to send: the hints already sent, matched in order against the user turns. */
function nextHint(test: TestCase, turns: readonly Turn[]): number {
  let at = 0;
  for (const turn of turns) if (at < test.hints.length && turn.user === test.hints[at]) at++;
  return at;
}

/** An identifier-like token (a digit or an underscore, 4+ characters). */
const ID_TOKEN = /\b(?=\w*[\d_])\w{4,}\b/g;

/** The words the driver's out-of-range tactic puts before its value ("Let's say 4000"). */
const OUT_OF_RANGE_LEAD = new RegExp(`^${OUT_OF_RANGE}\\s+`, "i");
/** A value's form: runs of digits → 9, of letters → a ("02/11/1983" → "9/9/9", "£640" → "£9"). */
const formOf = (v: string) =>
  v
    .trim()
    .replace(OUT_OF_RANGE_LEAD, "")
    .replace(/\d+/g, "9")
    .replace(/\p{L}+/gu, "a");
/**
 * Whether `hint` is a value of the same form as `value`: with digits or several words, the same form
 * ("02/11/1983" for "02/11/1982", "£64000" for "£640", "Tom Becker" for "Emma Clarke"); a single word only one
 * or two letters off ("Clarkf" for "Clarke").
 */
function sameForm(hint: string, value: string): boolean {
  const form = formOf(value);
  if (formOf(hint) !== form) return false;
  if (/9/.test(form) || /a\W+a/.test(form)) return true;
  return distance(hint.trim().toLowerCase(), value.toLowerCase()) <= 2;
}

/**
 * Whether `hint` gives what `question` asks for, so it should be sent as it is: it holds the persona's value,
 * names the slot, or — for an id slot — carries an id that is not another persona slot's value (a test may
 * give a wrong or foreign id on purpose); for a count, holds a number.
 */
function supplies(hint: string, question: Question, persona: Record<string, string>): boolean {
  const text = hint.toLowerCase();
  const slot = question.slot;
  if (!slot) return false;
  const value = persona[slot];
  if (value && text.includes(value.toLowerCase())) return true;
  if (text.includes(slot.replace(/_/g, " "))) return true;
  if (question.kind === "count") return /\d/.test(text);
  // A value of the slot's own form given on purpose (a mistyped or another customer's date of birth, an amount
  // past the limit): the test's hint, not a slip the persona should correct.
  if (value && sameForm(hint, value)) return true;
  if (slot.endsWith("_id")) {
    const others = new Set(
      Object.entries(persona)
        .filter(([k]) => k !== slot)
        .map(([, v]) => v.toLowerCase()),
    );
    return (hint.match(ID_TOKEN) ?? []).some((t) => !others.has(t.toLowerCase()));
  }
  return false;
}

/** Whether `hint` gives `slot` for sure: it names the slot, or holds a value of the persona value's form. */
function givesSlot(hint: string, slot: string | undefined, value: string | undefined): boolean {
  if (!slot || !value) return false;
  if (hint.toLowerCase().includes(slot.replace(/_/g, " "))) return true;
  return sameForm(hint, value) || hint.split(/\s+/).some((w) => sameForm(w.replace(/[.,;!?]+$/, ""), value));
}

/**
 * The `rules` runner (AgentEval §III-B): sends the test's hints in order; when the agent's last reply asks for
 * a persona slot (or a count) the next hint does not supply, it first answers from `test.persona` ("My user id
 * is …"), then goes on with the hints. It never answers a confirmation gate or picks an option on its own —
 * those decisions are the test's hints — and never sends a value that is not in the hints or the persona.
 * Returns undefined at the turn budget, or once the hints are sent and the last reply asks nothing the
 * persona answers (and the same answer was not just rejected), or asks again for a slot the last hint giving
 * it gave another value of on purpose.
 */
export const rulesRunner: Runner = {
  async next({ test, turns }) {
    if (turns.length >= test.turnBudget) return undefined;
    const at = nextHint(test, turns);
    const hint = test.hints[at];
    const last = turns.at(-1);
    if (last) {
      const question = readQuestion(last.reply, Object.keys(test.persona), undefined, test.hints[0]);
      // Asked about a value the test just corrected ("What needs changing?", "What should the postcode be?"):
      // the corrected one, before the hint that approves the gate read back again.
      const fixed =
        question && !(hint && question.slot && supplies(hint, question, test.persona))
          ? afterCorrection(question, test.persona, test.hints.slice(0, at))
          : undefined;
      if (fixed !== undefined && fixed !== last.user) return fixed;
      if (
        question &&
        question.kind !== "gate" &&
        question.slot &&
        !(hint && supplies(hint, question, test.persona))
      ) {
        // All hints sent, and the last one giving this slot gave another value on purpose (a claim that is not
        // the customer's, a wrong date of birth): the test is over; answering with the persona's own value
        // would undo what it tests.
        const value = test.persona[question.slot];
        const given = hint === undefined && test.hints.findLast((h) => givesSlot(h, question.slot, value));
        if (value && given && !given.toLowerCase().includes(value.toLowerCase())) return undefined;
        const answer = answerTo({ ...question, options: [] }, test.persona);
        if (answer !== undefined && answer !== last.user) return answer;
      }
    }
    return hint;
  },
};

const inconclusive = (reason: string): Verdict => ({
  verdict: "inconclusive",
  reason,
  quotes: [],
  criteria: [],
});

/**
 * Run one test (AgentEval §III-B): reset the target, let the runner drive up to `test.turnBudget` turns, label
 * the transcript, and ask the judge. A TargetError (on reset or a turn) ends the run with verdict
 * `inconclusive` and the error recorded — the failed turn is kept with an empty reply — never a throw.
 * @returns the run; `ms` is its wall time including labelling and judging
 * @throws errors of the runner, labeller or judge (a bug or a spent model budget), not of the target
 */
export async function runTest(target: ChatTarget, test: TestCase, engines: RunEngines): Promise<TestRun> {
  const started = performance.now();
  const turns: Turn[] = [];
  const finish = (fields: Pick<TestRun, "labels" | "verdict"> & { error?: string }): TestRun =>
    TestRun.parse({
      testId: test.id,
      target: target.name,
      turns,
      ...fields,
      ms: performance.now() - started,
    });
  try {
    await target.reset();
    while (turns.length < test.turnBudget) {
      const user = await engines.runner.next({ test, turns });
      if (user === undefined) break;
      const sent = performance.now();
      try {
        const reply = await target.send(user);
        turns.push({ user, reply: reply.text, ms: reply.ms });
      } catch (error) {
        if (error instanceof TargetError) turns.push({ user, reply: "", ms: performance.now() - sent });
        throw error;
      }
    }
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    const reason = `The target failed to answer at turn ${turns.length}: ${error.message}`;
    return finish({ labels: [], verdict: inconclusive(reason), error: error.message });
  }
  const labels = await engines.labeller.label({ id: test.id, turns }, engines.facts, engines.known ?? []);
  const verdict = await engines.judge.judge(test, turns, labels);
  return finish({ labels, verdict });
}

/** Options of {@link runPlan}. */
export interface RunPlanOptions extends RunEngines {
  /** `runs.jsonl`: each run is appended as it finishes; tests already there are not re-run. */
  file?: string;
  /** One line per test, e.g. `run 12/74 b-cancel-gate-3: fail (2.1 s)`. */
  onProgress?: (line: string) => void;
}

/**
 * Run the plan's tests one by one (AgentEval §III-B), appending each run to `file` as it completes. Resumable:
 * tests whose id is already in the file (a torn last line is repaired) are skipped and their recorded run
 * returned.
 * @returns one run per test, in plan order
 * @throws InputError when `file` holds a line that is not a test run; errors of {@link runTest}
 */
export async function runPlan(
  target: ChatTarget,
  tests: readonly TestCase[],
  options: RunPlanOptions,
): Promise<TestRun[]> {
  const { file, onProgress } = options;
  if (file) makeDirectory(path.dirname(file));
  const done = new Map<string, TestRun>();
  // A recorded run is reused only for the very same test that is asked for now, and not after a target error.
  const hashes = new Map(tests.map((t) => [t.id, testHash(t)]));
  for (const run of file ? readJsonlIfExists(file, TestRun, { repairTornTail: true }) : [])
    if (run.testHash === hashes.get(run.testId) && !run.error) done.set(run.testId, run);
    else done.delete(run.testId);
  const resumed = tests.filter((t) => done.has(t.id)).length;
  if (resumed) onProgress?.(`run: ${resumed} of ${tests.length} tests already done, resuming`);
  const runs: TestRun[] = [];
  for (const [i, test] of tests.entries()) {
    const earlier = done.get(test.id);
    if (earlier) {
      runs.push(earlier);
      continue;
    }
    const run = { ...(await runTest(target, test, options)), testHash: hashes.get(test.id) };
    if (file) appendJsonl(file, run);
    done.set(test.id, run);
    runs.push(run);
    const error = run.error ? ` — target error: ${run.error}` : "";
    onProgress?.(
      `run ${i + 1}/${tests.length} ${test.id}: ${run.verdict.verdict} (${(run.ms / 1000).toFixed(1)} s)${error}`,
    );
  }
  return runs;
}
