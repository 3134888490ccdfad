import { existsSync } from "node:fs";
import { z } from "zod";
import { InputError } from "../../core/errors.ts";
import { loadYamlFile } from "../../core/yaml-file.ts";
import { AIRLINE_FAULTS, type AirlineFaults, airlineTarget } from "./airline/agent.ts";
import { jsonChatTarget, openAiChatTarget } from "./http-target.ts";
import { processChatTarget } from "./process-target.ts";
import type { ChatTarget } from "./target.ts";

/**
 * `--target <spec>` of `gauntlet boundary` (issue 5 §3): which chat agent to talk to.
 * - `airline` — the built-in reference agent; `airline?faults=skipConfirmation,flipInsurance&seed=2`
 *   switches seeded faults on and picks the paraphrase seed.
 * - `openai:<base-url>[#model]` — an OpenAI-compatible chat-completions endpoint (Gauntlet keeps the history).
 * - `json:<url>` — a custom JSON bot: POST `{"message": …, "session": …}`, reply text at `reply`.
 * - `process:<command line>` — a program speaking one line per turn on stdin/stdout.
 * - `<file>.yaml` — any of these with headers, timeouts and a custom request/reply mapping ({@link TargetFile}).
 */

/** A target file: the long form of a spec. */
export const TargetFile = z
  .object({
    kind: z.enum(["airline", "openai", "json", "process"]),
    url: z.string().url().optional().describe("`openai`: base URL (…/v1); `json`: the chat URL."),
    model: z.string().optional().describe("`openai`: the model name sent in each request."),
    system: z.string().optional().describe("`openai`: a system prompt sent first."),
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "HTTP headers, e.g. `Authorization: Bearer $" +
          "{BOT_TOKEN}`; a `$" +
          "{NAME}` in a value is read from the environment.",
      ),
    passEnv: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not an environment variable name"))
      .default([])
      .describe("`process`: environment variables passed to the program (it gets only PATH otherwise)."),
    env: z
      .record(z.string(), z.string())
      .default({})
      .describe("`process`: extra environment variables, as given."),
    cwd: z
      .string()
      .optional()
      .describe("`process`: working folder of the program (default: the current one)."),
    request: z.unknown().optional().describe("`json`: request template with {{message}} and {{session}}."),
    replyPath: z.string().default("reply").describe("`json`: dotted path of the reply text."),
    command: z.array(z.string().min(1)).optional().describe("`process`: program and arguments."),
    timeoutMs: z.number().int().positive().default(60_000).describe("Per-turn timeout, ms."),
    faults: z.array(z.enum(AIRLINE_FAULTS)).default([]).describe("`airline`: seeded faults to switch on."),
    seed: z.number().int().default(1).describe("`airline`: paraphrase seed."),
  })
  .strict();
export type TargetFile = z.output<typeof TargetFile>;

/** Whether `text` is an http(s) URL the HTTP targets can use (`new URL` would accept it). */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Split a command line on spaces, honouring simple single and double quotes. */
function splitCommand(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** Options `airline?…` takes. */
const AIRLINE_PARAMS = ["faults", "seed"];

/**
 * Parse the `…` of `airline?…` (faults, seed).
 * @throws InputError for an unknown option (a typo must not quietly test the clean agent), an unknown fault or
 *   a seed that is not an integer
 */
export function airlineOptions(query: string): { faults: AirlineFaults; seed: number } {
  const params = new URLSearchParams(query);
  for (const key of params.keys())
    if (!AIRLINE_PARAMS.includes(key))
      throw new InputError(
        { field: "--target" },
        `unknown airline option "${key}"`,
        "use airline?faults=skipConfirmation,flipInsurance&seed=2",
      );
  const faults: AirlineFaults = {};
  for (const f of (params.get("faults") ?? "").split(",").filter(Boolean)) {
    if (!(AIRLINE_FAULTS as readonly string[]).includes(f))
      throw new InputError(
        { field: "--target" },
        `unknown airline fault "${f}"`,
        `use one of ${AIRLINE_FAULTS.join(", ")}`,
      );
    faults[f as keyof AirlineFaults] = true;
  }
  const seedText = params.get("seed") ?? "1";
  const seed = Number(seedText);
  if (!/^-?\d+$/.test(seedText.trim()) || !Number.isSafeInteger(seed))
    throw new InputError({ field: "--target" }, `seed must be an integer`, "e.g. airline?seed=2");
  return { faults, seed };
}

/** Header values with `${NAME}` read from the environment. @throws InputError naming the header of an unset one */
function expandHeaders(headers: Record<string, string>, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => {
      const found = process.env[v];
      if (found === undefined)
        throw new InputError(
          { file: where, field: `headers.${name}` },
          `environment variable ${v} is not set`,
          `export ${v}=… before running`,
        );
      return found;
    });
  return out;
}

/** The environment of a `process` target: PATH, the variables named in `passEnv` (when set), and `env`. */
function processEnv(file: TargetFile): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  for (const name of file.passEnv)
    if (process.env[name] !== undefined) env[name] = process.env[name] as string;
  return { ...env, ...file.env };
}

function fromFile(file: TargetFile, where: string): ChatTarget {
  const need = (v: string | undefined, field: string) => {
    if (!v) throw new InputError({ file: where, field }, `kind ${file.kind} needs ${field}`, `add ${field}`);
    return v;
  };
  switch (file.kind) {
    case "airline":
      return airlineTarget({
        seed: file.seed,
        faults: Object.fromEntries(file.faults.map((f) => [f, true])),
      });
    case "openai":
      return openAiChatTarget(need(file.url, "url"), {
        headers: expandHeaders(file.headers, where),
        timeoutMs: file.timeoutMs,
        ...(file.model ? { model: file.model } : {}),
        ...(file.system ? { system: file.system } : {}),
      });
    case "json":
      return jsonChatTarget(
        need(file.url, "url"),
        {
          request: file.request ?? { message: "{{message}}", session: "{{session}}" },
          replyPath: file.replyPath,
        },
        { headers: expandHeaders(file.headers, where), timeoutMs: file.timeoutMs },
      );
    case "process":
      if (!file.command?.length)
        throw new InputError(
          { file: where, field: "command" },
          "kind process needs command",
          "e.g. command: [node, bot.js]",
        );
      return processChatTarget(file.command, {
        timeoutMs: file.timeoutMs,
        env: processEnv(file),
        ...(file.cwd ? { cwd: file.cwd } : {}),
      });
  }
}

/**
 * Open the chat target a spec names (see module doc).
 * @throws InputError naming `--target` (or the target file and field) for a spec it cannot use
 */
export function openChatTarget(spec: string): ChatTarget {
  const s = spec.trim();
  if (s === "airline" || s.startsWith("airline?")) {
    const { faults, seed } = airlineOptions(s.slice("airline".length + 1));
    return airlineTarget({ seed, faults });
  }
  const bad = (why: string, hint: string): never => {
    throw new InputError({ field: "--target" }, why, hint);
  };
  if (s.startsWith("openai:")) {
    const [url = "", model] = s.slice(7).split("#");
    if (!isHttpUrl(url))
      bad(`"${s}" has no valid http(s) base URL`, "e.g. openai:http://127.0.0.1:8000/v1#my-model");
    return openAiChatTarget(url, model ? { model } : {});
  }
  if (s.startsWith("json:")) {
    const url = s.slice(5);
    if (!isHttpUrl(url)) bad(`"${s}" has no valid http(s) URL`, "e.g. json:http://127.0.0.1:9000/chat");
    return jsonChatTarget(url, {
      request: { message: "{{message}}", session: "{{session}}" },
      replyPath: "reply",
    });
  }
  if (s.startsWith("process:")) {
    const argv = splitCommand(s.slice(8));
    if (!argv.length) bad("process: needs a command line", 'e.g. "process:node bot.js"');
    return processChatTarget(argv);
  }
  if (/\.ya?ml$/i.test(s)) {
    if (!existsSync(s)) bad(`target file ${s} not found`, "check the path");
    return fromFile(loadYamlFile(s, TargetFile, "see `gauntlet boundary --help` for target files"), s);
  }
  return bad(
    `unknown target "${s}"`,
    "use airline, openai:<base-url>[#model], json:<url>, process:<command> or a target .yaml file",
  );
}
