import { inputText, STOP, scanWordSpans, tokenParts } from "./tokens.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * The distinctive terms of one trajectory's texts, hashed (ProcCtrlBench §3.2 "similarity" features): each
 * text is scanned once ({@link scanWordSpans}, at most `MAX_SCAN` characters) into the hashes of its
 * distinct terms (lower-cased words, as `distinctiveTokens` gives them) in order of first occurrence, and
 * every detector that measures influence between events (Dead Step, Ghost Context, Oversized Rules)
 * compares those. (Scans are not kept between detectors: on a large log, holding every text's terms costs
 * more memory than scanning again costs time.) A term is a 30-bit FNV-1a hash computed from the text's
 * characters, so no string is cut or kept per word: memory follows the number of texts, not the
 * vocabulary (a log full of generated identifiers has millions of distinct words). Two distinct terms
 * share a hash with probability 2⁻³⁰ per pair: a term can rarely count as seen or used through another.
 */
export interface Terms {
  /** Term hashes, distinct, in order of first occurrence. */
  terms: readonly number[];
  /**
   * When asked for: the hashes of the parts ({@link tokenParts}) of each term as first written, for terms
   * written as compounds (capitals, `.`, `/`, `_`, `-`); term `k`'s parts are
   * `parts.hashes[parts.start[k] … parts.start[k + 1])` (none for a plain word).
   */
  parts?: { hashes: readonly number[]; start: readonly number[] };
}

/** The part hashes of term `k` of `found` (empty when parts were not computed or the term is plain). */
export function partsAt(found: Terms, k: number): readonly number[] {
  const p = found.parts;
  if (!p) return [];
  const from = p.start[k] ?? 0;
  const to = p.start[k + 1] ?? from;
  return from === to ? [] : p.hashes.slice(from, to);
}

const SMI = 0x3fffffff;
const STOP_HASHES = new Set([...STOP].map((w) => hashOf(w, 0, w.length)));

/** FNV-1a of `text[i, j)`, lower-cased (ASCII letters), to 30 bits. */
function hashOf(text: string, i: number, j: number): number {
  let h = 0x811c9dc5;
  for (let k = i; k < j; k++) {
    const c = text.charCodeAt(k);
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
  }
  return h & SMI;
}

/** The term hash of a word (any case). */
export function termHash(word: string): number {
  return hashOf(word, 0, word.length);
}

/**
 * The terms of a text: the first `cap` of them (all when absent), with their parts when `withParts`.
 * O(characters scanned).
 */
export function scanTerms(text: string, cap = Number.POSITIVE_INFINITY, withParts = false): Terms {
  const terms: number[] = [];
  const hashes: number[] = [];
  const start: number[] = [];
  const seen = new Set<number>();
  scanWordSpans(text, (i, j) => {
    const h = hashOf(text, i, j);
    if (STOP_HASHES.has(h) || seen.has(h) || permissions(text, i, j)) return true;
    seen.add(h);
    terms.push(h);
    if (withParts) {
      start.push(hashes.length);
      if (compound(text, i, j)) for (const p of tokenParts(text.slice(i, j))) hashes.push(termHash(p));
    }
    return terms.length < cap;
  });
  if (!withParts) return { terms };
  start.push(hashes.length);
  return { terms, parts: { hashes, start } };
}

/** `text[i, j)` is a file-mode string of a listing (`drwxr-xr-x`; `rw-r--r` of `-rw-r--r--`): layout, not information. */
function permissions(text: string, i: number, j: number): boolean {
  return (
    j - i >= 5 && j - i <= 11 && /^[dlcbps]?(?=[rwxsStT-]*-)[rwxsStT-]{4,9}[.+@]?$/.test(text.slice(i, j))
  );
}

/** The word `text[i, j)` has inner structure (capitals, `.`, `/`, `_`, `-`): its parts may be used alone. */
function compound(text: string, i: number, j: number): boolean {
  for (let k = i; k < j; k++) {
    const c = text.charCodeAt(k);
    if ((c >= 65 && c <= 90) || c === 46 || c === 95 || c === 47 || c === 45) return true;
  }
  return false;
}

/** The first words of a text whose terms are among `hashes`, lower-cased, in the order of `hashes`: for notes. */
export function spell(text: string, hashes: readonly number[]): string[] {
  const wanted = new Map(hashes.map((h) => [h, ""]));
  let left = wanted.size;
  scanWordSpans(text, (i, j) => {
    const h = hashOf(text, i, j);
    if (wanted.get(h) === "") {
      wanted.set(h, text.slice(i, j).toLowerCase());
      left--;
    }
    return left > 0;
  });
  return hashes.map((h) => wanted.get(h) || "?");
}

/** The text of an event as the influence tests read it: message text, tool input leaves, tool output. */
export function eventText(e: TrajectoryView["events"][number]): string {
  if (e.type === "message") return e.text;
  if (e.type === "tool_call") return inputText(e.input);
  if (e.type === "tool_result") return e.output;
  return "";
}

/** The terms of an event (see {@link eventText}). */
export function eventTerms(e: TrajectoryView["events"][number], cap?: number, withParts = false): Terms {
  return scanTerms(eventText(e), cap, withParts);
}

/** The last few events whose terms were asked for, with them: detectors reading one stream ask in turn. */
const recent: { e: TrajectoryView["events"][number]; found: Terms }[] = [];

/**
 * {@link eventTerms} of an event, all of them with their parts, remembered for the last 4 events asked
 * about: the detectors reading a stream ({@link ViewStream}) each ask about the event at hand, and it is
 * scanned once. Take the first `cap` terms yourself (`terms.slice(0, cap)`: the same as a capped scan).
 */
export function sharedTerms(e: TrajectoryView["events"][number]): Terms {
  for (const r of recent) if (r.e === e) return r.found;
  const found = eventTerms(e, Number.POSITIVE_INFINITY, true);
  recent.unshift({ e, found });
  if (recent.length > 4) recent.pop();
  return found;
}
