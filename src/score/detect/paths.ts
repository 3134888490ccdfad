import type { CallView } from "./view.ts";

/**
 * Files a tool call reads or changes, across tools and path forms (ProcCtrlBench §3.2 standardisation):
 * Claude Code's `Read` names `/tmp/ws/src/a.py`, a recorded file change names `src/a.py`, a Codex
 * shell call runs `sed -n '1,80p' src/a.py`; all three are the same file. Paths are compared after
 * {@link normalizePath}, and a relative path matches an absolute one it is a suffix of.
 */

/** Backslashes to `/`, quotes and a leading `./` dropped, runs of `/` collapsed, no trailing `/`. */
export function normalizePath(p: string): string {
  return p
    .trim()
    .replace(/^["'`]+|["'`]+$/g, "")
    .replace(/\\+/g, "/")
    .replace(/\/{2,}/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/(.)\/$/, "$1");
}

/** Last segment of a normalised path (lower-cased on Windows-looking paths is not attempted). */
export function basename(p: string): string {
  const n = normalizePath(p);
  return n.slice(n.lastIndexOf("/") + 1);
}

/** A path is absolute: `/x`, `~/x`, `C:\x` or `C:/x`. */
export function isAbsolutePath(p: string): boolean {
  return /^(\/|~|[A-Za-z]:[\\/])/.test(p.trim().replace(/^["']/, ""));
}

/** Two paths name the same file: equal once normalised, or one is a `/`-bounded suffix of the other. */
export function sameFile(a: string, b: string): boolean {
  const x = normalizePath(a);
  const y = normalizePath(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [long, short] = x.length > y.length ? [x, y] : [y, x];
  return !isAbsolutePath(short) && long.endsWith(`/${short}`);
}

/**
 * A map from files to values that finds a file under any of its path forms ({@link sameFile}). Each
 * stored path is indexed by its normalised form and by every `/`-bounded suffix of it, so a lookup costs
 * O(path depth) whatever the number of files (many `index.ts` included).
 */
export class FileMap<T> {
  /** Normalised stored path → entry, in insertion order. */
  private exact = new Map<string, { path: string; value: T }>();
  /** `/`-bounded proper suffix of a stored path → the first entry having it. */
  private suffixes = new Map<string, { path: string; value: T }>();

  /** The value stored for this file, if any. */
  get(path: string): T | undefined {
    return this.entry(path)?.value;
  }

  /** Store a value for this file, replacing the one stored under any form of its path. */
  set(path: string, value: T): void {
    const found = this.entry(path);
    if (found) {
      found.value = value;
      return;
    }
    const n = normalizePath(path);
    if (!n) return;
    const e = { path, value };
    this.exact.set(n, e);
    for (const suffix of properSuffixes(n)) if (!this.suffixes.has(suffix)) this.suffixes.set(suffix, e);
  }

  delete(path: string): void {
    const e = this.entry(path);
    if (!e) return;
    const n = normalizePath(e.path);
    this.exact.delete(n);
    for (const suffix of properSuffixes(n)) {
      if (this.suffixes.get(suffix) !== e) continue;
      this.suffixes.delete(suffix);
      // Another stored path may share the suffix: re-index it (rare; bounded by the entries that do).
      for (const [other, oe] of this.exact)
        if (other.endsWith(`/${suffix}`)) {
          this.suffixes.set(suffix, oe);
          break;
        }
    }
  }

  /** Every stored path and value, in insertion order. */
  entries(): { path: string; value: T }[] {
    return [...this.exact.values()];
  }

  get size(): number {
    return this.exact.size;
  }

  private entry(path: string): { path: string; value: T } | undefined {
    const n = normalizePath(path);
    if (!n) return undefined;
    const hit = this.exact.get(n);
    if (hit) return hit;
    // A stored path ending with this relative one.
    if (!isAbsolutePath(n)) {
      const longer = this.suffixes.get(n);
      if (longer) return longer;
    }
    // A stored relative path this one ends with.
    for (const suffix of properSuffixes(n)) {
      const shorter = this.exact.get(suffix);
      if (shorter && !isAbsolutePath(suffix)) return shorter;
    }
    return undefined;
  }
}

/** The `/`-bounded proper suffixes of a normalised path, longest first: `a/b/c` → `b/c`, `c`. */
function properSuffixes(n: string): string[] {
  const out: string[] = [];
  for (let i = n.indexOf("/"); i >= 0; i = n.indexOf("/", i + 1))
    if (i + 1 < n.length) out.push(n.slice(i + 1));
  return out;
}

/** Programs whose file operands a plain shell read shows in full or in part. */
const READERS = /^(cat|head|tail|less|more|nl|bat|type|get-content|gc)$/i;

/**
 * Files a shell command reads or writes, from its text: operands of `cat`, `head`, `tail`, `sed -n`,
 * `nl`, `less`, `type`, `Get-Content` (reads); targets of `>`/`>>` redirection, `tee`, `sed -i`,
 * `perl -pi`, `touch`, and the last operand of `cp`/`mv` (writes). Options and globs are skipped.
 * Best effort: scripts (`python -c`, heredocs) are not parsed beyond their redirections.
 */
export function shellFiles(command: string): { reads: string[]; writes: string[] } {
  const reads: string[] = [];
  const writes: string[] = [];
  for (const words of shellSegments(command)) {
    for (let i = 0; i < words.length; i++) {
      const redirect = /^\d?>{1,2}(.*)$/.exec(words[i] ?? "");
      if (!redirect) continue;
      const target = redirect[1] || words[i + 1] || "";
      if (target && !/^(&|\/dev\/)/.test(target)) writes.push(target);
    }
    const plain = words.filter((w, i) => !/^\d?[<>]/.test(w) && !/^\d?>{1,2}$/.test(words[i - 1] ?? ""));
    while (plain.length && (/^\w+=/.test(plain[0] ?? "") || /^(sudo|time|nice)$/.test(plain[0] ?? "")))
      plain.shift();
    const program = (plain[0] ?? "").toLowerCase();
    const raw = plain.slice(1).filter((w) => !w.startsWith("-"));
    // sed and perl take their script as the first operand unless it is given with -e.
    if ((program === "sed" || program === "perl") && !plain.includes("-e")) raw.shift();
    const operands = raw.filter((w) => !/[*?]/.test(w) && looksLikePath(w));
    const inPlace = plain.some((w) => /^(-i|--in-place|-pi)/.test(w));
    if ((program === "sed" || program === "perl") && inPlace) writes.push(...operands);
    else if (program === "sed" && plain[1] === "-n") reads.push(...operands);
    else if (READERS.test(program)) reads.push(...operands);
    else if (program === "tee" || program === "touch") writes.push(...operands);
    else if ((program === "cp" || program === "mv") && operands.length >= 2)
      writes.push(operands.at(-1) ?? "");
  }
  return { reads, writes };
}

/**
 * A command line split into simple commands (at unquoted `&&`, `||`, `;`, `|`, newlines) and each into
 * words (at unquoted whitespace, quotes removed). A backslash escapes only a character the shell treats
 * specially, so Windows paths (`C:\Users\x`) survive. One pass over the text.
 */
export function shellSegments(command: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = "";
  let quote = "";
  let quoted = false;
  const endWord = () => {
    if (word || quoted) words.push(word);
    word = "";
    quoted = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length) segments.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] ?? "";
    if (quote) {
      if (ch === quote) quote = "";
      else if (ch === "\\" && quote === '"' && /["$`\\]/.test(command[i + 1] ?? "")) word += command[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      quoted = true;
    } else if (ch === "\\" && /[\s'"$`\\;&|()<>*?]/.test(command[i + 1] ?? "")) word += command[++i];
    else if (ch === "\n" || ch === ";" || ch === "|" || (ch === "&" && command[i + 1] === "&")) {
      if ((ch === "|" || ch === "&") && command[i + 1] === ch) i++;
      endSegment();
    } else if (/\s/.test(ch)) endWord();
    else word += ch;
  }
  endSegment();
  return segments;
}

/** Files a call reads: the paths of a read tool, or the read operands of a shell command. */
export function readsOf(c: CallView): string[] {
  if (c.kind === "read") return c.paths;
  if (c.kind === "shell" && c.commandKind === "inspect") return shellFiles(c.commandText).reads;
  return [];
}

/** Files a call changes: write/edit tool paths, recorded file changes, and shell write targets. */
export function writesOf(c: CallView): string[] {
  const out: string[] = [];
  if (c.kind === "write" || c.kind === "edit") out.push(...c.paths);
  for (const ch of c.changes) out.push(ch.path);
  if (c.kind === "shell") out.push(...shellFiles(c.commandText).writes);
  return out;
}

function looksLikePath(w: string): boolean {
  if (/^\d+(,\d+)?p?$/.test(w) || /^'?\d/.test(w)) return false;
  return /[/\\]/.test(w) || /\.[A-Za-z0-9]{1,8}$/.test(w) || /^[A-Za-z0-9_][\w.-]*$/.test(w);
}
