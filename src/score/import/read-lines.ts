import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { InputError } from "../../core/errors.ts";

/** One line of a JSONL file: its 1-based number and the decoded record, or why it could not be decoded. */
export type JsonLine = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/**
 * Stream a JSONL file line by line (memory does not grow with the file): blank lines are skipped, a line
 * that is not a JSON object is yielded as an error naming why, never dropped silently.
 * @throws the stream's error (e.g. ENOENT) on the first read; InputError for a line too long to hold
 */
export async function* readJsonLines(file: string): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      if (!text.trim()) continue;
      try {
        const record = JSON.parse(n === 1 ? text.replace(/^\uFEFF/, "") : text) as unknown;
        if (record && typeof record === "object" && !Array.isArray(record))
          yield { line: n, record: record as Record<string, unknown> };
        else yield { line: n, error: "not a JSON object" };
      } catch (error) {
        yield { line: n, error: `not JSON (${(error as Error).message.split("\n")[0]})` };
      }
    }
  } catch (error) {
    // Node cannot hold a string over ~512 MB: a line that long ends the read with a RangeError.
    if (error instanceof RangeError)
      throw new InputError(
        { file, line: n + 1 },
        "a line is too long to read (Node holds at most ~512 MB in one string)",
        "split the log, or drop the oversized record",
      );
    throw error;
  }
}
