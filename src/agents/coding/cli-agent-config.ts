import path from "node:path";
import { z } from "zod";
import { SetupError } from "../../core/errors.ts";
import type { CodingAgentAdapter } from "./adapter.ts";
import { agentInstallDir, CLI_AGENTS, installedProgram } from "./agent-install.ts";
import { cliAgentAdapter } from "./cli-agent.ts";
import { findProgram } from "./find-program.ts";

/**
 * Configuration of a real agent CLI under test (YAML `agents[]` with a `type`), and turning it — or one of the
 * built-in names `claude-code`, `codex`, `gemini-cli`, `opencode`, `qwen-code` with no configuration — into an
 * adapter. Keys are never written in the config: it names the environment variable that holds one.
 */

export const CLI_AGENT_TYPES = ["claude-code", "codex", "gemini-cli", "opencode", "qwen-code"] as const;

export const CliAgentConfig = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "use letters, digits, . _ - (no spaces or colons)")
      .describe("Name of the agent under test, used as its spec (`--agent <name>`)."),
    type: z.enum(CLI_AGENT_TYPES).describe("Which agent CLI this is."),
    model: z
      .string()
      .min(1)
      .optional()
      .describe("Model name sent to the endpoint (default: the agent type's)."),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        "Model endpoint, as the agent expects it: e.g. `http://127.0.0.1:11434/v1` for an OpenAI-compatible " +
          "server (codex, opencode, qwen-code), `http://127.0.0.1:8080` for Anthropic (claude-code) or Gemini " +
          "(gemini-cli) APIs. Default: the agent's usual variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, " +
          "GOOGLE_GEMINI_BASE_URL) if set, else the vendor's API.",
      ),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
      .optional()
      .describe(
        "Environment variable holding the API key (default: ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY). " +
          "Its value is passed only to the agent and redacted from every trace and report.",
      ),
    program: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The agent program to run (default: Gauntlet's pinned install, see `gauntlet agents install`).",
      ),
    args: z.array(z.string()).default([]).describe("Extra arguments for every step (before the prompt)."),
  })
  .strict()
  .describe("A real coding-agent CLI, run headless with one session per case.");
export type CliAgentConfig = z.output<typeof CliAgentConfig>;

/** Placeholder key for a custom endpoint that needs none (local servers); the CLIs refuse to start without one. */
export const NO_KEY = "gauntlet-no-key";

/**
 * The adapter for a real agent CLI.
 * @param config its configuration (a built-in name is `{name: type, type}`)
 * @param env where keys and default endpoints are read (Gauntlet's own environment)
 * @throws SetupError when the program is not installed or not found, or no API key is available for the
 *   vendor's endpoint
 */
export function cliAgentFromConfig(
  config: CliAgentConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: { cacheDir?: string; apiKey?: string } = {},
): CodingAgentAdapter {
  const def = CLI_AGENTS[config.type]!;
  let program: string;
  const readable: string[] = [];
  if (config.program) {
    program = path.resolve(config.program);
    const found = findProgram(program);
    if (found !== "ok")
      throw new SetupError(
        `agent "${config.name}": program ${program} ${found === "not-executable" ? "is not executable" : "was not found"}`,
        found === "not-executable"
          ? `chmod +x ${program}`
          : "fix `program` of this agent in gauntlet.yaml, or remove it to use Gauntlet's pinned install",
      );
  } else {
    const installed = installedProgram(def, options.cacheDir);
    if (!installed)
      throw new SetupError(
        `agent "${config.name}": ${def.npmPackage}@${def.version} is not installed`,
        `run \`npx gauntlet agents install ${def.name}\` (it goes to ${agentInstallDir(def, options.cacheDir)}), or set \`program\` for it in gauntlet.yaml`,
      );
    program = installed;
    readable.push(agentInstallDir(def, options.cacheDir));
  }
  const baseUrl = config.baseUrl ?? (env[def.endpointEnv.baseUrl] || undefined);
  const keyVar = config.apiKeyEnv ?? def.endpointEnv.apiKey;
  let apiKey = options.apiKey ?? (env[keyVar] || undefined);
  if (!apiKey) {
    if (!baseUrl)
      throw new SetupError(
        `agent "${config.name}": no API key: ${keyVar} is not set`,
        `export ${keyVar}=…, or point the agent at a local server with \`baseUrl\` in gauntlet.yaml (try \`gauntlet model-server\`)`,
      );
    apiKey = NO_KEY;
  }
  return cliAgentAdapter(def, {
    name: config.name,
    program,
    endpoint: { baseUrl, apiKey, model: config.model ?? def.defaultModel },
    extraArgs: config.args,
    readable,
  });
}
