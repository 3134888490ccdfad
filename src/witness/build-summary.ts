import type { BuildAttempt } from "./build.ts";
import type { WitnessProject } from "./project.ts";

/** The figures of a build (printed by `gauntlet witness build`, written to `summary.json`). */

/** What a build produced. */
export interface BuildSummary {
  project: { spec: string; name: string; version?: string; runner: string };
  tests: number;
  contexts: number;
  candidatesFound: number;
  attempted: number;
  accepted: number;
  /** accepted / attempted (WitnessGym reports 63%), or null when nothing was attempted. */
  acceptanceRate: number | null;
  rejections: Record<string, number>;
  byType: Record<string, { attempted: number; accepted: number; cases: number }>;
  cases: { id: string; type: string; depth: number; bucket: string }[];
  casesByDepth: Record<string, number>;
  /** Wall time of this run, ms, and the part spent in the project's own test runs. */
  wallMs: number;
  testRunMs: number;
  /** Test runs made by this invocation (contexts, clean baselines, buggy runs). */
  testRuns: number;
}

/** Tally the attempts of a build (all of them, earlier runs' included). */
export function summarise(
  project: WitnessProject,
  contexts: number,
  found: number,
  attempts: readonly BuildAttempt[],
  wallMs: number,
  testRunMs: number,
  testRuns: number,
): BuildSummary {
  const byType: BuildSummary["byType"] = {};
  const rejections: Record<string, number> = {};
  const cases: BuildSummary["cases"] = [];
  const casesByDepth: Record<string, number> = {};
  for (const a of attempts) {
    byType[a.type] ??= { attempted: 0, accepted: 0, cases: 0 };
    const t = byType[a.type]!;
    t.attempted++;
    if (a.accepted) t.accepted++;
    else {
      const why = a.reason.replace(/ \(.*\)$/, "").replace(/run \d+ of \d+/, "run N");
      rejections[why] = (rejections[why] ?? 0) + 1;
    }
    for (const d of a.depths) {
      if (!d.caseId) continue;
      t.cases++;
      casesByDepth[String(d.requested)] = (casesByDepth[String(d.requested)] ?? 0) + 1;
      cases.push({ id: d.caseId, type: a.type, depth: d.applied, bucket: a.bucket });
    }
  }
  const accepted = attempts.filter((a) => a.accepted).length;
  return {
    project: { spec: project.spec, name: project.name, version: project.version, runner: project.runner },
    tests: project.testFiles.length,
    contexts,
    candidatesFound: found,
    attempted: attempts.length,
    accepted,
    acceptanceRate: attempts.length ? accepted / attempts.length : null,
    rejections,
    byType,
    cases,
    casesByDepth,
    wallMs,
    testRunMs,
    testRuns,
  };
}
