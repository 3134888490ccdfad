import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GauntletError, InputError, SetupError } from "../core/errors.ts";
import { isInsidePath as isInside, resolveInside, unsafePathReason } from "../core/paths.ts";
import { BlobStore } from "./blob-store.ts";
import { copyTree } from "./copy-tree.ts";
import { type ContentReader, DEFAULT_MAX_READ_BYTES, type DiffOptions, diffSnapshots } from "./diff.ts";
import type { FileDelta, StepEvidence } from "./evidence.ts";
import { killProcessesInside, runProcess } from "./process.ts";
import {
  DEFAULT_IGNORE,
  fileSystemNow,
  readEntryContent,
  type Snapshot,
  type SnapshotEntry,
  takeSnapshot,
} from "./snapshot.ts";
import type { PreparedSource } from "./source.ts";

/**
 * Workspaces (DESIGN.md "Workspace"): an isolated copy of a repository at a fixed baseline, reporting
 * file-change evidence after each step (ABTest §3.4).
 *
 * Layout of one workspace, `<baseDir>/gauntlet-ws-XXXXXX/`:
 * - `repo/` — the copy the agent works in (`Workspace.dir`);
 * - `node_modules` → the source's dependencies (a symlink; Node's resolution and `npm run` walk up to it);
 * - `.blobs/` — contents the diffs need that exist nowhere else (files changed by setup, `prepare`, or a
 *   step), by sha256; baseline contents otherwise come from the untouched source.
 */

/** A file written into `repo/` before the baseline snapshot. */
export interface SetupFile {
  /** Workspace-relative POSIX path; absolute paths and `..` are rejected. */
  path: string;
  content: string | Uint8Array;
  /** Permission bits, e.g. 0o755. Default 0o644 (0o755 with `executable`). */
  mode?: number;
  /** Shorthand for mode 0o755. */
  executable?: boolean;
}

/** Options for {@link createWorkspace}. */
export interface WorkspaceOptions {
  /** Directory under which the workspace is created; must not be inside the source. Default `os.tmpdir()`. */
  baseDir?: string;
  /** Keep the directory on {@link Workspace.dispose} (for inspection). Default false. */
  keep?: boolean;
  /** Files written into `repo/` before the baseline (part of the scenario, not of the agent's changes). */
  setupFiles?: readonly SetupFile[];
  /** Run on `repo/` after the setup files and before the baseline snapshot (e.g. create git history). */
  prepare?: (dir: string) => Promise<void>;
  /** What snapshots skip (see `SnapshotOptions.ignore`). Default {@link DEFAULT_IGNORE}. */
  ignore?: readonly string[];
  /** Diff caps (defaults: 16 KiB per diff, files over 1 MiB get hashes only). */
  diff?: Omit<DiffOptions, "cache">;
}

/** An isolated copy of a repository with file-change evidence per step. */
export interface Workspace {
  /** The workspace's own directory (holds `repo/`, the `node_modules` link and the blob store). */
  readonly root: string;
  /** The repository copy the agent works in: `<root>/repo`. */
  readonly dir: string;
  readonly source: PreparedSource;
  /** Snapshot taken after the copy, setup files and `prepare`: what every step is compared with. */
  readonly baseline: Snapshot;
  /** The latest snapshot (the baseline until the first {@link captureStep}). */
  readonly current: Snapshot;
  /** Steps captured so far. */
  readonly steps: number;
  /**
   * Snapshot the workspace now and report what changed since the previous capture (or the baseline) and
   * since the baseline; the new snapshot becomes the previous one. Synchronous.
   */
  captureStep(): StepEvidence;
  /** Content of `path` at the baseline (a symlink's content is its target), or `undefined` if it had none. */
  readBaseline(path: string): Buffer | undefined;
  /** Kill every process still running inside the workspace, then delete it (unless `keep`). Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Create a workspace: copy the source's files into `<baseDir>/gauntlet-ws-XXXXXX/repo/`, link its
 * dependencies, write the setup files, run `prepare`, and take the baseline snapshot. The source directory
 * is only read.
 *
 * @throws SetupError when `baseDir` is inside the source (or its dependencies), or copying fails
 * @throws InputError when a setup file's path is absolute or escapes the workspace
 */
export async function createWorkspace(
  source: PreparedSource,
  options: WorkspaceOptions = {},
): Promise<Workspace> {
  const base = path.resolve(options.baseDir ?? os.tmpdir());
  mkdirSync(base, { recursive: true });
  const realBase = realpathSync(base);
  for (const guarded of [source.sourceDir, source.depsDir]) {
    if (guarded !== undefined && isInside(realBase, realPathOf(guarded))) {
      throw new SetupError(
        `the workspace directory ${base} is inside the source ${guarded}`,
        "choose a baseDir outside the repository (the default is the system temp directory)",
      );
    }
  }
  const root = mkdtempSync(path.join(realBase, WORKSPACE_PREFIX));
  writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  try {
    return await populate(root, source, options);
  } catch (error) {
    killProcessesInside(root);
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Symlinks copied from the source that resolve outside it would let an agent write through them to the
 * user's files: each is replaced by a copy of its target when that is a regular file of at most 1 MiB, and
 * removed otherwise (directories, dangling links).
 */
function containSymlinks(dir: string, source: PreparedSource): void {
  const sourceRoot = realpathSync.native(source.sourceDir);
  for (const [rel, entry] of source.snapshot.files) {
    if (entry.type !== "symlink") continue;
    // Resolve as the file system does, from the source (chains of links, `..` through linked dirs).
    let target: string | undefined;
    try {
      target = realpathSync.native(path.join(source.sourceDir, rel));
    } catch {
      target = undefined; // Dangling: nothing to copy, and it must not lead anywhere either.
    }
    if (target !== undefined && isInside(target, sourceRoot)) continue;
    const link = path.join(dir, rel);
    rmSync(link, { force: true });
    if (target === undefined) continue;
    // Never bring a file of the user's HOME into the agent's view (the sandbox hides HOME for a reason).
    const home = os.homedir();
    if (home && home !== "/" && isInside(target, realpathSync.native(home))) continue;
    try {
      const st = statSync(target);
      if (st.isFile() && st.size <= 1024 * 1024) copyFileSync(target, link);
    } catch {
      // Unreadable target: the link is simply gone.
    }
  }
}

/**
 * A copied `.git` keeps the user's remotes, so an agent could push to them: remotes are removed from the copy
 * (its history and branches stay).
 */
async function dropGitRemotes(dir: string): Promise<void> {
  if (!lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false })?.isDirectory()) return;
  const env = { PATH: process.env.PATH, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: "1" };
  const list = await runProcess({ file: "git", args: ["remote"] }, { cwd: dir, env, timeoutMs: 30_000 });
  for (const name of list.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean))
    await runProcess({ file: "git", args: ["remote", "remove", name] }, { cwd: dir, env, timeoutMs: 30_000 });
}

const WORKSPACE_PREFIX = "gauntlet-ws-";
const OWNER_FILE = ".owner-pid";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Remove workspaces left behind by a Gauntlet process that died without cleaning up (e.g. kill -9): every
 * `gauntlet-ws-*` directory under `baseDir` whose owner pid is no longer alive. Kept workspaces (`keep`)
 * have no owner and are never removed. Returns the directories removed.
 */
export function sweepStaleWorkspaces(baseDir: string = os.tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(baseDir).filter((n) => n.startsWith(WORKSPACE_PREFIX));
  } catch {
    return removed;
  }
  for (const name of names) {
    const root = path.join(baseDir, name);
    let pid: number;
    try {
      pid = Number(readFileSync(path.join(root, OWNER_FILE), "utf8"));
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    killProcessesInside(root);
    rmSync(root, { recursive: true, force: true });
    removed.push(root);
  }
  return removed;
}

async function populate(root: string, source: PreparedSource, options: WorkspaceOptions): Promise<Workspace> {
  const dir = path.join(root, "repo");
  mkdirSync(dir);
  const store = new BlobStore(path.join(root, ".blobs"));
  await copyTree(source.sourceDir, dir, {
    // Gauntlet's own run data (earlier cases, their expectations) is never shown to an agent.
    exclude: ["node_modules", ".gauntlet", "gauntlet-report", ...(gitIsFile(source) ? [".git"] : [])],
    weights: topLevelWeights(source.snapshot),
  });
  containSymlinks(dir, source);
  await dropGitRemotes(dir);
  const copiedBefore = fileSystemNow(store.dir);
  if (source.depsDir !== undefined) symlinkSync(source.depsDir, path.join(root, "node_modules"), "dir");
  for (const file of options.setupFiles ?? []) writeSetupFile(dir, file);
  if (options.prepare) await options.prepare(dir);

  const ignore = options.ignore ?? DEFAULT_IGNORE;
  const baseline = takeSnapshot(dir, {
    ignore,
    clockDir: store.dir,
    copiedFrom: { snapshot: source.snapshot, before: copiedBefore },
  });
  // Contents that differ from the source (setup files, prepare, ignore rules) are kept for later diffs.
  const maxRead = options.diff?.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  for (const [rel, entry] of baseline.files) {
    if (source.snapshot.files.get(rel)?.hash === entry.hash || entry.size > maxRead || entry.binary) continue;
    const content = readEntryContent(path.join(dir, rel), entry);
    if (content !== undefined) store.put(entry.hash, content);
  }
  return new CopiedWorkspace(root, dir, source, baseline, store, ignore, options);
}

class CopiedWorkspace implements Workspace {
  current: Snapshot;
  steps = 0;
  private disposed = false;
  private readonly baselineDeltas = new Map<string, { key: string; delta: FileDelta }>();

  constructor(
    readonly root: string,
    readonly dir: string,
    readonly source: PreparedSource,
    readonly baseline: Snapshot,
    private readonly store: BlobStore,
    private readonly ignore: readonly string[],
    private readonly options: WorkspaceOptions,
  ) {
    this.current = baseline;
  }

  captureStep(): StepEvidence {
    if (this.disposed)
      throw new GauntletError(`workspace ${this.root} was disposed; no step can be captured`);
    // Never read through a directory the agent swapped for a symlink (it could point at the user's files).
    const st = lstatSync(this.dir, { throwIfNoEntry: false });
    if (!st?.isDirectory())
      throw new GauntletError(
        `the agent replaced or removed the workspace directory ${this.dir}; evidence cannot be captured`,
      );
    this.store.ensureDirectory();
    const now = takeSnapshot(this.dir, {
      ignore: this.ignore,
      previous: this.current,
      clockDir: this.store.dir,
    });
    const readNow = new Map<string, Buffer | undefined>();
    const contents: ContentReader = {
      read: (side, rel, entry) => {
        if (side === "before") return this.readKnown(rel, entry);
        if (!readNow.has(rel)) {
          const content = readEntryContent(path.join(this.dir, rel), entry);
          // Kept so the next step can diff against it, after the agent overwrites it.
          if (content !== undefined) this.store.put(entry.hash, content);
          readNow.set(rel, content);
        }
        return readNow.get(rel);
      },
    };
    const diffOptions = this.options.diff ?? {};
    const sincePrevious = diffSnapshots(this.current, now, contents, diffOptions);
    const sinceBaseline = diffSnapshots(this.baseline, now, contents, {
      ...diffOptions,
      cache: this.baselineDeltas,
    });
    this.current = now;
    this.steps++;
    return { sincePrevious, sinceBaseline };
  }

  readBaseline(rel: string): Buffer | undefined {
    const entry = this.baseline.files.get(rel);
    return entry === undefined ? undefined : this.readKnown(rel, entry);
  }

  /** Content seen in an earlier snapshot: from the blob store, else (baseline content) from the source. */
  private readKnown(rel: string, entry: SnapshotEntry): Buffer | undefined {
    const stored = this.store.get(entry.hash);
    if (stored !== undefined) return stored;
    if (this.baseline.files.get(rel)?.hash !== entry.hash) return undefined;
    return readEntryContent(path.join(this.source.sourceDir, rel), entry);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    killProcessesInside(this.root);
    if (this.options.keep) {
      // A kept workspace is the user's now: no sweep may remove it.
      rmSync(path.join(this.root, OWNER_FILE), { force: true });
      return;
    }
    try {
      await rm(this.root, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // An agent may have removed permissions from its files: restore them, then try again.
      await runProcess(
        { file: "chmod", args: ["-R", "u+rwX", this.root] },
        { cwd: os.tmpdir(), env: process.env },
      );
      await rm(this.root, { recursive: true, force: true, maxRetries: 3 });
    }
  }
}

/** Write one setup file under `dir`, creating parent directories. */
function writeSetupFile(dir: string, file: SetupFile): void {
  const reason = unsafePathReason(file.path);
  if (reason !== undefined)
    throw new InputError({ field: "setupFiles" }, reason, "use a path relative to the repository root");
  const abs = resolveInside(dir, file.path);
  mkdirSync(path.dirname(abs), { recursive: true });
  // A symlink in the copied repository must not carry the write outside the workspace.
  if (!isInside(realpathSync(path.dirname(abs)), realpathSync(dir))) {
    throw new InputError(
      { field: "setupFiles" },
      `path "${file.path}" leads outside the workspace through a symlink`,
    );
  }
  const mode = file.mode ?? (file.executable ? 0o755 : 0o644);
  const fd = openSync(
    abs,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    mode,
  );
  try {
    writeFileSync(fd, file.content);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** The real path of a source directory, or a SetupError when it is gone. */
function realPathOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (error) {
    throw new SetupError(`the source directory ${dir} is gone`, "resolve the source again", { cause: error });
  }
}

/** A top-level `.git` that is a file points at a git directory elsewhere (worktree); it is not copied. */
function gitIsFile(source: PreparedSource): boolean {
  return lstatSync(path.join(source.sourceDir, ".git"), { throwIfNoEntry: false })?.isFile() ?? false;
}

/** Number of snapshot files under each top-level name (to balance parallel copying). */
function topLevelWeights(snapshot: Snapshot): Map<string, number> {
  const weights = new Map<string, number>();
  for (const rel of snapshot.files.keys()) {
    const slash = rel.indexOf("/");
    const top = slash < 0 ? rel : rel.slice(0, slash);
    weights.set(top, (weights.get(top) ?? 0) + 1);
  }
  return weights;
}
