/**
 * Data of the insurance testbed agent (`insurance.ts`): Harbor Mutual's seed database (customers, their home
 * and car policies, claims and named drivers), its cover rules and tariffs, the designed dialogue states, the
 * reply templates and the facts a tester starts with (the keyword NLU is in `insurance-nlu.ts`). `freshDb()`
 * returns a deep copy, so the writes of one session never leak into the next. The calendar is fixed at
 * {@link TODAY} so the 90-day claim window and drivers' ages are deterministic.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The bot's "today" (ISO date). */
export const TODAY = "2025-06-15";
/** Incidents must be reported within this many days. */
export const CLAIM_WINDOW_DAYS = 90;
/** Named drivers must be at least this old. */
export const MIN_DRIVER_AGE = 21;
/** A car policy holds at most this many named drivers (besides the policyholder). */
export const MAX_DRIVERS = 3;

/** What happened, as the bot names it. */
export type IncidentType = "theft" | "water" | "storm" | "collision" | "windscreen";
export type PolicyKind = "home" | "car";
/** Cover level: home `basic` excludes storm and flood; only car `comprehensive` includes windscreens. */
export type Tier = "basic" | "plus" | "comprehensive" | "third_party";

export const INCIDENT_LABELS: Readonly<Record<IncidentType, string>> = {
  theft: "theft",
  water: "water damage",
  storm: "storm or flood damage",
  collision: "collision damage",
  windscreen: "windscreen damage",
};
/** Incident types a policy of each kind can cover at all. */
export const KIND_TYPES: Readonly<Record<PolicyKind, readonly IncidentType[]>> = {
  home: ["theft", "water", "storm"],
  car: ["theft", "collision", "windscreen"],
};
export const TIER_LABELS: Readonly<Record<Tier, string>> = {
  basic: "Basic",
  plus: "Home Plus",
  comprehensive: "Comprehensive",
  third_party: "Third Party, Fire & Theft",
};

export interface Driver {
  name: string;
  dob: string;
}

export interface Policy {
  id: string;
  customer: string;
  kind: PolicyKind;
  tier: Tier;
  deductible: number;
  /** Annual premium, pounds. */
  premium: number;
  /** The insured address (home) or vehicle (car). */
  insured: string;
  drivers: Driver[];
}

export interface Customer {
  id: string;
  firstName: string;
  lastName: string;
  postcode: string;
  phone: string;
  policies: string[];
}

export type ClaimStatus = "open" | "approved" | "paid" | "withdrawn";

export interface Claim {
  id: string;
  policy: string;
  type: IncidentType;
  date: string;
  amount: number;
  status: ClaimStatus;
  policeReport?: string;
}

/** The whole database one session works on. */
export interface Db {
  customers: Record<string, Customer>;
  policies: Record<string, Policy>;
  claims: Record<string, Claim>;
  nextClaim: number;
}

const CUSTOMERS: [string, string, string, string, string, string[]][] = [
  ["C-1", "Emma", "Clarke", "BS1 4DJ", "07700 900123", ["HM-204851", "HM-204852"]],
  ["C-2", "Raj", "Patel", "M14 5TP", "07700 900456", ["HM-317720"]],
  ["C-3", "Sophie", "Martin", "EH3 9QT", "07700 900789", ["HM-559034"]],
];
/** Policy number, customer, kind, tier, deductible, annual premium, insured address or vehicle. */
const POLICIES: [string, string, PolicyKind, Tier, number, number, string][] = [
  ["HM-204851", "C-1", "home", "basic", 250, 312, "14 Harbour Road, Bristol"],
  ["HM-204852", "C-1", "car", "comprehensive", 150, 540, "Ford Focus, WX19 KLM"],
  ["HM-317720", "C-2", "car", "third_party", 300, 410, "Toyota Corolla, MA68 RTP"],
  ["HM-559034", "C-3", "home", "plus", 500, 455, "7 Lauriston Place, Edinburgh"],
];
const DRIVERS: Readonly<Record<string, Driver[]>> = {
  "HM-204852": [{ name: "Tom Clarke", dob: "1979-11-02" }],
  "HM-317720": [
    { name: "Priya Patel", dob: "1984-05-30" },
    { name: "Arjun Patel", dob: "2001-02-14" },
    { name: "Meera Patel", dob: "1999-08-08" },
  ],
};
/** Claim id, policy, incident, date, estimate, status, police reference. */
const CLAIMS: [string, string, IncidentType, string, number, ClaimStatus, string?][] = [
  ["CL-40112", "HM-204851", "water", "2025-05-20", 1200, "open"],
  ["CL-40187", "HM-204852", "collision", "2025-02-03", 2450, "paid"],
  ["CL-51230", "HM-317720", "theft", "2025-04-11", 900, "approved", "MP-70412"],
  ["CL-51301", "HM-317720", "collision", "2025-06-01", 640, "open"],
  ["CL-62001", "HM-559034", "storm", "2025-01-19", 3100, "paid"],
  ["CL-62044", "HM-559034", "theft", "2025-05-30", 780, "open", "PS/18802/25"],
];

const SEED: Db = {
  customers: Object.fromEntries(
    CUSTOMERS.map(([id, firstName, lastName, postcode, phone, policies]) => [
      id,
      { id, firstName, lastName, postcode, phone, policies },
    ]),
  ),
  policies: Object.fromEntries(
    POLICIES.map(([id, customer, kind, tier, deductible, premium, insured]) => [
      id,
      { id, customer, kind, tier, deductible, premium, insured, drivers: DRIVERS[id] ?? [] },
    ]),
  ),
  claims: Object.fromEntries(
    CLAIMS.map(([id, policy, type, date, amount, status, policeReport]) => [
      id,
      { id, policy, type, date, amount, status, ...(policeReport ? { policeReport } : {}) },
    ]),
  ),
  nextClaim: 70001,
};

/** A fresh deep copy of the seed database. */
export function freshDb(): Db {
  return structuredClone(SEED);
}

/** The sentence listing what the assistant can do. */
export const MENU =
  "I can help you file a new home or car claim, check or withdraw an existing claim, or add a named driver to your car policy, and answer questions about deductibles, claim times and office hours.";
/** The annual premium change for a named driver of `age`. */
export function premiumFor(age: number): number {
  if (age < 25) return 210;
  if (age < 30) return 120;
  if (age < 70) return 65;
  return 140;
}

/** Why a claim is outside the cover, and an alternative to offer ({type}, {kind} and {tier} are filled in). */
export const COVER_REFUSALS: Readonly<
  Record<"no_kind" | "wrong_kind" | "storm" | "windscreen", [string, string]>
> = {
  no_kind: [
    "{type}you don't hold {kind} cover with Harbor Mutual",
    "We'd be glad to give you a quote by phone.",
  ],
  wrong_kind: [
    "{type} isn't covered by a {kind} policy",
    "If you have other insurance for this, they'd be the ones to contact.",
  ],
  storm: [
    "storm and flood damage isn't included on the Basic home tier",
    "Upgrading to Home Plus would add it for future incidents; an adviser can go through the options.",
  ],
  windscreen: [
    "windscreen cover only comes with Comprehensive car insurance, and yours is {tier}",
    "A windscreen specialist may be able to help you directly.",
  ],
};
/** A claim's status as the status reply words it ({amount} filled in), and as a withdrawal refusal names it. */
export const STATUS_LINES: Readonly<Record<ClaimStatus, [string, string]>> = {
  open: ["It's open and being assessed by a claims handler.", "opened"],
  approved: ["It's been approved, and the payment of {amount} is being processed.", "approved"],
  paid: ["It's settled: {amount} has been paid out.", "paid out"],
  withdrawn: ["It was withdrawn and is now closed.", "withdrawn"],
};

/** The designed dialogue states, by flow. */
const GENERAL = ["greet", "menu", "fallback", "goodbye", "handoff", "gate.aborted"] as const;
const INFO_STATES = ["info.deductible", "info.claim_time", "info.hours"] as const;
const AUTH = ["auth.ask_policy", "auth.policy_unknown", "auth.ask_postcode", "auth.ask_last_name"] as const;
const LOCK = ["auth.failed", "auth.locked", "callback.arranged"] as const;
const CLAIM_ASK = ["claim.ask_policy", "claim.ask_type", "claim.ask_date", "claim.ask_amount"] as const;
const CLAIM_REFUSE = ["claim.refused_coverage", "claim.refused_future", "claim.refused_window"] as const;
const CLAIM_END = ["claim.refused_deductible", "claim.ask_police_report", "claim.refused_no_report"] as const;
const CLAIM_WRITE = ["claim.confirm", "claim.done"] as const;
const STATUS = ["status.ask_id", "status.show", "status.not_found"] as const;
const DRIVER_REFUSE = ["driver.refused_no_car", "driver.refused_max", "driver.refused_underage"] as const;
const DRIVER = ["driver.ask_name", "driver.ask_dob", "driver.confirm", "driver.done"] as const;
const WITHDRAW = ["withdraw.ask_id", "withdraw.not_found", "withdraw.refused_status"] as const;
const WITHDRAW_WRITE = ["withdraw.confirm", "withdraw.done"] as const;
export const INSURANCE_STATES = [
  ...GENERAL,
  ...INFO_STATES,
  ...AUTH,
  ...LOCK,
  ...CLAIM_ASK,
  ...CLAIM_REFUSE,
  ...CLAIM_END,
  ...CLAIM_WRITE,
  ...STATUS,
  ...DRIVER_REFUSE,
  ...DRIVER,
  ...WITHDRAW,
  ...WITHDRAW_WRITE,
] as const;
/** A designed dialogue state id. */
export type State = (typeof INSURANCE_STATES)[number];

/** What a customer wants done on their policies. */
export type Intent = "claim" | "status" | "withdraw" | "driver";
/** A general question answered without sign-in. */
export type Info = "deductible" | "claim_time" | "hours";

/** Template keys used inside replies (not states of their own). */
type Bad = `bad_${"policy" | "postcode" | "name" | "claim" | "date" | "amount"}`;
type Bit = "queued" | "more" | "ask" | "need_approval" | "updated" | "sorry" | "verified";
export type Phrase = Bit | "not_yours" | Bad;

/**
 * Reply templates by key (a designed state, or a phrase used inside replies): 3–4 wordings each, picked by the
 * session's seeded PRNG. `{name}` placeholders are filled from the reply's values; `{menu}` is the menu sentence.
 */
export const RESPONSES: Readonly<Record<State | Phrase, readonly string[]>> = {
  greet: [
    "Hello, you've reached Harbor Mutual claims support. {menu} How can I help today?",
    "Hi, welcome to Harbor Mutual! {menu} What can I do for you?",
    "Good to hear from you. This is the Harbor Mutual assistant. {menu} What brings you here today?",
  ],
  menu: [
    "{menu} What would you like to do?",
    "Sure. {menu} Just tell me what you need.",
    "Of course. {menu} Which would you like?",
  ],
  fallback: [
    "Sorry, I didn't quite follow that. {menu} What would you like to do?",
    "Hmm, I'm not sure I understood. {menu} Which of these can I help with?",
    "I may have missed something there. {menu} What do you need?",
  ],
  goodbye: [
    "You're welcome{name}. Take care!",
    "Thanks for contacting Harbor Mutual{name}. Goodbye for now.",
    "Glad I could help{name}. Have a good day!",
  ],
  handoff: [
    "Of course. I'm transferring you to a member of our claims team now; they'll be able to see this conversation.",
    "No problem, I'll put you through to a colleague. Please stay in the chat, someone will be with you shortly.",
    "Sure thing. I'm passing this chat to one of our advisers; the current wait is around five minutes.",
  ],
  queued: [
    "You're in the queue for an adviser; they'll pick this chat up shortly.",
    "A colleague will join this chat in a moment. Thanks for your patience.",
    "Someone from the claims team will be with you soon.",
  ],
  "info.deductible": [
    "A deductible (also called an excess) is the part of any claim you pay yourself; we cover the rest. If a loss costs less than your deductible, there's nothing for us to pay.{own} {more}",
    "Your deductible is the fixed amount you contribute towards each claim, and we pay what's above it. So a loss smaller than the deductible isn't worth claiming for.{own} {more}",
    "Put simply, the deductible is the first slice of a claim that you cover; Harbor Mutual pays the amount over it.{own} {more}",
  ],
  "info.claim_time": [
    "Most claims are decided within 10 working days once we have everything we need; windscreen repairs are usually sorted in 2 to 3 days. Theft claims can take a little longer while the police report is checked. {more}",
    "Typically we reach a decision in about 10 working days after receiving all the details. Windscreen claims are quicker (2–3 days), theft can take longer because we verify the police report. {more}",
    "It depends on the claim, but around 10 working days is usual from the point we've got all the information. Glass claims are faster, thefts a bit slower. {more}",
  ],
  "info.hours": [
    "Our phone team is available Monday to Friday 8am–8pm and Saturday 9am–1pm. This chat is open around the clock. {more}",
    "You can call us Monday to Friday from 8am to 8pm, and Saturdays 9am to 1pm; I'm here in chat 24/7. {more}",
    "The office lines are open weekdays 8am–8pm and Saturday mornings 9am–1pm, closed on Sundays and bank holidays. This chat never closes. {more}",
  ],
  "auth.ask_policy": [
    "{bad}Before I can look at your policy I need to check who you are. What's your policy number?",
    "{bad}Happy to help with that. Could you give me your policy reference first? It starts with HM-.",
    "{bad}Sure. First, which policy number is this about?",
  ],
  "auth.policy_unknown": [
    "I can't find a policy with the number {policy}. Could you check it and send it again? It looks like HM- followed by six digits.",
    "Hmm, {policy} doesn't match any Harbor Mutual policy. What's the policy number on your documents?",
    "Unfortunately there's no policy {policy} on our system. Could you double-check the reference?",
  ],
  "auth.ask_postcode": [
    "{bad}Thanks. What's the postcode of the policyholder's address?",
    "{bad}Got it. To confirm it's you, could you tell me the postcode registered on the policy?",
    "{bad}Thank you. Which postcode is the policy registered to?",
  ],
  "auth.ask_last_name": [
    "{bad}And the policyholder's last name, please?",
    "{bad}Thanks. What's the surname on the policy?",
    "{bad}Nearly there. Could you give me the last name of the policyholder?",
  ],
  "auth.failed": [
    "I'm sorry, those details don't match what we hold for that policy. Could you give me {what} again?",
    "Unfortunately that doesn't match our records for this policy. Please try {what} once more.",
    "Those details don't line up with the policy, I'm afraid. What's {what} on the policy?",
  ],
  "auth.locked": [
    "I'm afraid I can't try any more identity checks in this chat, as the details didn't match twice. I can arrange a callback from our team to the number on the policy instead. Would you like that?",
    "For your security, I'm not able to verify you here after two unsuccessful attempts. I could set up a callback with one of our advisers, though. Shall I do that?",
    "Unfortunately identity checks are closed for this chat after two mismatches. We can call you back on the number we hold, if that helps. Would you like a callback?",
  ],
  "callback.arranged": [
    "Done: one of our team will call you on the number ending {phone} within one working day. {more}",
    "I've booked a callback; an adviser will ring the number ending {phone} within a working day. {more}",
    "All arranged. Expect a call from Harbor Mutual on the number ending {phone}, usually within one working day. {more}",
  ],
  "claim.ask_policy": [
    "{bad}Which policy is this claim for?\n{list}",
    "{bad}You have more than one policy with us. Is this about your home or your car?\n{list}",
    "{bad}Which of your policies does the incident relate to?\n{list}",
  ],
  "claim.ask_type": [
    "What happened? On your {kind} policy I can take claims for {types}.",
    "Could you tell me what kind of incident it was? For {kind} cover that's {types}.",
    "What type of incident are we dealing with: {types}?",
  ],
  "claim.refused_coverage": [
    "That isn't something your policy covers: {reason}. {alt} {more}",
    "I'm afraid I can't open this claim, because {reason}. {alt} {more}",
    "Under the terms of your {policy} policy, {reason}. {alt} {more}",
    "Unfortunately that's outside your cover: {reason}. {alt} {more}",
  ],
  "claim.ask_date": [
    "{bad}Which date did this happen?",
    "{bad}When did the incident take place? The date is enough.",
    "{bad}What was the date of the incident?",
  ],
  "claim.refused_future": [
    "{date} is still to come, so I can't record an incident on that day. Which date did it actually happen?",
    "That date ({date}) is in the future, I'm afraid, and a claim can only be for something that has already happened. When did it take place?",
    "I can't log an incident for {date} as it hasn't happened yet. Could you check the date?",
  ],
  "claim.refused_window": [
    "Unfortunately that's outside the reporting period: incidents have to be reported within 90 days, and {date} was {days} days ago. If there's a reason it couldn't be reported sooner, a claims handler can review it. {more}",
    "Under the terms of your policy a claim must be made within 90 days of the incident. {date} is {days} days back, so I can't register it here. I can put you through to a colleague if you'd like it looked at. {more}",
    "We wouldn't be able to accept a claim for an incident on {date}; it's {days} days ago and the limit is 90 days. An adviser can talk you through your options. {more}",
    "I can't go ahead with that because the incident date, {date}, is more than 90 days ago ({days} days). {more}",
  ],
  "claim.ask_amount": [
    "{bad}Roughly how much do you estimate the loss or repair at?",
    "{bad}What's the estimated cost of the damage, in pounds?",
    "{bad}How much are you claiming for, approximately?",
  ],
  "claim.refused_deductible": [
    "An estimate of {amount} is below your {deductible} deductible on the {policy} policy, so a claim wouldn't pay anything out. It's probably best not to file it; that way your no-claims record stays clean. {more}",
    "I'm afraid it wouldn't be worth filing: the deductible on your {policy} policy is {deductible}, and the loss of {amount} doesn't exceed it. {more}",
    "Unfortunately a claim for {amount} wouldn't go anywhere, since you'd pay the first {deductible} yourself under your {policy} policy. If the cost turns out higher, just come back to me. {more}",
  ],
  "claim.ask_police_report": [
    "{bad}For a theft claim we need the police crime reference number. What is it?",
    "{bad}Thefts have to be reported to the police. Could you give me the crime reference number they gave you?",
    "{bad}What's the police report number for the theft?",
  ],
  "claim.refused_no_report": [
    "Under the terms of your policy, a theft claim needs a police crime reference, so I can't submit it without one. Once you've reported it (call 101), come back and we'll pick it up. {more}",
    "I'm afraid we wouldn't be able to accept a theft claim without a police report number. You can report it on 101 or online, then get back in touch. {more}",
    "Unfortunately I can't go ahead without a crime reference, since every theft claim has to be reported to the police first. {more}",
  ],
  "claim.confirm": [
    "Here's the claim I'll submit on your {policy} policy {id}: {type} on {date}, estimated at {amount}{report}. Your deductible of {deductible} applies. {ask}",
    "Let me read that back: {type}, {date}, estimated loss {amount}{report}, under {policy} policy {id} (deductible {deductible}). {ask}",
    "Before I submit, please check: policy {id} ({policy}), {type} on {date}, estimate {amount}{report}; {deductible} deductible. {ask}",
  ],
  "claim.done": [
    "Your claim for {type} on {date} ({amount}) has been submitted. The reference is {claim}; a claims handler will be in touch within 2 working days. {more}",
    "Done: claim {claim} ({type}, {date}, estimated {amount}) is registered and open. You'll hear from a claims handler within two working days. {more}",
    "That's submitted under reference {claim}: {type} on {date}, {amount}. Keep any receipts or photos handy, a handler will contact you soon. {more}",
  ],
  "status.ask_id": [
    "{bad}Which claim would you like me to check? Your claim references are: {list}.",
    "{bad}What's the claim reference? On your policies I can see {list}.",
    "{bad}Could you give me the claim number? It starts with CL-. Yours are {list}.",
  ],
  "status.show": [
    "Claim {claim} ({type}, {date}, {amount}): {status} {more}",
    "Here's where claim {claim} stands: {status} It's for {type} on {date}, {amount}. {more}",
    "I've looked up {claim}. {status} (Incident: {type} on {date}, {amount}.) {more}",
  ],
  "status.not_found": [
    "I'm afraid I can't find a claim {claim} on your policies, so I can't share anything about it. Could you check the reference?",
    "Unfortunately {claim} isn't a claim I can see under your policies. I can only discuss claims on your own cover.",
    "There's no claim {claim} that I can access on your account, I'm afraid. If you think it should be there, a colleague can help.",
  ],
  "driver.refused_no_car": [
    "Named drivers can only be added to a car policy, and your cover with us is home insurance only. {more}",
    "I'm afraid that isn't something your policy allows: you don't hold a car policy with Harbor Mutual, so there's nowhere to add a driver. We'd be happy to quote for car cover by phone. {more}",
    "Unfortunately I can't add a driver, because none of your policies is a car policy. {more}",
  ],
  "driver.refused_max": [
    "Your car policy already has the maximum of three named drivers ({names}). We wouldn't be able to add another unless one is removed, which a colleague can do by phone. {more}",
    "I'm afraid I can't add anyone else: policy {id} already lists three named drivers ({names}), which is the limit. {more}",
    "Under the terms of your policy there can be at most three named drivers, and {names} are already on it. {more}",
  ],
  "driver.ask_name": [
    "{bad}Sure. What's the full name of the driver you'd like to add?",
    "{bad}Who would you like to add as a named driver?",
    "{bad}What's the new driver's name?",
  ],
  "driver.ask_dob": [
    "{bad}And what's {name}'s date of birth?",
    "{bad}Thanks. What is the driver's date of birth?",
    "{bad}Could you give me {name}'s date of birth, please?",
  ],
  "driver.refused_underage": [
    "Unfortunately we wouldn't be able to add {name}: named drivers must be at least 21, and with a date of birth of {dob} they're {age}. {more}",
    "I'm afraid {name} is too young to be added as a named driver. The minimum age is 21 and they're {age} (born {dob}). {more}",
    "I can't go ahead with that because {name} ({age}, born {dob}) is under our minimum driver age of 21. They'd be able to be added once they turn 21. {more}",
  ],
  "driver.confirm": [
    "To add {name} (born {dob}) to car policy {id} ({insured}), your annual premium goes up by {change}, from {from} to {to}. {ask}",
    "Adding {name}, date of birth {dob}, to {id} changes your premium by {change} a year (new premium {to}). {ask}",
    "Here's the quote: named driver {name} ({dob}) on {insured}, an extra {change} per year, so {to} in total. {ask}",
  ],
  "driver.done": [
    "{name} has been added as a named driver from today. Your new annual premium is {to} ({change} more). {more}",
    "Done: {name} is now on your car policy. The premium increases by {change}, to {to} a year. {more}",
    "All set, {name} is insured to drive {insured}. Your premium is now {to} per year. {more}",
  ],
  "withdraw.ask_id": [
    "{bad}Which claim do you want to withdraw? Your claims are: {list}.",
    "{bad}What's the reference of the claim you'd like to withdraw? I can see {list}.",
    "{bad}Could you tell me which claim number to withdraw? You have {list}.",
  ],
  "withdraw.not_found": [
    "I'm afraid I can't find claim {claim} on your policies, so I can't withdraw it. Could you check the reference?",
    "Unfortunately {claim} isn't one of the claims on your cover, so there's nothing I can do with it here.",
    "There's no claim {claim} I can see under your policies, I'm afraid. Which reference did you mean?",
  ],
  "withdraw.refused_status": [
    "I can't go ahead with that because claim {claim} has already been {status}; only open claims can be withdrawn. If something's wrong with the settlement, a claims handler can help. {more}",
    "Unfortunately claim {claim} is {status}, and a claim can only be withdrawn while it's still open. {more}",
    "We wouldn't be able to withdraw {claim} at this stage, as it's been {status}. I can put you through to a colleague if you'd like to discuss it. {more}",
  ],
  "withdraw.confirm": [
    "You'd like to withdraw claim {claim} ({type}, {date}, {amount}). Once withdrawn it's closed and can't be reopened. {ask}",
    "Just to check: withdraw {claim}, the {type} claim from {date} for {amount}? This can't be undone. {ask}",
    "I'll withdraw claim {claim} ({type} on {date}, {amount}) and close it for good. {ask}",
  ],
  "withdraw.done": [
    "Claim {claim} has been withdrawn and closed. {more}",
    "Done, {claim} is withdrawn. Nothing further will happen on it. {more}",
    "That's withdrawn: claim {claim} is now closed. {more}",
  ],
  "gate.aborted": [
    "No problem, I haven't changed anything. Anything else I can help with?",
    "Okay, I've left it there and nothing has been submitted. Is there anything else?",
    "Understood, I'll drop that. Can I help with something else?",
  ],
  more: [
    "Anything else I can help with?",
    "Is there anything else I can do for you?",
    "Can I help with anything else?",
  ],
  ask: [
    "Shall I go ahead? Say yes to approve, or tell me what needs changing.",
    "Is that all correct? If so, just approve it; otherwise tell me what to change.",
    "Can you confirm that's right? Reply yes to go ahead or let me know any corrections.",
  ],
  need_approval: [
    "I'll need your approval before I go ahead.",
    "I can only continue once you've approved the details.",
    "Just to be sure, I need a yes from you first.",
  ],
  updated: ["Thanks, I've updated that.", "No problem, I've corrected it.", "Got it, changed."],
  sorry: ["Sorry, I didn't quite get that.", "Hmm, I didn't catch that.", "Sorry, I missed that."],
  verified: [
    "Thanks, {name}, you're verified.",
    "Great, that's you confirmed, {name}.",
    "Thank you {name}, I've found your policy.",
  ],
  bad_policy: [
    "That doesn't look like one of our policy numbers (HM- and six digits). ",
    "Policy numbers are HM- followed by six digits. ",
    "I couldn't read a policy number there. ",
  ],
  bad_postcode: [
    "That doesn't look like a UK postcode. ",
    "I couldn't make out a postcode there. ",
    "Hmm, that isn't a postcode I recognise. ",
  ],
  bad_name: [
    "I didn't catch a surname there. ",
    "Sorry, I need the last name. ",
    "I couldn't pick out a name. ",
  ],
  bad_claim: [
    "Claim references look like CL- and five digits. ",
    "I couldn't read a claim number there. ",
    "That doesn't look like a claim reference. ",
  ],
  bad_date: [
    "I couldn't work out a date from that. ",
    "Sorry, I need a date, like 3 June 2025. ",
    "I didn't catch the date. ",
  ],
  bad_amount: [
    "I need an amount in pounds. ",
    "I couldn't see an amount there. ",
    "Sorry, how much in pounds? ",
  ],
  not_yours: [
    "{policy} isn't one of your policies. ",
    "I can't see {policy} among your policies. ",
    "That policy isn't under your name. ",
  ],
};

/** What a tester playing Harbor Mutual's customers knows: their own policy details, claims and plans. */
export const INSURANCE_FACTS: Facts = {
  personas: [
    {
      policy_number: ["HM-204852", "HM-204851"],
      postcode: ["BS1 4DJ"],
      last_name: ["Clarke"],
      policy_type: ["car", "home"],
      incident_type: ["windscreen", "water damage", "storm", "theft"],
      incident_date: ["3 June 2025", "12 February 2025"],
      amount: ["£640", "£120"],
      police_report_number: ["CR/4471/25"],
      claim_id: ["CL-40112", "CL-40187"],
      driver_name: ["Oliver Clarke", "Lily Clarke"],
      driver_date_of_birth: ["1998-04-20", "2006-09-01"],
    },
    {
      policy_number: ["HM-317720"],
      postcode: ["M14 5TP"],
      last_name: ["Patel"],
      policy_type: ["car"],
      incident_type: ["collision", "windscreen", "theft"],
      incident_date: ["2025-06-10", "2025-06-28"],
      amount: ["£2,400", "£280"],
      police_report_number: ["MP-88213"],
      claim_id: ["CL-51230", "CL-51301"],
      driver_name: ["Anita Patel"],
      driver_date_of_birth: ["1995-01-15"],
    },
    {
      policy_number: ["HM-559034"],
      postcode: ["EH3 9QT"],
      last_name: ["Martin"],
      policy_type: ["home"],
      incident_type: ["storm", "theft"],
      incident_date: ["28 May 2025"],
      amount: ["£3,500", "£450"],
      police_report_number: ["PS/20931/25"],
      claim_id: ["CL-62001", "CL-62044"],
      driver_name: ["Jamie Martin"],
      driver_date_of_birth: ["1990-07-07"],
    },
  ],
  requests: [
    "what exactly is a deductible?",
    "how long does a claim usually take?",
    "what are your office hours?",
    "what's happening with claim CL-51301?",
    "can I speak to a person?",
  ],
};
