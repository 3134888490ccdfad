import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { observers } from "./compose.ts";
import type { AnomalyReport } from "./inventory.ts";
import type { Placement, ReportPlacer } from "./modes/recognise.ts";
import type { FailureMode } from "./modes/schema.ts";

/**
 * The `llm` engine of the placement role (ABTest §3.1 with an LLM as the abstraction step): the model reads
 * the whole report and the catalogue of failure modes — each with what its oracles can observe — and names
 * the mode whose cases would stress what went wrong, quoting the report's words that show it, or none with
 * the reason. A mode the library does not have is treated as none.
 */

export const PlacementVerdict = z
  .object({
    mode: z
      .string()
      .nullable()
      .describe("Id of the failure mode from the catalogue, or null when none fits."),
    evidence: z
      .array(z.string().max(300))
      .max(5)
      .describe("Short quotes from the report that show the mode."),
    reason: z.string().min(1).max(500).describe("One or two sentences: why this mode (or why none)."),
  })
  .describe("Where a failure report belongs in the failure-mode catalogue.");

const SYSTEM = [
  "You sort real failure reports of AI coding agents into a catalogue of failure modes (ABTest §3.1).",
  "Each mode has a title, a description and the oracles that can observe it in a test run of an agent.",
  "Pick the one mode whose test cases would stress exactly what went wrong in the report, judged by what the",
  "agent did (observed behaviour, observable signal), not by words in the title alone. If no mode's oracles",
  "could observe the failure in a workspace run (UI, billing, a vendor service), answer null and say why.",
  "Answer only with the JSON object asked for.",
].join("\n");

/** The catalogue part of the prompt (stable for the record/replay key). */
export function catalogue(modes: readonly FailureMode[]): string {
  return modes
    .map(
      (m) =>
        `- ${m.id}: ${m.title}. ${m.description.trim().replace(/\s+/g, " ")} Observed by: ${observers(m)}`,
    )
    .join("\n");
}

/** The prompt for one report. */
export function placementPrompt(report: AnomalyReport, modes: readonly FailureMode[]): string {
  const fields = [
    ["title", report.title],
    ["agent", report.agent],
    ["summary", report.summary],
    ["user intent", report.user_intent],
    ["observed behaviour", report.observed_behaviour],
    ["expected behaviour", report.expected_behaviour],
    ["interaction pattern", report.interaction_pattern],
    ["action type", report.action_type],
    ["stressed operation", report.stressed_operation],
    ["observable signal", report.observable_signal],
  ].filter(([, v]) => v);
  return [
    `Report ${report.id}:`,
    ...fields.map(([k, v]) => `${k}: ${v}`),
    "",
    "Failure modes:",
    catalogue(modes),
  ].join("\n");
}

/**
 * An `llm` report placer.
 * @param client the model client of the `placer` role
 * @throws (from `place`) StoppedError when the budget is spent; ModelOutputError when no valid verdict came
 */
export function llmPlacer(client: ModelClient): ReportPlacer {
  const engine = `llm:${client.model}`;
  return {
    engine,
    async place(report, modes): Promise<Placement> {
      const v = await client.generateObject("placer", {
        system: SYSTEM,
        prompt: placementPrompt(report, modes),
        schema: PlacementVerdict,
        schemaName: "placement",
      });
      const chosen = modes.find((m) => m.id === v.mode);
      const known = chosen !== undefined && !chosen.untestable;
      return {
        reportId: report.id,
        mode: known ? v.mode : null,
        score: 0,
        signals: v.evidence.map((excerpt, i) => ({
          signal: `llm-${i + 1}`,
          field: "report",
          excerpt,
          weight: 0,
        })),
        reason:
          known || v.mode === null
            ? v.reason
            : `the model named "${v.mode}", which is not in the catalogue: ${v.reason}`,
        engine,
      };
    },
  };
}
