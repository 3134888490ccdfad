import path from "node:path";
import { z } from "zod";
import { mdTable, textTable } from "../report/tables.ts";
import { GROUP_KEYS, type GroupKey, GroupSummary } from "./compare.ts";
import { CONTROL_ASPECTS, OPPORTUNITY_HALF_WEIGHT } from "./control.ts";
import { CATEGORIES, CATEGORY_NAMES } from "./defects.ts";
import { Scorecard } from "./scorecard.ts";

/**
 * The score report (ProcCtrlBench §3.1 benchmark output): every scorecard, the group comparison, and what
 * could not be read — as JSON (`score.json`), Markdown (`score.md`) and text tables for the terminal.
 */

export const ScoreReport = z
  .object({
    generatedAt: z.string(),
    inputs: z.array(z.string()).describe("Paths as given."),
    calibration: z.string().describe("`default priors` or the calibration file used."),
    eta: z.number(),
    groupBy: z.enum(GROUP_KEYS),
    files: z.number().int().describe("Trajectory files read."),
    failed: z
      .array(z.object({ file: z.string(), error: z.string() }))
      .describe("Files that could not be imported."),
    outcomeReports: z.number().int().describe("Outcome-label files read (not trajectories)."),
    unrecognised: z
      .array(z.string())
      .optional()
      .describe("Files found in the input folders that are not agent logs: left out (exit code 3)."),
    labelFiles: z
      .array(z.string())
      .optional()
      .describe("Hand-label files found in the folders (for `score eval`)."),
    duplicates: z
      .array(z.object({ file: z.string(), sameAs: z.string() }))
      .optional()
      .describe(
        "Files holding a trajectory already scored from another file (same id, format and size): scored once.",
      ),
    scorecards: z.array(Scorecard),
    groups: z.array(GroupSummary),
  })
  .describe("Result of `gauntlet score`.");
export type ScoreReport = z.infer<typeof ScoreReport>;

const BAND = { none: "", warning: "W", error: "E" } as const;

/**
 * A short label of a trajectory for tables: its file name, plus `#id` when the file holds several
 * trajectories (`several` = the set of files that do).
 */
export function trajectoryLabel(card: Scorecard, several?: ReadonlySet<string>): string {
  const base = path.basename(card.trajectory.file);
  return several?.has(card.trajectory.file) ? `${base}#${card.trajectory.id}` : base;
}

/** Files that hold more than one of the scorecards' trajectories. */
export function filesWithSeveral(cards: readonly Scorecard[]): Set<string> {
  const seen = new Set<string>();
  const several = new Set<string>();
  for (const c of cards) {
    if (seen.has(c.trajectory.file)) several.add(c.trajectory.file);
    seen.add(c.trajectory.file);
  }
  return several;
}

/** The worst findings of a scorecard, e.g. `long-chain E, dead-step W`. */
export function flagged(card: Scorecard): string {
  return card.findings
    .filter((f) => f.band !== "none")
    .sort((a, b) => b.risk - a.risk)
    .map((f) => `${f.defect} ${BAND[f.band]}`)
    .join(", ");
}

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(1));
const pct = (x: number | null) => (x === null ? "n/a" : `${Math.round(x * 100)}%`);
const ci = (i: { mean: number; low: number; high: number } | null) =>
  i ? `${i.mean.toFixed(1)} [${i.low.toFixed(1)}, ${i.high.toFixed(1)}]` : "n/a";

/** Rows of the per-trajectory table (header first). */
export function trajectoryRows(cards: readonly Scorecard[]): string[][] {
  const several = filesWithSeveral(cards);
  return [
    [
      "trajectory",
      "agent",
      "calls",
      "summary",
      "process",
      "control",
      "ctx",
      "tool",
      "wf",
      "eco",
      "outcome",
      "flagged",
    ],
    ...cards.map((c) => [
      trajectoryLabel(c, several),
      c.trajectory.agent,
      String(c.trajectory.toolCalls),
      fmt(c.summary),
      fmt(c.processQuality),
      fmt(c.controlPreservation),
      ...CATEGORIES.map((cat) => fmt(c.dimensions[cat])),
      c.outcome ?? "",
      flagged(c) || "-",
    ]),
  ];
}

/** Rows of the per-group table (header first). */
export function groupRows(groups: readonly GroupSummary[], key: GroupKey): string[][] {
  return [
    [
      key,
      "n",
      "summary [95% CI]",
      "process",
      "control",
      "errors",
      "warnings",
      "resolved",
      "fragile",
      "rank sum/out",
    ],
    ...groups.map((g) => [
      g.group,
      g.unassessed ? `${g.trajectories} (${g.unassessed} n/a)` : String(g.trajectories),
      ci(g.summary),
      fmt(g.processQuality?.mean),
      fmt(g.controlPreservation?.mean),
      String(g.errorFindings),
      String(g.warningFindings),
      pct(g.resolvedRate),
      pct(g.fragileSuccessRate),
      `${g.processRank ?? "-"}/${g.outcomeRank ?? "-"}`,
    ]),
  ];
}

/** The terminal summary: both tables and the unreadable files. */
export function renderScoreText(report: ScoreReport): string {
  const out = [
    textTable(trajectoryRows(report.scorecards)),
    "",
    textTable(groupRows(report.groups, report.groupBy)),
  ];
  const skipped = report.scorecards.reduce((s, c) => s + c.trajectory.skippedCount, 0);
  if (skipped) {
    out.push("", `${skipped} log line(s) could not be read and were left out:`);
    const listed = report.scorecards.flatMap((c) =>
      c.trajectory.skipped.map((x) => `  ${c.trajectory.file}:${x.line}: ${x.reason}`),
    );
    out.push(...listed.slice(0, 5));
    if (skipped > 5) out.push(`  … and ${skipped - 5} more in score.json (trajectory.skipped)`);
  }
  if (report.failed.length) out.push("", `${report.failed.length} file(s) could not be imported:`);
  for (const f of report.failed)
    out.push(`  ${f.error.startsWith(f.file) ? f.error : `${f.file}: ${f.error}`}`);
  return out.join("\n");
}

/**
 * Where an evidence excerpt sits in its native log: `file:line` for a line-based log, `file#index` (the
 * record's index) for a whole-document one, else the event id.
 */
export function excerptAt(file: string, x: { event: string; line?: number; index?: number }): string {
  return x.line ? `${file}:${x.line}` : x.index !== undefined ? `${file}#${x.index}` : x.event;
}

/**
 * The Markdown report: tables, then per trajectory every finding with its band, instances and exemptions —
 * warning and error first, those below the warning band collapsed — each excerpt linked to its file and line
 * (or record index for a whole-document log).
 */
export function renderScoreMarkdown(report: ScoreReport): string {
  const lines = [
    "# Gauntlet process scorecards",
    "",
    `${report.scorecards.length} trajectories from ${report.files} files · calibration: ${report.calibration} · η = ${report.eta} · grouped by ${report.groupBy}`,
    "",
    "Scores are 0–100 (higher is better). Summary = η · process quality + (1 − η) · control preservation. Bands: W warning, E error. rank sum/out: rank by mean summary / by resolved rate.",
    "",
    "## Groups",
    "",
    mdTable(groupRows(report.groups, report.groupBy)),
    "",
    "## Trajectories",
    "",
    mdTable(trajectoryRows(report.scorecards)),
  ];
  const several = filesWithSeveral(report.scorecards);
  for (const c of report.scorecards) {
    lines.push(
      "",
      `### ${trajectoryLabel(c, several)}`,
      "",
      `\`${c.trajectory.file}\` · ${c.trajectory.format} · ${c.trajectory.agent} · ${c.trajectory.models.join(", ") || "model unknown"}`,
      "",
    );
    lines.push(
      CATEGORIES.map((cat) => `${CATEGORY_NAMES[cat]} ${fmt(c.dimensions[cat])}`).join(" · "),
      "",
      `Control: ${CONTROL_ASPECTS.map((a) => `${a} ${c.control[a].score === null ? "n/a" : (100 * c.control[a].score).toFixed(0)} (${c.control[a].opportunities} opportunities${c.control[a].score !== null && c.control[a].opportunities < OPPORTUNITY_HALF_WEIGHT ? ", few: weighs little" : ""})`).join(" · ")}`,
      "",
    );
    const where = (x: { event: string; line?: number; index?: number }) => excerptAt(c.trajectory.file, x);
    const finding = (f: (typeof c.findings)[number]) => {
      lines.push(
        `- **${f.name}** (${f.band}, risk ${f.risk.toFixed(2)}, score ${f.score}; ${f.rawScore} before exemptions; ${f.instanceCount} instance(s), ${f.exemptedCount} exempted)`,
      );
      for (const i of f.instances) {
        lines.push(`  - ${i.note}`);
        for (const x of i.excerpts) lines.push(`    - \`${where(x)}\` ${x.text.replace(/`/g, "'")}`);
      }
      if (f.instanceCount > f.instances.length)
        lines.push(`  - … ${f.instanceCount - f.instances.length} more`);
      for (const x of f.exempted)
        lines.push(
          `  - exempted: ${x.note} — ${x.reason}${x.excerpts[0] ? ` (\`${where(x.excerpts[0])}\`)` : ""}`,
        );
    };
    const shown = c.findings.filter((f) => f.band !== "none");
    const below = c.findings.filter((f) => f.band === "none" && (f.instanceCount || f.exemptedCount));
    if (!shown.length) lines.push(below.length ? "No defect reaches the warning band." : "Nothing found.");
    for (const f of shown) finding(f);
    if (below.length) {
      lines.push("", `<details><summary>Below the warning band (${below.length})</summary>`, "");
      for (const f of below) finding(f);
      lines.push("", "</details>");
    }
    if (c.trajectory.skippedCount)
      lines.push(
        "",
        `${c.trajectory.skippedCount} line(s) not read, e.g. line ${c.trajectory.skipped[0]?.line}: ${c.trajectory.skipped[0]?.reason}`,
      );
    if (c.trajectory.unmapped?.length) lines.push("", unmappedLine(c.trajectory.unmapped));
  }
  if (report.duplicates?.length) {
    lines.push("", "## Files holding a trajectory already scored (scored once)", "");
    for (const d of report.duplicates) lines.push(`- \`${d.file}\`: the same as \`${d.sameAs}\``);
  }
  if (report.unrecognised?.length) {
    lines.push("", "## Files left out (not agent logs)", "");
    for (const f of report.unrecognised) lines.push(`- \`${f}\``);
  }
  if (report.failed.length) {
    lines.push("", "## Files that could not be imported", "");
    for (const f of report.failed) lines.push(`- \`${f.file}\`: ${f.error}`);
  }
  return `${lines.join("\n")}\n`;
}

/** One line saying which records were read but not mapped to events, and why (first line of each kind). */
export function unmappedLine(unmapped: readonly { reason: string; count: number; line: number }[]): string {
  const total = unmapped.reduce((n, u) => n + u.count, 0);
  return `${total} record(s) read but not mapped to events: ${unmapped
    .map((u) => `${u.count} × ${u.reason} (first at ${u.line})`)
    .join("; ")}`;
}
