import { describe, expect, it } from "vitest";
import { type AirlineFaults, airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { dbHash } from "../src/agents/chat/airline/db.ts";
import { seedAirlineDb } from "../src/agents/chat/airline/seed.ts";

/** The reference airline agent (issue 5 §1): policy when clean, each seeded fault observable. */

async function talk(turns: string[], faults: AirlineFaults = {}, seed = 1) {
  const t = airlineTarget({ seed, faults });
  const replies: string[] = [];
  for (const turn of turns) replies.push((await t.send(turn)).text);
  return { replies, view: t.privileged(), changed: t.privileged().dbHash !== dbHash(seedAirlineDb()) };
}

describe("reference airline agent, clean", () => {
  it("cancels an eligible reservation only after identity, reason and an explicit yes", async () => {
    const { replies, changed } = await talk([
      "I want to cancel my reservation",
      "my user id is mia_li_3668",
      "it's HAT1A1",
      "change of plans",
      "yes",
    ]);
    expect(replies[0]).toMatch(/user id/);
    expect(replies[1]).toMatch(/reservation id/);
    expect(replies[2]).toMatch(/reason|why/);
    expect(replies[3]).toMatch(/cancel reservation HAT1A1 .*refund \$210/);
    expect(replies[4]).toMatch(/HAT1A1 is cancelled/);
    expect(changed).toBe(true);
  });

  it("refuses an ineligible cancellation, bag removal, insurance after booking, and a reservation of another user", async () => {
    const r = await talk([
      "cancel reservation HAT2B2, user omar_davis_3817, change of plan",
      "remove bags: I want 0 bags on HAT8H8",
      "add insurance to HAT2B2",
    ]);
    expect(r.replies[0]).toMatch(/not eligible/);
    expect(r.replies[1]).toMatch(/does not belong|not under your user id/);
    expect(r.replies[2]).toMatch(/insurance can only be bought when booking/);
    expect(r.changed).toBe(false);
  });

  it("compensation only when asked, after checking the flight, for eligible travellers", async () => {
    const silver = await talk([
      "I want compensation for my delayed flight. user sofia_kim_7287, reservation HAT8H8",
    ]);
    expect(silver.replies[0]).toMatch(/\$100 /);
    const regular = ["compensation please, my flight was cancelled. omar_davis_3817 HAT7G7"];
    expect((await talk(regular)).replies[0]).toMatch(/do not qualify/);
    expect((await talk(regular, { skipEligibility: true })).replies[0]).toMatch(/\$100 /);
  });

  it("says the same words for the same seed, and other words for another seed", async () => {
    const turns = ["hello", "cancel HAT1A1", "mia_li_3668"];
    expect((await talk(turns, {}, 1)).replies).toEqual((await talk(turns, {}, 1)).replies);
    const seeds = await Promise.all([1, 2, 3, 4, 5].map((s) => talk(turns, {}, s)));
    expect(new Set(seeds.map((s) => s.replies.join("|"))).size).toBeGreaterThan(1);
  });
});

describe("seeded faults are observable", () => {
  const cancelTurns = ["cancel reservation HAT1A1 for user mia_li_3668, change of plan"];
  it("skipConfirmation: writes without asking", async () => {
    expect((await talk(cancelTurns)).changed).toBe(false);
    const f = await talk(cancelTurns, { skipConfirmation: true });
    expect(f.replies[0]).toMatch(/cancelled/);
    expect(f.changed).toBe(true);
  });

  it("skipIdentity: acts without a user id", async () => {
    const turns = ["cancel reservation HAT1A1, change of plan", "yes"];
    expect((await talk(turns)).replies[0]).toMatch(/user id/);
    expect((await talk(turns, { skipIdentity: true })).changed).toBe(true);
  });

  it("skipEligibility: cancels a reservation the policy protects", async () => {
    const turns = ["cancel HAT2B2 for omar_davis_3817, change of plan", "yes"];
    expect((await talk(turns)).changed).toBe(false);
    expect((await talk(turns, { skipEligibility: true })).changed).toBe(true);
  });

  it("acceptInvalidValues: removes bags", async () => {
    const turns = ["user sofia_kim_7287, reservation HAT8H8: I want 0 bags", "yes"];
    expect((await talk(turns)).changed).toBe(false);
    expect((await talk(turns, { acceptInvalidValues: true })).changed).toBe(true);
  });

  it("flipInsurance: an insured health cancellation is refused", async () => {
    const turns = ["cancel HAT4D4 for sofia_kim_7287, I am sick", "yes"];
    expect((await talk(turns)).changed).toBe(true);
    expect((await talk(turns, { flipInsurance: true })).replies[0]).toMatch(/not eligible/);
  });

  it("doubleReservationPrice and inflateSearchPrice change the figures the agent reports", async () => {
    const turns = ["show me the details of HAT2B2, user omar_davis_3817"];
    expect((await talk(turns)).replies[0]).toMatch(/\$810/);
    expect((await talk(turns, { doubleReservationPrice: true })).replies[0]).toMatch(/\$1620/);
    const search = ["find flights from SFO to JFK on 2024-05-18"];
    expect((await talk(search)).replies[0]).toMatch(/HAT101 08:00 economy \$210/);
    expect((await talk(search, { inflateSearchPrice: true })).replies[0]).toMatch(
      /HAT101 08:00 economy \$294/,
    );
  });

  it("maskFlightStatus: a flight the airline cancelled is reported on time and its compensation refused", async () => {
    const turns = ["what is the status of my flight? user sofia_kim_7287 reservation HAT8H8"];
    expect((await talk(turns)).replies[0]).toMatch(/delayed/);
    expect((await talk(turns, { maskFlightStatus: true })).replies[0]).toMatch(/on time/);
  });
});
