import type { ToolResultEvent, TrajectoryEvent } from "../../core/trajectory.ts";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { isSpace } from "./file-reads.ts";
import { makeFinding, streaming } from "./finding.ts";
import { FileMap, writesOf } from "./paths.ts";
import { inputText } from "./tokens.ts";
import { type CallView, canonical } from "./view.ts";

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
 * Complexity: O(n + total text) — one pass over the stream, each output's lines hashed once; state: the
 * files known so far and those of the open correction (file maps indexed by path suffix), the corrections
 * found, and the keys of recent output lines (at least {@link MAX_LINES}) with the first result quoting
 * each (one excerpt per result, shared by its lines), looked up by delegation prompts.
 */
export const contextCoupling = streaming("context-coupling", () => {
  const corrections: Correction[] = [];
  const pastes: DefectInstance[] = [];
  let open: OpenCorrection | undefined;
  const known = new FileMap<true>(); // files named or changed so far: the project as the agent knows it
  const lines = new RecentLines(MAX_LINES); // normalised output line → first result quoting it
  return {
    push(_at, e, c) {
      if (e.type === "message" && e.role === "user") {
        close();
        open = undefined;
      } else if (e.type === "file_change" && !c) {
        change(e.path, `file ${e.path}`, e, e.kind === "modified");
        known.set(e.path, true);
      } else if (e.type === "tool_result") quoted(e);
      if (e.type !== "tool_call" || !c) return;
      const writes = writesOf(c);
      correction(c, writes);
      for (const p of [...c.paths, ...writes, ...c.changes.map((x) => x.path)]) known.set(p, true);
      if (c.kind === "delegate") delegation(c);
    },
    finish() {
      close();
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
        excerpts: c.excerpts,
      }));
      const exempted: ExemptedInstance[] = batch.map((c, i) => ({
        events: c.events,
        note: `${c.files} files changed after failed check ${c.events[0]}, ${c.units} change units once batch work is merged`,
        weight: i === widestBatch ? Math.max(0, c.files - widestUnits) : 0,
        reason: `intended batch work: ${c.batch}`,
        excerpts: c.excerpts.slice(0, 2),
      }));
      for (const x of pastes) instances.push(x);
      return makeFinding("context-coupling", instances, exempted);
    },
  };

  /** Close the open correction: an instance when it touched at least WIDE_CORRECTION files. */
  function close(): void {
    if (!open || open.files.size < WIDE_CORRECTION) return;
    const units = new Set(open.files.entries().map((e) => e.value)).size;
    const batches = [...open.batched.entries()].filter(([, n]) => n >= 2);
    corrections.push({
      events: [open.check, ...open.events],
      excerpts: open.excerpts,
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
  }

  // A file a shell command first makes during the correction (a scratch test written with a heredoc, a
  // saved diff) is no unit being corrected; files of edit and write tools always count.
  function change(path: string, unit: string, e: TrajectoryEvent, byTool = false): void {
    if (!open || open.files.get(path) !== undefined || (!byTool && !known.get(path))) return;
    open.files.set(path, unit);
    open.batched.set(unit, (open.batched.get(unit) ?? 0) + 1);
    if (open.events.at(-1) !== e.id) {
      open.events.push(e.id);
      if (open.excerpts.length < 4) open.excerpts.push(excerptOf(e));
    }
  }

  function correction(c: CallView, paths: string[]): void {
    if (c.commandKind === "validate") {
      close();
      open = c.failed
        ? {
            check: c.call.id,
            files: new FileMap(),
            events: [],
            excerpts: [excerptOf(c.call)],
            batched: new Map(),
          }
        : undefined;
      return;
    }
    if (!open || c.failed) return;
    const edit = c.kind === "edit" ? editKey(c.call.input) : undefined;
    for (const path of paths) {
      const unit = edit
        ? `edit ${edit}`
        : c.kind === "shell" && paths.length > 1
          ? `call ${c.call.id}`
          : `file ${path}`;
      change(path, unit, c.call, c.kind !== "shell");
    }
  }

  /** Index the lines of a tool output not quoted before: this result is their source. */
  function quoted(e: ToolResultEvent): void {
    let source: Source | undefined;
    forEachLine(e.output, (key) => {
      if (key < 0 || lines.refresh(key)) return;
      source ??= { id: e.id, excerpt: excerptOf(e) };
      lines.add(key, source);
    });
  }

  /** Pasted context: a delegation holding at least PASTED_CHARS characters of parent context. */
  function delegation(c: CallView): void {
    let pasted = 0;
    let fenced = false;
    const sources = new Map<string, Excerpt>(); // earlier results quoted, in order
    for (const line of inputText(c.call.input).split("\n")) {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        continue;
      }
      const key = lineKey(line, 0, line.length);
      // Indexed lines all come from results before this call.
      const earlier = key >= 0 ? lines.get(key) : undefined;
      if (earlier && !sources.has(earlier.id)) sources.set(earlier.id, earlier.excerpt);
      if (earlier || fenced) pasted += line.length + 1;
    }
    if (pasted < PASTED_CHARS) return;
    const cited = [...sources.keys()].slice(0, 5);
    pastes.push({
      events: [c.call.id, ...cited],
      note: `delegation ${c.call.id} pastes ${pasted} characters of parent context${
        sources.size ? ` (quoting ${sources.size} earlier result${sources.size > 1 ? "s" : ""})` : ""
      }`,
      weight: pasted / 1000,
      excerpts: [excerptOf(c.call), ...[...sources.values()].slice(0, 3)],
    });
  }
});

/** The correction after a failed check still open. */
interface OpenCorrection {
  /** The failed check's call id. */
  check: string;
  /** Files changed → their change unit. */
  files: FileMap<string>;
  /** Events that changed them (one per file at most). */
  events: string[];
  /** Excerpts of the check and of the first three of those events. */
  excerpts: Excerpt[];
  /** Change unit → files in it. */
  batched: Map<string, number>;
}

/** A result whose lines a delegation may quote: its id and excerpt, shared by its lines. */
interface Source {
  id: string;
  excerpt: Excerpt;
}

/**
 * Distinct output lines remembered at least (at most twice as many): a line last quoted further back is
 * forgotten, and a prompt line only found there is not seen as pasted (a later result quoting it becomes
 * its source).
 */
const MAX_LINES = 1 << 16;

/**
 * Line keys → the first result quoting them, for the last `half` to `2 × half` distinct keys: two
 * generations, the older dropped when the newer fills; a key found in the older moves to the newer. Each
 * generation is an open-addressing table of typed arrays (at most half full), so indexing a line costs a
 * hash probe and no allocation: every output line of a log passes through here.
 */
class RecentLines {
  private now: Generation;
  private before: Generation;
  constructor(private readonly half: number) {
    this.now = new Generation(half);
    this.before = new Generation(half);
  }

  get(key: number): Source | undefined {
    return this.now.get(key) ?? this.before.get(key);
  }

  /** Whether the key is known; one known from the older generation moves to the newer. */
  refresh(key: number): boolean {
    if (this.now.get(key)) return true;
    const old = this.before.get(key);
    if (!old) return false;
    this.add(key, old);
    return true;
  }

  add(key: number, source: Source): void {
    this.now.set(key, source);
    if (this.now.size >= this.half) {
      this.before = this.now;
      this.now = new Generation(this.half);
    }
  }
}

/** One generation of {@link RecentLines}: keys (30-bit, stored + 1) with linear probing, sources by index. */
class Generation {
  size = 0;
  private readonly keys: Int32Array;
  private readonly values: Int32Array;
  private readonly sources: Source[] = [];
  private readonly mask: number;
  constructor(capacity: number) {
    const slots = 2 ** Math.ceil(Math.log2(capacity * 2));
    this.keys = new Int32Array(slots);
    this.values = new Int32Array(slots);
    this.mask = slots - 1;
  }

  get(key: number): Source | undefined {
    for (let i = key & this.mask; ; i = (i + 1) & this.mask) {
      const k = this.keys[i] as number;
      if (k === 0) return undefined;
      if (k === key + 1) return this.sources[this.values[i] as number];
    }
  }

  /** Store a key not stored yet. */
  set(key: number, source: Source): void {
    if (this.sources.at(-1) !== source) this.sources.push(source);
    let i = key & this.mask;
    while (this.keys[i] !== 0) i = (i + 1) & this.mask;
    this.keys[i] = key + 1;
    this.values[i] = this.sources.length - 1;
    this.size++;
  }
}

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
  excerpts: Excerpt[];
  files: number;
  units: number;
  batch: string;
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

/**
 * The key of `text[from, to)` as a line once normalised — without its line-number gutter (`  12→`, `12\t`,
 * `12: `) and outer spaces —, or -1 when that is under 20 characters: an FNV-1a hash of the normalised line
 * mixed with its length, to 30 bits (a small integer: map keys cost no allocation). Two distinct lines share
 * a key with probability 2⁻³⁰ per pair: a prompt line can rarely count as quoted through another line.
 */
function lineKey(text: string, from: number, to: number): number {
  let s = from;
  while (s < to && isSpace(text.charCodeAt(s))) s++;
  let d = s;
  while (d < to && text.charCodeAt(d) >= 48 && text.charCodeAt(d) <= 57) d++;
  if (d > s) {
    const c = text.charCodeAt(d);
    if (c === 0x2192 || c === 9) s = d + 1;
    else if (c === 58 && d + 1 < to && isSpace(text.charCodeAt(d + 1))) s = d + 2;
    while (s < to && isSpace(text.charCodeAt(s))) s++;
  }
  let e = to;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  if (e - s < 20) return -1;
  let h = 0x811c9dc5;
  for (let k = s; k < e; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return (h ^ Math.imul(e - s, 0x9e3779b1)) & 0x3fffffff;
}

/** Visit the key ({@link lineKey}) of every line of a text (split at `\n`), in one pass. */
function forEachLine(text: string, visit: (key: number) => void): void {
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf("\n", from);
    const to = nl < 0 ? text.length : nl;
    visit(lineKey(text, from, to));
    from = to + 1;
  }
}
