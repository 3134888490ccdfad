import { createHash } from "node:crypto";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { programFailure, stoppedByUser, toolFailure } from "./failures.ts";
import { makeFinding, streaming } from "./finding.ts";
import { RecentMap } from "./stream.ts";
import type { CallView } from "./view.ts";

/**
 * Tool Call Chain (ProcCtrlBench App. A.2): cyclic or oscillating call sequences — the agent goes round
 * the same loop of calls (`read A, read B, read A, read B, …`) or undoes its own edits (`x → y`, then
 * `y → x`).
 *
 * Raw score: for each maximal cycle of period 2–4 that repeats at least twice in a row, the repetitions
 * beyond the first (`A B A B A B` scores 2); for each stuck retry loop — the same tool-level failure (same
 * tool, same error once numbers, quotes and paths are masked; see `failures.ts`) at least
 * {@link LOOP_MIN} times, each within {@link LOOP_GAP} calls of the previous one (a rejected command retried
 * in other words, an edit the lint guard refuses three times, a command that hangs, is killed and is sent
 * again) — the occurrences beyond the first (calls of one step, issued in parallel and failing alike, are
 * one occurrence); plus 1 for every edit that reverts an earlier edit of the
 * same file (an `Edit` whose old/new text is an earlier edit's new/old text, or a `Write` restoring
 * content the file had two writes ago). Evidence: the calls of the cycle or loop, or the edit and the one
 * it undoes. A failing program (a test's exit code) is not a tool-level failure: edit → test → edit →
 * test is debugging, not a loop; but the same program failing the same way again with nothing changed
 * in between (`sed` on a missing file, `ls`, the same `sed` again) is a stuck retry too.
 *
 * Exemptions: polling loops (every call of the cycle is a time-varying probe such as `sleep`/`curl`/
 * `git status`: waiting on the world is not a defect); reverts the user asked for (a user message that
 * says revert/undo/roll back between the two edits).
 *
 * Complexity: O(n) — one pass over the stream. State: the last 4 calls (their signatures compared as the
 * batch scan per period compared them) and, per period, the current run of repeats and the cycles found
 * but not yet settled against lower periods (held until no lower-period cycle can overlap them: bounded
 * by the current runs), with the settled cycles they may still overlap; the open retry loops by failure
 * signature (a {@link RecentMap}; finished loops held until their signature comes back or the end, which
 * orders them as the batch did); edits by hash of path, old and new text (a {@link RecentMap}) and, per
 * path, the hashes of the contents written to it (at most {@link MAX_CONTENTS} each).
 */
export const toolCallChain = streaming("tool-call-chain", () => {
  const cycles = cycleFinder();
  const loops = failureLoops();
  const undone = reverts();
  return {
    push(at, e, c) {
      if (e.type === "message" && e.role === "user") undone.message(at, e.text);
      if (e.type !== "tool_call" || !c) return;
      cycles.call(c);
      loops.call(c);
      undone.call(c);
    },
    finish() {
      const found = cycles.finish();
      return makeFinding(
        "tool-call-chain",
        [...found.instances, ...loops.finish(), ...undone.instances],
        [...found.exempted, ...undone.exempted],
      );
    },
  };
});

/** Periods of the cycles looked for, lowest first: a lower period's cycle wins over any overlapping one. */
const PERIODS = [2, 3, 4] as const;

/** A cycle found (a run of repeats at least as long as its period), not yet settled against lower periods. */
interface Cycle {
  /** Ordinals of its first call and one past its last. */
  start: number;
  end: number;
  instance: DefectInstance;
  probe: boolean;
}

/** The current run of repeats of one period: where its cycle would start, and what an instance shows. */
interface OpenRun {
  start: number;
  /** What the repeated block shows (names for the note; all probes?); undefined when it is no cycle. */
  block: { names: string[]; probe: boolean } | undefined;
  /** Ids of the calls from the cycle's start on (none when the block is no cycle), excerpts of the first 4. */
  ids: string[];
  excerpts: Excerpt[];
}

/**
 * Cycles of period 2–4 over call signatures, as the batch scan found them: period 2 over all calls, then
 * 3, then 4, a cycle overlapping one taken before it left out. Online, the three periods run side by side
 * and a cycle is settled in that order once no cycle of a lower period can still overlap it: every lower
 * period's current run (and any later one) starts at or after its end, and the lower periods' cycles
 * before it are settled.
 */
function cycleFinder() {
  const ring: CallView[] = []; // the last 4 calls, by ordinal % 4 (held: bounded by the longest period)
  let n = 0; // calls seen
  const periods = PERIODS.map((p) => ({
    p,
    run: 0, // calls i with sig[i] === sig[i - p], consecutively, up to the last call
    open: undefined as OpenRun | undefined,
    held: [] as Cycle[], // found, not yet settled; in order (starts and ends increasing)
    instances: [] as DefectInstance[],
    exempted: [] as ExemptedInstance[],
  }));
  let taken: { start: number; end: number }[] = []; // settled cycles later ones may still overlap

  /**
   * Ordinal from which every cycle of this period not yet settled starts: its held ones, the current run's
   * (when its block is a cycle), later runs' (a run starting at call j starts its cycle at j − p).
   */
  const lowest = (k: number): number => {
    const q = periods[k] as (typeof periods)[number];
    return Math.min(q.open?.block ? q.open.start : n - q.p, q.held[0]?.start ?? Number.POSITIVE_INFINITY);
  };

  function close(q: (typeof periods)[number]): void {
    const o = q.open;
    if (o?.block && q.run >= q.p) {
      const { names, probe } = o.block;
      const repetitions = Math.floor((q.run + q.p) / q.p);
      q.held.push({
        start: o.start,
        end: o.start + q.run + q.p,
        instance: {
          events: o.ids,
          note: `the cycle ${names.join(" → ")} runs ${repetitions} times in a row (${o.ids[0]}…${o.ids.at(-1)})`,
          weight: repetitions - 1,
          excerpts: o.excerpts,
        },
        probe,
      });
    }
    q.run = 0;
    q.open = undefined;
  }

  /** Settle every held cycle no lower-period cycle can still overlap, lowest period first. */
  function settle(): void {
    periods.forEach((q, k) => {
      while (q.held.length) {
        const cycle = q.held[0] as Cycle;
        for (let j = 0; j < k; j++) if (lowest(j) < cycle.end) return;
        q.held.shift();
        if (taken.some((t) => t.start < cycle.end && t.end > cycle.start)) continue;
        taken.push({ start: cycle.start, end: cycle.end });
        if (cycle.probe)
          q.exempted.push({ ...cycle.instance, reason: "polling loop over time-varying probes" });
        else q.instances.push(cycle.instance);
      }
    });
    if (taken.length > 8) {
      const from = Math.min(lowest(0), lowest(1), lowest(2));
      taken = taken.filter((t) => t.end > from);
    }
  }

  return {
    call(c: CallView): void {
      const i = n;
      for (const q of periods) {
        const back = i >= q.p ? ring[(i - q.p) % 4] : undefined;
        if (back && c.signature === back.signature) {
          if (!q.open) {
            const block = Array.from({ length: q.p }, (_, k) => ring[(i - q.p + k) % 4] as CallView);
            // A block of one signature repeated is no cycle: nothing to keep for it.
            const cycle = new Set(block.map((b) => b.signature)).size >= 2;
            q.open = {
              start: i - q.p,
              block: cycle
                ? {
                    names: block.map((b) =>
                      b.commandText ? `\`${b.commandText.slice(0, 40)}\`` : b.call.name,
                    ),
                    probe: block.every((b) => b.commandKind === "probe"),
                  }
                : undefined,
              ids: cycle ? block.map((b) => b.call.id) : [],
              excerpts: cycle ? block.map((b) => excerptOf(b.call)) : [],
            };
          }
          q.run++;
          if (q.open.block) {
            q.open.ids.push(c.call.id);
            if (q.open.excerpts.length < 4) q.open.excerpts.push(excerptOf(c.call));
          }
        } else if (q.open) close(q);
      }
      ring[i % 4] = c;
      n++;
      settle();
    },
    finish(): { instances: DefectInstance[]; exempted: ExemptedInstance[] } {
      for (const q of periods) if (q.open) close(q);
      n = Number.POSITIVE_INFINITY; // no call comes: no run can start
      settle();
      return {
        instances: periods.flatMap((q) => q.instances),
        exempted: periods.flatMap((q) => q.exempted),
      };
    },
  };
}

/** Occurrences of the same tool-level failure that make a stuck retry loop. */
export const LOOP_MIN = 2;
/** Calls at most between two occurrences of a loop's failure (recovery inputs such as `C-c` in between). */
export const LOOP_GAP = 4;

/** A retry loop: the calls failing alike so far (excerpts of the first 4), in the batch's order of loops. */
interface Loop {
  /** Order of the signature among the open loops (a map's insertion order in the batch scan). */
  rank: number;
  sig: string;
  ids: string[];
  excerpts: Excerpt[];
  lastOrdinal: number;
  lastStep: number;
}

function failureLoops() {
  // Failure signature (masked, ≤ 300 characters) → its current loop; one forgotten that long ago has
  // one call (longer ones still growing are refreshed, finished ones moved to `done`): a signature coming
  // back after that only takes a new place in the order of loops.
  const open = new RecentMap<string, Loop>();
  // Loops of at least LOOP_MIN that can grow no more, until their signature comes back (then they are
  // closed there, as the batch closed them) or the end; bounded by the instances they make.
  const done = new Map<string, Loop>();
  const growing = new Set<Loop>(); // loops of at least LOOP_MIN in `open` that can still grow
  const instances: DefectInstance[] = [];
  let ranks = 0;
  let lastChange = -1; // ordinal of the last call that changed state
  const close = (run: Loop) => {
    if (run.ids.length < LOOP_MIN) return;
    instances.push({
      events: run.ids,
      note: `the same failure (${run.sig}) comes back ${run.ids.length} times in a stuck retry loop (${run.ids[0]}…${run.ids.at(-1)})`,
      weight: run.ids.length - 1,
      excerpts: run.excerpts,
    });
  };
  const forget = (run: Loop) => {
    open.delete(run.sig);
    done.delete(run.sig);
    growing.delete(run);
  };
  return {
    call(c: CallView): void {
      // A loop grows by a later call of its step or one within LOOP_GAP calls: past both, it is done.
      for (const run of growing)
        if (c.step > run.lastStep && c.ordinal - run.lastOrdinal > LOOP_GAP) {
          growing.delete(run);
          open.delete(run.sig);
          done.set(run.sig, run);
        }
      const stopped = stoppedByUser(c);
      const program = programFailure(c, stopped);
      const changedSince = (run: Loop | undefined) => lastChange > (run?.lastOrdinal ?? -1);
      if (c.changes.length || c.kind === "write" || c.kind === "edit" || c.commandKind === "mutate")
        lastChange = c.ordinal;
      // A program failing the same way again with nothing changed since is retried, not debugged.
      const sig = toolFailure(c, stopped) ?? (program && `again ${program}`);
      if (!sig) return;
      let run = open.get(sig) ?? done.get(sig);
      if (run && sig === `again ${program}` && changedSince(run)) {
        forget(run);
        run = undefined;
      }
      // Calls issued in the same step failing alike (siblings cancelled with the first) are one failure.
      if (run && run.lastStep === c.step) return;
      if (run && c.ordinal - run.lastOrdinal <= LOOP_GAP) {
        run.ids.push(c.call.id);
        if (run.excerpts.length < 4) run.excerpts.push(excerptOf(c.call));
        run.lastOrdinal = c.ordinal;
        run.lastStep = c.step;
        open.set(sig, run); // recent again: a loop still growing is not forgotten
        if (run.ids.length === LOOP_MIN) growing.add(run);
      } else {
        if (run) {
          close(run);
          forget(run);
        }
        open.set(sig, {
          rank: run?.rank ?? ranks++,
          sig,
          ids: [c.call.id],
          excerpts: [excerptOf(c.call)],
          lastOrdinal: c.ordinal,
          lastStep: c.step,
        });
      }
    },
    /** The loops found, in the batch's order: as they were closed, then the open ones by signature order. */
    finish(): DefectInstance[] {
      const left = [...open.values(), ...done.values()].filter((run) => run.ids.length >= LOOP_MIN);
      for (const run of left.sort((a, b) => a.rank - b.rank)) close(run);
      return instances;
    },
  };
}

/** Contents remembered per path for `Write` reverts: a restore of content older than that is not seen. */
export const MAX_CONTENTS = 256;

/** An edit or write a later one may undo. */
interface Change {
  id: string;
  at: number;
  excerpt: Excerpt;
}

function reverts() {
  const edits = new RecentMap<string, Change>(); // hash of path \0 old \0 new → edit call
  const writes = new Map<string, { last: string; seen: RecentMap<string, Change> }>(); // path → contents
  const instances: DefectInstance[] = [];
  const exempted: ExemptedInstance[] = [];
  let userAskedRevert = -1; // position of the latest user message asking to revert

  function record(first: Change, again: CallView, note: string): void {
    const instance = {
      events: [first.id, again.call.id],
      note,
      weight: 1,
      excerpts: [first.excerpt, excerptOf(again.call)],
    };
    if (userAskedRevert > first.at && userAskedRevert < again.at)
      exempted.push({ ...instance, reason: "the user asked for the revert" });
    else instances.push(instance);
  }

  return {
    instances,
    exempted,
    message(at: number, text: string): void {
      if (/\b(revert|undo|roll ?back|put (it|that) back|restore)\b/i.test(text)) userAskedRevert = at;
    },
    call(c: CallView): void {
      if (c.failed) return;
      const input = (c.call.input ?? {}) as Record<string, unknown>;
      const path = c.paths[0];
      if (!path) return;
      if (c.kind === "edit" && typeof input.old_string === "string" && typeof input.new_string === "string") {
        const undone = edits.get(digest(path, input.new_string, input.old_string));
        if (undone) record(undone, c, `edit ${c.call.id} of ${path} reverts edit ${undone.id}`);
        edits.set(digest(path, input.old_string, input.new_string), change(c));
      } else if (c.kind === "write" && typeof input.content === "string") {
        const h = digest(input.content);
        const w = writes.get(path) ?? { last: "", seen: new RecentMap<string, Change>(MAX_CONTENTS) };
        const before = w.seen.get(h);
        if (before && w.last !== h)
          record(before, c, `write ${c.call.id} restores ${path} to what ${before.id} wrote`);
        w.seen.set(h, change(c));
        w.last = h;
        writes.set(path, w);
      }
    },
  };
}

function change(c: CallView): Change {
  return { id: c.call.id, at: c.at, excerpt: excerptOf(c.call) };
}

/** SHA-1 of texts joined by NUL, base64: a key standing for them (texts of edits, contents written). */
function digest(...texts: string[]): string {
  const h = createHash("sha1");
  texts.forEach((t, k) => {
    h.update(k ? `\0${t}` : t);
  });
  return h.digest("base64");
}
