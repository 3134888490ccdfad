import { labelReply } from "./abstract.ts";
import type { Facts, SessionTrace } from "./types.ts";

/**
 * Discovery's own coverage measure (AgentEval §III-A, "keep exploring while it still grows"): what each
 * session added to the workflow seen so far — the agent activities its replies were labelled with by the
 * `rules` labeller (a pure function of the text and the facts) and the directly-follows pairs between them,
 * the session's start and end included. The measure is the same whichever labeller the campaign uses: it
 * only steers how long discovery goes on and which requests it revisits, never what is mined.
 */

/** Keys per trace object, labelled once for the facts they were labelled with (planner and discover ask each round). */
const cache = new WeakMap<SessionTrace, { facts: Facts; keys: string[] }>();

/** The activity and transition keys of one session (`a:<activity>`, `t:<from>><to>`). */
export function sessionKeys(trace: SessionTrace, facts: Facts): string[] {
  const hit = cache.get(trace);
  if (hit?.facts === facts) return hit.keys;
  const keys = labelKeys(trace, facts);
  cache.set(trace, { facts, keys });
  return keys;
}

function labelKeys(trace: SessionTrace, facts: Facts): string[] {
  const acts = trace.turns.filter((t) => t.reply.trim()).map((t) => labelReply(t.reply, facts).activity);
  const keys = acts.map((a) => `a:${a}`);
  const path = ["^", ...acts, "$"];
  for (let i = 1; i < path.length; i++) keys.push(`t:${path[i - 1]}>${path[i]}`);
  return keys;
}

/**
 * How many new keys ({@link sessionKeys}) each trace added over the traces before it, in order: 0 for a
 * session that only retraced what earlier ones saw.
 *
 * @returns one count per trace, same order and length as `traces`
 */
export function sessionNovelty(traces: readonly SessionTrace[], facts: Facts): number[] {
  const seen = new Set<string>();
  return traces.map((trace) => {
    let added = 0;
    for (const key of sessionKeys(trace, facts))
      if (!seen.has(key)) {
        seen.add(key);
        added++;
      }
    return added;
  });
}
