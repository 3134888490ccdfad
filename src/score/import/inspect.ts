import { closeSync, openSync, readSync } from "node:fs";
import yauzl from "yauzl";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { mapInspectSample } from "./inspect-sample.ts";
import { readJsonValues } from "./read-json-values.ts";

/**
 * Inspect AI eval log files (trajectory-formats.md §1.10): the `.json` log (one `EvalLog` document;
 * `samples[]` stream one at a time) and the `.eval` zip (`header.json`, or `_journal/start.json` while the
 * eval runs, then each `samples/*.json` entry streamed from the zip with `yauzl`). One sample is held at a
 * time; each becomes a trajectory (inspect-sample.ts), whose agent is the eval's solver and whose models
 * start with the eval's model.
 */

/** Agent name from the eval spec: its solver, else the plan's solvers, else `inspect`. */
function agentOf(spec: Json, plan: Json): string {
  const solvers = arr(plan.steps)
    .map((s) => str(obj(s).solver))
    .filter(Boolean);
  return str(spec.solver) || solvers.join("+") || "inspect";
}

const HINT_JSON =
  "an Inspect log is one JSON object (EvalLog) with `eval` and `samples`; is the file complete?";

/** The samples of an `.eval` zip, one at a time, after its header (`eval`, `plan`). */
async function* evalZipSamples(file: string, header: Json): AsyncGenerator<Json> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error;
    throw new InputError(
      { file },
      `not a readable .eval zip (${(error as Error).message})`,
      "re-export it with `inspect log convert --to json`",
    );
  }
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
    const head = entries.get("header.json") ?? entries.get("_journal/start.json");
    if (!head)
      throw new InputError(
        { file },
        "a zip without header.json or _journal/start.json",
        "is it an Inspect .eval log?",
      );
    for await (const { path: p, value } of readJsonValues(
      await zip.openReadStreamPromise(head),
      (p) => p.length === 1,
      `${file}!${head.fileName}`,
    ))
      header[String(p[0])] = value;
    for (const [name, entry] of entries) {
      if (!/^samples\/[^/]+\.json$/.test(name)) continue;
      for await (const { value } of readJsonValues(
        await zip.openReadStreamPromise(entry),
        (p) => p.length === 0,
        `${file}!${name}`,
      ))
        yield obj(value);
    }
  } finally {
    zip.close();
  }
}

/** True when the file starts like a zip (`PK\x03\x04`). */
function isZip(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    closeSync(fd);
  }
}

/**
 * Import every sample of one Inspect AI log (`.json` or `.eval`; trajectory-formats.md §1.10) as a
 * trajectory.
 * @param format `inspect-json` or `inspect-eval` (recorded on each trajectory)
 * @throws InputError naming the file when it is not valid JSON, not an Inspect log (no `eval` spec), or an
 *   unreadable zip
 * @throws the file system's error for an unreadable file
 */
export async function importInspect(file: string, format: string): Promise<ImportedTrajectory[]> {
  const header: Json = {};
  const out: ImportedTrajectory[] = [];
  if (isZip(file)) {
    for await (const sample of evalZipSamples(file, header)) out.push(mapInspectSample(file, sample));
  } else {
    for await (const { path: p, value } of readJsonValues(
      file,
      (p) => (p.length === 2 && p[0] === "samples") || (p.length === 1 && p[0] !== "samples"),
      file,
      HINT_JSON,
    )) {
      if (p[0] === "samples") out.push(mapInspectSample(file, obj(value)));
      else if (typeof p[0] === "string") header[p[0]] = value;
      else break;
    }
  }
  const spec = obj(header.eval);
  if (!Object.keys(spec).length)
    throw new InputError({ file }, "not an Inspect eval log (no `eval` spec)", HINT_JSON);
  const agent = agentOf(spec, obj(header.plan));
  for (const t of out) {
    t.format = format;
    t.agent = agent;
    if (str(spec.model) && !t.models.includes(str(spec.model))) t.models.unshift(str(spec.model));
  }
  return out;
}
