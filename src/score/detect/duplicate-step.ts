import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Detector, makeFinding } from "./finding.ts";
import type { CallView } from "./view.ts";

/**
 * Duplicate Step (ProcCtrlBench App. A.2): a tool call that repeats an earlier one — same tool, same
 * arguments, or arguments that differ only in numbers — with no substantive state change in between.
 *
 * Raw score: the number of such calls (weight 1 each). Evidence per instance: the earlier call and the
 * repeat. "No state change" means no call in between mutated anything (a write or edit, a mutating or
 * unrecognised command, a recorded file change), no user turn and no compaction came in between.
 *
 * Exemptions (App. A.2, B.1), kept as evidence in `exempted`:
 * - validation reruns after intervening edits (same test/build/lint command, state changed since);
 * - time-varying commands (`git status`, `date`, `ps`, `curl`, `sleep` …): their output may differ;
 * - intended batch processing: near-duplicates that differ in the target path (the same operation over
 *   `a1.txt`, `a2.txt`, …).
 *
 * Complexity: O(n) over events (one pass, two hash maps).
 */
export const duplicateStep: Detector = {
  defect: "duplicate-step",
  detect(view) {
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    const exact = new Map<string, { call: CallView; version: number }>();
    const near = new Map<string, { call: CallView; version: number }>();
    let version = 0;
    let m = 0; // next message / context event to fold into the version
    const boundaries = view.events
      .map((e, at) => ({ e, at }))
      .filter(
        ({ e }) => (e.type === "message" && e.role === "user") || (e.type === "context" && e.compaction),
      );
    for (const c of view.calls) {
      while (m < boundaries.length && (boundaries[m]?.at ?? Infinity) < c.at) {
        version++;
        m++;
      }
      const earlier = exact.get(c.signature);
      const nearKey = maskNumbers(c.signature);
      const similar = near.get(nearKey);
      if (earlier && earlier.version === version) {
        if (c.commandKind === "probe")
          exempted.push({
            ...pair(earlier.call, c, "repeats"),
            reason: "time-varying command: its output may change between runs",
          });
        else instances.push(pair(earlier.call, c, "repeats"));
      } else if (earlier && c.commandKind === "validate") {
        exempted.push({
          ...pair(earlier.call, c, "reruns", " after changes"),
          reason: "validation rerun after intervening changes",
        });
      } else if (!earlier && similar && similar.version === version && c.kind !== "shell") {
        if (samePaths(similar.call, c))
          instances.push(pair(similar.call, c, "nearly repeats (only numbers differ)"));
        else
          exempted.push({
            ...pair(similar.call, c, "repeats the operation of", " on another target"),
            reason: "intended batch processing: same operation on another target",
          });
      }
      exact.set(c.signature, { call: c, version });
      near.set(nearKey, { call: c, version });
      if (c.mutates) version++;
    }
    return makeFinding("duplicate-step", instances, exempted);
  },
};

function pair(
  first: CallView,
  again: CallView,
  verb: string,
  tail = " with no state change in between",
): DefectInstance {
  const what = again.commandText ? `\`${short(again.commandText)}\`` : again.call.name;
  const note = `${what} (${again.call.id}) ${verb} ${first.call.id}${tail}`;
  return { events: [first.call.id, again.call.id], note, weight: 1 };
}

function maskNumbers(signature: string): string {
  return signature.replace(/\d+/g, "#");
}

function samePaths(a: CallView, b: CallView): boolean {
  return a.paths.join("\0") === b.paths.join("\0");
}

/** First 80 characters of a command, one line. */
export function short(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
