import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type * as t from "@babel/types";
import { children, isFunctionNode, listFunctions, parseSource, parses } from "./functions.ts";
import type { SourceFunction } from "./types.ts";

/**
 * Entry probes: the contexts stage's way to see in which order a test first enters production functions
 * (V8 coverage gives sets and counts, not order). Each function body of a copy of the production code gets
 * `globalThis.__gauntletEnter?.(id)` as its first statement, and each module one at its top; a preload
 * (`node --require`) defines the recorder, which appends every first entry to a log at once (so a worker
 * killed by its runner still leaves it) and flushes call counts every 100 ms, at exit and on SIGTERM. Probes are plain
 * text insertions on the lines they belong to, so line numbers in stack traces do not move.
 */

/** What a probe id stands for. */
export type ProbeTarget = { kind: "function"; fn: SourceFunction } | { kind: "module"; file: string };

/** A production file with probes inserted. */
export interface InstrumentedSource {
  text: string;
  /** Target of probe id `firstId + i`: the file's functions in source order, then the module itself. */
  targets: ProbeTarget[];
}

const probe = (id: number) => `globalThis.__gauntletEnter?.(${id})`;

/**
 * Insert probes into one file: after the opening brace (and any directive prologue, so `'use strict'` stays
 * a directive) of every block body, as `(probe, expr)` around every arrow expression body, and after the
 * program's directives (or `#!` line) for the module.
 * @param firstId id of the first probe; the file uses ids `firstId … firstId + targets.length - 1`
 * @returns undefined when the instrumented text no longer parses (the file is then left as it was)
 * @throws InputError when `text` itself does not parse
 */
export function instrumentSource(
  file: string,
  text: string,
  firstId: number,
): InstrumentedSource | undefined {
  const ast = parseSource(file, text);
  const functions = listFunctions(file, text, ast);
  const nodes = new Map<number, t.Function>();
  const visit = (node: t.Node): void => {
    if (isFunctionNode(node) && node.start != null) nodes.set(node.start, node);
    for (const child of children(node)) visit(child);
  };
  visit(ast.program);
  const edits: { at: number; text: string }[] = [];
  functions.forEach((fn, i) => {
    const body = nodes.get(fn.start)?.body;
    if (body == null || body.start == null || body.end == null) return;
    const id = firstId + i;
    if (body.type === "BlockStatement") {
      const last = body.directives.at(-1);
      edits.push({ at: last?.end ?? body.start + 1, text: `;${probe(id)};` });
    } else {
      edits.push({ at: body.start, text: `(${probe(id)}, ` }, { at: body.end, text: ")" });
    }
  });
  const moduleId = firstId + functions.length;
  const lastDirective = ast.program.directives.at(-1);
  const interpreter = ast.program.interpreter;
  const afterShebang = interpreter?.end != null ? text.indexOf("\n", interpreter.end) + 1 : 0;
  const top = lastDirective?.end ?? (afterShebang > 0 ? afterShebang : interpreter ? text.length : 0);
  edits.push({ at: top, text: `;${probe(moduleId)};` });
  // Right to left; equal offsets (closing parens of nested arrows) are identical text.
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  if (!parses(file, out)) return undefined;
  return {
    text: out,
    targets: [...functions.map((fn) => ({ kind: "function" as const, fn })), { kind: "module", file }],
  };
}

/**
 * The preload module (CommonJS, for `NODE_OPTIONS=--require <file>`): defines `globalThis.__gauntletEnter`
 * (non-enumerable, so mocha's leak check ignores it; jest's node environment copies it into each test's
 * context) when `GAUNTLET_TRACE_DIR` is set. Writes `enter-<pid>-<thread>.log` (`<id> <epoch ms>` per first
 * entry) and `counts-<pid>-<thread>.json` there. Keeps its own references to timers, clock and fs, so fake
 * timers and clock mocks in tests do not reach it.
 */
export const PROBE_PRELOAD = `'use strict';
const dir = process.env.GAUNTLET_TRACE_DIR;
if (dir && !globalThis.__gauntletEnter) {
  const fs = require('fs');
  const path = require('path');
  let thread = 0;
  try { thread = require('worker_threads').threadId; } catch {}
  const tag = process.pid + '-' + thread;
  const log = path.join(dir, 'enter-' + tag + '.log');
  const countsFile = path.join(dir, 'counts-' + tag + '.json');
  const append = fs.appendFileSync, write = fs.writeFileSync;
  const origin = performance.timeOrigin, now = performance.now.bind(performance);
  const counts = new Map();
  let dirty = false;
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    try { write(countsFile, JSON.stringify(Object.fromEntries(counts))); } catch {}
  };
  const enter = (id) => {
    dirty = true;
    const c = counts.get(id);
    if (c !== undefined) { counts.set(id, c + 1); return; }
    counts.set(id, 1);
    try { append(log, id + ' ' + (origin + now()) + '\\n'); } catch {}
  };
  Object.defineProperty(globalThis, '__gauntletEnter', { value: enter, configurable: true, writable: true });
  setInterval(flush, 100).unref();
  process.on('exit', flush);
  // Runners end their workers with SIGTERM (vitest): flush, then die of it as before unless someone else listens.
  const onTerm = () => {
    flush();
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  };
  process.once('SIGTERM', onTerm);
}
`;

/** One probe a run hit: its id and how often (summed over processes). */
export interface ProbeHit {
  id: number;
  calls: number;
}

/**
 * The probes hit in a run, in first-entry order: per process in log order, across processes by the time of
 * each first entry. A process whose counts were not flushed since its last calls (SIGKILLed, or a worker
 * thread terminated, within 100 ms of them) counts what was flushed, and at least 1 call per probe entered.
 */
export function readProbeTrace(traceDir: string): ProbeHit[] {
  let names: string[];
  try {
    names = readdirSync(traceDir);
  } catch {
    return [];
  }
  const events: { id: number; time: number; proc: number; seq: number }[] = [];
  const calls = new Map<number, number>();
  names.forEach((name, proc) => {
    const tag = /^enter-(.+)\.log$/.exec(name)?.[1];
    if (tag === undefined) return;
    const entered = readFileSync(path.join(traceDir, name), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line, seq) => {
        const [id, time] = line.split(" ").map(Number);
        return { id: id ?? -1, time: time ?? 0, proc, seq };
      });
    events.push(...entered);
    let counts: Record<string, number> = {};
    try {
      counts = JSON.parse(readFileSync(path.join(traceDir, `counts-${tag}.json`), "utf8"));
    } catch {
      // Not flushed: one call per entered probe.
    }
    for (const e of entered) calls.set(e.id, (calls.get(e.id) ?? 0) + Math.max(1, counts[e.id] ?? 1));
  });
  events.sort((a, b) => a.time - b.time || a.proc - b.proc || a.seq - b.seq);
  const seen = new Set<number>();
  const out: ProbeHit[] = [];
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push({ id: e.id, calls: calls.get(e.id) ?? 1 });
  }
  return out;
}
