/**
 * Held-out testbed agent `heldout3`: a rule-based customer assistant for a home-energy supplier (meter
 * readings, tariff switches, direct debits, home moves, bill questions, call backs, FAQs). Written apart
 * from the boundary tester: keyword/regex understanding, seeded paraphrases and switchable seeded faults.
 */
import * as D from "./heldout3-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

type Customer = D.Customer;
type Fuel = D.Fuel;
type Tariff = D.Tariff;
type Vars = Record<string, string | number>;
type Plan = { amount: number; day: number };
type Bank = { sort: string; acct: string };

/** The seeded faults, each switchable on its own (see `FAULT_DOCS` in the data module). */
export const HELDOUT3_FAULTS: readonly string[] = Object.keys(D.FAULT_DOCS);
const STATES = Object.keys(D.TEMPLATES).filter((k) => !k.startsWith("x."));

/** The request under way: its kind, the step it waits at, and the slots filled so far. */
type Flow =
  | { kind: "auth"; step: "account" | "address"; account?: string }
  | { kind: "reading"; step: "meter" | "value"; fuel?: Fuel }
  | { kind: "switch"; step: "pick" | "terms" | "fee"; tariff?: Tariff }
  | {
      kind: "payment";
      step: "choice" | "amount" | "day" | "bank" | "readback" | "otp";
      mode?: "setup" | "amount" | "day" | "both";
      amount?: number;
      day?: number;
      bank?: Bank;
      orig?: Plan;
    }
  | {
      kind: "move";
      step: "date" | "reading" | "address" | "confirm";
      date?: number;
      readings: Readings;
      to: Forward;
    }
  | { kind: "bill"; step: "charge"; cust: Customer; explained?: boolean }
  | { kind: "callback"; step: "phone" | "slot" | "confirm"; phone?: string; slot?: string };
type Of<K extends Flow["kind"]> = Extract<Flow, { kind: K }>;
type Readings = Partial<Record<Fuel, number>>;
type Forward = { line1?: string; postcode?: string };

/** One conversation's memory. */
class Session {
  turn = 0;
  cust?: Customer;
  flow?: Flow;
  pending?: { intent: D.Intent; text: string };
  authTries = 0;
  otpTries = 0;
  locked = false;
  otpLocked = false;
  offered = false;
  readings: Readings = {};
  dd?: Plan;
  refs = 0;
  readonly visited: string[] = [];
  readonly writes: Record<string, unknown>[] = [];
  readonly shown: Record<string, unknown>[] = [];
}

class EnergyTarget implements TestbedTarget {
  readonly name = "testbed:heldout3";
  private s = new Session();
  private out: string[] = [];

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  async reset(): Promise<void> {
    this.s = new Session();
  }
  async send(text: string) {
    const t0 = performance.now();
    this.out = [];
    this.s.turn++;
    this.handle(text.trim());
    return { text: this.out.join(" "), ms: performance.now() - t0 };
  }
  async close(): Promise<void> {}
  statesVisited(): readonly string[] {
    return [...this.s.visited];
  }
  fingerprint(): string {
    return JSON.stringify({ writes: this.s.writes, shown: this.s.shown });
  }

  // ---- reply building ----

  private on(fault: string) {
    return this.faults.has(fault);
  }
  /** Adds one paraphrase of `key`, chosen by seed, key and turn. */
  private text(key: string, vars: Vars = {}) {
    const opts = D.TEMPLATES[key]!;
    this.out.push(D.fill(opts[(D.hash(key) + this.seed + this.s.turn) % opts.length]!, vars));
  }
  /** Enters a designed state and says one of its paraphrases. */
  private say(state: string, vars: Vars = {}) {
    this.s.visited.push(state);
    this.text(state, vars);
  }
  /** An outcome: the flow ends, then the open "anything else?". */
  private end(state: string, vars: Vars = {}) {
    this.s.flow = undefined;
    this.say(state, vars);
    this.text("x.anything");
    this.s.offered = true;
  }
  /** A turn a step could not use: false when it is another request, else "sorry" and ask again. */
  private retry(text: string, state: string, vars: Vars = {}): boolean {
    if (D.detect(text)) return false;
    this.text("x.sorry");
    this.say(state, vars);
    return true;
  }
  /** A yes/no gate: "yes" or "no" for the caller; unclear answers are clarified and `again` asked (or taken as
   * yes when `unclearIsYes`); undefined when the turn is another request. */
  private gate(text: string, again: () => void, unclearIsYes = false): "yes" | "no" | "asked" | undefined {
    const a = D.yn(text);
    if (a === undefined && D.detect(text)) return undefined;
    if (a === "yes" || a === "no") return a;
    if (unclearIsYes) return "yes";
    this.text("x.clarify");
    again();
    return "asked";
  }
  private ref(prefix: string) {
    this.s.refs++;
    return `${prefix}-${(D.hash(`${this.s.cust?.account}${this.s.refs}`) % 90000) + 10000}`;
  }

  // ---- dispatch ----

  private handle(text: string) {
    const offered = this.s.offered;
    this.s.offered = false;
    if (!text) return this.say("general.fallback");
    if (D.ABORT.test(text)) {
      this.s.pending = undefined;
      return this.end("general.cancelled");
    }
    const flow = this.s.flow;
    if (flow && this.step(flow, text)) return;
    this.s.flow = undefined;
    const intent = D.detect(text);
    if (intent) return this.start(intent, text);
    if (!this.s.cust && /\ben[\s-]?\d{5}\b/i.test(text)) {
      this.s.flow = { kind: "auth", step: "account" };
      return this.authStep(this.s.flow, text);
    }
    const a = D.yn(text);
    if ((offered && a === "no") || D.BYE.test(text)) return this.say("general.goodbye");
    this.say(offered && a === "yes" ? "general.menu" : "general.fallback");
  }

  /** Runs the current flow's step; false when the turn is not for it (it is then read afresh). */
  private step(f: Flow, text: string): boolean {
    if (f.kind === "auth") return this.authStep(f, text);
    if (f.kind === "reading") return this.readingStep(f, text);
    if (f.kind === "switch") return this.switchStep(f, text);
    if (f.kind === "payment") return f.step === "otp" ? this.otpStep(f, text) : this.paymentStep(f, text);
    if (f.kind === "move") return this.moveStep(f, text);
    if (f.kind === "bill") return this.billStep(f, text);
    return this.callbackStep(f, text);
  }

  private start(intent: D.Intent, text: string) {
    if (D.NEEDS_AUTH.has(intent) && !this.s.cust) {
      if (this.s.locked) return this.end("general.locked");
      this.s.pending = { intent, text };
      this.s.flow = { kind: "auth", step: "account" };
      return this.say("auth.ask_account");
    }
    const c = this.s.cust!;
    if (intent === "reading") return this.readingStart(c, text);
    if (intent === "switch") return this.switchStart(c, text);
    if (intent === "payment") return this.paymentStart(c, text);
    if (intent === "move") return this.moveStart(text);
    if (intent === "bill")
      return D.OTHER_PERSON.test(text) || this.otherAccount(text) ? this.other(text) : this.bill(c);
    if (intent === "callback") {
      const ph = D.parsePhone(text);
      const f: Of<"callback"> = { kind: "callback", step: "phone", slot: D.parseSlot(text) };
      if (ph && "ok" in ph) f.phone = ph.ok;
      this.s.flow = f;
      return this.callbackNext(f);
    }
    if (intent === "handoff") {
      this.s.writes.push({ type: "handoff", account: this.s.cust?.account ?? null });
      return this.say("handoff.transfer");
    }
    if (intent === "menu") return this.say("general.menu");
    this.end(intent, { list: D.listWords(D.TARIFFS.map((t) => `${t.name} (${t.blurb})`)) });
  }

  // ---- authentication: account number, then postcode or first line of the address ----

  private authStep(f: Of<"auth">, text: string): boolean {
    if (f.step === "address") return !/\d/.test(text) && D.detect(text) ? false : this.checkAddress(f, text);
    const other = D.detect(text);
    if (other && !D.NEEDS_AUTH.has(other)) return false;
    const m = /\b(?:en[\s-]?)?(\d{5})\b/i.exec(text);
    if (!m) return this.retry(text, "auth.ask_account");
    const account = `EN${m[1]}`;
    if (!D.CUSTOMERS[account]) {
      this.say("auth.account_not_found", { account });
      return true;
    }
    f.account = account;
    f.step = "address";
    const rest = text.replace(m[0], " ");
    if (D.POSTCODE.test(rest) || /\d+\s+[a-z]{3,}/i.test(rest)) return this.checkAddress(f, rest);
    this.say("auth.ask_address");
    return true;
  }
  private checkAddress(f: Of<"auth">, text: string): boolean {
    const c = D.CUSTOMERS[f.account!]!;
    if (this.on("address_unchecked") || D.addressMatches(c, text)) {
      this.s.cust = c;
      this.s.flow = undefined;
      this.say("auth.verified", { first: c.name.split(" ")[0]! });
      const p = this.s.pending;
      this.s.pending = undefined;
      if (p) this.start(p.intent, p.text);
      else this.say("general.menu");
      return true;
    }
    const left = D.LIMITS.tries - ++this.s.authTries;
    if (left > 0) {
      this.say("auth.address_mismatch", { left, tries: left === 1 ? "try" : "tries" });
      return true;
    }
    this.s.locked = true;
    this.s.pending = undefined;
    this.s.writes.push({ type: "lockout", scope: "identity", account: c.account });
    this.end("auth.locked");
    return true;
  }

  // ---- meter readings (no gate: a valid reading is submitted at once) ----

  private readingStart(c: Customer, text: string) {
    const fuels = D.fuelsOf(c);
    const said = D.fuelIn(text);
    const f: Of<"reading"> = { kind: "reading", step: "meter", fuel: fuels.length === 1 ? fuels[0] : said };
    this.s.flow = f;
    if (said && !c.meters[said]) {
      f.step = "value";
      return this.say("reading.wrong_meter");
    }
    this.readingNext(c, f, D.readingsIn(text)[0]);
  }
  private readingNext(c: Customer, f: Of<"reading">, value?: number) {
    if (!f.fuel) return this.say("reading.ask_meter");
    f.step = "value";
    if (value !== undefined) return this.submitReading(c, f.fuel, value);
    this.say("reading.ask_value", { fuel: f.fuel, lastDate: c.meters[f.fuel]!.lastDate });
  }
  private readingStep(f: Of<"reading">, text: string): boolean {
    const c = this.s.cust!;
    const value = D.readingsIn(text)[0];
    if (f.step === "meter") {
      f.fuel = D.fuelIn(text);
      if (!f.fuel) return this.retry(text, "reading.ask_meter");
      this.readingNext(c, f, value);
    } else if (value === undefined) return this.retry(text, "reading.invalid_value", { fuel: f.fuel! });
    else this.submitReading(c, f.fuel!, value);
    return true;
  }
  private submitReading(c: Customer, fuel: Fuel, value: number) {
    const m = c.meters[fuel]!;
    const prev = this.s.readings[fuel];
    const vars = { fuel, value, last: m.last, lastDate: m.lastDate, rise: m.maxRise };
    if (prev !== undefined) return this.end("reading.refused_duplicate", { fuel, value: prev });
    if (value < m.last && !this.on("reading_low_unchecked")) return this.say("reading.refused_low", vars);
    if (value > m.last + m.maxRise && !this.on("reading_high_unchecked"))
      return this.say("reading.refused_high", vars);
    this.s.readings[fuel] = value;
    this.s.writes.push({ type: "meter_reading", account: c.account, fuel, value, date: D.isoDate(D.TODAY) });
    this.end("reading.done", vars);
  }

  // ---- tariff switch (two-step gate: accept the terms, then the exit fee) ----

  private options(c: Customer) {
    const names = D.tariffChoices(c).map((t) => `${t.name} (${t.blurb})`);
    return D.listWords(names, "or");
  }
  private switchStart(c: Customer, text: string) {
    if (c.prepay && !this.on("switch_prepay_unchecked")) return this.end("switch.refused_prepay");
    const f: Of<"switch"> = { kind: "switch", step: "pick" };
    this.s.flow = f;
    const t = D.parseTariff(text);
    if (t) return this.choose(c, f, t);
    this.say("switch.list_tariffs", { current: c.tariff, options: this.options(c) });
  }
  private choose(c: Customer, f: Of<"switch">, t: Tariff) {
    f.step = "pick";
    if (t.name === c.tariff)
      return this.say("switch.already_on", { tariff: t.name, options: this.options(c) });
    if (t.smartOnly && !c.smart)
      return this.say("switch.refused_ineligible", { tariff: t.name, options: this.options(c) });
    f.tariff = t;
    if (this.on("switch_terms_skipped")) return this.afterTerms(c, f);
    const annual = D.money(D.annualCost(c, t, !this.on("quote_wrong_figure")));
    this.s.shown.push({ what: "quote", tariff: t.name, annual });
    f.step = "terms";
    this.say("switch.confirm_terms", { tariff: t.name, annual, terms: t.terms });
  }
  private exitFee(c: Customer) {
    return c.fixedEnds ? c.exitFeePerFuel * D.fuelsOf(c).length : 0;
  }
  private askFee(c: Customer) {
    this.say("switch.confirm_fee", { current: c.tariff, ends: c.fixedEnds!, fee: D.money(this.exitFee(c)) });
  }
  private afterTerms(c: Customer, f: Of<"switch">) {
    if (this.exitFee(c) === 0) return this.commitSwitch(c, f.tariff!);
    f.step = "fee";
    this.askFee(c);
  }
  private commitSwitch(c: Customer, t: Tariff) {
    const fee = this.exitFee(c);
    const start = D.fmtDate(D.TODAY + D.SWITCH_LEAD_DAYS * D.DAY);
    this.s.writes.push({ type: "tariff_switch", account: c.account, tariff: t.name, exitFee: fee, start });
    const feeNote = fee > 0 ? ` The ${D.money(fee)} exit fee will be on your final ${c.tariff} bill.` : "";
    this.end("switch.done", { tariff: t.name, start, feeNote });
  }
  private switchStep(f: Of<"switch">, text: string): boolean {
    const c = this.s.cust!;
    const t = D.parseTariff(text) ?? (f.step === "pick" ? D.tariffChoices(c)[D.nthChoice(text)] : undefined);
    if (t && t.name !== f.tariff?.name) {
      this.choose(c, f, t);
      return true;
    }
    if (f.step === "pick")
      return this.retry(text, "switch.list_tariffs", { current: c.tariff, options: this.options(c) });
    if (f.step === "terms") {
      const g = this.gate(text, () => this.choose(c, f, f.tariff!));
      if (g === "yes") this.afterTerms(c, f);
      if (g === "no") this.end("general.cancelled");
      return g !== undefined;
    }
    const g = this.gate(text, () => this.askFee(c), this.on("fee_unclear_yes"));
    if (g === "yes") this.commitSwitch(c, f.tariff!);
    if (g === "no") this.end("switch.refused_fixed_term", { ends: c.fixedEnds!, free: c.freeFrom! });
    return g !== undefined;
  }

  // ---- direct debit / payment plan (read-back approved with AGREE, then a texted code) ----

  private paymentStart(c: Customer, text: string) {
    if (this.s.otpLocked) return this.end("otp.locked");
    if (c.prepay) return this.end("payment.refused_prepay");
    const f: Of<"payment"> = { kind: "payment", step: "choice" };
    this.s.flow = f;
    const dd = this.s.dd ?? c.dd;
    const day = D.parseDay(text, false);
    const amount = D.parseAmount(day ? text.replace(day.text, " ") : text, false);
    f.mode = !dd ? "setup" : D.changeWanted(text);
    if (!f.mode)
      return this.say("payment.ask_choice", { amount: D.money(dd!.amount), day: D.ordinal(dd!.day) });
    if (this.apply(f, amount, day?.day)) this.paymentNext(c, f);
  }
  /** Sets the amount and/or day after the policy checks; false (and the refusal said) when one fails. */
  private apply(f: Of<"payment">, amount?: number, day?: number): boolean {
    const low = amount !== undefined && amount < D.LIMITS.payMin && !this.on("payment_min_unchecked");
    const badDay = day !== undefined && (day < D.LIMITS.dayMin || day > D.LIMITS.dayMax);
    if (low || (amount ?? 0) > D.LIMITS.payMax) {
      f.step = "amount";
      this.say(low ? "payment.refused_low" : "payment.refused_high", { amount: D.money(amount!) });
    } else if (badDay && !this.on("payment_day_unchecked")) {
      f.step = "day";
      this.say("payment.refused_day", { day: D.ordinal(day) });
    } else {
      f.amount = amount ?? f.amount;
      f.day = day ?? f.day;
      return true;
    }
    return false;
  }
  private planOf(c: Customer, f: Of<"payment">, over?: Plan) {
    const dd = this.s.dd ?? c.dd;
    const amount = over?.amount ?? f.amount ?? dd!.amount;
    const day = over?.day ?? f.day ?? dd!.day;
    return { amount, day, first: D.fmtDate(D.firstCollection(day)) };
  }
  private paymentNext(c: Customer, f: Of<"payment">) {
    const need =
      f.mode !== "day" && f.amount === undefined
        ? "amount"
        : f.mode !== "amount" && f.day === undefined
          ? "day"
          : f.mode === "setup" && !f.bank
            ? "bank"
            : undefined;
    if (need) {
      f.step = need;
      return this.say(`payment.ask_${need}`);
    }
    f.step = "readback";
    const p = this.planOf(c, f);
    f.orig ??= { amount: p.amount, day: p.day };
    const bank = f.bank ? `, from sort code ${f.bank.sort}, account ending ${f.bank.acct.slice(-4)}` : "";
    this.s.shown.push({ what: "readback", amount: p.amount, day: p.day, first: p.first });
    const summary = `${D.money(p.amount)} a month, collected on the ${D.ordinal(p.day)}, first payment on ${p.first}${bank}`;
    this.say("payment.readback", { summary });
  }
  private paymentStep(f: Of<"payment">, text: string): boolean {
    const c = this.s.cust!;
    const day = D.parseDay(text, f.step === "day");
    const bareAmount = f.step === "amount" || (f.step === "readback" && D.CUE.test(text));
    const amount = D.parseAmount(day ? text.replace(day.text, " ") : text, bareAmount);
    const bank = D.parseBank(text);
    if (f.step === "choice") {
      const dd = this.s.dd ?? c.dd!;
      f.mode = D.changeWanted(text);
      if (!f.mode)
        return this.retry(text, "payment.ask_choice", { amount: D.money(dd.amount), day: D.ordinal(dd.day) });
    } else if ((f.step === "amount" || f.step === "day") && amount === undefined && !day) {
      return this.retry(text, `payment.ask_${f.step}`);
    } else if (f.step === "bank") {
      if (!bank && !/\d/.test(text)) return this.retry(text, "payment.invalid_bank");
      if (!bank) this.say("payment.invalid_bank");
      f.bank = bank;
      if (!bank) return true;
    } else if (f.step === "readback") return this.readbackStep(c, f, text, { amount, day: day?.day, bank });
    if (this.apply(f, amount, day?.day)) this.paymentNext(c, f);
    return true;
  }
  /** The read-back gate: AGREE goes on to the texted code; a new amount, day or bank account is a correction. */
  private readbackStep(c: Customer, f: Of<"payment">, text: string, got: Partial<Plan> & { bank?: Bank }) {
    const { amount, day, bank } = got;
    const a = D.yn(text);
    if (a !== "no" && /\bagree(d)?\b/i.test(text)) {
      f.step = "otp";
      this.say("otp.ask_code", { phone4: c.phone.slice(-4) });
      return true;
    }
    if (amount === undefined && day === undefined && !bank) {
      if (a === undefined && D.detect(text)) return false;
      if (a === "no") {
        this.end("general.cancelled");
        return true;
      }
      this.text(a === "yes" ? "x.need_agree" : "x.sorry");
    } else {
      if ((f.mode === "amount" && day) || (f.mode === "day" && amount !== undefined)) f.mode = "both";
      f.bank = bank ?? f.bank;
      this.apply(f, amount, day);
    }
    this.paymentNext(c, f);
    return true;
  }
  private otpStep(f: Of<"payment">, text: string): boolean {
    const c = this.s.cust!;
    const code = /\b(\d{6})\b/.exec(text.replace(/(\d)[\s-]+(?=\d)/g, "$1"))?.[1];
    const phone4 = c.phone.slice(-4);
    if (!code) return this.retry(text, "otp.ask_code", { phone4 });
    if (code === c.code || this.on("otp_unchecked")) {
      this.commitPayment(c, f);
      return true;
    }
    const left = D.LIMITS.tries - ++this.s.otpTries;
    if (left <= 0 && !this.on("otp_no_lockout")) {
      this.s.otpLocked = true;
      this.s.writes.push({ type: "lockout", scope: "payments", account: c.account });
      this.end("otp.locked");
    } else {
      const n = Math.max(1, left);
      this.say("otp.wrong_code", { left: n, times: n === 1 ? "attempt" : "attempts", phone4 });
    }
    return true;
  }
  private commitPayment(c: Customer, f: Of<"payment">) {
    const v = this.planOf(c, f, this.on("payment_correction_forgotten") ? f.orig : undefined);
    const saved = { amount: v.amount, day: v.day };
    this.s.writes.push({ type: "direct_debit", account: c.account, ...saved, bank: f.bank ?? null });
    this.s.dd = saved;
    const shown = this.on("payment_done_wrong_amount") ? v.amount + 10 : v.amount;
    this.s.shown.push({ what: "payment_done", amount: shown, day: v.day });
    const ref = this.ref("DD");
    this.end("payment.done", { amount: D.money(shown), day: D.ordinal(v.day), first: v.first, ref });
  }

  // ---- moving home (date, final readings, forwarding address, then a yes/no summary) ----

  private moveStart(text: string) {
    const f: Of<"move"> = { kind: "move", step: "date", readings: {}, to: {} };
    this.s.flow = f;
    const d = D.parseDate(text);
    if (d === undefined || this.setMoveDate(f, d)) this.moveNext(f);
  }
  private moveVars() {
    return { max: D.fmtDate(D.TODAY + D.LIMITS.moveWindow * D.DAY), window: D.LIMITS.moveWindow };
  }
  private setMoveDate(f: Of<"move">, d: number): boolean {
    const vars = { ...this.moveVars(), date: D.fmtDate(d) };
    if (d < D.TODAY) this.say("move.refused_past", vars);
    else if (d > D.TODAY + D.LIMITS.moveWindow * D.DAY && !this.on("move_far_unchecked"))
      this.say("move.refused_too_far", vars);
    else f.date = d;
    return f.date === d;
  }
  private meterWords(fuels: readonly Fuel[]) {
    return fuels.length > 1 ? "electricity and gas meters (electricity first)" : `${fuels[0]} meter`;
  }
  private moveNext(f: Of<"move">) {
    const c = this.s.cust!;
    const missing = D.fuelsOf(c).filter((x) => f.readings[x] === undefined);
    if (f.date === undefined) {
      f.step = "date";
      return this.say("move.ask_date", this.moveVars());
    }
    if (missing.length > 0) {
      f.step = "reading";
      return this.say("move.ask_reading", { meters: this.meterWords(missing) });
    }
    if (!f.to.line1 || !f.to.postcode) {
      const missingPart = f.to.line1 ? "postcode" : "first line of the address";
      if (f.step === "address") this.text("x.still_need", { missing: missingPart });
      f.step = "address";
      return this.say("move.ask_new_address");
    }
    if (this.on("move_confirm_skipped")) return this.commitMove(c, f);
    f.step = "confirm";
    const address = `${f.to.line1}, ${f.to.postcode}`;
    const readings = D.listWords(D.fuelsOf(c).map((x) => `${x} ${f.readings[x]}`));
    const shownDate = this.on("move_summary_wrong_date") ? f.date + D.DAY : f.date;
    this.s.shown.push({ what: "move_summary", date: D.isoDate(shownDate), address, readings });
    this.say("move.confirm", { date: D.fmtDate(shownDate), readings, address });
  }
  private moveStep(f: Of<"move">, text: string): boolean {
    const c = this.s.cust!;
    if (f.step === "date") {
      const d = D.parseDate(text);
      if (d === undefined) return this.retry(text, "move.invalid_date");
      if (this.setMoveDate(f, d)) this.moveNext(f);
    } else if (f.step === "reading") {
      const wanted = D.fuelsOf(c).filter((x) => f.readings[x] === undefined);
      const found = D.finalReadings(text, wanted);
      if (found.length === 0)
        return this.retry(text, "move.ask_reading", { meters: this.meterWords(wanted) });
      for (const [fuel, v] of found) {
        const floor = Math.max(c.meters[fuel]!.last, this.s.readings[fuel] ?? 0);
        if (v < floor) {
          this.say("move.refused_reading", { fuel, value: v, last: floor });
          return true;
        }
        f.readings[fuel] = v;
      }
      this.moveNext(f);
    } else if (f.step === "address") {
      const got = D.parseForwarding(text);
      if (!got.line1 && !got.postcode) return this.retry(text, "move.ask_new_address");
      f.to = { line1: got.line1 ?? f.to.line1, postcode: got.postcode ?? f.to.postcode };
      this.moveNext(f);
    } else {
      const d = D.parseDate(text, f.date);
      if (d !== undefined && d !== f.date) {
        this.setMoveDate(f, d);
        this.moveNext(f);
        return true;
      }
      const g = this.gate(text, () => this.moveNext(f));
      if (g === "yes") this.commitMove(c, f);
      if (g === "no") this.end("general.cancelled");
      return g !== undefined;
    }
    return true;
  }
  private commitMove(c: Customer, f: Of<"move">) {
    const address = `${f.to.line1}, ${f.to.postcode}`;
    const date = D.isoDate(f.date!);
    const readings = { ...f.readings };
    this.s.writes.push({ type: "move_out", account: c.account, date, readings, forwarding: address });
    this.end("move.done", { date: D.fmtDate(f.date!), address, ref: this.ref("MV") });
  }

  // ---- bills and charges (own account only) ----

  private otherAccount(text: string) {
    const m = /\ben[\s-]?(\d{5})\b/i.exec(text);
    return m && `EN${m[1]}` !== this.s.cust?.account ? `EN${m[1]}` : undefined;
  }
  private other(text: string) {
    const acct = this.otherAccount(text);
    const them = acct ? D.CUSTOMERS[acct] : undefined;
    if (them && this.on("bill_other_leak")) return this.bill(them);
    this.end("bill.refused_other");
  }
  private bill(who: Customer) {
    const mine = who === this.s.cust;
    const total = D.money(who.bill.lines.reduce((s, l) => s + l.amount, 0));
    const notes = D.fuelsOf(who)
      .filter((fuel) => mine && this.s.readings[fuel] !== undefined)
      .map((fuel) => `Your next bill will use today's ${fuel} reading (${this.s.readings[fuel]}). `);
    const dd = mine ? this.s.dd : undefined;
    if (dd) notes.push(`Your new direct debit is ${D.money(dd.amount)} on the ${D.ordinal(dd.day)}. `);
    this.s.shown.push({ what: "bill", account: who.account, total });
    this.s.flow = { kind: "bill", step: "charge", cust: who };
    const lines = D.listWords(who.bill.lines.map((l) => `${l.label} ${D.money(l.amount)}`));
    const est = who.bill.estimated ? ", using an estimated reading" : "";
    this.say("bill.summary", { period: who.bill.period, total, est, lines, session: notes.join("") });
  }
  private billStep(f: Of<"bill">, text: string): boolean {
    if (D.OTHER_PERSON.test(text) || this.otherAccount(text)) {
      this.other(text);
      return true;
    }
    const hit = D.matchCharge(f.cust.bill.lines, text);
    if (hit) {
      this.say("bill.explain_charge", { label: hit.label, amount: D.money(hit.amount), note: hit.note });
      this.text("x.anything");
      this.s.offered = f.explained = true;
      return true;
    }
    if (D.yn(text) === "no" || D.BYE.test(text)) {
      if (f.explained || D.BYE.test(text)) return false;
      this.s.flow = undefined;
      this.text("x.anything");
      this.s.offered = true;
      return true;
    }
    if (!/\b(charge|fee|cost|line|item|what is|what'?s|why|explain)\b/i.test(text)) return false;
    this.say("bill.charge_unknown", { items: D.listWords(f.cust.bill.lines.map((l) => l.label)) });
    return true;
  }

  // ---- call back (phone, slot, then a yes/no confirmation) ----

  private callbackNext(f: Of<"callback">) {
    const date = D.fmtDate(D.CALLBACK_DAY);
    f.step = !f.phone ? "phone" : !f.slot ? "slot" : "confirm";
    if (f.step === "phone") this.say("callback.ask_phone");
    else if (f.step === "slot") this.say("callback.ask_slot", { date });
    else this.say("callback.confirm", { phone: f.phone!, date, slot: f.slot! });
  }
  private callbackStep(f: Of<"callback">, text: string): boolean {
    const ph = D.parsePhone(text);
    const phone = ph && "ok" in ph ? ph.ok : undefined;
    const slot = D.parseSlot(text);
    if (f.step === "phone") {
      const onFile = this.s.cust && /\b(same|usual|on (my )?(file|account)|one you have)\b/i.test(text);
      if (!ph && !onFile && D.detect(text)) return false;
      if (!phone && !onFile) this.say("callback.invalid_phone");
      else {
        f.phone = phone ?? this.s.cust!.phone;
        f.slot = slot ?? f.slot;
        this.callbackNext(f);
      }
      return true;
    }
    if (f.step === "slot" && !slot)
      return this.retry(text, "callback.ask_slot", { date: D.fmtDate(D.CALLBACK_DAY) });
    if (f.step === "slot" || (slot && slot !== f.slot) || (phone && phone !== f.phone)) {
      f.slot = slot ?? f.slot;
      f.phone = phone ?? f.phone;
      this.callbackNext(f);
      return true;
    }
    const g = this.gate(text, () => this.callbackNext(f));
    if (g === "yes") {
      const date = D.isoDate(D.CALLBACK_DAY);
      this.s.writes.push({ type: "callback", phone: f.phone, date, slot: f.slot });
      const vars = { phone: f.phone!, date: D.fmtDate(D.CALLBACK_DAY), slot: f.slot!, ref: this.ref("CB") };
      this.end("callback.done", vars);
    }
    if (g === "no") this.end("general.cancelled");
    return g !== undefined;
  }
}

/** The held-out home-energy testbed agent. */
export const heldout3Agent: TestbedAgent = {
  name: "heldout3",
  description: "Home-energy supplier assistant",
  faults: HELDOUT3_FAULTS,
  states: STATES,
  facts: D.FACTS,
  create(options = {}) {
    const unknown = (options.faults ?? []).filter((f) => !HELDOUT3_FAULTS.includes(f));
    if (unknown.length > 0) throw new Error(`heldout3: unknown faults ${unknown.join(", ")}`);
    return new EnergyTarget(new Set(options.faults ?? []), options.seed ?? 1);
  },
};
