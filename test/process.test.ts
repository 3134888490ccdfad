import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runProcess } from "../src/workspace/process.ts";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const cwd = tmpdir();

/** Pids of live (non-zombie) processes whose command line contains `marker`, read from /proc. */
function aliveWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) out.push(Number(name));
    } catch {
      // Ended while we looked.
    }
  }
  return out;
}

/** True when `pid` is a live, non-zombie process. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/**
 * A shell script whose tree has, each running `sleep 300` renamed to `<marker>-<role>` (so /proc shows it):
 * a job backgrounded with `&`, a grandchild under a child shell, a child that left the process group with
 * `setsid`, an orphan double-forked out of the tree into its own session, and the leader itself.
 */
function processTree(marker: string): string {
  return [
    `exec -a ${marker}-bg sleep 300 &`,
    `bash -c 'exec -a ${marker}-grandchild sleep 300 & wait' &`,
    `setsid bash -c 'exec -a ${marker}-setsid sleep 300' &`,
    `( setsid bash -c 'exec -a ${marker}-orphan sleep 300' & )`,
    `exec -a ${marker}-leader sleep 300`,
  ].join("\n");
}
const TREE_ROLES = ["bg", "grandchild", "setsid", "orphan", "leader"];

/** Resolves once every role of {@link processTree} is running under its own name. */
async function treeStarted(marker: string): Promise<void> {
  await vi.waitFor(
    () => {
      const names = aliveWith(marker).map(
        (pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0],
      );
      for (const role of TREE_ROLES) expect(names).toContain(`${marker}-${role}`);
    },
    { timeout: 5_000, interval: 50 },
  );
}

describe("runProcess", () => {
  it("captures stdout, stderr and a non-zero exit code without throwing", async () => {
    const result = await runProcess({ shell: "echo out; echo err >&2; exit 3" }, { cwd, env });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: "out\n",
      stderr: "err\n",
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("runs a file with argv verbatim, no shell", async () => {
    const result = await runProcess(
      { file: process.execPath, args: ["-e", "console.log(process.argv[1])", `it's "$HOME" \`x\``] },
      { cwd, env },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`it's "$HOME" \`x\`\n`);
  });

  it("closes stdin, or feeds it the given input", async () => {
    expect((await runProcess({ shell: "cat; echo rc=$?" }, { cwd, env, timeoutMs: 5_000 })).stdout).toBe(
      "rc=0\n",
    );
    expect((await runProcess({ shell: "cat" }, { cwd, env, input: "hello" })).stdout).toBe("hello");
  });

  it("runs shell commands without the user's ~/.bashrc, also when fed input", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "gauntlet-home-"));
    writeFileSync(path.join(home, ".bashrc"), "echo FROM-BASHRC\n");
    try {
      const result = await runProcess({ shell: "cat" }, { cwd, env: { ...env, HOME: home }, input: "hello" });
      expect(result.stdout).toBe("hello");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("keeps the first maxOutputBytes of output and marks how much was cut", async () => {
    const result = await runProcess(
      { shell: "head -c 5000 /dev/zero | tr '\\0' x; head -c 300 /dev/zero | tr '\\0' y >&2" },
      { cwd, env, maxOutputBytes: 1000 },
    );
    expect(result.stdout).toBe(`${"x".repeat(1000)}\n[… 4000 bytes truncated]`);
    expect(result.stderr).toBe("y".repeat(300));
  });

  it("streams stdout to onStdout in whole UTF-8 characters", async () => {
    const chunks: string[] = [];
    await runProcess(
      { shell: "printf 'caf\\xc3'; sleep 0.2; printf '\\xa9!'" },
      { cwd, env, onStdout: (chunk) => chunks.push(chunk) },
    );
    expect(chunks.join("")).toBe("café!");
  });

  it("on timeout kills the whole tree: background jobs, grandchildren, setsid escapees, orphans", async () => {
    const marker = `gauntlet-timeout-${randomUUID()}`;
    const running = runProcess({ shell: processTree(marker) }, { cwd, env, timeoutMs: 2_000 });
    await treeStarted(marker);
    const result = await running;
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: "SIGKILL" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aliveWith(marker)).toEqual([]);
  });

  it("on abort kills the whole tree and reports aborted, not timed out", async () => {
    const marker = `gauntlet-abort-${randomUUID()}`;
    const controller = new AbortController();
    const running = runProcess({ shell: processTree(marker) }, { cwd, env, signal: controller.signal });
    await treeStarted(marker);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ timedOut: false, aborted: true, exitCode: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aliveWith(marker)).toEqual([]);
  });

  it("with an already aborted signal ends at once", async () => {
    const result = await runProcess({ shell: "sleep 30" }, { cwd, env, signal: AbortSignal.abort() });
    expect(result.aborted).toBe(true);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it("kills what a command left running in the background when it exits normally", async () => {
    const marker = `gauntlet-leftover-${randomUUID()}`;
    const script = [
      `exec -a ${marker}-bg sleep 300 & echo $!`,
      `setsid bash -c 'exec -a ${marker}-setsid sleep 300' & echo $!`,
      "sleep 0.3",
    ].join("\n");
    const result = await runProcess({ shell: script }, { cwd, env });
    expect(result.exitCode).toBe(0);
    const pids = result.stdout.trim().split("\n").map(Number);
    expect(pids).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pids.filter(isAlive)).toEqual([]);
    expect(aliveWith(marker)).toEqual([]);
  });

  it("throws the spawn error (ENOENT) for a missing program", async () => {
    await expect(
      runProcess({ file: "gauntlet-no-such-program", args: [] }, { cwd, env }),
    ).rejects.toMatchObject({ code: "ENOENT" });
  });
});
