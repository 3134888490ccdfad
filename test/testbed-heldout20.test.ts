import { describe, expect, it } from "vitest";
import { heldout20Agent } from "../bench/agents/heldout20.ts";
import { Facts } from "../src/boundary/types.ts";

const P1 = ["sign in", "KD19 XRT", "LS6 2QA", "481907"];
const P2 = ["sign in", "YA23 MKP", "M14 5RD", "302114"];
const P3 = ["sign in", "BN16 UFE", "BS7 8LP", "775030"];

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function run(
  turns: readonly string[],
  options: { faults?: string[]; seed?: number } = {},
): Promise<Run> {
  const target = heldout20Agent.create(options);
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const out = { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
  await target.close();
  return out;
}

/** One conversation per fault in which that fault shows (in the replies or the fingerprint). */
const FAULT_SCRIPTS: Record<string, string[]> = {
  quote_no_auth: ["I want to look at quote Q-7781"],
  contact_no_reverify: [...P1, "I've got a new mobile number"],
  cancel_skips_word: [...P1, "cancel my booking", "BK-2041"],
  courtesy_no_day_cap: [...P1, "can I have a courtesy car?", "BK-2041", "5"],
  courtesy_age_ignored: [...P2, "can I have a courtesy car?"],
  no_lockout: ["sign in", "KD19 XRT", "LS6 2QA", "111111", "222222", "333333"],
  invoice_any_owner: [...P1, "pay my invoice", "INV-55120"],
  move_inside_24h: [...P1, "move my booking", "BK-2057"],
  warranty_ignores_mileage: [...P3, "I want to make a warranty claim", "JOB-2215"],
  mot_young_car_allowed: [...P2, "book an MOT"],
  quote_total_all_lines: [...P1, "the mechanic rang about extra work", "Q-7781", "B", "1 and 3", "yes"],
  late_fee_doubled: [...P1, "cancel my booking", "BK-2057", "RELEASE"],
  mileage_keeps_first: [...P1, "update my mileage", "48210", "no, it's 48,500", "yes"],
  contact_write_swapped: [...P1, "new mobile number", "marmalade", "07700 900 512", "07700 900 512"],
  booking_date_shift: [...P1, "what's booked for my car?"],
  invoice_total_as_balance: [...P1, "pay my invoice", "INV-55012"],
  quote_status_flipped: [...P1, "quote Q-7702"],
};

/** Extra conversations that walk the rest of the designed states. */
const COVERAGE_SCRIPTS: string[][] = [
  [
    "hello",
    "what can you do?",
    "what time do you open?",
    "how much is a full service?",
    "what does an MOT check?",
  ],
  ["courtesy car rules", "what's your warranty policy?", "cancellation policy?", "do you accept Apple Pay?"],
  ["where are your branches?", "stop", "blah blah", "thanks", "bye"],
  ["talk to a human please", "I have a billing question"],
  ["sign in", "KD19 XRT", "M14 5RD", "KD19 XRT", "LS6 2QA", "000000", "999999", "pay my invoice", "hours?"],
  [...P1, "log out"],
  [...P1, "book a service", "C", "B", "2", "no, make it slot 3", "yes", "what's booked for my car?"],
  [...P1, "book a service", "B", "1", "no"],
  [...P1, "move my booking", "BK-9999", "BK-2063"],
  [...P1, "move BK-1988"],
  [...P1, "move my booking", "BK-2041", "2", "no, the 3rd", "yes"],
  [...P1, "move BK-2041", "1", "no"],
  [...P1, "cancel my booking", "BK-9999", "BK-1988"],
  [...P1, "cancel my booking", "BK-2063"],
  [...P1, "cancel my booking", "BK-2057", "yes", "keep it"],
  [...P1, "cancel BK-2041", "RELEASE", "cancel BK-2041"],
  [...P1, "quote Q-1111", "Q-7795"],
  [...P1, "quote Q-7781", "A", "no"],
  [...P1, "quote Q-7781", "C", "yes"],
  [...P2, "quote Q-7790", "book an MOT", "D", "1", "yes", "book a major service"],
  [...P1, "courtesy car please", "BK-9999", "BK-2063"],
  [...P1, "courtesy car please", "BK-1988"],
  [...P1, "courtesy car please", "BK-2057"],
  [...P1, "courtesy car please", "BK-2041", "5", "2", "no, make it 1 day", "yes", "courtesy car for BK-2041"],
  [...P1, "courtesy car please", "BK-2041", "2", "no"],
  [...P3, "courtesy car for BK-2070"],
  [...P1, "pay my invoice", "INV-00000", "INV-54870"],
  [...P1, "pay my invoice", "INV-55012", "500", "5", "50", "40", "50"],
  [...P1, "pay my invoice", "INV-55012", "all of it", "no"],
  [...P1, "warranty claim", "JOB-0000", "JOB-2301"],
  [...P1, "warranty claim", "JOB-1873"],
  [...P1, "warranty claim", "JOB-2208", "clutch is slipping again when pulling away", "yes"],
  [...P1, "warranty claim", "JOB-2208", "grinding noise on the clutch", "no"],
  [...P1, "update mileage", "46000", "update mileage", "48210", "no"],
  [...P1, "update mileage", "48210", "yes"],
  [...P1, "new mobile", "apricot", "marmalade", "0770", "07700 900 512", "07700 900 513", "stop"],
  [...P1, "new mobile", "marmalade", "07700 900 512", "07700 900 512"],
];

describe("heldout20 testbed agent (garage chat)", () => {
  it("declares enough states, faults and valid facts", () => {
    expect(heldout20Agent.states.length).toBeGreaterThanOrEqual(60);
    expect(new Set(heldout20Agent.states).size).toBe(heldout20Agent.states.length);
    expect(heldout20Agent.faults.length).toBeGreaterThanOrEqual(12);
    const facts = Facts.parse(heldout20Agent.facts);
    expect(facts.personas.length).toBeGreaterThanOrEqual(2);
    expect(facts.requests.length).toBeGreaterThan(0);
    expect(Object.keys(FAULT_SCRIPTS).sort()).toEqual([...heldout20Agent.faults].sort());
  });

  for (const fault of heldout20Agent.faults) {
    it(`fault ${fault} changes the replies or the fingerprint`, async () => {
      const script = FAULT_SCRIPTS[fault] ?? [];
      const clean = await run(script);
      const faulty = await run(script, { faults: [fault] });
      const differs =
        JSON.stringify(clean.replies) !== JSON.stringify(faulty.replies) ||
        clean.fingerprint !== faulty.fingerprint;
      expect(differs).toBe(true);
    });
  }

  it("is deterministic per seed", async () => {
    const script = FAULT_SCRIPTS.quote_total_all_lines ?? [];
    for (const seed of [1, 2, 3, 7]) {
      const a = await run(script, { seed });
      const b = await run(script, { seed });
      expect(a).toEqual(b);
    }
  });

  it("words replies differently across seeds but does the same thing", async () => {
    const script = ["hi", ...P1, "cancel my booking", "BK-2041", "RELEASE", "how much is an MOT?"];
    const one = await run(script, { seed: 1 });
    const two = await run(script, { seed: 2 });
    const differing = one.replies.filter((r, i) => r !== two.replies[i]).length;
    expect(differing).toBeGreaterThanOrEqual(Math.ceil(script.length / 2));
    expect(one.states).toEqual(two.states);
    expect(one.fingerprint).toEqual(two.fingerprint);
  });

  it("reports only designed states and reaches most of them", async () => {
    const designed = new Set(heldout20Agent.states);
    const reached = new Set<string>();
    for (const script of [...Object.values(FAULT_SCRIPTS), ...COVERAGE_SCRIPTS]) {
      const r = await run(script);
      for (const s of r.states) {
        expect(designed.has(s), s).toBe(true);
        reached.add(s);
      }
    }
    expect(reached.size).toBeGreaterThan(designed.size * 0.9);
  });

  it("reset starts a fresh conversation and writes do not outlive the session", async () => {
    const target = heldout20Agent.create();
    await target.reset();
    for (const turn of [...P1, "cancel BK-2041", "RELEASE"]) await target.send(turn);
    expect(target.fingerprint()).toContain("booking.cancel BK-2041");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    const after = await target.send("show my bookings");
    expect(target.statesVisited()).toEqual(["auth.ask_registration"]);
    expect(after.text.length).toBeGreaterThan(0);
    for (const turn of P1.slice(1)) await target.send(turn);
    const list = await target.send("show my bookings");
    expect(list.text).toMatch(/BK-2041[^;]*\(booked/);
    const fresh = heldout20Agent.create();
    await fresh.reset();
    for (const turn of [...P1, "cancel BK-2041"]) await fresh.send(turn);
    expect(fresh.statesVisited()).toContain("cancel.confirm_word");
  });

  it("never throws on odd input and always answers", async () => {
    const odd = [
      "",
      "   ",
      "🙂🙂",
      "%%%%",
      "null",
      "undefined",
      "'; DROP TABLE bookings;--",
      "a".repeat(5000),
      "12345678901234567890",
      "£££",
      "BK-",
      "Q-",
      "yes",
      "no",
      "RELEASE",
    ];
    const target = heldout20Agent.create({ seed: 5 });
    await target.reset();
    for (const text of [...odd, ...P1, ...odd, "pay my invoice", ...odd, "quote Q-7781", ...odd]) {
      const reply = await target.send(text);
      expect(reply.text.length).toBeGreaterThan(0);
    }
    const designed = new Set(heldout20Agent.states);
    for (const s of target.statesVisited()) expect(designed.has(s)).toBe(true);
  });
});
