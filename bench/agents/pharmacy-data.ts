import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data and phrasings of the CareWell Pharmacy testbed agent (`pharmacy.ts`): the customers, their
 * prescriptions and orders (copied fresh into every session), the postcode → street table used by address
 * changes, the facts a tester gets, and two or three wordings of every reply.
 */

/** "Today" for every session, so eligibility dates never drift. */
export const TODAY = "2025-06-16";

export interface Rx {
  id: string;
  /** Display name, e.g. `Atorvastatin 20 mg`. */
  name: string;
  /** Lower-case words that name it in a message (first one is the generic name). */
  aliases: string[];
  /** Price of a 30-day supply, GBP. */
  perMonth: number;
  refillsLeft: number;
  /** ISO date of the last fill and the days' supply it covered. */
  lastFill: string;
  lastDays: number;
  /** The most days' supply one refill may hold. */
  maxDays: number;
  controlled: boolean;
}

export interface Address {
  line: string;
  postcode: string;
}

export interface Order {
  number: string;
  owner: string;
  item: string;
  days: number;
  total: number;
  status: "processing" | "shipped" | "cancelled";
  shippedOn?: string;
  tracking?: string;
  address: Address;
}

export interface Customer {
  id: string;
  fullName: string;
  /** ISO date of birth. */
  dob: string;
  /** Last four digits of the card on file. */
  card: string;
  address: Address;
  prescriptions: Rx[];
  /** Ids of household members whose records are linked to this account (never shown to it). */
  household: string[];
}

export interface Db {
  customers: Customer[];
  orders: Order[];
  nextOrder: number;
}

const willow: Address = { line: "27 Willow Street, Leeds", postcode: "LS6 2AB" };

/** The database every session starts from (sessions work on a deep copy). */
export const SEED_DB: Db = {
  customers: [
    {
      id: "C1",
      fullName: "Emma Clarke",
      dob: "1985-03-14",
      card: "4421",
      address: { ...willow },
      household: ["C2"],
      prescriptions: [
        rx("E1", "Atorvastatin 20 mg", ["atorvastatin", "lipitor", "statin"], 4.5, 3, "2025-03-10", 90, 90),
        rx("E2", "Sertraline 50 mg", ["sertraline", "zoloft"], 6.2, 4, "2025-06-06", 30, 60),
        rx("E3", "Lisinopril 10 mg", ["lisinopril"], 3.8, 1, "2025-06-14", 30, 90),
      ],
    },
    {
      id: "C2",
      fullName: "David Clarke",
      dob: "1982-11-02",
      card: "7710",
      address: { ...willow },
      household: [],
      prescriptions: [
        rx("D1", "Metformin 500 mg", ["metformin", "glucophage"], 3.2, 2, "2025-04-01", 60, 90),
        rx("D2", "Amlodipine 5 mg", ["amlodipine"], 2.9, 0, "2025-05-10", 30, 90),
      ],
    },
    {
      id: "C3",
      fullName: "Priya Shah",
      dob: "1990-07-23",
      card: "3056",
      address: { line: "Flat 4, 88 Queen's Road, Bristol", postcode: "BS8 1RE" },
      household: [],
      prescriptions: [
        rx("P1", "Levothyroxine 50 mcg", ["levothyroxine", "thyroxine"], 2.6, 5, "2025-05-10", 30, 90),
        {
          ...rx("P2", "Zolpidem 10 mg", ["zolpidem", "sleeping"], 5.4, 1, "2025-05-01", 30, 30),
          controlled: true,
        },
      ],
    },
    {
      id: "C4",
      fullName: "Tom Becker",
      dob: "1978-01-05",
      card: "9182",
      address: { line: "3 Harbour View, Brighton", postcode: "BN2 1TW" },
      household: [],
      prescriptions: [
        rx("T1", "Omeprazole 20 mg", ["omeprazole"], 3.4, 2, "2025-05-01", 30, 60),
        rx("T2", "Salbutamol inhaler", ["salbutamol", "inhaler", "ventolin"], 6.9, 3, "2025-06-01", 30, 90),
      ],
    },
  ],
  orders: [
    order("RX-48213", "C1", "Lisinopril 10 mg", 30, 3.8, willow),
    {
      ...order("RX-48190", "C1", "Sertraline 50 mg", 30, 6.2, willow),
      ...shipped("2025-06-09", "RM482190GB"),
    },
    order("RX-48377", "C2", "Cetirizine 10 mg", 30, 2.49, willow),
    {
      ...order("RX-48302", "C2", "Amlodipine 5 mg", 30, 2.9, willow),
      ...shipped("2025-05-12", "RM483302GB"),
    },
    order("RX-48455", "C3", "Folic acid 400 mcg", 90, 3.15, {
      line: "Flat 4, 88 Queen's Road, Bristol",
      postcode: "BS8 1RE",
    }),
    {
      ...order("RX-48119", "C3", "Zolpidem 10 mg", 30, 5.4, {
        line: "Flat 4, 88 Queen's Road, Bristol",
        postcode: "BS8 1RE",
      }),
      ...shipped("2025-05-02", "RM481119GB"),
    },
    {
      ...order("RX-48520", "C4", "Salbutamol inhaler", 30, 6.9, {
        line: "3 Harbour View, Brighton",
        postcode: "BN2 1TW",
      }),
      ...shipped("2025-06-03", "RM485520GB"),
    },
    order("RX-48561", "C4", "Loratadine 10 mg", 30, 2.2, {
      line: "3 Harbour View, Brighton",
      postcode: "BN2 1TW",
    }),
    {
      ...order("RX-48499", "C4", "Omeprazole 20 mg", 30, 3.4, {
        line: "3 Harbour View, Brighton",
        postcode: "BN2 1TW",
      }),
      status: "cancelled",
    },
  ],
  nextOrder: 48601,
};

function rx(
  id: string,
  name: string,
  aliases: string[],
  perMonth: number,
  refillsLeft: number,
  lastFill: string,
  lastDays: number,
  maxDays: number,
): Rx {
  return { id, name, aliases, perMonth, refillsLeft, lastFill, lastDays, maxDays, controlled: false };
}

function order(
  number: string,
  owner: string,
  item: string,
  days: number,
  total: number,
  address: Address,
): Order {
  return { number, owner, item, days, total, status: "processing", address: { ...address } };
}

function shipped(shippedOn: string, tracking: string): Pick<Order, "status" | "shippedOn" | "tracking"> {
  return { status: "shipped", shippedOn, tracking };
}

/** Streets of the postcodes the agent knows (others are read back as house number + postcode). */
export const STREETS: Record<string, string> = {
  "LS2 7EW": "Park Lane, Leeds",
  "LS6 3QN": "Hyde Park Road, Leeds",
  "LS1 4DY": "Boar Lane, Leeds",
  "BS1 5TR": "King Street, Bristol",
  "BS8 4AA": "Whiteladies Road, Bristol",
  "BN1 1AE": "North Street, Brighton",
  "BN3 2RG": "Church Road, Hove",
};

/**
 * What a tester knows: each persona's identity, two of their medications (the first refillable; the
 * second too early, out of refills or controlled), two quantities (the second above the maximum for the
 * first medication, except Emma's), an unshipped and a shipped order, and a new delivery address.
 */
export const PHARMACY_FACTS: Facts = {
  personas: [
    {
      full_name: ["Emma Clarke"],
      date_of_birth: ["14/03/1985", "1985-03-14"],
      medication: ["Atorvastatin 20 mg", "Sertraline 50 mg"],
      quantity: ["30 days", "90 days"],
      order_number: ["RX-48213", "RX-48190"],
      postcode: ["LS2 7EW", "LS6 3QN"],
      house_number: ["14", "16"],
    },
    {
      full_name: ["David Clarke"],
      date_of_birth: ["02/11/1982", "2 November 1982"],
      medication: ["Metformin 500 mg", "Amlodipine 5 mg"],
      quantity: ["30 days", "120 days"],
      order_number: ["RX-48377", "RX-48302"],
      postcode: ["LS1 4DY"],
      house_number: ["9", "11"],
    },
    {
      full_name: ["Priya Shah"],
      date_of_birth: ["23/07/1990", "1990-07-23"],
      medication: ["Levothyroxine 50 mcg", "Zolpidem 10 mg"],
      quantity: ["2 packs", "4 packs"],
      order_number: ["RX-48455", "RX-48119"],
      postcode: ["BS1 5TR", "BS8 4AA"],
      house_number: ["22"],
    },
    {
      full_name: ["Tom Becker"],
      date_of_birth: ["05/01/1978", "5 January 1978"],
      medication: ["Omeprazole 20 mg", "Salbutamol inhaler"],
      quantity: ["30 days", "90 days"],
      order_number: ["RX-48561", "RX-48520"],
      postcode: ["BN1 1AE", "BN3 2RG"],
      house_number: ["5", "7"],
    },
  ],
  requests: [
    "refill my prescription",
    "where is my order?",
    "cancel my order",
    "change the delivery address",
    "talk to a pharmacist",
  ],
};

/**
 * Every reply's wordings; `{name}` placeholders are filled by the agent. The seed and turn pick one, so the
 * wording varies across seeds while the behaviour does not.
 */
export const PHRASES = {
  greet: [
    "Hello and welcome to CareWell Pharmacy! I can refill a prescription, check the status of an order, cancel an order, change an order's delivery address, or put you through to a pharmacist. How can I help?",
    "Hi, you've reached the CareWell Pharmacy refill assistant. I can help with prescription refills, order status, cancelling an order and delivery address changes, or connect you with a pharmacist. What would you like to do?",
    "Good day from CareWell Pharmacy. What can I do for you today? I handle refills, order tracking, cancellations and new delivery addresses, and I can hand you over to a pharmacist.",
  ],
  ack_refill: [
    "Happy to help with a refill.",
    "Sure, I can sort out a refill for you.",
    "Of course, let's get your refill going.",
  ],
  ack_status: [
    "I can check on that order for you.",
    "Sure, let's find your order.",
    "Happy to look up an order for you.",
  ],
  ack_cancel: [
    "I can help you cancel an order.",
    "Okay, let's look at cancelling that order.",
    "Sure, I can cancel an order that hasn't shipped yet.",
  ],
  ack_address: [
    "I can change where an order is delivered.",
    "Sure, I can update a delivery address.",
    "Okay, let's redirect that order.",
  ],
  ack_generic: ["Happy to help.", "Sure.", "Of course."],
  ask_name: [
    "Could I have your full name, please?",
    "First I need to check who I'm talking to. What's your full name?",
    "Before we start, please tell me your full name.",
  ],
  unknown_name: [
    "I'm sorry, I can't find a customer under that name. Could you give me your full name as it appears on your prescription?",
    "Hmm, that name doesn't match any account I can see. Please type your first and last name.",
  ],
  ask_dob: [
    "Thanks, {first}. And your date of birth?",
    "Thank you. Could you confirm your date of birth, please?",
    "Got it. What's your date of birth?",
  ],
  dob_unclear: [
    "Sorry, I didn't catch that date. Please give your date of birth, for example 21/09/1970.",
    "I couldn't read that as a date. What's your date of birth (day, month and year)?",
  ],
  dob_mismatch: [
    "That date of birth doesn't match our records. Please try again.",
    "Sorry, that doesn't match the date of birth we have on file. Could you check it and try again?",
    "Hmm, that date doesn't match what we have for you. Please enter your date of birth again.",
  ],
  tries_left: ["You have {left} left.", "{left} remaining."],
  locked: [
    "I'm sorry, that's three unsuccessful attempts, so I've locked the account for your security. A pharmacist can help you from here — would you like me to put you through?",
    "For your security, the account is now locked after too many failed date of birth checks. Would you like me to connect you with a pharmacist?",
  ],
  locked_again: [
    "The account is locked for security reasons, so I can't go any further here. Shall I connect you with a pharmacist?",
    "I'm afraid the account stays locked for now. Would you like to speak to a pharmacist instead?",
  ],
  verified: [
    "Thanks, {first}, you're verified.",
    "Thank you, {first} — that all checks out.",
    "Great, I've found your account, {first}.",
  ],
  menu: [
    "What can I do for you today? I can refill a prescription, check or cancel an order, or change a delivery address.",
    "How can I help — a refill, an order's status, a cancellation or a new delivery address?",
    "What would you like to do? I can refill prescriptions, look up or cancel orders and change delivery addresses.",
  ],
  no_problem: ["No problem.", "Okay, that's fine.", "Alright."],
  welcome: ["You're welcome!", "My pleasure.", "No problem at all."],
  anything_else: [
    "Is there anything else I can help with?",
    "Anything else I can do for you?",
    "Can I help with anything else?",
  ],
  ask_medication: [
    "Which prescription would you like to refill?\n{list}",
    "Here are the prescriptions on your account:\n{list}\nWhich one should I refill?",
    "Sure. Which medication is it? Please pick one:\n{list}",
  ],
  unknown_medication: [
    "I can't find that among your prescriptions. Please choose one of these:\n{list}",
    "That doesn't match a prescription on your account. Which of these did you mean?\n{list}",
  ],
  refused_controlled: [
    "{med} is a controlled medicine, so it can't be refilled through chat. A pharmacist can help you with it — would you like me to connect you?",
    "I'm afraid I can't refill {med} here: controlled medicines have to be handled by a pharmacist. Shall I put you through to one?",
  ],
  refused_no_refills: [
    "There are no refills left on your {med} prescription, so it needs to be renewed by your doctor first. Once we receive the new prescription you can order it again.",
    "Your {med} prescription has run out of refills. Please ask your GP to renew it; after that I can arrange the supply.",
  ],
  refused_too_early: [
    "It's too early to refill {med}. Your last {lastDays}-day supply was filled on {lastFill}, so you can order the next one from {earliest}.",
    "I can't refill {med} just yet: we filled a {lastDays}-day supply on {lastFill}, and the next refill opens on {earliest}.",
  ],
  ask_quantity: [
    "How many days' supply of {med} would you like? You can order up to {max} days.",
    "Sure, {med}. What quantity do you need (in days' supply, up to {max} days)?",
    "And how much {med} should I send? Tell me the number of days' supply or packs (one pack lasts 30 days).",
  ],
  quantity_unclear: [
    "Sorry, I didn't get the quantity. How many days' supply would you like, e.g. 30 days?",
    "I need a quantity in days or packs, for example 30 days or 2 packs. How much would you like?",
  ],
  refused_over_max: [
    "I'm sorry, {days} days is more than the maximum of {max} days I can send per refill of {med}. How many days would you like instead?",
    "That's above the limit: each refill of {med} can be at most {max} days' supply. Could you choose a smaller quantity?",
  ],
  refill_confirm: [
    "Here's your refill: {med}, {days} days' supply at {unit} per 30 days, {total} in total, delivered to {address}. Shall I place this order?",
    "To confirm: {days} days of {med} for {total} ({unit} per 30 days), sent to {address}. Do you want me to go ahead?",
    "So that's {med} for {days} days. The total comes to {total} at {unit} per 30 days, and it goes to {address}. Would you like me to place the order?",
  ],
  refill_question: ["Shall I place the order?", "Do you want me to go ahead with the refill?"],
  refill_done: [
    "Done! Your refill is placed as order {order}: {med}, {days} days, {total}. It should arrive in 2–3 working days.",
    "All set — order {order} for {days} days of {med} has been placed, and {total} will be charged to your card. Expect it in 2–3 working days.",
  ],
  unclear: [
    "Sorry, I need a clear yes or no. {question}",
    "I didn't quite catch that — please answer yes or no. {question}",
  ],
  declined_refill: ["Okay, I won't place that refill.", "No problem, I've not placed the order."],
  declined_cancel: ["Okay, I'll leave the order as it is.", "Alright, the order won't be cancelled."],
  declined_address: [
    "Okay, I'll keep the delivery address as it is.",
    "Alright, the address stays unchanged.",
  ],
  declined_generic: [
    "Okay, I've stopped there and nothing has changed.",
    "No problem, let's leave that for now.",
  ],
  ask_order_status: [
    "What's the order number? It starts with RX-, like RX-12345.",
    "Which order is it? Please give me the order number.",
  ],
  ask_order_cancel: [
    "Which order would you like to cancel? Please give me the order number.",
    "What's the number of the order you want to cancel? It looks like RX-12345.",
  ],
  ask_order_address: [
    "Which order should go to a new address? Please tell me the order number.",
    "I can redirect an order that hasn't shipped yet. What's the order number?",
  ],
  bad_number: [
    "That doesn't look like an order number. Order numbers look like RX-12345 — could you check it?",
    "Hmm, I need an order number in the format RX- followed by five digits. What's the number?",
  ],
  status_not_found: [
    "I couldn't find order {order} on your account. Could you check the number and try again?",
    "Sorry, there's no order {order} under your name. Please double-check the order number.",
  ],
  order_not_found: [
    "I can't find order {order} on your account. Could you check the number?",
    "Order {order} doesn't seem to be one of yours. What's the right order number?",
  ],
  status_processing: [
    "Order {order} ({item}, {days} days' supply, {total}) is being prepared and hasn't shipped yet. It's going to {address}.",
    "Your order {order} for {item} ({days} days, {total}) is still with our pharmacy team and will be sent to {address} soon.",
  ],
  status_shipped: [
    "Order {order} ({item}, {days} days' supply, {total}) shipped on {date} with Royal Mail; the tracking number is {tracking}.",
    "Good news: {order} for {item} ({days} days, {total}) left us on {date}. You can track it with Royal Mail using {tracking}.",
  ],
  status_cancelled: [
    "Order {order} ({item}, {total}) was cancelled and refunded to your card.",
    "{order} for {item} has been cancelled; the {total} went back to your card.",
  ],
  order_cancelled: [
    "Order {order} has already been cancelled, so there's nothing more I can do with it.",
    "{order} was cancelled earlier, so it can't be changed any more.",
  ],
  cancel_refused_shipped: [
    "Order {order} has already shipped (on {date}), so it can no longer be cancelled. If you don't need it, you can return it unopened.",
    "Sorry, {order} left our pharmacy on {date}, so it's too late to cancel it.",
  ],
  cancel_confirm: [
    "Order {order}: {item}, {days} days, {total}. If I cancel it, {refund} goes back to your card ending {card}. Shall I cancel it?",
    "You'd like to cancel {order} ({item}, {total}). The refund of {refund} will go to the card ending {card}. Do you want me to go ahead?",
    "Just to check: cancel order {order} for {item} ({days} days, {total}) and refund {refund} to the card ending {card}? Should I go ahead?",
  ],
  cancel_question: ["Shall I cancel the order?", "Do you want me to go ahead with the cancellation?"],
  cancel_done: [
    "Order {order} is cancelled. {refund} will be refunded to your card ending {card} within 3–5 working days.",
    "Done — I've cancelled {order}, and a refund of {refund} is on its way to the card ending {card}.",
  ],
  address_refused_shipped: [
    "Order {order} has already shipped, so I can't change its delivery address any more.",
    "Sorry, {order} is already with the courier (shipped {date}), so the address can't be changed now.",
  ],
  ask_postcode: [
    "What's the postcode of the new delivery address?",
    "Okay, order {order} hasn't shipped yet, so I can change it. What's the new postcode?",
    "Sure. Which postcode should {order} go to?",
  ],
  bad_postcode: [
    "That doesn't look like a UK postcode. Could you give it again, for example LS1 1AA?",
    "Sorry, I couldn't read a postcode there. What's the postcode of the new address?",
  ],
  ask_house: [
    "And the house number?",
    "Thanks. What's the house number at {postcode}?",
    "Got it, {postcode}. Which house number?",
  ],
  address_confirm: [
    "So order {order} will be delivered to {new} instead of {old}. Do you want me to make this change?",
    "Let me read that back: the new address for {order} is {new} (currently {old}). There's no charge for the change. Should I update it?",
    "Order {order} would then go to {new} rather than {old}. Shall I change the address?",
  ],
  address_question: ["Shall I change the address?", "Do you want me to update the delivery address?"],
  address_done: [
    "Done — order {order} will now be delivered to {new}.",
    "The delivery address for {order} is updated to {new}.",
  ],
  handoff: [
    "I'm connecting you with one of our pharmacists now. Please stay in the chat — someone will be with you in a few minutes.",
    "Sure, I'm transferring you to a pharmacist. They'll pick up this conversation shortly.",
  ],
  handoff_wait: [
    "You're in the queue for a pharmacist, who will be with you soon.",
    "A pharmacist will join this chat shortly — thanks for waiting.",
  ],
  bye: [
    "Thanks for contacting CareWell Pharmacy. Take care!",
    "Goodbye, and look after yourself!",
    "Thanks for chatting with CareWell Pharmacy. Have a good day.",
  ],
  fallback: [
    "Sorry, I didn't follow that. I can refill a prescription, check an order's status, cancel an order, change a delivery address, or connect you to a pharmacist.",
    "I'm not sure I understood. Would you like a refill, an order status, a cancellation, an address change, or to speak to a pharmacist?",
  ],
} as const satisfies Record<string, readonly string[]>;

export type PhraseKey = keyof typeof PHRASES;
