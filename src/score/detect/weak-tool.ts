import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { failedBeforeControl, isKeyInput, toolFailure, USER_STOPPED, userStopped } from "./failures.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { FileMap, shellFiles, shellSegments } from "./paths.ts";
import type { CallView, TrajectoryView } from "./view.ts";

/**
 * Weak Tool (ProcCtrlBench App. A.4): a technically available tool that is hard to discover and use
 * reliably — ecosystem legibility rather than intrinsic quality. A tool (by name) is weak when either
 *
 * - it failed on its own at least {@link MIN_FAILURES} times and in at least {@link FAILURE_RATE} of its
 *   calls; or
 * - the same tool-level failure came back at least {@link MIN_RECURRING} times (whatever the failure rate:
 *   guard refusals and hangs count here, since a guard refusing the same kind of input three times says
 *   the tool is hard to use); or
 * - after it failed on its own, the agent did the same job through the shell instead, before the tool
 *   next succeeded at it: an edit/write on a file followed by a shell write to that file (`sed -i`,
 *   `cat >`, `tee`, redirection, or a `python -c` / `perl` / `node -e` one-liner naming it); a read
 *   followed by `cat`/`head`/`sed -n` of the file; a search followed by `grep`/`rg`/`find` within the next
 *   {@link WORKAROUND_WINDOW} calls; a listing followed by `ls`/`dir`/`Get-ChildItem`.
 *
 * "On its own" leaves out failures the environment caused: a rejection, interrupt or timeout control
 * right after the call, a result saying the user rejected or cancelled it (or a sibling call's failure
 * cancelled it), a timed-out command, or a guard refusing the agent's own invalid input (SWE-agent's lint
 * check rejecting an edit that would break the file's syntax: the tool works, the input was wrong); and,
 * for shell tools, the program's exit code (a failing test is not a weak shell) — shell failures count
 * only when no program ran (no exit code, e.g. the harness refused to parse the command).
 *
 * Raw score: tools failing at least twice and at least half the time, or abandoned for a shell
 * workaround after failing — one point per tool. Evidence: its failed calls, then each workaround call.
 *
 * Exemptions (kept in `exempted`): a tool that meets the failure rule only by counting environment or
 * program failures; a workaround after a call the user rejected (the shell sidesteps the user, not a
 * weak tool).
 *
 * Complexity: O(n) — one pass over controls and calls, file maps indexed by path suffix.
 */
export const weakTool: Detector = {
  defect: "weak-tool",
  detect(view) {
    const cause = environmentCauses(view);
    const stopped = userStopped(view);
    const recurring = new Map<string, Map<string, CallView[]>>(); // tool → failure signature → calls
    const tools = new Map<string, Tool>();
    const tool = (name: string) => {
      const t = tools.get(name) ?? { calls: 0, own: [], other: [], workarounds: [], rejectedWorkarounds: [] };
      tools.set(name, t);
      return t;
    };
    const pendingWrite = new FileMap<CallView>();
    const pendingRead = new FileMap<CallView>();
    let pendingSearch: CallView | undefined;
    let pendingList: CallView | undefined;
    for (const c of view.calls) {
      const t = tool(c.call.name);
      t.calls++;
      const sig = toolFailure(c, stopped);
      if (sig) {
        const bySig = recurring.get(c.call.name) ?? new Map<string, CallView[]>();
        recurring.set(c.call.name, bySig);
        const same = bySig.get(sig);
        if (same) same.push(c);
        else bySig.set(sig, [c]);
      }
      if (c.kind === "shell") {
        for (const w of workarounds(c, pendingWrite, pendingRead, pendingSearch, pendingList)) {
          const failed = tool(w.call.name);
          (cause.get(w) ? failed.rejectedWorkarounds : failed.workarounds).push([w, c]);
          if (w === pendingSearch) pendingSearch = undefined;
          if (w === pendingList) pendingList = undefined;
        }
      }
      if (pendingSearch && c.ordinal - pendingSearch.ordinal > WORKAROUND_WINDOW) pendingSearch = undefined;
      if (pendingList && c.ordinal - pendingList.ordinal > WORKAROUND_WINDOW) pendingList = undefined;
      if (c.kind === "shell" && (!c.failed || isKeyInput(c))) continue;
      if (!c.failed) {
        // The tool did the job after all: nothing abandoned.
        for (const p of c.paths) (c.kind === "read" ? pendingRead : pendingWrite).delete(p);
        if (c.kind === "search") pendingSearch = undefined;
        if (c.kind === "list") pendingList = undefined;
        continue;
      }
      const own =
        !cause.get(c) &&
        (c.kind !== "shell" || !c.command || (c.command.exitCode === null && !c.command.timedOut));
      (own ? t.own : t.other).push(c);
      if (c.kind === "edit" || c.kind === "write") for (const p of c.paths) pendingWrite.set(p, c);
      if (c.kind === "read") for (const p of c.paths) pendingRead.set(p, c);
      if (c.kind === "search") pendingSearch = c;
      if (c.kind === "list") pendingList = c;
    }

    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    for (const [name, t] of tools) {
      const failing = t.own.length >= MIN_FAILURES && t.own.length / t.calls >= FAILURE_RATE;
      const abandoned = t.workarounds;
      const again = [...(recurring.get(name)?.entries() ?? [])].find(([, cs]) => cs.length >= MIN_RECURRING);
      if (!failing && !abandoned.length && again) {
        instances.push({
          events: again[1].map((c) => c.call.id),
          note: `${name}: the same failure (${again[0]}) ${again[1].length} times of ${t.calls} calls — the tool cannot take this kind of input reliably`,
          weight: 1,
        });
        continue;
      }
      if (failing || abandoned.length > 0) {
        const why = [
          failing ? `failed on its own ${t.own.length} of ${t.calls} times` : "",
          ...abandoned.map(
            ([w, s]) => `failed at ${w.call.id}, replaced by \`${short(s.commandText)}\` (${s.call.id})`,
          ),
        ].filter(Boolean);
        instances.push({
          events: [
            ...(failing ? t.own : []).map((c) => c.call.id),
            ...abandoned.flatMap(([w, s]) => [w.call.id, s.call.id]),
          ],
          note: `${name}: ${why.join("; ")}`,
          weight: 1,
        });
        continue;
      }
      const all = [...t.own, ...t.other].sort((a, b) => a.ordinal - b.ordinal);
      if (all.length >= MIN_FAILURES && all.length / t.calls >= FAILURE_RATE)
        exempted.push({
          events: all.map((c) => c.call.id),
          note: `${name} failed ${all.length} of ${t.calls} times, ${t.own.length} on its own`,
          weight: 1,
          reason: t.other.some((c) => cause.get(c))
            ? "failures caused by the environment (user rejection, interrupt, timeout) or by the agent's own invalid input, not the tool"
            : "shell failures are the programs' exit codes, not the tool's",
        });
      else if (t.rejectedWorkarounds.length)
        exempted.push({
          events: t.rejectedWorkarounds.flatMap(([w, s]) => [w.call.id, s.call.id]),
          note: `${name} was rejected at ${t.rejectedWorkarounds[0]?.[0].call.id} and the job done through the shell`,
          weight: 1,
          reason: "the user rejected the call: the shell sidesteps the user, not a weak tool",
        });
    }
    return makeFinding("weak-tool", instances, exempted);
  },
};

/**
 * The same tool-level failure (see `failures.ts`: guard refusals and hangs included, user rejections and
 * program exit codes not) this many times makes a tool weak whatever its failure rate: it cannot take that
 * kind of input reliably (a terminal that hangs on every heredoc, a line-range edit the lint guard refuses
 * three times).
 */
export const MIN_RECURRING = 3;

/** Own failures from which a tool can count as weak. */
export const MIN_FAILURES = 2;

/** Share of a tool's calls failing on its own from which it counts as weak. */
export const FAILURE_RATE = 0.5;

/** Calls after a failed search or listing within which a shell search or listing counts as its workaround. */
export const WORKAROUND_WINDOW = 5;

interface Tool {
  calls: number;
  /** Failures of the tool itself. */
  own: CallView[];
  /** Failures caused by the environment or, for shell tools, by the program run. */
  other: CallView[];
  /** (failed call, shell call doing its job). */
  workarounds: [CallView, CallView][];
  rejectedWorkarounds: [CallView, CallView][];
}

/**
 * Failed calls the environment caused, with the cause: a rejection, interrupt or timeout control between
 * the call and the next call, a timed-out command, a result saying the user rejected or cancelled it, or a
 * guard refusing the agent's own invalid input (an edit that would break the file's syntax).
 */
function environmentCauses(view: TrajectoryView): Map<CallView, string> {
  const out = failedBeforeControl(view, /^(rejection|interrupt|timeout)$/);
  for (const c of view.calls) {
    if (!c.failed || out.has(c)) continue;
    const output = c.result?.output ?? "";
    if (c.command?.timedOut) out.set(c, "timeout");
    else if (USER_STOPPED.test(output) || /\btimed out\b/i.test(output)) out.set(c, "rejection");
    else if (GUARD.test(c.result?.output ?? "")) out.set(c, "guard");
  }
  return out;
}

/** A guard refusing the agent's own invalid input (SWE-agent's lint check on edits): the tool works. */
const GUARD = /proposed edit has introduced new syntax error|\bE999 SyntaxError\b/i;

const SHELL_SEARCH = /^(grep|egrep|rg|ag|ack|find|fd|select-string|findstr|git grep)$/i;
const SHELL_LIST = /^(ls|ll|dir|tree|get-childitem|gci)$/i;
const SCRIPTED_EDIT = /\b(python[\d.]*\s+-c|node\s+-e|perl\s+-|ruby\s+-e)/;

/** Failed tool calls whose job this shell call does instead. */
function workarounds(
  s: CallView,
  pendingWrite: FileMap<CallView>,
  pendingRead: FileMap<CallView>,
  pendingSearch: CallView | undefined,
  pendingList: CallView | undefined,
): CallView[] {
  const out = new Set<CallView>();
  const files = shellFiles(s.commandText);
  const segments = shellSegments(s.commandText);
  const written = [...files.writes];
  if (SCRIPTED_EDIT.test(s.commandText))
    for (const words of segments) written.push(...words.filter((w) => /[./\\]/.test(w)));
  for (const p of written) {
    const w = pendingWrite.get(p);
    if (w) {
      out.add(w);
      pendingWrite.delete(p);
    }
  }
  for (const p of files.reads) {
    const r = pendingRead.get(p);
    if (r) {
      out.add(r);
      pendingRead.delete(p);
    }
  }
  const programs = segments.map((w) => (w[0] === "git" ? `git ${w[1] ?? ""}` : (w[0] ?? "")));
  if (pendingSearch && programs.some((p) => SHELL_SEARCH.test(p))) out.add(pendingSearch);
  if (pendingList && programs.some((p) => SHELL_LIST.test(p))) out.add(pendingList);
  return [...out];
}
