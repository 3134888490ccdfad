import { own } from "../../core/recent.ts";
import type { TrajectoryEvent } from "../../core/trajectory.ts";

/**
 * Evidence excerpts (ProcCtrlBench §3.1: findings a person can check): what an event shows, in one line, with
 * where it sits in the native log. Detectors reading the stream keep excerpts of the events they may cite
 * later instead of the events themselves, so memory follows what they remember, not the log's text.
 */

/** One cited event: its id, native line (or record index for whole-document logs) and ≤ 200 characters. */
export interface Excerpt {
  event: string;
  /** 1-based line of the native log the event was read from. */
  line?: number;
  /** For a whole-document log: the record's index (messages[], steps, events; ATIF step_id). */
  index?: number;
  text: string;
}

/** The excerpt of an event. O(1) in its text beyond the first few hundred characters (see {@link describeEvent}). */
export function excerptOf(e: TrajectoryEvent): Excerpt {
  const raw = e.raw;
  return {
    event: e.id,
    ...(raw?.line ? { line: raw.line } : raw?.index !== undefined ? { index: raw.index } : {}),
    text: describeEvent(e),
  };
}

/** The excerpts of those of `events` (each may be absent) that exist, by id. */
export function excerptsOf(...events: (TrajectoryEvent | undefined)[]): Excerpt[] {
  return events.flatMap((e) => (e ? [excerptOf(e)] : []));
}

/** Characters of a text read before collapsing whitespace: enough for 200, unless it is mostly spaces. */
const PREFIX = 600;

/** The clipped text when the first {@link PREFIX} characters decide it, else undefined. */
function clipByPrefix(s: string): string | undefined {
  if (s.length <= PREFIX) return undefined;
  // Past 201 characters (no two spaces in a row) the whole text is longer than 200 too.
  const one = s.slice(0, PREFIX).replace(/\s+/g, " ").trimStart();
  return one.length > 201 ? `${one.slice(0, 197)}...` : undefined;
}

/** A text on one line (whitespace runs collapsed, trimmed), cut to 200 characters with `...`. */
function clip(s: string): string {
  const byPrefix = clipByPrefix(s);
  if (byPrefix !== undefined) return byPrefix;
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 197)}...` : one;
}

/** JSON with every string cut to {@link PREFIX} characters: the same first PREFIX characters as the whole. */
function jsonStart(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    typeof v === "string" && v.length > PREFIX ? v.slice(0, PREFIX) : v,
  );
}

/**
 * One line describing an event, ≤ 200 characters (evidence excerpts in reports): a string of its own, so an
 * excerpt kept for the whole run holds 200 characters, not the text it was cut from.
 */
export function describeEvent(e: TrajectoryEvent | undefined): string {
  return e ? own(describe(e)) : "(event not found)";
}

function describe(e: TrajectoryEvent): string {
  switch (e.type) {
    case "message":
      return clip(`${e.role}: ${e.text}`);
    case "tool_call":
      // A large input (a whole file written) is not serialised whole for 200 characters of it.
      return (
        clipByPrefix(`call ${e.name} ${jsonStart(e.input ?? {})}`) ??
        clip(`call ${e.name} ${JSON.stringify(e.input ?? {})}`)
      );
    case "tool_result":
      return clip(`${e.isError ? "error" : "result"}: ${e.output}`);
    case "command":
      return clip(`$ ${e.command} → exit ${e.exitCode ?? "killed"}`);
    case "file_change":
      return clip(`${e.kind} ${e.path}`);
    case "context":
      return clip(`context ${e.tokens ?? "?"}/${e.window ?? "?"} tokens${e.compaction ? ", compacted" : ""}`);
    case "control":
      return clip(`${e.kind}${e.detail ? `: ${e.detail}` : ""}`);
    case "usage":
      return clip(`usage in ${e.inputTokens ?? 0} / out ${e.outputTokens ?? 0} tokens`);
  }
}
