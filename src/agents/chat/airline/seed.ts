import type { AirlineDb, Cabin, Flight, FlightDate, Reservation, User } from "./db.ts";

/**
 * The reference airline's seed data (issue 5 §1): the users, flights and reservations every conversation
 * starts from. Each policy rule of the reference agent has a reservation that passes it and one that fails
 * it (see {@link seedAirlineDb}).
 */

const seats = (b: number, e: number, x: number) => ({ basic_economy: b, economy: e, business: x });
const available = (prices: Record<Cabin, number>, left = seats(9, 9, 4)): FlightDate => ({
  status: "available",
  available_seats: left,
  prices,
});

function flight(
  n: string,
  origin: string,
  destination: string,
  dep: string,
  arr: string,
  dates: Record<string, FlightDate>,
): Flight {
  return {
    flight_number: n,
    origin,
    destination,
    scheduled_departure_time_est: dep,
    scheduled_arrival_time_est: arr,
    dates,
  };
}

/**
 * A fresh copy of the reference database. Cases it holds (each a rule's pass and fail side):
 * reservations booked under 24 h ago (HAT1A1) and long ago (HAT2B2, economy, no insurance); business
 * (HAT3C3); insured economy (HAT4D4); basic economy (HAT5E5); one with a flown (landed) segment
 * (HAT6F6); one on a flight the airline cancelled (HAT7G7); one on a delayed flight (HAT8H8). Users of
 * each membership, payment methods of each kind including a low-balance gift card, flights in every
 * status.
 */
export function seedAirlineDb(): AirlineDb {
  const p = (b: number, e: number, x: number) => ({ basic_economy: b, economy: e, business: x });
  const flights: Flight[] = [
    flight("HAT101", "SFO", "JFK", "08:00:00", "16:30:00", {
      "2024-05-18": available(p(120, 210, 640)),
      "2024-05-20": available(p(110, 190, 610), seats(0, 2, 1)),
    }),
    flight("HAT102", "JFK", "SFO", "18:00:00", "21:40:00", {
      "2024-05-22": available(p(130, 220, 660)),
      "2024-05-24": available(p(125, 215, 650)),
    }),
    flight("HAT201", "SFO", "ORD", "07:00:00", "13:10:00", {
      "2024-05-18": available(p(90, 160, 480)),
      "2024-05-14": {
        status: "landed",
        actual_departure_time_est: "2024-05-14T07:05:00",
        actual_arrival_time_est: "2024-05-14T13:02:00",
      },
    }),
    flight("HAT202", "ORD", "JFK", "14:30:00", "17:45:00", {
      "2024-05-18": available(p(80, 150, 420)),
      "2024-05-16": available(p(80, 150, 420)),
    }),
    flight("HAT301", "LAX", "SEA", "09:00:00", "11:45:00", {
      "2024-05-17": { status: "cancelled" },
      "2024-05-19": available(p(70, 130, 390)),
    }),
    flight("HAT401", "BOS", "MIA", "12:00:00", "15:20:00", {
      "2024-05-15": {
        status: "delayed",
        estimated_departure_time_est: "2024-05-15T16:40:00",
        estimated_arrival_time_est: "2024-05-15T20:00:00",
      },
      "2024-05-21": available(p(95, 170, 500)),
    }),
    flight("HAT501", "DEN", "ATL", "06:30:00", "11:50:00", {
      "2024-05-15": {
        status: "flying",
        actual_departure_time_est: "2024-05-15T06:34:00",
        estimated_arrival_time_est: "2024-05-15T11:55:00",
      },
      "2024-05-16": {
        status: "on time",
        estimated_departure_time_est: "2024-05-16T06:30:00",
        estimated_arrival_time_est: "2024-05-16T11:50:00",
      },
      "2024-05-23": available(p(85, 155, 450)),
    }),
  ];
  const users: User[] = [
    {
      user_id: "mia_li_3668",
      name: { first_name: "Mia", last_name: "Li" },
      email: "mia.li@example.com",
      dob: "1990-04-05",
      membership: "gold",
      payment_methods: {
        credit_card_4421357: {
          source: "credit_card",
          id: "credit_card_4421357",
          brand: "visa",
          last_four: "7447",
        },
        certificate_7504069: { source: "certificate", id: "certificate_7504069", amount: 250 },
      },
      saved_passengers: [{ first_name: "Amelia", last_name: "Ahmed", dob: "1957-03-21" }],
      reservations: ["HAT1A1", "HAT3C3", "HAT6F6"],
    },
    {
      user_id: "omar_davis_3817",
      name: { first_name: "Omar", last_name: "Davis" },
      email: "omar.davis@example.com",
      dob: "1982-10-17",
      membership: "regular",
      payment_methods: {
        credit_card_2929732: {
          source: "credit_card",
          id: "credit_card_2929732",
          brand: "mastercard",
          last_four: "1190",
        },
        gift_card_3481935: { source: "gift_card", id: "gift_card_3481935", amount: 22 },
      },
      saved_passengers: [],
      reservations: ["HAT2B2", "HAT5E5", "HAT7G7"],
    },
    {
      user_id: "sofia_kim_7287",
      name: { first_name: "Sofia", last_name: "Kim" },
      email: "sofia.kim@example.com",
      dob: "1975-01-30",
      membership: "silver",
      payment_methods: {
        gift_card_7091239: { source: "gift_card", id: "gift_card_7091239", amount: 800 },
        credit_card_6615374: {
          source: "credit_card",
          id: "credit_card_6615374",
          brand: "amex",
          last_four: "3005",
        },
      },
      saved_passengers: [],
      reservations: ["HAT4D4", "HAT8H8"],
    },
  ];
  const seg = (n: string, o: string, d: string, date: string, price: number) => ({
    flight_number: n,
    origin: o,
    destination: d,
    date,
    price,
  });
  const pax = (f: string, l: string, dob: string) => ({ first_name: f, last_name: l, dob });
  const res = (r: Omit<Reservation, "status">): Reservation => r;
  const reservations: Reservation[] = [
    res({
      reservation_id: "HAT1A1",
      user_id: "mia_li_3668",
      origin: "SFO",
      destination: "JFK",
      flight_type: "one_way",
      cabin: "economy",
      flights: [seg("HAT101", "SFO", "JFK", "2024-05-18", 210)],
      passengers: [pax("Mia", "Li", "1990-04-05")],
      payment_history: [{ payment_id: "credit_card_4421357", amount: 210 }],
      created_at: "2024-05-15T10:20:00",
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT2B2",
      user_id: "omar_davis_3817",
      origin: "SFO",
      destination: "JFK",
      flight_type: "round_trip",
      cabin: "economy",
      flights: [
        seg("HAT101", "SFO", "JFK", "2024-05-20", 190),
        seg("HAT102", "JFK", "SFO", "2024-05-24", 215),
      ],
      passengers: [pax("Omar", "Davis", "1982-10-17"), pax("Lena", "Davis", "1984-06-02")],
      payment_history: [{ payment_id: "credit_card_2929732", amount: 810 }],
      created_at: "2024-05-01T09:00:00",
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT3C3",
      user_id: "mia_li_3668",
      origin: "SFO",
      destination: "JFK",
      flight_type: "one_way",
      cabin: "business",
      flights: [
        seg("HAT201", "SFO", "ORD", "2024-05-18", 480),
        seg("HAT202", "ORD", "JFK", "2024-05-18", 420),
      ],
      passengers: [pax("Mia", "Li", "1990-04-05")],
      payment_history: [{ payment_id: "credit_card_4421357", amount: 900 }],
      created_at: "2024-05-02T12:00:00",
      total_baggages: 2,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT4D4",
      user_id: "sofia_kim_7287",
      origin: "LAX",
      destination: "SEA",
      flight_type: "one_way",
      cabin: "economy",
      flights: [seg("HAT301", "LAX", "SEA", "2024-05-19", 130)],
      passengers: [pax("Sofia", "Kim", "1975-01-30")],
      payment_history: [{ payment_id: "gift_card_7091239", amount: 160 }],
      created_at: "2024-05-03T08:00:00",
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: "yes",
    }),
    res({
      reservation_id: "HAT5E5",
      user_id: "omar_davis_3817",
      origin: "DEN",
      destination: "ATL",
      flight_type: "one_way",
      cabin: "basic_economy",
      flights: [seg("HAT501", "DEN", "ATL", "2024-05-23", 85)],
      passengers: [pax("Omar", "Davis", "1982-10-17")],
      payment_history: [{ payment_id: "credit_card_2929732", amount: 85 }],
      created_at: "2024-05-04T08:00:00",
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT6F6",
      user_id: "mia_li_3668",
      origin: "SFO",
      destination: "JFK",
      flight_type: "one_way",
      cabin: "economy",
      flights: [
        seg("HAT201", "SFO", "ORD", "2024-05-14", 160),
        seg("HAT202", "ORD", "JFK", "2024-05-16", 150),
      ],
      passengers: [pax("Mia", "Li", "1990-04-05")],
      payment_history: [{ payment_id: "credit_card_4421357", amount: 310 }],
      created_at: "2024-05-05T08:00:00",
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT7G7",
      user_id: "omar_davis_3817",
      origin: "LAX",
      destination: "SEA",
      flight_type: "one_way",
      cabin: "economy",
      flights: [seg("HAT301", "LAX", "SEA", "2024-05-17", 130)],
      passengers: [pax("Omar", "Davis", "1982-10-17")],
      payment_history: [{ payment_id: "credit_card_2929732", amount: 130 }],
      created_at: "2024-05-06T08:00:00",
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    res({
      reservation_id: "HAT8H8",
      user_id: "sofia_kim_7287",
      origin: "BOS",
      destination: "MIA",
      flight_type: "one_way",
      cabin: "economy",
      flights: [seg("HAT401", "BOS", "MIA", "2024-05-15", 170)],
      passengers: [pax("Sofia", "Kim", "1975-01-30"), pax("Jun", "Kim", "2005-08-09")],
      payment_history: [{ payment_id: "gift_card_7091239", amount: 340 }],
      created_at: "2024-05-07T08:00:00",
      total_baggages: 2,
      nonfree_baggages: 0,
      insurance: "no",
    }),
  ];
  return {
    flights: Object.fromEntries(flights.map((f) => [f.flight_number, f])),
    users: Object.fromEntries(users.map((u) => [u.user_id, u])),
    reservations: Object.fromEntries(reservations.map((r) => [r.reservation_id, r])),
  };
}
