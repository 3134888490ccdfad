import {
  generateText as aiGenerateText,
  type ModelMessage,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
} from "ai";
import { z } from "zod";
import { SetupError } from "../core/errors.ts";
import { redact, redactDeep, type Secret } from "../core/redaction.ts";
import { Semaphore } from "./concurrency.ts";
import { describeCallFailure, ModelOutputError } from "./model-errors.ts";
import { formatModelSpec, type ModelSpec, parseModelSpec } from "./model-spec.ts";
import { checkOutput, repairMessage } from "./output-check.ts";
import {
  type ApiKeySource,
  createLanguageModel,
  type LanguageModelObject,
  type ResolvedApiKey,
  resolveApiKey,
} from "./provider.ts";
import type { ReplayCache } from "./replay-cache.ts";
import { type RetryNotice, withRetry, withTimeout } from "./retry.ts";
import type { UsageLedger } from "./usage.ts";

/**
 * The model client (issue 3 §1): every model call Gauntlet makes (judges, labellers, generators) goes
 * through one {@link ModelClient} over the Vercel AI SDK. It adds what a campaign needs around each call:
 * budgets and usage accounting ({@link UsageLedger}), a concurrency limit, retries with backoff on 429 / 5xx /
 * timeouts (never on other 4xx), per-call timeouts, zod-validated structured output with a bounded repair,
 * and record/replay ({@link ReplayCache}). Keys never appear in errors, notices or cache records.
 */

/** `record`: call live and append each response; `replay`: answer only from the cache; `off`: no cache. */
export type CacheMode = "record" | "replay" | "off";

/** Options of a {@link ModelClient}. Durations in ms. */
export interface ModelClientOptions extends ApiKeySource {
  /**
   * Where usage is accounted and budgets are checked (shared by every client of a run). The budget is
   * checked before each attempt, so with N calls in flight a run may end up to N - 1 calls over it.
   */
  ledger: UsageLedger;
  /** Record/replay cache file. */
  cache?: ReplayCache;
  /** Default: `replay` when `cache.replay`, `record` when a cache is given, else `off`. */
  cacheMode?: CacheMode;
  /** Calls in flight at once from this client; default 4. */
  maxConcurrency?: number;
  /** Retries of a call after HTTP 408 / 429 / 5xx, a connection failure or a timeout; default 3. */
  maxRetries?: number;
  /** Timeout of one attempt, ms; default 60000. */
  timeoutMs?: number;
  /** Re-asks after a structured reply that does not parse or validate; default 1. */
  repairAttempts?: number;
  /** First backoff delay, ms, doubled per retry with jitter; default 1000. */
  retryBaseDelayMs?: number;
  /** Cap of one backoff delay, ms; default 30000. */
  retryMaxDelayMs?: number;
  /** Sampling temperature passed to the model (part of the cache key); provider default when absent. */
  temperature?: number;
  /** Output token limit per call (part of the cache key); provider default when absent. */
  maxOutputTokens?: number;
  /** Use this model object instead of building one from the model string (tests: `MockLanguageModelV3`). */
  languageModel?: LanguageModelObject;
  /** Told before each retry, so a caller can print why it waits. */
  onRetry?: (notice: RetryNotice & { role: string; model: string }) => void;
  /** Config field the model string came from, for its parse error (e.g. `models.judge`). */
  field?: string;
}

/** A plain-text request. */
export interface TextRequest {
  /** System prompt. */
  system?: string;
  /** User prompt. */
  prompt: string;
}

/** A structured-output request: the reply must be JSON matching `schema`. */
export interface ObjectRequest<T> extends TextRequest {
  /** zod schema of the reply; its JSON Schema is sent to the provider and its parse result returned. */
  schema: z.ZodType<T>;
  /** Name of the output, a hint some providers pass to the model (e.g. `Verdict`). */
  schemaName?: string;
}

/** One model reply as the client sees it. */
interface Reply {
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** Set for structured calls: the validated value, or what was wrong. */
  check?: { ok: true; value: unknown } | { ok: false; problem: string };
}

/** A client for one model string. Create one per role or share one; share the ledger across the run. */
export class ModelClient {
  /** Canonical model string, e.g. `openai:gpt-4o-mini` (usage and cache records are keyed by it). */
  readonly model: string;
  readonly spec: ModelSpec;
  readonly cacheMode: CacheMode;
  readonly #key: string | undefined;
  readonly #keySource: string | undefined;
  readonly #secrets: Secret[];
  readonly #slots: Semaphore;
  readonly #options: ModelClientOptions;
  /** Replay: cache keys already answered in this invocation (answered again for free, as when recording). */
  readonly #replayed = new Set<string>();
  #languageModel: Promise<LanguageModelObject> | undefined;

  /**
   * @param modelString `openai:<m>`, `anthropic:<m>`, `google:<m>` or `openai-compatible:<base-url>#<m>`
   * @throws InputError for a malformed model string (naming `options.field`)
   * @throws SetupError when live calls are possible and a hosted provider has no key, or `replay` has no cache
   */
  constructor(modelString: string, options: ModelClientOptions) {
    this.spec = parseModelSpec(modelString, options.field);
    this.model = formatModelSpec(this.spec);
    this.#options = options;
    this.cacheMode =
      options.cacheMode ?? (options.cache ? (options.cache.replay ? "replay" : "record") : "off");
    if (this.cacheMode !== "off" && !options.cache)
      throw new SetupError(`cache mode "${this.cacheMode}" needs a cache file`, "pass a ReplayCache");
    // A key is needed only for live calls to a model we build; otherwise a missing key is fine (replay, tests).
    let resolved: ResolvedApiKey = {};
    try {
      resolved = resolveApiKey(this.spec, options);
    } catch (error) {
      if (this.cacheMode !== "replay" && !options.languageModel) throw error;
    }
    this.#key = resolved.key;
    this.#keySource = resolved.source;
    this.#secrets = resolved.key ? [{ name: resolved.source ?? "API_KEY", value: resolved.key }] : [];
    this.#slots = new Semaphore(options.maxConcurrency ?? 4);
    if (options.languageModel) this.#languageModel = Promise.resolve(options.languageModel);
  }

  /**
   * Ask for plain text.
   * @returns the model's text reply
   * @throws StoppedError when the budget is spent; SetupError for a rejected key (401/403), an unknown model
   *   (404) or a replay miss; ModelCallError when the call fails for good
   */
  async generateText(role: string, request: TextRequest): Promise<string> {
    const cacheKey = this.cacheKey(role, "text", request);
    const cached = this.fromCache(role, cacheKey);
    if (cached) return String(cached.response);
    const reply = await this.send(role, request.system, [{ role: "user", content: request.prompt }]);
    this.toCache(role, cacheKey, reply.text, reply);
    return reply.text;
  }

  /**
   * Ask for a JSON object matching `request.schema`. A reply that does not parse or validate is re-asked
   * up to `repairAttempts` times, quoting the problem; every reply counts as one call in the ledger.
   * @returns the schema's parse result (zod output type)
   * @throws ModelOutputError naming the role and the zod problem when no reply was valid; plus everything
   *   {@link generateText} throws
   */
  async generateObject<T>(role: string, request: ObjectRequest<T>): Promise<T> {
    const cacheKey = this.cacheKey(role, "object", request);
    const cached = this.fromCache(role, cacheKey);
    if (cached) {
      const parsed = request.schema.safeParse(cached.response);
      if (!parsed.success)
        throw new SetupError(
          `--replay: the recorded ${role} response no longer fits its schema`,
          "run once without --replay to record it again",
        );
      return parsed.data;
    }
    const messages: ModelMessage[] = [{ role: "user", content: request.prompt }];
    const total = { inputTokens: 0, outputTokens: 0 };
    const attempts = 1 + (this.#options.repairAttempts ?? 1);
    let problem = "";
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const reply = await this.send(role, request.system, messages, request);
      total.inputTokens += reply.inputTokens;
      total.outputTokens += reply.outputTokens;
      if (reply.check?.ok) {
        this.toCache(role, cacheKey, reply.check.value, total);
        return reply.check.value as T;
      }
      problem = reply.check?.problem ?? "no output";
      messages.push({ role: "assistant", content: reply.text }, repairMessage(problem, request.schema));
    }
    throw new ModelOutputError(role, this.model, redact(problem, this.#secrets), attempts);
  }

  /** One reply: budget check, concurrency slot, timeout and retries around the AI SDK call; usage recorded. */
  private async send(
    role: string,
    system: string | undefined,
    messages: ModelMessage[],
    structured?: ObjectRequest<unknown>,
  ): Promise<Reply> {
    const options = this.#options;
    const policy = {
      maxRetries: options.maxRetries ?? 3,
      baseDelayMs: options.retryBaseDelayMs ?? 1000,
      maxDelayMs: options.retryMaxDelayMs ?? 30_000,
    };
    const attempt = () =>
      this.#slots.run(async () => {
        // Admitted once a slot is free, so queued calls see the calls made before them.
        options.ledger.admit(role);
        const started = performance.now();
        let reply: Reply;
        try {
          reply = await withTimeout(
            (signal) => this.ask(system, messages, signal, structured),
            options.timeoutMs ?? 60_000,
          );
        } catch (error) {
          options.ledger.release();
          throw error;
        }
        const wallMs = Math.round(performance.now() - started);
        options.ledger.record(role, this.model, {
          inputTokens: reply.inputTokens,
          outputTokens: reply.outputTokens,
          wallMs,
        });
        return reply;
      });
    try {
      return await withRetry(attempt, policy, (notice) =>
        options.onRetry?.({ ...notice, role, model: this.model }),
      );
    } catch (error) {
      throw describeCallFailure(error, {
        model: this.model,
        role,
        attempts: policy.maxRetries + 1,
        keySource: this.#keySource,
        secrets: this.#secrets,
      });
    }
  }

  /** The AI SDK call itself (its own retries off); an invalid structured reply is a Reply, not an error. */
  private async ask(
    system: string | undefined,
    messages: ModelMessage[],
    abortSignal: AbortSignal,
    structured?: ObjectRequest<unknown>,
  ): Promise<Reply> {
    const { temperature, maxOutputTokens } = this.#options;
    const settings = {
      model: await this.languageModel(),
      ...(system !== undefined ? { system } : {}),
      messages,
      maxRetries: 0,
      abortSignal,
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    };
    if (!structured) {
      const result = await aiGenerateText(settings);
      return { text: result.text, ...tokens(result.totalUsage) };
    }
    const output = Output.object({
      schema: structured.schema,
      ...(structured.schemaName ? { name: structured.schemaName } : {}),
    });
    try {
      const result = await aiGenerateText({ ...settings, output });
      try {
        return { text: result.text, ...tokens(result.totalUsage), check: { ok: true, value: result.output } };
      } catch (error) {
        if (!NoOutputGeneratedError.isInstance(error)) throw error;
        const problem = `the reply was empty (finish reason: ${result.finishReason})`;
        return { text: result.text, ...tokens(result.totalUsage), check: { ok: false, problem } };
      }
    } catch (error) {
      if (!NoObjectGeneratedError.isInstance(error)) throw error;
      // Our own check also accepts JSON wrapped in a Markdown fence, which the AI SDK rejects.
      const text = error.text ?? "";
      return { text, ...tokens(error.usage), check: checkOutput(text, structured.schema) };
    }
  }

  private languageModel(): Promise<LanguageModelObject> {
    this.#languageModel ??= createLanguageModel(this.spec, this.#key);
    return this.#languageModel;
  }

  /** The request as the cache keys it: everything that shapes the reply, never the key. */
  private cacheKey(
    role: string,
    kind: "text" | "object",
    request: TextRequest | ObjectRequest<unknown>,
  ): unknown {
    const { temperature, maxOutputTokens } = this.#options;
    const structured = "schema" in request ? request : undefined;
    return {
      model: this.model,
      role,
      kind,
      system: request.system,
      prompt: request.prompt,
      schema: structured
        ? z.toJSONSchema(structured.schema, { io: "input", unrepresentable: "any" })
        : undefined,
      schemaName: structured?.schemaName,
      settings: { temperature, maxOutputTokens },
    };
  }

  /**
   * The recorded call: in replay mode always (a miss is an error), accounted in the ledger with its recorded
   * tokens (wall time 0), so a replayed run meets the same budgets as the recording — once per distinct request,
   * as a recording pays a repeated request once; in record mode when the record already has it (not accounted
   * again).
   */
  private fromCache(role: string, cacheKey: unknown) {
    const cache = this.#options.cache;
    if (!cache || this.cacheMode === "off") return undefined;
    // Recording: a request already in the record (a resumed run) is answered from it, not paid for twice;
    // its cost is in the usage carried over from the invocation that made it.
    if (this.cacheMode === "record") return cache.lookup(cacheKey);
    const seen = JSON.stringify(cacheKey);
    if (this.#replayed.has(seen)) return cache.lookup(cacheKey);
    this.#options.ledger.admit(role);
    const hit = cache.lookup(cacheKey);
    if (!hit) this.#options.ledger.release();
    if (!hit)
      throw new SetupError(
        `--replay: no recorded response for this ${role} request in ${cache.file}`,
        "run once without --replay to record it (the request changed since the recording)",
      );
    this.#options.ledger.record(role, this.model, { ...hit.usage, wallMs: 0 });
    this.#replayed.add(seen);
    return hit;
  }

  private toCache(
    role: string,
    cacheKey: unknown,
    response: unknown,
    usage: { inputTokens: number; outputTokens: number },
  ): void {
    if (this.cacheMode !== "record") return;
    this.#options.cache?.record(cacheKey, {
      model: this.model,
      role,
      response: redactDeep(response, this.#secrets),
      usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
    });
  }
}

/** Token counts of an AI SDK usage (missing counts as 0). */
function tokens(usage: { inputTokens?: number; outputTokens?: number } | undefined) {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}
