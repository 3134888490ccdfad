import type { TrajectoryEvent } from "../../core/trajectory.ts";

/**
 * A trajectory read from an agent's own log (score suite, ProcCtrlBench §3.1: standardise heterogeneous
 * logs): standard events with provenance, plus what could not be read.
 */
export interface ImportedTrajectory {
  /** The agent's session id, or the file name when the log has none. */
  id: string;
  /** Format it was read as, e.g. `claude-code-jsonl`. */
  format: string;
  /** Source file. */
  file: string;
  /** Agent that produced it, e.g. `claude-code`. */
  agent: string;
  /** Model(s) named in the log. */
  models: string[];
  /** Benchmark task instance the run was for, when the log names one (e.g. a SWE-bench `instance_id`). */
  instanceId?: string;
  /** Standard events in order; each carries `raw: {file, line}`. */
  events: TrajectoryEvent[];
  /** Lines that could not be read or mapped, with why (counted and reported, never silently dropped). */
  skipped: { line: number; reason: string }[];
  /** Lines read. */
  lines: number;
  /**
   * Records read but deliberately not mapped to events (checkpoints, progress, session metadata), counted
   * by reason, so nothing is dropped unaccounted for; each with its first line (or record index).
   */
  unmapped?: UnmappedRecords[];
}

/** One reason records were not mapped, how many, and where the first one is. */
export interface UnmappedRecords {
  reason: string;
  count: number;
  /** 1-based line of the first such record (record index for a whole-document log). */
  line: number;
}
