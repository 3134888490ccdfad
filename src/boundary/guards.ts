import { CUE, cueOf, type TestCase, type WorkflowGraph } from "./types.ts";

/**
 * Guard coverage (issue 15 §2): every guard and branch discovery saw — each refusal, not-found, error,
 * hand-off and confirmation-gate activity of the workflow graph, kept apart by topic (`refuse_limit`,
 * `refuse_identity`) — with the plan's tests that target it, so a person sees which guards no test presses on.
 */

/** One guard of the graph and the tests aimed at it. */
export interface GuardCoverage {
  /** The activity (`refuse_fee`, `request_confirmation`, `report_not_found`…). */
  activity: string;
  /** Its cue family (`refuse`, `request_confirmation`, …). */
  family: string;
  /** Replies of discovery labelled with it (the node's support). */
  support: number;
  /** Ids of the tests targeting it: a boundary test at the node or an edge into or out of it, a functional test that checks it. */
  tests: string[];
}

/** Cue families that are guards or branches of a workflow. */
const GUARD_FAMILIES = new Set<string>([CUE.refuse, CUE.notFound, CUE.error, CUE.transfer, CUE.gate]);

/** Whether an activity is a guard or branch ({@link GUARD_FAMILIES}). */
export const isGuard = (activity: string) => GUARD_FAMILIES.has(cueOf(activity));

/** The activities a test's checks name (success and failure). */
function checked(test: TestCase): Set<string> {
  const out = new Set<string>();
  for (const c of [...test.success, ...test.failure])
    if (c.check && "activity" in c.check) for (const a of c.check.activity ?? []) out.add(a);
  return out;
}

/**
 * The guards of `graph`, most-supported first, each with the tests of `tests` that target it: boundary tests
 * whose location is the node or an edge touching it, functional tests with a check naming the activity itself
 * (a family name alone, such as `refuse` in "no action after a refusal", targets no guard in particular).
 *
 * @returns one row per guard activity; `tests` empty for a guard no test targets
 */
export function guardCoverage(graph: WorkflowGraph, tests: readonly TestCase[]): GuardCoverage[] {
  const rows: GuardCoverage[] = [];
  for (const node of graph.nodes) {
    if (!isGuard(node.activity)) continue;
    const ids = tests
      .filter((t) => {
        if (t.kind === "boundary" && t.target)
          return t.target.location.split(" -> ").some((a) => a.trim() === node.activity);
        return t.kind === "functional" && checked(t).has(node.activity);
      })
      .map((t) => t.id);
    rows.push({ activity: node.activity, family: cueOf(node.activity), support: node.support, tests: ids });
  }
  return rows.sort((a, b) => b.support - a.support || (a.activity < b.activity ? -1 : 1));
}

/** One progress line: guards seen, targeted, and the untargeted ones by name. */
export function guardCoverageLine(rows: readonly GuardCoverage[]): string {
  const open = rows.filter((r) => !r.tests.length).map((r) => r.activity);
  return `plan: ${rows.length} guard(s) and branches seen in discovery, ${rows.length - open.length} targeted by a test${open.length ? `; no test targets ${open.join(", ")}` : ""}`;
}
