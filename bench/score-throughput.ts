/**
 * Benchmark (issue 4): `gauntlet score` import + detect throughput on a large Claude Code session log, as a
 * ratio of bare line-by-line `JSON.parse` over the same file in the same run (target ≥ 0.5), and peak RSS
 * (target: flat in file size, < 300 MB).
 *
 * The parent generates a Claude-Code-style session JSONL of BENCH_SCORE_MB megabytes (default 200) and one
 * of a quarter that size, then measures each phase in its own child process so peak RSS (`maxRSS`) belongs
 * to that phase alone:
 * - `parse`: read the file line by line (readline) and `JSON.parse` every line — the floor any importer pays;
 * - `score`: Gauntlet's importer (format detection, mapping to standard events) plus all 11 detectors and
 *   the scorecard.
 * Throughput ratio = parse time / score time on the same file. Run: `npx tsx bench/score-throughput.ts`.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { measurePhase, type PhaseResult, printPhase, scoreFile } from "./phases.ts";

const MB = 1024 * 1024;

/** A seeded PRNG (Mulberry32) so the generated log is the same every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const random = prng(42);
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

/** Child phase: run one measurement and print `{ms, maxRssMB, ...}` as JSON. */
async function child(phase: string, file: string): Promise<void> {
  const started = performance.now();
  let extra: Record<string, unknown> = {};
  if (phase === "parse") {
    let lines = 0;
    const rl = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of rl) {
      if (line) JSON.parse(line);
      lines++;
    }
    extra = { lines };
  } else extra = await scoreFile(file);
  printPhase(started, extra);
}

function measure(phase: string, file: string): PhaseResult {
  return measurePhase(import.meta.filename, phase, file);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--phase");
  if (at > 0) return child(process.argv[at + 1] ?? "", process.argv[at + 2] ?? "");
  const sizeMB = Number(process.env.BENCH_SCORE_MB ?? 200);
  const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-score-"));
  try {
    const rows: string[] = [];
    const results: { mb: number; ratio: number; rss: number }[] = [];
    for (const mb of [sizeMB / 4, sizeMB]) {
      const file = path.join(dir, `session-${mb}MB.jsonl`);
      if (!existsSync(file)) await generate(file, mb * MB);
      const size = statSync(file).size / MB;
      const parse = measure("parse", file);
      const score = measure("score", file);
      const ratio = parse.ms / score.ms;
      results.push({ mb: size, ratio, rss: score.maxRssMB });
      rows.push(
        `${size.toFixed(0).padStart(5)} MB  parse ${(size / (parse.ms / 1000)).toFixed(1).padStart(6)} MB/s (rss ${parse.maxRssMB.toFixed(0)} MB)  ` +
          `gauntlet ${(size / (score.ms / 1000)).toFixed(1).padStart(6)} MB/s (rss ${score.maxRssMB.toFixed(0)} MB, ${score.events} events, ${score.flagged} flagged)  ratio ${ratio.toFixed(2)}`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    const [small, big] = results as [(typeof results)[0], (typeof results)[0]];
    console.log(
      "score-throughput (import + 11 detectors + scorecard vs bare JSON.parse, same file, same run)",
    );
    for (const r of rows) console.log(r);
    console.log(
      `throughput ratio at ${big.mb.toFixed(0)} MB: ${big.ratio.toFixed(2)} (target ≥ 0.5) · peak RSS ${big.rss.toFixed(0)} MB (target < 300) · RSS growth ${small.mb.toFixed(0)}→${big.mb.toFixed(0)} MB: ×${(big.rss / small.rss).toFixed(2)} (flat = ×1)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
