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

/**
 * Where a line `text[i, j)` goes on past the line number a reader put before it (`12:`, `  12\t`,
 * `    12→`, `12-`): the end of `^\s*\d+\s*(:|\t|→|\||-(?=\D))` in it, or `i` when it has none.
 */
function unnumbered(text: string, i: number, j: number): number {
  let k = i;
  while (k < j && isSpace(text.charCodeAt(k))) k++;
  let d = k;
  while (d < j && isDigit(text.charCodeAt(d))) d++;
  if (d === k) return i;
  let w = d;
  while (w < j && isSpace(text.charCodeAt(w))) w++;
  if (w < j) {
    const c = text.charCodeAt(w);
    if (c === 58 || c === 9 || c === 0x2192 || c === 124) return w + 1;
    if (c === 45 && w + 1 < j && !isDigit(text.charCodeAt(w + 1))) return w + 1;
  }
  // Backtracking: a tab among the spaces after the number is the separator (the last one).
  for (let t = w - 1; t >= d; t--) if (text.charCodeAt(t) === 9) return t + 1;
  return i;
}

/**
 * The hashes ({@link textHash}) of a text's lines (`split("\n")`) trimmed, the empty ones left out, in
 * order; with `numbered`, each line's line number ({@link unnumbered}) left out too. One pass.
 */
export function lineHashes(text: string, numbered = false): number[] {
  const out: number[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let i = numbered ? unnumbered(text, start, end) : start;
    let j = end;
    while (i < j && isSpace(text.charCodeAt(i))) i++;
    while (j > i && isSpace(text.charCodeAt(j - 1))) j--;
    if (j > i) out.push(textHash(text, i, j));
    start = end + 1;
  }
  return out;
}

/**
 * What a look shows (`shown`: {@link lineHashes} of its output, `numbered`) was in a whole read that showed
 * `whole` (its {@link lineSet}): ≥ 90% of its non-empty lines, line numbers aside (a file an unrecognised
 * command rewrote in between shows new lines, so the re-read is not a repeat).
 */
export function shownIn(whole: Float64Array, shown: readonly number[]): boolean {
  return shown.length > 0 && hits(whole, shown) / shown.length >= 0.9;
}

/**
 * A 52-bit hash of `text[from, to)`: two 32-bit FNV-1a hashes (different bases and multipliers, each
 * finished with an avalanche), the first whole and the second's top 20 bits. Two distinct texts share one
 * with probability about 2⁻⁵², so equality of hashes stands for equality of texts.
 */
export function textHash(text: string, from = 0, to = text.length): number {
  let a = 0x811c9dc5;
  let b = 0x3b9f5c27;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return Fnv.of(a, b);
}

/** {@link textHash} of a text given piece by piece (the same value as of the pieces joined). */
export class Fnv {
  private a = 0x811c9dc5;
  private b = 0x3b9f5c27;

  char(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
  }

  range(text: string, from: number, to: number): void {
    let a = this.a;
    let b = this.b;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.a = a;
    this.b = b;
  }

  value(): number {
    return Fnv.of(this.a, this.b);
  }

  /** The hash of the two FNV-1a states `a` and `b` ({@link textHash}). */
  static of(a: number, b: number): number {
    return (mix(a) >>> 0) * 0x100000 + (mix(b) >>> 12);
  }
}

function mix(h: number): number {
  const x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  const y = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return y ^ (y >>> 16);
}

/** A whitespace character as `\s` and `trim()` know them. */
export function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** An ASCII digit (`\d`). */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Hashes sorted and distinct: a set to look up by {@link hits}. */
export function lineSet(hashes: readonly number[]): Float64Array {
  const sorted = Float64Array.from(hashes).sort();
  let n = 0;
  for (let k = 0; k < sorted.length; k++)
    if (k === 0 || sorted[k] !== sorted[n - 1]) sorted[n++] = sorted[k] as number;
  return sorted.slice(0, n);
}

/** How many of `hashes` (repeats counted) are in `set` ({@link lineSet}). Binary search: O(h log s). */
export function hits(set: Float64Array, hashes: readonly number[]): number {
  let found = 0;
  for (const h of hashes) {
    let lo = 0;
    let hi = set.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((set[mid] as number) < h) lo = mid + 1;
      else hi = mid;
    }
    if (lo < set.length && set[lo] === h) found++;
  }
  return found;
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
