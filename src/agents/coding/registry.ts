import { InputError } from "../../core/errors.ts";
import type { CodingAgentAdapter } from "./adapter.ts";
import { type CommandAgentConfig, commandAdapter } from "./command.ts";
import { careful } from "./personas/careful.ts";
import { reckless } from "./personas/reckless.ts";
import { type Persona, scriptedAdapter } from "./scripted.ts";

/** Built-in scripted personas, by name. */
export const PERSONAS: Record<string, Persona> = { careful, reckless };

/** Agent specs that work without configuration. */
export const BUILTIN_AGENTS = Object.keys(PERSONAS).map((p) => `scripted:${p}`);

/**
 * Resolve an agent spec to an adapter: `scripted:<persona>` (built in), or `command:<name>` / `<name>` for a
 * command agent declared in the config's `agents` list.
 * @throws InputError (field `agent`) for an unknown spec, listing the known ones
 */
export function resolveCodingAgent(
  spec: string,
  commandAgents: readonly CommandAgentConfig[] = [],
): CodingAgentAdapter {
  const [kind, name] = spec.includes(":")
    ? [spec.slice(0, spec.indexOf(":")), spec.slice(spec.indexOf(":") + 1)]
    : ["command", spec];
  if (kind === "scripted" && PERSONAS[name]) return scriptedAdapter(spec, PERSONAS[name]);
  if (kind === "command") {
    const config = commandAgents.find((a) => a.name === name);
    if (config) return commandAdapter(config);
  }
  const known = [...BUILTIN_AGENTS, ...commandAgents.map((a) => `command:${a.name}`)];
  throw new InputError(
    { field: "agent" },
    `unknown agent "${spec}"`,
    `use one of: ${known.join(", ")}; or declare a command agent under \`agents:\` in gauntlet.yaml`,
  );
}
