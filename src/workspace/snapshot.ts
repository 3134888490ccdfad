import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { isErrnoCode } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";
import { compileIgnore, STAT_FIELDS } from "./tree-walker.mjs";
import { listTree } from "./walk-pool.ts";

/**
 * Snapshots of a directory tree: every file under it, with a content hash and the stat fields needed to
 * tell cheaply whether it may have changed since. Like git's index, a later snapshot reuses the hash of a
 * file whose (size, mtime, ctime, inode, mode) are unchanged, so re-snapshotting a 10,000-file tree costs
 * one `lstat` per file plus reads of only the files that changed.
 */

/** Names (any depth) that snapshots skip by default: VCS data, dependencies, coverage output, our own. */
export const DEFAULT_IGNORE: readonly string[] = [
  ".git",
  "node_modules",
  ".nyc_output",
  "coverage",
  ".gauntlet",
  "gauntlet-report",
];

/** One entry of a snapshot: a regular file, a symlink (never followed), or anything else (fifo, socket…). */
export interface SnapshotEntry {
  /** What the path is. Directories are not entries; an empty directory does not appear. */
  type: "file" | "symlink" | "other";
  /**
   * sha256 hex of the content (file), of the link target bytes (symlink), or of `other:<kind>`. For a file
   * larger than {@link SnapshotOptions.maxHashBytes} it is the sha256 of `oversize:<size>:<mtimeMs>:<ctimeMs>`,
   * and for a file that cannot be read it is `unreadable:<errno code>`.
   */
  hash: string;
  /** True when the content is not UTF-8 text: contains a NUL byte or invalid UTF-8 (NUL only, above 8 MiB). */
  binary: boolean;
  /** Size in bytes (`lstat`). */
  size: number;
  /** Modification time, ms since the epoch (fractional). */
  mtimeMs: number;
  /** Status-change time, ms since the epoch (fractional); cannot be set by `utimes`, so it betrays edits. */
  ctimeMs: number;
  /** Inode number. */
  ino: number;
  /** `st_mode`: file type and permission bits. */
  mode: number;
}

/** Every file of a tree at one moment. */
export interface Snapshot {
  /** Workspace-relative POSIX path → entry. */
  files: ReadonlyMap<string, SnapshotEntry>;
  /**
   * The file system's clock when the walk started, ms. An entry whose `ctimeMs` is at or after this may have
   * changed again within the same clock tick after it was read ("racily clean" in git's words), so its
   * hash is never reused.
   */
  clockMs: number;
  /** How many files were read and hashed to take this snapshot (the rest reused a cached hash). */
  hashed: number;
}

/** Options for {@link takeSnapshot}. */
export interface SnapshotOptions {
  /**
   * What to skip: a plain name (`node_modules`) skips that file or directory at any depth, a name ending in
   * `*` (`.tmp*`) skips names with that prefix, and a path with a `/` (`build/out`) skips that
   * workspace-relative path and everything under it. Default {@link DEFAULT_IGNORE}.
   */
  ignore?: readonly string[];
  /** An earlier snapshot of the same tree whose hashes are reused for unchanged files (stat cache). */
  previous?: Snapshot;
  /**
   * A snapshot of the tree this one was copied from with timestamps preserved (`cp --preserve=timestamps`):
   * its hash is reused for a file with the same path, type, size, mtime and mode, provided the file here has
   * not changed since `before` (its ctime is earlier) — so files rewritten after the copy are always read.
   */
  copiedFrom?: { snapshot: Snapshot; before: number };
  /**
   * A writable directory on the same file system as the tree, where a marker file is written to read the
   * file system's own clock (exact racy-clean detection). Without it the clock is taken as now − 2 s.
   */
  clockDir?: string;
  /** Files larger than this are identified by size and times instead of content, bytes. Default 256 MiB. */
  maxHashBytes?: number;
}

const CHUNK = 8 * 1024 * 1024;
const CLOCK_FILE = ".gauntlet-clock";
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Read the file system's clock: write a marker file in `dir` and return its ctime, ms since the epoch.
 * Any change made to a file on the same file system after this call gets a ctime at or after the result.
 */
export function fileSystemNow(dir: string): number {
  const marker = path.join(dir, CLOCK_FILE);
  writeFileSync(marker, String(Date.now()));
  return lstatSync(marker).ctimeMs;
}

/**
 * Snapshot every file under `dir` (synchronous; symlinks are recorded, never followed).
 *
 * Files that vanish while the walk runs are left out; files that cannot be read are recorded with an
 * `unreadable:<code>` hash. A directory whose name is not valid UTF-8 is recorded as an `other` entry and
 * not descended into (its path shows the bad bytes as `\xHH`).
 *
 * @param dir absolute or relative path of the tree's root
 * @throws the underlying fs error when `dir` itself cannot be listed
 */
export function takeSnapshot(dir: string, options: SnapshotOptions = {}): Snapshot {
  const root = path.resolve(dir);
  const ignore = compileIgnore(options.ignore ?? DEFAULT_IGNORE);
  const clockMs = options.clockDir ? fileSystemNow(options.clockDir) : Date.now() - 2000;
  const copied = options.copiedFrom;
  const maxHashBytes = options.maxHashBytes ?? 256 * 1024 * 1024;
  const files = new Map<string, SnapshotEntry>();
  let hashed = 0;

  /** Record a file the stat cache did not vouch for: reuse the copied-from hash if it may, else read it. */
  const visit = (abs: string | Buffer, rel: string, st: StatFields): void => {
    if (copied !== undefined && st.ctimeMs < copied.before) {
      const src = copied.snapshot.files.get(rel);
      if (
        src !== undefined &&
        src.type === typeOfMode(st.mode) &&
        src.size === st.size &&
        src.mtimeMs === st.mtimeMs &&
        src.mode === st.mode &&
        src.ctimeMs < copied.snapshot.clockMs
      ) {
        files.set(rel, { ...st, type: src.type, hash: src.hash, binary: src.binary });
        return;
      }
    }
    const entry = readEntry(abs, st, maxHashBytes);
    if (entry === undefined) return;
    hashed++;
    files.set(rel, entry);
  };
  /** The stat cache: the previous entry, if size, mtime, ctime, inode and mode are unchanged and it was not racy. */
  const prevFiles = options.previous?.files;
  const prevClock = options.previous?.clockMs ?? 0;
  const cached = (rel: string, size: number, mtimeMs: number, ctimeMs: number, ino: number, mode: number) => {
    const prev = prevFiles?.get(rel);
    return prev !== undefined &&
      prev.size === size &&
      prev.mtimeMs === mtimeMs &&
      prev.ctimeMs === ctimeMs &&
      prev.ino === ino &&
      prev.mode === mode &&
      prev.ctimeMs < prevClock
      ? prev
      : undefined;
  };

  const listing = listTree(root, options.ignore ?? DEFAULT_IGNORE);
  for (const { rels, stats } of listing.chunks) {
    for (let i = 0, j = 0; i < rels.length; i++, j += STAT_FIELDS) {
      const rel = rels[i]!;
      const size = stats[j]!;
      const mtimeMs = stats[j + 1]!;
      const ctimeMs = stats[j + 2]!;
      const ino = stats[j + 3]!;
      const mode = stats[j + 4]!;
      const prev = cached(rel, size, mtimeMs, ctimeMs, ino, mode);
      if (prev !== undefined) files.set(rel, prev);
      else visit(`${root}/${rel}`, rel, { size, mtimeMs, ctimeMs, ino, mode });
    }
  }

  // Names that may not be valid UTF-8: list those directories again as bytes.
  for (const [absDir, relDir] of listing.odd) {
    for (const raw of readdirSync(absDir, { encoding: "buffer" })) {
      const valid = isUtf8(raw);
      const name = valid ? raw.toString("utf8") : escapeName(raw);
      if (valid && !name.includes("\uFFFD")) continue;
      const rel = relDir === "" ? name : `${relDir}/${name}`;
      if (ignore(name, rel)) continue;
      const abs = valid ? `${absDir}/${name}` : Buffer.concat([Buffer.from(`${absDir}/`), raw]);
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (st === undefined) continue;
      const prev = cached(rel, st.size, st.mtimeMs, st.ctimeMs, st.ino, st.mode);
      if (prev !== undefined) files.set(rel, prev);
      else if (!st.isDirectory()) visit(abs, rel, statFields(st));
      else if (valid)
        mergeSubtree(files, takeSnapshot(abs as string, { ignore: options.ignore, maxHashBytes }), rel);
      else files.set(rel, { ...statFields(st), type: "other", hash: sha256("other:dir"), binary: true });
    }
  }
  return { files, clockMs, hashed };
}

/** Add a subtree's entries under `prefix/`. */
function mergeSubtree(files: Map<string, SnapshotEntry>, sub: Snapshot, prefix: string): void {
  for (const [rel, entry] of sub.files) files.set(`${prefix}/${rel}`, entry);
}

/** The stat fields a snapshot entry keeps. */
interface StatFields {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** The kind of a snapshot entry for a (non-directory) `st_mode`. */
function typeOfMode(mode: number): SnapshotEntry["type"] {
  const format = mode & constants.S_IFMT;
  if (format === constants.S_IFREG) return "file";
  if (format === constants.S_IFLNK) return "symlink";
  return "other";
}

function statFields(st: Stats): StatFields {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode };
}

/** Read and hash one path; undefined when it vanished. Never blocks on a fifo, never follows a symlink. */
function readEntry(abs: string | Buffer, st: StatFields, maxHashBytes: number): SnapshotEntry | undefined {
  const type = typeOfMode(st.mode);
  if (type === "symlink") {
    try {
      const target = readlinkSync(abs, { encoding: "buffer" });
      return { ...st, type, hash: sha256(target), binary: !isUtf8(target) };
    } catch (error) {
      if (isErrnoCode(error, "ENOENT")) return undefined;
      return unreadable(st, type, error);
    }
  }
  if (type === "other") return otherEntry(st);
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) return undefined;
    return unreadable(st, type, error);
  }
  try {
    // Stat the descriptor we read: if the path was swapped for a fifo or device after the lstat, we see it.
    const fst = statFields(fstatSync(fd));
    if (typeOfMode(fst.mode) !== "file") return otherEntry(fst);
    if (fst.size > maxHashBytes) {
      return {
        ...fst,
        type,
        hash: sha256(`oversize:${fst.size}:${fst.mtimeMs}:${fst.ctimeMs}`),
        binary: true,
      };
    }
    if (fst.size <= CHUNK) {
      const content = readAll(fd, fst.size);
      return { ...fst, type, hash: sha256(content), binary: isBinary(content) };
    }
    const hash = createHash("sha256");
    const buf = Buffer.allocUnsafe(CHUNK);
    let binary = false;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const part = buf.subarray(0, n);
      hash.update(part);
      if (!binary && part.includes(0)) binary = true;
    }
    return { ...fst, type, hash: hash.digest("hex"), binary };
  } catch (error) {
    return unreadable(st, type, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read a whole small file from `fd`, tolerating a size that changed since the stat. With `limit`, stop
 * after `limit` bytes (the result is then `limit` bytes long, which callers treat as "too long").
 */
function readAll(fd: number, sizeHint: number, limit = Number.POSITIVE_INFINITY): Buffer {
  let buf = Buffer.allocUnsafe(Math.min(Math.max(sizeHint, 1024), limit));
  let used = 0;
  for (;;) {
    if (used === buf.length) {
      if (used >= limit) return buf;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, limit));
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
    const n = readSync(fd, buf, used, buf.length - used, null);
    if (n === 0) return buf.subarray(0, used);
    used += n;
  }
}

/**
 * The content of the file or symlink at `abs` (a symlink's content is its target), provided it still
 * hashes to `entry.hash`; `undefined` when it is gone, changed, of another type, or unreadable. Safe on a
 * tree an agent controls: never follows a symlink, never blocks on a fifo, never reads more than
 * `entry.size` + 1 bytes.
 */
export function readEntryContent(abs: string, entry: SnapshotEntry): Buffer | undefined {
  let content: Buffer;
  try {
    if (entry.type === "symlink") content = readlinkSync(abs, { encoding: "buffer" });
    else if (entry.type !== "file") return undefined;
    else {
      const fd = openSync(abs, OPEN_FLAGS);
      try {
        if (!fstatSync(fd).isFile()) return undefined;
        content = readAll(fd, entry.size, entry.size + 1);
      } finally {
        closeSync(fd);
      }
    }
  } catch {
    return undefined;
  }
  return content.length === entry.size && sha256(content) === entry.hash ? content : undefined;
}

/** True when `content` is not UTF-8 text (a NUL byte, or invalid UTF-8). */
export function isBinary(content: Uint8Array): boolean {
  return content.includes(0) || !isUtf8(content);
}

function unreadable(st: StatFields, type: SnapshotEntry["type"], error: unknown): SnapshotEntry {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  return { ...st, type, hash: `unreadable:${code}`, binary: true };
}

/** Entry of a fifo, socket or device: identified by its kind; never opened for reading. */
function otherEntry(st: StatFields): SnapshotEntry {
  const format = st.mode & constants.S_IFMT;
  const kind =
    format === constants.S_IFIFO
      ? "fifo"
      : format === constants.S_IFSOCK
        ? "socket"
        : format === constants.S_IFCHR
          ? "char-device"
          : format === constants.S_IFBLK
            ? "block-device"
            : "unknown";
  return { ...st, type: "other", hash: sha256(`other:${kind}`), binary: true };
}

/** A file name that is not valid UTF-8, with each byte outside printable ASCII shown as `\xHH`. */
function escapeName(raw: Buffer): string {
  let out = "";
  for (const byte of raw)
    out +=
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`;
  return out;
}
