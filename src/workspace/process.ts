import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { execa } from "execa";

/**
 * Running processes safely: each command is the leader of its own process group, and a timeout or abort
 * kills the whole group (plus any descendant that left it), so nothing the agent started outlives its step.
 */

/** What to run: a shell command line (`bash -c`, no rc or profile files read) or a file with argv. */
export type CommandSpec = { shell: string } | { file: string; args: readonly string[] };

/** Options of {@link runProcess}. Durations in ms, sizes in bytes. */
export interface RunOptions {
  cwd: string;
  /** Full environment for the child (not merged with ours: callers pass a scrubbed env). */
  env: Record<string, string | undefined>;
  /** Kill the process tree after this many ms (0 or undefined = no limit). */
  timeoutMs?: number;
  /** Kill the process tree when this aborts. */
  signal?: AbortSignal;
  /** Max bytes kept of stdout and of stderr each; the rest is dropped with a marker. Default 64 KiB. */
  maxOutputBytes?: number;
  /** Text written to stdin; stdin is closed either way (agents must never wait on a prompt). */
  input?: string;
  /** Called with each stdout chunk as it arrives (for streaming parsers), whole UTF-8 characters only. */
  onStdout?: (chunk: string) => void;
  /** Called with each stderr chunk as it arrives (e.g. to keep its tail past the cap). */
  onStderr?: (chunk: string) => void;
}

/** Outcome of {@link runProcess}. */
export interface RunResult {
  /** Exit code; null when the process was killed by a signal. */
  exitCode: number | null;
  /** Signal that ended it, if any. */
  signal: string | null;
  /** True when it was killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** True when it was killed because `signal` aborted. */
  aborted: boolean;
  stdout: string;
  stderr: string;
  /** Wall time, ms. */
  durationMs: number;
  /** Process id of the group leader. */
  pid: number | undefined;
}

/**
 * Run a command to completion (or until its time limit), capturing capped output.
 * Never throws for a non-zero exit; throws only when the program cannot be started at all
 * (e.g. ENOENT), as the underlying error.
 */
export async function runProcess(spec: CommandSpec, options: RunOptions): Promise<RunResult> {
  const cap = options.maxOutputBytes ?? 64 * 1024;
  // --norc: with `input`, stdin is a socket, and bash then takes itself for an ssh session and sources ~/.bashrc.
  const [file, args] =
    "shell" in spec ? ["bash", ["--norc", "--noprofile", "-c", spec.shell]] : [spec.file, [...spec.args]];
  const started = Date.now();
  // Every process started from here inherits this tag, so one that escapes the process group (setsid,
  // double fork) is still found and killed.
  const tag = randomUUID();
  const child = execa(file, args, {
    cwd: options.cwd,
    env: { ...options.env, [PROCESS_TAG]: tag },
    extendEnv: false,
    detached: true,
    reject: false,
    buffer: false,
    stdin: options.input === undefined ? "ignore" : "pipe",
    stripFinalNewline: false,
    cleanup: true,
  });
  const out = capture(child.stdout, cap, options.onStdout);
  const err = capture(child.stderr, cap, options.onStderr);
  if (options.input !== undefined) child.stdin?.end(options.input);

  let timedOut = false;
  let aborted = false;
  const pid = child.pid;
  const killTree = (leaderExited: boolean) => {
    // Once the leader has exited (and been reaped) its pid may belong to an unrelated process, and its
    // children were re-parented anyway: then only the group (kept alive by its members) and the tag are safe.
    if (pid !== undefined) {
      if (leaderExited) killGroup(pid);
      else killProcessTree(pid);
    }
    // Repeat while it still finds processes: one that forked between a scan and its kill is caught next pass.
    for (let pass = 0; pass < 5; pass++) if (killTagged(tag).length === 0) break;
    // Pipes held by anything we could not kill must not keep us waiting.
    setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, 200).unref();
  };
  // When the leader exits, whatever it left running in the background goes too.
  child.on("exit", () => killTree(true));
  const timer =
    options.timeoutMs && options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          killTree(false);
        }, options.timeoutMs)
      : undefined;
  const onAbort = () => {
    aborted = true;
    killTree(false);
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  let result: Awaited<typeof child>;
  try {
    result = await child;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (
    (result as { code?: string }).code === "ENOENT" ||
    (result.failed && result.exitCode === undefined && !result.signal && !timedOut && !aborted)
  ) {
    throw result.cause ?? new Error(result.message);
  }
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    aborted,
    stdout: out.text(),
    stderr: err.text(),
    durationMs: Date.now() - started,
    pid,
  };
}

function capture(
  stream: NodeJS.ReadableStream | null | undefined,
  cap: number,
  onChunk?: (s: string) => void,
) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  // A multi-byte character split across two chunks must reach `onChunk` whole, not as two U+FFFD.
  const decoder = new StringDecoder("utf8");
  stream?.on("data", (chunk: Buffer) => {
    if (onChunk) {
      const text = decoder.write(chunk);
      if (text) onChunk(text);
    }
    if (kept < cap) {
      const part = chunk.subarray(0, cap - kept);
      chunks.push(part);
      kept += part.length;
      dropped += chunk.length - part.length;
    } else dropped += chunk.length;
  });
  return {
    text: () =>
      Buffer.concat(chunks).toString("utf8") + (dropped > 0 ? `\n[… ${dropped} bytes truncated]` : ""),
  };
}

/** Environment variable carrying the tag that marks every process started by {@link runProcess}. */
export const PROCESS_TAG = "GAUNTLET_PROCESS_TAG";

/** SIGKILL every process whose environment carries `PROCESS_TAG=tag` (Linux /proc). */
export function killTagged(tag: string): number[] {
  const needle = `${PROCESS_TAG}=${tag}\0`;
  const killed: number[] = [];
  for (const pid of processTable().keys()) {
    if (pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").includes(needle)) continue;
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      // Gone, or not readable.
    }
  }
  return killed;
}

/** Parent pid of every live process, read from /proc (Linux). Empty map elsewhere. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return table;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      table.set(Number(name), ppid);
    } catch {
      // Process ended while we looked.
    }
  }
  return table;
}

/** Every descendant pid of `pid` (children, grandchildren, …), from /proc. */
export function descendantsOf(pid: number): number[] {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [p, pp] of table) children.set(pp, [...(children.get(pp) ?? []), p]);
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/**
 * SIGKILL the process group led by `pid` and every descendant of `pid` (including ones that called
 * setsid and left the group). Missing processes are ignored.
 */
export function killProcessTree(pid: number): void {
  const victims = descendantsOf(pid);
  for (const target of [-pid, pid, ...victims]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  for (const v of victims) killGroup(v);
}

/** SIGKILL the process group whose id is `pgid`; a missing group is ignored. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // Not a group leader, or gone.
  }
}

/** Pids (other than ours) whose current directory is `dir` or inside it (Linux /proc). */
export function processesInside(dir: string): number[] {
  const root = path.resolve(dir);
  const out: number[] = [];
  for (const pid of processTable().keys()) {
    if (pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(`${root}/`)) out.push(pid);
    } catch {
      // Gone or not ours to read.
    }
  }
  return out;
}

/** Kill every process whose working directory is inside `dir` (with its tree). Returns the pids killed. */
export function killProcessesInside(dir: string): number[] {
  const pids = processesInside(dir);
  for (const pid of pids) killProcessTree(pid);
  return pids;
}
