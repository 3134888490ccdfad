import { closeSync, openSync, readSync } from "node:fs";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { normaliseSpan, type OtelSpan, spanAttributes } from "./otel-span.ts";
import { readJsonValues } from "./read-json-values.ts";
import { readJsonLines } from "./read-lines.ts";

/**
 * OpenTelemetry GenAI spans → standard events (trajectory-formats.md §1.11), one trajectory per trace id.
 * Accepts an OTLP/JSON export (`resourceSpans[].scopeSpans[].spans[]`, attributes as `{key, value}` lists,
 * `startTimeUnixNano`), a plain JSON array of spans (OTLP spans, or SDK console spans with flat attributes:
 * `context.trace_id` / `parent_id` / `start_time` from Python, `traceId` / `parentId` / `startTime` from JS),
 * and JSONL with one span or one OTLP export per line (the collector's file exporter). Documents stream span
 * by span; spans are then held until the file ends, since a trace's spans can be anywhere in it.
 *
 * Per trace, spans are ordered by start time:
 * - `execute_tool` → `tool_call` (`gen_ai.tool.call.id`, else the span id; `gen_ai.tool.name`; arguments from
 *   `gen_ai.tool.call.arguments`) at the span start and `tool_result` at its end (`gen_ai.tool.call.result`;
 *   `isError` when the span status is error or `error.type` is set).
 * - inference spans (`chat`, `text_completion`, `generate_content`) → `usage` (`gen_ai.usage.input_tokens` /
 *   `output_tokens`, model from `gen_ai.response.model` or `gen_ai.request.model`) and `context` (input
 *   tokens); their messages, when content is recorded (`gen_ai.system_instructions`, `gen_ai.input.messages`,
 *   `gen_ai.output.messages` as attributes or on a `gen_ai.client.inference.operation.details` event, or the
 *   older per-message `gen_ai.*.message` / `gen_ai.choice` events) → `message` events. Each input message is
 *   emitted once per trace (the same role and text again is taken as the history re-sent); tool-call parts of
 *   messages are not events (the `execute_tool` spans are); reasoning parts of output messages → assistant
 *   `message` events with `reasoning: true`.
 * - `invoke_agent` spans name the agent; one nested in another → `control: handoff`. Agent-span usage counts
 *   only when the trace has no inference span (and then only the outermost), so tokens are never counted
 *   twice.
 * - an error status on any other GenAI span → `control: error`.
 * - a span's first event depends on (`parent`) the first event of its nearest ancestor span that has one.
 * Spans that are not GenAI spans (no `gen_ai.operation.name` and no known operation in the name) go to
 * `skipped`, with `line` = the JSONL line, or for a document the 1-based position of the span in it (the
 * reason says which).
 */

const INFERENCE = new Set(["chat", "text_completion", "generate_content"]);
const OPERATIONS = new Set([
  ...INFERENCE,
  "execute_tool",
  "invoke_agent",
  "create_agent",
  "embeddings",
  "retrieval",
]);

/** A JSON value that may be JSON text (content attributes are JSON strings). */
function parsed(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Text of GenAI message parts (`{type: "text", content}`), or of an older string / `{content}` body. */
function partsText(m: unknown): string {
  if (typeof m === "string") return m;
  if (Array.isArray(m))
    return m
      .map(obj)
      .filter((p) => p.type === "text")
      .map((p) => str(p.content) || str(p.text))
      .join("\n");
  const o = obj(m);
  if (Array.isArray(o.parts)) return partsText(o.parts);
  return Array.isArray(o.content) ? partsText(o.content) : str(o.content);
}

const operationOf = (s: OtelSpan) => str(s.attrs["gen_ai.operation.name"]) || s.name.split(" ")[0] || "";

/** The events of one trace. */
function mapTrace(file: string, traceId: string, spans: OtelSpan[]): ImportedTrajectory {
  const sink = new EventSink(file);
  const skipped: ImportedTrajectory["skipped"] = [];
  const models = new Set<string>();
  const seen = new Set<string>();
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const anchor = new Map<string, string>();
  spans.sort((a, b) => (a.start ?? 0) - (b.start ?? 0) || a.at - b.at);
  const hasInference = spans.some((s) => INFERENCE.has(operationOf(s)));
  const ancestors = function* (s: OtelSpan) {
    for (let p = byId.get(s.parentId); p; p = byId.get(p.parentId)) yield p;
  };
  let agent = "";

  for (const s of spans) {
    const op = operationOf(s);
    const line = s.jsonl ? s.at : undefined;
    const where = s.jsonl ? `line ${s.at}` : `span ${s.at} of the document`;
    let parent: string[] | undefined;
    for (const a of ancestors(s))
      if (anchor.has(a.spanId)) {
        parent = [anchor.get(a.spanId)!];
        break;
      }
    const add = (draft: Parameters<EventSink["add"]>[0], dependsOn?: string[]) => {
      const id = sink.add(draft, line, dependsOn ?? (anchor.has(s.spanId) ? undefined : parent));
      if (!anchor.has(s.spanId)) anchor.set(s.spanId, id);
      return id;
    };
    const at = (t?: number) => (t !== undefined ? { ts: t } : {});
    if (!OPERATIONS.has(op)) {
      skipped.push({ line: s.at, reason: `${where}: not a GenAI span ("${s.name}")` });
      continue;
    }
    if (op === "execute_tool") {
      const callId = str(s.attrs["gen_ai.tool.call.id"]) || s.spanId;
      const name = str(s.attrs["gen_ai.tool.name"]) || s.name.replace(/^execute_tool\s*/, "");
      const input = parsed(s.attrs["gen_ai.tool.call.arguments"]) ?? {};
      const call = add({ ...at(s.start), type: "tool_call", callId, name, input });
      const result = s.attrs["gen_ai.tool.call.result"];
      const output =
        typeof result === "string" ? result : result === undefined ? (s.error ?? "") : JSON.stringify(result);
      add({ ...at(s.end), type: "tool_result", callId, output, isError: s.error !== undefined }, [call]);
      continue;
    }
    if (op === "invoke_agent") {
      const name = str(s.attrs["gen_ai.agent.name"]) || s.name.replace(/^invoke_agent\s*/, "");
      const nested = [...ancestors(s)].some((a) => operationOf(a) === "invoke_agent");
      if (nested) add({ ...at(s.start), type: "control", kind: "handoff", detail: `agent ${name}` });
      else agent ||= name;
    }
    const model = str(s.attrs["gen_ai.response.model"]) || str(s.attrs["gen_ai.request.model"]);
    if (model) models.add(model);
    if (INFERENCE.has(op)) {
      const details =
        s.events.find((e) => e.name === "gen_ai.client.inference.operation.details")?.attrs ?? {};
      const pick = (key: string) => parsed(s.attrs[key] ?? details[key]);
      const input: { role: string; text: string }[] = [];
      const system = partsText(pick("gen_ai.system_instructions"));
      if (system) input.push({ role: "system", text: system });
      for (const m of arr(pick("gen_ai.input.messages")))
        input.push({ role: str(obj(m).role), text: partsText(m) });
      for (const e of s.events) {
        const role = /^gen_ai\.(system|user|assistant)\.message$/.exec(e.name)?.[1];
        if (role) input.push({ role, text: partsText(e.attrs.content ?? e.attrs) });
      }
      for (const m of input)
        if (
          (m.role === "system" || m.role === "user") &&
          m.text.trim() &&
          !seen.has(`${m.role}\0${m.text}`)
        ) {
          seen.add(`${m.role}\0${m.text}`);
          add({ ...at(s.start), type: "message", role: m.role, text: m.text });
        }
      const outputs = arr(pick("gen_ai.output.messages"));
      for (const e of s.events)
        if (e.name === "gen_ai.choice") outputs.push(parsed(e.attrs.message) ?? e.attrs);
      for (const m of outputs) {
        const reasoning = arr(obj(m).parts)
          .map(obj)
          .filter((p) => p.type === "reasoning")
          .map((p) => str(p.content))
          .join("\n");
        if (reasoning.trim())
          add({ ...at(s.end), type: "message", role: "assistant", text: reasoning, reasoning: true });
        const text = partsText(m);
        if (text.trim()) add({ ...at(s.end), type: "message", role: "assistant", text });
      }
    }
    const inputTokens = s.attrs["gen_ai.usage.input_tokens"];
    const outputTokens = s.attrs["gen_ai.usage.output_tokens"];
    const counts =
      INFERENCE.has(op) ||
      (op === "invoke_agent" &&
        !hasInference &&
        ![...ancestors(s)].some((a) => a.attrs["gen_ai.usage.input_tokens"] !== undefined));
    if (counts && (typeof inputTokens === "number" || typeof outputTokens === "number")) {
      add({
        ...at(s.end),
        type: "usage",
        ...(typeof inputTokens === "number" ? { inputTokens } : {}),
        ...(typeof outputTokens === "number" ? { outputTokens } : {}),
        ...(model ? { model } : {}),
      });
      if (typeof inputTokens === "number" && INFERENCE.has(op))
        add({ ...at(s.end), type: "context", tokens: inputTokens });
    }
    if (s.error) add({ ...at(s.end), type: "control", kind: "error", detail: s.error });
  }
  return {
    id: traceId,
    format: "otel-json",
    file,
    agent: agent || spans.find((s) => s.service)?.service || "otel",
    models: [...models],
    events: sink.events,
    skipped,
    lines: spans.length,
  };
}

/** True when the file is JSONL: its first two non-blank lines each parse as a JSON object. */
function looksLikeJsonl(file: string): boolean {
  const fd = openSync(file, "r");
  const buffer = Buffer.alloc(64 * 1024);
  let n: number;
  try {
    n = readSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  const lines = buffer
    .subarray(0, n)
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim());
  if (n === buffer.length) lines.pop();
  const isObject = (l: string | undefined) => {
    try {
      const v = JSON.parse(l ?? "") as unknown;
      return Boolean(v) && typeof v === "object" && !Array.isArray(v);
    } catch {
      return false;
    }
  };
  return lines.length >= 2 && isObject(lines[0]) && isObject(lines[1]);
}

/**
 * Import an OpenTelemetry GenAI span export (trajectory-formats.md §1.11): one trajectory per trace, in order
 * of first appearance. `lines` of each counts its spans; records that are not spans (no trace or span id, or
 * not JSON) go to the first trajectory's `skipped`.
 * @throws InputError naming the file when it is not valid JSON, or holds no span with a trace id
 * @throws the file system's error for an unreadable file
 */
export async function importOtel(file: string): Promise<ImportedTrajectory[]> {
  const traces = new Map<string, OtelSpan[]>();
  const notSpans: ImportedTrajectory["skipped"] = [];
  let position = 0;
  const take = (raw: Json, at: number, jsonl: boolean, service = "") => {
    const span = normaliseSpan(raw, at, jsonl, service);
    if (!span) {
      notSpans.push({
        line: at,
        reason: `${jsonl ? `line ${at}` : `element ${at} of the document`}: not a span (no trace or span id)`,
      });
      return;
    }
    const list = traces.get(span.traceId) ?? [];
    list.push(span);
    traces.set(span.traceId, list);
  };
  /** Every span of one OTLP export object. */
  const takeExport = (doc: Json, at: (i: number) => number, jsonl: boolean) => {
    for (const rs of arr(doc.resourceSpans).map(obj)) {
      const service = str(spanAttributes(obj(rs.resource).attributes)["service.name"]);
      for (const ss of arr(rs.scopeSpans ?? rs.instrumentationLibrarySpans).map(obj))
        for (const sp of arr(ss.spans).map(obj)) take(sp, at(++position), jsonl, service);
    }
  };
  const hint = "expected OTLP/JSON (resourceSpans), a JSON array of spans, or JSONL of spans";
  if (looksLikeJsonl(file)) {
    for await (const item of readJsonLines(file)) {
      if ("error" in item) notSpans.push({ line: item.line, reason: item.error });
      else if ("resourceSpans" in item.record) takeExport(item.record, () => item.line, true);
      else take(item.record, item.line, true);
    }
  } else {
    const services = new Map<number, string>();
    const root: Json = {};
    for await (const { path: p, value } of readJsonValues(
      file,
      (p) =>
        (p[0] === "resourceSpans" && p.length === 3 && p[2] === "resource") ||
        (p[0] === "resourceSpans" && p.length === 6 && p[2] === "scopeSpans" && p[4] === "spans") ||
        (p.length === 1 && p[0] !== "resourceSpans"),
      file,
      hint,
    )) {
      if (p[0] === "resourceSpans" && p[2] === "resource")
        services.set(Number(p[1]), str(spanAttributes(obj(value).attributes)["service.name"]));
      else if (p[0] === "resourceSpans") take(obj(value), ++position, false, services.get(Number(p[1])));
      else if (typeof p[0] === "number") {
        if ("resourceSpans" in obj(value)) takeExport(obj(value), (i) => i, false);
        else take(obj(value), ++position, false);
      } else root[p[0] as string] = value;
    }
    if (Object.keys(root).length) take(root, ++position, false);
  }
  if (!traces.size)
    throw new InputError(
      { file },
      "no OpenTelemetry span with a trace id",
      `${hint} (trajectory-formats.md §1.11)`,
    );
  const out = [...traces].map(([traceId, spans]) => mapTrace(file, traceId, spans));
  out[0]!.skipped.unshift(...notSpans);
  return out;
}
