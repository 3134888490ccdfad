import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { Instances, KeyedInstances, makeFinding, streaming } from "./finding.ts";
import { LaterUse, type Probe, sampleTerms } from "./later-use.ts";
import { FileMap, readsOf, writesOf } from "./paths.ts";
import { eventTerms, sharedTerms } from "./terms.ts";
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
 * Complexity: O(n + total text) — one pass over the stream. State: the last read of each file (a file map
 * indexed by path suffix; a compact record with the excerpts of the call and its result, and what changed
 * the file since) and the large outputs still retained and not yet drawn on enough (pending probes of
 * {@link LaterUse}, decided at the next compaction or at the end).
 */
export const ghostContext = streaming("ghost-context", () => {
  const instances = new Instances<DefectInstance>();
  const exempted = new Instances<ExemptedInstance>();
  // Large outputs decided, with their call's ordinal: reported in call order after the stale reads.
  const largeInstances = new KeyedInstances<DefectInstance>();
  const largeExempted = new KeyedInstances<ExemptedInstance>();
  const add = (out: Output, instance: DefectInstance) => {
    if (out.reason) exempted.push({ ...instance, reason: out.reason });
    else instances.push(instance);
  };

  const lastRead = new FileMap<{ read: Output; epoch: number; changedBy?: Change }>();
  let epoch = 0;
  const changed = (path: string, by: () => Change, ordinal?: number) => {
    const prev = lastRead.get(path);
    if (prev && !prev.changedBy && prev.read.ordinal !== ordinal) prev.changedBy = by();
  };
  // Calls found stale before their result passed (a parallel re-read): not probed as large outputs.
  const staleAhead = new Set<number>();
  const pendingLarge = new Map<number, Probe<Output>>(); // call ordinal → its probe
  const use = new LaterUse<Output>({
    untilCompaction: true,
    enough: (u) => u.hits / u.of >= LOW_USE,
    decide(probe, why) {
      const out = probe.data;
      pendingLarge.delete(out.ordinal);
      const u = probe.use;
      if (why === "used" || u.hits / u.of >= LOW_USE) return;
      const instance = {
        events: [out.callId, out.resultId],
        note: `${out.what} (${out.callId}) put ${out.tokens} tokens in context; ${u.hits} of ${u.of} sampled terms were used while it was retained`,
        weight: out.tokens / 1000,
        excerpts: out.excerpts,
      };
      const reason =
        out.reason ??
        (u.later || why === "limit"
          ? undefined
          : why === "compaction"
            ? "compacted away before anything could use the output"
            : "the log ends before anything could use the output");
      if (reason) largeExempted.add(out.ordinal, { ...instance, reason });
      else largeInstances.add(out.ordinal, instance);
    },
  });

  return {
    push(at, e, c) {
      use.push(e);
      if (e.type === "context" && e.compaction) epoch++;
      if (e.type === "file_change" && !c) {
        const by = () => ({ id: e.id, what: `a file change (${e.id})`, excerpt: excerptOf(e) });
        changed(e.path, by);
      }
      if (e.type === "tool_result" && c?.result === e) large(c);
      if (e.type !== "tool_call" || !c || c.failed) return;
      // Stale reads: each read of a file against the file's last read.
      const reads = c.result ? readsOf(c) : [];
      let read: Output | undefined;
      for (const path of reads) {
        const prev = lastRead.get(path);
        if (prev?.changedBy && prev.epoch === epoch && !prev.read.stale) {
          const r = prev.read;
          r.stale = true;
          const pending = pendingLarge.get(r.ordinal);
          if (pending) {
            use.drop(pending);
            pendingLarge.delete(r.ordinal);
          } else if (r.resultAt > at) staleAhead.add(r.ordinal);
          add(r, {
            events: [r.callId, r.resultId, prev.changedBy.id, c.call.id],
            note: `${r.what} (${r.callId}, ${r.tokens} tokens) went stale when ${prev.changedBy.what} changed the file; ${c.call.id} read it again`,
            weight: r.tokens / 1000,
            excerpts: [...r.excerpts, prev.changedBy.excerpt, excerptOf(c.call)],
          });
        }
        read ??= output(c, reads);
        lastRead.set(path, { read, epoch });
      }
      let by: Change | undefined;
      for (const path of writesOf(c))
        changed(
          path,
          () => (by ??= { id: c.call.id, what: `${describe(c)} (${c.call.id})`, excerpt: excerptOf(c.call) }),
          c.ordinal,
        );
    },
    finish() {
      use.finish();
      largeInstances.drainInto(instances);
      largeExempted.drainInto(exempted);
      return makeFinding("ghost-context", instances, exempted);
    },
  };

  /** A large output, as its result passes: a probe of its later use, unless the read is already stale. */
  function large(c: CallView): void {
    if (staleAhead.delete(c.ordinal) || !c.result || outputTokens(c.result) < LARGE_OUTPUT_TOKENS) return;
    const input = new Set(eventTerms(c.call, 1000).terms);
    const tokens = sampleTerms(sharedTerms(c.result).terms, input);
    if (tokens.length < MIN_SAMPLE) return; // too few terms to judge
    pendingLarge.set(c.ordinal, use.add(tokens, output(c, readsOf(c))));
  }
});

/** Estimated tokens from which a tool output is large enough to judge as possible ghost context. */
export const LARGE_OUTPUT_TOKENS = 1000;

/** Share of an output's sampled terms used later below which the output counts as unused. */
export const LOW_USE = 0.1;

/** Sampled terms an output needs before its use is judged. */
const MIN_SAMPLE = 5;

/** Long-lived rule and memory files (App. A.1 exemption). */
export const RULES_FILE =
  /(^|\/)(CLAUDE|AGENTS|GEMINI|QWEN)(\.local)?\.md$|(^|\/)README(\.[A-Za-z]+)?$|(^|\/)\.(cursorrules|windsurfrules|clinerules)$|(^|\/)\.?memor(y|ies)(\/|\.md$)|MEMORY\.md$/i;

/** What is kept of a call whose output may be cited later (instead of the call and its output). */
interface Output {
  ordinal: number;
  callId: string;
  resultId: string;
  resultAt: number;
  /** Estimated tokens of the output. */
  tokens: number;
  /** The call described, for notes. */
  what: string;
  /** The exemption that applies, if any. */
  reason?: string;
  /** Excerpts of the call and its result. */
  excerpts: Excerpt[];
  /** Already counted as a stale read. */
  stale: boolean;
}

/** What changed a file since its last read. */
interface Change {
  id: string;
  what: string;
  excerpt: Excerpt;
}

function output(c: CallView, reads: readonly string[]): Output {
  const result = c.result;
  return {
    ordinal: c.ordinal,
    callId: c.call.id,
    resultId: result?.id ?? "",
    resultAt: c.resultAt,
    tokens: result ? outputTokens(result) : 0,
    what: describe(c),
    reason: exemption(c, reads),
    excerpts: result ? [excerptOf(c.call), excerptOf(result)] : [excerptOf(c.call)],
    stale: false,
  };
}

function exemption(c: CallView, reads: readonly string[]): string | undefined {
  if (reads.some((p) => RULES_FILE.test(p.replace(/\\/g, "/"))))
    return "long-lived rules or memory file (App. A.1: necessary long-lived rules and memory)";
  if (c.kind === "plan") return "plan/todo output: the run's working memory (App. A.1)";
  if (c.kind === "delegate") return "sub-agent report: a summary (App. A.1)";
  return undefined;
}

function describe(c: CallView): string {
  if (c.commandText) return `\`${short(c.commandText)}\``;
  return `${c.call.name} ${c.paths[0] ?? ""}`.trim();
}
