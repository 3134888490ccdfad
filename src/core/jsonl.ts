import { appendFileSync, existsSync, readFileSync, truncateSync } from "node:fs";
import type { z } from "zod";
import { InputError, isErrnoCode } from "./errors.ts";
import { parseWith } from "./validate.ts";

/** Options for {@link readJsonl}. */
export interface ReadJsonlOptions {
  /**
   * When the last line is malformed and the file does not end in a newline, treat it as a write torn by a
   * crash (kill -9): truncate it away and report it through `onTornLine` instead of failing. Used when
   * resuming run stores; never for user-supplied inputs.
   */
  repairTornTail?: boolean;
  onTornLine?: (line: number) => void;
}

/**
 * Read a JSONL file, validating each non-blank line with `schema`.
 *
 * @returns the parsed records, in file order
 * @throws InputError naming `file:line` (and the field) for a line that is not JSON or does not match, or
 *   naming the file when it does not exist
 */
export function readJsonl<T extends z.ZodType>(
  file: string,
  schema: T,
  options: ReadJsonlOptions = {},
): z.output<T>[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) throw new InputError({ file }, "file not found", "check the path");
    if (isErrnoCode(error, "EISDIR"))
      throw new InputError({ file }, "is a directory, not a JSONL file", "give the path of a .jsonl file");
    throw error;
  }
  const lines = text.split("\n");
  const out: z.output<T>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const isTail = i === lines.length - 1 && !text.endsWith("\n");
      if (isTail && options.repairTornTail) {
        truncateSync(file, Buffer.byteLength(text, "utf8") - Buffer.byteLength(line, "utf8"));
        options.onTornLine?.(i + 1);
        break;
      }
      throw new InputError(
        { file, line: i + 1 },
        `not valid JSON (${line.length > 60 ? `${line.slice(0, 60)}…` : line})`,
        "each line must be one JSON object; fix or delete that line",
      );
    }
    out.push(parseWith(schema, value, { file, line: i + 1 }));
  }
  return out;
}

/** Read a JSONL file if it exists, else return `[]`. Same errors as {@link readJsonl}. */
export function readJsonlIfExists<T extends z.ZodType>(
  file: string,
  schema: T,
  options?: ReadJsonlOptions,
): z.output<T>[] {
  return existsSync(file) ? readJsonl(file, schema, options) : [];
}

/**
 * Append one record as a line, synchronously, so it is on disk when this returns (a crash after it loses
 * nothing). The record is serialised first, so a serialisation error writes nothing.
 */
export function appendJsonl(file: string, record: unknown): void {
  const line = `${JSON.stringify(record)}\n`;
  appendFileSync(file, line, "utf8");
}

/** Serialise records as JSONL text (one per line, trailing newline). */
export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join("");
}
