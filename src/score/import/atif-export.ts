import { z } from "zod";
import type { TrajectoryEvent } from "../../core/trajectory.ts";
import type { ImportedTrajectory } from "./imported.ts";

/**
 * Standard trajectory → Harbor ATIF document (trajectory-formats.md §1.9), so any imported log can be read by
 * tools of the Harbor ecosystem. {@link AtifDocument} is the schema of what is written (a subset of ATIF-v1.4
 * plus the RFC's validator rules); `importAtif` (atif.ts) reads it back.
 */

const AtifToolCall = z
  .object({
    tool_call_id: z.string().min(1).describe("Id of the call, unique within the trajectory."),
    function_name: z.string().describe("Tool name as the agent named it."),
    arguments: z.record(z.string(), z.unknown()).describe("Tool arguments (an object)."),
  })
  .describe("A tool call the agent made in a step.");

const AtifResult = z
  .object({
    source_call_id: z
      .string()
      .min(1)
      .optional()
      .describe("`tool_call_id` of the call this answers (same step)."),
    content: z.string().optional().describe("Tool output as text."),
    extra: z
      .object({
        is_error: z
          .boolean()
          .optional()
          .describe("True when the tool reported an error (ATIF has no field)."),
        exit_code: z.number().int().nullable().optional().describe("Exit code of a shell call, when known."),
        control: z
          .object({ kind: z.string().describe("Control signal kind."), detail: z.string().optional() })
          .optional()
          .describe("A control signal raised by this result (e.g. the user rejected the call)."),
      })
      .optional()
      .describe("Gauntlet's additions: error flag, exit code, control signal."),
  })
  .describe("One result of a step's observation.");

const AtifMetrics = z
  .object({
    prompt_tokens: z
      .number()
      .nonnegative()
      .optional()
      .describe("Input tokens of the step's LLM call (cached included)."),
    completion_tokens: z.number().nonnegative().optional().describe("Output tokens of the step's LLM call."),
    cost_usd: z.number().nonnegative().optional().describe("Cost of the step, USD."),
  })
  .describe("Usage of one step.");

const AtifStep = z
  .object({
    step_id: z.number().int().positive().describe("1-based, sequential."),
    timestamp: z.iso.datetime().optional().describe("When the step started, ISO 8601."),
    source: z.enum(["system", "user", "agent"]).describe("Who produced the step."),
    message: z.string().describe("Text of the step (may be empty)."),
    model_name: z.string().optional().describe("Model of the step's LLM call (agent steps only)."),
    reasoning_content: z.string().optional().describe("Reasoning the agent showed (agent steps only)."),
    tool_calls: z.array(AtifToolCall).optional().describe("Tool calls (agent steps only)."),
    observation: z
      .object({ results: z.array(AtifResult).describe("Results, in order.") })
      .optional()
      .describe("What the environment returned (agent or system steps)."),
    metrics: AtifMetrics.optional().describe("Usage (agent steps only)."),
    extra: z
      .object({
        control: z
          .object({ kind: z.string().describe("Control signal kind."), detail: z.string().optional() })
          .optional()
          .describe("A control signal (interrupt, rejection, …) as a system step."),
        context_management: z
          .object({
            type: z.literal("compaction"),
            tokens_before: z.number().nonnegative().optional().describe("Context tokens before compaction."),
          })
          .optional()
          .describe("A context compaction as a system step."),
      })
      .optional()
      .describe("Gauntlet's additions for what ATIF has no field for."),
  })
  .describe("One ATIF step.");

/** Schema of the ATIF documents {@link exportAtif} writes, with the RFC validator's cross-field rules. */
export const AtifDocument = z
  .object({
    schema_version: z.literal("ATIF-v1.4").describe("ATIF version written."),
    session_id: z.string().min(1).describe("The trajectory's session id."),
    agent: z
      .object({
        name: z.string().min(1).describe("Agent that produced the trajectory."),
        version: z.string().min(1).describe("Agent version (`unknown` when the log names none)."),
        model_name: z.string().optional().describe("Main model."),
        extra: z
          .object({ models: z.array(z.string()).describe("Every model named in the log.") })
          .optional()
          .describe("Every model, when there were several."),
      })
      .describe("The agent."),
    steps: z.array(AtifStep).min(1).describe("Steps in order."),
    final_metrics: z
      .object({
        total_prompt_tokens: z.number().nonnegative().describe("Sum of input tokens."),
        total_completion_tokens: z.number().nonnegative().describe("Sum of output tokens."),
        total_cost_usd: z.number().nonnegative().describe("Sum of cost, USD."),
        total_steps: z.number().int().positive().describe("Number of steps."),
      })
      .describe("Totals over the trajectory."),
  })
  .superRefine((doc, ctx) => {
    const callIds = new Set<string>();
    doc.steps.forEach((s, i) => {
      const at = (field: string) => ["steps", i, field];
      if (s.step_id !== i + 1)
        ctx.addIssue({ code: "custom", path: at("step_id"), message: `step_id must be ${i + 1}` });
      if (s.source !== "agent")
        for (const field of ["model_name", "reasoning_content", "tool_calls", "metrics"] as const)
          if (s[field] !== undefined)
            ctx.addIssue({ code: "custom", path: at(field), message: `${field} is for agent steps only` });
      if (s.source === "user" && s.observation)
        ctx.addIssue({ code: "custom", path: at("observation"), message: "a user step has no observation" });
      const own = new Set((s.tool_calls ?? []).map((c) => c.tool_call_id));
      for (const id of own) {
        if (callIds.has(id))
          ctx.addIssue({
            code: "custom",
            path: at("tool_calls"),
            message: `tool_call_id ${id} is not unique`,
          });
        callIds.add(id);
      }
      for (const r of s.observation?.results ?? [])
        if (r.source_call_id && !own.has(r.source_call_id))
          ctx.addIssue({
            code: "custom",
            path: at("observation"),
            message: `source_call_id ${r.source_call_id} names no tool call of this step`,
          });
    });
    if (doc.final_metrics.total_steps !== doc.steps.length)
      ctx.addIssue({
        code: "custom",
        path: ["final_metrics", "total_steps"],
        message: "must equal steps.length",
      });
  })
  .describe("An ATIF trajectory as Gauntlet writes it (trajectory-formats.md §1.9).");
export type AtifDocument = z.infer<typeof AtifDocument>;
type AtifStep = z.infer<typeof AtifStep>;
type AtifResult = z.infer<typeof AtifResult>;

/**
 * Export an imported trajectory as an ATIF-v1.4 document (trajectory-formats.md §1.9): user / system messages
 * → user / system steps; assistant messages and tool calls → agent steps (one per LLM turn: reasoning or a
 * text opens a step, a text joins a step holding only reasoning, calls join it until its first result
 * arrives; reasoning → `reasoning_content`); tool results → `observation.results` of the step holding the
 * call (`source_call_id`; error flag and shell exit code in `extra`); usage → `metrics` of the latest agent
 * step (summed; usage before any agent step goes to the next one, or only to `final_metrics` if none
 * follows); compactions and control signals → system steps with `extra.context_management` / `extra.control`
 * (a signal raised by a tool call or its result, such as a rejection, → that result's `extra.control`); a
 * shell command with no tool call of its own → a `shell` tool call with its output. Not written (ATIF has no
 * field): `file_change` events, the per-step context size (already in `prompt_tokens`), and a command run by
 * a tool call (its exit code goes to that call's result `extra`; `importAtif` rebuilds the command from the
 * call). The result satisfies {@link AtifDocument}.
 * @returns a plain object, ready for `JSON.stringify`
 */
export function exportAtif(t: ImportedTrajectory): AtifDocument {
  const steps: AtifStep[] = [];
  const stepOfCall = new Map<string, AtifStep>();
  const resultOfEvent = new Map<string, AtifResult>();
  // A control raised on a call before its result (e.g. an approver's rejection) travels with that result.
  const controlOfCall = new Map<string, { kind: string; detail?: string }>();
  const answered = new Set(t.events.flatMap((e) => (e.type === "tool_result" ? (e.parent ?? []) : [])));
  const kinds = new Map(t.events.map((e) => [e.id, e.type]));
  // Exit code of the shell command each tool call (by event id) ran.
  const exitOfCall = new Map<string, number | null>();
  for (const e of t.events)
    if (e.type === "command")
      for (const p of e.parent ?? []) if (kinds.get(p) === "tool_call") exitOfCall.set(p, e.exitCode);
  const pendingUsage: Extract<TrajectoryEvent, { type: "usage" }>[] = [];
  let open: AtifStep | undefined; // the agent step calls still join
  let latestAgent: AtifStep | undefined;
  const totals = { prompt: 0, completion: 0, cost: 0 };

  const newStep = (source: AtifStep["source"], message: string, e: TrajectoryEvent): AtifStep => {
    const s: AtifStep = {
      step_id: steps.length + 1,
      ...(e.ts ? { timestamp: new Date(e.ts).toISOString() } : {}),
      source,
      message,
    };
    steps.push(s);
    open = undefined;
    if (source === "agent") {
      latestAgent = s;
      for (const u of pendingUsage.splice(0)) addUsage(s, u);
    }
    return s;
  };
  const addUsage = (s: AtifStep, u: Extract<TrajectoryEvent, { type: "usage" }>) => {
    s.metrics ??= {};
    const m = s.metrics;
    if (u.inputTokens !== undefined) m.prompt_tokens = (m.prompt_tokens ?? 0) + u.inputTokens;
    if (u.outputTokens !== undefined) m.completion_tokens = (m.completion_tokens ?? 0) + u.outputTokens;
    if (u.costUsd !== undefined) m.cost_usd = (m.cost_usd ?? 0) + u.costUsd;
    if (u.model) s.model_name ??= u.model;
  };
  const addResult = (s: AtifStep | undefined, r: AtifResult, e: TrajectoryEvent) => {
    const step = s ?? newStep("system", "", e);
    step.observation ??= { results: [] };
    step.observation.results.push(r);
    if (step === open && r.source_call_id) open = undefined;
  };

  for (const e of t.events) {
    if (e.type === "message") {
      const fresh = open && !open.message && !open.tool_calls && !open.observation ? open : undefined;
      if (e.role === "assistant" && e.reasoning) {
        if (fresh && !fresh.reasoning_content) fresh.reasoning_content = e.text;
        else {
          open = newStep("agent", "", e);
          open.reasoning_content = e.text;
        }
      } else if (e.role === "assistant") {
        if (fresh) fresh.message = e.text;
        else open = newStep("agent", e.text, e);
      } else if (e.role === "tool") addResult(open ?? latestAgent, { content: e.text }, e);
      else newStep(e.role, e.text, e);
    } else if (e.type === "tool_call") {
      const s = open ?? newStep("agent", "", e);
      open = s;
      const input =
        e.input && typeof e.input === "object" && !Array.isArray(e.input) ? e.input : { input: e.input };
      s.tool_calls ??= [];
      s.tool_calls.push({
        tool_call_id: e.callId,
        function_name: e.name,
        arguments: input as Record<string, unknown>,
      });
      stepOfCall.set(e.callId, s);
    } else if (e.type === "tool_result") {
      const s = stepOfCall.get(e.callId);
      const call = e.parent?.find((p) => exitOfCall.has(p));
      const exit = call ? { exit_code: exitOfCall.get(call)! } : {};
      const r: AtifResult = {
        ...(s ? { source_call_id: e.callId } : {}),
        content: e.output,
        ...(e.isError || "exit_code" in exit
          ? { extra: { ...(e.isError ? { is_error: true } : {}), ...exit } }
          : {}),
      };
      const pending = e.parent?.map((p) => controlOfCall.get(p)).find(Boolean);
      if (pending) r.extra = { ...r.extra, control: pending };
      addResult(s, r, e);
      resultOfEvent.set(e.id, r);
    } else if (e.type === "command") {
      if (e.parent?.some((p) => kinds.get(p) === "tool_call")) continue;
      const s = newStep("agent", "", e);
      const callId = `command-${e.id}`;
      s.tool_calls = [
        {
          tool_call_id: callId,
          function_name: "shell",
          arguments: { command: e.command, ...(e.cwd ? { cwd: e.cwd } : {}) },
        },
      ];
      const output = [e.stdout, e.stderr].filter(Boolean).join("\n");
      s.observation = {
        results: [
          {
            source_call_id: callId,
            content: output,
            extra: { exit_code: e.exitCode, ...(e.exitCode !== 0 ? { is_error: true } : {}) },
          },
        ],
      };
    } else if (e.type === "usage") {
      totals.prompt += e.inputTokens ?? 0;
      totals.completion += e.outputTokens ?? 0;
      totals.cost += e.costUsd ?? 0;
      if (latestAgent) addUsage(latestAgent, e);
      else pendingUsage.push(e);
    } else if (e.type === "context" && e.compaction) {
      const s = newStep("system", "", e);
      s.extra = {
        context_management: {
          type: "compaction",
          ...(e.tokens !== undefined ? { tokens_before: e.tokens } : {}),
        },
      };
    } else if (e.type === "control") {
      const control = { kind: e.kind, ...(e.detail ? { detail: e.detail } : {}) };
      const r = e.parent?.map((p) => resultOfEvent.get(p)).find((x) => x && !x.extra?.control);
      if (r) {
        r.extra = { ...r.extra, control };
        continue;
      }
      const call = e.parent?.find((p) => answered.has(p) && !controlOfCall.has(p));
      if (call) {
        controlOfCall.set(call, control);
        continue;
      }
      const s = newStep("system", e.detail ? `${e.kind}: ${e.detail}` : e.kind, e);
      s.extra = { control: { kind: e.kind, ...(e.detail ? { detail: e.detail } : {}) } };
    }
  }
  if (!steps.length) steps.push({ step_id: 1, source: "system", message: "" });
  return {
    schema_version: "ATIF-v1.4",
    session_id: t.id,
    agent: {
      name: t.agent,
      version: "unknown",
      ...(t.models[0] ? { model_name: t.models[0] } : {}),
      ...(t.models.length > 1 ? { extra: { models: t.models } } : {}),
    },
    steps,
    final_metrics: {
      total_prompt_tokens: totals.prompt,
      total_completion_tokens: totals.completion,
      total_cost_usd: totals.cost,
      total_steps: steps.length,
    },
  };
}
