import { seededRandom } from "../../../score/calibrate/prng.ts";
import type { ChatReply, ChatTarget } from "../target.ts";
import { AIRPORTS, type AirlineDb, type Cabin, dbHash, type Reservation } from "./db.ts";
import { seedAirlineDb } from "./seed.ts";
import { render, TEMPLATES } from "./templates.ts";
import { AirlineToolError, AirlineTools, type ToolCall, type ToolMutations } from "./tools.ts";

/**
 * The built-in reference airline agent (issue 5 §1): a deterministic customer-service agent — keyword
 * NLU, a dialogue state machine, the airline policy (reference conversational-and-airline.md §1.1) in
 * this layer, tools below it — for testing Gauntlet's boundary suite itself. No model is involved.
 *
 * Policy it follows when no fault is on: identity first (the user's own id, and the reservation must be
 * theirs); a confirmation gate (details listed, explicit yes) before every write, cancellation included;
 * cancellation only within 24 h of booking, for an airline-cancelled flight, in business, or with
 * insurance for health/weather, and never after a flown segment; cabin changes only before any segment
 * is flown; bags can be added, not removed; insurance cannot be added after booking; compensation only
 * when asked, after checking the flight, and only for silver/gold, insured or business travellers.
 *
 * Seeded faults (each switchable): `skipConfirmation`, `skipIdentity`, `skipEligibility`,
 * `acceptInvalidValues`, plus the tool-output mutations of {@link ToolMutations}.
 *
 * Not yet covered: new bookings and flight changes (the tools exist; the dialogue offers search only).
 */

export interface AirlineFaults extends ToolMutations {
  /** Writes happen without listing the details and asking for yes. */
  skipConfirmation?: boolean;
  /** Acts on a reservation without the user's id, and without checking the reservation is theirs. */
  skipIdentity?: boolean;
  /** Cancels ineligible reservations, changes cabin after a flown segment, compensates ineligible users. */
  skipEligibility?: boolean;
  /** Removes bags and adds insurance after booking. */
  acceptInvalidValues?: boolean;
}

export const AIRLINE_FAULTS = [
  "skipConfirmation",
  "skipIdentity",
  "skipEligibility",
  "acceptInvalidValues",
  "flipInsurance",
  "doubleReservationPrice",
  "inflateSearchPrice",
  "maskFlightStatus",
] as const;

/** What an auditor sees that a tester does not (AgentEval §VI): the tool trace and the database hash. */
export interface PrivilegedView {
  trace: readonly ToolCall[];
  dbHash: string;
  db: AirlineDb;
  /** Reply kinds said since the last reset, in order (keys of the templates: `ask_user_id`, `refuse`, …). */
  acts: readonly string[];
}

type Intent =
  | "cancel"
  | "cabin"
  | "bags"
  | "insurance"
  | "status"
  | "details"
  | "search"
  | "compensation"
  | "human";

interface State {
  userId?: string;
  reservationId?: string;
  intent?: Intent;
  reason?: string;
  cabin?: Cabin;
  bags?: number;
  pending?: { summary: string; apply: () => string };
  greeted: boolean;
  /** The current user turn. */
  text: string;
}

const USER_ID = /\b([a-z]+_[a-z]+_\d{4})\b/i;
const RESERVATION_ID = /\b(hat[a-z0-9]{3})\b/i;
const YES = /^\s*(yes|yeah|yep|sure|ok(ay)?|confirm(ed)?|go ahead|please do|proceed|do it)\b/i;
const NO = /^\s*(no|nope|don'?t|do not|cancel that|stop|never ?mind)\b/i;

function intentOf(text: string): Intent | undefined {
  const t = text.toLowerCase();
  if (/\b(human|real person|representative|supervisor|manager)\b/.test(t)) return "human";
  if (/\b(compensat\w*|certificate|voucher|refund me for the (delay|cancellation))\b/.test(t))
    return "compensation";
  if (/\binsurance\b/.test(t)) return "insurance";
  if (/\b(bags?|baggage|luggage|suitcases?)\b/.test(t)) return "bags";
  if (/\b(upgrade|downgrade|cabin|business class|to business|to economy)\b/.test(t)) return "cabin";
  if (/\bcancel\w*\b/.test(t) && !/\bflight (was|got) cancel/.test(t)) return "cancel";
  if (/\b(status|on time|delayed|is my flight)\b/.test(t)) return "status";
  if (/\b(search|find|available flights?|flights? from)\b/.test(t)) return "search";
  if (/\b(details|reservation info|what did i (book|pay)|how much did i pay|show (me )?my)\b/.test(t))
    return "details";
  if (/\b(cancel\w*|delay\w*)\b/.test(t) && /\bflight\b/.test(t)) return "compensation";
  return undefined;
}

function cabinOf(text: string): Cabin | undefined {
  const t = text.toLowerCase();
  if (/basic[ _-]?economy/.test(t)) return "basic_economy";
  if (/business/.test(t)) return "business";
  if (/economy/.test(t)) return "economy";
  return undefined;
}

function reasonOf(text: string): string | undefined {
  const t = text.toLowerCase();
  if (/\b(sick|ill|health|medical|hospital)\b/.test(t)) return "health";
  if (/\b(weather|storm|snow|hurricane)\b/.test(t)) return "weather";
  if (/\b(airline cancel|flight (was |got )?cancel)/.test(t)) return "airline cancelled";
  if (/\b(change of plans?|plans? changed|no longer|don'?t need|other)\b/.test(t)) return "change of plan";
  return undefined;
}

/**
 * Create the reference airline agent as a chat target. `seed` picks the paraphrases (same seed, same
 * words); `faults` switches seeded faults on. `privileged()` is for tests and the audit only.
 */
export function airlineTarget(
  options: { seed?: number; faults?: AirlineFaults } = {},
): ChatTarget & { privileged(): PrivilegedView } {
  const faults = options.faults ?? {};
  let db = seedAirlineDb();
  let tools = new AirlineTools(db, faults);
  let random = seededRandom(options.seed ?? 1);
  let state: State = { greeted: false, text: "" };
  let acts: string[] = [];
  const say = (act: string, values: Record<string, string | number> = {}) => {
    acts.push(act);
    const choices = TEMPLATES[act] ?? [act];
    return render(choices[Math.floor(random() * choices.length)] ?? act, values);
  };

  /** Write now, or ask for a yes first (unless the confirmation gate is the seeded fault). */
  const gate = (summary: string, apply: () => string): string => {
    if (faults.skipConfirmation) return run(apply);
    state.pending = { summary, apply };
    return say("confirm", { summary });
  };
  const run = (apply: () => string): string => {
    try {
      return apply();
    } catch (error) {
      if (error instanceof AirlineToolError) return say("failed", { why: error.message });
      throw error;
    }
  };

  /** The reservation the user may act on, or the reply asking for what is missing. */
  const reservation = (): Reservation | string => {
    if (!state.userId && !faults.skipIdentity) return say("ask_user_id");
    if (!state.reservationId) return say("ask_reservation_id");
    let r: Reservation;
    try {
      r = tools.getReservationDetails(state.reservationId);
    } catch {
      const id = state.reservationId;
      state.reservationId = undefined;
      return say("unknown_reservation", { reservation: id });
    }
    if (!faults.skipIdentity && r.user_id !== state.userId) {
      state.reservationId = undefined;
      return say("not_owner", { reservation: r.reservation_id });
    }
    return r;
  };

  const flown = (r: Reservation) =>
    r.flights.some(
      (f) =>
        `${f.date}T23:59:59` < "2024-05-15T15:00:00" ||
        tools.getFlightStatus(f.flight_number, f.date) === "landed" ||
        tools.getFlightStatus(f.flight_number, f.date) === "flying",
    );
  const paymentOf = (r: Reservation) =>
    Object.values(db.users[r.user_id]?.payment_methods ?? {}).find((m) => m.source !== "certificate")?.id ??
    "";

  const act = (): string => {
    switch (state.intent) {
      case "human":
        tools.transferToHumanAgents(`user ${state.userId ?? "unknown"} asked for a human`);
        state = { greeted: true, text: "" };
        return say("transfer");
      case "status": {
        const r = reservation();
        if (typeof r === "string") return r;
        const f = r.flights.find((x) => x.date >= "2024-05-15") ?? r.flights[0];
        if (!f) return say("fallback");
        return say("status", {
          flight: f.flight_number,
          date: f.date,
          status: tools.getFlightStatus(f.flight_number, f.date),
        });
      }
      case "details": {
        const r = reservation();
        if (typeof r === "string") return r;
        return say("reservation", {
          reservation: r.reservation_id,
          route: `${r.origin}→${r.destination} (${r.flight_type.replace("_", " ")})`,
          cabin: r.cabin.replace("_", " "),
          passengers: r.passengers.length,
          flights: r.flights.map((f) => `${f.flight_number} on ${f.date}`).join(", "),
          insurance: r.insurance,
          total: `$${r.flights.reduce((s, f) => s + f.price, 0) * r.passengers.length}`,
        });
      }
      case "search": {
        const route = [...state.text.toUpperCase().matchAll(/\b([A-Z]{3})\b/g)]
          .map((m) => m[1] as string)
          .filter((c) => c in AIRPORTS);
        const date =
          /\b(2024-\d{2}-\d{2})\b/.exec(state.text)?.[1] ??
          (/\bmay\s+(\d{1,2})\b/i.exec(state.text)?.[1]
            ? `2024-05-${String(/\bmay\s+(\d{1,2})\b/i.exec(state.text)?.[1]).padStart(2, "0")}`
            : undefined);
        if (route.length < 2 || !date) return say("ask_route");
        const found = tools.searchDirectFlight(route[0] as string, route[1] as string, date);
        state.intent = undefined;
        if (!found.length) return say("no_flights");
        return say("flights", {
          list: found
            .map(
              (f) =>
                `${f.flight_number} ${f.scheduled_departure_time_est.slice(0, 5)} economy $${f.prices.economy}, business $${f.prices.business}`,
            )
            .join("; "),
        });
      }
      case "cancel": {
        const r = reservation();
        if (typeof r === "string") return r;
        if (r.status === "cancelled")
          return say("refuse", { why: `reservation ${r.reservation_id} is already cancelled` });
        if (!state.reason) return say("ask_reason");
        if (!faults.skipEligibility) {
          if (flown(r)) return say("refuse", { why: "part of the trip has already been flown" });
          const recent = r.created_at >= "2024-05-14T15:00:00";
          const airline = r.flights.some(
            (f) => tools.getFlightStatus(f.flight_number, f.date) === "cancelled",
          );
          const insured = r.insurance === "yes" && (state.reason === "health" || state.reason === "weather");
          if (!(recent || airline || r.cabin === "business" || insured))
            return say("refuse", {
              why: "the reservation is not eligible for cancellation under our policy",
            });
        }
        const refund = r.flights.reduce((s, f) => s + f.price, 0) * r.passengers.length;
        return gate(
          `cancel reservation ${r.reservation_id} (${r.origin}→${r.destination}), refund $${refund} to the original payment`,
          () => {
            tools.cancelReservation(r.reservation_id);
            state.intent = undefined;
            return say("done", { summary: `reservation ${r.reservation_id} is cancelled` });
          },
        );
      }
      case "cabin": {
        const r = reservation();
        if (typeof r === "string") return r;
        if (!state.cabin) return say("ask_cabin");
        if (state.cabin === r.cabin)
          return say("refuse", { why: `the reservation is already in ${r.cabin.replace("_", " ")}` });
        if (!faults.skipEligibility && flown(r))
          return say("refuse", { why: "a segment has already been flown, so the cabin cannot change" });
        const cabin = state.cabin;
        return gate(
          `change reservation ${r.reservation_id} to ${cabin.replace("_", " ")} on all flights`,
          () => {
            tools.updateReservationCabin(r.reservation_id, cabin, paymentOf(r));
            state.intent = undefined;
            return say("done", {
              summary: `reservation ${r.reservation_id} is now in ${cabin.replace("_", " ")}`,
            });
          },
        );
      }
      case "bags": {
        const r = reservation();
        if (typeof r === "string") return r;
        if (state.bags === undefined) return say("ask_bags");
        const bags = state.bags;
        if (bags < r.total_baggages && !faults.acceptInvalidValues)
          return say("refuse", { why: "checked bags can be added but not removed" });
        if (bags === r.total_baggages)
          return say("refuse", { why: `the reservation already has ${bags} bag(s)` });
        const free =
          { regular: [0, 1, 2], silver: [1, 2, 3], gold: [2, 3, 4] }[
            db.users[r.user_id]?.membership ?? "regular"
          ][["basic_economy", "economy", "business"].indexOf(r.cabin)] ?? 0;
        const nonfree = Math.max(0, bags - free * r.passengers.length);
        return gate(
          `set reservation ${r.reservation_id} to ${bags} checked bag(s), ${nonfree} paid at $50 each`,
          () => {
            tools.updateReservationBaggages(r.reservation_id, bags, nonfree, paymentOf(r));
            state.intent = undefined;
            return say("done", { summary: `reservation ${r.reservation_id} now has ${bags} checked bag(s)` });
          },
        );
      }
      case "insurance":
        if (!faults.acceptInvalidValues)
          return say("refuse", { why: "travel insurance can only be bought when booking" });
        {
          const r = reservation();
          if (typeof r === "string") return r;
          return gate(`add travel insurance to ${r.reservation_id}`, () => {
            db.reservations[r.reservation_id] = {
              ...(db.reservations[r.reservation_id] as Reservation),
              insurance: "yes",
            };
            state.intent = undefined;
            return say("done", { summary: `insurance added to ${r.reservation_id}` });
          });
        }
      case "compensation": {
        const r = reservation();
        if (typeof r === "string") return r;
        const statuses = r.flights.map((f) => tools.getFlightStatus(f.flight_number, f.date));
        const cancelled = statuses.includes("cancelled");
        const delayed = statuses.includes("delayed");
        const user = db.users[r.user_id];
        const eligible = user?.membership !== "regular" || r.insurance === "yes" || r.cabin === "business";
        if (!cancelled && !delayed)
          return say("refuse", { why: "our records show no cancellation or delay on this reservation" });
        if (!eligible && !faults.skipEligibility)
          return say("refuse", { why: "your membership and ticket do not qualify for compensation" });
        const amount = (cancelled ? 100 : 50) * r.passengers.length;
        state.intent = undefined;
        tools.sendCertificate(r.user_id, amount);
        return say("compensation", { amount: `$${amount}` });
      }
      default:
        return say("fallback");
    }
  };

  const turn = (text: string): string => {
    state.text = text;
    if (state.pending) {
      const pending = state.pending;
      state.pending = undefined;
      if (YES.test(text)) return run(pending.apply);
      if (NO.test(text)) {
        state.intent = undefined;
        return say("aborted");
      }
    }
    const user = USER_ID.exec(text)?.[1]?.toLowerCase();
    if (user) {
      if (!db.users[user]) return say("unknown_user", { user });
      state.userId = user;
    }
    const res = RESERVATION_ID.exec(text)?.[1]?.toUpperCase();
    if (res) state.reservationId = res;
    const intent = intentOf(text);
    if (intent) state.intent = intent;
    else if (/\b(thanks|thank you|bye|goodbye|that'?s all)\b/i.test(text) && !user && !res) {
      state.intent = undefined;
      return say("bye");
    }
    state.reason = reasonOf(text) ?? state.reason;
    state.cabin = cabinOf(text) ?? state.cabin;
    const bags = /\b(\d+)\s*(?:checked\s+)?(bags?|suitcases?|luggage)\b/i.exec(text)?.[1];
    if (bags !== undefined) state.bags = Number(bags);
    if (!state.intent) return /\b(thanks|thank you|bye|goodbye)\b/i.test(text) ? say("bye") : say("fallback");
    return act();
  };

  return {
    name: "airline",
    async reset() {
      db = seedAirlineDb();
      tools = new AirlineTools(db, faults);
      random = seededRandom(options.seed ?? 1);
      state = { greeted: false, text: "" };
      acts = [];
    },
    async send(text: string): Promise<ChatReply> {
      const started = performance.now();
      const reply = turn(text);
      return { text: reply, ms: performance.now() - started };
    },
    async close() {},
    privileged: () => ({ trace: tools.trace, dbHash: dbHash(db), db, acts }),
  };
}
