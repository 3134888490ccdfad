import { arr, type Json, obj, str } from "../../core/json-view.ts";

/**
 * One OpenTelemetry span read from any accepted export shape (trajectory-formats.md §1.11), normalised for
 * otel.ts: OTLP/JSON spans (`{key, value}` attribute lists, hex ids, `startTimeUnixNano`), the Python SDK's
 * console spans (`context.trace_id`, `parent_id`, ISO `start_time`, flat attributes, `status.status_code`)
 * and the JS SDK's (`traceId`, `parentId` / `parentSpanContext`, `[s, ns]` or µs times, `duration`).
 */

/** A span as otel.ts reads it. */
export interface OtelSpan {
  /** Trace id, hex without `0x`. */
  traceId: string;
  /** Span id, hex without `0x`. */
  spanId: string;
  /** Parent span id, or `""` for a root span. */
  parentId: string;
  /** Span name, e.g. `execute_tool run_tests`. */
  name: string;
  /** Start, epoch ms. */
  start?: number;
  /** End, epoch ms. */
  end?: number;
  /** Attributes, flat (`gen_ai.usage.input_tokens` → 1200). */
  attrs: Json;
  /** Span events with flat attributes. */
  events: { name: string; attrs: Json }[];
  /** Why the span failed (status message, `error.type`), when its status is error or `error.type` is set. */
  error?: string;
  /** JSONL line, or 1-based position of the span in the document. */
  at: number;
  /** True when read from a JSONL file (so `at` is a line). */
  jsonl: boolean;
  /** `service.name` of the span's resource, or `""`. */
  service: string;
}

/** An OTLP `AnyValue` as plain JSON. */
function anyValue(v: unknown): unknown {
  const o = obj(v);
  if ("stringValue" in o) return o.stringValue;
  if ("intValue" in o) return Number(o.intValue);
  if ("doubleValue" in o) return Number(o.doubleValue);
  if ("boolValue" in o) return o.boolValue;
  if ("arrayValue" in o) return arr(obj(o.arrayValue).values).map(anyValue);
  if ("kvlistValue" in o) return spanAttributes(obj(o.kvlistValue).values);
  if ("bytesValue" in o) return o.bytesValue;
  return v;
}

/** Attributes as a flat object, from an OTLP `[{key, value}]` list or an SDK's plain object. */
export function spanAttributes(a: unknown): Json {
  if (!Array.isArray(a)) return obj(a);
  return Object.fromEntries(a.map(obj).map((kv) => [str(kv.key), anyValue(kv.value)]));
}

/** A time as epoch ms: OTLP nanoseconds (string or number), JS `[s, ns]` or µs, or an ISO string. */
function millis(nano: unknown, other?: unknown, micros?: unknown): number | undefined {
  if (typeof nano === "string" && /^\d+$/.test(nano)) return Number(BigInt(nano) / 1_000_000n);
  if (typeof nano === "number") return nano / 1e6;
  if (Array.isArray(other)) return Number(other[0]) * 1000 + Number(other[1]) / 1e6;
  if (typeof other === "string") return Date.parse(other) || undefined;
  if (typeof other === "number") return other;
  if (typeof micros === "number") return micros / 1000;
  return undefined;
}

/** A span record of any accepted shape, normalised; `undefined` when it has no trace or span id. */
export function normaliseSpan(raw: Json, at: number, jsonl: boolean, service: string): OtelSpan | undefined {
  const context = obj(raw.context);
  const hex = (v: unknown) => str(v).replace(/^0x/, "");
  const traceId = hex(raw.traceId) || hex(context.trace_id) || hex(raw.trace_id);
  const spanId = hex(raw.spanId) || hex(context.span_id) || hex(raw.span_id) || hex(raw.id);
  if (!traceId || !spanId) return undefined;
  const parentId =
    hex(raw.parentSpanId) ||
    hex(raw.parent_id) ||
    hex(raw.parentId) ||
    hex(obj(raw.parentSpanContext).spanId);
  const status = obj(raw.status);
  const code = status.code ?? status.status_code;
  const attrs = spanAttributes(raw.attributes);
  const isError = code === 2 || /ERROR/i.test(String(code ?? ""));
  const start = millis(raw.startTimeUnixNano, raw.start_time ?? raw.startTime, raw.timestamp);
  const end = millis(raw.endTimeUnixNano, raw.end_time ?? raw.endTime);
  const duration = Array.isArray(raw.duration)
    ? Number(raw.duration[0]) * 1000 + Number(raw.duration[1]) / 1e6
    : undefined;
  return {
    traceId,
    spanId,
    parentId,
    name: str(raw.name),
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined
      ? { end }
      : start !== undefined && duration !== undefined
        ? { end: start + duration }
        : {}),
    attrs,
    events: arr(raw.events)
      .map(obj)
      .map((e) => ({ name: str(e.name), attrs: spanAttributes(e.attributes) })),
    ...(isError || str(attrs["error.type"])
      ? { error: str(status.message) || str(status.description) || str(attrs["error.type"]) || "error" }
      : {}),
    at,
    jsonl,
    service: service || str(spanAttributes(obj(raw.resource).attributes)["service.name"]),
  };
}
