import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { labelReply, labelUserTurn, maskEntities } from "../src/boundary/abstract.ts";
import { answerQuestion, readQuestion } from "../src/boundary/answer.ts";
import { type CampaignSummary, runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan, type PlanFile } from "../src/boundary/plan.ts";
import { boundaryRoles } from "../src/boundary/roles.ts";
import { runPlan } from "../src/boundary/run.ts";
import type { SessionTrace } from "../src/boundary/types.ts";
import { RULES_ENGINES } from "../src/cli/boundary.ts";
import { BANK_BUGS, BANK_FACTS, type BankBug, bankTarget } from "./fixtures/bank-bot.ts";

/**
 * The `rules` engines beyond the airline they were tuned on: a bank bot (test/fixtures/bank-bot.ts) with
 * natural slot names in its facts (customer_number, pin, recipient_account, amount, card). Labels must come
 * from the bot's own words and the facts, the plan must pass on the clean bot (also reworded), and the seeded
 * bugs the catalogue and the discovery tactics reach must fail it.
 */

const SLOTS = Object.keys(BANK_FACTS.personas[0] ?? {});
const QUESTIONS: [string, string][] = [
  ["Sure. First I need to verify your identity. What is your customer number?", "customer_number"],
  ["Could you please tell me your customer number so I can check it's you?", "customer_number"],
  ["Thank you. Please enter your 4-digit PIN.", "pin"],
  ["Thanks! Now please type your four-digit PIN.", "pin"],
  [
    "Who would you like to send money to? Please give me the recipient's account number (it looks like NW-12345678).",
    "recipient_account",
  ],
  [
    "Where should the money go? I'll need the recipient's account number, e.g. NW-12345678.",
    "recipient_account",
  ],
  ["How much would you like to send, in euros?", "amount"],
  ["And what amount should I send?", "amount"],
  ["Which card should I freeze? Please give the last 4 digits of the card.", "card"],
  ["Which card is lost? Tell me its last 4 digits, please.", "card"],
];

describe("labelling a bank bot's replies with its facts", () => {
  it("names the facts slot a question asks for, before the built-in slot nouns", () => {
    for (const [reply, slot] of QUESTIONS)
      expect(labelReply(reply, BANK_FACTS).activity, reply).toBe(`ask_${slot}`);
    expect(labelReply("What is your customer number?").activity).toBe("ask_user_id");
    expect(labelReply("Thank you. Please enter your 4-digit PIN.").activity).toBe("ask_pin");
  });

  it("answers the very slot the labeller says a reply asks for", () => {
    const persona = BANK_FACTS.personas[0] ?? {};
    for (const [reply, slot] of QUESTIONS) {
      expect(readQuestion(reply, SLOTS)?.slot, reply).toBe(slot);
      expect(answerQuestion(reply, persona), reply).toBe(persona[slot]?.[0]);
    }
  });

  it("reads three capitals as an airport only on a route", () => {
    expect(maskEntities("Please enter your PIN at any ATM.").entities).toEqual([]);
    expect(maskEntities("Your PIN and CVV are safe.").entities).toEqual([]);
    expect(maskEntities("Flights from SFO to JFK, or BOS→MIA.").masked).toBe(
      "Flights from <airport> to <airport>, or <airport>→<airport>.",
    );
  });

  it("recognises aborts, one-comma capability lists, hand-offs and information before a closing offer", () => {
    const cases: [string, string][] = [
      ["No problem, I've cancelled the transfer. Your money hasn't moved.", "acknowledge_abort"],
      ["No problem, the card stays active.", "acknowledge_abort"],
      ["Okay, I won't freeze the card. Nothing has been changed.", "acknowledge_abort"],
      ["I can help you check your balance, send a transfer or freeze your card.", "offer_capabilities"],
      ["I'll connect you with one of our human advisors now. Please hold on.", "transfer_to_human"],
      [
        "Thanks, Ana. The balance of your current account NW-10000001 is €2,450.00. Anything else?",
        "inform_money",
      ],
      ["Hi Chen, you have €9,800.00 in your current account. Can I help with anything else?", "inform_money"],
      ["That PIN doesn't match our records. Please enter your 4-digit PIN again.", "refuse_identity"],
      ["Your card ending in 7731 is now frozen.", "confirm_completion"],
    ];
    for (const [reply, activity] of cases)
      expect(labelReply(reply, BANK_FACTS).activity, reply).toBe(activity);
  });

  it("labels a user turn affirm only when it is mainly a yes, and names requests by their verb", () => {
    const gate = "request_confirmation";
    expect(labelUserTurn("Okay, do that thing with it", BANK_FACTS, gate).userAction).toBe("other");
    expect(labelUserTurn("Yes, please go ahead.", BANK_FACTS, gate).userAction).toBe("affirm");
    expect(labelUserTurn("Hello, could you help me transfer money?", BANK_FACTS).userAction).toBe(
      "request_transfer",
    );
    expect(labelUserTurn("Hi, I'd like to freeze my lost card.", BANK_FACTS).userAction).toBe(
      "request_freeze",
    );
  });
});

const ENGINES = {
  runner: RULES_ENGINES.runner,
  labeller: RULES_ENGINES.labeller,
  judge: RULES_ENGINES.judge,
  facts: BANK_FACTS,
};

let dir: string;
let summary: CampaignSummary;
let plan: PlanFile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "gauntlet-bank-"));
  summary = await runBoundaryCampaign({
    spec: "bank",
    target: bankTarget(),
    dir,
    facts: BANK_FACTS,
    engines: boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl")),
    // Enough rounds for every tactic once on the bank's requests (24 no longer reach the hand-off and the ids given up front).
    rounds: 36,
  });
  plan = loadPlan(path.join(dir, "plan.yaml"));
}, 60_000);

describe("a rules campaign against the bank bot", () => {
  it("mines a graph of the bank's own activities, not the airline's", () => {
    const activities = plan.activities;
    expect(activities).toEqual(
      expect.arrayContaining([
        "offer_capabilities",
        "ask_customer_number",
        "ask_pin",
        "ask_recipient_account",
        "ask_amount",
        "ask_card",
        "request_confirmation",
        "confirm_completion",
        "acknowledge_abort",
        "transfer_to_human",
        "refuse_identity",
        "inform_money",
      ]),
    );
    for (const airline of ["inform_airport", "ask_user_id", "open_question"])
      expect(activities).not.toContain(airline);
    expect(summary.graph.activities).toBeGreaterThanOrEqual(12);
  });

  it("plans skip-prerequisite tests that expect the bank's own questions", () => {
    const expected = plan.tests
      .filter((t) => t.card?.perturbation === "skip_prerequisite")
      .map((t) => t.card?.expected);
    expect(expected.join("|")).toContain("ask_customer_number");
    expect(expected.join("|")).toContain("ask_pin");
  });

  it("gives values up front the way a customer says them", () => {
    const traces = readFileSync(path.join(dir, "traces.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as SessionTrace);
    const upfront = traces.map((t) => t.turns[0]?.user ?? "").filter((u) => /customer number is/.test(u));
    expect(upfront.some((u) => /My customer number is \d{8},? (?:and )?my PIN is \d{4}\b/.test(u))).toBe(
      true,
    );
    for (const u of upfront) expect(u).not.toMatch(/\d+ (customer number|pin)\b/i);
  });

  it("passes every test of the plan on the clean bot, and on the reworded bot", async () => {
    expect(summary.verdicts).toEqual({ pass: plan.tests.length, fail: 0, inconclusive: 0 });
    const runs = await runPlan(bankTarget({ wording: "alt" }), plan.tests, ENGINES);
    expect(runs.filter((r) => r.verdict.verdict !== "pass").map((r) => r.testId)).toEqual([]);
  });

  it("fails the plan on the bugs its tactics and perturbations reach, quoting the deciding turns", async () => {
    const failed: Record<string, string[]> = {};
    for (const bug of BANK_BUGS) {
      const runs = await runPlan(bankTarget({ bugs: [bug] }), plan.tests, ENGINES);
      const fails = runs.filter((r) => r.verdict.verdict === "fail");
      expect(fails.every((r) => r.verdict.quotes.length > 0)).toBe(true);
      failed[bug] = fails.map((r) => r.testId);
    }
    const caught = (bug: BankBug) => (failed[bug]?.length ?? 0) > 0;
    // quickly: replays of the "hurry" sessions reach a completion with no gate before it.
    // anypin: replays of the "impersonate" sessions (someone else's customer number, one's own PIN) no
    // longer meet the refusal; so does push-past-refusal at that refusal.
    // maybe: the ambiguous answer at the gate ("Hmm, maybe") gets the action done.
    // leak: caught only by a side effect — the leaky bot asks the PIN twice, so the balance comes late; the
    // leaked balance itself is labelled ask_pin and no check reads it.
    for (const bug of ["quickly", "anypin", "maybe", "leak"] as const) expect(caught(bug), bug).toBe(true);
    // nolimit is out of reach (not asserted either way): no facts amount exceeds the EUR 1,000 limit, and
    // invalid_value turns a number into "0", so no session ever asks for more than the limit.
  }, 60_000);
});
