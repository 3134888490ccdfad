/**
 * Seed data, personas and wording tables for `heldout19`: "Pip", the in-app support chat of Loop, a city
 * bike, e-bike and e-scooter share. Records are copied per session, so writes never leak between sessions.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The bot's "today" (fixed so date rules are deterministic). */
export const TODAY = "2024-06-14";

export type VehicleKind = "bike" | "ebike" | "scooter";

export interface Customer {
  id: string;
  first: string;
  name: string;
  /** Digits only, national format. */
  phone: string;
  code: string;
  /** ISO date. */
  dob: string;
  walletCents: number;
  card: { brand: string; last4: string; expiry: string };
  pass: { type: "day" | "month"; bought: string; expires: string } | null;
  status: "active" | "closed";
}

export interface Ride {
  id: string;
  owner: string;
  date: string;
  kind: VehicleKind;
  minutes: number;
  outOfZone: boolean;
  passApplied: boolean;
  from: string;
  status: "completed" | "disputed";
}

export interface Fine {
  id: string;
  owner: string;
  issued: string;
  cents: number;
  place: string;
  status: "open" | "paid" | "under_appeal";
}

export interface Vehicle {
  code: string;
  kind: VehicleKind;
  status: "available" | "out_of_service";
}

export interface World {
  customers: Customer[];
  rides: Ride[];
  fines: Fine[];
  vehicles: Vehicle[];
}

/** Price list, cents. */
export const PRICES = {
  unlock: 100,
  perMinute: { bike: 15, ebike: 22, scooter: 25 } as Record<VehicleKind, number>,
  outOfZone: 500,
  dayPass: 600,
  monthPass: 2500,
  passCancelFee: 200,
};

export const LIMITS = {
  topUpMin: 500,
  topUpMax: 10000,
  walletCap: 15000,
  disputeDays: 30,
  appealDays: 14,
  passCancelDays: 7,
  codeTries: 3,
  dobTries: 2,
};

export const KIND_LABEL: Record<VehicleKind, string> = {
  bike: "bike",
  ebike: "e-bike",
  scooter: "e-scooter",
};

export function seedWorld(): World {
  return {
    customers: [
      {
        id: "C1",
        first: "Maya",
        name: "Maya Okafor",
        phone: "07700900123",
        code: "482913",
        dob: "1991-03-08",
        walletCents: 1640,
        card: { brand: "Visa", last4: "4242", expiry: "09/26" },
        pass: null,
        status: "active",
      },
      {
        id: "C2",
        first: "Tomasz",
        name: "Tomasz Wren",
        phone: "07700900456",
        code: "615204",
        dob: "1985-11-23",
        walletCents: 6000,
        card: { brand: "Mastercard", last4: "1881", expiry: "02/25" },
        pass: { type: "month", bought: "2024-06-11", expires: "2024-07-11" },
        status: "active",
      },
      {
        id: "C3",
        first: "Lena",
        name: "Lena Ruiz",
        phone: "07700900789",
        code: "307518",
        dob: "2001-07-30",
        walletCents: -350,
        card: { brand: "Visa", last4: "0057", expiry: "05/24" },
        pass: { type: "month", bought: "2024-05-20", expires: "2024-06-19" },
        status: "active",
      },
    ],
    rides: [
      r("R-5101", "C1", "2024-06-12", "scooter", 18, false, false, "Harbour Square"),
      r("R-5102", "C1", "2024-06-10", "ebike", 35, true, false, "Central Station"),
      r("R-5090", "C1", "2024-06-05", "scooter", 12, false, false, "Museum Quarter", "disputed"),
      r("R-4877", "C1", "2024-04-20", "bike", 22, false, false, "Old Market"),
      r("R-6201", "C2", "2024-06-13", "bike", 40, false, true, "Riverside Park"),
      r("R-6188", "C2", "2024-06-02", "scooter", 25, true, false, "University Gate"),
      r("R-7300", "C3", "2024-06-08", "ebike", 15, false, true, "Canal Street"),
    ],
    fines: [
      {
        id: "PF-7731",
        owner: "C1",
        issued: "2024-06-09",
        cents: 2500,
        place: "Canal Street footpath",
        status: "open",
      },
      {
        id: "PF-7402",
        owner: "C1",
        issued: "2024-05-02",
        cents: 2500,
        place: "Tram stop on Elm Road",
        status: "open",
      },
      {
        id: "PF-7610",
        owner: "C1",
        issued: "2024-05-28",
        cents: 1500,
        place: "Library steps",
        status: "paid",
      },
      {
        id: "PF-8120",
        owner: "C2",
        issued: "2024-06-12",
        cents: 2500,
        place: "Bus lane, Hill Street",
        status: "paid",
      },
      {
        id: "PF-8333",
        owner: "C3",
        issued: "2024-06-01",
        cents: 2500,
        place: "Hospital entrance",
        status: "open",
      },
    ],
    vehicles: [
      { code: "SC-4471", kind: "scooter", status: "available" },
      { code: "BK-2290", kind: "bike", status: "available" },
      { code: "EB-3315", kind: "ebike", status: "out_of_service" },
      { code: "SC-1180", kind: "scooter", status: "available" },
    ],
  };
}

function r(
  id: string,
  owner: string,
  date: string,
  kind: VehicleKind,
  minutes: number,
  outOfZone: boolean,
  passApplied: boolean,
  from: string,
  status: Ride["status"] = "completed",
): Ride {
  return { id, owner, date, kind, minutes, outOfZone, passApplied, from, status };
}

/** Dispute reasons (lettered list). */
export const DISPUTE_REASONS: Record<"a" | "b" | "c", string> = {
  a: "the ride wouldn't end and kept charging",
  b: "I was charged the out-of-zone fee but parked in a zone",
  c: "the vehicle was faulty",
};

/** Appeal grounds (numbered list). */
export const APPEAL_GROUNDS = [
  "I was parked inside a marked Loop zone",
  "someone else moved the vehicle after my ride",
  "the app wouldn't let me end the ride where I was",
  "something else (a person will read the details)",
];

/** Damage problems (lettered list). */
export const DAMAGE_PROBLEMS: Record<"a" | "b" | "c" | "d" | "e", string> = {
  a: "brakes",
  b: "flat or damaged tyre",
  c: "battery or won't power on",
  d: "lock or kickstand broken",
  e: "something else",
};

/** Wording tables: every key has 2-3 phrasings; the seed picks one. */
export const W: Record<string, readonly string[]> = {
  greet: [
    "Hey, I'm Pip, Loop's support sidekick. Prices, parking, a ride that went sideways, your wallet or a fine - what's up?",
    "Hi there! Pip here, from Loop bikes & scooters. Tell me what's going on: a ride charge, your pass, a parking fine, or just how things work.",
    "Hello and welcome to Loop support - I'm Pip. I can sort out rides, top-ups, passes, fines and more. Where shall we start?",
  ],
  menu: [
    "Here's what I can do. Anyone: prices, parking zones, ending a ride, age rules, pass prices, support hours. Signed in: your rides and cost breakdowns, disputing a ride charge, wallet balance and top-ups, buying or cancelling a pass, parking fines and appeals, reporting a damaged vehicle, your payment card, closing your account. Or say 'human' for a person.",
    "I can help with the basics (pricing, where to park, how to end a ride, who can ride, passes, when our crew is around) and, once you've signed in, with rides and receipts, ride disputes, your wallet, passes, fines, damage reports, your card or closing the account. A person is always a 'human' away.",
    "Ask me about prices, parking, ending rides, age rules, passes or our hours. After sign-in I can also pull up your rides, dispute a charge, top up your wallet, manage your pass, appeal a fine, log a damaged vehicle, change your card or close your account. Want a person instead? Just say so.",
  ],
  fallback: [
    "Hmm, that one went over my handlebars. Try asking about prices, parking, your rides, wallet, passes, fines, a damaged vehicle or your card - or say 'human'.",
    "Sorry, I didn't follow. I'm good with rides, charges, wallet top-ups, passes, parking fines and damage reports. Say 'menu' for the full list.",
    "I'm not sure what you mean there. Could you put it another way? 'Help' shows everything I can do.",
  ],
  empty: [
    "I didn't catch anything there - what can I help with?",
    "Looks like that came through empty. What do you need?",
  ],
  thanks: [
    "Any time! Anything else I can help with?",
    "Happy to help. Need anything else?",
    "No problem at all. Is there something else?",
  ],
  bye: [
    "Ride safe, and see you around!",
    "Bye for now - mind the tram lines!",
    "Take care, and happy riding.",
  ],
  reprompt: [
    "Sorry, I didn't quite get that.",
    "Hmm, that doesn't look right to me.",
    "Let me ask that again.",
  ],
  nevermind: [
    "No worries, we'll leave it there. What else can I do?",
    "Okay, scrapped. Anything else?",
    "Sure, forget I asked. What's next?",
  ],
  handoff: [
    "Passing you over to our support crew now - a real person will pick this chat up within a few minutes (they're around 7:00-22:00).",
    "Okay, I'm handing you to a human teammate. They'll see everything we've said, so no need to repeat yourself. Hang tight.",
    "Sure thing, connecting you with a person from the Loop crew. Expect a reply here shortly.",
  ],
  info_pricing: [
    "Every ride starts with a €1.00 unlock fee, then it's per minute: bikes €0.15, e-bikes €0.22, e-scooters €0.25. Leave it outside a parking zone and there's a €5.00 out-of-zone fee on top.",
    "Pricing is simple: €1.00 to unlock, then €0.15/min on a bike, €0.22/min on an e-bike and €0.25/min on an e-scooter. Parking outside a Loop zone adds €5.00.",
    "It's €1.00 to unlock plus a per-minute rate (bike €0.15, e-bike €0.22, e-scooter €0.25). The only extra is €5.00 if you end a ride outside a parking zone.",
  ],
  info_parking: [
    "Park inside the purple zones on the map - the app won't let you end a ride elsewhere without the €5.00 out-of-zone fee. Blocking footpaths, tram stops or entrances can also get you a €25 city fine, which you can appeal within 14 days.",
    "Parking zones show up purple in the app. End your ride inside one and you're golden; outside a zone there's a €5.00 fee. Blocking a path or entrance risks a €25 city fine (appealable for 14 days).",
  ],
  info_end_ride: [
    "To end a ride: park inside a purple zone, tap 'End ride', snap a photo of the parked vehicle, and wait for the lock click. If the app hangs, hold the lock lever for 5 seconds - and if it still won't end, tell me and we'll sort the charge.",
    "Ending is easy: be in a parking zone, hit 'End ride', take the parking photo and listen for the lock. App stuck? Hold the lock lever 5 seconds. If you got charged for a ride that wouldn't end, I can dispute it for you.",
    "Pop it in a purple zone, press 'End ride', take the photo, done - the lock clicks shut. If it won't end, hold the lever 5 seconds, and if you got overcharged come back to me.",
  ],
  info_age: [
    "You need to be 16 or older to ride a Loop bike, and 18 or older for e-bikes and e-scooters. We check ID once, when you add your first e-vehicle ride.",
    "Age rules: bikes from 16, e-bikes and e-scooters from 18. A one-time ID check happens before your first electric ride.",
  ],
  info_pass_prices: [
    "Two passes: a Day pass (€6.00, no unlock fees until midnight) and a Month pass (€25.00, no unlock fees for 30 days). A month pass can be cancelled within 7 days for a pro-rata refund minus a €2.00 fee; day passes can't be cancelled.",
    "Passes waive the €1.00 unlock fee. Day pass €6.00 (until midnight), Month pass €25.00 (30 days). Change your mind on a month pass within 7 days and you get the unused days back, less €2.00.",
  ],
  info_hours: [
    "I'm here 24/7. Our human support crew works 7:00-22:00 every day, including holidays.",
    "Chat with me any time. People from our crew are online from 7 in the morning to 10 at night, seven days a week.",
  ],
  info_fines: [
    "If a vehicle is parked badly after your ride, the city can issue a parking fine (usually €25), which we pass on. You can appeal a fine within 14 days of it being issued - sign in and tell me the fine number (PF-...).",
    "Fines come from the city when a vehicle blocks a path, a stop or an entrance. They're usually €25 and you've got 14 days from the issue date to appeal. I can do the appeal for you once you're signed in.",
  ],
  auth_need: [
    "That's account stuff, so let's get you signed in first.",
    "I'll need to know it's you for that one.",
    "Sure - quick sign-in first.",
  ],
  auth_ask_phone: [
    "What's the phone number on your Loop account?",
    "Which mobile number did you sign up to Loop with?",
    "Let's find your account: what phone number do you use with Loop?",
  ],
  auth_phone_unknown: [
    "I can't find a Loop account on {phone}. Mind double-checking the number?",
    "No account comes up for {phone}. Could you try the number again?",
    "Hmm, {phone} isn't registered with us. Which number did you sign up with?",
  ],
  auth_account_closed: [
    "The account on that number has been closed, so there's nothing to sign in to. A person can help if you want it reopened - just say 'human'.",
    "That number belongs to a closed account. If that's a surprise, ask for a human and we'll look into it.",
  ],
  auth_ask_code: [
    "I've just texted a 6-digit one-time code to the number ending {last4}. What does it say?",
    "One-time code on its way to the number ending {last4} - type the 6 digits here when it lands.",
    "Sent! Check your texts (number ending {last4}) for a one-time code and pop it in here.",
  ],
  auth_code_resent: [
    "Fresh one-time code sent to the number ending {last4}. It can take a minute.",
    "I've sent the one-time code again to the number ending {last4}.",
  ],
  auth_code_wrong: [
    "That code doesn't match. You've got {left} more go(es) before I lock sign-in to keep the account safe.",
    "Not quite - that one-time code is wrong. {left} attempt(s) left.",
    "Hmm, the code doesn't match what I sent. Try again ({left} left).",
  ],
  auth_locked: [
    "Too many wrong codes, so I've locked sign-in on this account to keep it safe. I've passed it to our support crew - a human will text you to unlock it.",
    "For safety I've locked sign-in after too many wrong codes. A person from our team has been flagged and will get in touch to sort it out.",
    "Sign-in is now locked on this account (too many failed codes). I've handed this over to a human colleague who'll contact you.",
  ],
  auth_signed_in: ["You're in, {first}!", "Signed in - hi {first}.", "Got it, welcome back {first}."],
  auth_signed_in_menu: [
    "What can I do for you today?",
    "What would you like to sort out?",
    "How can I help?",
  ],
  auth_already: [
    "You're already signed in as {first}. What do you need?",
    "No need - you're signed in, {first}. Go ahead.",
  ],
  auth_signed_out: [
    "Done, you're signed out. Anything general I can help with?",
    "Signed out. Come back any time.",
    "You're logged out now.",
  ],
  auth_ask_dob: [
    "Before I change anything sensitive, one more check: what's your date of birth?",
    "Quick security check first - please confirm your date of birth.",
    "This one needs an extra check. What's the date of birth on the account?",
  ],
  auth_dob_wrong: [
    "That date of birth doesn't match our records. One more try?",
    "Hmm, that's not the date of birth we have. Have another go.",
  ],
  auth_reverify_failed: [
    "I can't verify you for this change from chat, so I'm handing you to a person on our team to finish it safely.",
    "That still doesn't match, so I'll stop here. A human colleague will pick this up with you.",
  ],
  auth_reverified: ["Thanks, that's you.", "Verified, thanks.", "Perfect, checks out."],
  rides_list_head: ["Your recent rides:", "Here's your ride history:", "These are your latest rides:"],
  rides_list_tail: [
    "Send me a ride ID for the full cost breakdown.",
    "Want the breakdown of one? Just give me its ride ID.",
    "Any of these look off? Tell me the ride ID and I'll break it down.",
  ],
  rides_ask: [
    "Which ride? Ride IDs look like R-5101 and they're in your ride history.",
    "Sure - what's the ride ID (R- and four digits)?",
    "Which ride ID should I look at?",
  ],
  rides_not_found: [
    "I can't see a ride {id} anywhere. Could you check the ID?",
    "No ride with the ID {id} comes up. Try again?",
  ],
  rides_not_yours: [
    "Ride {id} isn't on your account, so I can't open it for you.",
    "Sorry, {id} belongs to a different rider - I can only show your own rides.",
    "That ride ({id}) isn't yours, I'm afraid, so its details stay private.",
  ],
  rides_breakdown_head: [
    "Here's how ride {id} ({date}, {kind} from {from}, {minutes} min) adds up:",
    "Breakdown for {id} - {kind}, {date}, {minutes} minutes from {from}:",
    "Ride {id} on {date} ({kind}, {minutes} min, started at {from}):",
  ],
  dispute_ask_ride: [
    "Sorry that ride gave you grief. Which ride ID are we disputing?",
    "Let's get that looked at. What's the ride ID (like R-5101)?",
    "I can raise a dispute. Which ride was it - what's the ride ID?",
  ],
  dispute_not_found: [
    "I can't find a ride {id}. What's the right ride ID?",
    "No ride called {id} here. Could you check the ride ID?",
  ],
  dispute_not_yours: [
    "Ride {id} isn't on your account, so I can't dispute it for you.",
    "That ride ({id}) belongs to another rider - only they can dispute it.",
  ],
  dispute_too_old: [
    "Rides can only be disputed within 30 days, and {id} was on {date}, so it's outside the window. A human can still take a look if you ask.",
    "Sorry, {id} ({date}) is more than 30 days old - too late to dispute through me.",
  ],
  dispute_already: [
    "{id} already has a dispute open - our team is on it, no need to file another.",
    "There's already a dispute running for {id}. You'll hear back on that one.",
  ],
  dispute_ask_reason: [
    "What went wrong with {id}? a) {a}; b) {b}; c) {c}. Reply a, b or c.",
    "Pick the closest one for {id}: (a) {a}, (b) {b}, (c) {c}.",
    "Got {id}. Which fits best - a: {a}, b: {b}, or c: {c}?",
  ],
  dispute_ask_minutes: [
    "We billed {minutes} minutes. Roughly how many minutes did you actually ride before it should have ended?",
    "How many minutes did you actually ride? (The ride ran for {minutes} on our side.)",
    "It was charged as {minutes} minutes - about how many minutes did you actually ride?",
  ],
  dispute_bad_minutes: [
    "That has to be between 1 and {max} minutes (the ride was billed at {minutes}). How many minutes did you actually ride?",
    "Hmm, that doesn't work - it needs to be less than the {minutes} billed minutes. How long did you actually ride?",
  ],
  dispute_no_zone_fee: [
    "Ride {id} didn't have an out-of-zone fee on it, so there's nothing to refund there.",
    "No out-of-zone fee was charged on {id}, so that reason doesn't apply.",
  ],
  dispute_confirm_minutes: [
    "So: ride {id}, billed {minutes} min, you rode {actual}. That's {refund} back into your Loop wallet. Shall I file it?",
    "Here's the claim: {id}, {actual} of the {minutes} billed minutes were real, so I'd credit {refund} to your wallet. File it - yes or no?",
    "Ride {id}: you rode {actual} min, we charged {minutes}. Refund of {refund} to your wallet. Go ahead?",
  ],
  dispute_confirm_flat: [
    "Dispute for {id} because {reason}: I'd credit {refund} to your Loop wallet. Shall I file it?",
    "Here's the claim: {id} - {reason}. Refund {refund} to your wallet. Yes or no?",
    "Ride {id}, reason: {reason}. That's {refund} back to your wallet. Go ahead?",
  ],
  dispute_done: [
    "Filed! {refund} is back in your wallet. Your dispute reference is {ref}.",
    "Done - dispute {ref} is in and {refund} has been credited to your wallet.",
    "All sorted: {refund} credited, reference {ref}. Sorry again about that ride.",
  ],
  dispute_cancelled: [
    "Okay, I haven't filed anything. The ride charge stays as it is.",
    "No dispute filed. Shout if you change your mind.",
  ],
  wallet_balance: [
    "Your Loop wallet has {balance} in it.",
    "Wallet balance: {balance}.",
    "You've got {balance} in your wallet right now.",
  ],
  wallet_negative: [
    "It's below zero, so please top up before your next ride.",
    "That's negative - a top-up will get you rolling again.",
  ],
  topup_ask: [
    "How much would you like to add? Anything from €5 to €100 per top-up.",
    "Sure, what top-up amount? (€5 minimum, €100 maximum.)",
    "How much should I top up? It can be between €5 and €100.",
  ],
  topup_too_small: [
    "The smallest top-up is €5.00. How much would you like to add?",
    "Top-ups start at €5.00 - could you pick a bigger amount?",
  ],
  topup_over_limit: [
    "That's over the €100.00 limit per top-up. Try a smaller amount?",
    "Top-ups are capped at €100.00 each. What amount would you like instead?",
    "I can only add up to €100.00 in one go. How much instead?",
  ],
  topup_cap: [
    "That would take your wallet to {after}, and wallets max out at €150.00. A smaller amount?",
    "Wallets are capped at €150.00 and that would make it {after}. How much instead?",
  ],
  topup_card_expired: [
    "Your card on file (ending {last4}) expired in {expiry}, so I can't charge it. Update your card first and then top up.",
    "The card ending {last4} ran out in {expiry}. Let's change your card before topping up - just say 'change my card'.",
  ],
  topup_confirm: [
    "{amount} from your {brand} ending {last4}, taking your wallet to {after}. Go ahead?",
    "Top up {amount} on the card ending {last4}? New balance would be {after}. Yes or no?",
    "So that's {amount} charged to the card ending {last4}, balance becomes {after}. Shall I?",
  ],
  topup_done: [
    "Done! {amount} added, your wallet is now {after}. Receipt {ref}.",
    "Topped up {amount}. New balance {after} (receipt {ref}).",
    "All set: {amount} in, balance {after}. Reference {ref}.",
  ],
  topup_cancelled: ["No top-up then - nothing was charged.", "Okay, I've left your wallet alone."],
  pass_status_active: [
    "You've got a {type} pass, bought {bought}, valid until the end of {expires}.",
    "Active pass: {type} pass (from {bought}, runs through {expires}).",
  ],
  pass_status_none: [
    "You don't have an active pass right now. Want to buy one?",
    "No active pass on your account. I can get you a day or month pass if you like.",
  ],
  pass_choose: [
    "Which pass? 1) Day pass - €6.00, no unlock fees until midnight. 2) Month pass - €25.00, no unlock fees for 30 days. Reply 1 or 2.",
    "Pick one: (1) Day pass €6.00 or (2) Month pass €25.00. Both come out of your wallet.",
    "We've got two: 1 = Day pass (€6.00), 2 = Month pass (€25.00). Which number?",
  ],
  pass_insufficient: [
    "A {type} pass is {price} and your wallet has {balance}, so that's not enough. Top up first and try again.",
    "Not enough in the wallet for that one - the {type} pass costs {price} and you've got {balance}.",
  ],
  pass_already: [
    "You already have an active {type} pass (valid through {expires}), so there's no need for another.",
    "There's already a {type} pass running on your account until {expires}.",
  ],
  pass_confirm: [
    "{Type} pass for {price} from your wallet (leaving {after}), valid through {expires}. Shall I buy it?",
    "That's the {type} pass: {price}, paid from your wallet, good until {expires}. New balance {after}. Go ahead?",
    "Buying a {type} pass for {price} - wallet goes to {after}, pass runs until {expires}. Yes or no?",
  ],
  pass_done: [
    "Your {type} pass is live until {expires}. Reference {ref}. Enjoy the free unlocks!",
    "Bought! {Type} pass active through {expires} (ref {ref}).",
    "Done - {type} pass running until {expires}. Reference: {ref}.",
  ],
  pass_cancelled: ["Okay, no pass bought.", "No problem, I haven't bought anything."],
  pcancel_none: [
    "You don't have an active pass to cancel.",
    "There's no pass running on your account, so nothing to cancel.",
  ],
  pcancel_day: [
    "Day passes can't be cancelled or refunded, sorry - yours runs out at midnight.",
    "I can't cancel a day pass; it simply ends at midnight.",
  ],
  pcancel_window: [
    "Month passes can only be cancelled within 7 days of buying, and yours was bought on {bought}. It'll keep working until {expires}.",
    "Sorry, the 7-day cancellation window has passed (you bought it on {bought}). It stays active through {expires}.",
  ],
  pcancel_confirm: [
    "You've used {used} day(s), so you'd get {refund} back into your wallet ({fee} cancellation fee included). If you're sure, type CANCEL PASS.",
    "Cancelling now refunds {refund} to your wallet (unused days minus the {fee} fee; {used} day(s) used). To confirm, type the words CANCEL PASS.",
    "Refund would be {refund} ({used} day(s) used, {fee} fee taken off). Type CANCEL PASS to go ahead.",
  ],
  pcancel_phrase_again: [
    "To be safe I need the exact words CANCEL PASS (or say 'keep it').",
    "Please type CANCEL PASS to confirm - or tell me to keep it.",
  ],
  pcancel_done: [
    "Your month pass is cancelled and {refund} is back in your wallet. Reference {ref}.",
    "Cancelled. {refund} refunded to your wallet (ref {ref}).",
  ],
  pcancel_kept: ["Okay, your pass stays as it is.", "No changes - your pass keeps running."],
  fines_list_head: ["Your parking fines:", "Here are the fines on your account:", "Fines on file:"],
  fines_list_tail: [
    "To appeal one, tell me its fine number.",
    "Want to appeal any of them? Give me the fine number.",
  ],
  fines_none: ["Good news - no parking fines on your account.", "Your record's clean: no fines."],
  fines_ask: [
    "Which fine? The fine number starts with PF- (it's in the email we sent).",
    "Sure - what's the fine number (PF-xxxx)?",
    "What's the fine number you'd like to appeal?",
  ],
  fines_not_found: [
    "I can't find fine {id}. What's the fine number?",
    "No fine {id} on our side - could you check the fine number?",
  ],
  fines_not_yours: [
    "Fine {id} isn't on your account, so I can't appeal it for you.",
    "That fine ({id}) was issued to someone else - only they can appeal it.",
  ],
  fines_not_open: [
    "Fine {id} is already paid, so it can't be appealed any more.",
    "{id} has been paid and closed - appeals are only possible on open fines.",
  ],
  fines_already: [
    "{id} is already under appeal. We'll let you know the outcome.",
    "There's an appeal running on {id} already - no need to send another.",
  ],
  fines_deadline: [
    "Appeals have to come in within 14 days of the fine, and {id} was issued on {issued} - the deadline was {deadline}, so I can't open one.",
    "Sorry, the 14-day appeal window for {id} closed on {deadline} (it was issued {issued}).",
  ],
  fines_ask_grounds: [
    "On what grounds? 1) {g1}; 2) {g2}; 3) {g3}; 4) {g4}. Reply with the number.",
    "Pick the reason that fits: (1) {g1}, (2) {g2}, (3) {g3}, (4) {g4}.",
    "Why should {id} be cancelled? 1 - {g1}. 2 - {g2}. 3 - {g3}. 4 - {g4}.",
  ],
  fines_confirm: [
    "Appeal {id} ({amount}, {place}) because {ground}. The fine is frozen while we review. Submit it?",
    "Here's your appeal: {id} for {amount} - reason: {ground}. Send it off?",
    "{id}, {amount}: appealing on the grounds that {ground}. Shall I submit?",
  ],
  fines_done: [
    "Appeal submitted - reference {ref}. {id} is on hold until we reply, usually within 10 days.",
    "Sent! Your appeal reference is {ref}; {id} won't be charged while it's reviewed.",
  ],
  fines_cancelled: ["Okay, no appeal sent. The fine stays as it is.", "Fine, I won't submit anything."],
  damage_ask_vehicle: [
    "Thanks for flagging it! What's the vehicle code? It's on the handlebar, like SC-4471.",
    "Which vehicle is it? The vehicle code is printed by the QR sticker (e.g. BK-2290).",
    "Let's get it off the street. What's the code on the vehicle?",
  ],
  damage_unknown: [
    "I don't recognise {code} as one of our vehicles. Could you check the vehicle code?",
    "{code} doesn't match any Loop vehicle. What does the code on it say?",
  ],
  damage_already: [
    "{code} is already out of service and a mechanic is booked - thanks for checking!",
    "We've already pulled {code} from service. Thanks anyway!",
  ],
  damage_ask_safety: [
    "First things first: is anyone hurt, or is it blocking a road or tram line?",
    "Is anyone injured, or is the vehicle causing a hazard on the road?",
    "Before anything else - any injuries, or is it in the way of traffic?",
  ],
  damage_urgent: [
    "I've marked {code} as urgent and I'm putting you through to a person right now. If someone is hurt, call 112 first.",
    "That's a priority. {code} is flagged urgent and a human from our crew is joining now. Please call 112 if anyone needs help.",
  ],
  damage_ask_problem: [
    "What's wrong with {code}? a) {a}, b) {b}, c) {c}, d) {d}, e) {e}.",
    "Which best describes it: (a) {a}, (b) {b}, (c) {c}, (d) {d}, (e) {e}?",
    "Tell me the problem with {code} - a: {a}; b: {b}; c: {c}; d: {d}; e: {e}.",
  ],
  damage_confirm: [
    "I'll lock {code} remotely and log '{problem}' for the mechanics. Sound right?",
    "So {code}: {problem}. Shall I take it out of service?",
    "Logging {code} with '{problem}' and pulling it from the map - okay?",
  ],
  damage_done: [
    "Thanks! {code} is out of service and the report is in as {ref}.",
    "Reported - {code} is locked and off the map. Reference {ref}.",
  ],
  damage_cancelled: ["Okay, I haven't logged anything.", "Alright, no report filed."],
  card_on_file: [
    "Your card on file is a {brand} ending {last4}, expiring {expiry}.",
    "We charge the {brand} ending {last4} (expiry {expiry}).",
  ],
  card_ask_number: [
    "What's the new card number?",
    "Go ahead and type the new card number - I'll only keep the last four digits visible.",
    "Which card should we use? Send me the new card number.",
  ],
  card_invalid: [
    "That card number doesn't look valid - could you check the digits?",
    "Hmm, that number fails the card check. Mind typing the card number again?",
  ],
  card_ask_expiry: [
    "Got it. And the expiry date on the card (MM/YY)?",
    "What's the card expiry date? Month and year, like 08/27.",
  ],
  card_expired: [
    "That card has already expired ({expiry}). Grab a current card and we'll start again.",
    "An expiry of {expiry} is in the past, so that card won't work. Try again with a valid card.",
  ],
  card_reenter: [
    "Last step: type the last four digits of the new card again so I know it's right.",
    "To confirm, please re-enter the card's last four digits.",
    "Nearly done - what are the last four digits of the new card?",
  ],
  card_mismatch: [
    "Those don't match the number you gave me. Please re-enter the last four digits.",
    "Hmm, that's different from the card number above. Type the last four digits again?",
  ],
  card_done: [
    "Your new {brand} ending {last4} (exp {expiry}) is now on file. Reference {ref}.",
    "Card updated: {brand} ending {last4}, expires {expiry}. Ref {ref}.",
  ],
  card_cancelled: ["Okay, I left your card as it was.", "No change made to your payment card."],
  close_open_fines: [
    "I can't close the account while fine(s) {ids} are still open or under appeal. Once they're settled we can do it.",
    "There are unresolved fines on the account ({ids}), so it has to stay open for now.",
  ],
  close_negative: [
    "Your wallet is at {balance}, so that needs clearing before I can close the account.",
    "The account still owes {owed}. Top up to at least zero and then I can close it.",
  ],
  close_confirm: [
    "Closing is permanent. Your {balance} balance goes back to the card ending {last4}{passnote}. If you're certain, type CLOSE MY ACCOUNT.",
    "This can't be undone: we refund {balance} to the card ending {last4}{passnote}, then delete your rider profile. To go ahead, type CLOSE MY ACCOUNT.",
  ],
  close_passnote: [" and your {type} pass ends with it", " (your {type} pass won't be refunded)"],
  close_phrase_again: [
    "I need the exact words CLOSE MY ACCOUNT to do this - or say 'keep it'.",
    "To confirm, please type CLOSE MY ACCOUNT. Say 'no' to keep it.",
  ],
  close_done: [
    "Your account is closed and {balance} is on its way to the card ending {last4}. Reference {ref}. Thanks for riding with Loop.",
    "Done. Account closed, {balance} refunded to the card ending {last4}, reference {ref}. Sorry to see you go!",
  ],
  close_cancelled: ["Phew - your account stays open.", "Okay, nothing's been closed."],
};

/** What a tester knows before starting. */
export const FACTS: Facts = {
  personas: [
    {
      phone_number: ["07700 900123"],
      one_time_code: ["482913"],
      date_of_birth: ["1991-03-08"],
      ride_id: ["R-5101", "R-5102", "R-5090", "R-4877", "R-6201"],
      actual_minutes: ["10", "45"],
      top_up_amount: ["20", "250"],
      pass_type: ["day", "month"],
      fine_number: ["PF-7731", "PF-7402", "PF-7610", "PF-8333"],
      vehicle_code: ["SC-4471", "EB-3315", "SC-0000"],
      new_card_number: ["4111 1111 1111 1111", "4111 1111 1111 1112"],
      card_expiry: ["08/27", "03/24"],
    },
    {
      phone_number: ["07700 900456"],
      one_time_code: ["615204"],
      date_of_birth: ["1985-11-23"],
      ride_id: ["R-6201", "R-6188", "R-5101"],
      actual_minutes: ["15"],
      top_up_amount: ["50", "100"],
      pass_type: ["month", "day"],
      fine_number: ["PF-8120", "PF-7731"],
      vehicle_code: ["BK-2290", "SC-1180"],
      new_card_number: ["5555 5555 5555 4444"],
      card_expiry: ["11/26"],
    },
    {
      phone_number: ["07700 900789"],
      one_time_code: ["307518"],
      date_of_birth: ["2001-07-30"],
      ride_id: ["R-7300", "R-5102"],
      top_up_amount: ["10"],
      pass_type: ["day"],
      fine_number: ["PF-8333", "PF-8120"],
      vehicle_code: ["SC-1180"],
      new_card_number: ["4111 1111 1111 1111"],
      card_expiry: ["12/26"],
    },
  ],
  requests: [
    "I got charged for a scooter ride that wouldn't end",
    "Can I appeal a parking fine?",
    "Top up my wallet please",
    "I want to cancel my month pass and get a refund",
    "How much does an e-scooter cost per minute?",
    "There's a scooter with broken brakes outside my house",
    "I need to change the card I pay with",
    "Please close my account",
    "Show me the cost breakdown of my last ride",
  ],
};
