import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { sha256 } from "../core/ids.ts";
import { isInsidePath } from "../core/paths.ts";
import { redact, type Secret } from "../core/redaction.ts";
import type { TrajectoryEvent } from "../core/trajectory.ts";
import type { FuzzCase } from "./case.ts";
import type { ArtifactState, SecretHit } from "./result.ts";

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
    ...c.protectedPaths,
  ]);
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

/**
 * Secret values in the files changed during a step (raw content, before any redaction) and redaction
 * markers in its outputs: what the agent said and what its commands and tools printed — not the prompt, and
 * not tool-call inputs, whose file writes are scanned on disk. At most 50 hits.
 */
export function findSecretHits(
  dir: string,
  changed: readonly string[],
  events: readonly TrajectoryEvent[],
  secrets: readonly Secret[],
): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const rel of changed) {
    const abs = path.join(dir, rel);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 4 * 1024 * 1024) continue;
    readFileSync(abs, "utf8")
      .split("\n")
      .forEach((line, i) => {
        for (const s of secrets)
          if (line.includes(s.value)) hits.push({ name: s.name, where: "file", path: rel, line: i + 1 });
      });
  }
  for (const e of events) {
    if (e.type === "tool_call" || (e.type === "message" && e.role === "user")) continue;
    for (const m of JSON.stringify(e).matchAll(/\[REDACTED:([A-Za-z0-9_]+)\]/g))
      hits.push({ name: m[1]!, where: "output", eventId: e.id });
  }
  return hits.slice(0, 50);
}
