import { existsSync, readFileSync, statSync } from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "./errors.ts";
import { shownPath } from "./paths.ts";
import { firstIssue } from "./validate.ts";

/**
 * Read a YAML file and validate it with a zod schema. Errors name the file (relative to the cwd), the line
 * and the dotted field of the first problem, never a stack trace.
 *
 * @param file path of the YAML file
 * @param schema zod schema of the whole document (an empty file is validated as `{}`)
 * @param hint what to do about an invalid field (e.g. "run `gauntlet schema config`")
 * @throws InputError when the file is missing, a directory, not valid YAML, or does not match the schema
 */
export function loadYamlFile<T extends z.ZodType>(file: string, schema: T, hint: string): z.output<T> {
  const shown = shownPath(file);
  if (!existsSync(file)) throw new InputError({ file: shown }, "file not found", "check the path");
  if (statSync(file).isDirectory())
    throw new InputError(
      { file: shown },
      "is a directory, not a YAML file",
      "give the path of the YAML file",
    );
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new InputError(
      { file: shown, line: lineCounter.linePos(e.pos[0]).line },
      `invalid YAML: ${e.message.split("\n")[0]!.replace(/:\s*$/, "")}`,
      "fix the YAML syntax",
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    throw new InputError(
      { file: shown },
      `cannot be read as YAML: ${(error as Error).message}`,
      "remove the YAML aliases that expand to too much data",
    );
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  const node = (issue.path.length ? doc.getIn(issue.path as (string | number)[], true) : doc.contents) as
    | {
        range?: [number, number, number];
        items?: { key?: { value?: unknown; range?: [number, number, number] } }[];
      }
    | undefined;
  // An unknown key is reported on its own line, not on the line of the mapping that holds it.
  const unknown = issue.code === "unrecognized_keys" ? (issue.keys?.[0] as string | undefined) : undefined;
  const keyNode = unknown ? node?.items?.find((p) => p.key?.value === unknown)?.key : undefined;
  const range = keyNode?.range ?? node?.range;
  const line = range ? lineCounter.linePos(range[0]).line : undefined;
  const field = [...issue.path, ...(unknown ? [unknown] : [])].join(".") || undefined;
  throw new InputError({ file: shown, line, field }, issue.message, hint);
}
