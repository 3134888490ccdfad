import path from "node:path";
import { exitCodeInText } from "../../agents/coding/trace-builder.ts";
import { arr, obj, str } from "../../core/json-view.ts";
import { own, RecentMap, RecentSet } from "../../core/recent.ts";
import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { EventSink, IMPORT_REMEMBERED } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readRecords } from "./read-lines.ts";

/**
 * Claude Code logs → standard events (trajectory-formats.md §1.1, §1.2): the session JSONL of
 * `~/.claude/projects/<project>/<session>.jsonl` and the `-p --output-format stream-json` stream (Agent SDK
 * messages). Tool calls pair with results by `tool_use.id`; `parentUuid` links become `parent`; compaction
 * boundaries become `context` events with the tokens before; interrupts ("[Request interrupted by user…"),
 * rejections ("The user doesn't want to proceed…") and `permission-mode` lines become `control` events;
 * usage is counted once per API message (`message.id`: one response is split over several lines).
 */

/** Line types that carry no agent action, with why they are not mapped (counted in `unmapped`). */
const NOT_MAPPED: ReadonlyMap<string, string> = new Map([
  ["file-history-snapshot", "file checkpoint for /rewind (no agent action)"],
  ["queue-operation", "prompt-queue bookkeeping"],
  ["progress", "progress of a sub-agent or hook (its own steps are not events of this log)"],
  ["attachment", "attachment record"],
  ["summary", "session title"],
  ["stream_event", "streaming delta (the whole message has its own line)"],
  ["rate_limit_event", "rate-limit notice"],
  ...[
    "last-prompt",
    "pr-link",
    "agent-name",
    "custom-title",
    "ai-title",
    "agent-setting",
    "worktree-state",
    "bridge-session",
  ].map((t) => [t, "session metadata"] as [string, string]),
]);

const SHELL = new Set(["Bash"]);
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Text of a message content (a string, or the text of its text blocks). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map(obj)
    .filter((b) => b.type === "text")
    .map((b) => str(b.text))
    .join("\n");
}

/**
 * Import one Claude Code log (session JSONL or stream-json; the difference is in field names only).
 * @throws the file system's error for an unreadable file
 */
export async function importClaudeCode(
  file: string,
  format: string,
  onEvent?: (e: TrajectoryEvent) => void,
): Promise<ImportedTrajectory> {
  const skipped: ImportedTrajectory["skipped"] = [];
  const models = new Set<string>();
  // Bounded (IMPORT_REMEMBERED): a result, child line or repeated response further back than that is not paired.
  const calls = new RecentMap<string, { id: string; name: string; command: string; filePath: string }>(
    IMPORT_REMEMBERED,
  );
  const lastEventOfLine = new RecentMap<string, string>(IMPORT_REMEMBERED);
  const usageSeen = new RecentSet<string>(IMPORT_REMEMBERED);
  let sessionId: string | undefined;
  let cwd: string | undefined;
  const read = { lines: 0 };

  const sink = new EventSink(file);
  sink.onEvent = onEvent;
  const events = sink.events;
  const add = sink.add.bind(sink);
  const relative = (p: string) =>
    cwd && path.isAbsolute(p) && p.startsWith(`${cwd}/`) ? path.relative(cwd, p) : p;

  for await (const { line, record: r } of readRecords(file, skipped, read)) {
    const type = str(r.type);
    const ts = Date.parse(str(r.timestamp)) || undefined;
    sessionId ??= str(r.sessionId) || str(r.session_id) || undefined;
    if (str(r.cwd)) cwd ??= str(r.cwd);
    const parentLine = str(r.parentUuid) || str(r.logicalParentUuid);
    const parent =
      parentLine && lastEventOfLine.has(parentLine) ? [lastEventOfLine.get(parentLine)!] : undefined;
    const base = { ...(ts ? { ts } : {}) };
    let last: string | undefined;

    const notMapped = NOT_MAPPED.get(type);
    if (notMapped) {
      sink.unmapped(`${type}: ${notMapped}`, line);
      continue;
    }
    if (type === "assistant") {
      const message = obj(r.message);
      if (str(message.model) && str(message.model) !== "<synthetic>") models.add(str(message.model));
      for (const block of arr(message.content).map(obj)) {
        if (block.type === "text" && str(block.text).trim())
          last = add({ ...base, type: "message", role: "assistant", text: str(block.text) }, line, parent);
        if (block.type === "thinking" && str(block.thinking).trim())
          last = add(
            { ...base, type: "message", role: "assistant", text: str(block.thinking), reasoning: true },
            line,
            parent,
          );
        if (block.type === "tool_use") {
          const id = add(
            {
              ...base,
              type: "tool_call",
              callId: str(block.id),
              name: str(block.name),
              input: block.input ?? {},
              // One API response is split over several lines (one per block): its id ties parallel calls.
              ...(str(message.id) || str(r.requestId)
                ? { response: str(message.id) || str(r.requestId) }
                : {}),
            },
            line,
            parent,
          );
          const input = obj((sink.last as { input?: unknown }).input);
          calls.set(own(str(block.id)), {
            id,
            name: own(str(block.name)),
            command: str(input.command),
            filePath: str(input.file_path),
          });
          last = id;
        }
      }
      const key = str(message.id) || str(r.requestId);
      const usage = obj(message.usage);
      if (key && !usageSeen.has(key) && Object.keys(usage).length) {
        usageSeen.add(key);
        add(
          {
            ...base,
            type: "usage",
            inputTokens:
              Number(usage.input_tokens ?? 0) +
              Number(usage.cache_read_input_tokens ?? 0) +
              Number(usage.cache_creation_input_tokens ?? 0),
            outputTokens: Number(usage.output_tokens ?? 0),
            ...(str(message.model) ? { model: str(message.model) } : {}),
          },
          line,
        );
      }
    } else if (type === "user") {
      const message = obj(r.message);
      const content = message.content;
      const structured = obj(r.toolUseResult ?? r.tool_use_result);
      for (const block of arr(content).map(obj)) {
        if (block.type !== "tool_result") continue;
        const callId = str(block.tool_use_id);
        const call = calls.get(callId);
        const output = textOf(block.content);
        const isError = block.is_error === true;
        const callParent = call ? [call.id] : parent;
        if (call && SHELL.has(call.name)) {
          const exitCode = isError ? exitCodeInText(output.split("\n")[0] ?? "") : 0;
          add(
            {
              ...base,
              type: "command",
              command: call.command,
              exitCode,
              durationMs: 0,
              stdout: str(structured.stdout) || output,
              ...(str(structured.stderr) ? { stderr: str(structured.stderr) } : {}),
              ...(structured.interrupted === true ? { timedOut: false } : {}),
            },
            line,
            callParent,
          );
        }
        last = add({ ...base, type: "tool_result", callId, output, isError }, line, callParent);
        if (call && WRITES.has(call.name) && !isError && call.filePath)
          add(
            {
              ...base,
              type: "file_change",
              path: relative(call.filePath),
              kind: structured.type === "create" ? "added" : "modified",
            },
            line,
            [last],
          );
        if (/^The user doesn't want to proceed/.test(output) || /tool use was rejected/i.test(output))
          last = add({ ...base, type: "control", kind: "rejection", detail: output.slice(0, 300) }, line, [
            last,
          ]);
      }
      const text = textOf(content);
      if (text.trim() && !arr(content).some((b) => obj(b).type === "tool_result")) {
        if (/^\[Request interrupted by user/.test(text.trim()))
          last = add({ ...base, type: "control", kind: "interrupt", detail: text.trim() }, line, parent);
        else if (r.isCompactSummary === true)
          last = add({ ...base, type: "message", role: "system", text }, line, parent);
        else if (r.isMeta !== true)
          last = add({ ...base, type: "message", role: "user", text }, line, parent);
        else sink.unmapped("meta user message (harness-injected, not typed by the user)", line);
      }
    } else if (type === "system") {
      const subtype = str(r.subtype);
      if (subtype === "init") {
        if (str(r.model)) models.add(str(r.model));
      } else if (subtype === "compact_boundary" || subtype === "microcompact_boundary") {
        const meta = obj(r.compactMetadata ?? r.compact_metadata ?? r.microcompactMetadata);
        const tokens = Number(meta.preTokens ?? meta.pre_tokens);
        last = add(
          { ...base, type: "context", compaction: true, ...(Number.isFinite(tokens) ? { tokens } : {}) },
          line,
          parent,
        );
      } else if (subtype === "stop_hook_summary") {
        const hooks = arr(r.hookInfos)
          .map((h) => str(obj(h).command))
          .filter(Boolean);
        const errors = arr(r.hookErrors).length;
        const detail = [
          `${Number(r.hookCount ?? hooks.length)} stop hook(s) ran${hooks.length ? `: ${hooks.join("; ")}` : ""}`,
          ...(r.preventedContinuation === true
            ? [`stopped the run${str(r.stopReason) ? `: ${str(r.stopReason)}` : ""}`]
            : []),
          ...(errors ? [`${errors} hook error(s)`] : []),
        ].join("; ");
        last = add({ ...base, type: "control", kind: "hook", detail: detail.slice(0, 300) }, line, parent);
      } else if (subtype === "api_error") {
        const error = obj(r.error);
        const detail = str(r.content) || str(error.message) || str(obj(error.error).message) || "API error";
        last = add({ ...base, type: "control", kind: "error", detail: detail.slice(0, 300) }, line, parent);
      } else sink.unmapped(`system record "${subtype || "(no subtype)"}" (metadata, no agent action)`, line);
    } else if (type === "permission-mode") {
      last = add({ ...base, type: "control", kind: "permission_mode", detail: str(r.permissionMode) }, line);
    } else if (type === "result") {
      if (typeof r.total_cost_usd === "number" || typeof r.cost_usd === "number")
        add({ ...base, type: "usage", costUsd: Number(r.total_cost_usd ?? r.cost_usd) }, line);
      if (r.is_error === true)
        add({ ...base, type: "control", kind: "error", detail: str(r.result) || str(r.subtype) }, line);
    } else {
      skipped.push({ line, reason: `unknown line type "${type || "(none)"}"` });
    }
    if (last && str(r.uuid)) lastEventOfLine.set(own(str(r.uuid)), last);
  }
  return {
    id: sessionId ?? path.basename(file),
    format,
    file,
    agent: "claude-code",
    models: [...models],
    events,
    skipped,
    lines: read.lines,
    unmapped: sink.unmappedSummary(),
  };
}
