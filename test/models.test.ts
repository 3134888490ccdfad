import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, SetupError, StoppedError } from "../src/core/errors.ts";
import { formatModelSpec, parseModelSpec } from "../src/models/model-spec.ts";
import { canonicalJson, ReplayCache, requestKey } from "../src/models/replay-cache.ts";
import { UsageLedger } from "../src/models/usage.ts";

describe("model strings", () => {
  it("parses provider models and OpenAI-compatible endpoints", () => {
    expect(parseModelSpec("openai:gpt-4o-mini")).toEqual({ provider: "openai", model: "gpt-4o-mini" });
    expect(parseModelSpec("openai-compatible:http://127.0.0.1:11434/v1/#llama3.1")).toEqual({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "llama3.1",
    });
    expect(formatModelSpec(parseModelSpec("anthropic:claude-3-5-haiku-latest"))).toBe(
      "anthropic:claude-3-5-haiku-latest",
    );
  });

  it("rejects bad strings naming the field, and refuses credentials in URLs", () => {
    expect(() => parseModelSpec("gpt-4o", "models.judge")).toThrow(InputError);
    expect(() => parseModelSpec("gpt-4o", "models.judge")).toThrow(
      /^field "models.judge": "gpt-4o" names no provider$/,
    );
    expect(() => parseModelSpec("mistral:large")).toThrow(/unknown model provider "mistral"/);
    expect(() => parseModelSpec("openai-compatible:llama")).toThrow(/not <http\(s\) base-url>#<model>/);
    expect(() => parseModelSpec("openai-compatible:http://u:secret@h/v1#m")).toThrow(
      /credentials in the base URL/,
    );
  });
});

describe("usage ledger", () => {
  it("accounts calls, tokens, cost and time per role and in total", () => {
    const ledger = new UsageLedger();
    ledger.record("judge", "openai:gpt-4o-mini", {
      inputTokens: 1_000_000,
      outputTokens: 500_000,
      wallMs: 1200,
    });
    ledger.record("judge", "openai:gpt-4o-mini", { inputTokens: 0, outputTokens: 0, wallMs: 10 });
    ledger.record("labeller", "openai-compatible:http://127.0.0.1:1/v1#m", {
      inputTokens: 10,
      outputTokens: 5,
      wallMs: 3,
    });
    expect(ledger.byRole().judge).toEqual({
      calls: 2,
      inputTokens: 1_000_000,
      outputTokens: 500_000,
      costUsd: 0.45,
      wallMs: 1210,
    });
    expect(ledger.total().calls).toBe(3);
    expect([...ledger.unpriced]).toEqual(["openai-compatible:http://127.0.0.1:1/v1#m"]);
  });

  it("stops cleanly at a budget, naming the limit", () => {
    const ledger = new UsageLedger({ maxCalls: 2, maxUsd: 1 });
    ledger.admit("judge");
    ledger.record("judge", "openai:gpt-4o", { inputTokens: 100, outputTokens: 100, wallMs: 1 });
    ledger.admit("judge");
    ledger.record("judge", "openai:gpt-4o", { inputTokens: 100, outputTokens: 100, wallMs: 1 });
    expect(() => ledger.admit("judge")).toThrow(StoppedError);
    expect(() => ledger.admit("judge")).toThrow(/model budget reached \(2 of 2 calls\) before a judge call/);
    const money = new UsageLedger({ maxUsd: 0.001 });
    money.record("x", "openai:gpt-4o", { inputTokens: 1000, outputTokens: 0, wallMs: 1 });
    expect(() => money.admit("x")).toThrow(/\$0\.0025 of \$0\.001/);
  });
});

describe("record/replay cache", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-cache-"));

  it("hashes requests canonically, whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: undefined }] })).toBe('{"a":[2,{"d":3}],"b":1}');
    expect(requestKey({ model: "m", messages: ["x"] })).toBe(requestKey({ messages: ["x"], model: "m" }));
  });

  it("records a call to disk at once and replays it in a new process without a live call", () => {
    const file = path.join(dir, "calls.jsonl");
    const request = {
      model: "openai:gpt-4o-mini",
      role: "judge",
      messages: [{ role: "user", content: "verdict?" }],
    };
    const live = new ReplayCache(file);
    expect(live.lookup(request)).toBeUndefined();
    live.record(request, {
      model: request.model,
      role: "judge",
      response: { verdict: "pass" },
      usage: { inputTokens: 7, outputTokens: 2 },
    });
    const replay = new ReplayCache(file, true);
    expect(replay.lookup(request)?.response).toEqual({ verdict: "pass" });
    expect(() => replay.lookup({ ...request, messages: [] })).toThrow(SetupError);
  });

  it("names the line of a corrupt cache entry", () => {
    const file = path.join(dir, "bad.jsonl");
    writeFileSync(file, '{"key":"k"}\n');
    expect(() => new ReplayCache(file)).toThrow(/bad\.jsonl:1: field "model"/);
  });
});
