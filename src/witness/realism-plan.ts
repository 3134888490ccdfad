import { readFileSync } from "node:fs";
import { z } from "zod";
import { InputError } from "../core/errors.ts";
import { readJsonl } from "../core/jsonl.ts";
import { seededShuffle } from "../score/calibrate/prng.ts";
import {
  ARTEFACT_KINDS,
  type ArtefactKind,
  addArtefact,
  type EditSize,
  editSize,
  formatStandardPatch,
  type PatchFile,
  parseUnifiedDiff,
  reversePatch,
  trimContext,
} from "./realism-patches.ts";

/**
 * The design of the blinded patch-realism study (WitnessGym App. H.1): its inputs (injected patches, and
 * historical bug patches read from a JSONL file), the sample of injected patches stratified by repository and
 * bug type, matching each to a historical patch of the same repository and a similar edit, the bootstrap
 * clusters, and the positive controls (a seeded choice of pairs whose injected patch gets an artefact).
 */

/** An injected patch to judge (one witness case). */
export const InjectedPatch = z
  .object({
    id: z.string().min(1).describe("Case id."),
    cluster: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Cases sharing an original injection share it (e.g. the candidate id); default: the case id.",
      ),
    repo: z.string().min(1).describe("Repository (project) the patch belongs to."),
    bugType: z.string().optional().describe("Bug type id (stratifies the sample)."),
    category: z.string().optional().describe("Bug category (considered when matching)."),
    patch: z.string().min(1).describe("Unified diff of the production code, working → buggy."),
  })
  .describe("An injected bug patch of the realism study.");
export type InjectedPatch = z.infer<typeof InjectedPatch>;

/** A line of the historical-patch JSONL file the user supplies. */
export const HistoricalPatch = z
  .object({
    id: z
      .string()
      .min(1)
      .describe("Id of the historical bug (e.g. an issue or commit id; never shown to judges)."),
    repo: z.string().min(1).describe("Repository, spelled as the injected patches spell it."),
    patch: z.string().min(1).describe("Unified diff of the production code."),
    direction: z
      .enum(["fix", "bug"])
      .describe(
        "fix: the diff fixes the bug (it is reversed); bug: it introduces the bug (working → buggy).",
      ),
    category: z.string().optional().describe("Bug category, when known (considered when matching)."),
  })
  .describe("A historical bug patch, the control of the realism study.");
export type HistoricalPatch = z.infer<typeof HistoricalPatch>;

/** A patch ready for the study: parsed, in the working → buggy direction, measured. */
export interface StudyPatch {
  /** `injected:<id>` or `historical:<id>`. */
  id: string;
  source: "injected" | "historical";
  repo: string;
  category?: string | undefined;
  files: PatchFile[];
  size: EditSize;
}

/**
 * Read the historical patches: each line validated, its diff parsed, fixes reversed to the bug direction.
 * @throws InputError naming `file:line` and the field for a bad line, an unparsable diff or a repeated id
 */
export function loadHistoricalPatches(file: string): StudyPatch[] {
  const records = readJsonl(file, HistoricalPatch);
  // readJsonl skips blank lines: the file line of record i is the i-th non-blank line.
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .flatMap((l, i) => (l.trim() ? [i + 1] : []));
  const seen = new Set<string>();
  return records.map((h, i) => {
    const where = { file, line: lines[i]! };
    if (seen.has(h.id))
      throw new InputError({ ...where, field: "id" }, `repeats id "${h.id}"`, "give each patch its own id");
    seen.add(h.id);
    return historicalPatch(h, where);
  });
}

/** One historical record as a study patch. @throws InputError naming `where` and `patch` for a bad diff */
export function historicalPatch(
  h: HistoricalPatch,
  where: { file?: string; line?: number } = {},
): StudyPatch {
  const files = parseDiff(h.patch, { ...where, field: "patch" });
  return studyPatch(
    `historical:${h.id}`,
    "historical",
    h,
    h.direction === "fix" ? reversePatch(files) : files,
  );
}

/** One injected record as a study patch. @throws InputError naming `field` for a bad diff */
export function injectedPatch(p: InjectedPatch, field = "patch"): StudyPatch {
  return studyPatch(`injected:${p.id}`, "injected", p, parseDiff(p.patch, { field }));
}

/** The standardized text judges see: at most `context` lines of context per hunk edge. */
export function blindedText(patch: StudyPatch, context: number): string {
  return formatStandardPatch(trimContext(patch.files, context));
}

/** A matched pair: an injected patch and its historical control. */
export interface RealismPair {
  /** `<case id>~<historical id>`. */
  id: string;
  /** Bootstrap cluster (pairs sharing an original injection or a historical control share one). */
  cluster: string;
  injected: StudyPatch;
  historical: StudyPatch;
}

/** A positive control: a pair whose injected patch carries an artefact. */
export interface ControlPair extends RealismPair {
  artefact: ArtefactKind;
}

/**
 * A sample of `n` items stratified by `stratum` (proportional allocation, largest remainders, ties by stratum
 * name), shuffled within strata by `random`. All items when `n` is at least their number.
 */
export function stratifiedSample<T>(
  items: readonly T[],
  stratum: (t: T) => string,
  n: number,
  random: () => number,
): T[] {
  if (n >= items.length) return [...items];
  const strata = [...groupBy(items, stratum)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, list]) => ({ list, exact: (list.length * n) / items.length, take: 0 }));
  for (const s of strata) s.take = Math.floor(s.exact);
  let left = n - strata.reduce((sum, s) => sum + s.take, 0);
  for (const s of [...strata].sort((a, b) => b.exact - b.take - (a.exact - a.take))) if (left-- > 0) s.take++;
  return strata.flatMap((s) => shuffle(s.list, random).slice(0, s.take));
}

/**
 * Distance of a historical patch to an injected one: |ln((a+1)/(b+1))| of changed lines, plus 0.25 per
 * changed-file difference, 0.1 per hunk difference and 0.5 when both categories are known and differ.
 */
export function matchDistance(injected: StudyPatch, historical: StudyPatch): number {
  const a = injected.size;
  const b = historical.size;
  return (
    Math.abs(Math.log((a.changedLines + 1) / (b.changedLines + 1))) +
    0.25 * Math.abs(a.files - b.files) +
    0.1 * Math.abs(a.hunks - b.hunks) +
    (injected.category && historical.category && injected.category !== historical.category ? 0.5 : 0)
  );
}

/**
 * Match each injected patch (in the given order) to the nearest historical patch of its repository, preferring
 * ones not used yet (a reused control joins the clusters of its pairs). Injected patches of a repository without
 * historical patches are returned as unmatched. Clusters unite case clusters and historical ids (union-find),
 * named by their smallest member.
 */
export function matchPairs(
  injected: readonly { patch: StudyPatch; cluster: string }[],
  historical: readonly StudyPatch[],
): { pairs: RealismPair[]; unmatched: string[] } {
  const used = new Set<string>();
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const root = find(p);
    parent.set(x, root);
    return root;
  };
  const matched: { injected: StudyPatch; historical: StudyPatch; cluster: string }[] = [];
  const unmatched: string[] = [];
  for (const i of injected) {
    const candidates = historical.filter((h) => h.repo === i.patch.repo);
    const fresh = candidates.filter((h) => !used.has(h.id));
    const pool = fresh.length ? fresh : candidates;
    const best = pool
      .map((h) => ({ h, d: matchDistance(i.patch, h) }))
      .sort((x, y) => x.d - y.d || x.h.id.localeCompare(y.h.id))[0]?.h;
    if (!best) {
      unmatched.push(i.patch.id);
      continue;
    }
    used.add(best.id);
    const [a, b] = [find(`case:${i.cluster}`), find(best.id)].sort();
    if (a !== b) parent.set(b!, a!);
    matched.push({ injected: i.patch, historical: best, cluster: `case:${i.cluster}` });
  }
  const pairs = matched.map((m) => ({
    id: `${m.injected.id.slice("injected:".length)}~${m.historical.id.slice("historical:".length)}`,
    cluster: find(m.cluster),
    injected: m.injected,
    historical: m.historical,
  }));
  return { pairs, unmatched };
}

/**
 * The positive controls: `n` pairs chosen by `random` (never by judge success), their injected patch given an
 * artefact, the kinds taken in turn.
 */
export function positiveControls(
  pairs: readonly RealismPair[],
  n: number,
  random: () => number,
): ControlPair[] {
  return shuffle(pairs, random)
    .slice(0, n)
    .map((p, i) => {
      const artefact = ARTEFACT_KINDS[i % ARTEFACT_KINDS.length]!;
      return { ...p, artefact, injected: { ...p.injected, files: addArtefact(p.injected.files, artefact) } };
    });
}

/** A seeded Fisher–Yates shuffle (a copy): the shared {@link seededShuffle}. */
export const shuffle = seededShuffle;

function parseDiff(text: string, where: { file?: string; line?: number; field: string }): PatchFile[] {
  try {
    return parseUnifiedDiff(text);
  } catch (error) {
    throw new InputError(
      where,
      `not a unified diff: ${(error as Error).message}`,
      "give the patch as `git diff` prints it",
    );
  }
}

function studyPatch(
  id: string,
  source: StudyPatch["source"],
  p: { repo: string; category?: string | undefined },
  files: PatchFile[],
): StudyPatch {
  return { id, source, repo: p.repo, category: p.category, files, size: editSize(files) };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const list = out.get(key(t));
    if (list) list.push(t);
    else out.set(key(t), [t]);
  }
  return out;
}
