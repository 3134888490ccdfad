import { createHash } from "node:crypto";
import { own } from "../../core/recent.ts";
import type { EventDraft, TrajectoryEvent } from "../../core/trajectory.ts";
import type { UnmappedRecords } from "./imported.ts";

/**
 * The events of one imported trajectory as an importer emits them: ids `e1`, `e2`, … in order, each with
 * its provenance (`raw: {file, line}`) and, when given, the events it depends on. Bulky texts are capped
 * here, once for every format ({@link capTexts}), so memory follows the number of events rather than the
 * bytes of the log.
 */
export class EventSink {
  /** The events added, unless they are handed to {@link onEvent} instead. */
  readonly events: TrajectoryEvent[] = [];

  /**
   * When set, each event is handed to it as it is added and not kept in {@link events}: a log of any size
   * is read in memory that follows what the reader keeps (see `streamTrajectory`).
   */
  onEvent: ((e: TrajectoryEvent) => void) | undefined;

  /** The last event added. */
  last: TrajectoryEvent | undefined;

  /** The last event added that is not a `usage` event. */
  lastNotUsage: TrajectoryEvent | undefined;

  /** Events added. */
  count = 0;

  /**
   * Index of the record being mapped in a whole-document format (see `RawRef.index`); importers of such
   * formats set it before mapping each record, and events without a line carry it.
   */
  at: number | undefined;

  /** 1-based line of the record being mapped, for importers that map a line at a time (wins over `at`). */
  atLine: number | undefined;

  private readonly notMapped = new Map<string, UnmappedRecords>();

  constructor(readonly file: string) {}

  /** Count a record read but deliberately not mapped to an event, by reason (see `ImportedTrajectory.unmapped`). */
  unmapped(reason: string, line: number): void {
    const seen = this.notMapped.get(reason);
    if (seen) seen.count++;
    else this.notMapped.set(reason, { reason, count: 1, line });
  }

  /** The records counted by {@link unmapped}, most frequent first. */
  unmappedSummary(): UnmappedRecords[] {
    return [...this.notMapped.values()].sort((a, b) => b.count - a.count);
  }

  /**
   * Append an event and return its id.
   * @param line 1-based source line (absent for a whole-document format)
   * @param parent ids of events this one depends on (omitted when empty)
   */
  add(draft: EventDraft, line?: number, parent?: string[]): string {
    const id = `e${++this.count}`;
    capTexts(draft);
    ownStrings(draft as unknown as Record<string, unknown>);
    const event = {
      ...draft,
      id,
      raw: {
        file: this.file,
        ...(line
          ? { line }
          : this.atLine !== undefined
            ? { line: this.atLine }
            : this.at !== undefined
              ? { index: this.at }
              : {}),
      },
      ...(parent?.length ? { parent } : {}),
    } as TrajectoryEvent;
    this.last = event;
    if (event.type !== "usage") this.lastNotUsage = event;
    if (this.onEvent) this.onEvent(event);
    else this.events.push(event);
    return id;
  }
}

/**
 * Entries a streaming importer remembers to pair records (calls awaiting their results, lines awaiting their
 * children, response ids already counted): a pairing further back than this many is not made.
 */
export const IMPORT_REMEMBERED = 16_384;

/** Characters of a tool output, command output or tool-input string kept in an imported event. */
export const KEPT_CHARS = 8000;

/**
 * Cap the bulky texts of an event draft in place: a tool result's `output` (its whole length kept in
 * `outputChars`), a command's `stdout`/`stderr`, and any string of a tool call's `input` longer than
 * {@link KEPT_CHARS}, which becomes its start plus `…[+N chars sha256:<12 hex>]` — equal long strings stay
 * equal and different ones differ, so detectors comparing inputs (duplicates, reverts) still work. The
 * kept start is copied, so the whole string can be garbage-collected. Messages are kept whole (rule text
 * is measured from them). The native log (`raw: {file, line}`) holds the full text.
 */
export function capTexts(draft: EventDraft): void {
  if (draft.type === "tool_result" && draft.output.length > KEPT_CHARS) {
    draft.outputChars = draft.output.length;
    draft.output = `${head(draft.output)}\n…[${draft.output.length - KEPT_CHARS} more characters]`;
  } else if (draft.type === "command") {
    if (draft.stdout && draft.stdout.length > KEPT_CHARS)
      draft.stdout = `${head(draft.stdout)}\n…[${draft.stdout.length - KEPT_CHARS} more characters]`;
    if (draft.stderr && draft.stderr.length > KEPT_CHARS)
      draft.stderr = `${head(draft.stderr)}\n…[${draft.stderr.length - KEPT_CHARS} more characters]`;
  } else if (draft.type === "tool_call") draft.input = capInput(draft.input);
}

function capInput(v: unknown): unknown {
  if (typeof v === "string")
    return v.length > KEPT_CHARS
      ? `${head(v)}…[+${v.length - KEPT_CHARS} chars sha256:${createHash("sha256").update(v).digest("hex").slice(0, 12)}]`
      : v;
  if (Array.isArray(v)) return v.some(isLong) ? v.map(capInput) : v;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (!Object.values(o).some(isLong)) return v;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, capInput(x)]));
  }
  return v;
}

/** True when a value is, or holds, a string longer than {@link KEPT_CHARS}. */
function isLong(v: unknown): boolean {
  if (typeof v === "string") return v.length > KEPT_CHARS;
  if (Array.isArray(v)) return v.some(isLong);
  if (v && typeof v === "object") return Object.values(v).some(isLong);
  return false;
}

/** The first {@link KEPT_CHARS} characters as a new string (a slice would keep the whole one alive). */
function head(text: string): string {
  return Buffer.from(text.slice(0, KEPT_CHARS), "utf8").toString("utf8");
}

/** Replace every string of a parsed value, in place (objects and arrays walked), by its {@link own} copy. */
function ownStrings(o: Record<string, unknown> | unknown[]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === "string") (o as Record<string, unknown>)[k] = own(v);
    else if (v && typeof v === "object") ownStrings(v as Record<string, unknown>);
  }
}
