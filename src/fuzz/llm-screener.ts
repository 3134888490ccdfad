import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { type CompatibilityScreener, observers, type Screening } from "./compose.ts";
import type { ActionType, InteractionPattern } from "./inventory.ts";
import type { FailureMode } from "./modes/schema.ts";

/**
 * The `llm` engine of the compatibility screener (ABTest §3.2): the model judges the three criteria for a
 * pattern × action pair — natural insertion point, coherent task sequence, observable anomaly — each with a
 * one-sentence reason. The pair is compatible only when all three hold. One observable fact is not left to
 * the model: an action whose failure mode is not in the library (so no oracle is known to observe it) stays
 * incompatible, whatever the model says, since no case built from it could ever flag anything.
 */

const Criterion = z.object({
  ok: z.boolean().describe("Whether the criterion holds."),
  reason: z.string().min(1).max(400).describe("One sentence saying why."),
});

/** What the model answers for one pair. */
export const ScreeningVerdict = z
  .object({
    insertion: Criterion.describe("1. The pattern's workflow has a natural point where the action fits."),
    coherence: Criterion.describe("2. Pattern and action form one coherent task, not unrelated steps."),
    observability: Criterion.describe(
      "3. The action's anomaly stays observable in traces, files or artifacts.",
    ),
  })
  .describe("Compatibility of an interaction pattern with an action type (ABTest §3.2).");

const SYSTEM = [
  "You screen candidate test scenarios for coding agents (ABTest §3.2).",
  "An interaction pattern is a workflow skeleton taken from real failure reports; an action type is an operation",
  "that stressed agents in those reports. Decide whether inserting the action into the workflow gives a",
  "compatible seed template by three criteria, each with a one-sentence reason:",
  "1 insertion: the workflow has a natural point where the operation fits;",
  "2 coherence: the result is one coherent task a developer would ask for, not unrelated steps glued together;",
  "3 observability: the anomaly the action targets would stay observable through the agent's trace, the files",
  "of the workspace, or the artifacts it must produce. Answer only with the JSON object asked for.",
].join("\n");

/** The prompt for one pair (exported for tests and for the record/replay key's stability). */
export function screeningPrompt(
  pattern: InteractionPattern,
  action: ActionType,
  mode: FailureMode | undefined,
): string {
  return [
    `Interaction pattern ${pattern.id}: ${pattern.description}`,
    `Skeleton: ${pattern.seqSkeletonSteps.join(" → ")}`,
    `Categories of its source reports: ${pattern.categories.join(", ")}`,
    "",
    `Action type ${action.id} (${action.category}): ${action.stressedOperation}`,
    `Failure mode: ${mode ? `${mode.id} — ${mode.title}: ${mode.description.trim()}` : `${action.mode} (not in the library)`}`,
    `What can observe it: ${mode ? observers(mode) : "nothing"}`,
    `Observable evidence in the reports: ${action.observableEvidence.slice(0, 3).join(" | ") || "none recorded"}`,
  ].join("\n");
}

/**
 * An `llm` compatibility screener.
 * @param client the model client of the `screener` role (budget, retries and record/replay are its own)
 * @throws (from `screen`) StoppedError when the run's model budget is spent; ModelOutputError when the model
 *   gives no valid verdict after the repair attempt
 */
export function llmScreener(client: ModelClient): CompatibilityScreener {
  const engine = `llm:${client.model}`;
  return {
    engine,
    async screen(pattern, action, mode): Promise<Screening> {
      const verdict = await client.generateObject("screener", {
        system: SYSTEM,
        prompt: screeningPrompt(pattern, action, mode),
        schema: ScreeningVerdict,
        schemaName: "screening",
      });
      const observability = mode
        ? verdict.observability
        : {
            ok: false,
            reason: `no failure mode "${action.mode}" in the library, so no oracle observes it (model said: ${verdict.observability.reason})`,
          };
      return {
        patternId: pattern.id,
        actionId: action.id,
        compatible: verdict.insertion.ok && verdict.coherence.ok && observability.ok,
        insertion: verdict.insertion,
        coherence: verdict.coherence,
        observability,
        engine,
      };
    },
  };
}
