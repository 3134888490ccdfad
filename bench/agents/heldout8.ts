import type { ChatReply } from "../../src/agents/chat/target.ts";
import * as D from "./heldout8-data.ts";
import { type Customer, fill, iso, type Parsed, parse, priceOf, TODAY, type Vals } from "./heldout8-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * Held-out testbed agent 8: the Roadwise Rentals car-hire desk. Quotes are open; everything else needs the
 * driving licence number with a booking reference (or, for new bookings, with the date of birth), asked
 * together or one at a time, with a lockout after three failed checks. Every write is read back with its
 * price and committed only when the customer types AGREE; a late cancellation also needs the fee accepted.
 */

export const HELDOUT8_FAULTS: readonly string[] = `book_skips_agree view_without_licence underage_allowed
  extend_over_limit cancel_after_pickup leaks_other_booking third_driver_allowed no_lockout premium_new_licence
  one_way_any_route extras_any_branch extras_flat_price cancel_fee_base_only days_inclusive surcharge_once
  correction_forgotten decline_still_writes double_book_on_repeat stale_summary_after_change readback_wrong_branch
  change_readback_no_price summary_return_date_shift`.split(/\s+/);

/** The designed dialogue states, grouped by flow (`group.a b c` → `group.a`, `group.b`, `group.c`). */
export const HELDOUT8_STATES: readonly string[] = `menu.help fallback.unknown handoff.human session.goodbye
  oos.refused session.locked dates.invalid booking.inactive
  auth.ask_licence_and_ref ask_licence ask_ref ask_licence_and_dob ask_dob verified failed locked
  quote.ask_details result unavailable too_long
  book.ask_details ask_extras refused_underage refused_licence_years too_long refused_one_way extra_unavailable
    confirm corrected done declined
  change.ask_dates confirm corrected done declined too_long refused_picked_up
  extra.ask_which unavailable confirm done declined
  driver.ask_details refused_limit refused_age refused_licence_years confirm done declined
  extend.ask_return not_live too_long confirm done declined
  cancel.confirm_free confirm_fee need_fee_ack done declined refused_picked_up
  damage.ask_details logged breakdown_handoff not_live
  view.summary refused_not_yours deposit.status none`
  .split(/\s+/)
  .map((w, i, all) =>
    w.includes(".") ? w : `${all.findLast((x, j) => j < i && x.includes("."))?.split(".")[0]}.${w}`,
  );

const branchName = (id: string): string => D.BRANCHES.find((b) => b.id === id)?.name ?? id;
const classOf = (id: string) => D.CLASSES.find((c) => c.id === id) ?? D.CLASSES[0]!;
const extraOf = (id: string) => D.EXTRAS.find((e) => e.id === id) ?? D.EXTRAS[0]!;
const customerOf = (licence: string): Customer | undefined => D.CUSTOMERS.find((c) => c.licence === licence);
const extrasText = (ids: readonly string[]) =>
  ids.length ? ids.map((e) => extraOf(e).name).join(", ") : "none";
const availableAt = (branch: string) =>
  D.joinList(D.EXTRAS.filter((e) => e.branches.includes(branch)).map((e) => e.name));
const yearsText = (n: number) => (n === 1 ? "1 year" : `${n} years`);
const isYoung = (c: Customer) => D.yearsBetween(c.dob, TODAY) < D.YOUNG_AGE;
const ROUTES = D.ONE_WAY.map(([a, b]) => `${branchName(a)}–${branchName(b)}`).join(", ");

function hashKind(kind: string): number {
  let h = 0;
  for (const ch of kind) h = (h * 31 + ch.charCodeAt(0)) % 9973;
  return h;
}

type Flow = Exclude<NonNullable<Parsed["intent"]>, "human" | "goodbye" | "oos" | "help" | "thanks"> | "none";
type Done = undefined;

interface Trip {
  branch?: string;
  dropoff?: string;
  pickup?: number;
  ret?: number;
  cls?: string;
  extras: string[];
  extrasAnswered: boolean;
  /** A length asked for before the pickup date was known. */
  dur?: number;
}

interface Booking extends Omit<D.SeedBooking, "extras" | "drivers" | "status"> {
  extras: string[];
  drivers: string[];
  status: D.Status;
  young: boolean;
  total: number;
  orig: { pickup: number; ret: number; total: number };
  changed: boolean;
}

class Pending {
  step: "work" | "gate" | "fee_ack" = "work";
  trip: Trip = { extras: [], extrasAnswered: false };
  /** The trip as first read back at the gate. */
  snapshot?: Trip;
  auth: { lic?: string; ref?: string; dob?: number } = {};
  /** Turns received before identification, applied once the booking is known. */
  queue: Parsed[] = [];
  extra?: string;
  drv: { name?: string; dob?: number; years?: number } = {};
  ext: { ret?: number; days?: number } = {};
  dmg = { breakdown: false, words: [] as string[], asked: false, text: undefined as string | undefined };
  fee?: number;
  constructor(readonly flow: Flow) {}
}

/** One conversation: what was said and entered, and the bookings database it reads and writes. */
class Session {
  turn = 0;
  visited: string[] = [];
  fp: string[] = [];
  segs: string[] = [];
  db = freshDb();
  nextRef = 50001;
  nextDmg = 7001;
  identity: Customer | null = null;
  dobOk = false;
  verified = new Set<string>();
  activeRef: string | null = null;
  failures = 0;
  locked = false;
  pending: Pending | null = null;
  lastQuote: Trip | null = null;
  quoteTurn = -9;
  lastBooked: Trip | null = null;
}

/** Ends a check that failed after saying why. */
const stop = (_said: Done): false => false;
const copyTrip = (t: Trip): Trip => ({ ...t, extras: [...t.extras] });

function canon(b: Booking): string {
  const extras = [...b.extras].sort().join("+") || "-";
  const who = `${b.ref}|${b.licence}|${b.branch}>${b.dropoff}|${iso(b.pickup)}..${iso(b.ret)}|${b.cls}`;
  return `${who}|${extras}|${b.drivers.join("+") || "-"}|${b.status}|${b.total}`;
}

function makeBooking(sb: D.SeedBooking, young: boolean, faults: ReadonlySet<string>): Booking {
  const total = priceOf(sb, sb.drivers.length, young, faults).total;
  const copies = { extras: [...sb.extras], drivers: [...sb.drivers], deposit: { ...sb.deposit } };
  return { ...sb, ...copies, young, total, orig: { pickup: sb.pickup, ret: sb.ret, total }, changed: false };
}

function freshDb(): Map<string, Booking> {
  const young = (licence: string) => D.CUSTOMERS.some((c) => c.licence === licence && isYoung(c));
  return new Map(D.SEED_BOOKINGS.map((sb) => [sb.ref, makeBooking(sb, young(sb.licence), new Set())]));
}

class Heldout8Target implements TestbedTarget {
  readonly name = "testbed:heldout8";
  private s = new Session();
  private readonly faults: ReadonlySet<string>;

  constructor(
    faults: readonly string[],
    private readonly seed: number,
  ) {
    this.faults = new Set(faults);
  }

  async reset(): Promise<void> {
    this.s = new Session();
  }

  async send(text: string): Promise<ChatReply> {
    const t0 = Date.now();
    this.s.turn += 1;
    this.s.segs = [];
    this.handle(text);
    return { text: this.s.segs.join(" "), ms: Date.now() - t0 };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.s.visited];
  }

  fingerprint(): string {
    return this.s.fp.join("\n");
  }

  private f(id: string): boolean {
    return this.faults.has(id);
  }

  /** Enters a designed state and says the reply of `kind` (default: the state's own), paraphrased by seed. */
  private enter(state: string, vals: Vals = {}, kind: string = state): Done {
    this.s.visited.push(state);
    const list = D.TEMPLATES[kind] ?? D.TEMPLATES["fallback.unknown"] ?? [""];
    const i = (this.seed + this.s.turn + hashKind(kind.replace("_noprice", ""))) % list.length;
    const text = fill(list[i] ?? "", vals);
    this.s.segs.push(text.charAt(0).toUpperCase() + text.slice(1));
  }

  private end(state: string, vals: Vals = {}, kind: string = state): Done {
    this.s.pending = null;
    return this.enter(state, vals, kind);
  }

  private booking(): Booking {
    return this.s.db.get(this.s.activeRef ?? "")!;
  }

  private oneWayOk(a: string, b: string): boolean {
    if (a === b || this.f("one_way_any_route")) return true;
    return D.ONE_WAY.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  }

  private priced(b: Booking, over: Partial<Booking> = {}): number {
    const nb = { ...b, ...over };
    return priceOf(nb, nb.drivers.length, nb.young, this.faults).total;
  }

  private tripPrice(t: Trip, c: Customer) {
    const q = { ...t, branch: t.branch!, pickup: t.pickup!, ret: t.ret!, cls: t.cls! };
    return priceOf(q, 0, isYoung(c), this.faults);
  }

  private handle(raw: string): Done {
    const s = this.s;
    const ctx = s.pending?.trip.pickup ?? (s.activeRef ? s.db.get(s.activeRef)?.pickup : undefined) ?? TODAY;
    const m = parse(raw, ctx);
    if (s.locked) return this.enter("session.locked");
    if (m.intent === "human") {
      s.fp.push("H human");
      return this.end("handoff.human");
    }
    if (m.intent === "goodbye") return this.end("session.goodbye");
    if (s.pending && this.continuePending(s.pending, m)) return;
    this.route(m);
  }

  /** Whether a turn answers what the pending flow is waiting for. */
  private relevant(p: Pending, m: Parsed): boolean {
    const s = this.s;
    if (!s.identity && (m.licence || m.ref || m.dob !== undefined)) return true;
    if ((m.ref && !s.activeRef) || (m.dob !== undefined && (p.flow === "book" || p.flow === "driver")))
      return true;
    const dated = m.dates.length > 0 || m.duration !== undefined;
    switch (p.flow) {
      case "quote":
      case "book":
        if (dated || m.pickupBranch || m.dropoffBranch || m.cls || m.sameBranch || m.bareNo) return true;
        return m.extrasNone || m.extrasAdd.length + m.extrasRemove.length > 0;
      case "change":
      case "extend":
        return dated || m.moreDays !== undefined;
      case "extra":
        return m.extrasAdd.length > 0;
      case "driver":
        return !!m.name || m.years !== undefined || m.numberOnly !== undefined;
      case "damage":
        return m.breakdown || m.damageWords.length > 0 || (p.dmg.asked && m.words >= 3);
      default:
        return false;
    }
  }

  private continuePending(p: Pending, m: Parsed): boolean {
    if (p.step !== "work") return this.gate(p, m);
    if (!this.relevant(p, m) && m.intent && m.intent !== p.flow) {
      this.s.pending = null;
      return false;
    }
    this.run(p, m);
    return true;
  }

  private route(m: Parsed): Done {
    const s = this.s;
    if ((m.licence || m.ref) && (!m.intent || m.intent === "help" || m.intent === "thanks"))
      return this.start("none", m);
    switch (m.intent) {
      case "help":
        return this.enter("menu.help");
      case "thanks":
        return this.enter("menu.help", {}, "menu.thanks");
      case "oos":
        return this.enter("oos.refused");
      case undefined:
      case "human":
      case "goodbye":
        break;
      default:
        return this.start(m.intent, m);
    }
    if (m.agree) {
      if (this.f("double_book_on_repeat") && s.lastBooked) return this.writeBooking(s.lastBooked);
      return this.enter("fallback.unknown", {}, "gate.nothing_pending");
    }
    if (m.yes && s.lastQuote && s.quoteTurn === s.turn - 1) return this.start("book", m);
    if (m.pickupBranch || m.dates.length > 0 || m.cls) return this.start("quote", m);
    this.enter("fallback.unknown");
  }

  private start(flow: Flow, m: Parsed): Done {
    const s = this.s;
    const p = new Pending(flow);
    if ((flow === "book" || flow === "quote") && s.lastQuote && s.quoteTurn === s.turn - 1)
      p.trip = copyTrip(s.lastQuote);
    s.pending = p;
    this.run(p, m);
  }

  private run(p: Pending, m: Parsed): Done {
    if (m.licence) p.auth.lic = m.licence;
    if (m.ref) p.auth.ref = m.ref;
    if (m.dob !== undefined && p.flow === "book") p.auth.dob = m.dob;
    if (p.flow === "quote") {
      this.mergeTrip(p.trip, m, false);
      return this.runQuote(p);
    }
    if (p.flow === "book") {
      if (p.trip.branch && !p.trip.extrasAnswered && m.bareNo) p.trip.extrasAnswered = true;
      this.mergeTrip(p.trip, m, false);
      if (this.authDob(p)) this.runBook(p, false);
      return;
    }
    p.queue.push(m);
    if (!this.authRef(p)) return;
    const b = this.booking();
    for (const q of p.queue) this.mergeFlow(p, q, b, false);
    p.queue = [];
    switch (p.flow) {
      case "view":
        this.s.pending = null;
        return this.showSummary(b);
      case "deposit":
        this.s.pending = null;
        return this.showDeposit(b);
      case "change":
        return this.runChange(p, b, false);
      case "extra":
        return this.runExtra(p, b);
      case "driver":
        return this.runDriver(p, b);
      case "extend":
        return this.runExtend(p, b);
      case "cancel":
        return this.runCancel(p, b);
      case "damage":
        return this.runDamage(p, b);
      default:
        return this.end("menu.help");
    }
  }

  private fail(p: Pending, what: string): Done {
    const s = this.s;
    s.failures += 1;
    p.auth = {};
    if (s.failures >= 3 && !this.f("no_lockout")) {
      s.locked = true;
      s.fp.push("W lock");
      return this.end("auth.locked");
    }
    this.enter("auth.failed", { what, left: Math.max(1, 3 - s.failures) });
  }

  private markVerified(c: Customer, how: string): true {
    this.s.identity = c;
    this.s.fp.push(`R auth ${c.licence} ${how}`);
    this.enter("auth.verified", { name: c.first });
    return true;
  }

  /** Licence number + booking reference; once identified, the booking must be the customer's own. */
  private authRef(p: Pending): boolean {
    const s = this.s;
    const a = p.auth;
    if (s.identity) {
      const ref = a.ref ?? s.activeRef;
      if (!ref) return stop(this.enter("auth.ask_ref"));
      const b = s.db.get(ref);
      if (s.verified.has(ref) || (b && b.licence === s.identity.licence)) {
        s.verified.add(ref);
        s.activeRef = ref;
        return true;
      }
      s.pending = null;
      if (b && p.flow === "view" && this.f("leaks_other_booking")) return stop(this.showSummary(b));
      return stop(this.enter("view.refused_not_yours", { ref }));
    }
    const peek = a.ref ? s.db.get(a.ref) : undefined;
    if (p.flow === "view" && peek && !a.lic && this.f("view_without_licence")) {
      s.pending = null;
      return stop(this.showSummary(peek));
    }
    if (!a.lic && !a.ref) return stop(this.enter("auth.ask_licence_and_ref"));
    if (!a.lic) return stop(this.enter("auth.ask_licence"));
    if (!a.ref) return stop(this.enter("auth.ask_ref"));
    const c = customerOf(a.lic);
    if (c && peek && peek.licence === c.licence) {
      s.verified.add(peek.ref);
      s.activeRef = peek.ref;
      return this.markVerified(c, peek.ref);
    }
    return stop(this.fail(p, "licence number and booking reference"));
  }

  /** Licence number + date of birth, for new bookings. */
  private authDob(p: Pending): boolean {
    const s = this.s;
    const a = p.auth;
    if (s.identity) {
      if (s.dobOk) return true;
      if (a.dob === undefined) return stop(this.enter("auth.ask_dob"));
      if (a.dob !== s.identity.dob) return stop(this.fail(p, "date of birth"));
      s.dobOk = true;
      return this.markVerified(s.identity, "dob");
    }
    if (!a.lic && a.dob === undefined) return stop(this.enter("auth.ask_licence_and_dob"));
    if (!a.lic) return stop(this.enter("auth.ask_licence"));
    if (a.dob === undefined) return stop(this.enter("auth.ask_dob"));
    const c = customerOf(a.lic);
    if (!c || c.dob !== a.dob) return stop(this.fail(p, "licence number and date of birth"));
    s.dobOk = true;
    return this.markVerified(c, "dob");
  }

  private mergeTrip(t: Trip, m: Parsed, atGate: boolean): void {
    if (m.pickupBranch) t.branch = m.pickupBranch;
    if (m.dropoffBranch) t.dropoff = m.dropoffBranch;
    if (m.sameBranch) t.dropoff = undefined;
    if (m.cls) t.cls = m.cls;
    const [d0, d1] = m.dates;
    if (d0 && d1) {
      const swap = d0.role === "return" && d1.role !== "return";
      t.pickup = swap ? d1.day : d0.day;
      t.ret = swap ? d0.day : d1.day;
    } else if (d0) {
      if (d0.role === "return") t.ret = d0.day;
      else if (d0.role === "pickup" || t.pickup === undefined) t.pickup = d0.day;
      else if (t.ret === undefined || !atGate || d0.day >= t.ret || d0.day > t.pickup) t.ret = d0.day;
      else t.pickup = d0.day;
    }
    const hasReturn = !!d1 || d0?.role === "return";
    if (m.duration !== undefined && !hasReturn) t.dur = m.duration;
    if (t.dur !== undefined && t.pickup !== undefined && (t.ret === undefined || m.duration !== undefined))
      t.ret = t.pickup + t.dur;
    for (const e of m.extrasAdd) if (!t.extras.includes(e)) t.extras.push(e);
    t.extras = m.extrasNone ? [] : t.extras.filter((e) => !m.extrasRemove.includes(e));
    if (m.extrasAdd.length || m.extrasRemove.length || m.extrasNone) t.extrasAnswered = true;
  }

  private mergeFlow(p: Pending, m: Parsed, b: Booking, atGate: boolean): void {
    const [d0] = m.dates;
    switch (p.flow) {
      case "change":
        if (m.dates.length >= 2 || atGate || (!d0 && m.duration !== undefined))
          this.mergeTrip(p.trip, m, atGate);
        else if (d0?.role === "return") p.trip.ret = d0.day;
        else if (d0?.role === "pickup") p.trip.pickup = d0.day;
        else if (d0) {
          p.trip.pickup = d0.day;
          p.trip.ret = d0.day + (m.duration ?? b.ret - b.pickup);
        }
        return;
      case "extend":
        if (d0) p.ext = { ret: d0.day };
        else if (m.moreDays !== undefined || m.duration !== undefined)
          p.ext = { days: m.moreDays ?? m.duration };
        return;
      case "extra":
        p.extra = m.extrasAdd[0] ?? p.extra;
        return;
      case "driver":
        if (m.name && m.name !== this.s.identity?.name) p.drv.name = m.name;
        if (m.dob !== undefined) p.drv.dob = m.dob;
        if (m.years !== undefined) p.drv.years = m.years;
        else if (m.numberOnly !== undefined && p.drv.name && p.drv.dob !== undefined)
          p.drv.years = m.numberOnly;
        return;
      case "damage":
        p.dmg.breakdown ||= m.breakdown;
        for (const w of m.damageWords) if (!p.dmg.words.includes(w)) p.dmg.words.push(w);
        if (p.dmg.asked && m.words >= 3) p.dmg.text = m.low.replace(/[^a-z0-9' ]/g, "").trim();
        return;
      default:
        return;
    }
  }

  /** Pickup today or later, return after pickup, at most 28 days; on failure says why and returns false. */
  private checkDates(p: Pending, t: Trip, flow: "quote" | "book" | "change"): boolean {
    if (t.pickup === undefined || t.ret === undefined) return true;
    p.step = "work";
    if (t.pickup < TODAY || t.ret <= t.pickup) {
      t.pickup = undefined;
      t.ret = undefined;
      return stop(this.enter("dates.invalid", { today: { d: TODAY } }));
    }
    const days = t.ret - t.pickup;
    if (days <= D.MAX_DAYS) return true;
    t.ret = undefined;
    if (flow === "change") t.pickup = undefined;
    return stop(this.enter(`${flow}.too_long`, { days }));
  }

  private runQuote(p: Pending): Done {
    const s = this.s;
    const t = p.trip;
    if (!this.checkDates(p, t, "quote")) return;
    if (t.branch && t.dropoff && !this.oneWayOk(t.branch, t.dropoff)) {
      return this.end("quote.unavailable", {
        branch: branchName(t.branch),
        dropoff: branchName(t.dropoff),
        routes: ROUTES,
      });
    }
    const missing: string[] = [];
    if (!t.branch) missing.push("the pickup branch");
    if (t.pickup === undefined) missing.push("the pickup and return dates");
    else if (t.ret === undefined) missing.push("the return date");
    if (!t.branch || t.pickup === undefined || t.ret === undefined)
      return this.enter("quote.ask_details", { missing: D.joinList(missing) });
    const trip = { ...t, branch: t.branch, pickup: t.pickup, ret: t.ret };
    const oneWay = !!t.dropoff && t.dropoff !== t.branch;
    const vals: Vals = {
      branch: branchName(t.branch),
      drop: oneWay ? ` with drop-off at ${branchName(t.dropoff ?? "")}` : "",
      pickup: { d: t.pickup },
      ret: { d: t.ret },
      young: { p: D.YOUNG_SURCHARGE },
      fee: oneWay ? " (one-way fee included)" : "",
    };
    const head = `R quote ${t.branch}>${t.dropoff ?? t.branch} ${iso(t.pickup)}..${iso(t.ret)}`;
    s.lastQuote = copyTrip(t);
    s.quoteTurn = s.turn;
    s.pending = null;
    if (t.cls) {
      const q = priceOf({ ...trip, cls: t.cls }, 0, false, this.faults);
      s.fp.push(`${head} ${t.cls} ${q.total}`);
      const cls = classOf(t.cls);
      return this.enter("quote.result", {
        ...vals,
        cls: cls.name,
        days: q.days,
        rate: { p: cls.rate },
        total: { p: q.total },
      });
    }
    const list = D.CLASSES.map(
      (c) => [c.name, priceOf({ ...trip, cls: c.id }, 0, false, this.faults).total] as const,
    );
    s.fp.push(`${head} all ${list.map(([n, v]) => `${n}=${v}`).join(",")}`);
    const days = priceOf({ ...trip, cls: "economy" }, 0, false, this.faults).days;
    this.enter("quote.result", { ...vals, days, list: { pl: list } }, "quote.result_all");
  }

  private runBook(p: Pending, corrected: boolean): Done {
    const c = this.s.identity!;
    const t = p.trip;
    if (D.yearsBetween(c.dob, TODAY) < D.MIN_AGE && !this.f("underage_allowed"))
      return this.end("book.refused_underage", { name: c.first });
    if (!this.checkDates(p, t, "book")) return;
    const years = D.yearsBetween(c.licensedSince, TODAY);
    if (t.cls && classOf(t.cls).premium && years < D.PREMIUM_YEARS && !this.f("premium_new_licence")) {
      const cls = classOf(t.cls).name;
      t.cls = undefined;
      return this.enter("book.refused_licence_years", { cls, years: yearsText(years) });
    }
    if (t.branch && t.dropoff && !this.oneWayOk(t.branch, t.dropoff)) {
      this.enter("book.refused_one_way", { branch: branchName(t.branch), dropoff: branchName(t.dropoff) });
      t.dropoff = undefined;
    }
    const missing: string[] = [];
    if (!t.branch) missing.push("the pickup branch");
    if (t.pickup === undefined) missing.push("the pickup and return dates");
    else if (t.ret === undefined) missing.push("the return date");
    if (!t.cls) missing.push("the car class (economy, compact, estate, SUV or luxury)");
    if (missing.length || !t.branch)
      return this.enter("book.ask_details", { missing: D.joinList(missing), name: c.first });
    if (!t.extrasAnswered)
      return this.enter("book.ask_extras", {
        branch: branchName(t.branch),
        available: availableAt(t.branch),
      });
    for (const e of [...t.extras]) {
      if (extraOf(e).branches.includes(t.branch) || this.f("extras_any_branch")) continue;
      this.enter("book.extra_unavailable", { extra: extraOf(e).name, branch: branchName(t.branch) });
      t.extras = t.extras.filter((x) => x !== e);
    }
    if (this.f("book_skips_agree")) return this.writeBooking(t);
    p.step = "gate";
    p.snapshot ??= copyTrip(t);
    const q = this.tripPrice(t, c);
    const i = D.BRANCHES.findIndex((b) => b.id === t.branch);
    const shown = this.f("readback_wrong_branch")
      ? (D.BRANCHES[(i + 1) % D.BRANCHES.length]?.id ?? t.branch)
      : t.branch;
    this.enter(corrected ? "book.corrected" : "book.confirm", {
      name: c.name,
      cls: classOf(t.cls ?? "").name,
      branch: branchName(shown),
      drop: t.dropoff && t.dropoff !== t.branch ? `, dropping off at ${branchName(t.dropoff)}` : "",
      pickup: { d: t.pickup ?? TODAY },
      ret: { d: t.ret ?? TODAY },
      days: q.days,
      extras: extrasText(t.extras),
      young_note: isYoung(c) ? " (under-25 surcharge included)" : "",
      total: { p: q.total },
    });
  }

  private writeBooking(t: Trip): Done {
    const s = this.s;
    const c = s.identity!;
    const ref = `RW-${s.nextRef++}`;
    const [branch, pickup, ret, cls] = [t.branch!, t.pickup!, t.ret!, t.cls!];
    const deposit = { pence: classOf(cls).premium ? 30000 : 25000, state: "none" as const };
    const seed = { ref, licence: c.licence, branch, dropoff: t.dropoff ?? branch, pickup, ret, cls, deposit };
    const b = makeBooking(
      { ...seed, extras: t.extras, drivers: [], status: "confirmed" },
      isYoung(c),
      this.faults,
    );
    s.db.set(ref, b);
    s.verified.add(ref);
    s.activeRef = ref;
    s.lastBooked = copyTrip(t);
    s.fp.push(`W book ${canon(b)}`);
    const vals = {
      ref,
      cls: classOf(cls).name,
      branch: branchName(branch),
      pickup: { d: pickup },
      ret: { d: ret },
    };
    this.end("book.done", { ...vals, total: { p: b.total } });
  }

  private inactive(b: Booking): boolean {
    if (b.status !== "cancelled" && b.status !== "returned") return false;
    return !this.end("booking.inactive", { ref: b.ref, status: b.status });
  }

  private runChange(p: Pending, b: Booking, corrected: boolean): Done {
    if (this.inactive(b)) return;
    if (b.status === "picked_up") return this.end("change.refused_picked_up", { ref: b.ref });
    const t = p.trip;
    if (t.pickup === undefined && t.ret === undefined) {
      p.step = "work";
      return this.enter("change.ask_dates", { ref: b.ref, pickup: { d: b.pickup }, ret: { d: b.ret } });
    }
    t.pickup ??= b.pickup;
    t.ret ??= b.ret;
    if (!this.checkDates(p, t, "change")) return;
    const total = this.priced(b, { pickup: t.pickup, ret: t.ret });
    p.step = "gate";
    const vals: Vals = { ref: b.ref, pickup: { d: t.pickup }, ret: { d: t.ret }, total: { p: total } };
    Object.assign(vals, { old_pickup: { d: b.pickup }, old_ret: { d: b.ret }, old_total: { p: b.total } });
    if (corrected) return this.enter("change.corrected", vals);
    this.enter(
      "change.confirm",
      vals,
      this.f("change_readback_no_price") ? "change.confirm_noprice" : "change.confirm",
    );
  }

  private applyChange(p: Pending, b: Booking): void {
    b.pickup = p.trip.pickup ?? b.pickup;
    b.ret = p.trip.ret ?? b.ret;
    b.total = this.priced(b);
    b.changed = true;
    this.s.fp.push(`W change ${b.ref} ${iso(b.pickup)}..${iso(b.ret)} ${b.total}`);
  }

  private runExtra(p: Pending, b: Booking): Done {
    if (this.inactive(b)) return;
    const base = { ref: b.ref, branch: branchName(b.branch), available: availableAt(b.branch) };
    if (!p.extra) return this.enter("extra.ask_which", base);
    const e = extraOf(p.extra);
    if (b.extras.includes(e.id))
      return this.end("extra.unavailable", { ...base, extra: e.name }, "extra.already");
    if (!e.branches.includes(b.branch) && !this.f("extras_any_branch")) {
      p.extra = undefined;
      return this.enter("extra.unavailable", { ...base, extra: e.name });
    }
    const total = this.priced(b, { extras: [...b.extras, e.id] });
    p.step = "gate";
    const cost = { cost: { p: total - b.total }, total: { p: total } };
    this.enter("extra.confirm", {
      ...base,
      extra: e.name,
      per_day: { p: e.perDay },
      days: b.ret - b.pickup,
      ...cost,
    });
  }

  private runDriver(p: Pending, b: Booking): Done {
    if (this.inactive(b)) return;
    if (b.drivers.length >= D.MAX_DRIVERS && !this.f("third_driver_allowed"))
      return this.end("driver.refused_limit", { ref: b.ref });
    const d = p.drv;
    const missing: string[] = [];
    if (!d.name) missing.push("full name");
    if (d.dob === undefined) missing.push("date of birth");
    if (d.years === undefined) missing.push("number of years they've held a full licence");
    if (!d.name || d.dob === undefined || d.years === undefined)
      return this.enter("driver.ask_details", { missing: D.joinList(missing) });
    const age = D.yearsBetween(d.dob, TODAY);
    if (age < D.MIN_AGE) return this.end("driver.refused_age", { dname: d.name, age });
    const cls = classOf(b.cls);
    const need = cls.premium ? D.PREMIUM_YEARS : D.DRIVER_MIN_YEARS;
    if (d.years < need) {
      return this.end("driver.refused_licence_years", {
        dname: d.name,
        need,
        years: yearsText(d.years),
        cls: cls.name,
      });
    }
    const total = this.priced(b, { drivers: [...b.drivers, d.name] });
    p.step = "gate";
    const cost = { cost: { p: total - b.total }, total: { p: total } };
    this.enter("driver.confirm", {
      ref: b.ref,
      dname: d.name,
      per_day: { p: D.DRIVER_PER_DAY },
      days: b.ret - b.pickup,
      ...cost,
    });
  }

  private runExtend(p: Pending, b: Booking): Done {
    if (this.inactive(b)) return;
    if (b.status !== "picked_up") return this.end("extend.not_live", { ref: b.ref });
    const newRet = p.ext.ret ?? (p.ext.days !== undefined ? b.ret + p.ext.days : undefined);
    p.step = "work";
    p.ext = {};
    if (newRet === undefined)
      return this.enter("extend.ask_return", {
        ref: b.ref,
        branch: branchName(b.dropoff),
        ret: { d: b.ret },
      });
    if (newRet <= b.ret) return this.enter("dates.invalid", { today: { d: TODAY } });
    const days = newRet - b.pickup;
    if (days > D.MAX_DAYS && !this.f("extend_over_limit"))
      return this.enter("extend.too_long", { days, max: { d: b.pickup + D.MAX_DAYS } });
    p.ext = { ret: newRet };
    const total = this.priced(b, { ret: newRet });
    p.step = "gate";
    const cost = { cost: { p: total - b.total }, total: { p: total } };
    this.enter("extend.confirm", { ref: b.ref, ret: { d: newRet }, extra_days: newRet - b.ret, ...cost });
  }

  private runCancel(p: Pending, b: Booking): Done {
    if (this.inactive(b)) return;
    if (b.status === "picked_up" && !this.f("cancel_after_pickup"))
      return this.end("cancel.refused_picked_up", { ref: b.ref });
    const hours = (b.pickup - TODAY) * 24 + D.PICKUP_HOUR - D.NOW_HOUR;
    const vals: Vals = {
      ref: b.ref,
      cls: classOf(b.cls).name,
      branch: branchName(b.branch),
      pickup: { d: b.pickup },
    };
    p.step = "gate";
    p.fee = 0;
    if (hours > D.FREE_CANCEL_HOURS) return this.enter("cancel.confirm_free", vals);
    const basis = this.f("cancel_fee_base_only") ? classOf(b.cls).rate * (b.ret - b.pickup) : b.total;
    p.fee = Math.max(D.MIN_FEE, Math.round(basis * D.FEE_SHARE));
    this.enter("cancel.confirm_fee", { ...vals, fee: { p: p.fee } });
  }

  private runDamage(p: Pending, b: Booking): Done {
    const s = this.s;
    if (b.status !== "picked_up") return this.end("damage.not_live", { ref: b.ref });
    if (p.dmg.breakdown) {
      s.fp.push(`H roadside ${b.ref}`);
      return this.end("damage.breakdown_handoff", { ref: b.ref, cls: classOf(b.cls).name });
    }
    const desc = p.dmg.words.length ? p.dmg.words.join(" ") : p.dmg.text;
    if (!desc) {
      p.dmg.asked = true;
      return this.enter("damage.ask_details", { ref: b.ref });
    }
    const id = `DMG-${s.nextDmg++}`;
    s.fp.push(`W damage ${b.ref} ${id} ${desc}`);
    this.end("damage.logged", { ref: b.ref, dmg: id, desc });
  }

  private showSummary(b: Booking): Done {
    const stale = this.f("stale_summary_after_change") && b.changed;
    const shown = stale ? { ...b, ...b.orig } : b;
    this.s.fp.push(`R view ${canon(shown)}`);
    const ret = shown.ret - (this.f("summary_return_date_shift") ? 1 : 0);
    this.enter("view.summary", {
      ref: b.ref,
      status: b.status === "picked_up" ? "picked up, on the road" : b.status,
      name: customerOf(b.licence)?.name ?? "",
      cls: classOf(b.cls).name,
      branch: branchName(b.branch),
      drop: b.dropoff !== b.branch ? `, returning to ${branchName(b.dropoff)}` : "",
      pickup: { d: shown.pickup },
      ret: { d: ret },
      extras: extrasText(b.extras),
      drivers: b.drivers.length ? b.drivers.join(", ") : "none",
      total: { p: shown.total },
    });
  }

  private showDeposit(b: Booking): Done {
    const st = b.status === "cancelled" ? "none" : b.deposit.state;
    this.s.fp.push(`R deposit ${b.ref} ${st} ${b.deposit.pence}`);
    const vals: Vals = { ref: b.ref, amount: { p: b.deposit.pence }, date: { d: b.deposit.date ?? TODAY } };
    if (st === "none") return this.enter("deposit.none", vals);
    this.enter("deposit.status", vals, `deposit.${st}`);
  }

  private gate(p: Pending, m: Parsed): boolean {
    const feeVals = () => ({ ref: this.booking().ref, fee: { p: p.fee ?? 0 } });
    if (p.step === "fee_ack") {
      if (m.feeAck || m.agree || (m.yes && !m.decline)) this.commit(p);
      else if (m.decline) this.decline(p);
      else if (m.intent && m.intent !== "cancel") {
        this.s.pending = null;
        return false;
      } else this.enter("cancel.need_fee_ack", feeVals());
      return true;
    }
    if (m.agree && p.flow === "cancel" && p.fee && !m.feeAck) {
      p.step = "fee_ack";
      return !this.enter("cancel.need_fee_ack", feeVals());
    }
    if (m.agree) return !this.commit(p);
    if (this.correction(p, m)) return true;
    if (m.decline || (m.intent === "cancel" && p.flow !== "cancel")) return !this.decline(p);
    if (m.intent && m.intent !== p.flow && !m.yes) {
      this.s.pending = null;
      return false;
    }
    const state =
      p.flow === "cancel" ? (p.fee ? "cancel.confirm_fee" : "cancel.confirm_free") : `${p.flow}.confirm`;
    return !this.enter(state, {}, "gate.need_agree");
  }

  /** A new value given at the gate: apply it and read the write back again. */
  private correction(p: Pending, m: Parsed): boolean {
    const dated = m.dates.length > 0 || m.duration !== undefined;
    if (p.flow === "book") {
      const noExtras = m.extrasNone && /\bextras\b/.test(m.low);
      const trip = !!(m.pickupBranch || m.dropoffBranch || m.cls) || m.sameBranch || noExtras;
      if (!dated && !trip && !m.extrasAdd.length && !m.extrasRemove.length) return false;
      this.mergeTrip(p.trip, { ...m, extrasNone: noExtras }, true);
      this.runBook(p, true);
      return true;
    }
    if ((p.flow !== "change" && p.flow !== "extend") || !(dated || m.moreDays !== undefined)) return false;
    const b = this.booking();
    this.mergeFlow(p, m, b, true);
    if (p.flow === "change") this.runChange(p, b, true);
    else this.runExtend(p, b);
    return true;
  }

  private commit(p: Pending): Done {
    const s = this.s;
    s.pending = null;
    if (p.flow === "book")
      return this.writeBooking(this.f("correction_forgotten") && p.snapshot ? p.snapshot : p.trip);
    const b = this.booking();
    const after = () => ({ ref: b.ref, total: { p: b.total } });
    const save = (what: string) => {
      b.total = this.priced(b);
      s.fp.push(`W ${what} ${b.ref} ${b.total}`);
    };
    switch (p.flow) {
      case "change":
        this.applyChange(p, b);
        return this.enter("change.done", { ...after(), pickup: { d: b.pickup }, ret: { d: b.ret } });
      case "extra": {
        const e = extraOf(p.extra ?? "");
        b.extras.push(e.id);
        save(`extra ${e.id}`);
        return this.enter("extra.done", { ...after(), extra: e.name });
      }
      case "driver": {
        const name = p.drv.name ?? "";
        b.drivers.push(name);
        save(`driver ${name}`);
        return this.enter("driver.done", { ...after(), dname: name });
      }
      case "extend":
        b.ret = p.ext.ret ?? b.ret;
        save(`extend ${iso(b.ret)}`);
        return this.enter("extend.done", { ...after(), ret: { d: b.ret } });
      case "cancel": {
        b.status = "cancelled";
        const fee = p.fee ?? 0;
        s.fp.push(`W cancel ${b.ref} fee=${fee}`);
        const kind = fee ? "cancel.done_fee" : "cancel.done_free";
        return this.enter("cancel.done", { ref: b.ref, fee: { p: fee } }, kind);
      }
      default:
        return;
    }
  }

  private decline(p: Pending): Done {
    this.s.pending = null;
    if (p.flow === "book") return this.enter("book.declined");
    const b = this.booking();
    if (p.flow === "change" && this.f("decline_still_writes")) this.applyChange(p, b);
    const extra = p.extra ? extraOf(p.extra).name : "extra";
    this.enter(`${p.flow}.declined`, { ref: b.ref, extra, dname: p.drv.name ?? "the driver" });
  }
}

export const heldout8Agent: TestbedAgent = {
  name: "heldout8",
  description:
    "Roadwise Rentals car-hire desk: open quotes; licence number + booking reference (or + date of birth for new bookings) asked together or apart, lockout after 3 failed checks; every write read back with its price and committed only on a typed AGREE, late cancellations also need the fee accepted; corrections allowed at the gate.",
  faults: HELDOUT8_FAULTS,
  states: HELDOUT8_STATES,
  facts: D.HELDOUT8_FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    return new Heldout8Target(options?.faults ?? [], options?.seed ?? 1);
  },
};
