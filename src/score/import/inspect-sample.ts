import { arr, type Json, obj, str } from "../../core/json-view.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";

/**
 * Inspect AI eval logs → standard events (trajectory-formats.md §1.10), one trajectory per sample (and
 * epoch), its `instanceId` the sample id. This file maps one sample; inspect.ts reads the log files.
 *
 * The conversation comes from `sample.messages` (system / user / assistant with `tool_calls[]` / tool with
 * `tool_call_id` and `error`): `message`, `tool_call` and `tool_result` events, paired by call id. When the
 * sample has `events[]`, they are walked in order and the messages are placed among them: a `model` event
 * releases the messages up to its output message (matched by message `id`), and a `tool` event's result
 * message (`message_id`) is released by the first later event outside the tool's `span_id`; messages no event
 * names come at the end. From events:
 * - `model` → `usage` per call (input = `total_tokens` − `output_tokens`, so cached input counts once however
 *   the provider splits it; cost from `total_cost`) and `context` (input tokens); a model error →
 *   `control: error`.
 * - `sandbox` `exec` → `command` (real exit code), `write_file` → `file_change` (`modified`: the log does not
 *   say whether the file existed); both depend on the tool call whose `tool` event shares their `span_id`.
 * - `approval` → `control` (approve / modify → approval, reject → rejection, escalate → handoff, terminate →
 *   interrupt); a `tool` event with `agent` → `control: handoff`; `compaction` → `context` with
 *   `compaction: true` and the tokens before; `sample_limit` → `control` (time / working → timeout, operator → interrupt,
 *   others → error); `interrupt` (user or system) → `control: interrupt`; `error` → `control: error`.
 * Without events, usage comes from `sample.model_usage` (totals per model) and control from `sample.error` /
 * `sample.limit`, so nothing is counted twice. A tool message whose error type is `approval` (with no
 * approval event) → `control: rejection`; `timeout` → `control: timeout`. `attachment://` references are
 * resolved from `sample.attachments`.
 *
 * Reasoning content parts (not redacted) → an assistant `message` with `reasoning: true`, before the text.
 * Not mapped: scores, store / state changes, spans, images. Unknown events and messages go to `skipped` with
 * `line` = their 1-based index in the sample's `events[]` / `messages[]` (the reason names which).
 */

const IGNORED = new Set([
  "sample_init",
  "state",
  "store",
  "step",
  "span_begin",
  "span_end",
  "subtask",
  "info",
  "logger",
  "score",
  "score_edit",
  "input",
  "anchor",
  "branch",
  "checkpoint",
  "review",
]);

type Base = { ts?: number };

class InspectMapper extends EventSink {
  readonly models = new Set<string>();
  readonly skipped: ImportedTrajectory["skipped"] = [];
  /** Tool call id → its `tool_call` event id. */
  private readonly calls = new Map<string, string>();
  /** Span id of a `tool` event → the call id. */
  private readonly spanCall = new Map<string, string>();
  private readonly approved = new Set<string>();
  private cursor = 0;
  /** Result messages of `tool` events, released when the transcript leaves the tool's span. */
  private pendingTools: { span: string; at: number }[] = [];
  private readonly messages: Json[];
  private readonly messageIndex = new Map<string, number>();
  sawError = false;
  sawLimit = false;

  constructor(
    file: string,
    private readonly sample: Json,
  ) {
    super(file);
    this.messages = arr(sample.messages).map(obj);
    this.messages.forEach((m, i) => {
      if (str(m.id)) this.messageIndex.set(str(m.id), i);
    });
  }

  private where = (kind: string, n: number) => `${kind}[${n}] of sample ${String(this.sample.id)}`;

  /** A string, or the attachment it names. */
  private resolve(s: string): string {
    return s.startsWith("attachment://") ? str(obj(this.sample.attachments)[s.slice(13)]) || s : s;
  }

  /** Text of message content: a string, or its text parts. */
  private text(content: unknown): string {
    if (typeof content === "string") return this.resolve(content);
    return arr(content)
      .map(obj)
      .filter((c) => c.type === "text")
      .map((c) => this.resolve(str(c.text)))
      .join("\n");
  }

  /** Emit the messages up to and including index `last`. */
  flushThrough(last: number, base: Base): void {
    while (this.cursor <= last && this.cursor < this.messages.length) {
      this.message(this.messages[this.cursor]!, this.cursor + 1, base);
      this.cursor++;
    }
  }

  /** One chat message (`n` is its 1-based index). */
  private message(m: Json, n: number, base: Base): void {
    const role = str(m.role);
    const text = this.text(m.content);
    if (role === "system" || role === "user") {
      if (text.trim()) this.add({ ...base, type: "message", role, text });
    } else if (role === "assistant") {
      const reasoning = arr(m.content)
        .map(obj)
        .filter((c) => c.type === "reasoning" && c.redacted !== true)
        .map((c) => str(c.reasoning) || str(c.summary))
        .join("\n");
      if (reasoning.trim())
        this.add({ ...base, type: "message", role: "assistant", text: reasoning, reasoning: true });
      if (text.trim()) this.add({ ...base, type: "message", role: "assistant", text });
      for (const c of arr(m.tool_calls).map(obj)) {
        const callId = str(c.id);
        const id = this.add({
          ...base,
          type: "tool_call",
          callId,
          name: str(c.function),
          input: c.arguments ?? {},
        });
        this.calls.set(callId, id);
      }
    } else if (role === "tool") {
      const callId = str(m.tool_call_id);
      const call = this.calls.get(callId);
      const error = obj(m.error);
      const output = text || str(error.message);
      const result = this.add(
        { ...base, type: "tool_result", callId, output, isError: Object.keys(error).length > 0 },
        undefined,
        call ? [call] : undefined,
      );
      if (error.type === "approval" && !this.approved.has(callId))
        this.add({ ...base, type: "control", kind: "rejection", detail: str(error.message) }, undefined, [
          result,
        ]);
      else if (error.type === "timeout")
        this.add({ ...base, type: "control", kind: "timeout", detail: str(error.message) }, undefined, [
          result,
        ]);
    } else
      this.skipped.push({
        line: n,
        reason: `${this.where("messages", n)}: unknown role "${role || "(none)"}"`,
      });
  }

  /** Usage of one model call or of a model's totals (`ModelUsage`). */
  usage(u: Json, model: string, base: Base): void {
    if (!Object.keys(u).length) return;
    const output = Number(u.output_tokens ?? 0);
    const input =
      typeof u.total_tokens === "number"
        ? u.total_tokens - output
        : Number(u.input_tokens ?? 0) +
          Number(u.input_tokens_cache_read ?? 0) +
          Number(u.input_tokens_cache_write ?? 0);
    this.add({
      ...base,
      type: "usage",
      inputTokens: input,
      outputTokens: output,
      ...(typeof u.total_cost === "number" ? { costUsd: u.total_cost } : {}),
      ...(model ? { model } : {}),
    });
  }

  /** A sample limit (`{type, message, limit}`). */
  limit(l: Json, base: Base): void {
    const type = str(l.type);
    const value = l.limit !== undefined && l.limit !== null ? ` ${String(l.limit)}` : "";
    const detail = `${type} limit${value}${str(l.message) ? `: ${str(l.message)}` : ""}`;
    const kind =
      type === "time" || type === "working" ? "timeout" : type === "operator" ? "interrupt" : "error";
    this.add({ ...base, type: "control", kind, detail });
    this.sawLimit = true;
  }

  /** One transcript event (`n` is its 1-based index). */
  event(e: Json, n: number): void {
    const kind = str(e.event);
    const ts = Date.parse(str(e.timestamp)) || undefined;
    const base: Base = ts ? { ts } : {};
    const callOf = (callId: string) => {
      const id = this.calls.get(callId);
      return id ? [id] : undefined;
    };
    // A tool's result message is released by the first event outside the tool's span.
    const outside = this.pendingTools.filter((t) => t.span !== str(e.span_id));
    if (outside.length) {
      this.flushThrough(Math.max(...outside.map((t) => t.at)), base);
      this.pendingTools = this.pendingTools.filter((t) => t.span === str(e.span_id));
    }
    if (kind === "model") {
      const output = obj(e.output);
      const message = obj(obj(arr(output.choices)[0]).message);
      const at = this.messageIndex.get(str(message.id));
      if (at !== undefined) this.flushThrough(at, base);
      const model = str(e.model) || str(output.model);
      if (model) this.models.add(model);
      const usage = obj(output.usage);
      this.usage(usage, model, base);
      if (Object.keys(usage).length && typeof usage.total_tokens === "number")
        this.add({ ...base, type: "context", tokens: usage.total_tokens - Number(usage.output_tokens ?? 0) });
      const error = str(e.error) || str(output.error);
      if (error) this.add({ ...base, type: "control", kind: "error", detail: error });
    } else if (kind === "tool") {
      const callId = str(e.id);
      if (str(e.span_id)) this.spanCall.set(str(e.span_id), callId);
      const at = this.messageIndex.get(str(e.message_id));
      if (at !== undefined && str(e.span_id)) this.pendingTools.push({ span: str(e.span_id), at });
      if (str(e.agent))
        this.add(
          { ...base, type: "control", kind: "handoff", detail: `agent ${str(e.agent)}` },
          undefined,
          callOf(callId),
        );
    } else if (kind === "sandbox") {
      const parent = callOf(this.spanCall.get(str(e.span_id)) ?? "");
      if (e.action === "exec")
        this.add(
          {
            ...base,
            type: "command",
            command: str(e.cmd),
            exitCode: typeof e.result === "number" ? e.result : null,
            durationMs: Math.max(0, (Date.parse(str(e.completed)) || ts || 0) - (ts ?? 0)),
            stdout: str(e.output),
          },
          undefined,
          parent,
        );
      else if (e.action === "write_file" && str(e.file))
        this.add({ ...base, type: "file_change", path: str(e.file), kind: "modified" }, undefined, parent);
    } else if (kind === "approval") {
      const call = obj(e.call);
      const decision = str(e.decision);
      const control =
        decision === "reject"
          ? "rejection"
          : decision === "escalate"
            ? "handoff"
            : decision === "terminate"
              ? "interrupt"
              : "approval";
      this.approved.add(str(call.id));
      const detail = `${str(e.approver)}: ${decision}${str(e.explanation) ? ` (${str(e.explanation)})` : ""}`;
      this.add({ ...base, type: "control", kind: control, detail }, undefined, callOf(str(call.id)));
    } else if (kind === "compaction") {
      const tokens = Number(e.tokens_before);
      this.add({
        ...base,
        type: "context",
        compaction: true,
        ...(Number.isFinite(tokens) ? { tokens } : {}),
      });
    } else if (kind === "sample_limit") this.limit(e, base);
    else if (kind === "interrupt") {
      if (e.source !== "limit")
        this.add({
          ...base,
          type: "control",
          kind: "interrupt",
          detail: `${str(e.source)} during ${str(e.interrupted)}`,
        });
    } else if (kind === "error") {
      this.add({ ...base, type: "control", kind: "error", detail: str(obj(e.error).message) });
      this.sawError = true;
    } else if (!IGNORED.has(kind))
      this.skipped.push({
        line: n,
        reason: `${this.where("events", n)}: unknown event "${kind || "(none)"}"`,
      });
  }
}

/**
 * One Inspect `EvalSample` (trajectory-formats.md §1.10) → a trajectory, as described above. `format` and
 * `agent` are left empty for the caller, which knows the eval spec; `lines` counts the messages and events
 * read.
 */
export function mapInspectSample(file: string, sample: Json): ImportedTrajectory {
  const mapper = new InspectMapper(file, sample);
  const events = arr(sample.events).map(obj);
  events.forEach((e, i) => {
    mapper.event(e, i + 1);
  });
  mapper.flushThrough(Number.POSITIVE_INFINITY, {});
  if (!events.length)
    for (const [model, usage] of Object.entries(obj(sample.model_usage))) mapper.usage(obj(usage), model, {});
  if (!mapper.sawError && str(obj(sample.error).message))
    mapper.add({ type: "control", kind: "error", detail: str(obj(sample.error).message) });
  if (!mapper.sawLimit && Object.keys(obj(sample.limit)).length) mapper.limit(obj(sample.limit), {});
  for (const model of Object.keys(obj(sample.model_usage))) mapper.models.add(model);
  const epoch = sample.epoch ?? 1;
  return {
    id: str(sample.uuid) || `${String(sample.id)}-epoch-${String(epoch)}`,
    format: "",
    file,
    agent: "",
    models: [...mapper.models],
    ...(sample.id !== undefined ? { instanceId: String(sample.id) } : {}),
    events: mapper.events,
    skipped: mapper.skipped,
    lines: arr(sample.messages).length + events.length,
  };
}
