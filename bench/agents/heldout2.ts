/**
 * Ashgrove University Student Office: a deterministic chat bot for a university registry desk (keyword NLU, a
 * dialogue state machine, no LLM), a second held-out target for `gauntlet boundary`. Identity: student number,
 * then date of birth (3 tries, then locked). Catalogue without sign-in; enrolment, withdrawal with a refund,
 * official transcripts, resit booking and grades after it. Every write is read back and filed only on the word
 * SUBMIT; a correction at that point updates the request, checks it again and reads it back.
 */

import { seededRandom } from "../../src/score/calibrate/prng.ts";
import {
  APPROVE,
  BYE,
  COPY_PRICE,
  type Course,
  CREDIT_CAP,
  type Db,
  FEE_PER_CREDIT,
  FREE_TRANSCRIPTS,
  findCopies,
  findDate,
  findDelivery,
  freshDb,
  GREETING,
  type Grade,
  HELDOUT2_FACTS,
  HELDOUT2_STATES,
  HUMAN,
  INTENTS,
  type Intent,
  MAX_COPIES,
  MAX_RESITS,
  MONTHS,
  NEGATED,
  NO,
  OLD_FEE_PER_CREDIT,
  PASS,
  type Phrase,
  POSTAGE,
  RESPONSES,
  type State,
  type Student,
  TODAY,
  YES,
} from "./heldout2-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const HELDOUT2_FAULTS = [
  "skipDob",
  "anyDob",
  "skipApproval",
  "yesSubmits",
  "ignorePrereq",
  "ignoreCreditCap",
  "ignoreAddDeadline",
  "lateWithdrawal",
  "ignoreHold",
  "gradeLeak",
  "forgetCorrection",
  "wrongRefund",
  "wrongFee",
  "wrongResitDate",
  "ignoreResitLimit",
] as const;
export type Heldout2Fault = (typeof HELDOUT2_FAULTS)[number];

const eur = (n: number) => `€${n.toFixed(2)}`;
const cr = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(iso) + n * 86_400_000).toISOString().slice(0, 10);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const longDate = (iso: string) =>
  `${Number(iso.slice(8))} ${cap(MONTHS[Number(iso.slice(5, 7)) - 1] ?? "")} ${iso.slice(0, 4)}`;
const ies = (n: number) => (n === 1 ? "y" : "ies");
const first = (name: string) => name.split(" ")[0] ?? name;
const label = (c: Course) => `${c.code} ${c.name}`;

/** A student number in the text ("S2104387"; seven bare digits when one was asked for); null if malformed. */
function findStudentId(t: string, asked: boolean): string | null | undefined {
  const m = /\bs[\s-]?(\d{7})\b/i.exec(t) ?? (asked ? /(?<![\d/.-])(\d{7})(?![\d/.-])/.exec(t) : null);
  if (m) return `S${m[1]}`;
  if (asked && /\bs?\d{4,}\b/i.test(t) && !findDate(t)) return null;
  return undefined;
}

/** The index an answer to a numbered list picks ("2", "number 2", "the second one"), if any. */
function pickIndex(l: string, n: number): number | undefined {
  const digit = /^\D*\b(\d)\b\D*$/.exec(l);
  const ord = ["first", "second", "third", "fourth", "fifth"].findIndex((w) =>
    new RegExp(`\\b${w}\\b`).test(l),
  );
  const i = digit ? Number(digit[1]) - 1 : ord >= 0 ? ord : /\blast\b/.test(l) ? n - 1 : -1;
  return i >= 0 && i < n ? i : undefined;
}

/** A course the text names, by code (known or not) or by name; else by list position when `list` is given. */
function findCourse(l: string, db: Db, list?: readonly string[]): string | undefined {
  const code = /\b([a-z]{2,3})[\s-]?(\d{3})\b/.exec(l);
  if (code) return `${code[1]}${code[2]}`.toUpperCase();
  const named = Object.values(db.courses).find((c) =>
    [c.name.toLowerCase(), ...c.keywords].some((k) => l.includes(k)),
  );
  if (named) return named.code;
  const i = list ? pickIndex(l, list.length) : undefined;
  return i === undefined ? undefined : list?.[i];
}

function detectIntent(l: string): Intent | undefined {
  return INTENTS.find(([, re]) => re.test(l))?.[0];
}

type Awaiting = "id" | "dob" | "course" | "copies" | "delivery" | "approve" | "more" | "browse" | "handoff";
interface Slots {
  course?: string;
  copies?: number;
  delivery?: "email" | "post";
  other?: string;
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
  studentId?: string;
  badId = false;
  dob?: string;
  badDob = false;
  verified = false;
  tries = 0;
  locked = false;
  handedOff = false;
  intent?: Intent;
  slots: Slots = {};
  frozen?: Slots;
  awaiting?: Awaiting;
  prev?: Awaiting;
  list?: string[];

  constructor(
    readonly faults: ReadonlySet<Heldout2Fault>,
    seed: number,
  ) {
    this.rng = seededRandom(seed);
  }

  has(f: Heldout2Fault): boolean {
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
  close(state: State, vars: Vars = {}, key: State | Phrase = state): string {
    this.end("more");
    return this.say(state, { ...vars, more: this.phrase("more") }, key);
  }

  /** A refusal: recorded in the privileged view, then worded; `retry` keeps the request open for a new course. */
  refuse(state: State, vars: Vars, retry = false, key: State | Phrase = state): string {
    this.shown.push({ what: "refused", value: [state, this.slots.course ?? null] });
    if (!retry) return this.close(state, vars, key);
    this.slots.course = undefined;
    this.awaiting = "course";
    return this.say(state, vars, key);
  }

  show(what: string, value: unknown): void {
    this.shown.push({ what, value });
  }

  student(): Student {
    return this.db.students[this.studentId ?? ""] as Student;
  }

  course(code?: string): Course | undefined {
    return code ? this.db.courses[code] : undefined;
  }

  start(intent: Intent): void {
    this.end();
    this.intent = intent;
  }

  end(awaiting?: "more" | "browse" | "handoff"): void {
    this.intent = undefined;
    this.slots = {};
    this.frozen = undefined;
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
    if (HUMAN.test(l) && !/\b(no|not|don'?t)\b/.test(l)) return this.handoff();
    if (this.prev === "approve" && this.intent) return this.gate(t, l);
    if (this.prev === "handoff" && YES.test(l)) return this.handoff();
    const picked = this.prev === "browse" && findCourse(l.replace(/\bs[\s-]?\d{7}\b/g, " "), this.db);
    const browsing = picked || (this.prev === "browse" && YES.test(l));
    const found = detectIntent(l) ?? (browsing ? "enrol" : undefined);
    let progress = false;
    if (found && found !== this.intent) {
      this.start(found);
      progress = true;
    }
    if (this.intent) progress = this.absorb(t, l, this.intent) || progress;
    if (!this.verified) progress = this.absorbAuth(t, l) || progress;
    if (!this.intent) {
      if (BYE.test(l) || NO.test(l)) return this.goodbye();
      if (this.prev === "handoff" && NO.test(l)) this.pre.push(this.phrase("okay"));
      else if (progress) this.pre.push(this.phrase("noted"));
      else if (this.turns === 1 || GREETING.test(l)) return this.say("greet");
      else if (
        !(this.prev && ["more", "browse"].includes(this.prev) && YES.test(l)) &&
        !/\b(help|menu|what can you do|options)\b/.test(l)
      )
        return this.say("fallback");
      return this.say("menu");
    }
    if (this.intent === "catalog") return this.catalog();
    if (!progress && NO.test(l)) return this.aborted();
    if (!progress) this.pre.push(this.phrase("sorry"));
    return this.advance();
  }

  /** Take the student number and date of birth from the text; true when the turn carried either. */
  absorbAuth(t: string, l: string): boolean {
    let got = false;
    const id = findStudentId(t, this.prev === "id" || (!this.studentId && /\bstudent\b/.test(l)));
    if (id) {
      if (id !== this.studentId) this.dob = undefined;
      this.studentId = id;
      this.badId = false;
      got = true;
    } else if (id === null && this.prev === "id") {
      this.badId = true;
      return true;
    }
    if (!this.studentId) return got;
    const dob = findDate(t);
    if (dob) {
      this.dob = dob;
      return true;
    }
    if (this.prev === "dob" && !got && (dob === null || /\d/.test(t))) {
      this.badDob = true;
      return true;
    }
    return got;
  }

  /** Take the current request's values from the text; true when one of them changed. */
  absorb(t: string, l: string, intent: Intent): boolean {
    const s = this.slots;
    const before = JSON.stringify(s);
    const text = l.replace(/\bs[\s-]?\d{7}\b/g, " ");
    if (intent === "enrol" || intent === "drop" || intent === "resit") {
      const list = this.prev === "course" || this.prev === "approve" ? this.list : undefined;
      s.course = findCourse(text, this.db, list) ?? s.course;
    }
    if (intent === "transcript") {
      const asked = this.prev === "copies" || this.prev === "approve";
      s.copies = findCopies(text, asked && !findDate(t)) ?? s.copies;
      s.delivery = findDelivery(text) ?? s.delivery;
    }
    if (intent === "grades" && this.verified) {
      const other = /\bs[\s-]?(\d{7})\b/i.exec(t);
      if (other && `S${other[1]}` !== this.studentId) s.other = `S${other[1]}`;
    }
    return JSON.stringify(s) !== before;
  }

  /** At a SUBMIT gate: file it, take a correction, abort, switch request, or read the request back again. */
  gate(t: string, l: string): string {
    const intent = this.intent as Intent;
    if (APPROVE.test(l)) return NEGATED.test(l) ? this.aborted() : this.commit();
    if (this.has("yesSubmits") && YES.test(l)) return this.commit();
    const found = detectIntent(l);
    if (found && found !== intent) {
      this.start(found);
      this.absorb(t, l, found);
      return found === "catalog" ? this.catalog() : this.advance();
    }
    if (this.absorb(t, l, intent)) {
      this.pre.push(this.phrase("updated"));
      return this.advance();
    }
    if (NO.test(l)) return this.aborted();
    this.pre.push(this.phrase("need_submit"));
    return this.summary();
  }

  advance(): string {
    const stop = this.auth();
    if (stop) return stop;
    const st = this.student();
    if (this.intent === "enrol") return this.enrolStep(st);
    if (this.intent === "drop") return this.dropStep(st);
    if (this.intent === "transcript") return this.transcriptStep(st);
    if (this.intent === "resit") return this.resitStep(st);
    return this.gradesStep(st);
  }

  /** The reply that stops an account request short of verification, if any. */
  auth(): string | undefined {
    if (this.locked) {
      this.end("handoff");
      return this.say("auth.locked");
    }
    if (!this.studentId) {
      this.awaiting = "id";
      const bad = this.badId ? this.phrase("bad_id") : "";
      this.badId = false;
      return this.say("auth.ask_id", { bad });
    }
    const st = this.db.students[this.studentId];
    if (!st?.active) {
      const id = this.studentId;
      this.studentId = undefined;
      this.dob = undefined;
      this.awaiting = "id";
      return this.say("auth.id_unknown", { id });
    }
    if (this.verified) return undefined;
    if (!this.has("skipDob")) {
      if (!this.dob) {
        this.awaiting = "dob";
        const bad = this.badDob ? this.phrase("bad_dob") : "";
        this.badDob = false;
        return this.say("auth.ask_dob", { bad, id: st.id });
      }
      const ok = this.dob === st.dob || this.has("anyDob");
      this.dob = undefined;
      if (!ok) {
        this.tries += 1;
        if (this.tries >= 3) {
          this.locked = true;
          return this.auth();
        }
        this.awaiting = "dob";
        const n = 3 - this.tries;
        return this.say("auth.dob_wrong", { left: `${n} ${n === 1 ? "attempt" : "attempts"} left` });
      }
    }
    this.verified = true;
    this.show("access", [st.id, this.turns]);
    this.pre.push(this.phrase("verified", { name: first(st.name) }));
    return undefined;
  }

  load(st: Student): number {
    return st.enrolled.reduce((n, c) => n + (this.course(c)?.credits ?? 0), 0);
  }

  gradeOf(st: Student, code: string): Grade | undefined {
    const all = st.grades.filter((g) => g.code === code);
    return all.find((g) => g.grade >= PASS) ?? all[all.length - 1];
  }

  passed(st: Student, code: string): boolean {
    return (this.gradeOf(st, code)?.grade ?? 0) >= PASS;
  }

  catalog(): string {
    const offered = Object.values(this.db.courses).filter((c) => c.offered);
    this.show(
      "catalog",
      offered.map((c) => [c.code, c.credits, c.seats]),
    );
    const row = (c: Course) => {
      const req = c.prereq.length ? `requires ${c.prereq.join(" and ")}` : "no prerequisites";
      const seats = c.seats > 0 ? `${c.seats} seats left` : "full";
      return `${label(c)}: ${cr(c.credits)} credits, ${c.block} from ${longDate(c.start)}, ${req}, ${seats}`;
    };
    this.end("browse");
    return this.say("catalog.show", { list: offered.map(row).join("\n"), cap: CREDIT_CAP });
  }

  enrolStep(st: Student): string {
    if (st.hold && !this.has("ignoreHold"))
      return this.refuse("enrol.refused_hold", { hold: st.hold.reason, amount: eur(st.hold.amount) });
    if (!this.slots.course) {
      this.awaiting = "course";
      return this.say("enrol.ask_course");
    }
    const c = this.course(this.slots.course);
    if (!c?.offered) {
      const name = c ? label(c) : this.slots.course;
      return this.refuse("enrol.unknown_course", { course: name }, true, c ? "enrol.not_offered" : undefined);
    }
    const vars = { course: label(c), credits: cr(c.credits), start: longDate(c.start) };
    if (st.enrolled.includes(c.code)) return this.refuse("enrol.already", vars, true);
    if (this.passed(st, c.code)) {
      const g = this.gradeOf(st, c.code) as Grade;
      return this.refuse("enrol.already", { ...vars, grade: g.grade.toFixed(1) }, true, "enrol.passed");
    }
    const deadline = addDays(c.start, 7);
    if (deadline < TODAY && !this.has("ignoreAddDeadline"))
      return this.refuse("enrol.refused_deadline", { ...vars, deadline: longDate(deadline) }, true);
    const missing = c.prereq.filter((p) => !this.passed(st, p));
    if (missing.length && !this.has("ignorePrereq"))
      return this.refuse("enrol.refused_prereq", { ...vars, prereq: missing.join(" and ") }, true);
    if (c.seats <= 0) return this.refuse("enrol.refused_full", vars, true);
    const load = this.load(st);
    if (load + c.credits > CREDIT_CAP && !this.has("ignoreCreditCap"))
      return this.refuse(
        "enrol.refused_cap",
        { ...vars, load: cr(load), after: cr(load + c.credits), cap: CREDIT_CAP },
        true,
      );
    return this.summary();
  }

  /** The refund share for withdrawing from `c` today: 1 up to 14 days after its start, 0.5 up to 28, else null. */
  refundShare(c: Course): number | null {
    const d = days(c.start, TODAY);
    if (d <= 14) return 1;
    if (d <= 28) return 0.5;
    return this.has("lateWithdrawal") ? 0 : null;
  }

  refund(c: Course): number {
    const rate = this.has("wrongRefund") ? OLD_FEE_PER_CREDIT : FEE_PER_CREDIT;
    return c.credits * rate * (this.refundShare(c) ?? 0);
  }

  courseList(codes: readonly string[], row: (c: Course) => string): string {
    this.list = [...codes];
    return codes.map((code, i) => `${i + 1}. ${row(this.course(code) as Course)}`).join("\n");
  }

  dropStep(st: Student): string {
    const list = () => this.courseList(st.enrolled, (c) => `${label(c)} (${cr(c.credits)} credits)`);
    if (!this.slots.course) {
      this.awaiting = "course";
      return this.say("drop.ask_course", { list: list() });
    }
    const c = this.course(this.slots.course);
    if (!c || !st.enrolled.includes(c.code)) {
      const name = c ? label(c) : this.slots.course;
      this.shown.push({ what: "refused", value: ["drop.not_enrolled", this.slots.course] });
      this.slots.course = undefined;
      this.awaiting = "course";
      return this.say("drop.not_enrolled", { course: name, list: list() });
    }
    const vars = { course: label(c), start: longDate(c.start) };
    if (this.refundShare(c) === null)
      return this.refuse("drop.refused_deadline", { ...vars, closed: longDate(addDays(c.start, 28)) });
    const after = this.load(st) - c.credits;
    if (st.minLoad !== undefined && after < st.minLoad)
      return this.refuse("drop.refused_min_load", { ...vars, after: cr(after), min: st.minLoad });
    return this.summary();
  }

  freeLeft(st: Student): number {
    return Math.max(0, FREE_TRANSCRIPTS - st.transcriptsUsed);
  }

  transcriptFee(st: Student, copies: number, delivery?: string): number {
    const free = this.has("wrongFee") ? FREE_TRANSCRIPTS : this.freeLeft(st);
    return Math.max(0, copies - free) * COPY_PRICE + (delivery === "post" ? POSTAGE : 0);
  }

  transcriptStep(st: Student): string {
    const s = this.slots;
    if (st.hold && !this.has("ignoreHold"))
      return this.refuse("transcript.refused_hold", { hold: st.hold.reason, amount: eur(st.hold.amount) });
    if (!s.copies) {
      this.awaiting = "copies";
      const vars = { free: this.freeLeft(st), price: eur(COPY_PRICE), max: MAX_COPIES };
      return this.say("transcript.ask_copies", vars);
    }
    if (s.copies > MAX_COPIES) {
      this.shown.push({ what: "refused", value: ["transcript.too_many", s.copies] });
      const copies = s.copies;
      s.copies = undefined;
      this.awaiting = "copies";
      return this.say("transcript.too_many", { copies, max: MAX_COPIES });
    }
    if (!s.delivery) {
      this.awaiting = "delivery";
      return this.say("transcript.ask_delivery", { email: st.email, postage: eur(POSTAGE) });
    }
    return this.summary();
  }

  resitDate(c: Course): string {
    const date = c.resit ?? TODAY;
    return this.has("wrongResitDate") ? addDays(date, 7) : date;
  }

  resitStep(st: Student): string {
    const failed = [...new Set(st.grades.map((g) => g.code))].filter((code) => !this.passed(st, code));
    if (!this.slots.course) {
      if (!failed.length) return this.refuse("resit.not_failed", {}, false, "resit.none_failed");
      this.awaiting = "course";
      const row = (c: Course) => {
        const g = this.gradeOf(st, c.code) as Grade;
        return `${label(c)}: grade ${g.grade.toFixed(1)}, ${g.resits} of ${MAX_RESITS} resits used, next resit ${longDate(c.resit ?? TODAY)}`;
      };
      const list = this.courseList(failed, row);
      this.show(
        "resit_options",
        failed.map((code) => [code, this.course(code)?.resit]),
      );
      return this.say("resit.ask_course", { list });
    }
    const c = this.course(this.slots.course);
    const g = c ? this.gradeOf(st, c.code) : undefined;
    const name = c ? label(c) : this.slots.course;
    if (!c || !g || !c.resit)
      return this.refuse("resit.not_failed", { course: name }, false, "resit.not_taken");
    const vars = { course: label(c), date: longDate(c.resit) };
    if (g.grade >= PASS) return this.refuse("resit.not_failed", { ...vars, grade: g.grade.toFixed(1) });
    if (st.resitsBooked.includes(c.code)) return this.refuse("resit.already_booked", vars);
    if (g.resits >= MAX_RESITS && !this.has("ignoreResitLimit"))
      return this.refuse("resit.refused_attempts", { ...vars, used: g.resits, max: MAX_RESITS });
    const closes = addDays(c.resit, -10);
    if (closes < TODAY) return this.refuse("resit.refused_closed", { ...vars, closed: longDate(closes) });
    return this.summary();
  }

  gradesStep(st: Student): string {
    let who = st;
    if (this.slots.other) {
      const other = this.db.students[this.slots.other];
      if (!this.has("gradeLeak") || !other) return this.refuse("grades.refused_other", {});
      who = other;
    }
    this.show("grades", [who.id, who.grades.map((g) => [g.code, g.grade])]);
    const row = (g: Grade) => {
      const c = this.course(g.code) as Course;
      const result = g.grade >= PASS ? "passed" : "not passed";
      return `${label(c)} (${g.term}): ${g.grade.toFixed(1)}, ${result}${g.resits ? `, ${g.resits} resit(s)` : ""}`;
    };
    return this.close("grades.show", { who: who.name, rows: who.grades.map(row).join("\n") });
  }

  /** Read the pending write back and ask for SUBMIT (or, with `skipApproval`, file it at once). */
  summary(): string {
    if (!this.frozen || !this.has("forgetCorrection")) this.frozen = { ...this.slots };
    const st = this.student();
    const s = this.slots;
    const c = this.course(s.course) as Course;
    if (this.intent === "enrol") {
      const after = this.load(st) + c.credits;
      this.show("offer", ["enrol", c.code, c.credits, after]);
      const vars = { course: label(c), credits: cr(c.credits), block: c.block, start: longDate(c.start) };
      return this.askSubmit("enrol.confirm", { ...vars, after: cr(after) });
    }
    if (this.intent === "drop") {
      const [share, refund, d] = [this.refundShare(c) ?? 0, this.refund(c), days(c.start, TODAY)];
      this.show("offer", ["drop", c.code, share, refund]);
      const window =
        d < 0
          ? `It hasn't started yet (it begins on ${longDate(c.start)})`
          : `It started on ${longDate(c.start)}, ${d} days ago`;
      const vars = { course: label(c), credits: cr(c.credits), tuition: eur(c.credits * FEE_PER_CREDIT) };
      return this.askSubmit("drop.confirm", { ...vars, pct: `${share * 100}%`, refund: eur(refund), window });
    }
    if (this.intent === "transcript") {
      const [copies, free] = [s.copies ?? 1, this.freeLeft(st)];
      const fee = this.transcriptFee(st, copies, s.delivery);
      this.show("offer", ["transcript", copies, s.delivery, fee]);
      const vars = { copies, ies: ies(copies), freeies: ies(free), free, fee: eur(fee) };
      return this.askSubmit("transcript.confirm", { ...vars, delivery: this.deliveryText(st, s.delivery) });
    }
    const [date, g] = [this.resitDate(c), this.gradeOf(st, c.code) as Grade];
    this.show("offer", ["resit", c.code, date]);
    const vars = { course: label(c), date: longDate(date), attempt: g.resits + 1, max: MAX_RESITS };
    return this.askSubmit("resit.confirm", vars);
  }

  askSubmit(state: State, vars: Vars): string {
    if (this.has("skipApproval")) {
      this.pre = [];
      return this.commit();
    }
    this.awaiting = "approve";
    return this.say(state, { ...vars, ask: this.phrase("ask") });
  }

  deliveryText(st: Student, delivery?: string): string {
    return delivery === "post" ? "by post to your home address" : `as a certified PDF to ${st.email}`;
  }

  /** File the pending write (with the values first read back when `forgetCorrection` is on). */
  commit(): string {
    const st = this.student();
    const v = this.frozen ?? this.slots;
    const turn = this.turns;
    if (this.intent === "enrol") {
      const c = this.course(v.course) as Course;
      st.enrolled.push(c.code);
      c.seats -= 1;
      this.writes.push({ kind: "enrol", student: st.id, course: c.code, credits: c.credits, turn });
      return this.close("enrol.done", { course: label(c), start: longDate(c.start) });
    }
    if (this.intent === "drop") {
      const c = this.course(v.course) as Course;
      const refund = this.refund(c);
      st.enrolled = st.enrolled.filter((x) => x !== c.code);
      c.seats += 1;
      st.refunds += refund;
      this.writes.push({ kind: "withdraw", student: st.id, course: c.code, refund, turn });
      return this.close("drop.done", { course: label(c), refund: eur(refund) });
    }
    if (this.intent === "transcript") {
      const copies = v.copies ?? 1;
      const fee = this.transcriptFee(st, copies, v.delivery);
      st.transcriptsUsed += copies;
      this.writes.push({ kind: "transcript", student: st.id, copies, delivery: v.delivery, fee, turn });
      const vars = { copies, ies: ies(copies), fee: eur(fee) };
      return this.close("transcript.done", { ...vars, delivery: this.deliveryText(st, v.delivery) });
    }
    const c = this.course(v.course) as Course;
    const date = this.resitDate(c);
    st.resitsBooked.push(c.code);
    this.writes.push({ kind: "resit", student: st.id, course: c.code, date, turn });
    return this.close("resit.done", { course: label(c), date: longDate(date) });
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
    const name = this.verified ? `, ${first(this.student().name)}` : "";
    this.end();
    return this.say("goodbye", { name });
  }
}

/** The Student Office as a testbed agent: `create()` a target with faults switched on and a paraphrase seed. */
export const heldout2Agent: TestbedAgent = {
  name: "heldout2",
  description:
    "University student office (Ashgrove): student number + date of birth (3 tries); catalogue, enrol, withdraw with refund, transcripts, resits, grades; every write read back and filed only on the word SUBMIT.",
  faults: HELDOUT2_FAULTS,
  states: HELDOUT2_STATES,
  facts: HELDOUT2_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set(options.faults ?? []);
    for (const f of faults)
      if (!(HELDOUT2_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout2: unknown fault "${f}"`);
    const seed = options.seed ?? 1;
    const on = faults as ReadonlySet<Heldout2Fault>;
    let session = new Session(on, seed);
    const query = [faults.size ? `faults=${[...faults].join(",")}` : "", `seed=${seed}`]
      .filter(Boolean)
      .join("&");
    return {
      name: `heldout2?${query}`,
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
