import type {
  CommandEvent,
  ControlEvent,
  FileChangeEvent,
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  TrajectoryEvent,
} from "../../core/trajectory.ts";
import type { CommandKind } from "./commands.ts";
import { ViewStream } from "./stream.ts";
import type { ToolKind } from "./tools.ts";

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
  const messages: TrajectoryView["messages"] = [];
  const controls: TrajectoryView["controls"] = [];
  // The stream joins each call to its result, command and changes (see `stream.ts`); collect what it hands on.
  const stream = new ViewStream([
    {
      push(at, e, c) {
        position.set(e.id, at);
        if (e.type === "tool_call" && c) {
          calls.push(c);
          if (e.callId) byCallId.set(e.callId, c);
        } else if (e.type === "message") messages.push({ at, event: e });
        else if (e.type === "control") controls.push({ at, event: e });
      },
    },
  ]);
  for (const e of events) stream.push(e);
  stream.end();
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
