import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { Instances, makeFinding, streaming } from "./finding.ts";
import { FileMap, readsOf } from "./paths.ts";
import type { CallView } from "./view.ts";

/**
 * Context Window Thrashing (ProcCtrlBench App. A.1): repeated loading, saturation and compression that
 * discards information before a stable reasoning chain forms, seen in its consequence — rediscovery.
 * Three kinds of instance:
 *
 * - compaction: a context event with `compaction` (weight 1; compaction events with no message or tool
 *   event between them are one compaction logged twice, as Codex rollouts do);
 * - saturation episode: context readings (`tokens` / `window`) rising to at least {@link SATURATED} and
 *   later falling below {@link RELEASED} with no compaction recorded in between (weight 1; one that ends
 *   in a recorded compaction is that compaction, not counted twice). Needs `window`; logs without it
 *   show compactions only;
 * - rediscovery: a file read after a compaction that was already read before it — its first re-read
 *   after that compaction (weight 0.5).
 *
 * Raw score: automatic compactions + saturation episodes + half the re-reads of files already read before
 * a compaction. Evidence: the compaction event; the readings where the episode began and ended; the
 * earlier read call, the compaction, and the re-read call.
 *
 * Exemption (kept in `exempted`): a compaction the user asked for — the last message before it is a
 * user `/compact` — and the rediscoveries after it (the user chose to drop the context).
 *
 * Complexity: O(n) — one pass over the stream; state: the files read (a file map indexed by path suffix).
 */
export const contextThrashing = streaming("context-thrashing", () => {
  const instances = new Instances<DefectInstance>();
  const exempted = new Instances<ExemptedInstance>();
  let compactions = 0;
  let lastCompaction: { id: string; asked: boolean; excerpt: Excerpt } | undefined;
  let lastMessage: { role: string; text: string } | undefined;
  let episode: { id: string; compacted: boolean; excerpt: Excerpt } | undefined;
  let activeSinceCompaction = true; // a message or tool event since the last compaction
  const lastRead = new FileMap<{ id: string; epoch: number; excerpt: Excerpt }>();
  return {
    push(_at, e, c) {
      if (e.type === "message") lastMessage = e;
      if (e.type === "message" || e.type === "tool_call" || e.type === "tool_result")
        activeSinceCompaction = true;
      if (e.type === "tool_call" && c) rediscovery(c);
      if (e.type !== "context") return;
      if (e.compaction && !activeSinceCompaction) {
        if (episode) episode.compacted = true; // the same compaction logged twice (Codex: two records)
      } else if (e.compaction) {
        activeSinceCompaction = false;
        const asked = lastMessage?.role === "user" && ASKED.test(lastMessage.text);
        compactions++;
        lastCompaction = { id: e.id, asked, excerpt: excerptOf(e) };
        const instance = {
          events: [e.id],
          note: `context compacted at ${e.id}`,
          weight: 1,
          excerpts: [lastCompaction.excerpt],
        };
        if (asked) exempted.push({ ...instance, reason: "compaction the user asked for (/compact)" });
        else instances.push(instance);
        if (episode) episode.compacted = true;
      }
      if (e.tokens === undefined || !e.window) return;
      const ratio = e.tokens / e.window;
      if (!episode && ratio >= SATURATED) episode = { id: e.id, compacted: false, excerpt: excerptOf(e) };
      else if (episode && ratio < RELEASED) {
        if (!episode.compacted)
          instances.push({
            events: [episode.id, e.id],
            note: `context saturated (≥ ${SATURATED * 100}% of the window) at ${episode.id}, then dropped to ${Math.round(ratio * 100)}% at ${e.id}`,
            weight: 1,
            excerpts: [episode.excerpt, excerptOf(e)],
          });
        episode = undefined;
      }
    },
    finish: () => makeFinding("context-thrashing", instances, exempted),
  };

  /** Rediscovery: first re-read, after a compaction, of a file read before it. */
  function rediscovery(c: CallView): void {
    if (c.failed) return;
    for (const path of readsOf(c)) {
      const prev = lastRead.get(path);
      if (prev && lastCompaction && prev.epoch < compactions) {
        const instance = {
          events: [prev.id, lastCompaction.id, c.call.id],
          note: `${path} read at ${prev.id}, compacted away at ${lastCompaction.id}, read again at ${c.call.id}`,
          weight: 0.5,
          excerpts: [prev.excerpt, lastCompaction.excerpt, excerptOf(c.call)],
        };
        if (lastCompaction.asked)
          exempted.push({
            ...instance,
            reason: "re-read after a compaction the user asked for (/compact)",
          });
        else instances.push(instance);
      }
      lastRead.set(path, { id: c.call.id, epoch: compactions, excerpt: excerptOf(c.call) });
    }
  }
});

/** Share of the context window from which the context counts as saturated. */
export const SATURATED = 0.9;

/** Share of the window the context must fall below for a saturation episode to end. */
export const RELEASED = 0.6;

/** A user message asking for compaction (`/compact`, as typed or as Claude Code logs the command). */
const ASKED = /(^|\s|<command-name>)\/compact\b/;
