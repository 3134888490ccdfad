import path from "node:path";
import { unwrapShell } from "../../agents/coding/codex.ts";
import { exitCodeInText } from "../../agents/coding/trace-builder.ts";
import { arr, obj, str } from "../../core/json-view.ts";
import { own, RecentMap } from "../../core/recent.ts";
import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { EventSink, IMPORT_REMEMBERED } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readRecords } from "./read-lines.ts";

/**
 * Codex CLI logs → standard events (trajectory-formats.md §1.3, §1.4): the rollout JSONL of
 * `~/.codex/sessions/…/rollout-*.jsonl` (`response_item` function calls and outputs paired by `call_id`,
 * `event_msg` token counts, `compacted` items, `turn_context` approval / sandbox modes) and the
 * `codex exec --json` stream (`item.*` events). Shell calls (`shell` with an argv, `exec_command` with a
 * command line) also become `command` events with the exit code from the output's metadata or text.
 */

const SHELL = new Set(["shell", "exec_command", "local_shell", "container.exec"]);

/** The command line of a shell tool call's arguments (`{command: [argv]}` or `{cmd: "…"}`). */
function commandOf(args: unknown): string {
  const a = obj(args);
  const command = a.command ?? a.cmd;
  if (Array.isArray(command)) {
    const argv = command.map(String);
    return /(?:^|\/)(?:bash|sh|zsh)$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "") && argv.length === 3
      ? argv[2]!
      : argv.join(" ");
  }
  return str(command);
}

/** A function call output: plain text, or `{"output": "…", "metadata": {"exit_code": N}}` as JSON text. */
function outputOf(raw: unknown): { text: string; exitCode: number | null } {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw ?? "");
  try {
    const parsed = JSON.parse(text) as unknown;
    const o = obj(parsed);
    if ("output" in o) {
      const code = obj(o.metadata).exit_code;
      return { text: str(o.output), exitCode: typeof code === "number" ? code : null };
    }
  } catch {
    // Plain text.
  }
  return { text, exitCode: exitCodeInText(text) };
}

/**
 * Import one Codex log (rollout or exec --json).
 * @throws the file system's error for an unreadable file
 */
export async function importCodex(
  file: string,
  format: string,
  onEvent?: (e: TrajectoryEvent) => void,
): Promise<ImportedTrajectory> {
  const skipped: ImportedTrajectory["skipped"] = [];
  const models = new Set<string>();
  // Bounded (IMPORT_REMEMBERED): an output further back than that from its call is not paired.
  const calls = new RecentMap<string, { id: string; name: string; args: unknown }>(IMPORT_REMEMBERED);
  let sessionId: string | undefined;
  const read = { lines: 0 };
  let lastTotal = { input: 0, output: 0 };
  const sink = new EventSink(file);
  sink.onEvent = onEvent;
  const events = sink.events;
  const add = sink.add.bind(sink);

  for await (const { line, record: r } of readRecords(file, skipped, read)) {
    const type = str(r.type);
    const ts = Date.parse(str(r.timestamp)) || undefined;
    const base = ts ? { ts } : {};
    const p = obj(r.payload);

    // --- rollout ---
    if (type === "session_meta") sessionId ??= str(p.id) || undefined;
    else if (type === "turn_context") {
      if (str(p.model)) models.add(str(p.model));
      if (str(p.approval_policy))
        add(
          { ...base, type: "control", kind: "permission_mode", detail: `approval ${str(p.approval_policy)}` },
          line,
        );
    } else if (type === "compacted") add({ ...base, type: "context", compaction: true }, line);
    else if (type === "response_item") {
      const kind = str(p.type);
      if (kind === "message") {
        const role = str(p.role);
        const text = arr(p.content)
          .map((c) => str(obj(c).text))
          .join("\n");
        if (!text.trim()) {
          // An empty message carries nothing to keep.
        } else if ((role === "user" || role === "assistant") && !/^<[a-z_]+>/.test(text.trim()))
          add({ ...base, type: "message", role, text }, line);
        // Developer and system messages, and the harness's tagged user messages (`<user_instructions>`,
        // `<environment_context>`), are the standing rules the model is given: kept as system messages.
        else add({ ...base, type: "message", role: "system", text }, line);
      } else if (kind === "function_call" || kind === "custom_tool_call" || kind === "local_shell_call") {
        let args: unknown = p.input ?? p.arguments ?? p.action;
        if (typeof p.arguments === "string")
          try {
            args = JSON.parse(p.arguments);
          } catch {
            args = p.arguments;
          }
        const name = str(p.name) || kind;
        const callId = str(p.call_id) || str(p.id);
        const id = add({ ...base, type: "tool_call", callId, name, input: args }, line);
        // Keep the event's own copies (see `own`): the parsed line is not kept alive by the map.
        calls.set(own(callId), {
          id,
          name: own(name),
          args: (sink.last as { input?: unknown }).input,
        });
      } else if (kind === "function_call_output" || kind === "custom_tool_call_output") {
        const callId = str(p.call_id);
        const call = calls.get(callId);
        const out = outputOf(p.output);
        const parent = call ? [call.id] : undefined;
        if (call && SHELL.has(call.name))
          add(
            {
              ...base,
              type: "command",
              command: commandOf(call.args),
              exitCode: out.exitCode,
              durationMs: 0,
              stdout: out.text,
            },
            line,
            parent,
          );
        const isError = (out.exitCode ?? 0) !== 0 || /failed:.*rejected/is.test(out.text);
        const result = add({ ...base, type: "tool_result", callId, output: out.text, isError }, line, parent);
        // `apply_patch`, as its own tool (a custom tool call whose input is the patch) or run through the
        // shell (`["apply_patch", "*** Begin Patch…"]`): its files, when it applied.
        const patch =
          call?.name === "apply_patch"
            ? patchText(call.args)
            : call && SHELL.has(call.name)
              ? (/^apply_patch\s+([\s\S]*)$/.exec(commandOf(call.args).trim())?.[1] ?? "")
              : "";
        if (patch && !isError && !/^(error|failed|invalid)/i.test(out.text.trim()))
          for (const change of patchChanges(patch))
            add({ ...base, type: "file_change", ...change }, line, [result]);
        if (/failed:.*rejected/is.test(out.text))
          add({ ...base, type: "control", kind: "rejection", detail: out.text.slice(0, 300) }, line, [
            result,
          ]);
      } else if (kind === "web_search_call") {
        const action = obj(p.action);
        const callId = str(p.id) || `web-${line}`;
        const call = add({ ...base, type: "tool_call", callId, name: "web_search", input: action }, line);
        add(
          {
            ...base,
            type: "tool_result",
            callId,
            output: `web search ${str(p.status) || "done"}${str(action.query) ? `: ${str(action.query)}` : ""}`,
            isError: p.status === "failed",
          },
          line,
          [call],
        );
      } else if (kind === "reasoning") {
        // The reasoning summary the user sees (the encrypted content is not readable).
        const text = arr(p.summary)
          .map((x) => str(obj(x).text))
          .filter(Boolean)
          .join("\n");
        if (text) add({ ...base, type: "message", role: "assistant", text, reasoning: true }, line);
      } else skipped.push({ line, reason: `unknown response item "${kind}"` });
    } else if (type === "event_msg") {
      const kind = str(p.type);
      if (kind === "token_count") {
        const total = obj(obj(p.info).total_token_usage);
        const input = Number(total.input_tokens ?? 0);
        const output = Number(total.output_tokens ?? 0);
        if (input > lastTotal.input || output > lastTotal.output)
          add(
            {
              ...base,
              type: "usage",
              inputTokens: input - lastTotal.input,
              outputTokens: output - lastTotal.output,
            },
            line,
          );
        lastTotal = { input: Math.max(input, lastTotal.input), output: Math.max(output, lastTotal.output) };
        const window = Number(obj(p.info).model_context_window);
        if (Number.isFinite(window) && window > 0)
          add(
            {
              ...base,
              type: "context",
              tokens: Number(obj(obj(p.info).last_token_usage).input_tokens ?? input),
              window,
            },
            line,
          );
      } else if (kind === "turn_aborted")
        add({ ...base, type: "control", kind: "interrupt", detail: str(p.reason) }, line);
      else if (kind === "context_compacted") add({ ...base, type: "context", compaction: true }, line);
    }
    // --- exec --json ---
    else if (type === "thread.started") sessionId ??= str(r.thread_id) || undefined;
    else if (type === "item.completed") {
      const it = obj(r.item);
      const id = str(it.id);
      if (it.type === "agent_message")
        add({ ...base, type: "message", role: "assistant", text: str(it.text) }, line);
      else if (it.type === "reasoning") {
        if (str(it.text).trim())
          add({ ...base, type: "message", role: "assistant", text: str(it.text), reasoning: true }, line);
      } else if (it.type === "web_search") {
        const call = add(
          { ...base, type: "tool_call", callId: id, name: "web_search", input: { query: str(it.query) } },
          line,
        );
        add(
          {
            ...base,
            type: "tool_result",
            callId: id,
            output: `web search: ${str(it.query)}`,
            isError: false,
          },
          line,
          [call],
        );
      } else if (it.type === "todo_list")
        add(
          { ...base, type: "tool_call", callId: id, name: "update_plan", input: { items: it.items ?? [] } },
          line,
        );
      else if (it.type === "error")
        add({ ...base, type: "control", kind: "error", detail: str(it.message) }, line);
      else if (it.type === "command_execution") {
        const command = unwrapShell(str(it.command));
        const call = add(
          { ...base, type: "tool_call", callId: id, name: "command_execution", input: { command } },
          line,
        );
        const exitCode = typeof it.exit_code === "number" ? it.exit_code : null;
        add(
          { ...base, type: "command", command, exitCode, durationMs: 0, stdout: str(it.aggregated_output) },
          line,
          [call],
        );
        add(
          {
            ...base,
            type: "tool_result",
            callId: id,
            output: str(it.aggregated_output),
            isError: it.status === "failed",
          },
          line,
          [call],
        );
      } else if (it.type === "file_change") {
        const changes = arr(it.changes).map(obj);
        const call = add(
          { ...base, type: "tool_call", callId: id, name: "apply_patch", input: { changes } },
          line,
        );
        add(
          {
            ...base,
            type: "tool_result",
            callId: id,
            output: changes.map((c) => `${str(c.kind)} ${str(c.path)}`).join("\n"),
            isError: it.status === "failed",
          },
          line,
          [call],
        );
        if (it.status !== "failed")
          for (const c of changes)
            add(
              {
                ...base,
                type: "file_change",
                path: str(c.path),
                kind: c.kind === "add" ? "added" : c.kind === "delete" ? "deleted" : "modified",
              },
              line,
              [call],
            );
      } else if (it.type === "mcp_tool_call") {
        const call = add(
          {
            ...base,
            type: "tool_call",
            callId: id,
            name: `${str(it.server)}.${str(it.tool)}`,
            input: it.arguments ?? {},
          },
          line,
        );
        add(
          {
            ...base,
            type: "tool_result",
            callId: id,
            output: JSON.stringify(it.result ?? it.error ?? ""),
            isError: it.status === "failed",
          },
          line,
          [call],
        );
      } else skipped.push({ line, reason: `unknown item type "${str(it.type) || "(none)"}"` });
    } else if (type === "turn.completed") {
      const u = obj(r.usage);
      add(
        {
          ...base,
          type: "usage",
          inputTokens: Number(u.input_tokens ?? 0),
          outputTokens: Number(u.output_tokens ?? 0),
        },
        line,
      );
    } else if (type === "turn.failed" || type === "error") {
      add(
        { ...base, type: "control", kind: "error", detail: str(obj(r.error).message) || str(r.message) },
        line,
      );
    } else if (!["turn.started", "item.started", "item.updated", "item.plan.delta"].includes(type))
      skipped.push({ line, reason: `unknown line type "${type || "(none)"}"` });
  }
  return {
    id: sessionId ?? path.basename(file),
    format,
    file,
    agent: "codex",
    models: [...models],
    events,
    skipped,
    lines: read.lines,
  };
}

/** The patch an `apply_patch` call carries: its input string, or the `input` / `patch` argument. */
function patchText(args: unknown): string {
  if (typeof args === "string") return args;
  const o = obj(args);
  return str(o.input) || str(o.patch);
}

/**
 * The files a Codex patch (`*** Begin Patch` … `*** End Patch`) changes: `Add File` (added), `Update File`
 * (modified; with `*** Move to:` the new path is added and the old one deleted), `Delete File` (deleted).
 */
export function patchChanges(patch: string): { path: string; kind: "added" | "modified" | "deleted" }[] {
  const out: { path: string; kind: "added" | "modified" | "deleted" }[] = [];
  const lines = patch.split("\n");
  lines.forEach((l, i) => {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(l.trim());
    if (!m?.[2]) return;
    const file = m[2].trim();
    const moved = /^\*\*\* Move to: (.+)$/.exec((lines[i + 1] ?? "").trim())?.[1]?.trim();
    if (m[1] === "Add") out.push({ path: file, kind: "added" });
    else if (m[1] === "Delete") out.push({ path: file, kind: "deleted" });
    else if (moved) out.push({ path: file, kind: "deleted" }, { path: moved, kind: "added" });
    else out.push({ path: file, kind: "modified" });
  });
  return out;
}
