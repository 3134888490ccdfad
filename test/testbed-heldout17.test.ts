import { describe, expect, it } from "vitest";
import { heldout17Agent as agent } from "../bench/agents/heldout17.ts";
import { Facts } from "../src/boundary/types.ts";

const PRIYA = ["log in", "HL40217733", "14/03/1962", "481926"];
const TOM = ["log in", "HL55190864", "22/09/1975", "730415"];
const GRACE = ["log in", "HL61003379", "05/01/1958", "205588"];

interface Run {
  replies: string[];
  states: readonly string[];
  fp: string;
}

async function run(
  turns: readonly string[],
  options: { faults?: string[]; seed?: number } = {},
): Promise<Run> {
  const target = agent.create(options);
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const out = { replies, states: target.statesVisited(), fp: target.fingerprint() };
  await target.close();
  return out;
}

/** One conversation per fault where the faulty agent visibly (or in its writes) departs from the clean one. */
const FAULT_SCRIPTS: Record<string, string[]> = {
  otp_skipped: ["log in", "HL40217733", "14/03/1962", "what's my balance?"],
  no_lockout: ["log in", "HL40217733", "14/03/1962", "111111", "222222", "333333", "444444"],
  reverify_skipped: [...PRIYA, "I've moved house", "7 Harbour Steps, Whitby", "YO22 4JR", "YO22 4JR"],
  other_member_pot: [...PRIYA, "tell me about pot P-2001"],
  withdraw_age_unchecked: [...TOM, "I'd like to take a lump sum", "5000"],
  withdraw_over_balance: [...PRIYA, "withdraw a lump sum", "P-1001", "250000"],
  contrib_no_confirm: [...PRIYA, "change my contributions", "8"],
  transfer_scam_ignored: [
    ...PRIYA,
    "transfer my pension",
    "lighthouse",
    "P-1001",
    "Aviva Workplace Pension",
    "yes",
  ],
  cancel_after_cooloff: [...PRIYA, "cancel my transfer", "TR-66021", "yes"],
  benef_total_unchecked: [
    ...PRIYA,
    "update my beneficiaries",
    "lighthouse",
    "2",
    "Arjun Nair",
    "1",
    "60",
    "Meera Nair",
    "3",
    "30",
    "yes",
  ],
  quote_age_unchecked: [...TOM, "can I get a retirement quote?", "50", "b"],
  tax_free_miscalc: [...PRIYA, "withdraw a lump sum", "P-1001", "10000"],
  withdraw_fee_omitted: [...PRIYA, "withdraw a lump sum", "P-1001", "10000"],
  cooling_off_wrong: [
    ...PRIYA,
    "transfer my pension",
    "lighthouse",
    "P-1001",
    "Aviva Workplace Pension",
    "no",
    "TRANSFER",
  ],
  contrib_correction_lost: [...PRIYA, "change my contributions", "8", "no, make it 10", "yes"],
  benef_share_swap: [
    ...PRIYA,
    "update my beneficiaries",
    "lighthouse",
    "2",
    "Arjun Nair",
    "spouse",
    "60",
    "Meera Nair",
    "child",
    "40",
    "yes",
  ],
  balance_value_mutation: [...PRIYA, "what's my balance?"],
  balance_status_mislabel: [...PRIYA, "what's my balance?"],
};

/** Extra conversations that walk the rest of the designed states. */
const COVERAGE: string[][] = [
  [
    "hello",
    "help",
    "blah blah",
    "what are your opening hours?",
    "what are the charges?",
    "what age can I take my pension?",
  ],
  [
    "how is a lump sum taxed?",
    "cooling off period?",
    "is this a scam",
    "how much can I pay in?",
    "what's your phone number",
  ],
  ["I forgot my membership number", "cancel", "thanks", "bye"],
  ["HL1234", "HL99999999", "1962", "01/01/1970", "HL40217733", "02/02/1962", "HL40217733", "03/03/1962"],
  [
    "what's my balance",
    "HL40217733 14/03/1962",
    "12",
    "resend",
    "481926",
    "P-1002",
    "P-9999",
    "sign in",
    "sign out",
  ],
  [
    ...PRIYA,
    "withdraw",
    "P-9999",
    "P-2001",
    "P-1003",
    "P-1001",
    "500",
    "300000",
    "10000",
    "yes",
    "WITHDRAW",
    "1111",
    "4471",
  ],
  [...PRIYA, "take money out of P-1002", "£2,000", "WITHDRAW", "0000", "1111"],
  [...GRACE, "withdraw", "P-3001", "P-3002", "stop", "contributions", "quote", "66", "68", "a"],
  [...TOM, "withdraw", "change my contributions", "statement", "3", "1", "b", "quote", "50", "60", "c"],
  [...PRIYA, "change my contributions", "45", "8", "no, make it 10", "yes"],
  [...PRIYA, "contributions", "5", "contributions", "8", "no"],
  [...PRIYA, "statement", "2024/25", "a"],
  [
    ...PRIYA,
    "who are my beneficiaries?",
    "update my beneficiaries",
    "banana",
    "lighthouse",
    "5",
    "2",
    "Arjun Nair",
    "1",
    "150",
    "60",
  ],
  [...PRIYA, "Meera Nair", "child", "30", "70", "30", "yes"],
  [...PRIYA, "change beneficiary", "lighthouse", "1", "Meera Nair", "child", "no"],
  [...PRIYA, "change beneficiary", "apple", "pear", "update address"],
  [
    ...PRIYA,
    "transfer out",
    "lighthouse",
    "P-9999",
    "P-2001",
    "P-1003",
    "P-1001",
    "Aviva",
    "no",
    "yes",
    "TRANSFER",
  ],
  [...PRIYA, "cancel transfer", "TR-12345", "TR-77120", "TR-66021"],
  [...GRACE, "transfer my pension", "sunflower", "P-3001", "P-3002"],
  [...GRACE, "cancel transfer TR-77120", "no", "cancel transfer TR-77120", "yes", "cancel transfer TR-77120"],
  [...GRACE, "I've moved house", "sunflower", "Rue des Lilas 14, Lyon, France"],
  [
    ...TOM,
    "I've moved house",
    "marmalade",
    "Flat 3, 88 Wharf Street, Leeds",
    "12345",
    "LS2 7EQ",
    "LS2 7EE",
    "LS2 7EQ",
    "LS2 7EQ",
  ],
  [...PRIYA, "transfer my pension", "lighthouse", "P-1001", "Aviva", "no", "TRANSFER", "cancel transfer"],
  ["speak to a human"],
];

describe("heldout17 testbed agent (Harbourline Pensions)", () => {
  it("has valid facts, enough faults and designed states", () => {
    expect(() => Facts.parse(agent.facts)).not.toThrow();
    expect(agent.facts.personas.length).toBeGreaterThanOrEqual(2);
    expect(agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(agent.faults).size).toBe(agent.faults.length);
    expect(agent.states.length).toBeGreaterThanOrEqual(60);
    expect(new Set(agent.states).size).toBe(agent.states.length);
    expect(Object.keys(FAULT_SCRIPTS).sort()).toEqual([...agent.faults].sort());
  });

  for (const fault of agent.faults) {
    it(`fault ${fault} changes replies or fingerprint`, async () => {
      const script = FAULT_SCRIPTS[fault] ?? [];
      const clean = await run(script);
      const faulty = await run(script, { faults: [fault] });
      const differs = clean.fp !== faulty.fp || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs).toBe(true);
    });
  }

  it("applies the business rules on the clean agent", async () => {
    const w = await run(FAULT_SCRIPTS.tax_free_miscalc ?? []);
    expect(w.replies.at(-1)).toContain("£2,500.00");
    expect(w.replies.at(-1)).toContain("£8,470.00");
    const c = await run(FAULT_SCRIPTS.contrib_correction_lost ?? []);
    expect(c.fp).toContain("write:contribution:HL40217733:10%");
    const t = await run(FAULT_SCRIPTS.withdraw_age_unchecked ?? []);
    expect(t.states).toContain("withdraw.refused_under_age");
    const x = await run(FAULT_SCRIPTS.cooling_off_wrong ?? []);
    expect(x.replies.at(-1)).toContain("30 June 2025");
    expect(x.replies.at(-1)).toMatch(/TR-\d{5}/);
  });

  it("is deterministic for a seed and words replies differently across seeds", async () => {
    const script = [...PRIYA, "what's my balance?", "withdraw", "P-1001", "10000"];
    const a = await run(script, { seed: 2 });
    const b = await run(script, { seed: 2 });
    expect(a.replies).toEqual(b.replies);
    expect(a.fp).toEqual(b.fp);
    const s1 = await run(script, { seed: 1 });
    const s3 = await run(script, { seed: 3 });
    expect(s1.replies[0]).not.toEqual(a.replies[0]);
    expect(s1.replies.at(-1)).not.toEqual(s3.replies.at(-1));
    expect(s1.states).toEqual(s3.states);
    const g1 = await run(["hi"], { seed: 1 });
    const g2 = await run(["hi"], { seed: 2 });
    const g3 = await run(["hi"], { seed: 3 });
    expect(new Set([g1.replies[0], g2.replies[0], g3.replies[0]]).size).toBe(3);
  });

  it("reports only designed states and reaches most of them", async () => {
    const designed = new Set(agent.states);
    const seen = new Set<string>();
    for (const script of [...Object.values(FAULT_SCRIPTS), ...COVERAGE]) {
      const r = await run(script);
      for (const s of r.states) {
        expect(designed.has(s), s).toBe(true);
        seen.add(s);
      }
    }
    const missing = agent.states.filter((s) => !seen.has(s));
    expect(missing).toEqual([]);
    expect(seen.size / designed.size).toBeGreaterThan(0.5);
  });

  it("reset starts a fresh session and writes last only for the session", async () => {
    const target = agent.create();
    for (const turn of [...PRIYA, "withdraw", "P-1001", "10000", "WITHDRAW", "4471"]) await target.send(turn);
    expect(target.fingerprint()).toContain("write:withdrawal");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    const r = await target.send("what's my balance?");
    expect(r.text).not.toContain("Priya");
    for (const turn of PRIYA.slice(1)) await target.send(turn);
    expect(target.fingerprint()).toContain("relay:pot:P-1001:active:186420.55");
    const fresh = await run([...PRIYA, "balance"]);
    expect(fresh.fp).toContain("relay:pot:P-1001:active:186420.55");
  });

  it("never throws on odd input", async () => {
    const target = agent.create({ seed: 7 });
    for (const turn of [
      "",
      "   ",
      "🙂🙂",
      "x".repeat(5000),
      "null",
      "{}",
      "P-",
      "TR-",
      "HL",
      "yes",
      "no",
      "2",
      "%%%",
    ]) {
      const r = await target.send(turn);
      expect(typeof r.text).toBe("string");
      expect(r.text.length).toBeGreaterThan(0);
    }
    for (const turn of [...PRIYA, "withdraw", "???", "", "cancel", "transfer", "lighthouse", "🙂", "stop"]) {
      const r = await target.send(turn);
      expect(r.text.length).toBeGreaterThan(0);
    }
  });
});
