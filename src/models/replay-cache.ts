import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { SetupError } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";
import { appendJsonl, readJsonl } from "../core/jsonl.ts";

/**
 * Record/replay cache of model calls (issue 3 §1; DESIGN.md "record/replay"): the hash of a request (model,
 * role, messages, schema, settings — never keys) maps to its response, appended to a JSONL file the moment
 * it is received. With `replay`, a rerun reproduces a campaign without calling any model; a request missing
 * from the cache is an error, not a silent live call.
 */

export const CachedCall = z.object({
  key: z.string().describe("sha256 of the canonical request."),
  model: z.string(),
  role: z.string(),
  response: z.unknown().describe("The response as the client returned it."),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
});
export type CachedCall = z.infer<typeof CachedCall>;

/** Canonical JSON (object keys sorted), so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** Key of a request: sha256 of its canonical JSON. */
export function requestKey(request: unknown): string {
  return sha256(canonicalJson(request));
}

/** A cache file of model calls. */
export class ReplayCache {
  private readonly entries = new Map<string, CachedCall>();

  /**
   * @param file the JSONL cache file (created on first record)
   * @param replay when true, {@link lookup} misses throw instead of allowing a live call
   * @throws InputError for a malformed cache line
   */
  constructor(
    readonly file: string,
    readonly replay = false,
  ) {
    if (existsSync(file))
      for (const e of readJsonl(file, CachedCall, { repairTornTail: true })) this.entries.set(e.key, e);
  }

  /**
   * The cached call for `request`, or undefined (a live call may follow).
   * @throws SetupError in replay mode when the request was never recorded
   */
  lookup(request: unknown): CachedCall | undefined {
    const hit = this.entries.get(requestKey(request));
    if (!hit && this.replay)
      throw new SetupError(
        `--replay: no recorded response for this request in ${this.file}`,
        "run once without --replay to record it (the request changed since the recording)",
      );
    return hit;
  }

  /** Record a live call (appended to the file at once). */
  record(request: unknown, call: Omit<CachedCall, "key">): CachedCall {
    const entry = { key: requestKey(request), ...call };
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendJsonl(this.file, entry);
    this.entries.set(entry.key, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
