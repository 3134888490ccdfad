import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { FileDelta } from "./evidence.ts";
import type { Snapshot, SnapshotEntry } from "./snapshot.ts";

/**
 * File-change evidence between two snapshots (ABTest §3.4): which paths were added, modified or deleted,
 * with content hashes and capped unified diffs of text files.
 */

/** Where the diff gets file contents from; each side may live in a different place (store, source, tree). */
export interface ContentReader {
  /**
   * The content of `path` on one side, which must hash to `entry.hash` (a symlink's content is its target);
   * `undefined` when it is not available any more. Only called for non-binary entries within the read cap.
   */
  read(side: "before" | "after", path: string, entry: SnapshotEntry): Buffer | undefined;
}

/** Limits for {@link diffSnapshots}. */
export interface DiffOptions {
  /** Longest unified diff kept per file, bytes; longer ones are cut at a line end. Default 16 KiB. */
  maxDiffBytes?: number;
  /** Files larger than this (either side) get hashes only, no diff, bytes. Default 1 MiB. */
  maxReadBytes?: number;
  /** Give up on one file's diff after this long (no diff then), ms. Default 2000. */
  diffTimeoutMs?: number;
  /** Lines of context around each change. Default 3. */
  context?: number;
  /**
   * Deltas computed earlier, reused for a path whose two sides are unchanged (same hashes and modes), so
   * comparing each step with the baseline does not re-read and re-diff every file changed so far. Filled in
   * by the call; pass the same map to each call that compares against the same `before` tree.
   */
  cache?: Map<string, { key: string; delta: FileDelta }>;
}

/** Default per-file diff cap, bytes. */
export const DEFAULT_MAX_DIFF_BYTES = 16 * 1024;
/** Default largest file read for a diff, bytes. */
export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;

/**
 * Compare two snapshots of the same tree.
 *
 * A path is modified when its content hash, its type (file / symlink / other) or its executable bit
 * differs; a change of the executable bit alone yields a diff of `old mode` / `new mode` lines, git style.
 * Text diffs use `a/<path>` and `b/<path>` headers (`/dev/null` for an added or deleted side).
 *
 * @returns one delta per changed path, sorted by path (UTF-16 code unit order)
 */
export function diffSnapshots(
  before: Snapshot,
  after: Snapshot,
  contents: ContentReader,
  options: DiffOptions = {},
): FileDelta[] {
  const deltas: FileDelta[] = [];
  const add = (path: string, b: SnapshotEntry | undefined, a: SnapshotEntry | undefined) => {
    const cache = options.cache;
    if (cache === undefined) {
      deltas.push(describe(path, b, a, contents, options));
      return;
    }
    const key = `${b ? `${b.hash}:${gitMode(b)}` : "-"}>${a ? `${a.hash}:${gitMode(a)}` : "-"}`;
    let hit = cache.get(path);
    if (hit?.key !== key) {
      hit = { key, delta: describe(path, b, a, contents, options) };
      cache.set(path, hit);
    }
    deltas.push({ ...hit.delta });
  };
  for (const [path, b] of before.files) {
    const a = after.files.get(path);
    if (a === undefined) add(path, b, undefined);
    else if (a !== b && isChanged(b, a)) add(path, b, a);
  }
  for (const [path, a] of after.files) {
    if (!before.files.has(path)) add(path, undefined, a);
  }
  return deltas.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function isChanged(b: SnapshotEntry, a: SnapshotEntry): boolean {
  return b.hash !== a.hash || b.type !== a.type || executable(b) !== executable(a);
}

function executable(e: SnapshotEntry): boolean {
  return e.type === "file" && (e.mode & 0o100) !== 0;
}

/** Git's notation of an entry's mode: 100644, 100755, 120000. */
function gitMode(e: SnapshotEntry): string {
  if (e.type === "symlink") return "120000";
  return executable(e) ? "100755" : "100644";
}

function describe(
  path: string,
  b: SnapshotEntry | undefined,
  a: SnapshotEntry | undefined,
  contents: ContentReader,
  options: DiffOptions,
): FileDelta {
  const kind = b === undefined ? "added" : a === undefined ? "deleted" : "modified";
  const binary = (b?.binary ?? false) || (a?.binary ?? false);
  const delta: FileDelta = { path, kind, binary };
  if (b !== undefined) {
    delta.hashBefore = b.hash;
    delta.sizeBefore = b.size;
  }
  if (a !== undefined) {
    delta.hashAfter = a.hash;
    delta.sizeAfter = a.size;
  }
  if (binary) return delta;

  const modeLines =
    b !== undefined && a !== undefined && gitMode(b) !== gitMode(a)
      ? `old mode ${gitMode(b)}\nnew mode ${gitMode(a)}\n`
      : "";
  const maxRead = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  if ((b?.size ?? 0) > maxRead || (a?.size ?? 0) > maxRead) return withDiff(delta, modeLines, options);
  let patch = "";
  if (b === undefined || a === undefined || b.hash !== a.hash) {
    const oldText = b === undefined ? "" : text(contents.read("before", path, b));
    const newText = a === undefined ? "" : text(contents.read("after", path, a));
    if (oldText === undefined || newText === undefined) return withDiff(delta, modeLines, options);
    const made = createTwoFilesPatch(
      b === undefined ? "/dev/null" : `a/${path}`,
      a === undefined ? "/dev/null" : `b/${path}`,
      oldText,
      newText,
      undefined,
      undefined,
      {
        context: options.context ?? 3,
        headerOptions: FILE_HEADERS_ONLY,
        timeout: options.diffTimeoutMs ?? 2000,
      },
    );
    if (made === undefined) return withDiff(delta, modeLines, options);
    patch = made;
  }
  return withDiff(delta, modeLines + patch, options);
}

function text(content: Buffer | undefined): string | undefined {
  return content?.toString("utf8");
}

/** Attach `diff` (when non-empty), cut to the cap at a line end, flagging the cut. */
function withDiff(delta: FileDelta, diff: string, options: DiffOptions): FileDelta {
  if (diff === "") return delta;
  const cap = options.maxDiffBytes ?? DEFAULT_MAX_DIFF_BYTES;
  const bytes = Buffer.from(diff, "utf8");
  if (bytes.length <= cap) {
    delta.diff = diff;
    return delta;
  }
  let end = bytes.lastIndexOf(0x0a, cap - 1) + 1;
  if (end === 0) {
    // One line longer than the cap: cut inside it, at the start of a UTF-8 character.
    end = cap;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  }
  delta.diff = bytes.subarray(0, end).toString("utf8");
  delta.diffTruncated = true;
  return delta;
}
