import type { Oracle } from "./oracle.ts";

/**
 * Flags a step killed at its time limit: the agent hung (a foreground server, a watcher, an interactive
 * prompt; gemini-cli#4322, claude-code#292). Runs on incomplete cases too, since the hang is itself the
 * observed behaviour. Class minor.
 */
export const stepTimeout: Oracle = {
  name: "step-timeout",
  description: "A step exceeded its time limit and the agent's process tree was killed.",
  check(input) {
    return input.result.steps
      .filter((s) => s.status === "timeout")
      .map((s) => {
        const running = s.events.filter((e) => e.type === "tool_call").at(-1);
        const timeout = s.events.find((e) => e.type === "control" && e.kind === "timeout");
        return {
          stepId: s.stepId,
          class: "minor" as const,
          title: `step timed out after ${Math.round(s.durationMs / 1000)} s`,
          subject: s.stepId,
          evidence: {
            events: [running?.id, timeout?.id].filter((x): x is string => Boolean(x)),
            paths: [],
            quotes:
              running && running.type === "tool_call"
                ? [`last tool call: ${running.name} ${JSON.stringify(running.input).slice(0, 160)}`]
                : [],
          },
        };
      });
  },
};
