import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data of the heldout13 testbed agent: the Harbourside Hall box office (theatre and concert venue). Shows and
 * performances, the seeded orders, the reply templates (several wordings per reply, picked by the paraphrase
 * seed), the facts file a tester gets, and the text side the agent builds on: record look-ups, formatting and
 * the lexicon of its rule-based NLU. All dates are in 2025 and venue-local; "now" is fixed.
 */

export type Zone = "stalls" | "circle" | "balcony";
export const ZONES: readonly Zone[] = ["stalls", "circle", "balcony"];
export type Concession = "none" | "student" | "senior";

export interface Performance {
  id: string;
  /** ISO date, e.g. `2025-05-14`. */
  date: string;
  /** 24-hour `HH:MM`. */
  time: string;
  status: "scheduled" | "cancelled" | "rescheduled";
  /** For a rescheduled performance: the date it moved to. */
  movedTo?: string;
  /** Presale: tickets need the presale code. */
  presale?: boolean;
  soldOut?: Zone[];
}

export interface Show {
  id: string;
  name: string;
  kind: string;
  aliases: RegExp;
  /** Minimum age of every attendee (0 = none). */
  minAge: number;
  prices: Record<Zone, number>;
  /** Concession price per zone; a zone missing here has no concession price. */
  concession: Partial<Record<Zone, number>>;
  performances: Performance[];
}

export interface Order {
  ref: string;
  name: string;
  email: string;
  card4: string;
  perfId: string;
  qty: number;
  zone: Zone;
  concession: Concession;
  paid: number;
  access: string[];
  status: "active" | "refunded";
}

/** The fixed "now": Friday 9 May 2025, 12:00. */
export const NOW = Date.UTC(2025, 4, 9, 12, 0);
export const TICKET_CAP = 6;
export const EXCHANGE_FEE = 3;
export const EXCHANGE_WINDOW_HOURS = 48;
export const PRESALE_CODE = "AURORA25";
export const VENUE = "Harbourside Hall";

export const SHOWS: readonly Show[] = [
  {
    id: "tempest",
    name: "The Tempest",
    kind: "Shakespeare play",
    aliases: /\btempest\b|\bshakespeare\b/,
    minAge: 0,
    prices: { stalls: 45, circle: 35, balcony: 20 },
    concession: { circle: 28, balcony: 15 },
    performances: [
      { id: "tempest-0507", date: "2025-05-07", time: "19:30", status: "cancelled" },
      { id: "tempest-0510", date: "2025-05-10", time: "19:30", status: "scheduled" },
      { id: "tempest-0514", date: "2025-05-14", time: "19:30", status: "scheduled", soldOut: ["balcony"] },
      { id: "tempest-0517m", date: "2025-05-17", time: "14:30", status: "scheduled" },
      { id: "tempest-0517", date: "2025-05-17", time: "19:30", status: "scheduled" },
    ],
  },
  {
    id: "cabaret",
    name: "Midnight Cabaret",
    kind: "late-night cabaret",
    aliases: /\bcabaret\b|\bmidnight\b/,
    minAge: 16,
    prices: { stalls: 40, circle: 30, balcony: 22 },
    concession: {},
    performances: [
      { id: "cabaret-0516", date: "2025-05-16", time: "21:00", status: "scheduled" },
      { id: "cabaret-0523", date: "2025-05-23", time: "21:00", status: "scheduled" },
    ],
  },
  {
    id: "aurora",
    name: "Aurora Quartet",
    kind: "string quartet concert",
    aliases: /\baurora\b|\bquartet\b|\bstring\b/,
    minAge: 0,
    prices: { stalls: 55, circle: 42, balcony: 28 },
    concession: { balcony: 20 },
    performances: [
      { id: "aurora-0513", date: "2025-05-13", time: "19:30", status: "rescheduled", movedTo: "2025-05-20" },
      { id: "aurora-0520", date: "2025-05-20", time: "19:30", status: "scheduled" },
      { id: "aurora-0605", date: "2025-06-05", time: "19:30", status: "scheduled", presale: true },
    ],
  },
  {
    id: "brass",
    name: "Brass Giants",
    kind: "brass band concert",
    aliases: /\bbrass\b|\bgiants\b/,
    minAge: 0,
    prices: { stalls: 38, circle: 30, balcony: 18 },
    concession: { circle: 24, balcony: 14 },
    performances: [
      { id: "brass-0503", date: "2025-05-03", time: "20:00", status: "scheduled" },
      { id: "brass-0524", date: "2025-05-24", time: "20:00", status: "scheduled", soldOut: ["stalls"] },
      { id: "brass-0531", date: "2025-05-31", time: "20:00", status: "scheduled" },
    ],
  },
];

function order(
  ref: string,
  name: string,
  email: string,
  card4: string,
  perfId: string,
  seats: string,
): Order {
  const [qty, zone, concession, paid] = seats.split(" ");
  const conc = concession as Concession;
  return {
    ref,
    name,
    email,
    card4,
    perfId,
    qty: Number(qty),
    zone: zone as Zone,
    concession: conc,
    paid: Number(paid),
    access: [],
    status: "active",
  };
}

/** The seeded orders (restored on every reset()); seats are `qty zone concession paid`. */
export const ORDERS: readonly Order[] = [
  order("HB4821", "Ana Ruiz", "ana.ruiz@mailbox.org", "4417", "tempest-0514", "2 stalls none 90"),
  order("HB5370", "Ben Okafor", "ben.okafor@post.net", "2290", "tempest-0510", "3 circle none 105"),
  order("HB6093", "Chloe Martin", "chloe.martin@inbox.com", "8832", "aurora-0513", "2 balcony student 40"),
  order("HB7154", "Dev Patel", "dev.patel@webmail.com", "5561", "tempest-0507", "2 circle senior 56"),
  order("HB7160", "Dev Patel", "dev.patel@webmail.com", "5561", "brass-0503", "4 balcony none 72"),
];

/**
 * Reply templates: every reply has 3–4 wordings, the paraphrase seed picks one. `{name}` placeholders are
 * filled by the agent.
 */
export const TEMPLATES = {
  greet: [
    "Hello, and welcome to the Harbourside Hall box office! I can tell you what's on, sell you tickets or help with a booking you already have. What can I do for you?",
    "Hi there! You're chatting with the Harbourside Hall ticket desk. Looking for tickets, show info, or help with an existing booking?",
    "Good to see you! This is Harbourside Hall's box office chat. Ask me what's on, buy tickets, or sort out a booking you've made.",
  ],
  help: [
    "Here's what I can do: tell you what's on and the prices, book tickets, and — with your booking reference and email — show, exchange or refund a booking, add an accessibility request or resend your e-tickets. I can also help with parking and access info.",
    "I can help with the programme and prices, buying tickets, and managing an existing booking (viewing it, exchanging dates, refunds, accessibility requests, resending tickets). Venue questions like parking are fine too.",
    "Happy to help with: what's on, ticket sales, venue info (parking, access, opening hours), and existing bookings — view, exchange, refund, accessibility needs or resending tickets.",
  ],
  whats_on: [
    "Here's what's coming up at Harbourside Hall:\n{listing}\nWould you like tickets for any of these?",
    "This is our current programme:\n{listing}\nAnything catch your eye?",
    "On stage soon:\n{listing}\nJust tell me which show interests you.",
  ],
  show_info: [
    "{show} ({kind}{age}).\nPerformances: {dates}.\nPrices: {prices}.{conc} Shall I book you some seats?",
    "About {show}, our {kind}{age}: it plays {dates}. Seats cost {prices}.{conc} Want me to get you tickets?",
    "{show} — a {kind}{age}. Dates: {dates}. Pricing: {prices}.{conc} Let me know if you'd like to book.",
  ],
  parking: [
    "The nearest parking is the Quayside car park, a two-minute walk away (£6 flat rate after 5 pm). There are eight blue-badge bays right outside on Dock Street. Harbour Road tram stop is across the square.",
    "Drivers usually use Quayside car park next door — £6 for the evening after 5 pm. Blue-badge holders can use the bays on Dock Street, and the Harbour Road tram stop is just opposite.",
    "Quayside car park is two minutes' walk from the Hall and charges £6 after 5 pm; blue-badge bays are on Dock Street by the entrance. By tram, get off at Harbour Road.",
  ],
  access_info: [
    "Harbourside Hall has a step-free entrance on Dock Street, lifts to every level, wheelchair spaces in the stalls and a hearing loop in the stalls and circle. If you have a booking, I can add an accessibility request to it.",
    "Access-wise: step-free entry on Dock Street, lifts to all floors, wheelchair spaces in the stalls, and hearing-loop coverage in the stalls and circle. I can note an access need on an existing booking too.",
    "We're step-free from the Dock Street entrance, with lifts to each level. Wheelchair spaces are in the stalls, and the stalls and circle have a hearing loop. Want me to add a request to a booking?",
  ],
  hours: [
    "The box office is open Monday to Saturday, 10 am to 8 pm, and from 90 minutes before every performance. Doors open 45 minutes before curtain up.",
    "You'll find us open 10 am–8 pm, Monday to Saturday, plus 90 minutes ahead of each show. Doors open 45 minutes before the start.",
    "Box office hours: 10 am till 8 pm Mon–Sat, and 90 minutes before any performance. The auditorium doors open 45 minutes before the show.",
  ],
  thanks: [
    "You're very welcome! Anything else I can help with?",
    "My pleasure. Is there anything else you need?",
    "Glad to help! Let me know if there's anything more.",
  ],
  chat: [
    "I'm the Harbourside Hall box-office assistant — doing well, thanks! What can I help you with?",
    "All good here, thanks for asking. I'm the Hall's ticket desk assistant: shows, tickets and bookings are my thing.",
    "I'm a virtual assistant for the Harbourside Hall box office, and I'm ready to help. What are you after today?",
  ],
  unknown: [
    "Sorry, I didn't quite follow that. I can help with what's on, buying tickets or an existing booking.",
    "Hmm, I'm not sure what you mean. You could ask about shows, buy tickets, or manage a booking.",
    "I didn't catch that one, I'm afraid. Try asking about our shows, tickets, or your booking.",
  ],
  handoff: [
    "Of course — I'll pass you to a member of the box-office team. They're available on 0161 555 0199 (10 am–8 pm Mon–Sat), or they'll reply to this chat shortly.",
    "No problem, I'm handing you over to one of our box-office staff. If you'd rather phone, it's 0161 555 0199 during opening hours.",
    "Sure, let me get a colleague from the box office for you. You can also reach them on 0161 555 0199, Monday to Saturday 10 am–8 pm.",
  ],
  goodbye: [
    "Thanks for visiting Harbourside Hall — enjoy the show!",
    "Goodbye, and have a wonderful evening at the Hall!",
    "Take care, and see you at the theatre!",
  ],
  reprompt: ["Sorry, I didn't catch that. ", "Hmm, I missed that. ", "Apologies, I'm not sure I followed. "],
  flow_cancelled: [
    "No problem — I've stopped there and nothing has been changed.",
    "Okay, I've left everything as it was. Anything else?",
    "Sure, let's leave it. Nothing was booked or changed.",
  ],
  buy_ask_show: [
    "Lovely! Which show would you like to see, and how many tickets do you need?",
    "Great — which performance are you after, and for how many people?",
    "Happy to sort that. Which show is it, and how many of you are going?",
  ],
  buy_unknown_show: [
    "I can't find that one in our listings. We currently have {shows}. Which would you like?",
    "That doesn't seem to be on at Harbourside Hall. Our shows are {shows} — any of those?",
    "Hmm, I don't recognise that show. What's on right now: {shows}. Which one shall I book?",
  ],
  buy_ask_date: [
    "{show} plays on {dates}. Which date would you like?",
    "Here are the dates for {show}: {dates}. Which one suits you?",
    "You can see {show} on {dates}. When would you like to go?",
  ],
  buy_ask_time: [
    "There are two performances of {show} on {date}: {times}. Would you like the matinee or the evening?",
    "{show} has a {times} show on {date} — which time works for you?",
    "On {date} you can choose between {times} for {show}. Which do you prefer?",
  ],
  buy_date_unavailable: [
    "{show} isn't playing on {date}, I'm afraid. The dates are {dates}. Which would you like?",
    "There's no performance of {show} on {date}. You could choose {dates} instead.",
    "Sorry, nothing on {date} for {show}. Available: {dates}. Pick one?",
  ],
  buy_refused_past: [
    "I can't sell tickets for {show} on {date} — that performance {why}. Upcoming dates: {dates}.",
    "That one's not possible: {show} on {date} {why}. You could go on {dates} instead.",
    "Unfortunately {show} on {date} {why}, so it's not bookable. Would {dates} work?",
  ],
  buy_ask_presale: [
    "The {date} performance of {show} is in presale at the moment, so tickets need a presale code. What's your code?",
    "{show} on {date} is presale-only for now. Could you give me your presale code?",
    "Tickets for {date} are currently only available with a presale code. Do you have one? Please type it in.",
  ],
  buy_refused_presale: [
    "Sorry, that isn't a valid presale code, so I can't release presale seats. You can try another code or pick a general-sale date: {dates}.",
    "That code doesn't work for the presale, I'm afraid. Another code, or a date on general sale ({dates})?",
    "I'm unable to accept that presale code. If you have a different one, send it over — otherwise {dates} are on general sale.",
  ],
  buy_no_presale_code: [
    "Without a presale code I can't sell seats for that performance, I'm afraid. {dates} are on general sale — would one of those do?",
    "Presale tickets need a code, so that date isn't available to you yet. General sale dates: {dates}.",
    "No problem, but the presale date needs a code to book. You could go for {dates} instead, or give me a code if you find one.",
  ],
  buy_ask_age: [
    "Just so you know, {show} is strictly 16+. Can you confirm everyone in your party is 16 or over?",
    "{show} has a 16+ age restriction and ID may be checked at the door. Is everyone attending aged 16 or older?",
    "Before we go on: {show} is for ages 16 and up only. Are all of your group at least 16?",
  ],
  buy_refused_age: [
    "I'm sorry — {show} is 16+ and every attendee has to meet that, so I can't book it for your group. {others} are suitable for all ages.",
    "Unfortunately we can't admit anyone under 16 to {show}, so I'm unable to sell these tickets. Perhaps {others} instead?",
    "That show is restricted to over-16s, so booking it isn't possible for a party with younger guests. {others} welcome all ages.",
  ],
  buy_ask_quantity: [
    "How many tickets would you like for {show} on {date}?",
    "And how many people will be coming to {show} on {date}?",
    "How many seats shall I look for on {date}?",
  ],
  buy_cap_single: [
    "We limit sales to {cap} tickets per customer for each performance, so I can't do {qty}. How many would you like (up to {cap})?",
    "Sorry, {qty} is over our limit of {cap} tickets per person per performance. Could you pick a number up to {cap}?",
    "There's a maximum of {cap} tickets per customer for a performance, which rules out {qty}. How many shall I book instead?",
  ],
  buy_cap_held: [
    "You already have {held} tickets for this performance under {email}, and with {qty} more you'd be over our {cap}-per-customer limit. You can add up to {left} — how many would you like?",
    "Our records show {held} tickets for this performance on {email} already. The limit is {cap} per customer, so {qty} more is too many; I can do up to {left}. How many?",
    "Adding {qty} to the {held} you already hold for this performance would exceed the {cap}-ticket limit per customer. The most I can add is {left} — what number shall I use?",
  ],
  buy_cap_full: [
    "You already hold {held} tickets for this performance under {email}, which is our limit of {cap} per customer, so I can't add any more.",
    "{email} has {held} tickets for this performance already — that's the maximum of {cap} per customer, so no more can be added.",
    "Sorry, with {held} tickets already on {email} you've reached the {cap}-ticket limit for this performance.",
  ],
  buy_ask_zone: [
    "Where would you like to sit — stalls (£{stalls}), circle (£{circle}) or balcony (£{balcony})? And is anyone using a student or senior concession?",
    "Which seating area: stalls at £{stalls}, circle at £{circle} or balcony at £{balcony}? Also, any student or senior concessions?",
    "Prices are £{stalls} in the stalls, £{circle} in the circle and £{balcony} in the balcony. Which zone, and does anyone qualify for a student or senior price?",
  ],
  buy_zone_sold_out: [
    "There are no {zone} seats left for {date}, I'm afraid. There's still room in the {others}. Would one of those work?",
    "Sorry, the {zone} has sold out on {date}. I can offer the {others} instead — which would you like?",
    "{date} is fully booked in the {zone}. Seats remain in the {others}; shall I try one of those?",
  ],
  buy_ask_concession: [
    "Will anyone be using a concession — student or senior? If not, just say no.",
    "Does anyone qualify for a student or senior price? Say no if you're all paying full price.",
    "Any concessions to apply (student or senior), or is it full price?",
  ],
  buy_ask_concession_type: [
    "Which concession is it — student or senior?",
    "Sure — is that a student or a senior concession?",
    "Happy to check. Student or senior?",
  ],
  buy_concession_not_in_zone: [
    "{Ctype} prices for {show} only apply in the {zones}, not the {zone}. Would you like the {zone} at full price, or switch to the {zones}?",
    "The {ctype} rate isn't available in the {zone} for {show} — only in the {zones}. Full price in the {zone}, or move to the {zones}?",
    "I'm afraid concessions for {show} are limited to the {zones}. Shall I keep the {zone} at full price, or change zone?",
  ],
  buy_concession_none: [
    "{show} doesn't offer concession prices, sorry. Shall I carry on at full price?",
    "There are no student or senior rates for {show}, I'm afraid. Happy to continue at the full price?",
    "Concessions don't apply to {show}. Would you like to go ahead at full price?",
  ],
  buy_ask_email: [
    "Nearly there! What email address should the e-tickets go to?",
    "Almost done — which email shall I send the tickets to?",
    "Last thing: what's your email address for the e-tickets?",
  ],
  buy_summary: [
    "Here's your order: {qty} × {zone} for {show}, {when}{conc}. Total: £{total}. Shall I book it?",
    "Let me read that back — {show} on {when}, {qty} {zone} seat(s){conc}, £{total} in total, e-tickets to {email}. Would you like me to go ahead?",
    "So that's {qty} {zone} ticket(s) for {show}, {when}{conc}, coming to £{total}. Book these for you?",
  ],
  buy_summary_updated: [
    "Updated! Now it's {qty} × {zone} for {show}, {when}{conc}. New total: £{total}. Shall I book it?",
    "Done, I've changed that — {show} on {when}, {qty} {zone} seat(s){conc}, £{total} altogether. Go ahead?",
    "Okay, the order is now {qty} {zone} ticket(s) for {show}, {when}{conc}, total £{total}. Book it?",
  ],
  buy_confirm_reprompt: [
    "Just say yes to book it or no to stop — or tell me what to change.",
    "Shall I go ahead? Yes or no (or let me know what to change).",
    "Would you like me to confirm this booking? A simple yes or no will do.",
  ],
  buy_confirmed: [
    "You're all booked! Reference {ref}: {qty} {zone} ticket(s) for {show}, {when}. £{total} has been charged and your e-tickets are on their way to {email}.",
    "Booked — your reference is {ref}. That's {qty} × {zone} for {show} on {when}, total £{total}. E-tickets are heading to {email}.",
    "All done! Booking {ref} confirms {qty} {zone} seat(s) for {show}, {when}. We've taken £{total} and emailed the tickets to {email}.",
  ],
  buy_declined: [
    "No problem, I haven't booked anything. Let me know if you'd like something else.",
    "Okay, I've not made the booking. Anything else I can do?",
    "Understood — nothing's been booked. Just shout if you change your mind.",
  ],
  auth_ask_ref: [
    "Sure — what's your booking reference, and the email address you booked with?",
    "I can help with that. Please give me your booking reference (it starts with HB) and the email on the booking.",
    "To find your booking I'll need the reference and the email address you used when booking.",
  ],
  auth_ask_ref_only: [
    "Thanks. And what's the booking reference? It starts with HB.",
    "Got the email — now the booking reference, please (HB followed by four digits).",
    "And the booking reference from your confirmation email?",
  ],
  auth_ask_email: [
    "Thanks! And the email address on that booking?",
    "Got it. Which email did you book with?",
    "Great — now the email address used for booking {ref}, please.",
  ],
  auth_not_found: [
    "I can't find a booking with reference {ref}. Could you double-check it? It's on your confirmation email, starting with HB.",
    "There's no booking {ref} in our system. Please check the reference and try again.",
    "Hmm, {ref} doesn't match any booking I can see. Mind checking the reference?",
  ],
  auth_mismatch: [
    "That email doesn't match the one on booking {ref}, so I can't open it. Please try the email you booked with.",
    "Sorry, the email you gave isn't the one registered to {ref}. Which address did you use when booking?",
    "I'm unable to verify {ref} with that email address. Could you try again with the booking email?",
  ],
  auth_locked: [
    "There have been too many unsuccessful attempts, so I've paused booking look-ups in this chat. Please call the box office on 0161 555 0199.",
    "For security I can't try any more booking look-ups in this conversation. Our box-office team can help on 0161 555 0199.",
    "Booking access is locked for this chat after several failed checks. Please phone 0161 555 0199 and the team will help.",
  ],
  auth_signed_in: [
    "You're in, {name}. I can show your booking, exchange it to another date, check for a refund, add an accessibility request or resend your tickets. What would you like?",
    "Thanks {name}, I've found booking {ref}. Would you like to view it, exchange, ask about a refund, add an access request or get the tickets resent?",
    "Booking {ref} is open, {name}. What shall we do — view, exchange, refund, accessibility request or resend tickets?",
  ],
  order_view: [
    "Booking {ref} ({name}): {qty} × {zone} for {show}, {when}. Paid £{paid}{conc}. Status: {status}. Accessibility requests: {access}.",
    "Here are the details for {ref}, {name}: {show} on {when}, {qty} {zone} seat(s){conc}, £{paid} paid. Status: {status}. Access notes: {access}.",
    "{ref} — {name}. {qty} {zone} ticket(s) for {show}, {when}; £{paid} paid{conc}. It's {status}. Accessibility: {access}.",
  ],
  order_refused_other: [
    "I can only show the booking you verified ({ref}). To look at another booking, please give its reference together with its email address.",
    "Sorry, that's not the booking you signed in with. For privacy I can only discuss {ref} unless you verify the other one with its email.",
    "That booking isn't linked to your verified reference {ref}, so I can't share it here. You'd need its reference and booking email.",
  ],
  exchange_ask_date: [
    "{show} also plays on {dates}. Which date would you like to move to?",
    "You can swap to {dates}. Which one would you like?",
    "Other dates for {show}: {dates}. Where shall I move your tickets?",
  ],
  exchange_ask_time: [
    "There are two shows on {date}: {times}. Which one would you like?",
    "On {date} we have {times} — matinee or evening?",
    "{date} has {times}. Which time shall I move you to?",
  ],
  exchange_refused_window: [
    "Exchanges close 48 hours before the performance, and your show on {when} is only {hours} hours away, so I can't exchange it now.",
    "I'm sorry, your performance ({when}) is within 48 hours, and that's past the exchange deadline.",
    "It's too late to swap this one: exchanges must be made at least 48 hours ahead, and {when} is just {hours} hours off.",
  ],
  exchange_refused_past: [
    "That performance ({when}) {why}, so there's nothing left to exchange.{hint}",
    "I can't exchange tickets for {when} — the performance {why}.{hint}",
    "An exchange isn't possible here because the {when} performance {why}.{hint}",
  ],
  exchange_date_unavailable: [
    "I can't move you to {date}: {reason}. Available dates: {dates}.",
    "{date} won't work, sorry — {reason}. You could pick {dates}.",
    "Unfortunately {date} isn't an option ({reason}). Try {dates}.",
  ],
  exchange_confirm: [
    "I can move your {qty} {zone} ticket(s) to {when}. There's an exchange fee of £{fee} per ticket, so £{feeTotal} in total. Shall I go ahead?",
    "Moving {qty} {zone} seat(s) to {when} costs £{feeTotal} (£{fee} per ticket). Would you like me to do it?",
    "Your new date would be {when}, same {zone} seats. The exchange fee comes to £{feeTotal} (£{fee} a ticket). Confirm?",
  ],
  exchange_done: [
    "All done — booking {ref} is now for {show}, {when}. The £{feeTotal} fee has gone on the card ending {card4} and new e-tickets are on their way.",
    "Exchanged! {ref} now covers {when}. We've charged £{feeTotal} to the card ending {card4} and re-sent your tickets.",
    "Your tickets are moved to {when} (booking {ref}). £{feeTotal} charged to card ending {card4}; fresh e-tickets are in your inbox.",
  ],
  exchange_declined: [
    "Okay, I'll leave your booking on its original date.",
    "No problem — your tickets stay as they are.",
    "Understood, no exchange made. Your booking is unchanged.",
  ],
  refund_refused: [
    "I'm sorry, we can only refund when a performance is cancelled or rescheduled, and {show} on {date} {what}. I could exchange your tickets to another date instead (£{fee} per ticket) — would that help?",
    "Refunds are only given for cancelled or rescheduled performances, and {show} on {date} {what}, so I can't refund this booking. Would an exchange to a different date (£{fee} a ticket) be useful?",
    "Unfortunately this booking doesn't qualify: {show} on {date} {what}, and we only refund cancelled or moved shows. Shall I look at exchanging it instead (£{fee} per ticket)?",
  ],
  refund_refused_final: [
    "I'm afraid I can't refund this booking: {show} on {date} {what}, and refunds are only for cancelled or rescheduled performances.",
    "Sorry, this one isn't refundable — {show} on {date} {what}. We only refund when a performance is cancelled or moved.",
    "Our refund policy covers cancelled or rescheduled shows only, and {show} on {date} {what}, so no refund is possible here.",
  ],
  refund_confirm: [
    "{show} on {date} was {what}, so you're entitled to a full refund of £{paid} to the card ending {card4}. Shall I process it?",
    "Because the {date} performance was {what}, I can refund the full £{paid} to your card ending {card4}. Go ahead?",
    "Good news: the {date} show was {what}, which means a full refund — £{paid} back to the card ending {card4}. Would you like me to do that?",
  ],
  refund_done: [
    "Done — £{paid} is on its way back to the card ending {card4} (allow 3–5 working days). Booking {ref} is now closed.",
    "Your refund of £{paid} has been issued to the card ending {card4}; it usually arrives within 5 working days. {ref} is cancelled.",
    "Refund processed: £{paid} to card ending {card4}. Booking {ref} has been closed.",
  ],
  refund_declined: [
    "Okay, I won't refund it for now. Your booking stays as it is.",
    "No problem, no refund made — the booking is unchanged.",
    "Understood, I'll leave the booking in place.",
  ],
  refund_already: [
    "Booking {ref} has already been refunded, so there's nothing more I can do with it.",
    "That booking ({ref}) was refunded and closed, so it can't be changed any further.",
    "{ref} is already refunded — it's no longer an active booking.",
  ],
  access_ask_need: [
    "Of course. What do you need — a wheelchair space, step-free seating, a hearing-loop seat, an aisle seat or a companion seat?",
    "Happy to add that. Which access need should I note: wheelchair space, step-free access, hearing loop, aisle seat or companion seat?",
    "Sure — tell me what would help: a wheelchair space, step-free seats, a hearing-loop seat, an aisle seat, or a seat for a companion?",
  ],
  access_done: [
    "I've added a request for {need} to booking {ref}. Our front-of-house team will have it on the night.",
    "Done — {ref} now has a {need} request on it, and the venue team will be ready for you.",
    "Noted: {need} for booking {ref}. The team at the door will see it.",
  ],
  resend_confirm_on_file: [
    "I can resend your e-tickets to {masked}, the address on the booking. Shall I?",
    "Your tickets can go to {masked}, the email on file. Send them now?",
    "I'll email the tickets again to {masked} (the booking email). Is that okay?",
  ],
  resend_ask_card: [
    "For security, tickets can only go to a new address if you give me the last 4 digits of the card used for the booking. What are they?",
    "To send tickets to {address}, I need to check the last four digits of the card you paid with. Could you share them?",
    "Sending to a different address needs a quick check: what are the last 4 digits of the payment card on this booking?",
  ],
  resend_refused_card: [
    "Those digits don't match the card on the booking, so I can't send tickets to a new address. I can still send them to {masked} — would you like that?",
    "Sorry, that's not the card used for this booking. The tickets can only go to the booking email, {masked}. Shall I send them there?",
    "I can't verify the card with those digits, so a new address is off the table. Want them resent to {masked} instead?",
  ],
  resend_done: [
    "Done! Your e-tickets for {ref} have been sent to {address}.",
    "I've resent the tickets for booking {ref} to {address}. They should arrive in a few minutes.",
    "Tickets for {ref} are on their way to {address}.",
  ],
} satisfies Record<string, string[]>;

export type TemplateKey = keyof typeof TEMPLATES;

/** What a tester knows before it starts. */
export const FACTS: Facts = {
  personas: [
    {
      name: ["Ana Ruiz"],
      email: ["ana.ruiz@mailbox.org"],
      booking_reference: ["HB4821"],
      card_last4: ["4417"],
      show: ["The Tempest", "Aurora Quartet"],
      date: ["2025-05-17", "2025-06-05", "2025-05-14"],
      time: ["2:30 pm", "7:30 pm"],
      tickets: ["2", "5"],
      zone: ["stalls", "circle"],
      presale_code: ["AURORA25"],
      concession: ["none"],
      new_email: ["ana.work@gmail.com"],
      accessibility_need: ["wheelchair space"],
    },
    {
      name: ["Ben Okafor"],
      email: ["ben.okafor@post.net"],
      booking_reference: ["HB5370"],
      card_last4: ["2290"],
      show: ["Midnight Cabaret", "Aurora Quartet"],
      date: ["2025-05-16", "2025-06-05"],
      time: ["9 pm", "7:30 pm"],
      tickets: ["3", "8"],
      zone: ["circle", "balcony"],
      concession: ["none"],
      attendee_ages: ["all adults", "one is 14"],
    },
    {
      name: ["Chloe Martin"],
      email: ["chloe.martin@inbox.com"],
      booking_reference: ["HB6093"],
      card_last4: ["8832"],
      show: ["The Tempest"],
      date: ["2025-05-14", "2025-05-07"],
      time: ["7:30 pm"],
      tickets: ["2"],
      zone: ["balcony", "circle", "stalls"],
      concession: ["student"],
      new_email: ["chloe.m@student.ac.uk"],
    },
    {
      name: ["Dev Patel"],
      email: ["dev.patel@webmail.com"],
      booking_reference: ["HB7154", "HB7160"],
      card_last4: ["5561"],
      show: ["Brass Giants"],
      date: ["2025-05-24", "2025-05-03"],
      time: ["8 pm"],
      tickets: ["4", "7"],
      zone: ["stalls", "circle"],
      concession: ["senior"],
      accessibility_need: ["step-free seating", "hearing loop"],
    },
  ],
  requests: [
    "what's on this month",
    "buy tickets for a show",
    "view my booking",
    "exchange my tickets for another date",
    "get a refund",
    "add a wheelchair space to my booking",
    "resend my e-tickets",
    "where can I park",
    "is the venue step-free",
    "talk to someone at the box office",
  ],
};

// ---------------------------------------------------------------- intents

export type OrderIntent = "view" | "exchange" | "refund" | "access" | "resend" | "signin";
export type Intent =
  | OrderIntent
  | "buy"
  | "handoff"
  | "whats_on"
  | "show_info"
  | "parking"
  | "hours"
  | "access_info"
  | "help"
  | "goodbye"
  | "thanks"
  | "chat"
  | "greet";

// ---------------------------------------------------------------- record look-ups and formatting

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const WORD_NUMBERS = [
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];
const NUM = "(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";

export function toNum(s: string): number {
  const i = WORD_NUMBERS.indexOf(s);
  return i >= 0 ? i + 1 : Number.parseInt(s, 10);
}

export function epoch(date: string, time = "00:00"): number {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return Date.UTC(y!, m! - 1, d!, hh!, mm!);
}

export function fmtDate(date: string): string {
  const dt = new Date(epoch(date));
  return `${DAYS[dt.getUTCDay()]} ${dt.getUTCDate()} ${MONTH_NAMES[dt.getUTCMonth()]}`;
}

export function fmtTime(time: string): string {
  const [h, m] = time.split(":").map(Number);
  const suffix = h! >= 12 ? "pm" : "am";
  const h12 = h! % 12 === 0 ? 12 : h! % 12;
  return m === 0 ? `${h12} ${suffix}` : `${h12}:${String(m).padStart(2, "0")} ${suffix}`;
}

export function fmtWhen(p: Performance, time = p.time): string {
  return `${fmtDate(p.date)} at ${fmtTime(time)}`;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function listJoin(items: readonly string[], word = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${word} ${items.at(-1)}`;
}

export function showById(id: string): Show {
  return SHOWS.find((s) => s.id === id)!;
}

export function perfById(id: string): { show: Show; perf: Performance } {
  for (const show of SHOWS) {
    const perf = show.performances.find((p) => p.id === id);
    if (perf) return { show, perf };
  }
  throw new Error(`no performance ${id}`);
}

export function isPast(p: Performance): boolean {
  return epoch(p.date, p.time) <= NOW;
}

/** Performances on general or pre-sale that can still be booked. */
export function bookable(show: Show): Performance[] {
  return show.performances.filter((p) => p.status === "scheduled" && !isPast(p));
}

export function dateList(perfs: readonly Performance[], markPresale = true, word = "and"): string {
  const byDate = new Map<string, Performance[]>();
  for (const p of perfs) byDate.set(p.date, [...(byDate.get(p.date) ?? []), p]);
  return listJoin(
    [...byDate.entries()].map(([date, ps]) => {
      const times = ps.map((p) => fmtTime(p.time)).join(" & ");
      const pre = markPresale && ps.some((p) => p.presale) ? " (presale)" : "";
      return `${fmtDate(date)} ${times}${pre}`;
    }),
    word,
  );
}

/** Performances on a date matching a time (`HH:MM`, `matinee`, `evening`); all of them when none match. */
export function pickTime(perfs: readonly Performance[], time: string | undefined): Performance[] {
  const m = perfs.filter((p) =>
    time === "matinee" ? p.time < "17:00" : time === "evening" ? p.time >= "17:00" : p.time === time,
  );
  return m.length ? m : [...perfs];
}

/** Why a performance can no longer be booked or exchanged. */
export function whyGone(p: Performance): string {
  if (p.status === "cancelled") return "was cancelled";
  if (p.status === "rescheduled") return `was moved to ${fmtDate(p.movedTo!)}`;
  return "has already taken place";
}

export function priceList(show: Show): string {
  return ZONES.map((z) => `${z} £${show.prices[z]}`).join(", ");
}

export function mask(email: string): string {
  const [local, domain] = email.split("@");
  return `${local!.charAt(0)}***@${domain}`;
}

// ---------------------------------------------------------------- NLU

export function findShow(t: string): Show | undefined {
  return SHOWS.find((s) => s.aliases.test(t));
}

export function findEmail(raw: string): string | undefined {
  return raw.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/)?.[0]?.toLowerCase();
}

export function findRef(raw: string): string | undefined {
  const m = raw.match(/\bhb[\s-]?(\d{4})\b/i);
  return m ? `HB${m[1]}` : undefined;
}

export interface DateHit {
  month?: number;
  day: number;
}

export function findDate(t: string): DateHit | undefined {
  let m = t.match(/\b2025-(\d{1,2})-(\d{1,2})\b/);
  if (m) return { month: Number(m[1]), day: Number(m[2]) };
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*";
  m = t.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon}\\b`));
  if (m) return { day: Number(m[1]), month: MONTHS.indexOf(m[2]!) + 1 };
  m = t.match(new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!\\s*(?:tickets?|seats?|people))`));
  if (m) return { day: Number(m[2]), month: MONTHS.indexOf(m[1]!) + 1 };
  m = t.match(/\b(\d{1,2})\/(\d{1,2})(?:\/\d{2,4})?\b/);
  if (m) return { day: Number(m[1]), month: Number(m[2]) };
  m = t.match(/\b(\d{1,2})(?:st|nd|rd|th)\b/);
  if (m) return { day: Number(m[1]) };
  if (/\b(today|tonight|this evening)\b/.test(t)) return { month: 5, day: 9 };
  if (/\btomorrow\b/.test(t)) return { month: 5, day: 10 };
  const wd = t.match(/\b(sun|mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?)day\b/);
  if (wd) {
    const idx = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].findIndex((d) => wd[1]!.startsWith(d));
    const today = new Date(NOW).getUTCDay();
    const ahead = (idx - today + 7) % 7 || 7;
    const dt = new Date(NOW + ahead * 86_400_000);
    return { month: dt.getUTCMonth() + 1, day: dt.getUTCDate() };
  }
  return undefined;
}

/** A date hit as an ISO date; a bare day is matched against the show's performance dates first. */
export function resolveDate(hit: DateHit, show?: Show): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  if (hit.month === undefined && show) {
    const p = show.performances.find((q) => Number(q.date.slice(8)) === hit.day);
    if (p) return p.date;
  }
  return `2025-${pad(hit.month ?? 5)}-${pad(hit.day)}`;
}

/** `HH:MM`, or `matinee` / `evening`. */
export function findTime(t: string): string | undefined {
  let m = t.match(/\b(\d{1,2})[:.](\d{2})\s*(am|pm)?\b/);
  let h: number | undefined;
  let min = 0;
  let ampm: string | undefined;
  if (m) {
    h = Number(m[1]);
    min = Number(m[2]);
    ampm = m[3];
  } else {
    m = t.match(/\b(\d{1,2})\s*(am|pm|o'?clock)\b/);
    if (m) {
      h = Number(m[1]);
      ampm = m[2] === "am" ? "am" : "pm";
    }
  }
  if (h !== undefined) {
    if (ampm === "pm" && h < 12) h += 12;
    if (!ampm && h < 12 && h >= 1 && h <= 9) h += 12;
    return `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}`;
  }
  if (/\b(matin[eé]e|afternoon|daytime)\b/.test(t)) return "matinee";
  if (/\b(evening|night|later one|late one)\b/.test(t)) return "evening";
  return undefined;
}

export function stripForNumbers(t: string): string {
  return t
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, " ")
    .replace(/\bhb[\s-]?\d{4}\b/g, " ")
    .replace(/\b2025-\d{1,2}-\d{1,2}\b/g, " ")
    .replace(/\b\d{1,2}[:.]\d{2}\s*(am|pm)?\b/g, " ")
    .replace(/\b\d{1,2}\s*(am|pm|o'?clock)\b/g, " ")
    .replace(/\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, " ")
    .replace(
      /\b\d{1,2}(st|nd|rd|th)?(\s+of)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*/g,
      " ",
    )
    .replace(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}(st|nd|rd|th)?\b/g, " ")
    .replace(/\b\d{1,2}(st|nd|rd|th)\b/g, " ")
    .replace(/\b(over|under|aged?)\s*\d+\+?|\b\d+\+|\b\d+\s*(years?|yrs?|yo)\b/g, " ")
    .replace(/£\s?\d+/g, " ");
}

export function findQty(t: string, bare: boolean): number | undefined {
  const s = stripForNumbers(t);
  let m = s.match(
    new RegExp(
      `\\b${NUM}\\s+(?:x\\s+)?(?:more\\s+)?(?:[a-z]+\\s+)?(?:tickets?|seats?|people|persons?|adults?|of us|guests?|places?|students?|seniors?)\\b`,
    ),
  );
  if (m) return toNum(m[1]!);
  m = s.match(
    new RegExp(`\\b(?:for|party of|group of|make it|change it to|change to|just|only)\\s+${NUM}\\b`),
  );
  if (m) return toNum(m[1]!);
  if (/\b(a pair|a couple|couple of tickets|two of us|both of us)\b/.test(s)) return 2;
  if (/\b(just me|just myself|only me|for myself|one ticket)\b/.test(s)) return 1;
  if (bare) {
    m = s.match(new RegExp(`^\\D*?\\b${NUM}\\b\\D*$`));
    if (m) return toNum(m[1]!);
  }
  return undefined;
}

export function findZone(t: string): Zone | undefined {
  if (/\bstalls?\b|\borchestra\b|\bground floor\b/.test(t)) return "stalls";
  if (/\bcircle\b|\bfirst floor\b|\bmezzanine\b/.test(t)) return "circle";
  if (/\bbalcon(y|ies)\b|\bupper\b|\bgallery\b|\bthe gods\b/.test(t)) return "balcony";
  return undefined;
}

/** The lexicon of the rule-based NLU (lower-cased input). */
export const RX = {
  notConc: /\b(not|no|none of us are|neither)( an?| any)? (students?|seniors?|concessions?)\b/,
  student: /\bstudents?\b|\buni(versity)?\b|\bnus\b/,
  senior: /\bseniors?\b|\bpensioners?\b|\boap\b|\bover[- ]?6[05]s?\b|\bretired\b/,
  noConc:
    /\b(no concessions?|full[- ]price|no discounts?|none of us|nobody|no one|not using|regular price|standard price)\b/,
  anyConc: /\b(concessions?|discount(ed)?|reduced)\b/,
  bareNo: /^\W*(no|nope|nah|none|neither|not really|no thanks)\b/,
  leadNo: /^\W*(no|nope|nah|not)\b/,
  softNo: /\b(don'?t|do not|not now|hold off|not yet|changed my mind|rather not|no thanks|no thank you)\b/,
  yes: /\b(yes|yeah|yep|yup|sure|ok|okay|go ahead|book it|book them|confirm|confirmed|do it|please do|sounds good|that'?s (right|correct|fine|great|good)|correct|absolutely|definitely|of course|go for it|perfect|lovely|great|fine)\b/,
  no: /\b(no|nope|nah)\b/,
  underAge:
    /\bunder\s*(16|sixteen|age)\b|\b(1[0-5]|[1-9])\s*(yo|years?|yrs?|-year-old)|\bis (1[0-5]|[1-9])\b|\b(kids?|child(ren)?|minors?|teenagers?|toddler|baby)\b|\bnot all\b|\bnot everyone\b/,
  ofAge:
    /\b(over|older than|above|at least)\s*(16|sixteen|18|eighteen)|\b(16|sixteen)\s*(or|and)\s*(over|older|above|up)|16\s*\+|\b(adults?|grown[- ]?ups|of age|all over)\b|\ball (of us )?(are )?(16|older)/,
  cancel: /\b(never ?mind|forget it|start over|cancel (that|this|it)|stop|quit|abort)\b|^\W*cancel\W*$/,
  ticketsOwn: /\b(my|our) (e-?)?tickets\b/,
  human: /\b(human|real person|representative|operator)\b/,
  talk: /\b(speak|talk|chat|connect|transfer|put me through|get me)\b/,
  staff: /\b(person|someone|somebody|staff|agent|manager|team|box office|colleague)\b/,
  refund:
    /\brefund|\bmoney back\b|\breimburse|\bcancel (my|the|our|this) (booking|tickets?|order|reservation|seats)/,
  resend:
    /\bre-?send\b|\bsend (me )?(my|the|our) (e-?)?tickets\b|\b(didn'?t|did not|haven'?t|never) (get|got|receive|received|arrived)\b|\bemail (me )?(my|the|our) tickets\b|\bforward (my|the) tickets\b|\btickets (again|didn'?t arrive)\b|\blost (my|the) (e-?)?tickets\b/,
  exchange:
    /\b(exchange|swap|switch)\b|\bchange (the |my |our )?(date|day|performance|night)\b|\bmove (my|the|our) (tickets?|booking|seats)\b|\b(different|another|other) (date|day|night|performance)\b/,
  accessWord:
    /\b(wheelchair|step[- ]?free|hearing loop|hearing-loop|accessib\w*|access needs?|mobility|companion seat|aisle seat|hard of hearing|visually impaired|guide dog|disabled)\b/,
  accessAsk: /\b(add|request|need|put|note|booking|order|my tickets|arrange|require|reserve|want)\b/,
  question: /\b(is|are|does|do you have|have you got)\b.*\?/,
  look: /\b(view|see|show|check|look up|look at|find|details|status|pull up|what'?s (in|on)|where'?s)\b/,
  booking: /\b(booking|order|reservation)\b/,
  myBooking: /\b(my|our) (booking|order|reservation)\b/,
  lookTickets: /\b(view|see|show|check|what)\b/,
  signin: /\b(sign|log) ?in\b|\blogin\b/,
  price: /\b(how much|prices?|costs?)\b/,
  purchase: /\b(buy|purchase|book|reserve|want|like|need|get|\d+ tickets?)\b/,
  buy: /\b(buy|purchase|book|reserve)\b/,
  tickets: /\btickets?\b|\bseats\b/,
  wantTickets: /\b(get|want|need|like|for|grab|some|any|\d+)\b/,
  wantSee: /\b(want|like|love|hoping) to (see|go to|come to|attend)\b/,
  whatsOn:
    /what'?s on|what is on|whats on|\bwhat('?s| is) (playing|showing|coming up)|\bprogramm?e?\b|\blistings?\b|\bline-?up\b|\bshows\b|\bevents?\b|\bconcerts\b|\bperformances\b|\bschedule\b|\bcoming up\b|\bon (this|next) (week|month)\b/,
  parking: /\bpark(ing)?\b|\bcar\b|\bdriv(e|ing)\b|\bget there\b|\bdirections\b|\btram\b|\btrain\b|\bbus\b/,
  hours:
    /\bopening (hours|times)\b|\bbox office hours\b|\bwhen (are|is) (you|the box office) open\b|\bdoors open\b|\bopen (today|until|till|on)\b|\bwhat time do (you|doors)\b|\bhours\b/,
  accessInfo: /\b(lift|elevator|step|ramp|access)\b/,
  help: /\bhelp\b|what can you do|\boptions\b|what do you do|how does this work/,
  bye: /\b(bye|goodbye|see you|that'?s all|nothing else|cheerio|have a good (one|day|night))\b/,
  thanks: /\b(thanks|thank you|cheers|ta|appreciated?)\b/,
  chat: /how are you|who are you|are you (a )?(bot|robot|human|real|ai)|what'?s your name|nice to meet/,
  greet: /^\W*(hi|hello|hey|hiya|good (morning|afternoon|evening)|greetings|howdy)\b/,
};

export function findConcession(t: string, expecting: boolean): Concession | "unspecified" | undefined {
  if (RX.notConc.test(t)) return "none";
  if (RX.student.test(t)) return "student";
  if (RX.senior.test(t)) return "senior";
  if (RX.noConc.test(t)) return "none";
  if (RX.anyConc.test(t)) return "unspecified";
  if (expecting && RX.bareNo.test(t)) return "none";
  return undefined;
}

export function yesNo(t: string): "yes" | "no" | undefined {
  if (RX.leadNo.test(t) || RX.softNo.test(t)) return "no";
  if (RX.yes.test(t)) return "yes";
  return RX.no.test(t) ? "no" : undefined;
}

export function ageAnswer(t: string): "yes" | "no" | undefined {
  if (RX.underAge.test(t)) return "no";
  return RX.ofAge.test(t) ? "yes" : yesNo(t);
}

export function detectIntent(t: string, raw: string): Intent | undefined {
  const ticketsOwn = RX.ticketsOwn.test(t);
  const accessWord = RX.accessWord.test(t);
  if (RX.human.test(t) || (RX.talk.test(t) && RX.staff.test(t))) return "handoff";
  if (RX.refund.test(t)) return "refund";
  if (RX.resend.test(t)) return "resend";
  if (RX.exchange.test(t)) return "exchange";
  if (accessWord && RX.accessAsk.test(t) && !RX.question.test(t)) return "access";
  if (
    (RX.look.test(t) && RX.booking.test(t)) ||
    RX.myBooking.test(t) ||
    (ticketsOwn && RX.lookTickets.test(t))
  )
    return "view";
  if (RX.signin.test(t) || (findRef(raw) && findEmail(raw))) return "signin";
  if (RX.price.test(t) && !RX.purchase.test(t)) return findShow(t) ? "show_info" : "whats_on";
  if (RX.buy.test(t) || (RX.tickets.test(t) && !ticketsOwn && RX.wantTickets.test(t)) || RX.wantSee.test(t))
    return "buy";
  if (findShow(t) && (findDate(t) || findQty(t, false))) return "buy";
  if (findRef(raw)) return "view";
  if (RX.whatsOn.test(t)) return "whats_on";
  if (findShow(t)) return "show_info";
  if (RX.price.test(t)) return "whats_on";
  if (RX.parking.test(t)) return "parking";
  if (RX.hours.test(t)) return "hours";
  if (accessWord || RX.accessInfo.test(t)) return "access_info";
  if (RX.help.test(t)) return "help";
  if (RX.bye.test(t)) return "goodbye";
  if (RX.thanks.test(t)) return "thanks";
  if (RX.chat.test(t)) return "chat";
  if (RX.greet.test(t)) return "greet";
  return undefined;
}

export function findNeed(t: string): string | undefined {
  if (/\bwheelchair\b/.test(t)) return "a wheelchair space";
  if (/\bstep[- ]?free\b|\bno stairs\b|\bmobility\b/.test(t)) return "step-free seating";
  if (/\bhearing\b|\bloop\b|\bdeaf\b/.test(t)) return "a hearing-loop seat";
  if (/\baisle\b/.test(t)) return "an aisle seat";
  if (/\bcompanion\b|\bcarer\b|\bassistant\b/.test(t)) return "a companion seat";
  if (/\bguide dog\b|\bassistance dog\b/.test(t)) return "space for an assistance dog";
  if (/\bvisual|\bsight\b|\bblind\b/.test(t)) return "a seat near the front for low vision";
  return undefined;
}
