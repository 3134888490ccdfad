import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { laterUse, sampleTerms } from "./later-use.ts";
import { scanTerms } from "./terms.ts";
import { estimateTokens, type TrajectoryView } from "./view.ts";

/**
 * Oversized Rules (ProcCtrlBench App. A.1): persistent static prompt burden — rule text carried in
 * context that the run never draws on (as opposed to Ghost Context, dynamically retained material).
 *
 * Rule text, by source:
 * - system messages (not compaction summaries);
 * - `<system-reminder>` blocks in user messages, and in tool outputs when the same block comes back at
 *   least twice (harness re-injection; a one-off reminder in a result is dynamic feedback);
 * - user messages that are injected instructions: `# AGENTS.md instructions`, `<INSTRUCTIONS>`,
 *   `<user_instructions>`, `Contents of …/CLAUDE.md`, `# Instructions` / `# Rules` preambles — minus the
 *   task statement such templates wrap (`<pr_description>`, `<issue>`, `<task>`, …);
 * - any other user or system message text of at least {@link MIN_REPEATED_CHARS} characters repeated
 *   identically (static re-injection).
 * Each block is split into sections at Markdown headings and tag-only lines (a section holds at least
 * {@link MIN_SECTION_CHARS} characters), and identical sections are grouped. A group is drawn on when at
 * least {@link DRAWN_ON} of a sample of its distinctive tokens (up to 50; at least one) appears in an
 * assistant message or tool input after its first occurrence.
 *
 * Raw score: thousand estimated tokens of rule text never drawn on — a group weighs its section's tokens
 * times its occurrences / 1000 (every re-injection is carried again). Evidence: the events carrying the
 * section, in order.
 *
 * Exemption (App. A.1 "necessary long-lived rules"), kept in `exempted`: a section the run demonstrably
 * uses — its evidence adds the first event drawing on it; and rule text the log ends before anything
 * could draw on (no assistant message or tool call after it: a cut-off log). Sections with too few
 * distinctive tokens to judge (fewer than 3) are left out.
 *
 * Complexity: O(n + total text) — one forward pass to collect sections, one backward pass for use.
 */
export const oversizedRules: Detector = {
  defect: "oversized-rules",
  detect(view) {
    const groups = new Map<string, Group>();
    for (const block of ruleBlocks(view))
      for (const text of sections(block.text)) {
        const key = text.replace(/\s+/g, " ").trim();
        const group = groups.get(key);
        if (group) group.events.push(block.id);
        else groups.set(key, { at: block.at, events: [block.id], text, source: block.source });
      }
    const judged = [...groups.values()]
      .filter((g) => g.source !== TOOL_REMINDER || g.events.length >= 2)
      .map((g) => ({ ...g, tokens: sampleTerms(scanTerms(g.text).terms) }))
      .filter((g) => g.tokens.length >= MIN_SAMPLE);
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    laterUse(view, judged, false).forEach((use, i) => {
      const g = judged[i] as (typeof judged)[number];
      const tokens = estimateTokens(g.text);
      const times = g.events.length > 1 ? ` ×${g.events.length}` : "";
      const lines = g.text.split("\n").map((l) => l.trim());
      const head = (lines.find((l) => l && !/^<\/[\w-]+>$/.test(l)) ?? lines[0] ?? "").slice(0, 60);
      const instance = {
        events: g.events,
        note: `${g.source} "${head}" (${tokens} tokens${times}): ${use.hits} of ${use.of} sampled terms drawn on later`,
        weight: (tokens * g.events.length) / 1000,
      };
      if (use.firstUse && use.hits >= Math.max(1, Math.ceil(DRAWN_ON * use.of)))
        exempted.push({
          ...instance,
          events: [...g.events, use.firstUse],
          reason: `necessary long-lived rule: drawn on later, first by ${use.firstUse} (App. A.1)`,
        });
      else if (!use.later)
        exempted.push({ ...instance, reason: "the log ends before anything could draw on it" });
      else instances.push(instance);
    });
    return makeFinding("oversized-rules", instances, exempted);
  },
};

/** Share of a section's sampled terms that must reappear later for it to count as drawn on. */
export const DRAWN_ON = 0.1;

/** Length from which identical user/system message text counts as static re-injection. */
export const MIN_REPEATED_CHARS = 200;

/** Sections are cut at headings only once they hold this many characters. */
const MIN_SECTION_CHARS = 200;

/** Sampled terms a section needs before its use is judged. */
const MIN_SAMPLE = 3;

interface Group {
  at: number;
  events: string[];
  text: string;
  source: string;
}

const REMINDER = /<system-reminder>([\s\S]*?)<\/system-reminder>/g;
const INJECTED =
  /^\s*#\s*(AGENTS|CLAUDE|GEMINI|QWEN)\.md\b|<INSTRUCTIONS>|<(user|project|global)_instructions>|Contents of \S*(CLAUDE|AGENTS|GEMINI)\.md|^\s*#{1,3}\s*(instructions|rules|guidelines|system prompt)\s*$/im;
const SUMMARY =
  /continued from a previous conversation|summary of (the|our) (previous |earlier )?conversation|context summari[sz]ation/i;
/** The task statement inside an instruction template: what to do, not a rule. */
const TASK = /<(pr_description|issue|issue_description|problem_statement|task)>[\s\S]*?<\/\1>/g;
/** Source label of reminders found in tool outputs: rules only when re-injected (two or more copies). */
const TOOL_REMINDER = "reminder in tool output";

/** Rule blocks in event order, with where they sit. */
function ruleBlocks(view: TrajectoryView): { at: number; id: string; text: string; source: string }[] {
  const out: { at: number; id: string; text: string; source: string }[] = [];
  const seen = new Map<string, { at: number; id: string; text: string }[]>(); // repeated message text
  let afterCompaction = false;
  view.events.forEach((e, at) => {
    if (e.type === "context") {
      afterCompaction = e.compaction === true;
      return;
    }
    if (e.type === "usage") return;
    const wasAfterCompaction = afterCompaction;
    afterCompaction = false;
    if (e.type === "tool_result")
      for (const m of e.output.matchAll(REMINDER))
        out.push({ at, id: e.id, text: m[1] ?? "", source: TOOL_REMINDER });
    if (e.type !== "message" || e.role === "assistant" || e.role === "tool") return;
    if (e.role === "system") {
      if (wasAfterCompaction || SUMMARY.test(e.text)) return;
      out.push({ at, id: e.id, text: e.text, source: "system prompt" });
      return;
    }
    for (const m of e.text.matchAll(REMINDER))
      out.push({ at, id: e.id, text: m[1] ?? "", source: "reminder" });
    const rest = e.text.replace(REMINDER, "").trim();
    if (INJECTED.test(rest))
      out.push({ at, id: e.id, text: rest.replace(TASK, "").trim(), source: "injected instructions" });
    else if (rest.length >= MIN_REPEATED_CHARS) {
      const key = rest.replace(/\s+/g, " ");
      const copies = seen.get(key);
      if (copies) copies.push({ at, id: e.id, text: rest });
      else seen.set(key, [{ at, id: e.id, text: rest }]);
    }
  });
  for (const copies of seen.values())
    if (copies.length >= 2) for (const c of copies) out.push({ ...c, source: "re-injected message" });
  return out.sort((a, b) => a.at - b.at);
}

/**
 * A rule block cut into sections of at least MIN_SECTION_CHARS: a Markdown heading or an opening tag
 * line starts a new section, a closing tag line ends one.
 */
function sections(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  const cut = () => {
    if (size < MIN_SECTION_CHARS) return;
    out.push(current.join("\n"));
    current = [];
    size = 0;
  };
  for (const line of text.split("\n")) {
    if (/^\s*(#{1,6}\s|<[A-Za-z_][\w-]*>\s*$)/.test(line)) cut();
    current.push(line);
    size += line.length + 1;
    if (/^\s*<\/[A-Za-z_][\w-]*>\s*$/.test(line)) cut();
  }
  if (current.length) {
    const last = current.join("\n");
    if (size < MIN_SECTION_CHARS && out.length) out[out.length - 1] += `\n${last}`;
    else out.push(last);
  }
  return out.filter((s) => s.trim());
}
