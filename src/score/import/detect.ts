import { closeSync, openSync, readSync } from "node:fs";
import { InputError } from "../../core/errors.ts";
import { obj, str } from "../../core/json-view.ts";
import { looksLikeOutcomeReport } from "./outcome-labels.ts";

/**
 * Which log format a file is (score suite import), from its first lines: read at most 16 MiB, so detection
 * costs the same for any file size.
 */

/** Formats the importers read so far. */
export const FORMATS = [
  "claude-code-jsonl",
  "claude-code-stream-json",
  "codex-rollout",
  "codex-exec-json",
  "gemini-cli-json",
  "gemini-cli-jsonl",
  // Agent-harness formats (OpenHands, SWE-agent, mini-swe-agent).
  "openhands-events",
  "swe-agent-traj",
  "mini-swe-agent",
  // Interchange formats (ATIF, Inspect, OpenTelemetry, Gauntlet runs).
  "atif",
  "inspect-json",
  "inspect-eval",
  "otel-json",
  "gauntlet-results",
] as const;
export type TrajectoryFormat = (typeof FORMATS)[number];

/** Bytes read at a time while looking for the first records. */
const HEAD_CHUNK = 64 * 1024;
/** At most this much is read to find them: a first record of long instructions can be megabytes. */
export const HEAD_MAX_BYTES = 16 * 1024 * 1024;
/** Complete lines wanted before detection stops reading. */
const HEAD_LINES = 20;

/**
 * The first complete lines of a file that parse as JSON objects (at most `max`), and the text read: chunks
 * of 64 KiB until {@link HEAD_LINES} complete lines are in, the file ends, or {@link HEAD_MAX_BYTES} are read
 * (a Codex or Claude log whose first record holds long instructions is still recognised).
 */
function headRecords(file: string, max = 500): { records: Record<string, unknown>[]; text: string } {
  const fd = openSync(file, "r");
  const chunks: Buffer[] = [];
  let total = 0;
  let lines = 0;
  let ended = false;
  try {
    while (total < HEAD_MAX_BYTES && lines < HEAD_LINES) {
      const chunk = Buffer.alloc(Math.min(HEAD_CHUNK, HEAD_MAX_BYTES - total));
      const n = readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) {
        ended = true;
        break;
      }
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      for (let i = 0; i < n; i++) if (chunk[i] === 10) lines++;
      if (n < chunk.length) {
        ended = true;
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
  const n = total;
  const text = Buffer.concat(chunks, total)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const all = text.split("\n");
  if (!ended && n > 0) all.pop(); // the last line may be cut
  const out: Record<string, unknown>[] = [];
  for (const line of all) {
    if (out.length >= max) break;
    try {
      const v = JSON.parse(line) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // Not a JSONL line: other formats are checked below.
    }
  }
  return { records: out, text };
}

/**
 * Detect a file's format.
 * @throws InputError naming the file when no importer recognises it
 */
export function detectFormat(file: string): TrajectoryFormat {
  const { records, text } = headRecords(file);
  if (!text.trim())
    throw new InputError(
      { file },
      "the file is empty (nothing but whitespace): no trajectory to read",
      "check the agent finished writing its log, or leave the file out",
    );
  const has = (pred: (r: Record<string, unknown>) => boolean) => records.some(pred);
  // Agent-harness formats (OpenHands, SWE-agent, mini-swe-agent) are checked here.
  if (looksLikeOutcomeReport(text))
    throw new InputError(
      { file },
      "is a SWE-bench evaluation report (an outcome label), not a trajectory",
      "load reports as outcome labels (loadOutcomeLabels); skip them when importing trajectories",
    );
  if (
    /^\s*\[/.test(text) &&
    /"source"\s*:\s*"(?:user|agent|environment)"/.test(text) &&
    (/"(?:action|observation)"\s*:\s*"\w+"/.test(text) ||
      /"(?:system_prompt|llm_message|tool_call_id|action_id)"\s*:/.test(text))
  )
    return "openhands-events";
  // OpenHands V1 events one per line (the SDK's event log).
  if (
    has(
      (r) =>
        typeof r.kind === "string" &&
        /^(ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent|ConversationStateUpdateEvent|AgentErrorEvent|Condensation|PauseEvent|UserRejectObservation)$/.test(
          r.kind,
        ) &&
        ["user", "agent", "environment"].includes(str(r.source)),
    )
  )
    return "openhands-events";
  if (
    /^\s*\{/.test(text) &&
    ((/"trajectory"\s*:\s*\[/.test(text) &&
      /"(?:action|observation|thought|response|query)"\s*:/.test(text)) ||
      (/"history"\s*:\s*\[/.test(text) && /"message_type"\s*:/.test(text)))
  )
    return "swe-agent-traj";
  if (
    // The document's first key is one a mini-swe-agent trajectory starts with (a manifest that merely
    // mentions mini-swe-agent runs further in is not one).
    /^\s*\{\s*"(?:info|messages|trajectory_format)"\s*:/.test(text) &&
    (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(text) || /"mini_version"\s*:/.test(text))
  )
    return "mini-swe-agent";
  // mini-swe-agent's bare `messages` array: its system prompt asks for one fenced bash block per reply.
  if (
    /^\s*\[\s*\{\s*"role"\s*:\s*"system"/.test(text) &&
    /(exactly|only) ONE bash code block|```bash\\n|THOUGHT/.test(text)
  )
    return "mini-swe-agent";
  // Interchange formats (ATIF, Inspect, OpenTelemetry, Gauntlet runs) are checked here.
  if (/^\s*\{/.test(text) && /"schema_version"\s*:\s*"ATIF-/.test(text)) return "atif";
  if (text.startsWith("PK\u0003\u0004") && /(?:header|_journal\/start|samples\/[^/]+)\.json/.test(text))
    return "inspect-eval";
  if (/^\s*\{/.test(text) && /"eval"\s*:\s*\{/.test(text) && /"task_id"\s*:/.test(text))
    return "inspect-json";
  if (
    /^\s*[[{]/.test(text) &&
    (/"resourceSpans"\s*:/.test(text) ||
      (/"gen_ai\.[a-z_.]+"/.test(text) && /"(?:traceId|trace_id|spanId|span_id)"\s*:/.test(text)))
  )
    return "otel-json";
  if (
    has((r) => "caseId" in r && "agent" in r && Array.isArray(r.steps)) ||
    (/^\s*\{/.test(text) && /"caseId"\s*:/.test(text) && /"stepId"\s*:/.test(text))
  )
    return "gauntlet-results";
  // The JSONL form's first record is the session's metadata; a one-line document (minified JSON) that
  // parses whole carries its `messages` array and is the JSON form.
  if (has((r) => "sessionId" in r && "projectHash" in r && !("type" in r) && !Array.isArray(r.messages)))
    return "gemini-cli-jsonl";
  if (
    /^\s*\{/.test(text) &&
    /"sessionId"\s*:/.test(text) &&
    /"projectHash"\s*:/.test(text) &&
    /"messages"\s*:/.test(text)
  )
    return "gemini-cli-json";
  if (
    has(
      (r) =>
        r.type === "session_meta" ||
        ((r.type === "response_item" || r.type === "turn_context") && "payload" in r),
    )
  )
    return "codex-rollout";
  if (
    has((r) => r.type === "thread.started" || str(r.type).startsWith("item.")) &&
    has((r) => r.type === "thread.started")
  )
    return "codex-exec-json";
  if (has((r) => r.type === "system" && r.subtype === "init" && ("claude_code_version" in r || "tools" in r)))
    return "claude-code-stream-json";
  if (
    has((r) => ["user", "assistant"].includes(str(r.type)) && "sessionId" in r && "uuid" in r) ||
    has((r) => r.type === "file-history-snapshot" || r.type === "queue-operation")
  )
    return "claude-code-jsonl";
  if (
    has(
      (r) => ["assistant", "user"].includes(str(r.type)) && "session_id" in r && Boolean(obj(r.message).role),
    )
  )
    return "claude-code-stream-json";
  throw new InputError(
    { file },
    "not a trajectory format Gauntlet knows",
    `supported so far: ${FORMATS.join(", ")}; name one with --format if detection is wrong`,
  );
}
