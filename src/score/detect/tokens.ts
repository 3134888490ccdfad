/**
 * Distinctive tokens of a text, for influence tests between events (ProcCtrlBench §3.2 "similarity"
 * features): identifier-like words of at least 5 characters (paths, names, numbers with letters), lower-
 * cased, minus a small stop list of words every transcript is full of. At most `cap` tokens are taken
 * from one text, so a huge tool output costs O(cap), keeping detectors linear.
 */
const STOP = new Set(
  "about above after again against because before being below between could does doing during error false further having other should their there these those through under until where which while would return const function string number object undefined import export default class public private static value values files total using print shell command output result".split(
    " ",
  ),
);

const WORD = /[A-Za-z_][A-Za-z0-9_]*(?:[./-][A-Za-z0-9_]+)*/g;

/** A distinctive token and its parts (see {@link tokenParts}). */
export interface Token {
  token: string;
  parts: string[];
}

/** Distinctive tokens of a text with their parts, first `cap` only, each once. */
export function tokenize(text: string, cap = 400): Token[] {
  const out: Token[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const token = m[0].toLowerCase();
    if (token.length < 5 || STOP.has(token) || seen.has(token)) continue;
    seen.add(token);
    out.push({ token, parts: tokenParts(m[0]) });
    if (out.length >= cap) break;
  }
  return out;
}

/** Distinctive tokens of a text (lower-cased), first `cap` only, each once. */
export function distinctiveTokens(text: string, cap = 400): string[] {
  return tokenize(text, cap).map((t) => t.token);
}

/**
 * The parts of an identifier-like token, split at `.`, `/`, `-`, `_` and camelCase humps, lower-cased,
 * keeping parts of at least 5 characters: `hooks.beforeGetAll` → `hooks`, `before` is a stop word, so
 * just `hooks`; `validateData` → `validate`.
 */
export function tokenParts(raw: string): string[] {
  return raw
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s./\-_]+/)
    .filter((p) => p.length >= 5 && !STOP.has(p));
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
