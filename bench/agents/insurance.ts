/**
 * Harbor Mutual claims assistant: a deterministic chat bot for a home and car insurer (keyword NLU and a
 * dialogue state machine, no LLM), built to measure `gauntlet boundary`. Identity is the policy number, then
 * the postcode and the policyholder's last name (asked one at a time, accepted together in either order); two
 * mismatches close identity checks for the session and a callback is offered. Deductibles, claim times and
 * office hours need no sign-in. It files a claim (policy, incident type, date, estimate; cover tier, 90-day
 * window, no future dates, estimate above the deductible, police reference for thefts), shows a claim's status
 * (own policies only), adds a named driver to a car policy (21+, at most three, premium change quoted) and
 * withdraws an open claim. Every write is read back and needs the customer's approval; a correction at that
 * point updates the value, re-checks it and reads the summary again.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import {
  CLAIM_WINDOW_DAYS,
  type Claim,
  COVER_REFUSALS,
  type Customer,
  type Db,
  freshDb,
  INCIDENT_LABELS,
  INSURANCE_FACTS,
  INSURANCE_STATES,
  type IncidentType,
  type Info,
  type Intent,
  KIND_TYPES,
  MAX_DRIVERS,
  MENU,
  MIN_DRIVER_AGE,
  type Phrase,
  type Policy,
  type PolicyKind,
  premiumFor,
  RESPONSES,
  STATUS_LINES,
  type State,
  TIER_LABELS,
  TODAY,
} from "./insurance-data.ts";
import * as nlu from "./insurance-nlu.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const INSURANCE_FAULTS = [
  "skipPostcode",
  "anyLastName",
  "skipApproval",
  "ignoreDeductible",
  "ignoreWindow",
  "futureDate",
  "coverageIgnored",
  "noPoliceReport",
  "otherCustomerClaim",
  "forgetCorrection",
  "wrongPremium",
  "withdrawPaid",
  "underageDriver",
] as const;
export type InsuranceFault = (typeof INSURANCE_FAULTS)[number];

type AuthSlot = "policy" | "postcode" | "last_name";
type ClaimSlot = "claim_policy" | "type" | "date" | "amount" | "police_report";
type OtherSlot = "claim_id" | "driver_name" | "driver_dob";
/** What the last reply asked for. */
type Awaiting = AuthSlot | ClaimSlot | OtherSlot | "approve" | "callback" | "more";

interface Slots {
  policy?: string;
  wantKind?: PolicyKind;
  foreign?: string;
  type?: IncidentType;
  date?: string;
  amount?: number;
  police?: string;
  noReport?: boolean;
  claim?: string;
  name?: string;
  dob?: string;
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
  bad?: Phrase;
  turns = 0;
  policy?: string;
  postcode?: string;
  lastName?: string;
  customer?: Customer;
  failures = 0;
  locked = false;
  callbackBooked = false;
  handedOff = false;
  intent?: Intent;
  slots: Slots = {};
  frozen?: Slots;
  awaiting?: Awaiting;
  prev?: Awaiting;

  constructor(
    readonly faults: ReadonlySet<InsuranceFault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }

  has(f: InsuranceFault): boolean {
    return this.faults.has(f);
  }

  /** One wording of the template `key`, its placeholders filled from `vars`. */
  phrase(key: State | Phrase, vars: Vars = {}): string {
    const variants = RESPONSES[key];
    const t = variants[Math.floor(this.rng() * variants.length)] ?? "";
    const all: Vars = { menu: MENU, ...vars };
    return t
      .replace(/\{(\w+)\}/g, (_, k: string) => String(all[k] ?? ""))
      .replace(/ {2,}/g, " ")
      .trim();
  }

  /** The bad-input prefix queued by the last absorb, worded (empty when none). */
  badPrefix(vars: Vars = {}): string {
    const key = this.bad;
    this.bad = undefined;
    return key ? `${this.phrase(key, vars)} ` : "";
  }

  /** The reply: enters `state`, words it from template `key` (default: the state) after any queued prefix. */
  say(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.visited.push(state);
    const text = [...this.pre, this.phrase(key, { bad: "", ...vars })].join(" ");
    this.pre = [];
    return text;
  }

  /** Ask for slot `what` in `state`. */
  ask(what: Awaiting, state: State, vars: Vars = {}): string {
    this.awaiting = what;
    return this.say(state, { ...vars, bad: this.badPrefix(vars) });
  }

  /** As {@link say}, for a reply that ends the request with "anything else?". */
  close(state: State, vars: Vars = {}): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.phrase("more") });
  }

  show(what: string, value: unknown): void {
    this.shown.push({ what, value });
  }

  own(): Policy[] {
    return (this.customer?.policies ?? []).map((id) => this.db.policies[id] as Policy);
  }

  start(intent: Intent): void {
    this.intent = intent;
    this.slots = {};
    this.frozen = undefined;
  }

  end(awaiting?: Awaiting): void {
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
    this.bad = undefined;
    if (this.handedOff) return this.say("handoff", {}, "queued");
    if (nlu.HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (this.locked && (nlu.CALLBACK.test(l) || (this.prev === "callback" && nlu.APPROVE.test(l))))
      return this.callback();
    if (this.prev === "approve") return this.gate(t, l);
    let changed = this.intent ? this.absorb(t, l, this.intent) : false;
    const found = nlu.detectIntent(l);
    if (!changed && found && found !== this.intent) {
      this.start(found);
      this.bad = undefined;
      this.absorb(t, l, found);
      changed = true;
    }
    if (!this.customer && !this.locked) changed = this.absorbAuth(t, l) || changed;
    const info = changed ? undefined : nlu.detectInfo(l);
    if (info) {
      this.bad = undefined;
      return this.info(info);
    }
    const progress = changed || this.bad !== undefined;
    if (!this.intent) {
      if (progress) return this.auth() ?? this.say("menu");
      if (nlu.BYE.test(l) || (this.prev === "more" && nlu.NO.test(l))) return this.goodbye();
      if (nlu.CALLBACK.test(l)) return this.handoff();
      if (this.prev === "callback" && nlu.NO.test(l)) this.pre.push("No problem.");
      else if (this.turns === 1 || nlu.GREETING.test(l)) return this.say("greet");
      else if (!(this.prev === "more" && nlu.APPROVE.test(l)) && !nlu.HELP.test(l))
        return this.say("fallback");
      return this.say("menu");
    }
    if (!progress && nlu.NO.test(l)) return this.aborted();
    if (!progress) this.pre.push(this.phrase("sorry"));
    return this.advance();
  }

  /** Take the policy number, postcode and last name from the text; true when the turn carried any. */
  absorbAuth(t: string, l: string): boolean {
    const p = this.prev;
    let hit = false;
    const policy = nlu.findPolicy(t, p === "policy");
    if (policy) {
      if (policy !== this.policy) [this.postcode, this.lastName] = [undefined, undefined];
      this.policy = policy;
      hit = true;
    } else if (p === "policy" && /\d/.test(l)) {
      this.bad = "bad_policy";
      return false;
    }
    if (!this.policy) return hit;
    const postcode = nlu.findPostcode(t);
    if (postcode) {
      this.postcode = postcode;
      hit = true;
    }
    const factorTurn = p === "policy" || p === "postcode" || p === "last_name";
    const name = nlu.findLastName(t, p === "last_name" || (postcode !== undefined && factorTurn));
    if (name) {
      this.lastName = name;
      hit = true;
    }
    if (!hit && p === "postcode") this.bad = "bad_postcode";
    if (!hit && p === "last_name") this.bad = "bad_name";
    return hit;
  }

  /** Take the current request's values from the text; true when one of them changed (`bad` when unreadable). */
  absorb(t: string, l: string, intent: Intent): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const p = this.prev;
    const gate = p === "approve";
    const digits = /\d/.test(l);
    if (intent === "claim") {
      this.absorbPolicyChoice(t, l);
      s.type = nlu.findIncident(l) ?? s.type;
      const date = nlu.findDate(l, p === "date" || gate);
      if (date) s.date = date.iso;
      else if (p === "date" && /\S/.test(l) && !nlu.NO.test(l)) this.bad = "bad_date";
      const rest = (date ? l.replace(date.match, " ") : l)
        .replace(nlu.POLICY_RE, " ")
        .replace(nlu.CLAIM_RE, " ")
        .replace(nlu.POLICE_RE, " ")
        .replace(nlu.POSTCODE_RE, " ");
      const amount = nlu.findAmount(rest, p === "amount");
      if (amount !== undefined) s.amount = amount;
      else if (p === "amount" && digits) this.bad = "bad_amount";
      const ref =
        s.type === "theft" || p === "police_report" ? nlu.findPoliceRef(t, p === "police_report") : undefined;
      if (ref) s.police = ref;
      else if (p === "police_report" && (nlu.NO_REPORT.test(l) || nlu.NO.test(l))) s.noReport = true;
    }
    if (intent === "status" || intent === "withdraw") {
      s.claim = nlu.findClaimId(t, p === "claim_id") ?? s.claim;
      if (s.claim === undefined && p === "claim_id" && digits) this.bad = "bad_claim";
    }
    if (intent === "driver") {
      const date = nlu.findDate(l, p === "driver_dob" || gate);
      if (date) s.dob = date.iso;
      else if (p === "driver_dob" && digits) this.bad = "bad_date";
      const name = nlu.findDriverName(t, p === "driver_name", date?.match);
      if (name) s.name = name;
      else if (p === "driver_name" && !nlu.NO.test(l)) this.bad = "bad_name";
    }
    return JSON.stringify(s) !== before;
  }

  /** Which of the customer's policies a claim is about ("home", "the car", a policy number, "2"). */
  absorbPolicyChoice(t: string, l: string): void {
    const s = this.slots;
    const own = this.own();
    const named = this.customer ? nlu.findPolicy(t, false) : undefined;
    if (named) {
      if (own.some((p) => p.id === named)) s.policy = named;
      else s.foreign = named;
      return;
    }
    const kind: PolicyKind | undefined = /\b(home|house|property|contents|buildings|flat)\b/.test(l)
      ? "home"
      : /\b(car|vehicle|motor|auto)\b/.test(l)
        ? "car"
        : undefined;
    const pick = this.prev === "claim_policy" ? /^\D*\b([12])\b\D*$/.exec(l) : null;
    if (pick) s.policy = own[Number(pick[1]) - 1]?.id ?? s.policy;
    if (!kind) return;
    if (!this.customer) {
      s.wantKind = kind;
      return;
    }
    const match = own.filter((p) => p.kind === kind);
    if (match.length === 1) [s.policy, s.wantKind] = [match[0]?.id, undefined];
    else if (!match.length) [s.policy, s.wantKind] = [undefined, kind];
  }

  /** At an approval read-back: take a correction, approve, abandon, switch request, or ask again. */
  gate(t: string, l: string): string {
    const intent = this.intent ?? "claim";
    if (this.absorb(t, l, intent)) {
      this.bad = undefined;
      this.pre.push(this.phrase("updated"));
      return this.advance();
    }
    if (nlu.APPROVE.test(l) && !/\b(not|n't)\b/.test(l)) return this.commit(true);
    if (nlu.NO.test(l)) return this.aborted();
    const found = nlu.detectIntent(l);
    if (found && found !== intent) {
      this.start(found);
      this.absorb(t, l, found);
      return this.advance();
    }
    const info = nlu.detectInfo(l);
    if (info) {
      this.visited.push(`info.${info}`);
      this.pre.push(this.phrase(`info.${info}`, this.infoVars(info, "")));
      return this.summary();
    }
    this.pre.push(this.phrase("need_approval"));
    return this.summary();
  }

  advance(): string {
    const stop = this.auth();
    if (stop) return stop;
    if (this.intent === "claim") return this.claimStep();
    if (this.intent === "status") return this.statusStep();
    if (this.intent === "withdraw") return this.withdrawStep();
    return this.driverStep();
  }

  /** The reply that stops a policy request short of verification, if any. */
  auth(): string | undefined {
    if (this.customer) return undefined;
    if (this.locked) {
      this.end("callback");
      return this.say("auth.locked");
    }
    if (!this.policy) return this.ask("policy", "auth.ask_policy");
    const policy = this.db.policies[this.policy];
    if (!policy) {
      const shown = this.policy;
      this.policy = undefined;
      this.awaiting = "policy";
      return this.say("auth.policy_unknown", { policy: shown });
    }
    const skipPostcode = this.has("skipPostcode");
    if (!skipPostcode && !this.postcode) return this.ask("postcode", "auth.ask_postcode");
    if (!this.lastName) return this.ask("last_name", "auth.ask_last_name");
    const cust = this.db.customers[policy.customer] as Customer;
    const norm = (s: string) => s.replace(/\s/g, "").toUpperCase();
    const postcodeOk = !skipPostcode && norm(this.postcode ?? "") === norm(cust.postcode);
    const nameOk = this.lastName.toLowerCase() === cust.lastName.toLowerCase();
    [this.postcode, this.lastName] = [undefined, undefined];
    if ((postcodeOk || skipPostcode) && (nameOk || this.has("anyLastName"))) {
      const factors = [...(postcodeOk ? ["postcode"] : []), ...(nameOk ? ["last_name"] : [])];
      this.show("identity", { policy: policy.id, verified: true, factors });
      this.customer = cust;
      this.pre.push(this.phrase("verified", { name: cust.firstName }));
      return undefined;
    }
    this.failures += 1;
    this.show("identity", { policy: policy.id, verified: false, attempt: this.failures });
    if (this.failures >= 2) {
      this.locked = true;
      return this.auth();
    }
    const what = skipPostcode ? "the last name" : "the postcode and last name";
    this.awaiting = skipPostcode ? "last_name" : "postcode";
    return this.say("auth.failed", { what });
  }

  infoVars(info: Info, more: string): Vars {
    if (info !== "deductible" || !this.customer) return { own: "", more };
    const own = this.own();
    const deductibles = own.map((p) => [p.id, p.deductible]);
    this.show("deductibles", deductibles);
    const list = own.map((p) => `${nlu.gbp(p.deductible)} on your ${p.kind} policy ${p.id}`);
    return { own: ` For you, the deductible is ${nlu.both(list)}.`, more };
  }

  /** A general question: answered, then the pending request (if any) carries on. */
  info(info: Info): string {
    const state: State = `info.${info}`;
    if (this.intent) {
      this.visited.push(state);
      this.pre.push(this.phrase(state, this.infoVars(info, "")));
      return this.advance();
    }
    this.end("more");
    return this.say(state, this.infoVars(info, this.phrase("more")));
  }

  policyLabel(p: Policy): string {
    return `${TIER_LABELS[p.tier]} ${p.kind}`;
  }

  refuseCover(p: Policy | undefined, why: keyof typeof COVER_REFUSALS, vars: Vars): string {
    this.show("coverage", { policy: p?.id, tier: p?.tier, type: this.slots.type, covered: false });
    const [reason = "", alt = ""] = COVER_REFUSALS[why].map((x) =>
      x.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? "")),
    );
    return this.close("claim.refused_coverage", { reason, alt, policy: p ? this.policyLabel(p) : "current" });
  }

  /** A claim's incident, date and estimate as replies word them. */
  claimVars(c: Claim): Vars {
    return {
      claim: c.id,
      type: INCIDENT_LABELS[c.type],
      date: nlu.longDate(c.date),
      amount: nlu.gbp(c.amount),
    };
  }

  claimStep(): string {
    const s = this.slots;
    const own = this.own();
    if (s.foreign) {
      this.pre.push(this.phrase("not_yours", { policy: s.foreign }));
      [s.foreign, s.policy] = [undefined, undefined];
    }
    if (!s.policy) {
      const kind = s.wantKind ?? nlu.kindOf(s.type);
      const match = own.filter((p) => !kind || p.kind === kind);
      if (kind && !match.length) {
        const type = s.type ? `${INCIDENT_LABELS[s.type]} would need ${kind} insurance, and ` : "";
        return this.refuseCover(own[0], "no_kind", { type, kind });
      }
      if (match.length === 1) s.policy = match[0]?.id;
      else {
        const list = own.map((p, i) => `${i + 1}. ${p.kind} policy ${p.id} (${p.insured})`).join("\n");
        return this.ask("claim_policy", "claim.ask_policy", { list });
      }
    }
    const pol = this.db.policies[s.policy ?? ""] as Policy;
    if (!s.type) {
      const types = KIND_TYPES[pol.kind].map((k) => INCIDENT_LABELS[k]);
      return this.ask("type", "claim.ask_type", { kind: pol.kind, types: nlu.either(types) });
    }
    if (!KIND_TYPES[pol.kind].includes(s.type))
      return this.refuseCover(pol, "wrong_kind", { type: INCIDENT_LABELS[s.type], kind: pol.kind });
    const tierBars =
      (s.type === "storm" && pol.tier === "basic") ||
      (s.type === "windscreen" && pol.tier !== "comprehensive");
    if (tierBars && !this.has("coverageIgnored"))
      return this.refuseCover(pol, s.type === "storm" ? "storm" : "windscreen", {
        tier: TIER_LABELS[pol.tier],
      });
    if (!s.date) return this.ask("date", "claim.ask_date");
    if (s.date > TODAY && !this.has("futureDate")) {
      const date = nlu.longDate(s.date);
      s.date = undefined;
      this.awaiting = "date";
      return this.say("claim.refused_future", { date });
    }
    const ago = nlu.days(s.date, TODAY);
    if (ago > CLAIM_WINDOW_DAYS && !this.has("ignoreWindow"))
      return this.close("claim.refused_window", { date: nlu.longDate(s.date), days: ago });
    if (s.amount === undefined) return this.ask("amount", "claim.ask_amount");
    if (s.amount <= pol.deductible && !this.has("ignoreDeductible")) {
      this.show("deductible", [pol.id, pol.deductible]);
      const [amount, deductible] = [nlu.gbp(s.amount), nlu.gbp(pol.deductible)];
      return this.close("claim.refused_deductible", { amount, deductible, policy: this.policyLabel(pol) });
    }
    if (s.type === "theft" && !s.police && !this.has("noPoliceReport")) {
      if (s.noReport) return this.close("claim.refused_no_report");
      return this.ask("police_report", "claim.ask_police_report");
    }
    return this.summary();
  }

  claimList(): string {
    const ids = this.own().flatMap((p) => Object.values(this.db.claims).filter((c) => c.policy === p.id));
    const names = ids.map((c) => c.id);
    this.show("claims_list", names);
    const list = ids.map((c) => `${c.id} (${INCIDENT_LABELS[c.type]}, ${nlu.longDate(c.date)})`);
    return nlu.both(list) || "none";
  }

  /** The claim named in the slots when it is on this customer's policies (or, with the fault, anyone's). */
  ownClaim(leak: boolean): Claim | undefined {
    const c = this.db.claims[this.slots.claim ?? ""];
    if (!c) return undefined;
    return this.customer?.policies.includes(c.policy) || leak ? c : undefined;
  }

  statusStep(): string {
    if (!this.slots.claim) return this.ask("claim_id", "status.ask_id", { list: this.claimList() });
    const c = this.ownClaim(this.has("otherCustomerClaim"));
    if (!c) {
      const claim = this.slots.claim;
      this.slots.claim = undefined;
      this.awaiting = "claim_id";
      return this.say("status.not_found", { claim });
    }
    this.show("claim_status", { claim: c.id, policy: c.policy, status: c.status, amount: c.amount });
    const status = STATUS_LINES[c.status][0].replace("{amount}", nlu.gbp(c.amount));
    return this.close("status.show", { ...this.claimVars(c), status });
  }

  withdrawStep(): string {
    if (!this.slots.claim) return this.ask("claim_id", "withdraw.ask_id", { list: this.claimList() });
    const c = this.ownClaim(false);
    if (!c) {
      const claim = this.slots.claim;
      this.slots.claim = undefined;
      this.awaiting = "claim_id";
      return this.say("withdraw.not_found", { claim });
    }
    if (c.status !== "open" && !(c.status === "paid" && this.has("withdrawPaid"))) {
      this.show("claim_status", { claim: c.id, status: c.status });
      return this.close("withdraw.refused_status", { claim: c.id, status: STATUS_LINES[c.status][1] });
    }
    return this.summary();
  }

  carPolicy(): Policy | undefined {
    return this.own().find((p) => p.kind === "car");
  }

  driverStep(): string {
    const s = this.slots;
    const car = this.carPolicy();
    if (!car) return this.close("driver.refused_no_car");
    if (car.drivers.length >= MAX_DRIVERS) {
      const names = car.drivers.map((d) => d.name);
      this.show("drivers", names);
      return this.close("driver.refused_max", { id: car.id, names: nlu.both(names) });
    }
    if (!s.name) return this.ask("driver_name", "driver.ask_name");
    if (!s.dob) return this.ask("driver_dob", "driver.ask_dob", { name: s.name });
    const age = nlu.ageOn(s.dob);
    const vars = { name: s.name, dob: nlu.longDate(s.dob), age: Math.max(age, 0) };
    if (age < MIN_DRIVER_AGE && !this.has("underageDriver"))
      return this.close("driver.refused_underage", vars);
    return this.summary();
  }

  /** Read the pending write back and ask for approval (or, with `skipApproval`, commit at once). */
  summary(): string {
    if (!this.frozen || !this.has("forgetCorrection")) this.frozen = { ...this.slots };
    if (this.has("skipApproval")) return this.commit(false);
    this.awaiting = "approve";
    const s = this.slots;
    const ask = this.phrase("ask");
    if (this.intent === "claim") {
      const pol = this.db.policies[s.policy ?? ""] as Policy;
      const v = { type: s.type, date: s.date, amount: s.amount, police: s.police };
      this.show("claim_readback", { policy: pol.id, ...v });
      return this.say("claim.confirm", {
        policy: this.policyLabel(pol),
        id: pol.id,
        type: INCIDENT_LABELS[s.type ?? "theft"],
        date: nlu.longDate(s.date ?? TODAY),
        amount: nlu.gbp(s.amount ?? 0),
        report: s.police ? `, police reference ${s.police}` : "",
        deductible: nlu.gbp(pol.deductible),
        ask,
      });
    }
    if (this.intent === "withdraw") {
      const c = this.ownClaim(false) as Claim;
      this.show("withdraw_readback", { claim: c.id, status: c.status });
      return this.say("withdraw.confirm", { ...this.claimVars(c), ask });
    }
    const car = this.carPolicy() as Policy;
    const real = premiumFor(nlu.ageOn(s.dob ?? TODAY));
    const quoted = this.has("wrongPremium") ? Math.round(real * 0.6) : real;
    this.show("premium_quote", { policy: car.id, driver: s.name, dob: s.dob, change: quoted });
    const [name, dob, id, insured] = [s.name ?? "", nlu.longDate(s.dob ?? TODAY), car.id, car.insured];
    const [change = "", from = "", to = ""] = [quoted, car.premium, car.premium + quoted].map((n) =>
      nlu.gbp(n),
    );
    return this.say("driver.confirm", { name, dob, id, insured, change, from, to, ask });
  }

  /** Commit the pending write (with the values first read back when `forgetCorrection` is on). */
  commit(approved: boolean): string {
    const v = this.frozen ?? this.slots;
    if (this.intent === "claim") {
      const pol = this.db.policies[v.policy ?? ""] as Policy;
      const id = `CL-${this.db.nextClaim++}`;
      const [type, date, amount] = [v.type ?? "theft", v.date ?? TODAY, v.amount ?? 0];
      const report = v.police ? { policeReport: v.police } : {};
      const claim: Claim = { id, policy: pol.id, type, date, amount, status: "open", ...report };
      this.db.claims[id] = claim;
      this.writes.push({ kind: "claim", ...claim, approved });
      return this.close("claim.done", this.claimVars(claim));
    }
    if (this.intent === "withdraw") {
      const c = this.db.claims[v.claim ?? ""] as Claim;
      const from = c.status;
      c.status = "withdrawn";
      this.writes.push({ kind: "withdraw_claim", claim: c.id, from, approved });
      return this.close("withdraw.done", { claim: c.id });
    }
    const car = this.carPolicy() as Policy;
    const name = v.name ?? "";
    const dob = v.dob ?? TODAY;
    const change = premiumFor(nlu.ageOn(dob));
    car.drivers.push({ name, dob });
    car.premium += change;
    this.writes.push({ kind: "named_driver", policy: car.id, name, dob, premium_change: change, approved });
    return this.close("driver.done", {
      name,
      change: nlu.gbp(change),
      to: nlu.gbp(car.premium),
      insured: car.insured,
    });
  }

  callback(): string {
    const policy = this.db.policies[this.policy ?? ""];
    const cust = policy ? this.db.customers[policy.customer] : undefined;
    const phone = (cust?.phone ?? "").slice(-3);
    if (this.callbackBooked) this.pre.push("There's already a callback booked for you.");
    else this.writes.push({ kind: "callback", policy: policy?.id });
    this.callbackBooked = true;
    return this.close("callback.arranged", { phone });
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
    const name = this.customer ? `, ${this.customer.firstName}` : "";
    this.end();
    return this.say("goodbye", { name });
  }
}

/** Harbor Mutual as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const insuranceAgent: TestbedAgent = {
  name: "insurance",
  description:
    "Home and car insurance claims (Harbor Mutual): policy number, then postcode and last name (2 tries, then a callback); file a claim, claim status, add a named driver, withdraw a claim; every write read back and approved.",
  faults: INSURANCE_FAULTS,
  states: INSURANCE_STATES,
  facts: INSURANCE_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(INSURANCE_FAULTS as readonly string[]).includes(f))
        throw new Error(`insurance: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<InsuranceFault>;
    let session = new Session(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `insurance?${query}`,
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
