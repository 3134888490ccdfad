import { readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { SourceFunction } from "./types.ts";

/**
 * Reading V8's own coverage (`NODE_V8_COVERAGE=<dir>`): which production functions a run entered and how
 * often. The contexts stage's fallback when probes cannot be used: sets and counts, no order. Offsets are
 * UTF-16 indexes into the file as loaded; CommonJS modules are compiled without a wrapper and ES modules
 * as they are, so they match Babel's offsets of the file on disk (checked on minimist). Only valid for code
 * Node loads untransformed (node:test, tape, mocha), not jest's or vitest's transformed modules.
 */

/** A function a run entered, with its V8 call count (summed over processes). */
export interface CoveredFunction {
  fn: SourceFunction;
  calls: number;
}

/** The `functions[]` entries of V8's coverage JSON that we read. */
interface V8Function {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}

/**
 * Functions of `tables` entered in the run that wrote `coverageDir`.
 *
 * A V8 function matches the Babel function with the same range; else the nearest one with the same end
 * that starts before it (Babel's class members start at `static`, V8's at the name); else one with the same
 * start. V8's own entries for
 * a module's top level and class field initialisers match nothing and are dropped.
 * @param root the folder the run's files were loaded from (its copy of the project)
 * @param tables project-relative path → that file's function table (from `listFunctions`)
 * @returns entered functions, by file then start offset; [] when the folder is missing
 */
export function readV8Coverage(
  coverageDir: string,
  root: string,
  tables: ReadonlyMap<string, readonly SourceFunction[]>,
): CoveredFunction[] {
  let names: string[];
  try {
    names = readdirSync(coverageDir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const prefix = `${pathToFileURL(realpathSync(root)).href}/`;
  const calls = new Map<SourceFunction, number>();
  for (const name of names) {
    let report: { result?: { url: string; functions: V8Function[] }[] };
    try {
      report = JSON.parse(readFileSync(path.join(coverageDir, name), "utf8"));
    } catch {
      continue; // A process killed while writing.
    }
    for (const script of report.result ?? []) {
      if (!script.url.startsWith(prefix)) continue;
      const table = tables.get(decodeURIComponent(script.url.slice(prefix.length)));
      if (table === undefined) continue;
      for (const f of script.functions) {
        const range = f.ranges[0];
        if (range === undefined || range.count <= 0) continue;
        const fn = matchFunction(table, range.startOffset, range.endOffset);
        if (fn !== undefined) calls.set(fn, (calls.get(fn) ?? 0) + range.count);
      }
    }
  }
  return [...calls]
    .map(([fn, n]) => ({ fn, calls: n }))
    .sort((a, b) => a.fn.file.localeCompare(b.fn.file) || a.fn.start - b.fn.start);
}

function matchFunction(
  table: readonly SourceFunction[],
  start: number,
  end: number,
): SourceFunction | undefined {
  const exact = table.find((f) => f.start === start && f.end === end);
  if (exact !== undefined) return exact;
  let best: SourceFunction | undefined;
  for (const f of table) if (f.end === end && f.start < start && (!best || f.start > best.start)) best = f;
  return best ?? table.find((f) => f.start === start);
}
