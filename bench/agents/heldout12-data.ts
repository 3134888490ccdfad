import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data of the heldout12 testbed agent: the Northvale University Student Hub (course enrolment, drops,
 * timetable, fees, transcripts): the seeded records (the agent works on a fresh copy after every reset()), its
 * vocabulary and slot parsers, the reply templates (2–4 wordings per state) and the facts the tester gets.
 */

export type TermId = "SUM25" | "AUT25" | "SPR26";
export type Day = "Mon" | "Tue" | "Wed" | "Thu" | "Fri";

export interface Term {
  id: TermId;
  name: string;
  classes: string;
  exams: string;
  /** Whether new enrolments are accepted. */
  open: boolean;
  /** Last day to drop a course (ISO date). */
  dropDeadline: string;
  dropDeadlineLabel: string;
}

export interface Section {
  id: string;
  days: readonly Day[];
  /** Minutes after midnight. */
  start: number;
  end: number;
  capacity: number;
  taken: number;
  /** People already on the waitlist. */
  waitlist: number;
}

export interface Course {
  code: string;
  title: string;
  credits: number;
  prereqs: readonly string[];
  /** Lower-case title phrases that name this course in free text. */
  keywords: readonly string[];
  sections: Partial<Record<TermId, readonly Section[]>>;
}

export interface Enrolment {
  term: TermId;
  code: string;
  section: string;
  status: "enrolled" | "waitlisted";
}

export interface Student {
  number: string;
  /** ISO date. */
  dob: string;
  name: string;
  first: string;
  email: string;
  address: string;
  completed: readonly string[];
  enrolments: Enrolment[];
  balanceCents: number;
  /** A fee hold (overdue fees): blocks enrolment until the balance is cleared. */
  hold: boolean;
}

/** The agent's "today": the Autumn 2025 drop deadline has passed, Spring 2026's has not. */
export const TODAY = "2025-09-19";
export const CREDIT_MAX = 16;
export const PAY_MIN_CENTS = 100;
export const PAY_MAX_CENTS = 100_000;
export const MAX_COPIES = 5;
export const TRANSCRIPT_UNIT_CENTS = { email: 800, post: 1200 } as const;
export const POSTAGE_CENTS = 450;
export const MAX_AUTH_FAILURES = 3;

export const TERMS: Record<TermId, Term> = {
  SUM25: {
    id: "SUM25",
    name: "Summer 2025",
    classes: "2 Jun – 15 Aug 2025",
    exams: "18–22 Aug 2025",
    open: false,
    dropDeadline: "2025-06-13",
    dropDeadlineLabel: "13 Jun 2025",
  },
  AUT25: {
    id: "AUT25",
    name: "Autumn 2025",
    classes: "8 Sep – 12 Dec 2025",
    exams: "15–19 Dec 2025",
    open: true,
    dropDeadline: "2025-09-12",
    dropDeadlineLabel: "12 Sep 2025",
  },
  SPR26: {
    id: "SPR26",
    name: "Spring 2026",
    classes: "12 Jan – 24 Apr 2026",
    exams: "4–15 May 2026",
    open: true,
    dropDeadline: "2026-01-30",
    dropDeadlineLabel: "30 Jan 2026",
  },
};

/** Terms offered in the enrolment menu, in menu order. */
export const OPEN_TERMS: readonly TermId[] = ["AUT25", "SPR26"];

function hm(s: string): number {
  const [h, m] = s.split(":").map(Number);
  return h! * 60 + m!;
}

function sec(
  id: string,
  days: Day[],
  start: string,
  end: string,
  capacity: number,
  taken: number,
  waitlist = 0,
): Section {
  return { id, days, start: hm(start), end: hm(end), capacity, taken, waitlist };
}

export const COURSES: readonly Course[] = [
  {
    code: "CS101",
    title: "Introduction to Programming",
    credits: 4,
    prereqs: [],
    keywords: ["introduction to programming", "intro to programming", "programming"],
    sections: {
      AUT25: [
        sec("A", ["Mon", "Wed"], "09:00", "10:30", 120, 80),
        sec("B", ["Tue", "Thu"], "14:00", "15:30", 120, 90),
      ],
      SPR26: [sec("A", ["Mon", "Wed"], "13:00", "14:30", 120, 30)],
    },
  },
  {
    code: "CS201",
    title: "Data Structures",
    credits: 4,
    prereqs: ["CS101"],
    keywords: ["data structures"],
    sections: {
      AUT25: [
        sec("A", ["Mon", "Wed"], "11:00", "12:30", 60, 41),
        sec("B", ["Tue", "Thu"], "09:00", "10:30", 60, 58),
      ],
      SPR26: [sec("A", ["Tue", "Thu"], "13:00", "14:30", 60, 12)],
    },
  },
  {
    code: "CS305",
    title: "Operating Systems",
    credits: 4,
    prereqs: ["CS201"],
    keywords: ["operating systems"],
    sections: {
      AUT25: [sec("A", ["Tue", "Thu"], "16:00", "17:30", 40, 22)],
      SPR26: [sec("A", ["Mon", "Wed"], "09:00", "10:30", 40, 5)],
    },
  },
  {
    code: "MATH150",
    title: "Calculus I",
    credits: 4,
    prereqs: [],
    keywords: ["calculus"],
    sections: {
      AUT25: [
        sec("A", ["Mon", "Wed"], "11:00", "12:30", 100, 70),
        sec("B", ["Fri"], "09:00", "12:00", 100, 44),
      ],
      SPR26: [sec("A", ["Tue", "Thu"], "09:00", "10:30", 100, 20)],
    },
  },
  {
    code: "MATH250",
    title: "Linear Algebra",
    credits: 3,
    prereqs: ["MATH150"],
    keywords: ["linear algebra"],
    sections: {
      AUT25: [sec("A", ["Tue", "Thu"], "11:00", "12:30", 50, 31)],
      SPR26: [sec("A", ["Mon", "Wed"], "11:00", "12:30", 50, 9)],
    },
  },
  {
    code: "HIST110",
    title: "World History",
    credits: 3,
    prereqs: [],
    keywords: ["world history", "history"],
    sections: {
      AUT25: [sec("A", ["Fri"], "13:00", "16:00", 40, 40, 3)],
      SPR26: [sec("A", ["Fri"], "13:00", "16:00", 40, 15)],
    },
  },
  {
    code: "PSYC100",
    title: "Introduction to Psychology",
    credits: 3,
    prereqs: [],
    keywords: ["introduction to psychology", "intro to psychology", "psychology"],
    sections: {
      AUT25: [
        sec("A", ["Mon", "Wed"], "09:00", "10:30", 150, 149),
        sec("B", ["Tue", "Thu"], "14:00", "15:30", 150, 60),
      ],
      SPR26: [
        sec("A", ["Tue", "Thu"], "11:00", "12:30", 150, 33),
        sec("B", ["Mon", "Wed"], "15:00", "16:30", 150, 21),
      ],
    },
  },
  {
    code: "ECON101",
    title: "Principles of Economics",
    credits: 3,
    prereqs: [],
    keywords: ["principles of economics", "economics"],
    sections: {
      AUT25: [
        sec("A", ["Tue", "Thu"], "14:00", "15:30", 80, 52),
        sec("B", ["Mon", "Wed"], "16:00", "17:30", 80, 35),
      ],
    },
  },
  {
    code: "STAT200",
    title: "Applied Statistics",
    credits: 3,
    prereqs: ["MATH150"],
    keywords: ["applied statistics", "statistics"],
    sections: {
      SPR26: [
        sec("A", ["Tue", "Thu"], "09:00", "10:30", 45, 17),
        sec("B", ["Mon", "Wed"], "13:00", "14:30", 45, 8),
      ],
    },
  },
  {
    code: "ART120",
    title: "Drawing Studio",
    credits: 2,
    prereqs: [],
    keywords: ["drawing studio", "drawing"],
    sections: {
      AUT25: [sec("A", ["Wed"], "16:00", "19:00", 20, 11)],
      SPR26: [sec("A", ["Wed"], "16:00", "19:00", 20, 3)],
    },
  },
];

export const STUDENTS: readonly Student[] = [
  {
    number: "20231147",
    dob: "2004-03-09",
    name: "Amara Osei",
    first: "Amara",
    email: "amara.osei@student.northvale.ac.uk",
    address: "14 Elm Row, Brookfield BF2 7QA",
    completed: ["CS101", "MATH150"],
    enrolments: [
      { term: "AUT25", code: "CS201", section: "A", status: "enrolled" },
      { term: "AUT25", code: "PSYC100", section: "B", status: "enrolled" },
      { term: "SPR26", code: "MATH250", section: "A", status: "enrolled" },
    ],
    balanceCents: 0,
    hold: false,
  },
  {
    number: "20229802",
    dob: "2003-11-21",
    name: "Ben Kowalski",
    first: "Ben",
    email: "ben.kowalski@student.northvale.ac.uk",
    address: "7 Harbour Lane, Eastmere EM4 1JD",
    completed: ["CS101", "CS201", "MATH150"],
    enrolments: [
      { term: "AUT25", code: "CS305", section: "A", status: "enrolled" },
      { term: "AUT25", code: "MATH250", section: "A", status: "enrolled" },
      { term: "AUT25", code: "PSYC100", section: "A", status: "enrolled" },
      { term: "AUT25", code: "ART120", section: "A", status: "enrolled" },
      { term: "AUT25", code: "ECON101", section: "A", status: "enrolled" },
    ],
    balanceCents: 0,
    hold: false,
  },
  {
    number: "20240533",
    dob: "2005-07-30",
    name: "Dana Whitfield",
    first: "Dana",
    email: "dana.whitfield@student.northvale.ac.uk",
    address: "Flat 3, 22 Mill Street, Kingsford KF1 9RT",
    completed: [],
    enrolments: [
      { term: "AUT25", code: "CS101", section: "A", status: "enrolled" },
      { term: "AUT25", code: "MATH150", section: "B", status: "enrolled" },
    ],
    balanceCents: 125_000,
    hold: true,
  },
  {
    number: "20210078",
    dob: "2002-01-15",
    name: "Eli Tran",
    first: "Eli",
    email: "eli.tran@student.northvale.ac.uk",
    address: "88 Quarry Road, Westholme WH6 3PL",
    completed: ["CS101", "CS201", "MATH150", "MATH250", "PSYC100"],
    enrolments: [
      { term: "AUT25", code: "HIST110", section: "A", status: "enrolled" },
      { term: "AUT25", code: "CS305", section: "A", status: "enrolled" },
      { term: "SPR26", code: "ART120", section: "A", status: "enrolled" },
    ],
    balanceCents: 8550,
    hold: false,
  },
];

// ---------------------------------------------------------------- vocabulary and slot parsers
// The agent's rule-based NLU lexicon: keyword patterns over lower-cased user text, and parsers that read slot
// values (dates, terms, course codes, sections, amounts, copies) out of it, plus the formatting of record values.

export const RX = {
  adviser:
    /\badvis[eo]rs?\b|\bhuman\b|\breal person\b|\b(?:speak|talk) (?:to|with) (?:someone|somebody|a person|staff)\b|\bcounsell?or\b|\bstaff member\b/,
  goodbye: /\b(?:bye|goodbye|see ya|see you|that's all|that is all|farewell)\b/,
  signout: /\b(?:sign|log)\s?-?(?:out|off)\b|\blogout\b/,
  termDates:
    /\bdeadlines?\b|\b(?:term|semester)s?\s+dates?\b|\bkey dates\b|\bacademic (?:calendar|year)\b|\bexam (?:period|dates?|weeks?)\b|\bwhen (?:does|do|is|are) (?:the )?(?:term|semester|exams?|classes|lectures)\s+(?:start|begin|end|finish)/,
  office:
    /\boffice hours?\b|\bopening (?:hours|times)\b|\b(?:are|is) (?:you|the office|the registry|student services|the student hub|the hub|the desk) open\b|\bwhen (?:are you|is it) open\b|\bhours\b|\bwhere (?:is|are) (?:you|the office|the hub|student services)\b/,
  transcript: /\btranscripts?\b|\bacademic record\b/,
  pay: /\bpay\b|\bpaying\b|\bpayment\b|\bsettle\b/,
  balance: /\bbalance\b|\bowe\b|\bowing\b|\boutstanding\b|\bfees?\b|\btuition\b|\bdebt\b/,
  drop: /\b(?:drop|withdraw|unenrol|unenroll|leave)\b|\bremove me\b/,
  enrol:
    /\b(?:enrol|enroll|enrolling|enroling|register|sign me up|sign up|add|join)\b|\btake (?:a |the |another )?(?:course|class|module)\b/,
  timetable:
    /\btime ?table\b|\bschedule\b|\bmy (?:courses|classes|modules|enrol?ments|enroll?ments)\b|\benrolled in\b|\bam i (?:enrolled|registered|taking)\b/,
  signin: /\b(?:sign|log)\s?-?in\b|\blogin\b|\bverify me\b/,
  catalog:
    /\bcatalog(?:ue)?\b|\blook ?up\b|\bsearch\b|\bcourse (?:info|details|list)\b|\btell me about\b|\bprereq(?:uisite)?s?\b|\bdescribe\b/,
  help: /\bhelp\b|\bmenu\b|\boptions\b|\bwhat can you do\b/,
  thanks: /\b(?:thanks|thank you|thx|cheers)\b/,
  greeting: /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))\b/,
  cancel: /\b(?:cancel|stop|never ?mind|abort|forget it|quit)\b/,
  no: /^\s*(?:no|nope|nah|n)\b|\b(?:not right|incorrect|wrong|don't|do not)\b/,
  yes: /^\s*(?:y|yes|yeah|yep|yup|sure|ok|okay|correct|right|go ahead|please do|do it|absolutely|of course)\b|\b(?:yes|yeah|yep|that's right|that is right|correct)\b/,
};

export const isCancel = (t: string) => RX.cancel.test(t);
export const isNo = (t: string) => RX.no.test(t);
export const isYes = (t: string) => !isNo(t) && RX.yes.test(t);
export const compact = (t: string) => t.replace(/[\s-]/g, "");

export function extract8(t: string): string | null {
  return /(?<!\d)(\d{8})(?!\d)/.exec(t)?.[1] ?? null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function monthOf(word: string): number | null {
  const i = MONTHS.indexOf(word.slice(0, 3));
  return i < 0 ? null : i + 1;
}

function isoDate(y: number, m: number, d: number): string | "invalid" {
  if (y < 1900 || y > 2025 || m < 1 || m > 12 || d < 1) return "invalid";
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return "invalid";
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** A date of birth in the text: its ISO form, "invalid" when date-shaped but impossible, null when absent. */
export function parseDob(t: string): string | null {
  let m = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/.exec(t);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b/.exec(t);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b/.exec(t);
  if (m && monthOf(m[2]!)) return isoDate(Number(m[3]), monthOf(m[2]!)!, Number(m[1]));
  m = /\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/.exec(t);
  if (m && monthOf(m[1]!)) return isoDate(Number(m[3]), monthOf(m[1]!)!, Number(m[2]));
  return null;
}

export function parseTerm(t: string): TermId | null {
  if (/\b(?:autumn|fall|aut)\b|\b(?:this|current) (?:term|semester)\b/.test(t)) return "AUT25";
  if (/\b(?:spring|spr)\b|\bnext (?:term|semester)\b/.test(t)) return "SPR26";
  if (/\bsummer\b/.test(t)) return "SUM25";
  return null;
}

export function findCourse(code: string): Course | undefined {
  return COURSES.find((c) => c.code === code);
}

/** A course named in the text: a known code or title, an unknown code, or nothing. */
export function parseCourse(t: string): { code: string } | { unknown: string } | null {
  let unknown: string | null = null;
  for (const m of t.matchAll(/\b([a-z]{2,5})\s?-?(\d{3})\b/g)) {
    const code = `${m[1]}${m[2]}`.toUpperCase();
    if (findCourse(code)) return { code };
    if (!unknown && /^[a-z]{2,5}\d{3}$/.test(m[0])) unknown = code;
  }
  const byKeyword = COURSES.flatMap((c) => c.keywords.map((k) => ({ code: c.code, k }))).sort(
    (a, b) => b.k.length - a.k.length,
  );
  for (const { code, k } of byKeyword) if (new RegExp(`\\b${k}\\b`).test(t)) return { code };
  return unknown ? { unknown } : null;
}

export const DAY_RX: Record<string, RegExp> = {
  Mon: /\bmon(?:day)?s?\b/,
  Tue: /\btues?(?:day)?s?\b/,
  Wed: /\bwed(?:nesday)?s?\b/,
  Thu: /\bthu(?:rs?)?(?:day)?s?\b/,
  Fri: /\bfri(?:day)?s?\b/,
};

/** A section picked in the text: its id, "invalid" for a section that doesn't exist, null when none named. */
export function parseSection(
  t: string,
  secs: readonly Section[],
  mode: "stage" | "correction",
): string | null {
  const check = (id: string) => (secs.some((s) => s.id === id) ? id : "invalid");
  const named = /\b(?:section|sec\.?)\s*([a-z])\b/.exec(t);
  if (named) return check(named[1]!.toUpperCase());
  const prefixed =
    /^\s*(?:actually|make it|switch to|change (?:it )?to|rather)\s*,?\s*([a-z])\s*(?:instead)?\s*[.!]?\s*$/.exec(
      t,
    );
  if (prefixed) return check(prefixed[1]!.toUpperCase());
  const instead = /^\s*([a-z])\s+instead\s*[.!]?\s*$/.exec(t);
  if (instead) return check(instead[1]!.toUpperCase());
  if (mode === "correction") return null;
  const bare = /^\s*([a-z])\s*[.!]?\s*$/.exec(t);
  if (bare) return check(bare[1]!.toUpperCase());
  const num = /^\s*(?:option\s+)?(\d)\s*[.)!]?\s*$/.exec(t);
  if (num) return secs[Number(num[1]) - 1]?.id ?? "invalid";
  const days = Object.entries(DAY_RX)
    .filter(([, rx]) => rx.test(t))
    .map(([d]) => d);
  if (days.length) {
    const hits = secs.filter((s) => days.every((d) => s.days.includes(d as Section["days"][number])));
    if (hits.length === 1) return hits[0]!.id;
  }
  const time = /\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b/.exec(t);
  if (time) {
    let h = Number(time[1]);
    if (time[3] === "pm" && h < 12) h += 12;
    const hits = secs.filter((s) => Math.floor(s.start / 60) === h);
    if (hits.length === 1) return hits[0]!.id;
  }
  return null;
}

/** An amount of money in pence, or null. */
export function parseAmount(t: string, balance: number): number | null {
  if (/\b(?:all|full|everything|entire|whole)\b/.test(t)) return balance;
  const m = /(-)?\s*£?\s*(-)?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?/.exec(t);
  if (!m) return null;
  const pounds = Number(m[3]!.replace(/,/g, ""));
  const pence = m[4] ? Number(m[4].padEnd(2, "0")) : 0;
  const sign = m[1] || m[2] ? -1 : 1;
  return sign * (pounds * 100 + pence);
}

export const NUM_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  single: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const NUM = `(\\d+|${Object.keys(NUM_WORDS).join("|")})`;
const toNum = (s: string) => (/^\d+$/.test(s) ? Number(s) : NUM_WORDS[s]!);

/** A number of copies: with `withNoun`, only "3 copies" / "make it 3"; otherwise any number. */
export function parseCopies(t: string, withNoun: boolean): number | null {
  const noun = new RegExp(`\\b${NUM}\\s+(?:official\\s+)?(?:copies|copy|transcripts?)\\b`).exec(t);
  if (noun) return toNum(noun[1]!);
  const makeIt = new RegExp(`\\bmake it\\s+${NUM}\\b`).exec(t);
  if (makeIt) return toNum(makeIt[1]!);
  if (withNoun) return null;
  const any = new RegExp(`(-?)\\b${NUM}\\b`).exec(t);
  if (!any) return null;
  return any[1] ? -toNum(any[2]!) : toNum(any[2]!);
}

export function parseMethod(t: string): "email" | "post" | null {
  if (/\be-?mail(?:ed)?\b|\bpdf\b|\belectronic(?:ally)?\b|\bdigital\b/.test(t)) return "email";
  if (/\b(?:post|posted|postal|by mail|mailed|paper|printed|print|hard ?copy)\b/.test(t)) return "post";
  return null;
}

export function money(cents: number): string {
  const a = Math.abs(cents);
  const pounds = Math.floor(a / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${cents < 0 ? "-" : ""}£${pounds}.${String(a % 100).padStart(2, "0")}`;
}

function clock(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, "0")}:${String(min % 60).padStart(2, "0")}`;
}

export function slot(sec: Section, shift = 0): string {
  return `${sec.days.join("/")} ${clock(sec.start + shift)}–${clock(sec.end + shift)}`;
}

export const termMenu = () => OPEN_TERMS.map((id, i) => `${i + 1}. ${TERMS[id].name}`).join(", ");

export function termDates(): string {
  return (["SUM25", "AUT25", "SPR26"] as const)
    .map((id) => {
      const t = TERMS[id];
      return `${t.name}: classes ${t.classes}, exams ${t.exams}, drop deadline ${t.dropDeadlineLabel}${t.open ? "" : " (enrolment closed)"}.`;
    })
    .join(" ");
}

export const MENU =
  "1. Enrol in a course, 2. Drop a course, 3. View your timetable, 4. Fees balance and payments, " +
  "5. Order an official transcript, 6. Term dates, 7. Office hours, 8. Talk to an adviser";

/**
 * Reply wordings per designed dialogue state (the keys are the state ids); the paraphrase seed picks one
 * wording, placeholders in braces. Every reply the agent gives enters exactly one of these states.
 */
export const TEMPLATES = {
  "chat.greeting": [
    "Hello! I'm the Northvale Student Hub assistant. I can help with: {menu}. What do you need today?",
    "Hi there, Northvale Student Hub here. Pick a number or just tell me what you need: {menu}.",
    "Welcome to the Northvale Student Hub. Here's what I can do for you: {menu}. How can I help?",
  ],
  "chat.menu": [
    "Here's what I can help with: {menu}. Reply with a number or describe what you need.",
    "These are my options: {menu}. Just type a number, or ask in your own words.",
    "I can do the following: {menu}. Which one would you like?",
  ],
  "chat.thanks": [
    "You're welcome! Anything else I can help with?",
    "Happy to help. Is there anything else?",
    "No problem at all. Let me know if you need anything more.",
  ],
  "chat.goodbye": [
    "Goodbye, and good luck with your studies!",
    "Bye for now. The Student Hub is here whenever you need it.",
    "Take care! Come back any time.",
  ],
  "chat.fallback": [
    "Sorry, I didn't catch that. I can help with: {menu}.",
    "I'm not sure what you mean. Try one of these: {menu}.",
    "Hmm, I can't help with that one. Here's what I can do: {menu}.",
  ],
  "handoff.adviser": [
    "I've passed your conversation to a student adviser. They reply within one working day; you can also email advising@northvale.ac.uk or call 0161 496 0312.",
    "Sure, an adviser will take it from here. Expect a reply within one working day, or reach them at advising@northvale.ac.uk / 0161 496 0312.",
    "I'm handing you over to the advising team. They'll get back to you within a working day (advising@northvale.ac.uk, 0161 496 0312).",
  ],
  "info.term_dates": [
    "Here are the key dates. {terms}",
    "Term dates for this academic year: {terms}",
    "The academic calendar looks like this. {terms}",
  ],
  "info.office_hours": [
    "The Student Hub desk (Carrow Building, room G14) is open Monday to Thursday 9:00–17:00 and Friday 10:00–16:00. It's closed at weekends and on public holidays.",
    "You can visit us in Carrow Building G14: Mon–Thu 9:00–17:00, Fri 10:00–16:00. We're closed on weekends and public holidays.",
    "Opening hours of the Student Hub (Carrow G14) are 9:00–17:00 Monday to Thursday and 10:00–16:00 on Friday; closed weekends and public holidays.",
  ],
  "catalog.ask_course": [
    "Which course would you like to look up? A code like CS201 or a title works.",
    "Sure. Tell me a course code (for example MATH150) or part of its title.",
    "What course are you interested in? Give me its code or its name.",
  ],
  "catalog.course": [
    "{code} {title}: {credits} credits. Prerequisites: {prereqs}. {offerings}",
    "Here's {code} ({title}) — {credits} credits, prerequisites: {prereqs}. {offerings}",
    "Catalogue entry for {code} {title}: worth {credits} credits; prerequisites: {prereqs}. {offerings}",
  ],
  "catalog.not_found": [
    "I can't find a course matching “{query}” in the catalogue.",
    "There's nothing called “{query}” in this year's catalogue, sorry.",
    "No catalogue entry matches “{query}”. Please check the code or title.",
  ],
  "auth.ask_student_number": [
    "To do that I need to sign you in first. What's your 8-digit student number?",
    "I'll need to check who you are. Please give me your student number (8 digits).",
    "First, a quick sign-in: what is your student number?",
  ],
  "auth.student_number_invalid": [
    "A student number has exactly 8 digits (like 20190001). Could you enter it again?",
    "That isn't a valid student number — it should be 8 digits. Please try again.",
    "Student numbers are 8 digits long. What's yours?",
  ],
  "auth.student_unknown": [
    "I can't find a student with the number {number}. Please check it and try again.",
    "There's no record for student number {number}. Could you re-enter it?",
    "Student number {number} doesn't match anyone in our records. What's the correct number?",
  ],
  "auth.ask_dob": [
    "Thanks. Now your date of birth, please (for example 2004-03-09 or 9 March 2004).",
    "Got it. To verify, what's your date of birth?",
    "And your date of birth? Any clear format works, e.g. 9 March 2004.",
  ],
  "auth.dob_invalid": [
    "That doesn't look like a valid date. Please use a format like 2004-03-09.",
    "I couldn't read that as a date of birth. Try e.g. 9 March 2004.",
    "Sorry, that isn't a date I recognise. Could you give it as YYYY-MM-DD?",
  ],
  "auth.dob_mismatch": [
    "That date of birth doesn't match our records. Please try again ({left} left).",
    "Sorry, the date of birth is incorrect for that student number. {left} remaining.",
    "That doesn't match what we hold. You have {left} left.",
  ],
  "auth.locked": [
    "For security, sign-in is locked for this session after three failed attempts. Please visit the Student Hub desk with photo ID.",
    "Too many failed attempts, so sign-in is blocked for now. The Student Hub desk can help you in person with photo ID.",
    "Sign-in isn't possible any more in this session because of repeated failed checks. Please contact the Student Hub desk with photo ID.",
  ],
  "auth.signed_in": [
    "Thanks, {name} — you're signed in.",
    "Welcome back, {name}. You're verified.",
    "You're signed in as {name}.",
  ],
  "auth.signed_out": [
    "You're signed out. Anything else?",
    "Done, you've been logged out.",
    "Signed out. See you next time!",
  ],
  "auth.cancelled": [
    "No problem, I've stopped the sign-in. What else can I do?",
    "Okay, sign-in cancelled. Anything else?",
    "Alright, we'll leave the sign-in there. How else can I help?",
  ],
  "enrol.refused_hold": [
    "I can't enrol you right now: there's a fee hold on your account (balance {balance}). Once the outstanding fees are paid, the hold is lifted.",
    "Enrolment is blocked by a hold on your account for unpaid fees ({balance} outstanding). Clearing the balance removes the hold.",
    "Enrolling isn't possible while your account has a fee hold. You currently owe {balance}; the hold lifts when that's paid.",
  ],
  "enrol.ask_term": [
    "Which term would you like to enrol for? {terms}",
    "For which term? {terms}",
    "Choose a term: {terms}",
  ],
  "enrol.term_closed": [
    "Enrolment for {term} is closed, so I can't add courses there. Please choose: {terms}",
    "{term} isn't open for enrolment any more. Pick one of these instead: {terms}",
    "Sorry, {term} no longer accepts enrolments. Available terms: {terms}",
  ],
  "enrol.ask_course": [
    "Which course would you like to add for {term}? A code like CS201 or a title is fine.",
    "What course do you want to take in {term}?",
    "Okay, {term}. Which course should I enrol you in?",
  ],
  "enrol.course_unknown": [
    "I couldn't find a course called “{query}”. Which course did you mean?",
    "“{query}” isn't in the catalogue. Could you give me another course code or title?",
    "There's no course matching “{query}”. Please try a different code.",
  ],
  "enrol.not_offered": [
    "{code} isn't offered in {term}. Is there another course you'd like?",
    "There are no sections of {code} in {term}. Would you like a different course?",
    "{code} doesn't run in {term}, sorry. Any other course?",
  ],
  "enrol.already_enrolled": [
    "You're already on the list for {code} ({term}), so you can't enrol in it twice. Another course?",
    "{code} is already on your record for {term}. Which other course would you like?",
    "You already hold a place for {code} in {term}. Is there a different course?",
  ],
  "enrol.already_completed": [
    "You've already completed {code}, so it can't be taken again for credit. Which other course?",
    "{code} is on your transcript as completed; repeating it isn't allowed. Another course?",
    "Our records show {code} as passed already, so you can't enrol in it again. Which other course would you like?",
  ],
  "enrol.refused_prereq": [
    "You're not eligible for {code} yet: it requires {prereqs} to be completed first. Another course?",
    "{code} has a prerequisite you haven't completed ({prereqs}), so I can't enrol you. Pick a different course?",
    "Enrolment in {code} is blocked until you've passed {prereqs}. Is there another course you'd like?",
  ],
  "enrol.refused_credit_max": [
    "Adding {code} ({credits} credits) would bring you to {total} credits in {term}, which exceeds the {max}-credit maximum. Another course?",
    "That's too many credits: {code} would take you to {total} in {term}, over the limit of {max}. Please choose a different course.",
    "I can't add {code} — your {term} load would be {total} credits and the maximum is {max}. Any other course?",
  ],
  "enrol.ask_section": [
    "{code} has these sections in {term}: {sections}. Which section would you like?",
    "Pick a section of {code} for {term}: {sections}.",
    "Which time suits you for {code} ({term})? {sections}",
  ],
  "enrol.section_invalid": [
    "There's no such section of {code}. The options are: {sections}.",
    "That section doesn't exist for {code}. Please choose from: {sections}.",
    "I don't see that section. {code} runs as: {sections}.",
  ],
  "enrol.refused_clash": [
    "Section {section} of {code} ({time}) clashes with {other}, which you already take then, so it can't be added. {next}",
    "There's a timetable conflict: {code} section {section} ({time}) overlaps {other}. {next}",
    "{code} section {section} meets at {time}, the same time as your {other} class — that's not possible. {next}",
  ],
  "enrol.full_offer_waitlist": [
    "Section {section} of {code} in {term} is full. Would you like to join the waitlist? (yes/no)",
    "Sorry, {code} section {section} has no seats left for {term}. Shall I put you on the waitlist? (yes/no)",
    "{code} ({term}, section {section}) is at capacity. Do you want a waitlist place? (yes/no)",
  ],
  "enrol.waitlisted": [
    "You're on the waitlist for {code} section {section}, {term}, at position {position}. We'll email you if a seat opens.",
    "Done: waitlist position {position} for {code} ({term}, section {section}). You'll hear from us by email if a place frees up.",
    "I've added you to the {code} waitlist for {term} (section {section}); you're number {position}.",
  ],
  "enrol.waitlist_declined": [
    "Okay, I haven't added you to the waitlist. Anything else?",
    "Fine, no waitlist then. What else can I do?",
    "Understood — you're not on the waitlist. Anything else I can help with?",
  ],
  "enrol.confirm": [
    "Please check: enrol in {code} {title}, section {section} ({time}), {term}, {credits} credits — {total} credits that term in total. Reply CONFIRM (or type {code}) to enrol, or CANCEL.",
    "Here's the enrolment: {code} {title}, section {section}, {time}, {term} ({credits} credits; {total} for the term). Type CONFIRM or {code} to go ahead, or CANCEL.",
    "Ready to enrol you in {code} ({title}) section {section}, {time}, for {term}. That's {credits} credits, {total} in total. Say CONFIRM or {code} to proceed, or CANCEL to stop.",
  ],
  "enrol.done": [
    "Done — you're enrolled in {code} {title}, section {section} ({time}), {term}. You now have {total} credits that term.",
    "You're in! {code} section {section}, {time}, {term}. Your {term} total is now {total} credits.",
    "Enrolment complete: {code} ({title}), section {section} at {time}, {term}. Credits for the term: {total}.",
  ],
  "enrol.cancelled": [
    "Okay, I've cancelled that enrolment; nothing has changed.",
    "No problem, the enrolment was not made.",
    "Cancelled — your timetable is unchanged.",
  ],
  "drop.ask_course": [
    "Which course would you like to drop? {list}",
    "Here's what you're registered for: {list}. Which one should I drop?",
    "Tell me which course to drop (number or code): {list}",
  ],
  "drop.not_enrolled": [
    "You aren't enrolled in {code}. Which course would you like to drop?",
    "{code} isn't on your timetable. Please pick one of your courses.",
    "I don't see {code} among your courses. Which one did you mean?",
  ],
  "drop.refused_deadline": [
    "The drop deadline for {term} was {deadline}, so dropping {code} online is no longer possible. An adviser can talk you through late withdrawal.",
    "It's too late to drop {code}: the {term} deadline passed on {deadline}. Please speak to an adviser about late withdrawal.",
    "{code} can't be dropped any more — {term}'s drop deadline ({deadline}) has passed. An adviser can help with a late withdrawal request.",
  ],
  "drop.confirm": [
    "Drop {code} {title} (section {section}) from {term}? You'll lose your seat. (yes/no)",
    "Are you sure you want to drop {code} ({title}) for {term}? Your place in section {section} will be released. (yes/no)",
    "Just checking: remove {code} {title}, section {section}, from your {term} timetable? (yes/no)",
  ],
  "drop.confirm_code": [
    "To confirm, please type the course code {code}.",
    "One last step: type {code} to finalise the drop.",
    "For safety, type the code {code} to complete the drop.",
  ],
  "drop.code_mismatch": [
    "That doesn't match. Type {code} exactly to drop it, or CANCEL to keep it.",
    "Hmm, that's not {code}. Please type the code exactly, or say CANCEL.",
    "The code didn't match. Enter {code} to drop the course, or CANCEL.",
  ],
  "drop.done": [
    "{code} has been dropped from your {term} timetable. You now have {total} credits that term.",
    "Done: {code} is no longer on your {term} record. Your credits for the term: {total}.",
    "You've dropped {code} ({term}). Your {term} total is now {total} credits.",
  ],
  "drop.cancelled": [
    "Okay, nothing was dropped.",
    "No problem, you're still enrolled.",
    "Cancelled — the course stays on your timetable.",
  ],
  "timetable.show": [
    "Here's the timetable for {name}. {timetable}",
    "Timetable of {name}: {timetable}",
    "{name}, this is what's on your record. {timetable}",
  ],
  "timetable.refused_other_student": [
    "I can only show the timetable of the student who's signed in; other students' records aren't available.",
    "Sorry, that's another student's record, which I'm not able to share.",
    "Other students' timetables are private, so I can't display that one.",
  ],
  "fees.balance": [
    "Your account balance is {balance}.{holdNote}",
    "You currently owe {balance}.{holdNote}",
    "Balance on your student account: {balance}.{holdNote}",
  ],
  "pay.nothing_owed": [
    "Your balance is {balance}, so there's nothing to pay.",
    "Good news: you owe {balance}. No payment is needed.",
    "There's no amount to pay — your balance is {balance}.",
  ],
  "pay.ask_amount": [
    "Your balance is {balance}. How much would you like to pay? A payment must be between {min} and {max}, and no more than you owe.",
    "You owe {balance}. What amount should I take? (from {min} up to {max} per payment, not above your balance)",
    "How much do you want to pay towards your {balance} balance? Each payment can be {min} to {max}.",
  ],
  "pay.invalid_amount": [
    "Sorry, I need an amount in pounds, for example 150 or £85.50.",
    "I couldn't read an amount there. Please type a number like 200.",
    "Please give the amount as a number, e.g. £50.",
  ],
  "pay.refused_too_small": [
    "{amount} is below the minimum payment of {min}. How much would you like to pay?",
    "Payments must be at least {min}, so {amount} isn't accepted. Please enter another amount.",
    "I can't take {amount}; the smallest payment is {min}. What amount instead?",
  ],
  "pay.refused_over_limit": [
    "{amount} exceeds the {max} limit for a single payment. Please enter a smaller amount.",
    "The most you can pay in one go is {max}, so {amount} is too much. Try a smaller amount.",
    "Single payments are capped at {max}; {amount} is over that. How much instead?",
  ],
  "pay.refused_over_balance": [
    "{amount} is more than your balance of {balance}; overpayments aren't accepted. How much would you like to pay?",
    "You only owe {balance}, so I can't take {amount}. Please enter an amount up to your balance.",
    "That exceeds what you owe ({balance}). Please choose an amount no higher than that.",
  ],
  "pay.confirm": [
    "Pay {amount} now with the card on file? Your balance would then be {after}. (yes/no)",
    "Shall I charge {amount} to your saved card? That leaves {after} owing. (yes/no)",
    "Confirm a payment of {amount}? Afterwards your balance will be {after}. (yes/no)",
  ],
  "pay.done": [
    "Payment of {amount} received — thank you. Your balance is now {after}.{holdNote}",
    "Thanks, {amount} has been paid. Remaining balance: {after}.{holdNote}",
    "Done: {amount} charged to your card. You now owe {after}.{holdNote}",
  ],
  "pay.cancelled": [
    "Payment cancelled; nothing was charged.",
    "Okay, no payment was taken.",
    "No problem — I haven't charged anything.",
  ],
  "transcript.refused_fees": [
    "An official transcript can't be issued while fees are owed ({balance} outstanding). Once your balance is clear you can order one.",
    "Transcript orders are blocked because your account has {balance} unpaid. Please settle it first.",
    "You're not eligible to order a transcript until your balance of {balance} is paid.",
  ],
  "transcript.ask_copies": [
    "How many official copies would you like? (1 to 5)",
    "Sure. How many copies do you need? You can order up to 5.",
    "How many transcripts should I order? Anything from 1 to 5.",
  ],
  "transcript.copies_invalid": [
    "You can order between 1 and 5 copies. How many would you like?",
    "That's not a number of copies I can take — it must be 1 to 5.",
    "Orders are limited to 1–5 copies. Please choose a number in that range.",
  ],
  "transcript.ask_delivery": [
    "How should we send it? 1. Email (secure PDF, £8.00 per copy) 2. Post (printed, £12.00 per copy plus £4.50 postage)",
    "Delivery options: 1. Email, as a secure PDF at £8.00 a copy; 2. Post, printed at £12.00 a copy plus £4.50 postage. Which one?",
    "Would you like it by 1. email (PDF, £8.00 each) or 2. post (£12.00 each + £4.50 postage)?",
  ],
  "transcript.confirm_address": [
    "We'd post it to {address}. Is that address correct? (yes/no)",
    "The postal address on file is {address}. Shall we send it there? (yes/no)",
    "Your transcript would go to {address}. Is that right? (yes/no)",
  ],
  "transcript.address_rejected": [
    "I'm not able to change a postal address in chat — please update it in the student portal. Would you like the transcript by email instead? (yes/no)",
    "Address changes can't be made here; the student portal handles them. Shall I email the transcript instead? (yes/no)",
    "Updating your address isn't possible through me. Would an emailed PDF work instead? (yes/no)",
  ],
  "transcript.confirm": [
    "Please confirm your order: {copies} by {method}{to}, total {total}. Reply CONFIRM to place it, or CANCEL.",
    "Order summary: {copies}, delivered by {method}{to}, costing {total}. Type CONFIRM to go ahead or CANCEL.",
    "So that's {copies} sent by {method}{to} for {total}. Say CONFIRM to order, or CANCEL to stop.",
  ],
  "transcript.done": [
    "Your transcript order {ref} is placed: {copies} by {method}, {total} charged to your card on file.",
    "Ordered! Reference {ref}: {copies} by {method}. We've charged {total} to your card.",
    "All set — order {ref} for {copies} by {method} is in. Total charged: {total}.",
  ],
  "transcript.cancelled": [
    "Okay, the transcript order is cancelled.",
    "No problem, I haven't ordered anything.",
    "Transcript order stopped; nothing was charged.",
  ],
} satisfies Record<string, readonly string[]>;
export type StateId = keyof typeof TEMPLATES;
/** The designed dialogue states, in template order. */
export const STATES = Object.keys(TEMPLATES) as StateId[];

/** What the tester knows before it starts. */
export const FACTS: Facts = {
  personas: [
    {
      student_number: ["20231147"],
      date_of_birth: ["2004-03-09"],
      name: ["Amara Osei"],
      email: ["amara.osei@student.northvale.ac.uk"],
      postal_address: ["14 Elm Row, Brookfield BF2 7QA"],
      term: ["Autumn 2025", "Spring 2026", "Summer 2025"],
      course_code: ["ART120", "STAT200", "ECON101", "CS305", "HIST110", "MATH250", "CS201"],
      section: ["A", "B"],
      copies: ["2", "6"],
      delivery_method: ["email", "post"],
    },
    {
      student_number: ["20229802"],
      date_of_birth: ["2003-11-21"],
      name: ["Ben Kowalski"],
      email: ["ben.kowalski@student.northvale.ac.uk"],
      postal_address: ["7 Harbour Lane, Eastmere EM4 1JD"],
      term: ["Autumn 2025", "Spring 2026"],
      course_code: ["HIST110", "CS201", "ECON101"],
      copies: ["1"],
      delivery_method: ["post"],
    },
    {
      student_number: ["20240533"],
      date_of_birth: ["2005-07-30"],
      name: ["Dana Whitfield"],
      email: ["dana.whitfield@student.northvale.ac.uk"],
      postal_address: ["Flat 3, 22 Mill Street, Kingsford KF1 9RT"],
      term: ["Spring 2026"],
      course_code: ["HIST110", "CS201"],
      amount: ["1000", "250", "1300", "0.50"],
    },
    {
      student_number: ["20210078"],
      date_of_birth: ["2002-01-15"],
      name: ["Eli Tran"],
      email: ["eli.tran@student.northvale.ac.uk"],
      postal_address: ["88 Quarry Road, Westholme WH6 3PL"],
      term: ["Spring 2026", "Autumn 2025"],
      course_code: ["ART120", "HIST110", "CS305"],
      amount: ["85.50", "100"],
      copies: ["3"],
      delivery_method: ["post", "email"],
    },
  ],
  requests: [
    "enrol in a course",
    "drop a course",
    "show my timetable",
    "how much do I owe in fees",
    "pay my fees",
    "order an official transcript",
    "what are the term dates",
    "when is the student office open",
    "look up a course in the catalogue",
    "talk to an adviser",
  ],
};
