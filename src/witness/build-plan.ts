import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../core/errors.ts";
import { seededRandom, seededShuffle } from "../score/calibrate/prng.ts";
import type { BuildEvent, BuildOptions } from "./build.ts";
import { collectContexts } from "./contexts.ts";
import { listFunctions } from "./functions.ts";
import { enumerateCandidates } from "./inject.ts";
import type { WitnessProject } from "./project.ts";
import type { BugCandidate, BugTypeId, ExecutionContext } from "./types.ts";

/**
 * What a build attempts, and in which order: the contexts (collected once per project version and kept in
 * `contexts.json`), every candidate bug in test-reached functions, and a seeded, type-interleaved queue.
 */

/** The contexts of `contexts.json` when it was written for this project version, else collected (and saved). */
export async function loadOrCollectContexts(
  project: WitnessProject,
  options: BuildOptions,
  emit: (e: BuildEvent) => void,
): Promise<{ contexts: ExecutionContext[]; collected: boolean; wallMs: number }> {
  const started = Date.now();
  const file = path.join(options.outDir, "contexts.json");
  const key = `${project.name}@${project.version ?? ""} (${project.dir})`;
  let saved: { project?: unknown; contexts?: ExecutionContext[] } | undefined;
  try {
    saved = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    saved = undefined; // Not collected yet (or unreadable): collect again.
  }
  if (saved?.project === key && saved.contexts)
    return { contexts: saved.contexts, collected: false, wallMs: 0 };
  if (typeof saved?.project === "string")
    throw new InputError(
      { field: "--out" },
      `${options.outDir} holds a build of ${saved.project}, not of ${key}`,
      "give each project (and version) its own --out folder",
    );
  const { contexts, skipped, notes } = await collectContexts(project, {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onProgress: (done, total, test) => emit({ kind: "contexts", done, total, test }),
  });
  for (const s of skipped) {
    const why =
      s.outcome === "untraced" ? "no production function could be traced" : `${s.outcome} on clean code`;
    emit({ kind: "log", message: `skipped test ${s.test}: ${why}` });
  }
  for (const note of notes) emit({ kind: "log", message: note });
  writeFileSync(file, `${JSON.stringify({ project: key, contexts, skipped }, null, 2)}\n`);
  return { contexts, collected: true, wallMs: Date.now() - started };
}

/** Every (context, candidate) pair: each candidate once, with the reaching test of the shortest context. */
export function candidatePairs(
  project: WitnessProject,
  contexts: readonly ExecutionContext[],
  types: readonly BugTypeId[],
): { context: ExecutionContext; candidate: BugCandidate }[] {
  const byId = new Map<string, { context: ExecutionContext; candidate: BugCandidate }>();
  const texts = new Map<string, string>();
  const ordered = [...contexts].sort((a, b) => a.length - b.length || a.test.file.localeCompare(b.test.file));
  for (const context of ordered) {
    const files = [...new Set(context.functions.map((f) => f.file))];
    for (const file of files) {
      let text = texts.get(file);
      if (text === undefined) {
        text = readFileSync(path.join(project.dir, file), "utf8");
        texts.set(file, text);
      }
      const reached = new Set(context.functions.filter((f) => f.file === file).map((f) => f.id));
      const functions = listFunctions(file, text).filter((f) => reached.has(f.id));
      for (const candidate of enumerateCandidates({ file, text, functions, types })) {
        if (!byId.has(candidate.id)) byId.set(candidate.id, { context, candidate });
      }
    }
  }
  return [...byId.values()];
}

/** Candidates in a seeded order, types interleaved (round robin), at most `perType` of each type. */
export function interleaveByType<T extends { candidate: BugCandidate }>(
  items: readonly T[],
  seed: number,
  perType: number,
): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const g = groups.get(item.candidate.type) ?? [];
    g.push(item);
    groups.set(item.candidate.type, g);
  }
  const lists = [...groups.keys()]
    .sort()
    .map((k) => seededShuffle(groups.get(k)!, seededRandom(seed)).slice(0, perType));
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++)
    for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}
