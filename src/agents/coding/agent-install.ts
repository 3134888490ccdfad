import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SetupError } from "../../core/errors.ts";
import { gauntletCacheDir } from "../../workspace/npm-source.ts";
import { runProcess } from "../../workspace/process.ts";
import { claudeCode } from "./claude-code.ts";
import type { CliAgentDefinition } from "./cli-agent.ts";
import { codex } from "./codex.ts";
import { geminiCli } from "./gemini-cli.ts";
import { opencode } from "./opencode.ts";
import { qwenCode } from "./qwen-code.ts";

/**
 * Installing the real agent CLIs at their pinned versions into Gauntlet's cache (issue 3 §3: under Node 20,
 * npm silently picks old releases unless pinned; agent-clis.md §1). Each agent lives in
 * `<cache>/agents/<name>-<version>/`, outside any repository, and is installed atomically (a temp dir renamed
 * into place once npm succeeds), so a killed install leaves nothing half-done.
 */

/** The real agent CLIs Gauntlet drives, by adapter name. */
export const CLI_AGENTS: Record<string, CliAgentDefinition> = Object.fromEntries(
  [claudeCode, codex, geminiCli, opencode, qwenCode].map((d) => [d.name, d]),
);

/** Directory of an agent's pinned install. */
export function agentInstallDir(def: CliAgentDefinition, cacheDir?: string): string {
  return path.join(gauntletCacheDir(cacheDir), "agents", `${def.name}-${def.version}`);
}

/** The agent program of a pinned install, or undefined when it is not installed. */
export function installedProgram(def: CliAgentDefinition, cacheDir?: string): string | undefined {
  const dir = agentInstallDir(def, cacheDir);
  const program = path.join(dir, "node_modules", ".bin", def.bin);
  return existsSync(path.join(dir, "installed.json")) && existsSync(program) ? program : undefined;
}

/**
 * Install an agent at its pinned version (no-op when already installed).
 * @returns the program path and whether it was already there
 * @throws SetupError naming the package when npm fails (with the end of npm's output)
 */
export async function installAgent(
  def: CliAgentDefinition,
  options: { cacheDir?: string; log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<{ program: string; already: boolean }> {
  const existing = installedProgram(def, options.cacheDir);
  if (existing) return { program: existing, already: true };
  const dir = agentInstallDir(def, options.cacheDir);
  const temp = `${dir}.partial-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  writeFileSync(
    path.join(temp, "package.json"),
    `${JSON.stringify({ private: true, name: "gauntlet-agent" })}\n`,
  );
  options.log?.(`installing ${def.npmPackage}@${def.version} …`);
  const spec = `${def.npmPackage}@${def.version}`;
  const result = await runProcess(
    {
      file: "npm",
      args: ["install", "--no-audit", "--no-fund", "--loglevel=error", "--engine-strict=false", spec],
    },
    {
      cwd: temp,
      env: { ...process.env } as Record<string, string>,
      timeoutMs: 15 * 60_000,
      signal: options.signal,
    },
  );
  if (result.exitCode !== 0) {
    rmSync(temp, { recursive: true, force: true });
    const tail = `${result.stderr}\n${result.stdout}`.trim().split("\n").slice(-5).join("\n");
    throw new SetupError(
      `could not install ${spec} (npm exited with ${result.exitCode ?? result.signal})${tail ? `:\n${tail}` : ""}`,
      "check that the npm registry is reachable, then run `gauntlet agents install` again",
    );
  }
  if (!existsSync(path.join(temp, "node_modules", ".bin", def.bin))) {
    rmSync(temp, { recursive: true, force: true });
    throw new SetupError(
      `${spec} installed, but it has no program "${def.bin}" in node_modules/.bin`,
      "this release may have renamed its program; set `program` for the agent in gauntlet.yaml",
    );
  }
  writeFileSync(
    path.join(temp, "installed.json"),
    `${JSON.stringify({ package: spec, at: new Date().toISOString() })}\n`,
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  renameSync(temp, dir);
  return { program: path.join(dir, "node_modules", ".bin", def.bin), already: false };
}
