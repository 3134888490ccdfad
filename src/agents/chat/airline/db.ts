import { createHash } from "node:crypto";

/**
 * The reference airline's database (issue 5 §1; field names after the tau2 airline data model,
 * reference conversational-and-airline.md §1.3): a small, fixed set of users, flights and reservations
 * chosen so that every policy rule has a case that passes it and one that fails it (`seed.ts`). Pure
 * data; the tools (`tools.ts`) read and write it, the agent (policy layer) decides what may be done.
 */

export type Cabin = "basic_economy" | "economy" | "business";
export type Membership = "regular" | "silver" | "gold";

export type PaymentMethod =
  | { source: "credit_card"; id: string; brand: string; last_four: string }
  | { source: "gift_card"; id: string; amount: number }
  | { source: "certificate"; id: string; amount: number };

export interface Passenger {
  first_name: string;
  last_name: string;
  dob: string;
}

export interface User {
  user_id: string;
  name: { first_name: string; last_name: string };
  email: string;
  dob: string;
  membership: Membership;
  payment_methods: Record<string, PaymentMethod>;
  saved_passengers: Passenger[];
  reservations: string[];
}

/** A flight's state on one date: bookable (`available`) or one of the operating states. */
export type FlightDate =
  | { status: "available"; available_seats: Record<Cabin, number>; prices: Record<Cabin, number> }
  | {
      status: "on time" | "delayed";
      estimated_departure_time_est: string;
      estimated_arrival_time_est: string;
    }
  | { status: "flying"; actual_departure_time_est: string; estimated_arrival_time_est: string }
  | { status: "landed"; actual_departure_time_est: string; actual_arrival_time_est: string }
  | { status: "cancelled" };

export interface Flight {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDate>;
}

export interface ReservationFlight {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
  price: number;
}

export interface Reservation {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: "one_way" | "round_trip";
  cabin: Cabin;
  flights: ReservationFlight[];
  passengers: Passenger[];
  payment_history: { payment_id: string; amount: number }[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: "yes" | "no";
  status?: "cancelled";
}

export interface AirlineDb {
  flights: Record<string, Flight>;
  users: Record<string, User>;
  reservations: Record<string, Reservation>;
}

/** The fixed "now" of the domain (reference §1.1): 2024-05-15 15:00 EST. */
export const NOW = "2024-05-15T15:00:00";

/** Airports the domain serves (IATA code → city). */
export const AIRPORTS: Record<string, string> = {
  SFO: "San Francisco",
  JFK: "New York",
  LAX: "Los Angeles",
  ORD: "Chicago",
  DFW: "Dallas",
  DEN: "Denver",
  SEA: "Seattle",
  ATL: "Atlanta",
  MIA: "Miami",
  BOS: "Boston",
};

/** SHA-256 of the database as canonical JSON (keys sorted at every level): equal states, equal hashes. */
export function dbHash(db: AirlineDb): string {
  const canonical = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    if (v && typeof v === "object")
      return `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
        .join(",")}}`;
    return JSON.stringify(v) ?? "null";
  };
  return createHash("sha256").update(canonical(db)).digest("hex");
}
