import { describe, expect, it } from "vitest";
import { heldout19Agent as agent } from "../bench/agents/heldout19.ts";
import { Facts } from "../src/boundary/types.ts";

const MAYA = ["sign in", "07700 900123", "482913"];
const TOMASZ = ["sign in", "07700 900456", "615204"];
const LENA = ["sign in", "07700 900789", "307518"];

interface Run {
  replies: string[];
  states: readonly string[];
  fp: string;
}

async function play(turns: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Run> {
  const t = agent.create({ faults, seed });
  await t.reset();
  const replies: string[] = [];
  for (const u of turns) replies.push((await t.send(u)).text);
  const run = { replies, states: t.statesVisited(), fp: t.fingerprint() };
  await t.close();
  return run;
}

/** One conversation per fault, on which the faulty agent differs from the clean one. */
const FAULT_SCRIPTS: Record<string, string[]> = {
  fines_no_auth: ["I want to appeal fine PF-7731", "1", "yes"],
  no_lockout: ["sign in", "07700 900123", "111111", "222222", "333333", "482913", "what's my balance"],
  ride_other_customer: [...MAYA, "cost breakdown for R-6201"],
  topup_ignore_limit: [...MAYA, "top up 250", "yes"],
  close_skip_reverify: [...TOMASZ, "close my account"],
  pass_cancel_no_phrase: [...TOMASZ, "cancel my pass", "yes"],
  dispute_no_confirm: [...MAYA, "dispute ride R-5101", "a", "10"],
  fine_deadline_ignored: [...MAYA, "appeal PF-7402"],
  breakdown_wrong_total: [...MAYA, "breakdown of R-5102"],
  dispute_refund_wrong: [...MAYA, "dispute R-5101", "a", "10", "yes"],
  pass_refund_wrong: [...TOMASZ, "cancel my pass", "CANCEL PASS"],
  topup_forget_correction: [...MAYA, "top up 20", "no, make it 30", "yes"],
  pass_wrong_type: [...MAYA, "top up 20", "yes", "buy a month pass", "yes", "what pass do I have"],
  card_saved_wrong: [
    ...MAYA,
    "change my card",
    "1991-03-08",
    "5555 5555 5555 4444",
    "08/27",
    "4444",
    "which card",
  ],
  fine_status_wrong: [...MAYA, "show my fines"],
  balance_wrong: [...MAYA, "what's my balance"],
  ride_vehicle_wrong: [...MAYA, "show my rides"],
};

/** Conversations that together walk the designed states. */
const COVERAGE: string[][] = [
  [
    "hi",
    "help",
    "how much does it cost",
    "where can I park",
    "how do I end a ride",
    "how old do I need to be",
    "what passes do you have",
    "what are your support hours",
    "how do fines work",
    "blah blah",
    "thanks",
    "bye",
    "",
    "talk to a human",
  ],
  [
    "sign in",
    "07700 000000",
    "07700 900123",
    "resend the code",
    "111111",
    "222222",
    "333333",
    "sign in",
    "07700 900123",
  ],
  [...MAYA, "sign in", "show my rides", "breakdown", "R-9999", "R-6201", "breakdown R-5102", "sign out"],
  [
    ...MAYA,
    "I want to dispute a charge",
    "R-9999",
    "R-6201",
    "dispute R-4877",
    "dispute R-5090",
    "dispute R-5101",
    "b",
    "dispute R-5101",
    "a",
    "45",
    "10",
    "no, make it 12",
    "yes",
    "dispute R-5102",
    "c",
    "no",
  ],
  [...MAYA, "what's my balance", "top up", "2", "250", "20", "no make it 30", "yes", "top up 50", "no"],
  [...MAYA, "do I have a pass", "cancel my pass", "buy a month pass", "buy a pass", "1", "no"],
  [...MAYA, "buy a day pass", "yes", "what pass do I have", "cancel my pass", "buy a pass"],
  [...TOMASZ, "cancel my pass", "keep it", "cancel my pass", "yes", "CANCEL PASS", "top up 100"],
  [...LENA, "cancel my pass", "top up 10", "close my account", "30/07/2001"],
  [
    ...MAYA,
    "show my fines",
    "appeal a fine",
    "PF-9999",
    "PF-8333",
    "appeal PF-7610",
    "appeal PF-7402",
    "appeal PF-7731",
    "1",
    "no, it's 2",
    "yes",
    "appeal PF-7731",
  ],
  [...MAYA, "appeal PF-7731", "3", "no"],
  [
    ...MAYA,
    "report a damaged scooter",
    "SC-0000",
    "EB-3315",
    "report damage",
    "SC-4471",
    "no",
    "a",
    "no, it's the battery",
    "yes",
    "report damage SC-1180",
    "yes",
    "report BK-2290",
    "nobody is hurt",
    "b",
    "no",
  ],
  [
    ...MAYA,
    "which card do I have",
    "change my card",
    "1 Jan 1990",
    "1991-03-08",
    "4111 1111 1111 1112",
    "5555 5555 5555 4444",
    "03/24",
    "change my card",
    "5555 5555 5555 4444",
    "08/27",
    "1234",
    "4444",
    "close my account",
  ],
  [...MAYA, "update my card", "8 March 1991", "4111 1111 1111 1111", "12/26", "0000", "1234"],
  [...TOMASZ, "change my card", "01/01/1980", "02/02/1980"],
  [
    ...TOMASZ,
    "close my account",
    "1985-11-23",
    "yes",
    "no",
    "close my account",
    "CLOSE MY ACCOUNT",
    "sign in",
    "07700 900456",
  ],
  ["sign in", "never mind"],
];

describe("heldout19 (Loop bike & scooter share support)", () => {
  it("declares a valid shape: facts, states, faults", () => {
    expect(() => Facts.parse(agent.facts)).not.toThrow();
    expect(agent.facts.personas.length).toBeGreaterThanOrEqual(2);
    expect(new Set(agent.states).size).toBe(agent.states.length);
    expect(agent.states.length).toBeGreaterThanOrEqual(60);
    expect(new Set(agent.faults).size).toBe(agent.faults.length);
    expect(agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(FAULT_SCRIPTS).sort()).toEqual([...agent.faults].sort());
  });

  for (const fault of agent.faults) {
    it(`fault ${fault} changes replies or fingerprint`, async () => {
      const script = FAULT_SCRIPTS[fault] ?? [];
      const clean = await play(script);
      const faulty = await play(script, [fault]);
      const differs = clean.fp !== faulty.fp || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs).toBe(true);
    });
  }

  it("each fault acts only on its own script-relevant behaviour (clean == faulty on greeting)", async () => {
    for (const fault of agent.faults) {
      const a = await play(["hello", "how much does it cost"]);
      const b = await play(["hello", "how much does it cost"], [fault]);
      expect(b.replies).toEqual(a.replies);
    }
  });

  it("is deterministic per seed", async () => {
    for (const seed of [1, 2, 3]) {
      for (const conv of COVERAGE.slice(0, 6)) {
        const a = await play(conv, [], seed);
        const b = await play(conv, [], seed);
        expect(b.replies).toEqual(a.replies);
        expect(b.fp).toEqual(a.fp);
        expect(b.states).toEqual(a.states);
      }
    }
  });

  it("words replies differently across seeds but keeps the same states", async () => {
    const conv = COVERAGE[3] ?? [];
    const s1 = await play(conv, [], 1);
    const s2 = await play(conv, [], 2);
    const s3 = await play(conv, [], 3);
    expect(s2.states).toEqual(s1.states);
    expect(s3.states).toEqual(s1.states);
    const differ12 = s1.replies.filter((r, i) => r !== s2.replies[i]).length;
    const differ13 = s1.replies.filter((r, i) => r !== s3.replies[i]).length;
    expect(differ12).toBeGreaterThan(s1.replies.length / 2);
    expect(differ13).toBeGreaterThan(s1.replies.length / 2);
    const greet = await Promise.all([1, 2, 3].map(async (seed) => (await play(["hi"], [], seed)).replies[0]));
    expect(new Set(greet).size).toBe(3);
  });

  it("reports only designed states and reaches most of them", async () => {
    const designed = new Set(agent.states);
    const seen = new Set<string>();
    for (const conv of COVERAGE) {
      const run = await play(conv);
      for (const s of run.states) {
        expect(designed.has(s)).toBe(true);
        seen.add(s);
      }
    }
    for (const script of Object.values(FAULT_SCRIPTS)) {
      for (const s of (await play(script)).states) expect(designed.has(s)).toBe(true);
    }
    const missing = agent.states.filter((s) => !seen.has(s));
    expect(missing).toEqual([]);
    expect(seen.size / designed.size).toBeGreaterThan(0.5);
  });

  it("reset starts a fresh conversation and restores the seed data", async () => {
    const t = agent.create();
    for (const u of [...MAYA, "top up 20", "yes"]) await t.send(u);
    expect(t.fingerprint()).toContain("write:topup");
    await t.reset();
    expect(t.statesVisited()).toEqual([]);
    expect(t.fingerprint()).toBe("");
    const r = await t.send("what's my balance");
    expect(r.text).toMatch(/phone number/i);
    for (const u of ["07700 900123", "482913"]) await t.send(u);
    const bal = await t.send("what's my balance");
    expect(bal.text).toContain("€16.40");
  });

  it("writes persist within a session", async () => {
    const run = await play([...MAYA, "top up 20", "yes", "what's my balance"]);
    expect(run.replies.at(-1)).toContain("€36.40");
  });

  it("refuses another customer's records and enforces limits", async () => {
    const run = await play([...MAYA, "breakdown R-6201", "dispute R-6201", "appeal PF-8333", "top up 250"]);
    expect(run.states).toContain("rides.refused_not_yours");
    expect(run.states).toContain("dispute.refused_not_yours");
    expect(run.states).toContain("fines.refused_not_yours");
    expect(run.states).toContain("topup.refused_over_limit");
    expect(run.fp).not.toContain("R-6201");
  });

  it("computes the month pass refund and the dispute credit", async () => {
    const pass = await play([...TOMASZ, "cancel my pass", "CANCEL PASS"]);
    expect(pass.replies.at(-1)).toContain("€19.67");
    const dispute = await play([...MAYA, "dispute R-5101", "a", "10", "yes"]);
    expect(dispute.replies.at(-1)).toContain("€2.00");
    expect(dispute.replies.at(-1)).toMatch(/DSP-\d{4}/);
  });

  it("never throws on odd input", async () => {
    const t = agent.create({ seed: 7 });
    const odd = [
      "",
      "   ",
      "\u0000\u0001",
      "🚲🛴",
      "a".repeat(5000),
      "yes",
      "no",
      "12345678901234567890",
      "R-",
      "PF-",
      "%s{}",
    ];
    for (const u of odd) {
      const r = await t.send(u);
      expect(typeof r.text).toBe("string");
      expect(r.text.length).toBeGreaterThan(0);
    }
    for (const s of t.statesVisited()) expect(agent.states).toContain(s);
  });
});
