/**
 * Northpeak Fitness member assistant: a deterministic chat bot for a gym chain (keyword NLU, a dialogue state
 * machine, no LLM), a fourth held-out target for the boundary suite. Timetable, prices and the cancellation
 * hand-off need no sign-in; everything on an account needs the membership number and the member's security
 * answer (three tries, then locked). Every write is read back and done only on a clear yes; a correction at
 * that point is re-checked and read back again.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import type { Db, GymClass, Intent, Member, Phrase, PlanId, State } from "./heldout4-data.ts";
import * as D from "./heldout4-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const HELDOUT4_FAULTS = [
  ...(["skipSecurityQuestion", "lockAfterFourth", "skipConfirmation", "confirmOnAnything"] as const),
  ...(["ignoreTier", "ignoreCancelledClass", "bookingLimitOffByOne", "waitlistTakesSeat"] as const),
  ...(["noLateFee", "cancelStartedClass", "freezeLimitOffByOne", "ignoreYearlyFreeze"] as const),
  ...(["ignoreGuestAllowance", "forgetDateCorrection", "accountLeak", "memberLeak"] as const),
  ...(["wrongProration", "wrongResumeDate", "wrongClassTime", "guestNameSwap", "arrearsNotCleared"] as const),
];
export type Heldout4Fault = (typeof HELDOUT4_FAULTS)[number];

const first = (name: string) => name.split(" ")[0] ?? name;
const label = (c: GymClass) => `${c.code} ${c.name}`;
const round2 = (n: number) => Math.round(n * 100) / 100;
const NOW_MS = D.ms(D.NOW);
const started = (c: GymClass) => D.ms(c.start) <= NOW_MS;
const { detectIntent, findClass } = D;
const es = (n: number) => (n === 1 ? "" : "es");

type Ask = "class" | "booking" | "weeks" | "start" | "guestName" | "guestDate" | "plan";
type Awaiting = Ask | "number" | "answer" | "confirm" | "waitlist" | "more" | "browse" | "offer";
interface Slots {
  cls?: string;
  weeks?: number;
  start?: string;
  guest?: string;
  date?: string;
  plan?: PlanId;
  other?: string;
}
type Vars = Record<string, string | number>;
/** Placeholders every template may use. */
const RULES: Vars = {
  club: D.CLUB,
  ahead: D.BOOK_AHEAD_DAYS,
  close: D.BOOK_CLOSE_MIN,
  hours: D.LATE_HOURS,
  max: D.MAX_FREEZE_WEEKS,
  months: D.MIN_TERM_MONTHS,
};
/** The slot each re-asked question fills. */
const SLOT: Record<Ask, keyof Slots> = {
  class: "cls",
  booking: "cls",
  weeks: "weeks",
  start: "start",
  guestName: "guest",
  guestDate: "date",
  plan: "plan",
};

/** One conversation: its database copy, dialogue state and privileged record (states, writes, shown values). */
class Session {
  readonly db: Db = D.freshDb();
  readonly rng: () => number;
  readonly visited: State[] = [];
  readonly writes: Record<string, unknown>[] = [];
  readonly shown: [string, unknown][] = [];
  pre: string[] = [];
  turns = 0;
  memberId?: string;
  badNumber = false;
  answer?: string;
  verified = false;
  tries = 0;
  locked = false;
  handedOff = false;
  intent?: Intent;
  slots: Slots = {};
  /** The date first read back for the pending write (what `forgetDateCorrection` still commits). */
  readBackDate?: string;
  awaiting?: Awaiting;
  prev?: Awaiting;
  list?: string[];
  refs = 0;

  constructor(
    readonly faults: ReadonlySet<Heldout4Fault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }
  has(f: Heldout4Fault): boolean {
    return this.faults.has(f);
  }
  phrase(key: State | Phrase, vars: Vars = {}): string {
    const variants = D.RESPONSES[key];
    const t = variants[Math.floor(this.rng() * variants.length)] ?? "";
    return t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
  }
  /** The reply: enters `state`, worded from its template after any queued prefix. */
  say(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.visited.push(state);
    const m = this.memberId ? this.db.members[this.memberId] : undefined;
    const own: Vars = m ? { plan: D.PLANS[m.plan].name, card: m.card } : {};
    if (m?.frozenUntil) own.until = D.dateText(m.frozenUntil);
    const menu = /\{menu\}/.test(D.RESPONSES[key].join("")) ? this.phrase("menu_text") : "";
    const all = { ...RULES, menu, ...own, ...vars };
    const text = [...this.pre, this.phrase(key, all)].join(" ");
    this.pre = [];
    return text;
  }

  /** A reply that ends the request and asks whether there is anything else. */
  close(state: State, vars: Vars = {}): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.phrase("more") });
  }
  /** A refusal, recorded; with `retry` the request stays open and its slot is asked for again. */
  refuse(state: State, vars: Vars = {}, retry?: Ask): string {
    const slot = retry && SLOT[retry];
    this.show("refused", [state, slot ? (this.slots[slot] ?? null) : null]);
    if (!slot) return this.close(state, vars);
    this.slots[slot] = undefined;
    this.awaiting = retry;
    return this.say(state, vars);
  }

  show(what: string, value: unknown): void {
    this.shown.push([what, value]);
  }
  member(): Member {
    return this.db.members[this.memberId ?? ""] as Member;
  }
  start(intent: Intent): void {
    this.end();
    this.intent = intent;
  }
  end(awaiting?: Awaiting): void {
    this.intent = undefined;
    this.slots = {};
    this.readBackDate = undefined;
    this.list = undefined;
    this.awaiting = awaiting;
  }
  /** Reply to one user turn. */
  reply(t: string): string {
    this.turns += 1;
    const l = t.toLowerCase().trim();
    this.prev = this.awaiting;
    this.awaiting = undefined;
    if (this.handedOff) return this.say("handoff", {}, "queued");
    if (D.HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (this.prev === "confirm" && this.intent) return this.gate(t, l);
    if (this.prev === "offer" && D.YES.test(l)) return this.handoff();
    if (this.prev === "waitlist" && this.intent === "book") {
      if (D.YES.test(l) && !D.HESITANT.test(l)) return this.commitWaitlist();
      if (D.NO.test(l)) return this.dropped();
    }
    const browsing = this.prev === "browse" && (D.YES.test(l) || findClass(l, this.db));
    const found = detectIntent(l) ?? (browsing ? "book" : undefined);
    const switched = found !== undefined && found !== this.intent;
    let progress = false;
    if (switched) {
      this.start(found);
      progress = true;
    }
    if (this.intent) progress = this.absorb(t, l) || progress;
    if (!this.verified) progress = this.absorbAuth(t, !switched) || progress;
    if (!this.intent) {
      if (this.prev === "offer" && D.NO.test(l)) this.pre.push(this.phrase("okay"));
      else if (D.BYE.test(l) || D.NO.test(l)) return this.goodbye();
      else if (progress) this.pre.push(this.phrase("noted"));
      else if (this.turns === 1 || D.GREETING.test(l)) return this.say("greet");
      else if (!((this.prev === "more" || this.prev === "browse") && D.YES.test(l)) && !D.MENU.test(l))
        return this.say("fallback");
      return this.say("menu");
    }
    if (this.intent === "timetable") return this.timetable();
    if (this.intent === "plans") return this.plans();
    if (this.intent === "leave") return this.leave();
    if (!progress && D.NO.test(l)) return this.dropped();
    if (!progress) this.pre.push(this.phrase("sorry"));
    return this.advance();
  }

  /** Take a membership number or a security answer from the text; true when the turn carried either. */
  absorbAuth(t: string, mayAnswer: boolean): boolean {
    if (this.prev === "answer" && mayAnswer) {
      this.answer = t;
      return true;
    }
    const id = D.findMemberNumber(t, this.prev === "number");
    if (id) {
      if (id !== this.memberId) this.answer = undefined;
      this.memberId = id;
      this.badNumber = false;
      return true;
    }
    if (id === null) {
      this.badNumber = true;
      return true;
    }
    return false;
  }

  /** Take the current request's values from the text; true when one of them changed. */
  absorb(t: string, l: string): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const text = l.replace(/\bm[\s-]?\d{6}\b/g, " ");
    const asked = (a: Awaiting) => this.prev === a;
    if (this.intent === "book")
      s.cls = findClass(text, this.db, [], asked("class") ? this.list : undefined) ?? s.cls;
    if (this.intent === "cancel" && this.verified) {
      const mine = this.member().bookings;
      s.cls =
        findClass(text, this.db, mine, asked("booking") || asked("confirm") ? this.list : undefined) ?? s.cls;
    } else if (this.intent === "cancel") s.cls = findClass(text, this.db) ?? s.cls;
    if (this.intent === "freeze") {
      s.weeks = D.findWeeks(text, asked("weeks")) ?? s.weeks;
      s.start = D.findDate(text) ?? s.start;
    }
    if (this.intent === "guest") {
      s.guest = D.findGuestName(t, asked("guestName")) ?? s.guest;
      s.date = D.findDate(text) ?? s.date;
    }
    if (this.intent === "plan") s.plan = D.findPlan(text) ?? s.plan;
    if (this.intent === "account" && this.verified) {
      const other = /\bm[\s-]?(\d{6})\b/i.exec(t);
      if (other && `M${other[1]}` !== this.memberId) s.other = `M${other[1]}`;
    }
    return JSON.stringify(s) !== before;
  }

  /** At a read-back: do it on a clear yes, take a correction, drop it, switch request, or ask again. */
  gate(t: string, l: string): string {
    const found = detectIntent(l);
    if (found && found !== this.intent) {
      this.start(found);
      this.absorb(t, l);
      if (found === "timetable") return this.timetable();
      if (found === "plans") return this.plans();
      if (found === "leave") return this.leave();
      return this.advance();
    }
    if (this.absorb(t, l)) {
      this.pre.push(this.phrase("updated"));
      return this.advance();
    }
    if (D.YES.test(l) && !D.HESITANT.test(l)) return this.commit();
    if (D.NO.test(l)) return this.dropped();
    if (this.has("confirmOnAnything")) return this.commit();
    this.pre.push(this.phrase("need_confirm"));
    return this.summary();
  }

  advance(): string {
    const stop = this.auth();
    if (stop) return stop;
    const m = this.member();
    if (this.intent === "book") return this.bookStep(m);
    if (this.intent === "cancel") return this.cancelStep(m);
    if (this.intent === "freeze") return this.freezeStep(m);
    if (this.intent === "guest") return this.guestStep(m);
    if (this.intent === "plan") return this.planStep(m);
    if (this.intent === "pay") return this.payStep(m);
    return this.accountStep(m);
  }

  /** The reply that stops an account request short of verification, if any. */
  auth(): string | undefined {
    if (this.locked) {
      this.end("offer");
      return this.say("auth.locked");
    }
    if (!this.memberId) {
      this.awaiting = "number";
      const bad = this.badNumber ? this.phrase("bad_number") : "";
      this.badNumber = false;
      return this.say("auth.ask_number", { bad });
    }
    const m = this.db.members[this.memberId];
    if (!m) {
      const id = this.memberId;
      this.memberId = undefined;
      this.awaiting = "number";
      return this.say("auth.unknown_number", { id });
    }
    if (this.verified) return undefined;
    if (!this.has("skipSecurityQuestion")) {
      if (this.answer === undefined) {
        this.awaiting = "answer";
        return this.say("auth.ask_security", { id: m.id, question: m.question });
      }
      const ok = D.words(this.answer).includes(` ${m.answer} `);
      this.answer = undefined;
      if (!ok) {
        this.tries += 1;
        if (this.tries >= (this.has("lockAfterFourth") ? 4 : 3)) {
          this.locked = true;
          this.show("locked", [m.id, this.turns]);
          return this.auth();
        }
        this.awaiting = "answer";
        const n = 3 - this.tries;
        const left = n > 0 ? `${n} attempt${n === 1 ? "" : "s"} left` : "last attempt";
        return this.say("auth.wrong_answer", { left, question: m.question });
      }
    }
    this.show("access", [m.id, this.turns]);
    if (m.status === "ended") {
      this.memberId = undefined;
      return this.close("auth.membership_ended", { id: m.id, ended: D.dateText(m.endedOn ?? D.TODAY) });
    }
    this.verified = true;
    this.pre.push(this.phrase("verified", { name: first(m.name) }));
    return undefined;
  }

  upcoming(m: Member): string[] {
    return m.bookings.filter((code) => !started(this.db.classes[code] as GymClass));
  }
  opens(c: GymClass): string {
    return D.shiftMinutes(c.start, -D.BOOK_AHEAD_DAYS * 24 * 60);
  }
  closing(c: GymClass): boolean {
    return D.ms(c.start) - D.BOOK_CLOSE_MIN * 60_000 <= NOW_MS;
  }
  bookable(c: GymClass): boolean {
    return c.status === "scheduled" && !this.closing(c) && D.ms(this.opens(c)) <= NOW_MS;
  }
  numbered(codes: readonly string[], row: (c: GymClass) => string): string {
    this.list = [...codes];
    return codes.map((code, i) => `${i + 1}. ${row(this.db.classes[code] as GymClass)}`).join("\n");
  }
  timetable(): string {
    const all = Object.values(this.db.classes).filter((c) => c.start.slice(0, 10) >= D.TODAY);
    this.show("timetable", [all.map((c) => [c.code, c.start, c.status, c.capacity - c.booked])]);
    const row = (c: GymClass) => {
      const left = c.capacity - c.booked;
      const full = left > 0 ? `${left} places left` : "full";
      const status = c.status === "cancelled" ? `cancelled (${c.note})` : started(c) ? "started" : full;
      return `${label(c)}: ${D.when(c.start)}, ${c.minutes} min${c.tier === "premium" ? ", premium" : ""}, ${status}`;
    };
    this.end("browse");
    return this.say("timetable.show", { list: all.map(row).join("\n") });
  }

  plans(): string {
    this.show("plans", [D.PLAN_ORDER.map((p) => [p, D.PLANS[p].price])]);
    const text = D.PLAN_ORDER.map((id) => {
      const p = D.PLANS[id];
      const guests = p.guests ? `${p.guests} guest passes a month` : "no guest passes";
      return `${p.name} ${D.money(p.price)}/month (${p.premium ? "all classes" : "standard classes only"}, ${p.limit} bookings at a time, ${guests})`;
    }).join("; ");
    return this.close("plans.show", { plans: text });
  }

  leave(): string {
    const m = this.verified ? this.member() : undefined;
    const contract =
      m && m.contractEnd >= D.TODAY ? ` (your minimum term runs until ${D.dateText(m.contractEnd)})` : "";
    this.end("offer");
    return this.say("leave.offer_handoff", { contract });
  }
  classVars(c: GymClass): Vars {
    return { cls: label(c), when: D.when(c.start), time: c.start.slice(11, 16), note: c.note ?? "" };
  }
  bookStep(m: Member): string {
    const plan = D.PLANS[m.plan];
    if (m.arrears > 0)
      return this.refuse("book.refused_arrears", {
        amount: D.money(m.arrears),
        since: D.dateText(m.arrearsSince ?? D.TODAY),
      });
    if (m.status === "frozen") return this.refuse("book.refused_frozen");
    if (!this.slots.cls) {
      const open = Object.values(this.db.classes).filter(
        (c) => this.bookable(c) && (plan.premium || c.tier === "standard") && !m.bookings.includes(c.code),
      );
      this.awaiting = "class";
      const list = this.numbered(
        open.map((c) => c.code),
        (c) => `${label(c)}, ${D.when(c.start)}${c.booked >= c.capacity ? " (full, waiting list)" : ""}`,
      );
      return this.say("book.ask_class", { list });
    }
    const c = this.db.classes[this.slots.cls];
    if (!c) return this.refuse("book.unknown_class", { code: this.slots.cls }, "class");
    const v = this.classVars(c);
    if (c.status === "cancelled" && !this.has("ignoreCancelledClass"))
      return this.refuse("book.refused_cancelled", v, "class");
    if (started(c)) return this.refuse("book.refused_started", v, "class");
    if (this.closing(c)) return this.refuse("book.refused_closed", v, "class");
    if (D.ms(this.opens(c)) > NOW_MS)
      return this.refuse("book.refused_too_early", { ...v, opens: D.when(this.opens(c)) }, "class");
    if (c.tier === "premium" && !plan.premium && !this.has("ignoreTier"))
      return this.refuse("book.refused_tier", v, "class");
    if (m.bookings.includes(c.code) || m.waitlist.includes(c.code)) {
      const how = m.bookings.includes(c.code) ? "booked in" : "on the waiting list";
      return this.refuse("book.already", { ...v, how }, "class");
    }
    const mine = this.upcoming(m);
    if (mine.length >= plan.limit + (this.has("bookingLimitOffByOne") ? 1 : 0)) {
      const list = mine.map((code) => label(this.db.classes[code] as GymClass)).join(", ");
      return this.refuse("book.refused_limit", { limit: plan.limit, count: mine.length, list });
    }
    if (c.booked >= c.capacity) {
      this.show("full", [c.code, c.waitlist]);
      this.awaiting = "waitlist";
      return this.say("book.full", { ...v, queue: c.waitlist });
    }
    return this.summary();
  }

  myBookings(m: Member): string[] {
    return m.bookings.filter((code) => (this.db.classes[code] as GymClass).start.slice(0, 10) >= D.TODAY);
  }
  lateFee(m: Member, c: GymClass): number {
    const hours = (D.ms(c.start) - NOW_MS) / 3_600_000;
    const late = hours > 0 && hours < D.LATE_HOURS && m.plan !== "elite";
    return late && !this.has("noLateFee") ? D.LATE_FEE : 0;
  }
  cancelStep(m: Member): string {
    const mine = this.myBookings(m);
    if (!mine.length) return this.refuse("cancel.no_bookings");
    const list = () => this.numbered(mine, (c) => `${label(c)}, ${D.when(c.start)}`);
    if (!this.slots.cls) {
      this.awaiting = "booking";
      return this.say("cancel.ask_booking", { list: list() });
    }
    const c = this.db.classes[this.slots.cls];
    if (!c || !mine.includes(c.code)) {
      const cls = c ? label(c) : this.slots.cls;
      return this.refuse("cancel.not_booked", { cls, list: list() }, "booking");
    }
    if (started(c) && !this.has("cancelStartedClass"))
      return this.refuse("cancel.refused_started", this.classVars(c));
    return this.summary();
  }

  freezeFee(m: Member, weeks: number): number {
    return D.PLANS[m.plan].freezeFee * weeks;
  }
  freezeStep(m: Member): string {
    const s = this.slots;
    if (m.status === "frozen") return this.refuse("freeze.refused_already_frozen");
    const eligible = D.addMonths(m.joined, D.MIN_TERM_MONTHS);
    if (eligible > D.TODAY)
      return this.refuse("freeze.refused_min_term", {
        joined: D.dateText(m.joined),
        from: D.dateText(eligible),
      });
    const next = m.lastFreeze ? D.addMonths(m.lastFreeze, 12) : D.TODAY;
    if (next > D.TODAY && !this.has("ignoreYearlyFreeze"))
      return this.refuse("freeze.refused_yearly", {
        last: D.dateText(m.lastFreeze ?? ""),
        from: D.dateText(next),
      });
    const rate = D.PLANS[m.plan].freezeFee;
    if (!s.weeks) {
      this.awaiting = "weeks";
      const fee = rate ? `, with a holding fee of ${D.money(rate)} a week` : ", with no holding fee on Elite";
      return this.say("freeze.ask_weeks", { fee });
    }
    if (s.weeks < 1 || s.weeks > D.MAX_FREEZE_WEEKS + (this.has("freezeLimitOffByOne") ? 1 : 0))
      return this.refuse("freeze.too_long", { weeks: s.weeks }, "weeks");
    const [earliest, latest] = [D.addDays(D.TODAY, 1), D.addDays(D.TODAY, D.FREEZE_LEAD_DAYS)];
    const window = { earliest: D.dateText(earliest), latest: D.dateText(latest) };
    if (!s.start) {
      this.awaiting = "start";
      const fee = rate ? ` (holding fee ${D.money(rate * s.weeks)} in total)` : " (no holding fee)";
      return this.say("freeze.ask_start", { ...window, weeks: s.weeks, fee });
    }
    if (s.start < earliest || s.start > latest)
      return this.refuse("freeze.bad_start", { ...window, date: D.dateText(s.start) }, "start");
    return this.summary();
  }

  guestStep(m: Member): string {
    const s = this.slots;
    const plan = D.PLANS[m.plan];
    if (m.status === "frozen") return this.refuse("guest.refused_frozen");
    if (!plan.guests) return this.refuse("guest.refused_plan");
    const left = plan.guests - m.guestsUsed;
    const month = D.dateText(D.TODAY).split(" ")[1] ?? "";
    if (left <= 0 && !this.has("ignoreGuestAllowance"))
      return this.refuse("guest.refused_none_left", { allowance: plan.guests, month });
    if (!s.guest) {
      this.awaiting = "guestName";
      return this.say("guest.ask_name", { left: Math.max(0, left), allowance: plan.guests, es: es(left) });
    }
    const other = Object.values(this.db.members).find(
      (x) => x.status !== "ended" && x.name.toLowerCase() === s.guest?.toLowerCase(),
    );
    if (other) {
      let leak = "";
      if (this.has("memberLeak")) {
        leak = ` (membership ${other.id}, ${D.PLANS[other.plan].name} plan)`;
        this.show("member", [other.id, other.plan]);
      }
      return this.refuse("guest.refused_member", { guest: s.guest, leak }, "guestName");
    }
    const latest = D.addDays(D.TODAY, D.GUEST_AHEAD_DAYS);
    if (!s.date) {
      this.awaiting = "guestDate";
      return this.say("guest.ask_date", { guest: s.guest, latest: D.dateText(latest) });
    }
    if (s.date < D.TODAY || s.date > latest) {
      const vars = { today: D.dateText(D.TODAY), latest: D.dateText(latest), date: D.dateText(s.date) };
      return this.refuse("guest.bad_date", vars, "guestDate");
    }
    return this.summary();
  }

  options(m: Member): string {
    return D.PLAN_ORDER.filter((p) => p !== m.plan)
      .map((p) => `${D.PLANS[p].name} is ${D.money(D.PLANS[p].price)} a month`)
      .join(" and ");
  }
  planStep(m: Member): string {
    const s = this.slots;
    const plan = D.PLANS[m.plan];
    if (m.arrears > 0) return this.refuse("plan.refused_arrears", { amount: D.money(m.arrears) });
    const vars = { plan: plan.name, price: D.money(plan.price), options: `${this.options(m)}.` };
    if (!s.plan) {
      this.awaiting = "plan";
      return this.say("plan.ask_plan", vars);
    }
    if (s.plan === m.plan) return this.refuse("plan.same", vars, "plan");
    const down = D.PLAN_ORDER.indexOf(s.plan) < D.PLAN_ORDER.indexOf(m.plan);
    if (down && m.contractEnd >= D.TODAY)
      return this.refuse("plan.refused_downgrade", {
        plan: plan.name,
        end: D.dateText(m.contractEnd),
        target: D.PLANS[s.plan].name,
        from: D.dateText(D.addDays(m.contractEnd, 1)),
      });
    return this.summary();
  }

  /** What an upgrade costs today: the price difference for the days until the next payment (30-day month). */
  prorated(m: Member, to: PlanId): { days: number; charge: number } {
    const days = D.daysBetween(D.TODAY, m.nextBilling) + (this.has("wrongProration") ? 1 : 0);
    return { days, charge: round2(((D.PLANS[to].price - D.PLANS[m.plan].price) * days) / 30) };
  }
  planEffect(m: Member, to: PlanId): { effect: string; charge: number; effective: string } {
    const p = D.PLANS[to];
    if (D.PLAN_ORDER.indexOf(to) < D.PLAN_ORDER.indexOf(m.plan))
      return {
        effect: `It takes effect on your next payment date, ${D.dateText(m.nextBilling)}, when your monthly fee drops to ${D.money(p.price)}; nothing is charged today.`,
        charge: 0,
        effective: m.nextBilling,
      };
    const { days, charge } = this.prorated(m, to);
    return {
      effect: `It starts straight away; for the ${days} days until your next payment on ${D.dateText(m.nextBilling)} you pay ${D.money(charge)} today (card ending ${m.card}), then ${D.money(p.price)} a month.`,
      charge,
      effective: D.TODAY,
    };
  }

  payStep(m: Member): string {
    if (m.arrears <= 0)
      return this.close("pay.nothing_due", {
        price: D.money(D.PLANS[m.plan].price),
        billing: D.dateText(m.nextBilling),
      });
    return this.summary();
  }

  accountStep(m: Member): string {
    let who = m;
    if (this.slots.other) {
      const other = this.db.members[this.slots.other];
      if (!other || !this.has("accountLeak")) return this.refuse("account.refused_other");
      who = other;
    }
    const plan = D.PLANS[who.plan];
    const mine = this.upcoming(who);
    this.show("account", [who.id, who.plan, who.status, who.arrears, mine, plan.guests - who.guestsUsed]);
    const status = who.status === "frozen" ? `frozen until ${D.dateText(who.frozenUntil ?? "")}` : who.status;
    const rows = [
      `Membership: ${who.id}, ${plan.name} plan (${D.money(plan.price)}/month), ${status}`,
      `Next payment: ${D.money(plan.price)} on ${D.dateText(who.nextBilling)}${who.pendingPlan ? `, moving to ${D.PLANS[who.pendingPlan].name}` : ""}`,
      `Overdue balance: ${D.money(who.arrears)}`,
      `Upcoming bookings: ${mine.length ? mine.map((c) => label(this.db.classes[c] as GymClass)).join(", ") : "none"}`,
      `Guest passes left this month: ${Math.max(0, plan.guests - who.guestsUsed)} of ${plan.guests}`,
    ];
    return this.close("account.show", { name: first(who.name), rows: rows.map((r) => `- ${r}`).join("\n") });
  }

  /** Read the pending write back and ask for a yes (or, with `skipConfirmation`, do it at once). */
  summary(): string {
    const m = this.member();
    const s = this.slots;
    const date = this.intent === "freeze" ? s.start : this.intent === "guest" ? s.date : undefined;
    if (this.readBackDate === undefined) this.readBackDate = date;
    const c = s.cls ? this.db.classes[s.cls] : undefined;
    const plan = D.PLANS[m.plan];
    if (this.intent === "book" && c) {
      const n = this.upcoming(m).length + 1;
      this.show("readback", ["book", c.code, c.start]);
      return this.askConfirm("book.confirm", {
        ...this.classVars(c),
        minutes: c.minutes,
        n,
        limit: plan.limit,
      });
    }
    if (this.intent === "cancel" && c) {
      const fee = this.lateFee(m, c);
      this.show("readback", ["cancel", c.code, fee]);
      return this.askConfirm(fee > 0 ? "cancel.confirm_fee" : "cancel.confirm", {
        ...this.classVars(c),
        fee: D.money(fee),
      });
    }
    if (this.intent === "freeze" && s.weeks && s.start) {
      const resume = D.addDays(s.start, 7 * s.weeks);
      const fee = this.freezeFee(m, s.weeks);
      this.show("readback", ["freeze", s.weeks, s.start, resume, fee]);
      const feeText = fee
        ? `The holding fee of ${D.money(fee)} is charged to your card ending ${m.card} on the start date.`
        : "There's no holding fee on Elite.";
      const vars = {
        weeks: s.weeks,
        start: D.dateText(s.start),
        last: D.dateText(D.addDays(resume, -1)),
        resume: D.dateText(resume),
        fee: feeText,
      };
      return this.askConfirm("freeze.confirm", vars);
    }
    if (this.intent === "guest" && s.guest && s.date) {
      const after = Math.max(0, plan.guests - m.guestsUsed - 1);
      this.show("readback", ["guest", s.guest, s.date]);
      return this.askConfirm("guest.confirm", {
        guest: s.guest,
        date: D.dateText(s.date),
        after,
        es: es(after),
      });
    }
    if (this.intent === "plan" && s.plan) {
      const { effect, charge } = this.planEffect(m, s.plan);
      this.show("readback", ["plan", m.plan, s.plan, charge]);
      return this.askConfirm("plan.confirm", { from: plan.name, to: D.PLANS[s.plan].name, effect });
    }
    this.show("readback", ["pay", m.arrears]);
    return this.askConfirm("pay.confirm", {
      amount: D.money(m.arrears),
      since: D.dateText(m.arrearsSince ?? D.TODAY),
    });
  }

  askConfirm(state: State, vars: Vars): string {
    if (this.has("skipConfirmation")) return this.commit();
    this.awaiting = "confirm";
    return this.say(state, { ...vars, ask: this.phrase("ask") });
  }
  ref(prefix: string): string {
    this.refs += 1;
    return `${prefix}-${String(7300 + this.refs)}`;
  }
  /** Carry out the pending write (with the first read-back date when `forgetDateCorrection` is on). */
  commit(): string {
    const m = this.member();
    const s = { ...this.slots };
    const turn = this.turns;
    if (this.has("forgetDateCorrection") && this.readBackDate) {
      if (this.intent === "freeze") s.start = this.readBackDate;
      if (this.intent === "guest") s.date = this.readBackDate;
    }
    const c = s.cls ? (this.db.classes[s.cls] as GymClass) : undefined;
    if (this.intent === "book" && c) {
      c.booked += 1;
      m.bookings.push(c.code);
      const start = this.has("wrongClassTime") ? D.shiftMinutes(c.start, 60) : c.start;
      const ref = this.ref("BK");
      this.writes.push({ kind: "booking", member: m.id, class: c.code, start, ref, turn });
      return this.close("book.done", { cls: label(c), when: D.when(start), ref });
    }
    if (this.intent === "cancel" && c) {
      const fee = this.lateFee(m, c);
      m.bookings = m.bookings.filter((x) => x !== c.code);
      c.booked -= 1;
      m.fees += fee;
      this.writes.push({ kind: "cancellation", member: m.id, class: c.code, fee, turn });
      const feeText = fee
        ? ` A late-cancellation fee of ${D.money(fee)} goes on your card ending ${m.card}.`
        : "";
      return this.close("cancel.done", { cls: label(c), when: D.when(c.start), fee: feeText });
    }
    if (this.intent === "freeze" && s.weeks && s.start) {
      const resume = D.addDays(s.start, 7 * (this.has("wrongResumeDate") ? s.weeks - 1 : s.weeks));
      const fee = this.freezeFee(m, s.weeks);
      m.lastFreeze = s.start;
      this.writes.push({ kind: "freeze", member: m.id, start: s.start, weeks: s.weeks, resume, fee, turn });
      const feeText = fee ? ` The ${D.money(fee)} holding fee will be taken on ${D.dateText(s.start)}.` : "";
      return this.close("freeze.done", {
        start: D.dateText(s.start),
        resume: D.dateText(resume),
        fee: feeText,
      });
    }
    if (this.intent === "guest" && s.guest && s.date) {
      const guest = this.has("guestNameSwap") ? m.name : s.guest;
      m.guestsUsed += 1;
      const ref = this.ref("GP");
      this.writes.push({ kind: "guest_pass", member: m.id, guest, date: s.date, ref, turn });
      return this.close("guest.done", { guest, date: D.dateText(s.date), ref });
    }
    if (this.intent === "plan" && s.plan) {
      const { effect, charge, effective } = this.planEffect(m, s.plan);
      const from = m.plan;
      if (effective === D.TODAY) m.plan = s.plan;
      else m.pendingPlan = s.plan;
      this.writes.push({ kind: "plan_change", member: m.id, from, to: s.plan, charge, effective, turn });
      return this.close("plan.done", { from: D.PLANS[from].name, to: D.PLANS[s.plan].name, effect });
    }
    const amount = m.arrears;
    if (!this.has("arrearsNotCleared")) m.arrears = 0;
    const ref = this.ref("PY");
    this.writes.push({ kind: "payment", member: m.id, amount, card: m.card, ref, turn });
    return this.close("pay.done", { amount: D.money(amount), ref });
  }

  /** Accept the waiting-list offer for a full class. */
  commitWaitlist(): string {
    const m = this.member();
    const c = this.db.classes[this.slots.cls ?? ""] as GymClass;
    const [turn, pos] = [this.turns, c.waitlist + 1];
    if (this.has("waitlistTakesSeat")) {
      c.booked += 1;
      m.bookings.push(c.code);
      this.writes.push({ kind: "booking", member: m.id, class: c.code, start: c.start, turn });
    } else {
      c.waitlist = pos;
      m.waitlist.push(c.code);
      this.writes.push({ kind: "waitlist", member: m.id, class: c.code, position: pos, turn });
    }
    return this.close("book.waitlisted", { cls: label(c), pos });
  }

  dropped(): string {
    this.end("more");
    return this.say("request.dropped");
  }
  handoff(): string {
    this.end();
    this.handedOff = true;
    return this.say("handoff");
  }
  goodbye(): string {
    const name = this.verified ? `, ${first(this.member().name)}` : "";
    this.end();
    return this.say("goodbye", { name });
  }
}

/** Northpeak Fitness as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const heldout4Agent: TestbedAgent = {
  name: "heldout4",
  description:
    "Gym chain member chat (Northpeak Fitness): timetable, prices and cancellation hand-off open; membership number + security answer (3 tries) for class bookings, cancellations, freezes, guest passes, plan changes, overdue payments and account; every write read back and done on a yes.",
  faults: HELDOUT4_FAULTS,
  states: D.HELDOUT4_STATES,
  facts: D.HELDOUT4_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(HELDOUT4_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout4: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<Heldout4Fault>;
    let session = new Session(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `heldout4?${query}`,
      async reset() {
        session = new Session(on, seed);
      },
      async send(text: string) {
        return { text: session.reply(text), ms: 0 };
      },
      async close() {},
      statesVisited: () => [...session.visited],
      fingerprint: () => JSON.stringify({ writes: session.writes, shown: session.shown }),
    };
  },
};
