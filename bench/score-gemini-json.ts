/**
 * Benchmark (issue 14): `gauntlet score` on one large Gemini CLI session JSON document — a single document,
 * not lines — against a bare streaming parse of the same file in the same run. Targets: throughput ≥ 0.5×
 * the bare streaming parse, peak memory ≤ 2× its peak, at every size, and the largest file scores (a 588 MB
 * document used to abort with "string longer than 0x1fffffe8").
 *
 * The parent generates `session-<N>MB.json` for each size in BENCH_GEMINI_MB (default "50"; the issue's
 * sizes: BENCH_GEMINI_MB=50,500,600) and measures each phase in its own child process so peak RSS belongs to
 * that phase alone:
 * - `parse`: stream-json over the file, assembling each `messages[i]` (what any streaming reader pays);
 * - `score`: Gauntlet's importer, all 11 detectors and the scorecard.
 * Run: `npx tsx bench/score-gemini-json.ts`. Files are generated in a temporary folder, never committed.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { measurePhase, type PhaseResult, printPhase, scoreFile } from "./phases.ts";

const MB = 1024 * 1024;

/** Write a Gemini CLI session document of at least `bytes` bytes: a user prompt, then tool-calling turns. */
async function generate(file: string, bytes: number): Promise<void> {
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
  const started = performance.now();
  let extra: Record<string, unknown> = {};
  if (phase === "parse") {
    const { readJsonValues } = await import("../src/score/import/read-json-values.ts");
    let messages = 0;
    for await (const v of readJsonValues(
      createReadStream(file),
      (p) => p.length === 2 && p[0] === "messages",
    ))
      if (v.value) messages++;
    extra = { messages };
  } else extra = await scoreFile(file);
  printPhase(started, extra);
}

function measure(phase: string, file: string): PhaseResult {
  return measurePhase(import.meta.filename, phase, file);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--phase");
  if (at > 0) return child(process.argv[at + 1] ?? "", process.argv[at + 2] ?? "");
  const sizes = (process.env.BENCH_GEMINI_MB ?? "50").split(",").map(Number);
  const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-gemini-"));
  try {
    console.log(
      "score-gemini-json (import + 11 detectors + scorecard vs a bare streaming parse, same file, same run)",
    );
    let ok = true;
    for (const mb of sizes) {
      const file = path.join(dir, `session-${mb}MB.json`);
      await generate(file, mb * MB);
      const size = statSync(file).size / MB;
      const parse = measure("parse", file);
      const score = measure("score", file);
      const ratio = parse.ms / score.ms;
      const memory = score.maxRssMB / parse.maxRssMB;
      ok &&= ratio >= 0.5 && memory <= 2;
      console.log(
        `${size.toFixed(0).padStart(5)} MB  parse ${(parse.ms / 1000).toFixed(1)} s (rss ${parse.maxRssMB.toFixed(0)} MB)  gauntlet ${(score.ms / 1000).toFixed(1)} s (rss ${score.maxRssMB.toFixed(0)} MB, ${score.events} events, ${score.flagged} flagged)  throughput ${ratio.toFixed(2)}× (target ≥ 0.5)  memory ${memory.toFixed(2)}× (target ≤ 2)`,
      );
      rmSync(file);
    }
    console.log(ok ? "targets met" : "targets NOT met");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
