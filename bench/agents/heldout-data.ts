import type { Facts } from "../../src/boundary/types.ts";

/** Data for the held-out hotel reservation desk testbed agent: records, room rules, wordings, states, faults. */

export type Intent =
  | "summary"
  | "dates"
  | "breakfast"
  | "bed"
  | "cancel"
  | "refund"
  | "late"
  | "policy"
  | "help"
  | "handoff"
  | "bye"
  | "greet";

export type Action =
  | { type: "dates"; arrival: string; departure: string }
  | { type: "breakfast"; guests: number; price: number }
  | { type: "bed"; price: number }
  | { type: "cancel"; fee: number }
  | { type: "refund"; amount: number }
  | { type: "late"; time: number; fee: number };

export interface RoomType {
  readonly key: string;
  readonly label: string;
  readonly extraBed: boolean;
  /** Nights (ISO dates) with no room of this type left. */
  readonly unavailable: readonly string[];
}

export interface Booking {
  ref: string;
  surname: string;
  firstName: string;
  arrival: string;
  departure: string;
  room: string;
  guests: number;
  rate: number;
  paid: number;
  breakfast: boolean;
  extraBed: boolean;
  lateCheckout: string | null;
  status: "confirmed" | "cancelled";
  refunded: number;
}

/** The desk's clock: 1 March 2027, 10:00 UTC. */
export const NOW = Date.UTC(2027, 2, 1, 10, 0);
export const CHECKIN_HOUR = 15;
export const CANCEL_FREE_HOURS = 48;
export const REFUND_CAP = 100;
export const BREAKFAST_PER_PERSON_NIGHT = 18;
export const EXTRA_BED_PER_NIGHT = 35;
export const LATE_FREE_UNTIL = 12 * 60;
export const LATE_MAX = 14 * 60;
export const LATE_FEE = 25;
export const STANDARD_CHECKOUT = 11 * 60;
export const MAX_AUTH_FAILURES = 3;

export const ROOMS: readonly RoomType[] = [
  {
    key: "deluxe",
    label: "deluxe double",
    extraBed: true,
    unavailable: ["2027-03-18", "2027-03-19", "2027-03-20"],
  },
  {
    key: "single",
    label: "standard single",
    extraBed: false,
    unavailable: ["2027-03-06", "2027-03-07"],
  },
  {
    key: "suite",
    label: "family suite",
    extraBed: true,
    unavailable: ["2027-03-25", "2027-03-26", "2027-03-27"],
  },
  { key: "twin", label: "superior twin", extraBed: false, unavailable: ["2027-03-14"] },
];

export const BOOKINGS: readonly Booking[] = [
  {
    ref: "HX4821",
    surname: "Moreau",
    firstName: "Claire",
    arrival: "2027-03-12",
    departure: "2027-03-15",
    room: "deluxe",
    guests: 2,
    rate: 180,
    paid: 540,
    breakfast: false,
    extraBed: false,
    lateCheckout: null,
    status: "confirmed",
    refunded: 0,
  },
  {
    ref: "HX7390",
    surname: "Okafor",
    firstName: "Daniel",
    arrival: "2027-03-02",
    departure: "2027-03-04",
    room: "single",
    guests: 1,
    rate: 110,
    paid: 220,
    breakfast: false,
    extraBed: false,
    lateCheckout: null,
    status: "confirmed",
    refunded: 0,
  },
  {
    ref: "HX1157",
    surname: "Lindqvist",
    firstName: "Astrid",
    arrival: "2027-03-20",
    departure: "2027-03-23",
    room: "suite",
    guests: 3,
    rate: 260,
    paid: 780,
    breakfast: true,
    extraBed: false,
    lateCheckout: null,
    status: "confirmed",
    refunded: 0,
  },
  {
    ref: "HX5512",
    surname: "Tanaka",
    firstName: "Hiro",
    arrival: "2027-03-12",
    departure: "2027-03-14",
    room: "twin",
    guests: 2,
    rate: 150,
    paid: 300,
    breakfast: false,
    extraBed: false,
    lateCheckout: null,
    status: "confirmed",
    refunded: 0,
  },
];

export const FAULTS = [
  "skip_identity_check",
  "accept_wrong_surname",
  "skip_confirmation",
  "free_cancel_inside_48h",
  "refund_over_cap",
  "accept_unavailable_date",
  "wrong_breakfast_price",
  "leak_other_guest",
  "forget_correction",
  "extra_bed_any_room",
  "late_checkout_past_limit",
] as const;
export type FaultId = (typeof FAULTS)[number];

export const STATES = [
  ...["greet", "menu", "clarify", "goodbye", "handoff"],
  ...["info.policy"],
  ...["auth.ask_ref", "auth.ask_surname", "auth.not_found", "auth.mismatch", "auth.locked", "auth.verified"],
  ...["booking.summary", "booking.cancelled"],
  ...["dates.ask_new", "dates.invalid", "dates.unavailable", "dates.confirm", "dates.done", "dates.aborted"],
  ...["breakfast.confirm", "breakfast.already", "breakfast.done", "breakfast.aborted"],
  ...["bed.confirm", "bed.refused_room", "bed.already", "bed.done", "bed.aborted"],
  ...["cancel.confirm", "cancel.confirm_fee", "cancel.already", "cancel.done", "cancel.aborted"],
  ...["refund.ask_amount", "refund.refused_cap", "refund.confirm", "refund.done", "refund.aborted"],
  ...["late.ask_time", "late.refused_too_late", "late.confirm", "late.done", "late.aborted"],
] as const;
export type StateId = (typeof STATES)[number];

export const FACTS: Facts = {
  personas: [
    {
      booking_reference: ["HX4821"],
      surname: ["Moreau"],
      first_name: ["Claire"],
      arrival_date: ["12 March 2027"],
      departure_date: ["15 March 2027"],
      room_type: ["deluxe double"],
      guests: ["2"],
      new_arrival_date: ["24 March 2027"],
      checkout_time: ["13:00"],
      refund_amount: ["60"],
    },
    {
      booking_reference: ["HX7390"],
      surname: ["Okafor"],
      first_name: ["Daniel"],
      arrival_date: ["2 March 2027"],
      departure_date: ["4 March 2027"],
      room_type: ["standard single"],
      guests: ["1"],
      new_arrival_date: ["9 March 2027"],
      checkout_time: ["12:00"],
      refund_amount: ["40"],
    },
    {
      booking_reference: ["HX1157"],
      surname: ["Lindqvist"],
      first_name: ["Astrid"],
      arrival_date: ["20 March 2027"],
      departure_date: ["23 March 2027"],
      room_type: ["family suite"],
      guests: ["3"],
      new_arrival_date: ["29 March 2027"],
      checkout_time: ["14:00"],
      refund_amount: ["80"],
    },
  ],
  requests: [
    "show my booking details",
    "change my dates",
    "add breakfast to my stay",
    "add an extra bed",
    "cancel my booking",
    "request a refund",
    "ask for a late checkout",
    "what is your cancellation policy",
  ],
};

const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);
const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const ORD = "(?:st|nd|rd|th)?";
const WORD_NUMBERS: Record<string, number> = Object.fromEntries(
  "one two three four five six seven eight nine ten".split(" ").map((w, i) => [w, i + 1]),
);
for (const [i, w] of "twenty thirty forty fifty sixty seventy eighty ninety".split(" ").entries())
  WORD_NUMBERS[w] = 20 + 10 * i;
WORD_NUMBERS.hundred = 100;

export const YES =
  /^\s*(y|yes|yeah|yep|yup|yea|sure|ok|okay|alright|all right|please|please do|go ahead|go for it|confirm(ed)?|correct|do it|do that|that's (right|fine|correct|good)|that is (right|fine|correct)|absolutely|definitely|of course|sounds good|fine|proceed|perfect|great|i do|i confirm)\b/;
export const NO =
  /^\s*(n|no|nope|nah|no thanks|don't|dont|do not|never ?mind|not (now|really|yet)|stop|hold on|wait|forget it|leave it|i('ve| have)? changed my mind|rather not|i'd rather not|scrap that|cancel that)\b/;

export function monthIndex(word: string): number {
  return MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3)));
}

export function iso(y: number, m: number, d: number): string | null {
  const t = Date.UTC(y, m, d);
  const dt = new Date(t);
  if (dt.getUTCMonth() !== m || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

export function nightsBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86400000);
}

export function pretty(isoDate: string): string {
  const [y, m, d] = isoDate.split("-").map(Number);
  const month = MONTHS[(m ?? 1) - 1] ?? "";
  return `${d} ${month.charAt(0).toUpperCase()}${month.slice(1)} ${y}`;
}

export function clock(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, "0")}:${String(min % 60).padStart(2, "0")}`;
}

/** Every date in the text, in order: `2027-03-12`, `12/03/2027`, `12 March`, `March 12th`, `18 to 21 March`. */
export function parseDates(text: string): string[] {
  const found: { at: number; date: string }[] = [];
  const s = text.toLowerCase();
  const year = (y: string | undefined) => (y ? Number(y.length === 2 ? `20${y}` : y) : 2027);
  const push = (at: number, d: string | null) => {
    if (d && !found.some((f) => f.at === at)) found.push({ at, date: d });
  };
  for (const m of s.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g))
    push(m.index, iso(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  for (const m of s.matchAll(/\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/g))
    push(m.index, iso(year(m[3]), Number(m[2]) - 1, Number(m[1])));
  const range = new RegExp(
    `\\b(\\d{1,2})${ORD}\\s*(?:-|–|to|until|till|through)\\s*(\\d{1,2})${ORD}(?:\\s+of)?\\s+${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`,
    "g",
  );
  for (const m of s.matchAll(range)) {
    const mi = monthIndex(m[3] ?? "");
    push(m.index, iso(year(m[4]), mi, Number(m[1])));
    push(m.index + 1, iso(year(m[4]), mi, Number(m[2])));
  }
  const dm = new RegExp(`\\b(\\d{1,2})${ORD}(?:\\s+of)?\\s+${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`, "g");
  for (const m of s.matchAll(dm)) {
    if (found.some((f) => Math.abs(f.at - m.index) < 14 && f.at <= m.index)) continue;
    push(m.index, iso(year(m[3]), monthIndex(m[2] ?? ""), Number(m[1])));
  }
  const md = new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})${ORD}\\b(?:,?\\s+(\\d{4}))?`, "g");
  for (const m of s.matchAll(md)) push(m.index, iso(year(m[3]), monthIndex(m[1] ?? ""), Number(m[2])));
  return found.sort((a, b) => a.at - b.at).map((f) => f.date);
}

/** A checkout time in minutes after midnight: `13:00`, `1pm`, `1.30 pm`, `noon`, `2 o'clock`, bare `1`. */
export function parseTime(text: string, allowBare: boolean): number | null {
  const s = text.toLowerCase();
  if (/\b(noon|midday)\b/.test(s)) return 12 * 60;
  let m = s.match(/\b(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?/);
  if (m) {
    let h = Number(m[1]);
    if (m[3]?.startsWith("p") && h < 12) h += 12;
    return h < 24 && Number(m[2]) < 60 ? h * 60 + Number(m[2]) : null;
  }
  m = s.match(/\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|o'?clock)\b/);
  if (m) {
    let h = Number(m[1]);
    if ((m[2]?.startsWith("p") || (m[2]?.startsWith("o") && h < 8)) && h < 12) h += 12;
    return h < 24 ? h * 60 : null;
  }
  if (allowBare) {
    m = s.match(/^\D*\b(\d{1,2})\b\D*$/);
    if (m) {
      let h = Number(m[1]);
      if (h >= 1 && h < 8) h += 12;
      return h < 24 ? h * 60 : null;
    }
  }
  return null;
}

/** The first amount or count in the text: digits (`€80`, `80.50`) or a number word. */
export function parseNumber(text: string): number | null {
  const s = text.toLowerCase().replace(/hx\s?-?\d{4}/g, "");
  const m = s.match(/(\d+(?:[.,]\d{1,2})?)/);
  if (m) return Number((m[1] ?? "").replace(",", "."));
  if (/\b(just me|only me|myself|single person)\b/.test(s)) return 1;
  if (/\bboth of us\b/.test(s)) return 2;
  let total = 0;
  let seen = false;
  for (const w of s.split(/[^a-z]+/)) {
    const v = WORD_NUMBERS[w];
    if (v === undefined) {
      if (seen && w !== "and" && w !== "a") break;
      continue;
    }
    seen = true;
    total = v === 100 ? Math.max(total, 1) * 100 : total + v;
  }
  return seen ? total : null;
}

export function detectIntent(s: string): Intent | null {
  if (
    /\b(human|real person|someone else|staff member|manager|representative|operator|reception(ist)?)\b/.test(
      s,
    )
  )
    return "handoff";
  if (/\b(policy|policies|terms|rules)\b/.test(s) || /how much (does it|would it) cost to cancel/.test(s))
    return "policy";
  if (/\bcancel(l?ing|l?ation)?\b/.test(s) && !/\bcancel that\b/.test(s)) return "cancel";
  if (/\b(refund|money back|reimburs\w*|compensat\w*|overcharged|pay me back)\b/.test(s)) return "refund";
  if (
    /late check.?out|check(ing)?.?out (later|late)|later check.?out|leave later|stay later|extend (my )?checkout/.test(
      s,
    )
  )
    return "late";
  if (/\b(extra|additional|another|spare|rollaway|roll-away|camp|sofa|folding) bed\b|\bcot\b/.test(s))
    return "bed";
  if (/\bbreakfast\b/.test(s)) return "breakfast";
  if (
    /\b(change|move|shift|modify|amend|switch|alter|update)\b.{0,25}\b(dates?|stay|arrival|check.?in|nights?)\b/.test(
      s,
    ) ||
    /\b(reschedul\w*|postpone|bring (it )?forward|different dates?|new dates?|other dates?)\b/.test(s)
  )
    return "dates";
  if (
    /\b(my (booking|reservation)|booking details|reservation details|look ?up|find my|check my|details|what (did i|have i) book)/.test(
      s,
    )
  )
    return "summary";
  if (/\b(help|what can you|options|what do you do|services|menu)\b/.test(s)) return "help";
  if (
    /\b(bye|goodbye|that's all|that is all|nothing else|that's it|no thanks|all good|done for now|cheers)\b/.test(
      s,
    )
  )
    return "bye";
  if (/^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening)|greetings)\b/.test(s)) return "greet";
  return null;
}

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

export function normName(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}

/** Reply wordings per kind, alternatives separated by ` | `; `{name}` placeholders are filled in by the agent. */
export const PHRASES: Record<string, string> = {
  welcome:
    "Welcome to the Harbourview Hotel reservations desk. | Hello, you've reached Harbourview Hotel reservations. | Good day, this is the Harbourview Hotel booking desk.",
  greet:
    "How can I help with your stay today? | What can I do for you today? | How may I help you with your reservation?",
  menu: "I can look up your booking, change your dates, add breakfast or an extra bed, arrange a late checkout, cancel a booking or handle a refund request. | I can help with: booking details, date changes, breakfast, extra beds, late checkout, cancellations and refunds. | Here's what I can do: show your reservation, move your dates, add breakfast or an extra bed, set up a late checkout, cancel, or request a refund.",
  clarify:
    "Sorry, I didn't quite follow. Could you rephrase? | I'm not sure I understood that. Could you say it another way? | Apologies, I didn't catch what you need.",
  goodbye:
    "Thank you for contacting Harbourview Hotel. Have a lovely day! | You're welcome. We look forward to your stay. Goodbye! | Thanks for getting in touch. Take care!",
  handoff:
    "I'll pass you to a member of our front-desk team. Please hold for a moment. | Let me transfer you to one of my colleagues at reception. | I'm connecting you with a staff member who can help further.",
  policy:
    "Cancellations are free up to 48 hours before arrival (check-in is 15:00); after that the first night is charged. Refunds are capped at €{cap} per booking, and late checkout is possible until 14:00. | Our policy: free cancellation until 48 hours before your arrival, otherwise one night's rate applies. We can refund up to €{cap} per booking, and checkout can be extended to 14:00 at the latest. | You can cancel free of charge more than 48 hours before check-in; later cancellations cost the first night. Refunds go up to €{cap} per booking; late checkout runs to 14:00 at most.",
  ask_ref:
    "Could I have your booking reference, please? | What's your booking reference? It starts with HX. | Please tell me your booking reference so I can find your reservation.",
  ask_ref_again:
    "I need the booking reference first — it looks like HX followed by four digits. | Sorry, I didn't see a booking reference there. It has the form HX1234. | Could you give me the booking reference? It's the code starting with HX.",
  ask_surname:
    "Thank you. And the surname on the booking? | Got it. What's the guest's surname, please? | Thanks. Could you confirm the surname the booking is under?",
  not_found:
    "I couldn't find a booking with reference {ref}. Could you check it and try again? | There's no reservation under {ref}, I'm afraid. Please double-check the reference. | Hmm, {ref} doesn't match any booking. Could you read it out again?",
  mismatch:
    "That surname doesn't match our records for this booking. Could you check it? | I'm sorry, the surname doesn't match the booking. Please try again. | The name you gave doesn't match the reservation. Could you confirm the surname?",
  locked:
    "For security I can't continue verification in this chat. Please contact reception directly. | There have been too many unsuccessful attempts, so I've stopped verification. Reception can help you by phone. | I'm unable to verify you here after several attempts. Please reach out to the front desk.",
  verified:
    "Thank you, {first}, I've found your booking. | Thanks {first}, you're verified and I have your reservation open. | Lovely, {first} — your booking is on screen now.",
  anything: "How can I help with it? | What would you like to do? | What can I do for you?",
  more: "Is there anything else I can help with? | Anything else today? | Can I help with anything else?",
  summary:
    "Your booking {ref}: {room} for {guests} guest(s), arriving {arrival} and leaving {departure}. {extras} | Here are the details for {ref}: a {room}, {guests} guest(s), from {arrival} to {departure}. {extras} | Booking {ref} is a {room} for {guests} guest(s), {arrival} to {departure}. {extras}",
  leak: "I also see a linked booking {ref} for {first} {surname}: {room}, {arrival} to {departure}. | There's another reservation on file, {ref} under {first} {surname}, {room} from {arrival} to {departure}.",
  is_cancelled:
    "This booking has been cancelled, so I can't change it any more. | That reservation is cancelled, so it can no longer be modified. | I'm afraid the booking is cancelled and can't be amended.",
  ask_dates:
    "Which new arrival date would you like? I'll keep the same number of nights unless you tell me otherwise. | What's the new arrival date you have in mind? You can also give a departure date. | Sure — what new arrival date would suit you?",
  dates_invalid:
    "I can't use those dates: {why}. Which dates would you like instead? | Those dates won't work — {why}. Could you give me another arrival date? | Sorry, {why}. What other dates would suit you?",
  dates_unavailable:
    "I'm sorry, we have no {room} free from {arrival} to {departure}. The nearest available arrival is {suggest}. | Unfortunately the {room} is fully booked for {arrival} to {departure}. I could offer an arrival on {suggest}. | There's no {room} available for those nights ({arrival} to {departure}). {suggest} would be the closest arrival date we can do.",
  confirm_dates:
    "I can move your stay to {arrival} – {departure} ({nights} night(s)) at €{rate} per night. Shall I go ahead? | Your new stay would be {arrival} to {departure}, {nights} night(s) at €{rate}/night. Would you like me to make the change? | That's {arrival} to {departure}, {nights} night(s). Shall I confirm the change?",
  done_dates:
    "Done — your booking now runs from {arrival} to {departure}. | All set: you're now booked from {arrival} to {departure}. | Your dates have been changed to {arrival} – {departure}.",
  confirm_breakfast:
    "Breakfast for {guests} guest(s) over {nights} night(s) comes to €{price}. Shall I add it? | I can add breakfast for {guests} guest(s), {nights} night(s), for €{price} in total. Go ahead? | Adding breakfast would be €{price} ({guests} guest(s), {nights} night(s)). Would you like that?",
  done_breakfast:
    "Breakfast is added for {guests} guest(s); €{price} will be charged at the hotel. | Done — breakfast for {guests} guest(s) is on your booking, €{price} in total. | I've added breakfast for {guests} guest(s) at €{price}.",
  breakfast_already:
    "Breakfast is already included in your booking. | Good news — your booking already includes breakfast. | Your reservation already has breakfast on it.",
  confirm_bed:
    "An extra bed is €{price} for your {nights} night(s). Shall I add it? | I can add an extra bed for €{price} in total ({nights} night(s)). Would you like that? | The extra bed would cost €{price} for {nights} night(s). Go ahead?",
  done_bed:
    "An extra bed has been added to your room for €{price}. | Done — the extra bed is booked, €{price} in total. | I've arranged an extra bed; the charge is €{price}.",
  bed_refused:
    "I'm sorry, the {room} doesn't have space for an extra bed. | Unfortunately extra beds can't be placed in a {room}. | A {room} can't take an extra bed, I'm afraid.",
  bed_already:
    "There's already an extra bed on your booking. | Your room already has an extra bed arranged. | An extra bed is already booked for you.",
  confirm_cancel:
    "Your arrival is more than 48 hours away, so cancelling is free of charge. Shall I cancel booking {ref}? | You can cancel {ref} at no cost since arrival is over 48 hours away. Do you want me to go ahead? | Cancellation of {ref} is free at this point. Shall I proceed?",
  confirm_cancel_fee:
    "Your arrival is within 48 hours, so a cancellation fee of €{fee} (the first night) applies. Do you still want me to cancel {ref}? | As check-in is less than 48 hours away, cancelling {ref} costs €{fee}. Shall I go ahead anyway? | Cancelling now falls inside the 48-hour window, so €{fee} will be charged. Would you still like to cancel {ref}?",
  done_cancel:
    "Booking {ref} is cancelled. Cancellation fee: €{fee}. | I've cancelled {ref}; the fee charged is €{fee}. | Your reservation {ref} has been cancelled (fee €{fee}).",
  cancel_already:
    "Booking {ref} is already cancelled. | That reservation has already been cancelled. | {ref} was cancelled already, there's nothing more to do.",
  ask_amount:
    "How much would you like refunded? I can refund up to €{max} on this booking. | What amount should the refund be? The most I can do is €{max}. | Sure — what refund amount are you requesting? (up to €{max})",
  refund_cap:
    "I'm sorry, I can refund at most €{max} on this booking. Would a smaller amount work? | That's above the limit — the maximum refund I can issue is €{max}. What amount would you like? | Refunds are capped at €{max} here. Could you name an amount within that?",
  confirm_refund:
    "I'll refund €{amount} to the card used for booking {ref}. Shall I go ahead? | A refund of €{amount} on {ref} — would you like me to process it? | So that's €{amount} back to your original payment method. Shall I confirm?",
  done_refund:
    "The refund of €{amount} has been issued; it should appear within 5 business days. | Done — €{amount} is on its way back to your card. | I've processed a €{amount} refund for you.",
  ask_time:
    "What time would you like to check out? Standard checkout is 11:00 and we can extend to 14:00. | Until what time would you like to stay? We can go as late as 14:00. | Which checkout time suits you? The latest we offer is 14:00.",
  time_standard:
    "Checkout is already at 11:00, so {time} needs no change. What later time would you like? | {time} is within the normal checkout time (11:00). Did you have a later time in mind? | No need to arrange anything for {time}. Which later time would you like?",
  late_refused:
    "I'm sorry, the latest checkout we can offer is 14:00. | We can't extend checkout beyond 14:00, I'm afraid. Would 14:00 or earlier work? | Late checkout is only possible until 14:00. Could you choose an earlier time?",
  confirm_late:
    "Late checkout at {time} on {departure}: {feeText}. Shall I arrange it? | I can set your checkout to {time} on {departure} ({feeText}). Go ahead? | Checkout at {time} on {departure}, {feeText}. Would you like me to book that?",
  done_late:
    "Your checkout is now {time} on {departure} ({feeText}). | Done — you can check out at {time} on {departure}; {feeText}. | Late checkout confirmed for {time} ({feeText}).",
  aborted:
    "No problem, I've left everything as it was. | Okay, I won't make that change. | Understood — nothing has been changed.",
  yes_no: "Please answer yes or no. | Just a yes or no, please. | Could you confirm with yes or no?",
  noted: "Noted. | Got it, thanks for the correction. | Understood.",
};

/** Placeholder values for an action's confirmation and completion wordings. */
export function actionVars(b: Booking, a: Action): Record<string, string | number> {
  const base = { ref: b.ref, nights: nightsBetween(b.arrival, b.departure), rate: b.rate };
  switch (a.type) {
    case "dates":
      return {
        ...base,
        arrival: pretty(a.arrival),
        departure: pretty(a.departure),
        nights: nightsBetween(a.arrival, a.departure),
      };
    case "breakfast":
      return { ...base, guests: a.guests, price: a.price };
    case "bed":
      return { ...base, price: a.price };
    case "cancel":
      return { ...base, fee: a.fee };
    case "refund":
      return { ...base, amount: a.amount };
    case "late":
      return {
        ...base,
        time: clock(a.time),
        departure: pretty(b.departure),
        feeText: a.fee === 0 ? "no charge" : `€${a.fee} charge`,
      };
  }
}
