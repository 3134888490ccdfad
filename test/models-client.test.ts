import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SetupError, StoppedError } from "../src/core/errors.ts";
import { ModelClient, type ModelClientOptions } from "../src/models/client.ts";
import { ModelCallError, ModelOutputError } from "../src/models/model-errors.ts";
import { ReplayCache } from "../src/models/replay-cache.ts";
import { backoffDelayMs, classifyFailure } from "../src/models/retry.ts";
import { ModelScript } from "../src/models/scripted-server/script.ts";
import { type ScriptedModelServer, startScriptedModelServer } from "../src/models/scripted-server/server.ts";
import { UsageLedger } from "../src/models/usage.ts";

const Verdict = z.object({ verdict: z.enum(["pass", "fail"]), score: z.number() });

/** A mock reply of `text` costing 10 input and 5 output tokens. */
function reply(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  };
}

function httpError(statusCode: number, message: string) {
  return new APICallError({
    message,
    url: "https://api.example.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
}

/** A mock model answering each call with the next of `steps` (a text, or an error to throw). */
function scripted(...steps: Array<string | Error>) {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[Math.min(call++, steps.length - 1)]!;
      if (step instanceof Error) throw step;
      return reply(step);
    },
  });
}

function client(languageModel: MockLanguageModelV3, options: Partial<ModelClientOptions> = {}) {
  return new ModelClient("openai:gpt-4o-mini", {
    ledger: new UsageLedger(),
    languageModel,
    retryBaseDelayMs: 1,
    ...options,
  });
}

describe("model client with a mock model", () => {
  it("returns structured output validated by the schema, with usage in the ledger", async () => {
    const ledger = new UsageLedger();
    const model = scripted('{"verdict":"pass","score":0.9}');
    const verdict = await client(model, { ledger }).generateObject("judge", {
      system: "You judge.",
      prompt: "Did it pass?",
      schema: Verdict,
      schemaName: "Verdict",
    });
    expect(verdict).toEqual({ verdict: "pass", score: 0.9 });
    expect(model.doGenerateCalls[0]!.responseFormat).toMatchObject({ type: "json", name: "Verdict" });
    expect(model.doGenerateCalls[0]!.prompt[0]).toEqual({ role: "system", content: "You judge." });
    expect(ledger.byRole().judge).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 5 });
  });

  it("repairs invalid JSON by re-asking once, quoting the problem", async () => {
    const ledger = new UsageLedger();
    const model = scripted("Sure! The verdict is pass.", '{"verdict":"fail","score":0}');
    const verdict = await client(model, { ledger }).generateObject("judge", {
      prompt: "Did it pass?",
      schema: Verdict,
    });
    expect(verdict).toEqual({ verdict: "fail", score: 0 });
    expect(model.doGenerateCalls).toHaveLength(2);
    const repair = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(repair).toContain("Sure! The verdict is pass.");
    expect(repair).toContain("Your reply was not valid: not JSON");
    expect(ledger.byRole().judge).toMatchObject({ calls: 2, inputTokens: 20, outputTokens: 10 });
  });

  it("accepts JSON inside a Markdown code fence without a repair", async () => {
    const model = scripted('```json\n{"verdict":"pass","score":1}\n```');
    const verdict = await client(model).generateObject("judge", { prompt: "?", schema: Verdict });
    expect(verdict).toEqual({ verdict: "pass", score: 1 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("throws ModelOutputError naming the role and the zod problem after a failed repair", async () => {
    const model = scripted('{"verdict":"maybe","score":1}', '{"verdict":"pass","score":"high"}');
    const error = await client(model)
      .generateObject("judge", { prompt: "?", schema: Verdict })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect((error as ModelOutputError).message).toBe(
      "openai:gpt-4o-mini gave no valid judge output after 2 attempts: " +
        "score: Invalid input: expected number, received string",
    );
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it("retries after HTTP 429 and 503, then succeeds, telling why it waits", async () => {
    const model = scripted(httpError(429, "Too Many Requests"), httpError(503, "Unavailable"), "hello");
    const notices: string[] = [];
    const text = await client(model, { onRetry: (n) => notices.push(`${n.retry} ${n.reason}`) }).generateText(
      "labeller",
      { prompt: "hi" },
    );
    expect(text).toBe("hello");
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(notices).toEqual(["1 HTTP 429", "2 HTTP 503"]);
  });

  it("gives up after maxRetries with a ModelCallError", async () => {
    const model = scripted(httpError(500, "Internal Server Error"));
    const error = await client(model, { maxRetries: 2 })
      .generateText("labeller", { prompt: "hi" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe(
      "openai:gpt-4o-mini labeller call failed after 3 attempts (HTTP 500): Internal Server Error",
    );
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it("does not retry HTTP 400", async () => {
    const model = scripted(httpError(400, "bad request: unknown parameter"));
    await expect(client(model).generateText("labeller", { prompt: "hi" })).rejects.toThrow(
      "openai:gpt-4o-mini labeller call failed (HTTP 400): bad request: unknown parameter",
    );
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("retries a call that times out", async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 1000));
        return reply("late but fine");
      },
    });
    expect(await client(model, { timeoutMs: 50 }).generateText("labeller", { prompt: "hi" })).toBe(
      "late but fine",
    );
    expect(calls).toBe(2);
  });

  it("turns HTTP 401 into a SetupError naming the variable, never the key, without retrying", async () => {
    const key = "sk-test-0123456789abcdef";
    const model = scripted(httpError(401, `Incorrect API key provided: ${key}`));
    const error = await new ModelClient("openai:gpt-4o-mini", {
      ledger: new UsageLedger(),
      env: { OPENAI_API_KEY: key },
      languageModel: model,
    })
      .generateText("judge", { prompt: "hi" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toBe(
      "openai:gpt-4o-mini rejected the API key (HTTP 401) on a judge call",
    );
    expect((error as SetupError).hint).toContain("OPENAI_API_KEY");
    expect(JSON.stringify({ ...(error as object), m: (error as Error).message })).not.toContain(key);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("stops at the budget with StoppedError, keeping the totals of the calls made", async () => {
    const ledger = new UsageLedger({ maxCalls: 2 });
    const model = scripted("one", "two", "three");
    const c = client(model, { ledger });
    expect(await c.generateText("judge", { prompt: "1" })).toBe("one");
    expect(await c.generateText("judge", { prompt: "2" })).toBe("two");
    await expect(c.generateText("judge", { prompt: "3" })).rejects.toThrow(StoppedError);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(ledger.total()).toMatchObject({ calls: 2, inputTokens: 20, outputTokens: 10 });
    expect(ledger.total().costUsd).toBeCloseTo((20 * 0.15 + 10 * 0.6) / 1e6, 12);
  });

  it("keeps at most maxConcurrency calls in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return reply("ok");
      },
    });
    const c = client(model, { maxConcurrency: 2 });
    const texts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => c.generateText("gen", { prompt: `${i}` })),
    );
    expect(texts).toEqual(Array(6).fill("ok"));
    expect(peak).toBe(2);
  });

  it("fails to construct without a key for a hosted provider, naming the variable", () => {
    expect(
      () => new ModelClient("google:gemini-2.5-flash-lite", { ledger: new UsageLedger(), env: {} }),
    ).toThrow(
      "no API key for google:gemini-2.5-flash-lite: GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY is not set",
    );
  });
});

describe("retry policy", () => {
  it("backs off exponentially with jitter, capped, and waits at least the server's retry-after", () => {
    const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 300, random: () => 0.5 };
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, policy))).toEqual([75, 150, 225]);
    const limited = new APICallError({
      message: "slow down",
      url: "https://api.example.test",
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { "retry-after": "2" },
    });
    expect(classifyFailure(limited)).toEqual({
      retryable: true,
      reason: "HTTP 429",
      statusCode: 429,
      retryAfterMs: 2000,
    });
    expect(backoffDelayMs(1, policy, 2000)).toBe(2000);
    expect(classifyFailure(httpError(401, "no")).retryable).toBe(false);
  });
});

describe("record and replay", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-client-cache-"));
  const key = "sk-record-0123456789";

  it("replays a recorded call without calling the model, and a miss is an error", async () => {
    const file = path.join(dir, "calls.jsonl");
    const live = scripted('{"verdict":"pass","score":0.5}');
    const recorder = client(live, { cache: new ReplayCache(file), apiKey: key });
    const request = { system: "You judge.", prompt: "Did it pass?", schema: Verdict };
    expect(await recorder.generateObject("judge", request)).toEqual({ verdict: "pass", score: 0.5 });
    expect(readFileSync(file, "utf8")).not.toContain(key);

    const offline = scripted("never used");
    const ledger = new UsageLedger();
    const replayer = client(offline, { cache: new ReplayCache(file, true), ledger });
    expect(replayer.cacheMode).toBe("replay");
    expect(await replayer.generateObject("judge", request)).toEqual({ verdict: "pass", score: 0.5 });
    expect(offline.doGenerateCalls).toHaveLength(0);
    expect(ledger.byRole().judge).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 5, wallMs: 0 });

    await expect(replayer.generateObject("judge", { ...request, prompt: "Changed?" })).rejects.toThrow(
      /--replay: no recorded response/,
    );
    await expect(replayer.generateText("judge", { prompt: "Did it pass?" })).rejects.toThrow(SetupError);
  });

  it("needs no key to replay", () => {
    const file = path.join(dir, "none.jsonl");
    const c = new ModelClient("anthropic:claude-3-5-haiku-latest", {
      ledger: new UsageLedger(),
      env: {},
      cache: new ReplayCache(file, true),
    });
    expect(c.cacheMode).toBe("replay");
  });
});

describe("model client over HTTP", () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    const script = ModelScript.parse({
      steps: [{ when: "no prompt says this", say: "unused" }],
      fallback: "Hello from the scripted model.",
    });
    server = await startScriptedModelServer({ script });
  });
  afterAll(() => server.close());

  it("calls an OpenAI-compatible endpoint end to end through the real provider", async () => {
    const ledger = new UsageLedger();
    const c = new ModelClient(`openai-compatible:${server.url}/v1#scripted`, { ledger, env: {} });
    const text = await c.generateText("labeller", { system: "Be brief.", prompt: "Say hello." });
    expect(text).toBe("Hello from the scripted model.");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ api: "openai-chat", model: "scripted", prompt: "Say hello." });
    const usage = ledger.byRole().labeller!;
    expect(usage.calls).toBe(1);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect([...ledger.unpriced]).toEqual([`openai-compatible:${server.url}/v1#scripted`]);
  });

  it("gets structured output from an OpenAI-compatible endpoint, sending the JSON Schema", async () => {
    const logFile = path.join(mkdtempSync(path.join(tmpdir(), "gauntlet-client-http-")), "requests.jsonl");
    const json = await startScriptedModelServer({
      script: ModelScript.parse({
        structured: { Verdict: { verdict: "fail", score: 0.25 } },
      }),
      logFile,
      logBodies: true,
    });
    try {
      const c = new ModelClient(`openai-compatible:${json.url}/v1#scripted`, {
        ledger: new UsageLedger(),
        env: {},
      });
      const verdict = await c.generateObject("judge", {
        prompt: "Verdict?",
        schema: Verdict,
        schemaName: "Verdict",
      });
      expect(verdict).toEqual({ verdict: "fail", score: 0.25 });
      const body = JSON.parse(readFileSync(logFile, "utf8").trim()).body;
      expect(body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "Verdict" } });
      expect(body.response_format.json_schema.schema.required).toEqual(["verdict", "score"]);
    } finally {
      await json.close();
    }
  });

  it("reports a key the endpoint rejects (HTTP 401) without the key", async () => {
    const key = "sk-loopback-abcdef123456";
    let seen = "";
    const rejecting = http.createServer((req, res) => {
      seen = String(req.headers.authorization);
      req.resume();
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }));
    });
    await new Promise<void>((resolve) => rejecting.listen(0, "127.0.0.1", resolve));
    const { port } = rejecting.address() as AddressInfo;
    try {
      const c = new ModelClient(`openai-compatible:http://127.0.0.1:${port}/v1#m`, {
        ledger: new UsageLedger(),
        apiKeyEnv: "GATEWAY_TOKEN",
        env: { GATEWAY_TOKEN: key },
        retryBaseDelayMs: 1,
      });
      const error = await c.generateText("judge", { prompt: "hi" }).catch((e: unknown) => e);
      expect(seen).toBe(`Bearer ${key}`);
      expect(error).toBeInstanceOf(SetupError);
      expect((error as SetupError).hint).toContain("GATEWAY_TOKEN");
      expect(`${(error as Error).message} ${(error as SetupError).hint}`).not.toContain(key);
    } finally {
      await new Promise<void>((resolve) => rejecting.close(() => resolve()));
    }
  });
});
