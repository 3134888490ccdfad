import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import pc from "picocolors";
import { GauntletError } from "../core/errors.ts";

/**
 * The `gauntlet` command line. Exit codes (DESIGN.md "CI use"): 0 ok; 1 findings or failures over the
 * configured threshold; 2 bad input or setup (one clear line, no stack trace unless `--debug`);
 * 3 internal error.
 */

const VERSION = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;

const FS_CODES: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "already exists",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EIO: "input/output error (not a regular file?)",
};

/** A one-line description of a file-system error on a user-given path (exit 2), or undefined. */
function fileSystemProblem(error: unknown): string | undefined {
  const e = error as { code?: string; path?: string };
  if (!e || typeof e !== "object" || !e.code || !FS_CODES[e.code]) return undefined;
  return e.path ? `${e.path}: ${FS_CODES[e.code]}` : `a path you gave: ${FS_CODES[e.code]}`;
}

type Register = (program: Command) => void;

/**
 * Each top-level command and how to load what registers it, in help order. Loaded only when asked for:
 * `gauntlet score …` does not load the fuzzing, boundary or witness code (nor the model SDKs they bring).
 */
const COMMANDS: readonly [string, () => Promise<Register>][] = [
  ["demo", async () => (await import("./demo.ts")).registerDemoCommand],
  ["agents", async () => (await import("./agents.ts")).registerAgentsCommands],
  ["fuzz", async () => (await import("./fuzz.ts")).registerFuzzCommands],
  ["model-server", async () => (await import("./model-server.ts")).registerModelServerCommand],
  ["score", async () => (await import("./score.ts")).registerScoreCommands],
  ["boundary", async () => (await import("./boundary.ts")).registerBoundaryCommands],
  ["witness", async () => (await import("./witness.ts")).registerWitnessCommands],
  ["schema", async () => (await import("./schema.ts")).registerSchemaCommand],
];

/** The top-level command `argv` (as in process.argv) names, past the global options; undefined when none. */
export function commandOf(argv: readonly string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--config") i++;
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}

/**
 * Build the commander program: with `only`, just that top-level command (when it is one), else every
 * command (for help, version and unknown commands).
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command("gauntlet")
    .description(
      "Behavioural testing of AI agents: find where they misbehave, with evidence a person can check.",
    )
    .option("--debug", "show stack traces of errors", false)
    .option("--config <file>", "configuration file", "gauntlet.yaml")
    .version(VERSION, "--version", "print the version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  const one = COMMANDS.filter(([name]) => name === only);
  for (const [, load] of one.length ? one : COMMANDS) (await load())(program);
  return program;
}

/** Run the CLI with `argv` (as in process.argv); returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram(commandOf(argv));
  const debug = argv.includes("--debug");
  try {
    await program.parseAsync(argv as string[]);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit cleanly; usage errors were already printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof GauntletError) {
      process.stderr.write(`${pc.red("error:")} ${error.message}\n`);
      if (error.hint) process.stderr.write(`${pc.dim("hint:")} ${error.hint}\n`);
      if (debug && error.stack) process.stderr.write(`${error.stack}\n`);
      return error.exitCode;
    }
    const fsProblem = fileSystemProblem(error);
    if (fsProblem) {
      process.stderr.write(
        `${pc.red("error:")} ${fsProblem}\n${pc.dim("hint:")} check the path and its permissions\n`,
      );
      if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${pc.red("internal error:")} ${message}\n`);
    if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    else
      process.stderr.write(
        `${pc.dim("hint:")} run again with --debug to see the stack trace, and report it\n`,
      );
    return 3;
  }
}
