import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SetupError } from "../core/errors.ts";
import { runProcess } from "./process.ts";

/**
 * Copying a repository into a workspace with `cp` (measured: several times faster than `fs.cpSync` on a
 * 10,000-file tree). Symlinks are copied as links, never followed; mode bits and timestamps are kept (the
 * preserved mtimes let the workspace's first snapshot reuse the source's hashes); ownership and hard links
 * are not.
 */

/** Options for {@link copyTree}. */
export interface CopyTreeOptions {
  /** Top-level names of the source not to copy (e.g. `node_modules`, linked instead). */
  exclude?: readonly string[];
  /**
   * File count per top-level name (e.g. from the source's snapshot); when given, the entries are split
   * into balanced groups copied by parallel `cp` processes.
   */
  weights?: ReadonlyMap<string, number>;
  /** Most `cp` processes to run at once. Default: the number of CPUs, at most 4. */
  parallel?: number;
}

/**
 * Copy the contents of `from` into the existing, empty directory `to`.
 * @throws SetupError when `cp` fails (message carries its first error line)
 */
export async function copyTree(from: string, to: string, options: CopyTreeOptions = {}): Promise<void> {
  const exclude = new Set(options.exclude ?? []);
  const names = readdirSync(from).filter((n) => !exclude.has(n));
  if (names.length === 0) return;
  const groups = partition(
    names,
    options.weights,
    options.parallel ?? Math.min(4, os.availableParallelism()),
  );
  await Promise.all(
    groups.map(async (group) => {
      const args = [
        "-R",
        "--no-dereference",
        "--preserve=mode,timestamps",
        "--",
        ...group.map((n) => path.join(from, n)),
        `${to}/`,
      ];
      const r = await runProcess(
        { file: "cp", args },
        { cwd: to, env: process.env, maxOutputBytes: 16 * 1024 },
      );
      if (r.exitCode !== 0) {
        const first = r.stderr.trim().split("\n")[0] ?? "";
        throw new SetupError(
          `could not copy ${from} to ${to}: ${first}`,
          "check free disk space and that the repository is readable",
        );
      }
    }),
  );
}

/** Split names into at most `n` groups of similar total weight (greedy, heaviest first). */
function partition(names: string[], weights: ReadonlyMap<string, number> | undefined, n: number): string[][] {
  if (weights === undefined || n <= 1 || names.length === 1) return [names];
  const weighed = names.map((name) => ({ name, w: weights.get(name) ?? 1 })).sort((a, b) => b.w - a.w);
  const groups = Array.from({ length: Math.min(n, names.length) }, () => ({ names: [] as string[], w: 0 }));
  for (const item of weighed) {
    const lightest = groups.reduce((a, b) => (b.w < a.w ? b : a));
    lightest.names.push(item.name);
    lightest.w += item.w;
  }
  return groups.filter((g) => g.names.length > 0).map((g) => g.names);
}
