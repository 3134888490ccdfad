import { InputError } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";
import { enclosingFunction, listFunctions, parses } from "./functions.ts";
import {
  identicalComparisons,
  inconsistentKeys,
  keysWithoutIdentity,
  memberTypos,
} from "./mutators/api-contract.ts";
import { indexTree, type Mutation, type Splice, type Tree } from "./mutators/ast.ts";
import { guardInversions, misroutings, skippedCounters } from "./mutators/logic.ts";
import { elementNullifications, nullGuardRemovals } from "./mutators/value-flow.ts";
import {
  BUG_TYPE_IDS,
  type BugCandidate,
  type BugTypeId,
  type SourceFunction,
  type TextEdit,
} from "./types.ts";

/**
 * The `inject` stage's deterministic engine (WitnessGym §3.2, Table 5; notes §6.1): every site of the
 * requested bug types inside test-reached functions, as formatting-preserving text splices located with
 * Babel. The codemods live in `mutators/` (one file per category); this file filters, checks and packages.
 */

/** The codemods of each type (a codemod may produce several types; results are filtered by type). */
const CODEMODS: Record<BugTypeId, (tree: Tree) => Mutation[]> = {
  "identical-comparison": identicalComparisons,
  "protocol-method-typo": memberTypos,
  "key-method-typo": memberTypos,
  "key-without-identity": keysWithoutIdentity,
  "inconsistent-key-identity": inconsistentKeys,
  "intra-function-null-deref": nullGuardRemovals,
  "collection-element-null-deref": elementNullifications,
  "guard-predicate-inversion": guardInversions,
  "skipped-aggregation-counter": skippedCounters,
  "in-bounds-misrouting": misroutings,
};

/** Input of {@link enumerateCandidates}. */
export interface EnumerateInput {
  /** Project-relative POSIX path of the file. */
  file: string;
  /** The clean text of the file. */
  text: string;
  /**
   * The functions of this file that may hold a site (the test's context in this file). A site belongs to its
   * innermost function among all functions of the file, so a site inside a nested function that is not listed
   * is not a candidate even when its outer function is.
   */
  functions: readonly SourceFunction[];
  types: readonly BugTypeId[];
}

/**
 * Every site of the given types inside the given functions of one file, as ready-to-apply candidates: the
 * buggy text parses, `site` is the mutated range in the buggy text, `location.span` the range in the clean
 * text. Order: by position in the file, then by type (Table 5 order), then by id; the same input always
 * gives the same list.
 *
 * @throws InputError when the text does not parse (see `parseSource`)
 * Source: WitnessGym Table 5 (types), App. C "Buggy Code Injection"; notes §6.1 (codemods).
 */
export function enumerateCandidates(input: EnumerateInput): BugCandidate[] {
  const { file, text } = input;
  const tree = indexTree(file, text);
  const all = listFunctions(file, text);
  const allowed = new Set(input.functions.map((f) => `${f.start}:${f.end}`));
  const types = BUG_TYPE_IDS.filter((t) => input.types.includes(t));
  const seen = new Set<string>();
  const out: BugCandidate[] = [];
  const ran = new Set<(tree: Tree) => Mutation[]>();
  for (const type of types) {
    const codemod = CODEMODS[type];
    if (ran.has(codemod)) continue;
    ran.add(codemod);
    for (const mutation of codemod(tree)) {
      if (!types.includes(mutation.type)) continue;
      const fn = enclosingFunction(all, mutation.anchor.start, mutation.anchor.end);
      if (!fn || !allowed.has(`${fn.start}:${fn.end}`)) continue;
      const candidate = toCandidate(file, text, fn, mutation);
      if (!candidate || seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      out.push(candidate);
    }
  }
  const rank = (t: BugTypeId) => BUG_TYPE_IDS.indexOf(t);
  return out.sort(
    (a, b) =>
      a.location.span.start - b.location.span.start ||
      rank(a.type) - rank(b.type) ||
      a.location.span.end - b.location.span.end ||
      a.id.localeCompare(b.id),
  );
}

/** Package one mutation; undefined when its edits overlap, leave the function, change nothing, or break parsing. */
function toCandidate(file: string, text: string, fn: SourceFunction, m: Mutation): BugCandidate | undefined {
  const edits = [...m.edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const scope = m.editScope ?? fn;
  if (edits.length === 0 || edits.some((e) => e.start < scope.start || e.end > scope.end)) return undefined;
  for (let i = 1; i < edits.length; i++) if (edits[i]!.start < edits[i - 1]!.end) return undefined;
  const fileEdits: TextEdit[] = edits.map((e) => ({ file, start: e.start, end: e.end, text: e.text }));
  const buggy = applyEdits(text, fileEdits);
  if (buggy === text || !parses(file, buggy)) return undefined;
  const span = { start: edits[0]!.start, end: Math.max(...edits.map((e) => e.end)) };
  return {
    id: sha256([m.type, file, JSON.stringify(edits.map((e) => [e.start, e.end, e.text]))].join("\0")).slice(
      0,
      12,
    ),
    type: m.type,
    function: { id: fn.id, file: fn.file, name: fn.name, line: fn.line },
    location: { file, line: lineOf(text, span.start), span },
    edits: fileEdits,
    site: siteInBuggy(edits),
    summary: m.summary,
  };
}

/** The range the edits cover, in the buggy text: from the first edit's start to the last edit's new end. */
function siteInBuggy(edits: readonly Splice[]): { start: number; end: number } {
  let shift = 0;
  let first: number | undefined;
  let last = 0;
  for (const e of edits) {
    const s = e.start + shift;
    first ??= s;
    last = s + e.text.length;
    shift += e.text.length - (e.end - e.start);
  }
  return { start: first ?? 0, end: last };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Apply non-overlapping edits, given in any order, to a text (the file field is not checked).
 * @throws InputError when two edits overlap or one lies outside the text
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (e.start < at || e.end < e.start || e.end > text.length)
      throw new InputError(
        { file: e.file },
        `edit [${e.start}, ${e.end}) overlaps another edit or lies outside the text (length ${text.length})`,
        "edits must be non-overlapping ranges of the clean text",
      );
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}
