import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { controlAfter, isKeyInput, stoppedByUser, toolFailure } from "./failures.ts";
import { makeFinding, streaming } from "./finding.ts";
import { FileMap, shellFiles, shellSegments } from "./paths.ts";
import { RecentMap } from "./stream.ts";
import type { CallView } from "./view.ts";

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
 * Complexity: O(n) — one pass over the stream; state: per tool, its call count and the ids of its failed
 * calls (excerpts for the first few), its workarounds and its recurring failure signatures (a
 * {@link RecentMap} per tool); the failed edits/writes and reads awaiting a workaround (file maps indexed
 * by path suffix), and the last failed search and listing within {@link WORKAROUND_WINDOW} calls.
 */
export const weakTool = streaming("weak-tool", () => {
  const recurring = new Map<string, RecentMap<string, Cited[]>>(); // tool → failure signature → calls
  const tools = new Map<string, Tool>();
  const tool = (name: string) => {
    const t = tools.get(name) ?? {
      calls: 0,
      own: [],
      other: [],
      otherCaused: false,
      workarounds: [],
      rejectedWorkarounds: [],
    };
    tools.set(name, t);
    return t;
  };
  const pendingWrite = new FileMap<Pending>();
  const pendingRead = new FileMap<Pending>();
  let pendingSearch: Pending | undefined;
  let pendingList: Pending | undefined;
  return {
    push(_at, e, c) {
      if (e.type !== "tool_call" || !c) return;
      const t = tool(c.call.name);
      t.calls++;
      const sig = toolFailure(c, stoppedByUser(c));
      if (sig) {
        const bySig = recurring.get(c.call.name) ?? new RecentMap<string, Cited[]>();
        recurring.set(c.call.name, bySig);
        const same = bySig.get(sig);
        if (same) same.push(cited(c, same.length < 4));
        else bySig.set(sig, [cited(c, true)]);
      }
      // No failed call waiting: no workaround to look for (the command's text is not read).
      if (c.kind === "shell" && (pendingWrite.size || pendingRead.size || pendingSearch || pendingList)) {
        for (const w of workarounds(c, pendingWrite, pendingRead, pendingSearch, pendingList)) {
          const failed = tool(w.name);
          const list = w.caused ? failed.rejectedWorkarounds : failed.workarounds;
          const first = list.length < 2; // the first two are among the first events an instance shows
          list.push({
            failed: { id: w.id, ...(first ? { excerpt: w.excerpt } : {}) },
            shell: cited(c, first),
            command: short(c.commandText),
          });
          if (w === pendingSearch) pendingSearch = undefined;
          if (w === pendingList) pendingList = undefined;
        }
      }
      if (pendingSearch && c.ordinal - pendingSearch.ordinal > WORKAROUND_WINDOW) pendingSearch = undefined;
      if (pendingList && c.ordinal - pendingList.ordinal > WORKAROUND_WINDOW) pendingList = undefined;
      if (c.kind === "shell" && (!c.failed || isKeyInput(c))) return;
      if (!c.failed) {
        // The tool did the job after all: nothing abandoned.
        for (const p of c.paths) (c.kind === "read" ? pendingRead : pendingWrite).delete(p);
        if (c.kind === "search") pendingSearch = undefined;
        if (c.kind === "list") pendingList = undefined;
        return;
      }
      const cause = environmentCause(c);
      const own =
        !cause && (c.kind !== "shell" || !c.command || (c.command.exitCode === null && !c.command.timedOut));
      // Excerpts of the failures an instance may show first: the first 4 own ones, the first 2 others.
      if (own) t.own.push({ ...cited(c, t.own.length < 4), ordinal: c.ordinal });
      else {
        t.other.push({ ...cited(c, t.other.length < 2), ordinal: c.ordinal });
        if (cause) t.otherCaused = true;
      }
      if (!WAITS_FOR_WORKAROUND.has(c.kind)) return;
      const p: Pending = {
        id: c.call.id,
        name: c.call.name,
        ordinal: c.ordinal,
        caused: !!cause,
        excerpt: excerptOf(c.call),
      };
      if (c.kind === "edit" || c.kind === "write") for (const path of c.paths) pendingWrite.set(path, p);
      if (c.kind === "read") for (const path of c.paths) pendingRead.set(path, p);
      if (c.kind === "search") pendingSearch = p;
      if (c.kind === "list") pendingList = p;
    },
    finish() {
      const instances: DefectInstance[] = [];
      const exempted: ExemptedInstance[] = [];
      for (const [name, t] of tools) {
        const failing = t.own.length >= MIN_FAILURES && t.own.length / t.calls >= FAILURE_RATE;
        const abandoned = t.workarounds;
        const again = [...(recurring.get(name)?.entries() ?? [])].find(
          ([, cs]) => cs.length >= MIN_RECURRING,
        );
        if (!failing && !abandoned.length && again) {
          instances.push({
            events: again[1].map((c) => c.id),
            note: `${name}: the same failure (${again[0]}) ${again[1].length} times of ${t.calls} calls — the tool cannot take this kind of input reliably`,
            weight: 1,
            excerpts: excerpts(again[1]),
          });
          continue;
        }
        if (failing || abandoned.length > 0) {
          const why = [
            failing ? `failed on its own ${t.own.length} of ${t.calls} times` : "",
            ...abandoned.map((w) => `failed at ${w.failed.id}, replaced by \`${w.command}\` (${w.shell.id})`),
          ].filter(Boolean);
          const shown = [...(failing ? t.own : []), ...abandoned.flatMap((w) => [w.failed, w.shell])];
          instances.push({
            events: shown.map((c) => c.id),
            note: `${name}: ${why.join("; ")}`,
            weight: 1,
            excerpts: excerpts(shown),
          });
          continue;
        }
        const all = [...t.own, ...t.other].sort((a, b) => a.ordinal - b.ordinal);
        if (all.length >= MIN_FAILURES && all.length / t.calls >= FAILURE_RATE)
          exempted.push({
            events: all.map((c) => c.id),
            note: `${name} failed ${all.length} of ${t.calls} times, ${t.own.length} on its own`,
            weight: 1,
            excerpts: excerpts(all),
            reason: t.otherCaused
              ? "failures caused by the environment (user rejection, interrupt, timeout) or by the agent's own invalid input, not the tool"
              : "shell failures are the programs' exit codes, not the tool's",
          });
        else if (t.rejectedWorkarounds.length) {
          const shown = t.rejectedWorkarounds.flatMap((w) => [w.failed, w.shell]);
          exempted.push({
            events: shown.map((c) => c.id),
            note: `${name} was rejected at ${t.rejectedWorkarounds[0]?.failed.id} and the job done through the shell`,
            weight: 1,
            excerpts: excerpts(shown),
            reason: "the user rejected the call: the shell sidesteps the user, not a weak tool",
          });
        }
      }
      return makeFinding("weak-tool", instances, exempted);
    },
  };
});

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

/** A call an instance may cite: its id, and its excerpt when it may be among the first events shown. */
interface Cited {
  id: string;
  excerpt?: Excerpt;
}

function cited(c: CallView, withExcerpt: boolean): Cited {
  return withExcerpt ? { id: c.call.id, excerpt: excerptOf(c.call) } : { id: c.call.id };
}

/** The excerpts kept among the first 4 of `shown` (the scorecard shows 4 of an instance, 2 of an exempted one). */
function excerpts(shown: readonly Cited[]): Excerpt[] {
  return shown.slice(0, 4).flatMap((c) => (c.excerpt ? [c.excerpt] : []));
}

interface Tool {
  calls: number;
  /** Failures of the tool itself. */
  own: (Cited & { ordinal: number })[];
  /** Failures caused by the environment or, for shell tools, by the program run. */
  other: (Cited & { ordinal: number })[];
  /** Some failure in `other` was caused by the environment. */
  otherCaused: boolean;
  /** (failed call, shell call doing its job). */
  workarounds: Workaround[];
  rejectedWorkarounds: Workaround[];
}

interface Workaround {
  failed: Cited;
  shell: Cited;
  /** The shell command, shortened for the note. */
  command: string;
}

/** A failed edit, write, read, search or listing whose job the shell may do next. */
interface Pending {
  id: string;
  name: string;
  ordinal: number;
  /** The environment caused the failure (see {@link environmentCause}). */
  caused: boolean;
  excerpt: Excerpt;
}

/**
 * What in the environment caused a failed call, if anything: a rejection, interrupt or timeout control
 * between the call and the next call, a timed-out command, a result saying the user rejected or cancelled
 * it, or a guard refusing the agent's own invalid input (an edit that would break the file's syntax).
 */
function environmentCause(c: CallView): string | undefined {
  if (!c.failed) return undefined;
  const control = controlAfter(c, /^(rejection|interrupt|timeout)$/);
  if (control) return control;
  const output = c.result?.output ?? "";
  if (c.command?.timedOut) return "timeout";
  // No rejection or interrupt control here: stopped by the user is the result saying so (USER_STOPPED).
  if (stoppedByUser(c) || /\btimed out\b/i.test(output)) return "rejection";
  if (GUARD.test(output)) return "guard";
  return undefined;
}

/** Kinds of failed calls whose job a shell command may do instead. */
const WAITS_FOR_WORKAROUND = new Set(["edit", "write", "read", "search", "list"]);

/** A guard refusing the agent's own invalid input (SWE-agent's lint check on edits): the tool works. */
const GUARD = /proposed edit has introduced new syntax error|\bE999 SyntaxError\b/i;

const SHELL_SEARCH = /^(grep|egrep|rg|ag|ack|find|fd|select-string|findstr|git grep)$/i;
const SHELL_LIST = /^(ls|ll|dir|tree|get-childitem|gci)$/i;
const SCRIPTED_EDIT = /\b(python[\d.]*\s+-c|node\s+-e|perl\s+-|ruby\s+-e)/;

/** Failed tool calls whose job this shell call does instead. */
function workarounds(
  s: CallView,
  pendingWrite: FileMap<Pending>,
  pendingRead: FileMap<Pending>,
  pendingSearch: Pending | undefined,
  pendingList: Pending | undefined,
): Pending[] {
  const out = new Set<Pending>();
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
