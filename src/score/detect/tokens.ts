/**
 * Distinctive tokens of a text, for influence tests between events (ProcCtrlBench §3.2 "similarity"
 * features): identifier-like words of at least 5 characters (paths, names, numbers with letters), lower-
 * cased, minus a small stop list of words every transcript is full of. At most `cap` tokens are taken
 * from one text, and at most {@link MAX_SCAN} characters are scanned, so a huge tool output costs a
 * bounded amount, keeping detectors linear.
 */
/** Words every transcript is full of: never distinctive. */
export const STOP: ReadonlySet<string> = new Set(
  "about above after again against because before being below between could does doing during error false further having other should their there these those through under until where which while would return const function string number object undefined import export default class public private static value values files total using print shell command output result characters".split(
    " ",
  ),
);

/** Characters of one text the tokenizer scans at most: a huge output costs the same as a 20k-character one. */
export const MAX_SCAN = 20_000;

/** Character classes of ASCII codes: 1 starts a word (A-Z a-z _), 2 continues one (also 0-9), 4 joins runs (. / -). */
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  CLASS[c] = (letter ? 3 : c >= 48 && c <= 57 ? 2 : 0) | (c === 46 || c === 47 || c === 45 ? 4 : 0);
}
const cls = (c: number) => (c < 128 ? (CLASS[c] as number) : 0);

/**
 * Visit the identifier-like words of a text (a letter or `_`, then letters, digits, `_`, with inner
 * `.`, `/`, `-` joining word runs: `src/a.ts`, `hooks.beforeGetAll`), in order, scanning at most
 * {@link MAX_SCAN} characters; stop when `visit` returns false. A hand-written scanner: this runs over
 * every text of a trajectory, and a regex with match objects costs ~4× more.
 * @param visit gets each word's start and end (exclusive) offsets in `text`
 */
export function scanWordSpans(text: string, visit: (start: number, end: number) => boolean): void {
  const end = Math.min(text.length, MAX_SCAN);
  let i = 0;
  while (i < end) {
    const c = cls(text.charCodeAt(i));
    if (!(c & 2)) {
      i++;
      continue;
    }
    if (!(c & 1)) {
      // A run led by a digit is no word, nor is any part of it.
      do i++;
      while (i < end && cls(text.charCodeAt(i)) & 2);
      continue;
    }
    // A word starts here (whatever came before is no word character).
    let j = i + 1;
    for (;;) {
      while (j < end && cls(text.charCodeAt(j)) & 2) j++;
      if (j + 1 < end && cls(text.charCodeAt(j)) & 4 && cls(text.charCodeAt(j + 1)) & 2) j += 2;
      else break;
    }
    if (j - i >= 5 && !visit(i, j)) return;
    i = j;
  }
}

/** {@link scanWordSpans}, visiting each word as a string. */
function scanWords(text: string, visit: (raw: string) => boolean): void {
  scanWordSpans(text, (i, j) => visit(text.slice(i, j)));
}

/** Distinctive tokens of a text (lower-cased), first `cap` only, each once. */
export function distinctiveTokens(text: string, cap = 400): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  scanWords(text, (raw) => {
    const token = raw.toLowerCase();
    if (STOP.has(token) || seen.has(token)) return true;
    seen.add(token);
    out.push(token);
    return out.length < cap;
  });
  return out;
}

/**
 * The parts of an identifier-like token, split at `.`, `/`, `-`, `_` and camelCase humps, lower-cased,
 * keeping parts of at least 5 characters: `hooks.beforeGetAll` → `hooks`, `before` is a stop word, so
 * just `hooks`; `validateData` → `validate`. A path also yields its file name (`src/lib/data_case.ex` →
 * `data_case.ex`), so a name a listing showed counts as used by a call on that path.
 */
export function tokenParts(raw: string): string[] {
  const parts = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s./\-_]+/)
    .filter((p) => p.length >= 5 && !STOP.has(p));
  const slash = raw.lastIndexOf("/");
  const name = slash >= 0 ? raw.slice(slash + 1).toLowerCase() : "";
  if (name.length >= 5 && !STOP.has(name) && !parts.includes(name)) parts.push(name);
  return parts;
}

/** The string leaves of a tool input joined by newlines (keys left out), so tokens match across events. */
export function inputText(input: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (typeof v === "number" || typeof v === "boolean") out.push(String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(input);
  return out.join("\n");
}
