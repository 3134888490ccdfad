import { RecentSet } from "../../core/recent.ts";
import { commandTargets } from "../../core/shell-writes.ts";
import type { FileChangeEvent, TrajectoryEvent } from "../../core/trajectory.ts";
import { IMPORT_REMEMBERED } from "./event-sink.ts";
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
 *
 * {@link ShellWrites} does this on a stream of events with a bounded look-ahead: whether a command's call
 * has a result, failed, or has an observed change is judged from the events up to {@link LOOKAHEAD} after
 * it (a result or an observed change further away than that is not seen; importers emit them next to the
 * command). {@link withShellWrites} is the same over a whole trajectory, seeing all of it.
 */

export function withShellWrites(t: ImportedTrajectory): ImportedTrajectory {
  if (t.format === "gauntlet-results") return t;
  const out: TrajectoryEvent[] = [];
  const writes = new ShellWrites((e) => out.push(e), t.events.length);
  for (const e of t.events) writes.push(e);
  writes.end();
  return writes.derived ? { ...t, events: out } : t;
}

/** Events a streamed command waits for before its call's result, failure and observed changes are judged. */
export const LOOKAHEAD = 512;

/**
 * Adds derived file changes to a stream of one trajectory's events (see the module doc), handing each event
 * on to `emit` in order, derived changes in their place. O(1) amortised per event plus the command-line
 * parse of each command; memory: {@link LOOKAHEAD} events and capped sets of recent ids.
 */
export class ShellWrites {
  /** Derived changes emitted. */
  derived = 0;
  private readonly waiting: TrajectoryEvent[] = [];
  private head = 0;
  private readonly callIdOf = new Map<string, string | undefined>(); // event id → its call id (recent)
  private readonly order: (string | undefined)[] = []; // ids in callIdOf, a ring of `remembered` slots
  private pushed = 0;
  private readonly answered: RecentSet<string>;
  private readonly failed: RecentSet<string>;
  private readonly observed: RecentSet<string>;
  private readonly pending = new Map<string, FileChangeEvent[]>(); // call id → changes to emit after its result
  private readonly seen = new Set<string>(); // paths written so far
  private readonly remembered: number;

  /**
   * @param emit receives every event, in order
   * @param lookahead events a command waits for (a whole trajectory's length to see all of it)
   */
  constructor(
    private readonly emit: (e: TrajectoryEvent) => void,
    private readonly lookahead = LOOKAHEAD,
  ) {
    this.remembered = Math.max(IMPORT_REMEMBERED, lookahead);
    this.answered = new RecentSet(this.remembered);
    this.failed = new RecentSet(this.remembered);
    this.observed = new RecentSet(this.remembered);
  }

  push(e: TrajectoryEvent): void {
    // Facts the commands before this event are judged by.
    const callId = this.callOf(e);
    // Only calls, results and commands lead on to a call (as `parent` of a command or change).
    this.callIdOf.set(
      e.id,
      e.type === "tool_call" || e.type === "tool_result" || e.type === "command" ? callId : undefined,
    );
    const slot = this.pushed++ % this.remembered;
    const evicted = this.order[slot];
    if (evicted !== undefined) this.callIdOf.delete(evicted);
    this.order[slot] = e.id;
    if (e.type === "tool_result") {
      this.answered.add(e.callId);
      if (e.isError) this.failed.add(e.callId);
    } else if (e.type === "file_change" && !e.derived && callId) this.observed.add(callId);
    this.waiting.push(e);
    while (this.waiting.length - this.head > this.lookahead) this.release();
  }

  /** No more events: hand on the rest. */
  end(): void {
    while (this.head < this.waiting.length) this.release();
    for (const rest of this.pending.values()) this.out(...rest);
    this.pending.clear();
  }

  private out(...events: TrajectoryEvent[]): void {
    for (const e of events) this.emit(e);
  }

  /** Hand on the oldest waiting event, and the changes its command (or its result) brings. */
  private release(): void {
    const e = this.waiting[this.head++] as TrajectoryEvent;
    if (this.head > 4096 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    this.out(e);
    if (e.type === "file_change" && !e.derived) this.seen.add(e.path);
    if (e.type === "command") {
      const callId = this.callIdOf.get(e.id);
      // A command refused before it ran (no exit code, an error result, no time limit struck) wrote nothing.
      if (e.exitCode === null && !e.timedOut && callId && this.failed.has(callId)) return;
      if (callId && this.observed.has(callId)) return;
      const changes = this.derive(e);
      if (!changes.length) return;
      if (callId && this.answered.has(callId))
        this.pending.set(callId, [...(this.pending.get(callId) ?? []), ...changes]);
      else this.out(...changes);
    } else if (e.type === "tool_result") {
      const changes = this.pending.get(e.callId);
      if (changes) {
        this.out(...changes);
        this.pending.delete(e.callId);
      }
    }
  }

  /** The call id an event descends from (its own for calls and results, through `parent` otherwise). */
  private callOf(e: TrajectoryEvent): string | undefined {
    if (e.type === "tool_call" || e.type === "tool_result") return e.callId;
    for (const p of e.parent ?? []) {
      const c = this.callIdOf.get(p);
      if (c) return c;
    }
    return undefined;
  }

  private derive(cmd: Extract<TrajectoryEvent, { type: "command" }>): FileChangeEvent[] {
    return (
      commandTargets(cmd.command)
        .filter((x) => !/^\/dev\//.test(x.path) && !["mkdir", "ln"].includes(x.how))
        // One change per path and command: `sed -i a f && sed -i b f` writes f once.
        .filter((x, i, all) => all.findIndex((y) => y.path === x.path && y.deletes === x.deletes) === i)
        .map((x) => {
          const kind: FileChangeEvent["kind"] = x.deletes
            ? "deleted"
            : this.seen.has(x.path) || x.how === "sed-i" || x.how === "truncate"
              ? "modified"
              : "added";
          if (x.deletes) this.seen.delete(x.path);
          else this.seen.add(x.path);
          return {
            id: `${cmd.id}-w${++this.derived}`,
            type: "file_change",
            path: x.path,
            kind,
            derived: true,
            parent: [cmd.id],
            ...(cmd.raw ? { raw: cmd.raw } : {}),
            ...(cmd.ts !== undefined ? { ts: cmd.ts } : {}),
            ...(cmd.step ? { step: cmd.step } : {}),
          };
        })
    );
  }
}
