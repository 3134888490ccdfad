/**
 * Data of the telecom testbed agent (`telecom.ts`): Lumen Mobile's seed database (plans, roaming zones,
 * accounts, lines and their bills), its reply templates and the facts a tester starts with. `freshDb()` returns a
 * deep copy, so the writes of one session never leak into the next. The calendar is fixed at {@link TODAY} so
 * charge ages, minimum terms and SIM-replacement limits are deterministic.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The bot's "today" (ISO date). */
export const TODAY = "2025-06-15";

/** A monthly plan: data allowance in GB (`null` = unlimited) and price in euros. */
export interface Plan {
  id: string;
  name: string;
  gb: number | null;
  price: number;
}

export const PLANS: readonly Plan[] = [
  { id: "basic", name: "Basic", gb: 5, price: 12 },
  { id: "plus", name: "Plus", gb: 20, price: 20 },
  { id: "max", name: "Max", gb: 50, price: 30 },
  { id: "unlimited", name: "Unlimited", gb: null, price: 40 },
];

/** A roaming zone sold as a 7-day pass (EU roaming is included in every plan). */
export interface Zone {
  id: string;
  name: string;
  price: number;
  gb: number;
  countries: readonly string[];
}

export const ZONES: readonly Zone[] = [
  {
    id: "europe_plus",
    name: "Europe Plus",
    price: 8,
    gb: 5,
    countries: ["United Kingdom", "Switzerland", "Turkey"],
  },
  {
    id: "americas",
    name: "Americas",
    price: 20,
    gb: 5,
    countries: ["United States", "Canada", "Mexico", "Brazil"],
  },
  {
    id: "asia_pacific",
    name: "Asia Pacific",
    price: 25,
    gb: 5,
    countries: ["Japan", "Thailand", "Australia"],
  },
];

/** EU/EEA destinations: roaming like at home, no pass needed. */
export const EU: readonly string[] = ["France", "Germany", "Spain", "Italy", "Belgium", "Portugal", "Greece"];

/** Lower-case ways customers name a destination → its canonical name. */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  "united kingdom": "United Kingdom",
  uk: "United Kingdom",
  england: "United Kingdom",
  london: "United Kingdom",
  "united states": "United States",
  usa: "United States",
  america: "United States",
  "the states": "United States",
  "new york": "United States",
  switzerland: "Switzerland",
  turkey: "Turkey",
  canada: "Canada",
  mexico: "Mexico",
  brazil: "Brazil",
  japan: "Japan",
  tokyo: "Japan",
  thailand: "Thailand",
  australia: "Australia",
  france: "France",
  germany: "Germany",
  spain: "Spain",
  italy: "Italy",
  belgium: "Belgium",
  portugal: "Portugal",
  greece: "Greece",
};

/** One item on a line's recent bills; `keywords` are how a customer might name it. */
export interface Charge {
  id: string;
  date: string;
  description: string;
  amount: number;
  keywords: readonly string[];
  credited: boolean;
}

/** A mobile line: number (06xxxxxxxx), its owner, SMS code, plan and history. */
export interface Line {
  number: string;
  owner: string;
  account: string;
  code: string;
  plan: string;
  prepaid: boolean;
  minTermEnd?: string;
  usageGb: number;
  lastSimSwap?: string;
  passes: { zone: string; until: string }[];
  bill: Charge[];
  status: "active" | "cancelled";
}

/** A billing account: its holder's line, delivery postcode, email and overdue balance. */
export interface Account {
  id: string;
  holder: string;
  postcode: string;
  email: string;
  arrears: number;
  credits: number;
}

/** The whole database one session works on. */
export interface Db {
  accounts: Record<string, Account>;
  lines: Record<string, Line>;
}

const charge = (
  id: string,
  date: string,
  description: string,
  amount: number,
  keywords: string[],
): Charge => ({
  id,
  date,
  description,
  amount,
  keywords,
  credited: false,
});

const SEED: Db = {
  accounts: {
    "LM-1001": {
      id: "LM-1001",
      holder: "0612345678",
      postcode: "1017 AB",
      email: "sofia.devries@example.nl",
      arrears: 0,
      credits: 0,
    },
    "LM-1002": {
      id: "LM-1002",
      holder: "0655501234",
      postcode: "3511 LK",
      email: "p.jansen@example.nl",
      arrears: 84.2,
      credits: 0,
    },
    "LM-1003": {
      id: "LM-1003",
      holder: "0633377788",
      postcode: "2011 AA",
      email: "mila.k@example.nl",
      arrears: 0,
      credits: 0,
    },
  },
  lines: {
    "0612345678": {
      number: "0612345678",
      owner: "Sofia de Vries",
      account: "LM-1001",
      code: "482913",
      plan: "plus",
      prepaid: false,
      minTermEnd: "2024-09-01",
      usageGb: 12.4,
      lastSimSwap: "2024-11-02",
      passes: [{ zone: "americas", until: "2025-06-20" }],
      bill: [
        charge("C-11", "2025-06-02", "Premium SMS: GameZone subscription", 64, [
          "premium",
          "sms",
          "gamezone",
        ]),
        charge("C-12", "2025-05-28", "International call to Morocco", 7.5, [
          "international",
          "call",
          "morocco",
        ]),
        charge("C-13", "2025-05-12", "Extra data add-on 2 GB", 10, ["add-on", "addon", "extra data"]),
        charge("C-14", "2025-03-20", "Directory enquiries", 3.2, ["directory", "enquiries", "enquiry"]),
      ],
      status: "active",
    },
    "0698765432": {
      number: "0698765432",
      owner: "Daan de Vries",
      account: "LM-1001",
      code: "771204",
      plan: "plus",
      prepaid: false,
      minTermEnd: "2026-09-01",
      usageGb: 3.1,
      passes: [],
      bill: [
        charge("C-21", "2025-06-05", "Extra data add-on 2 GB", 10, ["add-on", "addon", "extra data"]),
        charge("C-22", "2025-05-20", "App store purchase (carrier billing)", 4.99, [
          "app",
          "store",
          "purchase",
        ]),
      ],
      status: "active",
    },
    "0655501234": {
      number: "0655501234",
      owner: "Pieter Jansen",
      account: "LM-1002",
      code: "305118",
      plan: "max",
      prepaid: false,
      minTermEnd: "2025-12-01",
      usageGb: 41.7,
      lastSimSwap: "2023-08-14",
      passes: [],
      bill: [
        charge("C-31", "2025-06-01", "Directory enquiries", 2.5, ["directory", "enquiries", "enquiry"]),
        charge("C-32", "2025-03-22", "Roaming data in Switzerland", 38.4, ["roaming", "switzerland"]),
      ],
      status: "active",
    },
    "0633377788": {
      number: "0633377788",
      owner: "Mila Kovac",
      account: "LM-1003",
      code: "660452",
      plan: "basic",
      prepaid: true,
      usageGb: 1.2,
      lastSimSwap: "2025-06-03",
      passes: [],
      bill: [charge("C-41", "2025-06-10", "Extra 2 GB bundle", 5, ["bundle", "extra"])],
      status: "active",
    },
  },
};

/** A fresh deep copy of the seed database. */
export function freshDb(): Db {
  return structuredClone(SEED);
}

/** The designed dialogue states: every reply enters exactly one. */
export const TELECOM_STATES = [
  "greet",
  "menu",
  "fallback",
  "goodbye",
  "handoff",
  "auth.ask_number",
  "auth.number_unknown",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.locked",
  "info.plans",
  "plan.offer",
  "plan.refused_arrears",
  "plan.refused_min_term",
  "plan.confirm",
  "plan.done",
  "roam.ask_destination",
  "roam.not_needed",
  "roam.refused_prepaid",
  "roam.refused_arrears",
  "roam.refused_active",
  "roam.confirm",
  "roam.done",
  "sim.refused_recent",
  "sim.ask_type",
  "sim.ask_postcode",
  "sim.postcode_mismatch",
  "sim.confirm",
  "sim.done",
  "dispute.list",
  "dispute.refused_old",
  "dispute.over_cap",
  "dispute.confirm",
  "dispute.done",
  "usage.show",
  "usage.refused_household",
  "cancel.fee",
  "cancel.confirm",
  "cancel.done",
  "gate.aborted",
] as const;
/** A designed dialogue state id. */
export type State = (typeof TELECOM_STATES)[number];

/** What a customer wants, as the keyword NLU recognises it (`info` is plan prices without sign-in). */
export type Intent = "info" | "plan" | "roam" | "sim" | "dispute" | "usage" | "cancel";

/** Intent keywords, tried in order (a destination or plan name alone also counts as roaming or plan change). */
export const INTENTS: readonly [Intent, RegExp][] = [
  ["cancel", /\b(cancel|terminate|end|close|quit)\b.{0,25}\b(line|contract|subscription|number|service)\b/],
  ["dispute", /\b(dispute|overcharged|charged|charges?|refund|bill|invoice|don'?t recogni[sz]e)\b/],
  ["sim", /\b(e-?sim|sim|lost my phone|stolen)\b/],
  [
    "plan",
    /\b(change|switch|upgrade|downgrade|move)\b.{0,30}\b(plan|tariff|bundle|package)\b|\b(upgrade|downgrade)\b|\b(switch|change|move)( me)? to\b/,
  ],
  ["roam", /\b(roaming|roam|abroad|travel\w*|trip|holiday|vacation|pass)\b/],
  ["usage", /\b(usage|how much data|data (left|used|remaining)|used\b.{0,20}\bdata|gb left)\b/],
  ["info", /\b(plans|tariffs|prices?|pricing|how much|cost|offers?|deals)\b/],
];

/** Keyword patterns for yes, no, a human, goodbye, hello and "other lines on the account". */
export const YES =
  /^\s*(yes|yeah|yep|yup|sure|ok(ay)?|fine|alright|go ahead|do it|please do|i accept|accept(ed)?|agreed?|understood)\b/;
export const NO = /^\s*(no|nope|nah|stop|cancel|never ?mind|forget it|don'?t|not now|leave it)\b/;
export const HUMAN =
  /\b(human|real person|a person|an agent|live agent|representative|operator|colleague|advisor|speak to someone|talk to someone)\b/;
export const BYE =
  /\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that is all|nothing else|all good|no thanks)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;
export const OTHERS =
  /\b(all|every|each|other|both|whole|family|household|everyone|my (son|daughter|kids?|wife|husband|partner|mum|mom|dad|mother|father)'?s?)\b/;

/** Template keys used inside replies (not states of their own). */
export type Phrase =
  | "queued"
  | "cancel.no_fee"
  | "more"
  | "ask"
  | "need_confirm"
  | "updated"
  | "sorry"
  | "verified";

/**
 * Reply templates by key (a designed state, or a phrase used inside replies): 2–4 wordings each, picked by the
 * session's seeded PRNG. `{name}` placeholders are filled from the reply's values; `{menu}` is the menu sentence.
 */
export const RESPONSES: Readonly<Record<State | Phrase, readonly string[]>> = {
  greet: [
    "Hi, welcome to Lumen Mobile support! {menu} What can I do for you today?",
    "Hello and welcome to Lumen Mobile! {menu} How can I help?",
    "Hi there, this is the Lumen Mobile assistant. {menu} What would you like to do?",
  ],
  menu: ["{menu} What would you like to do?", "Sure. {menu} Just tell me what you need."],
  fallback: [
    "Sorry, I didn't catch that. {menu} What would you like to do?",
    "Hmm, I'm not sure I understood. {menu} Which of these do you need?",
  ],
  goodbye: [
    "You're welcome{name}! Have a great day.",
    "Thanks for contacting Lumen Mobile{name}. Bye for now!",
  ],
  handoff: [
    "Of course. I'm connecting you with a colleague now; the average wait is about 4 minutes and they'll see this conversation.",
    "Sure, I'll pass you to one of our support team. Please stay in the chat; someone will be with you shortly.",
  ],
  queued: [
    "You're in the queue for a colleague; they'll pick up this chat shortly.",
    "A colleague will join this chat in a moment. Thanks for waiting.",
  ],
  "auth.ask_number": [
    "{bad}First I need to check it's you. What's your Lumen mobile number?",
    "{bad}Happy to help. Could you tell me the mobile number of your Lumen line?",
  ],
  "auth.number_unknown": [
    "I can't find an active Lumen line with the number {number}. Could you check it and type your mobile number again?",
    "Hmm, {number} doesn't match any active line with us. Which mobile number is your Lumen line?",
  ],
  "auth.ask_code": [
    "{bad}We just sent a 6-digit code by SMS to {line}. Please type it here.",
    "{bad}Thanks. I've just texted a 6-digit code to {line}; what is the code?",
  ],
  "auth.code_wrong": [
    "That code doesn't match, sorry. You have {left}; please type the 6-digit code from the SMS.",
    "Hmm, that's not the code we sent. Please check the SMS and try again ({left}).",
  ],
  "auth.locked": [
    "For your security, account requests in chat are locked after three wrong codes. Would you like me to connect you with a colleague?",
    "I'm sorry, chat access to your account is locked after too many wrong codes. Shall I pass you to a colleague who can help?",
  ],
  "info.plans": [
    "Here are our monthly plans:\n{list}\nAll of them include unlimited calls and texts and EU roaming. If you'd like to switch, just tell me which plan.",
    "Sure, these are our plans:\n{list}\nCalls, texts and EU roaming are included in each. Want to switch? Tell me which one.",
  ],
  "plan.offer": [
    "Here are the plans you can choose from:\n{list}\nWhich one would you like?",
    "These are our plans:\n{list}\nJust tell me the name or the number of the one you want.",
  ],
  "plan.refused_arrears": [
    "I'm sorry, I can't change your plan right now: there's an overdue balance of {arrears} on your account. Once it's paid you can switch at any time. {more}",
    "Unfortunately a plan change isn't possible while {arrears} is overdue on your account. As soon as that's settled, I can help you switch. {more}",
  ],
  "plan.refused_min_term": [
    "Your minimum term runs until {until}, so I can't move you to a cheaper plan before then. You can still upgrade; would you like a different plan?",
    "Moving down to {plan} isn't possible during your minimum term, which ends on {until}. Upgrades are fine though. Which other plan would you like?",
  ],
  "plan.confirm": [
    "To confirm: I'll switch {line} from {from} to {plan} ({gb}) at {price} a month, starting today. {ask}",
    "Here's the change: {from} → {plan}, {price} per month from today, on line {line}. {ask}",
  ],
  "plan.done": [
    "Done! Your line is now on the {plan} plan at {price} a month. {more}",
    "All set: you've switched to {plan} ({price} per month), effective today. {more}",
  ],
  "roam.ask_destination": [
    "Sure. Which country are you travelling to?",
    "Where are you heading? Tell me the country and I'll find the right pass.",
  ],
  "roam.not_needed": [
    "Good news: {dest} is in the EU, so you can use your plan there just like at home. No pass needed! {more}",
    "No pass needed for {dest}: EU roaming is included in your plan at no extra cost. {more}",
  ],
  "roam.refused_prepaid": [
    "Roaming passes are only available on pay-monthly lines, and {line} is prepaid. You can buy a travel bundle with your prepaid credit in the Lumen app. {more}",
    "I'm afraid I can't add a roaming pass to a prepaid line. The Lumen app has travel bundles you can pay with your prepaid credit. {more}",
  ],
  "roam.refused_arrears": [
    "I can't add a roaming pass while there's an overdue balance of {arrears} on your account. Once it's paid, I'll gladly set one up. {more}",
    "Sorry, roaming passes can't be added while {arrears} is overdue on the account. {more}",
  ],
  "roam.refused_active": [
    "You already have an active {zone} pass until {until}, and it covers {dest}. I can't add a second pass for the same zone. {more}",
    "{dest} is already covered: your {zone} pass runs until {until}, so there's no need for another one. {more}",
  ],
  "roam.confirm": [
    "To confirm: a {zone} roaming pass for {dest}, {gb} GB for 7 days from today, for {price} on your next bill. {ask}",
    "I'll add the {zone} pass (covers {dest}): 7 days, {gb} GB of data, {price}. {ask}",
  ],
  "roam.done": [
    "All set: your {zone} pass for {dest} is active for 7 days from today, and {price} will be on your next bill. Have a great trip! {more}",
    "Done! The {zone} pass is on your line now (7 days, {price}). Enjoy {dest}! {more}",
  ],
  "sim.refused_recent": [
    "Your SIM was last replaced on {last}. We can replace a SIM at most once every 30 days, so the next replacement is possible from {next}. {more}",
    "I'm sorry, there was already a SIM replacement on {last}, and only one is allowed per 30 days. Please try again from {next}. {more}",
  ],
  "sim.ask_type": [
    "I can help with that. Would you like an eSIM or a physical SIM card?",
    "Sure. Do you want an eSIM (activated with a QR code) or a physical SIM sent by post?",
  ],
  "sim.ask_postcode": [
    "What's the postcode of the delivery address?",
    "Which postcode should we send the new SIM card to?",
  ],
  "sim.postcode_mismatch": [
    "{postcode} doesn't match the address we have on file, so I can't send a SIM there. What's the postcode of your registered address?",
    "Sorry, for security we only post SIM cards to the address on file, and {postcode} isn't it. Could you give me that postcode?",
  ],
  "sim.confirm": [
    "To confirm: I'll order {what}. Your current SIM stops working once the new one is activated. {ask}",
    "Here's what I'll do: order {what}. The old SIM is switched off when you activate the new one. {ask}",
  ],
  "sim.done": ["Done! {how} {more}", "Your replacement is ordered. {how} {more}"],
  "dispute.list": [
    "Here are the charges on your recent bills:\n{list}\nWhich one would you like to dispute?",
    "I can see these charges on your last bills:\n{list}\nWhich charge looks wrong to you?",
  ],
  "dispute.refused_old": [
    "The {charge} charge is from {date}, more than 60 days ago, so it can no longer be disputed. {more}",
    "I'm sorry, charges can only be disputed within 60 days, and {charge} was billed on {date}. {more}",
  ],
  "dispute.over_cap": [
    "I can credit up to {cap} in chat, and the {charge} charge is {amount}. I'm passing you to a billing specialist who'll look into it; they'll see this conversation.",
    "That charge is {amount}, more than the {cap} I can credit here, so I'm handing you over to our billing team. Someone will join shortly.",
  ],
  "dispute.confirm": [
    'To confirm: I\'ll dispute "{charge}" from {date} and credit {amount} to your account; it will show on your next bill. {ask}',
    'I\'ll credit {amount} for "{charge}" ({date}), visible on your next bill. {ask}',
  ],
  "dispute.done": [
    "Done. I've credited {amount} for \"{charge}\"; you'll see it on your next bill. {more}",
    'The {amount} credit for "{charge}" has been applied to your account. {more}',
  ],
  "usage.show": [
    "Here's the data usage this month:\n{rows}\n{more}",
    "This month's data usage so far:\n{rows}\n{more}",
  ],
  "usage.refused_household": [
    "For privacy I can only show the usage of your own line; the account holder can see all lines on the account. Just ask if you'd like to see yours.",
    "I'm sorry, other lines on the account are only visible to the account holder. I can show the usage of your own line if you like.",
  ],
  "cancel.fee": [
    "Before we go on: your minimum term runs until {until}, so cancelling now means an early-termination fee of {fee}. Do you accept this fee?",
    "Just so you know, cancelling before {until} comes with an early-termination fee of {fee}. Are you OK with that?",
  ],
  "cancel.no_fee": [
    "Your minimum term has ended, so the early-termination fee is {fee}. Do you want to go on with the cancellation?",
    "Good to know: you're out of your minimum term, so there's no early-termination fee ({fee}). Shall we continue?",
  ],
  "cancel.confirm": [
    "To confirm: I'll cancel line {line} today{fee}. The number stops working at midnight. {ask}",
    "Last check: cancelling {line} as of today{fee}; after that the number can't be used. {ask}",
  ],
  "cancel.done": [
    "Your line {line} has been cancelled.{fee} We're sorry to see you go. {more}",
    "Done: {line} is cancelled as of today.{fee} Thanks for having been with Lumen. {more}",
  ],
  "gate.aborted": [
    "No problem, I've left everything as it was. Anything else I can help with?",
    "Okay, I won't make any changes. Is there anything else I can do for you?",
  ],
  more: [
    "Anything else I can help with?",
    "Is there anything else I can do for you?",
    "Can I help with anything else?",
  ],
  ask: [
    "Reply CONFIRM to go ahead, or tell me what to change.",
    "If that's right, reply CONFIRM; otherwise tell me what to change.",
    "Type CONFIRM to proceed, or let me know what to change.",
  ],
  need_confirm: [
    "To go ahead I need you to reply with the word CONFIRM.",
    "I can only go ahead once you reply CONFIRM.",
  ],
  updated: ["Sure, I've updated that.", "No problem, I've changed that.", "Got it, updated."],
  sorry: ["Sorry, I didn't quite get that.", "Hmm, I didn't catch that."],
  verified: ["Thanks, {name}, you're verified.", "Great, that's you verified, {name}."],
};

/** What a tester playing Lumen's customers knows: their own numbers, codes and wishes (never their arrears). */
export const TELECOM_FACTS: Facts = {
  personas: [
    {
      mobile_number: ["0612 345 678"],
      code: ["482913"],
      plan: ["Max", "Unlimited"],
      destination: ["Japan", "United States"],
      sim_type: ["eSIM", "physical"],
      postcode: ["1017 AB"],
      charge: ["international call", "premium SMS"],
    },
    {
      mobile_number: ["0698765432"],
      code: ["771204"],
      plan: ["Basic", "Max"],
      line_number: ["0612345678"],
      destination: ["Turkey"],
      sim_type: ["physical"],
      postcode: ["1017 AB"],
      charge: ["app store purchase"],
    },
    {
      mobile_number: ["+31 655501234"],
      code: ["305118"],
      plan: ["Unlimited", "Plus"],
      destination: ["Switzerland"],
      sim_type: ["physical"],
      postcode: ["3511 LK"],
      charge: ["roaming data", "directory enquiries"],
    },
    {
      mobile_number: ["0633377788"],
      code: ["660452"],
      plan: ["Plus"],
      destination: ["Thailand"],
      sim_type: ["eSIM"],
      postcode: ["2011 AA"],
      charge: ["extra bundle"],
    },
  ],
  requests: [
    "what plans do you have and what do they cost?",
    "how much data have we used on all the lines of our account?",
    "I want to cancel my line",
    "can I speak to a human?",
  ],
};
