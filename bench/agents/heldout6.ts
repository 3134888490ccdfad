/**
 * Kestrel Car Hire booking desk: a deterministic chat bot for a car-rental company (regex NLU, a small dialogue
 * machine, no LLM), a sixth held-out target for the boundary suite. Quotes, the fleet, hire requirements, branch
 * hours and the roadside hand-off are open to anyone; an existing booking needs its reference and the e-mail it
 * was made with (three wrong addresses lock the chat). Additional drivers pass an age and licence check at the
 * pick-up date. Every change is read back and made only when the customer types the word CONFIRM.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import type { Ask, Booking, ExtraId, Intent, Piece, Slots, StateId } from "./heldout6-data.ts";
import * as K from "./heldout6-data.ts";

const { intentOf, nameIn, quantityIn, YES, NO, CONFIRMED, NEGATED, HESITANT, HUMAN, NOT_HUMAN } = K;
const { BYE, GREETING, MENU, CLEARS, days, first, rentalDays } = K;
type Vars = Record<string, string | number>;

import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const HELDOUT6_FAULTS = [
  ...(["skipEmailCheck", "lockAfterFourth", "skipConfirmation", "confirmOnAnything"] as const),
  ...(["ignoreDriverAge", "ignoreLicenceRule", "extrasLimitOffByOne", "maxRentalOffByOne"] as const),
  ...(["ignoreVanOneWay", "lateCancelNoFee", "cancelOtherBooking", "bookingLeak"] as const),
  ...(["wrongExtrasTotal", "wrongExtensionCharge", "wrongReturnDate", "driverNameSwap"] as const),
  ...(["forgetDateCorrection", "wrongOneWayFee"] as const),
];
export type Heldout6Fault = (typeof HELDOUT6_FAULTS)[number];

/* ---------- the session ---------- */

/** One chat: its own bookings, what it is waiting for, and the privileged record (states, writes, data shown). */
class Desk {
  readonly db = K.freshBookings();
  readonly visited: StateId[] = [];
  readonly writes: Record<string, unknown>[] = [];
  readonly relayed: [string, unknown][] = [];
  private readonly rng: () => number;
  private lead: string[] = [];
  private turn = 0;
  private ref?: string;
  private email?: string;
  private badRef = false;
  private badEmail = false;
  private verified = false;
  private misses = 0;
  private locked = false;
  private transferred = false;
  private intent?: Intent;
  private slots: Slots = {};
  private asked?: Ask;
  private last?: Ask;
  /** The return date first read back (what `forgetDateCorrection` still writes). */
  private firstDate?: string;
  private recap = "";
  private target = "";
  private serial = 0;

  constructor(
    private readonly faults: ReadonlySet<Heldout6Fault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }
  private has(f: Heldout6Fault): boolean {
    return this.faults.has(f);
  }
  private piece(key: StateId | Piece, vars: Vars = {}): string {
    const options = K.TEXT[key];
    const template = options[Math.floor(this.rng() * options.length)] ?? "";
    return template.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
  }
  /** The reply: enters `state`, worded from one of its templates after any queued lead-in. */
  private say(state: StateId, vars: Vars = {}, key: StateId | Piece = state): string {
    this.visited.push(state);
    const services = K.TEXT[key].some((t) => t.includes("{services}")) ? this.piece("services") : "";
    const text = this.piece(key, { company: K.COMPANY, word: K.WORD, services, ...vars });
    const out = [...this.lead, text].join(" ");
    this.lead = [];
    return out;
  }
  private note(kind: string, value: unknown): void {
    this.relayed.push([kind, value]);
  }
  private ask(q: Ask, state: StateId, vars: Vars = {}): string {
    this.asked = q;
    return this.say(state, vars);
  }
  private begin(intent: Intent): void {
    this.end();
    this.intent = intent;
  }
  private end(next?: Ask): void {
    this.intent = undefined;
    this.slots = {};
    this.firstDate = undefined;
    this.recap = "";
    this.asked = next;
  }
  /** Ends the request with `state` and asks whether there's anything else. */
  private close(state: StateId, vars: Vars = {}): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.piece("more") });
  }
  /** A refusal, recorded; with `retry` the request stays open and that question is asked again. */
  private refuse(state: StateId, vars: Vars = {}, retry?: Ask): string {
    const cleared = retry ? (CLEARS[retry] ?? []) : [];
    this.note("refused", [state, cleared.map((k) => this.slots[k] ?? null)]);
    if (!retry) return this.close(state, vars);
    for (const k of cleared) this.slots[k] = undefined;
    return this.ask(retry, state, vars);
  }
  private booking(): Booking {
    return this.db[this.ref ?? ""] as Booking;
  }
  private changeRef(): string {
    this.serial += 1;
    return `CH${String(5100 + this.serial)}`;
  }
  private payNote(b: Booking, now: boolean): string {
    if (b.paid === "prepaid") return `charged to the card ending ${b.card}`;
    return now ? "payable at the counter" : "added to what you pay at the counter";
  }

  /** Reply to one customer turn. */
  reply(raw: string): string {
    this.turn += 1;
    const t = raw.trim();
    const l = t.toLowerCase();
    this.last = this.asked;
    this.asked = undefined;
    if (this.transferred) return this.say("handoff", {}, "queued");
    if (HUMAN.test(l) && !NOT_HUMAN.test(l)) return this.transfer();
    if (this.last === "word" && this.intent) return this.atReadBack(t, l);
    if (this.last === "offer" && YES.test(l)) return this.transfer();
    const identified = this.verified ? false : this.takeIdentity(t, l);
    const found = intentOf(l);
    let moved = identified;
    if (found && found !== this.intent && !(this.intent && identified)) {
      this.begin(found);
      moved = true;
    } else if (found && found === this.intent) moved = true;
    if (this.intent) moved = this.fill(t, l) || moved;
    if (this.verified) moved = this.spotOther(t) || moved;
    if (!this.intent) return this.idle(l, moved);
    if (!moved && NO.test(l)) return this.drop();
    if (!moved) this.lead.push(this.piece("pardon"));
    return this.route();
  }

  /** No request open: greet, show the menu, say goodbye or admit confusion. */
  private idle(l: string, moved: boolean): string {
    if (this.last === "offer" && NO.test(l)) {
      this.lead.push(this.piece("okay"));
      return this.say("menu");
    }
    if (BYE.test(l) || NO.test(l)) return this.goodbye();
    if (moved) this.lead.push(this.piece("got_ref"));
    else if (this.turn === 1 || GREETING.test(l)) return this.say("greet");
    else if (!MENU.test(l) && !(this.last === "more" && YES.test(l))) return this.say("fallback");
    return this.say("menu");
  }

  /** Take a booking reference or an e-mail address from the turn; true when it carried either. */
  private takeIdentity(t: string, l: string): boolean {
    const ref = K.refIn(t, this.last === "ref");
    let got = ref !== undefined;
    if (ref) {
      this.ref = ref;
      this.badRef = false;
    } else if (ref === null) this.badRef = true;
    const email = K.emailIn(t);
    if (email) this.email = email;
    const bad = !email && this.last === "email" && !ref && !intentOf(l);
    if (bad) this.badEmail = true;
    got ||= email !== undefined || bad;
    return got;
  }

  /** A verified customer naming a different booking: remember it (asking about it alone is a request to view it). */
  private spotOther(t: string): boolean {
    const ref = K.refIn(t, false);
    if (!ref || ref === this.ref) return false;
    if (!this.intent) this.begin("view");
    this.slots.other = ref;
    return true;
  }

  /** Take the open request's values from the turn; true when one of them changed. */
  private fill(t: string, l: string): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const q = this.last;
    const text = t.replace(/\bkc[\s-]?\d{6}\b/gi, " ").replace(/\S+@\S+/g, " ");
    if (this.intent === "driver") {
      s.name = nameIn(text, q === "name") ?? s.name;
      s.dob = K.dobIn(text, q === "dob") ?? s.dob;
      const pickup = this.verified ? this.booking().pickup : K.TODAY;
      s.licence = K.licenceIn(text, q === "licence", pickup) ?? s.licence;
    } else if (this.intent === "extras") {
      s.item = K.extraIn(l) ?? s.item;
      s.qty = quantityIn(l, q === "qty") ?? s.qty;
    } else if (this.intent === "dates") {
      const date = K.datesIn(text)[0];
      const shift = K.daysShift(l);
      if (date) [s.date, s.shift] = [date, undefined];
      else if (shift) [s.date, s.shift] = [undefined, shift];
    } else if (this.intent === "branch") {
      const code = K.branchIn(l);
      const named = /\b(?:to|at|in)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)/.exec(text)?.[1];
      const bare =
        q === "branch" && !YES.test(l) && !NO.test(l) && /^[a-z' -]{3,30}$/i.test(t) ? t : undefined;
      if (code) [s.branch, s.place] = [code, undefined];
      else if (named ?? bare) [s.branch, s.place] = [undefined, named ?? bare];
    } else if (this.intent === "quote") {
      s.cls = K.classIn(l) ?? s.cls;
      const found = K.datesIn(text);
      if (found.length >= 2) [s.from, s.to] = [found[0], found[1]];
      else if (found[0] && s.from && !s.to && q === "dates") s.to = found[0];
      else if (found[0]) [s.from, s.to] = [found[0], undefined];
      const length = K.lengthIn(l);
      if (length && s.from && !s.to) s.to = K.plusDays(s.from, length);
    }
    return JSON.stringify(s) !== before;
  }

  /** At a read-back: a correction is re-checked, the typed word commits, no drops it, anything else re-asks. */
  private atReadBack(t: string, l: string): string {
    const b = this.db[this.target] as Booking;
    if (this.fill(t, l)) {
      this.lead.push(this.piece("updated"));
      return this.route();
    }
    if (CONFIRMED.test(l) && !NEGATED.test(l) && !HESITANT.test(l)) return this.commit(b);
    const found = intentOf(l);
    if (found && found !== this.intent) {
      this.begin(found);
      this.fill(t, l);
      return this.route();
    }
    if (NO.test(l) || NEGATED.test(l)) return this.drop();
    if (this.has("confirmOnAnything")) return this.commit(b);
    this.asked = "word";
    return this.say("gate.need_word", { recap: this.recap });
  }

  private route(): string {
    if (this.intent === "fleet") return this.fleet();
    if (this.intent === "rules") return this.rules();
    if (this.intent === "branches") return this.branches();
    if (this.intent === "emergency") {
      this.end("offer");
      return this.say("emergency.offer_handoff");
    }
    if (this.intent === "quote") return this.quote();
    return this.account();
  }

  /** The reply that stops a booking request short of verification, if any. */
  private identity(): string | undefined {
    if (this.locked) {
      this.end("offer");
      return this.say("auth.locked");
    }
    if (this.verified) return undefined;
    if (!this.ref) {
      const bad = this.badRef ? this.piece("bad_ref") : "";
      this.badRef = false;
      return this.ask("ref", "auth.ask_reference", { bad });
    }
    const b = this.db[this.ref];
    if (!b) {
      const ref = this.ref;
      this.ref = undefined;
      return this.ask("ref", "auth.unknown_reference", { ref });
    }
    if (!this.has("skipEmailCheck")) {
      if (!this.email) {
        const bad = this.badEmail ? this.piece("bad_email") : "";
        this.badEmail = false;
        return this.ask("email", "auth.ask_email", { ref: b.ref, bad });
      }
      const ok = this.email === b.email.toLowerCase();
      this.email = undefined;
      if (!ok) {
        this.misses += 1;
        if (this.misses >= (this.has("lockAfterFourth") ? 4 : 3)) {
          this.locked = true;
          this.note("locked", [b.ref, this.turn]);
          return this.identity();
        }
        const n = 3 - this.misses;
        const left = n > 0 ? `${n} more ${n === 1 ? "try" : "tries"}` : "one last try";
        return this.ask("email", "auth.wrong_email", { left });
      }
    }
    this.verified = true;
    this.note("verified", [b.ref, this.turn]);
    this.lead.push(this.piece("verified", { name: first(b.lead) }));
    return undefined;
  }

  private account(): string {
    const stop = this.identity();
    if (stop) return stop;
    const mine = this.booking();
    let b = mine;
    const other = this.slots.other;
    if (other) {
      const theirs = this.db[other];
      const allowed =
        (this.intent === "view" && this.has("bookingLeak")) ||
        (this.intent === "cancel" && this.has("cancelOtherBooking"));
      if (!theirs || !allowed) return this.refuse("booking.refused_other", { ref: mine.ref, other });
      b = theirs;
    }
    if (this.intent === "view") return this.view(b);
    if (b.status === "cancelled") return this.refuse("auth.booking_closed", { ref: b.ref });
    if (this.intent === "driver") return this.driver(b);
    if (this.intent === "extras") return this.extras(b);
    if (this.intent === "dates") return this.dates(b);
    if (this.intent === "branch") return this.branch(b);
    return this.cancel(b);
  }

  /* ---------- open services ---------- */

  private fleet(): string {
    this.note(
      "fleet",
      K.CLASS_ORDER.map((id) => [id, K.CLASSES[id].rate, K.CLASSES[id].deposit]),
    );
    return this.close("fleet.show", { list: K.classList() });
  }
  private rules(): string {
    this.note("rules", [K.MIN_AGE, K.LICENCE_YEARS, K.FREE_CANCEL_HOURS]);
    return this.close("rules.show", {
      ...{ minAge: K.MIN_AGE, young: K.YOUNG_UNDER, years: K.LICENCE_YEARS, youngFee: K.gbp(K.YOUNG_FEE) },
      ...{ hours: K.FREE_CANCEL_HOURS, late: K.gbp(K.LATE_CANCEL_FEE) },
    });
  }
  private branches(): string {
    this.note("branches", Object.keys(K.BRANCHES));
    const fees = { near: K.gbp(K.ONE_WAY_NEAR), far: K.gbp(K.ONE_WAY_FAR) };
    return this.close("branches.show", { list: K.branchList(), ...fees });
  }
  private quote(): string {
    const s = this.slots;
    if (!s.cls) return this.ask("cls", "quote.ask_class", { list: K.classList() });
    const c = K.CLASSES[s.cls];
    if (!s.from || !s.to) {
      const have = s.from ? `Pick-up on ${K.longDate(s.from)}, noted. ` : "";
      return this.ask("dates", "quote.ask_dates", { cls: c.name, have });
    }
    const n = K.dayDiff(s.from, s.to);
    const reason =
      s.from < K.TODAY
        ? `${K.longDate(s.from)} has already passed`
        : n < 1
          ? "the return has to be at least a day after pick-up"
          : n > K.MAX_DAYS
            ? `a rental can't be longer than ${K.MAX_DAYS} days and that would be ${n}`
            : undefined;
    if (reason) return this.refuse("quote.bad_dates", { reason }, "dates");
    const total = n * c.rate;
    this.note("quote", [s.cls, s.from, s.to, total]);
    return this.close("quote.show", {
      ...{ cls: c.name, model: c.model, from: K.longDate(s.from), to: K.longDate(s.to), days: days(n) },
      ...{ rate: K.gbp(c.rate), total: K.gbp(total), deposit: K.gbp(c.deposit), minAge: c.minAge },
    });
  }

  /* ---------- booking services ---------- */

  private view(b: Booking): string {
    const c = K.CLASSES[b.cls];
    const at = (code: string) => K.BRANCHES[code]?.name ?? code;
    const extras = K.EXTRA_ORDER.filter((id) => b.extras[id]).map(
      (id) => `${b.extras[id]} × ${K.EXTRAS[id].name}`,
    );
    const status = { upcoming: "confirmed", on_rent: "on rent", cancelled: "cancelled" }[b.status];
    const total = K.bookingTotal(b);
    const rows = [
      `Status: ${status}`,
      `Vehicle: ${c.name} (${c.model} or similar)`,
      `Pick-up: ${at(b.from)}, ${K.shortWhen(b.pickup)}`,
      `Return: ${at(b.to)}, ${K.shortWhen(b.dropoff)}${b.oneWay ? ` (one-way fee ${K.gbp(b.oneWay)})` : ""}`,
      `Drivers: ${[b.lead, ...b.drivers.map((d) => d.name)].join(", ")}`,
      `Extras: ${extras.length ? extras.join(", ") : "none"}`,
      `Price: ${K.gbp(total)} for ${days(rentalDays(b))}, ${b.paid === "prepaid" ? "paid online" : "to pay at the counter"}; deposit ${K.gbp(c.deposit)}`,
    ];
    this.note("booking", [b.ref, b.lead, b.status, b.cls, b.pickup, b.dropoff, b.to, total]);
    return this.close("booking.show", {
      ref: b.ref,
      name: b.lead,
      rows: rows.map((r) => `• ${r}`).join("\n"),
    });
  }

  private driver(b: Booking): string {
    const s = this.slots;
    if (b.status === "on_rent") return this.refuse("driver.refused_on_rent");
    if (b.drivers.length >= K.MAX_DRIVERS) {
      const names = b.drivers.map((d) => d.name).join(" and ");
      return this.refuse("driver.refused_limit", { count: b.drivers.length, names, max: K.MAX_DRIVERS });
    }
    if (!s.name) return this.ask("name", "driver.ask_name", { fee: K.gbp(K.DRIVER_FEE) });
    const name = s.name;
    if ([b.lead, ...b.drivers.map((d) => d.name)].some((n) => n.toLowerCase() === name.toLowerCase()))
      return this.refuse("driver.already", { name, ref: b.ref }, "name");
    if (!s.dob) return this.ask("dob", "driver.ask_dob", { name });
    const age = K.wholeYears(s.dob, b.pickup);
    const c = K.CLASSES[b.cls];
    if (!this.has("ignoreDriverAge")) {
      if (age < K.MIN_AGE) return this.refuse("driver.refused_age", { name, age, minAge: K.MIN_AGE });
      if (age < c.minAge)
        return this.refuse("driver.refused_class_age", { name, age, cls: c.name, classAge: c.minAge });
    }
    if (!s.licence) return this.ask("licence", "driver.ask_licence", { name });
    if (K.wholeYears(s.licence, b.pickup) < K.LICENCE_YEARS && !this.has("ignoreLicenceRule"))
      return this.refuse("driver.refused_licence", {
        name,
        years: K.LICENCE_YEARS,
        issued: K.monthYear(s.licence),
      });
    const cost = this.driverCost(b, s.dob);
    const young = K.isYoung(b, s.dob)
      ? `, including the ${K.gbp(K.YOUNG_FEE)} a day young-driver surcharge`
      : "";
    return this.readBack(
      b,
      "driver.confirm",
      {
        name,
        dob: K.plainDate(s.dob),
        ref: b.ref,
        days: days(rentalDays(b)),
        cost: K.gbp(cost),
        young,
        when: this.payNote(b, true),
      },
      `${name} added as a driver on ${b.ref} for ${K.gbp(cost)}.`,
    );
  }
  private driverCost(b: Booking, dob: string): number {
    return rentalDays(b) * (K.DRIVER_FEE + (K.isYoung(b, dob) ? K.YOUNG_FEE : 0));
  }

  private extras(b: Booking): string {
    const s = this.slots;
    if (b.status === "on_rent") return this.refuse("extras.refused_on_rent");
    if (!s.item) {
      const list = K.EXTRA_ORDER.map((id) => {
        const x = K.EXTRAS[id];
        return `- ${x.name}: ${K.gbp(x.price)} ${x.perDay ? "per day" : "per rental"} (max ${x.max})`;
      }).join("\n");
      return this.ask("item", "extras.ask_item", { list, ref: b.ref });
    }
    const x = K.EXTRAS[s.item];
    const c = K.CLASSES[b.cls];
    if (x.onlyFor && !x.onlyFor.includes(b.cls))
      return this.refuse("extras.refused_class", { item: x.name, plural: x.plural, cls: c.name }, "item");
    if (x.season && !x.season.includes(Number(b.pickup.slice(5, 7))))
      return this.refuse("extras.refused_season", { pickup: K.longDate(b.pickup) }, "item");
    if (x.notAt?.includes(b.from))
      return this.refuse(
        "extras.unavailable",
        { item: x.name, branch: K.BRANCHES[b.from]?.name ?? b.from },
        "item",
      );
    if (!s.qty && x.max > 1) return this.ask("qty", "extras.ask_quantity", { plural: x.plural, max: x.max });
    const qty = s.qty ?? 1;
    const have = b.extras[s.item] ?? 0;
    if (have + qty > x.max + (this.has("extrasLimitOffByOne") ? 1 : 0)) {
      const retry = x.max > 1 && have < x.max;
      const vars = {
        ...{ maxText: K.plural(x.max, x.name, x.plural), qty },
        have: have ? ` and this booking already has ${have}` : "",
        again: retry ? "How many would you like instead?" : this.piece("more"),
      };
      return this.refuse("extras.too_many", vars, retry ? "qty" : undefined);
    }
    const total = this.extrasCost(b, s.item, qty);
    const n = rentalDays(b);
    const price = x.perDay
      ? `${K.gbp(x.price)} a day for ${days(n)}`
      : `${K.gbp(x.price)} for the whole rental`;
    const payable = `, ${this.payNote(b, true)}`;
    return this.readBack(
      b,
      "extras.confirm",
      { qty, item: x.name, ref: b.ref, price, total: K.gbp(total), payable },
      `${qty} × ${x.name} on ${b.ref}, ${K.gbp(total)}.`,
    );
  }
  private extrasCost(b: Booking, item: ExtraId, qty: number): number {
    const x = K.EXTRAS[item];
    const n = rentalDays(b) + (this.has("wrongExtrasTotal") ? 1 : 0);
    return qty * x.price * (x.perDay ? n : 1);
  }

  private dates(b: Booking): string {
    const s = this.slots;
    const current = b.dropoff.slice(0, 10);
    const where = K.BRANCHES[b.to];
    const latest = K.plusDays(b.pickup, K.MAX_DAYS);
    if (s.shift && !s.date) [s.date, s.shift] = [K.plusDays(current, s.shift), undefined];
    const info = { branch: where?.name ?? b.to, latest: K.longDate(latest), maxDays: K.MAX_DAYS };
    if (!s.date) return this.ask("date", "dates.ask_date", { ...info, current: K.shortWhen(b.dropoff) });
    const date = K.longDate(s.date);
    if (s.date === current) return this.refuse("dates.same", { current: date }, "date");
    if (s.date <= b.pickup.slice(0, 10))
      return this.refuse("dates.before_pickup", { pickup: K.shortWhen(b.pickup), date }, "date");
    const n = K.dayDiff(b.pickup, s.date);
    if (n > K.MAX_DAYS + (this.has("maxRentalOffByOne") ? 1 : 0))
      return this.refuse("dates.too_long", { ...info, date, days: days(n) }, "date");
    if (b.status === "on_rent" && s.date < current) return this.refuse("dates.refused_shorten");
    if (where?.sundayClosed && K.weekday(s.date) === "sunday")
      return this.refuse("dates.refused_branch_closed", { branch: where.name, date }, "date");
    this.firstDate ??= s.date;
    const { text } = this.dateMoney(b, s.date);
    return this.readBack(
      b,
      "dates.confirm",
      { ...info, date, current: K.longDate(current), time: b.dropoff.slice(11), days: days(n), money: text },
      `Return on ${date} instead of ${K.longDate(current)}; ${text}.`,
    );
  }
  /** The price difference of moving the return to `date`, and how it is worded at the read-back and when done. */
  private dateMoney(b: Booking, date: string): { amount: number; text: string; done: string } {
    const diff = K.dayDiff(b.dropoff, date);
    const perDay = K.CLASSES[b.cls].rate + (this.has("wrongExtensionCharge") ? 0 : K.addOnsPerDay(b));
    const amount = diff * perDay;
    if (diff > 0) {
      const how = this.payNote(b, true);
      return {
        amount,
        text: `${K.plural(diff, "extra day", "extra days")} at ${K.gbp(perDay)} a day comes to ${K.gbp(amount)}, ${how}`,
        done: `The extra ${K.gbp(amount)} is ${how}.`,
      };
    }
    const back =
      b.paid === "prepaid" ? `refunded to the card ending ${b.card}` : "taken off your counter price";
    return {
      amount,
      text: `that's ${days(-diff)} fewer, so ${K.gbp(-amount)} is ${back}`,
      done: `${K.gbp(-amount)} will be ${back}.`,
    };
  }

  private oneWayFee(from: string, to: string): number {
    if (from === to) return 0;
    const far = K.BRANCHES[from]?.scotland !== K.BRANCHES[to]?.scotland;
    return far && !this.has("wrongOneWayFee") ? K.ONE_WAY_FAR : K.ONE_WAY_NEAR;
  }
  private branch(b: Booking): string {
    const s = this.slots;
    const old = K.BRANCHES[b.to]?.name ?? b.to;
    if (b.cls === "van" && !this.has("ignoreVanOneWay"))
      return this.refuse("branch.refused_van", { branch: K.BRANCHES[b.from]?.name ?? b.from });
    if (s.place && !s.branch) {
      const place = s.place;
      return this.refuse("branch.unknown", { place, list: K.branchList() }, "branch");
    }
    if (!s.branch) return this.ask("branch", "branch.ask_branch", { branch: old, list: K.branchList() });
    const there = K.BRANCHES[s.branch] as K.Branch;
    const date = K.shortWhen(b.dropoff);
    if (s.branch === b.to) return this.refuse("branch.same", { branch: there.name }, "branch");
    if (there.sundayClosed && K.weekday(b.dropoff) === "sunday")
      return this.refuse("branch.refused_closed", { branch: there.name, date }, "branch");
    const fee = this.oneWayFee(b.from, s.branch);
    const text = fee
      ? `There's a one-way fee of ${K.gbp(fee)}, ${this.payNote(b, true)}.`
      : "That's where you collect it, so no one-way fee applies.";
    return this.readBack(
      b,
      "branch.confirm",
      { branch: there.name, old, date, fee: text },
      `Return to ${there.name} on ${date}. ${text}`,
    );
  }

  private cancel(b: Booking): string {
    if (b.status === "on_rent")
      return this.refuse("cancel.refused_collected", { pickup: K.shortWhen(b.pickup) });
    const { fee, refund } = this.cancelMoney(b);
    const c = K.CLASSES[b.cls];
    return this.readBack(
      b,
      fee ? "cancel.confirm_fee" : "cancel.confirm",
      {
        ref: b.ref,
        cls: c.name,
        pickup: K.shortWhen(b.pickup),
        hours: K.FREE_CANCEL_HOURS,
        fee: K.gbp(fee),
        refund,
      },
      `Cancel ${b.ref} (${c.name}, ${K.shortWhen(b.pickup)})${fee ? ` with a ${K.gbp(fee)} fee` : ""}. ${refund}`,
    );
  }
  private cancelMoney(b: Booking): { fee: number; refund: string; back: number } {
    const late = K.hoursUntil(b.pickup) < K.FREE_CANCEL_HOURS;
    const fee = late && !this.has("lateCancelNoFee") ? K.LATE_CANCEL_FEE : 0;
    const total = K.bookingTotal(b);
    if (b.paid === "prepaid") {
      const back = total - fee;
      const refund = fee
        ? `Of the ${K.gbp(total)} you prepaid, ${K.gbp(back)} goes back to the card ending ${b.card}.`
        : `The full ${K.gbp(total)} goes back to the card ending ${b.card}.`;
      return { fee, refund, back };
    }
    const refund = fee
      ? `The ${K.gbp(fee)} fee is charged to the card ending ${b.card}.`
      : "Nothing was paid in advance, so there's nothing to refund.";
    return { fee, refund, back: 0 };
  }

  /* ---------- read-back and commit ---------- */

  /** Read the change back and wait for the typed word (or, with `skipConfirmation`, make it at once). */
  private readBack(b: Booking, state: StateId, vars: Vars, recap: string): string {
    this.note("readback", [state, b.ref, vars]);
    this.target = b.ref;
    if (this.has("skipConfirmation")) return this.commit(b);
    this.recap = recap;
    this.asked = "word";
    return this.say(state, { ...vars, ask: this.piece("ask_word", { word: K.WORD }) });
  }

  private commit(b: Booking): string {
    const s = this.slots;
    const turn = this.turn;
    const id = this.changeRef();
    if (this.intent === "driver" && s.name && s.dob && s.licence) {
      const name = this.has("driverNameSwap") ? b.lead : s.name;
      const cost = this.driverCost(b, s.dob);
      b.drivers.push({ name, dob: s.dob, licence: s.licence });
      this.writes.push({ kind: "driver", ref: b.ref, name, dob: s.dob, cost, id, turn });
      return this.close("driver.done", {
        name,
        ref: b.ref,
        id,
        cost: K.gbp(cost),
        when2: this.payNote(b, false),
      });
    }
    if (this.intent === "extras" && s.item) {
      const qty = s.qty ?? 1;
      const total = this.extrasCost(b, s.item, qty);
      b.extras[s.item] = (b.extras[s.item] ?? 0) + qty;
      this.writes.push({ kind: "extra", ref: b.ref, item: s.item, qty, total, id, turn });
      return this.close("extras.done", {
        qty,
        item: K.EXTRAS[s.item].name,
        total: K.gbp(total),
        ref: b.ref,
        id,
      });
    }
    if (this.intent === "dates" && s.date) {
      let date = this.has("forgetDateCorrection") && this.firstDate ? this.firstDate : s.date;
      const { amount, done } = this.dateMoney(b, date);
      if (this.has("wrongReturnDate")) date = K.plusDays(date, 1);
      const from = b.dropoff;
      b.dropoff = `${date}${b.dropoff.slice(10)}`;
      this.writes.push({ kind: "return_date", ref: b.ref, from, to: b.dropoff, amount, id, turn });
      const branch = K.BRANCHES[b.to]?.name ?? b.to;
      return this.close("dates.done", {
        date: K.longDate(date),
        time: b.dropoff.slice(11),
        branch,
        money: done,
        id,
      });
    }
    if (this.intent === "branch" && s.branch) {
      const fee = this.oneWayFee(b.from, s.branch);
      b.to = s.branch;
      b.oneWay = fee;
      this.writes.push({ kind: "return_branch", ref: b.ref, to: s.branch, fee, id, turn });
      const text = fee ? `The one-way fee is ${K.gbp(fee)}.` : "No one-way fee.";
      const vars = { branch: K.BRANCHES[s.branch]?.name ?? s.branch, date: K.shortWhen(b.dropoff) };
      return this.close("branch.done", { ...vars, fee: text, id });
    }
    const { fee, refund, back } = this.cancelMoney(b);
    b.status = "cancelled";
    this.writes.push({ kind: "cancellation", ref: b.ref, fee, refund: back, id, turn });
    return this.close("cancel.done", { ref: b.ref, refund, id });
  }

  private drop(): string {
    return this.close("request.dropped");
  }
  private transfer(): string {
    this.end();
    this.transferred = true;
    return this.say("handoff");
  }
  private goodbye(): string {
    const name = this.verified ? `, ${first(this.booking().lead)}` : "";
    this.end();
    return this.say("goodbye", { name });
  }
}

/** Kestrel Car Hire as a testbed agent: `create()` a target with faults switched on and a wording seed. */
export const heldout6Agent: TestbedAgent = {
  name: "heldout6",
  description:
    "Car-rental desk chat (Kestrel Car Hire): quotes, fleet, hire rules, branch hours and a roadside hand-off open; booking reference + booking e-mail (3 tries) for viewing, additional drivers (age/licence check), extras, return date, return branch and cancellation; every change read back and made only when the word CONFIRM is typed.",
  faults: HELDOUT6_FAULTS,
  states: K.HELDOUT6_STATES,
  facts: K.HELDOUT6_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(HELDOUT6_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout6: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<Heldout6Fault>;
    let desk = new Desk(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `heldout6?${query}`,
      async reset() {
        desk = new Desk(on, seed);
      },
      async send(text: string) {
        return { text: desk.reply(text), ms: 0 };
      },
      async close() {},
      statesVisited: () => [...desk.visited],
      fingerprint: () => JSON.stringify({ writes: desk.writes, relayed: desk.relayed }),
    };
  },
};
