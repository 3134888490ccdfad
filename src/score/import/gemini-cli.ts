import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { exitCodeInText } from "../../agents/coding/trace-builder.ts";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { contentText } from "./content-text.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readJsonValues } from "./read-json-values.ts";
import { readRecords } from "./read-lines.ts";

/**
 * Gemini CLI session logs → standard events (trajectory-formats.md §1.5): the legacy single-document
 * `session-*.json` (`ConversationRecord` with `messages[]`) and the current append-only `session-*.jsonl`
 * (a metadata line, one `MessageRecord` per line, `$set` updates, `$rewindTo` rewinds). A `gemini` message's
 * `toolCalls[]` hold each call with its result; a shell call's exit code is read from its output text
 * ("Exit Code: N"); `$rewindTo` becomes a `control: rewind` event. The legacy format is one JSON document, so
 * it is read whole (those files are small); the JSONL form streams.
 */

const SHELL = new Set(["run_shell_command"]);
const WRITES = new Set(["write_file", "replace", "edit"]);

/** Output text of a tool call's result parts (`functionResponse.response.output`). */
function resultText(result: unknown): string {
  return arr(result)
    .map((p) => {
      const response = obj(obj(obj(p).functionResponse).response);
      return (
        str(response.output) ||
        str(response.error) ||
        (Object.keys(response).length ? JSON.stringify(response) : "")
      );
    })
    .filter(Boolean)
    .join("\n");
}

class GeminiMapper extends EventSink {
  readonly models = new Set<string>();
  sessionId: string | undefined;

  /** One `MessageRecord`. */
  message(m: Json, line?: number): void {
    const ts = Date.parse(str(m.timestamp)) || undefined;
    const base = ts ? { ts } : {};
    const type = str(m.type);
    const text = contentText(m.content);
    if (type === "user" && text.trim()) this.add({ ...base, type: "message", role: "user", text }, line);
    else if (type === "error") this.add({ ...base, type: "control", kind: "error", detail: text }, line);
    else if (type === "info" && /cancel|interrupt/i.test(text)) {
      // The CLI's "Request cancelled." right after a call cancelled while it ran is that same interrupt.
      const last = this.lastNotUsage;
      if (!(last?.type === "control" && last.kind === "interrupt"))
        this.add({ ...base, type: "control", kind: "interrupt", detail: text }, line);
    }
    if (type !== "gemini") return;
    if (str(m.model)) this.models.add(str(m.model));
    const thoughts = arr(m.thoughts)
      .map(obj)
      .map((t) => [str(t.subject), str(t.description)].filter(Boolean).join(": "))
      .filter(Boolean)
      .join("\n");
    if (thoughts)
      this.add({ ...base, type: "message", role: "assistant", text: thoughts, reasoning: true }, line);
    if (text.trim()) this.add({ ...base, type: "message", role: "assistant", text }, line);
    for (const c of arr(m.toolCalls).map(obj)) {
      const cts = Date.parse(str(c.timestamp)) || ts;
      const cbase = cts ? { ts: cts } : {};
      const callId = str(c.id);
      const name = str(c.name);
      const args = obj(c.args);
      const call = this.add({ ...cbase, type: "tool_call", callId, name, input: c.args ?? {} }, line);
      if (c.result === undefined || c.result === null) continue;
      const output = resultText(c.result) || (typeof c.resultDisplay === "string" ? c.resultDisplay : "");
      const isError = str(c.status) !== "success";
      if (SHELL.has(name))
        this.add(
          {
            ...cbase,
            type: "command",
            command: str(args.command),
            exitCode: exitCodeInText(output),
            durationMs: 0,
            stdout: output,
          },
          line,
          [call],
        );
      const result = this.add({ ...cbase, type: "tool_result", callId, output, isError }, line, [call]);
      // Cancelled: stopped by the user while it ran (an interrupt), or declined before it ran (a rejection).
      if (str(c.status) === "cancelled")
        this.add(
          {
            ...cbase,
            type: "control",
            kind: /cancelled the operation|operation cancelled/i.test(output) ? "interrupt" : "rejection",
            detail: `${name} was cancelled`,
          },
          line,
          [result],
        );
      if (WRITES.has(name) && !isError && str(args.file_path))
        this.add(
          {
            ...cbase,
            type: "file_change",
            path: str(args.file_path),
            kind: obj(c.resultDisplay).isNewFile === true ? "added" : "modified",
          },
          line,
          [result],
        );
    }
    const tokens = obj(m.tokens);
    if (Object.keys(tokens).length)
      this.add(
        {
          ...base,
          type: "usage",
          inputTokens: Number(tokens.input ?? 0),
          outputTokens: Number(tokens.output ?? 0) + Number(tokens.thoughts ?? 0),
          ...(str(m.model) ? { model: str(m.model) } : {}),
        },
        line,
      );
  }
}

/**
 * Import one Gemini CLI session log (`.json` document or `.jsonl` records).
 * @throws the file system's error for an unreadable file
 */
export async function importGeminiCli(
  file: string,
  format: string,
  onEvent?: (e: TrajectoryEvent) => void,
): Promise<ImportedTrajectory> {
  const mapper = new GeminiMapper(file);
  mapper.onEvent = onEvent;
  const skipped: ImportedTrajectory["skipped"] = [];
  let lines = 0;
  if (format === "gemini-cli-json") {
    // Streamed, one message at a time: a session of any size (hundreds of MB) is never held as one string.
    try {
      for await (const { path: p, value } of readJsonValues(
        withoutBom(createReadStream(file)),
        (p) => (p.length === 2 && p[0] === "messages") || (p.length === 1 && p[0] !== "messages"),
        file,
        "a Gemini CLI session is one JSON object with sessionId, projectHash and messages[]",
      )) {
        if (p[0] === "messages") {
          const i = p[1] as number;
          lines = i + 1;
          mapper.at = i;
          const m = obj(value);
          if (value === m) mapper.message(m);
          else skipped.push({ line: i + 1, reason: `message ${i} of messages[]: not an object` });
        } else if (p[0] === "sessionId") mapper.sessionId = str(value) || undefined;
      }
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const problem = error.message.replace(/^[^:]*:\d*:?\s*/, "");
      skipped.push({
        line: lines + 1,
        reason: `document cut off or broken after message ${lines} of messages[]: nothing after it was read (${problem})`,
      });
    }
  } else {
    const read = { lines: 0 };
    for await (const item of readRecords(file, skipped, read)) {
      const r = item.record;
      if ("$set" in r) continue;
      if ("$rewindTo" in r) {
        mapper.add({ type: "control", kind: "rewind", detail: `rewound to ${str(r.$rewindTo)}` }, item.line);
        continue;
      }
      if ("sessionId" in r && !("type" in r)) {
        mapper.sessionId ??= str(r.sessionId);
        continue;
      }
      if (["user", "gemini", "info", "error", "warning"].includes(str(r.type))) mapper.message(r, item.line);
      else skipped.push({ line: item.line, reason: `unknown record type "${str(r.type) || "(none)"}"` });
    }
    lines = read.lines;
  }
  return {
    id: mapper.sessionId ?? path.basename(file),
    format,
    file,
    agent: "gemini-cli",
    models: [...mapper.models],
    events: mapper.events,
    skipped,
    lines,
  };
}

/** A byte stream without a leading UTF-8 byte-order mark (editors on Windows write one). */
function withoutBom(input: NodeJS.ReadableStream): Readable {
  let first = true;
  return Readable.from(
    (async function* () {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) yield chunk.subarray(3);
        else yield chunk;
        first = false;
      }
    })(),
  );
}
