import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isErrnoCode, SetupError } from "../core/errors.ts";
import { parseNpmSpec, prepareNpmSource } from "./npm-source.ts";
import { DEFAULT_IGNORE, type Snapshot, takeSnapshot } from "./snapshot.ts";
import { detectTestCommand } from "./test-command.ts";

/**
 * Repository sources: where a workspace's pristine files come from. A source is resolved once (fetched,
 * dependencies installed, files hashed) and then copied into any number of workspaces.
 */

/** A repository ready to be copied into workspaces. Never modified by Gauntlet. */
export interface PreparedSource {
  /** The spec as given: a directory path or `npm:<name>[@<version>]`. */
  spec: string;
  kind: "local" | "npm";
  /** Absolute, real path of the pristine files (for npm: the cache entry's `package/`). */
  sourceDir: string;
  /**
   * Absolute path of a `node_modules` directory to symlink beside each workspace's `repo/` (for npm: the
   * cache entry's installed dependencies; for a local directory: its own `node_modules`, not copied).
   */
  depsDir?: string;
  /** Package name from package.json, else the directory's name. */
  name: string;
  /** Version from package.json (for npm: the exact version resolved). */
  version?: string;
  /** Shell command that runs the repository's own tests (see {@link detectTestCommand}), if any. */
  testCommand: string | undefined;
  /** Workspace-relative POSIX paths of the source's files, sorted, without ignored directories. */
  files: string[];
  /** Snapshot of `sourceDir` (hashes of the pristine files), reused when workspaces are snapshotted. */
  snapshot: Snapshot;
}

/** Options for {@link resolveSource}. */
export interface ResolveSourceOptions {
  /** Gauntlet's cache root; npm sources live in `<cacheDir>/sources/npm/`. Default `$GAUNTLET_CACHE_DIR` or `~/.cache/gauntlet`. */
  cacheDir?: string;
  /** Called with one line per slow step (download, install) and for warnings. */
  onProgress?: (message: string) => void;
}

/**
 * Resolve a repository source: a local directory (used read-only, as it is) or `npm:<name>[@<version>]`
 * (fetched with `npm pack` into the cache, dependencies installed beside it; see `npm-source.ts`).
 *
 * @throws SetupError when the directory is missing or not a directory, or the npm package cannot be fetched
 * @throws InputError when an `npm:` spec is malformed
 */
export async function resolveSource(
  spec: string,
  options: ResolveSourceOptions = {},
): Promise<PreparedSource> {
  if (spec.startsWith("npm:")) {
    const entry = await prepareNpmSource(parseNpmSpec(spec), options);
    const sourceDir = path.join(entry.dir, "package");
    const depsDir = path.join(entry.dir, "node_modules");
    return describeSource(spec, "npm", sourceDir, isDirectory(depsDir) ? depsDir : undefined, entry.version);
  }
  const dir = path.resolve(spec);
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (error) {
    if (isErrnoCode(error, "ENOENT") || isErrnoCode(error, "ENOTDIR")) {
      throw new SetupError(
        `repository not found: ${dir}`,
        "pass an existing directory, or npm:<name>@<version> (e.g. npm:minimist@1.2.8)",
      );
    }
    throw new SetupError(
      `cannot open repository ${dir}: ${(error as Error).message}`,
      "check the path and its permissions",
      { cause: error },
    );
  }
  if (!isDirectory(real)) {
    throw new SetupError(
      `repository is not a directory: ${dir}`,
      "pass the repository's top directory, not a file in it",
    );
  }
  if (lstatIsFile(path.join(real, ".git"))) {
    options.onProgress?.(
      `${dir}: .git is a file (a git worktree or submodule); it is not copied, since git in a workspace would write to the repository it points to`,
    );
  }
  const depsDir = path.join(real, "node_modules");
  return describeSource(spec, "local", real, isDirectory(depsDir) ? depsDir : undefined, undefined);
}

function describeSource(
  spec: string,
  kind: PreparedSource["kind"],
  sourceDir: string,
  depsDir: string | undefined,
  exactVersion: string | undefined,
): PreparedSource {
  const manifest = readPackageJson(sourceDir);
  const snapshot = takeSnapshot(sourceDir, { ignore: DEFAULT_IGNORE });
  const source: PreparedSource = {
    spec,
    kind,
    sourceDir,
    name: typeof manifest?.name === "string" ? manifest.name : path.basename(sourceDir),
    testCommand: detectTestCommand(manifest),
    files: [...snapshot.files.keys()].sort(),
    snapshot,
  };
  if (depsDir !== undefined) source.depsDir = depsDir;
  const version = exactVersion ?? (typeof manifest?.version === "string" ? manifest.version : undefined);
  if (version !== undefined) source.version = version;
  return source;
}

/** The parsed package.json of `dir`, or undefined when it has none or it is not a JSON object. */
export function readPackageJson(dir: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function lstatIsFile(p: string): boolean {
  return lstatSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}
