import * as D from "./heldout5-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * Held-out testbed agent 5: a deterministic keyword/regex chat bot with a dialogue state machine, an
 * in-memory database reset per session, seeded paraphrases and switchable seeded faults.
 */

/** `"a b c"` → `"a" | "b" | "c"`. */
type Split<S extends string> = S extends `${infer A} ${infer B}` ? A | Split<B> : S;

const FAULT_IDS =
  "signin_skip_dob_check signin_no_lockout code_accepts_any bins_ignores_holiday_shift bulky_accepts_holiday bulky_item_limit_off_by_one bulky_quote_extra_item_price bulky_forgets_correction permit_skips_zone_check permit_skips_confirmation permit_lists_other_household permit_expiry_wrong fine_challenge_deadline_ignored fine_typed_amount_unchecked fine_receipt_wrong_amount" as const;
type Fault = Split<typeof FAULT_IDS>;
export const HELDOUT5_FAULTS: readonly Fault[] = FAULT_IDS.split(" ") as Fault[];

/** The designed dialogue states, by flow. */
const GROUPS = {
  start: "greet",
  menu: "show clarify out_of_scope",
  handoff: "human",
  session: "cancelled goodbye",
  auth: "ask_account unknown_account ask_dob failed locked ok",
  otp: "ask_account unknown_account sent wrong_code locked ok",
  bins: "ask_postcode out_of_area told_day",
  bulky:
    "refused_existing ask_items refused_too_many ask_date refused_weekend refused_holiday refused_short_notice refused_too_far quote corrected quote_declined booked",
  permit:
    "refused_no_zone household refused_limit ask_vehicle invalid_vehicle refused_vehicle_has_permit refused_vehicle_elsewhere ask_duration invalid_choice confirm declined issued",
  pcn: "ask_number invalid_number ask_vehicle not_found refused_closed refused_on_hold ask_choice",
  pay: "ask_amount amount_mismatch declined done",
  challenge:
    "refused_deadline refused_already ask_reason invalid_choice ask_details confirm declined submitted",
  report: "ask_category invalid_choice ask_location location_unclear confirm declined logged",
  status: "ask_reference not_found told",
} as const;
type Groups = typeof GROUPS;
type State = { [K in keyof Groups]: `${K}.${Split<Groups[K]>}` }[keyof Groups];
const STATES = Object.entries(GROUPS).flatMap(([g, ids]) =>
  ids.split(" ").map((id) => `${g}.${id}` as State),
);

// ---------- the session ----------

type Params = Record<string, string | number>;
type Handler = (t: string, raw: string) => void;

class Session implements TestbedTarget {
  readonly name = "testbed:heldout5";
  private rng: () => number;
  private db: D.Db = D.freshDb();
  private ctx = D.freshCtx();
  private state: State = "menu.show";
  private greeted = false;
  private visited: State[] = [];
  private events: string[] = [];
  private parts: string[] = [];
  private readonly handlers: Partial<Record<State, Handler>> = {};

  constructor(
    private readonly faults: ReadonlySet<Fault>,
    private readonly seed: number,
  ) {
    this.rng = D.mulberry32(seed);
    const on = (states: State[], fn: Handler) => {
      for (const s of states) this.handlers[s] = fn;
    };
    on(["auth.ask_account", "auth.unknown_account"], (t) => this.onAccount(t, "auth"));
    on(["otp.ask_account", "otp.unknown_account"], (t) => this.onAccount(t, "otp"));
    on(["auth.ask_dob", "auth.failed"], (t) => this.onDob(t));
    on(["otp.sent", "otp.wrong_code"], (t) => this.onCode(t));
    on(["bins.ask_postcode", "bins.out_of_area"], (t) => this.onPostcode(t));
    on(["bulky.ask_items", "bulky.refused_too_many"], (t) => this.onItems(t));
    on(
      ["bulky.ask_date", "bulky.refused_weekend", "bulky.refused_holiday", "bulky.refused_short_notice"],
      (t) => this.onBulkyDate(t),
    );
    on(["bulky.refused_too_far"], (t) => this.onBulkyDate(t));
    on(["bulky.quote"], (t) => this.onQuote(t));
    on(["permit.ask_vehicle", "permit.invalid_vehicle"], (t) => this.onVehicle(t));
    on(["permit.refused_vehicle_has_permit", "permit.refused_vehicle_elsewhere"], (t) => this.onVehicle(t));
    on(["permit.ask_duration", "permit.invalid_choice"], (t) => this.onDuration(t));
    on(["permit.confirm"], (t) => this.onPermitConfirm(t));
    on(["pcn.ask_number", "pcn.invalid_number", "pcn.not_found"], (t) => this.onPcnNumber(t));
    on(["pcn.ask_vehicle"], (t) => this.onPcnVehicle(t));
    on(["pcn.ask_choice"], (t) => this.onPcnChoice(t));
    on(["pay.ask_amount", "pay.amount_mismatch"], (t) => this.onAmount(t));
    on(["challenge.refused_deadline"], (t) => this.onDeadlineOffer(t));
    on(["challenge.ask_reason", "challenge.invalid_choice"], (t) => this.onReason(t));
    on(["challenge.ask_details"], (t, raw) => this.onDetails(t, raw));
    on(["challenge.confirm"], (t) => this.onChallengeConfirm(t));
    on(["report.ask_category", "report.invalid_choice"], (t) => this.onCategory(t));
    on(["report.ask_location", "report.location_unclear"], (t, raw) => this.onLocation(t, raw));
    on(["report.confirm"], (t) => this.onReportConfirm(t));
    on(["status.ask_reference", "status.not_found"], (t) => this.onReference(t));
  }

  async reset(): Promise<void> {
    this.rng = D.mulberry32(this.seed);
    this.db = D.freshDb();
    this.ctx = D.freshCtx();
    this.state = "menu.show";
    this.greeted = false;
    this.visited = [];
    this.events = [];
  }

  async send(text: string): Promise<{ text: string; ms: number }> {
    const started = Date.now();
    this.parts = [];
    const raw = text.trim();
    const t = raw.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ");
    if (!this.greeted) {
      this.greeted = true;
      this.go("start.greet");
    }
    const handler = this.handlers[this.state];
    if (handler) handler(t, raw);
    else if (!this.global(t)) this.go("menu.clarify");
    return { text: this.reply(), ms: Date.now() - started };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.events.join("\n");
  }

  // ---------- plumbing ----------

  private has(f: Fault): boolean {
    return this.faults.has(f);
  }

  private say(key: string, params: Params = {}): string {
    const options = D.WORDINGS[key]?.split(" | ");
    if (!options) throw new Error(`heldout5: no wording for ${key}`);
    const pick = options[Math.floor(this.rng() * options.length)]!;
    return pick.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
  }

  private enter(state: State, text: string) {
    this.state = state;
    this.visited.push(state);
    if (text) this.parts.push(text);
  }

  /** Enter a state saying its own wording (or `key`'s). */
  private go(state: State, params: Params = {}, key: string = state) {
    this.enter(state, this.say(key, params));
  }

  /** Inside a flow, on an answer that does not fit: global commands and intents first, else re-prompt. */
  private again(t: string, state: State, key = `${state}/again`, params: Params = {}, commandsOnly = false) {
    if (!this.global(t, commandsOnly)) this.go(state, params, key);
  }

  private log(event: string) {
    this.events.push(event);
  }

  private reply(): string {
    return this.parts.join(" ").replace(/ {2,}/g, " ").trim();
  }

  private resident(account: string): D.Resident | undefined {
    return this.db.residents.find((r) => r.account === account);
  }

  private first(r: D.Resident): string {
    return r.name.split(" ")[0]!;
  }

  /** Global commands and service intents; false when nothing matched. */
  private global(t: string, commandsOnly = false): boolean {
    const topic = D.TOPICS.find(([re]) => re.test(t))?.[1];
    if (topic === D.CHANGE_TOPIC) this.go("menu.out_of_scope", { topic });
    else if (D.CANCEL.test(t)) this.go("session.cancelled");
    else if (D.HUMAN.test(t)) this.go("handoff.human");
    else if (D.BYE.test(t)) this.go("session.goodbye");
    else if (commandsOnly) return false;
    else if (D.detectIntent(t)) this.start(D.detectIntent(t)!, t);
    else if (topic) this.go("menu.out_of_scope", { topic });
    else if (D.HELP.test(t) || D.GREETING.test(t)) this.go("menu.show");
    else return false;
    return true;
  }

  private start(intent: D.Intent, t: string) {
    if (intent === "bins") this.startBins(t);
    else if (intent === "bulky") this.startBulky();
    else if (intent === "permit") this.startPermit();
    else if (intent === "report") this.startReport(t);
    else if (intent === "status") this.startStatus(t);
    else this.startPcn(intent === "pcn_pay" ? "pay" : intent === "pcn_challenge" ? "challenge" : "ask", t);
  }

  // ---------- sign-in: account number + date of birth ----------

  private startBulky() {
    if (this.ctx.verified) return this.bulkyBegin(this.ctx.verified);
    this.ctx.after = "bulky";
    if (this.ctx.authLocked) return this.go("auth.locked");
    this.go("auth.ask_account", { purpose: "book a bulky collection" });
  }

  private onAccount(t: string, kind: "auth" | "otp") {
    const acc = D.parseAccount(t);
    if (!acc) return this.again(t, `${kind}.ask_account`, "auth.ask_account/again");
    const r = this.resident(acc);
    if (!r) {
      this.log(`lookup:account:${acc}=unknown`);
      return this.go(`${kind}.unknown_account`, {}, "auth.unknown_account");
    }
    this.ctx.pending = r;
    if (kind === "otp") return this.sendCode(r);
    const date = D.parseDate(t.replace(/\brc[-\s]?\d{5}\b/, " "));
    if (date) return this.checkDob(r, date);
    this.go("auth.ask_dob");
  }

  private onDob(t: string) {
    const date = D.parseDate(t);
    const r = this.ctx.pending;
    if (!date || !r) return this.again(t, "auth.ask_dob");
    this.checkDob(r, date);
  }

  private checkDob(r: D.Resident, date: string) {
    if (this.has("signin_skip_dob_check") || r.dob === date) {
      this.log(`auth:${r.account}=ok`);
      this.ctx.verified = r;
      this.go("auth.ok", { first: this.first(r) });
      return this.continueAfterSignIn(r);
    }
    this.ctx.authFails++;
    this.log(`auth:${r.account}=fail#${this.ctx.authFails}`);
    if (this.ctx.authFails >= 3 && !this.has("signin_no_lockout")) {
      this.ctx.authLocked = true;
      this.log("auth=locked");
      return this.go("auth.locked");
    }
    this.go("auth.failed", { left: D.plural(Math.max(3 - this.ctx.authFails, 1), "attempt", "attempts") });
  }

  private continueAfterSignIn(r: D.Resident) {
    const after = this.ctx.after;
    this.ctx.after = null;
    if (after === "bulky") this.bulkyBegin(r);
    else if (after === "permit") this.permitBegin(r);
  }

  // ---------- one-time code ----------

  private startPermit() {
    if (this.ctx.otpVerified) return this.permitBegin(this.ctx.otpVerified);
    this.ctx.after = "permit";
    if (this.ctx.otpLocked) return this.go("otp.locked");
    if (!this.ctx.verified) return this.go("otp.ask_account");
    this.ctx.pending = this.ctx.verified;
    this.sendCode(this.ctx.verified);
  }

  private sendCode(r: D.Resident) {
    this.log(`otp.sent:${r.account}->${r.mobileLast4}`);
    this.go("otp.sent", { last4: r.mobileLast4 });
  }

  private onCode(t: string) {
    const code = D.parseCode(t);
    const r = this.ctx.pending!;
    if (!code) return this.again(t, "otp.sent", "otp.sent/again", { last4: r.mobileLast4 });
    if (code === r.code || this.has("code_accepts_any")) {
      this.log(`otp:${r.account}=ok`);
      this.ctx.otpVerified = r;
      this.ctx.verified = r;
      this.go("otp.ok", { first: this.first(r) });
      return this.continueAfterSignIn(r);
    }
    this.ctx.otpFails++;
    this.log(`otp:${r.account}=fail#${this.ctx.otpFails}`);
    if (this.ctx.otpFails < 3)
      return this.go("otp.wrong_code", { left: D.plural(3 - this.ctx.otpFails, "attempt", "attempts") });
    this.ctx.otpLocked = true;
    this.log("otp=locked");
    this.go("otp.locked");
  }

  // ---------- bin days (open) ----------

  private startBins(t: string) {
    const pc = D.parsePostcode(t);
    if (pc) return this.tellBinDay(pc);
    this.go("bins.ask_postcode");
  }

  private onPostcode(t: string) {
    const pc = D.parsePostcode(t);
    if (!pc) return this.again(t, "bins.ask_postcode");
    this.tellBinDay(pc);
  }

  private tellBinDay(postcode: string) {
    const wd = D.BIN_DAYS[postcode.split(" ")[0]!];
    if (wd === undefined) {
      this.log(`out:bins:${postcode}=out_of_area`);
      return this.go("bins.out_of_area", { postcode });
    }
    let next = D.addDays(D.TODAY, 1);
    while (D.dayOfWeek(next) !== wd) next = D.addDays(next, 1);
    let holiday: string | undefined;
    for (let d = D.addDays(next, 1 - wd); d <= next; d = D.addDays(d, 1)) holiday = D.HOLIDAYS[d] ?? holiday;
    if (this.has("bins_ignores_holiday_shift")) holiday = undefined;
    if (holiday) next = D.addDays(next, 1);
    this.log(`out:bins:${postcode}=${next}`);
    const shift = holiday ? this.say("bins.shift", { holiday }) : "";
    this.enter(
      "bins.told_day",
      this.say("bins.told_day", { postcode, weekday: D.WEEKDAYS[wd]!, next: D.longDate(next) }),
    );
    if (shift) this.parts[this.parts.length - 1] += shift;
  }

  // ---------- bulky waste: quote then accept ----------

  private bulkyBegin(r: D.Resident) {
    if (r.bulky) {
      this.log(`out:bulky.existing:${r.bulky.ref}@${r.bulky.date}`);
      return this.go("bulky.refused_existing", { date: D.longDate(r.bulky.date), ref: r.bulky.ref });
    }
    Object.assign(this.ctx, { items: 0, date: "", orig: null });
    this.go("bulky.ask_items");
  }

  private itemLimitRefusal(n: number): boolean {
    const limit = this.has("bulky_item_limit_off_by_one") ? 9 : 8;
    if (n > limit) this.go("bulky.refused_too_many", { items: n });
    return n > limit;
  }

  private onItems(t: string) {
    const n = D.parseDate(t) && !/\bitems?\b/.test(t) ? null : D.parseCount(t);
    if (n === null || n < 1) return this.again(t, "bulky.ask_items");
    if (this.itemLimitRefusal(n)) return;
    this.ctx.items = n;
    this.go("bulky.ask_date");
  }

  /** Enters the refusal for a collection date and returns true, or returns false when the date is bookable. */
  private dateRefusal(date: string): boolean {
    const p = { date: D.longDate(date) };
    const holiday = D.HOLIDAYS[date];
    const latest = D.addDays(D.TODAY, 28);
    if (D.dayOfWeek(date) % 6 === 0) this.go("bulky.refused_weekend", p);
    else if (holiday && !this.has("bulky_accepts_holiday"))
      this.go("bulky.refused_holiday", { ...p, holiday });
    else if (date <= D.TODAY || D.workingDaysAfter(D.TODAY, date) < 2) {
      let earliest = D.addDays(D.TODAY, 1);
      while (D.workingDaysAfter(D.TODAY, earliest) < 2 || !D.isWorkingDay(earliest))
        earliest = D.addDays(earliest, 1);
      this.go("bulky.refused_short_notice", { ...p, earliest: D.longDate(earliest) });
    } else if (date > latest) this.go("bulky.refused_too_far", { ...p, latest: D.longDate(latest) });
    else return false;
    return true;
  }

  private onBulkyDate(t: string) {
    const date = D.parseDate(t);
    if (!date) return this.again(t, "bulky.ask_date");
    if (this.dateRefusal(date)) return;
    this.ctx.date = date;
    this.quote();
  }

  private price(items: number, r: D.Resident): number {
    const extra = this.has("bulky_quote_extra_item_price") ? 5 : 6;
    const full = 30 + Math.max(0, items - 3) * extra;
    return r.concession ? full / 2 : full;
  }

  private quote() {
    const r = this.ctx.verified!;
    const { items, date } = this.ctx;
    if (!this.ctx.orig) this.ctx.orig = { items, date };
    const price = this.price(items, r);
    this.log(`out:bulky.quote:${r.account}:${items}@${date}=${D.money(price)}`);
    const conc = r.concession ? this.say("bulky.concession") : "";
    const where = { address: r.address, postcode: r.postcode };
    const p = {
      ...where,
      items: D.plural(items, "item", "items"),
      date: D.longDate(date),
      price: D.money(price),
      conc,
    };
    this.go("bulky.quote", p);
  }

  private onQuote(t: string) {
    const date = D.parseDate(t);
    const items = D.parseItemsCorrection(t);
    if (date || items !== null) {
      if (items !== null && this.itemLimitRefusal(items)) return;
      if (date && this.dateRefusal(date)) return;
      if (items !== null) this.ctx.items = items;
      if (date) this.ctx.date = date;
      this.go("bulky.corrected");
      return this.quote();
    }
    const yn = D.yesNo(t);
    if (yn === "yes") return this.book();
    if (yn === "no") return this.go("bulky.quote_declined");
    this.again(t, "bulky.quote");
  }

  private book() {
    const r = this.ctx.verified!;
    const current = { items: this.ctx.items, date: this.ctx.date };
    const use = this.has("bulky_forgets_correction") && this.ctx.orig ? this.ctx.orig : current;
    const price = this.price(use.items, r);
    const ref = `BW-${3200 + ++this.ctx.counter}`;
    r.bulky = { ref, date: use.date, items: use.items };
    this.log(`write:bulky.book:${r.account}:${use.items}@${use.date}=${D.money(price)}:${ref}`);
    const p = {
      ref,
      items: D.plural(use.items, "item", "items"),
      date: D.longDate(use.date),
      address: r.address,
    };
    this.go("bulky.booked", { ...p, price: D.money(price) });
  }

  // ---------- residents' parking permit: code, numbered choice, confirm ----------

  private permitList(r: D.Resident): string {
    const one = (p: D.Permit) => `${p.vehicle} (valid until ${D.fullDate(p.until)})`;
    if (r.permits.length === 0) return "no resident permits";
    const list = r.permits.map(one);
    const joined = list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list[0];
    return `${D.plural(r.permits.length, "resident permit", "resident permits")}: ${joined}`;
  }

  private permitBegin(r: D.Resident) {
    if (!r.zone && !this.has("permit_skips_zone_check")) {
      this.log(`out:permit.zone:${r.account}=none`);
      return this.go("permit.refused_no_zone", { postcode: r.postcode });
    }
    const all = this.db.residents;
    const shown = this.has("permit_lists_other_household") ? all[(all.indexOf(r) + 1) % all.length]! : r;
    this.log(`out:permit.household:${shown.account}=${shown.permits.map((p) => p.vehicle).join(",") || "-"}`);
    this.go("permit.household", { address: shown.address, count: this.permitList(shown) });
    if (r.permits.length >= 2) {
      const until = r.permits.map((p) => p.until).sort()[0]!;
      return this.go("permit.refused_limit", { until: D.fullDate(until) });
    }
    Object.assign(this.ctx, { vehicle: "", months: 0 });
    this.go("permit.ask_vehicle");
  }

  /** Enters a vehicle refusal and returns true, or returns false when the vehicle may have a permit. */
  private vehicleRefusal(r: D.Resident, vehicle: string): boolean {
    const current = r.permits.find((p) => p.vehicle === vehicle);
    if (current) {
      this.go("permit.refused_vehicle_has_permit", { vehicle, until: D.fullDate(current.until) });
      return true;
    }
    if (r.vehicles.includes(vehicle)) return false;
    this.log(`out:vehicle:${vehicle}=not_at_address`);
    this.go("permit.refused_vehicle_elsewhere", { vehicle, address: r.address });
    return true;
  }

  private permitPrice(r: D.Resident, months: number): number {
    return D.PERMIT_PRICES[months]![r.permits.length === 0 ? 0 : 1];
  }

  private onVehicle(t: string) {
    const r = this.ctx.otpVerified!;
    const vehicle = D.parseReg(t);
    if (!vehicle) return this.again(t, "permit.invalid_vehicle", "permit.invalid_vehicle");
    if (this.vehicleRefusal(r, vehicle)) return;
    this.ctx.vehicle = vehicle;
    const prices = { p3: this.permitPrice(r, 3), p6: this.permitPrice(r, 6), p12: this.permitPrice(r, 12) };
    const second = r.permits.length > 0 ? `${this.say("permit.second_price")} ` : "";
    this.enter("permit.ask_duration", second + this.say("permit.ask_duration", prices));
  }

  private onDuration(t: string) {
    const months = D.parseMonths(t, true);
    if (!months) return this.again(t, "permit.invalid_choice", "permit.invalid_choice");
    this.ctx.months = months;
    if (this.has("permit_skips_confirmation")) return this.issuePermit();
    this.confirmPermit();
  }

  private permitTerms() {
    const r = this.ctx.otpVerified!;
    const { vehicle, months } = this.ctx;
    const until = D.addDays(D.addMonths(D.TODAY, months + (this.has("permit_expiry_wrong") ? 1 : 0)), -1);
    return { r, vehicle, months, until, price: this.permitPrice(r, months), zone: r.zone ?? "A" };
  }

  private confirmPermit() {
    const { vehicle, zone, months, until, price } = this.permitTerms();
    const p = {
      vehicle,
      zone,
      months,
      start: D.fullDate(D.TODAY),
      until: D.fullDate(until),
      price: D.money(price),
    };
    this.go("permit.confirm", p);
  }

  private onPermitConfirm(t: string) {
    const vehicle = D.parseReg(t);
    const months = D.parseMonths(t, false);
    if (vehicle && this.vehicleRefusal(this.ctx.otpVerified!, vehicle)) return;
    if (vehicle) this.ctx.vehicle = vehicle;
    if (months) this.ctx.months = months;
    if (vehicle || months) return this.confirmPermit();
    const yn = D.yesNo(t);
    if (yn === "yes") return this.issuePermit();
    if (yn === "no") return this.go("permit.declined");
    this.again(t, "permit.confirm");
  }

  private issuePermit() {
    const { r, vehicle, zone, until, price } = this.permitTerms();
    const ref = `RP-${8800 + ++this.ctx.counter}`;
    r.permits.push({ vehicle, until });
    this.log(
      `write:permit.issue:${r.account}:${vehicle}:zone ${zone}:${D.TODAY}..${until}=${D.money(price)}:${ref}`,
    );
    this.go("permit.issued", { ref, vehicle, zone, until: D.fullDate(until), price: D.money(price) });
  }

  // ---------- parking fines: PCN number + registration, typed amount ----------

  private startPcn(mode: D.PcnMode, t: string) {
    Object.assign(this.ctx, { mode, pcnNumber: "", fine: null, reason: 0, details: "" });
    const number = D.parsePcn(t);
    const reg = D.parseReg(t);
    if (number && reg) return this.lookupFine(number, reg);
    if (!number) return this.go("pcn.ask_number");
    this.ctx.pcnNumber = number;
    this.go("pcn.ask_vehicle");
  }

  private onPcnNumber(t: string) {
    const number = D.parsePcn(t);
    if (!number && /\brv\s?\d+|^\s*\d{5,}\s*$/.test(t)) return this.go("pcn.invalid_number");
    if (!number) return this.again(t, "pcn.invalid_number", "pcn.invalid_number");
    const reg = D.parseReg(t);
    if (reg) return this.lookupFine(number, reg);
    this.ctx.pcnNumber = number;
    this.go("pcn.ask_vehicle");
  }

  private onPcnVehicle(t: string) {
    const reg = D.parseReg(t);
    if (!reg) return this.again(t, "pcn.ask_vehicle", "permit.invalid_vehicle");
    this.lookupFine(this.ctx.pcnNumber, reg);
  }

  private due(f: D.Fine): number {
    const age = D.daysBetween(f.issued, D.TODAY);
    return age <= 14 ? 35 : age <= 28 ? 70 : 105;
  }

  private fineDetails(f: D.Fine): string {
    const age = D.daysBetween(f.issued, D.TODAY);
    const reduced = ` (the reduced rate, if paid by ${D.fullDate(D.addDays(f.issued, 14))})`;
    const rate = age <= 14 ? reduced : age > 28 ? " (it went up after 28 days unpaid)" : "";
    const { number, street, contravention } = f;
    const p = {
      number,
      street,
      contravention,
      issued: D.fullDate(f.issued),
      due: D.money(this.due(f)),
      rate,
    };
    return this.say("pcn.details", p);
  }

  private lookupFine(number: string, reg: string) {
    const f = this.db.fines.find((x) => x.number === number && x.vehicle === reg);
    if (!f) {
      this.log(`out:pcn:${number}/${reg}=none`);
      return this.go("pcn.not_found");
    }
    this.ctx.fine = f;
    this.log(`out:pcn:${number}=${f.status}:${D.money(this.due(f))}`);
    if (f.status === "paid") return this.go("pcn.refused_closed", { number });
    if (this.ctx.mode === "challenge") return this.challengeStart(f);
    if (f.status === "challenged") return this.go("pcn.refused_on_hold", { number });
    if (this.ctx.mode === "pay") return this.askAmount(f, true);
    this.enter("pcn.ask_choice", this.fineDetails(f) + this.say("pcn.ask_choice"));
  }

  private onPcnChoice(t: string) {
    const f = this.ctx.fine!;
    if (/\b(challenge|appeal|dispute|contest)\b/.test(t)) return this.challengeStart(f);
    if (/\bpay\b/.test(t) || D.yesNo(t) === "yes") return this.askAmount(f, false);
    if (D.yesNo(t) === "no") return this.go("pay.declined");
    if (!this.global(t)) this.enter("pcn.ask_choice", this.say("pcn.ask_choice").trim());
  }

  private askAmount(f: D.Fine, withDetails: boolean) {
    const lead = withDetails ? `${this.fineDetails(f)} ` : "";
    this.enter("pay.ask_amount", lead + this.say("pay.ask_amount", { due: D.money(this.due(f)) }));
  }

  private onAmount(t: string) {
    const f = this.ctx.fine!;
    const due = this.due(f);
    if (D.yesNo(t) === "no") return this.go("pay.declined");
    const amount = D.parseAmount(t);
    if (amount === null) return this.again(t, "pay.ask_amount", "pay.ask_amount", { due: D.money(due) });
    const unchecked = this.has("fine_typed_amount_unchecked");
    if (Math.abs(amount - due) > 0.001 && !unchecked)
      return this.go("pay.amount_mismatch", { due: D.money(due) });
    const charged = unchecked ? amount : due;
    f.status = "paid";
    const ref = `PAY-${7000 + ++this.ctx.counter}`;
    const shown = this.has("fine_receipt_wrong_amount") ? 70 : charged;
    this.log(`write:pcn.pay:${f.number}=${D.money(charged)}:${ref}`);
    this.log(`out:receipt:${ref}=${D.money(shown)}`);
    this.go("pay.done", { amount: D.money(shown), number: f.number, ref });
  }

  private challengeStart(f: D.Fine) {
    const number = f.number;
    if (f.status === "challenged") return this.go("challenge.refused_already", { number });
    if (D.daysBetween(f.issued, D.TODAY) > 28 && !this.has("fine_challenge_deadline_ignored")) {
      const closed = D.fullDate(D.addDays(f.issued, 28));
      const p = { number, issued: D.fullDate(f.issued), closed, due: D.money(this.due(f)) };
      return this.go("challenge.refused_deadline", p);
    }
    this.go("challenge.ask_reason");
  }

  private onDeadlineOffer(t: string) {
    const yn = D.yesNo(t);
    if (yn === "yes" || /\bpay\b/.test(t)) return this.askAmount(this.ctx.fine!, false);
    if (yn === "no") return this.go("pay.declined");
    this.again(t, "challenge.refused_deadline", "yes_no/again");
  }

  private onReason(t: string) {
    let n = D.parseChoice(t, 4);
    if (!n && /\b(signs?|markings?|lines?)\b/.test(t)) n = 1;
    if (!n && /\b(permit|ticket|paid)\b/.test(t)) n = 2;
    if (!n && /\bstolen\b/.test(t)) n = 3;
    if (!n && /\b(other|something else|another)\b/.test(t)) n = 4;
    if (!n) return this.again(t, "challenge.invalid_choice", "challenge.invalid_choice");
    this.ctx.reason = n;
    this.go("challenge.ask_details");
  }

  private onDetails(t: string, raw: string) {
    if (raw.split(/\s+/).filter(Boolean).length < 3)
      return this.again(t, "challenge.ask_details", undefined, {}, true);
    this.ctx.details = raw.replace(/["\n]/g, " ").slice(0, 200);
    const { fine, reason, details } = this.ctx;
    this.go("challenge.confirm", { number: fine!.number, reason: D.CHALLENGE_REASONS[reason - 1]!, details });
  }

  private onChallengeConfirm(t: string) {
    const yn = D.yesNo(t);
    if (yn === "no") return this.go("challenge.declined");
    if (yn !== "yes") return this.again(t, "challenge.confirm");
    const f = this.ctx.fine!;
    f.status = "challenged";
    const ref = `CH-${4400 + ++this.ctx.counter}`;
    this.log(`write:pcn.challenge:${f.number}:reason ${this.ctx.reason}:${ref}`);
    this.go("challenge.submitted", { ref });
  }

  // ---------- street reports (open) ----------

  private categoryIn(t: string): number {
    if (/\bpot ?holes?\b/.test(t)) return 1;
    if (/\b(street ?lights?|lamp ?posts?|street ?lamps?)\b/.test(t)) return 2;
    if (/\bfly.?tip\w*|dumped\b/.test(t)) return 3;
    return /\bgraffiti\b/.test(t) ? 4 : 0;
  }

  private startReport(t: string) {
    Object.assign(this.ctx, { category: this.categoryIn(t), location: "" });
    if (this.ctx.category) return this.askLocation();
    this.go("report.ask_category");
  }

  private askLocation() {
    this.go("report.ask_location", { category: D.REPORT_CATEGORIES[this.ctx.category - 1]!.name });
  }

  private onCategory(t: string) {
    const n = D.parseChoice(t, 4) ?? this.categoryIn(t);
    if (!n) return this.again(t, "report.invalid_choice", "report.invalid_choice");
    this.ctx.category = n;
    this.askLocation();
  }

  private onLocation(t: string, raw: string) {
    if (!D.STREET.test(t) && !D.parsePostcode(t))
      return this.again(t, "report.location_unclear", "report.location_unclear", {}, true);
    this.ctx.location = raw.replace(/[.!]+$/, "").slice(0, 120);
    const category = D.REPORT_CATEGORIES[this.ctx.category - 1]!.name;
    this.go("report.confirm", { category, location: this.ctx.location });
  }

  private onReportConfirm(t: string) {
    const yn = D.yesNo(t);
    if (yn === "no") return this.go("report.declined");
    if (yn !== "yes") return this.again(t, "report.confirm");
    const cat = D.REPORT_CATEGORIES[this.ctx.category - 1]!;
    const ref = `FR-${5600 + ++this.ctx.counter}`;
    const location = this.ctx.location;
    this.db.reports.push({
      ref,
      category: cat.name,
      location,
      status: "it has been logged and is awaiting inspection",
    });
    this.log(`write:report:${ref}:${cat.name}@${location}`);
    const category = cat.name[0]!.toUpperCase() + cat.name.slice(1);
    this.go("report.logged", { ref, category, days: cat.days });
  }

  // ---------- report status (open) ----------

  private startStatus(t: string) {
    const ref = D.parseRef(t);
    if (ref) return this.tellStatus(ref);
    this.go("status.ask_reference");
  }

  private onReference(t: string) {
    const ref = D.parseRef(t);
    if (!ref) return this.again(t, "status.ask_reference", "status.ask_reference");
    this.tellStatus(ref);
  }

  private tellStatus(ref: string) {
    const r = this.db.reports.find((x) => x.ref === ref);
    this.log(`out:status:${ref}=${r ? r.status : "none"}`);
    if (!r) return this.go("status.not_found", { ref });
    this.go("status.told", { ref, category: r.category, location: r.location, status: r.status });
  }
}

export const heldout5Agent: TestbedAgent = {
  name: "heldout5",
  description: "Held-out agent 5",
  faults: HELDOUT5_FAULTS,
  states: STATES,
  facts: D.FACTS,
  create(options = {}): TestbedTarget {
    const known = new Set<string>(HELDOUT5_FAULTS);
    for (const f of options.faults ?? []) if (!known.has(f)) throw new Error(`heldout5: unknown fault ${f}`);
    return new Session(new Set((options.faults ?? []) as Fault[]), options.seed ?? 1);
  },
};
