import { esc, page, table } from "../report/html.ts";
import type { GuardCoverage } from "./guards.ts";
import {
  auditRateRows,
  type BoundaryReportInput,
  costRows,
  latestRuns,
  orderForReport,
  SHOWN_CHARS,
  shownText,
  summarizeRuns,
  type VerdictCounts,
} from "./report.ts";
import type { RejectedTest } from "./stabilise.ts";
import type { AuditSummary, Criterion, TestCase, TestRun, Verdict } from "./types.ts";

/**
 * The boundary report as one self-contained HTML page (AgentEval §III-B verdicts, §VI audit, Table VIII
 * costs): verdict counts, the workflow graph, costs, the audit, then every test with its criteria, verdict,
 * quoted turns and collapsed transcript, failures first. Turns are numbered from 1. All text is escaped, and
 * text from runs and plans is stripped of control characters and cut to `SHOWN_CHARS` per turn, quote or
 * reason (a bot sending megabyte replies must not make a report of hundreds of MB); the graph SVG is inlined
 * as given (our own renderer's output).
 */

const CSS = `<style>.badge.pass{background:var(--ok)}.badge.fail{background:var(--crit)}.badge.inconclusive{background:var(--exp)}.badge.not-run,.badge.kind{background:var(--minor)}.badge.met{background:var(--ok)}.badge.violated{background:var(--crit)}.badge.undecided{background:var(--exp)}
.test{border-left:4px solid var(--line);padding:4px 0 4px 10px;margin:14px 0}.test.fail{border-color:var(--crit)}.test.inconclusive{border-color:var(--exp)}.test.pass{border-color:var(--ok)}
.counts .badge{font-size:14px;padding:2px 10px;margin-right:6px}.graph svg{max-width:100%;height:auto}.turn{margin:6px 0}.turn .who{font-weight:600}</style>`;

/** Text from a run or plan as HTML: control characters stripped, cut to {@link SHOWN_CHARS}, escaped. */
const text = (t: string) => esc(shownText(t, SHOWN_CHARS));
const badge = (cls: string, label = cls) => `<span class="badge ${esc(cls)}">${esc(label)}</span>`;
const anchor = (id: string) => `test-${id}`;
const testLink = (id: string) => `<a href="#${esc(anchor(id))}">${esc(id)}</a>`;

function countsHtml(c: VerdictCounts): string {
  return `${badge("pass", `${c.pass} pass`)}${badge("fail", `${c.fail} fail`)}${badge("inconclusive", `${c.inconclusive} inconclusive`)}${c.notRun ? badge("not-run", `${c.notRun} not run`) : ""}`;
}

function auditHtml(audit: AuditSummary): string {
  const kills = audit.kills.length
    ? table([
        ["seeded fault", "killed", "killed by", "confirmed"],
        ...audit.kills.map((k) => [
          `<code>${esc(k.fault)}</code>`,
          k.killedBy.length ? badge("pass", "killed") : badge("fail", "survived"),
          k.killedBy.map(testLink).join(", ") || "—",
          k.killedBy.length ? (k.confirmed ? badge("pass", "yes") : badge("inconclusive", "no")) : "—",
        ]),
      ])
    : "<p>No seeded fault was run.</p>";
  const killed = audit.kills.filter((k) => k.killedBy.length).length;
  return `<h2>Audit</h2><p class="muted">Privileged audit against the reference agent (AgentEval §VI). Rates on the clean agent: false alarm rate = FP / (FP + TN), accuracy = (TP + TN) / N, inconclusive rate = INC / N.</p>
${table(auditRateRows(audit).map((r) => r.map(esc)))}
<h3>Kill matrix (${killed} of ${audit.kills.length} seeded faults killed)</h3><p class="muted">A fault is killed when a test that passes on the clean agent fails on the faulty one; confirmed when the privileged view shows the killing runs differ from the clean runs.</p>${kills}`;
}

/** Each criterion's result: the verdict's entry at the same position (success then failure), else by text. */
function resultOf(criteria: Verdict["criteria"], c: Criterion, index: number) {
  const same = criteria[index];
  return same && same.text === c.text ? same.result : criteria.find((x) => x.text === c.text)?.result;
}

/**
 * A criterion's result as a badge. Results are from the test's point of view, so a failure criterion is shown
 * by what happened: `violated` = "held" (red), `met` = "did not happen" (green).
 */
function resultBadge(result: Verdict["criteria"][number]["result"] | undefined, role: "success" | "failure") {
  if (!result) return badge("not-run", "not judged");
  if (role === "success" || result === "undecided") return badge(result);
  return result === "violated" ? badge("violated", "held") : badge("met", "did not happen");
}

function criteriaHtml(test: TestCase, run: TestRun | undefined): string {
  const criteria = run?.verdict.criteria ?? [];
  const item = (c: Criterion, i: number, role: "success" | "failure") =>
    `<li>${resultBadge(resultOf(criteria, c, i), role)} ${text(c.text)}${c.check ? ` <span class="muted">(${esc(c.check.kind)} check)</span>` : ""}</li>`;
  const list = (cs: Criterion[], role: "success" | "failure", offset: number) =>
    cs.length
      ? `<ul>${cs.map((c, i) => item(c, offset + i, role)).join("")}</ul>`
      : '<p class="muted">none</p>';
  return `<h3>Success criteria (all must hold)</h3>${list(test.success, "success", 0)}<h3>Failure criteria (any holding fails)</h3>${list(test.failure, "failure", test.success.length)}`;
}

function transcriptHtml(run: TestRun): string {
  const turns = run.turns
    .map((t, i) => {
      const l = run.labels[i];
      const tag = (s: string | undefined) => (s ? ` <code>${esc(s)}</code>` : "");
      return `<div class="turn"><span class="muted">turn ${i + 1}</span><div><span class="who">user</span>${tag(l?.userAction)}<pre>${text(t.user)}</pre></div><div><span class="who">agent</span>${tag(l?.activity)} <span class="muted">${Math.round(t.ms)} ms</span><pre>${text(t.reply || "(no reply)")}</pre></div></div>`;
    })
    .join("");
  return `<details><summary>Transcript (${run.turns.length} turns, ${(run.ms / 1000).toFixed(1)} s)</summary>${turns || '<p class="muted">empty</p>'}</details>`;
}

function testHtml(test: TestCase, run: TestRun | undefined): string {
  const verdict = run?.verdict.verdict ?? "not-run";
  const facts: [string, string][] = [["goal", text(test.goal)]];
  if (test.target)
    facts.push([
      "target",
      `${esc(test.target.kind)} <code>${esc(test.target.location)}</code> — ${text(test.target.label)} (potential ${test.target.potential.toFixed(2)})`,
    ]);
  if (test.card)
    facts.push(
      ["perturbation", `<code>${esc(test.card.perturbation)}</code>`],
      ["boundary", `${esc(test.card.capability)} at ${esc(test.card.guard)}`],
      ["expected / forbidden", `${esc(test.card.expected)} / ${esc(test.card.forbidden)}`],
    );
  facts.push(
    ["hints", test.hints.length ? test.hints.map((h) => `<code>${text(h)}</code>`).join("<br>") : "none"],
    ["turn budget", String(test.turnBudget)],
    ["source", `${esc(test.source.traceId)} turns ${test.source.turns.map((i) => i + 1).join(", ") || "—"}`],
  );
  if (run?.error) facts.push(["target error", text(run.error)]);
  const kv = `<div class="kv">${facts.map(([k, v]) => `<span>${esc(k)}</span><span>${v}</span>`).join("")}</div>`;
  const judged = run
    ? `<h3>Verdict</h3><p>${badge(verdict)} ${text(run.verdict.reason)}</p>${run.verdict.quotes
        .map(
          (q) =>
            `<div class="turn"><span class="muted">turn ${q.turn + 1}</span> <span class="who">${esc(q.speaker)}</span><pre>${text(q.text)}</pre></div>`,
        )
        .join("")}${transcriptHtml(run)}`
    : '<p class="muted">Not run.</p>';
  return `<div class="test ${esc(verdict)}" id="${esc(anchor(test.id))}"><h3>${badge(verdict, verdict.replace("-", " "))} ${badge("kind", test.kind)} <code>${esc(test.id)}</code></h3>${kv}${criteriaHtml(test, run)}${judged}</div>`;
}

/** Tests the agent failed at plan time, with the failing run: kept out of the plan, possibly real faults. */
function rejectedHtml(rejected: readonly RejectedTest[]): string {
  if (!rejected.length) return "";
  const items = rejected.map(
    (r) =>
      `<div class="test"><h3><code>${esc(r.id)}</code> ${text(r.goal ?? "")}</h3><p>${text(r.reason)}</p>${(
        r.turns ?? []
      )
        .map(
          (t, i) =>
            `<div class="turn"><span class="muted">turn ${i + 1}</span> <span class="who">user</span><pre>${text(t.user)}</pre><span class="who">agent (${esc(t.activity)})</span><pre>${text(t.reply)}</pre></div>`,
        )
        .join("")}</div>`,
  );
  return `<h2>Dropped at plan time</h2><p class="muted">${rejected.length} planned test(s) failed against the agent the plan was made from, so they are not in the plan (a plan must pass on a correct agent). Each is either a check the agent's wording defeats or a real fault of that agent: read the run.</p>${items.join("\n")}`;
}

/** The guards and branches discovery saw, with the tests targeting each; untargeted ones first. */
function guardsHtml(guards: readonly GuardCoverage[]): string {
  if (!guards.length) return "";
  const open = guards.filter((g) => !g.tests.length);
  const rows = [...open, ...guards.filter((g) => g.tests.length)].map((g) => [
    `<code>${esc(g.activity)}</code>`,
    String(g.support),
    g.tests.length
      ? g.tests.map((id) => `<a href="#${esc(anchor(id))}">${esc(id)}</a>`).join(" ")
      : '<span class="fail">no test targets it</span>',
  ]);
  return `<h2>Guards and branches</h2><p class="muted">${guards.length} seen in discovery, ${guards.length - open.length} targeted by a test.</p>${table([["activity", "replies", "tests"], ...rows])}`;
}

/**
 * Render the boundary report as a standalone HTML page (inline CSS, no external assets).
 * @returns the whole document, ending in a newline.
 */
export function renderBoundaryReport(input: BoundaryReportInput): string {
  const runs = latestRuns(input.runs);
  const summary = summarizeRuns(input.runs, input.tests);
  const kinds = table([
    ["kind", "tests", "pass", "fail", "inconclusive", "not run"],
    ...(["functional", "boundary"] as const).map((k) => {
      const c = summary.byKind[k];
      return [
        k,
        String(c.pass + c.fail + c.inconclusive + c.notRun),
        ...[c.pass, c.fail, c.inconclusive, c.notRun].map(String),
      ];
    }),
  ]);
  const g = input.graph;
  const graphCounts = g
    ? `<p class="muted">${g.nodes.length} activities, ${g.edges.length} edges, ${Object.keys(g.entry).length} entry and ${Object.keys(g.terminal).length} terminal activities.</p>`
    : "";
  const graph =
    input.graphSvg || g
      ? `<h2>Workflow graph</h2>${graphCounts}${input.graphSvg ? `<div class="graph">${input.graphSvg}</div>` : ""}`
      : "";
  const perBoundary =
    input.tokensPerDistinctBoundary === undefined
      ? ""
      : `<p>Tokens per distinct boundary: <b>${Math.round(input.tokensPerDistinctBoundary).toLocaleString("en-US")}</b></p>`;
  const body = `${CSS}<h1>Gauntlet boundary report</h1>
<p class="muted">Target <code>${text(input.target)}</code> · ${esc(input.createdAt)} · ${input.tests.length} tests (AgentEval)</p>
<p class="counts">${countsHtml(summary)}</p>${kinds}
${graph}
${guardsHtml(input.guards ?? [])}
${rejectedHtml(input.rejected ?? [])}
<h2>Cost</h2>${table(costRows(input.costs).map((r) => r.map(esc)))}${perBoundary}
${input.audit ? auditHtml(input.audit) : ""}
<h2>Tests</h2><p class="muted">Failures first, then inconclusive, not run and passed tests.</p>
${orderForReport(input.tests, runs)
  .map((t) => testHtml(t, runs.get(t.id)))
  .join("\n")}`;
  return page(`Gauntlet boundary report — ${shownText(input.target, 200)}`, body);
}
