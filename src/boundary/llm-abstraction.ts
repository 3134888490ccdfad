import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { ModelOutputError } from "../models/model-errors.ts";
import { transcript } from "./llm-prompt.ts";
import { type AbstractTurn, CUE, type Facts, type Labeller } from "./types.ts";

/**
 * The `llm` labeller (AgentEval §IV-A): one model pass per trace labels each turn with the user action of the
 * utterance, the agent activity of the reply, the slots the utterance provides and a one-sentence summary.
 * The model is told the activity labels already in use, so surface variants of an activity share one label
 * (and so one graph node). Labels are normalised to snake_case in code.
 */

/** What the model answers: one entry per turn, in order. */
export const LabelSheet = z
  .object({
    turns: z
      .array(
        z.object({
          turn: z.number().int().nonnegative().describe("0-based index of the turn."),
          userAction: z
            .string()
            .min(1)
            .describe("snake_case user action, e.g. request_cancel, provide_user_id."),
          activity: z
            .string()
            .min(1)
            .describe("snake_case agent activity, e.g. ask_user_id, request_confirmation."),
          provided: z.array(z.string()).default([]).describe("Slots whose values the user message carries."),
          summary: z.string().describe("One sentence saying what happened in the turn."),
        }),
      )
      .describe("Exactly one entry per turn of the trace, in order."),
  })
  .describe("Abstraction of one conversation, turn by turn (AgentEval §IV-A).");

/** Activity cues of {@link CUE} (the user-action cues are listed apart). */
const USER_CUES = new Set<string>([CUE.affirm, CUE.deny, CUE.insist]);
const ACTIVITY_CUES = Object.values(CUE).filter((c) => !USER_CUES.has(c));

const SYSTEM = [
  "You abstract conversations between a user and a customer-service agent into workflow events (AgentEval §IV-A).",
  "For each turn give: userAction, what the user's message does; activity, the visible workflow state the",
  "agent's reply creates; provided, the slot names whose values the user's message carries; summary, one",
  "sentence saying what happened. Labels are snake_case. Replies that differ only in wording (surface variants,",
  'e.g. "What is your reservation code?" and "Could you give me the booking reference?") get the same label:',
  "reuse a known label whenever it fits and make a new one only for a new kind of step.",
  `Cue activities, used whenever they apply: ${ACTIVITY_CUES.join(", ")}, and ask_<slot> when`,
  "the reply asks for a value (e.g. ask_user_id).",
  `User actions: ${CUE.affirm}, ${CUE.deny}, request_<verb> (e.g. request_cancel), provide_<slot>, ${CUE.insist}, thank, other.`,
  "Answer with exactly one entry per turn, in order, as the JSON object asked for.",
].join("\n");

/** `text` as a snake_case label (`Ask User ID` → `ask_user_id`); `other` when nothing is left. */
export function snakeLabel(text: string): string {
  const label = text
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return /^[a-z]/.test(label) ? label : label ? `x_${label}` : "other";
}

/** The labeller's prompt for one trace (exported for tests and cache-key stability). */
export function labellerPrompt(
  trace: { id: string; turns: readonly { user: string; reply: string; ms: number }[] },
  facts: Facts,
  known: readonly string[],
): string {
  const slots = [...new Set(facts.personas.flatMap((p) => Object.keys(p)))];
  const n = trace.turns.length;
  return [
    `Known activity labels (reuse them): ${known.join(", ") || "none yet"}`,
    `Slots: ${slots.join(", ")}`,
    "",
    `Trace ${trace.id}, ${n} turns:`,
    transcript(trace.turns),
    "",
    `Label all ${n} turns (turn 0 to ${n - 1}).`,
  ].join("\n");
}

/** Slots of the facts whose values `text` contains (case-insensitive), in facts order. */
function slotsIn(text: string, facts: Facts): string[] {
  const lower = text.toLowerCase();
  const out = new Set<string>();
  for (const persona of facts.personas)
    for (const [slot, values] of Object.entries(persona))
      if (values.some((v) => lower.includes(v.toLowerCase()))) out.add(slot);
  return [...out];
}

/**
 * An `llm` labeller (AgentEval §IV-A). One call per trace; a reply with the wrong number of entries is asked
 * again once (a new request naming both counts), then rejected. `provided` also gets every facts slot whose
 * value the user turn contains verbatim. A trace without turns needs no call.
 * @param client the model client of the `labeller` role
 * @throws (from `label`) ModelOutputError when the reply does not fit the schema after the client's repair, or
 *   labels the wrong number of turns twice; StoppedError when the model budget is spent
 */
export function llmLabeller(client: ModelClient): Labeller {
  return {
    async label(trace, facts, known): Promise<AbstractTurn[]> {
      const n = trace.turns.length;
      if (n === 0) return [];
      const prompt = labellerPrompt(trace, facts, known);
      let problem = "";
      for (let attempt = 0; attempt < 2; attempt++) {
        const sheet = await client.generateObject("labeller", {
          system: SYSTEM,
          prompt: problem
            ? `${prompt}\n\nYour previous answer ${problem}. Answer again with exactly ${n} entries.`
            : prompt,
          schema: LabelSheet,
          schemaName: "trace_labels",
        });
        if (sheet.turns.length === n)
          return sheet.turns.map((t, i) => ({
            userAction: snakeLabel(t.userAction),
            activity: snakeLabel(t.activity),
            provided: [...new Set([...t.provided.map(snakeLabel), ...slotsIn(trace.turns[i]!.user, facts)])],
            summary: t.summary.trim(),
          }));
        problem = `labelled ${sheet.turns.length} turns, but trace ${trace.id} has ${n}`;
      }
      throw new ModelOutputError("labeller", client.model, problem, 2);
    },
  };
}
