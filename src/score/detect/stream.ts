import type { TrajectoryEvent } from "../../core/trajectory.ts";
import type { RawFinding } from "../defects.ts";
import { classifyCommand } from "./commands.ts";
import { classifyTool, inputPaths } from "./tools.ts";
import { type CallView, canonical, shellText } from "./view.ts";

/**
 * The detectors' view of a trajectory as a stream (ProcCtrlBench §3.2 features, computed online): events
 * are fed one at a time and handed on, in order, to every detector, each tool call joined to its result,
 * command and file changes first — so a detector reads a call whole, at the call's position, and keeps only
 * the state it needs: memory follows what the detectors remember, not the length of the log.
 *
 * A call is handed on once it is settled: its result has come back and some later event not belonging to
 * it (its command, its file changes) has arrived, and the next tool call has been issued (so the control
 * signals between the two — a rejection, an interrupt — are known: {@link CallView.controls}). Events after
 * an unsettled call wait behind it; when more than {@link MAX_WAITING} wait, the oldest call is handed on
 * as it is (a result coming back later than that is then left unjoined).
 */

/** A detector reading the stream; see {@link ViewStream}. */
export interface OnlineDetector {
  /**
   * One event at its position (0-based), in order. `call` is the joined view of a `tool_call` event, and of
   * a `tool_result`, `command` or `file_change` event joined to a call; undefined otherwise.
   */
  push(at: number, e: TrajectoryEvent, call: CallView | undefined): void;
  /** After the last event: the finding. */
  finish(): RawFinding;
}

/**
 * What the detectors reading one stream share, made on first ask (one Duplicate Step machine serves
 * Duplicate Step and Dead Step): every detector of one stream is started with the same bag.
 */
export class StreamShared {
  private readonly made = new Map<string, unknown>();

  /** The service under `key`, made by `make` the first time. */
  get<T>(key: string, make: () => T): T {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as T;
  }
}

/** Anything reading the stream (a detector, the control measures). */
export interface StreamReader {
  push(at: number, e: TrajectoryEvent, call: CallView | undefined): void;
}

/** Events that may wait behind an unsettled call before it is handed on unsettled. */
export const MAX_WAITING = 10_000;

interface Waiting {
  at: number;
  e: TrajectoryEvent;
  call: CallView | undefined;
}

interface Pending {
  view: CallView;
  /** The next tool call has been issued. */
  nextIssued: boolean;
  /** An event not joined to the call came after its result. */
  settled: boolean;
  /** Ids of the events joined to it (its own, its result's, its command's). */
  ids: string[];
}

/** Feeds events to readers in order, calls joined; see the module doc. O(1) amortised per event. */
export class ViewStream {
  private readonly waiting: Waiting[] = [];
  private head = 0;
  private readonly pending: Pending[] = [];
  private readonly byEventId = new Map<string, Pending>();
  private readonly unanswered = new Map<string, Pending[]>(); // call id → pending calls without a result
  private readonly byCallId = new Map<string, Pending>(); // call id → latest pending call with it
  private lastCall: Pending | undefined;
  private lastResponse: string | undefined;
  private previousType: TrajectoryEvent["type"] | undefined;
  private at = 0;
  private ordinal = 0;
  private step = -1;
  /** Tool calls seen. */
  calls = 0;

  constructor(private readonly readers: readonly StreamReader[]) {}

  push(e: TrajectoryEvent): void {
    const at = this.at++;
    let joined: Pending | undefined;
    switch (e.type) {
      case "tool_call":
        joined = this.call(e, at);
        break;
      case "tool_result": {
        const p =
          this.unanswered.get(e.callId)?.shift() ?? this.owner(e.parent) ?? this.byCallId.get(e.callId);
        if (p && !p.view.result) {
          p.view.result = e;
          p.view.resultAt = at;
          p.view.failed ||= e.isError;
          p.ids.push(e.id);
          this.byEventId.set(e.id, p);
          joined = p;
        }
        break;
      }
      case "command": {
        const p = this.owner(e.parent);
        if (p) {
          const view = p.view;
          view.command = e;
          if (!view.commandText) {
            view.commandText = e.command;
            view.commandKind = classifyCommand(e.command);
          }
          view.failed ||= e.exitCode !== null && e.exitCode !== 0;
          p.ids.push(e.id);
          this.byEventId.set(e.id, p);
          joined = p;
        }
        break;
      }
      case "file_change": {
        const p = this.owner(e.parent);
        if (p) {
          p.view.changes.push(e);
          p.view.mutates = true;
          joined = p;
        }
        break;
      }
      case "control":
        this.lastCall?.view.controls.push(e.kind);
        break;
    }
    for (const p of this.pending) if (p !== joined && p.view.result) p.settled = true;
    this.previousType = e.type;
    this.waiting.push({ at, e, call: joined?.view });
    if (this.waiting.length - this.head > MAX_WAITING) {
      const first = this.pending[0];
      if (first) first.settled = first.nextIssued = true;
    }
    this.flush();
  }

  /** No more events: hand on everything. */
  end(): void {
    for (const p of this.pending) p.settled = p.nextIssued = true;
    this.flush();
  }

  private call(e: Extract<TrajectoryEvent, { type: "tool_call" }>, at: number): Pending {
    const kind = classifyTool(e.name, e.input);
    // A new step unless issued with the previous call: the same model response when the log names it,
    // else right after it with nothing in between.
    if (
      this.ordinal > 0 && e.response && this.lastResponse
        ? e.response !== this.lastResponse
        : this.previousType !== "tool_call"
    )
      this.step++;
    this.lastResponse = e.response;
    const view: CallView = {
      ordinal: this.ordinal++,
      at,
      step: this.step,
      call: e,
      resultAt: at,
      changes: [],
      controls: [],
      kind,
      commandText: kind === "shell" ? shellText(e.input) : "",
      paths: inputPaths(e.name, e.input),
      signature: `${e.name.toLowerCase()} ${canonical(e.input)}`,
      failed: false,
      // A tool of unknown kind may change anything: treated as changing state (no false duplicates).
      mutates: kind === "write" || kind === "edit" || kind === "other",
    };
    if (view.commandText) {
      view.commandKind = classifyCommand(view.commandText);
      view.mutates = view.commandKind === "mutate" || view.commandKind === "other";
    }
    this.calls++;
    for (const p of this.pending) p.nextIssued = true;
    const p: Pending = { view, nextIssued: false, settled: false, ids: [e.id] };
    this.pending.push(p);
    this.lastCall = p;
    if (e.callId) {
      // A log can reuse a call id: results pair with the oldest call of that id still unanswered.
      this.byCallId.set(e.callId, p);
      const waiting = this.unanswered.get(e.callId);
      if (waiting) waiting.push(p);
      else this.unanswered.set(e.callId, [p]);
    }
    this.byEventId.set(e.id, p);
    return p;
  }

  private owner(ids: string[] | undefined): Pending | undefined {
    for (const id of ids ?? []) {
      const direct = this.byEventId.get(id);
      if (direct) return direct;
    }
    return undefined;
  }

  /** Hand on every waiting event up to the first call not yet settled. */
  private flush(): void {
    while (this.head < this.waiting.length) {
      const w = this.waiting[this.head] as Waiting;
      if (w.e.type === "tool_call" && w.call) {
        const p = this.pending[0];
        if (p?.view === w.call) {
          if (!(p.settled && p.nextIssued)) break;
          this.release(p);
        }
      }
      this.head++;
      for (const r of this.readers) r.push(w.at, w.e, w.call);
    }
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Forget a call handed on: later events can no longer join it. */
  private release(p: Pending): void {
    this.pending.shift();
    for (const id of p.ids) if (this.byEventId.get(id) === p) this.byEventId.delete(id);
    const callId = p.view.call.callId;
    if (callId) {
      const list = this.unanswered.get(callId);
      if (list) {
        const i = list.indexOf(p);
        if (i >= 0) list.splice(i, 1);
        if (!list.length) this.unanswered.delete(callId);
      }
      if (this.byCallId.get(callId) === p) this.byCallId.delete(callId);
    }
  }
}

/** Run detectors over a whole event list (for tests and callers holding the events). */
export function runDetectors<T extends OnlineDetector>(
  events: readonly TrajectoryEvent[],
  detectors: readonly T[],
): RawFinding[] {
  const stream = new ViewStream(detectors);
  for (const e of events) stream.push(e);
  stream.end();
  return detectors.map((d) => d.finish());
}

export { MAX_REMEMBERED, RecentMap } from "../../core/recent.ts";
