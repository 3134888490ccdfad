import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { openChatTarget } from "../src/agents/chat/spec.ts";
import { InputError } from "../src/core/errors.ts";

/** `--target` target files (issue 5 §1): environment for programs, secrets in headers from the environment. */

const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-spec-"));
const file = (name: string, body: unknown) => {
  const f = path.join(dir, name);
  writeFileSync(f, stringify(body));
  return f;
};
const echoEnv =
  "const v = (n) => process.env[n] ?? 'unset'; process.stdin.on('data', () => process.stdout.write([v('BOT_MODE'), v('EXTRA'), v('OTHER')].join(' ') + '\\n'))";

describe("target files", () => {
  it("give a program PATH, the variables it names in passEnv and its env, nothing else", async () => {
    process.env.BOT_MODE = "quickly";
    process.env.OTHER = "leaked";
    const target = openChatTarget(
      file("bot.yaml", {
        kind: "process",
        command: [process.execPath, "-e", echoEnv],
        passEnv: ["BOT_MODE"],
        env: { EXTRA: "x" },
      }),
    );
    try {
      await target.reset();
      expect((await target.send("hi")).text).toBe("quickly x unset");
    } finally {
      await target.close();
      delete process.env.BOT_MODE;
      delete process.env.OTHER;
    }
  });

  it("refuse a header naming an unset variable, naming the file and header", () => {
    delete process.env.GAUNTLET_TEST_TOKEN;
    const f = file("http.yaml", {
      kind: "json",
      url: "http://127.0.0.1:9/chat",
      headers: { Authorization: `Bearer $${"{"}GAUNTLET_TEST_TOKEN}` },
    });
    expect(() => openChatTarget(f)).toThrow(InputError);
    expect(() => openChatTarget(f)).toThrow(/headers\.Authorization.*GAUNTLET_TEST_TOKEN is not set/);
  });

  it("reject an unknown spec with the forms it accepts", () => {
    const error = (() => {
      try {
        openChatTarget("ftp://bot");
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(error?.message).toMatch(/unknown target "ftp:\/\/bot"/);
    expect(error?.hint).toMatch(/use airline, openai:<base-url>/);
  });
});
