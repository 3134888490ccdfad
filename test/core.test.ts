import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unsafePathReason } from "../src/core/paths.ts";
import { RunStore } from "../src/core/run-store.ts";

describe("workspace paths", () => {
  it("rejects absolute paths and traversal", () => {
    expect(unsafePathReason("/etc/passwd")).toMatch(/absolute/);
    expect(unsafePathReason("a/../../b")).toMatch(/traversal/);
    expect(unsafePathReason("out/report.json")).toBeUndefined();
  });
});

describe("redaction and JSONL input errors", () => {
  it("treats API keys and tokens as secrets but not GIT_AUTHOR_NAME", async () => {
    const { isSecretName } = await import("../src/core/redaction.ts");
    expect(["OPENAI_API_KEY", "GH_TOKEN", "DB_PASSWORD", "AUTH_COOKIE"].every(isSecretName)).toBe(true);
    expect(["GIT_AUTHOR_NAME", "PWD", "KEYBOARD_LAYOUT", "PATH"].some(isSecretName)).toBe(false);
  });

  it("names a missing JSONL file instead of throwing ENOENT", async () => {
    const { readJsonl } = await import("../src/core/jsonl.ts");
    const { z } = await import("zod");
    expect(() => readJsonl("no/such.jsonl", z.unknown())).toThrow(/^no\/such\.jsonl: file not found$/);
  });
});

describe("multi-line secrets", () => {
  it("are redacted line by line, so a diff of a written key shows none of it", async () => {
    const { redact, secretsFromEnv } = await import("../src/core/redaction.ts");
    const key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
    const secrets = secretsFromEnv({ MY_KEY: key });
    const diff = key
      .split("\n")
      .map((l) => `+${l}`)
      .join("\n");
    expect(redact(diff, secrets)).not.toContain("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
    expect(redact(key, secrets)).toBe("[REDACTED:MY_KEY]");
  });
});

describe("run lock", () => {
  it("lets one process write a run at a time, and takes over a lock whose process is gone", () => {
    const base = mkdtempSync(path.join(tmpdir(), "lock-"));
    const store = RunStore.create(base, {});
    writeFileSync(store.file("lock"), "1"); // pid 1 (init) is alive
    expect(() => store.lock()).toThrow(/in use by process 1/);
    writeFileSync(store.file("lock"), "999999999"); // no such process
    const release = store.lock();
    expect(readFileSync(store.file("lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(store.file("lock"))).toBe(false);
  });
});
