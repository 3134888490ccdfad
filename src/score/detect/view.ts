import type {
  CommandEvent,
  ControlEvent,
  FileChangeEvent,
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  TrajectoryEvent,
} from "../../core/trajectory.ts";
import { type CommandKind, classifyCommand } from "./commands.ts";
import { classifyTool, inputPaths, type ToolKind } from "./tools.ts";

/**
 * An index over one standard trajectory that every detector shares (ProcCtrlBench §3.2: "features such
 * as counts, similarity, dependency structure and context transitions"): tool calls with their results,
 * commands and file changes joined, each call classified, and a position for every event. Built once in
 * O(n) over the events; detectors then stay linear.
 */

/** One tool call with everything joined to it. */
export interface CallView {
  /** Position among the trajectory's tool calls (0-based). */
  ordinal: number;
  /** Position of the call event among all events (0-based). */
  at: number;
  /**
   * The agent step that issued the call (0-based): one model response's parallel calls share a step —
   * known by the response id the log names (`response`), else by calls following each other with no
   * other event in between.
   */
  step: number;
  call: ToolCallEvent;
  /** The result, when the log has one. */
  result?: ToolResultEvent;
  /** Position of the result among all events (0-based); `at` when absent. */
  resultAt: number;
  /** The shell command the call ran, when it is a shell call. */
  command?: CommandEvent;
  /** File changes the call produced. */
  changes: FileChangeEvent[];
  /** Kinds of the control signals between this call and the next one (a rejection, an interrupt), in order. */
  controls: string[];
  /** What the tool does, from its name and input. */
  kind: ToolKind;
  /** For shell calls: what the command does. */
  commandKind?: CommandKind;
  /** Command line for shell calls (`""` otherwise). */
  commandText: string;
  /** Paths named in the input (as given). */
  paths: string[];
  /** Canonical form of name + input: equal signatures mean the same call. */
  signature: string;
  /** The call failed: result marked as an error, or the command exited non-zero. */
  failed: boolean;
  /** The call changes state: a write or edit, a tool of unknown kind, a mutating or unknown command, or a recorded file change. */
  mutates: boolean;
}

/** The shared index; see {@link buildView}. */
export interface TrajectoryView {
  events: readonly TrajectoryEvent[];
  /** Event id → position. */
  position: ReadonlyMap<string, number>;
  calls: CallView[];
  /** Call id (the `callId` field) → the latest call view with that id (logs can reuse ids). */
  byCallId: ReadonlyMap<string, CallView>;
  messages: { at: number; event: MessageEvent }[];
  controls: { at: number; event: ControlEvent }[];
}

/** Rough token count of a text: 4 characters per token (the usual English/code average). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Rough token count of a tool result's whole output (its length before import capping, when capped). */
export function outputTokens(result: ToolResultEvent): number {
  return Math.ceil((result.outputChars ?? result.output.length) / 4);
}

/** Canonical JSON: keys sorted, strings with runs of whitespace collapsed. */
export function canonical(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.replace(/\s+/g, " ").trim());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Build the index of one trajectory (ProcCtrlBench §3.2), O(n) in events.
 * Commands and file changes are joined to the call they descend from through `parent` (importers link a
 * command to its call and a file change to its result); a file change with no call stays unjoined.
 */
export function buildView(events: readonly TrajectoryEvent[]): TrajectoryView {
  const position = new Map<string, number>();
  const calls: CallView[] = [];
  const byCallId = new Map<string, CallView>();
  const byEventId = new Map<string, CallView>();
  const unanswered = new Map<string, CallView[]>(); // call id → its calls without a result, oldest first
  const messages: TrajectoryView["messages"] = [];
  const controls: TrajectoryView["controls"] = [];
  let step = -1;
  const owner = (ids: string[] | undefined): CallView | undefined => {
    for (const id of ids ?? []) {
      const direct = byEventId.get(id);
      if (direct) return direct;
    }
    return undefined;
  };
  events.forEach((e, at) => {
    position.set(e.id, at);
    switch (e.type) {
      case "tool_call": {
        const kind = classifyTool(e.name, e.input);
        // A new step unless issued with the previous call: the same model response when the log names it,
        // else right after it with nothing in between.
        const prev = calls.at(-1);
        if (
          prev && e.response && prev.call.response
            ? e.response !== prev.call.response
            : events[at - 1]?.type !== "tool_call"
        )
          step++;
        const view: CallView = {
          ordinal: calls.length,
          at,
          step,
          call: e,
          resultAt: at,
          changes: [],
          controls: [],
          kind,
          commandText: kind === "shell" ? shellText(e.input) : "",
          paths: inputPaths(e.name, e.input),
          signature: `${e.name.toLowerCase()} ${canonical(e.input)}`,
          failed: false,
          // A tool of unknown kind may change anything: treated as changing state (no false duplicates).
          mutates: kind === "write" || kind === "edit" || kind === "other",
        };
        if (view.commandText) {
          view.commandKind = classifyCommand(view.commandText);
          view.mutates = view.commandKind === "mutate" || view.commandKind === "other";
        }
        calls.push(view);
        if (e.callId) {
          // A log can reuse a call id: results pair with the oldest call of that id still unanswered.
          byCallId.set(e.callId, view);
          const waiting = unanswered.get(e.callId);
          if (waiting) waiting.push(view);
          else unanswered.set(e.callId, [view]);
        }
        byEventId.set(e.id, view);
        break;
      }
      case "tool_result": {
        const view = unanswered.get(e.callId)?.shift() ?? owner(e.parent) ?? byCallId.get(e.callId);
        if (view && !view.result) {
          view.result = e;
          view.resultAt = at;
          view.failed ||= e.isError;
          byEventId.set(e.id, view);
        }
        break;
      }
      case "command": {
        const view = owner(e.parent);
        if (view) {
          view.command = e;
          if (!view.commandText) {
            view.commandText = e.command;
            view.commandKind = classifyCommand(e.command);
          }
          view.failed ||= e.exitCode !== null && e.exitCode !== 0;
          byEventId.set(e.id, view);
        }
        break;
      }
      case "file_change": {
        const view = owner(e.parent);
        if (view) {
          view.changes.push(e);
          view.mutates = true;
        }
        break;
      }
      case "message":
        messages.push({ at, event: e });
        break;
      case "control":
        controls.push({ at, event: e });
        calls.at(-1)?.controls.push(e.kind);
        break;
    }
  });
  return { events, position, calls, byCallId, messages, controls };
}

/** The command line of a shell tool's input (`command`, `cmd`, or an argv array). */
export function shellText(input: unknown): string {
  if (!input || typeof input !== "object") return typeof input === "string" ? input : "";
  const o = input as Record<string, unknown>;
  const c = o.command ?? o.cmd ?? o.commandLine ?? o.script ?? o.keystrokes;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) {
    const argv = c.map(String);
    // `bash -lc "<script>"` as harnesses run it: the script is the command.
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? ""))
      return argv[2] ?? "";
    return argv.join(" ");
  }
  return "";
}
