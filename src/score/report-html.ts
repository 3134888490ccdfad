import { esc, page, table } from "../report/html.ts";
import { CONTROL_ASPECTS, OPPORTUNITY_HALF_WEIGHT } from "./control.ts";
import { CATEGORIES, CATEGORY_NAMES } from "./defects.ts";
import {
  excerptAt,
  filesWithSeveral,
  groupRows,
  type ScoreReport,
  trajectoryLabel,
  trajectoryRows,
  unmappedLine,
} from "./report.ts";
import type { Scorecard } from "./scorecard.ts";

/**
 * The score report as one self-contained HTML page (ProcCtrlBench §3.1 output): group and trajectory
 * tables, then per trajectory a bar per dimension and control aspect, and each flagged finding with its
 * evidence excerpts. No scripts beyond the shared evidence-link helper; opens from disk.
 */

const BAR_CSS = `<style>.bar{display:grid;grid-template-columns:220px 1fr 48px;gap:8px;align-items:center;margin:2px 0}.bar .track{background:#eef1f4;height:12px;border-radius:6px;overflow:hidden}.bar .fill{height:12px;background:#2e90fa}.bar .fill.low{background:#f04438}.bar .fill.mid{background:#f79009}.band-error{background:#b42318}.band-warning{background:#b54708}</style>`;

function bar(label: string, value: number | null, note = ""): string {
  if (value === null)
    return `<div class="bar"><span>${esc(label)}</span><span class="muted">too few opportunities to score${note ? ` · ${esc(note)}` : ""}</span><span>n/a</span></div>`;
  const tone = value < 50 ? "low" : value < 75 ? "mid" : "";
  return `<div class="bar"><span title="${esc(note)}">${esc(label)}</span><span class="track"><span class="fill ${tone}" style="display:block;width:${Math.max(0, Math.min(100, value)).toFixed(1)}%"></span></span><span>${value.toFixed(0)}</span></div>`;
}

function card(c: Scorecard, index: number, several: ReadonlySet<string>): string {
  const dims = CATEGORIES.map((cat) => bar(CATEGORY_NAMES[cat], c.dimensions[cat] ?? null)).join("");
  const control = CONTROL_ASPECTS.map((a) => {
    const m = c.control[a];
    const few = m.score !== null && m.opportunities < OPPORTUNITY_HALF_WEIGHT ? ", few: weighs little" : "";
    return bar(
      `${a} (${m.opportunities} opportunities${few})`,
      m.score === null ? null : 100 * m.score,
      m.note,
    );
  }).join("");
  const where = (x: { event: string; line?: number; index?: number }) => excerptAt(c.trajectory.file, x);
  const render = (f: (typeof c.findings)[number]) =>
    `<div class="finding"><span class="badge band-${f.band}">${f.band}</span> <b>${esc(f.name)}</b> <span class="muted">risk ${f.risk.toFixed(2)} · score ${f.score} (before exemptions ${f.rawScore}) · ${f.instanceCount} instance(s)${f.exemptedCount ? ` · ${f.exemptedCount} exempted` : ""}</span>${f.instances
      .map(
        (i) =>
          `<div>${esc(i.note)}<pre>${i.excerpts.map((x) => `${esc(where(x))}  ${esc(x.text)}`).join("\n")}</pre></div>`,
      )
      .join(
        "",
      )}${f.instanceCount > f.instances.length ? `<div class="muted">… ${f.instanceCount - f.instances.length} more</div>` : ""}${
      f.exempted.length
        ? `<div class="muted">exempted: ${f.exempted.map((x) => esc(`${x.note} — ${x.reason}${x.excerpts[0] ? ` (${where(x.excerpts[0])})` : ""}`)).join("<br>")}</div>`
        : ""
    }</div>`;
  const flagged = c.findings
    .filter((f) => f.band !== "none")
    .map(render)
    .join("");
  const below = c.findings.filter((f) => f.band === "none" && (f.instanceCount || f.exemptedCount));
  const findings = `${flagged || `<p>${below.length ? "No defect reaches the warning band." : "Nothing found."}</p>`}${
    below.length
      ? `<details><summary>Below the warning band (${below.length})</summary>${below.map(render).join("")}</details>`
      : ""
  }`;
  const open = index === 0 || c.findings.some((f) => f.band !== "none");
  const summary = c.summary === null ? "not assessed (no tool call)" : `summary ${c.summary.toFixed(1)}`;
  return `<details id="t${index}"${open ? " open" : ""}><summary>${esc(trajectoryLabel(c, several))} — ${summary}</summary>
<p class="muted">${esc(c.trajectory.file)} · ${esc(c.trajectory.format)} · ${esc(c.trajectory.agent)} · ${esc(c.trajectory.models.join(", ") || "model unknown")} · ${c.trajectory.events} events, ${c.trajectory.toolCalls} tool calls${c.trajectory.skippedCount ? ` · ${c.trajectory.skippedCount} lines not read` : ""}</p>
<h3>Process quality ${c.processQuality === null ? "n/a: the trajectory holds no tool call" : c.processQuality.toFixed(1)}</h3>${dims}
<h3>Control preservation ${c.controlPreservation === null ? "n/a" : c.controlPreservation.toFixed(1)}</h3>${control}
<h3>Findings</h3>${findings}${
    c.trajectory.skippedCount
      ? `<h3>Lines not read (${c.trajectory.skippedCount})</h3><pre>${c.trajectory.skipped
          .map((x) => esc(`${c.trajectory.file}:${x.line}: ${x.reason}`))
          .join("\n")}${c.trajectory.skippedCount > c.trajectory.skipped.length ? "\n…" : ""}</pre>`
      : ""
  }${c.trajectory.unmapped?.length ? `<p class="muted">${esc(unmappedLine(c.trajectory.unmapped))}</p>` : ""}</details>`;
}

/** Render the whole report as HTML. */
export function renderScoreHtml(report: ScoreReport): string {
  const cell = (rows: string[][]) => rows.map((r) => r.map(esc));
  const several = filesWithSeveral(report.scorecards);
  const body = `${BAR_CSS}<h1>Gauntlet process scorecards</h1>
<p class="muted">${report.scorecards.length} trajectories from ${report.files} files · calibration: ${esc(report.calibration)} · η = ${report.eta} · generated ${esc(report.generatedAt)}. Scores 0–100, higher is better; summary = η · process quality + (1 − η) · control preservation.</p>
<h2>Groups by ${esc(report.groupBy)}</h2>${table(cell(groupRows(report.groups, report.groupBy)))}
<h2>Trajectories</h2>${table(cell(trajectoryRows(report.scorecards)))}
<h2>Scorecards</h2>${report.scorecards.map((c, i) => card(c, i, several)).join("\n")}
${report.unrecognised?.length ? `<h2>Files left out (not agent logs)</h2><ul>${report.unrecognised.map((f) => `<li><code>${esc(f)}</code></li>`).join("")}</ul>` : ""}
${report.failed.length ? `<h2>Files that could not be imported</h2><ul>${report.failed.map((f) => `<li><code>${esc(f.file)}</code>: ${esc(f.error)}</li>`).join("")}</ul>` : ""}`;
  return page("Gauntlet process scorecards", body);
}
