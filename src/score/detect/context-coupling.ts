import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Detector, makeFinding } from "./finding.ts";
import { FileMap, writesOf } from "./paths.ts";
import { inputText } from "./tokens.ts";
import { type CallView, canonical, type TrajectoryView } from "./view.ts";

/**
 * Context Coupling (ProcCtrlBench App. A.3): deep sharing that blurs unit boundaries and impairs local
 * correction. Two signals:
 *
 * - wide correction: after a failed check (a shell call classified `validate` that failed), the files
 *   changed before the next check, the next user turn or the end of the log — write/edit paths, shell
 *   write targets and recorded file changes, compared across path forms (a file a shell command first makes
 *   during the correction — a scratch test written with a heredoc, a saved diff — is no unit being
 *   corrected). A correction is an instance when
 *   it touches at least {@link WIDE_CORRECTION} change units: each file is a unit, except that files given
 *   the same edit (equal old → new text) form one unit, as do files changed by one shell command;
 * - pasted context: a delegation (kind `delegate`) whose input holds at least {@link PASTED_CHARS}
 *   characters of parent context — lines found verbatim in earlier tool outputs (line-number gutters
 *   removed, lines of 20+ characters) and fenced code blocks.
 *
 * Raw score: distinct files changed (files given the same edit count once) in the widest correction after
 * a failed check, i.e. its change units, plus thousands of characters of parent context pasted into
 * delegations (each delegation weighs its pasted characters / 1000). To keep that `max + sum` a sum of weights, the
 * widest counted correction weighs its units and narrower ones weigh 0 (kept as evidence); the widest
 * exempted correction weighs only what it would add above the widest counted one. Evidence: the failed
 * check, then the calls that changed files; the delegation call, then the results it quotes.
 *
 * Exemption (App. A.2/A.3 intended batch work), kept in `exempted`: a correction wide only because of
 * batch work — the same edit applied across files, or one command changing many (a rename, a formatter)
 * — so that fewer than {@link WIDE_CORRECTION} units remain.
 *
 * Complexity: O(n + total text) — one pass over events, file maps indexed by path suffix, and (only when
 * the run delegates) a set of the delegation prompts' lines looked up in outputs.
 */
export const contextCoupling: Detector = {
  defect: "context-coupling",
  detect(view) {
    const corrections = wideCorrections(view);
    const counted = corrections.filter((c) => c.units >= WIDE_CORRECTION);
    const batch = corrections.filter((c) => c.units < WIDE_CORRECTION);
    const widest = widestOf(counted, (c) => c.units);
    const widestUnits = counted[widest]?.units ?? 0;
    const widestBatch = widestOf(batch, (c) => c.files);
    const instances: DefectInstance[] = counted.map((c, i) => ({
      events: c.events,
      note: `${c.units} change units (${c.files} files) after failed check ${c.events[0]}${
        i === widest ? "" : "; narrower than the widest correction, which alone counts"
      }`,
      weight: i === widest ? c.units : 0,
    }));
    const exempted: ExemptedInstance[] = batch.map((c, i) => ({
      events: c.events,
      note: `${c.files} files changed after failed check ${c.events[0]}, ${c.units} change units once batch work is merged`,
      weight: i === widestBatch ? Math.max(0, c.files - widestUnits) : 0,
      reason: `intended batch work: ${c.batch}`,
    }));
    instances.push(...pastedContext(view));
    return makeFinding("context-coupling", instances, exempted);
  },
};

/** Change units from which a correction after a failed check counts as wide. */
export const WIDE_CORRECTION = 3;

/** Characters of parent context in a delegation from which it counts as pasted context. */
export const PASTED_CHARS = 2000;

/** Index of the first item with the largest value, or -1. */
function widestOf<T>(items: T[], value: (x: T) => number): number {
  let best = -1;
  items.forEach((x, i) => {
    if (best < 0 || value(x) > value(items[best] as T)) best = i;
  });
  return best;
}

interface Correction {
  events: string[];
  files: number;
  units: number;
  batch: string;
}

/** Every correction after a failed check that touched at least WIDE_CORRECTION files. */
function wideCorrections(view: TrajectoryView): Correction[] {
  const out: Correction[] = [];
  const callAt = new Map(view.calls.map((c) => [c.at, c]));
  const joined = new Set(view.calls.flatMap((c) => c.changes.map((ch) => ch.id)));
  let open:
    | { check: CallView; files: FileMap<string>; events: string[]; batched: Map<string, number> }
    | undefined;
  const close = () => {
    if (!open || open.files.size < WIDE_CORRECTION) return;
    const units = new Set(open.files.entries().map((e) => e.value)).size;
    const batches = [...open.batched.entries()].filter(([, n]) => n >= 2);
    out.push({
      events: [open.check.call.id, ...open.events],
      files: open.files.size,
      units,
      batch: batches.length
        ? batches
            .map(
              ([key, n]) =>
                `${key.startsWith("call ") ? "one command changed" : "the same edit on"} ${n} files`,
            )
            .join("; ")
        : "",
    });
  };
  const known = new FileMap<true>(); // files named or changed so far: the project as the agent knows it
  // A file a shell command first makes during the correction (a scratch test written with a heredoc, a
  // saved diff) is no unit being corrected; files of edit and write tools always count.
  const change = (path: string, unit: string, eventId: string, byTool = false) => {
    if (!open || open.files.get(path) !== undefined || (!byTool && !known.get(path))) return;
    open.files.set(path, unit);
    open.batched.set(unit, (open.batched.get(unit) ?? 0) + 1);
    if (open.events.at(-1) !== eventId) open.events.push(eventId);
  };
  view.events.forEach((e, at) => {
    if (e.type === "message" && e.role === "user") {
      close();
      open = undefined;
    } else if (e.type === "file_change" && !joined.has(e.id)) {
      change(e.path, `file ${e.path}`, e.id, e.kind === "modified");
      known.set(e.path, true);
    }
    const c = e.type === "tool_call" ? callAt.get(at) : undefined;
    if (!c) return;
    correction(c);
    for (const p of [...c.paths, ...writesOf(c), ...c.changes.map((x) => x.path)]) known.set(p, true);
  });
  close();
  return out;

  function correction(c: CallView): void {
    if (c.commandKind === "validate") {
      close();
      open = c.failed ? { check: c, files: new FileMap(), events: [], batched: new Map() } : undefined;
      return;
    }
    if (!open || c.failed) return;
    const paths = writesOf(c);
    const edit = c.kind === "edit" ? editKey(c.call.input) : undefined;
    for (const path of paths) {
      const unit = edit
        ? `edit ${edit}`
        : c.kind === "shell" && paths.length > 1
          ? `call ${c.call.id}`
          : `file ${path}`;
      change(path, unit, c.call.id, c.kind !== "shell");
    }
  }
}

/** The edit an edit call applies, independent of the file (old → new text), or undefined. */
function editKey(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return undefined;
  const o = input as Record<string, unknown>;
  const oldText = o.old_string ?? o.old_str ?? o.oldText ?? o.search;
  const newText = o.new_string ?? o.new_str ?? o.newText ?? o.replace;
  if (typeof oldText === "string" && typeof newText === "string") return canonical([oldText, newText]);
  if (Array.isArray(o.edits)) return canonical(o.edits);
  return undefined;
}

/** Delegations that paste at least PASTED_CHARS characters of parent context. */
function pastedContext(view: TrajectoryView): DefectInstance[] {
  const delegations = view.calls.filter((c) => c.kind === "delegate");
  if (!delegations.length) return [];
  // Only lines some delegation prompt holds are looked up in outputs: memory stays bounded by the prompts.
  const promptLines = new Set<string>();
  for (const c of delegations)
    for (const line of inputText(c.call.input).split("\n")) {
      const n = normaliseLine(line);
      if (n.length >= 20) promptLines.add(n);
    }
  const source = new Map<string, { id: string; at: number }>(); // prompt line → first result quoting it
  view.events.forEach((e, at) => {
    if (e.type !== "tool_result") return;
    for (const line of e.output.split("\n")) {
      const n = normaliseLine(line);
      if (n.length >= 20 && promptLines.has(n) && !source.has(n)) source.set(n, { id: e.id, at });
    }
  });
  const out: DefectInstance[] = [];
  for (const c of delegations) {
    let pasted = 0;
    let fenced = false;
    const sources = new Set<string>();
    for (const line of inputText(c.call.input).split("\n")) {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        continue;
      }
      const n = normaliseLine(line);
      const from = n.length >= 20 ? source.get(n) : undefined;
      const earlier = from && from.at < c.at ? from.id : undefined;
      if (earlier) sources.add(earlier);
      if (earlier || fenced) pasted += line.length + 1;
    }
    if (pasted >= PASTED_CHARS)
      out.push({
        events: [c.call.id, ...[...sources].slice(0, 5)],
        note: `delegation ${c.call.id} pastes ${pasted} characters of parent context${
          sources.size ? ` (quoting ${sources.size} earlier result${sources.size > 1 ? "s" : ""})` : ""
        }`,
        weight: pasted / 1000,
      });
  }
  return out;
}

/** An output or prompt line without its line-number gutter (`  12→`, `12\t`, `12:`) and outer spaces. */
function normaliseLine(line: string): string {
  return line.replace(/^\s*\d+(→|\t|:\s)/, "").trim();
}
