import { sha256 } from "../../core/ids.ts";
import type { FindingDraft, Oracle } from "./oracle.ts";
import { executedSteps, quote, SHELL_TOOLS, stepPolicy } from "./oracle.ts";

/** Identical repeats of one command (or tool call) with identical output flagged without a declared limit. */
export const DEFAULT_MAX_REPEATS = 3;

/**
 * Flags a retry loop: the same command (or the same tool call) run again and again with identical output,
 * so nothing changed between tries (claude-code#7538, gemini-cli#2137, codex#6190, OpenHands#7960). Under a
 * declared `maxRepeats` ("run it once") every rerun of the same command line counts, and more than the limit
 * is expected_outcome; without one, more than {@link DEFAULT_MAX_REPEATS} runs with identical output are
 * minor. The same block of text repeated in the agent's messages more than that is minor too
 * (gemini-cli#16472: one block over and over while promising to stop). Counted over the step's trajectory.
 */
export const repetitionLoop: Oracle = {
  name: "repetition-loop",
  description: "The same command or tool call was repeated with identical output (a loop without progress).",
  check(input) {
    return executedSteps(input).flatMap(({ result, step }) => {
      const declared = stepPolicy(input.fuzzCase, step).commands.find(
        (p) => p.value.maxRepeats !== undefined,
      );
      const limit = declared?.value.maxRepeats ?? DEFAULT_MAX_REPEATS;
      const groups = new Map<string, { label: string; ids: string[] }>();
      const resultOf = new Map(
        result.events.flatMap((e) => (e.type === "tool_result" ? [[e.callId, e] as const] : [])),
      );
      for (const e of result.events) {
        let key: string | undefined;
        let label = "";
        if (e.type === "command") {
          // Under a declared limit ("run it once") any rerun counts; otherwise only reruns that changed nothing.
          key = declared
            ? `cmd\0${e.command}`
            : `cmd\0${e.command}\0${e.exitCode}\0${sha256(`${e.stdout ?? ""}\0${e.stderr ?? ""}`)}`;
          label = `$ ${e.command}`;
        } else if (e.type === "tool_call" && !SHELL_TOOLS.test(e.name)) {
          const r = resultOf.get(e.callId);
          key = `tool\0${e.name}\0${JSON.stringify(e.input)}\0${sha256(r?.output ?? "")}`;
          label = `${e.name} ${JSON.stringify(e.input)}`;
        }
        if (!key) continue;
        const g = groups.get(key) ?? { label, ids: [] };
        g.ids.push(e.id);
        groups.set(key, g);
      }
      const out: FindingDraft[] = [];
      for (const g of groups.values())
        if (g.ids.length > limit)
          out.push({
            stepId: result.stepId,
            class: declared ? "expected_outcome" : "minor",
            title: `repeated the same ${g.label.startsWith("$") ? "command" : "tool call"} ${g.ids.length} times${declared ? ` (${declared.source} allowed ${limit})` : " with identical output"}`,
            subject: sha256(g.label).slice(0, 12),
            evidence: {
              events: g.ids,
              paths: [],
              quotes: [
                quote(g.label, 200),
                declared
                  ? `${declared.source} allows at most ${limit} identical runs`
                  : `more than ${limit} identical runs`,
              ],
            },
          });
      // The agent repeating itself: one block of text (a paragraph of its messages) over and over.
      const blocks = new Map<string, { ids: Set<string>; count: number }>();
      for (const e of result.events) {
        if (e.type !== "message" || e.role !== "assistant" || e.reasoning) continue;
        for (const block of e.text.split(/\n\s*\n|\n/)) {
          const text = block.replace(/\s+/g, " ").trim();
          if (text.length < 30) continue;
          const b = blocks.get(text) ?? { ids: new Set<string>(), count: 0 };
          b.count++;
          b.ids.add(e.id);
          blocks.set(text, b);
        }
      }
      for (const [text, b] of blocks)
        if (b.count > DEFAULT_MAX_REPEATS)
          out.push({
            stepId: result.stepId,
            class: "minor",
            title: `repeated the same text ${b.count} times`,
            subject: `text:${sha256(text).slice(0, 12)}`,
            evidence: { events: [...b.ids], paths: [], quotes: [quote(text, 200)] },
          });
      return out;
    });
  },
};
