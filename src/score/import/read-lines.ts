import { createReadStream } from "node:fs";

/** One line of a JSONL file: its 1-based number and the decoded record, or why it could not be decoded. */
export type JsonLine = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/**
 * Longest line read (bytes): longer ones are reported as unreadable and skipped, not held. Node cannot hold
 * a string much over 512 MB at all; no real log record comes near this.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * Stream a JSONL file line by line (memory does not grow with the file): blank lines are skipped, a line
 * that is not a JSON object — or is longer than {@link MAX_LINE_BYTES} — is yielded as an error naming why,
 * never dropped silently (`maxLineBytes` is there for tests). Lines are split on `\n` (a trailing `\r` is dropped) in the raw bytes, so a
 * multi-byte character is never cut; a byte-order mark on the first line is ignored.
 * @throws the stream's error (e.g. ENOENT) on the first read
 */
export async function* readJsonLines(file: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<JsonLine> {
  let n = 0;
  let parts: Buffer[] = [];
  let pending = 0; // bytes in `parts`
  let tooLong = false; // the current line passed MAX_LINE_BYTES: skip to its end
  const decode = (text: string): JsonLine | undefined => {
    n++;
    if (n === 1) text = text.replace(/^\uFEFF/, "");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (!text.trim()) return undefined;
    try {
      const record = JSON.parse(text) as unknown;
      if (record && typeof record === "object" && !Array.isArray(record))
        return { line: n, record: record as Record<string, unknown> };
      return { line: n, error: "not a JSON object" };
    } catch (error) {
      // The parser quotes the line: control bytes in it are shown escaped, never written raw to a report.
      const message = (error as Error).message.split("\n")[0] ?? "";
      return {
        line: n,
        error: `not JSON (${escapeControls(message)})`,
      };
    }
  };
  const finish = (tail: Buffer): JsonLine | undefined => {
    if (pending + tail.length > maxLineBytes) tooLong = true;
    if (tooLong) {
      parts = [];
      pending = 0;
      tooLong = false;
      n++;
      return { line: n, error: `longer than ${maxLineBytes} bytes: not read` };
    }
    const bytes = parts.length ? Buffer.concat([...parts, tail]) : tail;
    parts = [];
    pending = 0;
    return decode(bytes.toString("utf8"));
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const item = finish(chunk.subarray(start, nl));
      if (item) yield item;
      start = nl + 1;
    }
    if (start < chunk.length && !tooLong) {
      const rest = chunk.subarray(start);
      pending += rest.length;
      if (pending > maxLineBytes) {
        tooLong = true;
        parts = [];
        pending = 0;
      } else parts.push(Buffer.from(rest)); // a copy, so the rest of the chunk can be freed
    }
  }
  if (pending || tooLong) {
    const item = finish(Buffer.alloc(0));
    if (item) yield item;
  }
}

/**
 * The JSON-object records of a JSONL file, for importers: a line that cannot be read is added to
 * `skipped` (its number and why) instead of being yielded, and `read.lines` follows the number of the
 * last line read, readable or not.
 */
export async function* readRecords(
  file: string,
  skipped: { line: number; reason: string }[],
  read: { lines: number } = { lines: 0 },
): AsyncGenerator<{ line: number; record: Record<string, unknown> }> {
  for await (const item of readJsonLines(file)) {
    read.lines = item.line;
    if ("error" in item) skipped.push({ line: item.line, reason: item.error });
    else yield item;
  }
}

/** `text` with control characters other than tab, newline and carriage return written as `\uXXXX`. */
export function escapeControls(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    const control = (c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127;
    out += control ? `\\u${c.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}
