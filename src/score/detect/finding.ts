import {
  DEFECTS,
  type DefectId,
  type DefectInstance,
  type ExemptedInstance,
  type RawFinding,
} from "../defects.ts";
import { type OnlineDetector, runDetectors } from "./stream.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * A process-defect detector (ProcCtrlBench §3.3, App. A): from the shared trajectory index to one raw
 * finding, in time linear (or n log n) in the number of events.
 */
export interface Detector {
  defect: DefectId;
  /** Score one trajectory. Never throws on odd input: what cannot be judged scores 0. */
  detect(view: TrajectoryView): RawFinding;
  /** The same detector reading the trajectory as a stream ({@link ViewStream}), when it can. */
  start?(): OnlineDetector;
}

/** A detector that reads the stream; `detect` runs it over the view's events. */
export function streaming(
  defect: DefectId,
  start: () => OnlineDetector,
): Detector & { start(): OnlineDetector } {
  return {
    defect,
    start,
    detect: (view) => runDetectors(view.events, [start()])[0] as RawFinding,
  };
}

/**
 * Assemble a raw finding: `score` sums the weights of the counted instances, `rawScore` adds the exempted
 * ones (App. B.3: exemptions apply after scoring, before risk estimation). Instances are sorted strongest
 * first; both sums are rounded to 3 decimals.
 */
export function makeFinding(
  defect: DefectId,
  instances: DefectInstance[],
  exempted: ExemptedInstance[] = [],
): RawFinding {
  const sum = (xs: { weight: number }[]) => Math.round(xs.reduce((s, x) => s + x.weight, 0) * 1000) / 1000;
  const strongest = <T extends { weight: number }>(xs: T[]) => [...xs].sort((a, b) => b.weight - a.weight);
  const score = sum(instances);
  return {
    defect,
    score,
    rawScore: Math.round((score + sum(exempted)) * 1000) / 1000,
    instances: strongest(instances),
    exempted: strongest(exempted),
  };
}

/** The unit text of a defect, for notes. */
export function unitOf(defect: DefectId): string {
  return DEFECTS[defect].unit;
}
