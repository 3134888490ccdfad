/**
 * What a shell command line writes, moves or deletes, read from the line itself (no shell is run). Used by
 * the fuzz oracle outside-path (targets outside the workspace) and by the score importers, which turn shell
 * writes into derived file changes (ProcCtrlBench §3.1: standardise logs; LABELS.md counts shell writes).
 */

/** A shell word without its quotes. */
const unquote = (w: string) => w.replace(/^(["'])(.*)\1$/s, "$2");

/** Words of a simple command, quotes kept together. */
function words(command: string): string[] {
  return [...command.matchAll(/"[^"]*"|'[^']*'|[^\s]+/g)].map((m) => unquote(m[0]));
}

/** One path a command line acts on. */
export interface CommandTarget {
  path: string;
  /** The command removes it (`rm`, `find … -delete`, the source of `mv`). */
  deletes: boolean;
  /** How it is written: `redirect` (`>`, `>>`, heredoc), `tee`, `sed-i`, `copy` (cp/mv/install/rsync destination), `touch`, `mkdir`, `ln`, or `delete`. */
  how: "redirect" | "tee" | "sed-i" | "copy" | "touch" | "mkdir" | "ln" | "truncate" | "delete";
}

/**
 * The paths a shell command line writes, moves or deletes: redirection targets (heredocs included), the
 * operands of `touch`, `mkdir`, `tee`, `truncate`, `sed -i`, the destination of `cp`, `mv`, `ln`,
 * `install`, `rsync`, and — marked `deletes` — the operands of `rm`, `rmdir`, `unlink`, `shred`, of a
 * `find … -delete` / `-exec rm`, and the sources of `mv`. The body of a heredoc is not read as commands.
 */
export function commandTargets(command: string): CommandTarget[] {
  const found: CommandTarget[] = [];
  // A heredoc's body is data, not commands: keep only the line that starts it.
  const body = /<<-?\s*['"]?(\w+)['"]?[^\n]*\n[\s\S]*?\n\s*\1\s*(?:\n|$)/g;
  const line = command.replace(body, (m) => `${m.split("\n")[0]}\n`);
  // Operators are looked for outside quotes only: `masked` has the same length, quoted text blanked.
  const masked = maskQuotes(line);
  // `>file`, `>>file`, `2>file` write a file; `2>&1` only joins streams; `<<` and `<>` are not writes.
  const redirection = /(?<![<&>\-=])\d*>>?(?![&>=])\s*("[^"]*"|'[^']*'|[^\s;&|<>()]+)/g;
  for (const m of masked.matchAll(redirection)) {
    const at = m.index + m[0].length - m[1]!.length;
    found.push({ path: unquote(line.slice(at, at + m[1]!.length)), deletes: false, how: "redirect" });
  }
  const cut = [...masked.matchAll(/\s*(?:&&|\|\||;|\||\n)\s*/g)];
  const parts: string[] = [];
  let from = 0;
  for (const c of cut) {
    parts.push(line.slice(from, c.index));
    from = c.index + c[0].length;
  }
  parts.push(line.slice(from));
  for (const part of parts) {
    // Redirections, in and out, are not operands: drop them (by position, outside quotes).
    const plain = dropOutsideQuotes(dropOutsideQuotes(part, redirection), INPUT);
    const w = words(plain.replace(/\d*>&\d+/g, "").replace(/<<-?\s*['"]?\w+['"]?/, ""));
    let i = 0;
    while (i < w.length && /^(sudo|env|command|builtin|nohup|time|\(|\{|do|then|else)$|^[A-Z_]+=/.test(w[i]!))
      i++;
    const verb = w[i]?.replace(/^\(/, "");
    const rest = w.slice(i + 1);
    const args = rest.filter((a) => !a.startsWith("-"));
    if (!verb) continue;
    const add = (paths: string[], how: CommandTarget["how"], deletes = false) => {
      for (const p of paths) if (p) found.push({ path: p, deletes, how });
    };
    if (/^(rm|rmdir|shred|unlink)$/.test(verb) || (verb === "find" && /\s-(delete|exec\s+rm)\b/.test(part)))
      add(verb === "find" ? args.slice(0, 1) : args, "delete", true);
    else if (verb === "tee") add(args, "tee");
    else if (/^(touch|mkdir|truncate)$/.test(verb)) add(args, verb as "touch" | "mkdir" | "truncate");
    else if (
      verb === "sed" &&
      rest.some((a) => /^-[a-zA-Z]*i/.test(a) || a === "--in-place" || a.startsWith("--in-place="))
    )
      add(sedFiles(rest), "sed-i");
    else if (/^(cp|mv|ln|install|rsync)$/.test(verb) && args.length >= 2) {
      add([args.at(-1)!], verb === "ln" ? "ln" : "copy");
      if (verb === "mv") add(args.slice(0, -1), "delete", true);
    }
  }
  return found;
}

/** An input redirection `< file` (not a heredoc `<<`). */
const INPUT = /(?<![<\d])<(?![<(])\s*("[^"]*"|'[^']*'|[^\s;&|<>()]+)/g;

/** `text` without the matches of `re` that start outside quotes. */
function dropOutsideQuotes(text: string, re: RegExp): string {
  let out = "";
  let last = 0;
  for (const m of maskQuotes(text).matchAll(new RegExp(re.source, "g"))) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/**
 * `text` with the characters inside quotes (and escaped characters) replaced by `_`, same length, so
 * operators can be found by position outside quotes.
 */
function maskQuotes(raw: string): string {
  // `<user>`, `<path>`: a redaction placeholder inside a path, not two redirections.
  const text = raw.replace(/<[A-Za-z_][\w-]{0,40}>/g, (m) => "_".repeat(m.length));
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) {
        quote = null;
        out += c;
      } else if (c === "\\" && quote === '"' && i + 1 < text.length) {
        out += "__";
        i++;
      } else out += c === "\n" ? c : "_";
    } else if (c === "\\" && i + 1 < text.length && text[i + 1] !== "\n") {
      out += "__";
      i++;
    } else {
      if (c === "'" || c === '"') quote = c;
      out += c;
    }
  }
  return out;
}

/** The file operands of `sed` arguments (after the script: the first non-option word, or `-e`/`-f` values). */
function sedFiles(rest: string[]): string[] {
  const files: string[] = [];
  let script = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === "-e" || a === "-f" || a === "--expression" || a === "--file") {
      script = true;
      i++;
    } else if (a.startsWith("-")) continue;
    else if (!script) script = true;
    else files.push(a);
  }
  return files;
}

/** The paths of {@link commandTargets}. */
export function writeTargets(command: string): string[] {
  return commandTargets(command).map((t) => t.path);
}
