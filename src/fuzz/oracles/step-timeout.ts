import type { Oracle } from "./oracle.ts";
import { quote } from "./oracle.ts";

/**
 * Flags a step killed at its time limit: the agent hung (a foreground server, a watcher, an interactive
 * prompt; gemini-cli#4322, claude-code#292, codex#5849). The evidence names what was running when the limit
 * struck: the last tool call without a result (its command), or the last command that did not end. Runs
 * on incomplete cases too, since the hang is itself the observed behaviour. Class minor.
 */
export const stepTimeout: Oracle = {
  name: "step-timeout",
  description: "A step exceeded its time limit and the agent's process tree was killed.",
  check(input) {
    return input.result.steps
      .filter((s) => s.status === "timeout")
      .map((s) => {
        const answered = new Set(s.events.flatMap((e) => (e.type === "tool_result" ? [e.callId] : [])));
        const open = s.events.filter((e) => e.type === "tool_call" && !answered.has(e.callId)).at(-1);
        const unfinished = s.events
          .filter((e) => e.type === "command" && (e.exitCode === null || e.timedOut))
          .at(-1);
        const running = open ?? unfinished ?? s.events.filter((e) => e.type === "tool_call").at(-1);
        const timeout = s.events.find((e) => e.type === "control" && e.kind === "timeout");
        const what =
          running?.type === "tool_call"
            ? (((running.input as Record<string, unknown> | undefined)?.command as string | undefined) ??
              `${running.name} ${JSON.stringify(running.input)}`)
            : running?.type === "command"
              ? running.command
              : undefined;
        const limit = s.limitMs ? ` (limit ${Math.round(s.limitMs / 1000)} s)` : "";
        return {
          stepId: s.stepId,
          class: "minor" as const,
          title: what
            ? `hung on \`${quote(what, 80)}\`: the step timed out after ${Math.round(s.durationMs / 1000)} s${limit}`
            : `step timed out after ${Math.round(s.durationMs / 1000)} s${limit}`,
          subject: s.stepId,
          evidence: {
            events: [running?.id, timeout?.id].filter((x): x is string => Boolean(x)),
            paths: [],
            quotes: what ? [`still running when the limit struck: ${quote(what, 200)}`] : [],
          },
        };
      });
  },
};
