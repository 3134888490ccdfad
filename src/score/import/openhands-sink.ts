import { type Json, str } from "../../core/json-view.ts";
import type { ControlEvent } from "../../core/trajectory.ts";
import { contentText } from "./content-text.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";

/**
 * What both OpenHands event generations (trajectory-formats.md §1.6) share once read: tool calls indexed
 * by the native event that made them and by tool-call id, the standard events of a tool outcome (command,
 * result, file change), thoughts, control signals and agent states. Used by `openhands.ts` (V0) and
 * `openhands-sdk.ts` (V1).
 */

/** Fields every standard event of one native element shares. */
export type Base = { ts?: number };

/** A shell command's outcome; exit code -1 means OpenHands stopped waiting while it still ran. */
export interface Shell {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** A tool call already emitted. */
export interface Call {
  /** Standard event id of the `tool_call`. */
  event: string;
  callId: string;
  name: string;
  /** Terminal input or reset rather than a command line (no `command` event). */
  notCommand: boolean;
}

const EDITS = new Set(["create", "str_replace", "insert", "undo_edit", "write", "edit"]);

/**
 * Agent states (V0 `agent_state_changed`, V1 execution status) that are control signals: paused or stopped
 * → interrupt; awaiting or given confirmation → approval (the detail names the state, so a request and a
 * grant differ); rejected → rejection; error, stuck, rate-limited → error; awaiting user input or finished →
 * handoff (the agent gives control back). Running, loading and init are not signals.
 */
export const STATES: Record<string, ControlEvent["kind"]> = {
  paused: "interrupt",
  stopped: "interrupt",
  awaiting_user_confirmation: "approval",
  waiting_for_confirmation: "approval",
  user_confirmed: "approval",
  user_rejected: "rejection",
  error: "error",
  stuck: "error",
  rate_limited: "error",
  awaiting_user_input: "handoff",
  finished: "handoff",
};

/** Epoch ms of an OpenHands timestamp; naive ISO times (as OpenHands writes them) are taken as UTC. */
export function tsOf(value: unknown): number | undefined {
  const s = str(value);
  if (!s) return undefined;
  return Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(s) ? s : `${s}Z`) || undefined;
}

export { contentText as textOf };

/** JSON-decoded tool arguments, or the text as given when it is not JSON. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Standard events of one OpenHands log, with the native-event indexes both generations need. */
export class OpenHandsSink extends EventSink {
  readonly models = new Set<string>();
  readonly skipped: ImportedTrajectory["skipped"] = [];
  /** Native event id → the call it made. */
  private readonly calls = new Map<string, Call>();
  private readonly byCallId = new Map<string, Call>();
  /** Native event id → main standard event, for `cause` links that are not tool calls. */
  readonly mainEvent = new Map<string, string>();
  private lastThought = "";

  /** Report an array element that could not be mapped (`n`: its 1-based position). */
  skip(n: number, why: string): void {
    this.skipped.push({ line: n, reason: `array element ${n}: ${why}` });
  }

  /** The call a native event answers: by the action's native id, else by tool-call id. */
  findCall(native: string, callId: string): Call | undefined {
    return this.calls.get(native) ?? this.byCallId.get(callId);
  }

  /** The agent's thought as an assistant message, once per model response (`key`) when one is named. */
  thought(text: string, key: string, base: Base): void {
    if (!text.trim() || (key && key === this.lastThought)) return;
    if (key) this.lastThought = key;
    this.add({ ...base, type: "message", role: "assistant", text });
  }

  /** Emit a tool call made by native event `native`. */
  call(native: string, callId: string, name: string, input: unknown, notCommand: boolean, base: Base): Call {
    const call = {
      event: this.add({ ...base, type: "tool_call", callId, name, input }),
      callId,
      name,
      notCommand,
    };
    this.calls.set(native, call);
    if (!this.byCallId.has(callId)) this.byCallId.set(callId, call);
    this.mainEvent.set(native, call.event);
    return call;
  }

  /**
   * The standard events of one tool outcome: the command (shell calls), the result, and the file change
   * (editor writes that succeeded). Returns the result's id. A result whose call is unknown has no parent.
   */
  outcome(
    call: Call | undefined,
    callId: string,
    o: { output: string; isError: boolean; shell?: Shell; edit?: Json },
    base: Base,
  ): string {
    const parent = call ? [call.event] : undefined;
    if (o.shell && !call?.notCommand) {
      const { command, exitCode, timedOut } = o.shell;
      this.add(
        {
          ...base,
          type: "command",
          command,
          exitCode: timedOut ? null : exitCode,
          durationMs: 0,
          ...(timedOut ? { timedOut } : {}),
          stdout: o.output,
        },
        undefined,
        parent,
      );
    }
    const result = this.add(
      { ...base, type: "tool_result", callId, output: o.output, isError: o.isError },
      undefined,
      parent,
    );
    const edit = o.edit;
    if (edit && !o.isError && str(edit.path) && EDITS.has(str(edit.command)))
      this.add(
        {
          ...base,
          type: "file_change",
          path: str(edit.path),
          kind: edit.prev_exist === false ? "added" : "modified",
        },
        undefined,
        [result],
      );
    return result;
  }

  /** Emit a control signal. */
  control(kind: ControlEvent["kind"], detail: string, base: Base, parent?: string[]): string {
    return this.add({ ...base, type: "control", kind, detail }, undefined, parent);
  }
}
