import type { Command } from "commander";
import {
  agentInstallDir,
  CLI_AGENTS,
  installAgent,
  installedProgram,
} from "../agents/coding/agent-install.ts";
import { InputError } from "../core/errors.ts";
import { textTable } from "../fuzz/report.ts";

/**
 * `gauntlet agents list|install`: the real agent CLIs Gauntlet drives, at their pinned versions, installed
 * into Gauntlet's cache (never into the user's project).
 */
export function registerAgentsCommands(program: Command): void {
  const agents = program.command("agents").description("the real coding-agent CLIs Gauntlet can test");
  agents
    .command("list")
    .description("list the agent CLIs, their pinned versions and whether they are installed")
    .action(() => {
      const rows = Object.values(CLI_AGENTS).map((d) => [
        d.name,
        `${d.npmPackage}@${d.version}`,
        installedProgram(d) ?? "not installed",
      ]);
      process.stdout.write(`${textTable([["agent", "package", "program"], ...rows])}\n`);
    });
  agents
    .command("install")
    .description("install agent CLIs at their pinned versions into Gauntlet's cache (default: all five)")
    .argument("[names...]", `agents to install: ${Object.keys(CLI_AGENTS).join(", ")}`)
    .action(async (names: string[]) => {
      const chosen = names.length ? names : Object.keys(CLI_AGENTS);
      for (const name of chosen)
        if (!CLI_AGENTS[name])
          throw new InputError(
            { field: "names" },
            `unknown agent "${name}"`,
            `use one of: ${Object.keys(CLI_AGENTS).join(", ")}`,
          );
      for (const name of chosen) {
        const def = CLI_AGENTS[name]!;
        const started = Date.now();
        const { program: bin, already } = await installAgent(def, {
          log: (line) => process.stderr.write(`${line}\n`),
        });
        process.stdout.write(
          `${name}: ${already ? "already installed" : `installed in ${((Date.now() - started) / 1000).toFixed(1)} s`} (${bin})\n`,
        );
      }
      process.stderr.write(`cache: ${agentInstallDir(CLI_AGENTS[chosen[0]!]!).replace(/\/[^/]+$/, "")}\n`);
    });
}
