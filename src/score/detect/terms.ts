import { own } from "../import/event-sink.ts";
import { inputText, STOP, scanWordSpans, tokenParts } from "./tokens.ts";
import type { TrajectoryView } from "./view.ts";

/**
 * The distinctive terms of one trajectory's texts, interned (ProcCtrlBench §3.2 "similarity" features): each
 * text is scanned once ({@link scanWordSpans}, at most `MAX_SCAN` characters) into the ids of its distinct
 * terms in order of first occurrence, and every detector that measures influence between events (Dead Step,
 * Ghost Context, Oversized Rules) reads those ids instead of scanning the text again. Term equality is then
 * an integer comparison and sets of terms are sets of numbers.
 *
 * Two id spaces: a *form* is a term as written (case kept), a *term* its lower-cased form; several forms
 * share a term. A text's terms are distinct by term (the first form seen stands for it), as
 * `distinctiveTokens` gives them.
 */
export class TermTable {
  private readonly termIds = new Map<string, number>();
  /** Term id → the lower-cased term. */
  readonly terms: string[] = [];
  private readonly formTerm: number[] = []; // form id → term id, or -1 for a stop word
  private readonly formText: string[] = [];
  private readonly formParts: (readonly number[] | undefined)[] = [];
  private readonly stamp: number[] = []; // term id → number of the last text that held it
  private texts = 0;
  private readonly cache = new WeakMap<object, { ids: Int32Array; complete: boolean }>();
  // Forms by hash, open addressing: slot → form id + 1 (0: empty). Words are looked up by their characters
  // in the text, so no string is cut for a word seen before.
  private slots = new Int32Array(1 << 12);
  private slotHash = new Int32Array(1 << 12);

  /**
   * Form ids of the distinct terms of the text an event (or other object) holds, scanned once per owner:
   * the first `cap` of them (all when absent). A later call asking for more than an earlier capped scan
   * found scans again.
   */
  of(owner: object, text: () => string, cap = Number.POSITIVE_INFINITY): Int32Array {
    const cached = this.cache.get(owner);
    if (cached && (cached.complete || cached.ids.length >= cap)) return cached.ids;
    const ids = this.scan(text(), cap);
    this.cache.set(owner, { ids, complete: ids.length < cap });
    return ids;
  }

  /** Form ids of the distinct terms of a text, the first `cap` of them (not cached). */
  scan(text: string, cap = Number.POSITIVE_INFINITY): Int32Array {
    const out: number[] = [];
    const n = ++this.texts;
    scanWordSpans(text, (i, j) => {
      const form = this.lookup(text, i, j);
      const term = this.formTerm[form] as number;
      if (term < 0 || this.stamp[term] === n) return true;
      this.stamp[term] = n;
      out.push(form);
      return out.length < cap;
    });
    return Int32Array.from(out);
  }

  /** The form id of `text[i, j)`, interned on first sight. */
  private lookup(text: string, i: number, j: number): number {
    let h = 0x811c9dc5;
    for (let k = i; k < j; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = (this.slots[s] as number) - 1;
      // A copy, not a slice: a slice would keep the whole text alive as long as the table.
      if (id < 0) return this.intern(own(text.slice(i, j)), h, s);
      if (this.slotHash[s] !== h) continue;
      const form = this.formText[id] as string;
      if (form.length !== j - i) continue;
      let k = 0;
      while (k < form.length && form.charCodeAt(k) === text.charCodeAt(i + k)) k++;
      if (k === form.length) return id;
    }
  }

  private intern(raw: string, hash: number, slot: number): number {
    const id = this.formText.length;
    const lower = raw.toLowerCase();
    this.formText.push(raw);
    this.formTerm.push(STOP.has(lower) ? -1 : this.term(lower));
    this.slots[slot] = id + 1;
    this.slotHash[slot] = hash;
    if (2 * this.formText.length > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const hashes = new Int32Array(slots.length);
    const mask = slots.length - 1;
    for (let s = 0; s < this.slots.length; s++) {
      const v = this.slots[s] as number;
      if (!v) continue;
      const h = this.slotHash[s] as number;
      let t = h & mask;
      while (slots[t]) t = (t + 1) & mask;
      slots[t] = v;
      hashes[t] = h;
    }
    this.slots = slots;
    this.slotHash = hashes;
  }

  /** The term id of a form id. */
  termOf(form: number): number {
    return this.formTerm[form] as number;
  }

  /** The term (lower case) of a form id. */
  text(form: number): string {
    return this.terms[this.formTerm[form] as number] as string;
  }

  /** The form has inner structure (capitals, `.`, `/`, `_`, `-`): its parts may be drawn on on their own. */
  compound(form: number): boolean {
    return /[A-Z._/-]/.test(this.formText[form] as string);
  }

  /** Term ids of a form's parts ({@link tokenParts}), computed once per form. */
  parts(form: number): readonly number[] {
    let parts = this.formParts[form];
    if (!parts) {
      parts = tokenParts(this.formText[form] as string).map((p) => this.term(p));
      this.formParts[form] = parts;
    }
    return parts;
  }

  /** The id of a term (lower case), interned on first use. */
  term(lower: string): number {
    let id = this.termIds.get(lower);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(lower);
      this.termIds.set(lower, id);
    }
    return id;
  }
}

const tables = new WeakMap<TrajectoryView, TermTable>();

/** The term table of a view, made on first use and shared by every detector over that view. */
export function termsOf(view: TrajectoryView): TermTable {
  let table = tables.get(view);
  if (!table) {
    table = new TermTable();
    tables.set(view, table);
  }
  return table;
}

/** The text of an event as the influence tests read it: message text, tool input leaves, tool output. */
export function eventText(e: TrajectoryView["events"][number]): string {
  if (e.type === "message") return e.text;
  if (e.type === "tool_call") return inputText(e.input);
  if (e.type === "tool_result") return e.output;
  return "";
}

/** Form ids of an event's distinct terms (see {@link eventText}), scanned once per event per view. */
export function eventTerms(
  view: TrajectoryView,
  e: TrajectoryView["events"][number],
  cap?: number,
): Int32Array {
  return termsOf(view).of(e, () => eventText(e), cap);
}
