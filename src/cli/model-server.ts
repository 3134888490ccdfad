import type { Command } from "commander";
import { InputError, isErrnoCode } from "../core/errors.ts";
import { loadModelScript } from "../models/scripted-server/script.ts";
import { startScriptedModelServer } from "../models/scripted-server/server.ts";
import { portNumber } from "./flags.ts";

/**
 * `gauntlet model-server --script <file>` (issue 3 §5): serve a scripted model on 127.0.0.1 until Ctrl-C, so
 * a campaign's plumbing can be dry-run against real agent CLIs without spending tokens. Prints the base URL
 * and, per request, one line naming the API, the script step and the reply.
 */
export function registerModelServerCommand(program: Command): void {
  program
    .command("model-server")
    .description(
      "serve a scripted model on 127.0.0.1 over the Anthropic Messages, OpenAI Responses, Chat Completions and Gemini APIs",
    )
    .requiredOption("--script <file>", "YAML script (`gauntlet schema model-script` shows the shape)")
    .option("--port <n>", "port (default: a free one)", portNumber("--port"), 0)
    .option("--log <file>", "append one JSON line per request")
    .option("--log-bodies", "with --log: also log each request's whole body (large)")
    .option("--quiet", "print only the URL")
    .action(async (flags) => {
      const script = loadModelScript(flags.script, process.env, (name) =>
        process.stderr.write(`warning: \${${name}} is not set; it stays as written in the script\n`),
      );
      const server = await startScriptedModelServer({
        script,
        port: flags.port,
        logFile: flags.log,
        logBodies: flags.logBodies === true,
        onRequest: (r) => {
          if (flags.quiet) return;
          const what =
            r.reply.kind === "tool" ? `tool ${r.reply.name}` : `text "${r.reply.text.slice(0, 60)}"`;
          process.stderr.write(`${r.api} step=${r.step ?? "-"} call#${r.callsSincePrompt} → ${what}\n`);
        },
      }).catch((error: unknown) => {
        if (isErrnoCode(error, "EADDRINUSE"))
          throw new InputError(
            { field: "--port" },
            `port ${flags.port} is already in use`,
            "pick another port, or 0 for a free one",
          );
        throw error;
      });
      process.stdout.write(`${server.url}\n`);
      if (!flags.quiet)
        process.stderr.write(
          [
            "point agents at it, e.g.:",
            `  claude-code   ANTHROPIC_BASE_URL=${server.url}`,
            `  codex         model provider base_url = "${server.url}/v1" (wire_api "responses")`,
            `  gemini-cli    GOOGLE_GEMINI_BASE_URL=${server.url}`,
            `  opencode/qwen OPENAI_BASE_URL=${server.url}/v1`,
            "or set `baseUrl` of a real agent in gauntlet.yaml. Ctrl-C stops.",
            "",
          ].join("\n"),
        );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await server.close();
    });
}
