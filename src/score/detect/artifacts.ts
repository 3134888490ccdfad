import type { DefectInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { excerptsOf } from "./evidence.ts";
import { isSpace, textHash } from "./file-reads.ts";
import { inputText } from "./tokens.ts";
import type { CallView } from "./view.ts";

/** Files that are run or read to be of use: scripts, and outputs saved with a redirection or `tee`. */
const SCRIPT = /\.(py|sh|bash|ps1|js|mjs|cjs|ts|rb|pl|bat|cmd)$/i;

/**
 * Artifacts nothing used: a script the agent wrote (a write tool, or a shell write such as a heredoc) or an
 * output it saved (`cmd > out.txt`, `tee`) that no later successful call names — in its input or output,
 * by file name or stem — nor the same command line reads back. A file a user message names, or another
 * file the agent wrote refers to (before or after: `<script src="app.js">`), is a deliverable, not an
 * artifact. Written, never run or read: the step had no influence.
 */
export class Artifacts {
  private readonly touched = new Set<string>(); // paths named by earlier calls: not new files
  private readonly named = new Set<string>(); // file names judged already
  /** Artifacts nothing used so far, in the order written. */
  private readonly pending = new Set<{ names: string[]; instance: DefectInstance }>();
  /** Earlier user messages and successful write or edit inputs. */
  private readonly earlier = new Words();

  /** A user message: it names the artifacts it mentions (deliverables); later ones are checked against it. */
  userText(text: string): void {
    this.drop(text);
    this.earlier.add(text);
  }

  /** The next call, whole. */
  call(c: CallView): void {
    let input: string | undefined;
    if (this.pending.size && !c.failed) {
      input = inputText(c.call.input);
      this.drop(input);
      if (c.result) this.drop(c.result.output);
    }
    // New files only: a script created, or output saved by a redirection; never an edit of existing code.
    const targets = [
      ...c.changes
        .filter((x) => x.kind === "added" && (x.derived || SCRIPT.test(x.path)) && !this.touched.has(x.path))
        .map((x) => x.path),
      ...(c.kind === "write" && !c.failed
        ? c.paths.filter((p) => SCRIPT.test(p) && !this.touched.has(p))
        : []),
    ];
    for (const p of c.paths) this.touched.add(p);
    for (const x of c.changes) this.touched.add(x.path);
    for (const path of new Set(targets)) {
      const name = path.split(/[\\/]/).pop() ?? path;
      if (!name || this.named.has(name) || /^\/?(dev|proc)\//.test(path)) continue;
      this.named.add(name);
      const stem = name.replace(/\.[^.]+$/, "");
      const names = [name, ...(stem.length >= 4 ? [stem] : [])];
      // Named by an earlier user message or by a file the agent wrote earlier (later ones: as they come).
      if (names.some((n) => this.earlier.mentions(n))) continue;
      // Read back in the same command line, if that line ran to the end.
      if (c.commandText && c.commandText.split(name).length > 2 && !c.failed && !c.command?.timedOut)
        continue;
      this.pending.add({
        names,
        instance: {
          events: [c.call.id, ...(c.result ? [c.result.id] : [])],
          note: `${c.commandText ? `\`${short(c.commandText)}\`` : c.call.name} (${c.call.id}) wrote ${name}, which nothing ran, read or named afterwards`,
          weight: 1,
          excerpts: excerptsOf(c.call, c.result),
        },
      });
    }
    // Part of what the agent built: a file it wrote refers to artifacts (`<script src="app.js">`).
    if (!c.failed && (c.kind === "write" || c.kind === "edit"))
      this.earlier.add(input ?? inputText(c.call.input));
  }

  /** What nothing used. */
  unused(): DefectInstance[] {
    return [...this.pending].map((a) => a.instance);
  }

  /** A text names these artifacts: used. */
  private drop(text: string): void {
    for (const a of this.pending) if (a.names.some((n) => text.includes(n))) this.pending.delete(a);
  }
}

/** Characters of distinct words {@link Words} keeps at most. */
export const MAX_WORD_CHARS = 1 << 22;

/**
 * The distinct words (runs of non-whitespace) of some texts, to ask whether any of the texts contains a
 * string without whitespace (a file name): it does exactly when one of the words does. Kept as one text,
 * words separated by newlines, each word once (by its 52-bit hash); at most {@link MAX_WORD_CHARS}
 * characters, then no more words are added (a name with whitespace in it is never found here).
 */
class Words {
  private text = "";
  private chars = 0;
  private readonly hashes = new Set<number>();

  add(t: string): void {
    if (this.chars >= MAX_WORD_CHARS) return;
    const fresh: string[] = [];
    let i = 0;
    while (i < t.length) {
      while (i < t.length && isSpace(t.charCodeAt(i))) i++;
      let j = i;
      while (j < t.length && !isSpace(t.charCodeAt(j))) j++;
      if (j > i && this.chars < MAX_WORD_CHARS) {
        const h = textHash(t, i, j);
        if (!this.hashes.has(h)) {
          this.hashes.add(h);
          fresh.push(t.slice(i, j));
          this.chars += j - i + 1;
        }
      }
      i = j;
    }
    // Joined into a new string: the words hold no reference to the texts they came from.
    if (fresh.length) this.text = `${this.text}\n${fresh.join("\n")}`;
  }

  mentions(name: string): boolean {
    return this.text.includes(name);
  }
}
