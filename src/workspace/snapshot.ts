import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  type Dirent,
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
import { sha256 } from "../core/ids.ts";

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
];

/** One entry of a snapshot: a regular file, a symlink (never followed), or anything else (fifo, socket…). */
export interface SnapshotEntry {
  /** What the path is. Directories are not entries; an empty directory does not appear. */
  type: "file" | "symlink" | "other";
  /**
   * sha256 hex of the content (file), of the link target bytes (symlink), or of `other:<kind>`. For a file
   * larger than {@link SnapshotOptions.maxHashBytes} it is the sha256 of `oversize:<size>:<mtimeMs>`, and
   * for a file that cannot be read it is `unreadable:<errno code>`.
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
  /** Files larger than this are identified by size and mtime instead of content. Default 256 MiB. */
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
  const previous = options.previous;
  const copied = options.copiedFrom;
  const maxHashBytes = options.maxHashBytes ?? 256 * 1024 * 1024;
  const files = new Map<string, SnapshotEntry>();
  let hashed = 0;

  const visit = (abs: string | Buffer, rel: string, st: Stats): void => {
    const prev = previous?.files.get(rel);
    if (
      prev !== undefined &&
      prev.size === st.size &&
      prev.mtimeMs === st.mtimeMs &&
      prev.ctimeMs === st.ctimeMs &&
      prev.ino === st.ino &&
      prev.mode === st.mode &&
      prev.ctimeMs < previous!.clockMs
    ) {
      files.set(rel, prev);
      return;
    }
    if (copied !== undefined && st.ctimeMs < copied.before) {
      const src = copied.snapshot.files.get(rel);
      if (
        src !== undefined &&
        src.type === typeOf(st) &&
        src.size === st.size &&
        src.mtimeMs === st.mtimeMs &&
        src.mode === st.mode &&
        src.ctimeMs < copied.snapshot.clockMs
      ) {
        files.set(rel, { ...statFields(st), type: src.type, hash: src.hash, binary: src.binary });
        return;
      }
    }
    const entry = readEntry(abs, st, maxHashBytes);
    if (entry === undefined) return;
    hashed++;
    files.set(rel, entry);
  };

  const stack: [string, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [absDir, relDir] = stack.pop()!;
    let dirents: Dirent[];
    try {
      dirents = readdirSync(absDir, { withFileTypes: true });
    } catch (error) {
      if (relDir === "") throw error;
      continue; // Removed or made unreadable while we walked; its files are gone from our view.
    }
    let badNames = false;
    for (const dirent of dirents) {
      const name = dirent.name;
      const rel = relDir === "" ? name : `${relDir}/${name}`;
      if (ignore(name, rel)) continue;
      const abs = `${absDir}/${name}`;
      if (dirent.isDirectory()) {
        stack.push([abs, rel]);
        continue;
      }
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (st === undefined) {
        if (name.includes("\uFFFD")) badNames = true;
        continue;
      }
      if (st.isDirectory()) stack.push([abs, rel]);
      else visit(abs, rel, st);
    }
    if (badNames) {
      for (const raw of readdirSync(absDir, { encoding: "buffer" })) {
        if (isUtf8(raw)) continue;
        const rel = relDir === "" ? escapeName(raw) : `${relDir}/${escapeName(raw)}`;
        if (ignore(escapeName(raw), rel)) continue;
        const abs = Buffer.concat([Buffer.from(`${absDir}/`), raw]);
        const st = lstatSync(abs, { throwIfNoEntry: false });
        if (st === undefined) continue;
        if (st.isDirectory())
          files.set(rel, { ...statFields(st), type: "other", hash: sha256("other:dir"), binary: true });
        else visit(abs, rel, st);
      }
    }
  }
  return { files, clockMs, hashed };
}

/** The kind of a snapshot entry for a (non-directory) stat result. */
function typeOf(st: Stats): SnapshotEntry["type"] {
  if (st.isFile()) return "file";
  if (st.isSymbolicLink()) return "symlink";
  return "other";
}

function statFields(st: Stats) {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode };
}

/** Read and hash one path; undefined when it vanished. Never blocks on a fifo, never follows a symlink. */
function readEntry(abs: string | Buffer, st: Stats, maxHashBytes: number): SnapshotEntry | undefined {
  if (st.isSymbolicLink()) {
    try {
      const target = readlinkSync(abs, { encoding: "buffer" });
      return { ...statFields(st), type: "symlink", hash: sha256(target), binary: !isUtf8(target) };
    } catch (error) {
      return unreadable(st, "symlink", error);
    }
  }
  if (!st.isFile())
    return { ...statFields(st), type: "other", hash: sha256(`other:${otherKind(st)}`), binary: true };
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return unreadable(st, "file", error);
  }
  try {
    // Stat the descriptor we read: if the path was swapped for a fifo or device after the lstat, we see it.
    const fst = fstatSync(fd);
    if (!fst.isFile())
      return { ...statFields(fst), type: "other", hash: sha256(`other:${otherKind(fst)}`), binary: true };
    if (fst.size > maxHashBytes) {
      return {
        ...statFields(fst),
        type: "file",
        hash: sha256(`oversize:${fst.size}:${fst.mtimeMs}`),
        binary: true,
      };
    }
    if (fst.size <= CHUNK) {
      const content = readAll(fd, fst.size);
      return { ...statFields(fst), type: "file", hash: sha256(content), binary: isBinary(content) };
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
    return { ...statFields(fst), type: "file", hash: hash.digest("hex"), binary };
  } catch (error) {
    return unreadable(st, "file", error);
  } finally {
    closeSync(fd);
  }
}

/** Read a whole small file from `fd`, tolerating a size that changed since the stat. */
function readAll(fd: number, sizeHint: number): Buffer {
  let buf = Buffer.allocUnsafe(Math.max(sizeHint, 1024));
  let used = 0;
  for (;;) {
    if (used === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
    const n = readSync(fd, buf, used, buf.length - used, null);
    if (n === 0) return buf.subarray(0, used);
    used += n;
  }
}

/** True when `content` is not UTF-8 text (a NUL byte, or invalid UTF-8). */
export function isBinary(content: Uint8Array): boolean {
  return content.includes(0) || !isUtf8(content);
}

function unreadable(st: Stats, type: SnapshotEntry["type"], error: unknown): SnapshotEntry {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  return { ...statFields(st), type, hash: `unreadable:${code}`, binary: true };
}

function otherKind(st: Stats): string {
  if (st.isFIFO()) return "fifo";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "char-device";
  if (st.isBlockDevice()) return "block-device";
  return "unknown";
}

/** A file name that is not valid UTF-8, with each byte outside printable ASCII shown as `\xHH`. */
function escapeName(raw: Buffer): string {
  let out = "";
  for (const byte of raw)
    out +=
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`;
  return out;
}

/** Compile ignore patterns (see {@link SnapshotOptions.ignore}) into a predicate over (name, relPath). */
function compileIgnore(patterns: readonly string[]): (name: string, rel: string) => boolean {
  const names = new Set<string>();
  const prefixes: string[] = [];
  const paths: string[] = [];
  for (const p of patterns) {
    const clean = p.replace(/^\.\//, "").replace(/\/+$/, "");
    if (clean.includes("/")) paths.push(clean);
    else if (clean.endsWith("*")) prefixes.push(clean.slice(0, -1));
    else if (clean !== "") names.add(clean);
  }
  return (name, rel) => {
    if (names.has(name)) return true;
    for (const p of prefixes) if (name.startsWith(p)) return true;
    for (const p of paths) if (rel === p || rel.startsWith(`${p}/`)) return true;
    return false;
  };
}
