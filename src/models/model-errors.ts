import { GauntletError, SetupError } from "../core/errors.ts";
import { redact, type Secret } from "../core/redaction.ts";
import { classifyFailure } from "./retry.ts";

/**
 * Errors of model calls (issue 3 §1). A rejected key or a missing model is a `SetupError` (core/errors.ts);
 * a budget stop is a `StoppedError`; these two cover what is left: a model whose output never fitted the
 * schema, and a call that failed for good (after its retries, or at once for a non-retryable status).
 */

/**
 * A structured-output call whose reply still did not parse or validate after the repair attempts.
 * The message names the role, the model and the zod problem; it never contains keys.
 */
export class ModelOutputError extends GauntletError {
  constructor(
    /** Role of the call, e.g. `judge`. */
    readonly role: string,
    /** Canonical model string, e.g. `openai:gpt-4o-mini`. */
    readonly model: string,
    /** What was wrong with the last reply: a JSON parse error or the zod issues, one per line. */
    readonly problem: string,
    /** Model replies tried (1 + repair attempts). */
    readonly attempts: number,
  ) {
    super(
      `${model} gave no valid ${role} output after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${problem}`,
      "use a stronger model for this role, or raise repairAttempts",
    );
  }
}

/**
 * A model call that failed for good: a non-retryable HTTP status (e.g. 400), or a retryable failure
 * (429, 5xx, timeout, network) still failing after `maxRetries` retries. The message is redacted of keys.
 */
export class ModelCallError extends GauntletError {
  constructor(
    message: string,
    hint: string,
    /** HTTP status of the last failure, when there was a response. */
    readonly statusCode?: number,
  ) {
    super(message, hint);
  }
}

/** What {@link describeCallFailure} needs to know about the failed call. */
export interface FailedCall {
  /** Canonical model string. */
  model: string;
  role: string;
  /** Attempts made when the failure was retryable (1 + maxRetries). */
  attempts: number;
  /** Where the key came from (an env var name, `the apiKey option`), for hints; undefined without a key. */
  keySource: string | undefined;
  /** Values to redact from provider messages (the key). */
  secrets: readonly Secret[];
}

/**
 * A failed model call as a typed, key-free error: a GauntletError (budget stop, replay miss) passes through;
 * HTTP 401 / 403 → SetupError naming where the key came from (never the key); 404 → SetupError about the
 * model name; anything else → {@link ModelCallError} with the provider's message, redacted and cut at
 * 300 chars.
 */
export function describeCallFailure(error: unknown, call: FailedCall): Error {
  if (error instanceof GauntletError) return error;
  const { model, role, attempts } = call;
  const failure = classifyFailure(error);
  const raw = error instanceof Error ? error.message : String(error);
  const message = redact(raw, call.secrets).slice(0, 300);
  const detail = message === failure.reason ? "" : `: ${message}`;
  const keyHint = call.keySource
    ? `check ${call.keySource}: the key is wrong, expired, or for another provider`
    : "this endpoint wants a key: set apiKeyEnv to the variable that holds it";
  switch (failure.statusCode) {
    case 401:
      return new SetupError(`${model} rejected the API key (HTTP 401) on a ${role} call`, keyHint);
    case 403:
      return new SetupError(`${model} refused the ${role} call (HTTP 403)${detail}`, keyHint);
    case 404:
      return new SetupError(
        `${model}: no such model or endpoint (HTTP 404) on a ${role} call`,
        "check the model name (and for openai-compatible, the base URL with its /v1)",
      );
  }
  if (failure.retryable)
    return new ModelCallError(
      `${model} ${role} call failed after ${attempts} attempt${attempts === 1 ? "" : "s"} (${failure.reason})${detail}`,
      "the provider is overloaded or unreachable: retry later (resume the run), check baseUrl and the network, or lower models.maxConcurrency",
      failure.statusCode,
    );
  return new ModelCallError(
    `${model} ${role} call failed (${failure.reason})${detail}`,
    "retrying will not help: fix the request or the model settings the provider objects to",
    failure.statusCode,
  );
}
