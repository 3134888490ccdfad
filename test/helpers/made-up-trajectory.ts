import type { EventDraft, TrajectoryEvent } from "../../src/core/trajectory.ts";

/**
 * A small builder for made-up trajectories in detector tests, emitting events the way the importers do:
 * a tool call, then (for shell tools) a command event whose parent is the call, then the result, then a
 * file change whose parent is the result.
 */
export class MadeUp {
  readonly events: TrajectoryEvent[] = [];
  private calls = 0;

  private add(draft: EventDraft, parent?: string[]): string {
    const id = `e${this.events.length + 1}`;
    this.events.push({ ...draft, id, ...(parent ? { parent } : {}) } as TrajectoryEvent);
    return id;
  }

  user(text: string): this {
    this.add({ type: "message", role: "user", text });
    return this;
  }

  system(text: string): this {
    this.add({ type: "message", role: "system", text });
    return this;
  }

  say(text: string): this {
    this.add({ type: "message", role: "assistant", text });
    return this;
  }

  /** Any tool call with its result. Returns the builder; the call's event id is `lastCall`. */
  tool(
    name: string,
    input: unknown,
    output = "",
    opts: { isError?: boolean; change?: { path: string; kind?: "added" | "modified" | "deleted" } } = {},
  ): this {
    const callId = `c${++this.calls}`;
    const call = this.add({ type: "tool_call", callId, name, input });
    this.lastCall = call;
    const result = this.add({ type: "tool_result", callId, output, isError: opts.isError ?? false }, [call]);
    if (opts.change)
      this.add({ type: "file_change", path: opts.change.path, kind: opts.change.kind ?? "modified" }, [
        result,
      ]);
    return this;
  }

  /** A shell call (`Bash`) with its command event and result; `exitCode` null: the program never ran. */
  bash(command: string, output = "", exitCode: number | null = 0): this {
    const callId = `c${++this.calls}`;
    const call = this.add({ type: "tool_call", callId, name: "Bash", input: { command } });
    this.lastCall = call;
    this.add({ type: "command", command, exitCode, durationMs: 0, stdout: output }, [call]);
    this.add({ type: "tool_result", callId, output, isError: exitCode !== 0 }, [call]);
    return this;
  }

  read(path: string, content = `contents of ${path}`): this {
    return this.tool("Read", { file_path: path }, content);
  }

  edit(path: string, oldString: string, newString: string): this {
    return this.tool("Edit", { file_path: path, old_string: oldString, new_string: newString }, "ok", {
      change: { path },
    });
  }

  write(path: string, content: string): this {
    return this.tool("Write", { file_path: path, content }, "ok", { change: { path, kind: "added" } });
  }

  /** A file change no tool call is linked to (e.g. Codex `apply_patch` events, a background process). */
  change(path: string, kind: "added" | "modified" | "deleted" = "modified"): this {
    this.add({ type: "file_change", path, kind });
    return this;
  }

  context(tokens: number, window: number, compaction = false): this {
    this.add({ type: "context", tokens, window, ...(compaction ? { compaction } : {}) });
    return this;
  }

  control(
    kind:
      | "interrupt"
      | "approval"
      | "rejection"
      | "permission_mode"
      | "rewind"
      | "handoff"
      | "timeout"
      | "error",
    detail?: string,
  ): this {
    this.add({ type: "control", kind, ...(detail ? { detail } : {}) });
    return this;
  }

  /** Event id of the last tool call added. */
  lastCall = "";
}
