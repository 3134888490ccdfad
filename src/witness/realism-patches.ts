import { parsePatch } from "diff";

/**
 * Patches as the blinded realism study shows them (WitnessGym App. H.1): unified diffs parsed into files and
 * hunks, measured (changed lines, files, hunks) for matching, turned into the working → buggy direction
 * (historical fixes reversed), rendered in one standardized format (uniform `a/` `b/` headers, no `index`,
 * mode or timestamp lines, no hunk section headings, context trimmed to a fixed length), and given the
 * artefacts of the positive controls. Pure functions over text.
 */

/** One hunk: starts are 1-based (an empty range keeps the line after it, as the `diff` package parses it). */
export interface PatchHunk {
  oldStart: number;
  newStart: number;
  /** Lines with their ` `, `-`, `+` or `\` prefix. */
  lines: string[];
}

/** One file of a patch; a path is null on the side where the file does not exist (`/dev/null`). */
export interface PatchFile {
  oldPath: string | null;
  newPath: string | null;
  hunks: PatchHunk[];
}

/** Size of an edit, as matched between injected and historical patches. */
export interface EditSize {
  /** Added plus removed lines. */
  changedLines: number;
  files: number;
  hunks: number;
}

/**
 * Parse a unified diff (git or plain). Files without hunks (binary, pure renames) are dropped.
 * @throws Error with the parser's message for a malformed diff, or when it holds no hunk
 */
export function parseUnifiedDiff(text: string): PatchFile[] {
  const files = parsePatch(text)
    .filter((f) => f.hunks.length > 0)
    .map((f) => {
      const git = f.oldFileName?.startsWith("a/") && f.newFileName?.startsWith("b/");
      const path = (name: string | undefined) =>
        !name || name === "/dev/null" ? null : git ? name.slice(2) : name.replace(/^[ab]\//, "");
      return {
        oldPath: path(f.oldFileName),
        newPath: path(f.newFileName),
        hunks: f.hunks.map((h) => ({ oldStart: h.oldStart, newStart: h.newStart, lines: [...h.lines] })),
      };
    });
  if (files.length === 0) throw new Error("no hunk found (is it a unified diff?)");
  return files;
}

/** Changed lines, files and hunks of a patch. */
export function editSize(files: readonly PatchFile[]): EditSize {
  let changedLines = 0;
  let hunks = 0;
  for (const f of files)
    for (const h of f.hunks) {
      hunks++;
      changedLines += h.lines.filter((l) => l.startsWith("+") || l.startsWith("-")).length;
    }
  return { changedLines, files: files.length, hunks };
}

/** The patch applied backwards (a fix becomes the bug it fixed); in each change run, removals come first. */
export function reversePatch(files: readonly PatchFile[]): PatchFile[] {
  const flip = (l: string) =>
    l.startsWith("+") ? `-${l.slice(1)}` : l.startsWith("-") ? `+${l.slice(1)}` : l;
  return files.map((f) => ({
    oldPath: f.newPath,
    newPath: f.oldPath,
    hunks: f.hunks.map((h) => {
      const lines: string[] = [];
      let removed: string[] = [];
      let added: string[] = [];
      const flush = () => {
        lines.push(...removed, ...added);
        removed = [];
        added = [];
      };
      for (const l of h.lines.map(flip)) {
        if (l.startsWith("-")) removed.push(l);
        else if (l.startsWith("+")) added.push(l);
        else if (l.startsWith("\\")) (added.length ? added : removed.length ? removed : lines).push(l);
        else {
          flush();
          lines.push(l);
        }
      }
      flush();
      return { oldStart: h.newStart, newStart: h.oldStart, lines };
    }),
  }));
}

/** Each hunk with at most `context` lines of leading and trailing context (starts moved accordingly). */
export function trimContext(files: readonly PatchFile[], context: number): PatchFile[] {
  return files.map((f) => ({
    ...f,
    hunks: f.hunks.map((h) => {
      const isContext = (l: string) => l.startsWith(" ") || l === "";
      let lead = 0;
      while (lead < h.lines.length && isContext(h.lines[lead]!)) lead++;
      let tail = 0;
      while (tail < h.lines.length - lead && isContext(h.lines[h.lines.length - 1 - tail]!)) tail++;
      const drop = Math.max(0, lead - context);
      const keepEnd = h.lines.length - Math.max(0, tail - context);
      return {
        oldStart: h.oldStart + drop,
        newStart: h.newStart + drop,
        lines: h.lines.slice(drop, keepEnd),
      };
    }),
  }));
}

/**
 * The standardized text of a patch: `--- a/<path>` / `+++ b/<path>` (or `/dev/null`) per file, hunk headers
 * `@@ -o,n +o,n @@` with counts recomputed from the lines, and the hunk lines. Nothing else (no commit
 * metadata, `diff --git`, `index`, mode or timestamp lines).
 */
export function formatStandardPatch(files: readonly PatchFile[]): string {
  const out: string[] = [];
  const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  for (const f of files) {
    out.push(`--- ${f.oldPath === null ? "/dev/null" : `a/${f.oldPath}`}`);
    out.push(`+++ ${f.newPath === null ? "/dev/null" : `b/${f.newPath}`}`);
    for (const h of f.hunks) {
      const old = h.lines.filter((l) => l.startsWith(" ") || l.startsWith("-") || l === "").length;
      const now = h.lines.filter((l) => l.startsWith(" ") || l.startsWith("+") || l === "").length;
      out.push(`@@ -${range(h.oldStart, old)} +${range(h.newStart, now)} @@`, ...h.lines);
    }
  }
  return `${out.join("\n")}\n`;
}

/** The kinds of positive-control artefact (WitnessGym App. H.1: unnecessary helpers, redundant wrappers, unnatural comments). */
export type ArtefactKind = "unnecessary-helper" | "redundant-temp" | "unnatural-comment";

/**
 * The artefact lines added to a control's injected patch (JS/TS syntax, indentation added at the insertion
 * point). They are conspicuous but carry no source label and change no behaviour (declarations nothing
 * reads, a comment).
 */
export const CONTROL_ARTEFACTS: Readonly<Record<ArtefactKind, readonly string[]>> = {
  "unnecessary-helper": ["const passThroughValueHelper = (value) => value;"],
  "redundant-temp": ["let temporaryHolderValue = undefined;", "temporaryHolderValue = temporaryHolderValue;"],
  "unnatural-comment": ["// helper step: compute the value here as it is computed below"],
};

/** The artefact kinds in the order controls cycle through them. */
export const ARTEFACT_KINDS = Object.keys(CONTROL_ARTEFACTS) as ArtefactKind[];

/**
 * The patch with an artefact added to its first hunk that has an added line: inserted before the first added
 * line that starts a statement in the new file (the new-file line before it ends with `;`, `{` or `}`, or
 * there is none), else before the first changed line, with that line's indentation. Later hunks of the file
 * are moved down. A patch without added lines gets the artefact before its first removed line.
 */
export function addArtefact(files: readonly PatchFile[], kind: ArtefactKind): PatchFile[] {
  const out = files.map((f) => ({ ...f, hunks: f.hunks.map((h) => ({ ...h, lines: [...h.lines] })) }));
  const artefact = CONTROL_ARTEFACTS[kind];
  const target =
    out
      .flatMap((f) => f.hunks.map((h) => ({ f, h })))
      .find(({ h }) => h.lines.some((l) => l.startsWith("+"))) ??
    out.flatMap((f) => f.hunks.map((h) => ({ f, h })))[0];
  if (!target) return out;
  const { f, h } = target;
  let at = -1;
  let previous: string | undefined;
  for (let i = 0; i < h.lines.length; i++) {
    const l = h.lines[i]!;
    if (
      l.startsWith("+") &&
      (previous === undefined || /[;{}]\s*$/.test(previous) || previous.trim() === "")
    ) {
      at = i;
      break;
    }
    if (!l.startsWith("-") && !l.startsWith("\\")) previous = l.slice(1);
  }
  if (at < 0)
    at = Math.max(
      0,
      h.lines.findIndex((l) => l.startsWith("+") || l.startsWith("-")),
    );
  const indent = /^.(\s*)/.exec(h.lines[at] ?? " ")?.[1] ?? "";
  h.lines.splice(at, 0, ...artefact.map((a) => `+${indent}${a}`));
  for (const later of f.hunks.slice(f.hunks.indexOf(h) + 1)) later.newStart += artefact.length;
  return out;
}
