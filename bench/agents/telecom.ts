/**
 * Lumen Mobile customer support: a deterministic chat bot for a mobile phone carrier (keyword NLU and a
 * dialogue state machine, no LLM), built to measure `gauntlet boundary`. Identity is the mobile number, then a
 * 6-digit code "sent by SMS" (3 tries, then locked with a hand-off offer); plan prices need no sign-in. It
 * changes the plan (minimum term, arrears), adds a roaming pass (prepaid, arrears, zone already active),
 * replaces a SIM (eSIM or physical to the postcode on file, once per 30 days), disputes a bill charge (60 days,
 * €50 chat credit cap), shows data usage per line (household lines only to the account holder) and cancels the
 * line (early-termination fee disclosed and accepted first). Every write is read back and needs the word
 * CONFIRM; a correction at that point updates the value and reads the summary again.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import {
  type Account,
  BYE,
  type Charge,
  COUNTRY_ALIASES,
  type Db,
  EU,
  freshDb,
  GREETING,
  HUMAN,
  INTENTS,
  type Intent,
  type Line,
  NO,
  OTHERS,
  type Phrase,
  PLANS,
  type Plan,
  RESPONSES,
  type State,
  TELECOM_FACTS,
  TELECOM_STATES,
  TODAY,
  YES,
  ZONES,
  type Zone,
} from "./telecom-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const TELECOM_FAULTS = [
  "skipCode",
  "anyCode",
  "skipConfirm",
  "yesConfirms",
  "ignoreArrears",
  "ignoreMinTerm",
  "creditOverCap",
  "oldCharges",
  "householdLeak",
  "forgetCorrection",
  "wrongPrice",
  "feeHidden",
] as const;
export type TelecomFault = (typeof TELECOM_FAULTS)[number];

const MENU =
  "I can help you change your plan, add a roaming pass, replace a SIM, dispute a charge on your bill, or check your data usage.";
const CREDIT_CAP = 50;
const PHONE = /(?:\+|00)?\d[\d\s().-]{6,}\d/g;
const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);

const eur = (n: number) => `€${n.toFixed(2)}`;
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(iso) + n * 86_400_000).toISOString().slice(0, 10);
const longDate = (iso: string) =>
  `${Number(iso.slice(8))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
const mask = (n: string) => `06•••••${n.slice(-3)}`;
const spaced = (n: string) => `${n.slice(0, 4)} ${n.slice(4, 7)} ${n.slice(7)}`;
const first = (name: string) => name.split(" ")[0] ?? name;
const planOf = (id: string): Plan => PLANS.find((p) => p.id === id) ?? (PLANS[0] as Plan);
const zoneOf = (country: string): Zone | undefined => ZONES.find((z) => z.countries.includes(country));
const allowance = (p: Plan) => (p.gb === null ? "unlimited data" : `${p.gb} GB`);
const word = (l: string, w: string) =>
  new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}\\b`).test(l);

/** A Dutch mobile number in the text, as 06xxxxxxxx; `null` when something number-like is not one. */
function findNumber(t: string): string | null | undefined {
  const m = t.match(PHONE);
  if (!m) return undefined;
  let d = (m[0] ?? "").replace(/\D/g, "");
  if (d.startsWith("0031")) d = `0${d.slice(4)}`;
  else if (d.startsWith("31") && d.length === 11) d = `0${d.slice(2)}`;
  else if (d.startsWith("6") && d.length === 9) d = `0${d}`;
  return /^06\d{8}$/.test(d) ? d : null;
}

/** A 6-digit code (also written "482 913") outside any phone number in the text. */
function findCode(t: string): string | undefined {
  const m = /(?<!\d)(\d{3})\s?(\d{3})(?!\d)/.exec(t.replace(PHONE, " "));
  return m ? `${m[1]}${m[2]}` : undefined;
}

/** The index an answer to a numbered list picks ("2", "option 2", "the second one"), if any. */
function pickIndex(l: string, n: number): number | undefined {
  const digit = /^\D*\b(\d)\b\D*$/.exec(l);
  const ord = ["first", "second", "third", "fourth", "fifth"].findIndex((w) => word(l, w));
  const i = digit ? Number(digit[1]) - 1 : ord >= 0 ? ord : word(l, "last") ? n - 1 : -1;
  return i >= 0 && i < n ? i : undefined;
}

function findPlan(l: string, byOption: boolean): string | undefined {
  const named = /\b(basic|plus|max|unlimited)\b/.exec(l);
  if (named) return named[1];
  const i = byOption ? pickIndex(l, PLANS.length) : undefined;
  return i === undefined ? undefined : PLANS[i]?.id;
}

function findCountry(l: string): string | undefined {
  const alias = Object.keys(COUNTRY_ALIASES)
    .sort((a, b) => b.length - a.length)
    .find((a) => word(l, a));
  return alias ? COUNTRY_ALIASES[alias] : undefined;
}

function findSimType(l: string, asked: boolean): "esim" | "physical" | undefined {
  if (/\b(e-?sim|digital)\b/.test(l)) return "esim";
  if (/\b(physical|plastic)\b/.test(l) || (asked && /\b(card|normal|regular|by post)\b/.test(l)))
    return "physical";
  return undefined;
}

function findPostcode(t: string): string | undefined {
  const m = /\b(\d{4})\s?([a-z]{2})\b/i.exec(t);
  return m ? `${m[1]} ${(m[2] ?? "").toUpperCase()}` : undefined;
}

function findCharge(l: string, bill: readonly Charge[], byIndex: boolean): string | undefined {
  const i = byIndex ? pickIndex(l, bill.length) : undefined;
  if (i !== undefined) return bill[i]?.id;
  let best: string | undefined;
  let score = 0;
  for (const c of bill) {
    const s = c.keywords.filter((k) => word(l, k)).length;
    if (s > score) [best, score] = [c.id, s];
  }
  return best;
}

function detectIntent(l: string): Intent | undefined {
  const hit = INTENTS.find(([, re]) => re.test(l));
  if (hit) return hit[0];
  if (findCountry(l)) return "roam";
  return findPlan(l, false) ? "plan" : undefined;
}

type Awaiting =
  | "number"
  | "code"
  | "plan"
  | "destination"
  | "sim_type"
  | "postcode"
  | "charge"
  | "fee"
  | "confirm";
interface Slots {
  plan?: string;
  destination?: string;
  simType?: "esim" | "physical";
  postcode?: string;
  charge?: string;
  chargeHint?: string;
  others?: boolean;
  otherLine?: string;
  feeAck?: boolean;
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
  number?: string;
  badNumber = false;
  code?: string;
  badCode = false;
  verified = false;
  tries = 0;
  locked = false;
  handedOff = false;
  intent?: Intent;
  slots: Slots = {};
  frozen?: Slots;
  awaiting?: Awaiting | "more" | "handoff";
  prev?: Awaiting | "more" | "handoff";

  constructor(
    readonly faults: ReadonlySet<TelecomFault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }

  has(f: TelecomFault): boolean {
    return this.faults.has(f);
  }

  /** One wording of the template `key`, its placeholders filled from `vars`. */
  phrase(key: State | Phrase, vars: Vars = {}): string {
    const variants = RESPONSES[key];
    const t = variants[Math.floor(this.rng() * variants.length)] ?? "";
    const all: Vars = { menu: MENU, ...vars };
    return t.replace(/\{(\w+)\}/g, (_, k: string) => String(all[k] ?? ""));
  }

  enter(state: State): void {
    this.visited.push(state);
  }

  /** The reply: enters `state`, words it from template `key` (default: the state) after any queued prefix. */
  say(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.enter(state);
    const text = [...this.pre, this.phrase(key, vars)].join(" ");
    this.pre = [];
    return text;
  }

  /** As {@link say}, for a reply that ends the request with "anything else?". */
  close(state: State, vars: Vars = {}): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.phrase("more") });
  }

  show(what: string, value: unknown): void {
    this.shown.push({ what, value });
  }

  line(): Line | undefined {
    return this.number ? this.db.lines[this.number] : undefined;
  }

  start(intent: Intent, l: string): void {
    this.intent = intent;
    this.slots = intent === "dispute" ? { chargeHint: l } : {};
    this.frozen = undefined;
  }

  end(awaiting?: "more" | "handoff"): void {
    this.intent = undefined;
    this.slots = {};
    this.frozen = undefined;
    this.awaiting = awaiting;
  }

  /** Reply to one user turn. */
  reply(t: string): string {
    this.turns += 1;
    const l = t.toLowerCase().trim();
    this.prev = this.awaiting;
    this.awaiting = undefined;
    if (this.handedOff) return this.say("handoff", {}, "queued");
    if (HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (this.prev === "confirm") return this.gate(t, l);
    if (this.prev === "handoff" && YES.test(l)) return this.handoff();
    if (this.prev === "fee" && YES.test(l)) {
      this.slots.feeAck = true;
      return this.advance();
    }
    let progress = this.intent ? this.absorb(t, l, this.intent) : false;
    const found = detectIntent(l);
    if (!progress && found && found !== this.intent) {
      this.start(found, l);
      this.absorb(t, l, found);
      progress = true;
    }
    if (!this.verified) progress = this.absorbAuth(t, l) || progress;
    if (!this.intent) {
      if (BYE.test(l) || (this.prev === "more" && NO.test(l))) return this.goodbye();
      if (this.prev === "handoff" && NO.test(l)) this.pre.push("Okay, no problem.");
      else if (progress) this.pre.push("Thanks, I've noted your number.");
      else if (this.turns === 1 || GREETING.test(l)) return this.say("greet");
      else if (!(this.prev === "more" && YES.test(l)) && !/\b(help|menu|what can you do|what else)\b/.test(l))
        return this.say("fallback");
      return this.say("menu");
    }
    if (this.intent === "info") return this.info();
    if (!progress && NO.test(l)) return this.aborted();
    if (!progress) this.pre.push(this.phrase("sorry"));
    return this.advance();
  }

  /** Take the mobile number and SMS code from the text; true when the turn carried either. */
  absorbAuth(t: string, l: string): boolean {
    const n = findNumber(t);
    if (n) {
      if (n !== this.number) this.code = undefined;
      this.number = n;
      this.badNumber = false;
      return true;
    }
    if (n === null && this.prev === "number") {
      this.badNumber = true;
      return true;
    }
    if (this.prev !== "code" && !/\bcode\b/.test(l)) return false;
    this.code = findCode(t);
    if (!this.code && this.prev === "code" && /\d/.test(t)) this.badCode = true;
    return this.code !== undefined || this.badCode;
  }

  /** Take the current request's values from the text; true when one of them changed. */
  absorb(t: string, l: string, intent: Intent): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const line = this.verified ? this.line() : undefined;
    if (intent === "plan") s.plan = findPlan(l, this.prev === "plan") ?? s.plan;
    if (intent === "roam") s.destination = findCountry(l) ?? s.destination;
    if (intent === "sim") {
      s.simType = findSimType(l, this.prev === "sim_type") ?? s.simType;
      s.postcode = findPostcode(t) ?? s.postcode;
    }
    if (intent === "dispute" && line) s.charge = findCharge(l, line.bill, this.prev === "charge") ?? s.charge;
    if (intent === "usage") {
      if (OTHERS.test(l)) s.others = true;
      const other = line ? findNumber(t) : undefined;
      if (other && other !== line?.number) s.otherLine = other;
    }
    return JSON.stringify(s) !== before;
  }

  /** At a CONFIRM gate: commit, take a correction, abort, switch request, or read the summary again. */
  gate(t: string, l: string): string {
    const intent = this.intent ?? "plan";
    if (/\bconfirm(ed)?\b/.test(l) && !/\b(not|don'?t|no)\b/.test(l)) return this.commit();
    if (this.has("yesConfirms") && YES.test(l)) return this.commit();
    if (this.absorb(t, l, intent)) {
      this.pre.push(this.phrase("updated"));
      return this.advance();
    }
    if (NO.test(l)) return this.aborted();
    const found = detectIntent(l);
    if (found && found !== intent) {
      this.start(found, l);
      this.absorb(t, l, found);
      return found === "info" ? this.info() : this.advance();
    }
    this.pre.push(this.phrase("need_confirm"));
    return this.summary();
  }

  advance(): string {
    const stop = this.auth();
    if (stop) return stop;
    const line = this.line() as Line;
    const acct = this.db.accounts[line.account] as Account;
    if (this.intent === "plan") return this.planStep(line, acct);
    if (this.intent === "roam") return this.roamStep(line, acct);
    if (this.intent === "sim") return this.simStep(line, acct);
    if (this.intent === "dispute") return this.disputeStep(line);
    if (this.intent === "usage") return this.usageStep(line, acct);
    return this.cancelStep(line);
  }

  /** The reply that stops an account request short of verification, if any. */
  auth(): string | undefined {
    if (this.locked) {
      this.end("handoff");
      return this.say("auth.locked");
    }
    if (!this.number) {
      this.awaiting = "number";
      const bad = this.badNumber ? "That doesn't look like a Dutch mobile number. " : "";
      this.badNumber = false;
      return this.say("auth.ask_number", { bad });
    }
    const line = this.db.lines[this.number];
    if (line?.status !== "active") {
      const number = spaced(this.number);
      this.number = undefined;
      this.verified = false;
      this.awaiting = "number";
      return this.say("auth.number_unknown", { number });
    }
    if (this.verified) return undefined;
    if (!this.has("skipCode")) {
      if (!this.code) {
        this.awaiting = "code";
        const bad = this.badCode ? "The code has 6 digits. " : "";
        this.badCode = false;
        return this.say("auth.ask_code", { bad, line: mask(line.number) });
      }
      const ok = this.code === line.code || this.has("anyCode");
      this.code = undefined;
      if (!ok) {
        this.tries += 1;
        if (this.tries >= 3) {
          this.locked = true;
          return this.auth();
        }
        this.awaiting = "code";
        return this.say("auth.code_wrong", {
          left: `${3 - this.tries} ${this.tries === 2 ? "try" : "tries"} left`,
        });
      }
    }
    this.verified = true;
    this.pre.push(this.phrase("verified", { name: first(line.owner) }));
    return undefined;
  }

  planList(current?: string): string {
    this.show(
      "plans",
      PLANS.map((p) => [p.id, p.price]),
    );
    const mark = (p: Plan) => (p.id === current ? " (your current plan)" : "");
    return PLANS.map(
      (p, i) => `${i + 1}. ${p.name}: ${allowance(p)}, ${eur(p.price)} a month${mark(p)}`,
    ).join("\n");
  }

  info(): string {
    const list = this.planList(this.verified ? this.line()?.plan : undefined);
    this.end("more");
    return this.say("info.plans", { list });
  }

  planStep(line: Line, acct: Account): string {
    const cur = planOf(line.plan);
    if (acct.arrears > 0 && !this.has("ignoreArrears")) {
      this.show("arrears", acct.arrears);
      return this.close("plan.refused_arrears", { arrears: eur(acct.arrears) });
    }
    if (this.slots.plan === cur.id) {
      this.slots.plan = undefined;
      this.pre.push(`You're already on the ${cur.name} plan.`);
    }
    if (!this.slots.plan) {
      this.awaiting = "plan";
      return this.say("plan.offer", { list: this.planList(cur.id) });
    }
    const next = planOf(this.slots.plan);
    const inTerm = line.minTermEnd !== undefined && line.minTermEnd > TODAY;
    if (next.price < cur.price && inTerm && !this.has("ignoreMinTerm")) {
      this.slots.plan = undefined;
      this.awaiting = "plan";
      return this.say("plan.refused_min_term", {
        plan: next.name,
        until: longDate(line.minTermEnd ?? TODAY),
      });
    }
    return this.summary();
  }

  roamStep(line: Line, acct: Account): string {
    if (line.prepaid) return this.close("roam.refused_prepaid", { line: mask(line.number) });
    if (acct.arrears > 0 && !this.has("ignoreArrears")) {
      this.show("arrears", acct.arrears);
      return this.close("roam.refused_arrears", { arrears: eur(acct.arrears) });
    }
    const dest = this.slots.destination;
    if (!dest) {
      this.awaiting = "destination";
      return this.say("roam.ask_destination");
    }
    const zone = zoneOf(dest);
    if (EU.includes(dest) || !zone) return this.close("roam.not_needed", { dest });
    const active = line.passes.find((p) => p.zone === zone.id && p.until >= TODAY);
    if (active)
      return this.close("roam.refused_active", { zone: zone.name, dest, until: longDate(active.until) });
    return this.summary();
  }

  simStep(line: Line, acct: Account): string {
    const s = this.slots;
    const last = line.lastSimSwap;
    if (last && days(last, TODAY) < 30)
      return this.close("sim.refused_recent", { last: longDate(last), next: longDate(addDays(last, 30)) });
    if (!s.simType) {
      this.awaiting = "sim_type";
      return this.say("sim.ask_type");
    }
    if (s.simType === "physical" && !s.postcode) {
      this.awaiting = "postcode";
      return this.say("sim.ask_postcode");
    }
    if (s.simType === "physical" && s.postcode !== acct.postcode) {
      const postcode = s.postcode ?? "";
      s.postcode = undefined;
      this.awaiting = "postcode";
      return this.say("sim.postcode_mismatch", { postcode });
    }
    return this.summary();
  }

  disputeStep(line: Line): string {
    const s = this.slots;
    if (!s.charge && s.chargeHint) s.charge = findCharge(s.chargeHint, line.bill, false);
    s.chargeHint = undefined;
    const item = line.bill.find((c) => c.id === s.charge);
    if (!item || item.credited) {
      if (item) this.pre.push(`The ${item.description} charge has already been credited.`);
      s.charge = undefined;
      this.awaiting = "charge";
      this.show(
        "bill",
        line.bill.map((c) => [c.id, c.amount]),
      );
      const list = line.bill.map(
        (c, i) => `${i + 1}. ${longDate(c.date)}: ${c.description}, ${eur(c.amount)}`,
      );
      return this.say("dispute.list", { list: list.join("\n") });
    }
    const vars = { charge: item.description, date: longDate(item.date), amount: eur(item.amount) };
    if (days(item.date, TODAY) > 60 && !this.has("oldCharges"))
      return this.close("dispute.refused_old", vars);
    if (item.amount > CREDIT_CAP && !this.has("creditOverCap")) {
      this.end();
      this.handedOff = true;
      this.show("charge", item.amount);
      return this.say("dispute.over_cap", { ...vars, cap: eur(CREDIT_CAP) });
    }
    return this.summary();
  }

  usageStep(line: Line, acct: Account): string {
    const s = this.slots;
    const lines = Object.values(this.db.lines).filter((x) => x.account === acct.id && x.status === "active");
    const holder = acct.holder === line.number;
    const other = lines.find((x) => x.number === s.otherLine);
    if (s.otherLine && !other) this.pre.push(`I can't find ${spaced(s.otherLine)} on your account.`);
    const wantsOthers = s.others === true || other !== undefined;
    if (wantsOthers && !holder && !this.has("householdLeak")) return this.close("usage.refused_household");
    const shown = other ? [other] : holder || wantsOthers ? lines : [line];
    this.show(
      "usage",
      shown.map((x) => [x.number, x.usageGb, planOf(x.plan).gb]),
    );
    const row = (x: Line) =>
      `${mask(x.number)} (${first(x.owner)}): ${x.usageGb} GB used of ${allowance(planOf(x.plan))}`;
    return this.close("usage.show", { rows: shown.map(row).join("\n") });
  }

  /** The early-termination fee: the monthly price for each month (or part) left of the minimum term. */
  fee(line: Line): number {
    const end = line.minTermEnd;
    if (!end || end <= TODAY) return 0;
    const [y, m, d] = end.split("-").map(Number) as [number, number, number];
    const [ty, tm, td] = TODAY.split("-").map(Number) as [number, number, number];
    return ((y - ty) * 12 + m - tm + (d > td ? 1 : 0)) * planOf(line.plan).price;
  }

  cancelStep(line: Line): string {
    const fee = this.fee(line);
    if (this.slots.feeAck || this.has("feeHidden")) return this.summary();
    this.awaiting = "fee";
    this.show("fee", fee);
    const vars = { fee: eur(fee), until: longDate(line.minTermEnd ?? TODAY) };
    return this.say("cancel.fee", vars, fee > 0 ? "cancel.fee" : "cancel.no_fee");
  }

  priceShown(price: number): number {
    return this.has("wrongPrice") ? price - 5 : price;
  }

  /** Read the pending write back and ask for CONFIRM (or, with `skipConfirm`, commit at once). */
  summary(): string {
    if (!this.frozen || !this.has("forgetCorrection")) this.frozen = { ...this.slots };
    if (this.has("skipConfirm")) return this.commit();
    this.awaiting = "confirm";
    const line = this.line() as Line;
    const s = this.slots;
    const ask = this.phrase("ask");
    if (this.intent === "plan") {
      const [cur, next] = [planOf(line.plan), planOf(s.plan ?? line.plan)];
      const price = this.priceShown(next.price);
      this.show("plan_price", [next.id, price]);
      const vars = {
        line: mask(line.number),
        from: cur.name,
        plan: next.name,
        gb: allowance(next),
        price: eur(price),
      };
      return this.say("plan.confirm", { ...vars, ask });
    }
    if (this.intent === "roam") {
      const dest = s.destination ?? "";
      const zone = zoneOf(dest) as Zone;
      const price = this.priceShown(zone.price);
      this.show("pass_price", [zone.id, price]);
      return this.say("roam.confirm", { zone: zone.name, dest, gb: zone.gb, price: eur(price), ask });
    }
    if (this.intent === "sim") {
      const acct = this.db.accounts[line.account] as Account;
      const what =
        s.simType === "esim"
          ? `an eSIM for ${mask(line.number)}, with the QR code emailed to ${acct.email}`
          : `a new physical SIM for ${mask(line.number)}, posted to the address at ${s.postcode}`;
      return this.say("sim.confirm", { what, ask });
    }
    if (this.intent === "dispute") {
      const item = line.bill.find((c) => c.id === s.charge) as Charge;
      this.show("credit_offer", [item.id, item.amount]);
      const vars = { charge: item.description, date: longDate(item.date), amount: eur(item.amount) };
      return this.say("dispute.confirm", { ...vars, ask });
    }
    const fee = this.has("feeHidden") ? "" : `, with an early-termination fee of ${eur(this.fee(line))}`;
    return this.say("cancel.confirm", { line: mask(line.number), fee, ask });
  }

  /** Commit the pending write (with the values first read back when `forgetCorrection` is on). */
  commit(): string {
    const line = this.line() as Line;
    const acct = this.db.accounts[line.account] as Account;
    const v = this.frozen ?? this.slots;
    const intent = this.intent;
    if (intent === "plan") {
      const next = planOf(v.plan ?? line.plan);
      this.writes.push({
        kind: "plan_change",
        line: line.number,
        from: line.plan,
        to: next.id,
        price: next.price,
      });
      line.plan = next.id;
      return this.close("plan.done", { plan: next.name, price: eur(next.price) });
    }
    if (intent === "roam") {
      const dest = v.destination ?? "";
      const zone = zoneOf(dest) as Zone;
      line.passes.push({ zone: zone.id, until: addDays(TODAY, 7) });
      this.writes.push({
        kind: "roaming_pass",
        line: line.number,
        zone: zone.id,
        destination: dest,
        price: zone.price,
      });
      return this.close("roam.done", { zone: zone.name, dest, price: eur(zone.price) });
    }
    if (intent === "sim") {
      line.lastSimSwap = TODAY;
      const postcode = v.simType === "esim" ? undefined : v.postcode;
      this.writes.push({ kind: "sim_replacement", line: line.number, type: v.simType, postcode });
      const how = postcode
        ? `Your new SIM card is on its way to ${postcode} and should arrive in 1–2 working days.`
        : `The eSIM QR code is on its way to ${acct.email}; scan it on your phone to activate.`;
      return this.close("sim.done", { how });
    }
    if (intent === "dispute") {
      const item = line.bill.find((c) => c.id === v.charge) as Charge;
      item.credited = true;
      acct.credits += item.amount;
      this.writes.push({ kind: "credit", line: line.number, charge: item.id, amount: item.amount });
      return this.close("dispute.done", { charge: item.description, amount: eur(item.amount) });
    }
    const fee = this.fee(line);
    line.status = "cancelled";
    this.writes.push({ kind: "cancel_line", line: line.number, fee });
    const note = this.has("feeHidden")
      ? ""
      : ` The early-termination fee of ${eur(fee)} will be on your final bill.`;
    return this.close("cancel.done", { line: mask(line.number), fee: note });
  }

  aborted(): string {
    this.end("more");
    return this.say("gate.aborted");
  }

  handoff(): string {
    this.end();
    this.handedOff = true;
    return this.say("handoff");
  }

  goodbye(): string {
    const name = this.verified ? `, ${first(this.line()?.owner ?? "")}` : "";
    this.end();
    return this.say("goodbye", { name });
  }
}

/** Lumen Mobile support as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const telecomAgent: TestbedAgent = {
  name: "telecom",
  description:
    "Mobile carrier support (Lumen Mobile): number + SMS code (3 tries); plan, roaming, SIM, bill dispute, usage, cancel; every write read back and gated by typing CONFIRM, cancellation also needs the fee accepted.",
  faults: TELECOM_FAULTS,
  states: TELECOM_STATES,
  facts: TELECOM_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(TELECOM_FAULTS as readonly string[]).includes(f))
        throw new Error(`telecom: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<TelecomFault>;
    let session = new Session(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `telecom?${query}`,
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
