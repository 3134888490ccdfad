import { describe, expect, it } from "vitest";
import { HELDOUT6_FAULTS, heldout6Agent } from "../bench/agents/heldout6.ts";
import { TEXT } from "../bench/agents/heldout6-data.ts";

/** Send `turns` to a fresh session of the held-out car-hire agent; replies, states and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = heldout6Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

const writes = (fp: string) => (JSON.parse(fp) as { writes: Record<string, unknown>[] }).writes;

const AMELIA = ["KC204815", "amelia.hart@mailbox.co.uk"];
const JONAH = ["KC318862", "jonah.price@fastmail.com"];
const SOFIA = ["KC559130", "s.marino@outlook.com"];
const MARCUS = ["KC771046", "marcus.webb@protonmail.com"];
const RAVI = ["KC902377", "ravi.nair@yahoo.co.uk"];
const HANNAH = ["KC640255", "hannah.cole@gmail.com"];

/** Scripted conversations: every service, its refusals, corrections, the lock-out and the hand-offs. */
const SCRIPTS: Record<string, readonly string[]> = {
  driver: [
    "hi",
    "I'd like to add my wife Clara Hart as a second driver",
    ...AMELIA,
    "2 August 1999",
    "June 2018",
    "yes",
    "CONFIRM",
    "thanks bye",
  ],
  driverRefusals: [
    "add a driver",
    ...AMELIA,
    "Ben Hart",
    "10 January 2006",
    "add Theo Lang as a driver, born 3 March 1995",
    "September 2025",
    "add Amelia Hart as a driver",
    "add my sister Ella Hart",
    "5 November 2003",
    "she passed her test 4 years ago",
    "no",
  ],
  marcus: [
    "add a second driver",
    ...MARCUS,
    "Oscar Webb",
    "30 September 2002",
    "add Ruth Adams as a driver",
    "11 November 1980",
    "May 2001",
    "CONFIRM",
    "and another driver, Tom Webb",
    "I want snow chains",
    "sat nav",
    "extend to 19 April",
    "20 April",
    "CONFIRM",
    "cancel my booking",
    "CONFIRM",
  ],
  extras: [
    "can I add a child seat to my booking?",
    ...AMELIA,
    "3",
    "2",
    "CONFIRM",
    "I also want a roof box",
    "snow chains",
    "CONFIRM",
    "no thanks",
  ],
  jonah: [
    "one-way rental",
    ...JONAH,
    "what extras do you have?",
    "wifi hotspot",
    "sat nav",
    "CONFIRM",
    "add Maya Price as a driver",
    "2 April 2003",
    "please cancel my booking",
    "CONFIRM",
  ],
  dates: [
    "I need to keep the car a few more days",
    ...AMELIA,
    "30 April 2026",
    "18 March",
    "24 March",
    "26 March",
    "actually make it 27 March",
    "CONFIRM",
    "show my booking",
  ],
  ravi: [
    "return it to King's Cross",
    ...RAVI,
    "Leeds",
    "Bristol",
    "Manchester",
    "CONFIRM",
    "I want a roof box",
    "CONFIRM",
    "extend my rental to 25 April 2026",
    "24 April 2026",
    "CONFIRM",
  ],
  sofia: [
    "can I drop the car off at a different branch?",
    ...SOFIA,
    "Edinburgh",
    "Manchester",
    "no",
    "cancel my booking",
    "extend to 15 March",
    "17 March",
    "CONFIRM",
    "add a sat nav",
    "add a second driver",
    "what about 12 March for the return date",
  ],
  other: [
    "show me KC204815",
    "amelia.hart@mailbox.co.uk",
    "and show me KC318862",
    "cancel KC318862",
    "CONFIRM",
  ],
  lock: ["view my booking", "KC999999", "KC204815", "a@b.com", "c@d.com", "e@f.com", "yes", "hello?"],
  lockThenRight: [
    "view my booking",
    "KC204815",
    "a@b.com",
    "c@d.com",
    "e@f.com",
    "amelia.hart@mailbox.co.uk",
  ],
  badInput: [
    "cancel my booking",
    "my reference is KC12345",
    "KC204815",
    "not sure",
    "amelia.hart@mailbox.co.uk",
  ],
  hannah: ["can you check my reservation", ...HANNAH, "add a child seat"],
  dropped: ["I want to add a roof box", ...RAVI, "no, leave it"],
  open: [
    "hello",
    "blah blah",
    "what can you do?",
    "what do I need to rent a car from you?",
    "what cars do you have",
    "where are your branches",
    "how much would it cost to hire an SUV from 2 April to 6 April?",
    "quote please",
    "van",
    "1 March 2026 to 5 March 2026",
    "2 April",
    "for 3 days",
    "I have had an accident in the hire car",
    "no",
    "talk to a human",
    "hello?",
  ],
};

/** For each seeded fault, a conversation in which it acts. */
const WHERE: Record<(typeof HELDOUT6_FAULTS)[number], string> = {
  skipEmailCheck: "driver",
  lockAfterFourth: "lockThenRight",
  skipConfirmation: "driver",
  confirmOnAnything: "driver",
  ignoreDriverAge: "driverRefusals",
  ignoreLicenceRule: "driverRefusals",
  extrasLimitOffByOne: "extras",
  maxRentalOffByOne: "ravi",
  ignoreVanOneWay: "jonah",
  lateCancelNoFee: "jonah",
  cancelOtherBooking: "other",
  bookingLeak: "other",
  wrongExtrasTotal: "extras",
  wrongExtensionCharge: "marcus",
  wrongReturnDate: "dates",
  driverNameSwap: "driver",
  forgetDateCorrection: "dates",
  wrongOneWayFee: "sofia",
};

describe("the held-out car-hire testbed agent (bench/agents/heldout6.ts)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout6Agent.name).toBe("heldout6");
    expect(heldout6Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout6Agent.faults).size).toBe(heldout6Agent.faults.length);
    expect(heldout6Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(new Set(heldout6Agent.states).size).toBe(heldout6Agent.states.length);
    expect(heldout6Agent.facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(heldout6Agent.facts.requests.length).toBeGreaterThanOrEqual(5);
    for (const state of heldout6Agent.states) expect(TEXT[state as keyof typeof TEXT]).toBeDefined();
    for (const variants of Object.values(TEXT)) {
      expect(variants.length).toBeGreaterThanOrEqual(2);
      expect(variants.length).toBeLessThanOrEqual(3);
    }
  });

  it("an unknown fault id throws", () => {
    expect(() => heldout6Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
  });

  it("the scripted flows reach every designed state, and only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) for (const s of (await talk(turns)).states) seen.add(s);
    for (const s of seen) expect(heldout6Agent.states).toContain(s);
    expect(heldout6Agent.states.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("completes the happy path: reference + e-mail, eligibility, read-back, the typed word", async () => {
    const clean = await talk(SCRIPTS.driver as string[]);
    expect(clean.states).toEqual([
      "greet",
      "auth.ask_reference",
      "auth.ask_email",
      "driver.ask_dob",
      "driver.ask_licence",
      "driver.confirm",
      "gate.need_word",
      "driver.done",
      "goodbye",
    ]);
    expect(writes(clean.fingerprint)).toEqual([
      {
        kind: "driver",
        ref: "KC204815",
        name: "Clara Hart",
        dob: "1999-08-02",
        cost: 36,
        id: "CH5101",
        turn: 8,
      },
    ]);
    expect(clean.replies[5]).toMatch(/CONFIRM/);
    expect(writes((await talk((SCRIPTS.driver as string[]).slice(0, 7))).fingerprint)).toHaveLength(0);
    const dropped = await talk(SCRIPTS.dropped as string[]);
    expect(dropped.states.slice(-2)).toEqual(["extras.confirm", "request.dropped"]);
    expect(writes(dropped.fingerprint)).toHaveLength(0);
  });

  it("refuses ineligible requests with the rule that applies", async () => {
    const states = async (name: string) => (await talk(SCRIPTS[name] as string[])).states;
    expect(await states("driverRefusals")).toEqual([
      "auth.ask_reference",
      "auth.ask_email",
      "driver.ask_name",
      "driver.ask_dob",
      "driver.refused_age",
      "driver.ask_licence",
      "driver.refused_licence",
      "driver.already",
      "driver.ask_dob",
      "driver.ask_licence",
      "driver.confirm",
      "request.dropped",
    ]);
    expect(await states("marcus")).toEqual(
      expect.arrayContaining([
        "driver.refused_class_age",
        "driver.refused_limit",
        "extras.refused_season",
        "extras.too_many",
        "dates.refused_branch_closed",
      ]),
    );
    expect(await states("jonah")).toEqual(
      expect.arrayContaining(["branch.refused_van", "extras.unavailable", "driver.refused_class_age"]),
    );
    expect(await states("sofia")).toEqual(
      expect.arrayContaining([
        "cancel.refused_collected",
        "extras.refused_on_rent",
        "driver.refused_on_rent",
        "dates.refused_shorten",
      ]),
    );
    expect(await states("ravi")).toEqual(
      expect.arrayContaining(["branch.refused_closed", "branch.unknown", "branch.same", "dates.too_long"]),
    );
    expect(await states("hannah")).toContain("auth.booking_closed");
    expect(await states("other")).toEqual([
      "auth.ask_email",
      "booking.show",
      "booking.refused_other",
      "booking.refused_other",
      "fallback",
    ]);
  });

  it("locks after three wrong e-mail addresses and offers a person", async () => {
    const lock = await talk(SCRIPTS.lock as string[]);
    expect(lock.states).toEqual([
      "auth.ask_reference",
      "auth.unknown_reference",
      "auth.ask_email",
      "auth.wrong_email",
      "auth.wrong_email",
      "auth.locked",
      "handoff",
      "handoff",
    ]);
    const late = await talk(SCRIPTS.lockThenRight as string[]);
    expect(late.states.slice(-2)).toEqual(["auth.locked", "menu"]);
    expect(late.fingerprint).not.toMatch(/"booking"/);
    const fourth = await talk(SCRIPTS.lockThenRight as string[], ["lockAfterFourth"]);
    expect(fourth.states.slice(-2)).toEqual(["auth.wrong_email", "booking.show"]);
  });

  it("computes charges and dates, and takes corrections at the read-back", async () => {
    const dates = await talk(SCRIPTS.dates as string[]);
    expect(writes(dates.fingerprint)).toEqual([
      {
        kind: "return_date",
        ref: "KC204815",
        from: "2026-03-24T09:00",
        to: "2026-03-27T09:00",
        amount: 117,
        id: "CH5101",
        turn: 9,
      },
    ]);
    expect(dates.states.slice(-3)).toEqual(["dates.confirm", "dates.done", "booking.show"]);
    expect(writes((await talk(SCRIPTS.extras as string[])).fingerprint)).toEqual([
      expect.objectContaining({ item: "child", qty: 2, total: 56 }),
      expect.objectContaining({ item: "chains", qty: 1, total: 30 }),
    ]);
    const marcus = writes((await talk(SCRIPTS.marcus as string[])).fingerprint);
    expect(marcus.map((w) => w.kind)).toEqual(["driver", "return_date", "cancellation"]);
    expect(marcus[1]).toMatchObject({ amount: 244 });
    expect(marcus[2]).toMatchObject({ fee: 0, refund: 732 });
    expect(writes((await talk(SCRIPTS.jonah as string[])).fingerprint)).toEqual([
      expect.objectContaining({ kind: "extra", item: "satnav", total: 18 }),
      expect.objectContaining({ kind: "cancellation", fee: 40, refund: 126 }),
    ]);
    const ravi = writes((await talk(SCRIPTS.ravi as string[])).fingerprint);
    expect(ravi[0]).toMatchObject({ kind: "return_branch", to: "MAN", fee: 45 });
    expect(ravi[2]).toMatchObject({ kind: "return_date", to: "2026-04-24T12:00" });
    const sofia = await talk(SCRIPTS.sofia as string[]);
    expect(sofia.fingerprint).toContain("one-way fee of £95");
    expect(writes(sofia.fingerprint)).toEqual([
      expect.objectContaining({ to: "2026-03-17T10:00", amount: 204 }),
    ]);
  });

  it.each(HELDOUT6_FAULTS)("fault %s changes the outcome of the conversation it acts in", async (fault) => {
    const turns = SCRIPTS[WHERE[fault]] as string[];
    const clean = await talk(turns);
    const faulty = await talk(turns, [fault]);
    expect(faulty.fingerprint).not.toBe(clean.fingerprint);
    expect(clean.fingerprint).toBe((await talk(turns)).fingerprint);
  });

  it("a fault leaves conversations it does not act in alone", async () => {
    const clean = await talk(SCRIPTS.open as string[]);
    for (const fault of HELDOUT6_FAULTS)
      expect((await talk(SCRIPTS.open as string[], [fault])).fingerprint).toBe(clean.fingerprint);
    const hannah = await talk(SCRIPTS.hannah as string[]);
    for (const fault of ["wrongOneWayFee", "driverNameSwap", "wrongExtrasTotal", "lateCancelNoFee"])
      expect((await talk(SCRIPTS.hannah as string[], [fault])).fingerprint).toBe(hannah.fingerprint);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    for (const turns of Object.values(SCRIPTS)) {
      const a = await talk(turns, [], 1);
      const b = await talk(turns, [], 7);
      expect(a.replies).toEqual((await talk(turns, [], 1)).replies);
      expect(a.states).toEqual(b.states);
      expect(a.fingerprint).toBe(b.fingerprint);
    }
    const a = await talk(SCRIPTS.driver as string[], [], 1);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.driver as string[], [], 7)).replies);
  });

  it("reset() starts a fresh session", async () => {
    const target = heldout6Agent.create();
    for (const t of SCRIPTS.driver as string[]) await target.send(t);
    expect(writes(target.fingerprint())).toHaveLength(1);
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(writes(target.fingerprint())).toHaveLength(0);
    await target.send("add a driver");
    expect(target.statesVisited()).toEqual(["auth.ask_reference"]);
    for (const t of [...AMELIA, "add Clara Hart as a driver", "2/8/1999", "since 2015", "CONFIRM"])
      await target.send(t);
    expect(writes(target.fingerprint())[0]).toMatchObject({ name: "Clara Hart", id: "CH5101" });
  });
});
