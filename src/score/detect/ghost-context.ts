import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { laterUse, type Probe, sampleTerms } from "./later-use.ts";
import { FileMap, readsOf, writesOf } from "./paths.ts";
import { eventTerms } from "./terms.ts";
import { type CallView, outputTokens } from "./view.ts";

/**
 * Ghost Context (ProcCtrlBench App. A.1): redundant or outdated material retained in context despite low
 * downstream use. Two kinds of instance:
 *
 * - unused large output: a tool result of at least {@link LARGE_OUTPUT_TOKENS} estimated tokens of which
 *   fewer than {@link LOW_USE} of a sample of its distinctive tokens (up to 50, spread over the output,
 *   minus those the call's own input already held) appear in any later assistant message or tool input
 *   while the output is retained;
 * - stale read: a file read, then changed (by a write/edit tool, a recorded file change or a shell
 *   write), then read again — the first copy is outdated yet still in context.
 *
 * Retention ends at a compaction (context event with `compaction`): uses after it do not count, and a
 * read, edit and re-read only make a stale copy when no compaction comes between them.
 *
 * Raw score: thousand estimated tokens (4 characters each) of such outputs — each instance weighs its
 * output's tokens / 1000. Evidence: the call and its result (unused output); the first read, its result,
 * the change and the re-read (stale read). A result counts once, as a stale read if it is one.
 *
 * Exemptions (App. A.1 "necessary long-lived rules, summaries and persistent memory"), kept in
 * `exempted`: reads of rule and memory files (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`, `README*`,
 * `.cursorrules`, memory files); outputs of plan/todo tools; sub-agent reports (summaries); outputs the
 * log ends, or a compaction drops, before the agent produced anything (nothing could have used them).
 * Compaction summaries are messages, never judged.
 *
 * Complexity: O(n + total text) — a forward pass for stale reads (a file map indexed by path suffix), one
 * backward pass ({@link laterUse}) for use.
 */
export const ghostContext: Detector = {
  defect: "ghost-context",
  detect(view) {
    const instances: DefectInstance[] = [];
    const exempted: ExemptedInstance[] = [];
    const add = (c: CallView, instance: DefectInstance) => {
      const reason = exemption(c);
      if (reason) exempted.push({ ...instance, reason });
      else instances.push(instance);
    };

    // Stale reads: one forward pass over events, counting compactions as they pass.
    const compactions = view.events.flatMap((e, at) => (e.type === "context" && e.compaction ? [at] : []));
    const callAt = new Map(view.calls.map((c) => [c.at, c]));
    const joined = new Set(view.calls.flatMap((c) => c.changes.map((ch) => ch.id)));
    const stale = new Set<CallView>();
    const lastRead = new FileMap<{
      read: CallView;
      epoch: number;
      changedBy?: { id: string; what: string };
    }>();
    let epoch = 0;
    const changed = (path: string, by: { id: string; what: string }, c?: CallView) => {
      const prev = lastRead.get(path);
      if (prev && !prev.changedBy && prev.read !== c) prev.changedBy = by;
    };
    view.events.forEach((e, at) => {
      if (e.type === "context" && e.compaction) epoch++;
      if (e.type === "file_change" && !joined.has(e.id))
        changed(e.path, { id: e.id, what: `a file change (${e.id})` });
      const c = e.type === "tool_call" ? callAt.get(at) : undefined;
      if (!c || c.failed) return;
      for (const path of c.result ? readsOf(c) : []) {
        const prev = lastRead.get(path);
        if (prev?.changedBy && prev.epoch === epoch && prev.read.result && !stale.has(prev.read)) {
          stale.add(prev.read);
          const tokens = outputTokens(prev.read.result);
          add(prev.read, {
            events: [prev.read.call.id, prev.read.result.id, prev.changedBy.id, c.call.id],
            note: `${describe(prev.read)} (${prev.read.call.id}, ${tokens} tokens) went stale when ${prev.changedBy.what} changed the file; ${c.call.id} read it again`,
            weight: tokens / 1000,
          });
        }
        lastRead.set(path, { read: c, epoch });
      }
      for (const path of writesOf(c))
        changed(path, { id: c.call.id, what: `${describe(c)} (${c.call.id})` }, c);
    });

    // Unused large outputs: sample each, then one backward pass for later use.
    const large = view.calls.filter(
      (c) => c.result && !stale.has(c) && outputTokens(c.result) >= LARGE_OUTPUT_TOKENS,
    );
    const probes: Probe[] = large.map((c) => {
      const input = new Set(eventTerms(c.call).terms.slice(0, 1000));
      return { at: c.resultAt, tokens: c.result ? sampleTerms(eventTerms(c.result).terms, input) : [] };
    });
    laterUse(view, probes, true).forEach((use, i) => {
      const c = large[i] as CallView;
      if (!c.result || use.of < MIN_SAMPLE || use.hits / use.of >= LOW_USE) return;
      const tokens = outputTokens(c.result);
      const instance = {
        events: [c.call.id, c.result.id],
        note: `${describe(c)} (${c.call.id}) put ${tokens} tokens in context; ${use.hits} of ${use.of} sampled terms were used while it was retained`,
        weight: tokens / 1000,
      };
      if (!use.later && !exemption(c))
        exempted.push({
          ...instance,
          reason:
            (compactions.at(-1) ?? -1) > c.resultAt
              ? "compacted away before anything could use the output"
              : "the log ends before anything could use the output",
        });
      else add(c, instance);
    });
    return makeFinding("ghost-context", instances, exempted);
  },
};

/** Estimated tokens from which a tool output is large enough to judge as possible ghost context. */
export const LARGE_OUTPUT_TOKENS = 1000;

/** Share of an output's sampled terms used later below which the output counts as unused. */
export const LOW_USE = 0.1;

/** Sampled terms an output needs before its use is judged. */
const MIN_SAMPLE = 5;

/** Long-lived rule and memory files (App. A.1 exemption). */
export const RULES_FILE =
  /(^|\/)(CLAUDE|AGENTS|GEMINI|QWEN)(\.local)?\.md$|(^|\/)README(\.[A-Za-z]+)?$|(^|\/)\.(cursorrules|windsurfrules|clinerules)$|(^|\/)\.?memor(y|ies)(\/|\.md$)|MEMORY\.md$/i;

function exemption(c: CallView): string | undefined {
  if (readsOf(c).some((p) => RULES_FILE.test(p.replace(/\\/g, "/"))))
    return "long-lived rules or memory file (App. A.1: necessary long-lived rules and memory)";
  if (c.kind === "plan") return "plan/todo output: the run's working memory (App. A.1)";
  if (c.kind === "delegate") return "sub-agent report: a summary (App. A.1)";
  return undefined;
}

function describe(c: CallView): string {
  if (c.commandText) return `\`${short(c.commandText)}\``;
  return `${c.call.name} ${c.paths[0] ?? ""}`.trim();
}
