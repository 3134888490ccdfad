import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data for held-out testbed agent 5: the in-memory records, the calendar and its date helpers, the reply
 * wordings (2–4 per reply, picked by the session's seeded generator; placeholders are written `{name}`),
 * the keyword/regex NLU, and what a tester knows beforehand.
 */

/** The fixed "today" of every session (a Wednesday). */
export const TODAY = "2025-04-16";

/** Public holidays in the bookable window. */
export const HOLIDAYS: Readonly<Record<string, string>> = {
  "2025-04-18": "Good Friday",
  "2025-04-21": "Easter Monday",
  "2025-05-05": "Early May",
  "2025-05-26": "Spring",
};

/** Bin collection weekday (0 = Sunday) per postcode district; districts outside the map are out of area. */
export const BIN_DAYS: Readonly<Record<string, number>> = { RV1: 1, RV2: 2, RV3: 4, RV4: 5 };

export interface Permit {
  vehicle: string;
  until: string;
}

export interface Resident {
  account: string;
  name: string;
  dob: string;
  address: string;
  postcode: string;
  mobileLast4: string;
  code: string;
  /** Controlled parking zone letter, or null when the address is not in one. */
  zone: string | null;
  /** Vehicles whose registered keeper address is this household. */
  vehicles: string[];
  permits: Permit[];
  concession: boolean;
  bulky: { ref: string; date: string; items: number } | null;
}

export interface Fine {
  number: string;
  vehicle: string;
  issued: string;
  street: string;
  contravention: string;
  status: "open" | "paid" | "challenged";
}

export interface Report {
  ref: string;
  category: string;
  location: string;
  status: string;
}

export interface Db {
  residents: Resident[];
  fines: Fine[];
  reports: Report[];
}

export function freshDb(): Db {
  return {
    residents: [
      {
        account: "RC-10421",
        name: "Margaret Okafor",
        dob: "1961-03-14",
        address: "12 Elm Road",
        postcode: "RV1 4AB",
        mobileLast4: "4471",
        code: "482913",
        zone: "A",
        vehicles: ["LK19 XRD", "YB21 KTP"],
        permits: [{ vehicle: "LK19 XRD", until: "2025-06-30" }],
        concession: true,
        bulky: null,
      },
      {
        account: "RC-31108",
        name: "Aisha Rahman",
        dob: "1995-06-27",
        address: "4 Oak Terrace",
        postcode: "RV2 7LD",
        mobileLast4: "5520",
        code: "630158",
        zone: "B",
        vehicles: ["AR70 BHM", "AR19 KLD", "AR22 VEX"],
        permits: [
          { vehicle: "AR70 BHM", until: "2025-09-30" },
          { vehicle: "AR19 KLD", until: "2025-12-31" },
        ],
        concession: false,
        bulky: null,
      },
      {
        account: "RC-42936",
        name: "Tomasz Nowak",
        dob: "1979-01-09",
        address: "27 Canal Street",
        postcode: "RV1 2HG",
        mobileLast4: "7785",
        code: "905264",
        zone: "A",
        vehicles: ["TN15 OWK", "WX66 LMA"],
        permits: [],
        concession: false,
        bulky: null,
      },
      {
        account: "RC-20577",
        name: "Daniel Price",
        dob: "1988-11-02",
        address: "88 Hillside Drive",
        postcode: "RV3 9QZ",
        mobileLast4: "0932",
        code: "117402",
        zone: null,
        vehicles: ["DP68 WNF"],
        permits: [],
        concession: false,
        bulky: { ref: "BW-3120", date: "2025-04-23", items: 2 },
      },
      {
        account: "RC-50264",
        name: "Grace Whitfield",
        dob: "1953-08-30",
        address: "3 Mill Lane",
        postcode: "RV4 1TT",
        mobileLast4: "2208",
        code: "274815",
        zone: "C",
        vehicles: [],
        permits: [],
        concession: true,
        bulky: null,
      },
    ],
    fines: [
      {
        number: "RV40012345",
        vehicle: "YB21 KTP",
        issued: "2025-04-09",
        street: "Market Street",
        contravention: "parked in a residents' bay without a valid permit",
        status: "open",
      },
      {
        number: "RV40012399",
        vehicle: "DP68 WNF",
        issued: "2025-03-10",
        street: "Station Road",
        contravention: "parked on double yellow lines",
        status: "open",
      },
      {
        number: "RV40012410",
        vehicle: "AR70 BHM",
        issued: "2025-03-28",
        street: "Queen's Parade",
        contravention: "stayed longer than the time allowed",
        status: "open",
      },
      {
        number: "RV40012288",
        vehicle: "TN15 OWK",
        issued: "2025-02-11",
        street: "Bridge Street",
        contravention: "parked in a loading bay",
        status: "paid",
      },
      {
        number: "RV40012455",
        vehicle: "WX66 LMA",
        issued: "2025-04-07",
        street: "Canal Street",
        contravention: "parked on a footway",
        status: "challenged",
      },
    ],
    reports: [
      {
        ref: "FR-5531",
        category: "pothole",
        location: "Mill Lane, outside number 12",
        status: "a repair is scheduled for Thursday 24 April",
      },
      {
        ref: "FR-5540",
        category: "broken streetlight",
        location: "Canal Street near the lock",
        status: "an engineer has inspected it and is waiting for a replacement part",
      },
      {
        ref: "FR-5512",
        category: "fly-tipping",
        location: "Orchard Close",
        status: "the waste was cleared on 11 April and the report is closed",
      },
    ],
  };
}

/** Permit prices by length in months: first permit in a household, then a second one. */
export const PERMIT_PRICES: Readonly<Record<number, readonly [number, number]>> = {
  3: [25, 40],
  6: [45, 70],
  12: [80, 125],
};

export const REPORT_CATEGORIES = [
  { name: "pothole", days: 5 },
  { name: "broken streetlight", days: 7 },
  { name: "fly-tipping", days: 3 },
  { name: "graffiti", days: 10 },
] as const;

export const CHALLENGE_REASONS = [
  "the signs or road markings were unclear",
  "you had a valid permit or pay-and-display ticket",
  "the vehicle had been stolen",
  "another reason",
] as const;

// ---------- calendar ----------

const DAY_MS = 86_400_000;
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);
const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

const ms = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (t: number): string => new Date(t).toISOString().slice(0, 10);
export const addDays = (iso: string, n: number): string => isoOf(ms(iso) + n * DAY_MS);
export const dayOfWeek = (iso: string): number => new Date(ms(iso)).getUTCDay();
export const daysBetween = (a: string, b: string): number => Math.round((ms(b) - ms(a)) / DAY_MS);

export function addMonths(iso: string, n: number): string {
  const d = new Date(ms(iso));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return isoOf(target.getTime());
}

/** "Thursday 24 April" */
export function longDate(iso: string): string {
  const d = new Date(ms(iso));
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "24 April 2025" */
export function fullDate(iso: string): string {
  const d = new Date(ms(iso));
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function makeIso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const iso = isoOf(Date.UTC(y, m - 1, d));
  return Number(iso.slice(8, 10)) === d ? iso : null;
}

function yearOf(raw: string | undefined): number {
  if (!raw) return Number(TODAY.slice(0, 4));
  const y = Number(raw);
  if (raw.length === 2) return y <= 30 ? 2000 + y : 1900 + y;
  return y;
}

const monthIndex = (word: string): number =>
  MONTHS.findIndex((m) => m.toLowerCase().startsWith(word.slice(0, 3))) + 1;

/** A date the customer typed (numeric, ISO, "24 April", "April 24th", "tomorrow", "Tuesday"), as ISO, or null. */
export function parseDate(text: string): string | null {
  const t = text.toLowerCase();
  let m = t.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return makeIso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = t.match(/(?<![\d-])(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{4}|\d{2}))?(?![\d])/);
  if (m) return makeIso(yearOf(m[3]), Number(m[2]), Number(m[1]));
  m = t.match(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b\\.?(?:,?\\s+(\\d{4}))?`),
  );
  if (m) return makeIso(yearOf(m[3]), monthIndex(m[2]!), Number(m[1]));
  m = t.match(new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`));
  if (m) return makeIso(yearOf(m[3]), monthIndex(m[1]!), Number(m[2]));
  if (/\btomorrow\b/.test(t)) return addDays(TODAY, 1);
  if (/\btoday\b/.test(t)) return TODAY;
  const wd = WEEKDAYS.findIndex((w) => new RegExp(`\\b${w.toLowerCase()}\\b`).test(t));
  if (wd < 0) return null;
  let d = addDays(TODAY, 1);
  while (dayOfWeek(d) !== wd) d = addDays(d, 1);
  return d;
}

export const isWorkingDay = (iso: string): boolean => dayOfWeek(iso) % 6 !== 0 && !HOLIDAYS[iso];

/** Working days d with from < d ≤ to. */
export function workingDaysAfter(from: string, to: string): number {
  let n = 0;
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isWorkingDay(d)) n++;
  return n;
}

/** Reply wordings: key (mostly a state id) → paraphrases separated by " | ". */
export const WORDINGS: Readonly<Record<string, string>> = {
  "start.greet":
    "Hello, and welcome to the Riverton City Council online help desk. | Hi there, you're through to Riverton Council resident services. | Good day! This is the Riverton City Council assistant.",
  "menu.show":
    "I can help with bin collection days, booking a bulky waste collection, residents' parking permits, paying or challenging a parking fine, reporting a street problem, and checking on a report you've already made. What would you like to do? | Here's what I can do: tell you your bin day, book a bulky item collection, issue a residents' parking permit, take a payment for or a challenge to a parking fine (PCN), log a street problem, or look up an existing report. How can I help? | Things I can sort out today: bin days, bulky waste pick-ups, parking permits, parking fines (pay or challenge), reporting problems such as potholes, and report progress checks. Which do you need?",
  "menu.clarify":
    'Sorry, I didn\'t quite catch that. Which service do you need: bins, bulky waste, a parking permit, a parking fine, or reporting a problem? | I\'m not sure I follow. Is this about bins, a bulky collection, a permit, a parking fine, or a street problem? | Apologies, I couldn\'t work out what you need. You can say things like "book a bulky collection" or "pay a parking fine".',
  "menu.out_of_scope":
    "{topic} is handled by a different team, so I can't deal with it in this chat; the switchboard on 0300 555 0100 can put you through. Is there anything else I can help with? | I'm afraid {topic} falls outside what this assistant covers. Please call 0300 555 0100 for that. Anything else? | This chat only covers bins, bulky waste, permits, parking fines and street reports, so for {topic} you'd need to contact the council on 0300 555 0100. Can I help with anything else?",
  "handoff.human":
    "You can speak to an adviser on 0300 555 0100, Monday to Friday, 9am to 5pm. | Our advisers are on 0300 555 0100 (weekdays 9 to 5) and will be happy to help. | If you'd rather talk to a person, call 0300 555 0100 between 9am and 5pm on weekdays.",
  "session.cancelled":
    "No problem, I've stopped that and nothing has been changed. Is there anything else? | OK, I've left that there; nothing was saved. What else can I do for you? | That's cancelled, with no changes made. Anything else I can help with?",
  "session.goodbye":
    "Thanks for contacting Riverton City Council. Goodbye! | Glad I could help. Have a good day! | Take care, and thanks for getting in touch.",
  "auth.ask_account":
    "To {purpose} I first need to confirm who you are. What's your council account number? It starts with RC. | Before I can {purpose}, I'll need to verify your identity. Could you give me your council account number (RC followed by five digits)? | I can {purpose} once you're verified. What is your council account number, please?",
  "auth.ask_account/again":
    "I need your council account number to carry on; it looks like RC-12345. | Sorry, I couldn't see an account number there. It's RC followed by five digits.",
  "auth.unknown_account":
    "I can't find an account with that number. Please check it and try again; it's RC followed by five digits. | That account number doesn't match any of our records. Could you check and type it again? | There's no account under that number, I'm afraid. What's the number shown on your council letters?",
  "auth.ask_dob":
    "Thanks. And your date of birth, please? | Got it. To confirm it's you, what's your date of birth? | Thank you. Please tell me the date of birth of the account holder.",
  "auth.ask_dob/again":
    "Sorry, I couldn't read that as a date. Please give your date of birth, for example 14/03/1961. | I need the full date of birth, day, month and year.",
  "auth.failed":
    "That date of birth doesn't match our records for that account. Please try again ({left} left). | Those details don't match, I'm afraid. You have {left} left; what's your date of birth? | Hmm, that isn't the date of birth we hold. Could you try again? ({left} left)",
  "auth.locked":
    "For security, I can't take any more sign-in attempts in this conversation. Please call 0300 555 0100 and an adviser will help. | Sign-in is now locked for this chat after too many failed attempts. An adviser on 0300 555 0100 can verify you another way.",
  "auth.ok":
    "Thanks, {first}, you're verified. | Lovely, that's you confirmed, {first}. | Thank you {first}, that all matches.",
  "otp.ask_account":
    "Parking permits need a text-message check. What's your council account number? | For permits I verify you with a one-time code sent to your mobile. First, what's your council account number? | I'll send a security code to the mobile we hold for you. Which council account number is this for?",
  "otp.sent":
    "I've sent a six-digit code to the mobile ending {last4}. Please type it here. | A one-time code is on its way to your phone ending {last4}. What's the code? | Please enter the six-digit code just texted to the number ending {last4}.",
  "otp.sent/again":
    "I'm waiting for the six-digit code sent to the mobile ending {last4}. | Please type the six digits from the text message to the phone ending {last4}.",
  "otp.wrong_code":
    "That code isn't right. Please check the text and try again ({left} left). | Sorry, that doesn't match the code we sent. {left} left. | The code doesn't match, I'm afraid; please re-enter it ({left} left).",
  "otp.locked":
    "Too many incorrect codes, so I can't verify you by text in this chat. Please call 0300 555 0100. | For your security the code check is now locked for this conversation. An adviser on 0300 555 0100 can help.",
  "otp.ok":
    "Thanks, {first}, that code is correct. | Code accepted. Thank you, {first}. | That's verified, {first}.",
  "bins.ask_postcode":
    "I can check that for you. What's the postcode? | Sure, which postcode are the bins at? | Happy to look that up. Could you give me the postcode?",
  "bins.ask_postcode/again":
    "Sorry, I couldn't see a postcode there. It looks like RV1 4AB. | I need a full postcode to look up the collection day, for example RV2 7LD.",
  "bins.out_of_area":
    "{postcode} isn't in the Riverton council area, so we don't collect there; the local council for that address will have its collection days. | Collections for {postcode} aren't run by Riverton; that postcode is outside our area. Your own council's website will list its bin days. | We only collect within Riverton, and {postcode} falls outside it, I'm afraid.",
  "bins.told_day":
    "Bins at {postcode} are collected on {weekday}s. Your next collection is {next}. | For {postcode}, collection day is {weekday}. The next one is {next}. | {postcode} is on the {weekday} round; next collection: {next}.",
  "bins.shift":
    " That's a day later than usual because of the {holiday} bank holiday. |  It moves back a day that week due to the {holiday} bank holiday.",
  "bulky.refused_existing":
    "There's already a bulky collection booked for your household on {date} (reference {ref}). Only one booking can be open at a time, so a new one can be made after that collection. | Your household has a bulky collection on {date} already ({ref}). We hold one booking per household at a time, so I can't add another yet. | A collection is already arranged for {date} under {ref}; a second booking can only be made once that one has taken place.",
  "bulky.ask_items":
    "How many items would you like collected? We can take up to 8 per booking. | How many bulky items are there? The maximum is 8 in one collection. | Please tell me the number of items (no more than 8).",
  "bulky.ask_items/again":
    "Sorry, I need the number of items as a number, for example 3. | How many items is that in total? Just the number, please.",
  "bulky.refused_too_many":
    "We can collect at most 8 items in one booking, so {items} is too many. How many would you like in this booking? | A single collection only covers up to 8 items. Could you bring it down to 8 or fewer for this booking? | {items} items is over the limit of 8 per collection, I'm afraid. How many shall I book?",
  "bulky.ask_date":
    "Which date would you like the collection? We collect Monday to Friday. | What day would suit you for the pick-up? Any weekday within the next four weeks. | When should we come? Please give a weekday date.",
  "bulky.ask_date/again":
    "Sorry, I couldn't read that as a date. Please give a date such as 24 April. | Which date would you like? For example, Thursday 24 April.",
  "bulky.refused_weekend":
    "{date} is a weekend, and collection crews only work Monday to Friday. Which weekday would you like? | We don't collect at weekends, so {date} won't work. Could you pick a weekday?",
  "bulky.refused_holiday":
    "{date} is the {holiday} bank holiday, so the crews aren't out that day. Could you choose another date? | Ah, {date} is a public holiday ({holiday}), so there are no collections. Which other date suits you? | There are no collections on {date}, the {holiday} bank holiday. What other day works?",
  "bulky.refused_short_notice":
    "We need at least two working days' notice, so the earliest date I can offer is {earliest}. Which date would you like? | That's too soon, I'm afraid: bookings need two working days' notice, which makes {earliest} the first available day. | Collections have to be booked two working days ahead, so {date} is too early; the earliest is {earliest}.",
  "bulky.refused_too_far":
    "Bookings only open four weeks ahead, up to {latest}, so {date} is too far out. Could you choose an earlier date? | {date} is beyond our four-week booking window (last date {latest}). Which earlier date would suit?",
  "bulky.quote":
    "Collecting {items} from {address}, {postcode} on {date} comes to £{price}{conc}. Would you like me to book it? | Here's the quote: {items} collected on {date} from {address}, {postcode}, for £{price}{conc}. Shall I go ahead and book? | That would be {items} on {date} at {address}, {postcode}; the price is £{price}{conc}. Do you want to accept and book it?",
  "bulky.concession": " (including your 50% concession) |  (your 50% concession is applied)",
  "bulky.corrected": "No problem, I've updated that. | Sure, I've changed that. | Of course, updated.",
  "bulky.quote/again":
    "Would you like me to book the collection at that price? Yes or no. | Shall I go ahead with that booking? Please say yes or no.",
  "bulky.quote_declined":
    "OK, I haven't booked anything. The quote isn't held, so just ask again whenever you're ready. | Fine, no booking made. Is there anything else? | Understood, I've left it unbooked.",
  "bulky.booked":
    "Booked. Reference {ref}: {items} to be collected on {date} from {address}; £{price} has been added to your council account. Please leave the items outside by 7am. | All done: collection {ref} on {date}, {items}, £{price} charged to your council account. Put them out by 7am that morning. | Your booking is confirmed ({ref}): {items} on {date} from {address}, £{price}. Items need to be out by 7am.",
  "permit.refused_no_zone":
    "Residents' permits only apply to addresses inside a controlled parking zone, and {postcode} isn't in one, so there's no permit to issue; parking on your street is unrestricted. | Your address ({postcode}) is outside the controlled parking zones, so residents' permits aren't needed or available there. | Permits are only issued within the controlled zones, and {postcode} isn't covered by one.",
  "permit.household":
    "Your household at {address} currently holds {count}. | Permits on record for {address}: {count}. | I can see {count} for {address}.",
  "permit.refused_limit":
    "Each household can hold at most two resident permits, so I can't add another until one of those expires on {until}. | Since that's already the maximum of two per household, a new permit can only be issued once one lapses ({until}).",
  "permit.ask_vehicle":
    "Which vehicle is the new permit for? Please give the registration. | What's the registration number of the vehicle? | Please type the registration of the car the permit is for.",
  "permit.invalid_vehicle":
    "Sorry, that doesn't look like a registration. It should look like AB12 CDE. | I couldn't read a registration number there. Could you type it again, for example AB12 CDE?",
  "permit.refused_vehicle_has_permit":
    "{vehicle} already has a permit, valid until {until}, so it doesn't need another. Is there a different vehicle? | There's already a current permit on {vehicle} (until {until}). Which other vehicle did you mean?",
  "permit.refused_vehicle_elsewhere":
    "Permits only apply to vehicles registered at the permit address, and {vehicle} isn't registered to {address}. Is there another vehicle? | Our records show {vehicle} is registered to a different address, so it can't have a resident permit here. Which other vehicle would you like it for? | {vehicle} would need to be registered to {address} first; permits are only issued to vehicles kept at the address.",
  "permit.ask_duration":
    "How long would you like the permit for?\n1. 3 months, £{p3}\n2. 6 months, £{p6}\n3. 12 months, £{p12}\nPlease choose 1, 2 or 3. | Please pick a length:\n1. 3 months (£{p3})\n2. 6 months (£{p6})\n3. 12 months (£{p12}) | Which option would you like?\n1. Three months, £{p3}\n2. Six months, £{p6}\n3. Twelve months, £{p12}",
  "permit.second_price":
    "As this is a second permit for the household, the second-permit prices apply.  | Second permits in a household are charged at a higher rate. ",
  "permit.invalid_choice":
    "Sorry, please choose option 1, 2 or 3. | That isn't one of the options; please reply with 1, 2 or 3.",
  "permit.confirm":
    "Here's the permit: {vehicle}, Zone {zone}, {months} months from {start} to {until}, £{price} added to your council account. Shall I issue it? | To confirm: a resident permit for {vehicle} in Zone {zone}, valid {start} until {until} ({months} months), costing £{price}. Shall I go ahead? | Please check: vehicle {vehicle}, Zone {zone}, {start} to {until}, £{price}. Is that right to issue?",
  "permit.confirm/again":
    "Shall I issue the permit? Yes or no. | Please say yes to issue the permit, or no to stop.",
  "permit.declined":
    "OK, no permit has been issued. | Understood, I haven't issued anything. | Fine, I've stopped there; nothing has been charged.",
  "permit.issued":
    "Done. Permit {ref} is active for {vehicle} in Zone {zone} until {until}; £{price} has been added to your account. | Your permit {ref} for {vehicle} (Zone {zone}) is live now and runs until {until}. £{price} charged to your council account. | Permit issued: {ref}, {vehicle}, Zone {zone}, valid to {until}. The £{price} is on your account.",
  "pcn.ask_number":
    "What's the PCN number? It starts with RV and is on the notice. | Please give me the penalty charge notice number (RV followed by eight digits). | Could you type the PCN number from the notice?",
  "pcn.invalid_number":
    "That doesn't look like a PCN number. It's RV followed by eight digits, for example RV40000000. | Sorry, I couldn't find a PCN number in that. It should be RV and eight digits.",
  "pcn.ask_vehicle":
    "And the vehicle registration on the notice? | Thanks. Which vehicle registration was it issued to? | What's the registration of the vehicle?",
  "pcn.not_found":
    "I can't find a PCN with that number and registration together. Please check both; what's the PCN number? | Those details don't match any notice I can see. Could you give me the PCN number again?",
  "pcn.refused_closed":
    "PCN {number} has already been paid, so there's nothing more to do on it. | That notice ({number}) is closed: it was paid in full.",
  "pcn.details":
    "PCN {number} was issued on {issued} on {street} ({contravention}). The amount due is £{due}{rate}. | I've found PCN {number}: {street}, {issued}, {contravention}. It currently stands at £{due}{rate}.",
  "pcn.ask_choice":
    " Would you like to pay it or challenge it? |  Do you want to pay it, or make a challenge?",
  "pcn.refused_on_hold":
    "A challenge on PCN {number} is still being considered, so payment is on hold. If the challenge is rejected you'll get 14 days to pay at the reduced rate. | PCN {number} is under challenge at the moment, so no payment is needed yet; you'll hear the outcome by letter.",
  "pay.ask_amount":
    "To confirm the payment, please type the amount exactly: {due}. | If you'd like to pay now, type the amount ({due}) to confirm. | Please confirm by typing the amount, {due}, or say cancel to stop.",
  "pay.amount_mismatch":
    "That amount doesn't match. The payment must be the full amount due; please type {due}. | Only the full amount of {due} can be taken. Please type {due} to confirm, or cancel.",
  "pay.declined":
    "OK, no payment taken. | Understood, I haven't taken any payment. | Fine, nothing has been charged.",
  "pay.done":
    "Payment received: £{amount} for PCN {number}. Your receipt number is {ref}. | Thank you, £{amount} has been paid for PCN {number} (receipt {ref}). | That's paid. Receipt {ref}: £{amount} against PCN {number}.",
  "challenge.refused_deadline":
    "Challenges can only be made within 28 days of the notice being issued. PCN {number} was issued on {issued}, so the window closed on {closed}. You can still pay it (£{due}); would you like to? | The challenge period is 28 days from issue, and for this notice that ended on {closed}, so I can't log a challenge now. Would you like to pay the £{due} instead? | I'm afraid the 28-day challenge window for {number} closed on {closed}. Do you want to pay the £{due} instead?",
  "challenge.refused_already":
    "A challenge has already been made on PCN {number} and is being considered; each notice can only be challenged once. | PCN {number} already has a challenge in progress, so another can't be added. You'll get a decision by letter.",
  "challenge.ask_reason":
    "What are the grounds for the challenge?\n1. The signs or road markings were unclear\n2. I had a valid permit or pay-and-display ticket\n3. The vehicle had been stolen\n4. Another reason | Please choose the reason:\n1. Unclear signs or lines\n2. I had a valid permit or ticket\n3. Vehicle stolen\n4. Something else",
  "challenge.invalid_choice":
    "Please reply with 1, 2, 3 or 4. | Sorry, that isn't one of the options. Which number, 1 to 4?",
  "challenge.ask_details":
    "In a sentence or two, what happened? | Please describe briefly what happened, so the reviewing officer has the details. | Could you give me a short explanation to go with the challenge?",
  "challenge.ask_details/again":
    "Could you give a little more detail, a full sentence or so? | I'll need a few more words than that for the officer to review.",
  "challenge.confirm":
    'I\'ll submit a challenge to PCN {number} on the grounds that {reason}, with your note: "{details}". The fine goes on hold while it\'s reviewed. Shall I submit it? | Ready to send: challenge to {number}, reason: {reason}, note: "{details}". Submit it now?',
  "challenge.confirm/again":
    "Shall I submit the challenge? Yes or no. | Please say yes to submit, or no to stop.",
  "challenge.declined": "OK, no challenge has been submitted. | Understood, I haven't sent the challenge.",
  "challenge.submitted":
    "Your challenge is submitted (reference {ref}). You'll get a decision by letter within 28 days, and the fine is on hold until then. | Submitted under reference {ref}. A decision will be posted to you within 28 days; nothing is payable meanwhile.",
  "report.ask_category":
    "What would you like to report?\n1. Pothole\n2. Broken streetlight\n3. Fly-tipping\n4. Graffiti | Which kind of problem is it?\n1. A pothole\n2. A streetlight not working\n3. Fly-tipping\n4. Graffiti",
  "report.invalid_choice":
    "Sorry, please choose 1, 2, 3 or 4. | I can log potholes, streetlights, fly-tipping and graffiti; which number is it?",
  "report.ask_location":
    "Where is the {category}? Please give the street name and a nearby landmark or house number. | What's the location of the {category}? A street name and something nearby helps the crew find it. | Whereabouts is it? Street and nearest house number or landmark, please.",
  "report.location_unclear":
    "Could you include the street name (for example, Mill Lane near number 12)? | I need a street name to send the crew to the right place.",
  "report.confirm":
    "I'll log a {category} at {location}. Shall I submit the report? | Report: {category}, location {location}. Is that right to send?",
  "report.confirm/again": "Shall I send the report? Yes or no. | Please say yes to log it, or no to stop.",
  "report.declined": "OK, I haven't logged anything. | No report sent. Anything else?",
  "report.logged":
    "Thanks, that's logged as {ref}. We aim to inspect a {category} within {days} working days. | Report {ref} is in. {category} reports are usually inspected within {days} working days. | Logged: {ref}. The crew aims to look at it within {days} working days.",
  "status.ask_reference":
    "What's the report reference? It starts with FR. | Please give me the reference number, for example FR-1234. | Which reference is it? It'll look like FR- followed by four digits.",
  "status.not_found":
    "I can't find a report with reference {ref}. Could you check the number? | There's no report under {ref} in our system. Is the reference right?",
  "status.told":
    "Report {ref} ({category}, {location}): {status}. | Here's the latest on {ref}, the {category} at {location}: {status}. | {ref} is a {category} report for {location}. Update: {status}.",
  "yes_no/again": "Sorry, was that a yes or a no? | I didn't catch that; yes or no?",
};

// ---------- session memory ----------

/** mulberry32: the seeded generator behind the paraphrase choice. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type PcnMode = "pay" | "challenge" | "ask";

/** Per-session dialogue memory. */
export function freshCtx() {
  return {
    after: null as "bulky" | "permit" | null,
    pending: null as Resident | null,
    verified: null as Resident | null,
    otpVerified: null as Resident | null,
    authFails: 0,
    authLocked: false,
    otpFails: 0,
    otpLocked: false,
    items: 0,
    date: "",
    orig: null as { items: number; date: string } | null,
    vehicle: "",
    months: 0,
    mode: "ask" as PcnMode,
    pcnNumber: "",
    fine: null as Fine | null,
    reason: 0,
    details: "",
    category: 0,
    location: "",
    counter: 0,
  };
}

// ---------- keyword / regex NLU ----------

const NUM_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");
const NUM = `(\\d{1,3}|${NUM_WORDS.slice(1).join("|")})`;
const toNum = (s: string): number => (NUM_WORDS.includes(s) ? NUM_WORDS.indexOf(s) : Number(s));

function grab(t: string, re: RegExp, shape: (m: RegExpMatchArray) => string): string | null {
  const m = t.match(re);
  return m ? shape(m) : null;
}
export const parseAccount = (t: string) =>
  grab(t, /\brc[-\s]?(\d{5})\b|^\s*(\d{5})\s*$/i, (m) => `RC-${m[1] ?? m[2]}`);
export const parseCode = (t: string) => grab(t, /(?<!\d)(\d{3})\s?(\d{3})(?!\d)/, (m) => `${m[1]}${m[2]}`);
export const parseReg = (t: string) =>
  grab(t, /\b([a-z]{2}\d{2})\s?([a-z]{3})\b/i, (m) => `${m[1]} ${m[2]}`.toUpperCase());
export const parsePcn = (t: string) => grab(t, /\brv\s?(\d{8})\b/i, (m) => `RV${m[1]}`);
export const parseRef = (t: string) => grab(t, /\bfr[-\s]?(\d{4})\b/i, (m) => `FR-${m[1]}`);
export const parsePostcode = (t: string) =>
  grab(t, /\b([a-z]{1,2}\d{1,2}[a-z]?)\s*(\d[a-z]{2})\b/i, (m) => `${m[1]} ${m[2]}`.toUpperCase());
export const parseAmount = (t: string): number | null => {
  const m = t.match(/(?:^|[\s£])(\d{1,4}(?:\.\d{1,2})?)(?![\d.])/);
  return m ? Number(m[1]) : null;
};
export const parseCount = (t: string): number | null => {
  const m = t.match(new RegExp(`(?:^|\\s)${NUM}(?=\\s|$|[.,!])`));
  return m ? toNum(m[1]!) : null;
};
export const parseItemsCorrection = (t: string): number | null => {
  const m = t.match(new RegExp(`\\b${NUM}\\s+(?:\\w+\\s+)?(?:items?|things|pieces)\\b`));
  return m && toNum(m[1]!) > 0 ? toNum(m[1]!) : null;
};
export function parseChoice(t: string, max: number): number | null {
  const m = t.match(/^\s*(?:option|number|no\.?)?\s*(\d)\b/) ?? t.match(/\b(?:option|number)\s*(\d)\b/);
  if (m) return Number(m[1]) >= 1 && Number(m[1]) <= max ? Number(m[1]) : null;
  const ord = ["first", "second", "third", "fourth"].findIndex((w) => new RegExp(`\\b${w}\\b`).test(t));
  return ord >= 0 && ord < max ? ord + 1 : null;
}
export function parseMonths(t: string, bare: boolean): number | null {
  if (/\b(3|three)[\s-]*months?\b|\bquarter/.test(t)) return 3;
  if (/\b(6|six)[\s-]*months?\b|\bhalf[\s-]a?[\s-]?year/.test(t)) return 6;
  if (/\b(12|twelve)[\s-]*months?\b|\b(a|one|full|whole) year\b|\bannual|\byearly\b/.test(t)) return 12;
  const explicit = t.match(/\boption\s*([123])\b/);
  const n = explicit ? Number(explicit[1]) : bare ? parseChoice(t, 3) : null;
  return n ? [3, 6, 12][n - 1]! : null;
}

const NO = /\b(no|nope|nah|don'?t|do not|not now|decline|not right|wrong|rather not)\b/;
const YES =
  /\b(yes|yeah|yep|yup|sure|ok|okay|correct|confirm(ed)?|go ahead|please do|do it|(book|issue|submit|send|log|pay) it|that'?s right|sounds good|accept|absolutely|definitely|fine)\b/;
export const yesNo = (t: string): "yes" | "no" | null => (NO.test(t) ? "no" : YES.test(t) ? "yes" : null);

export type Intent = "bins" | "bulky" | "permit" | "pcn_pay" | "pcn_challenge" | "pcn" | "report" | "status";
const STATUS =
  /\b(status|progress|update on|check on|follow up on|any news|happening with|already reported|reported (it )?(last|earlier|already))\b|\bfr[-\s]?\d{4}\b/;
const BULKY =
  /\b(bulky|sofa|settee|fridge|freezer|mattress|furniture|wardrobe|(large|big|bulk) items?|washing machine)\b/;

export function detectIntent(t: string): Intent | null {
  if (STATUS.test(t)) return "status";
  if (BULKY.test(t)) return "bulky";
  if (/\b(pcn|fine|parking ticket|penalty|charge notice)\b|\brv\s?\d{8}\b/.test(t)) {
    if (/\b(challenge|appeal|dispute|contest|unfair|wrongly)\b/.test(t)) return "pcn_challenge";
    return /\bpay/.test(t) ? "pcn_pay" : "pcn";
  }
  if (/\bpermits?\b/.test(t)) return "permit";
  if (/\b(pot ?holes?|street ?lights?|lamp ?posts?|fly.?tip\w*|graffiti|report)\b/.test(t)) return "report";
  if (/\b(bins?|rubbish|recycling|refuse|waste|collection days?|bin days?)\b/.test(t)) return "bins";
  return null;
}

export const CHANGE_TOPIC = "Changing or cancelling an existing booking or permit";
export const TOPICS: readonly [RegExp, string][] = [
  [/\b(cancel|change|move|reschedule)\b.*\b(booking|collection|permit)\b|\brefund/, CHANGE_TOPIC],
  [/council tax/, "Council tax"],
  [/\b(housing|tenancy|landlord|rent)\b/, "Housing"],
  [/\b(planning|building control|extension)\b/, "Planning"],
  [/\bbenefits?\b/, "Benefits"],
  [/\bschool (places?|admissions?)\b|\badmissions?\b/, "School admissions"],
  [/\b(vote|voting|electoral)\b/, "Electoral registration"],
  [/\bnoise|neighbours?\b/, "Noise and neighbour complaints"],
];

export const CANCEL = /^(cancel|stop|quit|abort|never ?mind|forget it)\b|\b(start (over|again))\b/;
export const HUMAN =
  /\b(human|real person|an? (agent|adviser|advisor|person)|someone|representative|operator|speak to|talk to)\b/;
export const BYE =
  /\b(bye|goodbye|that'?s all|nothing else|no thanks|no thank you|that'?s everything)\b|^(thanks|thank you|cheers)[.! ]*$/;
export const HELP = /\b(help|menu|options|what can you do|services)\b/;
export const GREETING = /^(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;
export const STREET =
  /\b(road|rd|street|st|lane|avenue|ave|way|close|drive|place|crescent|terrace|parade|hill|square|grove|row|walk|gardens|park|court|green)\b/;

export const money = (n: number): string => n.toFixed(2);
export const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What a tester knows before it starts. */
export const FACTS: Facts = {
  personas: [
    {
      full_name: ["Margaret Okafor"],
      account_number: ["RC-10421"],
      date_of_birth: ["14/03/1961"],
      postcode: ["RV1 4AB"],
      one_time_code: ["482913"],
      vehicle_registration: ["YB21 KTP", "LK19 XRD", "KP17 ZZA"],
      pcn_number: ["RV40012345"],
      number_of_items: ["5", "9"],
      collection_date: ["24 April", "5 May", "17 April"],
      permit_length: ["6 months"],
    },
    {
      full_name: ["Aisha Rahman"],
      account_number: ["RC-31108"],
      date_of_birth: ["27/06/1995"],
      postcode: ["RV2 7LD"],
      one_time_code: ["630158"],
      vehicle_registration: ["AR70 BHM", "AR22 VEX"],
      pcn_number: ["RV40012410"],
      challenge_reason: ["the sign was hidden behind an overgrown hedge"],
      number_of_items: ["8"],
      collection_date: ["2 May", "26 April"],
    },
    {
      full_name: ["Tomasz Nowak"],
      account_number: ["RC-42936"],
      date_of_birth: ["09/01/1979"],
      postcode: ["RV1 2HG"],
      one_time_code: ["905264"],
      vehicle_registration: ["TN15 OWK", "WX66 LMA"],
      pcn_number: ["RV40012455", "RV40012288"],
      permit_length: ["12 months", "3 months"],
      number_of_items: ["3"],
      collection_date: ["14 May", "20 May"],
    },
    {
      full_name: ["Daniel Price"],
      account_number: ["RC-20577"],
      date_of_birth: ["02/11/1988"],
      postcode: ["RV3 9QZ"],
      one_time_code: ["117402"],
      vehicle_registration: ["DP68 WNF"],
      pcn_number: ["RV40012399"],
      number_of_items: ["2"],
      collection_date: ["29 April"],
    },
    {
      full_name: ["Grace Whitfield"],
      account_number: ["RC-50264"],
      date_of_birth: ["30/08/1953"],
      postcode: ["RV4 1TT", "LN7 3PQ"],
      one_time_code: ["274815"],
      report_reference: ["FR-5531", "FR-5999"],
      problem_type: ["pothole", "broken streetlight"],
      problem_location: ["Mill Lane outside number 12", "the corner of Station Road and Bridge Street"],
      number_of_items: ["4"],
      collection_date: ["22 April", "21 April"],
    },
  ],
  requests: [
    "What day are my bins collected?",
    "I'd like to book a bulky waste collection for an old sofa and some chairs",
    "I need a residents' parking permit for my car",
    "I want to pay a parking ticket",
    "I want to challenge a parking fine I think was unfair",
    "I'd like to report a pothole",
    "Can you check on the status of a problem I reported?",
  ],
};
