import type { Finding } from "../core/finding.ts";
import { stableId } from "../core/ids.ts";
import type { FuzzCase } from "./case.ts";
import { ORACLES, ORACLES_FOR_INCOMPLETE } from "./oracles/index.ts";
import type { CaseResult } from "./result.ts";

/**
 * Stage `check` (ABTest §3.5): run the oracles over each case result. Incomplete runs (the agent failed to
 * run a step) are filtered out as in the paper — only the timeout oracle still runs on them — and listed
 * with their reason.
 */

export interface FilteredRun {
  agent: string;
  caseId: string;
  reason: string;
}

/** Findings of one case result (pure). */
export function checkCase(fuzzCase: FuzzCase, result: CaseResult): Finding[] {
  const oracles = result.status === "complete" ? ORACLES : ORACLES_FOR_INCOMPLETE;
  return oracles.flatMap((oracle) =>
    oracle.check({ fuzzCase, result }).map((d) => ({
      id: stableId([result.agent, result.caseId, d.stepId ?? "", oracle.name, d.subject]),
      agent: result.agent,
      caseId: result.caseId,
      stepId: d.stepId,
      oracle: oracle.name,
      class: d.class,
      title: d.title,
      evidence: d.evidence,
      review: { status: "unreviewed" as const },
    })),
  );
}

/** Findings of every result, plus the runs filtered as incomplete. Results of unknown cases are skipped. */
export function checkResults(
  cases: readonly FuzzCase[],
  results: readonly CaseResult[],
): { findings: Finding[]; filtered: FilteredRun[] } {
  const byId = new Map(cases.map((c) => [c.caseId, c]));
  const findings: Finding[] = [];
  const filtered: FilteredRun[] = [];
  for (const r of results) {
    const c = byId.get(r.caseId);
    if (!c) continue;
    if (r.status === "incomplete")
      filtered.push({ agent: r.agent, caseId: r.caseId, reason: r.incompleteReason ?? "incomplete" });
    findings.push(...checkCase(c, r));
  }
  return { findings, filtered };
}
