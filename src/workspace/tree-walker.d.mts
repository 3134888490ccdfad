/** Types of tree-walker.mjs (plain JavaScript so worker threads can load it). */

/** Numbers per file in a chunk's `stats`: size, mtimeMs, ctimeMs, ino, mode. */
export declare const STAT_FIELDS: 5;

/** Whether a name (at workspace-relative path `rel`) is ignored. */
export type IgnorePredicate = (name: string, rel: string) => boolean;

/** Files found by a walk, in the order found. */
export interface WalkChunk {
  /** Workspace-relative POSIX paths. */
  rels: string[];
  /** {@link STAT_FIELDS} numbers per path: size (bytes), mtimeMs, ctimeMs, ino, mode. */
  stats: ArrayLike<number> & { length: number };
  /** Directories holding a name that may not be valid UTF-8: [abs, rel]. */
  odd: [string, string][];
}

export declare function compileIgnore(patterns: readonly string[]): IgnorePredicate;
export declare function newChunk(): WalkChunk & { stats: number[] };
export declare function listDir(
  abs: string,
  rel: string,
  ignore: IgnorePredicate,
  chunk: WalkChunk & { stats: number[] },
  dirs: [string, string][],
): boolean;
export declare function walkSubtree(
  abs: string,
  rel: string,
  ignore: IgnorePredicate,
  chunk: WalkChunk & { stats: number[] },
): void;
export declare function walkClaimed(
  units: readonly [string, string][],
  ctrl: Int32Array,
  ignore: IgnorePredicate,
): { chunk: WalkChunk & { stats: number[] }; done: number[] };
