/**
 * Data of the parcel-carrier testbed agent (`parcel.ts`): Swiftline Parcels' seed database (recipients with
 * their one-time codes, parcels in every stage of delivery), the service area, public holidays, reply
 * templates and the facts a tester starts with. `freshDb()` returns a deep copy, so one session's writes never
 * leak into the next. The calendar is fixed at {@link TODAY}, so delivery windows and overdue parcels are
 * deterministic.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The carrier's "today" (ISO date): Wednesday 17 December 2025. */
export const TODAY = "2025-12-17";

/** The carrier's rules. */
export const MIN_DAYS_AHEAD = 1;
export const MAX_DAYS_AHEAD = 10;
export const MIN_PART_PAYMENT = 5;
export const HIGH_VALUE = 500;
export const OVERDUE_DAYS = 5;
export const MAX_CODE_TRIES = 3;
export const MAX_POSTCODE_TRIES = 2;

/** Public holidays (no deliveries). */
export const HOLIDAYS: Readonly<Record<string, string>> = {
  "2025-12-25": "Christmas Day",
  "2025-12-26": "Boxing Day",
  "2026-01-01": "New Year's Day",
};

/** The service area: ranges of the postcode's four digits, with the city they cover. */
export const SERVICE_AREA: readonly { from: number; to: number; city: string }[] = [
  { from: 1000, to: 1109, city: "Amsterdam" },
  { from: 2490, to: 2599, city: "The Hague" },
  { from: 3000, to: 3089, city: "Rotterdam" },
  { from: 3500, to: 3585, city: "Utrecht" },
  { from: 5600, to: 5658, city: "Eindhoven" },
  { from: 9700, to: 9747, city: "Groningen" },
];

export const MONTHS =
  "january february march april may june july august september october november december".split(" ");
export const WEEKDAYS = "sunday monday tuesday wednesday thursday friday saturday".split(" ");

const DAY = 86_400_000;
export const addDays = (iso: string, n: number) =>
  new Date(Date.parse(iso) + n * DAY).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / DAY);
const title = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());
export const weekday = (iso: string) => new Date(Date.parse(iso)).getUTCDay();

const iso = (y: number, m: number, d: number) => {
  const s = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return m >= 1 && m <= 12 && d >= 1 && d <= 31 && new Date(Date.parse(s)).toISOString().slice(0, 10) === s
    ? s
    : null;
};

/** A day and month without a year: this year, or next year when that date has already passed. */
const upcoming = (m: number, d: number) => {
  const y = Number(TODAY.slice(0, 4));
  const here = iso(y, m, d);
  if (here === null) return iso(y + 1, m, d);
  return here < TODAY ? iso(y + 1, m, d) : here;
};

/**
 * A delivery date in the text as ISO: 2025-12-19, 19/12(/2025), 19 December, December 19th, "the 23rd",
 * Friday, next Monday, tomorrow. Null when it names an impossible date (31/02), undefined when it names none.
 */
export function findDate(t: string): string | null | undefined {
  const l = t.toLowerCase();
  const month = (w: string) => MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3))) + 1;
  let m = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(l);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  const dm = (d: number, mo: number, y?: string) =>
    y ? iso(y.length === 2 ? 2000 + Number(y) : Number(y), mo, d) : upcoming(mo, d);
  m = /\b(\d{1,2})[/-](\d{1,2})(?:[/-](\d{2}|\d{4}))?\b/.exec(l);
  if (m) return dm(Number(m[1]), Number(m[2]), m[3]);
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon}(?:,?\\s+(\\d{4}))?\\b`).exec(l);
  if (m) return dm(Number(m[1]), month(m[2] ?? ""), m[3]);
  m = new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`).exec(l);
  if (m) return dm(Number(m[2]), month(m[1] ?? ""), m[3]);
  m = /\bthe\s+(\d{1,2})(?:st|nd|rd|th)?\b|\b(\d{1,2})(?:st|nd|rd|th)\b/.exec(l);
  if (m) {
    const d = Number(m[1] ?? m[2]);
    const [y, mo] = [Number(TODAY.slice(0, 4)), Number(TODAY.slice(5, 7))];
    if (d >= Number(TODAY.slice(8))) return iso(y, mo, d);
    return mo === 12 ? iso(y + 1, 1, d) : iso(y, mo + 1, d);
  }
  if (/\bday after tomorrow\b/.test(l)) return addDays(TODAY, 2);
  if (/\btomorrow\b/.test(l)) return addDays(TODAY, 1);
  if (/\btoday\b/.test(l)) return TODAY;
  const wd = WEEKDAYS.findIndex((w) => new RegExp(`\\b${w}\\b`).test(l));
  if (wd >= 0) {
    const ahead = (wd - weekday(TODAY) + 7) % 7 || 7;
    return addDays(TODAY, ahead + (/\bweek after next\b/.test(l) ? 7 : 0));
  }
  return undefined;
}

/** A tracking number ("SW20481137"; eight bare digits when one was asked for); null if malformed. */
export function findTracking(t: string, asked: boolean): string | null | undefined {
  const m = /\bsw[\s-]?(\d{8})\b/i.exec(t) ?? (asked ? /(?<![\d.,€])\b(\d{8})\b(?![.,]\d)/.exec(t) : null);
  if (m) return `SW${m[1]}`;
  if (asked && /\b(sw\s?)?\d{3,}\b/i.test(t)) return null;
  return undefined;
}

const NOT_LETTERS = new Set(
  "am an as at be by do go he if in is it me my no of ok on or so to up us we".split(" "),
);

/** A postcode ("3511 KT", "3511kt") in the text, normalised; null when only a malformed one was given. */
export function findPostcode(t: string, asked: boolean): string | null | undefined {
  for (const m of t.matchAll(/\b(\d{4})\s?([a-z]{2})\b/gi)) {
    const letters = (m[2] ?? "").toLowerCase();
    if (!NOT_LETTERS.has(letters)) return `${m[1]} ${letters.toUpperCase()}`;
  }
  if (asked && /\b\d{3,5}\b/.test(t)) return null;
  return undefined;
}

/** The city of a postcode in the service area, if it is in it. */
export function serviceCity(postcode: string): string | undefined {
  const n = Number(postcode.slice(0, 4));
  return SERVICE_AREA.find((a) => n >= a.from && n <= a.to)?.city;
}

/** A euro amount ("€20", "20 euros", "12.50"; a bare number when one was asked for). */
export function findAmount(l: string, asked: boolean): number | undefined {
  const num = "(\\d{1,5}(?:[.,]\\d{1,2})?)";
  const m =
    new RegExp(`€\\s?${num}`).exec(l) ??
    new RegExp(`\\b${num}\\s?(?:euros?|eur)\\b`).exec(l) ??
    (asked ? new RegExp(`^\\D*?(?<![\\d])${num}(?![\\d])\\D*$`).exec(l) : null);
  return m ? Number((m[1] ?? "").replace(",", ".")) : undefined;
}

/** The last four digits of a card ("card ending 4821"; four bare digits when they were asked for). */
export function findCard(l: string, asked: boolean): string | null | undefined {
  const m =
    /\b(?:end(?:s|ing)?(?: in| with)?|last (?:four|4)(?: digits)?(?: are| is)?|card)\D{0,12}?(\d{4})\b(?!\s?[a-z]{2}\b)/.exec(
      l,
    ) ?? (asked ? /^\D*\b(\d{4})\b\D*$/.exec(l) : null);
  if (m) return m[1];
  if (asked && /\d/.test(l)) return null;
  return undefined;
}

/** Where a driver may leave a parcel: key, how the customer says it, how the instruction reads. */
export const PLACES: readonly [string, RegExp, string][] = [
  ["porch", /\bporch\b/, "on the porch"],
  ["garage", /\bgarage\b/, "in the garage"],
  ["shed", /\bshed\b/, "in the shed"],
  ["back garden", /\b(back ?garden|garden)\b/, "in the back garden"],
  ["neighbour", /\bneighbou?rs?\b/, "with the neighbour"],
];

/** Words of a damage or loss description volunteered before it is asked for. */
const DETAIL =
  /\b(crushed|smashed|cracked|shattered|broken|dented|torn|soaked|wet|scratched|leaking|never (arrived|came)|not arrived|hasn'?t arrived)\b/;

const STREET =
  /\b((?:(?:van|de|der|den|ten|ter|het|oude|nieuwe|lange|korte)\s)*[a-z][a-z'-]*(?:straat|weg|laan|gracht|plein|kade|singel|dijk|markt|steeg|pad|hof|park|dreef|street|road|lane|avenue))\s+(\d{1,4}[a-z]?)\b/;

/** A street and house number ("Biltstraat 41"; any "words number" when an address was asked for). */
export function findStreet(l: string, asked: boolean): string | undefined {
  const loose =
    /^(?:(?:it'?s|its|the address is|address|to|at|please|send it to|use)\s+)*([a-z][a-z' -]*?[a-z])\s+(\d{1,4}[a-z]?)\b/;
  const m = STREET.exec(l) ?? (asked ? loose.exec(l.trim()) : null);
  return m ? title(`${m[1]} ${m[2]}`) : undefined;
}

/** The number of the neighbour's house ("number 14", "neighbour at 14"; a bare number when it was asked for). */
export function findHouse(l: string, asked: boolean): string | undefined {
  const m =
    /\b(?:number|no\.?|nr\.?|house)\s*(\d{1,4}[a-z]?)\b/.exec(l) ??
    /\bneighbou?rs? (?:at|in) (\d{1,4}[a-z]?)\b/.exec(l) ??
    (asked ? /\b(\d{1,4}[a-z]?)\b/.exec(l) : null);
  return m?.[1];
}

/** What happened to the parcel: any answer when it was asked for, else the clause naming damage or loss. */
export function findDescription(t: string, asked: boolean): string | undefined {
  const said = t.replace(/\s+/g, " ").trim();
  const l = said.toLowerCase();
  if (asked ? !/[a-z]{3}/.test(l) || NO.test(l) : !DETAIL.test(l)) return undefined;
  const clause = asked ? said : (said.split(/[.?!;]+/).find((c) => DETAIL.test(c.toLowerCase())) ?? said);
  return clause.trim().replace(/[.!]+$/, "");
}

/** A text without its tracking numbers. */
export const stripTracking = (t: string) => t.replace(/\bsw[\s-]?\d{8}\b/gi, " ");

/** A parcel's stage. */
export type Status = "in_transit" | "out_for_delivery" | "delivered" | "customs";

/** Someone parcels are addressed to: the mobile's last two digits and the one-time code sent to it. */
export interface Recipient {
  id: string;
  name: string;
  mobile: string;
  code: string;
}

/** A parcel: stage, expected (or actual) delivery day, declared value, duty due and the delivery address. */
export interface Parcel {
  id: string;
  recipient: string;
  sender: string;
  contents: string;
  status: Status;
  expected: string;
  declared: number;
  signature: boolean;
  dutyDue: number;
  street: string;
  postcode: string;
  city: string;
  lastScan: string;
  safePlace?: string;
}

/** The whole database one session works on. */
export interface Db {
  recipients: Record<string, Recipient>;
  parcels: Record<string, Parcel>;
}

const RECIPIENTS: Recipient[] = [
  { id: "R1", name: "Lena de Vries", mobile: "47", code: "482913" },
  { id: "R2", name: "Marco Rossi", mobile: "83", code: "305174" },
  { id: "R3", name: "Sofia Jansen", mobile: "19", code: "771206" },
  { id: "R4", name: "Tom Bakker", mobile: "62", code: "619058" },
  { id: "R5", name: "Anna Visser", mobile: "05", code: "240687" },
];

const parcel = (p: Omit<Parcel, "dutyDue" | "signature"> & Partial<Parcel>): Parcel => ({
  dutyDue: 0,
  signature: false,
  ...p,
});

const PARCELS: Parcel[] = [
  parcel({
    ...{ id: "SW20481137", recipient: "R1", sender: "Nordwear", contents: "clothing" },
    ...{ status: "in_transit", expected: "2025-12-18", declared: 45, lastScan: "Utrecht sorting centre" },
    ...{ street: "Oudegracht 112", postcode: "3511 KT", city: "Utrecht" },
  }),
  parcel({
    ...{ id: "SW20481195", recipient: "R1", sender: "Bookhaven", contents: "books" },
    ...{
      status: "in_transit",
      expected: "2025-12-09",
      declared: 80,
      lastScan: "Tilburg depot on 8 December",
    },
    ...{ street: "Oudegracht 112", postcode: "3511 KT", city: "Utrecht" },
  }),
  parcel({
    ...{ id: "SW31550862", recipient: "R2", sender: "Kitchenly", contents: "a coffee grinder" },
    ...{ status: "out_for_delivery", expected: TODAY, declared: 60, lastScan: "Amsterdam West depot" },
    ...{ street: "Keizersgracht 450", postcode: "1017 CT", city: "Amsterdam" },
  }),
  parcel({
    ...{ id: "SW47002318", recipient: "R3", sender: "Lumen Home", contents: "a table lamp" },
    ...{
      status: "delivered",
      expected: "2025-12-12",
      declared: 120,
      lastScan: "delivered to the front door",
    },
    ...{ street: "Lange Poten 7", postcode: "2513 AA", city: "The Hague" },
  }),
  parcel({
    ...{ id: "SW58839904", recipient: "R4", sender: "Trailpeak (USA)", contents: "hiking boots" },
    ...{
      status: "customs",
      expected: "2025-12-19",
      declared: 150,
      dutyDue: 38.4,
      lastScan: "Schiphol customs",
    },
    ...{ street: "Stratumseind 21", postcode: "5611 AZ", city: "Eindhoven" },
  }),
  parcel({
    ...{ id: "SW69127745", recipient: "R5", sender: "Visser & Co Notaries", contents: "legal documents" },
    ...{
      status: "in_transit",
      expected: "2025-12-19",
      declared: 220,
      signature: true,
      lastScan: "Zwolle hub",
    },
    ...{ street: "Oude Ebbingestraat 30", postcode: "9711 LM", city: "Groningen" },
  }),
  parcel({
    ...{ id: "SW69127790", recipient: "R5", sender: "Fotomax", contents: "a camera" },
    ...{ status: "in_transit", expected: "2025-12-20", declared: 1200, lastScan: "Zwolle hub" },
    ...{ street: "Oude Ebbingestraat 30", postcode: "9711 LM", city: "Groningen" },
  }),
];

const SEED: Db = {
  recipients: Object.fromEntries(RECIPIENTS.map((r) => [r.id, r])),
  parcels: Object.fromEntries(PARCELS.map((p) => [p.id, p])),
};

/** A fresh deep copy of the seed database. */
export function freshDb(): Db {
  return structuredClone(SEED);
}

/** The designed dialogue states: every reply enters exactly one. */
export const PARCEL_STATES = [
  "greet",
  "menu",
  "fallback",
  "goodbye",
  "handoff",
  "track.ask_number",
  "track.not_found",
  "track.status",
  "track.detail",
  "auth.ask_tracking",
  "auth.unknown_tracking",
  "auth.ask_postcode",
  "auth.postcode_wrong",
  "auth.refused_postcode",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.locked",
  "auth.other_parcel",
  "reschedule.refused_status",
  "reschedule.ask_date",
  "reschedule.refused_window",
  "reschedule.refused_sunday",
  "reschedule.refused_holiday",
  "reschedule.confirm",
  "reschedule.done",
  "redirect.refused_status",
  "redirect.ask_postcode",
  "redirect.refused_area",
  "redirect.ask_address",
  "redirect.refused_locker",
  "redirect.confirm",
  "redirect.done",
  "duty.none_due",
  "duty.ask_amount",
  "duty.refused_min",
  "duty.refused_over",
  "duty.ask_card",
  "duty.confirm",
  "duty.done",
  "safeplace.refused_status",
  "safeplace.refused_signature",
  "safeplace.refused_value",
  "safeplace.ask_place",
  "safeplace.ask_house_number",
  "safeplace.confirm",
  "safeplace.done",
  "claim.refused_not_eligible",
  "claim.ask_description",
  "claim.ask_amount",
  "claim.refused_over_value",
  "claim.confirm",
  "claim.done",
  "action.cancelled",
] as const;
/** A designed dialogue state id. */
export type State = (typeof PARCEL_STATES)[number];

/** What a customer wants, as the keyword NLU recognises it (`track` needs no sign-in). */
export type Intent = "track" | "reschedule" | "redirect" | "duty" | "safeplace" | "claim";

/** Intent keywords, tried in order. */
export const INTENTS: readonly [Intent, RegExp][] = [
  [
    "claim",
    /\b(claims?|compensat\w*|reimburs\w*|damaged|broken|smashed|crushed|cracked|lost|missing|never (arrived|came|turned up|showed up))\b/,
  ],
  ["duty", /\b(customs|dut(y|ies)|import (tax|fee|charge|vat)s?|vat|pay (the )?(fee|charge|tax)(es|s)?)\b/],
  [
    "safeplace",
    /\b(safe ?place|leave (it|the parcel|my parcel|the package)|porch|garage|shed|neighbou?r|back garden)\b/,
  ],
  [
    "redirect",
    /\b(redirect\w*|re-?rout\w*|(different|another|new|other) address|change (the |my )?(delivery )?address|send it to|deliver (it )?to (a |my |another |the )|parcel locker|locker)\b/,
  ],
  [
    "reschedule",
    /\b(reschedul\w*|(change|move) (the |my )?(delivery )?(date|day)|(another|different|other|new) (delivery )?(day|date)|deliver(ed)? (it |this |my parcel |the parcel )?(on|later|next)|(can it|could it) (come|arrive|be delivered) (on|later|next)|move (the |my )?delivery|not (be )?(at )?home|postpone)\b/,
  ],
  [
    "track",
    /\b(where('?s| is)|track(?!ing (number|no|code|id))(ing)?|status|when (will|is|does|do)|arriv\w*|eta|shipped|on its way|been sent)\b/,
  ],
];

/** A tracking question strong enough to interrupt a pending request. */
export const TRACK_NOW = /\b(where('?s| is)|track (my|the|it|this|a|that)\b)/;

/** Keyword patterns: yes, no, a human, goodbye, hello. */
export const YES =
  /^\s*(yes|yeah|yep|yup|sure|confirm(ed)?|correct|go ahead|do it|please do|that'?s (right|correct|fine))\b|\bconfirm\b/;
export const NO =
  /^\s*(no|nope|nah|stop|cancel|never ?mind|forget it|don'?t|not now|leave it|abort|scrap that)\b/;
export const HUMAN =
  /\b(human|real person|a person|agent|representative|operator|customer service|someone (real|else)|speak to someone|talk to someone|call ?centre)\b/;
export const BYE =
  /\b(bye|goodbye|that'?s all|that is all|nothing else|i'?m done|no thanks|thanks|thank you|cheers)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;

/** Template keys used inside replies (not states of their own). */
type Wording =
  | "menu_text"
  | "queued"
  | "ended"
  | "more"
  | "ask"
  | "need_confirm"
  | "updated"
  | "sorry"
  | "okay";
type Prefix = "verified" | "bad_tracking" | "bad_postcode" | "bad_code" | "bad_date" | "bad_card";
export type Phrase = Wording | Prefix;

/**
 * Reply templates by key (a designed state, or a phrase used inside replies): two to four wordings each,
 * picked by the session's seeded PRNG. `{name}` placeholders are filled from the reply's values; `{menu}` is one
 * wording of the menu sentence.
 */
export const RESPONSES: Readonly<Record<State | Phrase, readonly string[]>> = {
  menu_text: [
    "I can track a parcel, move a delivery to another day, redirect it to another address or a parcel locker, take payment of import charges, set a safe place, or start a damage or loss claim.",
    "I can tell you where a parcel is, reschedule or redirect a delivery, let you pay customs charges, leave delivery instructions for a safe place and open a claim for a damaged or lost parcel.",
    "Tracking, new delivery dates, redirects, customs payments, safe-place instructions and damage or loss claims are all things I can help with here.",
  ],
  greet: [
    "Hi, welcome to Swiftline Parcels. {menu} What can I do for you?",
    "Hello! You're chatting with the Swiftline Parcels assistant. {menu} How can I help?",
    "Welcome to Swiftline Parcels customer service. {menu} What do you need today?",
  ],
  menu: [
    "{menu} What would you like to do?",
    "Sure. {menu} Which one?",
    "Of course. {menu} Where shall we start?",
  ],
  fallback: [
    "Sorry, I didn't get that. {menu} Which of these do you need?",
    "I'm not sure I follow. {menu} Is it one of those?",
    "Hmm, that's not something I can do in this chat. {menu} What would you like?",
  ],
  goodbye: [
    "Thanks for contacting Swiftline Parcels{name}. Have a good day!",
    "You're welcome{name}. Happy to help, goodbye!",
    "Take care{name}, and thanks for choosing Swiftline.",
  ],
  ended: [
    "This chat has ended. Please start a new chat if you need anything else.",
    "This conversation is closed; open a new chat any time.",
  ],
  handoff: [
    "Of course. I'm transferring you to a member of our customer service team; they'll see this conversation and will be with you in a few minutes.",
    "No problem, I'll put you through to a colleague. Please keep this window open, someone will join shortly.",
    "Sure, a customer service agent will take over this chat. The current wait is about four minutes.",
  ],
  queued: [
    "A colleague will pick up this chat shortly; thanks for waiting.",
    "You're in the queue for an agent, who'll be with you soon.",
    "Please hold on, an agent is about to join.",
  ],
  "track.ask_number": [
    "{bad}Sure. What's the tracking number? It starts with SW followed by 8 digits.",
    "{bad}Happy to check. Could you give me the tracking number (SW and 8 digits)? It's in your shipping email.",
    "{bad}Which parcel shall I look up? Please send the tracking number, e.g. SW12345678.",
  ],
  "track.not_found": [
    "I can't find a parcel with tracking number {id}. Could you check it and send it again?",
    "There's no Swiftline parcel under {id}. Which tracking number should I try?",
    "{id} doesn't match any parcel in our system. Please double-check the number.",
  ],
  "track.status": [
    "Parcel {id} from {sender}: {status}. {more}",
    "Here's the latest on {id} ({sender}): {status}. {more}",
    "Tracking {id}: {status} (sent by {sender}). {more}",
  ],
  "track.detail": [
    "Parcel {id} from {sender} ({contents}): {status}. Delivery address: {address}. {extra}{more}",
    "Here are the details of {id}: {contents} from {sender}, {status}, going to {address}. {extra}{more}",
    "{id} ({contents}, sent by {sender}) is {status}; address on file: {address}. {extra}{more}",
  ],
  "auth.ask_tracking": [
    "{bad}I can help with that. First, which parcel is it about? Please give me the tracking number (SW and 8 digits).",
    "{bad}Sure. To make changes I need to sign you in: what's the tracking number of the parcel?",
    "{bad}Of course. Which tracking number is this for? It looks like SW12345678.",
  ],
  "auth.unknown_tracking": [
    "I can't find a parcel under {id}. Could you check the tracking number and send it again?",
    "There's no parcel with tracking number {id} in our system. Which number should I use?",
    "{id} doesn't match any Swiftline parcel. Please try the tracking number again.",
  ],
  "auth.ask_postcode": [
    "{bad}To confirm you're the recipient of {id}, what's the postcode of the delivery address?",
    "{bad}Got it, {id}. For security, please tell me the recipient's postcode.",
    "{bad}One check before I can change anything on {id}: what postcode is it being delivered to?",
  ],
  "auth.postcode_wrong": [
    "That postcode doesn't match the delivery address of this parcel. Please try once more.",
    "Sorry, that isn't the postcode we have for this parcel. You can try one more time.",
  ],
  "auth.refused_postcode": [
    "For security I can't make changes to this parcel in chat, as the postcode didn't match twice. You can still track it, or I can connect you with a colleague.",
    "I'm sorry, the postcode didn't match two times, so I can't let you change this delivery here. Tracking is still available, or I can pass you to an agent.",
  ],
  "auth.ask_code": [
    "{bad}I've texted a 6-digit code to the mobile ending {mobile}. Please type it here.",
    "{bad}We've just sent a one-time code by text to the mobile number ending {mobile}. What is it?",
    "{bad}Nearly there: a 6-digit code has been texted to the mobile ending {mobile}. Please enter it.",
  ],
  "auth.code_wrong": [
    "That code isn't right. Please check the text and try again ({left}).",
    "Sorry, that code doesn't match. You have {left}.",
    "Hmm, that's not the code we sent. Please try again; {left}.",
  ],
  "auth.locked": [
    "For your security I've locked changes to this parcel in chat after three incorrect codes. Would you like me to connect you with a colleague who can verify you another way?",
    "I'm sorry, after three wrong codes I can't sign you in here. Shall I pass you to a customer service agent?",
  ],
  "auth.other_parcel": [
    "Parcel {id} isn't addressed to you, so I can't change it from this chat. I can only make changes to parcels for the recipient who signed in. {more}",
    "You're signed in as the recipient of other parcels; {id} belongs to someone else, so I can't change it. {more}",
    "I'm afraid {id} isn't one of your parcels, so changes aren't possible. {more}",
  ],
  "reschedule.refused_status": [
    "I can't change the delivery date of {id}: it {reason}. {more}",
    "A new delivery date isn't possible for {id}, because it {reason}. {more}",
    "Sorry, {id} {reason}, so it can't be rescheduled. {more}",
  ],
  "reschedule.ask_date": [
    "{bad}Which day would suit you? We deliver Monday to Saturday, from {from} to {to}.",
    "{bad}When would you like {id} delivered? Any day from {from} up to {to} except Sundays and public holidays.",
    "{bad}Sure. What date should we deliver {id} instead? Choose a day between {from} and {to} (no Sundays).",
  ],
  "reschedule.refused_window": [
    "{date} is outside the window: a new date must be 1 to 10 days from today, so between {from} and {to}. Which day would you like?",
    "I can only move a delivery to a day between {from} and {to}, and {date} isn't in that range. What other date works?",
  ],
  "reschedule.refused_sunday": [
    "There are no deliveries on Sundays, so {date} won't work. Which other day would you like?",
    "Sorry, we don't deliver on a Sunday such as {date}. Can you pick another day?",
  ],
  "reschedule.refused_holiday": [
    "{date} is {holiday}, a public holiday, so there are no deliveries. Which other day suits you?",
    "We don't deliver on {holiday} ({date}). Could you choose another date?",
  ],
  "reschedule.confirm": [
    "To confirm: deliver {id} on {date}, between 8:00 and 18:00. {ask}",
    "I'll move the delivery of {id} to {date}. {ask}",
    "New delivery date for {id}: {date}. {ask}",
  ],
  "reschedule.done": [
    "Done: {id} will now be delivered on {date}. You'll get a text on the morning of delivery. {more}",
    "All set, {id} is rescheduled for {date}. {more}",
    "The delivery of {id} is moved to {date}. {more}",
  ],
  "redirect.refused_status": [
    "I can't redirect {id}: it {reason}. {more}",
    "A redirect isn't possible for {id}, because it {reason}. {more}",
    "Sorry, {id} {reason}, so the address can't be changed any more. {more}",
  ],
  "redirect.ask_postcode": [
    "{bad}Where should {id} go instead? Please give me the new postcode first.",
    "{bad}Sure. What's the postcode of the address you'd like {id} sent to?",
    "{bad}Which postcode shall I redirect {id} to?",
  ],
  "redirect.refused_area": [
    "Sorry, {postcode} is outside our delivery area, so I can't send {id} there. Could you give me another postcode?",
    "We don't deliver to {postcode}, I'm afraid. Which other postcode would you like?",
  ],
  "redirect.ask_address": [
    "{bad}And the street and house number at {postcode}? Or I can send it to the Swiftline parcel locker there.",
    "{bad}Thanks. What's the street address in {city}, or would you prefer our parcel locker at {postcode}?",
  ],
  "redirect.refused_locker": [
    "{id} needs a signature on delivery, so it can't go to a parcel locker. Could you give me a street address at {postcode} instead?",
    "A parcel that must be signed for can't be left in a locker. What street address at {postcode} should we use?",
  ],
  "redirect.confirm": [
    "To confirm: redirect {id} to {dest}, {postcode} {city}. {ask}",
    "I'll send {id} to {dest}, {postcode} {city} instead. {ask}",
    "New delivery address for {id}: {dest}, {postcode} {city}. {ask}",
  ],
  "redirect.done": [
    "Done: {id} is on its way to {dest}, {postcode} {city}. {more}",
    "The address is changed; {id} will be delivered to {dest}, {postcode} {city}. {more}",
    "All set, {id} now goes to {dest}, {postcode} {city}. {more}",
  ],
  "duty.none_due": [
    "There are no import charges to pay on {id}. {more}",
    "Good news: {id} has nothing due for customs. {more}",
  ],
  "duty.ask_amount": [
    "{id} is held at customs with {due} in import charges. Would you like to pay it in full, or a part-payment (at least {min})?",
    "There's {due} of import duty due on {id}. How much would you like to pay now? The full amount releases the parcel; part-payments start at {min}.",
    "The import charges on {id} come to {due}. Pay in full, or how much would you like to pay (minimum {min})?",
  ],
  "duty.refused_min": [
    "A part-payment has to be at least {min}, and {amount} is less. How much would you like to pay?",
    "Sorry, the smallest payment I can take is {min}. What amount shall I charge?",
  ],
  "duty.refused_over": [
    "Only {due} is due on {id}, so I can't take {amount}. How much would you like to pay?",
    "{amount} is more than the {due} due. What amount shall I charge instead?",
  ],
  "duty.ask_card": [
    "{bad}Which card would you like to use? Just the last 4 digits of a card saved to your Swiftline account, please.",
    "{bad}To take the payment, please tell me the last four digits of the card to charge.",
    "{bad}Which card should I charge? The last 4 digits are enough.",
  ],
  "duty.confirm": [
    "To confirm: pay {amount} of the {due} import charges on {id} with the card ending {card}; {balance} would remain. {ask}",
    "I'll charge {amount} to the card ending {card} for {id}. Due now {due}, left afterwards {balance}. {ask}",
    "Payment: {amount} towards {due} on {id}, card ending {card}, balance after {balance}. {ask}",
  ],
  "duty.done": [
    "Payment received. Receipt {ref}: paid {amount} on {id}, balance {balance}. {release}{more}",
    "Thanks, that's paid. Receipt {ref}: {amount} charged, {balance} still due. {release}{more}",
    "Done. Receipt {ref} for {id}: amount paid {amount}, balance remaining {balance}. {release}{more}",
  ],
  "safeplace.refused_status": [
    "{id} {reason}, so a safe-place instruction won't apply any more. {more}",
    "It's too late for a safe place on {id}: it {reason}. {more}",
  ],
  "safeplace.refused_signature": [
    "{id} needs a signature on delivery, so our driver can't leave it in a safe place. {more}",
    "Sorry, parcels that must be signed for, like {id}, can't be left unattended. {more}",
  ],
  "safeplace.refused_value": [
    "{id} is a high-value parcel (declared {value}), so it can't be left in a safe place. {more}",
    "For parcels worth {limit} or more, like {id}, we can't leave them unattended. {more}",
  ],
  "safeplace.ask_place": [
    "{bad}Where should the driver leave {id} if you're not home? The porch, the garage, the shed, the back garden, or with a neighbour?",
    "{bad}Sure. What safe place would you like for {id}: porch, garage, shed, back garden or a neighbour?",
    "{bad}Which safe place shall I note for {id}? Options are porch, garage, shed, back garden or a neighbour.",
  ],
  "safeplace.ask_house_number": [
    "Which house number does the neighbour live at?",
    "What's your neighbour's house number?",
    "Sure, a neighbour. At which house number?",
  ],
  "safeplace.confirm": [
    "To confirm: if you're out, leave {id} {place}. {ask}",
    'I\'ll add the instruction "leave {place}" to {id}. {ask}',
    "Safe place for {id}: {place}. {ask}",
  ],
  "safeplace.done": [
    "Done: the driver will leave {id} {place} if nobody answers. {more}",
    "Saved. If you're not in, {id} will be left {place}. {more}",
    "The safe-place instruction is on {id}: {place}. {more}",
  ],
  "claim.refused_not_eligible": [
    "I can't open a claim for {id} yet: it's {status}. A claim is possible once a parcel is delivered, or when it's more than {days} days late. {more}",
    "{id} is {status}, so it isn't eligible for a claim; that's only for delivered parcels or ones over {days} days overdue. {more}",
  ],
  "claim.ask_description": [
    "I'm sorry about that. Could you describe what happened to {id}{hint}?",
    "Let's get a {kind} claim started for {id}. Please describe the problem{hint}.",
    "Sorry to hear it. In a sentence or two, what's wrong with {id}{hint}?",
  ],
  "claim.ask_amount": [
    "Thanks. How much would you like to claim? The declared value of {id} is {value}, which is the most we can pay.",
    "Noted. What amount are you claiming? It can be up to the declared value of {value}.",
    "And how much are you claiming for {id}? The maximum is its declared value, {value}.",
  ],
  "claim.refused_over_value": [
    "{amount} is more than the declared value of {id} ({value}), which is the most we can pay. What amount would you like to claim?",
    "A claim can't exceed the declared value, {value}, and {amount} does. How much shall I put down?",
  ],
  "claim.confirm": [
    'To confirm: a {kind} claim for {id}, amount {amount} (declared value {value}), description: "{description}". {ask}',
    'Here\'s the claim: {kind} of {id}, claiming {amount} of {value}; "{description}". {ask}',
    'I\'ll file a {kind} claim on {id} for {amount} ("{description}"). {ask}',
  ],
  "claim.done": [
    "Your claim is filed, reference {ref}. We'll review it within 5 working days. {more}",
    "Claim {ref} is open for {id}; a claims handler will email you within 5 working days. {more}",
    "Done: claim {ref} for {amount}. You'll hear from us within 5 working days. {more}",
  ],
  "action.cancelled": [
    "No problem, I haven't changed anything. Anything else I can help with?",
    "Okay, cancelled; nothing's been changed. Is there something else you need?",
    "Fine, I've dropped that and your delivery is unchanged. What else can I do?",
  ],
  more: [
    "Anything else I can help with?",
    "Is there anything else you need?",
    "Can I help with anything else?",
  ],
  ask: [
    "Shall I go ahead? Please reply yes to confirm.",
    "Is that right? Reply yes to confirm or tell me what to change.",
    "Reply yes or confirm and I'll do it, or tell me what should be different.",
  ],
  need_confirm: [
    "I'll only go ahead once you confirm with a yes.",
    "I need a clear yes before I make the change.",
    "Nothing changes until you confirm.",
  ],
  updated: ["Sure, I've changed that.", "Got it, updated.", "No problem, updated."],
  sorry: ["Sorry, I didn't quite catch that.", "Hmm, I didn't get that.", "I'm not sure I understood."],
  verified: [
    "Thanks, {name}, you're signed in.",
    "Great, {name}, that's you verified.",
    "Thank you, {name}, you're in.",
  ],
  bad_tracking: [
    "That doesn't look like a tracking number. ",
    "Tracking numbers are SW and 8 digits. ",
    "I couldn't read a tracking number there. ",
  ],
  bad_postcode: [
    "That doesn't look like a postcode (four digits and two letters, e.g. 1234 AB). ",
    "I couldn't read a postcode there. ",
  ],
  bad_code: ["The code is 6 digits. ", "I couldn't read a 6-digit code there. "],
  bad_date: ["I couldn't read that as a date. ", "Sorry, I need a day, e.g. 19 December or Friday. "],
  bad_card: ["I need exactly the last 4 digits. ", "That doesn't look like the last four digits of a card. "],
  okay: ["Okay, no problem.", "Alright.", "Sure, no worries."],
};

/** What a tester playing Swiftline's customers knows: tracking numbers, postcodes, the texted codes, wishes. */
export const PARCEL_FACTS: Facts = {
  personas: [
    {
      tracking_number: ["SW20481137", "SW20481195"],
      postcode: ["3511 KT"],
      code: ["482913"],
      date: ["19 December", "21 December", "25 December", "the 23rd", "3 January"],
      new_postcode: ["3581 CS", "8861 KP"],
      new_street: ["Biltstraat 41"],
      safe_place: ["porch", "neighbour at number 14"],
      description: ["it never arrived"],
      claim_amount: ["€60", "€95"],
    },
    {
      tracking_number: ["SW31550862"],
      postcode: ["1017 CT"],
      code: ["305174"],
      date: ["19 December"],
      new_postcode: ["1071 XX"],
      new_street: ["Van Baerlestraat 12"],
      safe_place: ["garage"],
    },
    {
      tracking_number: ["SW47002318"],
      postcode: ["2513 AA"],
      code: ["771206"],
      description: ["the box was crushed and the lamp inside is broken"],
      claim_amount: ["€80", "€150"],
      safe_place: ["shed"],
    },
    {
      tracking_number: ["SW58839904"],
      postcode: ["5611 AZ"],
      code: ["619058"],
      amount: ["in full", "€20", "€3", "€50"],
      card_last4: ["4821"],
      date: ["22 December"],
    },
    {
      tracking_number: ["SW69127745", "SW69127790"],
      postcode: ["9711 LM"],
      code: ["240687"],
      safe_place: ["porch", "back garden"],
      new_postcode: ["9712 CP"],
      new_street: ["parcel locker", "Vismarkt 9"],
      date: ["24 December", "28 December"],
    },
  ],
  requests: [
    "where is my parcel?",
    "I need to change my delivery date",
    "can you send my parcel to a different address?",
    "I have to pay import duty on a parcel",
    "please leave my parcel with the neighbour",
    "my parcel arrived damaged, I want to make a claim",
  ],
};
