import type { Finding } from "../core/finding.ts";
import type { TrajectoryEvent } from "../core/trajectory.ts";
import { diffHtml, esc, page, table } from "../report/html.ts";
import type { FuzzReport } from "./report.ts";
import { categoryRows, scorecardRows, secondOpinionText, summaryRows } from "./report.ts";
import type { StepResult } from "./result.ts";

/**
 * The fuzz report as one self-contained HTML page: per-agent summary, expected vs found, findings with their
 * evidence, and every case with its steps, prompts, trace, final messages and file-change diffs.
 */

const badge = (cls: string, text = cls) => `<span class="badge ${esc(cls)}">${esc(text)}</span>`;

function eventLine(e: TrajectoryEvent): string {
  switch (e.type) {
    case "message":
      return `<b>${esc(e.role)}</b>: ${esc(e.text.slice(0, 600))}`;
    case "tool_call":
      return `tool call <code>${esc(e.name)}</code> ${esc(JSON.stringify(e.input).slice(0, 300))}`;
    case "tool_result":
      return `tool result${e.isError ? " (error)" : ""}: ${esc(e.output.slice(0, 300))}`;
    case "command":
      return `<code>$ ${esc(e.command)}</code> → exit ${esc(e.exitCode ?? "none")}${e.timedOut ? " (timed out)" : ""}, ${Math.round(e.durationMs)} ms`;
    case "control":
      return `control <b>${esc(e.kind)}</b> ${esc(e.detail ?? "")}`;
    default:
      return esc(e.type);
  }
}

/** Anchor id of an event of one (agent, case) result. */
const eventAnchor = (f: { agent: string; caseId: string }, eventId: string) =>
  `ev-${f.agent}-${f.caseId}-${eventId}`.replace(/[^A-Za-z0-9_-]/g, "_");

function findingHtml(f: Finding): string {
  return `<div class="finding ${esc(f.class)}-b" id="f-${esc(f.id)}">${badge(f.class)} <code>${esc(f.oracle)}</code> ${esc(f.agent)} · ${esc(f.caseId)} · ${esc(f.stepId ?? "case")}: <b>${esc(f.title)}</b>${
    f.review.status !== "unreviewed"
      ? ` <i>(${esc(f.review.status)}${f.review.reason ? `: ${esc(f.review.reason)}` : ""})</i>`
      : ""
  }${f.secondOpinion ? ` <i>(${esc(secondOpinionText(f))})</i>` : ""}${f.evidence.quotes.length ? `<pre>${esc(f.evidence.quotes.join("\n"))}</pre>` : ""}${
    f.evidence.events.length
      ? `<div class="muted">events: ${f.evidence.events.map((id) => `<a href="#${esc(eventAnchor(f, id))}">${esc(id)}</a>`).join(", ")}</div>`
      : ""
  }</div>`;
}

function stepHtml(s: StepResult, findings: Finding[], owner: { agent: string; caseId: string }): string {
  const deltas = s.evidence.sincePrevious;
  return `<details${findings.length ? " open" : ""}><summary>${esc(s.stepId)} — ${esc(s.status)}${s.exitCode !== null ? `, exit ${s.exitCode}` : ""}, ${Math.round(s.durationMs)} ms ${findings.map((f) => badge(f.class, f.oracle)).join(" ")}</summary>
<h3>Prompt</h3><pre>${esc(s.prompt)}</pre>
<h3>Final message</h3><pre>${esc(s.finalMessage || "(none)")}</pre>
<h3>Trace</h3><ol>${s.events.map((e) => `<li id="${esc(eventAnchor(owner, e.id))}"><span class="muted">${esc(e.id)}</span> ${eventLine(e)}</li>`).join("")}</ol>
<h3>File changes in this step</h3>${deltas.length ? deltas.map((d) => `<div><code>${esc(d.kind)}</code> ${esc(d.path)} <span class="muted">${esc(d.hashAfter?.slice(0, 12) ?? d.hashBefore?.slice(0, 12) ?? "")}</span>${d.diff ? diffHtml(d.diff) : ""}</div>`).join("") : '<p class="muted">none</p>'}
${s.evidence.sinceBaseline.length ? `<h3>Changed since baseline</h3><p>${s.evidence.sinceBaseline.map((d) => `<code>${esc(d.kind)}</code> ${esc(d.path)}`).join(" · ")}</p>` : ""}
</details>`;
}

/** Render the whole report page. */
export function renderFuzzHtml(report: FuzzReport): string {
  const byCase = new Map(report.cases.map((c) => [c.caseId, c]));
  const summary = summaryRows(report).map((r) => r.map(esc));
  const expected = report.expectedVsFound.length
    ? `<h2>Seeded misbehaviours: expected vs found</h2>${table([
        ["agent", "case", "step", "misbehaviour", "expected oracle", "class", "found"],
        ...report.expectedVsFound.map((e) => [
          esc(e.agent),
          esc(e.caseId),
          esc(e.stepId),
          esc(e.misbehaviour),
          `<code>${esc(e.oracle)}</code>`,
          badge(e.class),
          e.found
            ? `<a href="#f-${esc(e.findingId)}">${badge("ok", "found")}</a>`
            : e.notJudged
              ? `${badge("no", "not judged")} ${esc(e.notJudged)}`
              : badge("no", "missed"),
        ]),
      ])}`
    : "";
  const cases = report.results
    .slice()
    .sort((a, b) => a.caseId.localeCompare(b.caseId) || a.agent.localeCompare(b.agent))
    .map((r) => {
      const c = byCase.get(r.caseId);
      const fs = report.findings.filter((f) => f.agent === r.agent && f.caseId === r.caseId);
      return `<details><summary>${esc(r.caseId)} — ${esc(r.agent)} — ${esc(r.status)} ${fs.map((f) => badge(f.class, f.oracle)).join(" ")}</summary>
<div class="kv"><span>category</span><span>${esc(c?.category)}</span><span>failure mode</span><span>${esc(c?.mode)} (${esc(c?.template)})</span><span>pattern × action</span><span>${esc(c?.patternId)} × ${esc(c?.actionId)} (template ${esc(c?.templateId)})</span><span>source reports</span><span>${esc(c?.sourceReports.join(", "))}</span><span>protected paths</span><span>${esc(c?.protectedPaths.join(", ") || "none")}</span><span>expected new files</span><span>${esc(c?.expectedNewFiles.join(", ") || "none")}</span>${r.incompleteReason ? `<span>incomplete</span><span>${esc(r.incompleteReason)}</span>` : ""}</div>
${r.steps
  .map((s) =>
    stepHtml(
      s,
      fs.filter((f) => f.stepId === s.stepId),
      r,
    ),
  )
  .join("")}</details>`;
    })
    .join("");
  const body = `<h1>Gauntlet fuzz report</h1>
<p class="muted">Run ${esc(report.runId)} · ${esc(report.createdAt)} · repository <code>${esc(report.repository.spec)}</code> · test command <code>${esc(report.repository.testCommand ?? "none")}</code> · ${report.cases.length} cases across ${report.categories.length} action categories (${esc(report.categories.join(", "))})</p>
${report.notes.map((n) => `<p class="note"><b>Note:</b> ${esc(n)}</p>`).join("")}
<h2>Summary</h2>${table(summary)}
<h2>Findings by action category</h2>${table(categoryRows(report).map((r) => r.map(esc)))}
<h2>Process scorecards</h2><p class="muted">Each case's trajectory scored like <code>gauntlet score</code> does (0–100, higher is better; W warning, E error).</p>${table(scorecardRows(report).map((r) => r.map(esc)))}
${expected}
<h2>Findings (${report.findings.length})</h2>${report.findings.length ? report.findings.map(findingHtml).join("") : "<p>No findings.</p>"}
${report.filtered.length ? `<h2>Incomplete runs (filtered)</h2><ul>${report.filtered.map((f) => `<li>${esc(f.agent)} · ${esc(f.caseId)}: ${esc(f.reason)}</li>`).join("")}</ul>` : ""}
<h2>Cases</h2>${cases}
<h2>Oracles</h2>${table([["oracle", "checks"], ...report.oracles.map((o) => [`<code>${esc(o.name)}</code>`, esc(o.description)])])}`;
  return page(`Gauntlet fuzz report ${report.runId}`, body);
}
