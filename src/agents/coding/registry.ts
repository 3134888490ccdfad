import path from "node:path";
import { InputError, SetupError } from "../../core/errors.ts";
import type { CodingAgentAdapter } from "./adapter.ts";
import { CLI_AGENTS } from "./agent-install.ts";
import { type CliAgentConfig, cliAgentFromConfig } from "./cli-agent-config.ts";
import { type CommandAgentConfig, commandAdapter } from "./command.ts";
import { findProgram } from "./find-program.ts";
import { careful } from "./personas/careful.ts";
import { reckless } from "./personas/reckless.ts";
import { type Persona, scriptedAdapter } from "./scripted.ts";

/** Built-in scripted personas, by name. */
export const PERSONAS: Record<string, Persona> = { careful, reckless };

/** Agent specs that work without configuration (the real CLIs need an install and a key or endpoint). */
export const BUILTIN_AGENTS = [
  ...Object.keys(PERSONAS).map((p) => `scripted:${p}`),
  ...Object.keys(CLI_AGENTS),
];

/** An agent declared in gauntlet.yaml: a command agent (`argv`) or a real agent CLI (`type`). */
export type AgentConfig = CommandAgentConfig | CliAgentConfig;

/** Whether a configured agent is a real agent CLI. */
export function isCliAgentConfig(config: AgentConfig): config is CliAgentConfig {
  return "type" in config;
}

/**
 * Resolve an agent spec to an adapter: `scripted:<persona>` (built in); a name declared in the config's
 * `agents` list (or `command:<name>` for a command agent); or a real agent CLI by type (`claude-code`,
 * `codex`, `gemini-cli`, `opencode`, `qwen-code`) with its defaults and the environment's key.
 * @throws InputError (field `agent`) for an unknown spec, listing the known ones
 * @throws SetupError when the agent's program is missing or not executable, or a real agent lacks a key
 */
export function resolveCodingAgent(spec: string, configs: readonly AgentConfig[] = []): CodingAgentAdapter {
  const [kind, name] = spec.includes(":")
    ? [spec.slice(0, spec.indexOf(":")), spec.slice(spec.indexOf(":") + 1)]
    : ["", spec];
  if (kind === "scripted" && PERSONAS[name]) return scriptedAdapter(spec, PERSONAS[name]);
  const configured = kind === "" || kind === "command" ? configs.find((a) => a.name === name) : undefined;
  if (configured && isCliAgentConfig(configured)) {
    if (kind === "command") return unknownAgent(spec, configs);
    return cliAgentFromConfig(configured);
  }
  if (kind === "" && !configured && CLI_AGENTS[name])
    return cliAgentFromConfig({ name, type: name as CliAgentConfig["type"], args: [] });
  if (configured) {
    const config = configured;
    const program = config.argv[0]!;
    const found = findProgram(program);
    if (found !== "ok")
      throw new SetupError(
        `agent "${spec}": program "${program}" ${found === "not-executable" ? "is not executable" : `not found${program.includes("/") ? "" : " on PATH"}`}`,
        found === "not-executable"
          ? `make it executable (chmod +x ${program})`
          : "install it, or fix `argv` of this agent in gauntlet.yaml",
      );
    // A relative program path means relative to where the user runs Gauntlet, not to the workspace.
    const absolute = (argv: string[]) =>
      argv[0]!.includes("/") ? [path.resolve(argv[0]!), ...argv.slice(1)] : argv;
    return commandAdapter({
      ...config,
      argv: absolute(config.argv),
      resumeArgv: config.resumeArgv ? absolute(config.resumeArgv) : undefined,
    });
  }
  return unknownAgent(spec, configs);
}

function unknownAgent(spec: string, configs: readonly AgentConfig[]): never {
  const known = [
    ...BUILTIN_AGENTS,
    ...configs.map((a) => (isCliAgentConfig(a) ? a.name : `command:${a.name}`)),
  ];
  throw new InputError(
    { field: "agent" },
    `unknown agent "${spec}"`,
    `use one of: ${known.join(", ")}; or declare an agent under \`agents:\` in gauntlet.yaml`,
  );
}
