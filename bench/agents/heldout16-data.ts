/**
 * Data and wording for the `heldout16` testbed agent: "Kes", the tenant-services assistant of Kestrel Vale
 * Homes (a housing association). Tenancies, rent ledgers, repair appointments, and the paraphrase table the
 * agent picks its replies from (the variant is chosen by the session seed).
 */

import type { Facts } from "../../src/boundary/types.ts";

/** The agent's clock: Wednesday 12 March 2025, 10:00. */
export const TODAY = { y: 2025, m: 3, d: 12, hour: 10 } as const;

export const PHONE_MAIN = "0300 555 0100";
export const PHONE_EMERGENCY = "0300 555 0199";
export const PHONE_GAS = "0800 111 999";

/** Single-payment limits for card payments taken in the chat. */
export const PAY_MIN = 1;
export const PAY_MAX = 1500;
/** Payment plans: arrears must clear within this many weeks; the weekly instalment is bounded. */
export const PLAN_MAX_WEEKS = 52;
export const PLAN_MIN_INSTALMENT = 5;
export const PLAN_MAX_INSTALMENT = 150;
/** Notice to end a tenancy: at least this many days, and the end date must be a Monday. */
export const NOTICE_MIN_DAYS = 28;
/** Pets per home. */
export const MAX_PETS = 2;

export interface LedgerEntry {
  /** ISO date. */
  date: string;
  text: string;
  /** Positive: a charge; negative: a payment or credit. */
  amount: number;
}

export interface Tenant {
  ref: string;
  firstName: string;
  surname: string;
  /** ISO date. */
  dob: string;
  address: string;
  propertyType: "flat" | "house";
  hasGarden: boolean;
  bedrooms: number;
  tenancyType: "assured" | "starter";
  /** ISO date: end of a starter tenancy's fixed (probationary) term. */
  fixedTermEnds?: string;
  weeklyRent: number;
  ledger: LedgerEntry[];
  card?: { brand: string; last4: string };
  mobile: string;
  email: string;
  pets: string[];
  plan?: { weekly: number; start: string };
}

export interface Appointment {
  id: string;
  tenancyRef: string;
  /** ISO date. */
  date: string;
  startHour: number;
  endHour: number;
  job: string;
}

export const TENANTS: readonly Tenant[] = [
  {
    ref: "KVH-204817",
    firstName: "Priya",
    surname: "Shah",
    dob: "1988-06-14",
    address: "Flat 3, 21 Linnet Court, Bristol BS5 7QT",
    propertyType: "flat",
    hasGarden: false,
    bedrooms: 2,
    tenancyType: "assured",
    weeklyRent: 112.4,
    ledger: [
      { date: "2025-02-17", text: "Rent", amount: 112.4 },
      { date: "2025-02-18", text: "Direct Debit", amount: -112.4 },
      { date: "2025-02-24", text: "Rent", amount: 112.4 },
      { date: "2025-02-25", text: "Direct Debit", amount: -112.4 },
      { date: "2025-03-03", text: "Rent", amount: 112.4 },
      { date: "2025-03-04", text: "Card payment", amount: -125 },
      { date: "2025-03-10", text: "Rent", amount: 112.4 },
      { date: "2025-03-11", text: "Direct Debit", amount: -112.4 },
    ],
    card: { brand: "Visa", last4: "4421" },
    mobile: "07700 900123",
    email: "priya.shah@example.com",
    pets: [],
  },
  {
    ref: "KVH-311552",
    firstName: "Tom",
    surname: "Okafor",
    dob: "1975-11-02",
    address: "14 Heron Way, Bristol BS16 2LD",
    propertyType: "house",
    hasGarden: true,
    bedrooms: 3,
    tenancyType: "assured",
    weeklyRent: 138.75,
    ledger: [
      { date: "2025-02-01", text: "Balance brought forward", amount: 347.45 },
      { date: "2025-02-17", text: "Rent", amount: 138.75 },
      { date: "2025-02-21", text: "Payment at Post Office", amount: -100 },
      { date: "2025-02-24", text: "Rent", amount: 138.75 },
      { date: "2025-02-28", text: "Payment at Post Office", amount: -100 },
      { date: "2025-03-03", text: "Rent", amount: 138.75 },
      { date: "2025-03-07", text: "Payment at Post Office", amount: -100 },
      { date: "2025-03-10", text: "Rent", amount: 138.75 },
      { date: "2025-03-11", text: "Payment at Post Office", amount: -75 },
    ],
    mobile: "07700 900778",
    email: "t.okafor@example.net",
    pets: ["dog"],
  },
  {
    ref: "KVH-418090",
    firstName: "Megan",
    surname: "Lloyd",
    dob: "1999-01-23",
    address: "Flat 12, Sandpiper House, Bristol BS2 9HX",
    propertyType: "flat",
    hasGarden: false,
    bedrooms: 1,
    tenancyType: "starter",
    fixedTermEnds: "2025-09-30",
    weeklyRent: 96.2,
    ledger: [
      { date: "2025-02-01", text: "Balance brought forward", amount: 130 },
      { date: "2025-02-24", text: "Rent", amount: 96.2 },
      { date: "2025-02-24", text: "Card payment", amount: -96.2 },
      { date: "2025-03-03", text: "Rent", amount: 96.2 },
      { date: "2025-03-03", text: "Card payment", amount: -106.2 },
      { date: "2025-03-10", text: "Rent", amount: 96.2 },
      { date: "2025-03-10", text: "Card payment", amount: -96.2 },
    ],
    card: { brand: "Mastercard", last4: "0057" },
    mobile: "07700 900342",
    email: "megan.lloyd@example.co.uk",
    pets: [],
    plan: { weekly: 10, start: "2025-03-03" },
  },
  {
    ref: "KVH-527364",
    firstName: "Daniel",
    surname: "Reyes",
    dob: "1982-04-30",
    address: "7 Kingfisher Row, Bristol BS4 1NE",
    propertyType: "house",
    hasGarden: true,
    bedrooms: 2,
    tenancyType: "assured",
    weeklyRent: 121.05,
    ledger: [
      { date: "2025-03-03", text: "Rent", amount: 121.05 },
      { date: "2025-03-03", text: "Direct Debit", amount: -121.05 },
      { date: "2025-03-10", text: "Rent", amount: 121.05 },
      { date: "2025-03-10", text: "Direct Debit", amount: -121.05 },
    ],
    mobile: "07700 900901",
    email: "dreyes@example.org",
    pets: ["cat"],
  },
];

export const APPOINTMENTS: readonly Appointment[] = [
  {
    id: "RJ-50211",
    tenancyRef: "KVH-204817",
    date: "2025-03-13",
    startHour: 9,
    endHour: 12,
    job: "annual boiler service",
  },
  {
    id: "RJ-50274",
    tenancyRef: "KVH-204817",
    date: "2025-03-18",
    startHour: 12,
    endHour: 16,
    job: "bathroom extractor fan not working",
  },
  {
    id: "RJ-50190",
    tenancyRef: "KVH-311552",
    date: "2025-03-21",
    startHour: 8,
    endHour: 12,
    job: "gas safety check",
  },
  {
    id: "RJ-50302",
    tenancyRef: "KVH-527364",
    date: "2025-03-19",
    startHour: 8,
    endHour: 12,
    job: "replace back door lock",
  },
];

// ---------------------------------------------------------------------------------------------------------
// Wording
// ---------------------------------------------------------------------------------------------------------

export type Vars = Record<string, string | number>;
export type Template = (v: Vars) => string;

const CAN_DO_OPEN = "opening hours · emergency numbers · ways to pay rent · our pet policy";
const CAN_DO_SIGNED =
  "- report a repair\n- check or cancel a repair appointment\n- rent balance & statement\n- make a payment\n- set up a payment plan for arrears\n- ask permission (pet, lodger, alteration)\n- give notice to end your tenancy\n- update your contact details\n- make a complaint";

/** Reply wording: state (or sub-case) → 2–3 variants. */
export const PHRASES: Record<string, readonly Template[]> = {
  // ---- public -----------------------------------------------------------------------------------------
  "public.menu": [
    () =>
      `Hi, I'm Kes from Kestrel Vale Homes. No sign-in needed for: ${CAN_DO_OPEN}.\nWith your tenancy reference I can also help you:\n${CAN_DO_SIGNED}\nWhat do you need?`,
    () =>
      `Hello! Kes here, Kestrel Vale Homes tenant services.\nAnyone can ask me about ${CAN_DO_OPEN}.\nTenants who sign in can:\n${CAN_DO_SIGNED}\nWhat can I do for you?`,
    () =>
      `Kes, Kestrel Vale Homes. Open to all: ${CAN_DO_OPEN}.\nOnce you've signed in:\n${CAN_DO_SIGNED}\nTell me what you need, or say "adviser" for a person.`,
  ],
  "public.menu_signed": [
    (v) => `You're signed in as ${v.name}. I can help you:\n${CAN_DO_SIGNED}\nOr ask about ${CAN_DO_OPEN}.`,
    (v) => `Still here, ${v.name}. Options:\n${CAN_DO_SIGNED}\nGeneral info too: ${CAN_DO_OPEN}.`,
  ],
  "public.fallback": [
    () =>
      `Sorry, I didn't follow that. Things I can do: ${CAN_DO_OPEN}; and after sign-in:\n${CAN_DO_SIGNED}\nOr say "adviser" to talk to a person.`,
    () =>
      `Hmm, I'm not sure what you mean. Try one of these — general: ${CAN_DO_OPEN}. For tenants (sign-in needed):\n${CAN_DO_SIGNED}`,
    () =>
      `I can't help with that one, I'm afraid. What I *can* do: ${CAN_DO_OPEN}, plus for signed-in tenants:\n${CAN_DO_SIGNED}\nA person is also available — just say "adviser".`,
  ],
  "public.fallback_empty": [
    () =>
      `Did you mean to send something? Tell me what you need — e.g. "report a repair" or "opening hours".`,
    () => `I didn't get a message there. What can I help with? (e.g. "my rent balance", "pet policy")`,
  ],
  "public.hours": [
    () =>
      `Tenant services opening hours:\n- Mon–Fri 8am–6pm\n- Sat 9am–1pm\n- Closed Sundays and bank holidays\nPhone ${PHONE_MAIN}. Emergency repairs are answered 24/7 on ${PHONE_EMERGENCY}.`,
    () =>
      `We're open Monday to Friday 8am–6pm and Saturday 9am–1pm (closed Sundays and bank holidays). Call ${PHONE_MAIN}. Out of hours, emergency repairs: ${PHONE_EMERGENCY}, any time.`,
  ],
  "public.emergency": [
    () =>
      `Emergency numbers:\n- Emergency repairs (24/7): ${PHONE_EMERGENCY}\n- Smell gas? Leave the property and call National Gas Emergency on ${PHONE_GAS}\n- Power cut: 105\n- Danger to life: 999\nIf you're signed in I can also log an emergency repair — say "report a repair".`,
    () =>
      `If it's an emergency, phone ${PHONE_EMERGENCY} — it's staffed day and night. Gas smell: get out and ring ${PHONE_GAS}. Power cut: 105. Anyone in danger: 999. I can log repairs here too once you've signed in.`,
  ],
  "public.pay_methods": [
    () =>
      `Ways to pay your rent:\n- Direct Debit (weekly or monthly) — set up by phone on ${PHONE_MAIN}\n- Card, right here in this chat (sign in first)\n- allpay card at any PayPoint or Post Office\n- Standing order / bank transfer to Kestrel Vale Homes, sort code 20-45-77, account 60311245 — use your tenancy reference\nRent is charged every Monday.`,
    () =>
      `You can pay by Direct Debit (call ${PHONE_MAIN} to set it up), by card in this chat once you're signed in, with your allpay card at a PayPoint or Post Office, or by bank transfer (sort code 20-45-77, account 60311245, tenancy reference as the payment reference). Rent's due each Monday.`,
  ],
  "public.pets_policy": [
    () =>
      `Pet policy in short:\n- Ask us first — written permission is needed before any pet moves in\n- Cats and small caged pets are usually fine\n- Dogs only in houses with their own garden\n- Max ${MAX_PETS} pets per home\n- No exotic or dangerous animals (reptiles, spiders, banned breeds)\nSigned-in tenants can apply here: say "ask permission for a pet".`,
    () =>
      `Our pet rules: you need our written OK before getting a pet. Cats and small caged animals are normally approved; dogs only where the home is a house with a private garden; no more than ${MAX_PETS} pets; no exotic or dangerous animals. You can apply through me once you've signed in.`,
  ],
  "session.goodbye": [
    () => `No problem. If anything else comes up, I'm here — take care.`,
    () => `Okay! Thanks for getting in touch with Kestrel Vale Homes. Bye for now.`,
    () => `All right. Have a good day — message again any time.`,
  ],
  "session.signed_out": [
    () => `You're signed out. Anything else, just ask.`,
    () => `Done — signed out. Bye for now.`,
  ],
  "flow.aborted": [
    (v) => `Okay, I've stopped there — ${v.what}. Anything else?`,
    (v) => `No problem, cancelled: ${v.what}. What else can I help with?`,
    (v) => `Fine — ${v.what}. Let me know if there's something else.`,
  ],
  "handoff.request": [
    (v) =>
      `Sure — I'm passing you to a tenant services adviser. Your chat reference is ${v.ref}. Advisers are available Mon–Fri 8am–6pm and Sat 9am–1pm; outside those hours they'll call you back the next working day.`,
    (v) =>
      `Okay, transferring you to one of the team now (reference ${v.ref}). If it's outside office hours, someone will ring you back next working day.`,
  ],
  "handoff.repeated": [
    (v) =>
      `I'm not getting this right, sorry. I've passed the conversation to an adviser — reference ${v.ref}. They'll pick it up shortly (or call ${PHONE_MAIN}).`,
    (v) =>
      `Let's get a person to help with this instead. I've handed you over to tenant services (ref ${v.ref}); you can also ring ${PHONE_MAIN}.`,
  ],
  "handoff.complaint": [
    (v) =>
      `Thanks for telling us. I've logged complaint ${v.ref} and passed it to our Customer Resolution team — an adviser will contact you within 2 working days. I'm transferring you to the team now in case someone's free.`,
    (v) =>
      `I've recorded your complaint as ${v.ref}. Complaints are handled by a person, so I'm handing you over to the Customer Resolution team; you'll hear back within 2 working days at the latest.`,
  ],
  "handoff.note": [
    () => `While you wait, I can still help with other things.`,
    () => `You can keep asking me other questions in the meantime.`,
  ],

  // ---- sign-in ----------------------------------------------------------------------------------------
  "auth.ask_ref": [
    (v) =>
      `${v.lead}First I need to sign you in. What's your tenancy reference? It looks like KVH-123456 and it's on your tenancy agreement and rent letters.`,
    (v) =>
      `${v.lead}I'll need to check who you are first. Your tenancy reference, please (KVH followed by six digits — it's on your rent statement).`,
    (v) => `${v.lead}Let's get you signed in. Tenancy reference? (format KVH-123456)`,
  ],
  "auth.ref_malformed": [
    () => `That doesn't look like a tenancy reference. It's KVH then six digits, e.g. KVH-123456. Try again?`,
    () =>
      `Hmm, I can't find a reference in that. Tenancy references are in the form KVH-123456 — what's yours?`,
  ],
  "auth.ask_identity": [
    () => `Thanks. Now your surname and date of birth, please (e.g. Smith, 01/02/1980).`,
    () => `Got it. And to confirm it's you: what's your surname, and your date of birth?`,
    () => `Thanks. Surname and date of birth?`,
  ],
  "auth.ask_identity_dob": [
    () => `Thanks — and your date of birth? (DD/MM/YYYY)`,
    () => `And your date of birth, please?`,
  ],
  "auth.ask_identity_surname": [
    () => `Thanks — and your surname?`,
    () => `Got the date. What's your surname?`,
  ],
  "auth.ask_identity_baddate": [
    () =>
      `I couldn't read that date of birth. Please use DD/MM/YYYY, e.g. 05/09/1984 — along with your surname if you haven't given it.`,
    () =>
      `That date of birth doesn't look right. Could you send it as day/month/year, e.g. 5 September 1984?`,
  ],
  "auth.failed": [
    () => `Sorry, those details don't match our records. Let's try again — what's your tenancy reference?`,
    () => `I couldn't verify you with those details. Please start again with your tenancy reference.`,
  ],
  "auth.locked": [
    () =>
      `For security I've locked sign-in for this chat after too many unsuccessful attempts. Please call us on ${PHONE_MAIN}, or say "adviser" and I'll pass you to a person.`,
    () =>
      `Sign-in is now locked for this conversation because of repeated failed checks. An adviser can help — say "adviser", or phone ${PHONE_MAIN}.`,
  ],
  "auth.ok": [
    (v) => `Thanks, ${v.name} — you're signed in.`,
    (v) => `You're in, ${v.name}.`,
    (v) => `All verified. Hi ${v.name}!`,
  ],
  "auth.ok_menu": [
    () => `What would you like to do?\n${CAN_DO_SIGNED}`,
    () => `How can I help today? For example:\n${CAN_DO_SIGNED}`,
  ],
  "auth.already": [
    (v) => `You're already signed in as ${v.name}. What do you need?`,
    (v) => `No need — you're signed in, ${v.name}. What can I help with?`,
  ],

  // ---- repairs ----------------------------------------------------------------------------------------
  "repair.ask_location": [
    () =>
      `Let's log that repair. Which room is it in? (kitchen, bathroom, bedroom, living room, hallway, or outside/communal)`,
    () =>
      `Okay, a repair. Where in your home is the problem — kitchen, bathroom, bedroom, living room, hall/stairs, or outside?`,
    () => `Repair it is. Which room or area?`,
  ],
  "repair.location_again": [
    () =>
      `Sorry, which room is that? Please pick one: kitchen, bathroom, bedroom, living room, hallway, outside.`,
    () => `I didn't catch the room. Kitchen, bathroom, bedroom, living room, hallway or outside?`,
  ],
  "repair.ask_category": [
    (v) =>
      `${v.room} — noted. What sort of problem is it?\n[1] leak or plumbing  [2] electrics  [3] heating or hot water  [4] doors, windows or locks  [5] something else`,
    (v) =>
      `Got it, ${v.room}. Which best describes the problem: 1 leak/plumbing, 2 electrics, 3 heating/hot water, 4 doors/windows/locks, 5 other?`,
  ],
  "repair.category_again": [
    () =>
      `Please pick a number from 1 to 5: [1] plumbing [2] electrics [3] heating/hot water [4] doors/windows/locks [5] other.`,
    () =>
      `Sorry, I need the type of problem — reply 1, 2, 3, 4 or 5 (plumbing, electrics, heating, doors/windows/locks, other).`,
  ],
  "repair.triage.plumbing": [
    () =>
      `Quick safety check: is water coming through a ceiling or near any electrics, or can you not turn the water off? (yes/no)`,
    () =>
      `Before I book anything — is water pouring through a ceiling, getting near electrics, or impossible to stop? Yes or no?`,
  ],
  "repair.triage.electrics": [
    () =>
      `Quick safety check: do you have no power at all, or is anything sparking, smoking or smelling of burning? (yes/no)`,
    () => `Is it dangerous — sparking, burning smell, or no electricity anywhere in the home? Yes or no?`,
  ],
  "repair.triage.heating": [
    () => `Quick check: do you have no heating AND no hot water at all right now? (yes/no)`,
    () => `Is the home completely without heating and hot water? Yes or no?`,
  ],
  "repair.triage.doors": [
    () =>
      `Quick check: is your home insecure right now — an outside door or ground-floor window that won't lock or close? (yes/no)`,
    () =>
      `Can you secure the property at the moment? Answer yes if an outside door or window can't be locked or shut.`,
  ],
  "repair.triage.other": [
    () => `Quick check: is anyone at risk of harm because of this right now? (yes/no)`,
    () => `Is this putting anyone in danger right now? Yes or no?`,
  ],
  "repair.triage_again": [
    () => `Sorry, I just need a yes or a no: is it an emergency as described?`,
    () => `Please answer yes or no so I know whether to send someone urgently.`,
  ],
  "repair.emergency": [
    (v) =>
      `That's an emergency. I've logged emergency job ${v.ref} (${v.room}, ${v.category}) and an operative will attend within 4 hours. Please also ring ${PHONE_EMERGENCY} now so the team can talk you through making things safe. Smell gas? Leave and call ${PHONE_GAS}.`,
    (v) =>
      `Okay — treating this as an emergency. Job ${v.ref} is raised for the ${v.room} (${v.category}); someone will be with you within 4 hours. Call ${PHONE_EMERGENCY} straight away for safety advice. For gas, call ${PHONE_GAS}.`,
  ],
  "repair.ask_access": [
    () =>
      `Not an emergency, then. Which weekdays are you available, and what time of day suits — mornings (8–12) or afternoons (12–4)?`,
    () =>
      `Thanks. For a routine visit: which days (Monday to Friday) are you available, and which time of day is better, morning or afternoon?`,
  ],
  "repair.ask_access_band": [
    (v) => `${v.days} — and mornings (8–12) or afternoons (12–4)? "Either" is fine too.`,
    (v) => `Okay, ${v.days}. Morning or afternoon?`,
  ],
  "repair.ask_access_days": [
    (v) => `${v.band} works. Which weekdays? (e.g. "Tuesday or Thursday", or "any day")`,
    (v) => `Noted: ${v.band}. And which days, Monday to Friday?`,
  ],
  "repair.access_invalid": [
    () =>
      `Routine repairs are Monday to Friday only. Which weekdays could you do, and mornings or afternoons?`,
    () => `We don't do routine visits at weekends, sorry. Any weekday that suits — and morning or afternoon?`,
  ],
  "repair.access_unclear": [
    () =>
      `Sorry, I didn't get that. Tell me the weekdays you're in and whether mornings or afternoons suit — e.g. "Monday or Wednesday, afternoons".`,
    () => `I need days and a time of day, like "any weekday, mornings". Which works for you?`,
  ],
  "repair.offer_slots": [
    (v) => `Here's what I can offer:\n${v.list}\nWhich one? (A, B or C — or "none of these" for more)`,
    (v) => `Available visits:\n${v.list}\nReply with the letter, or say "other times".`,
    (v) => `These slots are free:\n${v.list}\nPick one by letter.`,
  ],
  "repair.no_slots": [
    () =>
      `I can't find any free slots on those days in the next few weeks. Could you give me some other days?`,
    () => `Nothing's free on those days soon, I'm afraid. Can you do any other weekdays?`,
  ],
  "repair.slot_invalid": [
    (v) => `Sorry, that's not one of the options. Choose from:\n${v.list}`,
    (v) => `Please pick one of these by letter:\n${v.list}`,
  ],
  "repair.confirm": [
    (v) =>
      `Here's the booking:\n- Room: ${v.room}\n- Problem: ${v.category}\n- Visit: ${v.slot}\n- We'll text ${v.mobile} the day before\nShall I book it? (yes/no)`,
    (v) =>
      `So that's a ${v.category} repair in the ${v.room}, visit ${v.slot}, reminder by text to ${v.mobile}. Book it? Yes or no — or tell me what to change.`,
  ],
  "repair.confirm_changed": [(v) => `Changed — ${v.what}.`, (v) => `Okay, updated: ${v.what}.`],
  "repair.confirm_weekend": [
    () => `Routine visits are weekdays only, so I've left the booking as it was.`,
    () => `We can't do weekends for routine repairs — the slot is unchanged.`,
  ],
  "repair.confirm_again": [
    () => `Sorry — yes to book, no to stop, or tell me what to change (e.g. "make it Tuesday").`,
    () => `Just need a yes or no here (or a change, like "actually Thursday afternoon").`,
  ],
  "repair.booked": [
    (v) =>
      `Booked. Job ${v.ref}: ${v.category} in the ${v.room}, ${v.slot}. You'll get a text reminder the day before. Anything else?`,
    (v) =>
      `Done — repair ${v.ref} is booked for ${v.slot} (${v.room}, ${v.category}). We'll text you the day before. Can I help with anything else?`,
  ],

  // ---- appointments -----------------------------------------------------------------------------------
  "appt.list": [
    (v) => `Your upcoming repair appointments:\n${v.list}\n${v.tail}`,
    (v) => `Here's what's booked:\n${v.list}\n${v.tail}`,
  ],
  "appt.tail_cancel": [
    () => `Which one would you like to cancel? Reply with its number.`,
    () => `Tell me the number of the one to cancel.`,
  ],
  "appt.tail_check": [
    () => `If you need to cancel one, give me its number — otherwise just say no.`,
    () => `Want to cancel any of these? Reply with the number, or "no".`,
  ],
  "appt.pick_again": [
    (v) => `Please reply with a number from 1 to ${v.n}, or "no" to leave them.`,
    (v) => `Which number (1–${v.n})? Or say no.`,
  ],
  "appt.none": [
    () => `You don't have any repair appointments coming up. Want to report a repair?`,
    () => `Nothing booked at the moment. If something needs fixing, say "report a repair".`,
  ],
  "appt.refused_24h": [
    (v) =>
      `That visit (${v.slot}) is less than 24 hours away, so it can't be cancelled online — the operative is already scheduled. Please call ${PHONE_MAIN} and we'll do what we can.`,
    (v) =>
      `Sorry, appointments within 24 hours can't be cancelled here. ${v.slot} is too close — phone ${PHONE_MAIN} instead.`,
  ],
  "appt.confirm_cancel": [
    (v) => `Cancel the visit on ${v.slot} (${v.job})? Type CANCEL to confirm, or anything else to keep it.`,
    (v) =>
      `You're about to cancel this visit: ${v.slot} — ${v.job}. To go ahead, type the word CANCEL. Anything else keeps the booking.`,
  ],
  "appt.cancelled": [
    (v) =>
      `Cancelled: ${v.job}, ${v.slot} (job ${v.id}). If the problem's still there, you can rebook any time.`,
    (v) => `That's cancelled — job ${v.id} on ${v.slot}. Just say "report a repair" if you need a new visit.`,
  ],
  "appt.kept": [
    () => `Okay, I've left your appointments as they are.`,
    () => `No changes made — your booking stands.`,
  ],

  // ---- rent -------------------------------------------------------------------------------------------
  "rent.balance.owed": [
    (v) =>
      `Rent account ${v.ref}:\n- Balance: **${v.amount} in arrears**\n- Weekly rent: ${v.rent}\n- Next charge: ${v.next}\nIf you're struggling, I can set up a payment plan. Want to see your recent transactions? (yes/no)`,
    (v) =>
      `You currently owe ${v.amount}. Your rent is ${v.rent} a week, next charged ${v.next}. A payment plan can help clear arrears — just ask. Shall I show the last few transactions?`,
  ],
  "rent.balance.credit": [
    (v) =>
      `Rent account ${v.ref}:\n- Balance: **${v.amount} in credit**\n- Weekly rent: ${v.rent}\n- Next charge: ${v.next}\nWant to see your recent transactions? (yes/no)`,
    (v) =>
      `Good news — you're ${v.amount} in credit. Rent is ${v.rent} a week, next charged ${v.next}. Shall I show the last few transactions?`,
  ],
  "rent.balance.zero": [
    (v) =>
      `Rent account ${v.ref}: balance £0.00, all paid up. Weekly rent ${v.rent}, next charged ${v.next}. See recent transactions? (yes/no)`,
    (v) =>
      `You're up to date — nothing owed. Rent is ${v.rent} weekly, next charge ${v.next}. Want the recent transactions?`,
  ],
  "rent.statement": [
    (v) => `Recent transactions:\n${v.list}\nBalance: ${v.balance}.`,
    (v) => `Here are your latest entries:\n${v.list}\nCurrent balance ${v.balance}.`,
  ],

  // ---- payments ---------------------------------------------------------------------------------------
  "pay.ask_amount": [
    (v) => `${v.lead}How much would you like to pay today?`,
    (v) => `${v.lead}What amount do you want to pay?`,
  ],
  "pay.amount_invalid": [
    () => `Sorry, I need an amount in pounds — for example 50 or £120.50.`,
    () => `That's not an amount I can use. Please send just the figure, like £75.`,
  ],
  "pay.refused_limit": [
    (v) =>
      `I can only take between £${v.min} and £${v.max} in a single card payment. For larger amounts, please call ${PHONE_MAIN}. What amount would you like to pay?`,
    (v) =>
      `Card payments here must be at least £${v.min} and no more than £${v.max}. Could you choose an amount in that range?`,
  ],
  "pay.ask_method": [
    (v) => `Which card? [A] your ${v.brand} ending ${v.last4}  [B] a different card`,
    (v) => `Shall I use the ${v.brand} ending ${v.last4} we have on file (A), or a new card (B)?`,
  ],
  "pay.method_again": [
    (v) => `Please reply A for the card ending ${v.last4}, or B for a new card.`,
    () => `Sorry — A (card on file) or B (new card)?`,
  ],
  "pay.ask_card": [
    () => `Please enter the card number and expiry date (MM/YY). Don't send the security code.`,
    () => `What's the long card number, and its expiry date (MM/YY)? No CVV needed.`,
  ],
  "pay.card_invalid": [
    (v) =>
      `That card didn't work: ${v.why}. Please send the 16-digit card number and expiry date (MM/YY) again.`,
    (v) => `Sorry — ${v.why}. Try the card number and expiry (MM/YY) once more.`,
  ],
  "pay.confirm": [
    (v) => `Pay **${v.amount}** from ${v.card} towards rent account ${v.ref}? (yes/no)`,
    (v) => `Just to check: ${v.amount} from ${v.card}. Go ahead? Yes or no — or give me a different amount.`,
  ],
  "pay.confirm_again": [() => `Yes to pay, no to stop — or a new amount.`, () => `Please answer yes or no.`],
  "pay.done": [
    (v) =>
      `Payment taken: ${v.amount} from ${v.card}. Receipt ${v.receipt}. Your new balance is ${v.balance}.`,
    (v) => `Thanks — ${v.amount} received (receipt ${v.receipt}). Balance now ${v.balance}.`,
  ],

  // ---- payment plans ----------------------------------------------------------------------------------
  "plan.refused_no_arrears": [
    (v) =>
      `You're not in arrears (balance ${v.balance}), so there's nothing to set a plan up for. Anything else?`,
    (v) => `A payment plan is only for rent arrears, and your account is ${v.balance}. Nothing to do there!`,
  ],
  "plan.refused_existing": [
    (v) =>
      `You already have a payment plan: ${v.weekly} a week on top of rent, since ${v.start}. It can't be changed in this chat — an adviser can review it; say "adviser" if you'd like that.`,
    (v) =>
      `There's already an arrangement on your account (${v.weekly}/week from ${v.start}). Only one plan can run at a time; an adviser can look at changing it.`,
  ],
  "plan.ask_instalment": [
    (v) =>
      `Your arrears are ${v.arrears}. What weekly instalment could you pay on top of your ${v.rent} rent? It has to clear the arrears within ${v.weeks} weeks, so at least ${v.min} a week (and no more than ${v.max}).`,
    (v) =>
      `You owe ${v.arrears}. Let's agree a weekly amount on top of rent — minimum ${v.min} (clears it within a year), maximum ${v.max}. What weekly instalment can you manage?`,
  ],
  "plan.instalment_again": [
    (v) => `I need a weekly amount in pounds, between ${v.min} and ${v.max}.`,
    (v) => `Sorry, how much per week? Somewhere from ${v.min} to ${v.max}.`,
  ],
  "plan.refused_instalment.low": [
    (v) =>
      `${v.amount} a week wouldn't clear the arrears within ${v.weeks} weeks — the minimum is ${v.min}. If that's not affordable, an adviser can talk through options. What weekly amount could you do?`,
    (v) =>
      `Sorry, that's too low: plans must clear arrears in ${v.weeks} weeks, so ${v.min}/week at least. Another amount?`,
  ],
  "plan.refused_instalment.high": [
    (v) =>
      `The most a plan can be is ${v.max} a week — to pay off more, make a one-off payment instead. What weekly amount would you like?`,
    (v) => `Plans are capped at ${v.max} a week. Could you pick an amount up to that?`,
  ],
  "plan.ask_start": [
    (v) => `${v.amount} a week — okay. What start date would you like? Any Monday in the next 4 weeks.`,
    (v) =>
      `Great, ${v.amount}/week. What start date suits you? It has to be a Monday within the next four weeks.`,
  ],
  "plan.start_invalid": [
    (v) => `${v.why} Please give a Monday between ${v.from} and ${v.to}.`,
    (v) => `Sorry — ${v.why} Choose a Monday from ${v.from} to ${v.to}.`,
  ],
  "plan.confirm": [
    (v) =>
      `Here's the plan:\n- Arrears: ${v.arrears}\n- Extra each week: ${v.amount} (so ${v.total}/week including rent)\n- Starts: ${v.start}\n- Cleared in about ${v.count} weeks\nMissing payments may lead to legal action for possession. To agree, type I AGREE.`,
    (v) =>
      `Plan summary: ${v.amount} a week on top of rent (${v.total} in total), starting ${v.start}, arrears of ${v.arrears} cleared in roughly ${v.count} weeks. If payments are missed, we may start possession proceedings. Type I AGREE to set it up.`,
  ],
  "plan.confirm_again": [
    () => `To set the plan up, please type exactly: I AGREE (or "stop" to leave it).`,
    () => `I need the words I AGREE to go ahead — or say stop.`,
  ],
  "plan.done": [
    (v) =>
      `Your payment plan is set up: ${v.amount} a week extra from ${v.start}. Reference ${v.ref}. We'll send the agreement by email.`,
    (v) =>
      `Done — plan ${v.ref} starts ${v.start} at ${v.amount}/week on top of rent. A copy is on its way to your email.`,
  ],

  // ---- permissions ------------------------------------------------------------------------------------
  "perm.ask_type": [
    () => `What's the permission for? [A] a pet  [B] a lodger  [C] an alteration to your home`,
    () => `Sure — is it for a pet (A), taking in a lodger (B), or making an alteration (C)?`,
  ],
  "perm.type_again": [
    () => `Please choose A (pet), B (lodger) or C (alteration).`,
    () => `Sorry — pet, lodger or alteration?`,
  ],
  "perm.ask_pet": [
    () => `What kind of animal, and how many?`,
    () => `Tell me the type of pet and how many you'd like to keep.`,
  ],
  "perm.pet_again": [
    () => `Sorry, I need the animal and the number — e.g. "one cat" or "two rabbits".`,
    () => `What animal is it, and how many? (e.g. "1 dog")`,
  ],
  "perm.pet_count": [(v) => `How many ${v.animal}s?`, (v) => `And how many ${v.animal}s would that be?`],
  "perm.refused_pet.exotic": [
    (v) =>
      `Sorry, we don't allow exotic or dangerous animals such as a ${v.animal}. That's a fixed part of our pet policy.`,
    (v) =>
      `I'm afraid a ${v.animal} isn't something we can permit — exotic and dangerous animals are excluded under the tenancy.`,
  ],
  "perm.refused_pet.dog_flat": [
    () =>
      `Sorry, we can't give permission for a dog: dogs are only allowed in houses with their own garden, and your home is a flat. A cat or small caged pet would normally be fine.`,
    () =>
      `I'm afraid that's a no for a dog — our policy only allows dogs in houses with a private garden, and you're in a flat.`,
  ],
  "perm.refused_pet.too_many": [
    (v) =>
      `Sorry, that would take you to ${v.total} pets — the limit is ${MAX_PETS} per home (you already have ${v.have}).`,
    (v) => `We can't approve that: homes can have at most ${MAX_PETS} pets and you'd have ${v.total}.`,
  ],
  "perm.refused_lodger.starter": [
    (v) =>
      `Sorry, lodgers aren't allowed during a starter tenancy. Yours runs until ${v.until}; after that you can apply.`,
    (v) =>
      `You can't take in a lodger while on a starter tenancy (until ${v.until}). Please ask again once it becomes assured.`,
  ],
  "perm.refused_lodger.arrears": [
    (v) =>
      `Sorry, we can't consider a lodger while the rent account is in arrears (currently ${v.balance}). Once it's clear, ask again.`,
    (v) => `Lodger requests can't be approved while there are arrears on the account (${v.balance}).`,
  ],
  "perm.ask_lodger": [
    () => `What's the lodger's full name, and what date would they move in?`,
    () => `Tell me your lodger's full name and their move-in date.`,
  ],
  "perm.lodger_again": [
    () =>
      `I need both the lodger's full name (first and last) and a move-in date, e.g. "Sam Green, 1 April".`,
    () => `Sorry — full name and move-in date please.`,
  ],
  "perm.ask_alteration": [
    () =>
      `Describe the alteration you'd like to make — e.g. "fit a shower over the bath" or "put up a shed".`,
    () => `What change do you want to make to the home? A sentence is plenty.`,
  ],
  "perm.alteration_again": [
    () =>
      `Could you describe it in a few more words? e.g. "paint the kitchen" or "install a satellite dish".`,
    () => `A bit more detail please — what exactly would you change?`,
  ],
  "perm.refused_alteration": [
    () =>
      `Sorry, that sounds like structural or gas work, which tenants can't arrange themselves — it has to be done by us. If something needs fixing, report it as a repair.`,
    () =>
      `We can't approve structural changes, gas work or extensions by tenants. If there's a problem, say "report a repair" and we'll look at it.`,
  ],
  "perm.confirm": [
    (v) => `I'll send this request to your housing officer:\n- ${v.summary}\nSubmit it? (yes/no)`,
    (v) => `Request: ${v.summary}. Shall I submit it? Yes or no.`,
  ],
  "perm.confirm_again": [() => `Yes to submit, or no to leave it.`, () => `Please say yes or no.`],
  "perm.submitted": [
    (v) =>
      `Submitted (ref ${v.ref}). Your housing officer will reply within 10 working days. Please don't go ahead until you have permission in writing.`,
    (v) =>
      `Sent — reference ${v.ref}. Expect a decision within 10 working days, and wait for the written OK before going ahead.`,
  ],

  // ---- notice -----------------------------------------------------------------------------------------
  "notice.refused_fixed_term": [
    (v) =>
      `Your starter tenancy is in its fixed term until ${v.until}, so it can't be ended with notice online. A housing officer can talk you through your options — say "adviser".`,
    (v) =>
      `Sorry, I can't take notice on a starter tenancy during the fixed term (yours ends ${v.until}). Please speak to an adviser about leaving early.`,
  ],
  "notice.ask_date": [
    () =>
      `Sorry to see you go. What end date do you want for the tenancy? It needs to be a Monday, at least 4 weeks from today.`,
    () =>
      `Okay. What end date would you like? Notice is at least four weeks and the end date has to be a Monday.`,
  ],
  "notice.date_invalid": [
    () => `I couldn't read that date. Try something like 14/04/2025 or "Monday 14 April".`,
    () => `Sorry, what date was that? Please use DD/MM/YYYY.`,
  ],
  "notice.refused_weekday": [
    (v) => `${v.date} is a ${v.weekday}. Tenancies end on a Monday — could you pick a Monday?`,
    (v) => `The end date must be a Monday, and ${v.date} isn't. Which Monday would you like?`,
  ],
  "notice.refused_period": [
    (v) =>
      `That's too soon — we need at least 4 weeks' notice, so the earliest end date is ${v.earliest}. Which date would you like?`,
    (v) =>
      `Notice must be at least four weeks. The earliest possible end date is ${v.earliest}. Please choose a later date.`,
  ],
  "notice.ask_forwarding": [
    (v) => `End date ${v.date}. What's your forwarding address, including postcode?`,
    (v) =>
      `Okay, ${v.date}. Where should we send post after you move out? Full forwarding address with postcode, please.`,
  ],
  "notice.forwarding_again": [
    () => `I need a full forwarding address including the postcode (e.g. 22 Wren Road, Bath BA2 3PL).`,
    () => `Please include the street and postcode of your forwarding address.`,
  ],
  "notice.confirm": [
    (v) =>
      `Notice to end tenancy ${v.ref}:\n- Address: ${v.address}\n- Tenancy ends: ${v.date}\n- Forwarding address: ${v.forwarding}\n${v.warning}To confirm, type END MY TENANCY.`,
    (v) =>
      `You're giving notice on ${v.address}, ending ${v.date}, forwarding to ${v.forwarding}. ${v.warning}Type END MY TENANCY to confirm, or "stop".`,
  ],
  "notice.warning": [
    (v) =>
      `Important: once submitted, notice can't be withdrawn online. Rent is charged up to and including ${v.date}, and keys must be returned by 12 noon that day.\n`,
    (v) =>
      `Please note: this can't be undone here. You'll pay rent up to and including ${v.date} and must hand in all keys by noon that day. `,
  ],
  "notice.confirm_again": [
    () => `To go ahead I need you to type END MY TENANCY exactly. Or say "stop" to leave it.`,
    () => `That's not the confirmation phrase. Type END MY TENANCY, or "stop".`,
  ],
  "notice.submitted": [
    (v) =>
      `Your notice is recorded (ref ${v.ref}). Your tenancy will end on ${v.date}. We'll write to you about the pre-leaving inspection and returning keys.`,
    (v) =>
      `Done — notice ${v.ref} received; the tenancy ends ${v.date}. Watch out for a letter about the move-out inspection.`,
  ],

  // ---- contact details --------------------------------------------------------------------------------
  "contact.show": [
    (v) =>
      `Contact details we hold:\n- Mobile: ${v.mobile}\n- Email: ${v.email}\n- Address: ${v.address}\nTo change your mobile or email, say "update my details".`,
    (v) =>
      `We have your mobile as ${v.mobile} and email as ${v.email} (address ${v.address}). Want to change anything? Just say so.`,
  ],
  "contact.reverify": [
    () => `Before I change contact details I need to re-check it's you. What's your date of birth?`,
    () => `For security, please confirm your date of birth first.`,
  ],
  "contact.reverify_again": [
    () => `I need your date of birth as DD/MM/YYYY.`,
    () => `Please give your date of birth, e.g. 05/09/1984.`,
  ],
  "contact.reverify_failed": [
    () => `That date of birth doesn't match our records. Please try again.`,
    () => `Sorry, that's not the date of birth we have. One more go?`,
  ],
  "contact.ask_field": [
    () => `Thanks. What would you like to update? [1] mobile number  [2] email address  [3] both`,
    () => `Verified. Is it your mobile number, your email address, or both?`,
  ],
  "contact.field_again": [
    () => `Please choose 1 (mobile), 2 (email) or 3 (both).`,
    () => `Mobile, email, or both?`,
  ],
  "contact.ask_value.mobile": [
    () => `What's the new mobile number?`,
    () => `Please send your new mobile number.`,
  ],
  "contact.ask_value.email": [
    () => `What's the new email address?`,
    () => `Please type your new email address.`,
  ],
  "contact.ask_value.both": [
    () => `What are the new mobile number and new email address?`,
    () => `Send me your new mobile number and your new email address.`,
  ],
  "contact.value_invalid": [
    (v) => `That doesn't look right: ${v.why}. Please try again.`,
    (v) => `Sorry — ${v.why}. Could you re-enter it?`,
  ],
  "contact.readback": [
    (v) => `Just to check, your new details would be:\n${v.list}\nIs that right? (yes/no)`,
    (v) => `I've got:\n${v.list}\nCorrect? Yes, or tell me what's wrong.`,
  ],
  "contact.readback_again": [
    () => `Is that correct — yes or no?`,
    () => `Please answer yes or no (or send the corrected details).`,
  ],
  "contact.updated": [
    (v) => `Updated. From now on we'll use:\n${v.list}`,
    (v) => `All changed. Your records now show:\n${v.list}`,
  ],

  // ---- complaints -------------------------------------------------------------------------------------
  "complaint.ask_summary": [
    () =>
      `I'm sorry things haven't gone well. In a sentence or two, what's your complaint about? I'll log it and pass it to a person.`,
    () =>
      `Sorry to hear that. Briefly, what would you like to complain about? A member of the team will handle it.`,
  ],
  "complaint.summary_again": [
    () => `Could you tell me a little more — a few words about what went wrong?`,
    () => `Please describe the complaint in a sentence.`,
  ],
};

/**
 * What a tester knows before it starts: three tenants (one straightforward, one in arrears living in a house
 * with a garden and a dog, one on a starter tenancy still in its fixed term with an existing payment plan),
 * and extra requests to try.
 */
export const FACTS: Facts = {
  personas: [
    {
      full_name: ["Priya Shah"],
      tenancy_reference: ["KVH-204817"],
      surname: ["Shah"],
      date_of_birth: ["14/06/1988"],
      address: ["Flat 3, 21 Linnet Court, Bristol BS5 7QT"],
      mobile_number: ["07700 900123"],
      email_address: ["priya.shah@example.com"],
      new_mobile_number: ["07700 900456"],
      new_email_address: ["priya.s@example.org"],
      room: ["bathroom", "kitchen"],
      problem: ["the kitchen tap is leaking", "the bathroom light doesn't work"],
      available_days: ["Tuesday or Thursday", "any weekday"],
      time_of_day: ["mornings", "afternoons"],
      amount: ["50", "120.50"],
      card: ["the Visa ending 4421 on file"],
      animal: ["cat", "dog"],
      number_of_animals: ["1"],
      lodger_name: ["Sam Green"],
      move_in_date: ["01/04/2025"],
      alteration: ["fit a shower over the bath", "put up shelves in the living room"],
      end_date: ["14/04/2025", "Monday 21 April 2025"],
      forwarding_address: ["22 Wren Road, Bath BA2 3PL"],
      complaint: ["my repair was cancelled twice without anyone telling me"],
      appointment: ["boiler service on 13 March", "extractor fan visit on 18 March"],
    },
    {
      full_name: ["Tom Okafor"],
      tenancy_reference: ["KVH-311552"],
      surname: ["Okafor"],
      date_of_birth: ["02/11/1975"],
      address: ["14 Heron Way, Bristol BS16 2LD"],
      mobile_number: ["07700 900778"],
      email_address: ["t.okafor@example.net"],
      new_mobile_number: ["07700 900655"],
      new_email_address: ["tom.okafor@example.com"],
      rent_arrears: ["527.45"],
      weekly_instalment: ["15", "20"],
      start_date: ["Monday 24 March 2025"],
      amount: ["100", "2000"],
      card_number: ["4111 1111 1111 1111"],
      expiry_date: ["09/27"],
      room: ["kitchen", "hallway"],
      problem: ["the boiler keeps cutting out", "the front door lock is stiff"],
      available_days: ["Monday or Friday"],
      time_of_day: ["afternoons"],
      animal: ["cat", "dog"],
      number_of_animals: ["1", "2"],
      existing_pets: ["1 dog"],
      end_date: ["Monday 28 April 2025"],
      forwarding_address: ["Flat 2, 9 Mill Lane, Cardiff CF10 1AB"],
      appointment: ["gas safety check on 21 March"],
    },
    {
      full_name: ["Megan Lloyd"],
      tenancy_reference: ["KVH-418090"],
      surname: ["Lloyd"],
      date_of_birth: ["23/01/1999"],
      address: ["Flat 12, Sandpiper House, Bristol BS2 9HX"],
      tenancy_type: ["starter tenancy, fixed term until 30 September 2025"],
      mobile_number: ["07700 900342"],
      email_address: ["megan.lloyd@example.co.uk"],
      new_email_address: ["meg.lloyd@example.com"],
      existing_payment_plan: ["£10 a week"],
      amount: ["25"],
      lodger_name: ["Jess Patel"],
      move_in_date: ["05/05/2025"],
      alteration: ["knock through the kitchen wall", "paint the bedroom"],
      end_date: ["Monday 14 April 2025"],
      forwarding_address: ["3 Station Road, Exeter EX4 4NT"],
      room: ["bedroom"],
      problem: ["the window won't close properly"],
      available_days: ["Wednesday"],
      time_of_day: ["either"],
    },
  ],
  requests: [
    "What are your opening hours?",
    "What's the number for emergency repairs?",
    "How can I pay my rent?",
    "Am I allowed a dog?",
    "Can I speak to a person?",
    "I want to make a complaint",
    "Show me my rent statement",
    "What contact details do you have for me?",
    "Cancel my repair appointment",
    "I smell gas",
  ],
};
