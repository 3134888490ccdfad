/**
 * The `metrics` stage (WitnessGym §4, Tables 3, 4, 7, 8): bug-validation success rates of evaluated agents,
 * broken down by agent, bug type, category, context-length bucket and transformation depth, each with the
 * NoEC and WithEC settings side by side. Pure functions over eval results.
 */

/** The fields of one eval result (one case × setting × agent) that metrics read. */
export interface EvalOutcome {
  caseId: string;
  agent: string;
  setting: "NoEC" | "WithEC";
  success: boolean;
  bugType: string;
  category: string;
  bucket: string;
  /** Applied transformation depth. */
  depth: number;
}

/** Successes over cases for one cell. */
export interface Rate {
  success: number;
  total: number;
  /** success / total, or null when total is 0. */
  rate: number | null;
}

/** One row of a breakdown: a group value with its rate per setting. */
export interface BreakdownRow {
  agent: string;
  /** The group's value (a bug type, a bucket, a depth as text, …); "all" for the per-agent table. */
  group: string;
  NoEC: Rate;
  WithEC: Rate;
}

/** Every breakdown of the paper's tables. */
export interface WitnessMetrics {
  /** Per agent over all cases (Table 3). */
  overall: BreakdownRow[];
  /** Per agent × bug type (Table 4). */
  byType: BreakdownRow[];
  byCategory: BreakdownRow[];
  /** Per agent × context-length bucket (Table 7), in bucket order. */
  byBucket: BreakdownRow[];
  /** Per agent × applied depth (Table 8), ascending. */
  byDepth: BreakdownRow[];
  /** Distinct cases and results read. */
  cases: number;
  results: number;
}

const BUCKET_ORDER = ["short", "mid-short", "mid-long", "long"];

/**
 * Compute every breakdown. A later result for the same (case, setting, agent) replaces an earlier one (a
 * resumed or re-run evaluation), so nothing is counted twice.
 * Source: WitnessGym §4 (success = the agent's witness is accepted by the differential predicate).
 */
export function computeWitnessMetrics(outcomes: readonly EvalOutcome[]): WitnessMetrics {
  const latest = new Map<string, EvalOutcome>();
  for (const o of outcomes) latest.set(`${o.caseId}\u0000${o.setting}\u0000${o.agent}`, o);
  const rows = [...latest.values()];
  const breakdown = (key: (o: EvalOutcome) => string, order?: (a: string, b: string) => number) => {
    const cells = new Map<string, { agent: string; group: string; NoEC: Rate; WithEC: Rate }>();
    for (const o of rows) {
      const group = key(o);
      const id = `${o.agent}\u0000${group}`;
      let cell = cells.get(id);
      if (!cell) {
        cell = { agent: o.agent, group, NoEC: emptyRate(), WithEC: emptyRate() };
        cells.set(id, cell);
      }
      const r = cell[o.setting];
      r.total++;
      if (o.success) r.success++;
    }
    const out = [...cells.values()].map((c) => ({ ...c, NoEC: finish(c.NoEC), WithEC: finish(c.WithEC) }));
    return out.sort(
      (a, b) => a.agent.localeCompare(b.agent) || (order ?? ((x, y) => x.localeCompare(y)))(a.group, b.group),
    );
  };
  const bucketRank = (b: string) => (BUCKET_ORDER.indexOf(b) + 1 || 99) - 1;
  return {
    overall: breakdown(() => "all"),
    byType: breakdown((o) => o.bugType),
    byCategory: breakdown((o) => o.category),
    byBucket: breakdown(
      (o) => o.bucket,
      (a, b) => bucketRank(a) - bucketRank(b),
    ),
    byDepth: breakdown(
      (o) => String(o.depth),
      (a, b) => Number(a) - Number(b),
    ),
    cases: new Set(rows.map((o) => o.caseId)).size,
    results: rows.length,
  };
}

/** The metrics as Markdown tables (one per breakdown), rates in percent with counts. */
export function formatWitnessMetrics(m: WitnessMetrics): string {
  const cell = (r: Rate) =>
    r.rate === null ? "–" : `${(r.rate * 100).toFixed(1)}% (${r.success}/${r.total})`;
  const table = (title: string, head: string, rows: BreakdownRow[]) => {
    const lines = [`## ${title}`, "", `| agent | ${head} | WithEC | NoEC |`, "|---|---|---|---|"];
    for (const r of rows) lines.push(`| ${r.agent} | ${r.group} | ${cell(r.WithEC)} | ${cell(r.NoEC)} |`);
    return lines.join("\n");
  };
  return [
    `# Witness evaluation metrics\n\n${m.cases} cases, ${m.results} results.`,
    table("Overall (Table 3)", "cases", m.overall),
    table("By bug type (Table 4)", "bug type", m.byType),
    table("By category", "category", m.byCategory),
    table("By context length (Table 7)", "bucket", m.byBucket),
    table("By transformation depth (Table 8)", "depth", m.byDepth),
  ].join("\n\n");
}

function emptyRate(): Rate {
  return { success: 0, total: 0, rate: null };
}

function finish(r: Rate): Rate {
  return { ...r, rate: r.total === 0 ? null : r.success / r.total };
}
