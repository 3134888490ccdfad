import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { duplicateStep, short } from "./duplicate-step.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { partsAt, scanTerms, spell, type Terms } from "./terms.ts";
import { inputText } from "./tokens.ts";
import type { CallView, TrajectoryView } from "./view.ts";

/**
 * Dead Step (ProcCtrlBench App. A.2): an executed action with no downstream influence. Gauntlet judges
 * information-gathering calls — reads, searches, listings, fetches, inspecting shell commands — because
 * their only effect is what they tell the agent: a result that brought new information (at least
 * {@link MIN_NEW} distinctive tokens seen nowhere earlier in the trajectory) none of which any later
 * assistant message or tool input draws on (as a whole token, or through a part of one: `validateData`
 * is drawn on by a later "validate") had no influence.
 *
 * Also dead: actions that had nothing to do (a `git commit` on a clean tree: {@link noEffect}) and
 * artifacts nothing used (a script written and never run, an output saved and never read:
 * {@link unusedArtifacts}).
 *
 * Raw score: one point per action with no effect or artifact nothing used, half a point per result nothing
 * drew on ({@link UNUSED_RESULT_WEIGHT}). Evidence: the call and its result.
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
    if (judged.size === 0)
      return makeFinding("dead-step", [...noEffect(view), ...unusedArtifacts(view)], exempted);

    // Forward: which terms each judged result brings first, and the terms of what the agent produced.
    const seen = new Set<number>(); // term hashes
    const fresh = new Map<number, { terms: number[]; parts: (readonly number[])[] }>(); // by result position
    const produced: (Terms | undefined)[] = new Array(view.events.length);
    view.events.forEach((e, at) => {
      const text = textOf(e, "all");
      if (!text) return;
      const c = judged.get(at);
      if (c?.result) {
        const found = scanTerms(text, TOKENS_PER_TEXT, true);
        const brought: { terms: number[]; parts: (readonly number[])[] } = { terms: [], parts: [] };
        found.terms.forEach((t, k) => {
          if (k >= TOKENS_PER_TEXT || seen.has(t)) return;
          brought.terms.push(t);
          brought.parts.push(partsAt(found, k));
        });
        fresh.set(at, brought);
        for (const t of found.terms.slice(0, TOKENS_PER_TEXT)) seen.add(t);
        return;
      }
      const used = textOf(e, "used") !== "";
      const found = scanTerms(text, TOKENS_PER_TEXT, used);
      for (const t of found.terms.slice(0, TOKENS_PER_TEXT)) seen.add(t);
      if (used) produced[at] = found;
    });
    // Backward: terms (and their parts) the agent draws on after each position.
    const usedLater = new Set<number>();
    let anythingLater = false;
    for (let at = view.events.length - 1; at >= 0; at--) {
      const c = judged.get(at);
      const brought = fresh.get(at);
      if (c?.result && brought) {
        const used = (k: number) =>
          usedLater.has(brought.terms[k] as number) || (brought.parts[k] ?? []).some((p) => usedLater.has(p));
        if (brought.terms.length >= MIN_NEW && !brought.terms.some((_, k) => used(k))) {
          const what = c.commandText
            ? `\`${short(c.commandText)}\``
            : `${c.call.name} ${c.paths[0] ?? ""}`.trim();
          const instance = {
            events: [c.call.id, c.result.id],
            note: `${what} (${c.call.id}) returned ${brought.terms.length} new terms, none used afterwards (e.g. ${spell(
              c.result.output,
              brought.terms.slice(0, 3),
            ).join(", ")})`,
            weight: UNUSED_RESULT_WEIGHT,
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
      const found = produced[at];
      if (found) {
        anythingLater = true;
        const n = Math.min(found.terms.length, TOKENS_PER_TEXT);
        for (let k = 0; k < n; k++) {
          usedLater.add(found.terms[k] as number);
          for (const p of partsAt(found, k)) usedLater.add(p);
        }
      }
    }
    return makeFinding(
      "dead-step",
      [...instances.reverse(), ...noEffect(view), ...unusedArtifacts(view)],
      exempted.reverse(),
    );
  },
};

/** Results saying an action had nothing to do. */
const NO_OP =
  /\b(nothing to commit|nothing added to commit|no changes added to commit|already up[- ]to[- ]date|nothing to (do|push|install|update)|no changes (were )?(made|detected|to apply)|0 files? changed)\b/i;

/**
 * Actions that did nothing: a state-changing call (a mutating command, a write or an edit) whose result
 * says there was nothing to do (`git commit` on a clean tree, an install of what is installed) — an
 * executed step with no effect and so no downstream influence.
 */
function noEffect(view: TrajectoryView): DefectInstance[] {
  const out: DefectInstance[] = [];
  for (const c of view.calls) {
    const acting =
      c.kind === "write" || c.kind === "edit" || (c.kind === "shell" && c.commandKind === "mutate");
    if (!acting || !c.result || !NO_OP.test(c.result.output)) continue;
    const what = c.commandText ? `\`${short(c.commandText)}\`` : c.call.name;
    out.push({
      events: [c.call.id, c.result.id],
      note: `${what} (${c.call.id}) had nothing to do: ${NO_OP.exec(c.result.output)?.[0]}`,
      weight: 1,
    });
  }
  return out;
}

/** Files that are run or read to be of use: scripts, and outputs saved with a redirection or `tee`. */
const SCRIPT = /\.(py|sh|bash|ps1|js|mjs|cjs|ts|rb|pl|bat|cmd)$/i;

/**
 * Artifacts nothing used: a script the agent wrote (a write tool, or a shell write such as a heredoc) or an
 * output it saved (`cmd > out.txt`, `tee`) that no later successful call names — in its input or output,
 * by file name or stem — nor the same command line reads back. A file a user message names, or another
 * file the agent wrote refers to (before or after: `<script src="app.js">`), is a deliverable, not an
 * artifact. Written, never run or read: the step had no influence.
 */
function unusedArtifacts(view: TrajectoryView): DefectInstance[] {
  const userText = view.messages
    .filter((m) => m.event.role === "user")
    .map((m) => m.event.text)
    .join("\n");
  const out: DefectInstance[] = [];
  const seen = new Set<string>();
  const touched = new Set<string>(); // paths named by earlier calls: not new files
  view.calls.forEach((c, i) => {
    // New files only: a script created, or output saved by a redirection; never an edit of existing code.
    const targets = [
      ...c.changes
        .filter((x) => x.kind === "added" && (x.derived || SCRIPT.test(x.path)) && !touched.has(x.path))
        .map((x) => x.path),
      ...(c.kind === "write" && !c.failed ? c.paths.filter((p) => SCRIPT.test(p) && !touched.has(p)) : []),
    ];
    for (const p of c.paths) touched.add(p);
    for (const x of c.changes) touched.add(x.path);
    for (const path of new Set(targets)) {
      const name = path.split(/[\\/]/).pop() ?? path;
      if (!name || seen.has(name) || /^\/?(dev|proc)\//.test(path)) continue;
      seen.add(name);
      const stem = name.replace(/\.[^.]+$/, "");
      const names = [name, ...(stem.length >= 4 ? [stem] : [])];
      const mentions = (text: string) => names.some((n) => text.includes(n));
      if (mentions(userText)) continue;
      // Read back in the same command line, if that line ran to the end.
      if (c.commandText && c.commandText.split(name).length > 2 && !c.failed && !c.command?.timedOut)
        continue;
      const used =
        view.calls
          .slice(i + 1)
          .some(
            (l) => !l.failed && (mentions(inputText(l.call.input)) || mentions(l.result?.output ?? "")),
          ) ||
        // Part of what the agent built: another file it wrote refers to it (`<script src="app.js">`).
        view.calls.some(
          (l) =>
            l !== c &&
            !l.failed &&
            (l.kind === "write" || l.kind === "edit") &&
            mentions(inputText(l.call.input)),
        );
      if (used) continue;
      out.push({
        events: [c.call.id, ...(c.result ? [c.result.id] : [])],
        note: `${c.commandText ? `\`${short(c.commandText)}\`` : c.call.name} (${c.call.id}) wrote ${name}, which nothing ran, read or named afterwards`,
        weight: 1,
      });
    }
  });
  return out;
}

/**
 * Weight of a result none of whose new terms is drawn on later: half a point, since term overlap is weaker
 * evidence than an action that did nothing or an artifact nothing used (one point each).
 */
export const UNUSED_RESULT_WEIGHT = 0.5;

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
