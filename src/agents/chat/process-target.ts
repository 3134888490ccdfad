import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { killProcessTree } from "../../workspace/process.ts";
import { type ChatReply, type ChatTarget, TargetError } from "./target.ts";

/**
 * A local program as a chat target (issue 5 §1): it reads one user turn per line on stdin and writes one
 * reply per line on stdout. A fresh conversation is a fresh process; a turn that gets no reply within the
 * time limit, or a program that exits, kills the whole process tree and fails the turn. Newlines inside a
 * turn are sent as spaces (one line per turn is the protocol). stderr is kept (last 4 KiB) for errors.
 */
export function processChatTarget(
  argv: readonly string[],
  options: { name?: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): ChatTarget {
  const [file, ...args] = argv;
  if (!file) throw new TargetError(options.name ?? "process", "no program given");
  const name = options.name ?? `process:${file}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let child: ChildProcessWithoutNullStreams | undefined;
  let lines: Interface | undefined;
  let queue: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let stderr = "";
  let exited: string | undefined;

  const stop = () => {
    const c = child;
    child = undefined;
    if (c?.pid && c.exitCode === null) killProcessTree(c.pid);
    lines?.close();
    lines = undefined;
    queue = [];
    waiting = undefined;
  };
  const start = () => {
    stop();
    stderr = "";
    exited = undefined;
    const c = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // its own process group, so the whole tree can be killed
    });
    // Events of a process that was replaced (reset, killed) must not touch the current one.
    c.stderr.on("data", (d: Buffer) => {
      if (child === c) stderr = (stderr + d.toString("utf8")).slice(-4096);
    });
    c.on("error", (e) => {
      if (child !== c) return;
      exited = `cannot start ${file} (${e.message})`;
      waiting?.(undefined);
    });
    c.on("close", (code, signal) => {
      if (child !== c) return;
      exited = `program exited (${signal ?? `code ${code}`})${stderr.trim() ? `: ${stderr.trim().split("\n").at(-1)}` : ""}`;
      waiting?.(undefined);
    });
    c.stdin.on("error", () => {}); // a program that exits mid-write: reported through `exit`
    lines = createInterface({ input: c.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => {
      if (child !== c) return;
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w(line);
      } else queue.push(line);
    });
    child = c;
  };

  return {
    name,
    async reset() {
      start();
    },
    async send(text: string): Promise<ChatReply> {
      if (!child) start();
      const started = performance.now();
      const c = child as ChildProcessWithoutNullStreams;
      if (exited) throw new TargetError(name, exited);
      c.stdin.write(`${text.replace(/\r?\n/g, " ")}\n`);
      const queued = queue.shift();
      const line =
        queued ??
        (await new Promise<string | undefined>((resolve) => {
          const timer = setTimeout(() => {
            waiting = undefined;
            resolve(undefined);
          }, timeoutMs);
          waiting = (l) => {
            clearTimeout(timer);
            resolve(l);
          };
        }));
      if (line === undefined) {
        const why = exited ?? `no reply line within ${timeoutMs} ms`;
        stop();
        throw new TargetError(name, why);
      }
      return { text: line, ms: performance.now() - started };
    },
    async close() {
      stop();
    },
  };
}
