/**
 * `gauntlet boundary` on a chat bot over HTTP that nobody tuning Gauntlet wrote or read (issue 15): the
 * restaurant-table bot in `bench/agents/restaurant-bot.mjs`, written by a helper playing a new user (phone +
 * name identification, bookings with a party-size and opening-hours policy, same-day cancellation refused,
 * a yes/no gate, per-session random wording), with its own facts file. The bot is a separate process on
 * loopback, reached as `json:http://127.0.0.1:<port>/chat`, exactly as a user would point Gauntlet at theirs.
 *
 * Prints: the plan made against the clean bot (rules engines, defaults), its verdicts on the clean bot over
 * three fresh runs (false-alarm rate: the wording is random per session, so every run is a new paraphrase),
 * and, per seeded fault, whether the plan fails (kill). There is no privileged view: a kill is a failing test.
 *
 * Run: `npx tsx bench/boundary-http-bot.ts` (`--verbose` prints each clean run that did not pass)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { openChatTarget } from "../src/agents/chat/spec.ts";
import { runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan } from "../src/boundary/plan.ts";
import { boundaryRoles } from "../src/boundary/roles.ts";
import { runPlan } from "../src/boundary/run.ts";
import { campaignFacts, RULES_ENGINES } from "../src/cli/boundary.ts";

const BOT = path.join(import.meta.dirname, "agents", "restaurant-bot.mjs");
const FACTS = path.join(import.meta.dirname, "agents", "restaurant-facts.yaml");
const FAULTS = ["skipConfirm", "noGuestLimit", "anyPhone", "wrongTime", "sameDayCancel", "maybeYes"];

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Start the bot (with `faults`), wait until it answers, and return its target spec and process. */
async function startBot(faults: string[]): Promise<{ spec: string; child: ChildProcess }> {
  const port = await freePort();
  const args = [BOT, "--port", String(port), ...(faults.length ? ["--fault", faults.join(",")] : [])];
  const child = spawn(process.execPath, args, { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/chat`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url, {
        method: "POST",
        body: JSON.stringify({ message: "hi", session: "probe" }),
      });
      if (r.ok) return { spec: `json:${url}`, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`the bot did not start on port ${port}`);
}

async function main(): Promise<void> {
  const facts = campaignFacts("json:", FACTS);
  const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-http-bot-"));
  const engines = {
    runner: RULES_ENGINES.runner,
    labeller: RULES_ENGINES.labeller,
    judge: RULES_ENGINES.judge,
    facts,
  };
  try {
    const clean = await startBot([]);
    try {
      const started = performance.now();
      const summary = await runBoundaryCampaign({
        spec: clean.spec,
        target: openChatTarget(clean.spec),
        dir,
        facts,
        engines: boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl")),
        until: "plan",
        onProgress: () => {},
      });
      const plan = loadPlan(path.join(dir, "plan.yaml"));
      console.log(
        `restaurant bot over HTTP: ${summary.traces} discovery sessions, graph ${summary.graph.activities} activities / ${summary.graph.transitions} transitions, ${summary.tests.functional}+${summary.tests.boundary} tests, ${summary.guards.length} guards (${summary.guards.filter((g) => g.tests.length).length} targeted); ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      let fail = 0;
      let runs = 0;
      for (let k = 0; k < 3; k++)
        for (const r of await runPlan(openChatTarget(clean.spec), plan.tests, engines)) {
          runs++;
          if (r.verdict.verdict === "pass") continue;
          fail++;
          if (process.argv.includes("--verbose"))
            console.log(
              `  run ${k + 1} ${r.verdict.verdict} ${r.testId}: ${r.verdict.reason}\n${r.turns.map((t, i) => `    U: ${t.user}\n    A(${r.labels[i]?.activity}): ${t.reply.replace(/\n/g, " ").slice(0, 200)}`).join("\n")}`,
            );
        }
      console.log(
        `clean bot, 3 fresh runs of the plan: ${fail} of ${runs} runs not passing (FAR ${(fail / runs).toFixed(3)})`,
      );
      let killed = 0;
      for (const fault of FAULTS) {
        const bot = await startBot([fault]);
        try {
          const failing = (await runPlan(openChatTarget(bot.spec), plan.tests, engines)).filter(
            (r) => r.verdict.verdict === "fail",
          );
          if (failing.length) killed++;
          console.log(
            `  ${fault.padEnd(14)} ${failing.length ? `killed by ${failing.length} test(s)` : "survived"}`,
          );
        } finally {
          bot.child.kill();
        }
      }
      console.log(`faults killed: ${killed}/${FAULTS.length}`);
    } finally {
      clean.child.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
