import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { sharedTerms, type Terms } from "./terms.ts";
import { inputText } from "./tokens.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * Downstream use of context material (ProcCtrlBench App. A.1 "low downstream use"): of a sample of the
 * distinctive tokens of a text (a tool output, a rule section), how many does the agent draw on later —
 * in an assistant message or a tool-call input after the text, and, when material stops being retained
 * at a compaction, before the next compaction. One forward pass over the stream ({@link LaterUse}):
 * pending probes, indexed by their terms not yet drawn on.
 */

/** Distinctive tokens sampled from one text; see {@link sampleTokens}. */
export const SAMPLE_SIZE = 50;

/** How much of a probe's sample is drawn on later. */
export interface Use {
  /** Sampled tokens found later. */
  hits: number;
  /** Sampled tokens. */
  of: number;
  /** Id of the earliest later event drawing on a sampled token, if any. */
  firstUse?: string;
  /** The excerpt of that event, taken as it passed. */
  firstUseExcerpt?: Excerpt;
  /** The agent produced anything at all after the probe (within retention): the text could have been used. */
  later: boolean;
}

/** A text whose later use is measured, registered at its position ({@link LaterUse.add}). */
export interface Probe<T> {
  /** What the caller needs to judge it. */
  readonly data: T;
  /** Term hashes ({@link Terms}), distinct. */
  readonly tokens: readonly number[];
  /** Its use so far; final once decided. */
  readonly use: Use;
}

/** Why a probe is decided: enough use, a compaction ended retention, the log ended. */
export type Decided = "used" | "compaction" | "end" | "limit";

/**
 * Probes waiting at most for a later text to draw on them: past this many, the one added longest ago is
 * decided on its use so far (`"limit"`; on a long log: nothing drew on it while this many newer ones came).
 */
export const MAX_PENDING_PROBES = 4096;

/**
 * Up to `size` distinct distinctive terms of a text ({@link Terms} hashes), spread evenly over all of them
 * (not just the first ones, so a long file's imports do not stand for its body), minus terms in `exclude`
 * (e.g. the call's own input, which the output merely echoes).
 */
export function sampleTerms(
  terms: readonly number[],
  exclude?: ReadonlySet<number>,
  size = SAMPLE_SIZE,
): number[] {
  const all: number[] = [];
  for (const t of terms) if (!exclude?.has(t)) all.push(t);
  if (all.length <= size) return all;
  const step = all.length / size;
  return Array.from({ length: size }, (_, i) => all[Math.floor(i * step)] as number);
}

/** The text of an event the agent produced: assistant text or a tool input; `""` otherwise. */
export function producedText(e: TrajectoryView["events"][number]): string {
  if (e.type === "message" && e.role === "assistant") return e.text;
  if (e.type === "tool_call") return inputText(e.input);
  return "";
}

/**
 * The later use of probes, measured forward: register a probe once its event has been fed ({@link add}),
 * feed every event in order ({@link push}); each text the agent produces ({@link producedText}, its terms
 * from {@link sharedTerms}) draws on the pending probes holding its terms, through a term → probes index.
 * A probe is decided — handed to `decide` and forgotten — once its outcome can no longer change (every
 * sampled term drawn on, or `enough` says so), at a compaction when `untilCompaction` (uses after the next
 * compaction do not count), when more than {@link MAX_PENDING_PROBES} newer ones wait, or at {@link finish}.
 *
 * Complexity: O(terms of each produced text) per event while probes are pending, O(tokens) per probe
 * added or decided; state: the pending probes and the index of their terms not yet drawn on.
 */
export class LaterUse<T> {
  /** Term → the pending probe, or probes, holding it that no produced text has drawn on yet. */
  private readonly index = new Map<number, Probe<T> | Set<Probe<T>>>();
  /** Pending probes, in the order added. */
  private readonly pending = new Set<Probe<T>>();
  /** Pending probes nothing was produced after yet. */
  private readonly unproduced = new Set<Probe<T>>();

  constructor(
    private readonly options: {
      /** Uses after the next compaction (context event with `compaction`) do not count. */
      untilCompaction: boolean;
      /** A probe's outcome is settled by this much use (checked as hits come). */
      enough?: (use: Use) => boolean;
      /** Called once per probe, when decided. */
      decide: (probe: Probe<T>, why: Decided) => void;
    },
  ) {}

  /** Register a probe at the position of the event just fed: only later events draw on it. */
  add(tokens: readonly number[], data: T): Probe<T> {
    const probe: Probe<T> = { data, tokens, use: { hits: 0, of: tokens.length, later: false } };
    this.pending.add(probe);
    this.unproduced.add(probe);
    for (const t of tokens) {
      const holders = this.index.get(t);
      if (!holders) this.index.set(t, probe);
      else if (holders instanceof Set) holders.add(probe);
      else this.index.set(t, new Set([holders, probe]));
    }
    if (this.pending.size > MAX_PENDING_PROBES) {
      const oldest = this.pending.values().next().value as Probe<T>;
      this.drop(oldest);
      this.options.decide(oldest, "limit");
    }
    return probe;
  }

  /** Forget a pending probe without deciding it. */
  drop(probe: Probe<T>): void {
    if (!this.pending.delete(probe)) return;
    this.unproduced.delete(probe);
    for (const t of probe.tokens) {
      const holders = this.index.get(t);
      if (holders === probe) this.index.delete(t);
      else if (holders instanceof Set && holders.delete(probe) && !holders.size) this.index.delete(t);
    }
  }

  /** The next event, in order. */
  push(e: TrajectoryEvent): void {
    if (e.type === "context" && e.compaction && this.options.untilCompaction) {
      this.decideAll("compaction");
      return;
    }
    if (!this.pending.size || !((e.type === "message" && e.role === "assistant") || e.type === "tool_call"))
      return;
    const terms = sharedTerms(e).terms;
    if (this.unproduced.size && (terms.length || producedText(e))) {
      for (const p of this.unproduced) p.use.later = true;
      this.unproduced.clear();
    }
    let excerpt: Excerpt | undefined;
    for (const t of terms) {
      const holders = this.index.get(t);
      if (!holders) continue;
      this.index.delete(t); // drawn on: each holder counts it once
      for (const p of holders instanceof Set ? holders : [holders]) {
        const use = p.use;
        use.hits++;
        if (!use.firstUse) {
          use.firstUse = e.id;
          use.firstUseExcerpt = excerpt ??= excerptOf(e);
        }
        if (use.hits === use.of || this.options.enough?.(use)) {
          this.drop(p);
          this.options.decide(p, "used");
        }
      }
    }
  }

  /** After the last event: decide every pending probe. */
  finish(): void {
    this.decideAll("end");
  }

  private decideAll(why: Decided): void {
    const all = [...this.pending];
    this.pending.clear();
    this.unproduced.clear();
    this.index.clear();
    for (const p of all) this.options.decide(p, why);
  }
}
