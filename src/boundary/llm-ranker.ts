import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { activitiesOf, counts, examples } from "./llm-prompt.ts";
import type { BoundaryTarget, RankedTarget, Ranker, WorkflowGraph } from "./types.ts";

/**
 * The `llm` ranker (AgentEval §V-B, Alg. 2 line 2): scores each structural boundary target of the workflow
 * graph with a boundary potential in [0, 1] and a concise label, reading the behaviour observed at the
 * location (its activity, example replies, user actions). The plan generates tests for the best targets first.
 */

/** What the ranker model answers for a batch of targets. */
export const RankSheet = z
  .object({
    scores: z.array(
      z.object({
        id: z.string().describe("The target id as given, e.g. T3."),
        potential: z.number().min(0).max(1).describe("Boundary potential in [0, 1]."),
        label: z.string().min(1).describe("A concise label of the boundary it would stress."),
      }),
    ),
  })
  .describe("Boundary potential of each target (AgentEval §V-B).");

const RANKER_SYSTEM = [
  "You rank locations of a conversational agent's workflow graph by boundary potential (AgentEval §V-B): a value",
  "in [0, 1] estimating how likely stressing the location exposes a guard, limit, prerequisite or recovery",
  "behaviour worth testing. Read the behaviour observed there (its activity, example replies, user actions):",
  "score high when it already shows a guarded or stateful step (a confirmation, an eligibility check, a required",
  "input), low for an ordinary step with nothing to stress. Give each a concise label naming the boundary, e.g.",
  '"cancel without confirmation at the cancellation gate". One entry per target id; answer only with the JSON.',
].join("\n");

/** Targets per ranker call. */
const RANK_BATCH = 40;

/** The ranker's prompt for targets numbered from `offset` (exported for tests and cache-key stability). */
export function rankerPrompt(targets: readonly BoundaryTarget[], graph: WorkflowGraph, offset = 0): string {
  return targets
    .map((t, i) => {
      const seen = activitiesOf(t).at(-1) ?? t.location;
      return (
        `T${offset + i} ${t.kind} ${t.location} (support ${t.support}; user actions: ${counts(t.userActions)})\n` +
        `  stresses: ${t.description}\n  observed replies (${seen}): ${examples(graph, seen)}`
      );
    })
    .join("\n");
}

/**
 * An `llm` ranker (AgentEval Alg. 2 line 2): one call per batch of up to 40 targets, ids `T<index>`. A target
 * the model skipped gets potential 0 and the label `<kind> <location>`; the output keeps the input order.
 * @param client the model client of the `ranker` role
 * @throws (from `rank`) StoppedError when the model budget is spent; ModelOutputError when no reply is valid
 */
export function llmRanker(client: ModelClient): Ranker {
  return {
    async rank(targets, graph): Promise<RankedTarget[]> {
      const scores = new Map<string, { potential: number; label: string }>();
      for (let offset = 0; offset < targets.length; offset += RANK_BATCH) {
        const sheet = await client.generateObject("ranker", {
          system: RANKER_SYSTEM,
          prompt: rankerPrompt(targets.slice(offset, offset + RANK_BATCH), graph, offset),
          schema: RankSheet,
          schemaName: "target_ranking",
        });
        for (const s of sheet.scores) if (!scores.has(s.id)) scores.set(s.id, s);
      }
      return targets.map((t, i) => {
        const s = scores.get(`T${i}`);
        return { ...t, potential: s?.potential ?? 0, label: s?.label.trim() || `${t.kind} ${t.location}` };
      });
    },
  };
}
