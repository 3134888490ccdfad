import { setTimeout as sleep } from "node:timers/promises";
import { APICallError } from "ai";

/**
 * Retries and timeouts of model calls (issue 3 §1). Retried: HTTP 408, 429 and 5xx, connection failures
 * and our own per-call timeouts — with exponential backoff and jitter, honouring a `retry-after` header.
 * Never retried: other 4xx (400 bad request, 401 rejected key, 404 unknown model), which would fail again.
 * The AI SDK's own retries are switched off by the client, so these are the only ones.
 */

/** How a client retries. */
export interface RetryPolicy {
  /** Retries after the first attempt (so at most `maxRetries + 1` attempts). */
  maxRetries: number;
  /** Delay before the first retry, ms; doubled at each further retry. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay, ms (a `retry-after` header may ask for more, up to 60 s). */
  maxDelayMs: number;
  /** Source of jitter in [0, 1); `Math.random` unless a test pins it. */
  random?: () => number;
}

/** Told before each retry, so a caller can say why it waits instead of looking hung. */
export interface RetryNotice {
  /** 1 for the first retry. */
  retry: number;
  /** Wait before it, ms. */
  delayMs: number;
  /** Why, e.g. `HTTP 429` or `timed out after 60000 ms`. */
  reason: string;
}

/** A call that took longer than its timeout (it was aborted). */
export class CallTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = "CallTimeoutError";
  }
}

/** What a failure means for retrying. */
export interface FailureClass {
  retryable: boolean;
  /** Short reason for notices and messages, e.g. `HTTP 503`; never contains keys. */
  reason: string;
  statusCode?: number;
  /** Wait asked for by the server (`retry-after` / `retry-after-ms`), ms. */
  retryAfterMs?: number;
}

/** Classify a failed attempt: timeouts, 408, 429, 5xx and connection failures are retryable; the rest not. */
export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof CallTimeoutError) return { retryable: true, reason: error.message };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined)
      return {
        retryable: error.isRetryable,
        reason: error.isRetryable ? "connection failed" : "call failed",
      };
    const retryAfterMs = retryAfter(error.responseHeaders);
    return {
      retryable: status === 408 || status === 429 || status >= 500,
      reason: `HTTP ${status}`,
      statusCode: status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  return { retryable: false, reason: error instanceof Error ? error.name : "call failed" };
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers["retry-after-ms"]);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers["retry-after"];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Delay before retry number `retry` (1-based), ms: `baseDelayMs · 2^(retry-1)`, capped at `maxDelayMs`,
 * scaled by a jitter factor in [0.5, 1); at least the server's `retry-after` (capped at 60 s).
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = exponential * (0.5 + (policy.random ?? Math.random)() / 2);
  return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, 60_000)));
}

/**
 * Run `attempt` until it succeeds, a failure is not retryable, or `maxRetries` retries are spent.
 * @throws the last attempt's error, unchanged (the caller turns it into a typed error)
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (notice: RetryNotice) => void,
): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const failure = classifyFailure(error);
      if (!failure.retryable || retry > policy.maxRetries) throw error;
      const delayMs = backoffDelayMs(retry, policy, failure.retryAfterMs);
      onRetry?.({ retry, delayMs, reason: failure.reason });
      await sleep(delayMs);
    }
  }
}

/**
 * Run `task` with an abort signal that fires after `timeoutMs`; the returned promise rejects with
 * {@link CallTimeoutError} at that moment even if the task ignores its signal.
 */
export async function withTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new CallTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([task(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
