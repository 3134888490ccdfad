import { describe, expect, it } from "vitest";
import { HELDOUT10_FAULTS, heldout10Agent } from "../bench/agents/heldout10.ts";
import { Facts } from "../src/boundary/types.ts";

interface Run {
  replies: string[];
  fingerprint: string;
  states: readonly string[];
}

async function converse(script: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Run> {
  const target = heldout10Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const turn of script) replies.push((await target.send(turn)).text);
  const run = { replies, fingerprint: target.fingerprint(), states: target.statesVisited() };
  await target.close();
  return run;
}

const PRIYA = "priya.shah@example.com";
const TOM = "tom.brennan@example.com";
const GRACE = "grace.okafor@example.com";
const LEO = "leo.martin@example.com";
const MEI = "mei.chen@example.com";

/** Scripted conversations on the clean agent, meant together to walk (almost) every designed state. */
const COVERAGE: Record<string, string[]> = {
  smalltalk: [
    "Hello",
    "help",
    "What are your opening hours?",
    "How much is delivery for a £50 basket?",
    "How much is delivery?",
    "Which delivery slots are available?",
    "Can you give me a recipe for lasagne?",
    "blorp",
    "thanks",
    "I want to speak to a person",
    "bye",
  ],
  lockout: ["track my order", "not sure", "nobody@example.com", PRIYA, "BS9 9ZZ", "BK-40222", "hello", "bye"],
  points: [
    "How many loyalty points do I have?",
    MEI,
    "BS8 1TH",
    "1500",
    "700",
    "1000",
    "no",
    "redeem 1000 points",
    "yes",
  ],
  address: ["I need to update my delivery address", TOM, "BS3 1AB", "EX4 4QJ", "BS6 5QA", "no"],
  addressYes: [
    "Please change my address to BS6 5QA",
    PRIYA,
    "BS1 4DJ",
    "yes",
    "update my address",
    "never mind",
  ],
  claim: [
    "Some eggs were missing from my order BK-40190",
    PRIYA,
    "1234",
    "4821",
    "the strawberries were damaged too",
    "no",
    "I want to report missing eggs",
    "I want a refund",
    "caviar",
    "bananas",
    "tomatoes",
    "hmm",
    "4821",
    "I want a refund for order BK-40217",
  ],
  graceClaims: [
    "The salmon on order BK-39960 was damaged",
    GRACE,
    "the greek yoghurt from BK-40150 was missing",
    "Can you cancel order BK-40150?",
  ],
  tomCancel: [
    "Please cancel my order BK-40222",
    TOM,
    "I want to change my delivery slot",
    "add coffee to my order",
    "where is my order?",
  ],
  priyaCancel: [
    "cancel order BK-40217",
    PRIYA,
    "no",
    "cancel order BK-40217",
    "yes",
    "cancel BK-40217 please",
  ],
  meiAdd: ["Can you add a bottle of red wine to my order?", MEI, "BK-40241", "make it 2", "2264"],
  meiAddDecline: ["add olive oil to my order", MEI, "BK-40241", "1111", "no"],
  leoAdd: [
    "add red wine to my order",
    LEO,
    "BK-40230",
    "add 3 crisps to my order",
    "I'd like to add something to my order",
    "caviar",
    "apples",
    "7702",
  ],
  slots: [
    "I want to change my delivery slot",
    PRIYA,
    "BS1 4DJ",
    "BK-40222",
    "BK-40217",
    "today at 8am",
    "today 11am",
    "Sunday 9am",
    "option 4",
    "hmm maybe",
    "no",
    "move my delivery slot to Friday 13 June 17:00-18:00",
    "yes",
  ],
};

/** One conversation per fault whose replies or fingerprint show the fault. */
const FAULT_SCRIPTS: Record<string, string[]> = {
  skip_card_auth: ["Some eggs were missing from my order BK-40190", PRIYA, "4821"],
  accept_wrong_digits: ["Some eggs were missing from my order BK-40190", PRIYA, "5519"],
  track_without_auth: ["Where is my order BK-40217?"],
  claim_window_ignored: ["The salmon on order BK-39960 was damaged", GRACE, "5519"],
  claim_cap_ignored: ["The greek yoghurt on order BK-40150 was missing", GRACE, "5519"],
  cancel_out_for_delivery: ["Please cancel my order BK-40222", TOM, "yes"],
  other_customer_order: ["track my order", PRIYA, "BS1 4DJ", "BK-40222"],
  no_lockout: ["track my order", PRIYA, "BS3 1AB", "BS3 1AB", "BS3 1AB", "BK-40217"],
  age_check_skipped: ["add red wine to my order", LEO, "BK-40230", "7702"],
  gate_change_forgotten: [
    "change my delivery slot",
    PRIYA,
    "BK-40217",
    "option 4",
    "actually option 3",
    "yes",
  ],
  no_still_writes: ["cancel order BK-40217", PRIYA, "no"],
  duplicate_claim: [
    "Some eggs were missing from my order BK-40190",
    PRIYA,
    "4821",
    "The eggs were missing, I want a refund",
    "4821",
  ],
  refund_over_price: ["Some eggs were missing from my order BK-40190", PRIYA, "4821"],
  points_value_wrong: ["I'd like to redeem 1000 points", MEI, "BS8 1TH", "yes"],
  delivery_charge_wrong: ["Where is my order BK-40217?", PRIYA],
  item_limit_ignored: ["add 3 crisps to my order", LEO, "BK-40230", "7702"],
  points_balance_unchecked: ["I'd like to redeem 1500 points", MEI, "BS8 1TH", "yes"],
  postcode_area_unchecked: ["I need to update my delivery address", TOM, "BS3 1AB", "EX4 4QJ", "yes"],
  slot_within_two_hours: ["change my delivery slot", PRIYA, "BK-40217", "today 11am", "yes"],
  confirm_wrong_slot: ["change my delivery slot", PRIYA, "BK-40217", "option 4", "yes"],
  refund_amount_dropped: ["Some eggs were missing from my order BK-40190", PRIYA, "4821"],
  wrong_item_name: ["add olive oil to my order", MEI, "BK-40241", "2264"],
};

describe("heldout10 testbed agent (grocery delivery)", () => {
  it("has facts that parse and a sane shape", () => {
    const facts = Facts.parse(heldout10Agent.facts);
    expect(facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(facts.personas.length).toBeLessThanOrEqual(6);
    expect(heldout10Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout10Agent.states.length).toBeLessThanOrEqual(70);
    expect(new Set(heldout10Agent.states).size).toBe(heldout10Agent.states.length);
    expect(heldout10Agent.faults).toEqual(HELDOUT10_FAULTS);
    expect(heldout10Agent.faults.length).toBeGreaterThanOrEqual(18);
    expect(heldout10Agent.faults.length).toBeLessThanOrEqual(22);
    expect(() => heldout10Agent.create({ faults: ["nope"] })).toThrow();
  });

  it("reaches at least 80% of the designed states on the clean agent, and reports only designed ids", async () => {
    const designed = new Set(heldout10Agent.states);
    const reached = new Set<string>();
    for (const script of Object.values(COVERAGE)) {
      const run = await converse(script);
      for (const s of run.states) {
        expect(designed.has(s), s).toBe(true);
        reached.add(s);
      }
    }
    const missing = heldout10Agent.states.filter((s) => !reached.has(s));
    expect(reached.size / designed.size, `missing: ${missing.join(", ")}`).toBeGreaterThanOrEqual(0.8);
  });

  it("states from fault runs are designed ids too", async () => {
    const designed = new Set(heldout10Agent.states);
    for (const [fault, script] of Object.entries(FAULT_SCRIPTS)) {
      const run = await converse(script, [fault]);
      for (const s of run.states) expect(designed.has(s), `${fault}: ${s}`).toBe(true);
    }
  });

  it("has a script for every fault", () => {
    expect(Object.keys(FAULT_SCRIPTS).sort()).toEqual([...heldout10Agent.faults].sort());
  });

  for (const fault of HELDOUT10_FAULTS) {
    it(`fault ${fault} is observable`, async () => {
      const script = FAULT_SCRIPTS[fault]!;
      const clean = await converse(script);
      const faulty = await converse(script, [fault]);
      const differs =
        JSON.stringify(clean.replies) !== JSON.stringify(faulty.replies) ||
        clean.fingerprint !== faulty.fingerprint;
      expect(differs).toBe(true);
    });
  }

  it("is deterministic per seed and paraphrases across seeds without changing the fingerprint", async () => {
    let wordingDiffers = false;
    for (const script of [...Object.values(COVERAGE), ...Object.values(FAULT_SCRIPTS)]) {
      const runs = await Promise.all([1, 2, 3].map((seed) => converse(script, [], seed)));
      const again = await converse(script, [], 2);
      expect(again.replies).toEqual(runs[1]!.replies);
      expect(runs[1]!.fingerprint).toBe(runs[0]!.fingerprint);
      expect(runs[2]!.fingerprint).toBe(runs[0]!.fingerprint);
      expect(runs[1]!.states).toEqual(runs[0]!.states);
      if (runs.some((r) => JSON.stringify(r.replies) !== JSON.stringify(runs[0]!.replies)))
        wordingDiffers = true;
    }
    expect(wordingDiffers).toBe(true);
  });

  it("commits writes that persist within a session and are undone by reset", async () => {
    const target = heldout10Agent.create();
    await target.reset();
    for (const turn of ["cancel order BK-40217", PRIYA, "yes", "cancel BK-40217"]) await target.send(turn);
    expect(target.fingerprint()).toContain("write:cancel BK-40217");
    expect(target.statesVisited()).toContain("cancel.refused_status");
    await target.reset();
    expect(target.fingerprint()).toBe("");
    expect(target.statesVisited()).toEqual([]);
    await target.send("cancel order BK-40217");
    await target.send(PRIYA);
    expect(target.statesVisited()).toContain("cancel.confirm");
  });
});
