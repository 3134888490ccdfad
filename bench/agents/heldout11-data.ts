import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data for the held-out testbed agent 11 (`heldout11.ts`): Shelfwise, the member assistant of the Riverbend
 * Public Library. The seeded database (members, loans, holds, fines, catalogue, study rooms), the library's
 * policies, the parsers that read user turns, the paraphrase templates of every reply, and the facts a
 * tester is given.
 */

/** The fixed "today" of the library's clock (a Monday), so every run of a script is the same. */
export const TODAY = "2025-03-10";

/** Library policies the guards enforce. */
export const POLICY = {
  /** Most renewals of one loan. */
  renewalLimit: 3,
  /** A renewal sets the due date to today plus this many days. */
  renewDays: 21,
  /** A loan overdue by more than this many days can't be renewed online. */
  overdueRenewDays: 14,
  /** Most holds a member may have at once. */
  holdLimit: 3,
  /** Smallest partial fine payment, cents (a full payment of a smaller balance is fine). */
  minPartialCents: 100,
  /** Longest study-room booking, hours. */
  maxRoomHours: 3,
  /** Study rooms can be booked this many days ahead (today included). */
  bookingWindowDays: 14,
  /** Wrong PINs before the chat locks. */
  pinAttempts: 3,
} as const;

/** Pickup branches, in the order the hold gate lists them. */
export const BRANCHES = ["Central", "Eastside", "Millbrook"] as const;

/** Opening hours by weekday (0 = Sunday): [open, close] in hours, or null when closed. */
export const OPENING: readonly ([number, number] | null)[] = [
  null,
  [9, 20],
  [9, 20],
  [9, 20],
  [9, 20],
  [9, 18],
  [10, 17],
];

/** This week's events (public information). */
export const EVENTS: readonly string[] = [
  "Tue 11 Mar, 10:30 am — Rhyme Time for under-5s (Central)",
  "Wed 12 Mar, 6 pm — Repair Café: bring a broken lamp or toaster (Eastside)",
  "Thu 13 Mar, 7 pm — Crime Fiction Book Club: The Thursday Murder Club (Central)",
  "Sat 15 Mar, 11 am — Lego Robotics for ages 8–12, booking required (Millbrook)",
];

/** A catalogue title. */
export interface Title {
  id: string;
  title: string;
  author: string;
  copies: number;
  /** Copies on the shelf now. */
  available: number;
  /** Holds on the title (any member). */
  holds: number;
  /** 18+ item: children's cards can't hold or borrow it. */
  restricted: boolean;
  /** Normalised phrases that name it. */
  aliases: string[];
}

/** A loan of one member. */
export interface Loan {
  titleId: string;
  due: string;
  renewals: number;
}

/** A fine line; waived lines are shown but not owed. */
export interface FineLine {
  what: string;
  cents: number;
  waived?: boolean;
}

/** A member record, keyed by card number. */
export interface Member {
  card: string;
  pin: string;
  name: string;
  kind: "adult" | "child";
  email: string;
  loans: Loan[];
  holds: { titleId: string; branch: string }[];
  fines: FineLine[];
  /** Paid so far against the fines, cents. */
  paidCents: number;
  /** Last four digits of the payment card on file. */
  payLast4: string;
  /** Reported lost: the card no longer signs in. */
  blocked: boolean;
}

/** A bookable study room. */
export interface Room {
  id: string;
  name: string;
  capacity: number;
}

/** A study-room booking. */
export interface Booking {
  roomId: string;
  date: string;
  /** Start, minutes after midnight. */
  start: number;
  hours: number;
  people: number;
  card: string;
  ref: string;
}

/** The whole library database of one session. */
export interface Db {
  titles: Title[];
  members: Member[];
  rooms: Room[];
  bookings: Booking[];
}

function title(
  id: string,
  name: string,
  author: string,
  copies: number,
  available: number,
  holds: number,
  aliases: string[],
  restricted = false,
): Title {
  return { id, title: name, author, copies, available, holds, restricted, aliases };
}

/** A fresh copy of the seeded database (nothing shared with earlier copies). */
export function seedDb(): Db {
  return {
    titles: [
      title("hobbit", "The Hobbit", "J.R.R. Tolkien", 4, 2, 0, ["hobbit"]),
      title("dune", "Dune", "Frank Herbert", 2, 0, 0, ["dune"]),
      title("educated", "Educated", "Tara Westover", 2, 0, 2, ["educated"]),
      title("circe", "Circe", "Madeline Miller", 3, 1, 0, ["circe"]),
      title("charlottes-web", "Charlotte's Web", "E.B. White", 5, 3, 0, ["charlottes web"]),
      title("wild-robot", "The Wild Robot", "Peter Brown", 3, 0, 1, ["wild robot"]),
      title("hunger-games", "The Hunger Games", "Suzanne Collins", 3, 0, 1, ["hunger games"]),
      title("american-psycho", "American Psycho", "Bret Easton Ellis", 1, 0, 0, ["american psycho"], true),
      title("hail-mary", "Project Hail Mary", "Andy Weir", 3, 0, 2, ["hail mary"]),
      title("midnight-library", "The Midnight Library", "Matt Haig", 2, 0, 0, ["midnight library"]),
      title("crawdads", "Where the Crawdads Sing", "Delia Owens", 2, 2, 0, ["crawdads"]),
      title("lessons", "Lessons in Chemistry", "Bonnie Garmus", 2, 0, 1, ["lessons in chemistry"]),
      title("copperhead", "Demon Copperhead", "Barbara Kingsolver", 2, 0, 3, ["copperhead"]),
      title("fourth-wing", "Fourth Wing", "Rebecca Yarros", 4, 0, 6, ["fourth wing"]),
      title("tomorrow", "Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", 2, 0, 1, [
        "tomorrow and tomorrow",
      ]),
    ],
    // biome-ignore format: one member per block
    members: [
      {
        card: "21234500012345", pin: "4821", name: "Maya Chen", kind: "adult", email: "maya.chen@example.org",
        loans: [
          { titleId: "hobbit", due: "2025-03-14", renewals: 1 }, { titleId: "dune", due: "2025-03-17", renewals: 3 },
          { titleId: "educated", due: "2025-03-21", renewals: 0 }, { titleId: "circe", due: "2025-02-18", renewals: 0 },
        ],
        holds: [{ titleId: "copperhead", branch: "Central" }],
        fines: [
          { what: "Circe, overdue", cents: 300 }, { what: "damaged barcode label", cents: 150 },
          { what: "replacement card", cents: 100, waived: true },
        ],
        paidCents: 0, payLast4: "4242", blocked: false,
      },
      {
        card: "21234500067890", pin: "1357", name: "Leo Park", kind: "child", email: "park.family@example.net",
        loans: [
          { titleId: "charlottes-web", due: "2025-03-20", renewals: 0 },
          { titleId: "wild-robot", due: "2025-03-12", renewals: 2 },
        ],
        holds: [], fines: [], paidCents: 0, payLast4: "7070", blocked: false,
      },
      {
        card: "21234500099991", pin: "2468", name: "Priya Nair", kind: "adult", email: "priya.nair@example.com",
        loans: [{ titleId: "circe", due: "2025-03-18", renewals: 0 }],
        holds: [
          { titleId: "fourth-wing", branch: "Eastside" }, { titleId: "tomorrow", branch: "Eastside" },
          { titleId: "lessons", branch: "Millbrook" },
        ],
        fines: [{ what: "The Midnight Library, overdue", cents: 475 }, { what: "lost DVD case", cents: 800 }],
        paidCents: 0, payLast4: "1881", blocked: false,
      },
    ],
    rooms: [
      { id: "pod", name: "the Quiet Pod", capacity: 2 },
      { id: "room-a", name: "Study Room A", capacity: 4 },
      { id: "room-b", name: "Study Room B", capacity: 8 },
    ],
    bookings: [
      { roomId: "pod", date: "2025-03-12", start: 840, hours: 2, people: 1, card: "x", ref: "RB-2001" },
      { roomId: "room-a", date: "2025-03-12", start: 840, hours: 2, people: 3, card: "x", ref: "RB-2002" },
      { roomId: "room-b", date: "2025-03-12", start: 780, hours: 3, people: 6, card: "x", ref: "RB-2003" },
      { roomId: "room-a", date: "2025-03-11", start: 600, hours: 2, people: 4, card: "x", ref: "RB-2004" },
    ],
  };
}

// ---------------------------------------------------------------- dates, times, money

function toDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

/** `iso` plus `days` days, as ISO. */
export function addDays(iso: string, days: number): string {
  const d = toDate(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toDate(b).getTime() - toDate(a).getTime()) / 86_400_000);
}

/** Weekday of an ISO date, 0 = Sunday. */
export function weekday(iso: string): number {
  return toDate(iso).getUTCDay();
}

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The full name of a weekday, 0 = Sunday. */
export function dayName(day: number): string {
  return DAY_NAMES[day] ?? "";
}

/** `Fri 14 Mar` (the year is always this year's). */
export function fmtDate(iso: string): string {
  const d = toDate(iso);
  return `${dayName(d.getUTCDay()).slice(0, 3)} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]}`;
}

/** Minutes after midnight as `2:00 pm`. */
export function fmtTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${String(m).padStart(2, "0")} ${h < 12 ? "am" : "pm"}`;
}

/** An hour of the day (0–24) as `9 am` / `8 pm`. */
export function fmtHour(h: number): string {
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12} ${h < 12 || h === 24 ? "am" : "pm"}`;
}

/** Cents as `$4.50`. */
export function fmtMoney(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

// ---------------------------------------------------------------- parsers

/** Lower-case, straight quotes, single spaces. */
export function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

/** Letters and digits only, single spaces: the form titles are matched in. */
export function bare(text: string): string {
  return norm(text)
    .replace(/'/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

const WORD_NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};
const NUM = "(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)";

function num(word: string): number {
  return WORD_NUMBERS[word] ?? Number(word);
}

const ISO_DATE = /\b\d{4}-\d{1,2}-\d{1,2}\b/g;

/** What a card-number parse found: a valid card (and the text without it), a malformed number, or nothing. */
export type CardParse = { kind: "ok"; card: string; rest: string } | { kind: "invalid"; raw: string } | null;

/**
 * A library card number in `text`: 14 digits starting with 2, written whole or in groups separated by spaces
 * or dashes. A run of six or more digits that isn't one is `invalid`.
 */
export function parseCard(text: string): CardParse {
  const clean = text.replace(ISO_DATE, (d) => "#".repeat(d.length));
  for (const m of clean.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = m[0].split(/[ -]/);
    let acc = "";
    let used = 0;
    for (const g of groups) {
      if (acc.length >= 14) break;
      acc += g;
      used++;
    }
    if (acc.length === 14 && acc.startsWith("2")) {
      const rest = groups.slice(used).join(" ");
      return {
        kind: "ok",
        card: acc,
        rest: `${text.slice(0, m.index)} ${rest} ${text.slice(m.index + m[0].length)}`,
      };
    }
    if (m[0].replace(/\D/g, "").length >= 6) return { kind: "invalid", raw: m[0] };
  }
  return null;
}

/** A standalone four-digit number (a PIN or the last four digits of a card). */
export function parseFourDigits(text: string): string | null {
  const m = text.replace(ISO_DATE, " ").match(/(?<![\d.:$-])\b(\d{4})\b(?![\d.:-])/);
  return m?.[1] ?? null;
}

/** A parse result that also returns the text with the match removed. */
export interface Found<T> {
  value: T;
  rest: string;
}

function cut(text: string, m: RegExpMatchArray): string {
  const i = m.index ?? 0;
  return `${text.slice(0, i)} ${text.slice(i + m[0].length)}`;
}

/** A date in normalised text: ISO, `12 March`, `March 12`, today, tomorrow or a weekday (the next one). */
export function parseDate(t: string): Found<string> | null {
  let m = t.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return { value: `${m[1]}-${m[2]!.padStart(2, "0")}-${m[3]!.padStart(2, "0")}`, rest: cut(t, m) };
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*";
  m = t.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${mon}\\b`));
  if (m) return { value: monthDay(m[2]!, m[1]!), rest: cut(t, m) };
  m = t.match(new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`));
  if (m) return { value: monthDay(m[1]!, m[2]!), rest: cut(t, m) };
  m = t.match(/\b(today|tomorrow)\b/);
  if (m && !/tomorrow and tomorrow/.test(t)) {
    return { value: m[1] === "today" ? TODAY : addDays(TODAY, 1), rest: cut(t, m) };
  }
  m = t.match(/\b(sun|mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?)day\b/);
  if (m) {
    const want = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].findIndex((d) => m![1]!.startsWith(d));
    const ahead = (want - weekday(TODAY) + 7) % 7;
    return { value: addDays(TODAY, ahead), rest: cut(t, m) };
  }
  return null;
}

function monthDay(month: string, day: string): string {
  const mi = MONTHS.indexOf(month.slice(0, 3)) + 1;
  return `2025-${String(mi).padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/** A start time in normalised text, minutes after midnight: `2 pm`, `14:00`, `noon`, `at 3` (afternoon). */
export function parseTime(t: string): Found<number> | null {
  let m = t.match(/\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/);
  if (m) {
    let h = Number(m[1]) % 12;
    if (m[3]!.startsWith("p")) h += 12;
    return { value: h * 60 + Number(m[2] ?? 0), rest: cut(t, m) };
  }
  m = t.match(/\b(\d{1,2}):(\d{2})\b/);
  if (m) return { value: Number(m[1]) * 60 + Number(m[2]), rest: cut(t, m) };
  m = t.match(/\bnoon\b/);
  if (m) return { value: 720, rest: cut(t, m) };
  m = t.match(/\b(?:at|from) (\d{1,2})\b(?!\s*(?:people|persons|hours?|hrs?|of us))/);
  if (m) {
    const h = Number(m[1]);
    return { value: (h >= 1 && h <= 7 ? h + 12 : h) * 60, rest: cut(t, m) };
  }
  return null;
}

/** A duration in hours: `2 hours`, `an hour`, `1.5 hrs`. */
export function parseHours(t: string): Found<number> | null {
  let m = t.match(/\b(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\b/);
  if (m) return { value: Number(m[1]), rest: cut(t, m) };
  m = t.match(new RegExp(`\\b(an?|${NUM.slice(1, -1)})\\s+hours?\\b`));
  if (m) return { value: m[1] === "a" || m[1] === "an" ? 1 : num(m[1]!), rest: cut(t, m) };
  return null;
}

/** A group size: `4 people`, `six of us`, `group of 5`, `just me`. */
export function parsePeople(t: string): Found<number> | null {
  let m = t.match(new RegExp(`\\b${NUM}\\s*(?:people|persons?|of us|students|ppl|guests)\\b`));
  if (m) return { value: num(m[1]!), rest: cut(t, m) };
  m = t.match(new RegExp(`\\bgroup of ${NUM}\\b`));
  if (m) return { value: num(m[1]!), rest: cut(t, m) };
  m = t.match(/\b(just me|only me|myself|on my own)\b/);
  if (m) return { value: 1, rest: cut(t, m) };
  return null;
}

/** A bare number (digits or a word), when that is all the text says. */
export function parseBareNumber(t: string): number | null {
  const m = t.match(new RegExp(`^(?:about |maybe |make it |it's |its )?${NUM}\\.?$`));
  return m ? num(m[1]!) : null;
}

/** A payment amount in cents, or `full` for the whole balance. Bare numbers count only when `loose`. */
export function parseAmount(t: string, loose: boolean): number | "full" | null {
  if (
    /\b(all of it|all|full|everything|whole|entire|in full)\b/.test(t) &&
    !/\bnot (?:all|the full)\b/.test(t)
  ) {
    return "full";
  }
  let m = t.match(/[$£€]\s*(\d+(?:\.\d{1,2})?)/) ?? t.match(/\b(\d+\.\d{1,2})\b/);
  m ??= t.match(/\b(\d+)\s*(?:dollars|bucks)\b/);
  if (!m && loose) m = t.match(/^(?:pay |just |only )?(\d+)$/);
  if (!m && !loose) m = t.match(/\b(?:pay|make it|only|just)\s+(\d{1,3})\b/);
  return m ? Math.round(Number(m[1]) * 100) : null;
}

/** An email address in the text. */
export function parseEmail(text: string): string | null {
  return text.match(/[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i)?.[0]?.toLowerCase() ?? null;
}

/** `maya.chen@example.org` → `m••••@example.org`. */
export function maskEmail(email: string): string {
  const [user, domain] = email.split("@");
  return `${(user ?? "").slice(0, 1)}••••@${domain ?? ""}`;
}

/** The catalogue title the text names, if any. */
export function matchTitle(db: Db, text: string): Title | null {
  const b = ` ${bare(text)} `;
  for (const t of db.titles) {
    if (b.includes(` ${bare(t.title)} `) || t.aliases.some((a) => b.includes(` ${a} `))) return t;
  }
  return null;
}

const GENERIC =
  /^(?:a |an |the |my |some |one |any )?(?:book|books|title|item|items|loan|loans|something|it|one|copy|them|that|catalog|catalogue)$/;

/** What the user asked for when no catalogue title matched (null when they named nothing). */
export function extractQuery(text: string): string | null {
  const t = norm(text).replace(/[?!.]+$/, "");
  const m =
    t.match(
      /\b(?:search(?: the catalog(?:ue)?)?(?: for)?|look(?:ing)? (?:up|for)|find|do you have|have you got|got any|any copies of|is|renew|extend|hold on|a hold for|hold|reserve)\s+(.+)$/,
    ) ?? t.match(/^()(.+?) (?:available|in stock|on the shelf)$/);
  if (!m) return null;
  let q = (m[2] ?? m[1] ?? "").trim();
  q = q
    .replace(/\s+(?:for|on|with) (?:my )?(?:library )?card\b.*$/, "")
    .replace(/^(?:a copy of|copies of|the book|the title|please|called|titled)\s+/, "")
    .replace(/\s+(?:available|in stock|on the shelf|in|please|for me|at the library)$/, "")
    .replace(/^["']|["']$/g, "")
    .trim();
  if (q.length < 2 || GENERIC.test(q) || /\b(card|pin)\b|\d{6,}/.test(q)) return null;
  return q;
}

/** A pickup branch by number (1–3) or name. */
export function parseBranch(t: string): string | null {
  const m = t.match(/^(?:option |number |#)?([1-3])\b/);
  if (m) return BRANCHES[Number(m[1]) - 1] ?? null;
  const ord = t.match(/\b(first|second|third)\b/);
  if (ord) return BRANCHES[["first", "second", "third"].indexOf(ord[1]!)] ?? null;
  if (/\bcentral\b/.test(t)) return "Central";
  if (/\beast ?side\b/.test(t)) return "Eastside";
  if (/\bmillbrook\b/.test(t)) return "Millbrook";
  return null;
}

/** An affirmative answer at a gate. */
export function isYes(t: string): boolean {
  return /^(y|yes|yeah|yep|yup|sure|ok|okay|confirm(?:ed)?|please do|go ahead|do it|correct|that's right|sounds good|absolutely|proceed)\b/.test(
    t,
  );
}

/** A refusal at a gate. */
export function isNo(t: string): boolean {
  return /^(n|no|nope|nah|cancel|don't|do not|stop|never ?mind|not now|forget it|abort|leave it)\b/.test(t);
}

// ---------------------------------------------------------------- intents

/** A member or public service the agent runs as a task. */
export type Task = "search" | "loans" | "renew" | "hold" | "fine" | "room" | "email" | "lost" | "signin";
/** What a user turn asks for. */
export type Intent = Task | "hours" | "events" | "librarian" | "greet" | "bye";

/** Study-room details gathered so far. */
export interface RoomSlots {
  date?: string;
  start?: number;
  hours?: number;
  people?: number;
}

/** Intent cues, strongest first. */
export const INTENTS: readonly [Intent, RegExp][] = [
  [
    "lost",
    /\b(lost|stolen|misplaced|missing)\b.*\bcard\b|\bcard\b.*\b(lost|stolen|missing)\b|\breport (?:a |my )?(?:lost )?card\b/,
  ],
  ["librarian", /\b(librarian|human|real person|staff|someone real|a person|an agent|operator)\b/],
  ["room", /\b(study room|rooms?|study space)\b/],
  ["email", /\b(e-?mail|contact details)\b/],
  ["renew", /\b(renew|renewal|extend)\b/],
  ["hold", /\b(holds?|reserve|reservation)\b/],
  ["fine", /\b(fines?|fees?|owe|pay|payment|balance|charges?)\b/],
  ["loans", /\b(loans?|checked out|borrowed|my books|on my card|due)\b/],
  [
    "search",
    /\b(search|look up|looking for|find|do you have|have you got|available|availability|catalog(?:ue)?|copies|in stock|on the shelf)\b/,
  ],
  ["events", /\b(events?|what's on|whats on|story ?time|workshops?|book club|activities|classes)\b/],
  [
    "hours",
    /\b(opening hours|your hours|library hours|what hours|open|opening|close|closing|closed)\b|^hours\b/,
  ],
  ["signin", /\b(sign ?in|log ?in|login)\b/],
  [
    "greet",
    /^(hi|hello|hey|hiya|good (?:morning|afternoon|evening)|help|menu|start)\b|what can you (?:do|help)|what do you do/,
  ],
  ["bye", /\b(bye|goodbye|that's all|that is all|that's it|done for now)\b|\b(thanks|thank you|cheers)\b/],
];

/** The intent of a normalised user turn, or null. */
export function detectIntent(t: string): Intent | null {
  for (const [intent, re] of INTENTS) if (re.test(t)) return intent;
  return null;
}

/** How the sign-in prompt names each task. */
export const PURPOSE: Record<Task, string> = {
  search: "search the catalogue",
  loans: "see your loans",
  renew: "renew a loan",
  hold: "place a hold",
  fine: "sort out fines",
  room: "book a study room",
  email: "change your email",
  lost: "report a lost card",
  signin: "",
};

/** How the agent names each missing room detail. */
export const SLOT_WORDS: Record<keyof RoomSlots, string> = {
  date: "the date",
  start: "the start time",
  hours: "how many hours",
  people: "how many people",
};

/** Words that name a room detail the user wants to change. */
export const ROOM_SLOT_NAMES: readonly [keyof RoomSlots, RegExp][] = [
  ["date", /\b(date|day)\b/],
  ["start", /\b(time|start)\b/],
  ["hours", /\b(hours?|length|long|duration)\b/],
  ["people", /\b(people|group|size|persons)\b/],
];

/** `a, b and c`. */
export function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** `one` when n is 1, else `many`. */
export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

// ---------------------------------------------------------------- paraphrases

/**
 * Every reply the agent can give, each with at least three wordings; `{name}` placeholders are filled from
 * the reply's values. The wording is picked by the paraphrase seed and the turn number.
 */
export const TEMPLATES: Record<string, readonly string[]> = {
  greet: [
    "Hello, I'm Shelfwise, Riverbend Public Library's assistant. Anyone can ask me about opening hours, this week's events or whether a title is on the shelf. If you sign in with your library card I can also show your loans and due dates, renew items, place holds, take fine payments, book a study room, update your email, or cancel a lost card. And if you'd rather talk to a person, just ask for a librarian.",
    "Hi there! Shelfwise here, at your service for Riverbend Public Library.\n• Open to everyone: hours, events, catalogue searches\n• With your card and PIN: loans and due dates, renewals, holds, paying fines, study-room bookings, changing your email, reporting a lost card\n• Or I can pass you to a librarian.\nWhat would you like to do?",
    "Welcome to Riverbend Public Library — I'm Shelfwise. I can look things up in the catalogue, tell you when we're open and what's on, and once you've signed in with your card I'll handle renewals, holds, fines, study rooms, your contact email and lost-card reports. A librarian is always an option too. How can I help?",
  ],
  fallback: [
    "Sorry, I didn't follow that. You can ask me to search the catalogue, show your loans, renew a book, place a hold, pay fines, book a study room, change your email, report a lost card, or fetch a librarian.",
    'Hmm, I\'m not sure what you mean. Try something like "renew The Hobbit", "is Dune available?" or "book a study room" — or say "librarian" to reach a person.',
    "I couldn't quite work that out. I handle catalogue searches, opening hours, events, loans and renewals, holds, fines, study rooms, email changes and lost cards. What would you like?",
  ],
  hours: [
    "Our opening hours: Monday to Thursday 9 am – 8 pm, Friday 9 am – 6 pm, Saturday 10 am – 5 pm, and we're closed on Sundays. All three branches keep the same hours.",
    "We're open Mon–Thu 9 am to 8 pm, Fri 9 am to 6 pm and Sat 10 am to 5 pm. Sunday is closed. (Same hours at Central, Eastside and Millbrook.)",
    "Opening times for every branch — weekdays Monday through Thursday 9 am–8 pm, Friday 9 am–6 pm, Saturday 10 am–5 pm; closed Sunday.",
  ],
  events: [
    "Here's what's on this week:\n{list}\nEvents are free; no library card needed unless it says booking required.",
    "This week at the library:\n{list}\nEveryone's welcome.",
    "Coming up this week:\n{list}\nDrop in, or ask a librarian about booking.",
  ],
  handoff: [
    "I've asked a librarian to join this chat — your reference is {ref}. Someone from the {branch} desk usually picks up within five minutes.",
    "Okay, passing you to a member of staff. Reference {ref}; a librarian will be with you shortly (typically under five minutes).",
    "No problem — a librarian has been notified and will take over here. Please keep reference {ref} handy.",
  ],
  goodbye: [
    "Happy reading! Come back any time.",
    "Thanks for chatting with Shelfwise — enjoy your books.",
    "Bye for now, and see you at the library.",
  ],
  ask_card: [
    "{pre}What's your library card number? It's the 14-digit number under the barcode — you can send your PIN in the same message.",
    "{pre}Please give me your library card number (14 digits, starting with 2) and your 4-digit PIN.",
    "{pre}First I need to sign you in. Which card number is it? (You'll find the 14 digits on the back.)",
  ],
  ask_pin: [
    "Thanks. And your 4-digit PIN, please?",
    "Got the card. Now type your PIN — the 4 digits you chose when you joined.",
    "Card found. What's the PIN for it?",
  ],
  card_invalid: [
    '"{raw}" doesn\'t look like a Riverbend card number — ours are 14 digits and always start with 2. Could you check the back of the card?',
    "That number isn't in the right format. A library card number has 14 digits beginning with 2; please try again.",
    "Hmm, that can't be a card number of ours (we use 14 digits starting with a 2). What does the back of your card say?",
  ],
  card_unknown: [
    "I can't find a member with card number {card}. Please double-check it, or ask at any desk.",
    "There's no account on card {card}. Could you re-read the number for me?",
    "No member record matches {card}. Try the number again, or a librarian can help you look it up.",
  ],
  card_blocked: [
    "Card {card} has been reported lost and cancelled, so it can't be used to sign in. A branch can issue a replacement.",
    "That card was cancelled after a lost-card report. Please visit a branch with photo ID for a new one.",
    "Sorry — card {card} is no longer active (it was reported lost). The front desk can set you up with a replacement.",
  ],
  pin_wrong: [
    "That PIN doesn't match. You have {left} more {tries} before this chat locks.",
    "Incorrect PIN, sorry. {left} {tries} left.",
    "The PIN isn't right. Please try again — {left} {tries} remaining before I have to lock the chat.",
  ],
  locked: [
    "For your security this chat is locked after three wrong PINs. Please call 555-0110 or visit a desk to reset your PIN.",
    "This chat is locked because of repeated wrong PINs. A librarian can reset it for you in person or on 555-0110.",
    "I can't continue — too many incorrect PINs. Please contact the library (555-0110) to unlock your account.",
  ],
  signed_in: [
    "You're signed in, {first}.",
    "Thanks, {first} — you're in.",
    "Welcome back, {first}; you're signed in.",
  ],
  signed_in_next: ["What would you like to do?", "How can I help today?", "What can I do for you?"],
  search_ask: [
    "Which title are you looking for?",
    "Sure — what's the title?",
    "Happy to check. What book should I look up?",
  ],
  search_avail: [
    "{title} by {author}: {avail} of {copies} copies are on the shelf right now.",
    "Good news — {title} ({author}) has {avail} of {copies} copies available to borrow today.",
    "{title}, {author}. Available: {avail} of {copies} copies.",
  ],
  search_out: [
    '{title} by {author}: all {copies} copies are on loan at the moment, with {holds} {holdword} waiting. Say "place a hold on {title}" if you\'d like to join the queue.',
    "Every copy of {title} ({author}) is checked out — {copies} in total, {holds} {holdword} ahead of you. I can place a hold if you sign in.",
    "{title}, {author}: 0 of {copies} copies available; {holds} {holdword} in the queue. Want a hold?",
  ],
  not_found: [
    'I couldn\'t find "{query}" in our catalogue. Check the spelling, or try another title.',
    'Nothing in the catalogue matches "{query}", sorry. Which title did you mean?',
    'We don\'t seem to have "{query}". Could you give me the exact title?',
  ],
  loans_list: [
    "{first}, you have {count} items out:\n{list}",
    "Here are your current loans, {first}:\n{list}",
    "{count} items on your card right now:\n{list}",
  ],
  loans_other: [
    "I can only show loans for the card you're signed in with (ending {last4}). For another member's account they'll need to sign in themselves.",
    "Sorry — for privacy I can't show another card's loans. You're signed in with the card ending {last4}.",
    "That's a different card from yours (ending {last4}), so I can't list its loans. Each member signs in to see their own.",
  ],
  renew_ask: [
    "Which item would you like to renew? You have: {list}.",
    "Sure. Which one — {list}?",
    "Which loan should I renew? On your card: {list}.",
  ],
  renew_not_on_loan: [
    'I don\'t see "{query}" among your loans. You have: {list}. Which one?',
    '"{query}" isn\'t on your card. Your loans are {list} — which would you like renewed?',
    "That one isn't checked out to you. Pick from: {list}.",
  ],
  renew_confirm: [
    "{title} is due {due}. Renewing moves it to {newDue}. Shall I go ahead? (yes/no)",
    "Renew {title}? The new due date would be {newDue} (currently {due}). Yes or no?",
    "I can extend {title} from {due} to {newDue}. Do you want me to renew it?",
  ],
  renew_done: [
    "Done — {title} is renewed and now due {newDue}.",
    "Renewed! {title} is now due back on {newDue}.",
    "All set: your new due date for {title} is {newDue}.",
  ],
  renew_declined: [
    "Okay, I've left {title} as it is — still due {due}.",
    "No problem, I won't renew {title}. It stays due {due}.",
    "Fine, nothing changed: {title} is due {due}.",
  ],
  renew_limit: [
    "That one can't be renewed again — {title} has already been renewed {count} times, which is our limit. Please return it by {due}.",
    "Sorry, {title} has reached the maximum of {limit} renewals, so it's due back on {due}.",
    "I'm not able to renew {title}: it's been renewed {count} times already and the limit is {limit}. Its due date stays {due}.",
  ],
  renew_hold: [
    "I can't renew {title} because another member has a hold on it ({holds} waiting). Please bring it back by {due} so it can go to them.",
    "Someone's waiting for {title}, so it can't be renewed — items with holds go to the next reader. It's due {due}.",
    "{title} has {holds} {holdword} from other members, which blocks renewals. The due date stays {due}.",
  ],
  renew_overdue: [
    "{title} is {days} days overdue, and items more than {limit} days late can't be renewed online. Please return it, or a librarian can help.",
    "Sorry — {title} was due {due} ({days} days ago). Past {limit} days overdue, renewals have to be done at a desk.",
    "I can't renew {title}: it's {days} days overdue and our online limit is {limit} days. Bringing it back stops the fine growing.",
  ],
  hold_ask: [
    "Which title would you like to place a hold on?",
    "Sure — what's the title you want to reserve?",
    "Which book should I put a hold on for you?",
  ],
  hold_confirm: [
    '{title} — where would you like to pick it up?\n1. Central\n2. Eastside\n3. Millbrook\nReply with a number, or "cancel".',
    "I can place a hold on {title}. Choose your pickup branch: 1) Central, 2) Eastside, 3) Millbrook — or say cancel.",
    'Pickup branch for {title}? Options: 1 Central · 2 Eastside · 3 Millbrook. (Say "cancel" to stop.)',
  ],
  hold_placed: [
    "Hold placed on {title} for pickup at {branch}. You're number {position} in the queue; we'll email you when it's ready.",
    "Done! {title} is on hold for you at {branch} — position {position}. You'll get an email when it arrives.",
    "Your hold on {title} is in (pickup: {branch}, queue position {position}).",
  ],
  hold_declined: [
    "Okay, no hold placed on {title}.",
    "No problem — I haven't reserved {title}.",
    "Cancelled; {title} isn't on hold for you.",
  ],
  hold_limit: [
    "You already have {count} holds ({list}), and {limit} is the most one card can have. Once one of them is collected or cancelled you can place another.",
    "Sorry, you're at the hold limit: {limit} holds per member, and you have {count} ({list}).",
    "I can't add another hold — members can have up to {limit} and yours are full: {list}.",
  ],
  hold_restricted: [
    "{title} is in our adult (18+) collection, so it can't be reserved on a children's card.",
    "Sorry, children's cards can't place holds on 18+ items like {title}.",
    "{title} is restricted to adult members, and this is a children's card — I can't place that hold.",
  ],
  hold_available: [
    "No hold needed — {title} has {avail} {copyword} on the shelf right now. Just come in and borrow it.",
    "{title} is available ({avail} on the shelf), and we only take holds on titles that are all out.",
    "Good news: {title} is in ({avail} available), so there's nothing to reserve.",
  ],
  hold_duplicate: [
    "You already {why} {title}, so there's no need for a hold.",
    "{title}? You {why} it already.",
    "No new hold: you {why} {title}.",
  ],
  fine_none: [
    "Good news, {first}: you don't owe anything.",
    "Your account is clear — no fines to pay.",
    "There are no fines on your card, {first}.",
  ],
  fine_ask: [
    "You owe {total}:\n{list}\nHow much would you like to pay — the full {total} or part of it?",
    "Your balance is {total} ({items}). Would you like to pay all of it, or an amount of your choice?",
    "Fines on your card:\n{list}\nTotal owed: {total}. How much shall I take now?",
  ],
  fine_over: [
    "You only owe {total}, so I can't take {amount}. How much would you like to pay?",
    "{amount} is more than your balance of {total}. Please choose an amount up to {total}.",
    "That's over what you owe ({total}). What amount should I use?",
  ],
  fine_min: [
    "Partial payments have to be at least {min}. How much would you like to pay?",
    "The smallest part-payment we take is {min} (or the full {total}). What amount?",
    "Sorry, {amount} is below our {min} minimum for part-payments. Please pick another amount.",
  ],
  fine_confirm: [
    'You\'re paying {amount}, leaving {remaining}. To authorise, type the last four digits of the card we have on file — or say "no" to cancel.',
    "Payment of {amount} (balance afterwards: {remaining}). Please confirm by entering the last 4 digits of your payment card, or cancel.",
    "Ready to take {amount}; {remaining} would remain. Enter the last four digits of the card on file to approve it.",
  ],
  fine_last4_wrong: [
    'Those digits don\'t match the card on file. Please try again, or say "cancel".',
    "That isn't the card we have for you. Re-enter the last four digits?",
    "No match for those digits — check your card and type the last four again.",
  ],
  fine_paid: [
    "Payment of {amount} received — thank you. Remaining balance: {remaining}.",
    "Thanks! {amount} paid; you now owe {remaining}.",
    "Done: {amount} taken from your card. Balance left: {remaining}.",
  ],
  fine_declined: [
    "Okay, no payment taken. You still owe {total}.",
    "Cancelled — nothing was charged. Balance: {total}.",
    "No problem, I haven't charged anything; {total} is still outstanding.",
  ],
  room_ask: [
    "{pre}To book a study room I need {missing}.",
    "{pre}Sure. Could you tell me {missing}?",
    "{pre}Let's find you a room — what's {missing}?",
  ],
  room_edit: [
    "What would you like to change — the date, start time, hours or group size?",
    "Sure, what should I change? (date, time, number of hours, number of people)",
    "Tell me the new value — date, start time, length, or how many people.",
  ],
  room_date: [
    "Study rooms can be booked from today up to {window} days ahead (until {last}), so {date} won't work. Which date instead?",
    "Sorry, {date} is outside our booking window of {window} days. Please pick a day between today and {last}.",
    "I can't book {date}: bookings open {window} days in advance at most, and never in the past. Another date?",
  ],
  room_closed: [
    "We're closed on {day}s, so no rooms then. Which other date would suit?",
    "The library is closed on {day}, {date}. Please choose another day.",
    "Sorry — {date} is a {day} and we don't open. Another date?",
  ],
  room_hours: [
    "On {day} we're open {open} to {close}, and the room has to be free by closing, so {start} for {hours} {hourword} doesn't fit. What start time would work?",
    "That booking would run outside opening hours ({open}–{close} on {day}). Could you pick an earlier start time?",
    "Sorry, {start} for {hours} {hourword} goes past our hours on {day} ({open} to {close}). Which time instead?",
  ],
  room_duration: [
    "Rooms can be booked in whole hours, up to {max}. How long do you need it?",
    "Sorry, the longest booking is {max} hours (whole hours only). How many hours?",
    "{hours} hours won't work — bookings are 1 to {max} whole hours. What length would you like?",
  ],
  room_capacity: [
    "Our largest study room holds {max} people, so I can't fit a group of {people}. How many will actually come?",
    "Sorry — {people} is more than any room takes (the biggest seats {max}). Can you make the group smaller?",
    "A group of {people} is too big for our rooms (maximum {max}). How many people, then?",
  ],
  room_unavailable: [
    "Every room that fits {people} is booked on {date} at {start}. Could you try another start time?",
    "No luck — all suitable rooms are taken then ({date}, {start}). Another time?",
    "Sorry, nothing free for {people} at {start} on {date}. Which other time works?",
  ],
  room_confirm: [
    "Here's the booking: {room}, {date}, {start}–{end} ({hours} {hourword}), for {people}. Reply CONFIRM to proceed or EDIT to change something.",
    "{room} on {date} from {start} to {end} — {hours} {hourword}, {people}. CONFIRM to book it, or EDIT to change a detail.",
    "Summary: {date}, {start}–{end}, {people}, {room}. Say CONFIRM to book, EDIT to adjust, or cancel.",
  ],
  room_booked: [
    "Booked! {room}, {date}, {start}–{end} ({hours} {hourword}) for {people}. Reference {ref}.",
    "You're all set: {room} on {date}, {start} to {end}, {people}. Your reference is {ref}.",
    "Confirmed — {ref}: {room}, {date} {start}–{end}, {hours} {hourword}, {people}.",
  ],
  room_declined: [
    "Okay, I haven't booked anything.",
    "No problem — no room booked.",
    "Cancelled; nothing has been reserved.",
  ],
  email_ask: [
    "The email on your account is {masked}. What should the new address be?",
    "Sure. Your current email is {masked} — what would you like it changed to?",
    "What's the new email address? (We have {masked} at the moment.)",
  ],
  email_invalid: [
    "That doesn't look like an email address. Could you type it again, like name@example.com?",
    "Hmm, I can't use that as an email address. Please send the full address, e.g. name@example.com.",
    "I need a full email address (something@domain). What is it?",
  ],
  email_confirm: [
    "Change your contact email from {old} to {new}? (yes/no)",
    "Just to check: replace {old} with {new}? Yes or no.",
    "I'll update your email to {new} (was {old}). Is that right?",
  ],
  email_updated: [
    "Your email is now {new}. Notices and hold alerts will go there.",
    "Updated — we'll use {new} from now on.",
    "Done: contact email changed to {new}.",
  ],
  email_declined: [
    "Okay, I've left your email as {masked}.",
    "No change made; we'll keep using {masked}.",
    "Cancelled — your email stays {masked}.",
  ],
  lost_confirm: [
    "Reporting card ending {last4} as lost cancels it permanently — it can't be undone, and you'll need to visit a branch with photo ID for a new card. To confirm, re-type your PIN; say \"stop\" to keep the card.",
    "This will block card ****{last4} for good (no undo; a replacement means a trip to a branch). If you're sure, enter your PIN again to confirm, or say stop.",
    'Before I cancel card ending {last4}: this is permanent and the card won\'t work again anywhere. Please re-enter your 4-digit PIN to confirm, or say "stop".',
  ],
  lost_mismatch: [
    "That PIN doesn't match, so I haven't cancelled anything. Re-type your PIN to confirm, or say stop.",
    "The PIN isn't right — the card is still active. Try again, or say stop to keep it.",
    "No match. Nothing has been cancelled; enter your PIN again if you want to go ahead.",
  ],
  lost_reported: [
    "Card ending {last4} is now cancelled and can't be used by anyone. Bring photo ID to any branch for a replacement. For safety I've signed you out.",
    "Done — card ****{last4} has been reported lost and blocked. You've been signed out; a desk can issue a new card.",
    "Your card ending {last4} is cancelled. I've ended your signed-in session; a replacement is available at any branch with ID.",
  ],
  cancelled: [
    "Okay, I've stopped there — nothing was changed.",
    "No problem, I've cancelled that. Anything else?",
    "Alright, left as it is. What else can I do?",
  ],
  lost_declined: [
    "Okay, your card stays active.",
    "No problem — I haven't cancelled anything.",
    "Understood; card ending {last4} is still working.",
  ],
};

/** A deterministic pick among `n` wordings for a reply key, from the paraphrase seed and the turn number. */
export function pickVariant(key: string, seed: number, turn: number, n: number): number {
  let h = 2166136261;
  for (const ch of `${seed}|${turn}|${key}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  h ^= h >>> 15;
  return (h >>> 0) % n;
}

/** The reply `key` worded for `seed` and `turn`, placeholders filled from `vars`. */
export function render(
  key: string,
  vars: Record<string, string | number>,
  seed: number,
  turn: number,
): string {
  const options = TEMPLATES[key];
  if (!options || options.length === 0) throw new Error(`heldout11: no template ${key}`);
  const text = options[pickVariant(key, seed, turn, options.length)]!;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`heldout11: template ${key} needs {${name}}`);
    return String(v);
  });
}

// ---------------------------------------------------------------- facts

/** What a tester knows: three members (one on a children's card) and a visitor with no valid card. */
// biome-ignore format: one persona per block
export const FACTS: Facts = {
  personas: [
    {
      name: ["Maya Chen"], card_number: ["21234500012345"], pin: ["4821"],
      title: [
        "The Hobbit", "Dune", "Educated", "Circe", "Project Hail Mary", "The Midnight Library",
        "Where the Crawdads Sing", "Demon Copperhead",
      ],
      amount: ["4.50", "2.00", "0.50"], card_last4: ["4242"], email: ["maya.c@mailbox.org"],
      date: ["2025-03-12", "2025-03-16", "2025-04-30"], time: ["10 am", "2 pm", "7 pm"],
      hours: ["2", "3", "5"], people: ["4", "12"], branch: ["Eastside", "Central"],
    },
    {
      name: ["Leo Park"], card_number: ["21234500067890"], pin: ["1357"],
      title: ["The Hunger Games", "American Psycho", "Charlotte's Web", "The Wild Robot"],
      email: ["leo.park@example.net"], date: ["2025-03-15"], time: ["11 am"], hours: ["1"], people: ["2"],
      branch: ["Millbrook"],
    },
    {
      name: ["Priya Nair"], card_number: ["21234500099991"], pin: ["2468"],
      title: ["Circe", "The Midnight Library", "Lessons in Chemistry"],
      amount: ["12.75", "5.00", "20.00"], card_last4: ["1881"], email: ["priya.n@example.com", "priya.nair(at)mail"],
      date: ["2025-03-14"], time: ["5 pm", "9 am"], hours: ["2"], people: ["6"], branch: ["Central"],
    },
    { name: ["Sam Rivera"], card_number: ["21234500055555", "1234567"], pin: ["1111"], title: ["Moby Dick", "Dune"] },
  ],
  requests: [
    "check when my books are due", "renew a book", "place a hold on a book", "pay my fines", "book a study room",
    "change my email address", "report a lost library card", "ask about opening hours", "see this week's events",
    "search the catalogue", "talk to a librarian",
  ],
};
