import { DEFECTS, type DefectInstance, type ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { isKeyInput } from "./failures.ts";
import { makeFinding, streaming } from "./finding.ts";
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
 * Complexity: O(n) — one pass over the stream; state: the current stretch (its first and latest call, its
 * length in calls and steps, each tool's distinct targets) and the same for the longest closed so far.
 */
export const longChain = streaming("long-chain", () => {
  let stretch = newStretch();
  let longest: Longest | undefined;
  const close = () => {
    if (stretch.calls > (longest?.calls ?? 0)) {
      const { first, last } = stretch as Stretch & { first: CallView; last: CallView };
      longest = { ...stretch, first: excerptOf(first.call), last: excerptOf(last.call) };
    }
    if (stretch.calls) stretch = newStretch();
  };
  return {
    push(_at, e, c) {
      if (e.type === "message" && e.role === "user") close();
      if (e.type !== "tool_call" || !c) return;
      if (isCheckpoint(c)) {
        close();
        return;
      }
      // Keys sent to a running command and polls of it wait on a step; they are no step of their own.
      if (isKeyInput(c)) return;
      add(stretch, c);
    },
    finish() {
      close();
      const instances: DefectInstance[] = [];
      const exempted: ExemptedInstance[] = [];
      // A stretch shorter than the warning threshold is no chain at all: nothing to report.
      if (!longest || longest.steps < DEFECTS["long-chain"].warning)
        return makeFinding("long-chain", instances, exempted);
      const { first, last, steps } = longest;
      const instance = {
        events: [first.event, last.event],
        note: `${steps} steps${steps === longest.calls ? "" : ` (${longest.calls} tool calls)`} in a row (${first.event}…${last.event}) with no user turn, plan update, passing check or commit`,
        weight: steps,
        excerpts: [first, last],
      };
      const batch = batchShare(longest);
      if (batch.share >= BATCH_SHARE && longest.calls >= BATCH_MIN)
        exempted.push({
          ...instance,
          reason: `intended batch work: ${Math.round(batch.share * 100)}% of the stretch is ${batch.tool} on distinct targets`,
        });
      else instances.push(instance);
      return makeFinding("long-chain", instances, exempted);
    },
  };
});

/**
 * A stretch of calls between checkpoints, as far as the finding needs it: its first and latest call (held
 * while the stretch is open: two calls), its length in calls and steps, and each tool's distinct targets.
 */
interface Stretch {
  calls: number;
  steps: number;
  lastStep: number;
  first?: CallView;
  last?: CallView;
  /** Tool name → distinct first paths of its calls, tools in order of their first call with a path. */
  targets: Map<string, Set<string>>;
}

/** The longest stretch closed so far, its first and last call kept as excerpts. */
type Longest = Omit<Stretch, "first" | "last"> & { first: Excerpt; last: Excerpt };

function newStretch(): Stretch {
  return { calls: 0, steps: 0, lastStep: Number.NaN, targets: new Map() };
}

/**
 * Add a call to a stretch. Steps count distinct step numbers, which never decrease along the calls
 * (parallel calls of one model response are one step).
 */
function add(s: Stretch, c: CallView): void {
  s.calls++;
  if (c.step !== s.lastStep) s.steps++;
  s.lastStep = c.step;
  s.first ??= c;
  s.last = c;
  const target = c.paths[0];
  if (!target) return;
  const set = s.targets.get(c.call.name) ?? new Set<string>();
  set.add(target);
  s.targets.set(c.call.name, set);
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

function batchShare(stretch: Longest): { share: number; tool: string } {
  let best = { share: 0, tool: "" };
  for (const [tool, targets] of stretch.targets) {
    const share = targets.size / stretch.calls;
    if (share > best.share) best = { share, tool };
  }
  return best;
}
