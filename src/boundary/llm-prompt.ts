import type { Turn, WorkflowGraph } from "./types.ts";

/**
 * Prompt pieces the `llm` engines of the boundary suite share (AgentEval §III–V): the stop token a driver or
 * runner answers to end its session, a conversation as prompt text, a persona's slots, cleaning a model reply
 * into the user message to send, and the graph snippets the ranker and the generator show. Prompts carry only
 * what shapes the reply — never wall times — so a recorded campaign replays (the prompt is the cache key).
 */

/** What a driver or runner answers to end its session instead of sending a message. */
export const STOP_TOKEN = "###STOP###";

/** Longest text of a turn shown in a prompt (chars); longer ones are cut with `…`. */
const MAX_TURN_CHARS = 600;

/** `text` cut to `max` chars on one line. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A conversation as prompt text: `[i] user: …` / `[i] agent (activity): …` per turn (0-based turn indexes,
 * activity shown when `activities[i]` is given), or `(no turns yet)`. Turn texts are clipped to 600 chars;
 * the turns' wall times are not shown.
 */
export function transcript(turns: readonly Turn[], activities: readonly string[] = []): string {
  if (turns.length === 0) return "(no turns yet)";
  return turns
    .flatMap((t, i) => [
      `[${i}] user: ${clip(t.user, MAX_TURN_CHARS)}`,
      `[${i}] agent${activities[i] ? ` (${activities[i]})` : ""}: ${clip(t.reply, MAX_TURN_CHARS) || "(no reply)"}`,
    ])
    .join("\n");
}

/** A persona's slots as prompt lines `- slot: v1, v2`. */
export function personaLines(persona: Readonly<Record<string, readonly string[] | string>>): string[] {
  return Object.entries(persona).map(([slot, v]) => `- ${slot}: ${typeof v === "string" ? v : v.join(", ")}`);
}

/**
 * A model's reply as the user message to send: trimmed, a `User:` prefix and wrapping quotes removed;
 * undefined for the stop token (anywhere in the reply) or an empty reply.
 */
export function userMessage(reply: string): string | undefined {
  if (reply.includes(STOP_TOKEN)) return undefined;
  const text = reply
    .trim()
    .replace(/^(user|customer)\s*:\s*/i, "")
    .replace(/^"([\s\S]*)"$/, "$1")
    .trim();
  return text || undefined;
}

/** Label counts as prompt text, `affirm×2, deny×1`, or `none`. */
export function counts(record: Readonly<Record<string, number>>): string {
  return (
    Object.entries(record)
      .map(([k, n]) => `${k}×${n}`)
      .join(", ") || "none"
  );
}

/** The activities of a graph location: both ends of an edge `a -> b`, else the location itself. */
export function activitiesOf(target: { kind: string; location: string }): string[] {
  return target.kind === "edge" ? target.location.split(" -> ").map((s) => s.trim()) : [target.location];
}

/** Up to `n` example replies of an activity in the graph, clipped to 160 chars, as `"…" | "…"` (or `none`). */
export function examples(graph: WorkflowGraph, activity: string, n = 2): string {
  const node = graph.nodes.find((x) => x.activity === activity);
  return (
    node?.examples
      .slice(0, n)
      .map((e) => `"${clip(e, 160)}"`)
      .join(" | ") || "none"
  );
}
