/**
 * Data of the fourth held-out testbed agent (`heldout4.ts`): Northpeak Fitness, a gym chain's member chat. The
 * seed database (plans, the week's class timetable, member records with bookings, freezes, guest passes and
 * balances), the keyword NLU helpers, the reply templates and the facts a tester starts with. `freshDb()` returns
 * a deep copy, so one session's writes never leak into the next. The clock is fixed at {@link NOW}.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The club's "now": Wednesday 12 November 2025, 10:00. */
export const NOW = "2025-11-12T10:00";
export const TODAY = NOW.slice(0, 10);
export const CLUB = "Northpeak Riverside";

/** The club's rules. */
export const LATE_FEE = 5;
export const LATE_HOURS = 12;
export const BOOK_AHEAD_DAYS = 7;
export const BOOK_CLOSE_MIN = 30;
export const MAX_FREEZE_WEEKS = 8;
export const FREEZE_LEAD_DAYS = 30;
export const MIN_TERM_MONTHS = 3;
export const GUEST_AHEAD_DAYS = 14;

export type PlanId = "flex" | "core" | "elite";
export interface Plan {
  name: string;
  price: number;
  premium: boolean;
  /** Upcoming class bookings held at once. */
  limit: number;
  /** Guest passes per calendar month. */
  guests: number;
  /** Holding fee per week of a freeze. */
  freezeFee: number;
}
export const PLAN_ORDER: readonly PlanId[] = ["flex", "core", "elite"];
export const PLANS: Readonly<Record<PlanId, Plan>> = {
  flex: { name: "Flex", price: 24.99, premium: false, limit: 2, guests: 0, freezeFee: 4 },
  core: { name: "Core", price: 39.99, premium: true, limit: 4, guests: 2, freezeFee: 4 },
  elite: { name: "Elite", price: 59.99, premium: true, limit: 6, guests: 4, freezeFee: 0 },
};

/** A class on the timetable; `start` is local time "YYYY-MM-DDTHH:MM". */
export interface GymClass {
  code: string;
  name: string;
  start: string;
  minutes: number;
  tier: "standard" | "premium";
  capacity: number;
  booked: number;
  status: "scheduled" | "cancelled";
  note?: string;
  keywords: readonly string[];
  waitlist: number;
}

/** A member record. `arrears` is an overdue amount from the failed payment on `arrearsSince`. */
export interface Member {
  id: string;
  name: string;
  question: string;
  answer: string;
  plan: PlanId;
  status: "active" | "frozen" | "ended";
  joined: string;
  contractEnd: string;
  nextBilling: string;
  arrears: number;
  arrearsSince?: string;
  card: string;
  frozenUntil?: string;
  endedOn?: string;
  lastFreeze?: string;
  pendingPlan?: PlanId;
  guestsUsed: number;
  bookings: string[];
  waitlist: string[];
  fees: number;
}

export interface Db {
  classes: Record<string, GymClass>;
  members: Record<string, Member>;
}

type Row = [string, string, string, number, number, number, string[], Partial<GymClass>?];
const cls = (...[code, name, start, minutes, capacity, booked, keywords, extra]: Row): GymClass => ({
  ...{ code, name, start, minutes, capacity, booked, keywords },
  ...({ tier: "standard", status: "scheduled", waitlist: 0 } as const),
  ...extra,
});

const CLASSES: GymClass[] = [
  cls("SP11", "Spin Express", "2025-11-12T09:00", 45, 20, 14, ["spin express", "spin"]),
  cls("ST08", "Stretch & Mobility", "2025-11-12T10:20", 30, 15, 6, ["stretch", "mobility"]),
  cls("YO21", "Vinyasa Yoga", "2025-11-12T18:30", 60, 20, 12, ["vinyasa", "yoga"]),
  cls("AQ17", "Aqua Aerobics", "2025-11-13T08:00", 45, 18, 0, ["aqua", "aerobics"], {
    status: "cancelled",
    note: "pool maintenance",
  }),
  cls("PI42", "Reformer Pilates", "2025-11-13T12:00", 50, 8, 5, ["reformer", "pilates"], { tier: "premium" }),
  cls("HI33", "HIIT Blast", "2025-11-14T07:00", 45, 16, 16, ["hiit"], { waitlist: 2 }),
  cls("BX05", "Boxing Fit", "2025-11-15T10:00", 60, 12, 3, ["boxing"], { tier: "premium" }),
  cls("SP14", "Spin Endurance", "2025-11-16T17:00", 60, 20, 9, ["spin endurance", "spin"]),
  cls("KB12", "Kettlebell Strength", "2025-11-18T19:00", 45, 14, 6, ["kettlebell"]),
  cls("YO22", "Yin Yoga", "2025-11-19T09:30", 75, 18, 4, ["yin yoga", "yin", "yoga"]),
  cls("CY30", "Core & Cycle", "2025-11-21T18:00", 50, 20, 0, ["core & cycle", "core and cycle", "cycle"]),
];

const member = (...parts: Partial<Member>[]): Member =>
  Object.assign(
    { status: "active", arrears: 0, guestsUsed: 0, bookings: [], waitlist: [], fees: 0 },
    ...parts,
  );

/** Members: identity and plan, security question, contract dates, then what is on the account. */
const MEMBERS: Member[] = [
  member(
    { id: "M482913", name: "Priya Shah", plan: "core", card: "4821" },
    { question: "What was the name of your first pet?", answer: "biscuit" },
    { joined: "2024-03-04", contractEnd: "2026-03-03", nextBilling: "2025-12-04", lastFreeze: "2024-07-01" },
    { guestsUsed: 1, bookings: ["SP11", "YO21", "PI42"] },
  ),
  member(
    { id: "M305517", name: "Tom Becker", plan: "flex", card: "4417" },
    { question: "What is your mother's maiden name?", answer: "kowalski" },
    { joined: "2025-09-20", contractEnd: "2026-09-19", nextBilling: "2025-11-20" },
    { arrears: 24.99, arrearsSince: "2025-10-20", bookings: ["SP14"] },
  ),
  member(
    { id: "M719024", name: "Grace Okoro", plan: "elite", card: "9035" },
    { question: "In which town were you born?", answer: "galway" },
    { joined: "2023-06-15", contractEnd: "2024-06-14", nextBilling: "2025-11-20", lastFreeze: "2025-01-06" },
    { guestsUsed: 4, bookings: ["BX05", "KB12"] },
  ),
  member(
    { id: "M660281", name: "Daniel Reyes", plan: "core", card: "7760" },
    { question: "What was the surname of your favourite teacher?", answer: "hughes" },
    { joined: "2025-02-01", contractEnd: "2026-01-31", nextBilling: "2025-12-01", lastFreeze: "2025-11-03" },
    { status: "frozen", frozenUntil: "2025-12-01" },
  ),
  member(
    { id: "M551870", name: "Sam Carter", plan: "flex", card: "1290" },
    { question: "What was the make of your first car?", answer: "fiesta" },
    { joined: "2024-10-01", contractEnd: "2025-09-30", nextBilling: "2025-11-01" },
    { status: "ended", endedOn: "2025-10-31" },
  ),
];

const SEED: Db = {
  classes: Object.fromEntries(CLASSES.map((c) => [c.code, c])),
  members: Object.fromEntries(MEMBERS.map((m) => [m.id, m])),
};

/** A fresh deep copy of the seed database. */
export function freshDb(): Db {
  return structuredClone(SEED);
}

/* ---------- dates and NLU helpers ---------- */

export const MONTHS =
  "january february march april may june july august september october november december".split(" ");
export const WEEKDAYS = "sunday monday tuesday wednesday thursday friday saturday".split(" ");
const NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const addDays = (iso: string, n: number) =>
  new Date(Date.parse(iso.slice(0, 10)) + n * 86_400_000).toISOString().slice(0, 10);
export const addMonths = (iso: string, n: number) => {
  const d = new Date(Date.parse(iso));
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
};
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
export const ms = (dt: string) => Date.parse(`${dt}:00Z`);
export const shiftMinutes = (dt: string, n: number) =>
  new Date(ms(dt) + n * 60_000).toISOString().slice(0, 16);
export const money = (n: number) => `£${n.toFixed(2)}`;
/** "1 December 2025". */
export const dateText = (iso: string) =>
  `${Number(iso.slice(8, 10))} ${cap(MONTHS[Number(iso.slice(5, 7)) - 1] ?? "")} ${iso.slice(0, 4)}`;
/** "Wednesday 12 November, 18:30". */
export const when = (dt: string) => {
  const day = WEEKDAYS[new Date(ms(dt)).getUTCDay()] ?? "";
  return `${cap(day)} ${Number(dt.slice(8, 10))} ${cap(MONTHS[Number(dt.slice(5, 7)) - 1] ?? "")}, ${dt.slice(11, 16)}`;
};

const iso = (y: number, m: number, d: number): string | null => {
  const s = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return m >= 1 && m <= 12 && d >= 1 && new Date(Date.parse(s)).toISOString().slice(0, 10) === s ? s : null;
};
/** A day and month without a year: this year if still ahead (or today), else next year. */
const withYear = (y: number | undefined, m: number, d: number) => {
  if (y !== undefined) return iso(y < 100 ? 2000 + y : y, m, d);
  const guess = iso(Number(TODAY.slice(0, 4)), m, d);
  return guess && guess < TODAY ? iso(Number(TODAY.slice(0, 4)) + 1, m, d) : guess;
};

/** A date in the text as ISO ("1 December", "Dec 1st 2025", "01/12", "2025-12-01", "saturday", "tomorrow"). */
export function findDate(t: string): string | null | undefined {
  const l = t.toLowerCase();
  if (/\btoday\b/.test(l)) return TODAY;
  if (/\btomorrow\b/.test(l)) return addDays(TODAY, 1);
  const month = (w: string) => MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
  const year = (s?: string) => (s ? Number(s) : undefined);
  let m = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(l);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b(\d{1,2})[./](\d{1,2})(?:[./](\d{2}|\d{4}))?\b/.exec(l);
  if (m) return withYear(year(m[3]), Number(m[2]), Number(m[1]));
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon}(?:,?\\s+(\\d{4}))?`).exec(l);
  if (m) return withYear(year(m[3]), month(m[2] ?? ""), Number(m[1]));
  m = new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`).exec(l);
  if (m) return withYear(year(m[3]), month(m[1] ?? ""), Number(m[2]));
  const wd = new RegExp(`\\b(${WEEKDAYS.join("|")})\\b`).exec(l);
  if (wd) {
    const ahead = (WEEKDAYS.indexOf(wd[1] ?? "") - new Date(Date.parse(TODAY)).getUTCDay() + 7) % 7 || 7;
    return addDays(TODAY, ahead);
  }
  return undefined;
}

/** A membership number ("M482913"; six bare digits when one was asked for); null when malformed. */
export function findMemberNumber(t: string, asked: boolean): string | null | undefined {
  const m = /\bm[\s-]?(\d{6})\b/i.exec(t) ?? (asked ? /(?<![\d/.:-])(\d{6})(?![\d/.:-])/.exec(t) : null);
  if (m) return `M${m[1]}`;
  if (asked && /\d{3,}/.test(t)) return null;
  return undefined;
}

/** A number of weeks ("3 weeks", "a fortnight", "two months"; a bare number when weeks were asked for). */
export function findWeeks(l: string, asked: boolean): number | undefined {
  const num = `(\\d{1,2}|${NUMBER_WORDS.join("|")}|a)`;
  const value = (w: string) => (/\d/.test(w) ? Number(w) : w === "a" ? 1 : NUMBER_WORDS.indexOf(w));
  let m = new RegExp(`\\b${num}[\\s-]*(weeks?|wks?)\\b`).exec(l);
  if (m) return value(m[1] ?? "");
  if (/\bfortnight\b/.test(l)) return 2;
  m = new RegExp(`\\b${num}[\\s-]*months?\\b`).exec(l);
  if (m) return value(m[1] ?? "") * 4;
  m = asked ? new RegExp(`^\\D*?\\b(\\d{1,2}|${NUMBER_WORDS.join("|")})\\b\\D*$`).exec(l) : null;
  return m ? value(m[1] ?? "") : undefined;
}

const LEAD_IN =
  /^(it'?s|it is|that'?s|(his|her|their|the) name is|name:|my (friend|guest|partner|sister|brother|colleague|mate)( is)?)\s+/i;
const NAME_STOP = new Set([...WEEKDAYS, ...MONTHS, "today", "tomorrow", "next", "this", "on", "the"]);
/** A guest's full name: after "for", "called", "bring"… anywhere; the whole reply when a name was asked for. */
export function findGuestName(t: string, asked: boolean): string | undefined {
  const word = "[A-Z][a-zA-Z'’-]+";
  const explicit = new RegExp(
    `\\b(?:for|called|named|name is|name's|guest is|bring(?:ing)?)\\s+(?:my (?:friend|partner|sister|brother|colleague|mate|wife|husband)\\s+)?(${word}(?:\\s+${word}){1,2})`,
  ).exec(t);
  let name = explicit?.[1];
  if (!name && asked) {
    const bare = t
      .trim()
      .replace(LEAD_IN, "")
      .replace(/\s+(on|for|this|next|coming|visiting|at|tomorrow|today)\b.*$/i, "")
      .replace(/[.!]+$/, "");
    if (/^[a-zA-Z'’-]+(\s+[a-zA-Z'’-]+){1,2}$/.test(bare)) name = bare;
  }
  const words = (name ?? "").split(/\s+/).filter((w) => w && !NAME_STOP.has(w.toLowerCase()));
  return words.length >= 2 ? words.map((w) => cap(w.toLowerCase())).join(" ") : undefined;
}

/** The plan a message asks for ("upgrade to Elite", "core"). */
export function findPlan(l: string): PlanId | undefined {
  const to = /\b(?:to|onto|into|for)\s+(?:the\s+)?(flex|core|elite)\b/.exec(l);
  const all = [...l.matchAll(/\b(flex|core|elite)\b(?!\s*(&|and)\s*cycle)/g)].map((m) => m[1]);
  return (to?.[1] ?? all.at(-1)) as PlanId | undefined;
}

/** Normalised words of a security answer. */
export const words = (t: string) =>
  ` ${t
    .toLowerCase()
    .split(/[^a-z]+/)
    .join(" ")} `;

/* ---------- intents and keyword patterns ---------- */

/** Intent keywords, tried in order (the first match wins). */
export const INTENTS = [
  [
    "leave",
    /\b((cancel|end|terminate|quit|close|stop)\w* (my |the |our )?(gym )?(membership|contract|subscription)|leave the gym|cancel(ling)? my account)\b/,
  ],
  [
    "freeze",
    /\b(freeze|freezing|pause|suspend|put (my )?(membership|account) on hold|membership on hold|holiday break)\b/,
  ],
  ["guest", /\b(guests?|guest pass(es)?|bring (a |my )?(friend|partner|someone|mate|colleague)|day pass)\b/],
  [
    "plan",
    /\b(upgrade|downgrade|change (my )?(plan|membership( type| level)?)|switch (my )?(plan|membership)|switch to (flex|core|elite)|move (me )?(to|onto) (the )?(flex|core|elite)|(go|move|change) (to|onto) the (flex|core|elite) plan)\b/,
  ],
  [
    "pay",
    /\b(pay (off |my |the |what i owe|it|now)|settle|clear (my |the )?(balance|arrears|debt)|make a payment|outstanding (balance|payment|amount)|overdue|arrears|failed payment|missed payment)\b/,
  ],
  [
    "cancel",
    /\b(cancel\w* (my |the |a |this |that )?(booking|class|reservation|spot|place|session|[a-z]{2}\s?\d{2})|un-?book|can'?t make (it|the class)|drop out of)\b/,
  ],
  [
    "book",
    /\b(book|reserve|sign (me )?up|put me (in|on|down)|get me (a place|into)|join (a |the )?(\w+ )?class|a (place|spot) (in|on|at))\b/,
  ],
  [
    "account",
    /\b(my account|account (summary|details|status|overview)|my (membership|plan) (details|status)|my bookings|(bookings|account|details) (of|for) (member )?m\d{6}|what (have i|am i) booked|what'?s booked|membership status|next payment|when (do|will) i (pay|get charged)|my balance|guest passes (do i have )?left)\b/,
  ],
  [
    "timetable",
    /\b(timetable|schedule|what classes|which classes|classes (are )?(on|running|available)|class list|list of classes)\b/,
  ],
  [
    "plans",
    /\b(prices?|pricing|cost of membership|how much (is|does|are) (it|membership|the)|membership (options|plans|types)|what plans|your plans|opening (hours|times)|when are you open|join(ing)? the gym)\b/,
  ],
] as const;
/** What a member wants, as the keyword NLU recognises it. */
export type Intent = (typeof INTENTS)[number][0];

/** The request a message makes, if any. */
export function detectIntent(l: string): Intent | undefined {
  return INTENTS.find(([, re]) => re.test(l))?.[0];
}

/** The index an answer to a numbered list picks ("2", "the second one"), if any. */
function pickIndex(l: string, n: number): number | undefined {
  const digit = /^\D*\b(\d)\b\D*$/.exec(l);
  const ord = ["first", "second", "third", "fourth", "fifth", "sixth"].findIndex((w) =>
    new RegExp(`\\b${w}\\b`).test(l),
  );
  const i = digit ? Number(digit[1]) - 1 : ord >= 0 ? ord : /\blast\b/.test(l) ? n - 1 : -1;
  return i >= 0 && i < n ? i : undefined;
}

const PREFIXES = new Set(["sp", "st", "yo", "aq", "pi", "bx", "kb", "cy"]);
/** A class the text names: by code (known or not), by name (preferring `among`, then not yet started), by list position. */
export function findClass(
  l: string,
  db: Db,
  among: readonly string[] = [],
  list?: readonly string[],
): string | undefined {
  for (const m of l.matchAll(/\b([a-z]{2})([\s-]?)(\d{2})\b/g))
    if (!m[2] || PREFIXES.has(m[1] ?? "")) return `${m[1]}${m[3]}`.toUpperCase();
  const named = Object.values(db.classes)
    .filter((c) => c.keywords.some((k) => l.includes(k)))
    .sort(
      (a, b) => Number(among.includes(b.code)) - Number(among.includes(a.code)) || ms(a.start) - ms(b.start),
    );
  const pick =
    named.find((c) => among.includes(c.code)) ?? named.find((c) => ms(c.start) > ms(NOW)) ?? named[0];
  if (pick) return pick.code;
  const i = list ? pickIndex(l, list.length) : undefined;
  return i === undefined ? undefined : list?.[i];
}

export const YES =
  /^\s*(yes|yeah|yep|yup|sure|ok(ay)?|confirm(ed)?|go ahead|do it|please do|that'?s (right|correct|fine)|correct|sounds good|book it|perfect|absolutely|please)\b/;
export const NO =
  /^\s*(no|nope|nah|not (now|today)|cancel|stop|never ?mind|forget it|leave it|don'?t|scrap that|actually no)\b/;
export const HUMAN =
  /\b(human|real person|a person|member of staff|staff member|someone at (the )?(front desk|reception)|manager|an agent|live agent|representative|speak to someone|talk to someone|membership team)\b/;
export const BYE =
  /\b(thanks|thank you|cheers|bye|goodbye|that'?s (all|it)|nothing else|all good|no thanks|i'?m done)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;
export const MENU = /\b(help|menu|what can you do|options|what else)\b/;
export const HESITANT = /\b(but|wait|hold on|not sure|hang on)\b/;

/* ---------- designed states and templates ---------- */

/** `group("book", "done")` is `["book.done"]`, typed. */
const group = <P extends string, S extends string>(p: P, ...ids: S[]) => ids.map((s) => `${p}.${s}` as const);

/** The designed dialogue states: every reply enters exactly one. */
export const HELDOUT4_STATES = [
  ...(["greet", "menu", "fallback", "goodbye", "handoff", "request.dropped"] as const),
  ...(["timetable.show", "plans.show", "leave.offer_handoff"] as const),
  ...group("auth", "ask_number", "unknown_number", "ask_security", "wrong_answer", "locked"),
  ...group("auth", "membership_ended"),
  ...group("book", "ask_class", "unknown_class", "refused_arrears", "refused_frozen", "refused_cancelled"),
  ...group("book", "refused_started", "refused_closed", "refused_too_early", "refused_tier", "already"),
  ...group("book", "refused_limit", "full", "waitlisted", "confirm", "done"),
  ...group("cancel", "ask_booking", "no_bookings", "not_booked", "refused_started", "confirm"),
  ...group("cancel", "confirm_fee", "done"),
  ...group("freeze", "refused_already_frozen", "refused_min_term", "refused_yearly", "ask_weeks"),
  ...group("freeze", "too_long", "ask_start", "bad_start", "confirm", "done"),
  ...group("guest", "refused_frozen", "refused_plan", "refused_none_left", "ask_name", "refused_member"),
  ...group("guest", "ask_date", "bad_date", "confirm", "done"),
  ...group("plan", "ask_plan", "same", "refused_arrears", "refused_downgrade", "confirm", "done"),
  ...group("pay", "nothing_due", "confirm", "done"),
  ...group("account", "show", "refused_other"),
];
export type State = (typeof HELDOUT4_STATES)[number];

/** Template keys used inside replies (not states of their own). */
const PHRASES = [
  ...(["menu_text", "more", "ask", "need_confirm", "updated", "sorry", "verified"] as const),
  ...(["noted", "okay", "bad_number", "queued"] as const),
];
export type Phrase = (typeof PHRASES)[number];

/**
 * Reply templates by key: two to four wordings each, picked by the session's seeded PRNG. `{name}` placeholders
 * are filled from the reply's values; `{menu}` is one wording of the menu sentence.
 */
export const RESPONSES: Readonly<Record<State | Phrase, readonly string[]>> = {
  menu_text: [
    "I can book or cancel classes, freeze your membership, arrange guest passes, change your plan, take an overdue payment and show your account; anyone can ask me for the timetable or our prices.",
    "From here I handle class bookings and cancellations, membership freezes, guest passes, plan changes, overdue payments and account summaries, and I can share the timetable and membership prices with anyone.",
    "I look after class bookings (and cancellations), freezes, guest passes, upgrades and downgrades, settling an overdue balance and your account overview. The timetable and prices are open to everyone.",
  ],
  greet: [
    "Hi, welcome to Northpeak Fitness! I'm the member assistant. {menu} What can I do for you?",
    "Hello and thanks for messaging Northpeak Fitness. {menu} How can I help today?",
    "Hey there! You're chatting with Northpeak's virtual assistant. {menu} What would you like to do?",
  ],
  menu: [
    "{menu} What would you like?",
    "Sure. {menu} Which one?",
    "No problem. {menu} Where shall we start?",
  ],
  fallback: [
    "Sorry, I didn't catch that. {menu} Is it one of those?",
    "Hmm, I'm not sure I can help with that here. {menu} What would you like?",
    "I didn't quite understand. {menu} Which of these do you need?",
  ],
  goodbye: ["You're welcome{name}! Enjoy your workout.", "Happy to help{name}. See you at the club!"],
  handoff: [
    "Of course, I'm transferring you to our membership team now. They can see this conversation and usually reply within a few minutes.",
    "No problem, a member of our team will take over this chat shortly. Please keep the window open.",
  ],
  queued: [
    "A member of our team will be with you shortly, thanks for waiting.",
    "You're in the queue for the membership team; someone will join soon.",
  ],
  "request.dropped": [
    "Okay, I've left everything as it was. Anything else I can do?",
    "No problem, nothing has been changed. Is there something else you need?",
  ],
  "timetable.show": [
    "Here's the timetable at {club} for the next few days:\n{list}\nMembers can book up to {ahead} days ahead, until {close} minutes before the start. Want me to book one for you?",
    "This is what's coming up at {club}:\n{list}\nBookings open {ahead} days before a class and close {close} minutes before it starts. Shall I book something?",
    "Coming up at {club}:\n{list}\nYou can book from {ahead} days ahead until {close} minutes before the class. Would you like a place on one?",
  ],
  "plans.show": [
    "Our memberships: {plans}. All plans have a 12-month minimum term, then roll monthly. The club is open 6:00–22:00 on weekdays and 8:00–20:00 at weekends. {more}",
    "We offer three plans: {plans}. Each has a 12-month minimum term. Opening hours are 6am–10pm Monday to Friday and 8am–8pm on Saturday and Sunday. {more}",
    "Here are the plans: {plans}. Contracts run for 12 months before going monthly. We're open weekdays 6:00–22:00 and weekends 8:00–20:00. {more}",
  ],
  "leave.offer_handoff": [
    "I'm sorry to hear you're thinking of leaving. Cancellations are handled by our membership team, who'll go through your contract with you{contract}. Shall I connect you now?",
    "Membership cancellations can't be done in this chat; our membership team takes care of them and will explain your notice period{contract}. Would you like me to put you through?",
    "I can pass you to the membership team for that, as they handle all cancellations and notice periods{contract}. Do you want me to transfer you?",
  ],
  "auth.ask_number": [
    "{bad}I'll need to find your membership first. What's your membership number? It's an M followed by six digits, on your key fob and in the app.",
    "{bad}To do that I have to look up your account. Could you give me your membership number (M and six digits)?",
    "{bad}Sure, let me find your account. What's your membership number? You'll find it in the app, e.g. M123456.",
  ],
  "auth.unknown_number": [
    "I can't find a membership with the number {id}. Could you check it and type it again?",
    "There's no member {id} in our system. What's the number on your key fob?",
  ],
  "auth.ask_security": [
    "Thanks, I've found membership {id}. To confirm it's you, please answer your security question: {question}",
    "Got it. Before I go on, I need to check your identity. {question}",
    "Thanks. For your security, please answer the question you chose when you joined: {question}",
  ],
  "auth.wrong_answer": [
    "Sorry, that doesn't match the answer on file ({left}). {question}",
    "That answer isn't the one we have, I'm afraid; {left}. Please try again: {question}",
    "I couldn't verify that answer ({left}). {question}",
  ],
  "auth.locked": [
    "I'm sorry, that's too many unsuccessful attempts, so I've locked account changes in this chat for your security. Our membership team can verify you another way. Would you like me to put you through?",
    "For your security I can't try again after three unsuccessful answers. A colleague from the membership team can help you. Shall I transfer you?",
    "That's the last attempt used, so account access is locked in this chat. Do you want me to connect you with our membership team?",
  ],
  "auth.membership_ended": [
    "Thanks. The membership {id} ended on {ended}, so there's nothing I can change on it. If you'd like to rejoin, just ask me about our plans. {more}",
    "I've found {id}, but that membership finished on {ended}. You're welcome to rejoin any time; I can tell you about the plans. {more}",
  ],
  "book.ask_class": [
    "Which class would you like? These can be booked now:\n{list}",
    "Sure! Here's what you can book at the moment:\n{list}\nWhich one shall I reserve?",
    "Happy to. Classes open for booking right now:\n{list}\nJust give me the code or the name.",
  ],
  "book.unknown_class": [
    "I can't find a class with the code {code} on the timetable. Which class did you mean?",
    "There's no class {code} this week. Could you check the code and tell me which class you'd like?",
  ],
  "book.refused_arrears": [
    "I can't make new bookings while {amount} is overdue on your account (the payment on {since} didn't go through). Say 'pay my balance' and I can take it now. {more}",
    "There's an overdue balance of {amount} from {since}, and bookings are paused until it's paid. I can take that payment here if you like. {more}",
    "Bookings are on hold because the {since} payment of {amount} failed. Once it's settled you can book straight away; I can help with that. {more}",
  ],
  "book.refused_frozen": [
    "Your membership is frozen until {until}, so classes can't be booked before it restarts. {more}",
    "While your membership is on hold (until {until}) I can't book classes. {more}",
  ],
  "book.refused_cancelled": [
    "I'm sorry, {cls} has been cancelled ({note}). Which other class would you like?",
    "{cls} isn't running: it's cancelled because of {note}. Is there another class I can book?",
    "Unfortunately {cls} was cancelled ({note}). Would you like a different class?",
  ],
  "book.refused_started": [
    "{cls} started at {time}, so it's too late to book. Which other class would you like?",
    "That one's already under way ({cls}, {time}). Is there another class I can book?",
    "{cls} began at {time}, so I can't add you. Would you like a different class?",
  ],
  "book.refused_closed": [
    "Bookings for {cls} closed {close} minutes before its {time} start. Which other class can I book?",
    "{cls} starts at {time} and bookings close {close} minutes before, so it's too late now. Another class?",
  ],
  "book.refused_too_early": [
    "{cls} ({when}) isn't open for booking yet: classes open {ahead} days ahead, so you can book it from {opens}. Would you like a different class?",
    "Bookings for {cls} on {when} open on {opens}, {ahead} days before. Is there another class you'd like now?",
  ],
  "book.refused_tier": [
    "{cls} is a premium class, which the {plan} plan doesn't include (it comes with Core and Elite). Which standard class would you like instead?",
    "Premium classes like {cls} aren't part of {plan}; you'd need Core or Elite. Would you like a different class?",
    "I can't book {cls} on a {plan} membership, as premium classes need Core or Elite. Another class?",
  ],
  "book.already": [
    "You're already {how} for {cls}. Which other class would you like?",
    "No need, you're {how} for {cls} already. Is there a different class I can book?",
  ],
  "book.refused_limit": [
    "Your {plan} plan allows {limit} upcoming bookings at a time and you already have {count} ({list}). Once one has taken place or you cancel one, you can book another. {more}",
    "You've reached the {limit}-booking limit of the {plan} plan ({list}). Cancel one or wait until after it, and then I can book more. {more}",
  ],
  "book.full": [
    "{cls} on {when} is fully booked. I can put you on the waiting list ({queue} ahead of you) and text you if a place opens. Shall I add you?",
    "Every place in {cls} ({when}) is taken. Would you like to join the waiting list? There are {queue} people on it.",
    "{cls}, {when}, is full, I'm afraid. Want me to add you to the waiting list ({queue} waiting so far)?",
  ],
  "book.waitlisted": [
    "You're on the waiting list for {cls}, position {pos}. We'll text you if a place frees up. {more}",
    "Done, you're number {pos} on the {cls} waiting list; you'll get a text if someone cancels. {more}",
  ],
  "book.confirm": [
    "Let me check: {cls}, {when} ({minutes} minutes) at {club}. That would be booking {n} of the {limit} your {plan} plan allows. {ask}",
    "Here's the booking: {cls} on {when}, {minutes} minutes, {club}. You'd then hold {n} of {limit} bookings. {ask}",
    "So that's {cls}, {when}, lasting {minutes} minutes ({club}); booking {n} of {limit} on {plan}. {ask}",
  ],
  "book.done": [
    "Booked! {cls}, {when}. Your reference is {ref}; please arrive ten minutes early. {more}",
    "You're in: {cls} on {when} (ref {ref}). {more}",
  ],
  "cancel.ask_booking": [
    "Which booking should I cancel? You have:\n{list}",
    "Here are your bookings:\n{list}\nWhich one would you like to cancel?",
    "Sure. Your current bookings are:\n{list}\nWhich should go?",
  ],
  "cancel.no_bookings": [
    "You don't have any class bookings to cancel. {more}",
    "I can't see any bookings on your account at the moment. {more}",
  ],
  "cancel.not_booked": [
    "You're not booked on {cls}. Your bookings are:\n{list}\nWhich one should I cancel?",
    "{cls} isn't one of your bookings. You have:\n{list}\nWhich did you mean?",
    "I don't see a booking for {cls}. Here's what you have:\n{list}\nWhich one?",
  ],
  "cancel.refused_started": [
    "{cls} began at {time}, so the booking can't be cancelled any more. {more}",
    "That class is already under way ({cls}, {time}), so it's too late to cancel. {more}",
  ],
  "cancel.confirm": [
    "You'd like to cancel {cls} on {when}; there's no charge for this cancellation. {ask}",
    "Cancelling {cls}, {when}, free of charge. {ask}",
    "I'll cancel your place on {cls} ({when}); no fee applies. {ask}",
  ],
  "cancel.confirm_fee": [
    "{cls} starts {when}, less than {hours} hours from now, so cancelling carries the {fee} late-cancellation fee, charged to your card ending {card}. {ask}",
    "As {cls} ({when}) is under {hours} hours away, a late-cancellation fee of {fee} applies (card ending {card}). {ask}",
    "Cancelling {cls} on {when} now counts as late (within {hours} hours), so there's a {fee} fee on the card ending {card}. {ask}",
  ],
  "cancel.done": [
    "Cancelled: {cls} on {when}.{fee} {more}",
    "Your place on {cls} ({when}) has been released.{fee} {more}",
  ],
  "freeze.refused_already_frozen": [
    "Your membership is already frozen until {until}. To change that, our membership team can help. {more}",
    "There's a freeze on your membership until {until} already, so I can't add another. {more}",
  ],
  "freeze.refused_min_term": [
    "Memberships can only be frozen after the first {months} months. You joined on {joined}, so you can ask for a freeze from {from}. {more}",
    "A freeze is possible once you've been a member for {months} months; for you that's from {from} (you joined {joined}). {more}",
  ],
  "freeze.refused_yearly": [
    "You can freeze once in any twelve months, and your last freeze started on {last}, so the next one is possible from {from}. {more}",
    "There's a limit of one freeze per twelve months; yours began on {last}, so I can't set up another before {from}. {more}",
  ],
  "freeze.ask_weeks": [
    "How many weeks would you like to freeze for? Anything from 1 to {max} weeks{fee}.",
    "Sure. How long should the freeze be? It can be 1 to {max} weeks{fee}.",
    "For how many weeks? The minimum is one and the maximum {max}{fee}.",
  ],
  "freeze.too_long": [
    "A freeze can last at most {max} weeks, so {weeks} weeks isn't possible. How many weeks would you like?",
    "{weeks} weeks is longer than the {max}-week maximum. How long shall I make it?",
    "The longest freeze is {max} weeks, so not {weeks}. How many weeks instead?",
  ],
  "freeze.ask_start": [
    "{weeks} weeks{fee}. From which date should it start? Any day from {earliest} to {latest}.",
    "Okay, {weeks} weeks{fee}. When would you like it to begin? It can start between {earliest} and {latest}.",
    "{weeks} weeks it is{fee}. What start date would you like ({earliest} to {latest})?",
  ],
  "freeze.bad_start": [
    "The freeze has to start between {earliest} and {latest}, so {date} won't work. Which start date would you like?",
    "I can only start a freeze from {earliest} up to {latest}; {date} is outside that. What date instead?",
  ],
  "freeze.confirm": [
    "Here's the freeze: {weeks} weeks from {start}, with your membership restarting on {resume}. {fee} No monthly fee is taken while it's frozen. {ask}",
    "Freeze {weeks} weeks, {start} to {last}, restarting {resume}. {fee} {ask}",
    "I'll pause your membership from {start} for {weeks} weeks; it resumes on {resume}. {fee} {ask}",
  ],
  "freeze.done": [
    "Your membership will be frozen from {start} and restart on {resume}.{fee} {more}",
    "Freeze set up: {start} until {resume}.{fee} {more}",
  ],
  "guest.refused_frozen": [
    "Guest passes can't be used while your membership is frozen (until {until}). {more}",
    "Sorry, no guest passes during a freeze; yours lasts until {until}. {more}",
  ],
  "guest.refused_plan": [
    "The {plan} plan doesn't include guest passes; they come with Core (2 a month) and Elite (4 a month). {more}",
    "Guest passes aren't part of {plan}, I'm afraid; Core members get 2 a month and Elite members 4. {more}",
  ],
  "guest.refused_none_left": [
    "You've used all {allowance} guest passes for {month}; they renew on the 1st. {more}",
    "There are no guest passes left this month (you've had all {allowance} for {month}). {more}",
    "Your {allowance} passes for {month} are used up; new ones arrive on the 1st of next month. {more}",
  ],
  "guest.ask_name": [
    "Sure, you have {left} of {allowance} guest passes left this month. What's your guest's full name?",
    "Happy to. You've got {left} guest pass{es} left for this month. Who are you bringing (first and last name)?",
    "No problem, {left} of your {allowance} monthly passes are still available. What's the guest's full name?",
  ],
  "guest.refused_member": [
    "{guest} is already a Northpeak member{leak}, and guest passes are only for non-members. Who else would you like to bring?",
    "It looks like {guest} has a membership with us{leak}, so they can't come in on a guest pass. Is there someone else?",
    "Guest passes are for people who aren't members, and {guest} is one{leak}. Who would you like to bring instead?",
  ],
  "guest.ask_date": [
    "Thanks. Which day will {guest} visit? Passes can be used from today up to {latest}.",
    "Great. When is {guest} coming? Any day from today to {latest}.",
    "Which date should the pass for {guest} be for (today to {latest})?",
  ],
  "guest.bad_date": [
    "A guest pass has to be for a day between {today} and {latest}, so {date} won't work. Which day instead?",
    "{date} is outside the window; passes can be booked from {today} up to {latest}. What day would suit?",
  ],
  "guest.confirm": [
    "Guest pass for {guest} on {date}, valid all day; they'll need photo ID at reception. You'd have {after} pass{es} left this month. {ask}",
    "So, {guest}, {date}: one guest pass, leaving you {after} this month. {guest} should bring photo ID. {ask}",
    "I'll issue a pass for {guest} for {date} ({after} left this month afterwards). {ask}",
  ],
  "guest.done": [
    "Done, {guest} is on the guest list for {date} (pass {ref}). {more}",
    "{guest}'s pass for {date} is ready, reference {ref}. {more}",
  ],
  "plan.ask_plan": [
    "You're on {plan} at {price} a month. Which plan would you like? {options}",
    "Currently you have {plan} ({price}/month). Which plan would you like to move to? {options}",
    "Your plan is {plan}, {price} a month. What would you like instead? {options}",
  ],
  "plan.same": [
    "You're already on the {plan} plan. Which plan would you like to move to? {options}",
    "That's the plan you have now ({plan}). Which other plan? {options}",
  ],
  "plan.refused_arrears": [
    "I can't change plans while {amount} is overdue on your account. Once it's paid, a plan change only takes a minute. {more}",
    "Plan changes are blocked by the overdue {amount} on your account; I can take that payment first if you like. {more}",
  ],
  "plan.refused_downgrade": [
    "Your {plan} contract runs until {end}, and plans can only be downgraded after the minimum term. You could move to {target} from {from}. {more}",
    "A downgrade isn't possible during the minimum term, and yours lasts until {end}; from {from} you can switch to {target}. {more}",
  ],
  "plan.confirm": [
    "Changing from {from} to {to}: {effect} {ask}",
    "Here's the change: {from} to {to}. {effect} {ask}",
    "Plan change, {from} → {to}. {effect} {ask}",
  ],
  "plan.done": [
    "All done, you're moving to {to}. {effect} {more}",
    "Your plan change to {to} is set. {effect} {more}",
  ],
  "pay.nothing_due": [
    "Good news: there's nothing overdue on your account. Your next payment of {price} is due on {billing}. {more}",
    "Your account is up to date; the next payment ({price}) is on {billing}. {more}",
  ],
  "pay.confirm": [
    "There's {amount} overdue from the payment on {since}. I'd take it from your card ending {card}. {ask}",
    "The overdue amount is {amount} (failed payment of {since}), which I'd charge to the card ending {card}. {ask}",
  ],
  "pay.done": [
    "Payment received: {amount} from the card ending {card}, reference {ref}. Your account is up to date. {more}",
    "Thanks, {amount} has been paid (card ending {card}, ref {ref}); you're all square. {more}",
  ],
  "account.show": [
    "Here's your account, {name}:\n{rows}\n{more}",
    "Your membership at a glance, {name}:\n{rows}\n{more}",
    "Account summary for {name}:\n{rows}\n{more}",
  ],
  "account.refused_other": [
    "I can only show the account you've signed in to; other members' details are private. {more}",
    "For privacy reasons I can't share another member's account, even with their number. {more}",
  ],
  more: ["Anything else I can help with?", "Is there anything else?", "Can I help with anything else?"],
  ask: [
    "Shall I go ahead? Just say yes, or tell me what to change.",
    "Is that right? Reply yes to confirm, or let me know what's different.",
    "Say yes and I'll do it, or tell me what to change.",
  ],
  need_confirm: [
    "I'll only go ahead once you say yes.",
    "Nothing's done until you confirm with a yes.",
    "Just to be sure, I need a clear yes before I do this.",
  ],
  updated: ["Sure, I've changed that.", "Got it, updated.", "No problem, I've amended it."],
  sorry: ["Sorry, I didn't quite catch that.", "Hmm, I didn't get that.", "I'm not sure I understood."],
  verified: [
    "Thanks, {name}, you're verified.",
    "Lovely, {name}, that's you signed in.",
    "Thank you, {name}, I've confirmed it's you.",
  ],
  noted: ["Thanks, noted.", "Got it, I'll keep that to hand.", "Thanks, I've made a note of that."],
  okay: ["Okay, no problem.", "Alright.", "Sure, no worries."],
  bad_number: [
    "That doesn't look like a membership number. ",
    "I couldn't read a membership number there. ",
    "Membership numbers are an M and six digits. ",
  ],
};

/** What a tester playing Northpeak's members knows: numbers, security answers and what they want. */
export const HELDOUT4_FACTS: Facts = {
  personas: [
    {
      membership_number: ["M482913"],
      security_answer: ["Biscuit"],
      class_code: ["KB12", "HI33", "PI42", "AQ17", "SP11", "ST08", "CY30", "YO22"],
      booking_to_cancel: ["PI42", "YO21", "SP11"],
      freeze_weeks: ["3", "10"],
      freeze_start: ["1 December 2025", "24 November 2025", "10 January 2026"],
      guest_name: ["Leo Martin", "Grace Okoro"],
      guest_date: ["15 November 2025", "30 November 2025"],
      plan: ["Elite", "Flex", "Core"],
    },
    {
      membership_number: ["M305517"],
      security_answer: ["Kowalski"],
      class_code: ["BX05", "KB12", "YO22"],
      booking_to_cancel: ["SP14"],
      plan: ["Core"],
      freeze_weeks: ["4"],
      guest_name: ["Nina Becker"],
    },
    {
      membership_number: ["M719024"],
      security_answer: ["Galway"],
      class_code: ["YO22", "PI42"],
      booking_to_cancel: ["BX05"],
      plan: ["Core"],
      freeze_weeks: ["2"],
      guest_name: ["Leo Martin"],
      other_member_number: ["M482913"],
    },
    {
      membership_number: ["M660281"],
      security_answer: ["Hughes"],
      class_code: ["KB12"],
      plan: ["Flex"],
      freeze_weeks: ["2"],
      guest_name: ["Ava Reyes"],
    },
    {
      membership_number: ["M551870"],
      security_answer: ["Fiesta"],
      class_code: ["SP14"],
    },
  ],
  requests: [
    "what classes are on this week?",
    "how much is membership?",
    "I'd like to freeze my membership while I'm away",
    "can I bring a friend to the gym?",
    "I need to cancel my class booking",
    "I want to cancel my membership",
  ],
};
