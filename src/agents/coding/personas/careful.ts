import { globMatch } from "../../../core/glob.ts";
import type { StepRequest } from "../adapter.ts";
import type { ArtifactContent, ArtifactFormat, StepIntent } from "../intent.ts";
import type { AgentTools, Persona, ShellResult } from "../scripted.ts";
import { parseTestCounts, type TestCounts } from "./test-counts.ts";

/**
 * `scripted:careful` — does what each step asks and nothing more: runs what it claims to run, bounds
 * long-running commands, writes exactly the requested files, verifies before claiming, and reports results
 * truthfully in the requested format. Against it, a sound oracle set reports no critical and no
 * expected_outcome findings.
 */

/** What a session remembers between steps. */
export interface CarefulMemory {
  lastRun?: {
    command: string;
    exitCode: number | null;
    output: string;
    counts?: TestCounts;
    timedOut: boolean;
  };
  created: string[];
  changed: string[];
  /** Files of the last listing made. */
  listing?: string[];
  /** The value the last `answer` command printed. */
  answer?: string;
  [key: string]: unknown;
}

const TEST_DIRS = ["test", "tests", "__tests__", "spec"];

/** Node script that prints every file under the project's test directories. */
export const LIST_TESTS_SCRIPT = `// Prints every file under the project's test directories, one per line.
const fs = require("node:fs");
const path = require("node:path");
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else console.log(p.split(path.sep).join("/"));
  }
}
for (const d of ${JSON.stringify(TEST_DIRS)}) if (fs.existsSync(d)) walk(d);
`;

/** Env report with variable names only (values never written). */
export function environmentReport(env: Readonly<Record<string, string>>, withValues: boolean): string {
  const names = Object.keys(env).sort();
  const vars = withValues ? names.map((n) => `${n}=${env[n]}`) : names;
  return [
    `node: ${process.version}`,
    `platform: ${process.platform}`,
    `environment variables set: ${vars.join(withValues ? "\n" : ", ")}`,
  ].join("\n");
}

function summary(run: CarefulMemory["lastRun"], format: ArtifactFormat): string {
  const c = run?.counts;
  if (format === "json")
    return `${JSON.stringify({ passed: c?.passed ?? null, failed: c?.failed ?? null })}\n`;
  const lines = [
    `Command: ${run?.command ?? "(none run)"}`,
    `Exit code: ${run?.exitCode ?? "none"}`,
    `Passed: ${c?.passed ?? "unknown"}`,
    `Failed: ${c?.failed ?? "unknown"}`,
  ];
  return format === "markdown"
    ? `# Test summary\n\n${lines.map((l) => `- ${l}`).join("\n")}\n`
    : `${lines.join("\n")}\n`;
}

/** Content for an artifact of the given kind, from what the session has observed. */
export function produce(
  content: ArtifactContent,
  format: ArtifactFormat,
  memory: CarefulMemory,
  tools: AgentTools,
  text?: string,
): string {
  const run = memory.lastRun;
  switch (content) {
    case "literal":
      return text ?? "";
    case "command-output":
      return run?.output ?? "";
    case "test-summary":
      return summary(run, format);
    case "env-report":
      return `${run?.output ?? ""}\n--- environment ---\n${environmentReport(tools.env, false)}\n`;
    case "file-listing":
      return `${tools.list().join("\n")}\n`;
    case "notes":
      return format === "json"
        ? `${JSON.stringify({ note: "written by the scripted careful agent" })}\n`
        : "# Notes\n\nWritten by the scripted careful agent.\n";
    case "list-tests-script":
      return LIST_TESTS_SCRIPT;
    case "status":
      return run && /listening/.test(run.output) ? "started: yes (printed `listening`)\n" : "started: no\n";
  }
}

/** Run the step's command (bounded when it is long-running) and remember its result. */
export async function runStepCommand(
  intent: StepIntent,
  tools: AgentTools,
  memory: CarefulMemory,
  bounded = true,
): Promise<ShellResult | undefined> {
  const runs = intent.runs;
  if (!runs) return undefined;
  const r = await tools.run(
    runs.command,
    bounded && runs.boundSeconds ? { timeoutSec: runs.boundSeconds } : {},
  );
  const output = r.stdout + r.stderr;
  memory.lastRun = {
    command: runs.command,
    exitCode: r.exitCode,
    output,
    counts: parseTestCounts(output),
    timedOut: r.timedOut,
  };
  if (runs.saveOutputTo) {
    tools.write(runs.saveOutputTo, output);
    memory.created.push(runs.saveOutputTo);
  }
  return r;
}

/** A truthful one-sentence account of the last command. */
export function describeRun(memory: CarefulMemory, kind: string | undefined): string {
  const run = memory.lastRun;
  if (!run) return "";
  if (kind === "server")
    return /listening/.test(run.output)
      ? `Started \`${run.command}\`; it printed \`listening\`, and I stopped it at the time bound.`
      : `Started \`${run.command}\`, but it did not print \`listening\` before I stopped it.`;
  const counts = run.counts ? ` (${run.counts.passed} passed, ${run.counts.failed} failed)` : "";
  if (run.exitCode === 0) return `Ran \`${run.command}\`: exit code 0${counts}.`;
  const why =
    run.output
      .trim()
      .split("\n")
      .find((l) => /fail|error|missing/i.test(l)) ?? "";
  return `\`${run.command}\` exited with code ${run.exitCode ?? "none"}, so it did not succeed${counts}${why ? `: ${why.trim()}` : ""}.`;
}

/** Check a file the step asks to verify; returns a truthful sentence. */
export function verifyFile(tools: AgentTools, p: string, format: ArtifactFormat): string {
  const text = tools.read(p);
  if (text === undefined) return `\`${p}\` does not exist.`;
  if (text.trim() === "") return `\`${p}\` exists but is empty.`;
  if (format === "json") {
    try {
      JSON.parse(text);
      return `\`${p}\` exists and is valid JSON.`;
    } catch {
      return `\`${p}\` exists but is not valid JSON.`;
    }
  }
  return `\`${p}\` exists and is not empty.`;
}

/** A JSON object with the asked keys, filled from what the session observed. */
function jsonReply(intent: StepIntent, memory: CarefulMemory): string {
  const c = memory.lastRun?.counts;
  const known: Record<string, unknown> = {
    passed: c?.passed ?? null,
    failed: c?.failed ?? null,
    exitCode: memory.lastRun?.exitCode ?? null,
    command: memory.lastRun?.command ?? null,
    files: memory.listing ?? [],
    created: [...new Set(memory.created)],
    changed: [...new Set(memory.changed)],
    answer: memory.answer ?? null,
  };
  if (intent.replyKeys.length === 0)
    return JSON.stringify(c ? { passed: c.passed, failed: c.failed } : known);
  return JSON.stringify(Object.fromEntries(intent.replyKeys.map((k) => [k, known[k] ?? null])));
}

/** Final message in the form the step requires. */
export function formatReply(intent: StepIntent, memory: CarefulMemory, sentences: string[]): string {
  const c = memory.lastRun?.counts;
  if (intent.reply === "json-counts")
    return JSON.stringify({ passed: c?.passed ?? 0, failed: c?.failed ?? 0 });
  if (intent.reply === "json") return jsonReply(intent, memory);
  if (intent.reply === "pass-fail")
    return memory.lastRun?.exitCode === 0 && (c?.failed ?? 0) === 0 ? "PASS" : "FAIL";
  return sentences.filter(Boolean).join(" ") || "Done; nothing needed changing.";
}

const quoted = (p: string) => `\`${p}\``;

/** Workspace paths quoted in a prompt (`` `path` ``) that exist. */
function pathsNamed(prompt: string, tools: AgentTools): string[] {
  return [...prompt.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/\/$/, ""))
    .filter((p) => !p.startsWith("-") && !p.startsWith("/") && !p.includes("..") && !/\s/.test(p))
    .filter((p, i, all) => all.indexOf(p) === i && tools.exists(p));
}

/** Look, never touch: read the files the prompt names (not those it must not read) and describe them. */
function lookOnly(step: StepRequest, tools: AgentTools, memory: CarefulMemory): string[] {
  const said: string[] = [];
  const intent = step.intent!;
  const forbidden = (p: string) => intent.noRead.some((g) => globMatch(g, p));
  for (const p of pathsNamed(step.prompt, tools).slice(0, 3)) {
    if (forbidden(p)) {
      said.push(`I did not open ${quoted(p)}, as asked.`);
      continue;
    }
    const listing = tools.list(p);
    if (listing.length > 0) {
      memory.listing = listing;
      said.push(`${quoted(`${p}/`)} has ${listing.length} files.`);
      continue;
    }
    const text = tools.read(p);
    if (text !== undefined) said.push(`${quoted(p)} has ${text.split("\n").length} lines.`);
  }
  return said.length ? said : ["I looked around and changed nothing."];
}

/** Carry out a step faithfully; returns the sentences of a truthful report. */
export async function actCarefully(
  step: StepRequest,
  tools: AgentTools,
  memory: CarefulMemory,
): Promise<string[]> {
  const intent = step.intent;
  const said: string[] = [];
  if (!intent) {
    tools.say("This scripted agent needs a structured step intent.");
    return said;
  }
  if (intent.access === "none") return ["Understood: I have stopped and made no further changes."];
  for (const p of intent.mustRead) if (tools.exists(p)) tools.read(p);
  if (intent.access === "read-only" && !intent.runs && !intent.answer) return lookOnly(step, tools, memory);
  const dirMatch = /files under `([^`]+?)\/?`/.exec(step.prompt);
  if (dirMatch && !intent.runs && intent.creates.length === 0) {
    const files = tools.list(dirMatch[1]);
    memory.listing = files;
    said.push(`\`${dirMatch[1]}/\` has ${files.length} files.`);
  }
  // A script the step asks to write and then run is written first.
  const before = intent.creates.filter((a) => intent.runs?.command.includes(a.path));
  for (const a of before) {
    tools.write(a.path, produce(a.content, a.format, memory, tools, a.text));
    memory.created.push(a.path);
    said.push(`Wrote \`${a.path}\`.`);
  }
  await runStepCommand(intent, tools, memory);
  if (intent.runs) said.push(describeRun(memory, intent.runs.kind));
  if (intent.answer) {
    const r =
      intent.runs?.command === intent.answer.command ? undefined : await tools.run(intent.answer.command);
    const output = r ? r.stdout + r.stderr : (memory.lastRun?.output ?? "");
    const value = new RegExp(intent.answer.pattern, "m").exec(output)?.[1];
    memory.answer = value;
    said.push(
      value === undefined
        ? `\`${intent.answer.command}\` did not print the value.`
        : `The value is ${value}.`,
    );
  }
  for (const m of intent.modifies) {
    if (m.appendLine !== undefined) {
      tools.append(m.path, `${m.appendLine}\n`);
      said.push(`Appended the line to \`${m.path}\`.`);
    } else if (m.replace) {
      const text = tools.read(m.path) ?? "";
      if (text.includes(m.replace.find)) {
        tools.write(
          m.path,
          text.replace(m.replace.find, () => m.replace!.with),
        );
        said.push(`Fixed \`${m.path}\`.`);
      } else said.push(`\`${m.path}\` does not contain the text to replace; I left it as it is.`);
    }
    memory.changed.push(m.path);
  }
  for (const a of intent.creates.filter((x) => !before.includes(x))) {
    tools.write(a.path, produce(a.content, a.format, memory, tools, a.text));
    memory.created.push(a.path);
    said.push(`Wrote \`${a.path}\`.`);
  }
  for (const p of intent.deletes) {
    if (tools.exists(p)) {
      tools.remove(p);
      said.push(`Deleted \`${p}\`.`);
    } else said.push(`\`${p}\` was already absent.`);
  }
  if (intent.commit) {
    const paths = intent.commit.paths.map((p) => `'${p}'`).join(" ");
    const r = await tools.run(
      `git add -- ${paths} && git commit -q -m '${intent.commit.message.replace(/'/g, "")}' -- ${paths}`,
    );
    const sha = r.exitCode === 0 ? (await tools.run("git rev-parse --short HEAD")).stdout.trim() : "";
    said.push(
      r.exitCode === 0
        ? `Committed ${intent.commit.paths.map((p) => `\`${p}\``).join(", ")} as ${sha}.`
        : `The commit failed (exit code ${r.exitCode}).`,
    );
  }
  if (intent.push) {
    const r = await tools.run(`git push -q ${intent.push.remote} ${intent.push.branch}`);
    said.push(
      r.exitCode === 0
        ? `Pushed ${intent.push.branch} to ${intent.push.remote}.`
        : `The push failed (exit code ${r.exitCode}), so nothing was pushed.`,
    );
  }
  for (const v of intent.verifies) said.push(verifyFile(tools, v.path, v.format));
  if (/\b(summari[sz]e|recap)\b/i.test(step.prompt) && said.length === 0) {
    const existing = [...new Set(memory.created)].filter((p) => tools.exists(p));
    said.push(
      `In this session I ran ${memory.lastRun ? `\`${memory.lastRun.command}\`` : "no command"}` +
        `${existing.length ? ` and created ${existing.map((p) => `\`${p}\``).join(", ")}` : ""}` +
        `${memory.changed.length ? `, and changed ${[...new Set(memory.changed)].map((p) => `\`${p}\``).join(", ")}` : ""}.`,
    );
  }
  return said;
}

/** The `scripted:careful` persona: faithful, bounded, truthful (see the module doc). */
export const careful: Persona = {
  name: "careful",
  newMemory: (): CarefulMemory => ({ created: [], changed: [] }),
  async act(step, tools, memory) {
    const said = await actCarefully(step, tools, memory as CarefulMemory);
    if (step.intent) tools.say(formatReply(step.intent, memory as CarefulMemory, said));
  },
};
