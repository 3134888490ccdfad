// Listing a directory tree with the stat fields of every file: the part of a snapshot that costs one
// `readdir` per directory and one `lstat` per file. Plain JavaScript because the same code runs on the
// main thread and in the worker threads of `walk-pool.ts` (a worker cannot load TypeScript by itself).
// Types: tree-walker.d.mts.
import { lstatSync, readdirSync } from "node:fs";
import { workerData } from "node:worker_threads";

/** Numbers per file in a chunk's `stats`: size, mtimeMs, ctimeMs, ino, mode. */
export const STAT_FIELDS = 5;

/** Compile ignore patterns (see `SnapshotOptions.ignore`) into a predicate over (name, relPath). */
export function compileIgnore(patterns) {
  const names = new Set();
  const prefixes = [];
  const paths = [];
  for (const p of patterns) {
    const clean = p.replace(/^\.\//, "").replace(/\/+$/, "");
    if (clean.includes("/")) paths.push(clean);
    else if (clean.endsWith("*")) prefixes.push(clean.slice(0, -1));
    else if (clean !== "") names.add(clean);
  }
  if (prefixes.length === 0 && paths.length === 0) return (name) => names.has(name);
  return (name, rel) => {
    if (names.has(name)) return true;
    for (const p of prefixes) if (name.startsWith(p)) return true;
    for (const p of paths) if (rel === p || rel.startsWith(`${p}/`)) return true;
    return false;
  };
}

/** A new, empty chunk of walk results. */
export function newChunk() {
  return { rels: [], stats: [], odd: [] };
}

/**
 * List one directory into `chunk`: each file (anything but a directory) with its lstat numbers, each
 * subdirectory appended to `dirs` as [abs, rel]. A name containing U+FFFD (maybe not UTF-8 on disk) is
 * skipped and its directory recorded in `chunk.odd` for a byte-level pass. Returns false when the
 * directory cannot be listed (removed meanwhile).
 */
export function listDir(abs, rel, ignore, chunk, dirs) {
  let dirents;
  try {
    dirents = readdirSync(abs, { withFileTypes: true });
  } catch (error) {
    if (rel === "") throw error;
    return false;
  }
  let odd = false;
  for (const dirent of dirents) {
    const name = dirent.name;
    if (name.includes("\uFFFD")) {
      odd = true;
      continue;
    }
    const childRel = rel === "" ? name : `${rel}/${name}`;
    if (ignore(name, childRel)) continue;
    const childAbs = `${abs}/${name}`;
    if (dirent.isDirectory()) {
      dirs.push([childAbs, childRel]);
      continue;
    }
    let st;
    try {
      st = lstatSync(childAbs, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st === undefined) continue; // Vanished.
    if (st.isDirectory()) {
      dirs.push([childAbs, childRel]); // Became a directory after the listing.
      continue;
    }
    chunk.rels.push(childRel);
    chunk.stats.push(st.size, st.mtimeMs, st.ctimeMs, st.ino, st.mode);
  }
  if (odd) chunk.odd.push([abs, rel]);
  return true;
}

/** List a whole subtree (depth first, no recursion) into `chunk`. */
export function walkSubtree(abs, rel, ignore, chunk) {
  const stack = [[abs, rel]];
  while (stack.length > 0) {
    const [a, r] = stack.pop();
    listDir(a, r, ignore, chunk, stack);
  }
}

/**
 * Walk units (subtree roots) claimed one at a time from the shared counter `ctrl[0]`, until none is left.
 * Returns the chunk and the indices of the units it walked.
 */
export function walkClaimed(units, ctrl, ignore) {
  const chunk = newChunk();
  const done = [];
  for (;;) {
    const i = Atomics.add(ctrl, 0, 1);
    if (i >= units.length) break;
    walkSubtree(units[i][0], units[i][1], ignore, chunk);
    done.push(i);
  }
  return { chunk, done };
}

// Worker thread entry: only when started by walk-pool.ts (never when imported).
if (workerData?.role === "gauntlet-tree-walker") {
  const port = workerData.port;
  port.on("message", (m) => {
    const ctrl = new Int32Array(m.ctrl);
    const { chunk, done } = walkClaimed(m.units, ctrl, compileIgnore(m.ignore));
    if (done.length > 0) {
      const stats = Float64Array.from(chunk.stats);
      port.postMessage({ call: m.call, done, rels: chunk.rels.join("\0"), stats, odd: chunk.odd }, [
        stats.buffer,
      ]);
    }
    // Published after the results, so the main thread finds them queued once it sees the count.
    Atomics.add(ctrl, 1, done.length);
    Atomics.notify(ctrl, 1);
  });
}
