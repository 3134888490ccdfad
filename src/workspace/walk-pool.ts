import os from "node:os";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import {
  compileIgnore,
  listDir,
  newChunk,
  type WalkChunk,
  walkClaimed,
  walkSubtree,
} from "./tree-walker.mjs";

/**
 * Listing a large tree on several cores while staying synchronous for the caller. The main thread lists
 * the top levels breadth first until it has enough subtrees, then it and a few worker threads claim
 * subtrees from a shared counter and walk them (`readdir` + `lstat`); the main thread waits on an atomic
 * counter and takes the workers' results with `receiveMessageOnPort`. On a VM each `lstat` costs several
 * µs of kernel time, so for a 10,000-file tree this nearly halves a snapshot on two cores.
 */

/** All files of a tree with their stat numbers (see tree-walker.d.mts), in chunks. */
export interface TreeListing {
  chunks: WalkChunk[];
  /** Directories holding a name that may not be valid UTF-8: [abs, rel]. */
  odd: [string, string][];
}

/** Subtrees per thread to hand out; more balance better, fewer cost less hand-off. */
const UNITS_PER_THREAD = 8;
/** Give up on the workers (and walk what they hold here) after this long, ms. */
const WAIT_LIMIT_MS = 10_000;

interface Helper {
  worker: Worker;
  port: MessagePort;
}

interface HelperResult {
  call: number;
  done: number[];
  rels: string;
  stats: Float64Array;
  odd: [string, string][];
}

let helpers: Helper[] | undefined;
let calls = 0;

/** Worker threads we may use: one fewer than the CPUs, at most 3. */
function helperCount(): number {
  return Math.max(0, Math.min(3, os.availableParallelism() - 1));
}

function startHelpers(): Helper[] {
  if (helpers !== undefined) return helpers;
  const started: Helper[] = [];
  for (let i = 0; i < helperCount(); i++) {
    try {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(new URL("./tree-walker.mjs", import.meta.url), {
        workerData: { role: "gauntlet-tree-walker", port: port2 },
        transferList: [port2],
      });
      worker.unref(); // Never keeps the process alive.
      const drop = () => {
        helpers = helpers?.filter((h) => h.worker !== worker);
        port1.close();
      };
      worker.on("error", drop);
      worker.on("exit", drop);
      started.push({ worker, port: port1 });
    } catch {
      break; // No threads available: fewer helpers, or none.
    }
  }
  helpers = started;
  return helpers;
}

/**
 * List every file under `root` (anything but directories; symlinks not followed), skipping `ignore`d names.
 * @throws the underlying fs error when `root` itself cannot be listed
 */
export function listTree(root: string, ignore: readonly string[]): TreeListing {
  const isIgnored = compileIgnore(ignore);
  const mine = newChunk();
  let frontier: [string, string][] = [];
  listDir(root, "", isIgnored, mine, frontier);
  const target = UNITS_PER_THREAD * (helperCount() + 1);
  while (frontier.length > 0 && frontier.length < target) {
    const next: [string, string][] = [];
    for (const [abs, rel] of frontier) listDir(abs, rel, isIgnored, mine, next);
    frontier = next;
  }
  const pool = frontier.length > 0 ? startHelpers() : [];
  if (pool.length === 0) {
    for (const [abs, rel] of frontier) walkSubtree(abs, rel, isIgnored, mine);
    return { chunks: [mine], odd: mine.odd };
  }

  const call = ++calls;
  const ctrl = new Int32Array(new SharedArrayBuffer(8));
  for (const h of pool) h.port.postMessage({ call, units: frontier, ctrl: ctrl.buffer, ignore });
  const own = walkClaimed(frontier, ctrl, isIgnored);
  Atomics.add(ctrl, 1, own.done.length);
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const finished = Atomics.load(ctrl, 1);
    if (finished >= frontier.length || Date.now() > deadline) break;
    Atomics.wait(ctrl, 1, finished, 100);
  }

  const chunks: WalkChunk[] = [mine, own.chunk];
  const covered = new Set(own.done);
  for (const h of pool) {
    for (let m = receiveMessageOnPort(h.port); m !== undefined; m = receiveMessageOnPort(h.port)) {
      const result = m.message as HelperResult;
      if (result.call !== call) continue; // Late answer to an earlier listing.
      chunks.push({
        rels: result.rels === "" ? [] : result.rels.split("\0"),
        stats: result.stats,
        odd: result.odd,
      });
      for (const i of result.done) covered.add(i);
    }
  }
  // A worker that died or stalled holding a subtree: walk it here.
  for (let i = 0; i < frontier.length; i++) {
    if (!covered.has(i)) walkSubtree(frontier[i]![0], frontier[i]![1], isIgnored, mine);
  }
  return { chunks, odd: chunks.flatMap((c) => c.odd) };
}
