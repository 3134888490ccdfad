import { createHash } from "node:crypto";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { programFailure, toolFailure, userStopped } from "./failures.ts";
import { type Detector, makeFinding } from "./finding.ts";
import type { CallView, TrajectoryView } from "./view.ts";

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
 * Complexity: O(n) — one scan per period (3 periods) over call signatures, and hash maps for reverts.
 */
export const toolCallChain: Detector = {
  defect: "tool-call-chain",
  detect(view) {
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    cycles(view.calls, instances, exempted);
    failureLoops(view, instances);
    reverts(view, instances, exempted);
    return makeFinding("tool-call-chain", instances, exempted);
  },
};

function cycles(calls: CallView[], instances: DefectInstance[], exempted: ExemptedInstance[]): void {
  const covered = new Uint8Array(calls.length);
  for (let period = 2; period <= 4; period++) {
    let run = 0; // calls i with sig[i] === sig[i - period], consecutively
    for (let i = period; i <= calls.length; i++) {
      const same = i < calls.length && calls[i]?.signature === calls[i - period]?.signature;
      if (same) {
        run++;
        continue;
      }
      if (run >= period) {
        const start = i - run - period;
        const block = calls.slice(start, start + period);
        const distinct = new Set(block.map((c) => c.signature)).size;
        const overlaps = covered.subarray(start, i).some((x) => x === 1);
        if (distinct >= 2 && !overlaps) {
          covered.fill(1, start, i);
          const repetitions = Math.floor((run + period) / period);
          const events = calls.slice(start, i).map((c) => c.call.id);
          const names = block.map((c) => (c.commandText ? `\`${c.commandText.slice(0, 40)}\`` : c.call.name));
          const instance = {
            events,
            note: `the cycle ${names.join(" → ")} runs ${repetitions} times in a row (${events[0]}…${events.at(-1)})`,
            weight: repetitions - 1,
          };
          if (block.every((c) => c.commandKind === "probe"))
            exempted.push({ ...instance, reason: "polling loop over time-varying probes" });
          else instances.push(instance);
        }
      }
      run = 0;
    }
  }
}

/** Occurrences of the same tool-level failure that make a stuck retry loop. */
export const LOOP_MIN = 2;
/** Calls at most between two occurrences of a loop's failure (recovery inputs such as `C-c` in between). */
export const LOOP_GAP = 4;

function failureLoops(view: TrajectoryView, instances: DefectInstance[]): void {
  const stopped = userStopped(view);
  const open = new Map<string, CallView[]>(); // failure signature → its current run
  const close = (run: CallView[], sig: string) => {
    if (run.length < LOOP_MIN) return;
    instances.push({
      events: run.map((c) => c.call.id),
      note: `the same failure (${sig}) comes back ${run.length} times in a stuck retry loop (${run[0]?.call.id}…${run.at(-1)?.call.id})`,
      weight: run.length - 1,
    });
  };
  let lastChange = -1; // ordinal of the last call that changed state
  for (const c of view.calls) {
    const program = programFailure(c, stopped);
    const changedSince = (run: CallView[] | undefined) => lastChange > (run?.at(-1)?.ordinal ?? -1);
    if (c.changes.length || c.kind === "write" || c.kind === "edit" || c.commandKind === "mutate")
      lastChange = c.ordinal;
    // A program failing the same way again with nothing changed since is retried, not debugged.
    const sig = toolFailure(c, stopped) ?? (program && `again ${program}`);
    if (!sig) continue;
    if (sig === `again ${program}` && changedSince(open.get(sig))) open.delete(sig);
    const run = open.get(sig);
    // Calls issued in the same step failing alike (siblings cancelled with the first) are one failure.
    if (run && run.at(-1)?.step === c.step) continue;
    if (run && c.ordinal - (run.at(-1)?.ordinal ?? 0) <= LOOP_GAP) run.push(c);
    else {
      if (run) close(run, sig);
      open.set(sig, [c]);
    }
  }
  for (const [sig, run] of open) close(run, sig);
}

function reverts(view: TrajectoryView, instances: DefectInstance[], exempted: ExemptedInstance[]): void {
  const edits = new Map<string, CallView>(); // path \0 old \0 new → edit call
  const writes = new Map<string, { last: string; seen: Map<string, CallView> }>();
  let userAskedRevert = -1; // position of the latest user message asking to revert
  let u = 0;
  const userMessages = view.messages.filter((m) => m.event.role === "user");
  for (const c of view.calls) {
    while (u < userMessages.length && (userMessages[u]?.at ?? Infinity) < c.at) {
      const m = userMessages[u];
      if (m && /\b(revert|undo|roll ?back|put (it|that) back|restore)\b/i.test(m.event.text))
        userAskedRevert = m.at;
      u++;
    }
    if (c.failed) continue;
    const input = (c.call.input ?? {}) as Record<string, unknown>;
    const path = c.paths[0];
    if (!path) continue;
    if (c.kind === "edit" && typeof input.old_string === "string" && typeof input.new_string === "string") {
      const undone = edits.get(`${path}\0${input.new_string}\0${input.old_string}`);
      if (undone) record(undone, c, `edit ${c.call.id} of ${path} reverts edit ${undone.call.id}`);
      edits.set(`${path}\0${input.old_string}\0${input.new_string}`, c);
    } else if (c.kind === "write" && typeof input.content === "string") {
      const h = createHash("sha256").update(input.content).digest("hex");
      const w = writes.get(path) ?? { last: "", seen: new Map<string, CallView>() };
      const before = w.seen.get(h);
      if (before && w.last !== h)
        record(before, c, `write ${c.call.id} restores ${path} to what ${before.call.id} wrote`);
      w.seen.set(h, c);
      w.last = h;
      writes.set(path, w);
    }
  }

  function record(first: CallView, again: CallView, note: string): void {
    const instance = { events: [first.call.id, again.call.id], note, weight: 1 };
    if (userAskedRevert > first.at && userAskedRevert < again.at)
      exempted.push({ ...instance, reason: "the user asked for the revert" });
    else instances.push(instance);
  }
}
