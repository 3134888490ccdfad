/**
 * Data of the seventh held-out testbed agent (`heldout7.ts`): Brackenfield Borough Council's resident services
 * desk. Streets and their collection days, resident accounts (parking permits, bulky-waste bookings, council
 * tax), the bulky-item price list, the keyword parsers, the reply templates and the facts a tester starts with.
 * The desk's calendar is fixed at {@link TODAY}; `freshDb()` hands each session its own copy.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The desk's "today": Friday 13 March 2026. */
export const TODAY = "2026-03-13";
export const COUNCIL = "Brackenfield Borough Council";

/* ---------- rules ---------- */

export const RULE = {
  ...{ maxItems: 6, leadWorkingDays: 2, maxAheadDays: 28, refundWorkingDays: 2, maxPermits: 2 },
  ...{ permitPrices: [60, 95] as const, renewWindowDays: 30, changeFee: 12 },
  ...{ visitorAllowance: 60, visitorPrice: 2.5, missedBinWorkingDays: 2, urgentDepthMm: 40 },
  ...{ discountRate: 0.25, yearStart: "2025-04-01", yearEnd: "2026-03-31" },
} as const;

/** Days with no collections besides weekends. */
export const BANK_HOLIDAYS: readonly string[] = ["2026-04-03", "2026-04-06", "2026-05-04"];

/* ---------- streets, items, accounts ---------- */

/** A street: its postcode, controlled parking zone (if any) and bin-round weekday (1 = Monday). */
export type Street = { name: string; postcode: string; zone?: string; binDay: number };
export const STREETS: readonly Street[] = [
  { name: "Alder Row", postcode: "BF2 4JN", zone: "B", binDay: 3 },
  { name: "Kestrel Way", postcode: "BF1 7QP", zone: "A", binDay: 4 },
  { name: "Mill Lane", postcode: "BF3 2LD", binDay: 2 },
  { name: "Orchard Close", postcode: "BF4 9HS", zone: "C", binDay: 5 },
  { name: "Station Road", postcode: "BF1 3AX", zone: "A", binDay: 1 },
  { name: "Quarry Hill", postcode: "BF3 8TE", binDay: 3 },
];

export type Item = { one: string; many: string; price: number; words: readonly string[] };
export const ITEMS: Readonly<Record<string, Item>> = {
  sofa: { one: "sofa", many: "sofas", price: 18, words: ["sofa", "settee", "couch"] },
  armchair: { one: "armchair", many: "armchairs", price: 10, words: ["armchair"] },
  mattress: { one: "mattress", many: "mattresses", price: 12, words: ["mattress"] },
  bedframe: { one: "bed frame", many: "bed frames", price: 10, words: ["bedframe", "divan"] },
  wardrobe: { one: "wardrobe", many: "wardrobes", price: 15, words: ["wardrobe"] },
  fridge: { one: "fridge freezer", many: "fridge freezers", price: 22, words: ["fridgefreezer", "fridge"] },
  washer: { one: "washing machine", many: "washing machines", price: 15, words: ["washingmachine"] },
  table: { one: "table", many: "tables", price: 8, words: ["table", "desk"] },
  chair: { one: "chair", many: "chairs", price: 4, words: ["chair"] },
  rug: { one: "carpet or rug", many: "carpets or rugs", price: 6, words: ["carpet", "rug"] },
  bike: { one: "bicycle", many: "bicycles", price: 5, words: ["bike", "bicycle"] },
  tv: { one: "television", many: "televisions", price: 8, words: ["tv", "television"] },
};
/** Things the bulky-waste crews won't take, by the word that names them. */
export const BANNED: Readonly<Record<string, string>> = Object.fromEntries(
  "piano:pianos hottub:hot_tubs rubble:rubble asbestos:asbestos tyre:tyres tire:tyres paint:paint soil:soil gasbottle:gas_bottles carbattery:car_batteries"
    .split(" ")
    .map((kv) => kv.replace(/_/g, " ").split(":")),
);

export type Permit = { reg: string; expires: string; ref: string };
export type Booking = { ref: string; date: string; items: Record<string, number>; fee: number };
/** Council tax: the 2025/26 charge and its overdue part; the 2026/27 bill and its monthly instalments. */
export type CouncilTax = { band: string; annual: number; arrears: number; next: number; months: 10 | 12 } & {
  discount: boolean;
};
export type Account = { id: string; name: string; house: string; street: string; postcode: string } & {
  permits: Permit[];
  visitorDaysUsed: number;
  bookings: Booking[];
  ctax: CouncilTax;
};
export type Db = { accounts: Record<string, Account> };

const ACCOUNTS: Account[] = [
  {
    ...{ id: "CT40118825", name: "Harriet Lowe", house: "14", street: "Alder Row", postcode: "BF2 4JN" },
    permits: [{ reg: "LK19 WXP", expires: "2026-04-02", ref: "PP-2210" }],
    visitorDaysUsed: 52,
    bookings: [{ ref: "BW-3907", date: "2026-03-17", items: { sofa: 1, armchair: 2 }, fee: 38 }],
    ctax: { band: "C", annual: 1823.4, arrears: 0, next: 1911.73, months: 10, discount: false },
  },
  {
    ...{ id: "CT40236617", name: "Daniel Osei", house: "3", street: "Kestrel Way", postcode: "BF1 7QP" },
    permits: [
      { reg: "BF68 KTT", expires: "2026-09-30", ref: "PP-1984" },
      { reg: "MX21 ODB", expires: "2026-04-13", ref: "PP-2047" },
    ],
    visitorDaysUsed: 12,
    bookings: [],
    ctax: { band: "D", annual: 2051.33, arrears: 312.5, next: 2150.7, months: 10, discount: false },
  },
  {
    ...{ id: "CT40355190", name: "Graham Pike", house: "27", street: "Mill Lane", postcode: "BF3 2LD" },
    permits: [],
    visitorDaysUsed: 0,
    bookings: [
      { ref: "BW-3881", date: "2026-03-13", items: { fridge: 1 }, fee: 22 },
      { ref: "BW-3894", date: "2026-03-16", items: { mattress: 1, bedframe: 1 }, fee: 22 },
    ],
    ctax: { band: "B", annual: 1195.61, arrears: 0, next: 1254.51, months: 12, discount: true },
  },
  {
    ...{ id: "CT40471034", name: "Sunita Rao", house: "8", street: "Orchard Close", postcode: "BF4 9HS" },
    permits: [],
    visitorDaysUsed: 0,
    bookings: [],
    ctax: { band: "E", annual: 2507.18, arrears: 0, next: 2628.57, months: 12, discount: false },
  },
];

/** A fresh deep copy of the seed records. */
export function freshDb(): Db {
  return structuredClone({ accounts: Object.fromEntries(ACCOUNTS.map((a) => [a.id, a])) });
}

/* ---------- calendar ---------- */

const DAY_MS = 86_400_000;
const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);
const DAYS = "sunday monday tuesday wednesday thursday friday saturday".split(" ");
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const addDays = (d: string, n: number) =>
  new Date(Date.parse(d) + n * DAY_MS).toISOString().slice(0, 10);
export const addYears = (d: string, n: number) => `${Number(d.slice(0, 4)) + n}${d.slice(4)}`;
export const weekday = (d: string) => new Date(Date.parse(d)).getUTCDay();
export const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
export const isWorkingDay = (d: string) => weekday(d) % 6 !== 0 && !BANK_HOLIDAYS.includes(d);
/** `n` working days after (or, negative, before) `d`. */
export function shiftWorkingDays(d: string, n: number): string {
  let out = d;
  for (let left = Math.abs(n); left > 0; ) {
    out = addDays(out, Math.sign(n));
    if (isWorkingDay(out)) left -= 1;
  }
  return out;
}
/** Working days after `from` up to and including `to`. */
export function workingDaysSince(from: string, to: string): number {
  let n = 0;
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isWorkingDay(d)) n += 1;
  return n;
}
/** "Tuesday 17 March 2026". */
export const longDate = (d: string) =>
  `${cap(DAYS[weekday(d)] ?? "")} ${Number(d.slice(8, 10))} ${cap(MONTHS[Number(d.slice(5, 7)) - 1] ?? "")} ${d.slice(0, 4)}`;
export const dayName = (n: number) => cap(DAYS[n] ?? "");
export const money = (n: number) =>
  `£${n.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Instalments of `total` over `n` months: the first carries the rounding remainder. */
export function instalments(total: number, n: number, dropRemainder: boolean): { one: number; rest: number } {
  const rest = Math.floor((total * 100) / n) / 100;
  return { one: dropRemainder ? rest : round2(total - rest * (n - 1)), rest };
}
export const upcoming = (a: Account) => a.bookings.filter((b) => b.date >= TODAY);
export const bookingRow = (b: Booking) =>
  `${b.ref}, ${longDate(b.date)}: ${itemList(b.items)} (${money(b.fee)})`;

/* ---------- parsers ---------- */

const NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");
/** A small count from a word or digits ("a", "couple", "7"). */
export function count(w: string): number | undefined {
  if (/^\d{1,3}$/.test(w)) return Number(w);
  if (w === "a" || w === "an") return 1;
  if (w === "couple" || w === "pair") return 2;
  const i = NUMBERS.indexOf(w);
  return i > 0 ? i : undefined;
}

const real = (y: number, m: number, d: number): string | undefined => {
  const s = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return m >= 1 && m <= 12 && !Number.isNaN(Date.parse(s)) && addDays(s, 0) === s ? s : undefined;
};
/** A date named in the text; a day without a year is the next one ahead (or, with `past`, the last one gone). */
export function findDate(l: string, past = false): string | undefined {
  if (/\btoday\b/.test(l)) return TODAY;
  if (/\btomorrow\b/.test(l)) return addDays(TODAY, 1);
  if (/\byesterday\b/.test(l)) return addDays(TODAY, -1);
  const y0 = Number(TODAY.slice(0, 4));
  const pick = (m: number, d: number, y?: string) => {
    if (y) return real(Number(y.length === 2 ? `20${y}` : y), m, d);
    const same = real(y0, m, d);
    if (!same) return undefined;
    if (past) return same <= TODAY ? same : real(y0 - 1, m, d);
    return same >= TODAY ? same : real(y0 + 1, m, d);
  };
  let m = /\b(20\d\d)-(\d\d)-(\d\d)\b/.exec(l);
  if (m) return real(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/.exec(l);
  if (m) return pick(Number(m[2]), Number(m[1]), m[3]);
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*";
  const monthOf = (w = "") => MONTHS.findIndex((x) => x.startsWith(w.slice(0, 3))) + 1;
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${mon}(?:,? (\\d{4}))?`).exec(l);
  if (m) return pick(monthOf(m[2]), Number(m[1]), m[3]);
  m = new RegExp(`\\b${mon} (\\d{1,2})(?:st|nd|rd|th)?\\b(?:,? (\\d{4}))?`).exec(l);
  if (m) return pick(monthOf(m[1]), Number(m[2]), m[3]);
  m = /\b(\d{1,2})(?:st|nd|rd|th)\b/.exec(l);
  if (m) {
    const [mo, d] = [Number(TODAY.slice(5, 7)), Number(m[1])];
    const here = real(y0, mo, d);
    if (past) return here && here <= TODAY ? here : real(y0, mo - 1, d);
    return here && here >= TODAY ? here : real(y0, mo + 1, d);
  }
  const w = new RegExp(`\\b(${DAYS.join("|")})\\b`).exec(l);
  if (w) {
    const ahead = (DAYS.indexOf(w[1] ?? "") - weekday(TODAY) + 7) % 7 || 7;
    return past ? addDays(TODAY, ahead - 7) : addDays(TODAY, ahead);
  }
  return undefined;
}

/** An account number ("CT40118825"; eight bare digits when one was asked for); "" when malformed. */
export function findAccount(t: string, asked: boolean): string | undefined {
  const m = /\bct[\s-]?(\d{8})\b/i.exec(t) ?? (asked ? /(?<![\d£.])(\d{8})(?![\d.])/.exec(t) : null);
  if (m) return `CT${m[1]}`;
  if (asked && (/\bct[\s-]?\d/i.test(t) || /\d{5,}/.test(t))) return "";
  return undefined;
}
/** A UK postcode, upper-case with one space. */
export function findPostcode(t: string): string | undefined {
  const m = /\b([a-z]{1,2}\d[a-z\d]?) ?(\d[a-z]{2})\b/i.exec(t);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : undefined;
}
export const samePostcode = (a: string, b: string) => a.replace(/\s/g, "") === b.replace(/\s/g, "");

/** Vehicle registrations in the text ("AB12 CDE"), normalised. */
export function findRegs(t: string): string[] {
  return [...t.matchAll(/\b([a-z]{2}\d{2}) ?([a-z]{3})\b/gi)].map((m) => `${m[1]} ${m[2]}`.toUpperCase());
}

/** A street of the borough, by name or postcode. */
export function findStreet(l: string): Street | undefined {
  const pc = findPostcode(l);
  return STREETS.find(
    (s) => l.includes(s.name.toLowerCase()) || (pc !== undefined && samePostcode(pc, s.postcode)),
  );
}

/** Items the text lists, with quantities; `banned` names one the crews refuse. */
export function findItems(l: string): { items: Record<string, number>; banned?: string } | undefined {
  const joined = l
    .replace(/\b\w+[\s-](seater|doors?|drawers?)\b/g, " ")
    .replace(/fridge[\s-]?freezers?/g, "fridgefreezer")
    .replace(/washing machines?/g, "washingmachine")
    .replace(/bed ?(frame|base)s?/g, "bedframe")
    .replace(/arm ?chairs?/g, "armchair")
    .replace(/hot ?tubs?/g, "hottub")
    .replace(/gas (bottle|cylinder)s?/g, "gasbottle")
    .replace(/car batter(y|ies)/g, "carbattery")
    .replace(/(couple|pair) of/g, "$1");
  const tokens = joined.split(/[^a-z0-9]+/).filter(Boolean);
  const idOf = (w: string) => {
    for (const form of [w, w.replace(/s$/, ""), w.replace(/es$/, "")]) {
      const id = Object.keys(ITEMS).find((k) => ITEMS[k]?.words.includes(form));
      if (id) return id;
    }
    return undefined;
  };
  const items: Record<string, number> = {};
  let banned: string | undefined;
  tokens.forEach((tok, i) => {
    const bad = BANNED[tok] ?? BANNED[tok.replace(/s$/, "")];
    if (bad) banned ??= bad;
    const id = idOf(tok);
    if (!id) return;
    let qty = 1;
    for (let j = i - 1; j >= Math.max(0, i - 3); j -= 1) {
      const w = tokens[j] ?? "";
      if (/^(and|plus|with|or|also)$/.test(w) || idOf(w)) break;
      const n = count(w);
      if (n !== undefined) {
        qty = n;
        break;
      }
    }
    items[id] = (items[id] ?? 0) + qty;
  });
  return Object.keys(items).length || banned ? { items, banned } : undefined;
}

/** "a sofa, 2 armchairs and a table". */
export function itemList(items: Record<string, number>): string {
  const parts = Object.entries(items).map(([id, n]) => {
    const it = ITEMS[id] as Item;
    return n === 1 ? `${/^[aeiou]/.test(it.one) ? "an" : "a"} ${it.one}` : `${n} ${it.many}`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "nothing");
}

/** A depth in millimetres ("5cm", "40 mm", "2 inches"; a bare number, in millimetres, when one was asked for). */
export function findDepth(l: string, asked: boolean): number | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(mm|millimet\w*|cm|centimet\w*|inch\w*|in\b|")/.exec(l);
  if (m) {
    const v = Number(m[1]);
    return Math.round(/^c/.test(m[2] ?? "") ? v * 10 : /^(i|")/.test(m[2] ?? "") ? v * 25 : v);
  }
  const bare = asked ? /^\D*?(\d{1,3})\D*$/.exec(l) : null;
  return bare ? Number(bare[1]) : undefined;
}

export function findBin(l: string): string | undefined {
  if (/\b(recycl\w*|blue)\b/.test(l)) return "recycling";
  if (/\b(garden|green)\b/.test(l)) return "garden waste";
  if (/\b(food|caddy)\b/.test(l)) return "food waste";
  if (/\b(general|black|grey|gray|rubbish|refuse|landfill|household)\b/.test(l)) return "general waste";
  return undefined;
}

/** A count followed by a unit matching `unit` (or, when asked, a lone count). */
export function findCount(l: string, unit: string, asked: boolean): number | undefined {
  const num = `(\\d{1,3}|${NUMBERS.slice(1).join("|")})`;
  const m = new RegExp(`\\b${num}[\\s-]+(?:more\\s+)?(?:${unit})\\b`).exec(l);
  const bare = asked && !m ? new RegExp(`^\\D*?\\b${num}\\b\\D*$`).exec(l) : null;
  const w = (m ?? bare)?.[1];
  return w === undefined ? undefined : count(w);
}

export function findAdults(l: string, asked: boolean): number | undefined {
  if (/\b(just me|only me|on my own|alone|by myself|only adult|sole adult|single occupant)\b/.test(l))
    return 1;
  if (/\b(me and my|my (partner|wife|husband) and (i|me))\b/.test(l)) return 2;
  return findCount(l, "adults?|people|persons|of us|grown-?ups", asked);
}

export function findMonths(l: string, asked: boolean): number | undefined {
  const n = findCount(l, "months?|monthly|instalments?|installments?|payments?", asked);
  return n === 10 || n === 12 ? n : undefined;
}

/** The position a reply picks from a numbered list ("2", "the second"). */
export function findPosition(l: string, n: number): number | undefined {
  const ord = ["first", "second", "third", "fourth"].findIndex((w) => new RegExp(`\\b${w}\\b`).test(l));
  const digit = /^\D*\b(\d)\b\D*$/.exec(l);
  const i = ord >= 0 ? ord : digit ? Number(digit[1]) - 1 : /\b(last|latter)\b/.test(l) ? n - 1 : -1;
  return i >= 0 && i < n ? i : undefined;
}

/* ---------- conversational patterns ---------- */

export const YES =
  /^\s*(yes|yeah|yep|yup|aye|sure|ok(ay)?|confirm(ed)?|go ahead|do it|please do|that'?s (right|correct|fine|it)|correct|sounds (good|right)|fine|great|lovely|perfect|absolutely|definitely)\b/;
export const NO =
  /^\s*(no|nope|nah|not (now|today|yet)|don'?t|stop|never ?mind|forget it|leave it|scrap (it|that)|actually,? no)\b/;
export const HUMAN =
  /\b(human|real person|a person|an adviser|an advisor|advis[eo]r|someone (real|in the office)|speak to (someone|somebody|a)|talk to (someone|somebody|a)|operator|call me back|customer services team|an agent)\b/;
export const BYE =
  /\b(thanks|thank you|cheers|ta|bye|goodbye|that'?s (all|everything)|nothing else|all done|no thanks)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening)|morning|afternoon)\b/;
export const HESITANT = /\b(but|wait|hang on|hold on|not sure|unsure|maybe|how much|what if)\b|\?/;

/** Request keywords, tried in order (the first match wins). */
export const INTENTS = [
  [
    "report_bin",
    /\b(missed (bin|collection)|bins? (was|were)(n'?t| not)|(wasn'?t|not|never) (been )?(collected|emptied))\b/,
  ],
  ["report_pothole", /\bpot ?holes?\b/],
  ["report", /\b(report (a |an )?(problem|issue|fault)|i want to report|make a report)\b/],
  [
    "hours",
    /\b(opening (hours|times)|when (are|is) (you|the \w+( hall)?) open|what time do you (open|close))\b/,
  ],
  [
    "waste_cancel",
    /\bcancel\w*\b.*\b(collection|bulky|pick-?up|booking|bw-?\d{4})|\b(collection|pick-?up)\b.*\bcancel/,
  ],
  [
    "waste_list",
    /\b(show|list|see|check|what are|view|have i|do i have)\b.*\b(bookings?|collections?)\b|\bmy (bulky )?(bookings?|collections)\b/,
  ],
  [
    "ctax_discount",
    /\b(single[- ]person|living (on my own|alone)|live (on my own|alone)|25 ?% (discount|off)|sole (occupant|adult))\b/,
  ],
  ["ctax_plan", /\b(instal+ments?|(10|12|ten|twelve) (months|monthly)|payment plan|spread (the|my) \w+)\b/],
  ["ctax_balance", /\bcouncil tax\b|\b(my balance|what do i owe|how much do i owe|my bill)\b/],
  ["prices", /\b(price list|prices|how much (is|are|does|do|would)|what (does|do) .* cost|charges|fees)\b/],
  [
    "waste_book",
    /\b(bulky|large items?|get rid of|dispose of|(collect|collection of|pick up|take away) (my |an |a |some |the |old )|book (a |an )?(collection|pick-?up))\b/,
  ],
  [
    "permit_change",
    /\b(chang\w*|updat\w*|swap\w*|replac\w*)\b.*\b(car|vehicle|reg(istration)?|number ?plate)\b|\bnew (car|vehicle)\b.*\bon (my|the) permit\b|\b(got|bought|have) a new (car|vehicle)\b/,
  ],
  ["permit_renew", /\brenew\w*\b/],
  ["visitor", /\bvisitor/],
  [
    "permit_list",
    /\b(show|list|see|check|view)\b.*\bpermits?\b|\b(my|which|what) permits\b|\bpermits? (do|have) i\b|\bdo i have (a |any )?(parking |residents?'? )?permits?\b/,
  ],
  ["permit_new", /\b(apply|get|need|want|buy|order)\b.*\bpermit|\bresidents?'? parking\b/],
] as const;
export type Intent = (typeof INTENTS)[number][0];
export const detectIntent = (l: string): Intent | undefined => INTENTS.find(([, re]) => re.test(l))?.[0];

/* ---------- designed states and wording ---------- */

const under = <P extends string, S extends string>(p: P, ...ids: S[]) => ids.map((s) => `${p}.${s}` as const);

/** The designed dialogue states: every reply enters exactly one. */
export const HELDOUT7_STATES = [
  ...(["greet", "fallback", "goodbye", "handoff", "dropped", "info.hours", "info.prices"] as const),
  ...under("id", "ask_account", "ask_postcode", "mismatch", "locked", "refused_other"),
  ...under("report", "ask_kind", "ask_street", "ask_bin", "refused_not_due", "refused_too_late"),
  ...under("report", "ask_depth", "confirm", "logged"),
  ...under("permit", "refused_no_zone", "refused_max", "ask_reg", "bad_reg", "refused_duplicate_reg"),
  ...under("permit", "confirm_new", "issued", "ask_which", "refused_renew_early", "confirm_renew", "renewed"),
  ...under("permit", "ask_new_reg", "confirm_change", "changed", "list"),
  ...under("visitor", "ask_days", "refused_allowance", "confirm", "done"),
  ...under("waste", "ask_items", "refused_item", "refused_too_many_items", "ask_date", "refused_closed_day"),
  ...under("waste", "refused_short_notice", "refused_too_far", "confirm", "booked", "list", "ask_which"),
  ...under("waste", "refused_same_day", "confirm_cancel", "cancelled"),
  ...under("ctax", "balance", "ask_plan", "refused_arrears", "confirm_plan", "plan_changed"),
  ...under(
    "ctax",
    "refused_already_discount",
    "ask_adults",
    "refused_adults",
    "ask_since",
    "refused_backdate",
  ),
  ...under("ctax", "confirm_discount", "discount_applied"),
];
export type State = (typeof HELDOUT7_STATES)[number];

const PHRASE_KEYS = [
  ...(["services", "more", "ask", "need_yes", "updated", "sorry", "signed_in", "queued", "noted"] as const),
  ...(["bad_account", "not_postcode", "thanks", "same_plan", "unknown_street"] as const),
  ...(["future_date", "none_to_act_on"] as const),
];
export type Phrase = (typeof PHRASE_KEYS)[number];

/** Two to four wordings per key; the session's seed picks one. `{x}` is filled from the reply's values. */
export const WORDING: Readonly<Record<State | Phrase, readonly string[]>> = {
  services: [
    "Without signing in you can ask about our opening hours and charges, or report a missed bin or a pothole. With your council tax account number and postcode I can also handle residents' and visitor parking permits, bulky-waste collections and council tax (balance, instalments, single-person discount).",
    "I can report missed bins and potholes and give you opening hours and fees straight away. Once you've signed in with your council tax account number and postcode, I can deal with parking permits (new, renewal, change of car, visitor days), bulky-waste collections and your council tax.",
  ],
  greet: [
    "Hello, this is the {council} resident services desk. {services} What do you need today?",
    "Welcome to {council}'s online help desk. {services} How can I help?",
  ],
  fallback: [
    "I'm sorry, I can't help with that here. {services} Is it one of those?",
    "That's not something I can deal with in this chat, I'm afraid. {services} Which of those would you like?",
  ],
  goodbye: ["Thanks for contacting {council}{name}. Goodbye!", "You're welcome{name}. Have a good day."],
  handoff: [
    "I'll pass you to one of our resident services advisers now. They'll see this chat, so you won't need to repeat yourself.",
    "Okay, I'm transferring you to an adviser at the Civic Hall. Please stay in the chat; someone will pick it up shortly.",
  ],
  queued: [
    "You're in the queue for an adviser, thanks for your patience.",
    "An adviser will join this chat as soon as one is free.",
  ],
  dropped: [
    "Okay, I haven't changed anything. Is there something else I can help with?",
    "No problem, that's been left as it was. Anything else?",
  ],
  "info.hours": [
    "The customer service centre at the Civic Hall, Market Square, is open Monday to Thursday 8:30 to 17:00 and Friday 8:30 to 16:30; the phone line keeps the same hours and this chat is open around the clock. {more}",
    "You can visit us at the Civic Hall (Market Square) from 8:30 to 17:00 Monday to Thursday, and 8:30 to 16:30 on Fridays. Phone lines follow those hours; this desk never closes. {more}",
  ],
  "info.prices": [
    "Current charges. Bulky waste, per item: {items}; up to {maxItems} items per collection, weekdays only, booked at least {lead} working days ahead. Residents' parking permits: {first} for the first vehicle and {second} for the second (at most {maxPermits} per household), {change} to change the vehicle on a permit. Visitor permits: {visitor} a day, {allowance} days per household per calendar year. {more}",
    "Here are our fees. Bulky-waste items: {items} (maximum {maxItems} per collection, Monday to Friday, {lead} working days' notice). Residents' permits cost {first} a year for the first car and {second} for a second; no household can hold more than {maxPermits}. Changing the car on a permit is {change}. Visitor days are {visitor} each, up to {allowance} a year. {more}",
  ],
  "id.ask_account": [
    "{bad}I'll need to sign you in first. What's your council tax account number? It starts with CT and is printed on your bill.",
    "{bad}For that I need to find your account. Could you give me your council tax account number (CT followed by eight digits)?",
  ],
  "id.ask_postcode": [
    "{hint} And the postcode of the property on that account?",
    "{hint} To check it's you, what's the postcode of the property?",
  ],
  "id.mismatch": [
    "Sorry, that account number and postcode don't match our records ({left}). Please check them and send the postcode again, or a corrected account number.",
    "I couldn't match those details to an account ({left}). Could you re-check the postcode (or the account number)?",
  ],
  "id.locked": [
    "I'm sorry, that's three unsuccessful attempts, so I can't sign you in on this chat today. An adviser can confirm your identity another way. Shall I transfer you?",
    "For security, sign-in is now blocked on this chat after too many failed attempts. Would you like me to put you through to an adviser?",
  ],
  "id.refused_other": [
    "I can only discuss the account you're signed in to. Information about other households is confidential. {more}",
    "Sorry, I can't share details of another resident's account, even with their account number. {more}",
  ],
  "report.ask_kind": [
    "I can log a missed bin collection or a pothole. Which is it?",
    "What would you like to report: a missed bin or a pothole?",
  ],
  "report.ask_street": [
    "{hint}Which street is it on? A street name or postcode is fine.",
    "{hint}Where is it, please? Give me the street name or the postcode.",
  ],
  "report.ask_bin": [
    "{street} is collected on {day}s. Which bin was missed: general waste, recycling, garden or food waste?",
    "Thanks. The {street} round is on {day}. Which bin wasn't emptied (general, recycling, garden or food)?",
  ],
  "report.refused_not_due": [
    "{street} is being collected today. Crews work until 18:00, so please report it from tomorrow if the bin is still full. {more}",
    "Today is collection day for {street} and the crews are still out (until 6pm). If it hasn't been emptied by then, report it tomorrow. {more}",
  ],
  "report.refused_too_late": [
    "The last collection on {street} was {date}. Missed bins need reporting within {limit} working days of collection day, so I can't log this one; your bin will be emptied on the next round, {next}. {more}",
    "A missed bin has to be reported within {limit} working days, and the {street} collection was on {date}. It's too late to send a crew back, but the next collection is {next}. {more}",
  ],
  "report.ask_depth": [
    "Roughly how deep is the pothole? Millimetres or centimetres are both fine.",
    "How deep would you say it is (in mm or cm)?",
  ],
  "report.confirm": ["I'll log: {what}. {ask}", "Here's the report I'll send to the team: {what}. {ask}"],
  "report.logged": [
    "Logged, thank you. Your reference is {ref}. {outcome} {more}",
    "That's been reported (reference {ref}). {outcome} {more}",
  ],
  "permit.refused_no_zone": [
    "{street} isn't in a controlled parking zone, so there are no resident or visitor permits for it; parking there is unrestricted. {more}",
    "There's no permit scheme on {street}: it's outside all of our parking zones. {more}",
  ],
  "permit.refused_max": [
    "Your household already holds {count} residents' permits ({regs}), which is the maximum of {max}. {more}",
    "Each household can have at most {max} residents' permits and you have {count} already ({regs}), so I can't issue another. {more}",
  ],
  "permit.ask_reg": [
    "This would be a zone {zone} permit for {street}. What's the vehicle's registration number?",
    "You're in parking zone {zone}. Which vehicle is the permit for? Please give me the registration.",
  ],
  "permit.bad_reg": [
    "That doesn't look like a registration number; I'm expecting something like AB12 CDE. What's the registration?",
    "I couldn't read a registration there (the format is two letters, two numbers, three letters). Could you type it again?",
  ],
  "permit.refused_duplicate_reg": [
    "{reg} already has a residents' permit, so I can't issue a second one for it. Is there another registration?",
    "There's already a permit for {reg}. Which other vehicle did you mean?",
  ],
  "permit.confirm_new": [
    "A zone {zone} residents' permit for {reg}, valid from today until {expires}, costing {fee} (permit {n} of {max} for your household). {ask}",
    "So: permit for {reg} in zone {zone}, running to {expires}. The charge is {fee}, as permit {n} of {max}. {ask}",
  ],
  "permit.issued": [
    "Done. Permit {ref} for {reg} is active now and runs to {expires}; {fee} has been added to your account. {more}",
    "Your permit for {reg} is live (reference {ref}), valid until {expires}. The {fee} fee will show on your account. {more}",
  ],
  "permit.ask_which": [
    "Which permit do you mean?\n{list}",
    "You have more than one permit:\n{list}\nWhich one?",
  ],
  "permit.refused_renew_early": [
    "The permit for {reg} runs until {expires}. Renewals open {window} days before expiry, so you can renew it from {opens}. {more}",
    "It's too early to renew {reg}: it expires on {expires} and renewal opens on {opens} ({window} days before). {more}",
  ],
  "permit.confirm_renew": [
    "Renewing the permit for {reg}: it currently ends {expires}, and will then run to {until}. The renewal costs {fee}. {ask}",
    "I'll extend {reg}'s permit from {expires} to {until} for {fee}. {ask}",
  ],
  "permit.renewed": [
    "Renewed. The permit for {reg} is now valid until {until}; {fee} has been charged. {more}",
    "All done: {reg} is covered until {until}, and {fee} has been added to your account. {more}",
  ],
  "permit.ask_new_reg": [
    "What's the registration of the new vehicle for the {reg} permit?",
    "And the new car's registration number, to replace {reg}?",
  ],
  "permit.confirm_change": [
    "I'll move permit {ref} from {reg} to {to}. The expiry date stays {expires}, and there's an admin fee of {fee}. {ask}",
    "Changing the vehicle on permit {ref}: {reg} out, {to} in, same expiry ({expires}), fee {fee}. {ask}",
  ],
  "permit.changed": [
    "Updated. Permit {ref} now covers your new vehicle; the {fee} fee has been added to your account. {more}",
    "That's changed: permit {ref} is on the new registration, and {fee} will show on your account. {more}",
  ],
  "permit.list": [
    "{hint}Permits on your household ({address}):\n{rows}\nVisitor days used this year: {used} of {allowance}. {more}",
    "{hint}Here's what you hold at {address}:\n{rows}\nVisitor days: {used} of {allowance} used in {year}. {more}",
  ],
  "visitor.ask_days": [
    "Your household has {left} of its {allowance} visitor days left this year, at {price} a day. How many would you like?",
    "You can still buy {left} visitor days this year ({price} each). How many do you need?",
  ],
  "visitor.refused_allowance": [
    "You only have {left} visitor days left this year (the allowance is {allowance}), so I can't sell {days}. How many would you like instead?",
    "{days} days would take you over the yearly allowance of {allowance}; you have {left} left. How many shall I add?",
  ],
  "visitor.confirm": [
    "{days} visitor days for zone {zone}, costing {fee}. That leaves {after} for the rest of the year. {ask}",
    "That's {days} visitor days at {price} each, {fee} in total, leaving {after} this year. {ask}",
  ],
  "visitor.done": [
    "Done. {days} visitor days are on your account (order {ref}); activate one in the app whenever a guest arrives. {more}",
    "Your {days} visitor days are ready to use, order {ref}. {more}",
  ],
  "waste.ask_items": [
    "What would you like collected? Up to {max} items, for example a sofa, a fridge freezer and two chairs.",
    "Which items are going? You can have up to {max} per collection.",
  ],
  "waste.refused_item": [
    "We can't take {what} in a bulky-waste collection; please use the Brackenfield recycling centre on Quarry Road for those. What else should we collect?",
    "Bulky-waste crews don't collect {what}. The Quarry Road recycling centre accepts them. Which other items shall I book?",
  ],
  "waste.refused_too_many_items": [
    "That's {n} items, but one collection can take at most {max}. Which items shall I book this time?",
    "A single booking is limited to {max} items and that list has {n}. Could you trim it down?",
  ],
  "waste.ask_date": [
    "Collections run Monday to Friday. Which day would suit you? The earliest available is {earliest}.",
    "What date would you like? Any weekday from {earliest} up to {latest}.",
  ],
  "waste.refused_closed_day": [
    "There are no collections on {date} ({why}). Which weekday would you like instead?",
    "Crews don't collect on {date}, as it's {why}. Could you pick another day?",
  ],
  "waste.refused_short_notice": [
    "{date} is too soon: collections need booking at least {lead} working days ahead, so the earliest is {earliest}. Which day instead?",
    "We need {lead} working days' notice, so the first day I can offer is {earliest}, not {date}. What other day would work?",
  ],
  "waste.refused_too_far": [
    "I can only book up to {days} days ahead (until {latest}), so {date} is too far off. Which date instead?",
    "Bookings open {days} days in advance; {date} is beyond {latest}. Could you choose an earlier day?",
  ],
  "waste.confirm": [
    "Bulky-waste collection on {date} from {address}: {items}. The charge is {fee}. Please leave everything at the front boundary by 7am. {ask}",
    "Here's the booking: {items}, collected from {address} on {date}, for {fee}. {ask}",
  ],
  "waste.booked": [
    "Booked for {date}, reference {ref}. {fee} has been added to your account. {more}",
    "Your collection is booked (reference {ref}) for {date}; the {fee} fee will appear on your account. {more}",
  ],
  "waste.list": [
    "{hint}Your bulky-waste bookings:\n{rows}\n{more}",
    "{hint}Here are your collections:\n{rows}\n{more}",
  ],
  "waste.ask_which": [
    "Which collection should I cancel?\n{list}",
    "You have these bookings:\n{list}\nWhich one is being cancelled?",
  ],
  "waste.refused_same_day": [
    "Collection {ref} is today, and the crew is already on its round, so it can no longer be cancelled. {more}",
    "I can't cancel {ref}: it's booked for today and the crew is out. {more}",
  ],
  "waste.confirm_cancel": [
    "Cancelling collection {ref} on {date} ({items}). {refund} {ask}",
    "You'd like to cancel {ref}, {date}, for {items}. {refund} {ask}",
  ],
  "waste.cancelled": [
    "Collection {ref} has been cancelled. {refund} {more}",
    "That's cancelled ({ref}). {refund} {more}",
  ],
  "ctax.balance": [
    "{hint}Council tax for {address} (band {band}):\n{rows}\n{more}",
    "{hint}Here's your council tax account, {name}:\n{rows}\n{more}",
  ],
  "ctax.ask_plan": [
    "{hint}Your 2026/27 bill of {bill} is currently spread over {months} monthly instalments. Would you like 10 or 12?",
    "{hint}At the moment you pay the {bill} for 2026/27 in {months} instalments. Which would you prefer, 10 or 12 months?",
  ],
  "ctax.refused_arrears": [
    "There's {arrears} overdue on your 2025/26 council tax, and the instalment plan can't be changed until that's cleared. {more}",
    "I can't change your payment plan while {arrears} from this year is unpaid. Once it's settled you can switch. {more}",
  ],
  "ctax.confirm_plan": [
    "Switching 2026/27 to {months} instalments: {first} on 1 April 2026, then {rest} on the 1st of each month until {last}. {ask}",
    "Your {bill} would be paid in {months} instalments: the first of {first} on 1 April, then {rest} a month, the last on {last}. {ask}",
  ],
  "ctax.plan_changed": [
    "Your plan is now {months} monthly instalments, first payment {first} on 1 April 2026. A new bill will follow by post. {more}",
    "Done: {months} instalments from April ({first}, then {rest} a month). We'll post an updated bill. {more}",
  ],
  "ctax.refused_already_discount": [
    "Your account already has the single-person discount. {more}",
    "The 25% single-person discount is already on your bill. {more}",
  ],
  "ctax.ask_adults": [
    "The single-person discount takes 25% off if you're the only adult (18 or over) living at the property. How many adults live there, including you?",
    "To check eligibility: how many people aged 18 or over live at the address, counting yourself?",
  ],
  "ctax.refused_adults": [
    "With {adults} adults living at the property, the single-person discount doesn't apply; it's only for homes with one adult. {more}",
    "I'm afraid the discount is only for homes where one adult lives, and you've said there are {adults}. {more}",
  ],
  "ctax.ask_since": [
    "{hint}From what date have you been the only adult there?",
    "{hint}Since when have you lived there as the only adult?",
  ],
  "ctax.refused_backdate": [
    "I can only backdate the discount to the start of this financial year, {start}, so not to {date}. From what date on or after that should it apply?",
    "The discount can't go back further than {start}; {date} is earlier than that. Which date from {start} onwards?",
  ],
  "ctax.confirm_discount": [
    "Single-person discount from {since}: a credit of {credit} on 2025/26, and your 2026/27 bill drops from {bill} to {after}. You must tell us if another adult moves in. {ask}",
    "Applying 25% off from {since}. That's {credit} back on this year's account, and next year's bill goes from {bill} to {after}. {ask}",
  ],
  "ctax.discount_applied": [
    "The discount is applied from {since}. {credit} has been credited and your 2026/27 bill is now {after}. {more}",
    "Done: single-person discount from {since}, a {credit} credit, and {after} for 2026/27. {more}",
  ],
  more: ["Anything else I can help with?", "Is there anything else?", "Can I help with something else?"],
  ask: [
    "Shall I go ahead? Reply yes, or tell me what to change.",
    "Is that all correct? Say yes to confirm or tell me what's different.",
    "Do you want me to do that? Yes, or let me know what to change.",
  ],
  need_yes: ["I won't go ahead without a clear yes.", "Nothing has been done yet; I need a yes first."],
  updated: ["Okay, I've changed that.", "Sure, updated.", "No problem, amended."],
  sorry: ["Sorry, I didn't understand that.", "I'm not sure I followed that.", "Sorry, I didn't catch that."],
  signed_in: ["Thanks, {name}, you're signed in.", "Thank you, {name}, I've found your account."],
  noted: ["Thanks, I've noted that.", "Thanks, got that."],
  bad_account: [
    "That doesn't look like an account number. ",
    "Council tax account numbers are CT plus eight digits. ",
  ],
  not_postcode: ["That doesn't look like a postcode.", "I need a postcode, such as BF1 2AB."],
  thanks: ["Thank you.", "Got it, thanks."],
  same_plan: ["You're already on {months} instalments. ", "That's your current plan ({months} months). "],
  unknown_street: [
    "I can't find that street in Brackenfield. ",
    "That doesn't match a street in the borough. ",
  ],
  future_date: ["That date is still to come. ", "That's in the future. "],
  none_to_act_on: ["There's nothing there I can change. ", "There isn't one to change. "],
};

/** What a tester playing Brackenfield residents knows before it starts. */
export const HELDOUT7_FACTS: Facts = {
  personas: [
    {
      account_number: ["CT40118825"],
      postcode: ["BF2 4JN"],
      name: ["Harriet Lowe"],
      address: ["14 Alder Row"],
      vehicle_reg: ["LK19 WXP"],
      new_vehicle_reg: ["KM24 ZRT", "BF68 KTT"],
      bulky_items: ["a sofa and 3 chairs", "a fridge freezer", "a piano", "2 sofas, 3 chairs and 2 tables"],
      collection_date: ["Tuesday 17 March", "Thursday 19 March", "Monday 16 March", "Saturday 21 March"],
      booking_to_cancel: ["BW-3907"],
      visitor_days: ["8", "10"],
      instalments: ["12", "10"],
      adults_at_home: ["1"],
      alone_since: ["1 September 2025", "1 January 2025"],
    },
    {
      account_number: ["CT40236617"],
      postcode: ["BF1 7QP"],
      name: ["Daniel Osei"],
      address: ["3 Kestrel Way"],
      vehicle_reg: ["BF68 KTT", "MX21 ODB"],
      new_vehicle_reg: ["YD22 HNA"],
      instalments: ["12"],
      adults_at_home: ["2"],
      other_account_number: ["CT40118825"],
    },
    {
      account_number: ["CT40355190"],
      postcode: ["BF3 2LD"],
      name: ["Graham Pike"],
      address: ["27 Mill Lane"],
      vehicle_reg: ["GP63 LNE"],
      booking_to_cancel: ["BW-3881", "BW-3894"],
      instalments: ["10"],
    },
    {
      account_number: ["CT40471034"],
      postcode: ["BF4 9HS"],
      name: ["Sunita Rao"],
      address: ["8 Orchard Close"],
      vehicle_reg: ["SR21 KLM"],
      bulky_items: ["a wardrobe and a mattress"],
      collection_date: ["Wednesday 18 March", "10 April", "13 April"],
      visitor_days: ["20"],
    },
    {
      street: ["Alder Row", "Kestrel Way", "Mill Lane", "Orchard Close", "Station Road"],
      bin: ["general waste", "recycling"],
      pothole_depth: ["40mm", "39mm", "6cm"],
    },
  ],
  requests: [
    "what are your opening hours?",
    "how much does a bulky waste collection cost?",
    "my bin wasn't collected",
    "I want to report a pothole",
    "I'd like a residents' parking permit",
    "I need to renew my parking permit",
    "I've changed my car and need to update my permit",
    "can I buy some visitor permits?",
    "I want to book a bulky waste collection",
    "please cancel my bulky collection",
    "what's my council tax balance?",
    "can I pay my council tax over 12 months?",
    "I live alone, can I get the single person discount?",
  ],
};
