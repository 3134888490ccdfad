import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data and language tables of the Roadwise Rentals held-out testbed agent (heldout8.ts): branches, one-way
 * routes, car classes, extras, the customer register and its bookings, the reply templates (three per reply
 * kind, chosen by seed and turn), the facts a tester starts from, and the small parser that reads customer
 * turns. Dates are day numbers (days since 1970-01-01, UTC); money is in pence.
 */

/** Day number of a calendar date. */
export function dayOf(y: number, m: number, d: number): number {
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** The desk's clock: Monday 1 March 2027, 09:00. Pickups are at 10:00. */
export const TODAY = dayOf(2027, 3, 1);
export const NOW_HOUR = 9;
export const PICKUP_HOUR = 10;
export const MAX_DAYS = 28;
export const MIN_AGE = 21;
export const YOUNG_AGE = 25;
export const YOUNG_SURCHARGE = 1500;
export const PREMIUM_YEARS = 3;
export const DRIVER_MIN_YEARS = 1;
export const DRIVER_PER_DAY = 1200;
export const MAX_DRIVERS = 2;
export const ONE_WAY_FEE = 4500;
export const FREE_CANCEL_HOURS = 48;
export const FEE_SHARE = 0.25;
export const MIN_FEE = 2500;

/** Day number of a `YYYY-MM-DD` date. */
function isoDay(s: string | undefined): number {
  const [y, m, d] = (s ?? "").split("-").map(Number);
  return dayOf(y ?? 0, m ?? 1, d ?? 1);
}

const words = (s: string) => s.split("|");

export const BRANCHES = [
  { id: "lhr", name: "Heathrow Airport", aliases: words("heathrow|lhr|london heathrow") },
  { id: "man", name: "Manchester Piccadilly", aliases: words("manchester|piccadilly") },
  { id: "edi", name: "Edinburgh Waverley", aliases: words("edinburgh|waverley") },
  { id: "bri", name: "Bristol Temple Meads", aliases: words("bristol|temple meads") },
  { id: "lds", name: "Leeds City", aliases: words("leeds") },
];

/** One-way drops offered (both directions). */
export const ONE_WAY: readonly (readonly [string, string])[] = [
  ["lhr", "man"],
  ["man", "lds"],
  ["lds", "edi"],
  ["lhr", "bri"],
];

const carClass = (id: string, name: string, rate: number, premium: boolean, aliases: string) => ({
  id,
  name,
  rate,
  premium,
  aliases: words(aliases),
});

export const CLASSES = [
  carClass("economy", "Economy", 3200, false, "economy|small car|cheapest"),
  carClass("compact", "Compact", 4100, false, "compact|hatchback"),
  carClass("estate", "Estate", 5500, false, "estate|station wagon"),
  carClass("suv", "SUV", 7200, true, "suv|4x4|four by four"),
  carClass("luxury", "Luxury", 9600, true, "luxury|prestige|executive"),
];

const extra = (id: string, perDay: number, branches: string, aliases: string) => ({
  id,
  name: id.replace("_", " "),
  perDay,
  branches: branches.split(" "),
  aliases: words(aliases),
});

/** Extras per day and the branches that stock them. */
export const EXTRAS = [
  extra("child_seat", 800, "lhr man edi bri lds", "child seat|baby seat|booster"),
  extra("sat_nav", 600, "lhr man edi bri lds", "sat nav|satnav|sat-nav|gps"),
  extra("snow_chains", 500, "edi lds", "snow chains|chains"),
  extra("roof_box", 900, "man bri lds", "roof box|roofbox"),
];

const cust = (licence: string, name: string, dob: string, since: string) => ({
  licence,
  name,
  first: name.split(" ")[0] ?? name,
  dob: isoDay(dob),
  licensedSince: isoDay(since),
});
export type Customer = ReturnType<typeof cust>;

export const CUSTOMERS: readonly Customer[] = [
  cust("MARSH804148EL9AB", "Eleanor Marsh", "1980-04-14", "2001-06-02"),
  cust("NOWAK903217TN4CD", "Tomasz Nowak", "2003-07-17", "2025-05-20"),
  cust("RAMAN857309PR2EF", "Priya Raman", "1985-07-30", "2004-09-01"),
  cust("CLARK706155MC3GH", "Maisie Clarke", "2006-06-15", "2024-08-10"),
  cust("HUGHE909090DH6JK", "Daniel Hughes", "1990-09-09", "2009-03-03"),
  cust("LINDQ952104SL5MN", "Sofia Lindqvist", "1995-10-04", "2014-11-12"),
];

export type Status = "confirmed" | "picked_up" | "returned" | "cancelled";
export type DepositState = "none" | "held" | "refunded" | "pending";

export interface SeedBooking {
  ref: string;
  licence: string;
  branch: string;
  dropoff: string;
  pickup: number;
  ret: number;
  cls: string;
  extras: readonly string[];
  drivers: readonly string[];
  status: Status;
  deposit: { pence: number; state: DepositState; date?: number };
}

/** `ref licence branch dropoff pickup return class extras drivers status deposit depositState [date]`. */
function bk(line: string): SeedBooking {
  const [ref = "", licence = "", branch = "", dropoff = "", pickup, ret, cls = "", ...rest] =
    line.split(/\s+/);
  const [extras, drivers, status, pence, state, date] = rest;
  const list = (s: string | undefined) => (s && s !== "-" ? s.split(",") : []);
  const deposit = {
    pence: Number(pence),
    state: state as DepositState,
    ...(date ? { date: isoDay(date) } : {}),
  };
  const names = list(drivers).map((x) => x.replace(/_/g, " "));
  const when = { pickup: isoDay(pickup), ret: isoDay(ret) };
  return {
    ref,
    licence,
    branch,
    dropoff,
    ...when,
    cls,
    extras: list(extras),
    drivers: names,
    status: status as Status,
    deposit,
  };
}

export const SEED_BOOKINGS: readonly SeedBooking[] = [
  bk("RW-40112 MARSH804148EL9AB lhr lhr 2027-03-20 2027-03-25 compact child_seat - confirmed 25000 none"),
  bk(
    "RW-40118 MARSH804148EL9AB man man 2027-02-10 2027-02-14 economy - - returned 20000 refunded 2027-02-17",
  ),
  bk("RW-40230 NOWAK903217TN4CD bri bri 2027-03-02 2027-03-05 economy sat_nav - confirmed 20000 none"),
  bk(
    "RW-40345 RAMAN857309PR2EF edi edi 2027-02-25 2027-03-04 suv snow_chains Arjun_Raman picked_up 30000 held",
  ),
  bk(
    "RW-40520 HUGHE909090DH6JK lds lds 2027-04-03 2027-04-10 estate roof_box Megan_Hughes,Sam_Hughes confirmed 25000 none",
  ),
  bk("RW-40601 LINDQ952104SL5MN man man 2027-02-20 2027-02-26 compact - - returned 25000 pending 2027-03-05"),
];

/** The tariff: days, car, extras per day, under-25 surcharge, named drivers and the one-way fee. */
export function priceOf(
  t: Pick<SeedBooking, "pickup" | "ret" | "cls" | "extras" | "branch"> & { dropoff?: string },
  drivers: number,
  young: boolean,
  faults: ReadonlySet<string>,
) {
  const days = t.ret - t.pickup + (faults.has("days_inclusive") ? 1 : 0);
  const perDayExtras = t.extras.reduce((s, e) => s + (EXTRAS.find((x) => x.id === e)?.perDay ?? 0), 0);
  const extras = faults.has("extras_flat_price") ? perDayExtras : perDayExtras * days;
  const surcharge = young ? (faults.has("surcharge_once") ? YOUNG_SURCHARGE : YOUNG_SURCHARGE * days) : 0;
  const oneWay = t.dropoff && t.dropoff !== t.branch ? ONE_WAY_FEE : 0;
  const rate = CLASSES.find((c) => c.id === t.cls)?.rate ?? 0;
  return { days, total: rate * days + extras + surcharge + drivers * DRIVER_PER_DAY * days + oneWay };
}

/**
 * Reply templates, one per line as `kind: text`, three per kind. Placeholders: `{key}` or `{key|style}`;
 * date styles `long` (14 March 2027), `iso` (2027-03-14), `short` (Sun 14 Mar), `us` (March 14, 2027); money
 * styles `sym` (£12.50), `code` (12.50 GBP), `pre` (GBP 12.50).
 */
const TEMPLATE_TEXT = `
menu.help: Welcome to Roadwise Rentals. I can get you a quote, make a new booking, change booking dates, add an extra (child seat, sat nav, snow chains, roof box), add an additional driver, extend a rental that's on the road, cancel a booking, report damage or a breakdown, show a booking summary or check a deposit refund. What would you like?
menu.help: Roadwise Rentals desk here. Options: quotes and availability, new bookings, date changes, extras, additional drivers, extensions, cancellations, damage or breakdown reports, booking summaries and deposit status. How can I help?
menu.help: Hello from Roadwise Rentals! Tell me what you need: a price quote, a new rental, changing or extending a booking, adding extras or a named driver, cancelling, reporting damage or a breakdown, viewing your booking, or your deposit.
menu.thanks: You're welcome. Anything else: a quote, a booking, a change, extras, a cancellation?
menu.thanks: Glad to help. Is there anything else you need from Roadwise today?
menu.thanks: No problem at all. What else can I do for you?
fallback.unknown: Sorry, I didn't catch that. I can help with quotes, bookings, date changes, extras, additional drivers, extensions, cancellations, damage reports, booking summaries or deposits.
fallback.unknown: I'm not sure what you mean. Try e.g. 'get a quote', 'book a car', 'cancel my booking' or 'check my deposit'.
fallback.unknown: Could you rephrase that? I handle Roadwise rentals: quotes, new bookings, changes, extras, drivers, extensions, cancellations, damage, summaries and deposits.
gate.nothing_pending: There's nothing waiting for your agreement right now. What would you like to do next?
gate.nothing_pending: Nothing is awaiting confirmation at the moment. Can I help with something else?
gate.nothing_pending: I don't have anything pending to agree to. What can I do for you?
gate.need_agree: To go ahead I need you to type AGREE (that accepts the rental terms). Or tell me what to change, or say no.
gate.need_agree: A plain yes isn't enough here: please reply AGREE to accept the terms, name a change, or say no to drop it.
gate.need_agree: Please reply with the word AGREE to accept the terms and proceed, tell me what to correct, or say no.
handoff.human: I'm passing you to a Roadwise colleague now; they'll pick this up shortly.
handoff.human: Sure, transferring you to one of our rental advisers. Please hold.
handoff.human: Connecting you with a member of the Roadwise team now.
session.goodbye: Thanks for contacting Roadwise Rentals. Safe driving!
session.goodbye: Goodbye, and enjoy the road.
session.goodbye: Bye for now. Roadwise Rentals is here whenever you need us.
oos.refused: I can only help with Roadwise car rentals, not that, I'm afraid.
oos.refused: That's outside what this desk handles. I deal with Roadwise car hire only.
oos.refused: Sorry, I'm the Roadwise car rental desk and can't help with that request.
session.locked: This chat is locked after failed identity checks. A colleague will contact you; you can also call 0800 555 0199.
session.locked: For security this conversation is locked. Please call Roadwise on 0800 555 0199.
session.locked: I can't continue: the chat was locked after three failed checks. Our team will be in touch (0800 555 0199).
auth.ask_licence_and_ref: Sure. What's your driving licence number and the booking reference?
auth.ask_licence_and_ref: I can do that once I've found your booking: please give your licence number and your booking reference (RW-…).
auth.ask_licence_and_ref: First I need two things: your driving licence number and the booking reference.
auth.ask_licence: Thanks. And your driving licence number?
auth.ask_licence: Got that. Now your driving licence number, please.
auth.ask_licence: Please also give me the licence number on your driving licence.
auth.ask_ref: Which booking is it? Please give the booking reference (it starts RW-).
auth.ask_ref: What's the booking reference, please?
auth.ask_ref: I'll need the booking reference for that (format RW-12345).
auth.ask_licence_and_dob: To make a booking I need your driving licence number and your date of birth.
auth.ask_licence_and_dob: New bookings first: please give me your licence number and date of birth.
auth.ask_licence_and_dob: Let's check you can drive with us. What's your driving licence number and date of birth?
auth.ask_dob: Please confirm your date of birth.
auth.ask_dob: And what's your date of birth?
auth.ask_dob: I also need your date of birth to go on.
auth.verified: Thanks, {name}, you're verified.
auth.verified: Great, that matches. Hello {name}.
auth.verified: Identity confirmed. Welcome back, {name}.
auth.failed: Those details don't match our records. Please give your {what} again ({left} tries left).
auth.failed: Sorry, I couldn't verify that. Could you re-enter your {what}? Attempts left: {left}.
auth.failed: That doesn't match what we hold. Try your {what} once more; you have {left} tries left.
auth.locked: That's three failed checks, so I've locked this chat for security and passed it to our security team.
auth.locked: Too many failed attempts: the chat is now locked and a colleague will contact you.
auth.locked: I couldn't verify you after three tries, so for your protection I've locked the chat and handed it to a person.
dates.invalid: Those dates don't work: the pickup must be {today|long} or later and the return after the pickup. What dates would you like?
dates.invalid: I can't use those dates (pickup from {today|iso} onwards, return after pickup). Please give the dates again.
dates.invalid: Those dates aren't valid; pickup can't be before {today|short} and return has to come after it. Which dates?
quote.ask_details: Happy to quote. I still need {missing}.
quote.ask_details: Sure, a quote it is. Please tell me {missing}.
quote.ask_details: I can price that up; just give me {missing}.
quote.result: {cls} from {branch}{drop}, {pickup|long} to {ret|long}: {days} days at {rate|sym}/day = {total|sym}{fee}. Drivers under 25 pay {young|sym}/day extra. Want me to book it?
quote.result: Quote: {cls}, {branch}{drop}, {pickup|iso} → {ret|iso} ({days} days, {rate|code} per day). Total {total|code}{fee}. Under-25s add {young|code} a day. Shall I book it?
quote.result: For {pickup|short} to {ret|short} at {branch}{drop} a {cls} is {total|pre} ({days} days at {rate|pre}){fee}; young drivers (under 25) pay {young|pre}/day more. Would you like to book?
quote.result_all: For {branch}{drop}, {pickup|long} to {ret|long} ({days} days){fee}: {list|sym}. Under-25 drivers add {young|sym}/day. Which class would you like?
quote.result_all: Prices for {pickup|iso} → {ret|iso} at {branch}{drop}, {days} days{fee}: {list|code}. Young drivers add {young|code} per day.
quote.result_all: {days}-day rental from {branch}{drop}, {pickup|short} to {ret|short}{fee}: {list|pre}. Under 25? Add {young|pre} a day.
quote.unavailable: We don't offer one-way rentals from {branch} to {dropoff}. One-way routes: {routes}.
quote.unavailable: A drop-off at {dropoff} isn't available for pickups at {branch}. We run one-way between {routes}.
quote.unavailable: Sorry, {branch} to {dropoff} isn't one of our one-way routes ({routes}).
quote.too_long: The longest rental we offer is 28 days; {days} days is over the limit. Please choose shorter dates.
quote.too_long: Rentals max out at 28 days and that's {days}. Could you pick shorter dates?
quote.too_long: {days} days is too long: our limit is 28 days per rental. What dates instead?
book.ask_details: Let's set up the rental. Please tell me {missing}.
book.ask_details: Right, for the booking I still need {missing}.
book.ask_details: Okay {name}, what's {missing}?
book.ask_extras: Any extras? At {branch} we have {available}. Say which, or 'none'.
book.ask_extras: Would you like extras on it ({available} at {branch})? Or none?
book.ask_extras: Extras available at {branch}: {available}. Any of those, or no extras?
book.refused_underage: Sorry, {name}, the main driver must be at least 21, so I can't make this booking.
book.refused_underage: I'm afraid we can only rent to main drivers aged 21 or over, {name}, so I can't book this.
book.refused_underage: Unfortunately our minimum age for the main driver is 21, so the booking can't go ahead, {name}.
book.refused_licence_years: The {cls} class needs a full licence held for 3+ years; yours has been held for {years}. Economy, compact or estate are fine. Which would you like?
book.refused_licence_years: Sorry, {cls} cars need 3 years of full licence and you've had yours {years}. Could you choose economy, compact or estate?
book.refused_licence_years: Premium classes like {cls} require a licence held at least 3 years (yours: {years}). Pick economy, compact or estate instead?
book.too_long: Rentals can't be longer than 28 days and that's {days}. What return date would you like instead?
book.too_long: That's {days} days; the maximum is 28. Please give an earlier return date.
book.too_long: Our limit is 28 days per rental ({days} asked). Which return date shall I use?
book.refused_one_way: One-way from {branch} to {dropoff} isn't available, so I've set the return to {branch}.
book.refused_one_way: We can't do {branch} to {dropoff} one-way; I've put the return back at {branch}.
book.refused_one_way: {dropoff} isn't a one-way drop-off from {branch}; the car will go back to {branch}.
book.extra_unavailable: {extra} isn't available at {branch}, so I've left it off.
book.extra_unavailable: Sorry, {branch} doesn't stock {extra}; I've removed it.
book.extra_unavailable: No {extra} at {branch}, I'm afraid, so it's not included.
book.confirm: Booking for {name}: {cls} from {branch}{drop}, {pickup|long} to {ret|long} ({days} days), extras: {extras}{young_note}. Total {total|sym}. Reply AGREE to accept the rental terms and book, or tell me what to change.
book.confirm: Here's the booking: {name}, {cls}, {branch}{drop}, {pickup|iso} to {ret|iso}, {days} days, extras {extras}{young_note}; total {total|code}. Type AGREE to accept the terms and confirm, or name a change.
book.confirm: Please check: {cls} at {branch}{drop} from {pickup|short} to {ret|short} ({days} days) for {name}, extras: {extras}{young_note}, total {total|pre}. If that's right, reply AGREE to the terms; otherwise tell me what to change.
book.corrected: Updated. Now: {cls} from {branch}{drop}, {pickup|long} to {ret|long} ({days} days), extras: {extras}{young_note}. Total {total|sym}. Reply AGREE to confirm.
book.corrected: Changed it: {cls}, {branch}{drop}, {pickup|iso} to {ret|iso}, {days} days, extras {extras}{young_note}; total {total|code}. AGREE to book?
book.corrected: Done, the booking now reads {cls} at {branch}{drop}, {pickup|us} to {ret|us} ({days} days), extras: {extras}{young_note}, total {total|pre}. Reply AGREE to accept.
book.done: Booked! Your reference is {ref}: {cls} from {branch}, {pickup|long} to {ret|long}, total {total|sym}.
book.done: All set. Booking {ref} is confirmed ({cls}, {branch}, {pickup|iso} to {ret|iso}, {total|code}).
book.done: Confirmed: {ref}. {cls} collecting at {branch} on {pickup|short}, back {ret|short}; you'll pay {total|pre}.
book.declined: No problem, I haven't booked anything.
book.declined: Okay, nothing's been booked.
book.declined: Understood, I've dropped that booking; nothing was reserved.
change.ask_dates: What are the new pickup and return dates for {ref}?
change.ask_dates: Sure. Which new pickup date and return date would you like for {ref}?
change.ask_dates: {ref} runs {pickup|long} to {ret|long} now. What should the new pickup and return dates be?
change.confirm: {ref} would move from {old_pickup|long}–{old_ret|long} to {pickup|long}–{ret|long}; new total {total|sym} (was {old_total|sym}). Reply AGREE to accept.
change.confirm: New dates for {ref}: {pickup|iso} to {ret|iso} (currently {old_pickup|iso} to {old_ret|iso}). The price becomes {total|code}, previously {old_total|code}. Type AGREE to accept the change.
change.confirm: Moving {ref} to {pickup|short}–{ret|short} makes the total {total|pre} instead of {old_total|pre}. Reply AGREE to go ahead, or no to keep {old_pickup|short}–{old_ret|short}.
change.confirm_noprice: {ref} would move from {old_pickup|long}–{old_ret|long} to {pickup|long}–{ret|long}. Reply AGREE to accept.
change.confirm_noprice: New dates for {ref}: {pickup|iso} to {ret|iso} (currently {old_pickup|iso} to {old_ret|iso}). Type AGREE to accept the change.
change.confirm_noprice: Moving {ref} to {pickup|short}–{ret|short}. Reply AGREE to go ahead, or no to keep {old_pickup|short}–{old_ret|short}.
change.corrected: Updated: {ref} to {pickup|long}–{ret|long}, new total {total|sym}. Reply AGREE to accept.
change.corrected: Okay, corrected to {pickup|iso} → {ret|iso} for {ref}; total {total|code}. AGREE?
change.corrected: Noted. Now {pickup|us} to {ret|us} for {ref} at {total|pre}. Type AGREE to accept.
change.done: Done: {ref} now runs {pickup|long} to {ret|long}, total {total|sym}.
change.done: Dates changed. {ref}: {pickup|iso} to {ret|iso}, {total|code}.
change.done: {ref} is updated to {pickup|short}–{ret|short}; the new total is {total|pre}.
change.declined: Okay, {ref} stays as it was.
change.declined: No change made; {ref} keeps its original dates.
change.declined: Understood, I've left {ref} untouched.
change.too_long: That would be {days} days; rentals are limited to 28. Which dates instead?
change.too_long: Sorry, {days} days is over our 28-day maximum. Please choose other dates.
change.too_long: The maximum rental is 28 days and those dates give {days}. Try different dates?
change.refused_picked_up: {ref} has already been picked up, so its dates can't be changed; ask me to extend it instead.
change.refused_picked_up: The car on {ref} is already out, so I can't move the dates. I can extend the rental though.
change.refused_picked_up: Date changes aren't possible once a rental has started ({ref}); an extension is possible.
extra.ask_which: Which extra would you like to add to {ref}? At {branch}: {available}.
extra.ask_which: Sure. What should I add to {ref}? {branch} offers {available}.
extra.ask_which: Extras at {branch} are {available}. Which one for {ref}?
extra.unavailable: {extra} isn't stocked at {branch}. Available there: {available}.
extra.unavailable: Sorry, {branch} has no {extra}. You could have {available}.
extra.unavailable: {branch} doesn't offer {extra}; the options are {available}.
extra.already: {ref} already has a {extra}.
extra.already: There's already a {extra} on {ref}.
extra.already: {ref} includes a {extra} already, so there's nothing to add.
extra.confirm: Add a {extra} to {ref} at {per_day|sym}/day for {days} days ({cost|sym}); new total {total|sym}. Reply AGREE to accept.
extra.confirm: A {extra} on {ref}: {per_day|code} a day × {days} = {cost|code}, bringing the total to {total|code}. Type AGREE to accept the terms.
extra.confirm: {extra} for {ref} costs {cost|pre} ({days} days at {per_day|pre}); the total would be {total|pre}. AGREE to add it?
extra.done: Added: {ref} now includes a {extra}; total {total|sym}.
extra.done: Done, {extra} added to {ref}. New total {total|code}.
extra.done: {ref} has the {extra} now, total {total|pre}.
extra.declined: Okay, I haven't added the {extra}.
extra.declined: No problem, {ref} stays without a {extra}.
extra.declined: Understood, nothing added to {ref}.
driver.ask_details: Please give the additional driver's {missing}.
driver.ask_details: For the additional driver I need their {missing}.
driver.ask_details: Tell me the extra driver's {missing}, please.
driver.refused_limit: {ref} already has two additional drivers, the maximum we allow.
driver.refused_limit: Sorry, a booking can have at most 2 additional drivers and {ref} has two.
driver.refused_limit: I can't add another: {ref} is at the limit of two additional drivers.
driver.refused_age: Additional drivers must be 21 or over; {dname} is {age}, so I can't add them.
driver.refused_age: Sorry, {dname} is {age}; named drivers have to be at least 21.
driver.refused_age: {dname} is under our minimum age of 21 (age {age}), so they can't be added.
driver.refused_licence_years: {dname} needs a full licence held for at least {need} year(s) to drive this {cls}; they've held it {years}.
driver.refused_licence_years: Sorry, for a {cls} an additional driver needs {need}+ year(s) of licence and {dname} has {years}.
driver.refused_licence_years: {dname} can't be added: {cls} drivers need {need} year(s) on their licence (they have {years}).
driver.confirm: Add {dname} to {ref} as an additional driver: {per_day|sym}/day × {days} days = {cost|sym}; new total {total|sym}. Reply AGREE to accept.
driver.confirm: {dname} as a named driver on {ref} costs {cost|code} ({days} days at {per_day|code}); total becomes {total|code}. Type AGREE to accept the terms.
driver.confirm: Adding {dname} would cost {cost|pre} and make {ref} {total|pre} in all. AGREE?
driver.done: {dname} is now an additional driver on {ref}; total {total|sym}.
driver.done: Done. {dname} added to {ref} (total {total|code}).
driver.done: {ref} now lists {dname} as a driver. New total {total|pre}.
driver.declined: Okay, I haven't added {dname}.
driver.declined: No problem, no driver added to {ref}.
driver.declined: Understood, {ref} stays as it is.
extend.ask_return: {ref} is due back at {branch} on {ret|long}. What new return date would you like?
extend.ask_return: Currently {ref} returns {ret|iso}. Until when do you want to extend?
extend.ask_return: Sure. {ref} is due {ret|short}; what's the new return date?
extend.not_live: {ref} hasn't been picked up yet, so there's nothing to extend; you can change its dates instead.
extend.not_live: Extensions are only for rentals already on the road, and {ref} hasn't started. Would you like to change the dates?
extend.not_live: {ref} isn't out yet; to make it longer, change the booking dates rather than extending.
extend.too_long: That would make the rental {days} days; the maximum is 28 (latest return {max|long}). Pick an earlier date?
extend.too_long: Sorry, {days} days exceeds our 28-day limit. The latest possible return is {max|iso}.
extend.too_long: Extensions can't take a rental past 28 days ({days} asked); latest return would be {max|short}.
extend.confirm: Extend {ref} to {ret|long}: {extra_days} more days, {cost|sym} extra, new total {total|sym}. Reply AGREE to accept.
extend.confirm: {ref} would now return {ret|iso} ({extra_days} extra days, {cost|code}); total {total|code}. Type AGREE to accept the terms.
extend.confirm: An extension to {ret|short} adds {extra_days} days ({cost|pre}), total {total|pre}. AGREE?
extend.done: Extended: {ref} is now due back {ret|long}; total {total|sym}.
extend.done: Done, {ref} returns {ret|iso}. Total {total|code}.
extend.done: {ref} extended to {ret|short}, total {total|pre}.
extend.declined: Okay, {ref} keeps its current return date.
extend.declined: No extension made; {ref} is still due back as before.
extend.declined: Understood, I haven't extended {ref}.
cancel.confirm_free: {ref} ({cls}, {branch}, {pickup|long}) can be cancelled free of charge. Reply AGREE to cancel it.
cancel.confirm_free: Cancelling {ref} ({pickup|iso} at {branch}) is free as it's more than 48 hours away. Type AGREE to confirm the cancellation.
cancel.confirm_free: No fee applies to cancel {ref} ({cls}, {pickup|short}). AGREE to cancel?
cancel.confirm_fee: {ref} starts within 48 hours, so a late cancellation fee of {fee|sym} applies. To cancel, reply AGREE and confirm you accept the {fee|sym} fee.
cancel.confirm_fee: As pickup ({pickup|iso}) is under 48 hours away, cancelling {ref} costs {fee|code}. Reply AGREE and say you accept the {fee|code} fee to go ahead.
cancel.confirm_fee: Late cancellation: {ref} would incur a {fee|pre} fee. If you want to proceed, type AGREE and accept the {fee|pre} fee.
cancel.need_fee_ack: Before I cancel, please confirm you accept the {fee|sym} cancellation fee.
cancel.need_fee_ack: I need you to accept the {fee|code} late-cancellation fee too. Do you accept it?
cancel.need_fee_ack: One more step: do you accept the {fee|pre} fee for cancelling {ref}?
cancel.done_free: {ref} is cancelled, free of charge.
cancel.done_free: Cancelled: {ref}. No fee was charged.
cancel.done_free: Done, {ref} has been cancelled at no cost.
cancel.done_fee: {ref} is cancelled. A fee of {fee|sym} has been charged.
cancel.done_fee: Cancelled: {ref}. Cancellation fee charged: {fee|code}.
cancel.done_fee: Done, {ref} is cancelled and the {fee|pre} fee taken.
cancel.declined: Okay, {ref} is still booked.
cancel.declined: No cancellation made; {ref} stays active.
cancel.declined: Understood, I've kept {ref} as it is.
cancel.refused_picked_up: {ref} has already been picked up, so it can't be cancelled. Return the car to end the rental.
cancel.refused_picked_up: Sorry, a rental that's already started ({ref}) can't be cancelled.
cancel.refused_picked_up: Cancellation isn't possible for {ref} because the car has been collected.
damage.ask_details: I'm sorry to hear that. What's the damage and where on the car is it, or has the car broken down?
damage.ask_details: Let's log it. Please describe what happened: damage (where on the car) or a breakdown?
damage.ask_details: Tell me what's wrong with the car on {ref}: what damage, and where, or is it not driving?
damage.logged: Logged as {dmg} on {ref}: {desc}. Please take photos; the branch will inspect it on return.
damage.logged: Damage report {dmg} filed for {ref} ({desc}). Keep driving only if it's safe.
damage.logged: I've recorded {dmg} for {ref}: {desc}. The return branch will check it.
damage.breakdown_handoff: I'm transferring you to Roadwise roadside assistance for {ref} ({cls}); they'll call you within 15 minutes.
damage.breakdown_handoff: That needs our breakdown team. I've handed {ref} to roadside assistance and they'll ring you shortly.
damage.breakdown_handoff: Passing you to roadside assistance now for {ref}; stay somewhere safe and they'll call you back.
damage.not_live: {ref} isn't on the road yet; damage and breakdowns can only be reported for a rental you've picked up.
damage.not_live: There's no car out on {ref} yet, so there's nothing to report against it.
damage.not_live: I can only take damage or breakdown reports for rentals in progress, and {ref} hasn't been collected.
view.summary: {ref} ({status}): {name}, {cls} from {branch}{drop}, {pickup|long} to {ret|long}; extras: {extras}; additional drivers: {drivers}; total {total|sym}.
view.summary: Booking {ref} is {status}. {cls} at {branch}{drop}, {pickup|iso} → {ret|iso}. Extras {extras}. Drivers {drivers}. Total {total|code}. Main driver {name}.
view.summary: Here's {ref}: {status}, {cls}, {branch}{drop}, {pickup|us} to {ret|us}, extras {extras}, additional drivers {drivers}, {total|pre} in total ({name}).
view.refused_not_yours: I can't find {ref} under your licence, so I can't show or change it.
view.refused_not_yours: Sorry, {ref} isn't one of your bookings and I can't access it for you.
view.refused_not_yours: That reference ({ref}) doesn't belong to you, so I can't share or change it.
deposit.held: A deposit of {amount|sym} is held for {ref}; it's released after the car is returned.
deposit.held: We're holding {amount|code} on your card for {ref} until the rental ends.
deposit.held: {ref}: {amount|pre} deposit on hold, released after return.
deposit.refunded: The {amount|sym} deposit for {ref} was refunded on {date|long}.
deposit.refunded: Deposit for {ref} ({amount|code}) went back to you on {date|iso}.
deposit.refunded: {ref}'s {amount|pre} deposit was refunded {date|short}.
deposit.pending: The {amount|sym} deposit for {ref} is being refunded; expect it by {date|long}.
deposit.pending: Refund of {amount|code} for {ref} is in progress, due {date|iso}.
deposit.pending: {ref}: the {amount|pre} deposit refund is processing and should arrive by {date|short}.
deposit.none: No deposit has been taken for {ref}; we take a {amount|sym} hold at pickup.
deposit.none: There's no deposit on {ref} yet. A {amount|code} hold is taken when you collect the car.
deposit.none: Nothing held for {ref} at the moment; the {amount|pre} deposit is taken at pickup.
booking.inactive: {ref} is {status}, so it can't be changed any more.
booking.inactive: That booking ({ref}) is {status}; no further changes are possible.
booking.inactive: {ref} has status {status}, so there's nothing I can change on it.
`;

export const TEMPLATES: Readonly<Record<string, readonly string[]>> = (() => {
  const out: Record<string, string[]> = {};
  for (const line of TEMPLATE_TEXT.split("\n")) {
    const i = line.indexOf(": ");
    const kind = line.slice(0, i);
    if (i > 0) out[kind] = [...(out[kind] ?? []), line.slice(i + 2)];
  }
  return out;
})();

export const HELDOUT8_FACTS: Facts = {
  personas: [
    {
      name: ["Eleanor Marsh"],
      licence_number: ["MARSH804148EL9AB"],
      date_of_birth: ["14 April 1980"],
      booking_reference: ["RW-40112", "RW-40118", "RW-40520"],
      branch: ["Heathrow"],
      car_class: ["compact", "luxury"],
      pickup_date: ["14 April 2027"],
      return_date: ["18 April 2027"],
      extras: ["child seat", "snow chains"],
      new_pickup_date: ["22 March 2027"],
      new_return_date: ["27 March 2027"],
      additional_driver_name: ["Grace Marsh", "Oliver Marsh"],
      additional_driver_date_of_birth: ["22 August 1982", "10 January 2007"],
      additional_driver_licence_years: ["20", "1"],
    },
    {
      name: ["Tomasz Nowak"],
      licence_number: ["NOWAK903217TN4CD"],
      date_of_birth: ["17 July 2003"],
      booking_reference: ["RW-40230"],
      branch: ["Bristol"],
      car_class: ["economy", "SUV"],
      pickup_date: ["2 March 2027", "10 April 2027"],
      return_date: ["5 March 2027", "13 April 2027"],
      extras: ["sat nav"],
      new_pickup_date: ["9 March 2027"],
      new_return_date: ["12 March 2027"],
    },
    {
      name: ["Priya Raman"],
      licence_number: ["RAMAN857309PR2EF"],
      date_of_birth: ["30 July 1985"],
      booking_reference: ["RW-40345"],
      branch: ["Edinburgh"],
      car_class: ["SUV"],
      pickup_date: ["25 February 2027"],
      return_date: ["4 March 2027"],
      new_return_date: ["8 March 2027", "30 March 2027"],
      additional_driver_name: ["Kiran Raman"],
      additional_driver_date_of_birth: ["3 March 1999"],
      additional_driver_licence_years: ["2"],
      damage: ["a scratch on the rear passenger door", "the car won't start"],
    },
    {
      name: ["Maisie Clarke"],
      licence_number: ["CLARK706155MC3GH"],
      date_of_birth: ["15 June 2006"],
      branch: ["Leeds"],
      car_class: ["economy"],
      pickup_date: ["12 March 2027"],
      return_date: ["15 March 2027"],
    },
    {
      name: ["Daniel Hughes"],
      licence_number: ["HUGHE909090DH6JK"],
      date_of_birth: ["9 September 1990"],
      booking_reference: ["RW-40520"],
      branch: ["Leeds"],
      dropoff_branch: ["Manchester", "Bristol"],
      car_class: ["estate"],
      pickup_date: ["3 April 2027"],
      return_date: ["10 April 2027"],
      extras: ["roof box"],
      additional_driver_name: ["Chris Hughes"],
      additional_driver_date_of_birth: ["2 February 1992"],
      additional_driver_licence_years: ["10"],
    },
    {
      name: ["Sofia Lindqvist"],
      licence_number: ["LINDQ952104SL5MN"],
      date_of_birth: ["4 October 1995"],
      booking_reference: ["RW-40601"],
      branch: ["Manchester"],
      dropoff_branch: ["Leeds"],
      car_class: ["compact", "SUV"],
      pickup_date: ["20 March 2027"],
      return_date: ["27 March 2027"],
      extras: ["child seat", "roof box"],
    },
  ],
  requests: [
    "How much is an SUV from Edinburgh for a week?",
    "Can I pick up in Leeds and drop the car off in Bristol?",
    "When will I get my deposit back?",
    "There's a scratch on the door of my rental car",
    "The car won't start, I need help",
    "I'd like to keep the car a few more days",
    "Can I add my wife as a named driver?",
    "Do you rent vans?",
    "Can I speak to a real person?",
  ],
};

// ---------------------------------------------------------------------------------------------------------
// Formatting

const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

export function ymd(day: number): [number, number, number, number] {
  const dt = new Date(day * 86_400_000);
  return [dt.getUTCFullYear(), dt.getUTCMonth() + 1, dt.getUTCDate(), dt.getUTCDay()];
}

export function iso(day: number): string {
  const [y, m, d] = ymd(day);
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function fmtDate(day: number, style: string | undefined): string {
  const [y, m, d, wd] = ymd(day);
  const month = MONTHS[m - 1] ?? "";
  if (style === "iso") return iso(day);
  if (style === "short") return `${WEEKDAYS[wd]} ${d} ${month.slice(0, 3)}`;
  if (style === "us") return `${month} ${d}, ${y}`;
  return `${d} ${month} ${y}`;
}

function fmtMoney(pence: number, style: string | undefined): string {
  const v = (pence / 100).toFixed(2);
  if (style === "code") return `${v} GBP`;
  if (style === "pre") return `GBP ${v}`;
  return `£${v}`;
}

export type Val =
  | string
  | number
  | { d: number }
  | { p: number }
  | { pl: ReadonlyArray<readonly [string, number]> };
export type Vals = Record<string, Val>;

/** Fills a template's placeholders, formatting dates and money in the style the placeholder names. */
export function fill(tpl: string, vals: Vals): string {
  return tpl.replace(/\{(\w+)(?:\|(\w+))?\}/g, (_all, key: string, style: string | undefined) => {
    const v = vals[key];
    if (v === undefined) return "";
    if (typeof v === "string" || typeof v === "number") return String(v);
    if ("d" in v) return fmtDate(v.d, style);
    if ("p" in v) return fmtMoney(v.p, style);
    return v.pl.map(([label, p]) => `${label} ${fmtMoney(p, style)}`).join(", ");
  });
}

export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Whole years from one day to another (age, years a licence has been held). */
export function yearsBetween(from: number, to: number): number {
  const [y1, m1, d1] = ymd(from);
  const [y2, m2, d2] = ymd(to);
  return y2 - y1 - (m2 < m1 || (m2 === m1 && d2 < d1) ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------------------
// Reading the customer's turn

export interface DateHit {
  day: number;
  idx: number;
  year?: number;
  role: "pickup" | "return" | null;
}

/** What one customer turn carries. */
export interface Parsed {
  low: string;
  licence?: string;
  ref?: string;
  dob?: number;
  dates: DateHit[];
  duration?: number;
  moreDays?: number;
  pickupBranch?: string;
  dropoffBranch?: string;
  sameBranch: boolean;
  cls?: string;
  extrasAdd: string[];
  extrasRemove: string[];
  extrasNone: boolean;
  bareNo: boolean;
  agree: boolean;
  decline: boolean;
  yes: boolean;
  feeAck: boolean;
  intent?: Intent;
  name?: string;
  years?: number;
  numberOnly?: number;
  breakdown: boolean;
  damageWords: string[];
  words: number;
}

const MON =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const ORD = "(?:st|nd|rd|th)?";
const NUM_WORDS = "a an one two three four five six seven eight nine ten eleven twelve".split(" ");
const NUM = `(\\d{1,3}|${NUM_WORDS.join("|")}|fourteen|twenty|thirty)`;

function num(s: string): number {
  const i = NUM_WORDS.indexOf(s);
  if (i >= 0) return Math.max(1, i - 1);
  return { fourteen: 14, twenty: 20, thirty: 30 }[s] ?? Number(s);
}

function monthNum(s: string): number {
  return MONTHS.findIndex((m) => m.toLowerCase().startsWith(s.slice(0, 3))) + 1;
}

function validDay(y: number, m: number, d: number): number | undefined {
  const t = Date.UTC(y, m - 1, d);
  if (m < 1 || m > 12 || d < 1 || new Date(t).getUTCMonth() !== m - 1) return undefined;
  return Math.round(t / 86_400_000);
}

/** Every date the turn names, in text order; `ctx` gives the month of a bare "the 14th". */
function findDates(low: string, ctx: number): DateHit[] {
  type Raw = { idx: number; y?: number; m: number; d: number; role?: "pickup" | "return" };
  const taken: Array<[number, number]> = [];
  const out: Raw[] = [];
  const yr = (s: string | undefined) => (s ? (s.length === 2 ? 2000 + Number(s) : Number(s)) : undefined);
  const scan = (re: string, take: (m: RegExpMatchArray, i: number) => Raw[]) => {
    for (const m of low.matchAll(new RegExp(re, "g"))) {
      const a = m.index ?? 0;
      const b = a + m[0].length;
      if (!taken.every(([x, y]) => b <= x || a >= y)) continue;
      taken.push([a, b]);
      out.push(...take(m, a));
    }
  };
  const range = (i: number, y: number | undefined, m: number, d1: number, d2: number): Raw[] => [
    { idx: i, y, m, d: d1, role: "pickup" },
    { idx: i + 1, y, m, d: d2, role: "return" },
  ];
  const upto = "\\s*(?:-|–|to|until|till|and)\\s*(?:the\\s+)?";
  const year = "\\b(?:,?\\s+(\\d{4}))?";
  scan(`\\b(\\d{1,2})${ORD}${upto}(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MON}${year}`, (m, i) =>
    range(i, yr(m[4]), monthNum(m[3] ?? ""), Number(m[1]), Number(m[2])),
  );
  scan(`\\b${MON}\\s+(\\d{1,2})${ORD}${upto}(\\d{1,2})${ORD}${year}`, (m, i) =>
    range(i, yr(m[4]), monthNum(m[1] ?? ""), Number(m[2]), Number(m[3])),
  );
  scan("\\b(\\d{4})-(\\d{1,2})-(\\d{1,2})\\b", (m, i) => [
    { idx: i, y: +(m[1] ?? 0), m: +(m[2] ?? 0), d: +(m[3] ?? 0) },
  ]);
  scan("\\b(\\d{1,2})[/.](\\d{1,2})(?:[/.](\\d{4}|\\d{2}))?\\b", (m, i) => [
    { idx: i, y: yr(m[3]), m: +(m[2] ?? 0), d: +(m[1] ?? 0) },
  ]);
  scan(`\\b(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MON}${year}`, (m, i) => [
    { idx: i, y: yr(m[3]), m: monthNum(m[2] ?? ""), d: +(m[1] ?? 0) },
  ]);
  scan(`\\b${MON}\\s+(?:the\\s+)?(\\d{1,2})${ORD}${year}`, (m, i) => [
    { idx: i, y: yr(m[3]), m: monthNum(m[1] ?? ""), d: +(m[2] ?? 0) },
  ]);
  const [cy, cm] = ymd(ctx);
  scan("\\b(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\b", (m, i) => [{ idx: i, y: cy, m: cm, d: +(m[1] ?? 0) }]);
  for (const [word, day] of [
    ["tomorrow", TODAY + 1],
    ["today", TODAY],
  ] as const) {
    const [y, m, d] = ymd(day);
    scan(`\\b${word}\\b`, (_m, i) => [{ idx: i, y, m, d }]);
  }
  const hits: DateHit[] = [];
  for (const o of out.sort((a, b) => a.idx - b.idx)) {
    let day = validDay(o.y ?? 2027, o.m, o.d);
    if (day === undefined) continue;
    if (o.y === undefined && day < TODAY) day = validDay(2028, o.m, o.d) ?? day;
    let role = o.role ?? null;
    if (!role) {
      const tail =
        low
          .slice(Math.max(0, o.idx - 28), o.idx)
          .split(/[,;.]| and /)
          .pop() ?? "";
      if (/(return|drop|back|until|till|end|finish|bring it)/.test(tail)) role = "return";
      else if (/(pick|collect|start|from|begin|get the car)/.test(tail)) role = "pickup";
    }
    hits.push({ day, idx: o.idx, year: o.y, role });
  }
  return hits;
}

const STOP = new Set([
  ...MONTHS.map((m) => m.toLowerCase()),
  ...BRANCHES.flatMap((b) => b.name.toLowerCase().split(" ")),
  ...CLASSES.map((c) => c.id),
  ...`monday tuesday wednesday thursday friday saturday sunday i i'm im agree roadwise hi hello hey please thanks
  thank yes no add my her his the she he born licence license licensed date birth name driver drivers additional
  can could sure ok okay it it's we our they their also and she's he's rw dob held full years year wife husband
  partner son daughter friend brother sister mother father mum dad mr mrs ms dr uk gbp sat nav booking reference
  extra named second another as a an is for on of with who has had been`.split(/\s+/),
]);

function findName(raw: string): string | undefined {
  const direct = raw.match(/\b(?:name is|named|called)\s+([A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2})/);
  if (direct?.[1]) return direct[1];
  for (const m of raw.matchAll(/\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+/g)) {
    const words = m[0].split(/\s+/).filter((w) => !STOP.has(w.toLowerCase()));
    if (words.length >= 2) return words.slice(0, 3).join(" ");
  }
  return undefined;
}

const INTENTS = [
  [
    "human",
    /\b(human|real person|a person|representative|operator|live agent|speak to (?:a|an|some)|talk to (?:a|an|some)|customer service|advis[eo]r)/,
  ],
  ["goodbye", /\b(bye|goodbye|that'?s all|that is all|nothing else|i'?m done|all done|see you)\b/],
  [
    "damage",
    /\b(damage[ds]?|scratch(?:ed|es)?|dent(?:ed|s)?|accident|crash(?:ed)?|collision|broken down|break ?down|won'?t start|wont start|flat (?:tyre|tire|battery)|puncture|warning light|bumped|scrape[ds]?)\b/,
  ],
  ["cancel", /\bcancel/],
  ["extend", /\b(extend|extension|keep (?:the|my|it) (?:car )?(?:longer|for|until|a few)|longer)\b/],
  [
    "driver",
    /\b(add|additional|extra|second|another|third|named|include)\b[^.]*\bdrivers?\b|\bdrivers? to\b/,
  ],
  ["extra", /\b(add|want|need|like)\b[^.]*\bextras?\b/],
  ["deposit", /\b(deposit|refund)/],
  ["change", /\b(change|move|reschedule|amend|modify|postpone|bring forward|different dates|new dates)\b/],
  [
    "oos",
    /\b(flights?|hotels?|trains?|weather|vans?|motorbikes?|taxis?|lorry|lorries|trucks?|minibus|joke|football|recipe|parking fines?)\b/,
  ],
  ["quote", /\b(quote|price|prices|pricing|how much|cost|costs|availability|available|rates?)\b/],
  ["book", /\b(book|reserve|hire|rent)\b|new (?:booking|reservation|rental)|make a (?:booking|reservation)/],
  ["view", /\b(view|see|show|check|look ?up|summary|review|status)\b|booking details|reservation details/],
  [
    "help",
    /\b(help|menu|options|what can you do|hi|hello|hey|good (?:morning|afternoon|evening)|start over)\b/,
  ],
  ["thanks", /\b(thanks|thank you|cheers)\b/],
] as const;
export type Intent = (typeof INTENTS)[number][0];

const DAMAGE_WORDS =
  /\b(scratch\w*|dent\w*|scrape\w*|scuff\w*|crack\w*|chip\w*|smash\w*|bumper|mirror|door|windscreen|windshield|wing|panel|bonnet|boot|hubcap|paintwork|reversed into|hit|bumped|collision|crash\w*)\b/g;
const BREAKDOWN =
  /(broken down|break ?down|won'?t start|wont start|doesn'?t start|flat (?:tyre|tire|battery)|puncture|warning light|overheat|engine (?:failure|problem|light)|stalled|not drivable|undrivable|can'?t drive it)/;
const DECLINE =
  /\b(no|nope|nah|decline|don'?t|do not|not now|never ?mind|forget it|stop|abort|leave it|hold off|changed my mind|skip it|not interested)\b/;

/** First index of any alias as a whole word, or -1. */
function firstAt(low: string, aliases: readonly string[]): number {
  let best = -1;
  for (const a of aliases) {
    const i = low.search(new RegExp(`\\b${a}\\b`));
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}

/** Reads one customer turn; `ctx` is the day whose month a bare "the 14th" belongs to. */
export function parse(raw: string, ctx: number): Parsed {
  const low = raw.toLowerCase().replace(/’/g, "'");
  const p: Parsed = {
    low,
    dates: [],
    sameBranch: /\b(same branch|same place|same location|round trip|where i (?:picked|collect))/.test(low),
    extrasAdd: [],
    extrasRemove: [],
    extrasNone: false,
    bareNo: /^\s*(no|nope|nah|no thanks|no thank you)[\s.!]*$/.test(low),
    agree: /\bagree[ds]?\b/.test(low) && !/\b(don'?t|do not|not|never|dis)\s*agree/.test(low),
    decline: DECLINE.test(low) || /\b(don'?t|do not|not|dis)\s*agree/.test(low),
    yes: /\b(yes|yeah|yep|sure|ok|okay|correct|confirm|go ahead|please do|sounds good|fine|book it)\b/.test(
      low,
    ),
    feeAck:
      /\baccept(?:ed|ing|s)?\b[^.]*\b(fee|charge|£|gbp|\d|it)/.test(low) ||
      /\b(fee|charge)\b[^.]*\b(accept(?:ed)?|fine|ok(?:ay)?|understood|happy|pay)\b/.test(low),
    breakdown: BREAKDOWN.test(low),
    damageWords: [...new Set([...low.matchAll(DAMAGE_WORDS)].map((m) => m[1] ?? ""))],
    words: low.split(/\s+/).filter(Boolean).length,
  };
  if (/\baccept(?:ing)? (?:the )?(?:rental )?terms\b/.test(low)) p.agree = true;
  const lic = raw.match(/\b([A-Za-z]{5})\s?(\d{6})\s?([A-Za-z0-9]{5})\b/);
  if (lic) p.licence = `${lic[1]}${lic[2]}${lic[3]}`.toUpperCase();
  const ref = low.match(/\brw\s?[-#]?\s?(\d{5})\b/);
  if (ref) p.ref = `RW-${ref[1]}`;
  for (const h of findDates(low, ctx)) {
    if (h.year !== undefined && h.year < 2015) p.dob ??= h.day;
    else p.dates.push(h);
  }
  const unit = "(day|night|week)s?\\b";
  const more = low.match(
    new RegExp(`\\b(?:${NUM}\\s+(?:more|extra|additional)\\s+${unit}|(?:by|another)\\s+${NUM}\\s+${unit})`),
  );
  const dur = low.match(new RegExp(`\\b${NUM}\\s+${unit}`));
  const days = (n: string | undefined, u: string | undefined) => num(n ?? "1") * (u === "week" ? 7 : 1);
  if (more) p.moreDays = days(more[1] ?? more[3], more[2] ?? more[4]);
  else if (dur) p.duration = days(dur[1], dur[2]);
  else if (/\bfortnight\b/.test(low)) p.duration = 14;
  const mentions = BRANCHES.map((b) => ({ id: b.id, idx: firstAt(low, b.aliases) })).filter(
    (x) => x.idx >= 0,
  );
  for (const mt of mentions.sort((a, b) => a.idx - b.idx)) {
    const prev = low.slice(Math.max(0, mt.idx - 28), mt.idx);
    const drop = /(drop|return|leave|leaving|one[\s-]?way|back (?:at|to|in)|ending|end at|finish)/.test(prev);
    if (drop || (p.pickupBranch && /\bto\s+(?:the\s+)?$/.test(prev))) p.dropoffBranch ??= mt.id;
    else p.pickupBranch ??= mt.id;
  }
  const classes = CLASSES.map((c) => ({ id: c.id, idx: firstAt(low, c.aliases) })).filter((x) => x.idx >= 0);
  p.cls = classes.sort((a, b) => a.idx - b.idx)[0]?.id;
  for (const e of EXTRAS) {
    const i = firstAt(low, e.aliases);
    if (i < 0) continue;
    const prev = low.slice(Math.max(0, i - 18), i);
    const removing =
      /\b(no|without|remove|drop|minus|take off|don'?t need|don'?t want)\s+(?:the\s+|a\s+|any\s+)?$/;
    (removing.test(prev) ? p.extrasRemove : p.extrasAdd).push(e.id);
  }
  p.extrasNone = /\b(none|no extras|nothing|no thanks|not needed|no need)\b/.test(low) && !p.extrasAdd.length;
  p.name = findName(raw);
  if (/\b(less than a year|under a year|just passed|few months|months)\b/.test(low)) p.years = 0;
  const yrs = low.match(new RegExp(`\\b${NUM}\\s*\\+?\\s*(?:full\\s+)?years?\\b(?!\\s*old)`));
  if (yrs && !/aged?\s*$/.test(low.slice(0, yrs.index))) p.years = num(yrs[1] ?? "0");
  const since = low.match(/(?:licen[cs]e|licensed|passed|held|had)[^.]*?\b(?:since|in)\s+((?:19|20)\d{2})\b/);
  if (since) p.years = Math.max(0, 2027 - Number(since[1]));
  const bare = low.match(/^\s*(\d{1,2})\s*(?:years?)?[\s.!]*$/);
  if (bare) p.numberOnly = Number(bare[1]);
  const extraWord = p.extrasAdd.length > 0;
  for (const [intent, re] of INTENTS) {
    if (intent === "oos" && (p.pickupBranch || p.dropoffBranch || p.cls || p.ref)) continue;
    if (intent === "quote" && extraWord && !/\b(book|reserve|hire|quote|price)\b/.test(low)) {
      p.intent = "extra";
      break;
    }
    if (re.test(low)) {
      p.intent = intent;
      break;
    }
  }
  if (!p.intent && extraWord) p.intent = "extra";
  return p;
}
