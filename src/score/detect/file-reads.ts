import { unquoted } from "./commands.ts";
import type { CallView } from "./view.ts";

/**
 * What a read-only call looks at and what it shows (Duplicate Step, ProcCtrlBench App. A.2): the files it
 * names, whether it showed a whole file, and whether a later look shows anything a whole read did not.
 */

/** The files a read-only call looks at, when it names only files: a read tool's paths, an inspecting command's file operands. */
export function readTargets(c: CallView): string[] | undefined {
  let paths: string[];
  if (c.kind === "read") paths = c.paths;
  else if (c.kind === "shell" && c.commandKind === "inspect")
    paths = [
      ...operands(c).matchAll(
        /(?:^|\s)((?:\/|~\/)?(?:(?:[\w.()[\]@+-]+|<\w+>)\/)*[\w-]+\.[A-Za-z]\w{0,5})(?=\s|$|[|;&)])/g,
      ),
    ].map((x) => x[1]!);
  else return undefined;
  const files = paths.filter((p) => /\.[A-Za-z]\w{0,5}$/.test(p));
  return files.length && files.length === paths.length ? [...new Set(files)] : undefined;
}

/**
 * A shell call's command line as its operands read: a leading `cd <dir> &&` dropped, quotes and backslash
 * escapes removed (`'app/(protected)/x.ts'` and `app/\(protected\)/x.ts` are the same path).
 */
export function operands(c: CallView): string {
  return unquoted(c.commandText.trim().replace(/^(cd\s+\S+\s*&&\s*)+/, ""));
}

/** The one file a read-only call looks at (a read tool's file, an inspecting command's one file operand). */
export function singleFile(c: CallView): string | undefined {
  const files = readTargets(c);
  return files?.length === 1 ? files[0] : undefined;
}

/** A line without the line number a reader put before it (`12:`, `  12\t`, `    12→`, `12-`). */
function unnumbered(line: string): string {
  return line.replace(/^\s*\d+\s*(:|\t|→|\||-(?=\D))\s?/, "").trim();
}

/**
 * What `b` shows was in the whole read `a`: ≥ 90% of its non-empty lines, line numbers aside (a file an
 * unrecognised command rewrote in between shows new lines, so the re-read is not a repeat).
 */
export function shownIn(a: CallView, b: CallView): boolean {
  if (!a.result || !b.result) return false;
  const lines = (t: string) => t.split("\n").map(unnumbered).filter(Boolean);
  const whole = new Set(lines(a.result.output));
  const shown = lines(b.result.output);
  return shown.length > 0 && shown.filter((l) => whole.has(l)).length / shown.length >= 0.9;
}

/** Input keys that make a read tool read part of a file. */
const RANGE_KEYS = [
  "offset",
  "limit",
  "view_range",
  "start_line",
  "end_line",
  "line",
  "lines",
  "range",
  "pages",
];

/**
 * The call read a whole file and its result shows it whole: a read tool without a range, or `cat` / `nl` of
 * one file; a result that says it was cut (or is as long as read tools cut at, 2,000 lines) is not whole.
 */
export function isFullRead(c: CallView): boolean {
  if (!c.result || c.failed) return false;
  const output = c.result.output;
  if (/\btruncated\b|exceeds (the )?maximum|\[\d+ more (lines|characters)\]|…\[/i.test(output)) return false;
  const lines = output.replace(/\n$/, "").split("\n", 2001).length;
  // A read from the first line that returned fewer lines than it asked for showed the whole file.
  const asked = firstLines(c);
  if (asked !== undefined) return lines < asked;
  if (c.kind === "read") {
    const input = (c.call.input ?? {}) as Record<string, unknown>;
    if (RANGE_KEYS.some((k) => input[k] !== undefined && input[k] !== null)) return false;
  } else if (!/^(cat|nl(\s+-\w+)*)\s+[^|;&<>]+$/.test(operands(c))) return false;
  return lines <= 2000;
}

/** How many lines a read from the file's first line asked for (`sed -n '1,200p' f`, `head -n 50 f`, a read tool's `limit` from offset 0 or 1), or undefined. */
function firstLines(c: CallView): number | undefined {
  if (c.kind === "read") {
    const input = (c.call.input ?? {}) as Record<string, unknown>;
    const offset = Number(input.offset ?? input.start_line ?? 1);
    const limit = Number(input.limit);
    return Number.isFinite(limit) && limit > 0 && offset <= 1 ? limit : undefined;
  }
  const m =
    /^sed\s+-n\s+1,(\d+)p\s+[^|;&<>]+$/.exec(operands(c)) ??
    /^head\s+(?:-n\s*|-)(\d+)\s+[^|;&<>]+$/.exec(operands(c));
  return m ? Number(m[1]) : undefined;
}
