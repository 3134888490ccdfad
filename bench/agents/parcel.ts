/**
 * Swiftline Parcels: a deterministic customer chat bot for a parcel carrier (keyword NLU, a dialogue state
 * machine, no LLM), a testbed target for `gauntlet boundary`. Tracking works without sign-in but shows only a
 * coarse status. Anything that changes a delivery needs sign-in: tracking number, the recipient's postcode (two
 * tries), then a 6-digit code texted to the recipient's mobile (three tries, then locked). After it: reschedule,
 * redirect, import-duty payment, safe-place instruction and damage or loss claims. Every change is read back and
 * made only on an explicit yes; a correction at that point updates it, checks it again and reads it back.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import {
  addDays,
  BYE,
  type Db,
  daysBetween,
  findAmount,
  findCard,
  findDate,
  findDescription,
  findHouse,
  findPostcode,
  findStreet,
  findTracking,
  freshDb,
  GREETING,
  HIGH_VALUE,
  HOLIDAYS,
  HUMAN,
  INTENTS,
  type Intent,
  MAX_CODE_TRIES,
  MAX_DAYS_AHEAD,
  MAX_POSTCODE_TRIES,
  MIN_DAYS_AHEAD,
  MIN_PART_PAYMENT,
  MONTHS,
  NO,
  OVERDUE_DAYS,
  PARCEL_FACTS,
  PARCEL_STATES,
  type Parcel,
  type Phrase,
  PLACES,
  RESPONSES,
  type Recipient,
  type State,
  serviceCity,
  stripTracking,
  TODAY,
  TRACK_NOW,
  WEEKDAYS,
  weekday,
  YES,
} from "./parcel-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const PARCEL_FAULTS = [
  "skipCode",
  "anyCode",
  "noLockout",
  "skipRedirectConfirm",
  "acceptSunday",
  "ignoreWindow",
  "ignoreHoliday",
  "ignoreServiceArea",
  "lockerSignature",
  "acceptLowPart",
  "safePlaceSignature",
  "claimOverValue",
  "forgetCorrection",
  "wrongReceipt",
  "wrongSummaryDate",
  "trackingLeak",
] as const;
export type ParcelFault = (typeof PARCEL_FAULTS)[number];

const eur = (n: number) => `€${n.toFixed(2).replace(/\B(?=(\d{3})+\.)/g, ",")}`;
const round2 = (n: number) => Math.round(n * 100) / 100;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const first = (name: string) => name.split(" ")[0] ?? name;
const longDate = (iso: string) => {
  const year = iso.slice(0, 4) === TODAY.slice(0, 4) ? "" : ` ${iso.slice(0, 4)}`;
  const month = cap(MONTHS[Number(iso.slice(5, 7)) - 1] ?? "");
  return `${cap(WEEKDAYS[weekday(iso)] ?? "")} ${Number(iso.slice(8))} ${month}${year}`;
};
const daysAhead = (n: number) => longDate(addDays(TODAY, n));
const address = (p: Parcel) => `${p.street}, ${p.postcode} ${p.city}`;

/** The request the text makes; with one `pending`, only a clear tracking question interrupts it. */
function detectIntent(text: string, pending?: Intent): Intent | undefined {
  const l = stripTracking(text).replace(/\s+/g, " ");
  const found = INTENTS.find(([, re]) => re.test(l))?.[0];
  return found === "track" && pending && pending !== "track" && !TRACK_NOW.test(l) ? undefined : found;
}

type Ask =
  | "tracking"
  | "postcode"
  | "code"
  | "date"
  | "new_postcode"
  | "address"
  | "amount"
  | "card"
  | "place";
type Awaiting = Ask | "house" | "description" | "claim_amount" | "confirm" | "more" | "handoff";
interface Slots {
  date?: string | null;
  newPostcode?: string | null;
  street?: string;
  locker?: boolean;
  amount?: number | "full";
  card?: string | null;
  place?: string;
  house?: string;
  description?: string;
  claimAmount?: number;
}
type Vars = Record<string, string | number>;

/** One conversation: its database copy, dialogue state and privileged record (states, writes, shown values). */
class Session {
  readonly db: Db = freshDb();
  readonly rng: () => number;
  readonly visited: State[] = [];
  readonly writes: Record<string, unknown>[] = [];
  readonly shown: { what: string; value: unknown }[] = [];
  pre: string[] = [];
  turns = 0;
  /** The parcel the account requests are about (set before sign-in, fixed to the recipient's parcels after). */
  parcelId?: string;
  /** A tracking number this turn named (null: a malformed one). */
  mentioned?: string | null;
  postcode?: string | null;
  postcodeOk = false;
  postcodeTries = 0;
  code?: string | null;
  codeSent = false;
  codeTries = 0;
  /** The signed-in recipient. */
  recipientId?: string;
  locked = false;
  postcodeLocked = false;
  handedOff = false;
  ended = false;
  intent?: Intent;
  slots: Slots = {};
  frozen?: Slots;
  awaiting?: Awaiting;
  prev?: Awaiting;

  constructor(
    readonly faults: ReadonlySet<ParcelFault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }

  has(f: ParcelFault): boolean {
    return this.faults.has(f);
  }

  phrase(key: State | Phrase, vars: Vars = {}): string {
    const variants = RESPONSES[key];
    const t = variants[Math.floor(this.rng() * variants.length)] ?? "";
    return t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
  }

  /** The reply: enters `state`, worded from template `key` (default: the state) after any queued prefix. */
  say(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.visited.push(state);
    const all = { menu: /\{menu\}/.test(RESPONSES[key].join("")) ? this.phrase("menu_text") : "", ...vars };
    const text = [...this.pre, this.phrase(key, all)].join(" ");
    this.pre = [];
    return text;
  }

  /** As {@link say}, for a reply that ends the request and asks whether there is anything else. */
  close(state: State, vars: Vars = {}): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.phrase("more") });
  }

  /** A refusal: recorded in the privileged view, then worded; `retry` clears a slot and asks for it again. */
  refuse(state: State, vars: Vars, retry?: [keyof Slots, Awaiting]): string {
    this.show("refused", [state, this.parcelId ?? null, retry ? (this.slots[retry[0]] ?? null) : null]);
    if (!retry) return this.close(state, vars);
    this.slots = { ...this.slots, [retry[0]]: undefined };
    this.awaiting = retry[1];
    return this.say(state, vars);
  }

  show(what: string, value: unknown): void {
    this.shown.push({ what, value });
  }

  parcel(): Parcel {
    return this.db.parcels[this.parcelId ?? ""] as Parcel;
  }

  start(intent: Intent): void {
    this.end();
    this.intent = intent;
  }

  end(awaiting?: "more" | "handoff"): void {
    this.intent = undefined;
    this.slots = {};
    this.frozen = undefined;
    this.awaiting = awaiting;
  }

  switchParcel(id: string): void {
    this.parcelId = id;
    this.postcodeOk = false;
    this.postcode = undefined;
    this.code = undefined;
    this.codeSent = false;
  }

  /** Reply to one user turn. */
  reply(t: string): string {
    this.turns += 1;
    const l = t.toLowerCase().trim();
    this.prev = this.awaiting;
    this.awaiting = undefined;
    this.mentioned = undefined;
    if (this.ended) return this.say("goodbye", {}, "ended");
    if (this.handedOff) return this.say("handoff", {}, "queued");
    if (HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (this.prev === "handoff" && YES.test(l)) return this.handoff();
    if (/\b(bye|goodbye)\b/.test(l)) return this.goodbye();
    if (this.prev === "confirm" && this.intent) return this.gate(t, l);
    const found = detectIntent(l, this.intent);
    let progress = false;
    if (found && found !== this.intent) {
      this.start(found);
      progress = true;
    }
    progress = this.absorbTracking(t) || progress;
    if (!this.intent && this.mentioned !== undefined) this.start("track");
    if (this.intent) progress = this.absorb(t, l, this.intent) || progress;
    if (this.intent && this.intent !== "track" && !this.recipientId)
      progress = this.absorbAuth(t) || progress;
    if (!this.intent) {
      if (BYE.test(l) || (NO.test(l) && this.prev === "more")) return this.goodbye();
      if (this.prev === "handoff" && NO.test(l)) this.pre.push(this.phrase("okay"));
      else if (this.turns === 1 || GREETING.test(l)) return this.say("greet");
      else if (!(this.prev === "more" && YES.test(l)) && !/\b(help|menu|what can you do|options)\b/.test(l))
        return this.say("fallback");
      return this.say("menu");
    }
    if (!progress && NO.test(l)) return this.cancelled();
    if (!progress) this.pre.push(this.phrase("sorry"));
    return this.advance();
  }

  /** Note a tracking number the turn names; before sign-in an account request moves to that parcel. */
  absorbTracking(t: string): boolean {
    const id = findTracking(t, this.prev === "tracking");
    if (id === undefined) return false;
    this.mentioned = id;
    if (id && !this.recipientId && this.intent && this.intent !== "track" && id !== this.parcelId)
      this.switchParcel(id);
    return true;
  }

  /** Take the postcode and the texted code from the text; true when the turn carried either. */
  absorbAuth(t: string): boolean {
    if (!this.parcelId) return false;
    const text = stripTracking(t);
    let got = false;
    if (!this.postcodeOk && (this.prev === "postcode" || this.intent !== "redirect")) {
      const pc = findPostcode(text, this.prev === "postcode");
      if (pc !== undefined) {
        this.postcode = pc;
        got = true;
      }
    }
    if (this.codeSent) {
      const m = /\b(\d{3})[ -]?(\d{3})\b/.exec(text);
      if (m) this.code = `${m[1]}${m[2]}`;
      else if (this.prev === "code" && /\d/.test(text)) this.code = null;
      got = got || m !== null || this.code === null;
    }
    return got;
  }

  /** Take the current request's values from the text; true when one of them changed. */
  absorb(t: string, l: string, intent: Intent): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const text = stripTracking(l);
    const prev = this.prev;
    if (intent === "reschedule") {
      const day = prev === "date" ? /^\D*\b(\d{1,2})\b\D*$/.exec(text)?.[1] : undefined;
      const d = findDate(text) ?? (day ? findDate(`the ${day}th`) : undefined);
      if (d !== undefined) s.date = d;
      else if (prev === "date" && /\d/.test(text)) s.date = null;
    }
    if (intent === "redirect") {
      if (!(prev === "postcode" && !this.recipientId)) {
        const pc = findPostcode(text, prev === "new_postcode");
        if (pc !== undefined) s.newPostcode = pc;
      }
      const street = findStreet(text.replace(/\b\d{4}\s?[a-z]{2}\b/g, " "), prev === "address");
      if (/\blocker\b/.test(text)) {
        s.locker = true;
        s.street = undefined;
      } else if (street) {
        s.street = street;
        s.locker = undefined;
      }
    }
    if (intent === "duty") {
      if (/\b(in full|full amount|the full|all of it|everything|whole (amount|thing)|the lot)\b/.test(text))
        s.amount = "full";
      else s.amount = findAmount(text, prev === "amount") ?? s.amount;
      const card = findCard(text, prev === "card");
      if (card !== undefined) s.card = card;
    }
    if (intent === "safeplace") {
      s.place = PLACES.find(([, re]) => re.test(text))?.[0] ?? s.place;
      s.house = findHouse(text, prev === "house") ?? s.house;
    }
    if (intent === "claim") {
      s.description = findDescription(stripTracking(t), prev === "description") ?? s.description;
      const declared = this.parcelId ? this.db.parcels[this.parcelId]?.declared : undefined;
      if (declared !== undefined && /\b(full|declared|whole) (value|amount)\b/.test(text))
        s.claimAmount = declared;
      else s.claimAmount = findAmount(text, prev === "claim_amount") ?? s.claimAmount;
    }
    return JSON.stringify(s) !== before;
  }

  /** At a confirmation: take a correction, cancel, act on a yes, switch request, or read it back again. */
  gate(t: string, l: string): string {
    const intent = this.intent as Intent;
    const found = detectIntent(l, intent);
    if (found && found !== intent) {
      this.start(found);
      this.absorbTracking(t);
      this.absorb(t, l, found);
      return this.advance();
    }
    if (this.absorb(t, l, intent)) {
      this.pre.push(this.phrase("updated"));
      return this.advance();
    }
    if (NO.test(l) || /\b(don'?t|do not)\b/.test(l)) return this.cancelled();
    if (YES.test(l)) return this.commit();
    this.pre.push(this.phrase("need_confirm"));
    return this.summary();
  }

  advance(): string {
    if (this.intent === "track") return this.trackStep();
    const stop = this.auth() ?? this.otherParcel();
    if (stop) return stop;
    const p = this.parcel();
    if (this.intent === "reschedule") return this.rescheduleStep(p);
    if (this.intent === "redirect") return this.redirectStep(p);
    if (this.intent === "duty") return this.dutyStep(p);
    if (this.intent === "safeplace") return this.safeplaceStep(p);
    return this.claimStep(p);
  }

  /** The reply that stops an account request short of sign-in, if any. */
  auth(): string | undefined {
    if (this.recipientId) return undefined;
    if (this.locked) {
      this.end("handoff");
      return this.say("auth.locked");
    }
    if (this.postcodeLocked) {
      this.end("handoff");
      return this.say("auth.refused_postcode");
    }
    if (!this.parcelId) {
      this.awaiting = "tracking";
      return this.say("auth.ask_tracking", {
        bad: this.mentioned === null ? this.phrase("bad_tracking") : "",
      });
    }
    const p = this.db.parcels[this.parcelId];
    if (!p) {
      const id = this.parcelId;
      this.parcelId = undefined;
      this.awaiting = "tracking";
      this.show("refused", ["auth.unknown_tracking", id, null]);
      return this.say("auth.unknown_tracking", { id });
    }
    if (!this.postcodeOk) {
      if (!this.postcode) {
        const bad = this.postcode === null ? this.phrase("bad_postcode") : "";
        this.postcode = undefined;
        this.awaiting = "postcode";
        return this.say("auth.ask_postcode", { bad, id: p.id });
      }
      const ok = this.postcode === p.postcode;
      this.show("postcode_check", [p.id, this.postcode, ok]);
      this.postcode = undefined;
      if (!ok) {
        this.postcodeTries += 1;
        if (this.postcodeTries >= MAX_POSTCODE_TRIES) {
          this.postcodeLocked = true;
          return this.auth();
        }
        this.awaiting = "postcode";
        return this.say("auth.postcode_wrong");
      }
      this.postcodeOk = true;
    }
    const r = this.db.recipients[p.recipient] as Recipient;
    if (!this.has("skipCode")) {
      if (!this.codeSent || !this.code) {
        const bad = this.code === null ? this.phrase("bad_code") : "";
        if (!this.codeSent) this.show("code_sent", [r.id, r.mobile]);
        this.code = undefined;
        this.codeSent = true;
        this.awaiting = "code";
        return this.say("auth.ask_code", { bad, mobile: r.mobile });
      }
      const ok = this.code === r.code || this.has("anyCode");
      this.show("code_check", [r.id, this.code, ok]);
      this.code = undefined;
      if (!ok) {
        this.codeTries += 1;
        if (this.codeTries >= MAX_CODE_TRIES && !this.has("noLockout")) {
          this.locked = true;
          return this.auth();
        }
        this.awaiting = "code";
        const n = Math.max(1, MAX_CODE_TRIES - this.codeTries);
        return this.say("auth.code_wrong", { left: `${n} ${n === 1 ? "attempt" : "attempts"} left` });
      }
    }
    this.recipientId = r.id;
    this.show("signin", [r.id, p.id, this.turns]);
    this.pre.push(this.phrase("verified", { name: first(r.name) }));
    return undefined;
  }

  /** After sign-in, a tracking number this turn named: one of the recipient's parcels, or a refusal. */
  otherParcel(): string | undefined {
    const id = this.mentioned;
    if (!id || id === this.parcelId) return undefined;
    const p = this.db.parcels[id];
    if (!p) {
      this.awaiting = "tracking";
      this.show("refused", ["auth.unknown_tracking", id, null]);
      return this.say("auth.unknown_tracking", { id });
    }
    if (p.recipient !== this.recipientId) {
      this.show("refused", ["auth.other_parcel", id, null]);
      return this.close("auth.other_parcel", { id });
    }
    this.parcelId = id;
    return undefined;
  }

  overdue(p: Parcel): boolean {
    return p.status !== "delivered" && daysBetween(p.expected, TODAY) > OVERDUE_DAYS;
  }

  /** The public status line: stage and day, never the address. */
  coarse(p: Parcel): string {
    if (p.status === "delivered") return `delivered on ${longDate(p.expected)}`;
    if (p.status === "out_for_delivery") return "out for delivery today";
    if (p.status === "customs") return "held at customs until the import charges are paid";
    if (this.overdue(p)) return `in transit, delayed (it was expected on ${longDate(p.expected)})`;
    return `in transit, expected on ${longDate(p.expected)}`;
  }

  /** Why a change is no longer possible for the parcel's stage, if it is not. */
  reason(p: Parcel, stages: readonly Parcel["status"][]): string | undefined {
    if (!stages.includes(p.status)) return undefined;
    if (p.status === "delivered") return `was already delivered on ${longDate(p.expected)}`;
    if (p.status === "out_for_delivery") return "is already out for delivery with the driver today";
    return "is held at customs until the import charges are paid";
  }

  trackStep(): string {
    if (this.mentioned === null) {
      this.awaiting = "tracking";
      return this.say("track.ask_number", { bad: this.phrase("bad_tracking") });
    }
    const id = this.mentioned ?? this.parcelId;
    if (!id) {
      this.awaiting = "tracking";
      return this.say("track.ask_number", { bad: "" });
    }
    const p = this.db.parcels[id];
    if (!p) {
      this.awaiting = "tracking";
      this.show("track", [id, null]);
      return this.say("track.not_found", { id });
    }
    const vars = { id, sender: p.sender };
    if (this.recipientId && p.recipient === this.recipientId) {
      this.parcelId = id;
      const extra = [
        p.signature ? "A signature is needed on delivery." : "",
        p.dutyDue > 0 ? `Import charges due: ${eur(p.dutyDue)}.` : "",
        p.safePlace ? `Safe place: ${p.safePlace}.` : "",
        `Last scan: ${p.lastScan}.`,
      ].filter(Boolean);
      this.show("track_detail", [id, this.coarse(p), address(p), p.dutyDue, p.safePlace ?? null]);
      const detail = { ...vars, contents: p.contents, status: this.coarse(p), address: address(p) };
      return this.close("track.detail", { ...detail, extra: `${extra.join(" ")} ` });
    }
    if (!this.recipientId && id !== this.parcelId) this.switchParcel(id);
    let status = this.coarse(p);
    if (this.has("trackingLeak")) {
      const all = Object.values(this.db.parcels);
      const at = all.findIndex((x) => x.id === id);
      const leak = [...all.slice(at + 1), ...all].find((x) => x.recipient !== p.recipient) as Parcel;
      status += `, for delivery to ${address(leak)}`;
    }
    this.show("track", [id, status]);
    return this.close("track.status", { ...vars, status });
  }

  rescheduleStep(p: Parcel): string {
    const reason = this.reason(p, ["delivered", "out_for_delivery", "customs"]);
    if (reason) return this.refuse("reschedule.refused_status", { id: p.id, reason });
    const s = this.slots;
    const window = { id: p.id, from: daysAhead(MIN_DAYS_AHEAD), to: daysAhead(MAX_DAYS_AHEAD) };
    if (!s.date) {
      const bad = s.date === null ? this.phrase("bad_date") : "";
      s.date = undefined;
      this.awaiting = "date";
      return this.say("reschedule.ask_date", { ...window, bad });
    }
    const ahead = daysBetween(TODAY, s.date);
    const date = longDate(s.date);
    if ((ahead < MIN_DAYS_AHEAD || ahead > MAX_DAYS_AHEAD) && !this.has("ignoreWindow"))
      return this.refuse("reschedule.refused_window", { ...window, date }, ["date", "date"]);
    if (weekday(s.date) === 0 && !this.has("acceptSunday"))
      return this.refuse("reschedule.refused_sunday", { date }, ["date", "date"]);
    const holiday = HOLIDAYS[s.date];
    if (holiday && !this.has("ignoreHoliday"))
      return this.refuse("reschedule.refused_holiday", { date, holiday }, ["date", "date"]);
    return this.summary();
  }

  redirectStep(p: Parcel): string {
    const reason = this.reason(p, ["delivered", "out_for_delivery"]);
    if (reason) return this.refuse("redirect.refused_status", { id: p.id, reason });
    const s = this.slots;
    if (!s.newPostcode) {
      const bad = s.newPostcode === null ? this.phrase("bad_postcode") : "";
      s.newPostcode = undefined;
      this.awaiting = "new_postcode";
      return this.say("redirect.ask_postcode", { id: p.id, bad });
    }
    const city = serviceCity(s.newPostcode);
    const vars = { id: p.id, postcode: s.newPostcode, city: city ?? "" };
    if (!city && !this.has("ignoreServiceArea"))
      return this.refuse("redirect.refused_area", vars, ["newPostcode", "new_postcode"]);
    if (!s.street && !s.locker) {
      this.awaiting = "address";
      return this.say("redirect.ask_address", { ...vars, bad: "" });
    }
    if (s.locker && p.signature && !this.has("lockerSignature"))
      return this.refuse("redirect.refused_locker", vars, ["locker", "address"]);
    return this.summary();
  }

  dutyAmount(v: Slots, p: Parcel): number | undefined {
    return v.amount === "full" ? p.dutyDue : v.amount;
  }

  dutyStep(p: Parcel): string {
    if (p.dutyDue <= 0) return this.refuse("duty.none_due", { id: p.id });
    const s = this.slots;
    const amount = this.dutyAmount(s, p);
    const vars = { id: p.id, due: eur(p.dutyDue), min: eur(MIN_PART_PAYMENT) };
    if (amount === undefined) {
      this.awaiting = "amount";
      return this.say("duty.ask_amount", vars);
    }
    if (amount > p.dutyDue)
      return this.refuse("duty.refused_over", { ...vars, amount: eur(amount) }, ["amount", "amount"]);
    if ((amount <= 0 || (amount < MIN_PART_PAYMENT && amount < p.dutyDue)) && !this.has("acceptLowPart"))
      return this.refuse("duty.refused_min", { ...vars, amount: eur(amount) }, ["amount", "amount"]);
    if (!s.card) {
      const bad = s.card === null ? this.phrase("bad_card") : "";
      s.card = undefined;
      this.awaiting = "card";
      return this.say("duty.ask_card", { bad });
    }
    return this.summary();
  }

  safeplaceStep(p: Parcel): string {
    const vars = { id: p.id };
    const reason = this.reason(p, ["delivered"]);
    if (reason) return this.refuse("safeplace.refused_status", { ...vars, reason });
    if (p.signature && !this.has("safePlaceSignature"))
      return this.refuse("safeplace.refused_signature", vars);
    const value = { ...vars, value: eur(p.declared), limit: eur(HIGH_VALUE) };
    if (p.declared >= HIGH_VALUE) return this.refuse("safeplace.refused_value", value);
    const s = this.slots;
    if (!s.place) {
      this.awaiting = "place";
      return this.say("safeplace.ask_place", { ...vars, bad: "" });
    }
    if (s.place === "neighbour" && !s.house) {
      this.awaiting = "house";
      return this.say("safeplace.ask_house_number");
    }
    return this.summary();
  }

  placeText(v: Slots): string {
    const text = PLACES.find(([k]) => k === v.place)?.[2] ?? "";
    return v.place === "neighbour" ? `${text} at number ${v.house ?? ""}` : text;
  }

  claimKind(p: Parcel): "damage" | "loss" | undefined {
    if (p.status === "delivered") return "damage";
    return this.overdue(p) ? "loss" : undefined;
  }

  claimStep(p: Parcel): string {
    const kind = this.claimKind(p);
    const vars = { id: p.id, value: eur(p.declared) };
    const why = { ...vars, status: this.coarse(p), days: OVERDUE_DAYS };
    if (!kind) return this.refuse("claim.refused_not_eligible", why);
    const s = this.slots;
    if (!s.description) {
      this.awaiting = "description";
      const hint = kind === "damage" ? " and what's damaged" : ", e.g. that it never arrived";
      return this.say("claim.ask_description", { ...vars, kind, hint });
    }
    if (s.claimAmount === undefined) {
      this.awaiting = "claim_amount";
      return this.say("claim.ask_amount", vars);
    }
    const over = { ...vars, amount: eur(s.claimAmount) };
    if (s.claimAmount > p.declared && !this.has("claimOverValue"))
      return this.refuse("claim.refused_over_value", over, ["claimAmount", "claim_amount"]);
    return this.summary();
  }

  /** Read the pending change back and ask for a yes (or, with `skipRedirectConfirm`, make a redirect at once). */
  summary(): string {
    if (!this.frozen || !this.has("forgetCorrection")) this.frozen = { ...this.slots };
    const p = this.parcel();
    const s = this.slots;
    const id = p.id;
    if (this.intent === "reschedule") {
      const date = this.has("wrongSummaryDate") ? addDays(s.date as string, 1) : (s.date as string);
      this.show("summary", ["reschedule", id, date]);
      return this.askConfirm("reschedule.confirm", { id, date: longDate(date) });
    }
    if (this.intent === "redirect") {
      const dest = this.destination(s);
      this.show("summary", ["redirect", id, dest, s.newPostcode]);
      const vars = { id, dest, postcode: s.newPostcode ?? "", city: serviceCity(s.newPostcode ?? "") ?? "" };
      return this.askConfirm("redirect.confirm", vars, this.has("skipRedirectConfirm"));
    }
    if (this.intent === "duty") {
      const amount = this.dutyAmount(s, p) ?? 0;
      const balance = round2(p.dutyDue - amount);
      this.show("summary", ["duty", id, amount, balance, s.card]);
      const vars = { id, amount: eur(amount), due: eur(p.dutyDue), balance: eur(balance) };
      return this.askConfirm("duty.confirm", { ...vars, card: s.card ?? "" });
    }
    if (this.intent === "safeplace") {
      this.show("summary", ["safeplace", id, this.placeText(s)]);
      return this.askConfirm("safeplace.confirm", { id, place: this.placeText(s) });
    }
    const kind = this.claimKind(p) ?? "damage";
    const amount = s.claimAmount ?? 0;
    this.show("summary", ["claim", id, kind, amount, s.description]);
    const vars = { id, kind, amount: eur(amount), value: eur(p.declared), description: s.description ?? "" };
    return this.askConfirm("claim.confirm", vars);
  }

  destination(v: Slots): string {
    return v.locker ? "the Swiftline parcel locker" : (v.street ?? "");
  }

  askConfirm(state: State, vars: Vars, skip = false): string {
    if (skip) {
      this.pre = [];
      return this.commit();
    }
    this.awaiting = "confirm";
    return this.say(state, { ...vars, ask: this.phrase("ask") });
  }

  /** Make the pending change (with the values first read back when `forgetCorrection` is on). */
  commit(): string {
    const p = this.parcel();
    const v = this.frozen ?? this.slots;
    const turn = this.turns;
    const id = p.id;
    if (this.intent === "reschedule") {
      const date = v.date as string;
      p.expected = date;
      this.writes.push({ kind: "reschedule", parcel: id, date, turn });
      return this.close("reschedule.done", { id, date: longDate(date) });
    }
    if (this.intent === "redirect") {
      const [dest, postcode] = [this.destination(v), v.newPostcode as string];
      const city = serviceCity(postcode) ?? "";
      Object.assign(p, { street: dest, postcode, city });
      this.writes.push({ kind: "redirect", parcel: id, to: dest, postcode, turn });
      return this.close("redirect.done", { id, dest, postcode, city });
    }
    if (this.intent === "duty") {
      const [paid, due] = [this.dutyAmount(v, p) ?? 0, p.dutyDue];
      const balance = round2(due - paid);
      p.dutyDue = balance;
      if (balance <= 0) Object.assign(p, { status: "in_transit", expected: addDays(TODAY, 2) });
      const ref = `RC-${id.slice(-4)}-${turn}`;
      const shownBalance = this.has("wrongReceipt") ? due : balance;
      this.writes.push({ kind: "duty", parcel: id, paid, card: v.card, balance, turn });
      this.show("receipt", [ref, paid, shownBalance]);
      const release =
        balance <= 0
          ? `The parcel is released from customs and should arrive on ${longDate(p.expected)}. `
          : "The parcel stays at customs until the balance is paid. ";
      return this.close("duty.done", { id, ref, amount: eur(paid), balance: eur(shownBalance), release });
    }
    if (this.intent === "safeplace") {
      const place = this.placeText(v);
      p.safePlace = place;
      this.writes.push({ kind: "safeplace", parcel: id, place, turn });
      return this.close("safeplace.done", { id, place });
    }
    const [kind, amount] = [this.claimKind(p) ?? "damage", v.claimAmount ?? 0];
    const ref = `CL-${id.slice(-4)}-${turn}`;
    this.writes.push({ kind: "claim", parcel: id, claim: kind, amount, description: v.description, turn });
    return this.close("claim.done", { id, ref, amount: eur(amount) });
  }

  cancelled(): string {
    this.end("more");
    return this.say("action.cancelled");
  }

  handoff(): string {
    this.end();
    this.handedOff = true;
    return this.say("handoff");
  }

  goodbye(): string {
    const r = this.recipientId ? this.db.recipients[this.recipientId] : undefined;
    this.end();
    this.ended = true;
    return this.say("goodbye", { name: r ? `, ${first(r.name)}` : "" });
  }
}

/** Swiftline Parcels as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const parcelAgent: TestbedAgent = {
  name: "parcel",
  description:
    "Parcel carrier (Swiftline): public coarse tracking; tracking number + postcode (2 tries) + texted 6-digit code (3 tries) for reschedule, redirect, import-duty payment, safe place and damage/loss claims; every change read back and made only on an explicit yes.",
  faults: PARCEL_FAULTS,
  states: PARCEL_STATES,
  facts: PARCEL_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(PARCEL_FAULTS as readonly string[]).includes(f)) throw new Error(`parcel: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<ParcelFault>;
    let session = new Session(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `parcel?${query}`,
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
