/**
 * Data and language for the held-out home-energy assistant (`heldout3.ts`): the fixed clock, policy limits,
 * customer records, tariffs, the reply-template table (three or more paraphrases per entry), the tester's
 * facts, and the keyword/regex understanding and formatting helpers.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The seeded faults and what each does (all off in the clean agent). */
export const FAULT_DOCS: Readonly<Record<string, string>> = {
  address_unchecked: "identity check accepts any postcode or address line",
  otp_unchecked: "any six-digit texted code is accepted for payment changes",
  otp_no_lockout: "wrong texted codes never lock payment changes",
  reading_low_unchecked: "a meter reading below the last one is accepted",
  reading_high_unchecked: "an implausibly high meter reading is accepted",
  switch_prepay_unchecked: "a prepayment customer is offered and given a tariff switch",
  payment_min_unchecked: "a monthly payment below the minimum is accepted",
  payment_day_unchecked: "a collection day outside 1–28 is accepted",
  move_far_unchecked: "a move date beyond the window is accepted",
  switch_terms_skipped: "the tariff terms step of the switch is skipped (no quote, no acceptance)",
  move_confirm_skipped: "the move is registered without the yes/no confirmation",
  fee_unclear_yes: "an unclear answer to the exit-fee question is taken as yes",
  payment_correction_forgotten: "a correction at the read-back is shown but the original values are saved",
  bill_other_leak: "another customer's bill is shown when their account number is given",
  quote_wrong_figure: "the tariff quote leaves out the standing charges",
  move_summary_wrong_date: "the move summary shows the day after the real move date",
  payment_done_wrong_amount: "the completion message states £10 more than was saved",
};

/** The assistant's clock: Monday 2 June 2025 (fixed so sessions are reproducible). */
export const TODAY = Date.UTC(2025, 5, 2);
/** One day in ms. */
export const DAY = 86_400_000;
/** Next working day, when call backs are booked. */
export const CALLBACK_DAY = TODAY + DAY;
/** A tariff switch starts this many days after it is agreed. */
export const SWITCH_LEAD_DAYS = 14;
/** Policy limits the assistant states in its replies. */
export const LIMITS = { payMin: 20, payMax: 400, dayMin: 1, dayMax: 28, moveWindow: 60, tries: 3 } as const;

/** A fuel the supplier provides. */
export type Fuel = "electricity" | "gas";
/** One meter: the last reading held and how far it can plausibly rise before the next one. */
export interface Meter {
  last: number;
  lastDate: string;
  maxRise: number;
  annualKwh: number;
}
/** One line of a bill, with the words a customer might use for it. */
export interface BillLine {
  label: string;
  amount: number;
  words: readonly string[];
  note: string;
}
/** A customer record. */
export interface Customer {
  account: string;
  name: string;
  postcode: string;
  line1: string;
  phone: string;
  code: string;
  prepay: boolean;
  smart: boolean;
  tariff: string;
  fixedEnds?: string;
  freeFrom?: string;
  exitFeePerFuel: number;
  meters: Partial<Record<Fuel, Meter>>;
  dd?: { amount: number; day: number };
  bill: { period: string; estimated: boolean; lines: readonly BillLine[] };
}
/** A tariff: unit rate (pence/kWh) and standing charge (pence/day) per fuel. */
export interface Tariff {
  name: string;
  blurb: string;
  terms: string;
  smartOnly: boolean;
  rates: Record<Fuel, { unit: number; standing: number }>;
}

const rates = (eu: number, es: number, gu: number, gs: number) => ({
  electricity: { unit: eu, standing: es },
  gas: { unit: gu, standing: gs },
});
/** The tariffs on offer, in the order they are listed. */
export const TARIFFS: readonly Tariff[] = [
  {
    name: "Flex Variable",
    blurb: "no fixed term",
    terms: "no fixed term and no exit fees; prices follow the price cap",
    smartOnly: false,
    rates: rates(24.5, 53.35, 6.24, 31.65),
  },
  {
    name: "Fixed Saver 24",
    blurb: "prices fixed for 24 months",
    terms: "prices fixed for 24 months, with a £37.50 exit fee per fuel if you leave early",
    smartOnly: false,
    rates: rates(22.1, 48.2, 5.8, 29.1),
  },
  {
    name: "Green Fix 12",
    blurb: "fixed for 12 months, 100% renewable electricity",
    terms: "prices fixed for 12 months and 100% renewable electricity, with a £25 exit fee per fuel",
    smartOnly: false,
    rates: rates(23.4, 50, 6.05, 30),
  },
  {
    name: "EV Night Saver",
    blurb: "cheap overnight electricity, smart meter needed",
    terms:
      "cheaper electricity from midnight to 5am, fixed for 12 months, no exit fees (gas stays on Flex rates)",
    smartOnly: true,
    rates: rates(19.8, 55, 6.24, 31.65),
  },
];

const fuelWord = (fuel: Fuel) => (fuel === "gas" ? "gas" : "electric");
const usage = (fuel: Fuel, kwh: number, pence: number, amount: number): BillLine => ({
  label: `${fuel} usage`,
  amount,
  words: [fuelWord(fuel), "usage", "unit", "kwh", "used"],
  note: `That's ${kwh} kWh at ${pence}p per kWh.`,
});
const standing = (fuel: Fuel, pence: number, amount: number): BillLine => ({
  label: `${fuel} standing charge`,
  amount,
  words: [fuelWord(fuel), "standing", "daily"],
  note: `30 days at ${pence}p a day: the fixed daily amount for staying connected, charged even on days you use nothing.`,
});
const vat = (amount: number): BillLine => ({
  label: "VAT",
  amount,
  words: ["vat", "tax"],
  note: "Domestic energy carries VAT at the reduced rate of 5%.",
});
const meter = (last: number, lastDate: string, maxRise: number, annualKwh: number): Meter => ({
  last,
  lastDate,
  maxRise,
  annualKwh,
});
const APRIL = "1 to 30 April 2025";
const base = { prepay: false, smart: false, tariff: "Flex Variable", exitFeePerFuel: 0 };

/** Customer records by account number (the first three are the tester's personas). */
export const CUSTOMERS: Readonly<Record<string, Customer>> = {
  EN40217: {
    ...base,
    account: "EN40217",
    name: "Priya Shah",
    postcode: "LS6 2QT",
    line1: "14 Brudenell Grove",
    phone: "07700900418",
    code: "482913",
    smart: true,
    tariff: "Fixed Saver 24",
    fixedEnds: "30 November 2025",
    freeFrom: "12 October 2025",
    exitFeePerFuel: 37.5,
    meters: {
      electricity: meter(18452, "3 May 2025", 2500, 2900),
      gas: meter(7310, "3 May 2025", 1500, 11500),
    },
    dd: { amount: 95, day: 12 },
    bill: {
      period: APRIL,
      estimated: true,
      lines: [
        usage("electricity", 240, 22.1, 53.04),
        standing("electricity", 48.2, 14.46),
        usage("gas", 950, 5.8, 55.1),
        standing("gas", 29.1, 8.73),
        {
          label: "dual fuel discount",
          amount: -5,
          words: ["discount", "dual"],
          note: "£5 off a month for both fuels.",
        },
        vat(6.32),
      ],
    },
  },
  EN52904: {
    ...base,
    account: "EN52904",
    name: "Tom Okafor",
    postcode: "M14 5RB",
    line1: "Flat 2, 88 Wilmslow Road",
    phone: "07700900731",
    code: "615280",
    meters: { electricity: meter(33175, "28 April 2025", 2500, 3400) },
    bill: {
      period: APRIL,
      estimated: false,
      lines: [
        usage("electricity", 290, 24.5, 71.05),
        standing("electricity", 53.35, 16.01),
        {
          label: "late payment fee",
          amount: 12,
          words: ["late", "fee", "penalty"],
          note: "Your March bill was paid 16 days after its due date, so the fee was added.",
        },
        vat(4.35),
      ],
    },
  },
  EN61138: {
    ...base,
    account: "EN61138",
    name: "Gwen Harris",
    postcode: "CF24 3DN",
    line1: "27 Moira Terrace",
    phone: "07700900265",
    code: "907154",
    prepay: true,
    meters: {
      electricity: meter(9021, "20 May 2025", 2000, 2100),
      gas: meter(3310, "20 May 2025", 1200, 8000),
    },
    bill: {
      period: APRIL,
      estimated: false,
      lines: [
        usage("electricity", 170, 24.5, 41.65),
        standing("electricity", 53.35, 16.01),
        usage("gas", 610, 6.24, 38.06),
        standing("gas", 31.65, 9.5),
        vat(5.26),
      ],
    },
  },
  EN40233: {
    ...base,
    account: "EN40233",
    name: "Mark Bellamy",
    postcode: "LS6 2QT",
    line1: "16 Brudenell Grove",
    phone: "07700900552",
    code: "330981",
    meters: {
      electricity: meter(25510, "2 May 2025", 2500, 3600),
      gas: meter(11904, "2 May 2025", 1500, 9800),
    },
    dd: { amount: 140, day: 1 },
    bill: {
      period: APRIL,
      estimated: false,
      lines: [
        usage("electricity", 310, 24.5, 75.95),
        standing("electricity", 53.35, 16.01),
        usage("gas", 780, 6.24, 48.67),
        standing("gas", 31.65, 9.5),
        vat(7.51),
      ],
    },
  },
};

/**
 * Reply templates, one row per key: `key | paraphrase | paraphrase | …`. Keys `area.name` are designed dialogue
 * states; `x.*` keys are reply pieces (not states). `{name}` is filled from the reply's values.
 */
const TEMPLATE_TABLE = `
general.menu | I can help with: submitting a meter reading, switching tariff, setting up or changing a direct debit, telling us you're moving home, questions about a bill, or booking a call back. What would you like to do? | Here's what I can do for you — take a meter reading; move you to another tariff; set up or adjust your monthly direct debit; register a home move; go through your latest bill; arrange for someone to ring you. Which one? | Hello! You can ask me to (1) take a meter reading, (2) switch your tariff, (3) sort out your payment plan or direct debit, (4) record a move, (5) explain a bill or charge, or (6) book a call back.
general.fallback | Sorry, I didn't quite follow that. I can take meter readings, switch tariffs, manage direct debits, handle home moves, explain bills or book a call back. | I'm not sure what you mean. Could you put it another way — for example 'I want to submit a meter reading' or 'I'm moving house'? | That one's beyond me, I'm afraid. Try asking about your bill, a tariff switch, your direct debit, a meter reading, moving home or a call back.
general.cancelled | No problem, I've stopped there and nothing has been changed. | OK, I've dropped that request. Your account is exactly as it was. | Cancelled — we can pick it up again whenever you like.
general.goodbye | Thanks for getting in touch. Have a good day! | You're welcome — goodbye for now. | Glad I could help. Take care.
general.locked | For security I can't open any account in this chat now, because the identity check failed too many times. Please call us on 0330 088 4410. | This conversation is locked for account services after too many failed security attempts. Our phone team on 0330 088 4410 can verify you another way. | Account services are blocked for the rest of this chat, as the security check failed three times. General questions are still fine, or ring 0330 088 4410.
auth.ask_account | First I need to find your account. What's your account number? It starts with EN and is printed at the top of your bill. | Could you give me your account number, please? You'll find it on any bill — EN followed by five digits. | Let's check it's you. Please type your energy account number (EN and five digits).
auth.account_not_found | I can't find an account with the number {account}. Please check it and try again. | Hmm, {account} doesn't match any of our accounts. Could you double-check the number on your bill? | There's no account {account} on our system. What's the account number again?
auth.ask_address | Thanks. To confirm it's your account, what's the postcode or the first line of the supply address? | Found it. Now for security: please tell me either the first line of the address we supply, or its postcode. | And the address we supply energy to? The postcode will do, or the first line of the address.
auth.address_mismatch | That doesn't match what we hold for this account. You have {left} more {tries} — what's the postcode or first line of the address? | Sorry, those details don't match our records. Please try again ({left} {tries} left). | I couldn't match that to the account. Have another go; {left} {tries} remaining before I have to stop.
auth.locked | That's three unsuccessful attempts, so I've locked account access for this chat to protect you. Please call 0330 088 4410 to get back in. | I'm sorry, the details didn't match three times. For your security I can't go any further with account questions here; our team on 0330 088 4410 can help. | Security check failed too many times — account services are now locked for this session. Ring us on 0330 088 4410 and we'll verify you by phone.
auth.verified | Thanks {first}, you're verified. | Great, that matches. Hello {first}! | All checked, {first} — thank you.
otp.ask_code | Because this changes how you pay, I've sent a 6-digit code by text to your phone ending {phone4}. Please type it here. | One more security step for payment changes: a one-time code has just been texted to the mobile ending {phone4}. What is it? | Please enter the six-digit code we've sent by SMS to the number ending {phone4} — it confirms the change is really you.
otp.wrong_code | That code isn't right. You have {left} more {times} before payment changes are blocked. | Sorry, that doesn't match the code we sent. {left} {times} left — please check the text and try again. | Incorrect code. Have another look at the message sent to the number ending {phone4}; {left} {times} to go.
otp.locked | The code was wrong three times, so I've blocked payment changes for the rest of this chat. Nothing has been changed; you can call 0330 088 4410 to do it by phone. | Too many incorrect codes. For security, payment and direct debit changes are now locked in this session and your details stay as they were. | I can't accept any more codes this session, so payment changes are blocked for now. Please ring 0330 088 4410 if you still need to make one.
reading.ask_meter | Which meter is the reading for — electricity or gas? | You have two meters with us. Is this the gas one or the electricity one? | Is the reading from your electricity meter, or from your gas meter?
reading.wrong_meter | We only supply electricity to your home, so I can only take an electricity reading. What does that meter show? | There's no gas meter on your account with us, just electricity. Please give me the electricity reading instead. | Your account has an electricity meter only. What's the reading on it?
reading.ask_value | What's the {fuel} reading? Just the numbers shown, leaving out anything after a decimal point. | Please type the {fuel} meter reading — whole numbers only, read from left to right. | Go ahead with the {fuel} reading. Our last one was taken on {lastDate}.
reading.invalid_value | I need the reading as a number, for example 12345. What does the {fuel} meter show? | That doesn't look like a meter reading. Please send just the digits on the display. | Sorry, I couldn't pick a reading out of that. Could you type the digits only?
reading.refused_low | I can't accept {value}: it's lower than the last {fuel} reading we have, {last} on {lastDate}. Meters only go up, so please check it again. | That reading ({value}) is below our previous one of {last}, taken {lastDate}, so it can't be submitted. Could you take another look at the meter? | Hmm — {value} is less than {last}, the {fuel} reading we already hold from {lastDate}. I'm unable to submit a reading that goes backwards.
reading.refused_high | {value} looks far too high: it would mean more than {rise} units since {lastDate}, when the meter read {last}. Please check for an extra digit and try again. | I can't submit {value}. Compared with the last reading of {last} that's an implausible jump, well beyond the {rise} units we'd expect at most. | That's a much bigger increase than we'd ever expect (the last reading was {last} on {lastDate}, and over {rise} units since then isn't plausible), so I haven't sent it.
reading.refused_duplicate | You've already given us a {fuel} reading today ({value}). We can only take one per meter per day. | A {fuel} reading of {value} was submitted earlier in this chat, so I can't add another today. | There's already a {fuel} reading for today on your account — {value}, from a moment ago. Another one will have to wait until tomorrow.
reading.done | Thanks, your {fuel} reading of {value} is in. Your next bill will be based on it instead of an estimate. | Done: {value} has been recorded for your {fuel} meter, dated today. | I've submitted {value} as today's {fuel} reading, so your next bill will use actual figures.
switch.refused_prepay | I'm sorry, you have a prepayment meter, and the tariffs I can switch you to here are for credit meters only. Our team on 0330 088 4410 can talk you through prepayment options. | Tariff switches in this chat aren't available for prepayment meters like yours. You could ask about changing your meter, or ring 0330 088 4410. | Because your home is on a prepayment meter, I can't move you to a different tariff online.
switch.list_tariffs | You're currently on {current}. You can switch to: {options}. Which would you like? | Here are the tariffs open to you: {options}. (Right now you're on {current}.) Which one? | Your present tariff is {current}. The alternatives are {options} — just tell me the name.
switch.refused_ineligible | {tariff} needs a smart meter, and your home doesn't have one yet, so I can't switch you to it. You could pick {options} instead. | Sorry, that tariff is only for homes with a smart meter. The others available to you are {options}. | You'd need a smart meter for {tariff}. Would one of these suit you instead: {options}?
switch.already_on | You're already on {tariff}, so there's nothing to switch. Would you like {options} instead? | {tariff} is the tariff you have now. The ones you could move to are {options}. | No change needed: your account is on {tariff} already. Other choices: {options}.
switch.confirm_terms | On {tariff} we estimate you'd pay about {annual} a year ({terms}). Do you accept these terms? | Here's the quote: {tariff} at roughly {annual} a year based on your usage. Terms: {terms}. Are you happy to accept them? | {tariff} would cost you around {annual} per year — {terms}. Shall I take the terms as accepted?
switch.confirm_fee | One more thing: you're still in your {current} fixed term until {ends}, so leaving now means an exit fee of {fee}. Do you want to go ahead and pay it? | Your {current} contract runs until {ends}. Switching early costs {fee} in exit fees — shall I go ahead? | Before I switch you: an early exit fee of {fee} applies because {current} doesn't end until {ends}. Are you OK with that charge?
switch.refused_fixed_term | Understood. Without accepting the exit fee I can't switch you while your fixed term runs; you can switch free of charge from {free}. | OK, I won't switch you. You're on a fixed deal until {ends}, and from {free} you can move without any fee. | No switch then. During the fixed term a change is only possible with the exit fee — from {free} it's free.
switch.done | All done: you'll move to {tariff} on {start}.{feeNote} We'll email you the details. | Your switch to {tariff} is confirmed and starts {start}.{feeNote} | That's sorted — {tariff} from {start}.{feeNote}
payment.refused_prepay | You pay as you go on a prepayment meter, so there's no direct debit or payment plan to set up on this account. | Payment plans and direct debits are for credit meters. Your account uses prepayment, so I can't set one up. | I'm afraid that isn't possible: with a prepayment meter you top up in advance, and direct debits don't apply.
payment.ask_choice | Your direct debit is currently {amount} on the {day} of each month. Would you like to change the amount, the payment day, or both? | At the moment you pay {amount} a month, taken on the {day}. What do you want to change: the amount, the date, or both? | I can change the monthly amount ({amount} now), the collection day (the {day} now), or both. Which?
payment.ask_amount | How much would you like to pay each month? Monthly payments can be set between £20 and £400. | What monthly amount would suit you? Anything from £20 up to £400 is allowed. | Please tell me the monthly payment you'd like; it has to be at least £20 and no more than £400.
payment.refused_low | {amount} is below our minimum monthly payment of £20. What amount would you like instead? | Sorry, the lowest monthly payment we can set is £20, so {amount} won't work. Could you choose a higher figure? | I can't set it to {amount} — payments start at £20 a month. How much instead?
payment.refused_high | {amount} is more than the £400 monthly maximum. Please pick a figure of £400 or less. | The most we can take by direct debit is £400 a month, so I can't set {amount}. What would you like instead? | That's above our £400 limit for monthly payments. Try a lower amount than {amount}.
payment.ask_day | Which day of the month should we take the payment? You can choose any day from the 1st to the 28th. | And what date each month works best? Any day between the 1st and the 28th is fine. | On what day of the month would you like to pay? Pick a number from 1 to 28.
payment.refused_day | We can't collect on the {day}: payments can only be taken from the 1st to the 28th, so that every month has the date. Which day instead? | Sorry, the {day} isn't allowed; the collection day must be between the 1st and the 28th. Please choose another. | The {day} is outside the days we can use (1st–28th). What other day would suit you?
payment.ask_bank | Now your bank details: what are the sort code and the account number for the direct debit? | Which bank account should we collect from? I'll need the 6-digit sort code and the 8-digit account number. | Please give me the sort code and account number of the account to pay from.
payment.invalid_bank | I need a 6-digit sort code (like 12-34-56) and an 8-digit account number. Could you send both again? | Those bank details don't look complete — please give the sort code (six digits) and the account number (eight digits). | Sorry, I couldn't read a valid sort code and account number there. Try again, e.g. '12-34-56 12345678'.
payment.readback | Please check: {summary}. If that's right, reply AGREE. To change anything, just tell me. | Here's what I'll set up — {summary}. Type AGREE to confirm, or tell me what needs changing. | Summary: {summary}. I'll only go ahead once you reply with the word AGREE.
payment.done | All set. Your direct debit is now {amount} a month on the {day}, starting {first}. Reference {ref}. | Done — {amount} will be collected on the {day} of each month from {first}. Your reference is {ref}. | Your payment plan is confirmed: {amount} monthly, taken on the {day}, first collection {first} (ref {ref}).
move.ask_date | Sorry to see you go! What date are you moving out? It can be any day from today up to {max}. | When's your moving date? We can take dates between today and {max} ({window} days ahead). | Which day will you hand over the keys? I can record a move date from today until {max}.
move.invalid_date | I couldn't work out a date from that. Please give it like 20 June 2025 or 20/06/2025. | Sorry, which date do you mean? Something like '5 July 2025' works best. | That didn't look like a date to me. Could you type the day, month and year?
move.refused_past | {date} has already passed, so I can't record it as your move date. When's the actual move — today or later, up to {max}? | We can only register moves from today onwards, and {date} is in the past. Could you give me an upcoming date? | That date ({date}) is behind us. If you've already moved please call 0330 088 4410; otherwise give me a date between today and {max}.
move.refused_too_far | {date} is too far ahead: we can only take move dates up to {window} days away, which is {max}. Please get in touch nearer the time, or give an earlier date. | I can't book a move for {date}. The furthest ahead we accept is {max}. | Moves can be registered at most {window} days in advance (by {max}), so {date} is out of range for now.
move.ask_reading | Next I need final meter readings. What's the reading on your {meters} today? | Please tell me the reading on your {meters}; we'll use it to close your account. | For your final bill, what's on the {meters}?
move.refused_reading | The {fuel} reading {value} is lower than the last one we hold ({last}), so it can't be a final reading. Please check the meter again. | {value} can't be right for the {fuel} meter — it's below {last}, which we already have. What does it show? | A final {fuel} reading has to be at least {last}, the latest we hold, so {value} won't do. Could you re-check it?
move.ask_new_address | Where should we send your final bill? Please give the first line and postcode of your new address. | What's your forwarding address — first line and postcode? | And your new address, so the closing bill reaches you: the first line plus the postcode, please.
move.confirm | Let me check I've got this right: you move out on {date}, final readings {readings}, and the final bill goes to {address}. Shall I register the move? | Move-out date {date}; closing readings {readings}; forwarding address {address}. Is that all correct? | Here's the move I'm about to record — leaving on {date}, with readings of {readings}, final bill to {address}. OK to go ahead?
move.done | Your move is registered. We'll close your account on {date} and send the final bill to {address}. Reference {ref}. | That's done: account closure booked for {date}, reference {ref}. Good luck with the move! | Move recorded (ref {ref}). Your supply with us ends on {date}; expect the final bill within two weeks.
bill.summary | Your latest bill, for {period}, came to {total}{est}. It's made up of {lines}. {session}Would you like any of those charges explained? | For {period} you were billed {total}{est}. Breakdown: {lines}. {session}Is there a charge you'd like me to explain? | The most recent bill covers {period}: {lines}, so {total} in total{est}. {session}Any item you'd like me to go through?
bill.explain_charge | The {label} is {amount}. {note} | {label}: {amount}. {note} | About the {label} of {amount} — {note}
bill.charge_unknown | I can't see a charge like that on your latest bill. The items on it are {items}. Which one did you mean? | There's nothing matching that on the bill. It lists {items} — which should I explain? | That doesn't appear on your latest bill, which has {items}. Could you tell me which line you mean?
bill.refused_other | I'm sorry, I can only discuss the account you've verified, so I can't share details of someone else's bill. | For privacy reasons I can't look at another customer's account. They'd need to contact us themselves. | That isn't your account, so I'm not able to tell you anything about it. Is there something on your own account I can help with?
callback.ask_phone | Sure, I can arrange a call back. What number should we ring? | Which phone number would you like the adviser to call? | Happy to book that. Please give me the best number to reach you on.
callback.invalid_phone | That doesn't look like a UK phone number. Please give 11 digits starting with 0, e.g. 07700 900123. | I couldn't use that number: it should be 11 digits and begin with 0. Could you check it? | Hmm, that's not a number we can dial. Please type a UK number such as 0113 496 0000.
callback.ask_slot | When suits you on {date}: morning (8am–12pm), afternoon (12pm–5pm) or evening (5pm–8pm)? | We can call you on {date} in one of these slots: morning, 8 till 12; afternoon, 12 till 5; or evening, 5 till 8. Which? | Pick a time window for {date}: morning (8–12), afternoon (12–5) or evening (5–8).
callback.confirm | So that's a call to {phone} on {date}, in the {slot}. Shall I book it? | I'll ask an adviser to ring {phone} during the {slot} of {date}. Is that OK? | Call back: {phone}, {date}, {slot} slot. Do you want me to confirm it?
callback.done | Booked. An adviser will call {phone} on {date} in the {slot} (ref {ref}). | You're in the diary: {slot}, {date}, to {phone}. Reference {ref}. | Your call back is arranged for the {slot} of {date}; we'll ring {phone}. Reference {ref}.
handoff.transfer | I'll pass you to one of our advisers now. The current wait is about 6 minutes, so please stay in this chat. | Connecting you to a member of our team. Someone will join this conversation shortly. | Let me hand you over to a person — an adviser will pick up this chat in a few minutes.
faq.tariffs | We currently offer {list}. Prices depend on your region and usage; I can give you a quote once you're signed in. | Our tariffs are: {list}. If you'd like to switch, just say so and I'll quote for your home. | There are four to choose from — {list}. Ask me to switch if one appeals.
faq.hours | Our phone lines are open 8am to 8pm Monday to Friday and 9am to 1pm on Saturdays; we're closed on Sundays and bank holidays. This chat is available any time. | You can ring us 8am–8pm on weekdays and 9am–1pm on Saturday. Sundays and bank holidays the lines are closed, but I'm here around the clock. | Advisers answer calls from 8 in the morning till 8 at night Monday to Friday, plus Saturday mornings 9 to 1. No phone service on Sundays or bank holidays.
faq.standing_charge | A standing charge is a fixed daily amount for being connected to the gas or electricity network, whether or not you use any energy. It pays for things like network upkeep and your meter. | Think of it as a daily connection fee: every day you're supplied, a set amount is charged for the network and meter, separate from the energy you use. | Standing charges cover the cost of keeping your home connected. You pay them per day, on top of the unit price for each kWh.
faq.estimated_bill | If we don't have a recent meter reading, we estimate your usage from your past consumption. Sending us a reading replaces the estimate with real figures. | An estimated bill is worked out from your usual usage because no up-to-date reading reached us. Give me a reading and the next bill will be accurate. | When a bill says 'estimated', we've guessed the meter reading from your history. The fix is simple: submit a reading.
faq.meter_help | On a digital meter, read the numbers from left to right and ignore anything after a decimal point or in red. For a dial meter, read each dial and take the lower number if a pointer is between two. | Look for the display marked kWh (electricity) or m³ (gas) and note the whole numbers left to right; skip any red digits or those after the point. | Most meters just need the black or white figures on the display, left to right, without the decimals. Smart meters send readings automatically.
x.anything | Anything else I can help with? | Is there anything else you need? | Can I help with anything else today? | What else can I do for you?
x.sorry | Sorry, I didn't catch that. | I'm not sure I understood. | Hmm, that didn't make sense to me.
x.clarify | I need a clear yes or no. | Just to be sure — is that a yes or a no? | I didn't catch whether that's a yes.
x.need_agree | To go ahead I need you to type the word AGREE. | I can only proceed on the word AGREE. | Please reply AGREE rather than yes, so there's no doubt.
x.still_need | I still need the {missing}. | Thanks — I just need the {missing} as well. | Got part of that; what's the {missing}?
`;
/** Reply templates by key (parsed from the table above). */
export const TEMPLATES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  TEMPLATE_TABLE.trim()
    .split("\n")
    .map((row) => {
      const [key, ...paraphrases] = row.split(" | ");
      return [key!, paraphrases];
    }),
);

/** What a tester knows before starting: three personas (parallel lists aligned by index) and extra requests. */
export const FACTS: Facts = {
  personas: [
    {
      account_number: ["EN40217"],
      full_name: ["Priya Shah"],
      postcode: ["LS6 2QT"],
      address_line1: ["14 Brudenell Grove"],
      phone_number: ["07700 900418"],
      text_code: ["482913"],
      electricity_reading: ["18790", "18120", "41500"],
      gas_reading: ["7421", "7050", "15800"],
      new_tariff: ["Green Fix 12", "Flex Variable", "EV Night Saver"],
      payment_amount: ["85", "12", "650"],
      payment_day: ["15", "30"],
      move_date: ["20 June 2025", "12 May 2025", "30 September 2025"],
      new_address_line1: ["3 Harcourt Street"],
      new_postcode: ["HX1 2RE"],
      callback_time: ["morning", "evening"],
    },
    {
      account_number: ["EN52904"],
      full_name: ["Tom Okafor"],
      postcode: ["M14 5RB"],
      address_line1: ["Flat 2, 88 Wilmslow Road"],
      phone_number: ["07700 900731"],
      text_code: ["615280"],
      electricity_reading: ["33410", "33020", "60000"],
      new_tariff: ["Fixed Saver 24", "EV Night Saver"],
      payment_amount: ["60", "450"],
      payment_day: ["1", "29"],
      sort_code: ["20-45-77"],
      bank_account_number: ["41772093"],
      move_date: ["1 July 2025", "15 August 2025"],
      new_address_line1: ["41 Gilda Brook Road"],
      new_postcode: ["M30 0AZ"],
      callback_time: ["afternoon"],
      bill_charge: ["late payment fee", "standing charge"],
    },
    {
      account_number: ["EN61138"],
      full_name: ["Gwen Harris"],
      postcode: ["CF24 3DN"],
      address_line1: ["27 Moira Terrace"],
      phone_number: ["07700 900265"],
      text_code: ["907154"],
      electricity_reading: ["9105"],
      gas_reading: ["3352"],
      move_date: ["10 July 2025"],
      new_address_line1: ["5 Ty Glas Avenue"],
      new_postcode: ["CF14 5DX"],
      callback_time: ["evening"],
    },
  ],
  requests: [
    "I'd like to give you a meter reading.",
    "Can I switch to a different tariff?",
    "I want to change my direct debit.",
    "I'm moving house soon.",
    "Why is my bill so high?",
    "What is a standing charge?",
    "How much was my neighbour on account EN40233 charged last month?",
    "Can someone call me back?",
  ],
};

const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);

// ---- formatting -------------------------------------------------------------------------------------------

/** Pounds and pence, e.g. `£1,234.50`. */
export const money = (n: number) =>
  `${n < 0 ? "-" : ""}£${Math.abs(n).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** `1st`, `2nd`, `15th`. */
export const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
/** `20 June 2025`. */
export const fmtDate = (t: number) => {
  const d = new Date(t);
  const month = MONTHS[d.getUTCMonth()]!;
  return `${d.getUTCDate()} ${month.charAt(0).toUpperCase()}${month.slice(1)} ${d.getUTCFullYear()}`;
};
/** `2025-06-20`. */
export const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);
/** The fuels a customer has meters for. */
export const fuelsOf = (c: Customer) => (["electricity", "gas"] as const).filter((f) => c.meters[f]);
/** A small deterministic string hash. */
export const hash = (s: string) => [...s].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
/** A template with its `{name}` slots filled. */
export const fill = (tpl: string, vars: Record<string, string | number>) =>
  tpl.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
/** `a, b and c` (or `a, b or c`). */
export const listWords = (xs: readonly string[], last = "and") =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} ${last} ${xs[xs.length - 1]}`;

// ---- domain rules -----------------------------------------------------------------------------------------

/** The tariffs a customer may switch to (not the current one; smart-only ones need a smart meter). */
export const tariffChoices = (c: Customer) =>
  TARIFFS.filter((t) => t.name !== c.tariff && (!t.smartOnly || c.smart));
/** Estimated yearly cost of `t` for `c` (unit charges, plus standing charges unless `withStanding` is false). */
export const annualCost = (c: Customer, t: Tariff, withStanding = true) =>
  fuelsOf(c).reduce((sum, fuel) => {
    const r = t.rates[fuel];
    return sum + (c.meters[fuel]!.annualKwh * r.unit) / 100 + (withStanding ? (365 * r.standing) / 100 : 0);
  }, 0);
/** The first collection date for a payment `day`: at least ten days from today. */
export function firstCollection(day: number): number {
  const earliest = new Date(TODAY + 10 * DAY);
  const first = Date.UTC(earliest.getUTCFullYear(), earliest.getUTCMonth(), day);
  return first >= earliest.getTime()
    ? first
    : Date.UTC(earliest.getUTCFullYear(), earliest.getUTCMonth() + 1, day);
}

// ---- understanding ----------------------------------------------------------------------------------------

/** The customer abandons the request. */
export const ABORT =
  /^\s*(cancel|stop|never ?mind|forget (it|that|about it)|quit|abort|leave it)\b|\b(cancel (that|this|it)|start (again|over))\b/i;
const UNSURE = /\b(not sure|unsure|maybe|don'?t know|dunno|perhaps|hmm+|possibly|i guess|no idea)\b/i;
const NO = /^\s*(no\b|nope|nah|not really|negative|don'?t|do not|decline|i decline|i don'?t|not now|never)/i;
const YES =
  /^\s*(y\b|yes|yeah|yep|yup|ya\b|sure|ok\b|okay|go ahead|please do|do it|confirm|correct|that'?s (right|correct|fine)|right\b|absolutely|definitely|fine|proceed|sounds good|i (accept|agree|do)\b|accept|agreed?\b|happy to|of course|go for it|please go ahead)/i;
/** The customer is done. */
export const BYE =
  /\b(bye|goodbye|that'?s (all|it|everything)|nothing( else)?|no,? thanks?( you)?|all good|i'?m (done|good|fine)|thanks|thank you|cheers)\b/i;
/** A correction cue ("actually", "make it … instead"). */
export const CUE =
  /\b(make it|change (it|that|the \w+) to|instead|actually|rather|sorry,? i meant|correction)\b/i;
/** A UK postcode. */
export const POSTCODE = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i;
/** A reference to someone other than the customer. */
export const OTHER_PERSON =
  /\b(neighbou?r|someone else|somebody else|another (customer|person|account)|other person|(mum|mom|dad|mother|father|friend|flatmate|landlord|tenant|partner|brother|sister|son|daughter)'?s)\b/i;

/** yes / no / unsure / undefined for a gate answer. */
export function yn(t: string): "yes" | "no" | "unsure" | undefined {
  return UNSURE.test(t) ? "unsure" : NO.test(t) ? "no" : YES.test(t) ? "yes" : undefined;
}

const NOT_MINE =
  "(?!.*\\bmy (bill|statement|account)\\b)(?=.*\\b(what|what'?s|whats|explain|mean|meaning|tell me about))";
/** Keyword rules for requests, tried in order (the first match wins); FAQ requests are named by their state. */
const INTENT_RULES = {
  callback: /\bcall ?back\b|\b(ring|phone|call) me\b/,
  handoff:
    /\b(human|real person|a person|an? (agent|adviser|advisor|operator|representative)|(speak|talk) (to|with) (someone|somebody))\b/,
  "faq.meter_help":
    /\bhow (do|can|should|would) (i|you) (read|take|find)\b|\bhow to (read|take)\b|where('s| is) my meter/,
  "faq.standing_charge": new RegExp(`^${NOT_MINE}.*standing charge`),
  "faq.estimated_bill": new RegExp(`^${NOT_MINE}.*\\bestimat`),
  "faq.hours": /opening (hours|times)|\bhours\b|are you open|when (are you|do you) (open|close)|what time do/,
  payment:
    /direct debit|\bdd\b|payment plan|monthly payment|payment (date|day|amount)|pay(ing)? (monthly|less|more)|instal?ment|\bpay\b[^.]*\b(a|per|each|every) month/,
  "faq.tariffs":
    /^(?!.*\b(switch|change|move me|sign me|put me)\b)(?=.*\b(what|which|list|options|available|offer|got|do you have)\b).*(tariff|deal)/,
  switch:
    /\bswitch|change (my |the )?(tariff|plan|deal)|(new|different|cheaper|better) (tariff|deal)|green fix|flex variable|ev night|fixed saver|(move|put|sign) me (on|onto|to)/,
  move: /\bmov(e|ing)\b|relocat|new (house|home|address|flat)|final (meter )?reading|close my account/,
  reading: /\breading\b|\bmeter\b|\bread (my|the)\b|\bsubmit\b|\b(gas|electric\w*) \D{0,12}\d{3,7}\b/,
  bill: /\bbills?\b|\bcharged?\b|\bcharges\b|statement|balance|\bowe\b|invoice|overcharg|\bfee\b|so (high|much)/,
  menu: /^(hi|hello|hey|hiya|good (morning|afternoon|evening))\b|\bhelp\b|what can you do|\bmenu\b|\boptions\b/,
} as const;
/** A request the assistant recognises. */
export type Intent = keyof typeof INTENT_RULES;
/** Requests that need the customer verified first. */
export const NEEDS_AUTH: ReadonlySet<Intent> = new Set(["payment", "switch", "move", "reading", "bill"]);
/** The request a free-text turn makes, by keywords. */
export const detect = (raw: string): Intent | undefined =>
  (Object.keys(INTENT_RULES) as Intent[]).find((k) => INTENT_RULES[k].test(raw.toLowerCase()));
/** Which parts of a direct debit a turn wants to change. */
export function changeWanted(t: string): "amount" | "day" | "both" | undefined {
  const both = /\b(both|all)\b/i.test(t);
  const amount = both || /amount|how much|more|less|£|pounds/i.test(t);
  const day = both || /\b(day|date|when)\b|\d(st|nd|rd|th)\b/i.test(t);
  return amount && day ? "both" : amount ? "amount" : day ? "day" : undefined;
}

/** Digit groups (`18,790`, `18 790`) joined. */
const joinDigits = (t: string) => t.replace(/(\d)[ ,](?=\d{3}\b)/g, "$1");
/** Meter readings (3–7 digit whole numbers, account numbers aside) in order. */
export const readingsIn = (t: string) =>
  [...joinDigits(t.replace(/\ben[\s-]?\d{5}\b/gi, " ")).matchAll(/\b\d{3,7}\b/g)].map((m) => Number(m[0]));
/** Which meter a turn names. */
export const fuelIn = (t: string): Fuel | undefined =>
  /\bgas\b/i.test(t) ? "gas" : /electric|\belec\b/i.test(t) ? "electricity" : undefined;
/** Final readings for the `wanted` meters, in order: a number after a fuel's name is that fuel's. */
export function finalReadings(text: string, wanted: readonly Fuel[]): [Fuel, number][] {
  const t = joinDigits(text);
  const tagged = (fuel: Fuel) => {
    const m = (fuel === "gas" ? /gas\D{0,12}?(\d{3,7})/i : /elec\w*\D{0,12}?(\d{3,7})/i).exec(t);
    return m ? Number(m[1]) : undefined;
  };
  const untagged = readingsIn(t).filter((n) => n !== tagged("gas") && n !== tagged("electricity"));
  const out: [Fuel, number][] = [];
  for (const fuel of wanted) {
    const v = tagged(fuel) ?? untagged.shift();
    if (v !== undefined) out.push([fuel, v]);
  }
  return out;
}
/** A money amount: `£85`, `85 pounds`, or a bare number when `bare`. */
export function parseAmount(t: string, bare: boolean): number | undefined {
  const m =
    /£\s*(\d+(?:\.\d{1,2})?)/.exec(t) ??
    /\b(\d+(?:\.\d{1,2})?)\s*(?:pounds?|quid|gbp)\b/i.exec(t) ??
    (bare ? /\b(\d+(?:\.\d{1,2})?)\b/.exec(t) : null);
  return m ? Number(m[1]) : undefined;
}
/** A day of the month: `15th`, `day 15`, `the 15`, or a bare number when `bare`. */
export function parseDay(t: string, bare: boolean): { day: number; text: string } | undefined {
  const m =
    /\b(\d{1,2})(?:st|nd|rd|th)\b/i.exec(t) ??
    /\b(?:day|the|on)\s+(\d{1,2})\b(?!\s*(?:pounds?|quid|\.))/i.exec(t) ??
    (bare ? /\b(\d{1,2})\b/.exec(t) : null);
  return m ? { day: Number(m[1]), text: m[0] } : undefined;
}
/** A date in several formats (`20 June 2025`, `June 20th`, `20/06/2025`, `2025-06-20`, `tomorrow`); a bare
 * `the 25th` is read in `ref`'s month. */
export function parseDate(raw: string, ref?: number): number | undefined {
  const t = raw.toLowerCase();
  if (/\btoday\b/.test(t)) return TODAY;
  if (/\btomorrow\b/.test(t)) return TODAY + DAY;
  const mk = (y: number, m: number, d: number) => {
    const v = Date.UTC(y < 100 ? 2000 + y : y, m - 1, d);
    return m >= 1 && m <= 12 && d >= 1 && new Date(v).getUTCDate() === d ? v : undefined;
  };
  const mon = "(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
  const year = (s?: string) => (s ? Number(s) : 2025);
  const monthNo = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.slice(0, 3))) + 1;
  let m = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(t);
  if (m) return mk(+m[1]!, +m[2]!, +m[3]!);
  m = /\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/.exec(t);
  if (m) return mk(year(m[3]), +m[2]!, +m[1]!);
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${mon}(?:,?\\s+(\\d{4}))?`).exec(t);
  if (m) return mk(year(m[3]), monthNo(m[2]!), +m[1]!);
  m = new RegExp(`\\b${mon}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?`).exec(t);
  if (m) return mk(year(m[3]), monthNo(m[1]!), +m[2]!);
  m = /\bthe (\d{1,2})(?:st|nd|rd|th)?\b/.exec(t);
  const r = ref === undefined ? undefined : new Date(ref);
  return m && r ? mk(r.getUTCFullYear(), r.getUTCMonth() + 1, +m[1]!) : undefined;
}
/** A UK phone number as 11 digits; `bad` when digits were given that are not one. */
export function parsePhone(t: string): { ok: string } | { bad: true } | undefined {
  const digits = t.replace(/[\s()-]/g, "").match(/\+?\d{6,}/)?.[0];
  if (!digits) return undefined;
  const n = digits.replace(/^\+44/, "0");
  return /^0\d{10}$/.test(n) ? { ok: n } : { bad: true };
}
const SLOTS: readonly [string, RegExp][] = [
  ["morning", /\bmorning|\bam\b|before (noon|lunch)/i],
  ["afternoon", /afternoon|after lunch/i],
  ["evening", /evening|\bnight|after work/i],
];
/** A call-back slot: morning, afternoon or evening. */
export const parseSlot = (t: string) => SLOTS.find(([, re]) => re.test(t))?.[0];
/** A sort code and an 8-digit account number, both present. */
export function parseBank(t: string): { sort: string; acct: string } | undefined {
  const acct = /\b\d{8}\b/.exec(t)?.[0];
  const sort = /\b(\d{2})[-\s]?(\d{2})[-\s]?(\d{2})\b/.exec(acct ? t.replace(acct, " ") : t);
  return acct && sort ? { sort: `${sort[1]}-${sort[2]}-${sort[3]}`, acct } : undefined;
}
const TARIFF_WORDS: readonly [RegExp, string][] = [
  [/green/i, "Green Fix 12"],
  [/\bev\b|night|electric vehicle/i, "EV Night Saver"],
  [/flex|variable|standard/i, "Flex Variable"],
  [/saver|24/i, "Fixed Saver 24"],
];
/** The position a turn picks from a list ("1", "the second one"), or -1. */
export const nthChoice = (t: string) =>
  [/\b(1|one|first)\b/i, /\b(2|two|second)\b/i, /\b(3|three|third)\b/i].findIndex((r) => r.test(t));
/** The tariff a turn names. */
export function parseTariff(t: string): Tariff | undefined {
  const hit = TARIFF_WORDS.find(([re]) => re.test(t));
  return hit ? TARIFFS.find((x) => x.name === hit[1]) : undefined;
}
/** A forwarding address: first line and/or postcode. */
export function parseForwarding(text: string): { line1?: string; postcode?: string } {
  const pc = POSTCODE.exec(text);
  const rest = pc ? text.replace(pc[0], " ") : text;
  const line = /(?:flat\s+\d+[a-z]?,?\s*)?\d+[a-z]?,?\s+[a-z][a-z' -]*[a-z]/i.exec(rest)?.[0];
  return {
    line1: line?.replace(/\s+(and|postcode|post code)$/i, "").trim(),
    postcode: pc ? `${pc[1]} ${pc[2]}`.toUpperCase() : undefined,
  };
}
const ABBREV: Readonly<Record<string, string>> = { rd: "road", st: "street", ave: "avenue", tce: "terrace" };
/** Lower-case words, common address abbreviations expanded. */
export const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => ABBREV[w] ?? w);
/** Does `text` give the customer's postcode or the first line of the address? */
export function addressMatches(c: Customer, text: string): boolean {
  const pc = POSTCODE.exec(text);
  const norm = (s: string) => s.replace(/\s/g, "").toUpperCase();
  if (pc && norm(pc[0]) === norm(c.postcode)) return true;
  const said = words(text);
  const street = words(c.line1.split(",").pop() ?? c.line1);
  return street.length > 0 && street.every((w) => said.includes(w));
}
/** The bill line a turn asks about (most matching words), if any. */
export function matchCharge(lines: readonly BillLine[], text: string): BillLine | undefined {
  const said = words(text).join(" ");
  const scored = lines.map((l) => ({ l, n: l.words.filter((w) => said.includes(w)).length }));
  return scored.filter((x) => x.n > 0).sort((a, b) => b.n - a.n)[0]?.l;
}
