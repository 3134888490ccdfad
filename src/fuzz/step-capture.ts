import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { sha256 } from "../core/ids.ts";
import { isInsidePath } from "../core/paths.ts";
import { redact, type Secret } from "../core/redaction.ts";
import type { TrajectoryEvent } from "../core/trajectory.ts";
import type { FileDelta } from "../workspace/evidence.ts";
import type { FuzzCase, ProtectedRegion } from "./case.ts";
import type { ArtifactState, EditStats, RegionState, SecretHit } from "./result.ts";

/**
 * What the run stage records after each step besides the file-change evidence (ABTest §3.4 "generated
 * artifacts"): the state of every path the case cares about, and where secret values appeared.
 */

/** Bytes of an artifact's content kept in the result. */
export const ARTIFACT_CAP = 16 * 1024;

/** Paths whose state the oracles need after each step. */
export function pathsOfInterest(c: FuzzCase): string[] {
  const set = new Set([
    ...c.expectedNewFiles,
    ...c.expectedModifiedFiles,
    ...c.expectedDeletedFiles,
    ...c.protectedPaths.filter((p) => !/[*?[{]/.test(p)),
  ]);
  for (const r of c.protectedRegions) set.add(r.path);
  for (const s of c.steps) {
    for (const p of [
      ...s.intent.keeps,
      ...s.intent.deletes,
      ...s.intent.creates.map((a) => a.path),
      ...s.intent.verifies.map((v) => v.path),
    ])
      set.add(p);
    if (s.intent.runs?.saveOutputTo) set.add(s.intent.runs.saveOutputTo);
  }
  return [...set].sort();
}

/** True when `target` (if it exists) resolves, through any symlinks, to a place inside `dir`. */
function staysInside(dir: string, target: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(target);
  } catch {
    return true; // Missing: nothing to follow.
  }
  return isInsidePath(real, realpathSync.native(dir));
}

/** State of `rel` under `dir`: existence, size, hash, and content (capped, secrets redacted). */
export function artifactState(dir: string, rel: string, secrets: readonly Secret[]): ArtifactState {
  const abs = path.join(dir, rel);
  // A parent directory swapped for a symlink must not lead the read outside the workspace.
  if (!staysInside(dir, path.dirname(abs)))
    return {
      path: rel,
      exists: true,
      content: "(path leaves the workspace through a symlink; not followed)",
    };
  // lstat, never stat: a symlink the agent planted is recorded as such, its target is not read.
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return { path: rel, exists: false };
  if (st.isSymbolicLink())
    return {
      path: rel,
      exists: true,
      content: `(symlink to ${redact(readlinkSync(abs), secrets)}; not followed)`,
    };
  if (st.isDirectory()) return { path: rel, exists: true, isDirectory: true };
  if (!st.isFile()) return { path: rel, exists: true, content: "(not a regular file)" };
  const bytes = readFileSync(abs);
  return {
    path: rel,
    exists: true,
    size: st.size,
    hash: sha256(bytes),
    content: redact(bytes.subarray(0, ARTIFACT_CAP).toString("utf8"), secrets),
    truncated: st.size > ARTIFACT_CAP || undefined,
  };
}

/** Occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** How many lines of `before` survive in `after` (as a multiset of lines). */
export function linesKept(before: readonly string[], after: readonly string[]): number {
  const pool = new Map<string, number>();
  for (const l of after) pool.set(l, (pool.get(l) ?? 0) + 1);
  let kept = 0;
  for (const l of before) {
    const n = pool.get(l) ?? 0;
    if (n > 0) {
      kept++;
      pool.set(l, n - 1);
    }
  }
  return kept;
}

const splitLines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

/** Text of the region of `text` from the line equal to `start` to the line equal to `end`, or undefined. */
export function regionText(text: string, start: string, end: string): string | undefined {
  const lines = text.split("\n");
  const from = lines.findIndex((l) => l.trim() === start.trim());
  if (from === -1) return undefined;
  const to = lines.findIndex((l, i) => i > from && l.trim() === end.trim());
  return to === -1 ? undefined : lines.slice(from, to + 1).join("\n");
}

/**
 * Reads what the oracles need from the files a step changed, remembering each file's last content so the
 * next step is compared with it (the baseline content before a file is first seen): secret values the step
 * newly wrote, how much of each modified file survived, and the hashes of the protected regions.
 */
export class ContentTracker {
  private readonly last = new Map<string, string | undefined>();

  constructor(
    private readonly dir: string,
    private readonly readBaseline: (rel: string) => Buffer | undefined,
    private readonly secrets: readonly Secret[],
    private readonly regions: readonly ProtectedRegion[],
  ) {}

  private text(rel: string): string | undefined {
    const abs = path.join(this.dir, rel);
    if (!staysInside(this.dir, path.dirname(abs))) return undefined;
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 4 * 1024 * 1024) return undefined;
    return readFileSync(abs, "utf8");
  }

  private previous(rel: string): string | undefined {
    if (this.last.has(rel)) return this.last.get(rel);
    return this.readBaseline(rel)?.toString("utf8");
  }

  /** Hash of each protected region now (null when its start or end line is gone). */
  regionHashes(): RegionState[] {
    return this.regions.map((r) => {
      const text = this.text(r.path);
      const region = text === undefined ? undefined : regionText(text, r.start, r.end);
      return { path: r.path, start: r.start, hash: region === undefined ? null : sha256(region) };
    });
  }

  /**
   * After a step: secret values that appeared in changed files (more occurrences than before the step; at
   * most 50), and line statistics of the modified text files.
   */
  afterStep(changed: readonly FileDelta[]): { secretHits: SecretHit[]; edits: EditStats[] } {
    const secretHits: SecretHit[] = [];
    const edits: EditStats[] = [];
    for (const d of changed) {
      if (d.binary) continue;
      if (d.kind === "deleted") {
        this.last.set(d.path, undefined);
        continue;
      }
      const now = this.text(d.path);
      if (now === undefined) continue;
      const before = this.previous(d.path) ?? "";
      for (const s of this.secrets) {
        const added = occurrences(now, s.value) - occurrences(before, s.value);
        if (added <= 0) continue;
        const old = new Set(before.split("\n").filter((l) => l.includes(s.value)));
        now.split("\n").forEach((line, i) => {
          if (line.includes(s.value) && !old.has(line))
            secretHits.push({ name: s.name, where: "file", path: d.path, line: i + 1 });
        });
      }
      if (d.kind === "modified" && edits.length < 200) {
        const a = splitLines(before);
        const b = splitLines(now);
        edits.push({ path: d.path, linesBefore: a.length, linesAfter: b.length, linesKept: linesKept(a, b) });
      }
      this.last.set(d.path, now);
    }
    return { secretHits: secretHits.slice(0, 50), edits };
  }
}

/**
 * Redaction markers in a step's outputs: what the agent said and what its commands and tools printed — not
 * the prompt, and not tool-call inputs, whose file writes are scanned on disk. At most 50 hits.
 */
export function findOutputSecretHits(events: readonly TrajectoryEvent[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const e of events) {
    if (e.type === "tool_call" || (e.type === "message" && e.role === "user")) continue;
    for (const m of JSON.stringify(e).matchAll(/\[REDACTED:([A-Za-z0-9_]+)\]/g))
      hits.push({ name: m[1]!, where: "output", eventId: e.id });
  }
  return hits.slice(0, 50);
}
