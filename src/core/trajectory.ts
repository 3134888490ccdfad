import { z } from "zod";

/**
 * Standard trajectory events (DESIGN.md "Vocabulary"): every agent session, whatever produced it, is an
 * ordered list of these. Importers and adapters map native logs into them; nothing downstream reads a
 * native format. Times are epoch milliseconds, durations milliseconds, costs USD.
 */

/** Where an event came from in a native log: file path and 1-based line. */
export const RawRef = z
  .object({
    file: z.string().describe("Source file of the native record (path as recorded)."),
    line: z.number().int().positive().optional().describe("1-based line of the record in that file."),
    index: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "For a whole-document format: the record's index in its array (Gemini and mini-swe-agent `messages[]`, SWE-agent `trajectory[]`, the OpenHands event array) or the ATIF `step_id`.",
      ),
  })
  .describe("Provenance of an event in the native log it was read from.");

const base = {
  id: z.string().min(1).describe("Event id, unique within the trajectory (e.g. `S01-e3`)."),
  ts: z.number().optional().describe("Wall-clock time of the event, epoch milliseconds."),
  step: z.string().optional().describe("Id of the case step (or turn) this event belongs to."),
  parent: z.array(z.string()).optional().describe("Ids of events this one depends on (causes)."),
  raw: RawRef.optional(),
};

export const MessageEvent = z
  .object({
    ...base,
    type: z.literal("message"),
    role: z.enum(["system", "user", "assistant", "tool"]).describe("Who spoke."),
    text: z.string().describe("Plain text of the message (secrets redacted)."),
    reasoning: z
      .boolean()
      .optional()
      .describe(
        "True for reasoning the agent showed (a thinking block, a reasoning summary), not its answer.",
      ),
  })
  .describe("A message in the conversation.");

export const ToolCallEvent = z
  .object({
    ...base,
    type: z.literal("tool_call"),
    callId: z.string().describe("Id pairing this call with its tool_result."),
    name: z.string().describe("Tool name as the agent named it (e.g. `Write`, `run_shell_command`)."),
    input: z.unknown().describe("Tool arguments as given by the agent."),
    response: z
      .string()
      .optional()
      .describe(
        "Id of the model response that issued the call, when the log names it: parallel calls share it.",
      ),
  })
  .describe("The agent invoked a tool.");

export const ToolResultEvent = z
  .object({
    ...base,
    type: z.literal("tool_result"),
    callId: z.string().describe("Id of the tool_call this answers."),
    output: z.string().describe("Tool output as text, size-capped (secrets redacted)."),
    outputChars: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("Characters of the whole output, when `output` holds only its start (capped on import)."),
    isError: z.boolean().describe("True when the tool reported an error."),
  })
  .describe("The result of a tool call.");

export const CommandEvent = z
  .object({
    ...base,
    type: z.literal("command"),
    command: z.string().describe("The shell command line as run."),
    cwd: z.string().optional().describe("Working directory, relative to the workspace root."),
    exitCode: z.number().int().nullable().describe("Exit code; null when killed by a signal or timeout."),
    durationMs: z.number().nonnegative().describe("Wall time of the command, ms."),
    timedOut: z.boolean().optional().describe("True when the command was killed for exceeding a time limit."),
    stdout: z.string().optional().describe("Captured standard output, size-capped (secrets redacted)."),
    stderr: z.string().optional().describe("Captured standard error, size-capped (secrets redacted)."),
  })
  .describe("A shell command the agent ran, with its exit code.");

export const FileChangeEvent = z
  .object({
    ...base,
    type: z.literal("file_change"),
    path: z.string().describe("Workspace-relative path."),
    kind: z.enum(["added", "modified", "deleted"]).describe("What happened to the file."),
    derived: z
      .boolean()
      .optional()
      .describe("True when read from a shell command line (`>`, `sed -i`, `mv`, …), not observed on disk."),
    hashBefore: z.string().optional().describe("sha256 of the content before, if it existed."),
    hashAfter: z.string().optional().describe("sha256 of the content after, if it exists."),
  })
  .describe("A file the agent (or its commands) changed.");

export const ContextEvent = z
  .object({
    ...base,
    type: z.literal("context"),
    tokens: z.number().nonnegative().optional().describe("Tokens in the context window at this point."),
    window: z.number().positive().optional().describe("Size of the context window, tokens."),
    compaction: z.boolean().optional().describe("True when the context was compacted or summarised here."),
  })
  .describe("State of the agent's context window.");

export const ControlEvent = z
  .object({
    ...base,
    type: z.literal("control"),
    kind: z
      .enum([
        "interrupt",
        "approval",
        "rejection",
        "permission_mode",
        "rewind",
        "handoff",
        "timeout",
        "error",
        "hook",
      ])
      .describe("The control signal (`hook`: a harness hook ran, e.g. Claude Code's Stop hooks)."),
    detail: z.string().optional().describe("Free-text detail (mode name, reason, error message)."),
  })
  .describe("A control signal: interrupt, approval, rejection, mode change, rewind, hand-off, timeout.");

export const UsageEvent = z
  .object({
    ...base,
    type: z.literal("usage"),
    inputTokens: z.number().nonnegative().optional().describe("Input tokens."),
    outputTokens: z.number().nonnegative().optional().describe("Output tokens."),
    costUsd: z.number().nonnegative().optional().describe("Cost, USD."),
    model: z.string().optional().describe("Model that consumed the tokens."),
  })
  .describe("Token usage and cost.");

/** One standard trajectory event (discriminated on `type`). */
export const TrajectoryEvent = z
  .discriminatedUnion("type", [
    MessageEvent,
    ToolCallEvent,
    ToolResultEvent,
    CommandEvent,
    FileChangeEvent,
    ContextEvent,
    ControlEvent,
    UsageEvent,
  ])
  .describe("One standard trajectory event.");
export type TrajectoryEvent = z.infer<typeof TrajectoryEvent>;
export type MessageEvent = z.infer<typeof MessageEvent>;
export type ToolCallEvent = z.infer<typeof ToolCallEvent>;
export type ToolResultEvent = z.infer<typeof ToolResultEvent>;
export type CommandEvent = z.infer<typeof CommandEvent>;
export type FileChangeEvent = z.infer<typeof FileChangeEvent>;
export type ControlEvent = z.infer<typeof ControlEvent>;
export type UsageEvent = z.infer<typeof UsageEvent>;

/** Distributes `Omit` over the union so each member keeps its own fields. */
export type EventDraft = TrajectoryEvent extends infer E
  ? E extends TrajectoryEvent
    ? Omit<E, "id">
    : never
  : never;

/** A whole trajectory: one agent session. */
export const Trajectory = z
  .object({
    agent: z.string().describe("Agent (adapter spec) that produced it, e.g. `scripted:careful`."),
    sessionId: z.string().optional().describe("The agent's own session id, when it has one."),
    events: z.array(TrajectoryEvent).describe("Events in order."),
  })
  .describe("An agent session as standard events.");
export type Trajectory = z.infer<typeof Trajectory>;

/** Total usage over events (tokens, USD); absent fields count as 0. */
export function sumUsage(events: readonly TrajectoryEvent[]): {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
} {
  const total = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const e of events) {
    if (e.type !== "usage") continue;
    total.inputTokens += e.inputTokens ?? 0;
    total.outputTokens += e.outputTokens ?? 0;
    total.costUsd += e.costUsd ?? 0;
  }
  return total;
}
