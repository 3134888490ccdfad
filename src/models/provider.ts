import type { LanguageModel } from "ai";
import { SetupError } from "../core/errors.ts";
import { formatModelSpec, type ModelSpec } from "./model-spec.ts";

/**
 * From a model string to an AI SDK language model (issue 3 §1): where the API key comes from, and which
 * provider package builds the model. Provider packages load lazily, on the first live call, so a replayed
 * run needs neither them nor a key.
 */

/** A language model object (AI SDK v6, specification v2 or v3) — never a gateway model id string. */
export type LanguageModelObject = Exclude<LanguageModel, string>;

/** Environment variables read for each provider's key, first found wins. */
export const API_KEY_ENV: Readonly<Record<ModelSpec["provider"], readonly string[]>> = {
  openai: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  google: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
  // An OpenAI-compatible endpoint (Ollama, vLLM, a gateway) may need no key; name one with `apiKeyEnv`.
  "openai-compatible": [],
};

/** Where a key may come from. */
export interface ApiKeySource {
  /** The key itself (from config); wins over the environment. */
  apiKey?: string;
  /** Read the key from this environment variable instead of the provider's default ones. */
  apiKeyEnv?: string;
  /** Environment to read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A resolved key and where it came from (what error messages name — never the key). */
export interface ResolvedApiKey {
  key?: string;
  /** e.g. `OPENAI_API_KEY`, or `the apiKey option`; undefined when there is no key. */
  source?: string;
}

/**
 * The API key for `spec`.
 * @throws SetupError when a hosted provider (openai, anthropic, google) has no key, or `apiKeyEnv` names an
 *   unset variable; the hint names the variable to set
 */
export function resolveApiKey(spec: ModelSpec, from: ApiKeySource = {}): ResolvedApiKey {
  if (from.apiKey) return { key: from.apiKey, source: "the apiKey option" };
  const env = from.env ?? process.env;
  const names = from.apiKeyEnv ? [from.apiKeyEnv] : API_KEY_ENV[spec.provider];
  for (const name of names) {
    const value = env[name];
    if (value) return { key: value, source: name };
  }
  if (from.apiKeyEnv || spec.provider !== "openai-compatible")
    throw new SetupError(
      `no API key for ${formatModelSpec(spec)}: ${names.join(" or ")} is not set`,
      `export ${names[0]}=<your key> (or run with --replay to reuse recorded responses)`,
    );
  return {};
}

/**
 * Build the AI SDK model for `spec`, importing its provider package on first use. The OpenAI-compatible
 * provider is told the endpoint supports JSON-schema structured outputs (Ollama, vLLM and LM Studio do).
 * @throws SetupError when the provider package cannot be loaded
 */
export async function createLanguageModel(
  spec: ModelSpec,
  key: string | undefined,
): Promise<LanguageModelObject> {
  const load = async <M>(name: string, importer: () => Promise<M>): Promise<M> => {
    try {
      return await importer();
    } catch {
      throw new SetupError(
        `cannot load the model provider package ${name}`,
        `run npm install in the gauntlet checkout (${name} is a dependency)`,
      );
    }
  };
  switch (spec.provider) {
    case "openai": {
      const { createOpenAI } = await load("@ai-sdk/openai", () => import("@ai-sdk/openai"));
      return createOpenAI({ apiKey: key })(spec.model);
    }
    case "anthropic": {
      const { createAnthropic } = await load("@ai-sdk/anthropic", () => import("@ai-sdk/anthropic"));
      return createAnthropic({ apiKey: key })(spec.model);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await load("@ai-sdk/google", () => import("@ai-sdk/google"));
      return createGoogleGenerativeAI({ apiKey: key })(spec.model);
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await load(
        "@ai-sdk/openai-compatible",
        () => import("@ai-sdk/openai-compatible"),
      );
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: spec.baseUrl,
        ...(key ? { apiKey: key } : {}),
        includeUsage: true,
        supportsStructuredOutputs: true,
      })(spec.model);
    }
  }
}
