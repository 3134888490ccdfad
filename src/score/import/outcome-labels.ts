import { closeSync, openSync, readSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../../core/errors.ts";
import { arr, obj, str } from "../../core/json-view.ts";
import type { ImportedTrajectory } from "./imported.ts";

/**
 * Outcome labels: whether a benchmark run solved its task, read from SWE-bench evaluation reports, so a
 * scorecard can tell a process that looked fine but failed from one that succeeded fragilely
 * (ProcCtrlBench App. C.4, fragile success). Reports are labels, never trajectories: detection refuses them
 * ({@link isOutcomeReport}).
 *
 * Report shapes read (all JSON):
 * - a per-instance `report.json` as the SWE-bench harness writes it, `{"<instance_id>": {resolved, …}}`;
 * - the same unwrapped, `{resolved, tests_status, patch_successfully_applied, …}` (as in the mini-swe-agent
 *   corpus, `eval-reports/`), whose instance id is taken from the file name (see
 *   {@link instanceIdFromFileName}) or, for a file named `report.json`, from its folder
 *   (`logs/<instance_id>/report.json`);
 * - a run summary `{resolved_ids: […], unresolved_ids: […], error_ids: […], empty_patch_ids: […]}`:
 *   resolved ids are `true`, the others `false`.
 */

/** One outcome label. */
export interface OutcomeLabel {
  /** Benchmark instance id, e.g. `django__django-10999`. */
  instanceId: string;
  /** True when the evaluation resolved the instance (its FAIL_TO_PASS and PASS_TO_PASS tests pass). */
  resolved: boolean;
  /** Report file the label was read from. */
  file: string;
}

const HEAD_BYTES = 64 * 1024;

/**
 * True when JSON text (or its first 64 KiB) looks like a SWE-bench evaluation report rather than a
 * trajectory: a `"resolved": true|false` key next to `tests_status` / `patch_successfully_applied` /
 * `patch_is_None`, or a run summary with `resolved_ids`. Keys are matched unescaped, so a report quoted
 * inside a trajectory's text does not count.
 */
export function looksLikeOutcomeReport(text: string): boolean {
  if (!/^\s*\{/.test(text)) return false;
  if (/"resolved_ids"\s*:\s*\[/.test(text) && /"(?:unresolved|completed|submitted)_ids"\s*:/.test(text))
    return true;
  return (
    /"resolved"\s*:\s*(?:true|false)/.test(text) &&
    /"(?:tests_status|patch_successfully_applied|patch_is_None|patch_exists)"\s*:/.test(text)
  );
}

/**
 * True when a file is a SWE-bench evaluation report (see {@link looksLikeOutcomeReport}); reads at most its
 * first 64 KiB. The import CLI skips such files instead of importing them as trajectories.
 * @throws the file system's error for an unreadable file
 */
export function isOutcomeReport(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return looksLikeOutcomeReport(buffer.subarray(0, n).toString("utf8"));
  } finally {
    closeSync(fd);
  }
}

/** A SWE-bench instance id shape: `<owner>__<repo>-<number>` (e.g. `pytest-dev__pytest-7205`). */
const INSTANCE = /^[A-Za-z0-9][\w.-]*__[\w.-]+-\d+$/;

/**
 * The SWE-bench instance id a file name carries, if any: the name without its extensions (`.traj.json`,
 * `.report.json`, `.traj`, `.json`), keeping its last two `__`-separated parts when they read
 * `<owner>__<repo>-<number>` (so a source prefix such as `gruckion__` is dropped).
 * @example instanceIdFromFileName("mini-swe-agent/gruckion__django__django-10999.traj.json") // "django__django-10999"
 */
export function instanceIdFromFileName(file: string): string | undefined {
  const stem = path.basename(file).replace(/(?:\.(?:traj|report|events|eval))?\.(?:json|jsonl|traj)$/, "");
  const parts = stem.split("__");
  const candidate = parts.slice(-2).join("__");
  return parts.length >= 2 && INSTANCE.test(candidate) ? candidate : undefined;
}

/**
 * The benchmark instance an imported trajectory ran: the id its log names (`instanceId`, e.g. a
 * mini-swe-agent `instance_id` or a SWE-agent problem statement id), else its session id when that has the
 * SWE-bench shape, else the instance id in its file name.
 */
export function instanceIdOf(t: Pick<ImportedTrajectory, "id" | "file" | "instanceId">): string | undefined {
  if (t.instanceId) return t.instanceId;
  if (INSTANCE.test(t.id)) return t.id;
  return instanceIdFromFileName(t.file);
}

/**
 * Read one evaluation report's labels (shapes in the module comment).
 * @throws InputError naming the file when it is not JSON or not a report, or when an unwrapped report's
 *   instance id cannot be told from its name
 * @throws the file system's error for an unreadable file
 */
export async function readOutcomeReport(file: string): Promise<OutcomeLabel[]> {
  const text = await readFile(file, "utf8");
  let doc: Record<string, unknown>;
  try {
    doc = obj(JSON.parse(text) as unknown);
  } catch (error) {
    throw new InputError(
      { file },
      `not JSON (${(error as Error).message.split("\n")[0]})`,
      "pass SWE-bench report.json files",
    );
  }
  if (Array.isArray(doc.resolved_ids)) {
    const resolved = new Set(arr(doc.resolved_ids).map(String));
    const ids = [
      ...resolved,
      ...["unresolved_ids", "error_ids", "empty_patch_ids"].flatMap((k) => arr(doc[k]).map(String)),
    ];
    return [...new Set(ids)].map((instanceId) => ({ instanceId, resolved: resolved.has(instanceId), file }));
  }
  if (typeof doc.resolved === "boolean") {
    const instanceId =
      str(doc.instance_id) ||
      instanceIdFromFileName(file) ||
      (path.basename(file) === "report.json" ? path.basename(path.dirname(file)) : "");
    if (!instanceId)
      throw new InputError(
        { file },
        "report names no instance id",
        "name it <instance_id>.report.json or keep it in logs/<instance_id>/report.json",
      );
    return [{ instanceId, resolved: doc.resolved, file }];
  }
  const labels = Object.entries(doc)
    .filter(([, v]) => typeof obj(v).resolved === "boolean")
    .map(([instanceId, v]) => ({ instanceId, resolved: obj(v).resolved === true, file }));
  if (!labels.length)
    throw new InputError(
      { file },
      "not a SWE-bench evaluation report (no `resolved` field)",
      "pass report.json files",
    );
  return labels;
}

/**
 * Load outcome labels from report files and folders (folders are searched recursively for `.json` files
 * that {@link isOutcomeReport}; other files there are ignored). Returns instance id → resolved.
 * @param sources a folder, a report file, or a list of them
 * @throws InputError when a file given by name is not a report, or two reports disagree on an instance
 * @throws the file system's error for a missing path
 */
export async function loadOutcomeLabels(sources: string | readonly string[]): Promise<Map<string, boolean>> {
  const labels = new Map<string, OutcomeLabel>();
  const files: string[] = [];
  for (const source of typeof sources === "string" ? [sources] : sources) {
    if ((await stat(source)).isDirectory()) files.push(...(await reportsUnder(source)));
    else files.push(source);
  }
  for (const file of files)
    for (const label of await readOutcomeReport(file)) {
      const seen = labels.get(label.instanceId);
      if (seen && seen.resolved !== label.resolved)
        throw new InputError(
          { file },
          `says ${label.instanceId} is ${label.resolved ? "resolved" : "unresolved"}, but ${seen.file} says the opposite`,
          "load the reports of one evaluation run at a time",
        );
      labels.set(label.instanceId, label);
    }
  return new Map([...labels].map(([id, label]) => [id, label.resolved]));
}

/** Report files under a folder, recursively, in name order. */
async function reportsUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await reportsUnder(full)));
    else if (entry.isFile() && entry.name.endsWith(".json") && isOutcomeReport(full)) out.push(full);
  }
  return out;
}
