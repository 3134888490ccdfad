import { InputError } from "../core/errors.ts";

/**
 * Model strings (issue 3 §1): `openai:<model>`, `anthropic:<model>`, `google:<model>`, and
 * `openai-compatible:<base-url>#<model>` for Ollama, vLLM, LM Studio or any gateway. Keys never appear in a
 * model string; they come from the environment or the config.
 */

/** A parsed model string. */
export type ModelSpec =
  | { provider: "openai" | "anthropic" | "google"; model: string }
  | { provider: "openai-compatible"; baseUrl: string; model: string };

const PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"] as const;

/**
 * Parse a model string.
 * @param field where it came from, for the error (e.g. `models.judge`)
 * @throws InputError naming the field, with the accepted forms as the hint
 */
export function parseModelSpec(text: string, field = "model"): ModelSpec {
  const hint =
    "use openai:<model>, anthropic:<model>, google:<model> or openai-compatible:<base-url>#<model>";
  const colon = text.indexOf(":");
  if (colon <= 0) throw new InputError({ field }, `"${text}" names no provider`, hint);
  const provider = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider))
    throw new InputError({ field }, `unknown model provider "${provider}"`, hint);
  if (provider === "openai-compatible") {
    const hash = rest.lastIndexOf("#");
    const baseUrl = hash > 0 ? rest.slice(0, hash) : "";
    const model = hash > 0 ? rest.slice(hash + 1) : "";
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || !model)
      throw new InputError(
        { field },
        `"${text}" is not <http(s) base-url>#<model>`,
        "e.g. openai-compatible:http://127.0.0.1:11434/v1#llama3.1",
      );
    if (url.username || url.password)
      throw new InputError(
        { field },
        "credentials in the base URL would be logged",
        "pass the key through the environment instead",
      );
    return { provider, baseUrl: baseUrl.replace(/\/$/, ""), model };
  }
  if (!rest.trim()) throw new InputError({ field }, `"${text}" names no model`, hint);
  return { provider: provider as "openai" | "anthropic" | "google", model: rest };
}

/** The canonical string of a spec (what usage records and caches are keyed by). */
export function formatModelSpec(spec: ModelSpec): string {
  return spec.provider === "openai-compatible"
    ? `openai-compatible:${spec.baseUrl}#${spec.model}`
    : `${spec.provider}:${spec.model}`;
}
