import { scanTerms, type Terms } from "./terms.ts";
import { inputText } from "./tokens.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * Downstream use of context material (ProcCtrlBench App. A.1 "low downstream use"): of a sample of the
 * distinctive tokens of a text (a tool output, a rule section), how many does the agent draw on later —
 * in an assistant message or a tool-call input after the text, and, when material stops being retained
 * at a compaction, before the next compaction. One backward pass over the events.
 */

/** Distinctive tokens sampled from one text; see {@link sampleTokens}. */
export const SAMPLE_SIZE = 50;

/** A text whose later use is measured: where it sits and the terms sampled from it. */
export interface Probe {
  /** Position of the event holding the text. */
  at: number;
  /** Term hashes ({@link Terms}). */
  tokens: readonly number[];
}

/** How much of a probe's sample is drawn on later. */
export interface Use {
  /** Sampled tokens found later. */
  hits: number;
  /** Sampled tokens. */
  of: number;
  /** Id of the earliest later event drawing on a sampled token, if any. */
  firstUse?: string;
  /** The agent produced anything at all after the probe (within retention): the text could have been used. */
  later: boolean;
}

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
 * Measure the later use of every probe, in one backward pass: O(n + total text).
 * @param probes any order; several may share a position
 * @param untilCompaction uses after the next compaction (context event with `compaction`) do not count
 * @returns one {@link Use} per probe, in the order given
 */
export function laterUse(view: TrajectoryView, probes: readonly Probe[], untilCompaction: boolean): Use[] {
  const out: Use[] = probes.map((p) => ({ hits: 0, of: p.tokens.length, later: false }));
  const byPosition = new Map<number, number[]>();
  probes.forEach((p, i) => {
    const list = byPosition.get(p.at);
    if (list) list.push(i);
    else byPosition.set(p.at, [i]);
  });
  let firstUse = new Map<number, { id: string; at: number }>(); // term id → earliest later event using it
  let produced = false; // anything produced later (within retention)
  for (let at = view.events.length - 1; at >= 0; at--) {
    const e = view.events[at];
    if (!e) continue;
    for (const i of byPosition.get(at) ?? []) {
      const use = out[i] as Use;
      use.later = produced;
      let earliest: { id: string; at: number } | undefined;
      for (const t of probes[i]?.tokens ?? []) {
        const u = firstUse.get(t);
        if (!u) continue;
        use.hits++;
        if (!earliest || u.at < earliest.at) earliest = u;
      }
      if (earliest) use.firstUse = earliest.id;
    }
    if (untilCompaction && e.type === "context" && e.compaction) {
      firstUse = new Map();
      produced = false;
    }
    const text = producedText(e);
    if (!text) continue;
    produced = true;
    const use = { id: e.id, at };
    for (const t of scanTerms(text).terms) firstUse.set(t, use);
  }
  return out;
}
