/**
 * Data for the held-out veterinary testbed agent (`heldout9.ts`): the seeded practice database, vets and price
 * list, the date/money/list formats, the paraphrase templates (three per reply kind, template i rendered in
 * format style i % 3) and the facts a tester knows. The practice clock is frozen at Monday 13 January 2025, 09:00.
 */
import { distance } from "fastest-levenshtein";
import type { Facts } from "../../src/boundary/types.ts";

export const TODAY = "2025-01-13";
export const NOW_HOUR = 9;
export const RECEPTION_PHONE = "0117 496 0123";
export const EMERGENCY_PHONE = "0117 496 0999";
export const POSTAGE = "3.50";

export type ApptType = "checkup" | "vaccination" | "dental" | "nurse";
export type VetId = "patel" | "hughes" | "kowalski" | "reed";

/** Vets with their working weekdays (0 = Sunday … 6 = Saturday); the nurse runs the nurse clinic. */
export const VETS: Array<{ id: VetId; name: string; days: number[] }> = [
  { id: "patel", name: "Dr Priya Patel", days: [1, 2, 3, 4, 5] },
  { id: "hughes", name: "Dr Tom Hughes", days: [1, 2, 3, 4, 5, 6] },
  { id: "kowalski", name: "Dr Anna Kowalski", days: [2, 3, 4, 5, 6] },
  { id: "reed", name: "Nurse Ellis Reed", days: [1, 2, 3, 4, 5, 6] },
];
export const APPT_TYPES: Array<{ id: ApptType; label: string; price: string }> = [
  { id: "checkup", label: "Check-up", price: "48.00" },
  { id: "vaccination", label: "Vaccination", price: "62.50" },
  { id: "dental", label: "Dental", price: "285.00" },
  { id: "nurse", label: "Nurse clinic", price: "22.00" },
];
export const WEEKDAY_TIMES = ["08:45", "09:30", "10:15", "11:15", "14:00", "15:30", "16:45"];
export const SATURDAY_TIMES = ["09:15", "10:00", "11:30", "12:15"];
export const NURSE_TIMES = ["13:00", "13:30", "14:30", "15:00"];

export type Owner = { id: string; name: string; mobile: string; postcode: string; email: string };
export type Pet = {
  id: string;
  ownerId: string;
  name: string;
  species: string;
  breed: string;
  dob: string;
  lastCheckup?: string;
};
export type Appt = {
  id: string;
  petId: string;
  type: ApptType;
  vet: VetId;
  date: string;
  time: string;
  status: "booked" | "cancelled";
};
export type Med = {
  id: string;
  petId: string;
  name: string;
  controlled: boolean;
  repeatsLeft: number;
  lastIssued: string;
};
export type Vacc = { petId: string; name: string; given: string; years: number };
export type Claim = {
  petId: string;
  ref: string;
  insurer: string;
  amount: string;
  submitted: string;
  status: string;
};
export type Db = {
  owners: Owner[];
  pets: Pet[];
  appts: Appt[];
  meds: Med[];
  vaccs: Vacc[];
  claims: Claim[];
  nextRef: number;
  nextPet: number;
};

// The seeded practice database, one record a line ("|"-separated fields).
const OWNERS = `
o1|Sarah Thompson|07700900123|BS6 5QA|s.thompson@example.com
o2|James Okafor|07700900234|BS3 1AB|j.okafor@example.com
o3|David Chen|07700900345|BS7 8LP|david.chen@example.com
o4|Helen Price|07700900456|BS9 2RT|helen.p@example.com
o5|Ahmed Rahman|07700900567|BS1 4DJ|a.rahman@example.com`;
const PETS = `
p1|o1|Biscuit|dog|Labrador Retriever|2019-05-02|2024-12-20
p2|o1|Mittens|cat|Domestic Shorthair|2021-08-10|2024-07-01
p3|o2|Pepper|dog|Cocker Spaniel|2024-11-25|
p4|o3|Rolo|rabbit|Netherland Dwarf|2020-03-14|2024-10-02
p5|o4|Bramble|dog|Border Collie|2016-09-30|2024-12-05
p6|o5|Luna|cat|Ragdoll|2022-04-18|2024-09-05`;
const APPTS = `
APT-0101|p1|checkup|hughes|2025-01-20|11:15
APT-0102|p1|nurse|reed|2025-01-22|13:30
APT-0103|p2|checkup|patel|2025-01-14|08:45
APT-0104|p5|checkup|kowalski|2025-01-23|14:00`;
const MEDS = `
m1|p1|Carprofen 50mg tablets|no|3|2024-12-02
m2|p2|Thyronorm 5mg/ml oral solution|no|4|2025-01-02
m3|p5|Phenobarbital 60mg tablets|yes|5|2024-12-01
m4|p5|Seraquin chewable tablets|no|0|2024-11-20
m5|p4|Metacam 0.5mg/ml oral suspension|no|2|2024-11-30`;
const VACCS = `
p1|DHP|2023-03-10|3
p1|Leptospirosis|2024-03-10|1
p1|Kennel cough|2024-03-10|1
p2|Cat flu & enteritis|2024-02-15|1
p2|FeLV|2024-02-15|1
p4|Myxo-RHD Plus|2024-01-20|1
p5|DHP|2022-06-01|3
p5|Leptospirosis|2024-06-01|1
p6|Cat flu & enteritis|2024-09-05|1`;
const CLAIMS = `
p1|WB-4471|PetSure|386.40|2025-01-06|with the insurer, awaiting their decision
p6|WB-4502|Animal Friends|129.00|2024-12-18|settled and paid out to you`;

const rows = (s: string): string[][] =>
  s
    .trim()
    .split("\n")
    .map((l) => l.split("|"));

/** A fresh copy of the seeded practice database. */
export function seedDb(): Db {
  return {
    owners: rows(OWNERS).map(
      ([id, name, mobile, postcode, email]) => ({ id, name, mobile, postcode, email }) as Owner,
    ),
    pets: rows(PETS).map(
      ([id, ownerId, name, species, breed, dob, last]) =>
        ({ id, ownerId, name, species, breed, dob, ...(last ? { lastCheckup: last } : {}) }) as Pet,
    ),
    appts: rows(APPTS).map(
      ([id, petId, type, vet, date, time]) =>
        ({ id, petId, type, vet, date, time, status: "booked" }) as Appt,
    ),
    meds: rows(MEDS).map(
      ([id, petId, name, c, left, last]) =>
        ({ id, petId, name, controlled: c === "yes", repeatsLeft: Number(left), lastIssued: last }) as Med,
    ),
    vaccs: rows(VACCS).map(
      ([petId, name, given, years]) => ({ petId, name, given, years: Number(years) }) as Vacc,
    ),
    claims: rows(CLAIMS).map(
      ([petId, ref, insurer, amount, submitted, status]) =>
        ({ petId, ref, insurer, amount, submitted, status }) as Claim,
    ),
    nextRef: 201,
    nextPet: 7,
  };
}

// ------------------------------------------------------------------ catalogue helpers

export const MENU3 = "Confirm|Change something|Cancel";
export const CANCEL_MENU =
  "Confirm the cancellation|Change something (pick another appointment)|Cancel — keep the appointment";
export const MENU_ITEMS =
  "Book an appointment|Move an appointment|Cancel an appointment|Repeat prescription|Vaccination record|Update contact details|Register a new pet|Insurance claim status|Opening hours and prices";
export const MENU_KINDS = "book move cancel rx vacc contact reg claim hours".split(" ") as Array<
  Kind | "hours"
>;
export const FIELD_LABEL = { mobile: "mobile number", email: "email address", postcode: "postcode" };
export const SPECIES = ["dog", "cat", "rabbit", "other"];
export const SPECIES_ALIAS: Record<string, string> = { puppy: "dog", kitten: "cat", bunny: "rabbit" };
/** Option lists that do not depend on the conversation, by question state. */
export const FIXED_LISTS: Record<string, string> = {
  "book.change_what": "Appointment type|Vet|Date|Time",
  "rx.ask_collection": "Collect from reception|Post it to me ({m:postage} postage)",
  "contact.ask_field": "Mobile number|Email address|Postcode",
  "reg.ask_species": "Dog|Cat|Rabbit|Other small pet",
  "reg.change_what": "Name|Species|Breed|Date of birth",
};
export const DOCTORS: VetId[] = ["patel", "hughes", "kowalski"];
export const typeLabel = (t: ApptType | undefined): string =>
  (APPT_TYPES.find((a) => a.id === t)?.label ?? "").toLowerCase();
export const priceOf = (t: ApptType | undefined): string => APPT_TYPES.find((a) => a.id === t)?.price ?? "0";
export const vetName = (id: string | undefined): string => VETS.find((v) => v.id === id)?.name ?? "any vet";
export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
// ------------------------------------------------------------------ dates and formats

const DAY_MS = 86_400_000;
/** ISO date to a day number, and back. */
export const dn = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
export const isoOf = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);
export const TODAY_N = dn(TODAY);
export const dowOf = (iso: string): number => new Date(dn(iso) * DAY_MS).getUTCDay();
const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);
const WEEKDAYS = "Sunday Monday Tuesday Wednesday Thursday Friday Saturday".split(" ");

export function addYears(iso: string, years: number): string {
  const y = Number(iso.slice(0, 4)) + years;
  const md = iso.slice(5);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return md === "02-29" && !leap ? `${y}-02-28` : `${y}-${md}`;
}
export const weekStart = (iso: string): string => isoOf(dn(iso) - ((dowOf(iso) + 6) % 7));
export function addWorkingDays(iso: string, k: number): string {
  let n = dn(iso);
  for (let left = k; left > 0; ) {
    n++;
    const w = new Date(n * DAY_MS).getUTCDay();
    if (w !== 0 && w !== 6) left--;
  }
  return isoOf(n);
}

/** Style 0: "Tue 14 Jan"; 1: "14/01/2025"; 2: "Tuesday 14 January 2025". */
export function fmtDate(iso: string | undefined, style: number): string {
  if (!iso) return "";
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const wd = WEEKDAYS[dowOf(iso)]!;
  const mon = MONTHS[m - 1]!;
  if (style === 1) return `${String(d).padStart(2, "0")}/${String(m).padStart(2, "0")}/${y}`;
  if (style === 2) return `${wd} ${d} ${mon} ${y}`;
  return `${wd.slice(0, 3)} ${d} ${mon.slice(0, 3)}${y !== 2025 ? ` ${y}` : ""}`;
}
/** Style 1: "25 pounds" / "62.50 pounds"; otherwise "£25.00". */
function fmtMoney(a: string | undefined, style: number): string {
  const n = Number(a ?? 0);
  if (style === 1) return Number.isInteger(n) ? `${n} pounds` : `${n.toFixed(2)} pounds`;
  return `£${n.toFixed(2)}`;
}
function fmtList(s: string | undefined, style: number): string {
  const items = (s ?? "").split("|");
  if (style === 1) return `\n${items.map((x, i) => `${i + 1}. ${x}`).join("\n")}\n`;
  if (style === 2) return items.map((x, i) => `${i + 1} - ${x}`).join("; ");
  return items.map((x, i) => `${i + 1}) ${x}`).join("  ");
}
function fmtRecs(s: string | undefined, style: number): string {
  return (s ?? "")
    .split("|")
    .map((r) => {
      const [name, given, due] = r.split("~") as [string, string, string];
      const mark = dn(due) < TODAY_N ? " (overdue)" : dn(due) - TODAY_N <= 31 ? " (due soon)" : "";
      const [g, d] = [fmtDate(given, style), fmtDate(due, style)];
      if (style === 1) return `${name} (last ${g}, next due ${d}${mark})`;
      if (style === 2) return `${name} — given ${g}, booster due ${d}${mark}`;
      return `${name}: given ${g}, due ${d}${mark}`;
    })
    .join("; ");
}

export type V = Record<string, string>;

/**
 * Renders a template: `[?k:…]` kept when v.k is set (and not "0"), `[!k:…]` when it is not; `{l:k}` a numbered
 * list from "a|b|c"; `{d:k}` a date, `{m:k}` money, `{r:k}` vaccination lines ("name~given~due|…"), `{k}` as is.
 */
export function render(tpl: string, v: V, style: number): string {
  const on = (k: string): boolean => !!v[k] && v[k] !== "0";
  return tpl
    .replace(/\[([?!])(\w+):([^\]]*)\]/g, (_, op: string, k: string, body: string) =>
      (op === "?") === on(k) ? body : "",
    )
    .replace(/\{l:(\w+)\}/g, (_, k: string) => fmtList(v[k], style))
    .replace(/\{(?:([dmr]):)?(\w+)\}/g, (_, op: string | undefined, k: string) =>
      op === "d"
        ? fmtDate(v[k], style)
        : op === "m"
          ? fmtMoney(v[k], style)
          : op === "r"
            ? fmtRecs(v[k], style)
            : (v[k] ?? ""),
    )
    .replace(/\n\s*([.?!,;:])/g, "$1\n")
    .replace(/[ \t]*\n[ \t]*/g, "\n")
    .trim();
}

// ------------------------------------------------------------------ understanding the customer (language tables)

export const norm = (s: string): string =>
  s.toLowerCase().replace(/[’‘`]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim();
export const hash = (s: string): number => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
export const words = (t: string): string[] =>
  t
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/'s?$/, ""))
    .filter(Boolean);
export const near = (w: string, name: string): boolean =>
  w === name || (name.length >= 5 && w.length >= 4 && distance(w, name) <= 1);

export const WORDNUM = "one two three four five six".split(" ");
export const ORDINAL = "first second third fourth fifth sixth".split(" ");
/** A numbered answer ("2", "option 2", "the second one"), 1-based, or null. */
export function parseNumber(t: string, max: number): number | null {
  const m = t.match(/^(?:(?:option|number|choice|no\.?|#)\s*)?([1-9])\s*[).:-]?(?:\s|$)/);
  let n = m ? Number(m[1]) : null;
  if (n === null && words(t).length <= 5) {
    const w = words(t).find((x) => WORDNUM.includes(x) || ORDINAL.includes(x));
    if (w) n = Math.max(WORDNUM.indexOf(w), ORDINAL.indexOf(w)) + 1;
  }
  return n !== null && n >= 1 && n <= max ? n : null;
}
/** A choice from a list by number, by text, or by a close variant; 0-based. */
export function parseChoice(t: string, labels: string[]): number | null {
  const n = parseNumber(t, labels.length);
  if (n !== null) return n - 1;
  const tw = words(t);
  const scores = labels.map((raw) => {
    const l = norm(raw);
    if (t === l) return 4;
    if (t.includes(l)) return 3;
    if (t.length >= 4 && l.includes(t)) return 2;
    const lw = words(l).filter((w) => w.length >= 3 && w !== "the" && w !== "with");
    return tw.some((a) => lw.some((b) => near(a, b))) ? 1 : 0;
  });
  const best = Math.max(...scores);
  const idx = scores.flatMap((s, i) => (s === best ? [i] : []));
  return best > 0 && idx.length === 1 ? idx[0]! : null;
}
/** The numbered confirmation menu: 1 confirm, 2 change, 3 cancel. */
export function parseMenu(t: string): 1 | 2 | 3 | null {
  const n = parseNumber(t, 3);
  if (n !== null) return n as 1 | 2 | 3;
  if (/\b(cancel|abandon|forget it|never ?mind|stop|don'?t|do not|scrap|no thanks|leave it)\b/.test(t))
    return 3;
  if (/\b(change|edit|amend|modify|different|wrong|instead)\b/.test(t)) return 2;
  if (
    /\b(confirm|go ahead|book it|do it|correct|proceed|submit|looks good|sounds good|that'?s (right|fine))\b/.test(
      t,
    )
  )
    return 1;
  return null;
}
export const YESNO_RE = /^(yes|yeah|yep|yup|sure|ok|okay|fine|no|nope|nah|please|alright)\b/;

export const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
export const MON3 = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
export const DAY3 = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
export function buildDate(d: number, m: number, y: number | null, mode: "future" | "past"): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const mk = (year: number): string => `${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  let yy = y === null ? 2025 : y < 100 ? 2000 + y : y;
  if (y === null && mode === "future" && dn(mk(yy)) < TODAY_N) yy++;
  if (y === null && mode === "past" && dn(mk(yy)) > TODAY_N) yy--;
  const iso = mk(yy);
  return Number.isNaN(dn(iso)) || isoOf(dn(iso)) !== iso ? null : iso;
}
/** A date in the customer's words; `swap` reads numeric dates month first. */
export function parseDate(t: string, mode: "future" | "past", swap = false): string | null {
  const num = (s: string | undefined): number | null => (s ? Number(s) : null);
  let m = t.match(/\b(20\d{2})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return buildDate(Number(m[3]), Number(m[2]), Number(m[1]), mode);
  m = t.match(/\b(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?\b/);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return swap && a <= 12 && b <= 12 ? buildDate(b, a, num(m[3]), mode) : buildDate(a, b, num(m[3]), mode);
  }
  m = t.match(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b\\.?(?:,?\\s+(\\d{4}))?`),
  );
  if (m) return buildDate(Number(m[1]), MON3.indexOf(m[2]!.slice(0, 3)) + 1, num(m[3]), mode);
  m = t.match(new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`));
  if (m) return buildDate(Number(m[2]), MON3.indexOf(m[1]!.slice(0, 3)) + 1, num(m[3]), mode);
  m = t.match(/\b(\d{1,2})(?:st|nd|rd|th)\b/);
  if (m && mode === "future") {
    const [y, mo, today] = TODAY.split("-").map(Number) as [number, number, number];
    const day = Number(m[1]);
    return day > today
      ? buildDate(day, mo, y, mode)
      : buildDate(day, (mo % 12) + 1, mo === 12 ? y + 1 : y, mode);
  }
  if (/\btoday\b/.test(t)) return TODAY;
  if (/\btomorrow\b/.test(t)) return isoOf(TODAY_N + 1);
  const w = t.match(/\b(sun|mon|tue|wed|thu|fri|sat)(?:day|sday|nesday|rsday|urday|s|rs)?\b/);
  if (!w || mode !== "future") return null;
  const delta = (DAY3.indexOf(w[1]!) - dowOf(TODAY) + 7) % 7 || 7;
  return isoOf(TODAY_N + delta + (/\bnext week\b|week after/.test(t) ? 7 : 0));
}
export function parseTime(t: string): string | null {
  if (/\b(noon|midday)\b/.test(t)) return "12:00";
  const m =
    t.match(/\b(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?/) ?? t.match(/\b(\d{1,2})()\s*(am|pm)\b/);
  if (!m) return null;
  let h = Number(m[1]);
  const min = Number(m[2] || 0);
  if (m[3]?.startsWith("p") && h < 12) h += 12;
  if (m[3]?.startsWith("a") && h === 12) h = 0;
  if (!m[3] && h >= 1 && h <= 7) h += 12;
  return h > 23 || min > 59 ? null : `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}`;
}
export function parseMobile(t: string): string | null {
  const m = t.match(/(?:\+44\s?\(?0?\)?\s?|\b0)7(?:[\s-]?\d){9}\b/);
  return m ? `07${m[0].replace(/\D/g, "").replace(/^(44)?0?7/, "")}` : null;
}
export function parsePostcode(t: string): string | null {
  const m = t.match(/\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : null;
}
export const parseEmail = (t: string): string | null => t.match(/[^\s@]+@[^\s@]+\.[a-z]{2,}/)?.[0] ?? null;
export function parseType(t: string): ApptType | null {
  if (/\bnurse/.test(t)) return "nurse";
  if (/dental|teeth|tooth|dentist|scale and polish/.test(t)) return "dental";
  if (/vaccin|booster|\bjabs?\b/.test(t)) return "vaccination";
  if (/check[- ]?up|health check|pre-?op|examination/.test(t)) return "checkup";
  return null;
}
export function parseVet(t: string): VetId | "any" | null {
  if (/patel|priya/.test(t)) return "patel";
  if (/hughes|hughs|\btom\b/.test(t)) return "hughes";
  if (/kowalski|\banna\b/.test(t)) return "kowalski";
  if (/\bany\b|don'?t mind|no preference|whoever|first available|doesn'?t matter/.test(t)) return "any";
  return null;
}

export const EMERGENCY_RE =
  /not breathing|isn'?t breathing|can'?t breathe|struggling to breathe|stopped breathing|poison|antifreeze|rat bait|slug pellets|hit by a car|run over|collapsed|seizure|fitting|unconscious|bleeding heavily|won'?t stop bleeding|(ate|eaten) chocolate|emergency/;
export const BOOK_RE = /\bbook|appointment|\bappt\b|see (a|the) vet/;
export const GOODBYE_RE = /\b(bye|goodbye)\b|that'?s all|that is all|nothing else/;
export const HUMAN_RE =
  /\b(speak|talk|chat|put me through|transfer me|connect me)\b.*\b(human|person|someone|somebody|receptionist|reception|staff|agent|operator)\b|\b(human|real person|receptionist)\b/;
export const ABANDON_RE =
  /^(stop|never ?mind|forget it|cancel|cancel that|cancel this|abort|quit|leave it|start over|don'?t bother)\b/;
export const MED_RE = /carprofen|thyronorm|phenobarb|seraquin|metacam/;

export type Kind = "book" | "move" | "cancel" | "rx" | "vacc" | "contact" | "reg" | "claim";
export type Intent = "hours" | "prices" | "vacc" | "menu" | "smalltalk" | "oos" | Kind;
/** Top-level requests (name, then pattern), first match wins. */
const INTENT_TEXT = String.raw`
claim      \bclaims?\b|insurance|insurer
prices     how much|price|\bcosts?\b|\bfees?\b|\bcharge
cancel     ^(?=.*\bcancel)(?=.*(appointment|booking|\bappt|visit|check-?up|vaccination|dental|nurse|\bmy\b|\bit\b))
move       \b(move|moving|reschedul|re-schedul|rearrang|postpone|bring (it )?forward)|change (my|the) (appointment|booking|time|date|day)|different (day|date|time)
contact    \b(update|change|new|wrong)\b.{0,25}\b(mobile|phone|number|e-?mail|address|postcode|contact|details)\b|moved house|i'?ve moved
reg        \bregister|new (pet|puppy|kitten|rabbit|dog|cat|bunny)|add (a|another|my|our) (new )?(pet|puppy|kitten|dog|cat|rabbit)|just (got|adopted|bought)|adopted a
rx         prescription|repeat|medication|medicine|\bmeds\b|refill|re-?order|tablets|pills|carprofen|thyronorm|phenobarb|seraquin|metacam
hours      \bopen|opening|hours|closing|what time do you|when do you close
book       \bbook|appointment|\bappt\b|see (a|the) vet|check-?up|nurse clinic|dental|vaccination for|bring (him|her|them) in
vacc       vaccin|booster|\bjabs?\b|\bshots?\b
menu       \b(help|menu|options|what can you do|what do you do|hi|hello|hey|good (morning|afternoon|evening))\b
smalltalk  \b(thanks?|thank you|cheers|how are you|great|lovely|perfect|brilliant)\b
oos        \b(food|groom\w*|boarding|kennels|weather|joke|football|parking|jobs?|sell|buy|toys?|shop|microchip\w*)\b`;
export const INTENTS = INTENT_TEXT.trim()
  .split("\n")
  .map((l) => l.match(/^(\w+)\s+(.*)$/)!)
  .map((x) => [x[1] as Intent, new RegExp(x[2]!)] as const);
export function parseField(t: string): "mobile" | "email" | "postcode" | null {
  if (/e-?mail/.test(t)) return "email";
  if (/postcode|address|moved/.test(t)) return "postcode";
  return /mobile|phone|number/.test(t) ? "mobile" : null;
}
/** A new pet's name from "her name is Nala", "Nala" …, or null. */
export function parseName(t: string): string | null {
  const name = t
    .replace(
      /^(?:(?:his|her|their|its|the) )?(?:name is|name's|called|it's|it is|she's called|he's called)\s*/,
      "",
    )
    .replace(/^(he|she|it)('s| is) /, "")
    .split(/[\s,.!]+/)[0];
  return name && /^[a-z][a-z'-]{0,19}$/.test(name) ? name.charAt(0).toUpperCase() + name.slice(1) : null;
}
export function parseBreed(t: string): string | null {
  const b = t.replace(/^(?:(?:he|she|it)(?:'s| is) (?:an? )?|an? |it's an? )/, "").replace(/[.!]+$/, "");
  return b && b.length <= 40 ? b.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : null;
}
export const detectIntent = (t: string): Intent | null => INTENTS.find(([, re]) => re.test(t))?.[0] ?? null;

// ------------------------------------------------------------------ paraphrase templates

/** Reply kind on its own line, then its templates indented by two spaces. */
const TEMPLATES = `
general.menu
  Hello, this is the Willowbank Vets assistant. I can help with: {l:list}. Say a number or tell me what you need.
  Hi! You're chatting with Willowbank Vets. Here's what I can do: {l:list} Reply with a number, or just describe what you need.
  Welcome to Willowbank Vets. Options: {l:list}. You can answer with the option number.
general.smalltalk
  You're very welcome! Is there anything else I can help you or your pets with?
  Happy to help. Anything else today?
  No problem at all — what else can I do for you?
general.out_of_scope
  Sorry, that's not something I can help with. I handle appointments, repeat prescriptions, vaccination records, new pets, contact details and insurance claims — say "menu" to see the list.
  I'm afraid that's outside what I can do here. I can book, move or cancel appointments, re-order prescriptions, check vaccinations and claims, and update your details.
  That one's beyond me, sorry. Type "menu" to see the things Willowbank's assistant can help with.
general.fallback
  Sorry, I didn't quite follow that. You can say "menu" to see what I can help with.
  I'm not sure I understood. Could you put it another way, or say "help" for the options?
  Apologies, I didn't get that. Try "menu" for a list of things I can do.
general.human_handoff
  Of course — I'll pass you to our reception team. You can also call them directly on {phone} (Mon–Fri 8:30–18:30, Sat 9:00–13:00).
  Sure, a member of our reception team will pick this up. If it's quicker, ring them on {phone}.
  No problem, I'm handing you over to a receptionist. Their direct line is {phone}.
general.goodbye
  Thanks for contacting Willowbank Vets. Give your pets a pat from us — goodbye!
  Goodbye, and take care of those furry friends!
  Thanks for chatting with us. Bye for now!
info.hours
  We're open Monday to Friday 08:30–18:30 and Saturday 09:00–13:00; closed on Sundays. For emergencies outside those hours call {phone}, 24/7.
  Opening hours: Mon–Fri 8.30am to 6.30pm, Sat 9am to 1pm, Sunday closed. Our emergency line ({phone}) never closes.
  Willowbank is open weekdays from 08:30 until 18:30 and Saturday mornings 09:00–13:00. On Sundays we're closed, but the emergency line {phone} is always answered.
info.prices
  Our standard prices: check-up {m:checkup}, vaccination {m:vaccination}, dental from {m:dental}, nurse clinic {m:nurse}. Cancelling less than 24 hours before costs {m:fee}.
  A check-up is {m:checkup}, a vaccination {m:vaccination}, a dental starts at {m:dental} and a nurse clinic visit is {m:nurse}. Late cancellations (under 24 hours) are charged {m:fee}.
  Price list — Check-up: {m:checkup}; Vaccination: {m:vaccination}; Dental (from): {m:dental}; Nurse clinic: {m:nurse}. Late-cancellation fee: {m:fee}.
info.vaccine_schedule
  As a rule, puppies and kittens have their first vaccination from 8 weeks old and a second 2–4 weeks later; adults need boosters every year (some dog components every 3 years). If you'd like me to check your pet's record, I'll need to identify you first.
  Generally boosters are yearly, and young animals start their course at 8 weeks at the earliest. I can look up your own pet's due date once I've confirmed who you are — just ask for their vaccination record.
  Vaccinations: first course from 8 weeks of age, then annual boosters (dogs' DHP every three years). To see exactly when your pet is due, ask me for their vaccination record and I'll verify you.
emergency.handoff
  This sounds like an emergency. Please call our emergency line now on {phone} — it's staffed 24 hours a day. Please don't wait for an appointment.
  Please treat this as urgent: phone {phone} straight away and our emergency vet will tell you what to do. I can't book this as a normal appointment.
  That needs a vet immediately. Call the Willowbank emergency line on {phone} right now (open 24/7) and bring your pet in if they tell you to.
auth.ask_mobile
  Before I can do that I need to find your account. What's the mobile number we have for you?
  Sure. First, could you tell me the mobile number registered with us?
  I'll just need to identify you. Which mobile number is on your account?
mobile_invalid
  That doesn't look like a UK mobile number.
  Hmm, I couldn't read that as a mobile number.
  Sorry, that isn't a valid mobile number.
auth.mobile_not_found
  I couldn't find an account with that mobile number. Please check it and try again ({left} attempt(s) left).
  No account matches that number, I'm afraid. Could you try again? You have {left} more attempt(s).
  That number isn't on our system. Please try once more — {left} attempt(s) remaining.
auth.ask_pet
  Thanks. As a security check, what's the name of one of your pets registered with us?
  Got it. To confirm it's you, please tell me the name of a pet on that account.
  Thank you. Next, what's one of your pets called?
auth.pet_mismatch
  Sorry, that name doesn't match the pets on this account. Please try again ({left} attempt(s) left).
  That isn't a pet I have on this account. Have another go — {left} attempt(s) left.
  Hmm, no pet by that name on this account. You have {left} more attempt(s).
auth.ask_postcode
  For this request I also need a second check: what's the postcode on your account?
  One more security step for this one — please confirm your postcode.
  This needs an extra check. Could you give me the postcode we have for you?
postcode_invalid
  That doesn't look like a UK postcode.
  I couldn't read that as a postcode.
  Sorry, that isn't a valid postcode.
auth.postcode_mismatch
  That postcode doesn't match our records. Please try again ({left} attempt(s) left).
  Sorry, that's not the postcode on the account. {left} attempt(s) remaining.
  The postcode doesn't match. You can try {left} more time(s).
auth.verified
  Thank you, {owner} — you're verified.
  Thanks {owner}, that all checks out.
  Lovely, {owner}, I've found your account.
auth.locked
  For your security I've locked this conversation after too many unsuccessful checks. Please call reception on {phone} and they'll help you.
  Too many checks have failed, so I can't go any further in this chat. Our reception team can help on {phone}.
  I'm sorry, this chat is now locked because the security checks failed three times. Please ring {phone}.
pet.choose
  I can see {count} pets on your account. Which one is this about? {l:list}
  Which of your pets is this for?{l:list}
  You have {count} pets registered: {l:list}. Which one do you mean?
pet.not_yours
  I'm sorry, {pet} isn't registered to your account, so I can't look at or change anything for that pet.
  {pet} isn't one of your pets on our records, so I'm not able to share or change their details.
  For privacy reasons I can only help with pets on your own account, and {pet} isn't one of them.
book.ask_type
  What kind of appointment would you like for {pet}? {l:list}
  Which appointment type is it for {pet}?{l:list}
  Sure — which of these does {pet} need? {l:list}
book.ask_vet
  Who would you like {pet} to see? {l:list}
  Do you have a preferred vet?{l:list}
  Which vet should I book {pet} in with? {l:list}
book.ask_date
  Which day would suit you for the {type}? I can book from tomorrow up to three months ahead.
  What date would you like for {pet}'s {type}?
  When would you like to come in for the {type}? Please give me a day.
date_past
  That date is today or already past — I can only book from tomorrow onwards.
  I can't book today or a date in the past.
  That day has gone (or is today), I'm afraid.
date_far
  I can only book up to three months ahead.
  That's too far ahead — bookings open three months in advance.
  Our diary only goes three months ahead.
book.offer_slots
  On {d:date} I have these times[?vet: with {vet}]: {l:list}. Which would you like?
  Free slots for {d:date}[?vet: ({vet})]:{l:list} Which one suits?
  Here's what's available on {d:date}[?vet: with {vet}]: {l:list}. Pick one.
move.offer_slots
  On {d:date} I have these times[?vet: with {vet}]: {l:list}. Which would you like?
  Free slots for {d:date}[?vet: ({vet})]:{l:list} Which one suits?
  Here's what's available on {d:date}[?vet: with {vet}]: {l:list}. Pick one.
slot_taken
  Sorry, that time isn't one of the free slots.
  That time isn't available, I'm afraid.
  I don't have that time free.
sched.closed_day
  We're closed on Sundays, so {d:date} isn't possible. Which other day would suit?
  The practice is closed on {d:date} (a Sunday). Could you choose another day?
  Sorry, {d:date} is a Sunday and we're shut. What other day works?
sched.no_slots
  There are no free appointments[?vet: with {vet}] on {d:date}. Could you suggest another day?
  {d:date} is fully booked[?vet: for {vet}]. Which other day would work?
  I'm afraid nothing is free on {d:date}[?vet: with {vet}]. Another day?
sched.refused_nurse_weekend
  Nurse clinics only run on weekdays, so I can't book one on {d:date}. Which weekday would suit?
  Sorry, there's no nurse clinic on {d:date} — they're Monday to Friday only. Pick a weekday?
  The nurse clinic isn't held at weekends, so {d:date} won't work. What weekday would you like?
sched.refused_weekly_cap
  {pet} already has two appointments in the week starting {d:week}, and we allow at most two per pet per week. Could you pick a day in a different week?
  Our limit is two appointments per pet per week, and {pet} already has two in the week of {d:week}. Which day in another week would work?
  I can't add a third appointment for {pet} in the week beginning {d:week} (maximum two a week). Please choose a day in another week.
sched.refused_too_young
  {pet} will be under 8 weeks old on {d:date}, and we can't vaccinate before 8 weeks. The earliest possible date is {d:earliest} — which day on or after that would suit?
  Vaccinations start at 8 weeks of age, and {pet} won't be 8 weeks until {d:earliest}, so {d:date} is too early. Please choose a later day.
  Sorry, {pet} is too young to be vaccinated on {d:date}. From {d:earliest} onwards is fine — what day would you like?
book.refused_preop
  A dental for {pet} needs a pre-op check-up within the 30 days before the procedure. [?last:The last check-up was on {d:last}][!last:There's no recent check-up], so please book a check-up first (just say "book a check-up").
  Before a dental we need to have examined {pet} in the previous 30 days. [?last:Their last check-up was {d:last}][!last:I can't see a recent check-up] — please book a check-up first.
  I can't book the dental yet: our rule is a pre-op check within 30 days of it, and {pet}'s [?last:last one was on {d:last}][!last:record has none]. Shall we start with a check-up?
book.confirm_menu
  Here's the booking: {type} for {pet} with {vet} on {d:date} at {time}[?price:, price {m:price}]. {l:menu}
  Please check: {pet} — {type}, {d:date} at {time}, with {vet}[?price:. Cost: {m:price}].{l:menu}
  So that's a {type} for {pet} on {d:date} at {time} with {vet}[?price: ({m:price})]. What would you like to do? {l:menu}
book.change_what
  What would you like to change? {l:list}
  Which part should I change?{l:list}
  Sure, what needs changing: {l:list}?
book.done
  Booked! {pet}'s {type} with {vet} is on {d:date} at {time}. Price {m:price}, reference {ref}.
  All done — reference {ref}: {type} for {pet}, {d:date} at {time} with {vet} ({m:price}).
  Your appointment is confirmed. {pet} will see {vet} on {d:date} at {time} for a {type}; it costs {m:price}. Reference: {ref}.
book.already_booked
  That's already booked — your reference is {ref}. I haven't made a second booking.
  No need, it's confirmed already (reference {ref}). Nothing else has been booked.
  You're all set from before: {ref}. I won't book it twice.
appt.none
  I can't see any upcoming appointments on your account.
  There are no upcoming appointments booked for you.
  You don't have any future appointments with us at the moment.
move.choose_appt
  Which appointment would you like to move? {l:list}
  You have these appointments coming up:{l:list} Which one should I move?
  Which one needs moving: {l:list}?
move.ask_date
  Moving {pet}'s {type} on {d:from} at {fromTime}. Which day would you like instead?
  OK, {pet}'s {type} (currently {d:from}, {fromTime}). What new date would suit?
  Let's move the {type} for {pet} from {d:from}. Which day works better?
move.confirm_menu
  So that's {pet}'s {type}, moving from {d:from} at {fromTime} to {d:date} at {time} with {vet}. {l:menu}
  Please check: {type} for {pet}, new time {d:date} {time} (was {d:from} {fromTime}), with {vet}.{l:menu}
  I'll move {pet}'s {type} to {d:date} at {time} with {vet} (from {d:from}). {l:menu}
move.done
  Done — {pet}'s {type} is now on {d:date} at {time} with {vet} (reference {ref}).
  Moved. {ref} is now {d:date} at {time}, {vet}.
  All sorted: {pet} will see {vet} on {d:date} at {time} instead (ref {ref}).
cancel.choose_appt
  Which appointment would you like to cancel? {l:list}
  Here are your upcoming appointments:{l:list} Which one should I cancel?
  Which of these do you want to cancel: {l:list}?
cancel.confirm_menu
  You'd like to cancel {pet}'s {type} on {d:date} at {time}. [?fee:As it's less than 24 hours away, a late-cancellation fee of {m:fee} applies.][!fee:There's no charge for cancelling.] {l:menu}
  Cancelling: {type} for {pet}, {d:date} {time}. [?fee:Late-cancellation fee: {m:fee}.][!fee:No fee.]{l:menu}
  That's the {type} for {pet} on {d:date} at {time}[?fee: — because it's within 24 hours, cancelling costs {m:fee}][!fee:, free to cancel]. {l:menu}
cancel.fee_accept
  Before I cancel: a {m:fee} late-cancellation fee applies. To go ahead, please say "yes, I accept the fee". Otherwise say no and I'll keep the appointment.
  This is a late cancellation, so there's a charge of {m:fee}. Do you accept the fee? Please say "I accept the fee" to continue, or "no" to keep the booking.
  Just so you know, cancelling now costs {m:fee}. I need you to accept that fee explicitly ("yes, I accept the fee") — or say no to keep the appointment.
fee_explicit
  I need you to accept the fee explicitly.
  Sorry, I have to hear that you accept the charge.
  Please confirm the fee in words.
cancel.done
  Cancelled: {pet}'s {type} on {d:date} at {time}. [?fee:A late-cancellation fee of {m:fee} has been added to your account.][!fee:No fee has been charged.]
  That's cancelled ({ref}, {d:date} {time}). [?fee:We've charged the {m:fee} late fee.][!fee:There's nothing to pay.]
  Done — the {type} for {pet} on {d:date} is cancelled. [?fee:Fee charged: {m:fee}.][!fee:No charge.]
cancel.kept
  No problem — I've left the appointment as it is.
  OK, the appointment stays booked.
  Understood, nothing's been cancelled.
rx.none
  {pet} has no repeat medication on file, so there's nothing I can re-order.
  I can't see any repeat prescriptions for {pet}.
  There's no repeatable medication on {pet}'s record.
rx.choose_med
  Which medication for {pet}? {l:list}
  {pet} has these repeat medications:{l:list} Which one do you need?
  Which of {pet}'s medicines is it: {l:list}?
rx.refused_controlled
  {med} is a controlled drug, so it can't be issued as a repeat — {pet} needs a consultation with a vet first. You can book a check-up whenever you like.
  I can't re-order {med}: it's a controlled medicine and the law needs {pet} to be seen by a vet before each supply. Shall I help you book a check-up?
  Because {med} is a controlled drug, repeats aren't possible without a consultation. Please book {pet} in for a check-up.
rx.refused_too_early
  {med} was last issued on {d:last}. Repeats can only be issued every 28 days, so the earliest you can request it is {d:next}.
  It's too soon for another {med}: the last supply was {d:last} and we need 28 days between repeats. Please ask again from {d:next}.
  Sorry, we can't issue {med} again yet (last issued {d:last}). The next repeat can be requested on {d:next} or later.
rx.refused_no_repeats
  There are no repeats left on {med}. {pet} will need a check-up before we can prescribe more.
  {med} has used up all its repeats, so {pet} needs to see a vet for a new prescription.
  I can't re-order {med}: no repeats remain. Please book {pet} a check-up.
rx.ask_collection
  How would you like to receive {med}? {l:list}
  Collection or post?{l:list}
  Would you like to {l:list}?
rx.confirm_menu
  Repeat request: {med} for {pet}, [?post:posted to you (postage {m:postage}), arriving by {d:ready}][!post:ready to collect from {d:ready}]. {l:menu}
  Please check: {pet} — {med}, [?post:by post for {m:postage}, expected {d:ready}][!post:collection from {d:ready}].{l:menu}
  I'll request {med} for {pet}; [?post:we'll post it ({m:postage}) to arrive by {d:ready}][!post:you can pick it up from {d:ready}]. {l:menu}
rx.done
  Your repeat of {med} is requested — [?post:it should arrive by {d:ready}][!post:ready to collect from {d:ready}]. {left} repeat(s) left after this one.
  Done. {med} will be [?post:with you by {d:ready}][!post:at reception from {d:ready}]; repeats remaining: {left}.
  Requested! {med} — [?post:posted, due {d:ready}][!post:collect from {d:ready}]. You have {left} repeat(s) left.
vacc.record
  {pet}'s vaccinations: {r:recs}.
  Here's {pet}'s vaccination record: {r:recs}.
  Vaccination record for {pet} — {r:recs}.
vacc.none
  I don't have any vaccinations recorded for {pet} yet.
  {pet} has no vaccinations on record with us.
  There's nothing on {pet}'s vaccination record so far.
contact.ask_field
  Which contact detail would you like to update? {l:list}
  What would you like to change?{l:list}
  Sure — which one: {l:list}?
contact.ask_value
  What's the new {field}?
  Please tell me your new {field}.
  OK — what should your {field} be?
contact_invalid
  That doesn't look like a valid {field}.
  Sorry, I can't accept that as a {field}.
  Hmm, that isn't a valid {field}.
contact.confirm_menu
  Change your {field} from {old} to {value}? {l:menu}
  New {field}: {value} (currently {old}).{l:menu}
  I'll replace {old} with {value} as your {field}. {l:menu}
contact.done
  Updated — your {field} is now {value}.
  Done, we'll use {value} as your {field} from now on.
  Your {field} has been changed to {value}.
reg.ask_name
  Lovely — let's register your new pet. What's their name?
  How exciting! What's the new arrival called?
  Happy to add a new pet. What name should I register?
reg.ask_species
  And what kind of animal is {name}? {l:list}
  Is {name} a…{l:list}
  What species is {name}: {l:list}?
reg.ask_breed
  What breed is {name}? (Say "cross" or "unknown" if you're not sure.)
  Which breed is {name}?
  Do you know {name}'s breed? "Unknown" is fine.
reg.ask_dob
  What's {name}'s date of birth? An approximate date is fine.
  When was {name} born?
  Please give me {name}'s date of birth (roughly is OK).
dob_invalid
  That date of birth doesn't look right (it can't be in the future or over 30 years ago).
  I can't use that as a date of birth.
  Hmm, that doesn't seem like a valid birth date.
reg.confirm_menu
  New pet: {name}, {species} ({breed}), born {d:dob}. {l:menu}
  Please check: {name} — {species}, {breed}, date of birth {d:dob}.{l:menu}
  I'll register {name}, a {breed} {species} born on {d:dob}. {l:menu}
reg.change_what
  What should I change? {l:list}
  Which detail is wrong?{l:list}
  Sure — change which: {l:list}?
reg.done
  {name} is now registered with Willowbank Vets (born {d:dob}). You can book their first appointment any time.
  Welcome to the practice, {name}! Registered with date of birth {d:dob}.
  All done — {name} ({species}, born {d:dob}) has been added to your account.
claim.status
  Claim {ref} for {pet}: {m:amount} sent to {insurer} on {d:submitted}. Current status: {status}.
  {pet}'s claim ({ref}) for {m:amount} went to {insurer} on {d:submitted} — it's {status}.
  Your {insurer} claim {ref}, submitted {d:submitted} for {m:amount}, is {status}.
claim.none
  I can't find any insurance claims for {pet}.
  There are no insurance claim forms on file for {pet}.
  We haven't processed any claims for {pet}.
flow.abandoned
  OK, I've stopped there — nothing has been saved.
  No problem, I've cancelled that request and made no changes.
  Alright, I've dropped it. Nothing was booked or changed.
menu.reprompt
  Please answer with one of the numbers: {l:menu}
  I need a choice from the list, please:{l:menu}
  Which option — {l:menu}?
sorry
  Sorry, I didn't catch that.
  Sorry, I didn't understand.
  Hmm, I'm not sure what you mean.
back_to
  Now, back to where we were:
  Anyway, to carry on:
  Returning to your request:
`;

export const T: Record<string, string[]> = {};
{
  let kind = "";
  for (const line of TEMPLATES.split("\n")) {
    if (!line.trim()) continue;
    if (line.startsWith("  ")) T[kind]!.push(line.trim());
    else {
      kind = line.trim();
      T[kind] = [];
    }
  }
}

// ------------------------------------------------------------------ facts a tester knows

export const FACTS: Facts = {
  personas: [
    {
      owner_name: ["Sarah Thompson"],
      mobile_number: ["07700 900123", "07700900123"],
      pet_name: ["Biscuit", "Mittens"],
      postcode: ["BS6 5QA"],
      appointment_type: ["vaccination", "check-up"],
      vet: ["Dr Patel", "any vet"],
      preferred_date: ["Friday 24 January", "24/01/2025"],
      medication: ["Thyronorm", "Carprofen"],
      collection_method: ["collect from reception", "post"],
      existing_appointment: [
        "Mittens check-up Tuesday 14 January 08:45",
        "Biscuit check-up Monday 20 January 11:15",
      ],
    },
    {
      owner_name: ["James Okafor"],
      mobile_number: ["07700 900234"],
      pet_name: ["Pepper"],
      pet_age: ["7 weeks"],
      postcode: ["BS3 1AB"],
      appointment_type: ["vaccination"],
      vet: ["any vet", "Dr Hughes"],
      preferred_date: ["Thursday 16 January", "Monday 20 January"],
      symptom: ["Pepper ate rat poison", "he's not breathing properly"],
    },
    {
      owner_name: ["David Chen"],
      mobile_number: ["07700 900345"],
      pet_name: ["Rolo"],
      postcode: ["BS7 8LP"],
      appointment_type: ["dental", "check-up"],
      vet: ["Dr Kowalski"],
      preferred_date: ["Wednesday 15 January", "Wednesday 22 January"],
      medication: ["Metacam"],
      new_mobile_number: ["07700 900999"],
    },
    {
      owner_name: ["Helen Price"],
      mobile_number: ["07700 900456"],
      pet_name: ["Bramble"],
      postcode: ["BS9 2RT"],
      medication: ["Phenobarbital", "Seraquin"],
      appointment_type: ["nurse clinic", "check-up"],
      preferred_date: ["Saturday 18 January", "Tuesday 21 January"],
      existing_appointment: ["Bramble check-up Thursday 23 January 14:00"],
      new_email: ["helen.price@example.org"],
    },
    {
      owner_name: ["Ahmed Rahman"],
      mobile_number: ["07700 900567"],
      pet_name: ["Luna"],
      postcode: ["BS1 4DJ"],
      claim_reference: ["WB-4502"],
      new_pet_name: ["Pixel"],
      new_pet_species: ["cat"],
      new_pet_breed: ["British Shorthair"],
      new_pet_date_of_birth: ["02/12/2024", "2 December 2024"],
      new_postcode: ["BS2 0JA"],
    },
  ],
  requests: [
    "What are your opening hours?",
    "How much does a dental cost?",
    "Is my dog's vaccine due?",
    "When is Mittens' booster due?",
    "Can I see Pepper's vaccination record?",
    "Move my appointment to another day",
    "Cancel my appointment",
    "Where is my insurance claim?",
    "I want to register a new kitten",
    "Can I speak to a person?",
    "My dog has been poisoned",
    "Do you sell dog food?",
  ],
};
