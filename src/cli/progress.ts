import { SingleBar } from "cli-progress";
import type { RunProgress } from "../fuzz/run.ts";

/**
 * Progress output for long runs: a bar on a terminal, one line per finished case otherwise (CI logs).
 * Everything goes to stderr so stdout stays clean for results.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY) && !process.env.CI;
  let bar: SingleBar | undefined;
  const log = (line: string) => {
    if (bar) bar.stop();
    stream.write(`${line}\n`);
    bar = undefined;
  };
  const onProgress = (e: RunProgress) => {
    if (tty) {
      if (!bar) {
        bar = new SingleBar({
          format: " {bar} {value}/{total} cases | {agent} {caseId} {stepId}",
          stream,
          hideCursor: true,
          clearOnComplete: true,
        });
        bar.start(e.total, e.done, { agent: "", caseId: "", stepId: "" });
      }
      bar.update(e.done, { agent: e.agent, caseId: e.caseId, stepId: e.stepId ?? "" });
      if (e.done === e.total && e.kind === "case-done") {
        bar.stop();
        bar = undefined;
      }
    } else if (e.kind === "case-done") {
      stream.write(`[${e.done}/${e.total}] ${e.agent} ${e.caseId} done\n`);
    } else if (e.kind === "skipped") {
      stream.write(`[${e.done}/${e.total}] already done before the resume: skipped, not redone\n`);
    }
  };
  return { log, onProgress, stop: () => bar?.stop() };
}
