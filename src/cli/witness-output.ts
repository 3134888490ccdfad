import { SingleBar } from "cli-progress";
import { textTable } from "../report/tables.ts";
import type { BuildEvent, BuildSummary } from "../witness/build.ts";
import type { EvalEvent } from "../witness/eval.ts";

/** What `gauntlet witness build` and `eval` print: progress (a bar on a TTY, lines otherwise) and the summary. */

/** A progress bar on a TTY, one line per candidate otherwise. */
export function buildProgress(stream: NodeJS.WriteStream = process.stderr): (e: BuildEvent) => void {
  const tty = Boolean(stream.isTTY) && !process.env.CI;
  let bar: SingleBar | undefined;
  let accepted = 0;
  const line = (text: string) => {
    bar?.stop();
    bar = undefined;
    stream.write(`${text}\n`);
  };
  return (e) => {
    if (e.kind === "log") line(e.message);
    else if (e.kind === "contexts") {
      if (!tty) {
        if (e.done === e.total) stream.write(`contexts: ${e.total} test files traced\n`);
        return;
      }
      bar ??= new SingleBar({
        format: " contexts {bar} {value}/{total} {test}",
        stream,
        clearOnComplete: true,
      });
      if (!bar.isActive) bar.start(e.total, 0, { test: "" });
      bar.update(e.done, { test: e.test });
      if (e.done === e.total) {
        bar.stop();
        bar = undefined;
      }
    } else if (e.kind === "candidate") {
      if (e.accepted) accepted++;
      if (!tty) {
        stream.write(
          `[${e.done}/${e.total}] ${e.type}: ${e.accepted ? "accepted" : `rejected (${e.reason})`}\n`,
        );
        return;
      }
      bar ??= new SingleBar({
        format: " candidates {bar} {value}/{total} | accepted {accepted} | {type}",
        stream,
        clearOnComplete: true,
      });
      if (!bar.isActive) bar.start(e.total, 0, { accepted, type: "" });
      bar.update(e.done, { accepted, type: e.type });
    }
  };
}

export function buildReport(s: BuildSummary, out: string): string {
  const rate = s.acceptanceRate === null ? "–" : `${(s.acceptanceRate * 100).toFixed(0)}%`;
  const rows = Object.entries(s.byType).map(([t, v]) => [
    t,
    String(v.attempted),
    String(v.accepted),
    String(v.cases),
  ]);
  const share = s.wallMs > 0 ? `${Math.min(100, (s.testRunMs / s.wallMs) * 100).toFixed(0)}%` : "–";
  return [
    `${s.project.name}${s.project.version ? `@${s.project.version}` : ""} (${s.project.runner}): ${s.contexts} test contexts, ${s.candidatesFound} candidate bugs in test-reached functions`,
    `attempted ${s.attempted}, accepted ${s.accepted}: acceptance rate ${rate} of attempted candidates${s.attempted < 30 ? " (a small sample)" : ""}; WitnessGym reports 63%`,
    textTable([["bug type", "attempted", "accepted", "cases"], ...rows]),
    `rejections: ${
      Object.entries(s.rejections)
        .map(([r, n]) => `${r} ×${n}`)
        .join("; ") || "none"
    }`,
    `cases: ${s.cases.length} (${
      Object.entries(s.casesByDepth)
        .map(([d, n]) => `depth ${d}: ${n}`)
        .join(", ") || "none"
    })`,
    `time: ${(s.wallMs / 1000).toFixed(1)} s, ${share} of it in the project's own test runs`,
    `files in ${out}: cases/ (give these to agents), oracle/ (private), attempts.jsonl, summary.json`,
  ].join("\n");
}

/** One progress line of `gauntlet witness eval` (undefined: nothing to print). */
export function evalProgressLine(e: EvalEvent): string | undefined {
  switch (e.kind) {
    case "pair":
      return `[${e.index}/${e.total}] ${e.caseId} ${e.setting}`;
    case "attempt":
      return `  attempt ${e.attempt}: ${e.status}${e.reason ? ` (${e.reason})` : ""}`;
    case "result":
      return `  ${e.success ? "witness accepted" : "no witness"} after ${e.attempts} attempt(s)${e.success ? "" : `: ${e.reason}`}`;
    case "resumed":
      return undefined;
    case "error":
      return `  error on ${e.caseId}${e.setting ? ` ${e.setting}` : ""}: ${e.message}`;
  }
}
