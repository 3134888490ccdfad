import { type ChatReply, TargetError } from "../../src/agents/chat/target.ts";
import {
  COURSES,
  type Course,
  CREDIT_MAX,
  compact,
  extract8,
  FACTS,
  findCourse,
  isCancel,
  isNo,
  isYes,
  MAX_AUTH_FAILURES,
  MAX_COPIES,
  MENU,
  money,
  OPEN_TERMS,
  PAY_MAX_CENTS,
  PAY_MIN_CENTS,
  POSTAGE_CENTS,
  parseAmount,
  parseCopies,
  parseCourse,
  parseDob,
  parseMethod,
  parseSection,
  parseTerm,
  RX,
  type Section,
  STATES,
  STUDENTS,
  type StateId,
  type Student,
  slot,
  TEMPLATES,
  TERMS,
  type TermId,
  TODAY,
  TRANSCRIPT_UNIT_CENTS,
  termDates,
  termMenu,
} from "./heldout12-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * heldout12: the Northvale University Student Hub assistant (course enrolment and student services).
 *
 * Rule-based: keyword and regex NLU over the user's text, numbered menus, one flow at a time. Each reset()
 * starts a fresh session on a fresh copy of the seeded records (students, seats, balances), so writes made in
 * one conversation (enrolments, drops, payments, orders) never leak into the next; the sign-in lock-out is
 * per session as well.
 */

export const HELDOUT12_FAULTS = [
  "skip_prereq_check",
  "ignore_credit_max",
  "ignore_fee_hold",
  "skip_clash_check",
  "overbook_full_section",
  "skip_enrol_confirm",
  "forget_section_correction",
  "wrong_section_time",
  "drop_after_deadline",
  "drop_false_success",
  "any_dob_accepted",
  "no_lockout",
  "timetable_other_student",
  "pay_over_balance",
  "pay_min_unchecked",
  "transcript_total_wrong",
  "transcript_copies_echo",
  "transcript_wrong_address",
] as const;
export type Heldout12Fault = (typeof HELDOUT12_FAULTS)[number];

type AuthIntent = "enrol" | "drop" | "timetable" | "balance" | "pay" | "transcript" | "signin";
type PublicIntent = "adviser" | "goodbye" | "signout" | "term_dates" | "office_hours" | "catalog" | "help";
type Intent = AuthIntent | PublicIntent | "thanks" | "greeting";

interface EnrolFlow {
  kind: "enrol";
  stage: "term" | "course" | "section" | "waitlist" | "confirm";
  term?: TermId;
  code?: string;
  section?: string;
  /** Set only by the forget_section_correction fault: the section chosen before a correction. */
  stale?: string;
}
interface DropFlow {
  kind: "drop";
  stage: "course" | "confirm" | "code";
  code?: string;
}
interface PayFlow {
  kind: "pay";
  stage: "amount" | "confirm";
  cents?: number;
}
interface TranscriptFlow {
  kind: "transcript";
  stage: "copies" | "delivery" | "address" | "email_instead" | "confirm";
  copies?: number;
  method?: "email" | "post";
  addressOk?: boolean;
}
interface AuthFlow {
  kind: "auth";
  stage: "number" | "dob";
  candidate?: Student;
  pending: AuthIntent;
  text: string;
}
/** Flows without slots: nothing pending, or waiting for a course to look up. */
type Resting = { kind: "idle" } | { kind: "catalog" };
type Flow = Resting | AuthFlow | EnrolFlow | DropFlow | PayFlow | TranscriptFlow;

type Vars = Record<string, string | number>;

// ---------------------------------------------------------------- text helpers

const MENU_INTENTS: readonly Intent[] = [
  "enrol",
  "drop",
  "timetable",
  "balance",
  "transcript",
  "term_dates",
  "office_hours",
  "adviser",
];

function detectIntent(t: string): Intent | null {
  if (RX.adviser.test(t)) return "adviser";
  if (RX.goodbye.test(t)) return "goodbye";
  if (RX.signout.test(t)) return "signout";
  if (RX.termDates.test(t)) return "term_dates";
  if (RX.office.test(t)) return "office_hours";
  if (RX.transcript.test(t)) return "transcript";
  if (RX.pay.test(t)) return "pay";
  if (RX.balance.test(t)) return "balance";
  if (RX.drop.test(t)) return "drop";
  if (RX.enrol.test(t)) return "enrol";
  if (RX.timetable.test(t)) return "timetable";
  if (RX.signin.test(t)) return "signin";
  if (parseCourse(t) || RX.catalog.test(t)) return "catalog";
  if (RX.help.test(t)) return "help";
  if (RX.thanks.test(t)) return "thanks";
  if (RX.greeting.test(t)) return "greeting";
  return null;
}

function fill(template: string, vars: Vars): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = vars[k];
    if (v === undefined) throw new Error(`heldout12: template variable ${k} missing`);
    return String(v);
  });
}

// ---------------------------------------------------------------- the session

class Session {
  readonly states: StateId[] = [];
  readonly effects: string[] = [];
  private out: string[] = [];
  private raw = "";
  private readonly students: Student[] = structuredClone(STUDENTS) as Student[];
  private readonly courses: Course[] = structuredClone(COURSES) as Course[];
  private user: Student | null = null;
  private locked = false;
  private failures = 0;
  private flow: Flow = { kind: "idle" };
  private menuShown = false;
  private orders = 0;

  constructor(
    private readonly faults: ReadonlySet<Heldout12Fault>,
    private readonly seed: number,
  ) {}

  turn(text: string): string {
    this.out = [];
    this.raw = text.trim().slice(0, 40);
    const t = text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
    const f = this.flow;
    if (!t) this.say("chat.fallback", { menu: MENU });
    else if (f.kind === "idle") this.idle(t);
    else if (f.kind === "catalog") this.catalogTurn(t);
    else if (f.kind === "auth") this.authTurn(f, t);
    else if (f.kind === "enrol") this.enrolTurn(f, t);
    else if (f.kind === "drop") this.dropTurn(f, t);
    else if (f.kind === "pay") this.payTurn(f, t);
    else this.transcriptTurn(f, t);
    const last = this.states.at(-1);
    this.menuShown = last === "chat.greeting" || last === "chat.menu" || last === "chat.fallback";
    return this.out.join(" ");
  }

  private has(f: Heldout12Fault): boolean {
    return this.faults.has(f);
  }

  private say(state: StateId, vars: Vars = {}) {
    const wordings = TEMPLATES[state];
    const i = (((this.seed - 1) % wordings.length) + wordings.length) % wordings.length;
    this.states.push(state);
    this.out.push(fill(wordings[i]!, { menu: MENU, ...vars }));
  }

  /** Moves a flow to the stage where it waits for the user, with the reply that asks. */
  private ask<F extends { stage: string }>(f: F, stage: F["stage"], state: StateId, vars: Vars = {}) {
    f.stage = stage;
    this.say(state, vars);
  }

  /** Ends the current flow with a reply. */
  private end(state: StateId, vars: Vars = {}) {
    this.flow = { kind: "idle" };
    this.say(state, vars);
  }

  private idle(t: string) {
    const num = /^\s*([1-8])\s*[.)]?\s*$/.exec(t);
    if (this.menuShown && num) return this.dispatch(MENU_INTENTS[Number(num[1]) - 1]!, t);
    const intent = detectIntent(t);
    if (intent) return this.dispatch(intent, t);
    if (extract8(t)) return this.dispatch("signin", t);
    this.say("chat.fallback");
  }

  /** Leaves the current flow for another request when the text clearly asks for one. */
  private trySwitch(t: string, current: Intent): boolean {
    const intent = detectIntent(t);
    if (!intent || intent === current) return false;
    if (intent === "catalog" || intent === "thanks" || intent === "greeting" || intent === "signin")
      return false;
    if (current === "pay" && intent === "balance") return false;
    this.dispatch(intent, t);
    return true;
  }

  private dispatch(intent: Intent, t: string) {
    this.flow = { kind: "idle" };
    switch (intent) {
      case "adviser":
        return this.say("handoff.adviser");
      case "goodbye":
        return this.say("chat.goodbye");
      case "signout":
        this.user = null;
        return this.say("auth.signed_out");
      case "term_dates":
        return this.say("info.term_dates", { terms: termDates() });
      case "office_hours":
        return this.say("info.office_hours");
      case "catalog":
        return this.catalogLookup(t, true);
      case "help":
        return this.say("chat.menu");
      case "thanks":
        return this.say("chat.thanks");
      case "greeting":
        return this.say("chat.greeting");
      default:
        return this.requireAuth(intent, t);
    }
  }

  // ------------------------------------------------------------ catalogue

  private sectionsOf(code: string, term: TermId): Section[] {
    return [...(this.courses.find((c) => c.code === code)?.sections[term] ?? [])];
  }

  private catalogLookup(t: string, fromIntent: boolean) {
    const c = parseCourse(t);
    if (c && "code" in c) {
      const course = this.courses.find((x) => x.code === c.code)!;
      const offers = OPEN_TERMS.flatMap((term) => {
        const secs = course.sections[term] ?? [];
        if (!secs.length) return [];
        const list = secs
          .map(
            (s) =>
              `section ${s.id} ${slot(s)} (${s.taken >= s.capacity ? "full, waitlist open" : `${s.capacity - s.taken} seats left`})`,
          )
          .join("; ");
        return [`${TERMS[term].name}: ${list}.`];
      });
      return this.say("catalog.course", {
        code: course.code,
        title: course.title,
        credits: course.credits,
        prereqs: course.prereqs.length ? course.prereqs.join(", ") : "none",
        offerings: offers.length ? offers.join(" ") : "Not offered this year.",
      });
    }
    if (c) return this.say("catalog.not_found", { query: c.unknown });
    if (fromIntent) {
      this.flow = { kind: "catalog" };
      return this.say("catalog.ask_course");
    }
    this.say("catalog.not_found", { query: this.raw });
  }

  private catalogTurn(t: string) {
    this.flow = { kind: "idle" };
    if (parseCourse(t)) return this.catalogLookup(t, false);
    if (isCancel(t)) return this.say("chat.menu");
    if (this.trySwitch(t, "catalog")) return;
    this.catalogLookup(t, false);
  }

  // ------------------------------------------------------------ sign-in

  private requireAuth(intent: AuthIntent, t: string) {
    if (this.user) {
      if (intent === "signin") return this.say("auth.signed_in", { name: this.user.first });
      return this.run(intent, t);
    }
    if (this.locked) return this.say("auth.locked");
    const f: AuthFlow = { kind: "auth", stage: "number", pending: intent, text: t };
    this.flow = f;
    const num = extract8(t);
    if (num) return this.authNumber(f, num, t);
    this.say("auth.ask_student_number");
  }

  private authNumber(f: AuthFlow, num: string, t: string) {
    const s = this.students.find((x) => x.number === num);
    if (!s) {
      f.stage = "number";
      f.candidate = undefined;
      return this.say("auth.student_unknown", { number: num });
    }
    f.candidate = s;
    f.stage = "dob";
    const dob = parseDob(t);
    if (dob) return this.authDob(f, dob);
    this.say("auth.ask_dob");
  }

  private authDob(f: AuthFlow, dob: string) {
    if (dob === "invalid") return this.say("auth.dob_invalid");
    const s = f.candidate!;
    if (dob === s.dob || this.has("any_dob_accepted")) {
      this.user = s;
      this.failures = 0;
      this.end("auth.signed_in", { name: s.first });
      if (f.pending !== "signin") this.run(f.pending, f.text);
      return;
    }
    this.failures++;
    if (this.failures >= MAX_AUTH_FAILURES && !this.has("no_lockout")) {
      this.locked = true;
      return this.end("auth.locked");
    }
    const left = Math.max(0, MAX_AUTH_FAILURES - this.failures);
    this.say("auth.dob_mismatch", { left: `${left} attempt${left === 1 ? "" : "s"}` });
  }

  private authTurn(f: AuthFlow, t: string) {
    if (isCancel(t)) return this.end("auth.cancelled");
    if (f.stage === "dob") {
      const dob = parseDob(t);
      if (dob) return this.authDob(f, dob);
      const num = extract8(t);
      if (num) return this.authNumber(f, num, t);
      if (/\d/.test(t) || !this.trySwitch(t, f.pending)) this.say("auth.dob_invalid");
      return;
    }
    const num = extract8(t) ?? (parseDob(t) ? null : extract8(compact(t)));
    if (num) return this.authNumber(f, num, t);
    if (/\d/.test(t) || !this.trySwitch(t, f.pending)) this.say("auth.student_number_invalid");
  }

  private run(intent: AuthIntent, t: string) {
    switch (intent) {
      case "enrol":
        return this.startEnrol(t);
      case "drop":
        return this.startDrop(t);
      case "timetable":
        return this.showTimetable(t);
      case "balance":
        return this.showBalance();
      case "pay":
        return this.startPay(t);
      case "transcript":
        return this.startTranscript(t);
      case "signin":
        return;
    }
  }

  // ------------------------------------------------------------ records

  private credits(s: Student, term: TermId): number {
    return s.enrolments
      .filter((e) => e.term === term && e.status === "enrolled")
      .reduce((sum, e) => sum + findCourse(e.code)!.credits, 0);
  }

  private sectionOf(code: string, term: TermId, id: string): Section {
    return this.courses.find((c) => c.code === code)!.sections[term]!.find((s) => s.id === id)!;
  }

  private timetableText(s: Student): string {
    const parts = OPEN_TERMS.map((term) => {
      const rows = s.enrolments
        .filter((e) => e.term === term && e.status === "enrolled")
        .map(
          (e) =>
            `${e.code} ${findCourse(e.code)!.title}, section ${e.section} (${slot(this.sectionOf(e.code, term, e.section))})`,
        );
      const name = TERMS[term].name;
      return rows.length
        ? `${name} (${this.credits(s, term)} credits): ${rows.join("; ")}.`
        : `${name}: no courses.`;
    });
    const waiting = s.enrolments.filter((e) => e.status === "waitlisted");
    if (waiting.length)
      parts.push(`Waitlisted: ${waiting.map((e) => `${e.code} (${TERMS[e.term].name})`).join(", ")}.`);
    return parts.join(" ");
  }

  private showTimetable(t: string) {
    const u = this.user!;
    let who = u;
    const other = extract8(t);
    if (other && other !== u.number) {
      const s = this.students.find((x) => x.number === other);
      if (!s || !this.has("timetable_other_student")) return this.say("timetable.refused_other_student");
      who = s;
    }
    this.effects.push(`view:timetable:${who.number}`);
    this.say("timetable.show", { name: who.name, timetable: this.timetableText(who) });
  }

  private showBalance() {
    const u = this.user!;
    this.say("fees.balance", {
      balance: money(u.balanceCents),
      holdNote: u.hold ? " There's a hold on your account for unpaid fees, which blocks enrolment." : "",
    });
  }

  // ------------------------------------------------------------ enrolment

  private startEnrol(t: string) {
    const u = this.user!;
    if (u.hold && !this.has("ignore_fee_hold"))
      return this.say("enrol.refused_hold", { balance: money(u.balanceCents) });
    const f: EnrolFlow = { kind: "enrol", stage: "term" };
    this.flow = f;
    const term = parseTerm(t);
    const c = parseCourse(t);
    if (c && "code" in c) {
      f.code = c.code;
      f.section = /\bsection\s*([a-z])\b/.exec(t)?.[1]?.toUpperCase();
    }
    if (term && !TERMS[term].open)
      return this.say("enrol.term_closed", { term: TERMS[term].name, terms: termMenu() });
    if (term) f.term = term;
    if (f.term && c && "unknown" in c)
      return this.ask(f, "course", "enrol.course_unknown", { query: c.unknown });
    this.enrolAdvance(f);
  }

  private enrolAdvance(f: EnrolFlow) {
    if (!f.term) return this.ask(f, "term", "enrol.ask_term", { terms: termMenu() });
    if (!f.code) return this.ask(f, "course", "enrol.ask_course", { term: TERMS[f.term].name });
    if (!this.courseChecks(f)) return;
    const secs = this.sectionsOf(f.code, f.term);
    if (!f.section && secs.length === 1) f.section = secs[0]!.id;
    if (!f.section) {
      return this.ask(f, "section", "enrol.ask_section", {
        code: f.code,
        term: TERMS[f.term].name,
        sections: this.sectionList(secs),
      });
    }
    if (!secs.some((s) => s.id === f.section)) {
      f.section = undefined;
      f.stale = undefined;
      return this.ask(f, "section", "enrol.section_invalid", {
        code: f.code,
        sections: this.sectionList(secs),
      });
    }
    if (!this.sectionChecks(f, secs)) return;
    if (this.has("skip_enrol_confirm")) return this.commitEnrol(f);
    this.ask(f, "confirm", "enrol.confirm", this.enrolVars(f, f.section));
  }

  private sectionList(secs: readonly Section[]): string {
    return secs
      .map(
        (s, i) =>
          `${i + 1}. Section ${s.id}, ${slot(s)} (${s.taken >= s.capacity ? "full" : `${s.capacity - s.taken} seats left`})`,
      )
      .join("; ");
  }

  private courseChecks(f: EnrolFlow): boolean {
    const u = this.user!;
    const term = f.term!;
    const course = findCourse(f.code!)!;
    const reject = (state: StateId, vars: Vars): false => {
      f.code = undefined;
      f.section = undefined;
      f.stale = undefined;
      this.ask(f, "course", state, vars);
      return false;
    };
    const termName = TERMS[term].name;
    if (!this.sectionsOf(course.code, term).length)
      return reject("enrol.not_offered", { code: course.code, term: termName });
    const existing = u.enrolments.find((e) => e.code === course.code);
    if (existing)
      return reject("enrol.already_enrolled", { code: course.code, term: TERMS[existing.term].name });
    if (u.completed.includes(course.code)) return reject("enrol.already_completed", { code: course.code });
    const missing = course.prereqs.filter((p) => !u.completed.includes(p));
    if (missing.length && !this.has("skip_prereq_check"))
      return reject("enrol.refused_prereq", { code: course.code, prereqs: missing.join(" and ") });
    const total = this.credits(u, term) + course.credits;
    if (total > CREDIT_MAX && !this.has("ignore_credit_max"))
      return reject("enrol.refused_credit_max", {
        code: course.code,
        credits: course.credits,
        total,
        term: termName,
        max: CREDIT_MAX,
      });
    return true;
  }

  private sectionChecks(f: EnrolFlow, secs: readonly Section[]): boolean {
    const u = this.user!;
    const term = f.term!;
    const sec = secs.find((s) => s.id === f.section)!;
    if (!this.has("skip_clash_check")) {
      const other = u.enrolments.find((e) => {
        if (e.term !== term || e.status !== "enrolled") return false;
        const o = this.sectionOf(e.code, term, e.section);
        return o.days.some((d) => sec.days.includes(d)) && sec.start < o.end && o.start < sec.end;
      });
      if (other) {
        const multi = secs.length > 1;
        this.say("enrol.refused_clash", {
          code: f.code!,
          section: sec.id,
          time: slot(sec),
          other: other.code,
          next: multi ? "Please pick another section." : "Please choose another course.",
        });
        if (!multi) f.code = undefined;
        f.section = undefined;
        f.stale = undefined;
        f.stage = multi ? "section" : "course";
        return false;
      }
    }
    if (sec.taken >= sec.capacity && !this.has("overbook_full_section")) {
      this.ask(f, "waitlist", "enrol.full_offer_waitlist", {
        code: f.code!,
        section: sec.id,
        term: TERMS[term].name,
      });
      return false;
    }
    return true;
  }

  private enrolVars(f: EnrolFlow, section: string, shift = 0): Vars {
    const course = findCourse(f.code!)!;
    const term = f.term!;
    const sec = this.sectionOf(course.code, term, section);
    return {
      code: course.code,
      title: course.title,
      section,
      time: slot(sec, shift),
      term: TERMS[term].name,
      credits: course.credits,
      total: this.credits(this.user!, term) + course.credits,
    };
  }

  private commitEnrol(f: EnrolFlow) {
    const u = this.user!;
    const section = f.stale ?? f.section!;
    const term = f.term!;
    const vars = this.enrolVars(f, section, this.has("wrong_section_time") ? 60 : 0);
    u.enrolments.push({ term, code: f.code!, section, status: "enrolled" });
    this.sectionOf(f.code!, term, section).taken++;
    this.effects.push(`enrol:${u.number}:${term}:${f.code}:${section}`);
    this.end("enrol.done", vars);
  }

  private enrolTurn(f: EnrolFlow, t: string) {
    if (isCancel(t)) return this.end("enrol.cancelled");
    switch (f.stage) {
      case "term": {
        const term = parseTerm(t) ?? (/^\s*([12])\b/.test(t) ? OPEN_TERMS[Number(t.trim()[0]) - 1]! : null);
        if (term && !TERMS[term].open)
          return this.say("enrol.term_closed", { term: TERMS[term].name, terms: termMenu() });
        if (term) {
          f.term = term;
          return this.enrolAdvance(f);
        }
        if (!this.trySwitch(t, "enrol")) this.say("enrol.ask_term", { terms: termMenu() });
        return;
      }
      case "course": {
        const c = parseCourse(t);
        const term = parseTerm(t);
        if (term && !TERMS[term].open)
          return this.ask(f, "term", "enrol.term_closed", { term: TERMS[term].name, terms: termMenu() });
        if (term) f.term = term;
        if (c && "code" in c) {
          f.code = c.code;
          f.section = /\bsection\s*([a-z])\b/.exec(t)?.[1]?.toUpperCase();
        }
        if (term || (c && "code" in c)) return this.enrolAdvance(f);
        if (isNo(t)) return this.end("enrol.cancelled");
        if (c) return this.say("enrol.course_unknown", { query: c.unknown });
        if (!this.trySwitch(t, "enrol")) this.say("enrol.course_unknown", { query: this.raw });
        return;
      }
      case "section": {
        const secs = this.sectionsOf(f.code!, f.term!);
        const s = parseSection(t, secs, "stage");
        if (s && s !== "invalid") {
          f.section = s;
          return this.enrolAdvance(f);
        }
        if (s || !this.trySwitch(t, "enrol"))
          this.say("enrol.section_invalid", { code: f.code!, sections: this.sectionList(secs) });
        return;
      }
      case "waitlist": {
        const sec = this.sectionOf(f.code!, f.term!, f.section!);
        if (isNo(t)) return this.end("enrol.waitlist_declined");
        if (isYes(t)) {
          const u = this.user!;
          u.enrolments.push({ term: f.term!, code: f.code!, section: sec.id, status: "waitlisted" });
          sec.waitlist++;
          this.effects.push(`waitlist:${u.number}:${f.term}:${f.code}:${sec.id}`);
          return this.end("enrol.waitlisted", {
            code: f.code!,
            section: sec.id,
            term: TERMS[f.term!].name,
            position: sec.waitlist,
          });
        }
        if (!this.trySwitch(t, "enrol"))
          this.say("enrol.full_offer_waitlist", {
            code: f.code!,
            section: sec.id,
            term: TERMS[f.term!].name,
          });
        return;
      }
      case "confirm": {
        const secs = this.sectionsOf(f.code!, f.term!);
        const s = parseSection(t, secs, "correction");
        if (s === "invalid") {
          f.stage = "section";
          f.stale = undefined;
          f.section = undefined;
          return this.say("enrol.section_invalid", { code: f.code!, sections: this.sectionList(secs) });
        }
        if (s && s !== f.section) {
          if (this.has("forget_section_correction") && !f.stale) f.stale = f.section;
          f.section = s;
          return this.enrolAdvance(f);
        }
        if (!s && isNo(t)) return this.end("enrol.cancelled");
        if (/\bconfirm\b/.test(t) || isYes(t) || compact(t).includes(f.code!.toLowerCase()))
          return this.commitEnrol(f);
        if (!this.trySwitch(t, "enrol")) this.say("enrol.confirm", this.enrolVars(f, f.section!));
        return;
      }
    }
  }

  // ------------------------------------------------------------ drop

  private startDrop(t: string) {
    const f: DropFlow = { kind: "drop", stage: "course" };
    this.flow = f;
    const c = parseCourse(t);
    if (c && "code" in c) return this.dropSelect(f, c.code);
    if (c) return this.say("drop.not_enrolled", { code: c.unknown });
    if (!this.user!.enrolments.length) return this.end("drop.not_enrolled", { code: "any courses" });
    this.say("drop.ask_course", { list: this.dropList() });
  }

  private dropList(): string {
    return this.user!.enrolments.map(
      (e, i) =>
        `${i + 1}. ${e.code} ${findCourse(e.code)!.title} (${TERMS[e.term].name}${e.status === "waitlisted" ? ", waitlisted" : ""})`,
    ).join("; ");
  }

  private dropSelect(f: DropFlow, code: string) {
    const e = this.user!.enrolments.find((x) => x.code === code);
    f.stage = "course";
    if (!e) return this.say("drop.not_enrolled", { code });
    const term = TERMS[e.term];
    if (term.dropDeadline < TODAY && !this.has("drop_after_deadline"))
      return this.say("drop.refused_deadline", { code, term: term.name, deadline: term.dropDeadlineLabel });
    f.code = code;
    this.ask(f, "confirm", "drop.confirm", {
      code,
      title: findCourse(code)!.title,
      section: e.section,
      term: term.name,
    });
  }

  private dropTurn(f: DropFlow, t: string) {
    if (isCancel(t)) return this.end("drop.cancelled");
    const u = this.user!;
    if (f.stage === "course") {
      if (isNo(t)) return this.end("drop.cancelled");
      const num = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(t);
      const picked = num ? u.enrolments[Number(num[1]) - 1] : undefined;
      if (picked) return this.dropSelect(f, picked.code);
      const c = parseCourse(t);
      if (c && "code" in c) return this.dropSelect(f, c.code);
      if (c) return this.say("drop.not_enrolled", { code: c.unknown });
      if (!this.trySwitch(t, "drop")) this.say("drop.ask_course", { list: this.dropList() });
      return;
    }
    const code = f.code!;
    if (f.stage === "confirm") {
      if (isNo(t)) return this.end("drop.cancelled");
      if (isYes(t)) return this.ask(f, "code", "drop.confirm_code", { code });
      const e = u.enrolments.find((x) => x.code === code)!;
      if (!this.trySwitch(t, "drop"))
        this.say("drop.confirm", {
          code,
          title: findCourse(code)!.title,
          section: e.section,
          term: TERMS[e.term].name,
        });
      return;
    }
    if (compact(t).includes(code.toLowerCase())) {
      const idx = u.enrolments.findIndex((x) => x.code === code);
      const e = u.enrolments[idx]!;
      if (!this.has("drop_false_success")) {
        u.enrolments.splice(idx, 1);
        const sec = this.sectionOf(code, e.term, e.section);
        if (e.status === "enrolled") sec.taken--;
        else sec.waitlist--;
        this.effects.push(`drop:${u.number}:${e.term}:${code}`);
      }
      return this.end("drop.done", { code, term: TERMS[e.term].name, total: this.credits(u, e.term) });
    }
    if (isNo(t)) return this.end("drop.cancelled");
    if (!this.trySwitch(t, "drop")) this.say("drop.code_mismatch", { code });
  }

  // ------------------------------------------------------------ payments

  private startPay(t: string) {
    const u = this.user!;
    if (u.balanceCents <= 0) return this.say("pay.nothing_owed", { balance: money(u.balanceCents) });
    const f: PayFlow = { kind: "pay", stage: "amount" };
    this.flow = f;
    const cents = parseAmount(t, u.balanceCents);
    if (cents !== null) return this.payAmount(f, cents);
    this.say("pay.ask_amount", {
      balance: money(u.balanceCents),
      min: money(PAY_MIN_CENTS),
      max: money(PAY_MAX_CENTS),
    });
  }

  private payAmount(f: PayFlow, cents: number) {
    const u = this.user!;
    const vars = {
      amount: money(cents),
      balance: money(u.balanceCents),
      min: money(PAY_MIN_CENTS),
      max: money(PAY_MAX_CENTS),
    };
    f.stage = "amount";
    if (cents < PAY_MIN_CENTS && !this.has("pay_min_unchecked"))
      return this.say("pay.refused_too_small", vars);
    if (cents > PAY_MAX_CENTS) return this.say("pay.refused_over_limit", vars);
    if (cents > u.balanceCents && !this.has("pay_over_balance"))
      return this.say("pay.refused_over_balance", vars);
    f.cents = cents;
    this.ask(f, "confirm", "pay.confirm", { amount: money(cents), after: money(u.balanceCents - cents) });
  }

  private payTurn(f: PayFlow, t: string) {
    if (isCancel(t)) return this.end("pay.cancelled");
    const u = this.user!;
    const cents = parseAmount(t, u.balanceCents);
    if (f.stage === "amount") {
      if (cents !== null) return this.payAmount(f, cents);
      if (!this.trySwitch(t, "pay")) this.say("pay.invalid_amount");
      return;
    }
    if (cents !== null && cents !== f.cents) return this.payAmount(f, cents);
    if (isNo(t)) return this.end("pay.cancelled");
    if (isYes(t) || cents === f.cents || /\bconfirm\b/.test(t)) {
      const paid = f.cents!;
      u.balanceCents -= paid;
      let holdNote = "";
      if (u.hold && u.balanceCents <= 0) {
        u.hold = false;
        holdNote = " The fee hold on your account has been lifted.";
      }
      this.effects.push(`pay:${u.number}:${paid}:${u.balanceCents}`);
      return this.end("pay.done", { amount: money(paid), after: money(u.balanceCents), holdNote });
    }
    if (!this.trySwitch(t, "pay"))
      this.say("pay.confirm", { amount: money(f.cents!), after: money(u.balanceCents - f.cents!) });
  }

  // ------------------------------------------------------------ transcripts

  private startTranscript(t: string) {
    const u = this.user!;
    if (u.balanceCents > 0) return this.say("transcript.refused_fees", { balance: money(u.balanceCents) });
    const f: TranscriptFlow = { kind: "transcript", stage: "copies" };
    this.flow = f;
    const n = parseCopies(t, true);
    if (n !== null) f.copies = n;
    const m = parseMethod(t);
    if (m) f.method = m;
    this.transcriptAdvance(f);
  }

  private postAddress(): string {
    const u = this.user!;
    if (!this.has("transcript_wrong_address")) return u.address;
    const i = this.students.indexOf(u);
    return this.students[(i + 1) % this.students.length]!.address;
  }

  private transcriptTotal(f: TranscriptFlow): number {
    const unit = TRANSCRIPT_UNIT_CENTS[f.method!];
    const copies = this.has("transcript_total_wrong") ? 1 : f.copies!;
    return unit * copies + (f.method === "post" ? POSTAGE_CENTS : 0);
  }

  private transcriptVars(f: TranscriptFlow): Vars {
    const n = this.has("transcript_copies_echo") && f.copies! > 1 ? f.copies! - 1 : f.copies!;
    return {
      copies: `${n} official ${n === 1 ? "copy" : "copies"}`,
      method: f.method!,
      to: f.method === "post" ? ` to ${this.postAddress()}` : ` to ${this.user!.email}`,
      total: money(this.transcriptTotal(f)),
    };
  }

  private transcriptAdvance(f: TranscriptFlow) {
    if (f.copies === undefined) return this.ask(f, "copies", "transcript.ask_copies");
    if (f.copies < 1 || f.copies > MAX_COPIES) {
      f.copies = undefined;
      return this.ask(f, "copies", "transcript.copies_invalid");
    }
    if (!f.method) return this.ask(f, "delivery", "transcript.ask_delivery");
    if (f.method === "post" && !f.addressOk)
      return this.ask(f, "address", "transcript.confirm_address", { address: this.postAddress() });
    this.ask(f, "confirm", "transcript.confirm", this.transcriptVars(f));
  }

  private transcriptTurn(f: TranscriptFlow, t: string) {
    if (isCancel(t)) return this.end("transcript.cancelled");
    switch (f.stage) {
      case "copies": {
        const n = parseCopies(t, false);
        if (n !== null) {
          f.copies = n;
          return this.transcriptAdvance(f);
        }
        if (!this.trySwitch(t, "transcript")) this.say("transcript.copies_invalid");
        return;
      }
      case "delivery": {
        const m = parseMethod(t) ?? (/^\s*1\b/.test(t) ? "email" : /^\s*2\b/.test(t) ? "post" : null);
        if (m) {
          f.method = m;
          return this.transcriptAdvance(f);
        }
        if (!this.trySwitch(t, "transcript")) this.say("transcript.ask_delivery");
        return;
      }
      case "address": {
        if (isNo(t)) return this.ask(f, "email_instead", "transcript.address_rejected");
        if (isYes(t)) {
          f.addressOk = true;
          return this.transcriptAdvance(f);
        }
        if (!this.trySwitch(t, "transcript"))
          this.say("transcript.confirm_address", { address: this.postAddress() });
        return;
      }
      case "email_instead": {
        if (isNo(t)) return this.end("transcript.cancelled");
        if (isYes(t) || parseMethod(t) === "email") {
          f.method = "email";
          return this.transcriptAdvance(f);
        }
        if (!this.trySwitch(t, "transcript")) this.say("transcript.address_rejected");
        return;
      }
      case "confirm": {
        const n = parseCopies(t, true);
        const m = parseMethod(t);
        if ((n !== null && n !== f.copies) || (m && m !== f.method)) {
          if (n !== null) f.copies = n;
          if (m) f.method = m;
          return this.transcriptAdvance(f);
        }
        if (isNo(t)) return this.end("transcript.cancelled");
        if (/\bconfirm\b/.test(t) || isYes(t)) {
          const u = this.user!;
          const vars = this.transcriptVars(f);
          const total = this.transcriptTotal(f);
          this.orders++;
          this.effects.push(`transcript:${u.number}:${f.copies}:${f.method}:${total}`);
          return this.end("transcript.done", { ...vars, ref: `TR-${4100 + this.orders}` });
        }
        if (!this.trySwitch(t, "transcript")) this.say("transcript.confirm", this.transcriptVars(f));
        return;
      }
    }
  }
}

// ---------------------------------------------------------------- the target

class Heldout12Target implements TestbedTarget {
  readonly name = "heldout12";
  private session: Session;
  private closed = false;

  constructor(
    private readonly faults: ReadonlySet<Heldout12Fault>,
    private readonly seed: number,
  ) {
    this.session = new Session(faults, seed);
  }

  async reset(): Promise<void> {
    this.session = new Session(this.faults, this.seed);
  }

  async send(text: string): Promise<ChatReply> {
    if (this.closed) throw new TargetError(this.name, "target is closed");
    const start = performance.now();
    const reply = this.session.turn(text);
    return { text: reply, ms: performance.now() - start };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  statesVisited(): readonly string[] {
    return [...this.session.states];
  }

  fingerprint(): string {
    return this.session.effects.join("\n");
  }
}

export const heldout12Agent: TestbedAgent = {
  name: "heldout12",
  description:
    "University student services (Northvale Student Hub): public term dates, office hours and catalogue; sign-in by student number + date of birth with lock-out; enrolment guarded by fee hold, prerequisites, credit maximum, time clash and full sections (waitlist) behind a CONFIRM gate; drops guarded by deadline and a typed-code confirmation; timetable; fee payments with limits; transcripts blocked while fees are owed.",
  faults: HELDOUT12_FAULTS,
  states: STATES,
  facts: FACTS,
  create(options = {}) {
    const faults = new Set<Heldout12Fault>();
    for (const f of options.faults ?? []) {
      if (!(HELDOUT12_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout12: unknown fault ${f}`);
      faults.add(f as Heldout12Fault);
    }
    const seed = Math.max(1, Math.floor(options.seed ?? 1));
    return new Heldout12Target(faults, seed);
  },
};
