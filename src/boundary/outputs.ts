import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type GuardCoverage, guardCoverage } from "./guards.ts";
import { toJunitXml } from "./junit.ts";
import type { CampaignOptions } from "./pipeline.ts";
import type { PlanFile } from "./plan.ts";
import { renderBoundaryReport } from "./report-html.ts";
import type { RejectedTest } from "./stabilise.ts";
import type { AuditSummary, SessionTrace, StageCost, TestRun, WorkflowGraph } from "./types.ts";

/**
 * What a boundary campaign leaves for people and CI (issue 5 §3): `summary.json` (counts, verdicts, costs per
 * stage, tokens per distinct boundary, the audit), and for a run of a plan `report.html` and `junit.xml`.
 */

/** The campaign's `summary.json`. */
export interface CampaignSummary {
  target: string;
  createdAt: string;
  engines: Record<string, string>;
  traces: number;
  graph: { activities: number; transitions: number; entry: number; terminal: number };
  tests: { functional: number; boundary: number };
  verdicts: Record<"pass" | "fail" | "inconclusive", number>;
  /** Runs the target could not answer (unreachable, timeout, crash): inconclusive, and a CI failure. */
  targetErrors: number;
  costs: StageCost[];
  /** Model tokens (in + out) per distinct boundary; null without an audit or without model calls. */
  tokensPerDistinctBoundary: number | null;
  /** Every guard and branch discovery saw, with the tests that target it (guards.ts). */
  guards: GuardCoverage[];
  audit?: AuditSummary;
}

/**
 * A JSON side file of the campaign (`name` in its folder `dir`, else beside the plan `run --plan` ran, whose
 * folder holds its `graph.svg`), parsed; undefined when absent or damaged — a damaged side file only costs the
 * report its section.
 */
function sideFile(name: string, dir: string, svgFile: string | undefined): unknown {
  const file = [path.join(dir, name), svgFile && path.join(path.dirname(svgFile), name)].find(
    (f): f is string => !!f && existsSync(f),
  );
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Write `summary.json`, and for a run of a plan `report.html` (with the graph picture when there is one) and
 * `junit.xml` — an empty plan's included, since CI reads the JUnit file.
 * @returns the summary written
 */
export function writeCampaignOutputs(
  options: Pick<CampaignOptions, "dir" | "spec" | "engines" | "until" | "graphSvgFile">,
  r: {
    traces: SessionTrace[];
    graph?: WorkflowGraph;
    plan?: PlanFile;
    runs: TestRun[];
    costs: StageCost[];
    audit?: AuditSummary;
  },
): CampaignSummary {
  const file = (name: string) => path.join(options.dir, name);
  const verdicts = { pass: 0, fail: 0, inconclusive: 0 };
  for (const run of r.runs) verdicts[run.verdict.verdict]++;
  const tokens = r.costs.reduce((n, c) => n + c.inputTokens + c.outputTokens, 0);
  const distinct = r.audit?.boundary.distinct ?? 0;
  // `run --plan` reads the graph made with the plan from beside it (the guards table).
  const saved =
    r.graph || !r.plan
      ? undefined
      : (sideFile("graph.json", options.dir, options.graphSvgFile) as WorkflowGraph | undefined);
  const graph = r.graph ?? (Array.isArray(saved?.nodes) ? saved : undefined);
  const summary: CampaignSummary = {
    target: options.spec,
    createdAt: new Date().toISOString(),
    engines: options.engines.engines ?? {},
    traces: r.traces.length,
    graph: {
      activities: r.graph?.nodes.length ?? 0,
      transitions: r.graph?.edges.length ?? 0,
      entry: Object.keys(r.graph?.entry ?? {}).length,
      terminal: Object.keys(r.graph?.terminal ?? {}).length,
    },
    tests: {
      functional: r.plan?.tests.filter((t) => t.kind === "functional").length ?? 0,
      boundary: r.plan?.tests.filter((t) => t.kind === "boundary").length ?? 0,
    },
    verdicts,
    targetErrors: r.runs.filter((run) => run.error).length,
    costs: r.costs,
    tokensPerDistinctBoundary: distinct && tokens ? Math.round(tokens / distinct) : null,
    guards: r.plan && graph ? guardCoverage(graph, r.plan.tests) : [],
    ...(r.audit ? { audit: r.audit } : {}),
  };
  writeFileSync(file("summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  // A run of a plan always leaves its report and JUnit file, an empty plan's included (CI reads junit.xml).
  if (r.plan && (options.until === undefined || options.until === "run")) {
    const svgFile = r.graph ? file("graph.svg") : options.graphSvgFile;
    const svg = svgFile && existsSync(svgFile) ? readFileSync(svgFile, "utf8") : undefined;
    const stable = sideFile("stabilise.json", options.dir, options.graphSvgFile) as
      | { rejected?: unknown }
      | undefined;
    writeFileSync(
      file("report.html"),
      renderBoundaryReport({
        target: options.spec,
        createdAt: summary.createdAt,
        ...(svg ? { graphSvg: svg } : {}),
        ...(r.graph ? { graph: r.graph } : {}),
        tests: r.plan.tests,
        guards: summary.guards,
        // Tests the agent failed at plan time (stabilise.ts): each may be a real fault of that agent.
        rejected: Array.isArray(stable?.rejected) ? (stable.rejected as RejectedTest[]) : [],
        runs: r.runs,
        costs: r.costs,
        ...(r.audit ? { audit: r.audit } : {}),
        ...(summary.tokensPerDistinctBoundary !== null
          ? { tokensPerDistinctBoundary: summary.tokensPerDistinctBoundary }
          : {}),
      }),
    );
    writeFileSync(file("junit.xml"), toJunitXml(`gauntlet boundary ${options.spec}`, r.plan.tests, r.runs));
  }
  return summary;
}
