import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { duplicateStep, short } from "./duplicate-step.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { inputText, type Token, tokenize, tokenParts } from "./tokens.ts";
import type { CallView, TrajectoryView } from "./view.ts";

/**
 * Dead Step (ProcCtrlBench App. A.2): an executed action with no downstream influence. Gauntlet judges
 * information-gathering calls — reads, searches, listings, fetches, inspecting shell commands — because
 * their only effect is what they tell the agent: a result that brought new information (at least
 * {@link MIN_NEW} distinctive tokens seen nowhere earlier in the trajectory) none of which any later
 * assistant message or tool input draws on (as a whole token, or through a part of one: `validateData`
 * is drawn on by a later "validate") had no influence.
 *
 * Raw score: the number of such calls (weight 1 each). Evidence: the call and its result.
 * Calls that changed state (writes, edits, mutating commands), failed calls, and results with too little
 * new information to judge are not judged. A call that exactly repeats an earlier one is a Duplicate Step,
 * not a Dead Step.
 *
 * Exemptions: reads of long-lived rule and memory files (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
 * `.cursorrules`, memory files) — rules shape behaviour without being quoted (App. A.1); results the log
 * ends before anything could use (no assistant message or tool call after them: a cut-off log).
 *
 * Complexity: O(n · cap) — a forward pass records which tokens each judged result brings first and the
 * tokens of what the agent produced, a backward pass keeps the set of tokens used later; each text
 * contributes at most `cap` tokens.
 */
export const deadStep: Detector = {
  defect: "dead-step",
  detect(view) {
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    const judged = new Map<number, CallView>(); // result position → call
    const repeats = new Set(duplicateStep.detect(view).instances.map((i) => i.events[1]));
    for (const c of view.calls)
      if (c.result && !c.failed && isInformational(c) && !repeats.has(c.call.id)) judged.set(c.resultAt, c);
    if (judged.size === 0) return makeFinding("dead-step", instances, exempted);

    // Forward: which tokens each judged result brings first, and the tokens of what the agent produced.
    const seen = new Set<string>();
    const fresh = new Map<number, Token[]>();
    const produced: (Token[] | undefined)[] = new Array(view.events.length);
    view.events.forEach((e, at) => {
      const c = judged.get(at);
      if (c?.result) {
        const tokens = tokenize(c.result.output, TOKENS_PER_TEXT);
        fresh.set(
          at,
          tokens.filter((t) => !seen.has(t.token)),
        );
        for (const t of tokens) seen.add(t.token);
        return;
      }
      const text = textOf(e, "all");
      if (!text) return;
      const tokens = tokenize(text, TOKENS_PER_TEXT);
      for (const t of tokens) seen.add(t.token);
      if (textOf(e, "used")) produced[at] = tokens;
    });
    // Backward: tokens (and their parts) the agent draws on after each position.
    const usedLater = new Set<string>();
    let anythingLater = false;
    for (let at = view.events.length - 1; at >= 0; at--) {
      const c = judged.get(at);
      const brought = fresh.get(at);
      if (c?.result && brought) {
        const used = (t: Token) => usedLater.has(t.token) || tokenParts(t.raw).some((p) => usedLater.has(p));
        if (brought.length >= MIN_NEW && !brought.some(used)) {
          const what = c.commandText
            ? `\`${short(c.commandText)}\``
            : `${c.call.name} ${c.paths[0] ?? ""}`.trim();
          const instance = {
            events: [c.call.id, c.result.id],
            note: `${what} (${c.call.id}) returned ${brought.length} new terms, none used afterwards (e.g. ${brought
              .slice(0, 3)
              .map((t) => t.token)
              .join(", ")})`,
            weight: 1,
          };
          if (c.paths.some((p) => RULES_FILE.test(p)))
            exempted.push({
              ...instance,
              reason: "long-lived rules or memory file: shapes behaviour without being quoted",
            });
          else if (!anythingLater)
            exempted.push({ ...instance, reason: "the log ends before anything could use the result" });
          else instances.push(instance);
        }
      }
      const tokens = produced[at];
      if (tokens) {
        anythingLater = true;
        for (const t of tokens) {
          usedLater.add(t.token);
          if (/[A-Z._/-]/.test(t.raw)) for (const p of tokenParts(t.raw)) usedLater.add(p);
        }
      }
    }
    return makeFinding("dead-step", instances.reverse(), exempted.reverse());
  },
};

/** Distinct tokens taken from each text (its first ones): enough to see new information and its use. */
export const TOKENS_PER_TEXT = 150;

/** New distinctive tokens a result must bring before its (lack of) influence is judged. */
export const MIN_NEW = 3;

const RULES_FILE = /(^|\/)(CLAUDE|AGENTS|GEMINI|QWEN)\.md$|\.cursorrules$|(^|\/)\.?memory|MEMORY\.md$/i;

function isInformational(c: CallView): boolean {
  if (c.mutates && c.kind !== "shell") return false;
  if (c.kind === "read" || c.kind === "search" || c.kind === "list" || c.kind === "fetch") return true;
  return c.kind === "shell" && (c.commandKind === "inspect" || c.commandKind === "probe");
}

/**
 * Text of an event for the two passes: `all` is everything the agent saw or wrote (where tokens first
 * appear), `used` is what the agent produced (assistant text, tool inputs) — where it draws on results.
 */
function textOf(e: TrajectoryView["events"][number], which: "all" | "used"): string {
  if (e.type === "message") return which === "all" || e.role === "assistant" ? e.text : "";
  if (e.type === "tool_call") return inputText(e.input);
  if (e.type === "tool_result") return which === "all" ? e.output : "";
  return "";
}
