import { describe, expect, it } from "vitest";
import { dbHash } from "../src/agents/chat/airline/db.ts";
import { seedAirlineDb } from "../src/agents/chat/airline/seed.ts";
import { AirlineToolError, AirlineTools } from "../src/agents/chat/airline/tools.ts";

/** The reference airline's tools (issue 5 §1): data integrity only, policy left to the agent; traced. */

describe("reference airline tools", () => {
  it("the seeded database is consistent: every reservation belongs to its user and payments add up", () => {
    const db = seedAirlineDb();
    for (const r of Object.values(db.reservations)) {
      expect(db.users[r.user_id]?.reservations).toContain(r.reservation_id);
      const fare = r.flights.reduce((s, f) => s + f.price, 0) * r.passengers.length;
      const paid = r.payment_history.reduce((s, p) => s + p.amount, 0);
      expect(paid).toBe(
        fare + (r.insurance === "yes" ? 30 * r.passengers.length : 0) + 50 * r.nonfree_baggages,
      );
    }
    expect(dbHash(seedAirlineDb())).toBe(dbHash(db));
  });

  it("cancel refunds every payment and changes the hash; the API does not check eligibility (policy's job)", () => {
    const db = seedAirlineDb();
    const tools = new AirlineTools(db);
    const before = dbHash(db);
    const r = tools.cancelReservation("HAT5E5"); // basic economy, not eligible by policy: the tool does not care
    expect(r.status).toBe("cancelled");
    expect(r.payment_history).toEqual([
      { payment_id: "credit_card_2929732", amount: 85 },
      { payment_id: "credit_card_2929732", amount: -85 },
    ]);
    expect(dbHash(db)).not.toBe(before);
    expect(() => tools.cancelReservation("HAT5E5")).toThrow(AirlineToolError);
    expect(tools.trace.map((c) => [c.name, c.error ?? "ok"])).toEqual([
      ["cancel_reservation", "ok"],
      ["cancel_reservation", "Reservation HAT5E5 is already cancelled"],
    ]);
  });

  it("booking checks seats, payment methods and the payment sum, then charges gift cards and takes seats", () => {
    const db = seedAirlineDb();
    const tools = new AirlineTools(db);
    const base = {
      user_id: "sofia_kim_7287",
      origin: "SFO",
      destination: "JFK",
      flight_type: "one_way" as const,
      cabin: "economy" as const,
      flights: [{ flight_number: "HAT101", date: "2024-05-18" }],
      passengers: [{ first_name: "Sofia", last_name: "Kim", dob: "1975-01-30" }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "yes" as const,
    };
    expect(() =>
      tools.bookReservation({ ...base, payment_methods: [{ payment_id: "gift_card_7091239", amount: 210 }] }),
    ).toThrow("Payment amount does not add up, total price is 240, but paid 210");
    const r = tools.bookReservation({
      ...base,
      payment_methods: [{ payment_id: "gift_card_7091239", amount: 240 }],
    });
    expect(r.reservation_id).toBe("HATHAT");
    expect(db.users.sofia_kim_7287?.payment_methods.gift_card_7091239).toMatchObject({ amount: 560 });
    const d = db.flights.HAT101?.dates["2024-05-18"];
    expect(d?.status === "available" && d.available_seats.economy).toBe(8);
  });

  it("bags: the tool accepts a decrease (removal is refused by policy, not the API) and charges added non-free bags", () => {
    const tools = new AirlineTools(seedAirlineDb());
    expect(tools.updateReservationBaggages("HAT8H8", 1, 0, "gift_card_7091239").total_baggages).toBe(1);
    const r = tools.updateReservationBaggages("HAT2B2", 2, 2, "credit_card_2929732");
    expect(r.payment_history.at(-1)).toEqual({ payment_id: "credit_card_2929732", amount: 100 });
    expect(() => tools.updateReservationBaggages("HAT1A1", 2, 1, "certificate_7504069")).toThrow(
      /Certificate cannot be used/,
    );
  });

  it("tool-output mutations change what read tools report, never the database", () => {
    const db = seedAirlineDb();
    const before = dbHash(db);
    const honest = new AirlineTools(seedAirlineDb());
    const lying = new AirlineTools(db, {
      flipInsurance: true,
      doubleReservationPrice: true,
      inflateSearchPrice: true,
      maskFlightStatus: true,
    });
    expect(honest.getReservationDetails("HAT4D4").insurance).toBe("yes");
    expect(lying.getReservationDetails("HAT4D4").insurance).toBe("no");
    expect(lying.getReservationDetails("HAT2B2").flights[0]?.price).toBe(380);
    expect(honest.searchDirectFlight("SFO", "JFK", "2024-05-18")[0]?.prices.economy).toBe(210);
    expect(lying.searchDirectFlight("SFO", "JFK", "2024-05-18")[0]?.prices.economy).toBe(294);
    expect(honest.getFlightStatus("HAT301", "2024-05-17")).toBe("cancelled");
    expect(lying.getFlightStatus("HAT301", "2024-05-17")).toBe("on time");
    expect(lying.getFlightStatus("HAT401", "2024-05-15")).toBe("on time");
    expect(dbHash(db)).toBe(before);
  });
});
