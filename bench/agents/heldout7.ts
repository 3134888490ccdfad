/**
 * Brackenfield Borough Council resident services desk: a deterministic chat bot (keyword parsers and a table
 * of services, each described by its sign-in need, a guard, ordered fields with their checks and a finish
 * step; no LLM), the seventh held-out target for the boundary suite. Opening hours, charges and street reports
 * need no sign-in; permits, bulky waste and council tax need the council tax account number and the
 * property's postcode (three tries, then sign-in is blocked and an adviser offered). Every write is read back
 * and made only on a clear yes; a change given at that point is checked and read back again.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import type { Account, Booking, Permit, Phrase, State, Street } from "./heldout7-data.ts";
import * as D from "./heldout7-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const HELDOUT7_FAULTS = [
  ...(["balanceWithoutPostcode", "fourthSignInAttempt", "bulkyBookedWithoutYes"] as const),
  ...(["anyReplyConfirms", "itemCapOffByOne", "permitCapOffByOne"] as const),
  ...(["visitorAllowanceIgnored", "discountIgnoresAdults", "itemFeeIgnoresQuantity"] as const),
  ...(["noticeInCalendarDays", "renewalFromToday", "otherAccountShown"] as const),
  ...(["collectionDateCorrectionLost", "changedRegMistyped", "sameDayCancelAllowed"] as const),
  ...(["planSwitchDespiteArrears", "instalmentRemainderDropped", "secondPermitAtFirstPrice"] as const),
  ...(["potholeDepthOffByOne", "missedBinWindowOffByOne"] as const),
];
export type Heldout7Fault = (typeof HELDOUT7_FAULTS)[number];

type TaskId = Exclude<D.Intent, "report_bin" | "report_pothole">;
type Texts = "bin" | "reg" | "permit" | "newReg" | "banned" | "date" | "booking" | "since" | "other";
type Others = { kind?: "bin" | "pothole"; street?: Street | null; items?: Record<string, number> };
type Slots = Partial<Record<Texts, string> & Record<"depth" | "days" | "months" | "adults", number>> & Others;
type Slot = keyof Slots;
type Vars = Record<string, string | number>;
/** A refusal: its state and values; with `retry` the field is cleared and asked for again. */
type Refusal = { state: State; vars?: Vars; retry?: boolean };
type Field = { slot: Slot; ask: State; need?: (s: Desk) => boolean; vars?: (s: Desk) => Vars } & {
  check?: (s: Desk) => Refusal | undefined;
};
/** A pending write: what was read back (state, values, record) and how to do it. */
type Write = { state: State; vars: Vars; record: unknown[]; commit: () => string };
/** A service: sign-in needed, how it reads values, a guard (a refusal or a reply), its fields, its finish. */
type Service = { signIn: boolean; parse?: (s: Desk, t: string, l: string, asked?: Slot) => Slots } & {
  guard?: (s: Desk) => Refusal | string | undefined;
} & { fields?: readonly Field[]; finish: (s: Desk) => string | Write };

const taskOf = (i: D.Intent): TaskId => (i === "report_bin" || i === "report_pothole" ? "report" : i);
const SHOWS: ReadonlySet<TaskId> = new Set(["permit_list", "waste_list", "ctax_balance"]);
const first = (name: string) => name.split(" ")[0] ?? name;
const R = D.RULE;
const stop = (state: State, vars?: Vars): Refusal => ({ state, vars });
const again = (state: State, vars?: Vars): Refusal => ({ state, vars, retry: true });
const field = (slot: Slot, ask: State, more: Partial<Field> = {}): Field => ({ slot, ask, ...more });
const readBack = (state: State, vars: Vars, record: unknown[], commit: () => string) =>
  ({ state, vars, record, commit }) as Write;

const address = (a: Account) => `${a.house} ${a.street}, ${a.postcode}`;
const streetOf = (a: Account) => D.STREETS.find((st) => st.name === a.street) as Street;
const myStreet = (s: Desk) => streetOf(s.account());
const permitOf = (s: Desk) => s.account().permits.find((p) => p.reg === s.slots.permit) as Permit;
const bookingOf = (s: Desk) => s.account().bookings.find((b) => b.ref === s.slots.booking) as Booking;
const numbered = (rows: string[]) => rows.map((r, i) => `${i + 1}. ${r}`).join("\n");

/* ---------- the services ---------- */

const otherGuard = (s: Desk) =>
  s.slots.other && !s.has("otherAccountShown") ? stop("id.refused_other") : undefined;

/** A missed bin is reported after its round, and within two working days of it. */
const binCheck = (s: Desk): Refusal | undefined => {
  const st = s.slots.street;
  if (st === null) return again("report.ask_street", { hint: s.phrase("unknown_street") });
  if (!st || s.slots.kind !== "bin") return undefined;
  const last = D.addDays(D.TODAY, -((D.weekday(D.TODAY) - st.binDay + 7) % 7));
  if (last === D.TODAY) return stop("report.refused_not_due", { street: st.name });
  const limit = R.missedBinWorkingDays + (s.has("missedBinWindowOffByOne") ? 1 : 0);
  if (D.workingDaysSince(last, D.TODAY) <= limit) return undefined;
  const [date, next] = [D.longDate(last), D.longDate(D.addDays(last, 7))];
  return stop("report.refused_too_late", { street: st.name, date, next, limit: R.missedBinWorkingDays });
};

const kindOf = (l: string, asked?: Slot) => {
  if (/\bpot ?holes?\b/.test(l)) return "pothole";
  return D.INTENTS[0][1].test(l) || (asked === "kind" && /\bbins?\b/.test(l)) ? "bin" : undefined;
};
const report: Service = {
  signIn: false,
  parse: (_s, _t, l, asked) => ({
    kind: kindOf(l, asked),
    street: D.findStreet(l) ?? (asked === "street" ? null : undefined),
    bin: D.findBin(l),
    depth: D.findDepth(l, asked === "depth"),
  }),
  fields: [
    field("kind", "report.ask_kind"),
    field("street", "report.ask_street", { check: binCheck }),
    field("bin", "report.ask_bin", {
      need: (s) => s.slots.kind === "bin",
      vars: (s) => ({ street: s.slots.street?.name ?? "", day: D.dayName(s.slots.street?.binDay ?? 0) }),
    }),
    field("depth", "report.ask_depth", { need: (s) => s.slots.kind === "pothole" }),
  ],
  finish: (s) => {
    const { kind, street, bin = "", depth = 0 } = s.slots;
    const name = street?.name ?? "";
    const urgent = s.has("potholeDepthOffByOne") ? depth > R.urgentDepthMm : depth >= R.urgentDepthMm;
    const what =
      kind === "bin"
        ? `a missed ${bin} collection on ${name}`
        : `a pothole about ${depth} mm deep on ${name}`;
    const by = D.longDate(D.shiftWorkingDays(D.TODAY, kind === "bin" ? 1 : 5));
    const mm = `our ${R.urgentDepthMm} mm repair threshold`;
    const outcome =
      kind === "bin"
        ? `A crew will come back for it by the end of ${by}.`
        : urgent
          ? `At ${depth} mm it meets ${mm}, so it will be made safe by ${by}.`
          : `It's under ${mm}, so a highways inspector will assess it within 28 days.`;
    const detail = kind === "bin" ? bin : depth;
    return readBack("report.confirm", { what }, ["report", kind, name, detail], () => {
      const ref = s.ref("RP", 5100);
      const priority = kind === "bin" ? "return" : urgent ? "urgent" : "inspect";
      s.write("report", { type: kind, street: name, detail, priority, ref });
      return s.close("report.logged", { ref, outcome });
    });
  },
};

const zoneGuard = (s: Desk) =>
  myStreet(s).zone ? undefined : stop("permit.refused_no_zone", { street: myStreet(s).name });
/** A guard of a change to one of a list: with none, the (empty) list is shown; with one, that one is meant. */
const pickOne = (s: Desk, slot: "permit" | "booking") => {
  const a = s.account();
  const keys = slot === "permit" ? a.permits.map((p) => p.reg) : D.upcoming(a).map((b) => b.ref);
  if (keys.length === 1) s.slots[slot] ??= keys[0];
  if (keys.length) return undefined;
  const none = s.phrase("none_to_act_on");
  return slot === "permit" ? s.permitList(a, none) : s.bookingList(a, none);
};
const permitParse = (s: Desk, t: string, l: string, asked?: Slot): Slots => {
  const mine = s.account().permits;
  const regs = D.findRegs(t);
  const own = regs.find((r) => mine.some((p) => p.reg === r));
  const pos = asked === "permit" ? D.findPosition(l, mine.length) : undefined;
  const fresh = regs.find((r) => r !== own);
  return {
    permit: own ?? (pos === undefined ? undefined : mine[pos]?.reg),
    newReg: fresh ?? (asked === "newReg" && /[a-z0-9]/.test(l) && !own ? "" : undefined),
  };
};
const permitRow = (p: Permit) => `${p.reg}, valid until ${D.longDate(p.expires)}`;
const whichPermit = field("permit", "permit.ask_which", {
  vars: (s) => ({ list: numbered(s.account().permits.map(permitRow)) }),
});
const regCheck = (slot: "reg" | "newReg") => (s: Desk) => {
  const reg = s.slots[slot];
  if (reg === "") return again("permit.bad_reg");
  const taken = Object.values(s.db.accounts).some((a) => a.permits.some((p) => p.reg === reg));
  return taken ? again("permit.refused_duplicate_reg", { reg: reg ?? "" }) : undefined;
};
/** The last day of a permit taken out today. */
const YEAR_ON = D.addDays(D.addYears(D.TODAY, 1), -1);
const permitFee = (s: Desk, position: number) =>
  s.has("secondPermitAtFirstPrice") ? R.permitPrices[0] : (R.permitPrices[position] ?? R.permitPrices[1]);

const permitNew: Service = {
  signIn: true,
  parse: (_s, t, l, asked) => ({
    reg: D.findRegs(t)[0] ?? (asked === "reg" && /[a-z0-9]/.test(l) ? "" : undefined),
  }),
  guard: (s) => {
    const held = s.account().permits;
    const max = R.maxPermits + (s.has("permitCapOffByOne") ? 1 : 0);
    const regs = held.map((p) => p.reg).join(", ");
    const full = stop("permit.refused_max", { count: held.length, regs, max: R.maxPermits });
    return zoneGuard(s) ?? (held.length >= max ? full : undefined);
  },
  fields: [
    field("reg", "permit.ask_reg", {
      vars: (s) => ({ zone: myStreet(s).zone ?? "", street: myStreet(s).name }),
      check: regCheck("reg"),
    }),
  ],
  finish: (s) => {
    const a = s.account();
    const [reg, zone] = [s.slots.reg ?? "", myStreet(s).zone ?? ""];
    const fee = permitFee(s, a.permits.length);
    const expires = YEAR_ON;
    const vars = { reg, zone, fee: D.money(fee), expires: D.longDate(expires), n: a.permits.length + 1 };
    return readBack(
      "permit.confirm_new",
      { ...vars, max: R.maxPermits },
      ["permit", reg, fee, expires],
      () => {
        const ref = s.ref("PP", 2300);
        a.permits.push({ reg, expires, ref });
        s.write("permit", { reg, zone, fee, expires, ref });
        return s.close("permit.issued", { ...vars, ref });
      },
    );
  },
};

const renewable = (s: Desk) => {
  const p = permitOf(s);
  const opens = D.addDays(p.expires, -R.renewWindowDays);
  const vars = { reg: p.reg, expires: D.longDate(p.expires), opens: D.longDate(opens) };
  return D.TODAY >= opens
    ? undefined
    : stop("permit.refused_renew_early", { ...vars, window: R.renewWindowDays });
};
const permitRenew: Service = {
  signIn: true,
  parse: permitParse,
  guard: (s) => zoneGuard(s) ?? pickOne(s, "permit"),
  fields: [{ ...whichPermit, check: renewable }],
  finish: (s) => {
    const p = permitOf(s);
    const until = s.has("renewalFromToday") ? YEAR_ON : D.addYears(p.expires, 1);
    const fee = permitFee(s, s.account().permits.indexOf(p));
    const vars = { reg: p.reg, expires: D.longDate(p.expires), until: D.longDate(until), fee: D.money(fee) };
    return readBack("permit.confirm_renew", vars, ["renew", p.reg, until, fee], () => {
      p.expires = until;
      s.write("renewal", { reg: p.reg, expires: until, fee });
      return s.close("permit.renewed", vars);
    });
  },
};

const permitChange: Service = {
  signIn: true,
  parse: permitParse,
  guard: (s) => zoneGuard(s) ?? pickOne(s, "permit"),
  fields: [
    whichPermit,
    field("newReg", "permit.ask_new_reg", {
      vars: (s) => ({ reg: permitOf(s).reg }),
      check: regCheck("newReg"),
    }),
  ],
  finish: (s) => {
    const p = permitOf(s);
    const to = s.slots.newReg ?? "";
    const vars = { ref: p.ref, reg: p.reg, to, expires: D.longDate(p.expires), fee: D.money(R.changeFee) };
    return readBack("permit.confirm_change", vars, ["change", p.reg, to], () => {
      const written = s.has("changedRegMistyped") ? `${to.slice(0, -2)}${to.at(-1)}${to.at(-2)}` : to;
      s.write("vehicle_change", { from: p.reg, to: written, fee: R.changeFee });
      p.reg = written;
      return s.close("permit.changed", vars);
    });
  },
};

const visitorLeft = (s: Desk) => R.visitorAllowance - s.account().visitorDaysUsed;
const visitor: Service = {
  signIn: true,
  parse: (_s, _t, l, asked) => ({
    days: D.findCount(l, "(visitor )?(days?|passes|permits|vouchers)", asked === "days"),
  }),
  guard: zoneGuard,
  fields: [
    field("days", "visitor.ask_days", {
      vars: (s) => ({ left: visitorLeft(s), allowance: R.visitorAllowance, price: D.money(R.visitorPrice) }),
      check: (s) => {
        const days = s.slots.days ?? 0;
        if (days < 1) return again("visitor.ask_days", { hint: s.phrase("sorry") });
        if (days <= visitorLeft(s) || s.has("visitorAllowanceIgnored")) return undefined;
        const vars = { days, left: visitorLeft(s), allowance: R.visitorAllowance };
        return again("visitor.refused_allowance", vars);
      },
    }),
  ],
  finish: (s) => {
    const a = s.account();
    const days = s.slots.days ?? 0;
    const fee = D.round2(days * R.visitorPrice);
    const vars = {
      days,
      fee: D.money(fee),
      price: D.money(R.visitorPrice),
      zone: myStreet(s).zone ?? "",
    };
    const after = Math.max(0, visitorLeft(s) - days);
    return readBack("visitor.confirm", { ...vars, after }, ["visitor", days, fee], () => {
      a.visitorDaysUsed += days;
      const ref = s.ref("VP", 6400);
      s.write("visitor_days", { days, fee, used: a.visitorDaysUsed, ref });
      return s.close("visitor.done", { ...vars, ref });
    });
  },
};

/** The first collection day on offer: two working days ahead (or, faulty, two calendar days). */
const earliest = (s: Desk) => {
  const lead = R.leadWorkingDays;
  let d = s.has("noticeInCalendarDays") ? D.addDays(D.TODAY, lead) : D.shiftWorkingDays(D.TODAY, lead);
  while (!D.isWorkingDay(d)) d = D.addDays(d, 1);
  return d;
};
const latest = D.addDays(D.TODAY, R.maxAheadDays);
const window = (s: Desk) => ({ earliest: D.longDate(earliest(s)), latest: D.longDate(latest) });
/** Items named replace the list; at the read-back they set their counts, or with "add…"/"remove…" amend it. */
const wasteParse = (s: Desk, _t: string, l: string, asked?: Slot): Slots => {
  const [keep = "", drop = ""] = l.split(/\binstead of\b/);
  const found = D.findItems(keep);
  const date = D.findDate(l);
  if (!found) return { date };
  const items = { ...(s.slots.items ?? {}) };
  if (!s.slots.items || asked === "items") return { items: found.items, banned: found.banned, date };
  const removing = /\b(remove|without|drop|take off|leave (off|out)|not the|minus)\b/.test(l);
  const adding = /\b(add|also|plus|another|extra|as well)\b/.test(l);
  for (const [id, n] of Object.entries(found.items))
    if (removing) delete items[id];
    else items[id] = (adding ? (items[id] ?? 0) : 0) + n;
  for (const id of Object.keys(D.findItems(drop)?.items ?? {})) delete items[id];
  return { items, banned: found.banned, date };
};
const itemsCheck = (s: Desk): Refusal | undefined => {
  const n = Object.values(s.slots.items ?? {}).reduce((a, b) => a + b, 0);
  const what = s.slots.banned;
  s.slots.banned = undefined;
  if (what) return again("waste.refused_item", { what });
  if (n === 0) return again("waste.ask_items", { max: R.maxItems });
  const cap = R.maxItems + (s.has("itemCapOffByOne") ? 1 : 0);
  return n > cap ? again("waste.refused_too_many_items", { n, max: R.maxItems }) : undefined;
};
const dateCheck = (s: Desk): Refusal | undefined => {
  const d = s.slots.date ?? "";
  const vars = { date: D.longDate(d), ...window(s) };
  const why = D.weekday(d) % 6 ? "a bank holiday" : "a weekend";
  if (!D.isWorkingDay(d)) return again("waste.refused_closed_day", { ...vars, why });
  if (d < earliest(s)) return again("waste.refused_short_notice", { ...vars, lead: R.leadWorkingDays });
  return d > latest ? again("waste.refused_too_far", { ...vars, days: R.maxAheadDays }) : undefined;
};
const wasteBook: Service = {
  signIn: true,
  parse: wasteParse,
  fields: [
    field("items", "waste.ask_items", { vars: () => ({ max: R.maxItems }), check: itemsCheck }),
    field("date", "waste.ask_date", { vars: window, check: dateCheck }),
  ],
  finish: (s) => {
    const a = s.account();
    const items = { ...(s.slots.items ?? {}) };
    const once = s.has("itemFeeIgnoresQuantity");
    const per = (id: string, n: number) => (D.ITEMS[id]?.price ?? 0) * (once ? 1 : n);
    const fee = Object.entries(items).reduce((sum, [id, n]) => sum + per(id, n), 0);
    const date = s.slots.date ?? "";
    s.firstDate ??= date;
    const vars = {
      date: D.longDate(date),
      items: D.itemList(items),
      fee: D.money(fee),
      address: address(a),
    };
    return readBack("waste.confirm", vars, ["bulky", date, items, fee], () => {
      const when = s.has("collectionDateCorrectionLost") ? (s.firstDate ?? date) : date;
      const ref = s.ref("BW", 3950);
      a.bookings.push({ ref, date: when, items, fee });
      s.write("bulky_booking", { date: when, items, fee, ref });
      return s.close("waste.booked", { ...vars, date: D.longDate(when), ref });
    });
  },
};

const wasteCancel: Service = {
  signIn: true,
  parse: (s, _t, l, asked) => {
    const mine = D.upcoming(s.account());
    const [ref, date] = [/\bbw-?(\d{4})\b/.exec(l)?.[1], D.findDate(l)];
    const pos = asked === "booking" ? D.findPosition(l, mine.length) : undefined;
    const hit = mine.find((b) => b.ref === `BW-${ref}`) ?? mine.find((b) => b.date === date);
    return { booking: (hit ?? (pos === undefined ? undefined : mine[pos]))?.ref };
  },
  guard: (s) => pickOne(s, "booking"),
  fields: [
    field("booking", "waste.ask_which", {
      vars: (s) => ({ list: numbered(D.upcoming(s.account()).map(D.bookingRow)) }),
      check: (s) =>
        bookingOf(s).date === D.TODAY && !s.has("sameDayCancelAllowed")
          ? stop("waste.refused_same_day", { ref: bookingOf(s).ref })
          : undefined,
    }),
  ],
  finish: (s) => {
    const a = s.account();
    const b = bookingOf(s);
    const refund = D.TODAY <= D.shiftWorkingDays(b.date, -R.refundWorkingDays) ? b.fee : 0;
    const text = refund
      ? `The ${D.money(b.fee)} you paid will be refunded in full.`
      : `Because that's less than ${R.refundWorkingDays} working days before the collection, the ${D.money(b.fee)} isn't refundable.`;
    const vars = { ref: b.ref, date: D.longDate(b.date), items: D.itemList(b.items), refund: text };
    return readBack("waste.confirm_cancel", vars, ["cancel", b.ref, refund], () => {
      a.bookings = a.bookings.filter((x) => x !== b);
      s.write("bulky_cancellation", { ref: b.ref, refund });
      return s.close("waste.cancelled", vars);
    });
  },
};

const ctaxBalance = (s: Desk): string => {
  const a = s.viewed();
  const c = a.ctax;
  const { one, rest } = D.instalments(c.next, c.months, false);
  s.show("ctax", [a.id, c.annual, c.arrears, c.next, c.months, c.discount]);
  const rows = [
    `2025/26: annual charge ${D.money(c.annual)}, ${c.arrears ? `${D.money(c.arrears)} overdue` : "paid up to date"}`,
    `2026/27: ${D.money(c.next)} in ${c.months} monthly instalments from 1 April 2026 (${D.money(one)}, then ${D.money(rest)})`,
    `Single-person discount: ${c.discount ? "yes" : "no"}`,
  ];
  const vars = { address: address(a), band: c.band, name: first(a.name) };
  return s.close("ctax.balance", { ...vars, rows: rows.map((r) => `- ${r}`).join("\n") });
};

const ctaxPlan: Service = {
  signIn: true,
  parse: (_s, _t, l, asked) => ({ months: D.findMonths(l, asked === "months") }),
  guard: (s) => {
    const c = s.account().ctax;
    const owing = c.arrears > 0 && !s.has("planSwitchDespiteArrears");
    return owing ? stop("ctax.refused_arrears", { arrears: D.money(c.arrears) }) : undefined;
  },
  fields: [
    field("months", "ctax.ask_plan", {
      vars: (s) => ({ bill: D.money(s.account().ctax.next), months: s.account().ctax.months }),
      check: (s) => {
        const c = s.account().ctax;
        const hint = s.slots.months === c.months ? s.phrase("same_plan", { months: c.months }) : "";
        return hint ? again("ctax.ask_plan", { hint, bill: D.money(c.next), months: c.months }) : undefined;
      },
    }),
  ],
  finish: (s) => {
    const a = s.account();
    const months = s.slots.months === 10 ? 10 : 12;
    const { one, rest } = D.instalments(a.ctax.next, months, s.has("instalmentRemainderDropped"));
    const last = months === 10 ? "1 January 2027" : "1 March 2027";
    const vars = { months, first: D.money(one), rest: D.money(rest), last, bill: D.money(a.ctax.next) };
    return readBack("ctax.confirm_plan", vars, ["plan", months, one, rest], () => {
      a.ctax.months = months;
      s.write("instalment_plan", { months, first: one, rest });
      return s.close("ctax.plan_changed", vars);
    });
  },
};

const ctaxDiscount: Service = {
  signIn: true,
  parse: (_s, _t, l, asked) => ({ adults: D.findAdults(l, asked === "adults"), since: D.findDate(l, true) }),
  guard: (s) => (s.account().ctax.discount ? stop("ctax.refused_already_discount") : undefined),
  fields: [
    field("adults", "ctax.ask_adults", {
      check: (s) => {
        const n = s.slots.adults ?? 0;
        if (n < 1) return again("ctax.ask_adults");
        const alone = n === 1 || s.has("discountIgnoresAdults");
        return alone ? undefined : stop("ctax.refused_adults", { adults: n });
      },
    }),
    field("since", "ctax.ask_since", {
      check: (s) => {
        const d = s.slots.since ?? "";
        if (d > D.TODAY) return again("ctax.ask_since", { hint: s.phrase("future_date") });
        const vars = { start: D.longDate(R.yearStart), date: D.longDate(d) };
        return d < R.yearStart ? again("ctax.refused_backdate", vars) : undefined;
      },
    }),
  ],
  finish: (s) => {
    const a = s.account();
    const since = s.slots.since ?? D.TODAY;
    const days = D.dayCount(since, R.yearEnd) + 1;
    const credit = D.round2((a.ctax.annual * R.discountRate * days) / 365);
    const after = D.round2(a.ctax.next * (1 - R.discountRate));
    const vars = { since: D.longDate(since), credit: D.money(credit), bill: D.money(a.ctax.next) };
    const all = { ...vars, after: D.money(after) };
    return readBack("ctax.confirm_discount", all, ["discount", since, credit, after], () => {
      a.ctax.discount = true;
      a.ctax.next = after;
      s.write("single_person_discount", { since, adults: s.slots.adults ?? 0, credit, after });
      return s.close("ctax.discount_applied", all);
    });
  },
};

const prices = (s: Desk): string => {
  const items = Object.values(D.ITEMS).map((it) => `${it.one} ${D.money(it.price)}`);
  s.show("prices", [R.permitPrices, R.visitorPrice, R.maxItems]);
  const fees = [...R.permitPrices, R.changeFee, R.visitorPrice].map(D.money);
  const [first = "", second = "", change = "", visitor = ""] = fees;
  const vars = { items: items.join(", "), maxItems: R.maxItems, lead: R.leadWorkingDays, first, second };
  const more = { change, visitor, maxPermits: R.maxPermits, allowance: R.visitorAllowance };
  return s.close("info.prices", { ...vars, ...more });
};

const SERVICES: Record<TaskId, Service> = {
  hours: { signIn: false, finish: (s) => s.close("info.hours") },
  prices: { signIn: false, finish: prices },
  report,
  permit_new: permitNew,
  permit_renew: permitRenew,
  permit_change: permitChange,
  permit_list: { signIn: true, guard: otherGuard, finish: (s) => s.permitList(s.viewed()) },
  visitor,
  waste_book: wasteBook,
  waste_list: { signIn: true, guard: otherGuard, finish: (s) => s.bookingList(s.viewed()) },
  waste_cancel: wasteCancel,
  ctax_balance: { signIn: true, guard: otherGuard, finish: ctaxBalance },
  ctax_plan: ctaxPlan,
  ctax_discount: ctaxDiscount,
};

/* ---------- the dialogue engine ---------- */

type Awaiting = Slot | "account" | "postcode" | "confirm" | "offer" | "more";
type Auth = { pending?: string; postcode?: string; stray?: boolean; tries: number; locked?: boolean };

/** One conversation at the desk: records, sign-in, the current service and the privileged trace. */
class Desk {
  readonly db = D.freshDb();
  readonly rng: () => number;
  readonly visited: State[] = [];
  readonly writes: Record<string, unknown>[] = [];
  readonly shown: [string, unknown][] = [];
  pre: string[] = [];
  turns = 0;
  refs = 0;
  signedIn?: string;
  /** Sign-in in progress: account number and postcode given, a reply that was no postcode, failures, lock. */
  auth: Auth = { tries: 0 };
  handedOff = false;
  task?: TaskId;
  slots: Slots = {};
  pendingWrite?: Write;
  firstDate?: string;
  awaiting?: Awaiting;
  /** What was said in a signed-in service before sign-in, parsed once the account is known. */
  early: string[] = [];

  constructor(
    readonly faults: ReadonlySet<Heldout7Fault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }
  has = (f: Heldout7Fault): boolean => this.faults.has(f);
  phrase(key: State | Phrase, vars: Vars = {}): string {
    const options = D.WORDING[key];
    const text = options[Math.floor(this.rng() * options.length)] ?? "";
    return text.replace(/\{(\w+)\}/g, (_, k: string) => {
      if (vars[k] !== undefined) return String(vars[k]);
      if (k === "services" || k === "more" || k === "ask") return this.phrase(k);
      return k === "council" ? D.COUNCIL : "";
    });
  }
  say(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.visited.push(state);
    const text = [...this.pre, this.phrase(key, vars)].join(" ");
    this.pre = [];
    return text;
  }
  close(state: State, vars: Vars = {}): string {
    this.begin(undefined, "more");
    return this.say(state, vars);
  }
  show = (what: string, value: unknown): number => this.shown.push([what, value]);
  write(kind: string, w: Record<string, unknown>): void {
    this.writes.push({ kind, account: this.signedIn ?? null, ...w, turn: this.turns });
  }
  ref = (prefix: string, base: number): string => `${prefix}-${base + ++this.refs}`;

  account = (): Account => this.db.accounts[this.signedIn ?? ""] as Account;
  /** The account a read-out shows: the signed-in one or (leaking) another named in the request. */
  viewed(): Account {
    return (this.slots.other && this.db.accounts[this.slots.other]) || this.account();
  }
  permitList(a: Account, hint = ""): string {
    const rows = a.permits.map((p) => `- ${permitRow(p)}, zone ${streetOf(a).zone} (${p.ref})`).join("\n");
    this.show("permits", [a.id, a.permits.map((p) => [p.reg, p.expires]), a.visitorDaysUsed]);
    const vars = { hint, address: address(a), rows: rows || "- none", used: a.visitorDaysUsed };
    return this.close("permit.list", { ...vars, allowance: R.visitorAllowance, year: D.TODAY.slice(0, 4) });
  }
  bookingList(a: Account, hint = ""): string {
    const mine = D.upcoming(a);
    this.show("bookings", [a.id, mine.map((b) => [b.ref, b.date, b.items, b.fee])]);
    const rows = mine.map((b) => `- ${D.bookingRow(b)}`).join("\n");
    return this.close("waste.list", { hint, rows: rows || "- none booked" });
  }

  /** Start a service (or none), forgetting the last one's values. */
  begin(task?: TaskId, awaiting?: Awaiting): void {
    Object.assign(this, {
      task,
      awaiting,
      slots: {},
      early: [],
      pendingWrite: undefined,
      firstDate: undefined,
    });
  }

  /** Reply to one resident turn. */
  reply(t: string): string {
    this.turns += 1;
    const l = t.toLowerCase().trim();
    const prev = this.awaiting;
    this.awaiting = undefined;
    if (this.handedOff) return this.say("handoff", {}, "queued");
    if (D.HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (prev === "offer" && D.YES.test(l)) return this.handoff();
    if (prev === "confirm" && this.task) return this.gate(t, l);
    const intent = D.detectIntent(l);
    const task = intent && taskOf(intent);
    let progress = false;
    if (task && task !== this.task) {
      this.begin(task);
      progress = true;
    }
    if (this.task) progress = this.absorb(t, l, prev) || progress;
    if (!this.signedIn) progress = this.absorbSignIn(t, prev, intent !== undefined) || progress;
    if (!this.task) {
      if (prev === "offer" && D.NO.test(l)) return this.say("dropped");
      if (D.BYE.test(l) || D.NO.test(l)) return this.goodbye();
      if (progress) this.pre.push(this.phrase("noted"));
      const opener = progress || this.turns === 1 || D.GREETING.test(l) || (prev === "more" && D.YES.test(l));
      return this.say(opener ? "greet" : "fallback");
    }
    if (!progress && D.NO.test(l)) return this.dropped();
    if (!progress && prev) this.pre.push(this.phrase("sorry"));
    return this.step();
  }

  /** Take the current service's values from the text; true when one changed. */
  absorb(t: string, l: string, prev?: Awaiting): boolean {
    const service = SERVICES[this.task as TaskId];
    if (!this.signedIn && service.signIn) {
      this.early.push(t);
      return false;
    }
    const before = JSON.stringify(this.slots);
    const asked = prev === "account" || prev === "postcode" ? undefined : (prev as Slot | undefined);
    const found = service.parse?.(this, t, l.replace(/\bct[\s-]?\d{8}\b/g, " "), asked) ?? {};
    const given = Object.entries(found).filter(([, v]) => v !== undefined);
    Object.assign(this.slots, Object.fromEntries(given));
    const other = SHOWS.has(this.task as TaskId) ? D.findAccount(t, false) : undefined;
    if (other && other !== this.signedIn) this.slots.other = other;
    return JSON.stringify(this.slots) !== before;
  }

  absorbSignIn(t: string, prev: Awaiting | undefined, hasIntent: boolean): boolean {
    const u = this.auth;
    const id = D.findAccount(t, prev === "account");
    if (id !== undefined && id !== u.pending) u.postcode = undefined;
    u.pending = id ?? u.pending;
    const pc = u.pending ? D.findPostcode(t.replace(/\bct[\s-]?\d{8}\b/gi, " ")) : undefined;
    u.postcode = pc ?? u.postcode;
    const stray = !!u.pending && !pc && prev === "postcode" && id === undefined && !hasIntent;
    u.stray ||= stray;
    return id !== undefined || pc !== undefined || stray;
  }

  /** The reply that stops a signed-in service short of sign-in, if any. */
  signInStep(): string | undefined {
    const u = this.auth;
    if (this.signedIn) return undefined;
    if (u.locked) {
      this.begin(undefined, "offer");
      return this.say("id.locked");
    }
    if (!u.pending) {
      const bad = u.pending === "" ? this.phrase("bad_account") : "";
      u.pending = undefined;
      this.awaiting = "account";
      return this.say("id.ask_account", { bad });
    }
    const a = this.db.accounts[u.pending];
    if (a && this.task === "ctax_balance" && this.has("balanceWithoutPostcode")) return this.enter(a);
    if (!u.postcode) {
      const hint = this.phrase(u.stray ? "not_postcode" : "thanks");
      u.stray = false;
      this.awaiting = "postcode";
      return this.say("id.ask_postcode", { hint });
    }
    const ok = a !== undefined && D.samePostcode(a.postcode, u.postcode);
    u.postcode = undefined;
    if (ok) return this.enter(a);
    u.tries += 1;
    const limit = this.has("fourthSignInAttempt") ? 4 : 3;
    this.show("sign_in_failed", [u.pending, u.tries]);
    u.locked = u.tries >= limit;
    if (u.locked) return this.signInStep();
    const n = limit - u.tries;
    this.awaiting = "postcode";
    return this.say("id.mismatch", { left: n === 1 ? "one attempt left" : `${n} attempts left` });
  }
  enter(a: Account): undefined {
    this.signedIn = a.id;
    this.show("signed_in", [a.id, this.turns]);
    this.pre.push(this.phrase("signed_in", { name: first(a.name) }));
    for (const e of this.early.splice(0)) this.absorb(e, e.toLowerCase().trim());
    return undefined;
  }

  /** Run the current service as far as it goes: sign-in, guard, each field in order, then its finish. */
  step(): string {
    const service = SERVICES[this.task as TaskId];
    const blocked = service.signIn ? this.signInStep() : undefined;
    if (blocked) return blocked;
    const g = service.guard?.(this);
    if (typeof g === "string") return g;
    if (g) return this.refuse(g);
    for (const f of service.fields ?? []) {
      if (f.need && !f.need(this)) continue;
      if (this.slots[f.slot] === undefined) {
        this.awaiting = f.slot;
        return this.say(f.ask, f.vars?.(this));
      }
      const r = f.check?.(this);
      if (r) return this.refuse(r, f.slot);
    }
    const out = service.finish(this);
    if (typeof out === "string") return out;
    this.pendingWrite = out;
    this.show("readback", out.record);
    if (this.task === "waste_book" && this.has("bulkyBookedWithoutYes")) return out.commit();
    this.awaiting = "confirm";
    return this.say(out.state, out.vars);
  }
  refuse(r: Refusal, slot?: Slot): string {
    this.show("refused", [r.state, slot ? (this.slots[slot] ?? null) : null]);
    if (!(r.retry && slot)) return this.close(r.state, r.vars);
    this.slots[slot] = undefined;
    this.awaiting = slot;
    return this.say(r.state, r.vars);
  }

  /** At a read-back: a change is checked again, a clear yes commits, a no drops it, a new request switches. */
  gate(t: string, l: string): string {
    const intent = D.detectIntent(l);
    const task = intent && taskOf(intent);
    if (task && task !== this.task && task !== "prices" && task !== "hours") {
      this.begin(task);
      this.absorb(t, l);
      return this.step();
    }
    if (this.absorb(t, l)) {
      this.pre.push(this.phrase("updated"));
      return this.step();
    }
    const commit = (this.pendingWrite as Write).commit;
    if (D.YES.test(l) && !D.HESITANT.test(l)) return commit();
    if (D.NO.test(l)) return this.dropped();
    if (this.has("anyReplyConfirms")) return commit();
    this.pre.push(this.phrase("need_yes"));
    return this.step();
  }
  dropped(): string {
    this.begin(undefined, "more");
    return this.say("dropped");
  }
  handoff(): string {
    this.begin();
    this.handedOff = true;
    this.show("handoff", [this.turns]);
    return this.say("handoff");
  }
  goodbye(): string {
    const name = this.signedIn ? `, ${first(this.account().name)}` : "";
    this.begin();
    return this.say("goodbye", { name });
  }
}

/** The Brackenfield desk as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const heldout7Agent: TestbedAgent = {
  name: "heldout7",
  description:
    "City council resident services desk (Brackenfield): opening hours, charges and missed-bin/pothole reports open; council tax account number + postcode (3 tries) for parking permits, visitor days, bulky-waste bookings and cancellations, and council tax balance, instalments and single-person discount; every write read back and done on a yes.",
  faults: HELDOUT7_FAULTS,
  states: D.HELDOUT7_STATES,
  facts: D.HELDOUT7_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    const known = new Set<string>(HELDOUT7_FAULTS);
    for (const f of faults) if (!known.has(f)) throw new Error(`heldout7: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<Heldout7Fault>;
    let desk = new Desk(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`].filter(Boolean);
    return {
      name: `heldout7?${query.join("&")}`,
      async reset() {
        desk = new Desk(on, seed);
      },
      send: async (text: string) => ({ text: desk.reply(text), ms: 0 }),
      async close() {},
      statesVisited: () => [...desk.visited],
      fingerprint: () => JSON.stringify({ writes: desk.writes, shown: desk.shown }),
    };
  },
};
