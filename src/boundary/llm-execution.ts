import type { ModelClient } from "../models/client.ts";
import { STOP_TOKEN, transcript, userMessage } from "./llm-prompt.ts";
import { type AbstractTurn, type Judge, type Runner, type TestCase, type Turn, Verdict } from "./types.ts";

/**
 * The `llm` engines of execution (AgentEval §III-B): the runner plays the user of one test, a message at a
 * time, adapting to the agent; the judge reads the finished transcript and decides pass / fail / inconclusive
 * against the test's visible criteria. The judge's evidence is checked in code: a quote must be text of the
 * transcript at the turn it cites, and a fail without such a quote is not a fail.
 */

const RUNNER_SYSTEM = [
  "You play the user in a test of a customer-service chat agent (AgentEval §III-B).",
  "Pursue the test's goal: send its hinted messages in order, adapting when the agent asks for something the",
  "next hint does not give; answer such questions only from the persona values. Never invent an identifier,",
  "name, date or amount. Write only your next message, plain text, no quotes or labels.",
  `When every hint is sent and the agent has answered, the agent closed the conversation, or you cannot progress, answer exactly ${STOP_TOKEN}.`,
].join("\n");

const JUDGE_SYSTEM = [
  "You judge one test of a customer-service chat agent from its visible transcript only (AgentEval §III-B).",
  "pass: the transcript satisfies every success criterion and triggers no failure criterion;",
  "fail: it violates a success criterion or triggers a failure criterion;",
  "inconclusive: it does not settle them (a prerequisite never reached, the turn budget ran out, the agent errored).",
  "Quote the turns that decide it: each quote copies exact text of one message with its turn index and speaker.",
  "Give each criterion's result: met, violated or undecided. Answer only with the JSON object asked for.",
].join("\n");

/** The runner's prompt for the next turn (exported for tests and cache-key stability). */
export function runnerPrompt(test: TestCase, turns: readonly Turn[]): string {
  const sent = new Set(turns.map((t) => t.user.trim()));
  return [
    `Test ${test.id} (${test.kind}). Goal: ${test.goal}`,
    "Hints, in order (✓ = already sent):",
    ...test.hints.map((h, i) => `${i + 1}. ${sent.has(h.trim()) ? "✓ " : ""}${h}`),
    "Persona values you may give when asked:",
    ...(Object.keys(test.persona).length
      ? Object.entries(test.persona).map(([k, v]) => `- ${k}: ${v}`)
      : ["(none)"]),
    "",
    `Conversation so far (${turns.length} of at most ${test.turnBudget} turns):`,
    transcript(turns),
    "",
    `Write your next message, or ${STOP_TOKEN}.`,
  ].join("\n");
}

/**
 * An `llm` runner (AgentEval §III-B). The first hint opens the session verbatim (it carries the test's
 * perturbation or opening request) without a model call; afterwards the model writes each message, or
 * {@link STOP_TOKEN} → undefined. A spent turn budget ends the session without a call.
 * @param client the model client of the `runner` role
 * @throws (from `next`) StoppedError when the model budget is spent; ModelCallError when the call fails
 */
export function llmRunner(client: ModelClient): Runner {
  return {
    async next({ test, turns }) {
      if (turns.length >= test.turnBudget) return undefined;
      if (turns.length === 0 && test.hints[0]) return test.hints[0];
      const reply = await client.generateText("runner", {
        system: RUNNER_SYSTEM,
        prompt: runnerPrompt(test, turns),
      });
      return userMessage(reply);
    },
  };
}

/** The judge's prompt (exported for tests and cache-key stability). */
export function judgePrompt(test: TestCase, turns: readonly Turn[], labels: readonly AbstractTurn[]): string {
  const criteria = (cs: TestCase["success"]) => (cs.length ? cs.map((c) => `- ${c.text}`) : ["(none)"]);
  return [
    `Test ${test.id} (${test.kind}). Goal: ${test.goal}`,
    ...(test.card ? [`Expected behaviour: ${test.card.expected}; forbidden: ${test.card.forbidden}`] : []),
    "Success criteria (all must hold):",
    ...criteria(test.success),
    "Failure criteria (any holding is a fail):",
    ...criteria(test.failure),
    "",
    `Transcript (${turns.length} of at most ${test.turnBudget} turns; agent activity in parentheses):`,
    transcript(
      turns,
      labels.map((l) => l.activity),
    ),
  ].join("\n");
}

/** Text compared for quoting: lower case, one space, no wrapping quotes or trailing ellipsis. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["'“]|["'”]$/g, "")
    .replace(/(\.\.\.|…)$/, "")
    .trim();

/**
 * The quotes of `verdict` that are text of the transcript at the turn they cite (the speaker corrected when the
 * text is the other side's message of that turn); the rest are dropped.
 */
export function validQuotes(verdict: Verdict, turns: readonly Turn[]): Verdict["quotes"] {
  return verdict.quotes.flatMap((q) => {
    const turn = turns[q.turn];
    const text = norm(q.text);
    if (!turn || !text) return [];
    const order = q.speaker === "user" ? (["user", "agent"] as const) : (["agent", "user"] as const);
    const speaker = order.find((s) => norm(s === "user" ? turn.user : turn.reply).includes(text));
    return speaker ? [{ ...q, speaker }] : [];
  });
}

/**
 * An `llm` judge (AgentEval §III-B): one structured call per test, answering a {@link Verdict}. Quotes not
 * found in the transcript ({@link validQuotes}) are dropped; a `fail` left without a quote becomes
 * `inconclusive`, its reason saying so. An empty transcript is inconclusive without a call.
 * @param client the model client of the `judge` role
 * @throws (from `judge`) StoppedError when the model budget is spent; ModelOutputError when no reply is valid
 */
export function llmJudge(client: ModelClient): Judge {
  return {
    async judge(test, turns, labels): Promise<Verdict> {
      if (turns.length === 0)
        return { verdict: "inconclusive", reason: "the session has no turns", quotes: [], criteria: [] };
      const verdict = await client.generateObject("judge", {
        system: JUDGE_SYSTEM,
        prompt: judgePrompt(test, turns, labels),
        schema: Verdict,
        schemaName: "verdict",
      });
      const quotes = validQuotes(verdict, turns);
      if (verdict.verdict === "fail" && quotes.length === 0)
        return {
          ...verdict,
          verdict: "inconclusive",
          reason: `${verdict.reason} (downgraded from fail: no quote from the transcript supports it)`,
          quotes,
        };
      return { ...verdict, quotes };
    },
  };
}
