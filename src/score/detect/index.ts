import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { DEFECT_IDS, type RawFinding } from "../defects.ts";
import { contextCoupling } from "./context-coupling.ts";
import { contextThrashing } from "./context-thrashing.ts";
import { deadStep } from "./dead-step.ts";
import { duplicateStep } from "./duplicate-step.ts";
import type { Detector } from "./finding.ts";
import { ghostContext } from "./ghost-context.ts";
import { inconsistentToolInterface } from "./inconsistent-tool-interface.ts";
import { longChain } from "./long-chain.ts";
import { oversizedRules } from "./oversized-rules.ts";
import { toolCallChain } from "./tool-call-chain.ts";
import { buildView } from "./view.ts";
import { weakTool } from "./weak-tool.ts";
import { wrapperWorkflow } from "./wrapper-workflow.ts";

export type { Detector } from "./finding.ts";
export { buildView, type CallView, type TrajectoryView } from "./view.ts";

/** Every detector, in the paper's order of defect types (ProcCtrlBench §3.3). */
export const DETECTORS: readonly Detector[] = [
  // Context management.
  ghostContext,
  oversizedRules,
  contextThrashing,
  // Tool-use efficiency.
  duplicateStep,
  toolCallChain,
  deadStep,
  longChain,
  // Workflow architecture.
  wrapperWorkflow,
  contextCoupling,
  // Tool-ecosystem consistency.
  inconsistentToolInterface,
  weakTool,
];

/**
 * Run every detector over one trajectory (ProcCtrlBench §3.3): one raw finding per defect type, in
 * DEFECT_IDS order. Linear in the number of events (each detector is; the shared index is built once).
 */
export function detectDefects(events: readonly TrajectoryEvent[]): RawFinding[] {
  const view = buildView(events);
  const found = new Map(DETECTORS.map((d) => [d.defect, d.detect(view)]));
  return DEFECT_IDS.flatMap((id) => {
    const f = found.get(id);
    return f ? [f] : [];
  });
}
