import type { ToolResultEvent } from "../../core/trajectory.ts";
import { Fnv, isDigit, isSpace, lineHashes, lineSet } from "./file-reads.ts";

/**
 * Duplicate Step's view of tool outputs (ProcCtrlBench App. A.2 "same result"), computed in one pass per
 * output instead of kept: a hash of the output with what differs between identical runs masked
 * (timestamps, durations, long hex ids, whitespace), and hashes of its lines (line numbers aside), for the
 * last few results asked about.
 */
/** An ASCII word character (`\w`): a digit, a letter, `_`. */
function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** A lower-case hex digit. */
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}

/** `text[i, i + n)` are all digits. */
function digits(text: string, i: number, n: number): boolean {
  for (let k = i; k < i + n; k++) if (!isDigit(text.charCodeAt(k))) return false;
  return i + n <= text.length;
}

/**
 * The end of a timestamp (`\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?`) starting at
 * `p`, or -1.
 */
function timeAt(text: string, p: number): number {
  if (!digits(text, p, 4) || text.charCodeAt(p + 4) !== 45 || !digits(text, p + 5, 2)) return -1;
  if (text.charCodeAt(p + 7) !== 45 || !digits(text, p + 8, 2)) return -1;
  const t = text.charCodeAt(p + 10);
  if ((t !== 84 && t !== 32) || !digits(text, p + 11, 2) || text.charCodeAt(p + 13) !== 58) return -1;
  if (!digits(text, p + 14, 2)) return -1;
  let end = p + 16;
  if (text.charCodeAt(end) === 58 && digits(text, end + 1, 2)) {
    end += 3;
    if (text.charCodeAt(end) === 46 && isDigit(text.charCodeAt(end + 1))) {
      end += 2;
      while (isDigit(text.charCodeAt(end))) end++;
    }
  }
  const z = text.charCodeAt(end);
  if (z === 90) return end + 1;
  if ((z === 43 || z === 45) && digits(text, end + 1, 2)) {
    const colon = text.charCodeAt(end + 3) === 58 ? 1 : 0;
    if (colon && digits(text, end + 4, 2)) return end + 6;
    if (digits(text, end + 3, 2)) return end + 5;
  }
  return end;
}

/** `text` with its timestamps replaced by `<time>` (the text itself when it has none). */
function timesMasked(text: string): string {
  let out: string[] | undefined;
  let from = 0;
  let q = text.indexOf("-", 4);
  while (q >= 0) {
    const p = q - 4;
    const end = p >= from ? timeAt(text, p) : -1;
    if (end < 0) {
      q = text.indexOf("-", q + 1);
      continue;
    }
    out ??= [];
    out.push(text.slice(from, p), "<time>");
    from = end;
    q = text.indexOf("-", end + 4);
  }
  if (!out) return text;
  out.push(text.slice(from));
  return out.join("");
}

/**
 * The end of a duration (`\b\d+(\.\d+)?\s*(ms|s|sec|secs|seconds|m|min)\b`) starting at the word start `i`
 * (a digit), or -1.
 */
function durationAt(text: string, i: number): number {
  let j = i;
  while (isDigit(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
    j += 2;
    while (isDigit(text.charCodeAt(j))) j++;
  }
  while (j < text.length && isSpace(text.charCodeAt(j))) j++;
  let end = j;
  while (end < text.length && isWord(text.charCodeAt(end))) end++;
  return isUnit(text, j, end) ? end : -1;
}

/** `text[i, j)` is one of `ms`, `s`, `sec`, `secs`, `seconds`, `m`, `min`. */
function isUnit(text: string, i: number, j: number): boolean {
  const n = j - i;
  const c = text.charCodeAt(i);
  if (c === 109)
    return n === 1 || (n === 2 && text.charCodeAt(i + 1) === 115) || (n === 3 && text.startsWith("min", i));
  if (c !== 115) return false;
  return (
    n === 1 ||
    (n === 3 && text.startsWith("sec", i)) ||
    (n === 4 && text.startsWith("secs", i)) ||
    (n === 7 && text.startsWith("seconds", i))
  );
}

/**
 * The hash of an output with what differs between identical runs masked — what
 * `text.replace(TIME, "<time>").replace(DURATION, "<dur>").replace(HEX, "<hex>").replace(/\s+/g, " ").trim()`
 * gives for timestamps (`\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?`), durations
 * (`\b\d+(\.\d+)?\s*(ms|s|sec|secs|seconds|m|min)\b`) and long hex ids (`\b[0-9a-f]{8,}\b`) — in one pass
 * over the words after timestamps are masked ({@link timesMasked}): a duration starts at a word that starts
 * with a digit, and a hex id is a whole word of hex digits, so each word is looked at once.
 */
export function normalisedHash(output: string): number {
  const text = timesMasked(output);
  const n = text.length;
  let a = 0x811c9dc5;
  let b = 0x3b9f5c27;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  while (i < n) {
    let c = text.charCodeAt(i);
    let kind = classOf(c);
    if (kind & SPACE) {
      // A whitespace run: one space, none at the end.
      do {
        if (++i >= n) return Fnv.of(a, b);
        c = text.charCodeAt(i);
        kind = classOf(c);
      } while (kind & SPACE);
      a = Math.imul(a ^ 32, 0x01000193);
      b = Math.imul(b ^ 32, 0x5bd1e995);
    }
    if (!(kind & WORD)) {
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      i++;
      continue;
    }
    // A word (words are taken whole, so this is where one starts).
    let mask = "";
    if (kind & DIGIT) {
      const end = durationAt(text, i);
      if (end >= 0) {
        mask = "<dur>";
        i = end;
      }
    }
    if (!mask) {
      const start = i;
      let wa = a;
      let wb = b;
      do {
        wa = Math.imul(wa ^ c, 0x01000193);
        wb = Math.imul(wb ^ c, 0x5bd1e995);
        if (++i >= n) break;
        c = text.charCodeAt(i);
      } while (classOf(c) & WORD);
      if (i - start < 8 || !allHex(text, start, i)) {
        a = wa;
        b = wb;
        continue;
      }
      mask = "<hex>";
    }
    for (let k = 0; k < mask.length; k++) {
      a = Math.imul(a ^ mask.charCodeAt(k), 0x01000193);
      b = Math.imul(b ^ mask.charCodeAt(k), 0x5bd1e995);
    }
  }
  return Fnv.of(a, b);
}

/** The class bits of a character ({@link CHAR}; beyond ASCII only whitespace has any). */
function classOf(c: number): number {
  return c < 128 ? (CHAR[c] as number) : isSpace(c) ? SPACE : 0;
}

/** `text[i, j)` is all lower-case hex digits. */
function allHex(text: string, i: number, j: number): boolean {
  for (let k = i; k < j; k++) if (!(classOf(text.charCodeAt(k)) & HEX)) return false;
  return true;
}

/** Character classes of ASCII codes for {@link normalisedHash}. */
const WORD = 1;
const DIGIT = 2;
const HEX = 4;
const SPACE = 8;
const CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  CHAR[c] =
    (isWord(c) ? WORD : 0) | (isDigit(c) ? DIGIT : 0) | (isHex(c) ? HEX : 0) | (isSpace(c) ? SPACE : 0);

/** What is computed of a result's output, kept for the last few results asked about. */
interface Hashed {
  r: ToolResultEvent;
  output?: number;
  lines?: number[];
  set?: Float64Array;
  numbered?: number[];
  shown?: Float64Array;
}

/**
 * The last few results asked about, with what was computed of them: Dead Step's own Duplicate Step machine
 * reads the same stream and asks about the same result right after (so each output is read once).
 */
const recent: Hashed[] = [];

function remembered(r: ToolResultEvent): Hashed {
  let found = recent.find((x) => x.r === r);
  if (!found) {
    found = { r };
    recent.unshift(found);
    if (recent.length > 4) recent.pop();
  }
  return found;
}

/** {@link normalisedHash} of a result's output. */
export function outputHash(r: ToolResultEvent): number {
  const found = remembered(r);
  found.output ??= normalisedHash(r.output);
  return found.output;
}

/** {@link lineHashes} of a result's output: its trimmed non-empty lines. */
export function outputLines(r: ToolResultEvent): number[] {
  const found = remembered(r);
  found.lines ??= lineHashes(r.output);
  return found.lines;
}

/** {@link lineSet} of {@link outputLines}. */
export function outputSet(r: ToolResultEvent): Float64Array {
  const found = remembered(r);
  found.set ??= lineSet(outputLines(r));
  return found.set;
}

/** {@link lineHashes} of a result's output, line numbers aside. */
export function numberedLines(r: ToolResultEvent): number[] {
  const found = remembered(r);
  found.numbered ??= lineHashes(r.output, true);
  return found.numbered;
}

/** What a whole read showed: {@link lineSet} of {@link numberedLines}. */
export function shownSet(r: ToolResultEvent): Float64Array {
  const found = remembered(r);
  found.shown ??= lineSet(numberedLines(r));
  return found.shown;
}
