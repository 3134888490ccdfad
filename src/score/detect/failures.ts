import { unquoted } from "./commands.ts";
import type { CallView, TrajectoryView } from "./view.ts";

/**
 * Failures of a tool itself, as opposed to the program a shell ran (a failing test is the test's exit code,
 * not a weak shell) or a user's decision (rejections, interrupts): shared by Tool Call Chain's failure loops
 * and Weak Tool's recurring failures (ProcCtrlBench App. A.2, A.4).
 */

/** Results saying the user stopped the call: the user's decision, not the tool's failure. */
export const USER_STOPPED =
  /doesn't want to proceed|rejected by (the )?user|user (rejected|denied|declined)|\bcancell?ed\b|interrupted by (the )?user/i;

/**
 * Failed calls right before a control signal of one of `kinds` (a control between the call and the next
 * call), with the signal's kind (the last such signal). See {@link controlAfter} for one call.
 */
export function failedBeforeControl(view: TrajectoryView, kinds: RegExp): Map<CallView, string> {
  const out = new Map<CallView, string>();
  for (const c of view.calls) {
    const kind = controlAfter(c, kinds);
    if (kind) out.set(c, kind);
  }
  return out;
}

/**
 * For a failed call: the kind of the last control signal of one of `kinds` between it and the next call
 * ({@link CallView.controls}), or undefined — one call of {@link failedBeforeControl}, as the stream reads it.
 */
export function controlAfter(c: CallView, kinds: RegExp): string | undefined {
  if (!c.failed) return undefined;
  for (let i = c.controls.length - 1; i >= 0; i--) {
    const kind = c.controls[i] as string;
    if (kinds.test(kind)) return kind;
  }
  return undefined;
}

/**
 * Calls the user stopped: a rejection or interrupt control between the call and the next one, or a result
 * saying so. See {@link stoppedByUser} for one call.
 */
export function userStopped(view: TrajectoryView): Set<CallView> {
  const out = new Set<CallView>();
  for (const c of view.calls) if (stoppedByUser(c)) out.add(c);
  return out;
}

/** The last call asked about with {@link stoppedByUser}, and the answer: detectors reading a stream ask in turn. */
let lastStopped: { c: CallView; result: unknown; controls: number; stopped: boolean } | undefined;

/**
 * The user stopped this call: it failed with a rejection or interrupt control right after it, or with a
 * result saying so ({@link USER_STOPPED}; the output is scanned once for all the detectors asking).
 */
export function stoppedByUser(c: CallView): boolean {
  if (!c.failed) return false;
  const last = lastStopped;
  if (last?.c === c && last.result === c.result && last.controls === c.controls.length) return last.stopped;
  const stopped =
    controlAfter(c, /^(rejection|interrupt)$/) !== undefined || USER_STOPPED.test(c.result?.output ?? "");
  lastStopped = { c, result: c.result, controls: c.controls.length, stopped };
  return stopped;
}

/**
 * The failure signature of a call that failed at the tool level, or undefined: a non-shell tool's error
 * result, or a shell call where no program exit code came back (the harness refused or could not parse
 * the command, or the command hung or was killed: exit code missing or negative, or timed out). Keys sent
 * to a running command (`C-c`) are not uses of the tool. The signature is the tool name and, for a hang,
 * "hung"; else the first line of the error with numbers, quoted text and paths masked, so the same failure
 * on different inputs matches.
 */
export function toolFailure(c: CallView, stopped: ReadonlySet<CallView> | boolean): string | undefined {
  if ((!c.failed && !c.command?.timedOut) || isStopped(c, stopped)) return undefined;
  if (isKeyInput(c)) return undefined;
  const hung = c.command && (c.command.exitCode === null || c.command.exitCode < 0 || c.command.timedOut);
  if (hung) return `${c.call.name.toLowerCase()}: hung or refused (no exit code)`;
  // A shell call with an exit code: the program failed, not the tool.
  if (c.kind === "shell" && c.command) return undefined;
  return `${c.call.name.toLowerCase()}: ${maskedError(c.result?.output ?? "")}`;
}

/**
 * The failure signature of a shell call whose program failed (an exit code other than 0), or undefined:
 * the command line with its quoting dropped (`sed -n '1p' 'a b'` and `sed -n 1p a b` are one attempt) and
 * its first error line masked as in {@link toolFailure}.
 */
export function programFailure(c: CallView, stopped: ReadonlySet<CallView> | boolean): string | undefined {
  if (c.kind !== "shell" || !c.command || !c.failed || isStopped(c, stopped) || isKeyInput(c))
    return undefined;
  const code = c.command.exitCode;
  if (code === null || code <= 0) return undefined;
  const command = unquoted(c.commandText).replace(/\s+/g, " ").trim();
  const error = c.command.stderr?.trim() ? c.command.stderr : (c.result?.output ?? "");
  return `\`${command.slice(0, 200)}\` → ${maskedError(error)}`;
}

/** `stopped` as a set of the calls the user stopped, or the answer for `c` ({@link stoppedByUser}). */
function isStopped(c: CallView, stopped: ReadonlySet<CallView> | boolean): boolean {
  return typeof stopped === "boolean" ? stopped : stopped.has(c);
}

/**
 * The first line of an error with numbers, quoted text and paths masked (tags and exit-code lines skipped).
 * Reads the output line by line up to that line, not the whole output.
 */
function maskedError(output: string): string {
  let first = "";
  for (let i = 0; i <= output.length; ) {
    const end = output.indexOf("\n", i);
    const j = end < 0 ? output.length : end;
    // Harness wrappers (`<returncode>1</returncode>`, `<output>`) and exit-code lines are no error text.
    const l = output
      .slice(i, j)
      .replace(/<\/?\w+>/g, " ")
      .trim();
    if (l && !/^(\d+|exit code:?\s*-?\d+)$/i.test(l)) {
      first = l;
      break;
    }
    i = j + 1;
  }
  return first
    .replace(/(["'`]).*?\1/g, "…")
    .replace(/(?:[\w.-]*[\\/])+[\w.-]+/g, "<path>")
    .replace(/\d+/g, "#")
    .slice(0, 80);
}

/**
 * Keys sent to a running command (`C-c`, OpenHands `is_input`, Codex `write_stdin` — with empty `chars`, a
 * poll of the running command): recovery or waiting, not a use of the tool.
 */
export function isKeyInput(c: CallView): boolean {
  const input = (c.call.input ?? {}) as Record<string, unknown>;
  return (
    input.is_input === true ||
    /^(write_stdin|send_keys|send_input)$/i.test(c.call.name) ||
    /^C-[a-z]$/i.test(c.commandText.trim())
  );
}
