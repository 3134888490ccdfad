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
 * call), with the signal's kind.
 */
export function failedBeforeControl(view: TrajectoryView, kinds: RegExp): Map<CallView, string> {
  const out = new Map<CallView, string>();
  let i = 0;
  for (const { at, event } of view.controls) {
    while (i + 1 < view.calls.length && (view.calls[i + 1]?.at ?? Infinity) < at) i++;
    const c = view.calls[i];
    if (c && c.at < at && c.failed && kinds.test(event.kind)) out.set(c, event.kind);
  }
  return out;
}

/**
 * Calls the user stopped: a rejection or interrupt control between the call and the next one, or a result
 * saying so.
 */
export function userStopped(view: TrajectoryView): Set<CallView> {
  const out = new Set(failedBeforeControl(view, /^(rejection|interrupt)$/).keys());
  for (const c of view.calls) if (c.failed && USER_STOPPED.test(c.result?.output ?? "")) out.add(c);
  return out;
}

/**
 * The failure signature of a call that failed at the tool level, or undefined: a non-shell tool's error
 * result, or a shell call where no program exit code came back (the harness refused or could not parse
 * the command, or the command hung or was killed: exit code missing or negative, or timed out). Keys sent
 * to a running command (`C-c`) are not uses of the tool. The signature is the tool name and, for a hang,
 * "hung"; else the first line of the error with numbers, quoted text and paths masked, so the same failure
 * on different inputs matches.
 */
export function toolFailure(c: CallView, stopped: ReadonlySet<CallView>): string | undefined {
  if ((!c.failed && !c.command?.timedOut) || stopped.has(c)) return undefined;
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
export function programFailure(c: CallView, stopped: ReadonlySet<CallView>): string | undefined {
  if (c.kind !== "shell" || !c.command || !c.failed || stopped.has(c) || isKeyInput(c)) return undefined;
  const code = c.command.exitCode;
  if (code === null || code <= 0) return undefined;
  const command = unquoted(c.commandText).replace(/\s+/g, " ").trim();
  const error = c.command.stderr?.trim() ? c.command.stderr : (c.result?.output ?? "");
  return `\`${command.slice(0, 200)}\` → ${maskedError(error)}`;
}

/** The first line of an error with numbers, quoted text and paths masked (tags and exit-code lines skipped). */
function maskedError(output: string): string {
  const first =
    output
      .trim()
      .split("\n")
      // Harness wrappers (`<returncode>1</returncode>`, `<output>`) and exit-code lines are no error text.
      .map((l) => l.replace(/<\/?\w+>/g, " ").trim())
      .find((l) => l && !/^(\d+|exit code:?\s*-?\d+)$/i.test(l)) ?? "";
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
