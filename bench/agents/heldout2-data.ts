/**
 * Data of the second held-out testbed agent (`heldout2.ts`): the Ashgrove University Student Office's seed
 * database (the autumn course catalogue, student records with enrolments, grades, holds and transcript use),
 * its reply templates and the facts a tester starts with. `freshDb()` returns a deep copy, so one session's
 * writes never leak into the next. The calendar is fixed at {@link TODAY}, so add deadlines, refund windows and
 * resit registration windows are deterministic.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The office's "today" (ISO date): week 4 of the autumn term. */
export const TODAY = "2025-09-22";

/** The office's rules. */
export const CREDIT_CAP = 30;
export const FEE_PER_CREDIT = 95;
/** Last year's rate per credit (what the `wrongRefund` fault still uses). */
export const OLD_FEE_PER_CREDIT = 89;
export const FREE_TRANSCRIPTS = 2;
export const COPY_PRICE = 6;
export const POSTAGE = 4.5;
export const MAX_COPIES = 5;
export const MAX_RESITS = 2;
export const PASS = 5.5;

export const MONTHS =
  "january february march april may june july august september october november december".split(" ");
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

const iso = (y: number, m: number, d: number) => {
  const s = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return m >= 1 && m <= 12 && d >= 1 && new Date(Date.parse(s)).toISOString().slice(0, 10) === s ? s : null;
};

/** A full date in the text as ISO (2003-03-14, 14/03/2003, 14 March 2003, March 14, 2003); null if invalid. */
export function findDate(t: string): string | null | undefined {
  const l = t.toLowerCase();
  const month = (w: string) => MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
  let m = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(l);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b/.exec(l);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a <= 12 && b > 12 ? iso(Number(m[3]), a, b) : iso(Number(m[3]), b, a);
  }
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon},?\\s+(\\d{4})\\b`).exec(l);
  if (m) return iso(Number(m[3]), month(m[2] ?? ""), Number(m[1]));
  m = new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(l);
  if (m) return iso(Number(m[3]), month(m[1] ?? ""), Number(m[2]));
  return undefined;
}

/** A number of copies ("3 copies", "two transcripts"; a bare number when one was asked for). */
export function findCopies(l: string, asked: boolean): number | undefined {
  const num = `(\\d{1,2}|${NUMBER_WORDS.join("|")})`;
  const m =
    new RegExp(`\\b${num}\\s+(official\\s+|paper\\s+|printed\\s+)?(cop(y|ies)|transcripts?)\\b`).exec(l) ??
    (/\bsingle cop(y|ies)\b/.test(l) ? ["", "1"] : null) ??
    (asked ? new RegExp(`^\\D*?\\b${num}\\b(?!\\s*(st|nd|rd|th|[./-]\\d))[^\\d]*$`).exec(l) : null);
  if (!m) return undefined;
  const w = m[1] ?? "";
  const n = /\d/.test(w) ? Number(w) : NUMBER_WORDS.indexOf(w);
  return n > 0 ? n : undefined;
}

/** How the transcripts should travel, if the text says. */
export function findDelivery(l: string): "email" | "post" | undefined {
  if (/\b(e-?mail(ed)?|pdf|electronic(ally)?|digital(ly)?|online)\b/.test(l)) return "email";
  if (/\b(post(ed|al)?|by mail|mail (it|them)|paper|printed|hard ?cop(y|ies)|letter)\b/.test(l))
    return "post";
  return undefined;
}

/** A course: credits, start date, prerequisites (course codes that must have been passed) and seats left. */
export interface Course {
  code: string;
  name: string;
  credits: number;
  /** Which part of the term: "Block 1", "Block 2" or "full term". */
  block: string;
  start: string;
  prereq: readonly string[];
  seats: number;
  /** Offered this autumn (false: only in the record, e.g. a spring course that can still be resat). */
  offered: boolean;
  /** The next resit exam date, when there is one. */
  resit?: string;
  /** Lower-case ways a student may name it. */
  keywords: readonly string[];
}

/** One grade on a student's record: a 0–10 scale, 5.5 passes; `resits` already used. */
export interface Grade {
  code: string;
  term: string;
  grade: number;
  resits: number;
}

/** A student record; `minLoad` is the credit floor of a scholarship, `hold` a financial block with its reason. */
export interface Student {
  id: string;
  name: string;
  dob: string;
  email: string;
  active: boolean;
  enrolled: string[];
  grades: Grade[];
  hold?: { reason: string; amount: number };
  minLoad?: number;
  transcriptsUsed: number;
  resitsBooked: string[];
  refunds: number;
}

/** The whole database one session works on. */
export interface Db {
  courses: Record<string, Course>;
  students: Record<string, Student>;
}

const B1 = "2025-09-01";
const B2 = "2025-10-27";
const FULL = "2025-08-18";

const course = (
  code: string,
  name: string,
  credits: number,
  block: string,
  start: string,
  prereq: string[],
  seats: number,
  keywords: string[],
  extra: Partial<Course> = {},
): Course => ({ code, name, credits, block, start, prereq, seats, offered: true, keywords, ...extra });

const COURSES: Course[] = [
  course("CS101", "Programming Fundamentals", 7.5, "Block 1", B1, [], 12, ["programming fundamentals"], {
    resit: "2025-10-13",
  }),
  course("CS201", "Data Structures", 7.5, "Block 2", B2, ["CS101"], 8, ["data structures"]),
  course("CS305", "Machine Learning", 7.5, "Block 2", B2, ["CS201"], 5, ["machine learning"]),
  course(
    "STA101",
    "Introductory Statistics",
    5,
    "Block 1",
    B1,
    [],
    20,
    ["introductory statistics", "intro stats"],
    {
      resit: "2025-10-06",
    },
  ),
  course("STA201", "Regression Models", 5, "Block 2", B2, ["STA101"], 15, ["regression"]),
  course("ECO130", "Microeconomics", 5, "Block 1", B1, [], 9, ["microeconomics", "micro economics"], {
    resit: "2025-09-29",
  }),
  course("MAT150", "Linear Algebra", 7.5, "full term", FULL, [], 6, ["linear algebra"], {
    resit: "2025-10-08",
  }),
  course("PHI120", "Ethics and Technology", 5, "Block 2", B2, [], 14, ["ethics"]),
  course("HIS110", "Medieval Europe", 5, "Block 2", B2, [], 0, ["medieval", "history"]),
  course("BIO140", "Cell Biology", 7.5, "Block 2", B2, [], 10, ["cell biology", "biology"]),
  course("PSY100", "Introduction to Psychology", 5, "spring term", "2025-02-03", [], 0, ["psychology"], {
    offered: false,
    resit: "2025-10-06",
  }),
];

const grade = (code: string, term: string, g: number, resits = 0): Grade => ({
  code,
  term,
  grade: g,
  resits,
});
const student = (
  id: string,
  name: string,
  dob: string,
  enrolled: string[],
  grades: Grade[],
  extra: Partial<Student> = {},
): Student => {
  const [given, family] = name.toLowerCase().split(" ") as [string, string];
  const email = `${given[0]}.${family}@students.ashgrove.ac.uk`;
  return {
    id,
    name,
    dob,
    email,
    active: true,
    enrolled,
    grades,
    transcriptsUsed: 0,
    resitsBooked: [],
    refunds: 0,
    ...extra,
  };
};

const STUDENTS: Student[] = [
  student(
    "S2104387",
    "Amara Okafor",
    "2003-03-14",
    ["CS101", "ECO130", "PHI120", "MAT150"],
    [grade("STA101", "Spring 2025", 7.2), grade("PSY100", "Spring 2025", 8)],
  ),
  student(
    "S2209951",
    "Jonas Weber",
    "2002-11-02",
    ["CS201", "STA201", "HIS110"],
    [
      grade("CS101", "Spring 2025", 6.4),
      grade("STA101", "Autumn 2024", 6),
      grade("ECO130", "Spring 2025", 4.1),
      grade("MAT150", "Autumn 2024", 3.9, 2),
    ],
    { hold: { reason: "an unpaid library fine", amount: 42 } },
  ),
  student(
    "S2311020",
    "Priya Raman",
    "2004-07-29",
    ["CS201", "STA201", "PHI120", "ECO130", "MAT150"],
    [
      grade("CS101", "Spring 2025", 8.1),
      grade("STA101", "Autumn 2024", 7.7),
      grade("PSY100", "Spring 2025", 5),
    ],
    { minLoad: 25, transcriptsUsed: 2 },
  ),
  student(
    "S2015566",
    "Tomás Lindqvist",
    "2001-01-05",
    ["STA201", "PHI120"],
    [
      grade("STA101", "Autumn 2024", 6.8),
      grade("CS101", "Spring 2025", 4.9, 1),
      grade("MAT150", "Spring 2025", 5.2),
    ],
    { transcriptsUsed: 1 },
  ),
  student("S1800412", "Elena Petrova", "1999-05-21", [], [grade("ECO130", "Spring 2021", 7.9)], {
    active: false,
  }),
];

const SEED: Db = {
  courses: Object.fromEntries(COURSES.map((c) => [c.code, c])),
  students: Object.fromEntries(STUDENTS.map((x) => [x.id, x])),
};

/** A fresh deep copy of the seed database. */
export function freshDb(): Db {
  return structuredClone(SEED);
}

/** The designed dialogue states: every reply enters exactly one. */
export const HELDOUT2_STATES = [
  "greet",
  "menu",
  "fallback",
  "goodbye",
  "handoff",
  "auth.ask_id",
  "auth.id_unknown",
  "auth.ask_dob",
  "auth.dob_wrong",
  "auth.locked",
  "catalog.show",
  "enrol.ask_course",
  "enrol.unknown_course",
  "enrol.refused_hold",
  "enrol.already",
  "enrol.refused_deadline",
  "enrol.refused_prereq",
  "enrol.refused_full",
  "enrol.refused_cap",
  "enrol.confirm",
  "enrol.done",
  "drop.ask_course",
  "drop.not_enrolled",
  "drop.refused_deadline",
  "drop.refused_min_load",
  "drop.confirm",
  "drop.done",
  "transcript.refused_hold",
  "transcript.ask_copies",
  "transcript.too_many",
  "transcript.ask_delivery",
  "transcript.confirm",
  "transcript.done",
  "resit.ask_course",
  "resit.not_failed",
  "resit.already_booked",
  "resit.refused_attempts",
  "resit.refused_closed",
  "resit.confirm",
  "resit.done",
  "grades.show",
  "grades.refused_other",
  "gate.aborted",
] as const;
/** A designed dialogue state id. */
export type State = (typeof HELDOUT2_STATES)[number];

/** What a student wants, as the keyword NLU recognises it (`catalog` needs no sign-in). */
export type Intent = "catalog" | "enrol" | "drop" | "transcript" | "resit" | "grades";

/** Intent keywords, tried in order. */
export const INTENTS: readonly [Intent, RegExp][] = [
  ["transcript", /\b(transcripts?|official (record|copy)|record of (my )?(grades|results|studies))\b/],
  [
    "resit",
    /\b(resits?|re-sits?|retakes?|re-?take the exam|retry the exam|second attempt|repeat (the |an )?exam|make-?up exam|re-?exam)\b/,
  ],
  [
    "drop",
    /\b(drop|dropping|withdraw\w*|unenrol\w*|unenroll\w*|de-?register\w*|get out of|cancel my (enrol+ment|registration|place))\b/,
  ],
  [
    "enrol",
    /\b(enrol\w*|enroll\w*|register (me )?(for|in|on)|sign (me )?up|add (a |another |the )?(new )?(course|class|module)|add [a-z]{2,3}\s?\d{3}|join (a |the )?(course|class)|take (a |the |another )?(course|class|module)|take [a-z]{2,3}\s?\d{3})\b/,
  ],
  [
    "grades",
    /\b(my (grades?|marks|results)|(grades?|marks|results) (for|of)|(see|show|check|view|look up)( me)? .{0,20}(grades?|marks|results)|gpa)\b/,
  ],
  [
    "catalog",
    /\b(catalog(ue)?|course list|list of courses|(which|what) (courses|classes|modules)|courses (are )?(on offer|offered|available|this term|running)|available courses|timetable|what can i (take|study))\b/,
  ],
];

/** Keyword patterns: yes, no, a human, goodbye, hello, the approval word and a negation. */
export const YES =
  /^\s*(yes|yeah|yep|yup|sure|ok(ay)?|fine|alright|correct|right|go ahead|do it|please do|sounds good|that'?s right)\b/;
export const NO =
  /^\s*(no|nope|nah|stop|cancel|never ?mind|forget it|don'?t|not now|leave it|abort|scrap that)\b/;
export const HUMAN =
  /\b(human|real person|a person|advis[eo]r|counsell?or|member of staff|staff member|someone from the office|an agent|live agent|representative|operator|speak to someone|talk to someone)\b/;
export const BYE =
  /\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that is all|nothing else|all good|no thanks|i'?m done)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;
export const APPROVE = /\bsubmit(ted)?\b/;
export const NEGATED = /\b(don'?t|do not|not|never|no|wait)\b/;

/** Template keys used inside replies (not states of their own). */
export type Phrase =
  | "menu_text"
  | "queued"
  | "more"
  | "ask"
  | "need_submit"
  | "updated"
  | "sorry"
  | "verified"
  | "noted"
  | "bad_id"
  | "bad_dob"
  | "enrol.passed"
  | "enrol.not_offered"
  | "resit.not_taken"
  | "resit.none_failed"
  | "okay";

/**
 * Reply templates by key (a designed state, or a phrase used inside replies): three or more wordings each,
 * picked by the session's seeded PRNG. `{name}` placeholders are filled from the reply's values; `{menu}` is one
 * wording of the menu sentence.
 */
export const RESPONSES: Readonly<Record<State | Phrase, readonly string[]>> = {
  menu_text: [
    "I can enrol you in a course, withdraw you from one, order official transcripts, book a resit exam or show your grades, and I can list this term's courses.",
    "Here I can add a course to your timetable, process a withdrawal, send official transcripts, register you for a resit and look up your grades; the course catalogue is open to anyone.",
    "I handle course enrolments and withdrawals, transcript orders, resit registrations and grade look-ups, and I can show you the autumn course catalogue.",
  ],
  greet: [
    "Hello, you've reached the Ashgrove University Student Office chat. {menu} What do you need today?",
    "Hi! This is the Student Office assistant at Ashgrove University. {menu} How can I help?",
    "Welcome to the Ashgrove Student Office. {menu} What can I do for you?",
  ],
  menu: [
    "{menu} What would you like to do?",
    "Sure. {menu} Just tell me which.",
    "Of course. {menu} Where shall we start?",
  ],
  fallback: [
    "Sorry, I'm not sure what you mean. {menu} Which of these do you need?",
    "I didn't quite follow that. {menu} What would you like?",
    "Hmm, I can't help with that in this chat. {menu} Is it one of those?",
  ],
  goodbye: [
    "You're welcome{name}. Good luck with your studies!",
    "Glad I could help{name}. Have a good term!",
    "Take care{name}, and thanks for contacting the Student Office.",
  ],
  handoff: [
    "Of course. I'm passing this chat to a student advisor now; they'll see everything we've discussed and usually reply within a few minutes.",
    "No problem, I'll put you through to one of our advisors. Please keep this window open; someone will join shortly.",
    "Sure, a member of the Student Office team will take over this conversation. The current wait is about five minutes.",
  ],
  queued: [
    "An advisor will pick up this chat shortly; thanks for your patience.",
    "You're in the queue for a student advisor, who will be with you soon.",
    "Hang on a moment, an advisor is about to join this conversation.",
  ],
  "auth.ask_id": [
    "{bad}Before I open your record I need to check who you are. What's your student number? It's an S followed by seven digits.",
    "{bad}I'll need to look up your record for that. Could you give me your student number (S and seven digits)?",
    "{bad}Happy to help with that. First, what is your student number? You'll find it on your campus card, e.g. S1234567.",
  ],
  "auth.id_unknown": [
    "I can't find an active student record for {id}. Could you check it and send your student number again?",
    "There's no current student under {id} in our system. Which student number should I look up?",
    "{id} doesn't match any enrolled student, I'm afraid. Please type your student number again.",
  ],
  "auth.ask_dob": [
    "{bad}Thanks. To make sure it's you, what's the date of birth on the record for {id}?",
    "{bad}Got it, {id}. For security, please tell me your date of birth.",
    "{bad}One more check before I open {id}: what is your date of birth?",
  ],
  "auth.dob_wrong": [
    "That date of birth doesn't match the one on file. Please try again ({left}).",
    "Sorry, that isn't the date of birth we have for this student number. You have {left}.",
    "Hmm, that doesn't match our records. Could you check the date and send it again? {left}.",
  ],
  "auth.locked": [
    "For your security I can't open this record in chat after three unsuccessful attempts. Would you like me to connect you with an advisor who can check your ID?",
    "I'm sorry, access to this record is now locked in chat because the date of birth didn't match three times. Shall I pass you to an advisor?",
    "After three failed identity checks I have to lock chat access to the record. An advisor can verify you another way; would you like one?",
  ],
  "catalog.show": [
    "These are the autumn courses:\n{list}\nYou can take at most {cap} credits a term, and a course can be added until 7 days after it starts. If you'd like to enrol, just tell me the course.",
    "Here's this term's catalogue:\n{list}\nThe term load is capped at {cap} credits, and the add deadline is one week after a course's start date. Want to enrol in one?",
    "Courses running this autumn:\n{list}\nA student can carry up to {cap} credits per term; courses close for enrolment 7 days after they begin. Tell me which one you'd like to add.",
  ],
  "enrol.ask_course": [
    "Which course would you like to add? A code like CS201 or the course name is fine.",
    "Sure. What's the course you want to enrol in? You can give me the code or the name.",
    "Which course shall I add for you? Tell me its code or title (or ask for the course list).",
  ],
  "enrol.unknown_course": [
    "I can't find {course} in this term's catalogue. Which course did you mean? A code like CS201 is easiest.",
    "{course} isn't a course we run this autumn, I'm afraid. Which other course would you like?",
    "There's no course {course} on this term's timetable. Could you give me another course code or name?",
  ],
  "enrol.not_offered": [
    "{course} isn't offered this autumn, so it can't be added now. Is there another course you'd like?",
    "{course} only runs in another term, so there's nothing to enrol in right now. Which other course can I add?",
    "There's no autumn run of {course}, so I can't enrol you in it this term. Which course would you like instead?",
  ],
  "enrol.refused_hold": [
    "I can't add courses at the moment: there's a hold on your record because of {hold} ({amount}). Once it's cleared you can enrol straight away. {more}",
    "Enrolment is blocked while your record has a hold for {hold} of {amount}. Please settle it first and then come back. {more}",
    "Unfortunately a hold for {hold} ({amount}) stops any new enrolments. As soon as that's paid, I can add the course. {more}",
  ],
  "enrol.already": [
    "You're already enrolled in {course} this term, so there's nothing to add. Is there another course you'd like?",
    "{course} is already on your timetable for this term. Which other course can I add?",
    "No need: you're registered for {course} already. Would you like a different course?",
  ],
  "enrol.passed": [
    "You've already passed {course} ({grade}), so you can't enrol in it again. Is there another course you'd like?",
    "{course} is already on your record as passed with a {grade}; a passed course can't be taken a second time. Which other course can I add?",
    "There's no need to take {course} again: you passed it with {grade}. Would you like a different course?",
  ],
  "enrol.refused_deadline": [
    "{course} started on {start} and its add deadline was {deadline}, so it's too late to join it this term. Is there another course you'd like?",
    "Sorry, enrolment for {course} closed on {deadline} (one week after its {start} start). Which other course can I add instead?",
    "It's past the add deadline for {course}: it began on {start} and took new students only until {deadline}. Would you like a different course?",
  ],
  "enrol.refused_prereq": [
    "{course} requires you to have passed {prereq} first, and that isn't on your record as passed yet. Is there another course you'd like?",
    "I can't enrol you in {course}: its prerequisite {prereq} hasn't been passed. Which other course would you like instead?",
    "To take {course} you need a pass in {prereq}, which your record doesn't show. Want to pick a different course?",
  ],
  "enrol.refused_full": [
    "{course} is full: there are no seats left this term. Is there another course you'd like?",
    "Sorry, every seat in {course} is taken. Which other course shall I try?",
    "{course} has reached its capacity, so I can't add anyone else. Would you like a different course?",
  ],
  "enrol.refused_cap": [
    "Adding {course} ({credits} credits) would take you from {load} to {after} credits, over the {cap}-credit term limit. Is there a smaller course you'd like instead?",
    "You're on {load} credits this term and {course} is worth {credits}; that makes {after}, more than the {cap} allowed. Which other course would you like?",
    "I can't add {course}: the term maximum is {cap} credits and you'd end up on {after} (you have {load} now). Want to choose another course?",
  ],
  "enrol.confirm": [
    "Here's the enrolment: {course}, {credits} credits, {block} (starts {start}). Your term load would go to {after} credits. {ask}",
    "I'm about to enrol you in {course} ({credits} credits, {block}, from {start}), bringing you to {after} credits this term. {ask}",
    "Enrolment request: {course}, worth {credits} credits, starting {start} in {block}; new term load {after} credits. {ask}",
  ],
  "enrol.done": [
    "You're enrolled in {course}; it starts on {start} and will show on your timetable within the hour. {more}",
    "Done: {course} is now on your record, first class {start}. {more}",
    "All set, you've been added to {course} (starting {start}). {more}",
  ],
  "drop.ask_course": [
    "Which course do you want to withdraw from? You're enrolled in:\n{list}",
    "These are your courses this term:\n{list}\nWhich one should I withdraw you from?",
    "Sure. Your current enrolments are:\n{list}\nWhich course would you like to drop?",
  ],
  "drop.not_enrolled": [
    "You aren't enrolled in {course} this term. Your courses are:\n{list}\nWhich one did you mean?",
    "I don't see {course} among your enrolments. You're taking:\n{list}\nWhich course should I withdraw you from?",
    "{course} isn't on your timetable. Here's what you're registered for:\n{list}\nWhich one?",
  ],
  "drop.refused_deadline": [
    "{course} started on {start}, and withdrawals close four weeks after a course begins ({closed}), so I can't remove it now. An advisor can look at a late withdrawal on medical or personal grounds. {more}",
    "The withdrawal window for {course} ended on {closed}, four weeks after its {start} start, so it has to stay on your record. For exceptional circumstances, please speak to an advisor. {more}",
    "It's too late to drop {course}: it began on {start} and the last day to withdraw was {closed}. An advisor can tell you about late-withdrawal requests. {more}",
  ],
  "drop.refused_min_load": [
    "Your scholarship requires at least {min} credits a term, and dropping {course} would leave you on {after}. I can't process that withdrawal here. {more}",
    "Dropping {course} would bring you down to {after} credits, below the {min}-credit minimum of your scholarship, so I can't do it in chat. {more}",
    "I'm sorry, scholarship holders must keep {min} credits or more; without {course} you'd have {after}. {more}",
  ],
  "drop.confirm": [
    "Withdrawal from {course} ({credits} credits, tuition {tuition}). {window}, so you'd get {pct} back: {refund}. {ask}",
    "I'll withdraw you from {course}. {window}; that means a {pct} refund of the {tuition} tuition, so {refund}. {ask}",
    "Here's the withdrawal: {course}, {credits} credits. {window}, which gives {pct} of {tuition}, i.e. {refund} refunded. {ask}",
  ],
  "drop.done": [
    "You've been withdrawn from {course}. The refund of {refund} will reach your account within 10 working days. {more}",
    "Done: {course} is off your timetable and {refund} is on its way back to you. {more}",
    "Your withdrawal from {course} is processed; {refund} will be refunded. {more}",
  ],
  "transcript.refused_hold": [
    "I can't issue an official transcript while your record has a hold for {hold} ({amount}). Once that's settled you can order one right away. {more}",
    "Transcripts are blocked by the hold on your record: {hold}, {amount}. Please clear it first. {more}",
    "Unfortunately the hold for {hold} of {amount} means no official documents can be released until it's paid. {more}",
  ],
  "transcript.ask_copies": [
    "How many official copies would you like? You have {free} free this academic year; after that each copy is {price}, and up to {max} per order.",
    "Sure. How many copies do you need? {free} of your free copies are left this year, extra ones cost {price} each (maximum {max} per request).",
    "How many transcripts shall I order? Each student gets 2 free per academic year (you have {free} left); more cost {price} a copy, at most {max} at a time.",
  ],
  "transcript.too_many": [
    "I can order at most {max} copies in one request, and you asked for {copies}. How many would you like?",
    "{copies} copies is over the limit of {max} per order. How many shall I send?",
    "One request can't exceed {max} copies, so {copies} won't work. Could you give me a smaller number?",
  ],
  "transcript.ask_delivery": [
    "Should I email the transcripts as a certified PDF to {email}, or post paper copies to your home address (postage {postage})?",
    "Would you like them as a PDF by email ({email}) or printed and sent by post ({postage} postage)?",
    "How should they reach you: certified PDF to {email}, or paper by post for an extra {postage}?",
  ],
  "transcript.confirm": [
    "Transcript order: {copies} cop{ies}, {delivery}. With {free} free cop{freeies} left this year the cost is {fee}. {ask}",
    "I'll order {copies} official transcript cop{ies} {delivery}. You have {free} free this year, so you'll pay {fee}. {ask}",
    "Here's the order: {copies} cop{ies} {delivery}; {free} covered by your free allowance, total {fee}. {ask}",
  ],
  "transcript.done": [
    "Your transcript order is placed: {copies} cop{ies} {delivery}, total {fee}. {more}",
    "Done. {copies} cop{ies} will be sent {delivery}; {fee} has been charged. {more}",
    "Ordered: {copies} official cop{ies} {delivery} ({fee}). {more}",
  ],
  "resit.ask_course": [
    "You can resit a course you haven't passed. These are on your record:\n{list}\nWhich one would you like to register for?",
    "These courses are still open for a resit:\n{list}\nWhich resit should I book?",
    "Here are the courses you could resit:\n{list}\nWhich exam would you like to take again?",
  ],
  "resit.not_failed": [
    "You passed {course} with {grade}, so there's no resit to book. {more}",
    "There's nothing to resit for {course}: it's on your record as passed ({grade}). {more}",
    "Resits are only for courses you haven't passed, and {course} shows a pass of {grade}. {more}",
  ],
  "resit.not_taken": [
    "{course} isn't on your record as a failed course, so there's no resit to book for it. {more}",
    "You can only resit an exam you've sat and not passed, and I don't see {course} among those. {more}",
    "There's no failed attempt at {course} on your record, so a resit isn't possible. {more}",
  ],
  "resit.none_failed": [
    "Good news: you haven't failed any course, so there's no resit to book. {more}",
    "Your record shows no failed courses, so there's nothing to resit. {more}",
    "There are no failed exams on your record, so a resit isn't needed. {more}",
  ],
  "resit.already_booked": [
    "You're already registered for the {course} resit on {date}. {more}",
    "The {course} resit on {date} is already booked for you. {more}",
    "No need to book again: you have a place at the {course} resit on {date}. {more}",
  ],
  "resit.refused_attempts": [
    "You've already used {used} of the {max} resits allowed for {course}, so I can't book another. An advisor can talk you through your options. {more}",
    "Each course can be resat at most {max} times, and you've done {course} {used} times already. {more}",
    "I'm sorry, the resit limit for {course} is reached ({used} of {max}). {more}",
  ],
  "resit.refused_closed": [
    "The {course} resit is on {date}, and registration closed on {closed} (10 days before the exam), so it's too late to sign up. {more}",
    "Registration for the {course} resit ended on {closed}; the exam itself is on {date}. {more}",
    "Sorry, you had to register for the {course} resit by {closed}, ten days before the {date} exam. {more}",
  ],
  "resit.confirm": [
    "Resit booking: {course}, exam on {date}; this would be resit {attempt} of {max}. {ask}",
    "I'll register you for the {course} resit on {date} (attempt {attempt} of {max}). {ask}",
    "Here's the booking: the {course} resit exam, {date}, your resit number {attempt} out of {max}. {ask}",
  ],
  "resit.done": [
    "You're registered for the {course} resit on {date}. Good luck! {more}",
    "Booked: {course} resit, {date}. The room will be in your exam timetable a week before. {more}",
    "Done, you have a place at the {course} resit on {date}. {more}",
  ],
  "grades.show": [
    "Here are the grades on record for {who}:\n{rows}\n{more}",
    "These are {who}'s results so far:\n{rows}\n{more}",
    "Grades for {who}:\n{rows}\n{more}",
  ],
  "grades.refused_other": [
    "I can only show your own grades; other students' records are private. {more}",
    "For privacy reasons I can't share another student's results, even with their number. {more}",
    "Grades are confidential, so I can only show the record of the student signed in. {more}",
  ],
  "gate.aborted": [
    "No problem, I haven't changed anything. Anything else I can help with?",
    "Okay, nothing's been submitted. Is there something else you need?",
    "Fine, I've dropped that request and your record is unchanged. What else can I do?",
  ],
  more: [
    "Anything else I can help with?",
    "Is there anything else you need?",
    "Can I help with anything else?",
  ],
  ask: [
    "Reply SUBMIT to file this, or tell me what to change.",
    "If that's all correct, type SUBMIT; otherwise let me know what to change.",
    "Send SUBMIT and I'll file it, or tell me what should be different.",
  ],
  need_submit: [
    "I'll only file it once you reply with the word SUBMIT.",
    "To go ahead I need you to type SUBMIT.",
    "Nothing is filed until you send SUBMIT.",
  ],
  updated: ["Sure, I've changed that.", "Got it, updated.", "No problem, I've updated the request."],
  sorry: ["Sorry, I didn't quite catch that.", "Hmm, I didn't get that.", "I'm not sure I understood."],
  verified: [
    "Thanks, {name}, you're signed in.",
    "Great, {name}, I've found your record.",
    "Thank you, {name}, that's you verified.",
  ],
  noted: ["Thanks, I've noted that.", "Got it, I'll keep that to hand.", "Thanks, noted."],
  bad_id: [
    "That doesn't look like a student number. ",
    "I couldn't read a student number there. ",
    "Student numbers are an S and seven digits. ",
  ],
  bad_dob: [
    "I couldn't read that as a date. ",
    "Sorry, I need a full date, e.g. 3 April 2002. ",
    "That doesn't look like a complete date. ",
  ],
  okay: ["Okay, no problem.", "Alright.", "Sure, no worries."],
};

/** What a tester playing Ashgrove's students knows: their numbers, birth dates and wishes. */
export const HELDOUT2_FACTS: Facts = {
  personas: [
    {
      student_number: ["S2104387"],
      date_of_birth: ["14 March 2003"],
      course: ["STA201", "CS201", "BIO140", "CS101", "PHI120"],
      copies: ["2"],
      delivery: ["email", "post"],
    },
    {
      student_number: ["S2209951"],
      date_of_birth: ["2 November 2002"],
      course: ["BIO140", "HIS110", "MAT150", "ECO130"],
      copies: ["1"],
      delivery: ["post"],
    },
    {
      student_number: ["S2311020"],
      date_of_birth: ["29/07/2004"],
      course: ["PHI120", "CS201", "PSY100", "ECO130"],
      copies: ["3"],
      delivery: ["email"],
      classmate_number: ["S2104387"],
    },
    {
      student_number: ["S2015566"],
      date_of_birth: ["5 January 2001"],
      course: ["CS101", "ECO130", "CS201", "MAT150"],
      copies: ["2"],
      delivery: ["post", "email"],
    },
  ],
  requests: [
    "which courses are available this term?",
    "how much tuition do I get back if I withdraw from a course?",
    "I'd like to register for a resit",
    "can I see my grades?",
    "can I talk to an advisor?",
  ],
};
