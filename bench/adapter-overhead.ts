/**
 * Benchmark (issue 3): Gauntlet's added wall time per step for each real agent CLI, as a ratio of the step
 * time, on the scripted model server (target ≤ 5%).
 *
 * For each agent, a one-step case ("run `true`, then answer") runs ROUNDS times through Gauntlet's adapter,
 * without and with the bubblewrap sandbox. Overhead of a step = (step wall time − the agent process's own
 * wall time, spawn to exit) / step wall time: the set-up, stream parsing, session-log reading, redaction and
 * process-tree clean-up Gauntlet adds, measured inside the same step, so run-to-run noise of the agent itself
 * (seconds, here) does not enter it; the bwrap column also includes bubblewrap's start-up inside the process
 * time. As a cross-check, the same argv is spawned directly with `child_process.spawn` (the baseline column):
 * its median should be close to the adapter's process time. Medians over rounds. Run: `npm run bench`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { agentInstallDir, CLI_AGENTS, installAgent } from "../src/agents/coding/agent-install.ts";
import { cliAgentAdapter } from "../src/agents/coding/cli-agent.ts";
import { ModelScript } from "../src/models/scripted-server/script.ts";
import { startScriptedModelServer } from "../src/models/scripted-server/server.ts";
import { detectBwrap, makeSandbox } from "../src/workspace/sandbox.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ONLY = process.env.BENCH_AGENTS?.split(",");
const script = ModelScript.parse({ steps: [{ when: ".", do: [{ shell: "true" }], say: "Done." }] });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A fresh workspace root with `repo/`, `home/`, `tmp/` (as a case gets). */
function freshRoot(base: string): {
  root: string;
  dir: string;
  env: Record<string, string> & { HOME: string };
} {
  const root = mkdtempSync(path.join(base, "ws-"));
  const dir = path.join(root, "repo");
  for (const d of ["repo", "home", "tmp"]) mkdirSync(path.join(root, d));
  writeFileSync(path.join(dir, "README.md"), "bench\n");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: path.join(root, "home"),
    TMPDIR: path.join(root, "tmp"),
    LANG: "C.UTF-8",
  };
  return { root, dir, env };
}

function spawnTimed(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${file} exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const server = await startScriptedModelServer({ script });
  const base = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-adapter-"));
  const bwrap = detectBwrap();
  const rows: string[] = [];
  try {
    for (const def of Object.values(CLI_AGENTS)) {
      if (ONLY && !ONLY.includes(def.name)) continue;
      const { program } = await installAgent(def);
      const endpoint = {
        baseUrl: `${server.url}${def.basePath}`,
        apiKey: "bench-key",
        model: def.defaultModel,
      };
      const options = { name: def.name, program, endpoint, readable: [agentInstallDir(def)] };
      const direct: number[] = [];
      const runs = {
        plain: [] as { total: number; process: number }[],
        bwrap: [] as { total: number; process: number }[],
      };
      for (let round = 0; round < ROUNDS; round++) {
        {
          const ws = freshRoot(base);
          const env = { ...ws.env, ...def.prepare({ workspace: ws.dir, home: ws.env.HOME, endpoint }) };
          const args = def.args({
            prompt: "bench step",
            sessionId: def.preassignsSessionId ? crypto.randomUUID() : undefined,
            resume: false,
            model: endpoint.model,
            extraArgs: [],
          });
          direct.push(await spawnTimed(program, args, ws.dir, env));
        }
        for (const kind of ["plain", "bwrap"] as const) {
          if (kind === "bwrap" && !bwrap) continue;
          const ws = freshRoot(base);
          const sandbox = kind === "bwrap" ? makeSandbox(bwrap!, ws.root, []) : undefined;
          const session = await cliAgentAdapter(def, options).startSession({
            dir: ws.dir,
            env: ws.env,
            sandbox,
          });
          const outcome = await session.runStep({ stepId: "S01", prompt: "bench step", timeoutMs: 120_000 });
          await session.close();
          if (outcome.status !== "ok") throw new Error(`${def.name}: ${outcome.error}`);
          runs[kind].push({ total: outcome.durationMs, process: outcome.processMs ?? outcome.durationMs });
        }
        process.stderr.write(`${def.name} round ${round + 1}/${ROUNDS}\n`);
      }
      const column = (xs: { total: number; process: number }[]) =>
        xs.length
          ? `step ${median(xs.map((x) => x.total))
              .toFixed(0)
              .padStart(6)} ms  added ${median(xs.map((x) => x.total - x.process))
              .toFixed(0)
              .padStart(
                4,
              )} ms = ${(median(xs.map((x) => (x.total - x.process) / x.total)) * 100).toFixed(1).padStart(4)}%`
          : "(no bwrap)";
      const bwrapDelta = runs.bwrap.length
        ? `   bwrap start-up ≈ ${(median(runs.bwrap.map((x) => x.process)) - median(runs.plain.map((x) => x.process))).toFixed(0)} ms (across runs: noisy)`
        : "";
      rows.push(
        `${def.name.padEnd(12)} ${column(runs.plain)}   with bwrap: ${column(runs.bwrap)}   direct spawn ${median(direct).toFixed(0).padStart(6)} ms${bwrapDelta}`,
      );
    }
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
  process.stdout.write(
    `adapter overhead per step, median of ${ROUNDS} rounds (target ≤ 5%):\n${rows.join("\n")}\n`,
  );
}

await main();
