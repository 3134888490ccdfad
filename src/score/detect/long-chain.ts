import { DEFECTS, type DefectInstance, type ExemptedInstance } from "../defects.ts";
import { isKeyInput } from "./failures.ts";
import { type Detector, makeFinding } from "./finding.ts";
import type { CallView } from "./view.ts";

/**
 * Long Chain (ProcCtrlBench App. A.2): disproportionate trajectory growth without decomposition, stage
 * control or checkpointing. Long trajectories are not defective in themselves; the signal is a long
 * stretch of calls with no point where progress is consolidated.
 *
 * Checkpoints: a user turn, a plan or to-do update (`TodoWrite`, `update_plan`, …), a delegation to a
 * sub-agent (decomposition), a validation command that passes, a `git commit`.
 *
 * Keys sent to a running command and polls of it (`C-c`, Codex `write_stdin`) are not counted as calls.
 *
 * Raw score: the number of steps in the longest stretch between checkpoints (parallel calls of one model
 * response are one step), when it reaches the
 * warning threshold (one instance; weight = that length; a shorter stretch is no instance and scores 0).
 * Evidence: the first and last call of the stretch.
 *
 * Exemption: intended batch work — a stretch of at least {@link BATCH_MIN} calls where at least
 * {@link BATCH_SHARE} of it is one tool applied to distinct targets (editing forty files one by one is a batch, not a lost
 * chain).
 *
 * Complexity: O(n), one pass.
 */
export const longChain: Detector = {
  defect: "long-chain",
  detect(view) {
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    const users = view.messages.filter((m) => m.event.role === "user").map((m) => m.at);
    let u = 0;
    let stretch: CallView[] = [];
    let longest: CallView[] = [];
    const close = () => {
      if (stretch.length > longest.length) longest = stretch;
      stretch = [];
    };
    for (const c of view.calls) {
      while (u < users.length && (users[u] ?? Infinity) < c.at) {
        close();
        u++;
      }
      if (isCheckpoint(c)) {
        close();
        continue;
      }
      // Keys sent to a running command and polls of it wait on a step; they are no step of their own.
      if (isKeyInput(c)) continue;
      stretch.push(c);
    }
    close();
    // A stretch shorter than the warning threshold is no chain at all: nothing to report.
    if (stepsOf(longest) < DEFECTS["long-chain"].warning)
      return makeFinding("long-chain", instances, exempted);
    const first = longest[0] as CallView;
    const last = longest.at(-1) as CallView;
    const steps = stepsOf(longest);
    const instance = {
      events: [first.call.id, last.call.id],
      note: `${steps} steps${steps === longest.length ? "" : ` (${longest.length} tool calls)`} in a row (${first.call.id}…${last.call.id}) with no user turn, plan update, passing check or commit`,
      weight: steps,
    };
    const batch = batchShare(longest);
    if (batch.share >= BATCH_SHARE && longest.length >= BATCH_MIN)
      exempted.push({
        ...instance,
        reason: `intended batch work: ${Math.round(batch.share * 100)}% of the stretch is ${batch.tool} on distinct targets`,
      });
    else instances.push(instance);
    return makeFinding("long-chain", instances, exempted);
  },
};

/**
 * Steps of a stretch: calls issued together (one after another with no result in between — one model
 * response's parallel calls) are one step.
 */
function stepsOf(stretch: readonly CallView[]): number {
  return new Set(stretch.map((c) => c.step)).size;
}

/** Calls a stretch needs before it can be judged batch work (shorter ones are not long anyway). */
export const BATCH_MIN = 10;

/** Share of a stretch one tool over distinct targets must reach for it to count as batch work. */
export const BATCH_SHARE = 0.7;

function isCheckpoint(c: CallView): boolean {
  if (c.kind === "plan" || c.kind === "delegate") return true;
  if (c.commandKind === "validate" && !c.failed && c.result) return true;
  return /\bgit\s+commit\b/.test(c.commandText) && !c.failed;
}

function batchShare(stretch: CallView[]): { share: number; tool: string } {
  const byTool = new Map<string, Set<string>>();
  for (const c of stretch) {
    const target = c.paths[0];
    if (!target) continue;
    const set = byTool.get(c.call.name) ?? new Set<string>();
    set.add(target);
    byTool.set(c.call.name, set);
  }
  let best = { share: 0, tool: "" };
  for (const [tool, targets] of byTool) {
    const share = targets.size / stretch.length;
    if (share > best.share) best = { share, tool };
  }
  return best;
}
