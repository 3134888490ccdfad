/**
 * Data of the sixth held-out testbed agent (`heldout6.ts`): Kestrel Car Hire's booking desk chat. The fleet,
 * branches, extras and rental rules, the seed bookings, the date and keyword helpers, the designed states, the
 * reply templates and what a tester knows before it starts. `freshBookings()` hands each session its own copy.
 * The desk's clock stands still at {@link NOW}.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** Monday 9 March 2026, 11:00. */
export const NOW = "2026-03-09T11:00";
export const TODAY = NOW.slice(0, 10);
export const COMPANY = "Kestrel Car Hire";
/** The word a customer types to authorise a change. */
export const WORD = "CONFIRM";

export const MIN_AGE = 21;
export const YOUNG_UNDER = 25;
export const LICENCE_YEARS = 2;
export const MAX_DAYS = 28;
export const MAX_DRIVERS = 2;
export const DRIVER_FEE = 9;
export const YOUNG_FEE = 12;
export const FREE_CANCEL_HOURS = 48;
export const LATE_CANCEL_FEE = 40;
export const ONE_WAY_NEAR = 45;
export const ONE_WAY_FAR = 95;

export type ClassId = "economy" | "compact" | "estate" | "suv" | "premium" | "van";
export interface VehicleClass {
  name: string;
  model: string;
  rate: number;
  deposit: number;
  minAge: number;
  words: RegExp;
}
const vc = (name: string, model: string, rate: number, deposit: number, minAge: number, words: RegExp) => ({
  ...{ name, model, rate, deposit, minAge, words },
});
export const CLASS_ORDER: readonly ClassId[] = ["economy", "compact", "estate", "suv", "premium", "van"];
export const CLASSES: Readonly<Record<ClassId, VehicleClass>> = {
  economy: vc("Economy", "VW Polo", 32, 200, 21, /\b(economy|polo|small car|cheapest)\b/),
  compact: vc("Compact", "Ford Focus", 39, 250, 21, /\b(compact|focus)\b/),
  estate: vc("Estate", "Skoda Octavia Estate", 52, 300, 21, /\b(estate|octavia)\b/),
  suv: vc("SUV", "Nissan Qashqai", 68, 400, 25, /\b(suv|4x4|qashqai)\b/),
  premium: vc("Premium", "BMW 5 Series", 95, 800, 25, /\b(premium|luxury|bmw|5 series|executive)\b/),
  van: vc("Van", "Ford Transit Custom", 74, 500, 25, /\b(van|transit)\b/),
};

export interface Branch {
  name: string;
  scotland: boolean;
  sundayClosed: boolean;
  hours: string;
  words: RegExp;
}
const br = (name: string, scotland: boolean, sundayClosed: boolean, hours: string, words: RegExp) => ({
  ...{ name, scotland, sundayClosed, hours, words },
});
export const BRANCHES: Readonly<Record<string, Branch>> = {
  LHR: br("Heathrow Airport", false, false, "open 24 hours, every day", /\b(heathrow|lhr|airport)\b/),
  KGX: br("London King's Cross", false, true, "Mon–Sat 08:00–20:00", /\b(king'?s cross|kgx|london)\b/),
  MAN: br("Manchester Piccadilly", false, false, "every day 07:00–22:00", /\b(manchester|piccadilly)\b/),
  EDI: br("Edinburgh Waverley", true, true, "Mon–Sat 08:00–18:00", /\b(edinburgh|waverley)\b/),
  BRS: br("Bristol Temple Meads", false, false, "every day 08:00–18:00", /\b(bristol|temple meads)\b/),
};

export type ExtraId = "child" | "satnav" | "roofbox" | "chains" | "wifi";
export interface Extra {
  name: string;
  plural: string;
  price: number;
  perDay: boolean;
  max: number;
  onlyFor?: readonly ClassId[];
  /** Months (1–12) of the pick-up date in which it can be had. */
  season?: readonly number[];
  notAt?: readonly string[];
  words: RegExp;
}
type ExtraRow = [string, string, number, boolean, number, RegExp, Partial<Extra>?];
const ex = (...[name, plural, price, perDay, max, words, more]: ExtraRow): Extra => ({
  ...{ name, plural, price, perDay, max, words, ...more },
});
export const EXTRA_ORDER: readonly ExtraId[] = ["child", "satnav", "roofbox", "chains", "wifi"];
export const EXTRAS: Readonly<Record<ExtraId, Extra>> = {
  child: ex(
    "child seat",
    "child seats",
    7,
    true,
    2,
    /\b(child|car|baby|booster|toddler|infant) seats?\b|\bboosters?\b/,
  ),
  satnav: ex("sat nav", "sat navs", 9, true, 1, /\b(sat ?navs?|gps|navigation)\b/),
  roofbox: ex("roof box", "roof boxes", 12, true, 1, /\broof ?(box|boxes|rack)\b/, {
    onlyFor: ["estate", "suv"],
  }),
  chains: ex("snow chains", "sets of snow chains", 30, false, 1, /\b(snow ?)?chains?\b/, {
    season: [11, 12, 1, 2, 3],
  }),
  wifi: ex("wi-fi hotspot", "wi-fi hotspots", 6, true, 1, /\b(wi-?fi|hotspot|mobile internet)\b/, {
    notAt: ["MAN"],
  }),
};

export interface Driver {
  name: string;
  dob: string;
  licence: string;
}
export interface Booking {
  ref: string;
  lead: string;
  email: string;
  cls: ClassId;
  from: string;
  to: string;
  pickup: string;
  dropoff: string;
  paid: "prepaid" | "counter";
  card: string;
  status: "upcoming" | "on_rent" | "cancelled";
  drivers: Driver[];
  extras: Partial<Record<ExtraId, number>>;
  oneWay: number;
}

/** One booking a line: reference | lead driver | e-mail | class | payment | card | status | from | pick-up | to | return. */
const SEED = [
  "KC204815|Amelia Hart|amelia.hart@mailbox.co.uk|compact|counter|4417|upcoming|LHR|2026-03-20T09:00|LHR|2026-03-24T09:00",
  "KC318862|Jonah Price|jonah.price@fastmail.com|van|prepaid|9021|upcoming|MAN|2026-03-10T08:00|MAN|2026-03-12T08:00",
  "KC559130|Sofia Marino|s.marino@outlook.com|suv|counter|6650|on_rent|EDI|2026-03-05T10:00|EDI|2026-03-14T10:00",
  "KC771046|Marcus Webb|marcus.webb@protonmail.com|premium|prepaid|3308|upcoming|KGX|2026-04-14T10:00|KGX|2026-04-18T10:00",
  "KC902377|Ravi Nair|ravi.nair@yahoo.co.uk|estate|counter|7702|upcoming|BRS|2026-03-27T12:00|BRS|2026-03-29T12:00",
  "KC640255|Hannah Cole|hannah.cole@gmail.com|economy|prepaid|5183|cancelled|BRS|2026-03-14T09:30|BRS|2026-03-16T09:30",
];
/** What is already on some bookings. */
const ON_BOOKING: Record<string, Partial<Booking>> = {
  KC771046: {
    drivers: [{ name: "Lena Webb", dob: "1988-02-11", licence: "2007-05-01" }],
    extras: { satnav: 1 },
  },
  KC902377: { extras: { child: 1 } },
};

/** A session's own copy of the bookings, by reference. */
export function freshBookings(): Record<string, Booking> {
  const rows = SEED.map((line): Booking => {
    const [ref, lead, email, cls, paid, card, status, from, pickup, to, dropoff] = line.split(
      "|",
    ) as string[];
    const b = { ref, lead, email, cls, paid, card, status, from, pickup, to, dropoff } as Booking;
    return { ...b, drivers: [], extras: {}, oneWay: 0, ...structuredClone(ON_BOOKING[b.ref]) };
  });
  return Object.fromEntries(rows.map((b) => [b.ref, b]));
}

/* ---------- dates, money ---------- */

const DAY_MS = 86_400_000;
const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);
const WEEKDAYS = "sunday monday tuesday wednesday thursday friday saturday".split(" ");
export const NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");
const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const stamp = (dt: string) => Date.parse(dt.length === 10 ? `${dt}T00:00Z` : `${dt}:00Z`);
export const plusDays = (iso: string, n: number) =>
  new Date(stamp(iso.slice(0, 10)) + n * DAY_MS).toISOString().slice(0, 10);
export const dayDiff = (a: string, b: string) =>
  Math.round((stamp(b.slice(0, 10)) - stamp(a.slice(0, 10))) / DAY_MS);
export const weekday = (iso: string) => WEEKDAYS[new Date(stamp(iso.slice(0, 10))).getUTCDay()] ?? "";
export const hoursUntil = (dt: string) => (stamp(dt) - stamp(NOW)) / 3_600_000;
/** "Friday 20 March 2026". */
export const longDate = (iso: string) =>
  `${upper(weekday(iso))} ${Number(iso.slice(8, 10))} ${upper(MONTHS[Number(iso.slice(5, 7)) - 1] ?? "")} ${iso.slice(0, 4)}`;
/** "Fri 20 Mar, 09:00". */
export const shortWhen = (dt: string) =>
  `${upper(weekday(dt).slice(0, 3))} ${Number(dt.slice(8, 10))} ${upper((MONTHS[Number(dt.slice(5, 7)) - 1] ?? "").slice(0, 3))}, ${dt.slice(11, 16)}`;
/** Whole years from `from` to `on` (an age, or how long a licence has been held). */
export function wholeYears(from: string, on: string): number {
  const years = Number(on.slice(0, 4)) - Number(from.slice(0, 4));
  return on.slice(5, 10) < from.slice(5, 10) ? years - 1 : years;
}
/** "2 August 1999". */
export const plainDate = (iso: string) =>
  `${Number(iso.slice(8, 10))} ${upper(MONTHS[Number(iso.slice(5, 7)) - 1] ?? "")} ${iso.slice(0, 4)}`;
/** "June 2018". */
export const monthYear = (iso: string) => plainDate(iso).replace(/^\d+ /, "");
export const gbp = (n: number) => (Number.isInteger(n) ? `£${n}` : `£${n.toFixed(2)}`);
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const valid = (y: number, m: number, d: number): string | undefined => {
  const s = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const t = Date.parse(s);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s ? undefined : s;
};
const monthOf = (w: string) => MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
const MON = "(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const yearOf = (s: string) => (s.length === 2 ? 2000 + Number(s) : Number(s));
/** A day and month with no year: the next time it comes round (today counts). */
const ahead = (m: number, d: number) => {
  const y = Number(TODAY.slice(0, 4));
  const here = valid(y, m, d);
  return here && here < TODAY ? valid(y + 1, m, d) : here;
};

/** The dates a message names, in the order it names them; with `yearOnly` only those that give a year. */
export function datesIn(text: string, yearOnly = false): string[] {
  const l = text.toLowerCase();
  const hits: [number, string | undefined][] = [];
  for (const m of l.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g))
    hits.push([m.index, valid(Number(m[1]), Number(m[2]), Number(m[3]))]);
  for (const m of l.matchAll(/\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{4}|\d{2}))?\b(?![/.]\d)/g))
    if (m[3] || !yearOnly)
      hits.push([
        m.index,
        m[3] ? valid(yearOf(m[3]), Number(m[2]), Number(m[1])) : ahead(Number(m[2]), Number(m[1])),
      ]);
  for (const m of l.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MON}(?:,? (\\d{4}))?`, "g")))
    if (m[3] || !yearOnly)
      hits.push([
        m.index,
        m[3]
          ? valid(Number(m[3]), monthOf(m[2] ?? ""), Number(m[1]))
          : ahead(monthOf(m[2] ?? ""), Number(m[1])),
      ]);
  for (const m of l.matchAll(new RegExp(`\\b${MON} (\\d{1,2})(?:st|nd|rd|th)?\\b(?:,? (\\d{4}))?`, "g")))
    if (m[3] || !yearOnly)
      hits.push([
        m.index,
        m[3]
          ? valid(Number(m[3]), monthOf(m[1] ?? ""), Number(m[2]))
          : ahead(monthOf(m[1] ?? ""), Number(m[2])),
      ]);
  if (!yearOnly && hits.length === 0) {
    if (/\btomorrow\b/.test(l)) hits.push([l.indexOf("tomorrow"), plusDays(TODAY, 1)]);
    const wd = new RegExp(`\\b(${WEEKDAYS.join("|")})\\b`).exec(l);
    if (wd) {
      const gap = (WEEKDAYS.indexOf(wd[1] ?? "") - WEEKDAYS.indexOf(weekday(TODAY)) + 7) % 7 || 7;
      hits.push([wd.index, plusDays(TODAY, gap)]);
    }
  }
  return hits
    .sort((a, b) => a[0] - b[0])
    .map((h) => h[1])
    .filter((d): d is string => d !== undefined);
}

const COUNT = `(\\d{1,2}|${NUMBERS.join("|")}|a|an)`;
export const countOf = (w: string) =>
  /\d/.test(w) ? Number(w) : w === "a" || w === "an" ? 1 : NUMBERS.indexOf(w);
/** A change of rental length in days: "+2" for "two more days", "-1" for "a day earlier"; undefined if none. */
export function daysShift(l: string): number | undefined {
  const unit = (u: string) => (u.startsWith("week") ? 7 : 1);
  let m = new RegExp(`\\b${COUNT} (more|extra|additional) (days?|nights?|weeks?)\\b`).exec(l);
  if (m) return countOf(m[1] ?? "") * unit(m[3] ?? "");
  m = /\b(another|one more|an extra|one extra) (day|night|week)\b/.exec(l);
  if (m) return unit(m[2] ?? "");
  m = new RegExp(`\\bby ${COUNT} (days?|nights?|weeks?)\\b`).exec(l);
  if (m)
    return countOf(m[1] ?? "") * unit(m[2] ?? "") * (/\b(shorten|earlier|sooner|cut)\b/.test(l) ? -1 : 1);
  m = new RegExp(`\\b${COUNT} (days?|nights?|weeks?) (longer|later)\\b`).exec(l);
  if (m) return countOf(m[1] ?? "") * unit(m[2] ?? "");
  m = new RegExp(`\\b${COUNT} (days?|nights?|weeks?) (earlier|sooner|shorter|less)\\b`).exec(l);
  if (m) return -countOf(m[1] ?? "") * unit(m[2] ?? "");
  return undefined;
}

/** A rental length ("for 5 days", "a week"), for quotes. */
export function lengthIn(l: string): number | undefined {
  const m = new RegExp(`\\bfor ${COUNT} (days?|nights?|weeks?)\\b`).exec(l);
  return m ? countOf(m[1] ?? "") * ((m[2] ?? "").startsWith("week") ? 7 : 1) : undefined;
}

/** A date of birth: after "born"/"dob", or (when it was asked for) the first full date in the past. */
export function dobIn(text: string, asked: boolean): string | undefined {
  const l = text.toLowerCase();
  const cue = /\b(born|dob|date of birth|birthday)\b(.*)$/.exec(l);
  const pool = cue ? datesIn(cue[2] ?? "", true) : asked ? datesIn(l.replace(LICENCE_CUE, " "), true) : [];
  return pool.find((d) => d < TODAY);
}

const LICENCE_CUE = /\b(licen[cs]e|passed|test|driving since|held)\b.*$/;
/** When a licence was issued, relative to the pick-up date for "for 6 years"; year-only answers count from 1 July. */
export function licenceIn(text: string, asked: boolean, pickup: string): string | undefined {
  const l = text.toLowerCase();
  const cue = LICENCE_CUE.exec(l);
  const part = cue ? cue[0] : asked ? l : "";
  if (!part) return undefined;
  const held = new RegExp(`\\b${COUNT} (years?|months?)\\b`).exec(part);
  if (held) {
    const n = countOf(held[1] ?? "");
    const d = new Date(stamp(pickup.slice(0, 10)));
    if ((held[2] ?? "").startsWith("year")) d.setUTCFullYear(d.getUTCFullYear() - n);
    else d.setUTCMonth(d.getUTCMonth() - n);
    return d.toISOString().slice(0, 10);
  }
  const full = datesIn(part, true)[0];
  if (full) return full;
  const my = new RegExp(`\\b${MON},? (\\d{4})\\b`).exec(part) ?? /\b(\d{1,2})[/.-](\d{4})\b/.exec(part);
  if (my) {
    const mo = /\d/.test(my[1] ?? "") ? Number(my[1]) : monthOf(my[1] ?? "");
    return valid(Number(my[2]), mo, 1);
  }
  const y = /\b(19[5-9]\d|20[0-2]\d)\b/.exec(part);
  return y ? `${y[1]}-07-01` : undefined;
}

/** A booking reference ("KC204815"; six bare digits when one was asked for); null when malformed. */
export function refIn(text: string, asked: boolean): string | null | undefined {
  const m =
    /\bkc[\s-]?(\d{6})\b/i.exec(text) ?? (asked ? /(?<![\d£.@])\b(\d{6})\b(?![\d@])/.exec(text) : null);
  if (m) return `KC${m[1]}`;
  if (/\bkc[\s-]?\d+/i.test(text) || (asked && /\d{4,}/.test(text) && !/@/.test(text))) return null;
  return undefined;
}
export const emailIn = (text: string) =>
  /[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/i.exec(text)?.[0]?.toLowerCase();

export const classIn = (l: string) => CLASS_ORDER.find((c) => CLASSES[c].words.test(l));
export const extraIn = (l: string) => EXTRA_ORDER.find((e) => EXTRAS[e].words.test(l));
export const branchIn = (l: string) => Object.keys(BRANCHES).find((b) => BRANCHES[b]?.words.test(l));

/* ---------- what a customer asks for ---------- */

const KIN = "wife|husband|partner|son|daughter|friend|colleague|brother|sister|dad|mum|father|mother|boss";
/** Request patterns (inside `\b(…)`), tried in this order: the first that matches names the request. */
const PATTERNS = {
  emergency:
    "accident|crash(ed)?|collision|broken? down|breakdown|won'?t start|flat tyre|puncture|stolen|warning light|bumped|scraped|hit (a|another|something)|locked (the |my )?keys",
  cancel:
    "(want|need|like|wish) to cancel(?= *[.!?]*$)|(cancel\\w*|call off)\\s+(my |the |this |our |that |a )?(whole )?(booking|reservation|rental|hire|car|van|trip|kc[\\s-]?\\d{6})|(don'?t|no longer) need the (car|van|booking)",
  driver: `(additional|extra|second|another|named|2nd|other) drivers?|add (a |another )?driver|add my (${KIN})|(can|could|may) my (${KIN}) (also )?drive|as a driver|to drive (it|the car|the van) too`,
  extras:
    "(child|car|baby|booster|toddler) seats?|boosters?|sat ?navs?|gps|navigation|snow ?chains?|roof ?(box|rack)|wi-?fi|hotspot|extras|add-?ons?",
  branch:
    "one[- ]way|different (branch|location|station|depot|city)|another (branch|location|depot)|drop (it |the car |the van )?off (at|in)|return (it |the car |the van )?(to|at) (?!you\\b)[a-z]+|change (the |my )?(return|drop[- ]?off) (branch|location|station|depot|place)",
  dates:
    "extend\\w*|extension|keep (it|the car|the van|the vehicle) (longer|until|till|for|another|an extra|a few|a bit)|(more|extra|additional) days?|another (day|week)|shorten|cut (it|the rental|the hire) short|(change|move|push back|bring forward) (the |my )?(return|drop[- ]?off|end) ?(date|day|time)?|return (it |the car |the van )?(later|earlier|sooner|on)|bring (it|the car|the van) back (later|earlier|sooner|on)|return date|drop[- ]?off date",
  view: "my booking|my reservation|booking details|reservation details|(view|see|check|look up|pull up|show me) (my |the )?(booking|reservation|rental)|booking (summary|status)|(details|status) (of|for) (booking |reservation )?kc[\\s-]?\\d{6}|(show|view|see)( me)? (booking )?kc[\\s-]?\\d{6}|what have i booked",
  rules:
    "requirements?|how old|age (limit|requirement|restriction)s?|minimum age|young drivers?|what do i need|documents?|deposits?|cancellation (policy|fee|terms)|licen[cs]e (requirements?|rules)|need (a|my) licen[cs]e|rental (rules|terms)|terms and conditions",
  quote:
    "quotes?|how much (would|will|is|does|for|to)|price (for|of) (a |an )?(car|van|suv|hire|rental)|cost (to|of) (hire|hiring|rent|renting)|(hire|rent|book) (a|an) (new )?(car|van|suv|estate|economy|compact|premium)|need (a|an) (car|van)|new booking|availability",
  fleet:
    "fleet|vehicle (classes|types|options|range)|what (cars|vehicles|vans|kind of cars)|which (cars|vehicles)|types of (car|vehicle)|(car|van) (classes|categories)|your (cars|vehicles|rates|prices)|daily rates?|price list|prices",
  branches:
    "branch(es)?|locations?|depots?|opening (hours|times)|open on (sundays?|saturdays?|weekends?)|where are you|where can i (pick|collect)|when are you open|what time do you (open|close)",
};
export type Intent = keyof typeof PATTERNS;
const INTENTS = Object.entries(PATTERNS).map(([k, p]) => [k as Intent, new RegExp(`\\b(${p})\\b`)] as const);
/** The request a message makes, if any. */
export const intentOf = (l: string): Intent | undefined => INTENTS.find(([, re]) => re.test(l))?.[0];

const re = (s: string) => new RegExp(s);
export const YES = re(
  "^\\s*(yes|yeah|yep|yup|sure|ok(ay)?|please( do)?|go ahead|sounds good|correct|that'?s (right|fine|correct)|absolutely|definitely|y)\\b",
);
export const NO = re(
  "^\\s*(no|nope|nah|not now|stop|leave it|forget (it|that)|never ?mind|don'?t|scrap (it|that)|keep it as it is|actually,? no|abort)\\b",
);
export const CONFIRMED = /\bconfirm(ed)?\b/;
export const NEGATED = /\b(don'?t|do not|not|never|no)\b[^.]*\bconfirm/;
export const HESITANT = /\b(wait|hold on|hang on|not sure|but)\b/;
export const HUMAN = re(
  "\\b(human|real person|a person|live agent|an agent|someone real|member of staff|speak to (someone|somebody|a)|talk to (someone|somebody|a)|manager|representative|customer services)\\b",
);
export const NOT_HUMAN = /\b(don'?t|do not|no need to)\b[^.]*\b(human|person|agent|speak|talk)/;
export const BYE = re(
  "\\b(bye|goodbye|thanks|thank you|cheers|that'?s (all|everything|it)|nothing else|i'?m done|all sorted)\\b",
);
export const GREETING = /^\s*(hi|hello|hey|hiya|morning|good (morning|afternoon|evening))\b/;
export const MENU = /\b(help|menu|what can you (do|help with)|options|what else)\b/;

const NUM = NUMBERS.slice(1).join("|");
const ITEM_WORD = "(child|car|baby|booster|seats?|sat|gps|roof|sets?|wi|hotspots?)";
/** How many of an extra: "2 child seats", "two"; a bare number only when it was asked for. */
export function quantityIn(l: string, asked: boolean): number | undefined {
  const m = new RegExp(`\\b(\\d{1,2}|${NUM}|a pair of|a couple of)\\s+(\\w+\\s+)?${ITEM_WORD}`).exec(l);
  if (m) return /pair|couple/.test(m[1] ?? "") ? 2 : countOf(m[1] ?? "");
  const bare = asked ? new RegExp(`^\\D*?\\b(\\d{1,2}|${NUM}|just one|both)\\b\\D*$`).exec(l) : null;
  if (!bare) return undefined;
  return bare[1] === "just one" ? 1 : bare[1] === "both" ? 2 : countOf(bare[1] ?? "");
}

const NAME_STOP = new Set(
  "as a an the driver drivers to my on booking please too also and is for second extra".split(" "),
);
const NAME_CUE = `\\b(?:[Aa]dd|[Cc]alled|[Nn]amed|name is|name's|driver is|driver[:,])\\s+(?:my\\s+(?:${KIN})\\s*,?\\s+)?`;
/** A driver's full name: after "add", "called", "named"…; the whole answer when a name was asked for. */
export function nameIn(text: string, asked: boolean): string | undefined {
  const word = "[A-Z][a-zA-Z'’-]+";
  let raw = new RegExp(`${NAME_CUE}(${word}(?:\\s+${word}){1,2})`).exec(text)?.[1];
  if (!raw && asked) {
    raw = (text.split(/[,;(]|\s(?:born|dob|who|she|he|they|and)\b/i)[0] ?? "")
      .trim()
      .replace(/^(it'?s|it is|that'?s|(his|her|their) name is|name:?|my \w+ is|my \w+)\s+/i, "")
      .replace(/[.!]+$/, "");
    if (!/^[a-zA-Z'’-]+(\s+[a-zA-Z'’-]+){1,2}$/.test(raw)) raw = undefined;
  }
  const words = (raw ?? "").split(/\s+/).filter((w) => w && !NAME_STOP.has(w.toLowerCase()));
  return words.length >= 2 && words.length <= 3
    ? words.map((w) => upper(w.toLowerCase())).join(" ")
    : undefined;
}

/* ---------- a chat's open questions and a booking's price ---------- */

/** What the desk is waiting for after its reply. */
export type Ask =
  | "ref"
  | "email"
  | "word"
  | "offer"
  | "more"
  | "name"
  | "dob"
  | "licence"
  | "item"
  | "qty"
  | "date"
  | "branch"
  | "cls"
  | "dates";
/** The values of the open request. */
export interface Slots {
  name?: string;
  dob?: string;
  licence?: string;
  item?: ExtraId;
  qty?: number;
  date?: string;
  shift?: number;
  branch?: string;
  place?: string;
  cls?: ClassId;
  from?: string;
  to?: string;
  other?: string;
}
/** The slots a re-asked question clears. */
export const CLEARS: Partial<Record<Ask, (keyof Slots)[]>> = {
  name: ["name"],
  item: ["item", "qty"],
  qty: ["qty"],
  date: ["date", "shift"],
  branch: ["branch", "place"],
  dates: ["from", "to"],
};
export const first = (name: string) => name.split(" ")[0] ?? name;
export const days = (n: number) => plural(n, "day", "days");
export const rentalDays = (b: Booking) => dayDiff(b.pickup, b.dropoff);
/** A driver under 25 at pick-up pays the young-driver surcharge. */
export const isYoung = (b: Booking, dob: string) => wholeYears(dob, b.pickup) < YOUNG_UNDER;
/** What the add-ons cost per day of this rental (per-day extras and additional drivers). */
export function addOnsPerDay(b: Booking): number {
  const extras = EXTRA_ORDER.reduce(
    (sum, id) => sum + (EXTRAS[id].perDay ? (b.extras[id] ?? 0) * EXTRAS[id].price : 0),
    0,
  );
  return extras + b.drivers.reduce((sum, d) => sum + DRIVER_FEE + (isYoung(b, d.dob) ? YOUNG_FEE : 0), 0);
}
/** The whole price of a booking: the vehicle and add-ons for every day, flat-priced extras, any one-way fee. */
export function bookingTotal(b: Booking): number {
  const flat = EXTRA_ORDER.reduce(
    (sum, id) => sum + (EXTRAS[id].perDay ? 0 : (b.extras[id] ?? 0) * EXTRAS[id].price),
    0,
  );
  return rentalDays(b) * (CLASSES[b.cls].rate + addOnsPerDay(b)) + flat + b.oneWay;
}
export const classList = () =>
  CLASS_ORDER.map((id) => {
    const c = CLASSES[id];
    return `- ${c.name} (${c.model} or similar): ${gbp(c.rate)}/day, deposit ${gbp(c.deposit)}, drivers ${c.minAge}+`;
  }).join("\n");
export const branchList = () =>
  Object.values(BRANCHES)
    .map((b) => `- ${b.name}: ${b.hours}${b.sundayClosed ? ", closed Sundays" : ""}`)
    .join("\n");

/* ---------- designed states ---------- */

/** The designed dialogue states: each reply enters exactly one. */
export const HELDOUT6_STATES = [
  ...(["greet", "menu", "fallback", "goodbye", "handoff", "request.dropped", "gate.need_word"] as const),
  ...(["fleet.show", "rules.show", "branches.show", "emergency.offer_handoff"] as const),
  ...(["quote.ask_class", "quote.ask_dates", "quote.bad_dates", "quote.show"] as const),
  ...(["auth.ask_reference", "auth.unknown_reference", "auth.ask_email", "auth.wrong_email"] as const),
  ...(["auth.locked", "auth.booking_closed", "booking.show", "booking.refused_other"] as const),
  ...(["driver.refused_on_rent", "driver.refused_limit", "driver.ask_name", "driver.already"] as const),
  ...(["driver.ask_dob", "driver.ask_licence", "driver.refused_age", "driver.refused_class_age"] as const),
  ...(["driver.refused_licence", "driver.confirm", "driver.done"] as const),
  ...(["extras.refused_on_rent", "extras.ask_item", "extras.ask_quantity", "extras.refused_class"] as const),
  ...([
    "extras.refused_season",
    "extras.unavailable",
    "extras.too_many",
    "extras.confirm",
    "extras.done",
  ] as const),
  ...([
    "dates.ask_date",
    "dates.same",
    "dates.before_pickup",
    "dates.too_long",
    "dates.refused_shorten",
  ] as const),
  ...(["dates.refused_branch_closed", "dates.confirm", "dates.done"] as const),
  ...([
    "branch.refused_van",
    "branch.ask_branch",
    "branch.unknown",
    "branch.same",
    "branch.refused_closed",
  ] as const),
  ...(["branch.confirm", "branch.done"] as const),
  ...(["cancel.refused_collected", "cancel.confirm", "cancel.confirm_fee", "cancel.done"] as const),
];
export type StateId = (typeof HELDOUT6_STATES)[number];
/** Template keys that are pieces of replies, not states. */
export type Piece =
  | "services"
  | "more"
  | "ask_word"
  | "updated"
  | "pardon"
  | "verified"
  | "got_ref"
  | "okay"
  | "bad_email"
  | "bad_ref"
  | "queued";

/* ---------- reply templates ---------- */

/** Two or three wordings per key, separated by " || "; `{x}` is filled from the reply's values. */
const WORDINGS: Readonly<Record<StateId | Piece, string>> = {
  services:
    "With your booking reference I can show the booking, add a driver or extras, move the return date or branch, or cancel it. Without one I can quote a rental, go through the fleet and prices, explain what you need to hire, and give branch opening hours. || Things I can sort here: viewing a booking, additional drivers, extras like child seats or a sat nav, changing the return date or return branch, and cancellations (those need your booking reference). Anyone can ask me for a quote, our vehicle classes, rental requirements or branch hours. || I handle existing bookings (details, extra drivers, add-ons, return date, return location, cancelling) once I've checked your reference, and I can also do quotes, fleet and prices, hire requirements and branch times for anyone.",
  greet:
    "Hello, thanks for contacting {company}! {services} How can I help? || Hi there, this is the {company} booking desk. {services} What do you need today? || Welcome to {company}. {services} What can I do for you?",
  menu: "{services} Which would you like? || Of course. {services} Where shall we start? || Sure thing. {services}",
  fallback:
    "Sorry, I'm not sure what you mean. {services} || I didn't follow that, I'm afraid. {services} Could you tell me which one you need? || Apologies, that's not something I understood. {services}",
  goodbye:
    "Thanks for choosing {company}{name}. Safe driving! || You're welcome{name}. Have a good trip! || Glad I could help{name}. Bye for now.",
  handoff:
    "I'm passing this chat to a colleague on our customer team now. They'll see everything we've discussed, so there's no need to repeat yourself. || Okay, connecting you to one of our team. Please stay in this window; they'll pick it up in a few minutes.",
  queued:
    "You're still in the queue for a colleague; someone will be with you shortly. || A team member has your chat and will reply soon. Thanks for your patience.",
  "request.dropped":
    "No problem, I haven't changed anything. {more} || Okay, I've left the booking exactly as it was. {more} || Understood, nothing's been done. {more}",
  "gate.need_word":
    "Before I make any change I need you to type the word {word}. To recap: {recap} Type {word} to go ahead, or tell me what to change. || I can't go ahead on that reply, sorry. The change is: {recap} If that's right, please type {word}. || Just so nothing happens by accident, I need the word {word} typed out. {recap} Shall we? Type {word}, or say no to leave it.",
  "fleet.show":
    "Here's our fleet (prices per day, unlimited mileage):\n{list}\nThe deposit is held on your card at pick-up and released after return. {more} || These are our vehicle classes with daily rates:\n{list}\nA refundable deposit is blocked on a credit card when you collect. {more} || Our classes and prices:\n{list}\nYou'll get a similar model in the class you book. {more}",
  "rules.show":
    "To hire with us the driver must be at least {minAge} ({young} for SUVs, Premium cars and vans) and have held a full licence for {years} years. Drivers under {young} pay a young-driver surcharge of {youngFee} a day. Bring your licence, a credit card in the lead driver's name for the deposit, and your booking reference. Cancellation is free up to {hours} hours before pick-up; after that there's a {late} fee. {more} || The basics: minimum age {minAge}, or {young} for SUV, Premium and van hire; at least {years} years with a full licence; {youngFee}/day extra for anyone under {young}. At the counter you'll need your licence and a credit card for the deposit. You can cancel free of charge until {hours} hours before collection ({late} after that). {more}",
  "branches.show":
    "Our branches:\n{list}\nOne-way rentals cost {near} between English branches and {far} to or from Edinburgh (not available for vans). {more} || You can collect from and return to:\n{list}\nReturning somewhere else adds a one-way fee: {near} within England, {far} if Edinburgh is involved; vans must come back where they started. {more}",
  "emergency.offer_handoff":
    "I'm sorry to hear that. If anyone is hurt or the vehicle is in a dangerous place, call 999 first. For breakdowns, accidents and damage our 24-hour roadside team takes over. Shall I put you through to them now? || That sounds stressful, sorry. Please make sure you're somewhere safe (and call 999 if anyone is injured). Incidents are handled by our roadside assistance colleagues rather than this chat. Would you like me to connect you?",
  "quote.ask_class":
    "Happy to give you a quote. Which type of vehicle?\n{list} || Sure. Which class are you after?\n{list} || Let's price it up. What would you like to drive?\n{list}",
  "quote.ask_dates":
    "{cls}, good choice. {have}What are your pick-up and return dates? || Okay, {cls}. {have}When would you collect it, and when would it come back? || Got it: {cls}. {have}Which dates do you need it for (pick-up and return)?",
  "quote.bad_dates":
    "I can't quote that, I'm afraid: {reason}. Which dates would you like instead? || That won't work because {reason}. Could you give me different pick-up and return dates?",
  "quote.show":
    "{cls} ({model} or similar), {from} to {to}: {days} at {rate} a day comes to {total}. A deposit of {deposit} is held at pick-up, and drivers need to be {minAge} or over. To book, use our website or app. {more} || Here's your quote: {cls}, picking up {from} and returning {to}. That's {days} × {rate} = {total}, plus a refundable {deposit} deposit. Minimum driver age {minAge}. You can book it online. {more} || For a {cls} from {from} to {to} ({days}), the price is {total} ({rate}/day). We'd hold {deposit} on your card as a deposit; drivers must be at least {minAge}. {more}",
  "auth.ask_reference":
    "{bad}I can help with that. First, what's your booking reference? It starts with KC, for example KC123456. || {bad}Let's find your booking. Could you give me the reference from your confirmation e-mail (KC and six digits)? || {bad}Sure. Which booking is it? Please type the booking reference, e.g. KC123456.",
  "auth.unknown_reference":
    "I couldn't find a booking with the reference {ref}. Could you double-check it? || Hmm, {ref} doesn't match any booking on our system. What's the reference on your confirmation?",
  "auth.ask_email":
    "{bad}Thanks, I've found {ref}. To make sure it's yours, what e-mail address was the booking made with? || {bad}Got it. For security, please tell me the e-mail address on booking {ref}. || {bad}Found it. Which e-mail address did you use when you booked?",
  "auth.wrong_email":
    "That e-mail doesn't match the one on the booking. You have {left}. What's the e-mail you booked with? || Sorry, that's not the address we have for this booking ({left}). Could you try again? || I can't verify that address, I'm afraid; {left}. Which e-mail did you book with?",
  "auth.locked":
    "I'm sorry, I can't verify the booking after several incorrect e-mail addresses, so I've blocked changes in this chat. A colleague can check your identity another way. Shall I connect you? || For your security the booking is now locked in this chat after too many failed checks. Would you like to speak to a member of our team instead? || That's too many unsuccessful attempts, so I can't access the booking here any more. I can pass you to our customer team if you like. Shall I?",
  "auth.booking_closed":
    "Booking {ref} was cancelled, so there's nothing I can change on it. If you'd like a new rental, I can give you a quote. {more} || I can see {ref}, but it's no longer active (it was cancelled), so it can't be amended. {more}",
  "booking.show":
    "Here are the details of {ref}:\n{rows}\n{more} || Booking {ref}, {name}:\n{rows}\n{more} || This is what I have for {ref}:\n{rows}\n{more}",
  "booking.refused_other":
    "This chat is verified for booking {ref} only, so I can't look at or change {other}. For that booking, please start a new chat with its own details. {more} || Sorry, I can only deal with the booking you've verified ({ref}); {other} would need its own security check. {more}",
  "driver.refused_on_rent":
    "As the rental has already started, extra drivers have to be added at a branch: the driver needs to show their licence in person. {more} || The car's already been collected, so an additional driver can only be added at the counter with their licence. {more}",
  "driver.refused_limit":
    "This booking already has {count} additional drivers ({names}), which is the maximum of {max}. {more} || We allow {max} additional drivers per rental and {names} already fill both places. {more}",
  "driver.ask_name":
    "Sure. Additional drivers are {fee} a day. What's the driver's full name? || No problem. Who would you like to add? Please give me their first and last name. || Happy to. Each extra driver costs {fee} per day of the rental. What's their full name?",
  "driver.already":
    "{name} is already on this booking as a driver. Who else would you like to add? || {name} is already named on {ref}. Did you mean someone else?",
  "driver.ask_dob":
    "Thanks. What's {name}'s date of birth? || And when was {name} born? (Day, month and year, please.) || Could you give me {name}'s date of birth?",
  "driver.ask_licence":
    "When did {name} get their full driving licence? The month and year is fine. || How long has {name} held a full licence? A month and year, or the number of years, works.",
  "driver.refused_age":
    "I'm sorry, {name} would be {age} on the pick-up date, and all drivers have to be at least {minAge}. {more} || Unfortunately we can't add {name}: drivers must be {minAge} or over at pick-up, and they'd be {age}. {more}",
  "driver.refused_class_age":
    "The {cls} class needs every driver to be {classAge} or over, and {name} would be {age} at pick-up, so I can't add them. {more} || {name} would be {age}, but drivers of a {cls} must be at least {classAge}. I'm afraid they can't be added. {more}",
  "driver.refused_licence":
    "Drivers need to have held a full licence for at least {years} years by pick-up; {name}'s was issued {issued}, so I can't add them this time. {more} || Sorry, {name} hasn't had a full licence for {years} years yet (issued {issued}). That's our minimum for every driver. {more}",
  "driver.confirm":
    "Let me read that back: add {name} (born {dob}) as a driver on {ref} for all {days}. Cost: {cost}{young}, paid {when}. {ask} || So that's {name}, date of birth {dob}, added to {ref}. For {days} it comes to {cost}{young}, {when}. {ask}",
  "driver.done":
    "{name} has been added as a driver (change ref {id}). {cost} will be {when2}. They'll need to bring their licence to pick-up. {more} || Done: {name} can now drive on booking {ref}. Reference {id}; the {cost} is {when2}. {more}",
  "extras.refused_on_rent":
    "Extras are fitted before collection, so once the rental is under way they can only be arranged at a branch. {more} || Because you've already picked up the vehicle, I can't add extras here; the branch team can help if they have stock. {more}",
  "extras.ask_item":
    "Which extra would you like?\n{list} || Here's what we can add to {ref}:\n{list}\nWhich one? || Sure, these are available:\n{list}\nWhat would you like?",
  "extras.ask_quantity":
    "How many {plural} do you need? Up to {max} per rental. || How many would you like? We can fit at most {max}.",
  "extras.refused_class":
    "A {item} can only go on an estate or SUV, and this booking is for a {cls}. Is there another extra you'd like? || Sorry, {plural} don't fit the {cls} class. Anything else I can add?",
  "extras.refused_season":
    "Snow chains are only supplied for pick-ups between November and March; this rental starts on {pickup}. Would you like a different extra? || We only hand out snow chains in winter (November to March), and your pick-up is {pickup}. Anything else?",
  "extras.unavailable":
    "Sorry, {branch} doesn't stock the {item}. Would you like something else? || The {item} isn't offered at {branch}, I'm afraid. Another extra, perhaps?",
  "extras.too_many":
    "A rental can have at most {maxText}{have}, so I can't add {qty}. {again} || That would go over the limit of {maxText}{have}. {again}",
  "extras.confirm":
    "To confirm: {qty} × {item} on {ref}, {price}, {total} in total{payable}. {ask} || Adding {qty} × {item} to {ref}: {price}, so {total}{payable}. {ask} || That's {qty} × {item} for this rental, {total} altogether ({price}){payable}. {ask}",
  "extras.done":
    "Added: {qty} × {item}, {total} (ref {id}). It'll be ready when you collect. {more} || All set, {qty} × {item} is on {ref} for {total}. Change reference {id}. {more}",
  "dates.ask_date":
    "The car is due back at {branch} on {current}. What's the new return date? The rental can last at most {maxDays} days, so no later than {latest}. || Currently it's due back {current}. When would you like to return it instead (latest {latest})? || Sure. Your return is {current} at {branch}. Which date would you like? Rentals can't go beyond {maxDays} days ({latest}).",
  "dates.same":
    "That's already your return date ({current}). Which date did you have in mind? || The booking is already due back on {current}. What date would you like instead?",
  "dates.before_pickup":
    "The return has to be at least a day after pick-up ({pickup}), so {date} won't work. What date would you like? || {date} is before the vehicle would even be collected on {pickup}. Which return date instead?",
  "dates.too_long":
    "A single rental can last at most {maxDays} days, so the latest return is {latest}; {date} is too late. Which date instead? || Returning on {date} would make it {days}, over our {maxDays}-day maximum (latest {latest}). What date would you like?",
  "dates.refused_shorten":
    "As the rental has started, it can't be shortened here. You're welcome to bring the car back early, but the days already booked are still charged. {more} || I can't bring the return date forward once you've collected the vehicle; an early return isn't refunded. {more}",
  "dates.refused_branch_closed":
    "{branch} is closed on Sundays, so the car can't be returned on {date}. Which other date works? || Returns at {branch} aren't possible on {date}, because it's a Sunday. Could you pick another day?",
  "dates.confirm":
    "New return: {date} at {time}, {branch}. The rental becomes {days}; {money}. {ask} || Here's the change: return moves from {current} to {date} ({time}, {branch}), {days} in total; {money}. {ask} || So the car comes back on {date} at {time} instead of {current}. That's {days}; {money}. {ask}",
  "dates.done":
    "Done! The return date is now {date} ({time}, {branch}). {money} Reference {id}. {more} || Your rental now ends on {date} at {time}. {money} Change ref {id}. {more}",
  "branch.refused_van":
    "Vans have to be returned to the branch they were collected from, so one-way hire isn't possible for this booking. {more} || One-way rentals aren't available for vans, I'm afraid; it needs to come back to {branch}. {more}",
  "branch.ask_branch":
    "It's due back at {branch} now. Which branch would you like to return it to?\n{list} || Where would you like to drop it off? Currently {branch}. Options:\n{list}",
  "branch.unknown":
    "We don't have a branch at {place}. You can return to:\n{list}\nWhich one? || Sorry, there's no {company} branch in {place}. Our branches are:\n{list}",
  "branch.same":
    "It's already due back at {branch}. Which branch did you want instead? || {branch} is the current return branch. Where would you like to return it?",
  "branch.refused_closed":
    "{branch} is closed on Sundays, and the return is {date}, so I can't move it there. Another branch, or change the date first? || Your return falls on a Sunday ({date}) when {branch} is shut. Which other branch would suit?",
  "branch.confirm":
    "Return to {branch} instead of {old} on {date}. {fee} {ask} || New drop-off: {branch} (was {old}), {date}. {fee} {ask} || So you'd hand the car back at {branch} on {date}. {fee} {ask}",
  "branch.done":
    "Updated: the car goes back to {branch} on {date}. {fee} Ref {id}. {more} || Done. Drop-off is now {branch}. {fee} Change reference {id}. {more}",
  "cancel.refused_collected":
    "This rental is already under way (collected {pickup}), so it can't be cancelled. Just return the vehicle when you're ready. {more} || The vehicle was picked up on {pickup}, so there's no booking left to cancel. {more}",
  "cancel.confirm":
    "You want to cancel {ref}: {cls} from {pickup}. It's more than {hours} hours away, so there's no fee. {refund} {ask} || Cancelling booking {ref} ({cls}, {pickup}) free of charge. {refund} {ask}",
  "cancel.confirm_fee":
    "Booking {ref} starts {pickup}, less than {hours} hours from now, so a late cancellation fee of {fee} applies. {refund} {ask} || As pick-up ({pickup}) is under {hours} hours away, cancelling {ref} costs {fee}. {refund} {ask}",
  "cancel.done":
    "Booking {ref} is cancelled. {refund} Cancellation number {id}. {more} || All done, {ref} has been cancelled (ref {id}). {refund} {more}",
  more: "Anything else I can help with? || Is there anything else? || Can I do anything else for you?",
  ask_word:
    "Type {word} to go ahead, or tell me what to change. || If that's all correct, please type {word}. || Reply {word} and I'll make the change; otherwise let me know what's wrong.",
  updated: "Okay, I've updated that. || Thanks, changed. || Sure, amended.",
  pardon: "Sorry, I didn't catch that. || I'm not sure I understood. || Hmm, that didn't make sense to me.",
  verified:
    "Thanks {name}, you're verified. || Great, that matches. Hi {name}! || Thank you, {name}, I've confirmed the booking is yours.",
  got_ref: "Thanks, I've noted that. || Got it, thanks. || Okay, noted.",
  okay: "Alright. || No problem. || Okay.",
  bad_email:
    "That doesn't look like an e-mail address.  || I need a full e-mail address there.  || I couldn't see an e-mail address in that. ",
  bad_ref:
    "That doesn't look like one of our references.  || References are KC plus six digits.  || I couldn't read a booking reference there. ",
};
/** The wordings of each key, one picked per reply by the session's seeded PRNG. */
export const TEXT = Object.fromEntries(
  Object.entries(WORDINGS).map(([k, v]) => [k, v.split(" || ")]),
) as unknown as Readonly<Record<StateId | Piece, readonly string[]>>;

/* ---------- facts ---------- */

/** What a tester playing Kestrel's customers knows before it starts. */
export const HELDOUT6_FACTS: Facts = {
  personas: [
    {
      booking_reference: ["KC204815"],
      email: ["amelia.hart@mailbox.co.uk"],
      driver_name: ["Clara Hart", "Ben Hart", "Theo Lang", "Ella Hart"],
      driver_date_of_birth: ["2 August 1999", "10 January 2006", "3 March 1995", "5 November 2003"],
      licence_issued: ["June 2018", "September 2025"],
      extra: ["child seat", "roof box", "snow chains"],
      quantity: ["2", "3"],
      new_return_date: ["26 March 2026", "30 April 2026", "18 March 2026"],
      return_branch: ["Manchester Piccadilly", "Edinburgh Waverley", "Leeds"],
      other_booking_reference: ["KC318862"],
    },
    {
      booking_reference: ["KC318862"],
      email: ["jonah.price@fastmail.com"],
      driver_name: ["Maya Price"],
      driver_date_of_birth: ["2 April 2003"],
      extra: ["roof box", "wi-fi hotspot", "sat nav"],
      new_return_date: ["13 March 2026"],
      return_branch: ["Bristol Temple Meads"],
    },
    {
      booking_reference: ["KC559130"],
      email: ["s.marino@outlook.com"],
      new_return_date: ["17 March 2026", "15 March 2026", "5 April 2026", "12 March 2026"],
      return_branch: ["Manchester Piccadilly", "London King's Cross"],
      extra: ["sat nav"],
    },
    {
      booking_reference: ["KC771046"],
      email: ["marcus.webb@protonmail.com"],
      driver_name: ["Oscar Webb", "Ruth Adams"],
      driver_date_of_birth: ["30 September 2002", "11 November 1980"],
      licence_issued: ["May 2001"],
      extra: ["snow chains", "sat nav"],
      new_return_date: ["20 April 2026", "19 April 2026"],
    },
    {
      booking_reference: ["KC902377"],
      email: ["ravi.nair@yahoo.co.uk"],
      extra: ["roof box", "child seat"],
      quantity: ["1", "2"],
      new_return_date: ["24 April 2026", "25 April 2026"],
      return_branch: ["Manchester Piccadilly", "Edinburgh Waverley"],
    },
    {
      booking_reference: ["KC640255"],
      email: ["hannah.cole@gmail.com"],
      vehicle_class: ["SUV", "Economy"],
      pickup_date: ["2 April 2026", "1 March 2026"],
      return_date: ["6 April 2026", "15 May 2026"],
    },
  ],
  requests: [
    "how much would it cost to hire an SUV from 2 April to 6 April?",
    "what do I need to rent a car from you?",
    "I'd like to add my partner as a second driver",
    "can I add a child seat to my booking?",
    "I need to keep the car a few more days",
    "can I drop the car off at a different branch?",
    "please cancel my booking",
    "I've had an accident in the hire car",
  ],
};
