import { describe, expect, it } from "vitest";
import { HELDOUT8_FAULTS, heldout8Agent } from "../bench/agents/heldout8.ts";
import { TEMPLATES } from "../bench/agents/heldout8-data.ts";
import { Facts } from "../src/boundary/types.ts";

/** Scripted customers, each line only using values from the agent's facts. */
const SCRIPTS: Record<string, string[]> = {
  bookWithCorrection: [
    "Hi",
    "I want to book a car",
    "MARSH804148EL9AB and 14 April 1980",
    "Heathrow, 14 April to 18 April, compact",
    "child seat and snow chains",
    "yes",
    "actually make it the 20th",
    "AGREE",
    "AGREE",
  ],
  quoteThenBook: [
    "Can I get a quote?",
    "Edinburgh, 20 March 2027 to 27 March 2027",
    "yes",
    "My licence is LINDQ952104SL5MN",
    "4 October 1995",
    "compact please",
    "none",
    "no, don't book it",
  ],
  quoteEdges: [
    "How much is an SUV from Edinburgh for a week?",
    "from 20 March",
    "Can I pick up in Leeds and drop the car off in Bristol on 3 April to 10 April?",
    "quote for Heathrow from 1 April to 10 May",
    "quote for Heathrow from 10 March to 5 March",
  ],
  youngPremium: [
    "I'd like to book a new rental",
    "NOWAK903217TN4CD",
    "17 July 2003",
    "SUV from Bristol 10 April to 13 April",
    "economy then",
    "sat nav",
    "no",
  ],
  underage: [
    "I want to book a car",
    "CLARK706155MC3GH, born 15 June 2006",
    "Leeds, 12 March to 15 March, economy",
  ],
  oneWayAndDrivers: [
    "I'd like to make a booking",
    "HUGHE909090DH6JK, date of birth 9 September 1990",
    "estate from Leeds on 3 May to 10 May, dropping off in Bristol",
    "roof box",
    "no thanks",
    "Can I add an additional driver to RW-40520?",
    "Chris Hughes, born 2 February 1992, licence held 10 years",
    "AGREE",
    "cancel booking RW-40520",
    "no, keep it",
    "please cancel RW-40520 after all",
    "AGREE",
    "What's the status of my deposit?",
  ],
  lateCancel: ["I need to cancel my booking", "NOWAK903217TN4CD", "RW-40230", "AGREE", "I accept the fee"],
  liveRental: [
    "Please cancel my rental, licence RAMAN857309PR2EF booking RW-40345",
    "ok can I change the dates then?",
    "I'd like to keep the car longer",
    "30 March 2027",
    "8 March 2027",
    "AGREE",
    "extend it by 2 more days",
    "no",
    "When will I get my deposit back?",
    "I need to report damage",
    "a scratch on the rear passenger door",
    "the car won't start",
    "Can I add an additional driver?",
    "Kiran Raman, born 3 March 1999, 2 years",
  ],
  changeDates: [
    "I'd like to change the dates of my booking",
    "MARSH804148EL9AB and RW-40112",
    "22 March 2027 to 27 March 2027",
    "actually return on the 28th",
    "AGREE",
    "show me my booking summary",
  ],
  changeDecline: [
    "Can I change my booking dates? Licence MARSH804148EL9AB, reference RW-40112",
    "22 March 2027 to 30 April 2027",
    "22 March 2027 to 27 March 2027",
    "no, leave it",
    "show my booking",
  ],
  extrasAndDrivers: [
    "Can I add a child seat? MARSH804148EL9AB RW-40112",
    "I'd like to add an extra",
    "snow chains",
    "sat nav",
    "no thanks",
    "add a sat nav",
    "AGREE",
    "Can I add an additional driver?",
    "Oliver Marsh, born 10 January 2007, licence 1 year",
    "add Grace Marsh as an additional driver",
    "22 August 1982",
    "20",
    "AGREE",
    "Add a named driver please",
    "Grace Marsh, 22 August 1982, 20 years",
    "no",
  ],
  otherCustomer: [
    "Hello, my licence is MARSH804148EL9AB and booking RW-40112",
    "show me booking RW-40520",
    "check the deposit on RW-40118",
    "change the dates on RW-40118",
    "check my deposit for RW-40112",
    "I need to report damage on RW-40112",
    "extend RW-40112",
    "thanks",
  ],
  viewByReference: ["Can I see booking RW-40112?", "MARSH804148EL9AB"],
  lockout: [
    "I want to view my booking",
    "MARSH804148EL9AB, RW-40520",
    "MARSH804148EL9AB, RW-40520",
    "MARSH804148EL9AB, RW-40520",
    "MARSH804148EL9AB, RW-40112",
    "hello?",
  ],
  smallTalk: [
    "Do you rent vans?",
    "what's the weather like?",
    "blah",
    "AGREE",
    "Can I speak to a real person?",
    "thanks, bye",
  ],
  tooLongBooking: [
    "born 14 April 1980, I want to book",
    "MARSH804148EL9AB",
    "Heathrow, compact, 1 April to 10 May",
    "return 20 April",
    "none",
    "AGREE",
    "deposit status please",
  ],
};

/** Which script shows each seeded fault. */
const WITNESS: Record<string, string> = {
  book_skips_agree: "bookWithCorrection",
  view_without_licence: "viewByReference",
  underage_allowed: "underage",
  extend_over_limit: "liveRental",
  cancel_after_pickup: "liveRental",
  leaks_other_booking: "otherCustomer",
  third_driver_allowed: "oneWayAndDrivers",
  no_lockout: "lockout",
  premium_new_licence: "youngPremium",
  one_way_any_route: "oneWayAndDrivers",
  extras_any_branch: "bookWithCorrection",
  extras_flat_price: "bookWithCorrection",
  cancel_fee_base_only: "lateCancel",
  days_inclusive: "bookWithCorrection",
  surcharge_once: "youngPremium",
  correction_forgotten: "bookWithCorrection",
  decline_still_writes: "changeDecline",
  double_book_on_repeat: "bookWithCorrection",
  stale_summary_after_change: "changeDates",
  readback_wrong_branch: "bookWithCorrection",
  change_readback_no_price: "changeDates",
  summary_return_date_shift: "changeDates",
};

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function play(turns: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Run> {
  const target = heldout8Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const run = { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
  await target.close();
  return run;
}

describe("testbed heldout8 (car rental desk)", () => {
  it("has facts that parse, 50–70 states and 18–22 faults", () => {
    const facts = Facts.parse(heldout8Agent.facts);
    expect(facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(facts.personas.length).toBeLessThanOrEqual(6);
    expect(facts.requests.length).toBeGreaterThan(0);
    expect(heldout8Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout8Agent.states.length).toBeLessThanOrEqual(70);
    expect(new Set(heldout8Agent.states).size).toBe(heldout8Agent.states.length);
    expect(heldout8Agent.faults).toEqual(HELDOUT8_FAULTS);
    expect(heldout8Agent.faults.length).toBeGreaterThanOrEqual(18);
    expect(heldout8Agent.faults.length).toBeLessThanOrEqual(22);
    expect(Object.keys(WITNESS).sort()).toEqual([...heldout8Agent.faults].sort());
    for (const variants of Object.values(TEMPLATES)) expect(variants.length).toBeGreaterThanOrEqual(3);
  });

  it("scripted customers reach at least 80% of the designed states, all of them declared", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) {
      const run = await play(turns);
      for (const s of run.states) {
        expect(heldout8Agent.states).toContain(s);
        seen.add(s);
      }
      expect(run.replies.every((r) => r.length > 0)).toBe(true);
    }
    const missed = heldout8Agent.states.filter((s) => !seen.has(s));
    expect(seen.size / heldout8Agent.states.length, `missed: ${missed.join(", ")}`).toBeGreaterThanOrEqual(
      0.8,
    );
  });

  it.each([...HELDOUT8_FAULTS])(
    "fault %s changes replies or fingerprint of its witness script",
    async (fault) => {
      const turns = SCRIPTS[WITNESS[fault] ?? ""] ?? [];
      expect(turns.length).toBeGreaterThan(0);
      const clean = await play(turns);
      const faulty = await play(turns, [fault]);
      const differs =
        clean.fingerprint !== faulty.fingerprint || clean.replies.some((r, i) => r !== faulty.replies[i]);
      expect(differs).toBe(true);
    },
  );

  it("keeps the fingerprint across seeds 1–3 while the wording changes", async () => {
    let wordingDiffers = false;
    for (const turns of Object.values(SCRIPTS)) {
      const runs = await Promise.all([1, 2, 3].map((seed) => play(turns, [], seed)));
      const [a, b, c] = runs;
      expect(b?.fingerprint).toBe(a?.fingerprint);
      expect(c?.fingerprint).toBe(a?.fingerprint);
      expect(b?.states).toEqual(a?.states);
      if (a?.replies.some((r, i) => r !== b?.replies[i] || r !== c?.replies[i])) wordingDiffers = true;
    }
    expect(wordingDiffers).toBe(true);
  });

  it("is deterministic per seed, and reset forgets the conversation and the session's writes", async () => {
    const turns = SCRIPTS.bookWithCorrection ?? [];
    const a = await play(turns, [], 2);
    const b = await play(turns, [], 2);
    expect(b).toEqual(a);
    const target = heldout8Agent.create();
    for (const t of turns) await target.send(t);
    expect(target.fingerprint()).toContain("W book");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    const reply = await target.send("AGREE");
    expect(target.statesVisited()).toEqual(["fallback.unknown"]);
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it("writes persist for later turns of the same session", async () => {
    const run = await play(SCRIPTS.changeDates ?? []);
    expect(run.fingerprint).toMatch(/W change RW-40112 2027-03-22\.\.2027-03-28/);
    expect(run.fingerprint).toMatch(/R view RW-40112\|[^\n]*2027-03-22\.\.2027-03-28/);
  });
});
