import path from "node:path";
import { isInsidePath } from "../../core/paths.ts";
import type { StepEventLog } from "./events.ts";

/**
 * Turning a real agent's native events into standard trajectory events (issue 3 §3), shared by the five
 * stream parsers: tool calls paired with their results, shell commands with exit codes, file edits,
 * workspace-relative paths, size-capped outputs.
 */

/** Tool output kept per event (characters). */
const OUTPUT_MAX_CHARS = 16_384;

function cap(text: string): string {
  return text.length > OUTPUT_MAX_CHARS
    ? `${text.slice(0, OUTPUT_MAX_CHARS)}\n[… ${text.length - OUTPUT_MAX_CHARS} characters truncated]`
    : text;
}

/**
 * Builds standard events for tool calls in the order the trajectory needs them: `tool_call`, then (for shell
 * tools) a `command` with the exit code, then `tool_result`, then a `file_change` for a successful file edit.
 * Paths inside the workspace become workspace-relative.
 */
export class TraceBuilder {
  readonly #log: StepEventLog;
  readonly #workspace: string;
  readonly #calls = new Map<string, { id: string; ts?: number }>();

  constructor(log: StepEventLog, workspace: string) {
    this.#log = log;
    this.#workspace = workspace;
  }

  /** A workspace-relative path when `p` is inside the workspace, else `p` as given. */
  relative(p: string): string {
    const abs = path.resolve(this.#workspace, p);
    return isInsidePath(abs, this.#workspace) ? path.relative(this.#workspace, abs) || "." : p;
  }

  /** The agent called a tool. */
  call(callId: string, name: string, input: unknown, ts?: number): void {
    if (this.#calls.has(callId)) return;
    const id = this.#log.add({ type: "tool_call", callId, name, input, ...(ts ? { ts } : {}) });
    this.#calls.set(callId, { id, ts });
  }

  /** An assistant message (text the agent wrote). */
  say(text: string, ts?: number): void {
    if (text.trim()) this.#log.add({ type: "message", role: "assistant", text, ...(ts ? { ts } : {}) });
  }

  /**
   * The result of a tool call.
   * @param extra.command a shell command the tool ran: command line, exit code (null when unknown), duration
   * @param extra.file a file the tool wrote (only recorded when the result is not an error)
   */
  result(
    callId: string,
    output: string,
    isError: boolean,
    extra: {
      ts?: number;
      command?: { line: string; exitCode: number | null; durationMs?: number };
      file?: { path: string; kind: "added" | "modified" | "deleted" };
    } = {},
  ): void {
    const call = this.#calls.get(callId);
    const parent = call ? [call.id] : [];
    const ts = extra.ts ? { ts: extra.ts } : {};
    if (extra.command)
      this.#log.add({
        type: "command",
        command: extra.command.line,
        cwd: ".",
        exitCode: extra.command.exitCode,
        durationMs: Math.max(0, extra.command.durationMs ?? (call?.ts && extra.ts ? extra.ts - call.ts : 0)),
        stdout: cap(output),
        parent,
        ...ts,
      });
    this.#log.add({ type: "tool_result", callId, output: cap(output), isError, parent, ...ts });
    if (extra.file && !isError)
      this.#log.add({
        type: "file_change",
        path: this.relative(extra.file.path),
        kind: extra.file.kind,
        parent,
        ...ts,
      });
  }

  /** A control signal the agent's own guard raised, e.g. a tool call it refused to run (`rejection`). */
  control(kind: "rejection" | "approval" | "error", detail: string, ts?: number, callId?: string): void {
    const call = callId ? this.#calls.get(callId) : undefined;
    this.#log.add({
      type: "control",
      kind,
      detail,
      ...(call ? { parent: [call.id] } : {}),
      ...(ts ? { ts } : {}),
    });
  }

  /** A file change the agent reported without a tool call of its own (e.g. Codex `file_change` items). */
  fileChange(p: string, kind: "added" | "modified" | "deleted", ts?: number): void {
    this.#log.add({ type: "file_change", path: this.relative(p), kind, ...(ts ? { ts } : {}) });
  }
}

/** The exit code in a tool's text output ("Exit code 3", "Exit Code: 3", "Process exited with code 3"). */
export function exitCodeInText(text: string): number | null {
  const m = /(?:exit(?:ed with)? code:?|process exited with code)\s*(-?\d+)/i.exec(text);
  return m ? Number(m[1]) : null;
}
