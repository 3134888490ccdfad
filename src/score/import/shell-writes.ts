import { commandTargets } from "../../core/shell-writes.ts";
import type { FileChangeEvent, TrajectoryEvent } from "../../core/trajectory.ts";
import type { ImportedTrajectory } from "./imported.ts";

/**
 * File changes a trajectory's shell commands make, derived from their command lines (issue 14 §1; LABELS.md
 * counts shell writes as file writes): redirections and heredocs, `tee`, `sed -i`, `touch`, `truncate`, the
 * destination of `cp`/`mv`/`install`/`rsync` (added or modified), and `rm`/`unlink`/`find -delete` and the
 * source of `mv` (deleted). Each becomes a `file_change` marked `derived`, right after the command's tool
 * result (or the command, when it has none), with the command as its parent. Nothing is derived for a
 * tool call that already has an observed file change, for a command refused before it ran (no exit code and
 * an error result), for `/dev/…` targets, or for Gauntlet results (they carry the workspace's real changes). Whether a path existed before is not known from a log: a path the
 * trajectory has not written before is `added` when a redirection, `touch`, `tee` or copy creates it, else
 * `modified`.
 */
export function withShellWrites(t: ImportedTrajectory): ImportedTrajectory {
  if (t.format === "gauntlet-results") return t;
  const observed = new Set<string>(); // callIds that already have a file change
  const answered = new Set<string>(); // callIds with a tool result
  const byId = new Map(t.events.map((e) => [e.id, e]));
  const failed = new Set<string>(); // callIds whose result is an error
  for (const e of t.events)
    if (e.type === "tool_result") {
      answered.add(e.callId);
      if (e.isError) failed.add(e.callId);
    }
  const callOf = (e: TrajectoryEvent): string | undefined => {
    for (const p of e.parent ?? []) {
      const parent = byId.get(p);
      if (parent?.type === "tool_call") return parent.callId;
      if (parent?.type === "tool_result") return parent.callId;
      if (parent?.type === "command") return callOf(parent);
    }
    return undefined;
  };
  for (const e of t.events)
    if (e.type === "file_change" && !e.derived) {
      const c = callOf(e);
      if (c) observed.add(c);
    }
  const pending = new Map<string, FileChangeEvent[]>(); // callId → changes to emit after its result
  const seen = new Set<string>();
  const out: TrajectoryEvent[] = [];
  let n = 0;
  const derive = (cmd: Extract<TrajectoryEvent, { type: "command" }>): FileChangeEvent[] =>
    commandTargets(cmd.command)
      .filter((x) => !/^\/dev\//.test(x.path) && !["mkdir", "ln"].includes(x.how))
      // One change per path and command: `sed -i a f && sed -i b f` writes f once.
      .filter((x, i, all) => all.findIndex((y) => y.path === x.path && y.deletes === x.deletes) === i)
      .map((x) => {
        const kind: FileChangeEvent["kind"] = x.deletes
          ? "deleted"
          : seen.has(x.path) || x.how === "sed-i" || x.how === "truncate"
            ? "modified"
            : "added";
        if (x.deletes) seen.delete(x.path);
        else seen.add(x.path);
        return {
          id: `${cmd.id}-w${++n}`,
          type: "file_change",
          path: x.path,
          kind,
          derived: true,
          parent: [cmd.id],
          ...(cmd.raw ? { raw: cmd.raw } : {}),
          ...(cmd.ts !== undefined ? { ts: cmd.ts } : {}),
          ...(cmd.step ? { step: cmd.step } : {}),
        };
      });
  for (const e of t.events) {
    out.push(e);
    if (e.type === "file_change" && !e.derived) seen.add(e.path);
    if (e.type === "command") {
      const callId = callOf(e);
      // A command refused before it ran (no exit code, an error result, no time limit struck) wrote nothing.
      if (e.exitCode === null && !e.timedOut && callId && failed.has(callId)) continue;
      if (callId && observed.has(callId)) continue;
      const changes = derive(e);
      if (!changes.length) continue;
      if (callId && answered.has(callId)) pending.set(callId, [...(pending.get(callId) ?? []), ...changes]);
      else out.push(...changes);
    } else if (e.type === "tool_result" && pending.has(e.callId)) {
      out.push(...pending.get(e.callId)!);
      pending.delete(e.callId);
    }
  }
  for (const rest of pending.values()) out.push(...rest);
  return n ? { ...t, events: out } : t;
}
