import { describe, expect, it } from "vitest";
import { HELDOUT7_FAULTS, heldout7Agent } from "../bench/agents/heldout7.ts";
import { WORDING } from "../bench/agents/heldout7-data.ts";

/** Send `turns` to a fresh session of the held-out council desk; replies, states and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = heldout7Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

const writes = (fp: string) => (JSON.parse(fp) as { writes: Record<string, unknown>[] }).writes;

const HARRIET = ["CT40118825", "BF2 4JN"];
const DANIEL = ["CT40236617", "bf17qp"];
const GRAHAM = ["CT40355190", "BF3 2LD"];
const SUNITA = ["CT40471034", "BF4 9HS"];

/** Scripted conversations: every service, its refusals, corrections, the lock-out and the hand-off. */
const SCRIPTS: Record<string, readonly string[]> = {
  info: [
    "hello",
    "what are your opening hours?",
    "how much does a bulky waste collection cost?",
    "blah blah",
    "thanks, bye",
  ],
  reportBin: [
    "I want to report a problem",
    "a missed bin",
    "Penny Lane",
    "Alder Row",
    "the recycling",
    "yes",
  ],
  reportRefusals: ["my bin wasn't emptied", "Orchard Close", "missed bin on Mill Lane", "thanks"],
  pothole: ["there's a pothole on Station Road", "about 40mm", "yes"],
  permitNew: [
    "I'd like to apply for a parking permit",
    ...HARRIET,
    "not sure",
    "BF68 KTT",
    "KM24 ZRT",
    "yes",
  ],
  daniel: [
    "I need a residents' parking permit",
    ...DANIEL,
    "renew my permit",
    "the second one",
    "can I switch my council tax to 12 monthly instalments?",
    "I'd like the single person discount",
    "2",
    "show the permits for CT40118825",
  ],
  graham: [
    "can I get a parking permit?",
    ...GRAHAM,
    "single person discount please",
    "cancel my bulky collection",
    "BW-3881",
    "cancel the collection on Monday",
    "yes",
    "show my bookings",
    "I want to buy visitor permits",
  ],
  renew: ["I want to renew my parking permit", ...HARRIET, "yes"],
  change: [
    "I've changed my car and need to update my permit",
    ...HARRIET,
    "KM24 ZRT",
    "yes",
    "what permits do I have?",
  ],
  visitor: ["can I buy some visitor permits?", ...HARRIET, "10", "8 days", "yes"],
  wasteBook: [
    "I want to book a bulky waste collection",
    ...HARRIET,
    "a piano",
    "2 sofas, 3 chairs and 2 tables",
    "a sofa and 3 chairs",
    "Saturday 21 March",
    "3 April",
    "Monday 16 March",
    "13 April",
    "Tuesday 17 March",
    "hmm, is that the right price?",
    "actually make it Thursday",
    "yes",
    "show my bookings",
  ],
  wasteSimple: ["book a bulky collection for a fridge freezer on Wednesday 18 March", ...SUNITA, "yes"],
  ctax: [
    "what's my council tax balance?",
    ...HARRIET,
    "I want to change my instalments",
    "10 months",
    "12",
    "yes",
    "I live alone, can I get the single person discount?",
    "from 1 May 2026",
    "since 1 January 2025",
    "1 September 2025",
    "yes",
    "what's my council tax balance?",
  ],
  lock: [
    "show my bookings",
    "CT4011882",
    "CT40118825",
    "Alder Row",
    "BF1 1AA",
    "BF1 2AB",
    "BF9 9ZZ",
    "yes",
    "hello?",
  ],
  dropped: [
    "book a bulky collection",
    ...SUNITA,
    "a wardrobe and a mattress",
    "Wednesday 18 March",
    "no, leave it",
  ],
  handoff: ["can I speak to a real person?", "hello"],
};

/** For each seeded fault, a conversation in which it acts. */
const WHERE: Record<(typeof HELDOUT7_FAULTS)[number], string> = {
  balanceWithoutPostcode: "ctax",
  fourthSignInAttempt: "lock",
  bulkyBookedWithoutYes: "wasteBook",
  anyReplyConfirms: "wasteBook",
  itemCapOffByOne: "wasteBook",
  permitCapOffByOne: "daniel",
  visitorAllowanceIgnored: "visitor",
  discountIgnoresAdults: "daniel",
  itemFeeIgnoresQuantity: "wasteBook",
  noticeInCalendarDays: "wasteBook",
  renewalFromToday: "renew",
  collectionDateCorrectionLost: "wasteBook",
  otherAccountShown: "daniel",
  changedRegMistyped: "change",
  sameDayCancelAllowed: "graham",
  planSwitchDespiteArrears: "daniel",
  instalmentRemainderDropped: "ctax",
  secondPermitAtFirstPrice: "permitNew",
  potholeDepthOffByOne: "pothole",
  missedBinWindowOffByOne: "reportRefusals",
};

describe("the held-out council desk testbed agent (bench/agents/heldout7.ts)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout7Agent.name).toBe("heldout7");
    expect(heldout7Agent.faults.length).toBeGreaterThanOrEqual(15);
    expect(heldout7Agent.faults.length).toBeLessThanOrEqual(20);
    expect(heldout7Agent.states.length).toBeGreaterThanOrEqual(40);
    expect(heldout7Agent.states.length).toBeLessThanOrEqual(65);
    expect(new Set(heldout7Agent.states).size).toBe(heldout7Agent.states.length);
    expect(heldout7Agent.facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(heldout7Agent.facts.requests.length).toBeGreaterThanOrEqual(5);
    for (const variants of Object.values(WORDING)) {
      expect(variants.length).toBeGreaterThanOrEqual(2);
      expect(variants.length).toBeLessThanOrEqual(4);
    }
  });

  it("an unknown fault id throws", () => {
    expect(() => heldout7Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
  });

  it("the scripted flows reach every designed state, and only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) for (const s of (await talk(turns)).states) seen.add(s);
    for (const s of seen) expect(heldout7Agent.states).toContain(s);
    expect(heldout7Agent.states.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("answers open questions and takes street reports without a sign-in", async () => {
    const info = await talk(SCRIPTS.info as string[]);
    expect(info.states).toEqual(["greet", "info.hours", "info.prices", "fallback", "goodbye"]);
    const bin = await talk(SCRIPTS.reportBin as string[]);
    expect(bin.states).toEqual([
      "report.ask_kind",
      "report.ask_street",
      "report.ask_street",
      "report.ask_bin",
      "report.confirm",
      "report.logged",
    ]);
    expect(writes(bin.fingerprint)).toEqual([
      {
        kind: "report",
        account: null,
        type: "bin",
        street: "Alder Row",
        detail: "recycling",
        priority: "return",
        ref: "RP-5101",
        turn: 6,
      },
    ]);
    expect((await talk(SCRIPTS.reportRefusals as string[])).states).toEqual([
      "report.ask_street",
      "report.refused_not_due",
      "report.refused_too_late",
      "goodbye",
    ]);
    const pothole = await talk(SCRIPTS.pothole as string[]);
    expect(writes(pothole.fingerprint)[0]).toMatchObject({ detail: 40, priority: "urgent" });
    const shallow = await talk(["pothole on Kestrel Way, 3.9 cm deep", "yes"]);
    expect(writes(shallow.fingerprint)[0]).toMatchObject({ detail: 39, priority: "inspect" });
  });

  it("signs in with account number and postcode, and writes only after a yes", async () => {
    const simple = await talk(SCRIPTS.wasteSimple as string[]);
    expect(simple.states).toEqual(["id.ask_account", "id.ask_postcode", "waste.confirm", "waste.booked"]);
    expect(writes(simple.fingerprint)).toEqual([
      {
        kind: "bulky_booking",
        account: "CT40471034",
        date: "2026-03-18",
        items: { fridge: 1 },
        fee: 22,
        ref: "BW-3951",
        turn: 4,
      },
    ]);
    expect(writes((await talk((SCRIPTS.wasteSimple as string[]).slice(0, 3))).fingerprint)).toHaveLength(0);
    const dropped = await talk(SCRIPTS.dropped as string[]);
    expect(dropped.states.at(-1)).toBe("dropped");
    expect(writes(dropped.fingerprint)).toHaveLength(0);
    const lock = await talk(SCRIPTS.lock as string[]);
    expect(lock.states).toEqual([
      "id.ask_account",
      "id.ask_account",
      "id.ask_postcode",
      "id.ask_postcode",
      "id.mismatch",
      "id.mismatch",
      "id.locked",
      "handoff",
      "handoff",
    ]);
    expect((await talk(SCRIPTS.handoff as string[])).states).toEqual(["handoff", "handoff"]);
  });

  it("checks items and dates, takes corrections at the read-back and computes the fee", async () => {
    const book = await talk(SCRIPTS.wasteBook as string[]);
    expect(book.states.slice(2)).toEqual([
      "waste.ask_items",
      "waste.refused_item",
      "waste.refused_too_many_items",
      "waste.ask_date",
      "waste.refused_closed_day",
      "waste.refused_closed_day",
      "waste.refused_short_notice",
      "waste.refused_too_far",
      "waste.confirm",
      "waste.confirm",
      "waste.confirm",
      "waste.booked",
      "waste.list",
    ]);
    expect(writes(book.fingerprint)).toEqual([
      expect.objectContaining({ date: "2026-03-19", items: { sofa: 1, chair: 3 }, fee: 30 }),
    ]);
    expect(book.replies.at(-1)).toContain("Thursday 19 March 2026");
  });

  it("issues, renews and changes permits and sells visitor days within the rules", async () => {
    const fresh = await talk(SCRIPTS.permitNew as string[]);
    expect(fresh.states.slice(2)).toEqual([
      "permit.ask_reg",
      "permit.bad_reg",
      "permit.refused_duplicate_reg",
      "permit.confirm_new",
      "permit.issued",
    ]);
    expect(writes(fresh.fingerprint)[0]).toMatchObject({ reg: "KM24 ZRT", fee: 95, expires: "2027-03-12" });
    expect(writes((await talk(SCRIPTS.renew as string[])).fingerprint)[0]).toMatchObject({
      reg: "LK19 WXP",
      expires: "2027-04-02",
      fee: 60,
    });
    const change = await talk(SCRIPTS.change as string[]);
    expect(writes(change.fingerprint)[0]).toMatchObject({ from: "LK19 WXP", to: "KM24 ZRT", fee: 12 });
    expect(change.replies.at(-1)).toContain("KM24 ZRT");
    const visitor = await talk(SCRIPTS.visitor as string[]);
    expect(visitor.states.slice(2)).toEqual([
      "visitor.ask_days",
      "visitor.refused_allowance",
      "visitor.confirm",
      "visitor.done",
    ]);
    expect(writes(visitor.fingerprint)[0]).toMatchObject({ days: 8, fee: 20, used: 60 });
  });

  it("handles council tax: balance, instalment plan and the single-person discount", async () => {
    const ctax = await talk(SCRIPTS.ctax as string[]);
    expect(ctax.states.slice(2)).toEqual([
      "ctax.balance",
      "ctax.ask_plan",
      "ctax.ask_plan",
      "ctax.confirm_plan",
      "ctax.plan_changed",
      "ctax.ask_since",
      "ctax.ask_since",
      "ctax.refused_backdate",
      "ctax.confirm_discount",
      "ctax.discount_applied",
      "ctax.balance",
    ]);
    expect(writes(ctax.fingerprint)).toEqual([
      expect.objectContaining({ kind: "instalment_plan", months: 12, first: 159.32, rest: 159.31 }),
      expect.objectContaining({ since: "2025-09-01", credit: 264.77, after: 1433.8 }),
    ]);
    expect(ctax.replies.at(-1)).toContain("£1,433.80");
  });

  it("refuses with the rule that applies", async () => {
    expect((await talk(SCRIPTS.daniel as string[])).states.slice(2)).toEqual([
      "permit.refused_max",
      "permit.ask_which",
      "permit.refused_renew_early",
      "ctax.refused_arrears",
      "ctax.ask_adults",
      "ctax.refused_adults",
      "id.refused_other",
    ]);
    const graham = await talk(SCRIPTS.graham as string[]);
    expect(graham.states.slice(2)).toEqual([
      "permit.refused_no_zone",
      "ctax.refused_already_discount",
      "waste.ask_which",
      "waste.refused_same_day",
      "waste.confirm_cancel",
      "waste.cancelled",
      "waste.list",
      "permit.refused_no_zone",
    ]);
    expect(writes(graham.fingerprint)).toEqual([
      expect.objectContaining({ kind: "bulky_cancellation", ref: "BW-3894", refund: 0 }),
    ]);
    const refund = await talk(["cancel my bulky collection", ...HARRIET, "yes"]);
    expect(writes(refund.fingerprint)[0]).toMatchObject({ ref: "BW-3907", refund: 38 });
  });

  it.each(HELDOUT7_FAULTS)(
    "fault %s changes the words and the outcome of the conversation it acts in",
    async (fault) => {
      const turns = SCRIPTS[WHERE[fault]] as string[];
      const clean = await talk(turns);
      const faulty = await talk(turns, [fault]);
      expect(faulty.replies).not.toEqual(clean.replies);
      expect(faulty.fingerprint).not.toBe(clean.fingerprint);
      expect(clean.fingerprint).toBe((await talk(turns)).fingerprint);
    },
  );

  it("a fault leaves conversations it does not act in alone", async () => {
    for (const name of ["info", "handoff", "reportBin", "renew"]) {
      const clean = await talk(SCRIPTS[name] as string[]);
      for (const fault of HELDOUT7_FAULTS)
        if (WHERE[fault] !== name)
          expect((await talk(SCRIPTS[name] as string[], [fault])).fingerprint).toBe(clean.fingerprint);
    }
  });

  it("the seed picks the wording, not the behaviour", async () => {
    for (const turns of Object.values(SCRIPTS)) {
      const a = await talk(turns, [], 1);
      const b = await talk(turns, [], 7);
      expect(a.replies).toEqual((await talk(turns, [], 1)).replies);
      expect(a.states).toEqual(b.states);
      expect(a.fingerprint).toBe(b.fingerprint);
    }
    const a = await talk(SCRIPTS.wasteBook as string[], [], 1);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.wasteBook as string[], [], 7)).replies);
  });

  it("reset() starts a fresh session", async () => {
    const target = heldout7Agent.create();
    for (const t of SCRIPTS.wasteSimple as string[]) await target.send(t);
    expect(writes(target.fingerprint())).toHaveLength(1);
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(writes(target.fingerprint())).toHaveLength(0);
    await target.send("show my bookings");
    expect(target.statesVisited()).toEqual(["id.ask_account"]);
  });
});
