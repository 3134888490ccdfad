import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonChatTarget, openAiChatTarget } from "../src/agents/chat/http-target.ts";
import { processChatTarget } from "../src/agents/chat/process-target.ts";
import { TargetError } from "../src/agents/chat/target.ts";

/** Chat targets (issue 5 §1) against small real servers and programs on this machine (loopback only). */

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

let server: Server;
let base = "";
const seen: { auth?: string; sessions: string[] } = { sessions: [] };

beforeAll(async () => {
  server = createServer(async (req, res) => {
    if (req.url === "/v1/chat/completions") {
      seen.auth = req.headers.authorization;
      const b = await body(req);
      const messages = b.messages as { role: string; content: string }[];
      const users = messages.filter((m) => m.role === "user");
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          choices: [
            {
              message: {
                role: "assistant",
                content: `you said ${users.at(-1)?.content}; turn ${users.length}`,
              },
            },
          ],
        }),
      );
    } else if (req.url === "/bot") {
      const b = await body(req);
      seen.sessions.push(String(b.sid));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: { reply: `echo: ${b.q}` } }));
    } else if (req.url === "/broken/chat/completions") {
      res.statusCode = 500;
      res.end("upstream exploded");
    } else {
      res.end("not json at all");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("http chat targets", () => {
  it("OpenAI-compatible: Gauntlet keeps the history, sends headers, and reset starts over", async () => {
    const t = openAiChatTarget(`${base}/v1`, { headers: { authorization: "Bearer test-key" } });
    expect((await t.send("hello")).text).toBe("you said hello; turn 1");
    expect((await t.send("book a flight")).text).toBe("you said book a flight; turn 2");
    expect(seen.auth).toBe("Bearer test-key");
    await t.reset();
    expect((await t.send("again")).text).toBe("you said again; turn 1");
  });

  it("JSON mapping: the template gets the message and one session id per conversation", async () => {
    const t = jsonChatTarget(`${base}/bot`, {
      request: { q: "{{message}}", sid: "{{session}}" },
      replyPath: "data.reply",
    });
    expect((await t.send("hi")).text).toBe("echo: hi");
    await t.send("there");
    await t.reset();
    await t.send("new");
    expect(seen.sessions[0]).toBe(seen.sessions[1]);
    expect(seen.sessions[2]).not.toBe(seen.sessions[1]);
  });

  it("a server error, a non-JSON reply and an unreachable endpoint are target errors naming the cause", async () => {
    await expect(openAiChatTarget(`${base}/broken`).send("x")).rejects.toThrow(
      /HTTP 500 .*upstream exploded/,
    );
    await expect(jsonChatTarget(`${base}/other`, { request: {}, replyPath: "a" }).send("x")).rejects.toThrow(
      /not JSON/,
    );
    const closed = openAiChatTarget("http://127.0.0.1:9/v1", { timeoutMs: 2000 });
    await expect(closed.send("x")).rejects.toBeInstanceOf(TargetError);
  });
});

const COUNTER = `
const rl = require("node:readline").createInterface({ input: process.stdin });
let n = 0;
rl.on("line", (l) => {
  n++;
  if (l === "hang") return;
  if (l === "die") { console.error("fatal: asked to die"); process.exit(3); }
  console.log("turn " + n + ": " + l);
});`;

describe("process chat target", () => {
  it("one line per turn; reset starts a fresh process", async () => {
    const t = processChatTarget([process.execPath, "-e", COUNTER]);
    expect((await t.send("hello")).text).toBe("turn 1: hello");
    expect((await t.send("two\nlines")).text).toBe("turn 2: two lines");
    await t.reset();
    expect((await t.send("again")).text).toBe("turn 1: again");
    await t.close();
  });

  it("a turn with no reply times out and kills the program; an exiting program is reported with its stderr", async () => {
    const t = processChatTarget([process.execPath, "-e", COUNTER], { timeoutMs: 500 });
    await expect(t.send("hang")).rejects.toThrow(/no reply line within 500 ms/);
    expect((await t.send("back")).text).toBe("turn 1: back"); // a fresh process after the kill
    await expect(t.send("die")).rejects.toThrow(/program exited \(code 3\): fatal: asked to die/);
    await t.close();
  });
});
