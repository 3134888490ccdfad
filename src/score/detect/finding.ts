import {
  DEFECTS,
  type DefectId,
  type DefectInstance,
  type ExemptedInstance,
  type RawFinding,
} from "../defects.ts";
import { type OnlineDetector, runDetectors, StreamShared } from "./stream.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * A process-defect detector (ProcCtrlBench §3.3, App. A): from the shared trajectory index to one raw
 * finding, in time linear (or n log n) in the number of events.
 */
export interface Detector {
  defect: DefectId;
  /** Score one trajectory. Never throws on odd input: what cannot be judged scores 0. */
  detect(view: TrajectoryView): RawFinding;
  /**
   * The same detector reading the trajectory as a stream ({@link ViewStream}), when it can; `shared` is the
   * bag every detector of that stream gets (a fresh one when absent).
   */
  start?(shared?: StreamShared): OnlineDetector;
}

/** A detector that reads the stream; `detect` runs it over the view's events. */
export function streaming(
  defect: DefectId,
  start: (shared: StreamShared) => OnlineDetector,
): Detector & { start(shared?: StreamShared): OnlineDetector } {
  return {
    defect,
    start: (shared = new StreamShared()) => start(shared),
    detect: (view) => runDetectors(view.events, [start(new StreamShared())])[0] as RawFinding,
  };
}

/**
 * Instances a detector holds at most, per list (counted, exempted): past this many, only the strongest are
 * held — the count and the score still cover every instance. Scorecards show fewer (`MAX_INSTANCES_KEPT`).
 */
export const MAX_INSTANCES_HELD = 1000;

/**
 * A detector's instances as it finds them, in memory bounded at any log size: the number and the weight
 * sum (in the order added) of all of them, and the {@link MAX_INSTANCES_HELD} strongest (ties: the first
 * found) — the same as the first of all of them sorted strongest first. O(log n) amortised per instance.
 */
export class Instances<T extends { weight: number }> {
  /** Instances added. */
  count = 0;
  /** Their weight, summed in the order added. */
  total = 0;
  private held: T[] = [];

  constructor(private readonly limit = MAX_INSTANCES_HELD) {}

  /** Add instances, in order. Returns how many there are. */
  push(...xs: T[]): number {
    for (const x of xs) this.add(x);
    return this.count;
  }

  /** Add one instance. */
  add(x: T): void {
    this.count++;
    this.total += x.weight;
    this.held.push(x);
    if (this.held.length >= 2 * this.limit) this.held = this.sorted();
  }

  /** Add every instance of `other`, after these (those it no longer holds count in the number and sum). */
  absorb(other: Instances<T>): void {
    const notHeld = other.count - other.held.length;
    if (notHeld) this.skip(notHeld, other.total - other.held.reduce((s, x) => s + x.weight, 0));
    for (const x of other.held) this.add(x);
  }

  /** Count `count` instances of total weight `total` that are not held (see {@link KeyedInstances}). */
  skip(count: number, total: number): void {
    this.count += count;
    this.total += total;
  }

  /** The strongest held, strongest first (a stable sort: equal weights in the order found). */
  sorted(): T[] {
    return [...this.held].sort((a, b) => b.weight - a.weight).slice(0, this.limit);
  }
}

/**
 * Instances decided out of order but reported in an order of their own (`key`: e.g. their call's ordinal),
 * after the others: the {@link MAX_INSTANCES_HELD} strongest are held (ties: the smaller key), the rest
 * only counted — so handing them on ({@link drainInto}) gives what holding them all would.
 */
export class KeyedInstances<T extends { weight: number }> {
  private held: { key: number; x: T }[] = [];
  private dropped = 0;
  private droppedWeight = 0;

  constructor(private readonly limit = MAX_INSTANCES_HELD) {}

  add(key: number, x: T): void {
    this.held.push({ key, x });
    if (this.held.length < 2 * this.limit) return;
    this.held.sort((a, b) => b.x.weight - a.x.weight || a.key - b.key);
    for (const y of this.held.splice(this.limit)) {
      this.dropped++;
      this.droppedWeight += y.x.weight;
    }
  }

  /** Add them all to `into`, in key order (those not held counted only). */
  drainInto(into: Instances<T>): void {
    for (const y of this.held.sort((a, b) => a.key - b.key)) into.add(y.x);
    into.skip(this.dropped, this.droppedWeight);
    this.held = [];
  }
}

/** Instances given as a list become an {@link Instances} collector (in their order). */
function collected<T extends { weight: number }>(xs: T[] | Instances<T>): Instances<T> {
  if (xs instanceof Instances) return xs;
  const all = new Instances<T>(Number.POSITIVE_INFINITY);
  for (const x of xs) all.add(x);
  return all;
}

/**
 * Assemble a raw finding: `score` sums the weights of the counted instances, `rawScore` adds the exempted
 * ones (App. B.3: exemptions apply after scoring, before risk estimation). Instances are sorted strongest
 * first, at most {@link MAX_INSTANCES_HELD} of each kind when given as {@link Instances} (then
 * `instanceCount` / `exemptedCount` say how many there were); both sums are rounded to 3 decimals.
 */
export function makeFinding(
  defect: DefectId,
  instances: DefectInstance[] | Instances<DefectInstance>,
  exempted: ExemptedInstance[] | Instances<ExemptedInstance> = [],
): RawFinding {
  const counted = collected(instances);
  const set = collected(exempted);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const score = round(counted.total);
  const held = counted.sorted();
  const heldExempted = set.sorted();
  return {
    defect,
    score,
    rawScore: round(score + round(set.total)),
    instances: held,
    exempted: heldExempted,
    ...(counted.count > held.length ? { instanceCount: counted.count } : {}),
    ...(set.count > heldExempted.length ? { exemptedCount: set.count } : {}),
  };
}

/** The unit text of a defect, for notes. */
export function unitOf(defect: DefectId): string {
  return DEFECTS[defect].unit;
}
