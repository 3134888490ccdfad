import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { Assembler } from "stream-json/assembler.js";
import { parser, type Token } from "stream-json/parser.js";
import { InputError } from "../../core/errors.ts";

/** Where a value sits in a JSON document: object keys and array indices from the root (`[]` is the root). */
export type JsonPath = readonly (string | number)[];

/** A value picked out of a JSON document while it streams, with its path. */
export interface PickedValue {
  path: JsonPath;
  value: unknown;
}

const VALUE_START = new Set([
  "startObject",
  "startArray",
  "stringValue",
  "numberValue",
  "nullValue",
  "trueValue",
  "falseValue",
]);

/**
 * Stream one JSON document and yield, in document order, each value whose path `pick` accepts, built whole;
 * everything else is only tokenised, never held. Memory is bounded by the largest picked value, not by the
 * document: pick the elements of a large array (`["steps", n]`), not the array. A picked value's inside is
 * not offered to `pick` again.
 * @param source a file path, or a readable byte stream (e.g. one zip entry)
 * @param name how to name the document in an error (defaults to `source` when it is a path)
 * @param hint what to tell the user when the document is not valid JSON
 * @throws InputError naming the document when it is not valid JSON (e.g. cut short while still being written)
 * @throws the file system's error for an unreadable file
 */
export async function* readJsonValues(
  source: string | Readable,
  pick: (path: JsonPath) => boolean,
  name = typeof source === "string" ? source : "(stream)",
  hint = "check that the file is one complete JSON document",
): AsyncGenerator<PickedValue> {
  const input = typeof source === "string" ? createReadStream(source) : source;
  const tokens = parser.asStream({ streamValues: false });
  input.on("error", (error: Error) => tokens.destroy(error));
  // Path of the value about to start: an object frame holds its current key, an array frame its last index.
  const frames: { array: boolean; key: string | number }[] = [];
  let assembling: { asm: Assembler; path: JsonPath } | undefined;
  try {
    for await (const token of input.pipe(tokens) as AsyncIterable<Token>) {
      if (assembling) {
        assembling.asm.consume(token);
        if (assembling.asm.done) {
          yield { path: assembling.path, value: assembling.asm.current };
          assembling = undefined;
        }
        continue;
      }
      const top = frames.at(-1);
      if (token.name === "keyValue") {
        if (top) top.key = token.value;
      } else if (VALUE_START.has(token.name)) {
        if (top?.array) top.key = (top.key as number) + 1;
        const path = frames.map((f) => f.key);
        if (pick(path)) {
          const asm = new Assembler();
          asm.consume(token);
          if (asm.done) yield { path, value: asm.current };
          else assembling = { asm, path };
        } else if (token.name === "startObject") frames.push({ array: false, key: "" });
        else if (token.name === "startArray") frames.push({ array: true, key: -1 });
      } else if (token.name === "endObject" || token.name === "endArray") frames.pop();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error;
    throw new InputError(
      { file: name },
      `not valid JSON (${(error as Error).message.split("\n")[0]})`,
      hint,
      {
        cause: error,
      },
    );
  } finally {
    // Also when the caller stops early: close the file.
    tokens.destroy();
    input.destroy();
  }
  if (assembling || frames.length)
    throw new InputError({ file: name }, "not valid JSON (the document ends before it is closed)", hint);
}
