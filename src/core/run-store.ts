import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { isErrnoCode, SetupError } from "./errors.ts";
import { newRunId } from "./ids.ts";
import { appendJsonl, type ReadJsonlOptions, readJsonlIfExists } from "./jsonl.ts";
import { makeDirectory } from "./paths.ts";

/**
 * The run store: `<base>/runs/<run-id>/`, one append-only JSONL file per stage (e.g. `results.jsonl`), plus
 * `run.json` (the run's options, so `--resume` reuses them) and the reports. Each record is appended and
 * flushed the moment it exists, so a crash loses at most the record being written; {@link RunStore.read}
 * with `repairTornTail` drops a line torn by a kill -9 so the unfinished unit is simply redone.
 */
export class RunStore {
  private constructor(
    /** Run id, e.g. `20261130-084512-a3f9`. */
    readonly runId: string,
    /** Absolute path of the run directory. */
    readonly dir: string,
  ) {}

  /** Default base directory: `.gauntlet` under the current directory. */
  static defaultBase(): string {
    return path.resolve(".gauntlet");
  }

  /** Create a new run directory and write `run.json` with `meta`. */
  static create(base: string, meta: unknown, runId = newRunId()): RunStore {
    const dir = path.join(base, "runs", runId);
    makeDirectory(path.dirname(dir));
    mkdirSync(dir); // Not recursive: two runs can never share a directory (EEXIST instead).
    const store = new RunStore(runId, dir);
    store.writeJson("run.json", meta);
    return store;
  }

  /**
   * Open an existing run.
   * @throws SetupError when it does not exist (the hint lists the latest runs)
   */
  static open(base: string, runId: string): RunStore {
    const dir = path.join(base, "runs", runId);
    if (!existsSync(path.join(dir, "run.json"))) {
      const runs = existsSync(path.join(base, "runs"))
        ? readdirSync(path.join(base, "runs")).sort().slice(-3)
        : [];
      throw new SetupError(
        `no run "${runId}" in ${path.join(base, "runs")}`,
        runs.length
          ? `recent runs: ${runs.join(", ")}`
          : "start a run first; its id is printed when it starts",
      );
    }
    return new RunStore(runId, dir);
  }

  /**
   * Take the run's lock (`lock` file holding our pid), so two processes never write the same run at once
   * (e.g. two `--resume` of one run). A lock left by a process that no longer exists is taken over.
   * @returns a function that releases it
   * @throws SetupError when a live process holds it
   */
  lock(): () => void {
    const file = this.file("lock");
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(file, String(process.pid), { flag: "wx" });
        return () => rmSync(file, { force: true });
      } catch (error) {
        if (!isErrnoCode(error, "EEXIST")) throw error;
        const holder = Number(readFileSync(file, "utf8").trim());
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder))
          throw new SetupError(
            `run ${this.runId} is in use by process ${holder}`,
            "wait for it to finish (or stop it), then resume",
          );
        rmSync(file, { force: true });
      }
    }
    throw new SetupError(`could not lock run ${this.runId}`, "try again");
  }

  /** Path of a file in the run directory. */
  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Append one record to `<stage>.jsonl` (synchronously, durable on return). */
  append(stage: string, record: unknown): void {
    appendJsonl(this.file(`${stage}.jsonl`), record);
  }

  /** Read `<stage>.jsonl` (empty when absent); torn tail lines are repaired, other bad lines throw InputError. */
  read<T extends z.ZodType>(
    stage: string,
    schema: T,
    options: ReadJsonlOptions = { repairTornTail: true },
  ): z.output<T>[] {
    return readJsonlIfExists(this.file(`${stage}.jsonl`), schema, options);
  }

  writeJson(name: string, value: unknown): void {
    writeFileSync(this.file(name), `${JSON.stringify(value, null, 2)}\n`);
  }

  readJson(name: string): unknown {
    return JSON.parse(readFileSync(this.file(name), "utf8"));
  }

  writeText(name: string, text: string): void {
    mkdirSync(path.dirname(this.file(name)), { recursive: true });
    writeFileSync(this.file(name), text);
  }
}

/** Whether a process with this pid exists (signal 0 probes without sending anything). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrnoCode(error, "EPERM");
  }
}
