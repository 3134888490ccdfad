import { arr, obj, str } from "../../core/json-view.ts";
import { type EventDraft, TrajectoryEvent } from "../../core/trajectory.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readRecords } from "./read-lines.ts";

/**
 * Gauntlet's own run results → trajectories: a fuzz run's `.gauntlet/runs/<id>/results.jsonl` (one
 * `CaseResult` per line, src/fuzz/result.ts; ABTest §3.4), streamed line by line. Each line (one case run by
 * one agent) is one trajectory, named `<caseId>/<agent>` (`instanceId` = the case id). Its steps' events are
 * already standard and are copied in order, each with `step` = its step id and provenance `raw: {file, line}`
 * of the results line; ids are renumbered `e1`, `e2`, … across the steps (parents follow), and a call id
 * reused by a later step gets the step id as prefix, so calls and results still pair. A step's own record
 * adds what its events lack: `usage` from `step.usage` when the step has no usage event, `control: timeout` /
 * `control: error` for a step that timed out or failed without such an event, and `control: error` for an
 * incomplete case. An event that is not a valid standard event goes to `skipped` (the reason names the step
 * and event); a line that is not a case result goes to the first trajectory's `skipped` (an empty one when no
 * line could be read).
 */

/**
 * Import every (case, agent) result of one Gauntlet `results.jsonl`.
 * @throws the file system's error for an unreadable file
 */
export async function importGauntletResults(file: string): Promise<ImportedTrajectory[]> {
  const out: ImportedTrajectory[] = [];
  const unreadable: ImportedTrajectory["skipped"] = [];
  for await (const { line, record: r } of readRecords(file, unreadable)) {
    if (!str(r.caseId) || !str(r.agent) || !Array.isArray(r.steps)) {
      unreadable.push({ line, reason: "not a case result (needs agent, caseId and steps)" });
      continue;
    }
    out.push(caseResultTrajectory(r, file, line));
  }
  if (unreadable.length) {
    if (!out.length)
      out.push({
        id: file,
        format: "gauntlet-results",
        file,
        agent: "gauntlet",
        models: [],
        events: [],
        skipped: [],
        lines: 0,
      });
    out[0]!.skipped.unshift(...unreadable);
  }
  return out;
}

/**
 * One case result (one `results.jsonl` record: a case run by one agent) as a trajectory named
 * `<caseId>/<agent>`, mapped as described above. Used by the importer and by `gauntlet fuzz` reports.
 * @param r the case result record (src/fuzz/result.ts `CaseResult`, as JSON)
 * @param file where it was read from (provenance)
 * @param line its 1-based line in that file
 */
export function caseResultTrajectory(
  r: Record<string, unknown>,
  file: string,
  line: number,
): ImportedTrajectory {
  const sink = new EventSink(file);
  const skipped: ImportedTrajectory["skipped"] = [];
  const models = new Set<string>();
  const callOwner = new Map<string, string>(); // call id → step that first used it
  let errorSeen = false;
  for (const step of arr(r.steps).map(obj)) {
    const stepId = str(step.stepId);
    const newId = new Map<string, string>();
    const kinds = new Set<string>();
    for (const [k, raw] of arr(step.events).entries()) {
      const parsed = TrajectoryEvent.safeParse(raw);
      if (!parsed.success) {
        const why = parsed.error.issues[0];
        const field = why?.path.join(".") || "event";
        skipped.push({
          line,
          reason: `step ${stepId} event ${k + 1}: not a standard event (${field}: ${why?.message ?? "invalid"})`,
        });
        continue;
      }
      const { id, parent, raw: _raw, ...rest } = parsed.data;
      const draft = { ...rest, step: stepId } as EventDraft;
      if (draft.type === "tool_call" || draft.type === "tool_result") {
        const owner = callOwner.get(draft.callId) ?? stepId;
        callOwner.set(draft.callId, owner);
        if (owner !== stepId) draft.callId = `${stepId}:${draft.callId}`;
      }
      if (draft.type === "usage" && draft.model) models.add(draft.model);
      kinds.add(draft.type === "control" ? `control:${draft.kind}` : draft.type);
      const mapped = (parent ?? []).map((p) => newId.get(p)).filter((p): p is string => Boolean(p));
      newId.set(id, sink.add(draft, line, mapped));
    }
    const usage = obj(step.usage);
    const tokens = {
      inputTokens: Number(usage.inputTokens ?? 0),
      outputTokens: Number(usage.outputTokens ?? 0),
    };
    const cost = Number(usage.costUsd ?? 0);
    if (!kinds.has("usage") && (tokens.inputTokens || tokens.outputTokens || cost))
      sink.add({ type: "usage", step: stepId, ...tokens, ...(cost ? { costUsd: cost } : {}) }, line);
    if (step.status === "timeout" && !kinds.has("control:timeout"))
      sink.add(
        { type: "control", kind: "timeout", step: stepId, detail: str(step.error) || "step timed out" },
        line,
      );
    if (step.status === "error" && !kinds.has("control:error"))
      sink.add(
        { type: "control", kind: "error", step: stepId, detail: str(step.error) || "step failed" },
        line,
      );
    errorSeen ||= kinds.has("control:error") || step.status === "error";
  }
  if (r.status === "incomplete" && !errorSeen)
    sink.add({ type: "control", kind: "error", detail: str(r.incompleteReason) || "case incomplete" }, line);
  return {
    id: `${str(r.caseId)}/${str(r.agent)}`,
    format: "gauntlet-results",
    file,
    agent: str(r.agent),
    models: [...models],
    instanceId: str(r.caseId),
    events: sink.events,
    skipped,
    lines: 1,
  };
}
