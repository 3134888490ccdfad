import { describe, expect, it } from "vitest";
import { HELDOUT14_FAULTS, heldout14Agent } from "../bench/agents/heldout14.ts";

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function talk(
  turns: readonly string[],
  options: { faults?: string[]; seed?: number } = {},
): Promise<Run> {
  const target = heldout14Agent.create(options);
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const run = { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
  await target.close();
  return run;
}

const AMIRA = ["amira.patel@example.com", "482913"];
const TOM = ["tom.reed@example.com", "730155"];
const GRACE = ["grace.okafor@example.com", "159026"];
const LEO = ["leo.marsh@example.com", "604871"];

/** Conversations that together visit every designed state of the clean agent. */
const COVERAGE: string[][] = [
  [
    "hi",
    "do you deliver to FH5 2LL?",
    "do you deliver to my area?",
    "FH9 1ZZ",
    "what are your delivery times",
    "what's the minimum order?",
    "how much is the delivery pass",
    "asdfgh qwerty",
    "can I talk to a human",
    "bye",
  ],
  [
    "show my orders",
    "nobody@nowhere.com",
    "tom.reed@example.com",
    "111111",
    "222222",
    "333333",
    "show my orders",
  ],
  ["show my orders", ...AMIRA, "1", "change my delivery slot", "B", "A", "D", "C", "yes"],
  [
    "change my order",
    ...TOM,
    "1",
    "wine",
    "2",
    "eggs 1",
    "pineapple",
    "7 milk",
    "3 milk",
    "ADD",
    "remove something",
    "bananas",
    "y",
    "change my slot",
    "apply voucher FRESH10",
    "cancel my order",
    "no",
  ],
  [
    "I have a voucher",
    ...GRACE,
    "2",
    "SPRING5",
    "WELCOME15",
    "BOGUS1",
    "change slot for FF-10251",
    "add wine to FF-10251",
    "cancel FF-10251",
    "confirm cancel",
    "add wine to FF-10251",
    "what's in FF-10233",
    "some eggs were broken",
    "FF-10150",
  ],
  [
    "apply voucher FRESH10",
    ...AMIRA,
    "FRESH10",
    "use a voucher",
    "my strawberries were missing",
    "FF-10233",
    "refund FF-10198",
    "cheese",
    "strawberries",
    "5",
    "2",
    "2",
    "yes",
    "change my address",
    "22 Dock Road, Leddon LD7 3QP",
    "8 Mill Lane, Fernhill FH2 9XY",
    "SAVE",
    "join the delivery pass",
    "b",
    "JOIN",
    "get a delivery pass",
    "cancel my delivery pass",
    "stop my pass",
    "cancel my pass",
  ],
  ["show my orders", ...LEO],
];

/** For each fault: a conversation whose replies or fingerprint differ between the clean and the faulty agent. */
const FAULT_PROBES: Record<(typeof HELDOUT14_FAULTS)[number], string[]> = {
  auth_extra_attempt: ["show my orders", "tom.reed@example.com", "111111", "222222", "333333", "730155"],
  order_owner_unchecked: ["what's in FF-10233", ...GRACE],
  slot_cutoff_ignored: ["change my delivery slot", ...AMIRA, "B"],
  slot_readback_wrong_day: ["change my delivery slot", ...AMIRA, "C", "yes"],
  items_age_unchecked: ["add 2 wine", ...TOM],
  items_max_off_by_one: ["add 9 bananas", ...AMIRA],
  items_removed_still_listed: ["remove the milk", ...AMIRA, "y", "FF-10233"],
  items_write_before_confirm: ["add 1 coffee", ...AMIRA, "no", "FF-10233"],
  voucher_reuse_allowed: ["apply voucher WELCOME15 to FF-10262", ...GRACE],
  voucher_expired_accepted: ["apply voucher SPRING5 to FF-10262", ...GRACE],
  refund_window_ignored: ["eggs were broken in FF-10150", ...GRACE],
  refund_over_cap: ["strawberries missing from FF-10198", ...AMIRA, "5"],
  refund_credit_not_written: [
    "strawberries missing from FF-10198",
    ...AMIRA,
    "2",
    "2",
    "yes",
    "show my orders",
  ],
  cancel_fee_skipped: ["cancel FF-10251", ...GRACE],
  cancelled_order_still_listed: ["cancel my order", ...AMIRA, "confirm cancel", "show my orders"],
  address_area_unchecked: ["change my address", ...AMIRA, "22 Dock Road, Leddon LD7 3QP"],
  pass_double_subscribe: ["join the delivery pass", ...LEO],
};

describe("heldout14 testbed agent", () => {
  it("declares 50–75 unique states and 12–18 faults", () => {
    expect(new Set(heldout14Agent.states).size).toBe(heldout14Agent.states.length);
    expect(heldout14Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout14Agent.states.length).toBeLessThanOrEqual(75);
    expect(heldout14Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(heldout14Agent.faults.length).toBeLessThanOrEqual(18);
    expect(heldout14Agent.name).toBe("heldout14");
    expect(() => heldout14Agent.create({ faults: ["no_such_fault"] })).toThrow();
  });

  it("visits every designed state across the coverage conversations", async () => {
    const seen = new Set<string>();
    for (const conv of COVERAGE) {
      const run = await talk(conv);
      for (const s of run.states) {
        expect(heldout14Agent.states).toContain(s);
        seen.add(s);
      }
    }
    const missing = heldout14Agent.states.filter((s) => !seen.has(s));
    expect(missing).toEqual([]);
    expect([...seen].sort()).toEqual([...heldout14Agent.states].sort());
  });

  it("the clean coverage conversations write what they confirmed", async () => {
    const run = await talk(COVERAGE[2]!);
    expect(run.fingerprint).toContain("slot:FF-10233:2026-03-11T08:00");
    const amira = await talk(COVERAGE[5]!);
    expect(amira.fingerprint).toContain("voucher:FF-10233:FRESH10");
    expect(amira.fingerprint).toContain("refund:FF-10198:strawberriesx2:600:credit");
    expect(amira.fingerprint).toContain("pass:join:C1:annual:6900");
  });

  for (const fault of HELDOUT14_FAULTS) {
    it(`fault ${fault} is observable through the chat`, async () => {
      const turns = FAULT_PROBES[fault];
      const clean = await talk(turns);
      const faulty = await talk(turns, { faults: [fault] });
      for (const s of faulty.states) expect(heldout14Agent.states).toContain(s);
      const differs =
        clean.fingerprint !== faulty.fingerprint || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs).toBe(true);
    });
  }

  it("clean runs of every probe are deterministic", async () => {
    for (const fault of HELDOUT14_FAULTS) {
      const a = await talk(FAULT_PROBES[fault]);
      const b = await talk(FAULT_PROBES[fault]);
      expect(a).toEqual(b);
    }
  });

  it("same seed gives identical replies; different seeds change wording but not behaviour", async () => {
    const conv = COVERAGE[5]!;
    const a = await talk(conv, { seed: 1 });
    const b = await talk(conv, { seed: 1 });
    expect(b.replies).toEqual(a.replies);
    const c = await talk(conv, { seed: 2 });
    expect(c.replies).not.toEqual(a.replies);
    expect(c.states).toEqual(a.states);
    expect(c.fingerprint).toEqual(a.fingerprint);
    const pub = await talk(COVERAGE[0]!, { seed: 1 });
    const pub2 = await talk(COVERAGE[0]!, { seed: 2 });
    const differing = pub.replies.filter((r, i) => r !== pub2.replies[i]).length;
    expect(differing).toBeGreaterThan(pub.replies.length / 2);
    const pub3 = await talk(COVERAGE[0]!, { seed: 3 });
    expect(pub3).toEqual(await talk(COVERAGE[0]!, { seed: 3 }));
    expect(pub3.states).toEqual(pub.states);
  });

  it("reset() restores the seeded records", async () => {
    const target = heldout14Agent.create();
    await target.reset();
    for (const turn of ["cancel my order", ...AMIRA, "confirm cancel"]) await target.send(turn);
    expect(target.fingerprint()).toContain("cancel:FF-10233");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).not.toContain("cancel:FF-10233");
    for (const turn of ["show my orders", ...AMIRA]) await target.send(turn);
    expect(target.fingerprint()).toContain("FF-10233/upcoming");
  });

  it("has well-formed facts", () => {
    const { personas, requests } = heldout14Agent.facts;
    expect(personas.length).toBeGreaterThanOrEqual(3);
    expect(personas.length).toBeLessThanOrEqual(5);
    for (const p of personas) {
      for (const [slot, values] of Object.entries(p)) {
        expect(slot).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(Array.isArray(values)).toBe(true);
        for (const v of values) expect(typeof v).toBe("string");
      }
      expect(p.email?.length).toBeGreaterThan(0);
      expect(p.one_time_code?.[0]).toMatch(/^\d{6}$/);
    }
    expect(Array.isArray(requests)).toBe(true);
    expect(JSON.parse(JSON.stringify(heldout14Agent.facts))).toEqual(heldout14Agent.facts);
  });
});
