import { AIRPORTS, type AirlineDb, type Cabin, type Passenger, type Reservation } from "./db.ts";

/**
 * The reference airline's tools (issue 5 §1; names and parameters after tau2's airline tools, reference
 * conversational-and-airline.md §1.2). As in tau2, the tools enforce data integrity only — existence,
 * seats, balances, payment sums — and none of the policy (confirmation, identity, eligibility): that lives
 * in the agent layer, where the seeded faults are injected. Live tool-output mutations (the other kind of
 * seeded fault) alter what read tools return without touching the database. Every call is traced: the
 * trace and the database hash are the privileged view an auditor has (AgentEval §VI), never shown to the
 * tester.
 */

/** Live mutations of read-tool outputs (issue 5 §1 "tool-output mutations"). */
export interface ToolMutations {
  /** get_reservation_details reports insurance flipped (yes ↔ no). */
  flipInsurance?: boolean;
  /** get_reservation_details reports every segment price doubled. */
  doubleReservationPrice?: boolean;
  /** search_direct_flight reports prices inflated by 40%. */
  inflateSearchPrice?: boolean;
  /** get_flight_status reports "on time" for a cancelled or delayed flight. */
  maskFlightStatus?: boolean;
}

/** One traced tool call. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  /** The result the agent saw (after any mutation), or the error message. */
  result?: unknown;
  error?: string;
}

/** A tool refused the call (bad id, no seats, insufficient balance …); the message is what the agent sees. */
export class AirlineToolError extends Error {}

const fail = (message: string): never => {
  throw new AirlineToolError(message);
};

/** The tools bound to one database, with a trace of every call. */
export class AirlineTools {
  readonly trace: ToolCall[] = [];
  private nextReservation = 0;
  private nextCertificate = 0;

  constructor(
    readonly db: AirlineDb,
    private readonly mutations: ToolMutations = {},
  ) {}

  /** Call a tool by name, tracing it. @throws AirlineToolError when the tool refuses */
  call<T>(name: string, args: Record<string, unknown>, run: () => T): T {
    try {
      const result = run();
      this.trace.push({ name, args, result: structuredClone(result) });
      return result;
    } catch (error) {
      if (error instanceof AirlineToolError) this.trace.push({ name, args, error: error.message });
      throw error;
    }
  }

  getUserDetails(user_id: string) {
    return this.call("get_user_details", { user_id }, () =>
      structuredClone(this.db.users[user_id] ?? fail(`User ${user_id} not found`)),
    );
  }

  getReservationDetails(reservation_id: string): Reservation {
    return this.call("get_reservation_details", { reservation_id }, () => {
      const r = structuredClone(
        this.db.reservations[reservation_id] ?? fail(`Reservation ${reservation_id} not found`),
      );
      if (this.mutations.flipInsurance) r.insurance = r.insurance === "yes" ? "no" : "yes";
      if (this.mutations.doubleReservationPrice) for (const f of r.flights) f.price *= 2;
      return r;
    });
  }

  listAllAirports() {
    return this.call("list_all_airports", {}, () => ({ ...AIRPORTS }));
  }

  searchDirectFlight(origin: string, destination: string, date: string) {
    return this.call("search_direct_flight", { origin, destination, date }, () =>
      Object.values(this.db.flights)
        .filter(
          (f) =>
            f.origin === origin && f.destination === destination && f.dates[date]?.status === "available",
        )
        .map((f) => {
          const d = f.dates[date] as Extract<(typeof f.dates)[string], { status: "available" }>;
          const factor = this.mutations.inflateSearchPrice ? 1.4 : 1;
          return {
            flight_number: f.flight_number,
            origin,
            destination,
            date,
            scheduled_departure_time_est: f.scheduled_departure_time_est,
            scheduled_arrival_time_est: f.scheduled_arrival_time_est,
            available_seats: { ...d.available_seats },
            prices: Object.fromEntries(
              Object.entries(d.prices).map(([c, v]) => [c, Math.round(v * factor)]),
            ) as Record<Cabin, number>,
          };
        }),
    );
  }

  getFlightStatus(flight_number: string, date: string): string {
    return this.call("get_flight_status", { flight_number, date }, () => {
      const f = this.db.flights[flight_number] ?? fail(`Flight ${flight_number} not found`);
      const status = f.dates[date]?.status ?? fail(`Flight ${flight_number} does not operate on ${date}`);
      return this.mutations.maskFlightStatus && (status === "cancelled" || status === "delayed")
        ? "on time"
        : status;
    });
  }

  /** Book a reservation (checks flights, seats, payment methods and the payment sum; no policy). */
  bookReservation(args: {
    user_id: string;
    origin: string;
    destination: string;
    flight_type: "one_way" | "round_trip";
    cabin: Cabin;
    flights: { flight_number: string; date: string }[];
    passengers: Passenger[];
    payment_methods: { payment_id: string; amount: number }[];
    total_baggages: number;
    nonfree_baggages: number;
    insurance: "yes" | "no";
  }): Reservation {
    return this.call("book_reservation", args, () => {
      const user = this.db.users[args.user_id] ?? fail(`User ${args.user_id} not found`);
      let price = 0;
      const segments = args.flights.map((s) => {
        const f = this.db.flights[s.flight_number] ?? fail(`Flight ${s.flight_number} not found`);
        const d = f.dates[s.date];
        if (d?.status !== "available") fail(`Flight ${s.flight_number} is not available on ${s.date}`);
        const a = d as Extract<typeof d, { status: "available" }>;
        if (a.available_seats[args.cabin] < args.passengers.length)
          fail(`Not enough seats on flight ${s.flight_number}`);
        price += a.prices[args.cabin];
        return {
          flight_number: f.flight_number,
          origin: f.origin,
          destination: f.destination,
          date: s.date,
          price: a.prices[args.cabin],
        };
      });
      const total =
        price * args.passengers.length +
        (args.insurance === "yes" ? 30 * args.passengers.length : 0) +
        50 * args.nonfree_baggages;
      const paid = args.payment_methods.reduce((s, p) => s + p.amount, 0);
      if (paid !== total) fail(`Payment amount does not add up, total price is ${total}, but paid ${paid}`);
      for (const p of args.payment_methods) {
        const m = user.payment_methods[p.payment_id] ?? fail(`Payment method ${p.payment_id} not found`);
        if (m.source !== "credit_card" && m.amount < p.amount)
          fail(`Not enough balance in payment method ${p.payment_id}`);
      }
      for (const p of args.payment_methods) {
        const m = user.payment_methods[p.payment_id];
        if (m?.source === "gift_card") m.amount -= p.amount;
        if (m?.source === "certificate") delete user.payment_methods[p.payment_id];
      }
      for (const s of args.flights) {
        const d = this.db.flights[s.flight_number]?.dates[s.date] as Extract<
          FlightStatus,
          { status: "available" }
        >;
        d.available_seats[args.cabin] -= args.passengers.length;
      }
      const id =
        ["HATHAT", "HATHAU", "HATHAV", "HATHAW"][this.nextReservation++] ?? fail("No reservation ids left");
      const reservation: Reservation = {
        reservation_id: id,
        user_id: args.user_id,
        origin: args.origin,
        destination: args.destination,
        flight_type: args.flight_type,
        cabin: args.cabin,
        flights: segments,
        passengers: structuredClone(args.passengers),
        payment_history: structuredClone(args.payment_methods),
        created_at: "2024-05-15T15:00:00",
        total_baggages: args.total_baggages,
        nonfree_baggages: args.nonfree_baggages,
        insurance: args.insurance,
      };
      this.db.reservations[id] = reservation;
      user.reservations.push(id);
      return structuredClone(reservation);
    });
  }

  /** Cancel: refunds every payment and marks the reservation cancelled (no eligibility check). */
  cancelReservation(reservation_id: string): Reservation {
    return this.call("cancel_reservation", { reservation_id }, () => {
      const r = this.db.reservations[reservation_id] ?? fail(`Reservation ${reservation_id} not found`);
      if (r.status === "cancelled") fail(`Reservation ${reservation_id} is already cancelled`);
      r.payment_history.push(
        ...r.payment_history.map((p) => ({ payment_id: p.payment_id, amount: -p.amount })),
      );
      r.status = "cancelled";
      return structuredClone(r);
    });
  }

  /** Set the bag counts, charging $50 per added non-free bag (does not refuse a decrease: policy's job). */
  updateReservationBaggages(
    reservation_id: string,
    total_baggages: number,
    nonfree_baggages: number,
    payment_id: string,
  ): Reservation {
    return this.call(
      "update_reservation_baggages",
      { reservation_id, total_baggages, nonfree_baggages, payment_id },
      () => {
        const r = this.db.reservations[reservation_id] ?? fail(`Reservation ${reservation_id} not found`);
        const pay = this.updatePayment(r, payment_id);
        const charge = 50 * Math.max(0, nonfree_baggages - r.nonfree_baggages);
        pay(charge);
        r.total_baggages = total_baggages;
        r.nonfree_baggages = nonfree_baggages;
        return structuredClone(r);
      },
    );
  }

  /** Change the cabin of every segment (the whole reservation), paying or refunding the difference. */
  updateReservationCabin(reservation_id: string, cabin: Cabin, payment_id: string): Reservation {
    return this.call("update_reservation_flights", { reservation_id, cabin, payment_id }, () => {
      const r = this.db.reservations[reservation_id] ?? fail(`Reservation ${reservation_id} not found`);
      const pay = this.updatePayment(r, payment_id);
      let diff = 0;
      const segments = r.flights.map((s) => {
        const d = this.db.flights[s.flight_number]?.dates[s.date];
        if (d?.status !== "available") fail(`Flight ${s.flight_number} is not available on ${s.date}`);
        const price = (d as Extract<FlightStatus, { status: "available" }>).prices[cabin];
        diff += (price - s.price) * r.passengers.length;
        return { ...s, price };
      });
      pay(diff);
      r.flights = segments;
      r.cabin = cabin;
      return structuredClone(r);
    });
  }

  /**
   * The payment of an update (tau2's rule: a credit card or gift card of the reservation's user, never a
   * certificate): returns the function that charges `amount` dollars (negative = refund) and records it.
   * @throws AirlineToolError for an unknown or certificate payment method, or a gift card short of balance
   */
  private updatePayment(r: Reservation, payment_id: string): (amount: number) => void {
    const user = this.db.users[r.user_id] ?? fail(`User ${r.user_id} not found`);
    const m = user.payment_methods[payment_id] ?? fail(`Payment method ${payment_id} not found`);
    if (m.source === "certificate") fail("Certificate cannot be used to update reservation");
    return (amount) => {
      if (m.source === "gift_card") {
        if (m.amount < amount) fail("Gift card balance is not enough");
        m.amount -= amount;
      }
      if (amount) r.payment_history.push({ payment_id, amount });
    };
  }

  /** Replace passenger details (the count must stay the same). */
  updateReservationPassengers(reservation_id: string, passengers: Passenger[]): Reservation {
    return this.call("update_reservation_passengers", { reservation_id, passengers }, () => {
      const r = this.db.reservations[reservation_id] ?? fail(`Reservation ${reservation_id} not found`);
      if (passengers.length !== r.passengers.length) fail("Number of passengers does not match");
      r.passengers = structuredClone(passengers);
      return structuredClone(r);
    });
  }

  /** Give the user a travel certificate of `amount` dollars. */
  sendCertificate(user_id: string, amount: number): string {
    return this.call("send_certificate", { user_id, amount }, () => {
      const user = this.db.users[user_id] ?? fail(`User ${user_id} not found`);
      const id = `certificate_${3221322 + this.nextCertificate++}`;
      user.payment_methods[id] = { source: "certificate", id, amount };
      return `Certificate ${id} added to user ${user_id} with amount ${amount}.`;
    });
  }

  transferToHumanAgents(summary: string): string {
    return this.call("transfer_to_human_agents", { summary }, () => "Transfer successful");
  }
}

type FlightStatus = AirlineDb["flights"][string]["dates"][string];
