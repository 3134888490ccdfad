/**
 * Benchmark (issue 14): `gauntlet score` (format detection, import, all 11 detectors, scorecard) against a bare
 * streaming parse of the same file in the same run. Targets: throughput ≥ 0.5× the bare parse and peak
 * memory ≤ 2× the bare parse's peak, at every size, and the largest file scores.
 *
 * Files (generated in a temporary folder, never committed, removed after):
 * - Claude Code session JSONL of each size in BENCH_SCORE_MB (default "50,500"); the bare parse reads it
 *   line by line (readline) and `JSON.parse`s every line;
 * - one Gemini CLI session JSON document (a single document, not lines) of each size in BENCH_GEMINI_MB
 *   (default "600"); the bare parse streams it with stream-json, assembling each `messages[i]`.
 * Each phase runs in its own child process, so its peak RSS (`maxRSS`) is its own.
 * Run: `npx tsx bench/score-throughput.ts` (a quick look: `BENCH_SCORE_MB=50 BENCH_GEMINI_MB=50`).
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { seededRandom } from "../src/score/calibrate/prng.ts";
import { loadScorer, measurePhase, printPhase } from "./phases.ts";

const MB = 1024 * 1024;

const WORDS =
  "const let function return import export from await async if else for while class interface type string number boolean value result error config options handler request response parse render update create delete items index count total buffer stream event listener promise resolve reject module".split(
    " ",
  );

/** Code-like text of about `chars` characters. */
function codeText(random: () => number, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  let i = 1;
  while (n < chars) {
    const words = Array.from(
      { length: 4 + Math.floor(random() * 8) },
      () => WORDS[Math.floor(random() * WORDS.length)],
    );
    const line = `${String(i++).padStart(5)}\t${"  ".repeat(Math.floor(random() * 4))}${words.join(" ")}${random() < 0.3 ? `_${Math.floor(random() * 1000)}` : ""};`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

/** Write a Claude Code session JSONL of at least `bytes` bytes: a user prompt, then tool-use turns. */
export async function generate(file: string, bytes: number): Promise<void> {
  const random = seededRandom(42);
  const out = createWriteStream(file);
  const session = "5f0c1a2e-0000-4000-8000-000000000001";
  let written = 0;
  let parent: string | null = null;
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/project",
    sessionId: session,
    version: "2.1.14",
    gitBranch: "main",
  });
  const write = async (record: Record<string, unknown>) => {
    const line = `${JSON.stringify(record)}\n`;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, "drain");
  };
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  let turn = 0;
  const userUuid = uuid();
  await write({
    ...base(),
    type: "user",
    message: { role: "user", content: "Refactor the services package and keep the tests green." },
    uuid: userUuid,
    timestamp: new Date(t0).toISOString(),
  });
  parent = userUuid;
  while (written < bytes) {
    turn++;
    const ts = new Date(t0 + turn * 4000).toISOString();
    const r = random();
    const fileName = `src/module${Math.floor(random() * 400)}/part${Math.floor(random() * 20)}.ts`;
    const tool =
      r < 0.4
        ? { name: "Read", input: { file_path: `/home/dev/project/${fileName}` } }
        : r < 0.65
          ? {
              name: "Bash",
              input: {
                command:
                  random() < 0.5 ? "npm test" : `grep -rn handler src/module${Math.floor(random() * 400)}`,
                description: "run",
              },
            }
          : r < 0.85
            ? {
                name: "Edit",
                input: {
                  file_path: `/home/dev/project/${fileName}`,
                  old_string: codeText(random, 120),
                  new_string: codeText(random, 140),
                },
              }
            : { name: "Grep", input: { pattern: WORDS[Math.floor(random() * WORDS.length)], path: "src" } };
    const callId = `toolu_${String(turn).padStart(20, "0")}`;
    const assistantUuid = uuid();
    await write({
      ...base(),
      message: {
        id: `msg_${turn}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [
          ...(random() < 0.6
            ? [{ type: "text", text: `Next I will look at ${fileName}. ${codeText(random, 80)}` }]
            : []),
          { type: "tool_use", id: callId, name: tool.name, input: tool.input },
        ],
        stop_reason: "tool_use",
        usage: {
          input_tokens: 12 + Math.floor(random() * 100),
          cache_read_input_tokens: 40000 + turn,
          output_tokens: 80 + Math.floor(random() * 300),
        },
      },
      requestId: `req_${turn}`,
      type: "assistant",
      uuid: assistantUuid,
      timestamp: ts,
    });
    parent = assistantUuid;
    const output = codeText(random, 400 + Math.floor(random() * 5000));
    const failed = tool.name === "Bash" && random() < 0.2;
    const resultUuid = uuid();
    await write({
      ...base(),
      type: "user",
      message: {
        role: "user",
        content: [
          {
            tool_use_id: callId,
            type: "tool_result",
            content: failed ? `Error: Exit code 1\n${output}` : output,
            is_error: failed,
          },
        ],
      },
      uuid: resultUuid,
      timestamp: ts,
      toolUseResult:
        tool.name === "Bash"
          ? { stdout: output, stderr: "", interrupted: false, isImage: false }
          : { type: "text", file: { filePath: fileName, numLines: 100 } },
    });
    parent = resultUuid;
  }
  out.end();
  await once(out, "finish");
}

/** Write a Gemini CLI session document of at least `bytes` bytes: a user prompt, then tool-calling turns. */
export async function generateGemini(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, "drain");
  };
  await write(
    `{"sessionId":"bench-session","projectHash":"${"a".repeat(64)}","startTime":"2026-01-01T00:00:00.000Z","messages":[`,
  );
  await write(
    JSON.stringify({
      id: "m0",
      timestamp: "2026-01-01T00:00:00.000Z",
      type: "user",
      content: "Refactor the parser.",
    }),
  );
  let written = 200;
  for (let i = 1; written < bytes; i++) {
    const file = `src/module_${i % 400}.ts`;
    const output = Array.from(
      { length: 60 },
      (_, k) => `${k + 1}\texport function f${i}_${k}() { return ${k}; }`,
    ).join("\n");
    const m = {
      id: `m${i}`,
      timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      type: "gemini",
      content: `Reading ${file} to continue the refactor (step ${i}).`,
      toolCalls: [
        {
          id: `call-${i}`,
          name: i % 5 === 0 ? "run_shell_command" : "read_file",
          args: i % 5 === 0 ? { command: `npm test -- --grep step${i}` } : { absolute_path: `/repo/${file}` },
          result: [{ functionResponse: { id: `call-${i}`, name: "read_file", response: { output } } }],
          status: "success",
          timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000 + 500).toISOString(),
        },
      ],
      tokens: { input: 1000 + i, output: 50, cached: 0, thoughts: 0, tool: 0, total: 1050 + i },
      model: "gemini-2.5-pro",
    };
    const s = `,${JSON.stringify(m)}`;
    written += s.length;
    await write(s);
  }
  await write("]}");
  out.end();
  await once(out, "finish");
}

/** Child phase: run one measurement and print `{ms, maxRssMB, ...}` as JSON. */
async function child(phase: string, file: string): Promise<void> {
  const scoreFile = phase === "score" ? await loadScorer() : undefined;
  const started = performance.now();
  let extra: Record<string, unknown> = {};
  if (phase === "parse-jsonl") {
    let lines = 0;
    const rl = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of rl) {
      if (line) JSON.parse(line);
      lines++;
    }
    extra = { lines };
  } else if (phase === "parse-json") {
    const { readJsonValues } = await import("../src/score/import/read-json-values.ts");
    let messages = 0;
    for await (const v of readJsonValues(
      createReadStream(file),
      (p) => p.length === 2 && p[0] === "messages",
    ))
      if (v.value) messages++;
    extra = { messages };
  } else if (scoreFile) extra = await scoreFile(file);
  printPhase(started, extra);
}

const sizes = (v: string | undefined, fallback: string) =>
  (v ?? fallback)
    .split(",")
    .map(Number)
    .filter((n) => n > 0);

async function main(): Promise<void> {
  const at = process.argv.indexOf("--phase");
  if (at > 0) return child(process.argv[at + 1] ?? "", process.argv[at + 2] ?? "");
  const runs = [
    ...sizes(process.env.BENCH_SCORE_MB, "50,500").map((mb) => ({ kind: "claude-code-jsonl", mb })),
    ...sizes(process.env.BENCH_GEMINI_MB, "600").map((mb) => ({ kind: "gemini-cli-json", mb })),
  ];
  const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-score-"));
  const rows: string[] = [];
  let met = true;
  try {
    for (const { kind, mb } of runs) {
      const file = path.join(dir, `session-${mb}MB.${kind === "gemini-cli-json" ? "json" : "jsonl"}`);
      await (kind === "gemini-cli-json" ? generateGemini(file, mb * MB) : generate(file, mb * MB));
      const size = statSync(file).size / MB;
      const parse = measurePhase(
        import.meta.filename,
        kind === "gemini-cli-json" ? "parse-json" : "parse-jsonl",
        file,
      );
      const score = measurePhase(import.meta.filename, "score", file);
      rmSync(file);
      const ratio = parse.ms / score.ms;
      const memory = score.maxRssMB / parse.maxRssMB;
      met &&= ratio >= 0.5 && memory <= 2;
      rows.push(
        `${kind.padEnd(18)} ${size.toFixed(0).padStart(4)} MB  parse ${(size / (parse.ms / 1000)).toFixed(1).padStart(6)} MB/s, rss ${parse.maxRssMB.toFixed(0).padStart(4)} MB  ` +
          `gauntlet ${(size / (score.ms / 1000)).toFixed(1).padStart(6)} MB/s, rss ${score.maxRssMB.toFixed(0).padStart(4)} MB (${score.events} events, ${score.flagged} flagged)  ` +
          `throughput ${ratio.toFixed(2)}× (≥ 0.5)  memory ${memory.toFixed(2)}× (≤ 2)`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    "score-throughput (detect + import + 11 detectors + scorecard vs a bare streaming parse, same file, same run)",
  );
  for (const r of rows) console.log(r);
  console.log(met ? "targets met" : "targets NOT met");
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
