import type { TrajectoryEvent } from "../../core/trajectory.ts";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { isKeyInput } from "./failures.ts";
import { Fnv, hits, isDigit, isFullRead, lineSet, shownIn, singleFile, textHash } from "./file-reads.ts";
import { type Detector, Instances, makeFinding, streaming } from "./finding.ts";
import { numberedLines, outputHash, outputLines, outputSet, shownSet } from "./output-hash.ts";
import { FileMap } from "./paths.ts";
import { StateClock } from "./state-clock.ts";
import { MAX_REMEMBERED, RecentMap, type StreamShared } from "./stream.ts";
import { PATH_KEYS } from "./tools.ts";
import { type CallView, canonical } from "./view.ts";

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
 * Complexity: O(n) — one pass over the stream, plus one pass over each result's output (hashing its
 * normalised text; its lines too when the call's key has numbers outside its path arguments, or when it
 * read a whole file: the outputs are not kept).
 * State: the state clock (counters, a version per file written), the last call per call key and per key
 * with numbers masked (two {@link RecentMap}s keyed by 52-bit hashes of the keys, each call kept as a
 * {@link Look}: id, excerpt, state version, the hash of its normalised output and, when it may be compared
 * line by line, the hashes of its lines), and the last whole read per file (the hashes of the lines it
 * showed). A repeat of a call more than {@link MAX_REMEMBERED} distinct keys back is not seen.
 */
export const duplicateStep: Detector = streaming("duplicate-step", (shared) => {
  const run = sharedDuplicateSteps(shared);
  return {
    push(at, e, c) {
      run.push(at, e, c);
    },
    finish: () => makeFinding("duplicate-step", run.instances, run.exempted),
  };
});

/** What a repeat needs of an earlier call, kept instead of the call. */
interface Look {
  id: string;
  /** Its excerpt. */
  excerpt: Excerpt;
  /** The state it observed. */
  version: string;
  result: boolean;
  failed: boolean;
  /** The hash of its normalised output ({@link outputHash}); 0 without a result. */
  output: number;
  /** For a key with numbers in it: its output's trimmed non-empty lines ({@link lineSet} of their hashes). */
  lines?: Float64Array;
  /** How many such lines it has, repeats counted. */
  count: number;
  /** The hash of its paths. */
  paths: number;
}

/**
 * The Duplicate Step state machine ({@link duplicateStep}): `push` every event in order; for a tool call
 * it answers whether the call is a counted repeat (the second call of an instance). Dead Step asks the same
 * machine ({@link sharedDuplicateSteps}).
 */
/**
 * The stream's one {@link duplicateSteps} machine (Duplicate Step and Dead Step both ask it): `push` at a
 * position already pushed answers again without reading the event twice.
 */
export function sharedDuplicateSteps(shared: StreamShared): ReturnType<typeof duplicateSteps> {
  return shared.get("duplicate-steps", () => {
    const run = duplicateSteps();
    let last = -1;
    let answer = false;
    return {
      ...run,
      push(at, e, c) {
        if (at !== last) {
          last = at;
          answer = run.push(at, e, c);
        }
        return answer;
      },
    };
  });
}

export function duplicateSteps(): {
  push(at: number, e: TrajectoryEvent, c: CallView | undefined): boolean;
  instances: Instances<DefectInstance>;
  exempted: Instances<ExemptedInstance>;
} {
  const instances = new Instances<DefectInstance>();
  const exempted = new Instances<ExemptedInstance>();
  const exact = new RecentMap<number, Look>(); // key hash → last call with that key
  const near = new RecentMap<number, Look>(); // hash of the key with numbers masked → last call with it
  // File → last whole read, with the lines it showed.
  const fullReads = new FileMap<{ look: Look; version: string; withTurns: string; shown: Float64Array }>();
  const state = new StateClock();
  let lastTodo: { look: Look; version: string } | undefined;
  const count = (i: DefectInstance): true => {
    instances.push(i);
    return true;
  };
  const exempt = (i: ExemptedInstance): void => {
    exempted.push(i);
  };
  return {
    instances,
    exempted,
    push(_at, e, c) {
      if (e.type === "message" && e.role === "user") state.bumpTurn();
      else if (e.type === "context" && e.compaction) state.bumpAll();
      return e.type === "tool_call" && c !== undefined && step(c);
    },
  };

  /** The call `c`, whole: is it a counted repeat? */
  function step(c: CallView): boolean {
    if (SUBMIT.test(c.commandText)) return false; // the harness's submission, shown to the harness, not the agent
    if (isKeyInput(c)) {
      // Keys sent to a running command act on whatever runs then, not on their arguments: never a repeat.
      state.bumpAll();
      return false;
    }
    const version = state.of(c);
    if (isTodoUpdate(c)) {
      const now = state.of(undefined);
      let counted = false;
      if (lastTodo && lastTodo.version === now)
        counted = count(
          pair(lastTodo.look, c, "updates the todo list again after", " with no other action in between"),
        );
      lastTodo = { look: lookOf(c, now, false), version: now };
      return counted;
    }
    if (c.kind !== "plan") lastTodo = undefined;
    const key = keyOf(c);
    const [keyHash, maskedHash, numbered] = keyHashes(key);
    const earlier = exact.get(keyHash);
    const similar = near.get(maskedHash);
    // Only a call whose key has numbers (or `#`) in it can be found by another key with them masked, and
    // its lines are compared only if that call has the same paths: not when the numbers are in the paths.
    const look = lookOf(c, version, numbered && numberedBeyondPaths(c));
    let counted = false;
    if (earlier && earlier.version === version) {
      if (c.commandKind === "probe" || c.kind === "fetch")
        exempt({
          ...pair(earlier, c, "repeats"),
          reason: "time-varying command: its output may change between runs",
        });
      else if (sameOutput(earlier, look)) counted = count(pair(earlier, c, "repeats"));
    } else if (earlier && c.commandKind === "validate") {
      exempt({
        ...pair(earlier, c, "reruns", " after changes"),
        reason: "validation rerun after intervening changes",
      });
    } else if (!earlier && similar && similar.version === version) {
      if (similar.paths === look.paths && covers(similar, c))
        counted = count(pair(similar, c, "nearly repeats (only numbers differ) and shows nothing new after"));
      else if (similar.paths !== look.paths && c.kind !== "shell")
        exempt({
          ...pair(similar, c, "repeats the operation of", " on another target"),
          reason: "intended batch processing: same operation on another target",
        });
    }
    const file = singleFile(c);
    if (file && !c.failed) {
      const whole = fullReads.get(file);
      // For a look at part of the file a user turn does not matter: it shows nothing the whole read did not
      // (checked). Reading the whole file again after a user turn is a fresh look.
      const wholeRead = isFullRead(c);
      const content = state.of(c, false);
      const since = wholeRead ? whole?.withTurns : whole?.version;
      if (
        !counted &&
        whole &&
        whole.look.id !== c.call.id &&
        since === (wholeRead ? version : content) &&
        c.result !== undefined &&
        shownIn(whole.shown, numberedLines(c.result))
      )
        counted = count(
          pair(
            whole.look,
            c,
            `reads ${file} again, already read in full by`,
            " with no change to it in between",
          ),
        );
      else if (wholeRead)
        fullReads.set(file, { look, version: content, withTurns: version, shown: shownSet(c.result!) });
    }
    exact.set(keyHash, look);
    near.set(maskedHash, look);
    state.after(c);
    return counted;
  }

  /** What later calls need of `c`; its lines only when `lined`. */
  function lookOf(c: CallView, version: string, lined: boolean): Look {
    const r = c.result;
    const look: Look = {
      id: c.call.id,
      excerpt: excerptOf(c.call),
      version,
      result: r !== undefined,
      failed: c.failed,
      output: r ? outputHash(r) : 0,
      count: 0,
      paths: textHash(c.paths.join("\0")),
    };
    if (r && lined) {
      look.lines = outputSet(r);
      look.count = outputLines(r).length;
    }
    return look;
  }

  function pair(
    first: Look,
    again: CallView,
    verb: string,
    tail = " with no state change in between",
  ): DefectInstance {
    const what = again.commandText ? `\`${short(again.commandText)}\`` : again.call.name;
    const note = `${what} (${again.call.id}) ${verb} ${first.id}${tail}`;
    return {
      events: [first.id, again.call.id],
      note,
      weight: 1,
      excerpts: [first.excerpt, excerptOf(again.call)],
    };
  }
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
    // Without describing arguments the key is the call's signature (tool name and canonical input).
    if (!Object.keys(input).some((k) => VOLATILE.has(k))) return c.signature;
    const kept = Object.fromEntries(Object.entries(input).filter(([k]) => !VOLATILE.has(k)));
    return `${c.call.name.toLowerCase()} ${canonical(kept)}`;
  }
  return c.signature;
}

/**
 * The key of `c` ({@link keyOf}) may have a digit or `#` outside its path arguments (`file_path`, `paths` …:
 * {@link PATH_KEYS}), so another key masking to the same ({@link keyHashes}) with the same paths can exist.
 * When all its numbers are in path arguments, another such key differs in a path, so in `paths`.
 */
function numberedBeyondPaths(c: CallView): boolean {
  const input = c.call.input;
  if ((c.kind === "shell" && c.commandText) || !input || typeof input !== "object" || Array.isArray(input))
    return true;
  if (numbered(c.call.name)) return true;
  for (const [k, v] of Object.entries(input)) {
    if (VOLATILE.has(k)) continue;
    if (numbered(k)) return true;
    if (typeof v === "string" && PATHS.has(k)) continue;
    if (k === "paths" && Array.isArray(v)) {
      if (v.some((p) => typeof p !== "string" && numberedValue(p))) return true;
      continue;
    }
    if (numberedValue(v)) return true;
  }
  return false;
}

const PATHS: ReadonlySet<string> = new Set(PATH_KEYS);

/** The canonical JSON of `v` may have a digit or `#` in it (numbers; strings with one, or escaped as `\u…`). */
function numberedValue(v: unknown): boolean {
  if (typeof v === "string") return numbered(v);
  if (typeof v === "number" || typeof v === "bigint") return true;
  if (Array.isArray(v)) return v.some(numberedValue);
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => numbered(k) || numberedValue(x));
  return false;
}

/** A digit, `#`, or a character JSON escapes as `\u…` (control characters, lone surrogates) in `text`. */
function numbered(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c) || c === 35 || c < 32 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

function sameOutput(a: Look, b: Look): boolean {
  if (!a.result && !b.result) return true;
  if (!a.result || !b.result) return false;
  return a.failed === b.failed && a.output === b.output;
}

/**
 * The later result is nearly the earlier one: ≥ 90% of its lines are in it, and it is at least half as long
 * (a narrower look at part of what was shown — ten lines of a hundred — is focusing, not repeating).
 */
function covers(a: Look, b: CallView): boolean {
  if (!a.lines || !b.result || a.failed !== b.failed) return false;
  const later = outputLines(b.result);
  if (!later.length || later.length < 0.5 * a.count) return false;
  return hits(a.lines, later) / later.length >= 0.9;
}

/**
 * The hashes ({@link textHash}) of a call key and of the key with its numbers masked (each run of digits
 * as `#`), in one pass, and whether the key has a digit or `#` in it (else the two keys are the same, and
 * no other key masks to it).
 */
function keyHashes(key: string): [number, number, boolean] {
  let a = 0x811c9dc5;
  let b = 0x3b9f5c27;
  let ma = a;
  let mb = b;
  let numbered = false;
  let digits = false;
  for (let k = 0; k < key.length; k++) {
    const c = key.charCodeAt(k);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    if (isDigit(c)) {
      numbered = true;
      if (digits) continue;
      digits = true;
      ma = Math.imul(ma ^ 35, 0x01000193);
      mb = Math.imul(mb ^ 35, 0x5bd1e995);
      continue;
    }
    digits = false;
    if (c === 35) numbered = true;
    ma = Math.imul(ma ^ c, 0x01000193);
    mb = Math.imul(mb ^ c, 0x5bd1e995);
  }
  return [Fnv.of(a, b), Fnv.of(ma, mb), numbered];
}

/** First 80 characters of a command, one line. */
export function short(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
