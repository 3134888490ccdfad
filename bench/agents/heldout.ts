import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  type Action,
  actionVars,
  addDays,
  BOOKINGS,
  type Booking,
  BREAKFAST_PER_PERSON_NIGHT,
  CANCEL_FREE_HOURS,
  CHECKIN_HOUR,
  clock,
  detectIntent,
  EXTRA_BED_PER_NIGHT,
  FACTS,
  FAULTS,
  type FaultId,
  type Intent,
  LATE_FEE,
  LATE_FREE_UNTIL,
  LATE_MAX,
  MAX_AUTH_FAILURES,
  mulberry32,
  NO,
  NOW,
  nightsBetween,
  normName,
  PHRASES,
  parseDates,
  parseNumber,
  parseTime,
  pretty,
  REFUND_CAP,
  ROOMS,
  type RoomType,
  STANDARD_CHECKOUT,
  STATES,
  type StateId,
  YES,
} from "./heldout-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * Held-out testbed agent: a rule-based hotel reservation desk (look up, change dates, breakfast, extra bed,
 * cancel, refund, late checkout) with an identity gate, a yes/no confirmation gate before every write and
 * policy guards. Wordings are picked by a seeded PRNG; faults are switched on one by one for measurement.
 */

type Step =
  | { kind: "none" }
  | { kind: "ask_dates"; suggest?: string }
  | { kind: "ask_amount" }
  | { kind: "ask_time" }
  | { kind: "confirm"; action: Action; shown: Action };

class HotelDesk implements TestbedTarget {
  readonly name = "testbed:hotel";
  private readonly faults: ReadonlySet<FaultId>;
  private rand: () => number = () => 0;
  private bookings: Booking[] = [];
  private booking: Booking | null = null;
  private candidate: Booking | null = null;
  private auth: "none" | "ref" | "surname" = "none";
  private failures = 0;
  private goal: Intent | null = null;
  private goalText = "";
  private step: Step = { kind: "none" };
  private turns = 0;
  private visited: StateId[] = [];
  private writes: string[] = [];
  private relayed: string[] = [];
  private out: string[] = [];

  constructor(
    faults: readonly string[],
    private readonly seed: number,
  ) {
    for (const f of faults)
      if (!(FAULTS as readonly string[]).includes(f)) throw new Error(`unknown fault ${f}`);
    this.faults = new Set(faults as FaultId[]);
    this.init();
  }

  private init() {
    this.rand = mulberry32(this.seed * 2654435761 + 7);
    this.bookings = BOOKINGS.map((b) => ({ ...b }));
    this.booking = null;
    this.candidate = null;
    this.auth = "none";
    this.failures = 0;
    this.goal = null;
    this.goalText = "";
    this.step = { kind: "none" };
    this.turns = 0;
    this.visited = [];
    this.writes = [];
    this.relayed = [];
  }

  async reset(): Promise<void> {
    this.init();
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return `writes=[${this.writes.join("; ")}] relayed=[${this.relayed.join("; ")}]`;
  }

  async send(text: string): Promise<ChatReply> {
    const start = performance.now();
    this.out = [];
    if (this.turns === 0) this.say("welcome");
    this.turns++;
    this.turn(text.trim());
    return { text: this.out.join(" "), ms: performance.now() - start };
  }

  private on(f: FaultId): boolean {
    return this.faults.has(f);
  }

  private enter(state: StateId) {
    this.visited.push(state);
  }

  private to(state: StateId, kind: string, vars: Record<string, string | number> = {}, more = false) {
    this.enter(state);
    this.say(kind, vars);
    if (more) this.say("more");
  }

  private say(kind: string, vars: Record<string, string | number> = {}) {
    const options = (PHRASES[kind] ?? kind).split(" | ");
    const pick = options[Math.floor(this.rand() * options.length)] ?? options[0] ?? "";
    this.out.push(pick.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`)).trim());
  }

  private room(b: Booking): RoomType {
    return ROOMS.find((r) => r.key === b.room) ?? (ROOMS[0] as RoomType);
  }

  private nights(b: Booking): number {
    return nightsBetween(b.arrival, b.departure);
  }

  private turn(text: string) {
    const s = text.toLowerCase();
    const intent = detectIntent(s);
    if (this.failures >= MAX_AUTH_FAILURES && intent !== "handoff" && intent !== "bye") {
      this.to("auth.locked", "locked");
      return;
    }
    if (this.step.kind === "confirm") return this.onConfirm(text, s, intent, this.step);
    if (this.step.kind !== "none") return this.onAsk(text, s, intent);
    if (this.auth !== "none" && (intent === null || intent === "greet")) return this.onAuth(text);
    if (intent === null && this.booking && parseDates(text).length > 0) return this.handle("dates", text);
    if (intent === null) {
      if (NO.test(s)) return this.handle("bye", text);
      if (YES.test(s)) return this.handle("help", text);
      if (this.auth === "none" && /\bhx\s?-?\d{4}\b/i.test(s)) {
        this.auth = "ref";
        return this.onAuth(text);
      }
      this.to("clarify", "clarify");
      this.say("menu");
      return;
    }
    this.handle(intent, text);
  }

  private handle(intent: Intent, text: string) {
    switch (intent) {
      case "greet":
        this.to("greet", "greet");
        return;
      case "help":
        this.to("menu", "menu");
        return;
      case "bye":
        this.to("goodbye", "goodbye");
        return;
      case "handoff":
        this.to("handoff", "handoff");
        return;
      case "policy":
        this.to("info.policy", "policy", { cap: REFUND_CAP });
        return;
    }
    if (!this.booking) {
      this.goal = intent;
      this.goalText = text;
      if (this.auth === "none") this.auth = "ref";
      this.onAuth(text);
      return;
    }
    this.run(intent, text, this.booking);
  }

  private onAuth(text: string) {
    const s = text.toLowerCase();
    if (this.auth === "ref") {
      const m = s.match(/\b([a-z]{2})\s?-?(\d{4})\b/);
      if (!m) {
        const again = this.visited[this.visited.length - 1] === "auth.ask_ref";
        this.enter("auth.ask_ref");
        this.say(again ? "ask_ref_again" : "ask_ref");
        return;
      }
      const ref = `${(m[1] ?? "").toUpperCase()}${m[2]}`;
      const rec = this.bookings.find((b) => b.ref === ref);
      if (!rec) return this.fail("auth.not_found", "not_found", { ref });
      this.candidate = rec;
      const words = s.split(/[^a-zà-ÿ]+/).map(normName);
      if (this.on("skip_identity_check") || words.includes(normName(rec.surname))) return this.verified(rec);
      this.auth = "surname";
      this.to("auth.ask_surname", "ask_surname");
      return;
    }
    const rec = this.candidate;
    if (!rec) return;
    const cleaned = text
      .replace(
        /\b(my|the|surname|last|family|name|is|it's|its|it is|under|booking|i'm|i am|mr|mrs|ms|dr|miss)\b\.?/gi,
        " ",
      )
      .trim();
    const words = cleaned.split(/[^A-Za-zÀ-ÿ'-]+/).filter((w) => w.length > 1);
    const given = words[words.length - 1] ?? "";
    if (!given) {
      this.to("auth.ask_surname", "ask_surname");
      return;
    }
    const ok =
      normName(given) === normName(rec.surname) || words.some((w) => normName(w) === normName(rec.surname));
    if (ok || this.on("accept_wrong_surname")) return this.verified(rec);
    this.fail("auth.mismatch", "mismatch", {});
  }

  private fail(state: StateId, kind: string, vars: Record<string, string>) {
    this.failures++;
    if (this.failures >= MAX_AUTH_FAILURES) {
      this.to("auth.locked", "locked");
      return;
    }
    this.enter(state);
    this.say(kind, vars);
  }

  private verified(rec: Booking) {
    this.booking = rec;
    this.auth = "none";
    this.to("auth.verified", "verified", { first: rec.firstName });
    this.relayed.push(`verified:${rec.ref}`);
    const goal = this.goal;
    this.goal = null;
    if (goal) this.run(goal, this.goalText.replace(/\bhx\s?-?\d{4}\b/gi, " "), rec);
    else this.say("anything");
  }

  private run(intent: Intent, text: string, b: Booking) {
    if (b.status === "cancelled" && ["dates", "breakfast", "bed", "late"].includes(intent)) {
      this.to("booking.cancelled", "is_cancelled", {}, true);
      return;
    }
    switch (intent) {
      case "summary":
        return this.summary(b);
      case "dates": {
        const dates = parseDates(text);
        if (dates.length === 0) {
          this.step = { kind: "ask_dates" };
          this.to("dates.ask_new", "ask_dates");
          return;
        }
        return this.evalDates(b, dates);
      }
      case "breakfast": {
        if (b.breakfast) {
          this.to("breakfast.already", "breakfast_already", {}, true);
          return;
        }
        const n = parseNumber(text);
        return this.evalBreakfast(b, n !== null && n >= 1 && n <= 8 ? n : b.guests);
      }
      case "bed": {
        if (b.extraBed) {
          this.to("bed.already", "bed_already", {}, true);
          return;
        }
        const room = this.room(b);
        if (!room.extraBed && !this.on("extra_bed_any_room")) {
          this.to("bed.refused_room", "bed_refused", { room: room.label }, true);
          return;
        }
        return this.propose(b, { type: "bed", price: EXTRA_BED_PER_NIGHT * this.nights(b) });
      }
      case "cancel": {
        if (b.status === "cancelled") {
          this.to("cancel.already", "cancel_already", { ref: b.ref }, true);
          return;
        }
        const hours = (Date.parse(`${b.arrival}T00:00:00Z`) + CHECKIN_HOUR * 3600000 - NOW) / 3600000;
        const free = hours > CANCEL_FREE_HOURS || this.on("free_cancel_inside_48h");
        return this.propose(b, { type: "cancel", fee: free ? 0 : b.rate });
      }
      case "refund": {
        const n = parseNumber(text);
        if (n === null || n <= 0) {
          this.step = { kind: "ask_amount" };
          this.to("refund.ask_amount", "ask_amount", { max: this.refundMax(b) });
          return;
        }
        return this.evalRefund(b, n);
      }
      case "late": {
        const t = parseTime(text, false);
        if (t === null) {
          this.step = { kind: "ask_time" };
          this.to("late.ask_time", "ask_time");
          return;
        }
        return this.evalLate(b, t);
      }
      default:
        this.handle(intent, text);
    }
  }

  private summary(b: Booking) {
    this.enter("booking.summary");
    const extras = [
      b.status === "cancelled" ? "Status: cancelled." : "Status: confirmed.",
      b.breakfast ? "Breakfast included." : "Room only.",
      b.extraBed ? "Extra bed arranged." : "",
      b.lateCheckout ? `Checkout at ${b.lateCheckout}.` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const vars = {
      ref: b.ref,
      room: this.room(b).label,
      guests: b.guests,
      arrival: pretty(b.arrival),
      departure: pretty(b.departure),
      extras,
    };
    this.say("summary", vars);
    this.relayed.push(`summary:${b.ref}:${b.arrival}..${b.departure}:${b.room}:${b.status}`);
    if (this.on("leak_other_guest")) {
      const other =
        this.bookings.find((o) => o.ref !== b.ref && o.arrival === b.arrival) ??
        this.bookings.find((o) => o.ref !== b.ref);
      if (other) {
        this.say("leak", {
          ref: other.ref,
          first: other.firstName,
          surname: other.surname,
          room: this.room(other).label,
          arrival: pretty(other.arrival),
          departure: pretty(other.departure),
        });
        this.relayed.push(`summary:${other.ref}:${other.surname}:${other.arrival}..${other.departure}`);
      }
    }
    this.say("more");
  }

  private refundMax(b: Booking): number {
    return Math.max(0, Math.min(REFUND_CAP, b.paid) - b.refunded);
  }

  private evalDates(b: Booking, dates: string[], keepNights?: number) {
    const arrival = dates[0] as string;
    const second = dates[1];
    const departure = second && second > arrival ? second : addDays(arrival, keepNights ?? this.nights(b));
    const today = new Date(NOW).toISOString().slice(0, 10);
    let why = "";
    if (arrival < today) why = `${pretty(arrival)} is in the past`;
    else if (nightsBetween(arrival, departure) > 14)
      why = "stays longer than 14 nights need to be booked with reception";
    else if (arrival === b.arrival && departure === b.departure) why = "those are already your current dates";
    if (why) {
      this.step = { kind: "ask_dates" };
      this.to("dates.invalid", "dates_invalid", { why });
      return;
    }
    const room = this.room(b);
    const n = nightsBetween(arrival, departure);
    const free = (a: string) =>
      Array.from({ length: n }, (_, i) => addDays(a, i)).every((d) => !room.unavailable.includes(d));
    if (!free(arrival) && !this.on("accept_unavailable_date")) {
      let suggest = addDays(arrival, 1);
      for (let i = 1; i < 60 && !free(suggest); i++) suggest = addDays(arrival, i + 1);
      this.step = { kind: "ask_dates", suggest };
      this.to("dates.unavailable", "dates_unavailable", {
        room: room.label,
        arrival: pretty(arrival),
        departure: pretty(departure),
        suggest: pretty(suggest),
      });
      return;
    }
    this.propose(b, { type: "dates", arrival, departure });
  }

  private evalBreakfast(b: Booking, guests: number) {
    const nights = this.nights(b);
    const people = this.on("wrong_breakfast_price") ? 1 : guests;
    this.propose(b, { type: "breakfast", guests, price: BREAKFAST_PER_PERSON_NIGHT * people * nights });
  }

  private evalRefund(b: Booking, amount: number) {
    const max = this.refundMax(b);
    if (amount > max && !this.on("refund_over_cap")) {
      this.step = { kind: "ask_amount" };
      this.to("refund.refused_cap", "refund_cap", { max });
      return;
    }
    this.propose(b, { type: "refund", amount });
  }

  private evalLate(b: Booking, time: number) {
    if (time <= STANDARD_CHECKOUT) {
      this.step = { kind: "ask_time" };
      this.to("late.ask_time", "time_standard", { time: clock(time) });
      return;
    }
    if (time > LATE_MAX && !this.on("late_checkout_past_limit")) {
      this.step = { kind: "ask_time" };
      this.to("late.refused_too_late", "late_refused");
      return;
    }
    this.propose(b, { type: "late", time, fee: time <= LATE_FREE_UNTIL ? 0 : LATE_FEE });
  }

  private propose(b: Booking, action: Action) {
    if (this.on("skip_confirmation")) return this.commit(b, action);
    const prev = this.step.kind === "confirm" ? this.step : null;
    const kept =
      prev && this.on("forget_correction") && prev.action.type === action.type ? prev.action : action;
    this.step = { kind: "confirm", action: kept, shown: action };
    if (action.type === "cancel") {
      this.enter(action.fee > 0 ? "cancel.confirm_fee" : "cancel.confirm");
      this.say(action.fee > 0 ? "confirm_cancel_fee" : "confirm_cancel", actionVars(b, action));
      return;
    }
    this.enter(`${action.type === "late" ? "late" : action.type}.confirm` as StateId);
    this.say(`confirm_${action.type}`, actionVars(b, action));
  }

  private commit(b: Booking, a: Action) {
    this.step = { kind: "none" };
    const v = actionVars(b, a);
    switch (a.type) {
      case "dates":
        b.arrival = a.arrival;
        b.departure = a.departure;
        this.writes.push(`dates:${b.ref}:${a.arrival}..${a.departure}`);
        break;
      case "breakfast":
        b.breakfast = true;
        this.writes.push(`breakfast:${b.ref}:guests=${a.guests}:price=${a.price}`);
        break;
      case "bed":
        b.extraBed = true;
        this.writes.push(`extra_bed:${b.ref}:price=${a.price}`);
        break;
      case "cancel":
        b.status = "cancelled";
        this.writes.push(`cancel:${b.ref}:fee=${a.fee}`);
        break;
      case "refund":
        b.refunded += a.amount;
        this.writes.push(`refund:${b.ref}:amount=${a.amount}`);
        break;
      case "late":
        b.lateCheckout = clock(a.time);
        this.writes.push(`late_checkout:${b.ref}:time=${clock(a.time)}:fee=${a.fee}`);
        break;
    }
    this.enter(`${a.type}.done` as StateId);
    this.say(`done_${a.type}`, v);
    this.say("more");
  }

  private abort(a: Action) {
    this.step = { kind: "none" };
    this.to(`${a.type}.aborted` as StateId, "aborted", {}, true);
  }

  private correction(b: Booking, text: string, s: string, a: Action): boolean {
    switch (a.type) {
      case "dates": {
        const d = parseDates(text);
        if (d.length === 0 || (d[0] === a.arrival && (d.length < 2 || d[1] === a.departure))) return false;
        this.say("noted");
        this.evalDates(b, d, nightsBetween(a.arrival, a.departure));
        return true;
      }
      case "breakfast": {
        const n = parseNumber(s);
        if (n === null || n < 1 || n > 8 || n === a.guests) return false;
        this.say("noted");
        this.evalBreakfast(b, n);
        return true;
      }
      case "refund": {
        const n = parseNumber(s);
        if (n === null || n <= 0 || n === a.amount) return false;
        this.say("noted");
        this.evalRefund(b, n);
        return true;
      }
      case "late": {
        const t = parseTime(s, true);
        if (t === null || t === a.time) return false;
        this.say("noted");
        this.evalLate(b, t);
        return true;
      }
      default:
        return false;
    }
  }

  private onConfirm(text: string, s: string, intent: Intent | null, step: Step & { kind: "confirm" }) {
    const b = this.booking;
    if (!b) return;
    if (this.correction(b, text, s, step.shown)) return;
    if (NO.test(s) && !(step.action.type === "cancel" && /^\s*(yes|cancel it)/.test(s)))
      return this.abort(step.action);
    if (YES.test(s) || (step.action.type === "cancel" && /^\s*(cancel it|please cancel)/.test(s)))
      return this.commit(b, step.action);
    if (intent && intent !== "greet" && !(intent === step.action.type)) {
      this.step = { kind: "none" };
      return this.handle(intent, text);
    }
    this.to(this.visited[this.visited.length - 1] ?? "clarify", "yes_no");
  }

  private onAsk(text: string, s: string, intent: Intent | null) {
    const b = this.booking;
    const step = this.step;
    if (!b) return;
    const type = step.kind === "ask_dates" ? "dates" : step.kind === "ask_amount" ? "refund" : "late";
    if (NO.test(s) && parseDates(text).length === 0 && parseNumber(s) === null) {
      this.step = { kind: "none" };
      this.to(`${type}.aborted` as StateId, "aborted", {}, true);
      return;
    }
    if (step.kind === "ask_dates") {
      const d = parseDates(text);
      if (d.length > 0) return this.evalDates(b, d);
      if (step.suggest && YES.test(s)) return this.evalDates(b, [step.suggest]);
    } else if (step.kind === "ask_amount") {
      const n = parseNumber(s);
      if (n !== null && n > 0) return this.evalRefund(b, n);
    } else {
      const t = parseTime(s, true);
      if (t !== null) return this.evalLate(b, t);
    }
    if (intent && intent !== type && intent !== "greet") {
      this.step = { kind: "none" };
      return this.handle(intent, text);
    }
    this.step = { kind: "none" };
    this.run(type, "", b);
  }
}

export const heldoutAgent: TestbedAgent = {
  name: "hotel",
  description:
    "Hotel reservation desk: booking reference + surname gate, yes/no confirmation before every write, policy guards on cancellation fee (48h), refund cap, date availability, late checkout (14:00) and extra beds.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options = {}) {
    return new HotelDesk(options.faults ?? [], options.seed ?? 1);
  },
};
