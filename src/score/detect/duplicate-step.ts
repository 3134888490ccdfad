import type { ToolResultEvent } from "../../core/trajectory.ts";
import type { DefectInstance, ExemptedInstance, RawFinding } from "../defects.ts";
import { isKeyInput } from "./failures.ts";
import { isFullRead, shownIn, singleFile } from "./file-reads.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { FileMap } from "./paths.ts";
import { StateClock } from "./state-clock.ts";
import { type CallView, canonical, type TrajectoryView } from "./view.ts";

/**
 * Duplicate Step (ProcCtrlBench App. A.2): a tool call that repeats an earlier one with no substantive state
 * change in between, so it can only return what the agent already has.
 *
 * Raw score: the number of such calls (weight 1 each). Evidence per instance: the earlier call and the
 * repeat. Two calls are the same when their tool and arguments are (for shell calls: the command line,
 * whatever the working-directory or timeout fields say), or when they differ only in numbers and the repeat
 * shows nearly what the earlier result did (≥ 90% of its lines are in it, and it is at least half as long:
 * `grep -A 8` after `grep -A 10`; not paging through a file, not zooming in on part of it).
 *
 * State change is judged by effect, not by command name: a definite change is a recorded file change
 * (observed, or derived from a shell command line), a successful write or edit, a successful mutating
 * command (`git commit`, `npm install`, `rm` …), a successful call of an unknown tool or a delegation; a user
 * turn or compaction also starts a new state. A call that failed without changing a file changed nothing (a
 * rejected edit retried verbatim is a duplicate). An unrecognised command (`python x.py`) is not assumed to
 * change state; instead a repeat counts only when its output equals the earlier one (after masking
 * durations, timestamps and hex ids) — if the output differs, something did change.
 *
 * A look at a file the agent already read in full — part of it (a ranged read, `sed -n`, `grep` in that one
 * file) or all of it through another tool — with the file unchanged since, is a repeat too when it shows
 * nothing the whole read did not (≥ 90% of its lines, line numbers aside: a file an unrecognised script
 * rewrote shows new lines). A user turn in between does not excuse a look at part of the file; a
 * compaction does (the content left the context). A whole read is one without a range whose result is not
 * cut. Package installs and virtualenvs (`pip install`, `npm ci`, `python -m venv`, `source …/activate`)
 * change the environment, not the project's files: a re-read of a file after one is still a repeat, a
 * rerun of a command is not. The harness's submission command (mini-swe-agent's marker echo, `submit`) is
 * never a repeat. A successful build (`sphinx-build`, `npm run build`, `make`, `tsc` …) writes outputs no
 * change event records, so it starts a new state.
 *
 * Keys sent to a running command (`C-c`, OpenHands `is_input`) act on the process running then, so they are
 * never repeats, and they start a new state (an interrupted command can be rerun).
 *
 * Todo bookkeeping (LABELS.md convention): a todo or plan update right after another, with no other tool
 * call in between, is a duplicate; todo updates alongside real work are not.
 *
 * Exemptions (App. A.2, B.1), kept as evidence in `exempted`:
 * - validation reruns after intervening changes (same test/build/lint command, state changed since);
 * - time-varying commands (`git status`, `date`, `ps`, `curl`, `sleep` …) and fetches: their output may change;
 * - intended batch processing: near-duplicates that differ in the target path (`a1.txt`, `a2.txt`, …).
 *
 * Complexity: O(n) over events plus the output comparisons (each bounded by the kept output size).
 */
export const duplicateStep: Detector = {
  defect: "duplicate-step",
  detect(view) {
    // Dead Step asks for the repeats too: detect once per view.
    let found = memo.get(view);
    if (!found) {
      found = detectDuplicates(view);
      memo.set(view, found);
    }
    return found;
  },
};

const memo = new WeakMap<TrajectoryView, RawFinding>();

function detectDuplicates(view: TrajectoryView): RawFinding {
  const instances: DefectInstance[] = [];
  const exempted: ExemptedInstance[] = [];
  const exact = new Map<string, { call: CallView; version: string }>();
  const near = new Map<string, { call: CallView; version: string }>();
  const fullReads = new FileMap<{ call: CallView; version: string; withTurns: string }>(); // file → last whole read
  const state = new StateClock();
  let m = 0; // next message / context event to fold into the state
  let lastTodo: { call: CallView; version: string } | undefined;
  const boundaries = view.events
    .map((e, at) => ({ e, at }))
    .filter(({ e }) => (e.type === "message" && e.role === "user") || (e.type === "context" && e.compaction));
  for (const c of view.calls) {
    while (m < boundaries.length && (boundaries[m]?.at ?? Infinity) < c.at) {
      if (boundaries[m]?.e.type === "message") state.bumpTurn();
      else state.bumpAll();
      m++;
    }
    if (SUBMIT.test(c.commandText)) continue; // the harness's submission, shown to the harness, not the agent
    if (isKeyInput(c)) {
      // Keys sent to a running command act on whatever runs then, not on their arguments: never a repeat.
      state.bumpAll();
      continue;
    }
    const version = state.of(c);
    if (isTodoUpdate(c)) {
      const now = state.of(undefined);
      if (lastTodo && lastTodo.version === now)
        instances.push(
          pair(lastTodo.call, c, "updates the todo list again after", " with no other action in between"),
        );
      lastTodo = { call: c, version: now };
      continue;
    }
    if (c.kind !== "plan") lastTodo = undefined;
    const key = keyOf(c);
    const earlier = exact.get(key);
    const nearKey = maskNumbers(key);
    const similar = near.get(nearKey);
    if (earlier && earlier.version === version) {
      if (c.commandKind === "probe" || c.kind === "fetch")
        exempted.push({
          ...pair(earlier.call, c, "repeats"),
          reason: "time-varying command: its output may change between runs",
        });
      else if (sameOutput(earlier.call, c)) instances.push(pair(earlier.call, c, "repeats"));
    } else if (earlier && c.commandKind === "validate") {
      exempted.push({
        ...pair(earlier.call, c, "reruns", " after changes"),
        reason: "validation rerun after intervening changes",
      });
    } else if (!earlier && similar && similar.version === version) {
      if (samePaths(similar.call, c) && covers(similar.call, c))
        instances.push(
          pair(similar.call, c, "nearly repeats (only numbers differ) and shows nothing new after"),
        );
      else if (!samePaths(similar.call, c) && c.kind !== "shell")
        exempted.push({
          ...pair(similar.call, c, "repeats the operation of", " on another target"),
          reason: "intended batch processing: same operation on another target",
        });
    }
    const file = singleFile(c);
    if (file && !c.failed) {
      const whole = fullReads.get(file);
      const counted = instances.at(-1)?.events[1] === c.call.id;
      // For a look at part of the file a user turn does not matter: it shows nothing the whole read did not
      // (checked). Reading the whole file again after a user turn is a fresh look.
      const wholeRead = isFullRead(c);
      const content = state.of(c, false);
      const since = wholeRead ? whole?.withTurns : whole?.version;
      if (
        !counted &&
        whole &&
        whole.call !== c &&
        since === (wholeRead ? version : content) &&
        shownIn(whole.call, c)
      )
        instances.push(
          pair(
            whole.call,
            c,
            `reads ${file} again, already read in full by`,
            " with no change to it in between",
          ),
        );
      else if (wholeRead) fullReads.set(file, { call: c, version: content, withTurns: version });
    }
    exact.set(key, { call: c, version });
    near.set(nearKey, { call: c, version });
    state.after(c);
  }
  return makeFinding("duplicate-step", instances, exempted);
}

/** Commands that hand the result to the harness (mini-swe-agent's marker echo, SWE-agent's `submit`). */
const SUBMIT = /\b(COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b|^\s*submit\s*$/;

/** Tools whose call only records the agent's own plan (todo lists, plans). */
const TODO = /^(todowrite|todo_write|write_todos|update_plan|taskupdate|task_tracker|todo)$/i;

function isTodoUpdate(c: CallView): boolean {
  return c.kind === "plan" && TODO.test(c.call.name.replace(/^mcp__[^_]+__/, ""));
}

/** Arguments that describe a call rather than change what it does. */
const VOLATILE = new Set([
  "description",
  "explanation",
  "reason",
  "timeout",
  "timeout_ms",
  "timeoutMs",
  "summary",
]);

/** What makes two calls the same: the command line of a shell call, else tool name and arguments. */
function keyOf(c: CallView): string {
  if (c.kind === "shell" && c.commandText) return `shell ${c.commandText.replace(/\s+/g, " ").trim()}`;
  const input = c.call.input;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const kept = Object.fromEntries(Object.entries(input).filter(([k]) => !VOLATILE.has(k)));
    return `${c.call.name.toLowerCase()} ${canonical(kept)}`;
  }
  return c.signature;
}

/** Output with what differs between identical runs masked: durations, timestamps, long hex ids. */
function normalise(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, "<time>")
    .replace(/\b\d+(\.\d+)?\s*(ms|s|sec|secs|seconds|m|min)\b/g, "<dur>")
    .replace(/\b[0-9a-f]{8,}\b/g, "<hex>")
    .replace(/\s+/g, " ")
    .trim();
}

const normalised = new WeakMap<ToolResultEvent, string>();

/** {@link normalise} of a result's output, once per result (an output can be compared with many repeats). */
function normalisedOutput(r: ToolResultEvent): string {
  let n = normalised.get(r);
  if (n === undefined) {
    n = normalise(r.output);
    normalised.set(r, n);
  }
  return n;
}

function sameOutput(a: CallView, b: CallView): boolean {
  if (!a.result && !b.result) return true;
  if (!a.result || !b.result) return false;
  return a.failed === b.failed && normalisedOutput(a.result) === normalisedOutput(b.result);
}

/**
 * The later result is nearly the earlier one: ≥ 90% of its lines are in it, and it is at least half as long
 * (a narrower look at part of what was shown — ten lines of a hundred — is focusing, not repeating).
 */
function covers(a: CallView, b: CallView): boolean {
  if (!a.result || !b.result || a.failed !== b.failed) return false;
  const lines = (t: string) =>
    t
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
  const first = lines(a.result.output);
  const earlier = new Set(first);
  const later = lines(b.result.output);
  if (!later.length || later.length < 0.5 * first.length) return false;
  return later.filter((l) => earlier.has(l)).length / later.length >= 0.9;
}

function pair(
  first: CallView,
  again: CallView,
  verb: string,
  tail = " with no state change in between",
): DefectInstance {
  const what = again.commandText ? `\`${short(again.commandText)}\`` : again.call.name;
  const note = `${what} (${again.call.id}) ${verb} ${first.call.id}${tail}`;
  return { events: [first.call.id, again.call.id], note, weight: 1 };
}

function maskNumbers(signature: string): string {
  return signature.replace(/\d+/g, "#");
}

function samePaths(a: CallView, b: CallView): boolean {
  return a.paths.join("\0") === b.paths.join("\0");
}

/** First 80 characters of a command, one line. */
export function short(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
