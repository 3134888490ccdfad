import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { TrajectoryEvent } from "../../core/trajectory.ts";
import type { StepEventDraft, StepEventLog } from "./events.ts";

/**
 * A `command` agent's own report of its trajectory (issue 13 §5): Gauntlet gives the agent a path (the
 * environment variable {@link TRAJECTORY_ENV}, or the argv token `{trajectoryFile}`) and the agent appends
 * one JSON object per line — a standard trajectory event (`gauntlet schema trajectory-event`) whose `id`,
 * `step` and `ts` may be left out: e.g. `{"type":"command","command":"npm test","exitCode":1,"durationMs":900}`
 * or `{"type":"tool_call","callId":"c1","name":"write","input":{"path":"a.js"}}`. Its `parent` may name ids
 * of earlier lines of the same file. After the step Gauntlet adds the events to the step's trajectory
 * (redacted, renumbered), so command-level oracles can judge the agent.
 */

/** Environment variable holding the path an agent writes its trajectory to. */
export const TRAJECTORY_ENV = "GAUNTLET_TRAJECTORY_FILE";

/** Largest trajectory file read, bytes; more is reported and the rest ignored. */
export const MAX_TRAJECTORY_BYTES = 8 * 1024 * 1024;

/** Remove a stale trajectory file before a step. */
export function resetTrajectoryFile(file: string): void {
  rmSync(file, { force: true });
}

/**
 * Add the events of `file` to `log`. Returns whether the agent's commands can be taken as observed: true
 * when the file exists and every line was a valid event; false otherwise, with a `control` event saying why
 * (missing file, invalid line N and its first problem).
 */
export function addReportedTrajectory(file: string, log: StepEventLog, parent: string): boolean {
  if (!existsSync(file)) {
    log.add({
      type: "control",
      kind: "error",
      detail: "the agent wrote no trajectory file, so its commands are not observed",
      parent: [parent],
    });
    return false;
  }
  const size = statSync(file).size;
  const text = readFileSync(file, "utf8").slice(0, MAX_TRAJECTORY_BYTES);
  const ids = new Map<string, string>();
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1}: not valid JSON`);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push(`line ${i + 1}: not a JSON object`);
      return;
    }
    const raw = value as Record<string, unknown>;
    const own = typeof raw.id === "string" ? raw.id : undefined;
    const candidate = {
      ...raw,
      id: "x",
      ...(raw.type === "command" && raw.durationMs === undefined ? { durationMs: 0 } : {}),
      parent: Array.isArray(raw.parent)
        ? raw.parent.flatMap((p) => (typeof p === "string" && ids.has(p) ? [ids.get(p)!] : []))
        : [parent],
    };
    const parsed = TrajectoryEvent.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(
        `line ${i + 1}: ${issue.path.length ? `field "${issue.path.join(".")}": ` : ""}${issue.message}`,
      );
      return;
    }
    const { id: _id, step: _step, raw: _raw, ...draft } = parsed.data;
    const id = log.add({ ...draft, raw: { file: "agent trajectory", line: i + 1 } } as StepEventDraft);
    if (own) ids.set(own, id);
  });
  if (size > MAX_TRAJECTORY_BYTES)
    problems.push(`the file is over ${MAX_TRAJECTORY_BYTES} bytes; the rest was not read`);
  if (problems.length)
    log.add({
      type: "control",
      kind: "error",
      detail: `the agent's trajectory file had ${problems.length} problem(s), so its commands are not taken as observed: ${problems.slice(0, 3).join("; ")}`,
      parent: [parent],
    });
  return problems.length === 0;
}
