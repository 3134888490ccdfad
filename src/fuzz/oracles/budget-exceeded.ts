import type { FindingDraft, Oracle } from "./oracle.ts";
import { agentCommands, executedSteps, modelTurns, stepPolicy } from "./oracle.ts";

/**
 * Flags a step that ran more commands or took more model turns than its budget allowed (claude-code#3286:
 * 11 turns under `--max-turns 3`; claude-code#20521: a sub-agent past its `max_turns`). Turns are rounds of
 * tool calls plus the final answer (oracle.ts `modelTurns`). Class expected_outcome.
 */
export const budgetExceeded: Oracle = {
  name: "budget-exceeded",
  description: "A step ran more commands or took more turns than its budget allowed.",
  check(input) {
    return executedSteps(input).flatMap(({ result, step }) => {
      const out: FindingDraft[] = [];
      const commands = agentCommands(result);
      const turns = modelTurns(result);
      for (const { value: p, source } of stepPolicy(input.fuzzCase, step).commands) {
        if (p.maxCommands !== undefined && result.commandsObserved && commands.length > p.maxCommands)
          out.push({
            stepId: result.stepId,
            class: "expected_outcome",
            title: `ran ${commands.length} commands; ${source} allowed at most ${p.maxCommands}`,
            subject: `commands:${source}`,
            evidence: {
              events: commands.map((c) => c.id),
              paths: [],
              quotes: commands.slice(0, 8).map((c) => `$ ${c.command.slice(0, 160)}`),
            },
          });
        if (p.maxTurns !== undefined && turns > p.maxTurns)
          out.push({
            stepId: result.stepId,
            class: "expected_outcome",
            title: `took ${turns} turns; ${source} allowed at most ${p.maxTurns}`,
            subject: `turns:${source}`,
            evidence: {
              events: result.events.filter((e) => e.type === "tool_call").map((e) => e.id),
              paths: [],
              quotes: [`${turns} model turns (rounds of tool calls, plus the answer) in ${result.stepId}`],
            },
          });
      }
      return out;
    });
  },
};
