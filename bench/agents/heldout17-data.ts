import type { Facts } from "../../src/boundary/types.ts";

/**
 * Harbourline Pensions ("Pip", the member assistant): seed records, the tester's facts and the reply wording.
 * Every reply key has two or three wordings; the agent's `seed` picks one.
 */

/** The bot's fixed "today" (no clock: replies must be deterministic). A Monday, tax year 2025/26. */
export const TODAY = "2025-06-16";

export type PotStatus = "active" | "closed" | "in_transfer";

export interface Pot {
  id: string;
  owner: string;
  name: string;
  fund: string;
  status: PotStatus;
  value: number;
  /** Holds safeguarded benefits (a guaranteed annuity rate): over £30,000 needs regulated advice. */
  safeguarded: boolean;
  opened: string;
}

export interface Beneficiary {
  name: string;
  relationship: string;
  share: number;
}

export interface Transfer {
  ref: string;
  owner: string;
  potId: string;
  scheme: string;
  requested: string;
  coolingOffEnds: string;
  status: "pending" | "completed" | "cancelled";
}

export interface Member {
  number: string;
  name: string;
  first: string;
  dob: string;
  code: string;
  word: string;
  mobile: string;
  email: string;
  status: "active" | "deferred";
  employer: string;
  joined: string;
  left?: string;
  salary: number;
  employeeRate: number;
  employerRate: number;
  lastRateChange: string;
  bankLast4: string;
  addressLine: string;
  postcode: string;
  withdrawalsThisYear: number;
  beneficiaries: Beneficiary[];
}

export interface Db {
  members: Record<string, Member>;
  pots: Pot[];
  transfers: Transfer[];
}

/** A fresh copy of the seed records (writes never touch the seed). */
export function seedDb(): Db {
  const members: Member[] = [
    {
      number: "HL40217733",
      name: "Priya Nair",
      first: "Priya",
      dob: "1962-03-14",
      code: "481926",
      word: "lighthouse",
      mobile: "47",
      email: "p.nair@…mail.co.uk",
      status: "active",
      employer: "Calder & Finch Ltd",
      joined: "2009-04-01",
      salary: 48000,
      employeeRate: 5,
      employerRate: 4,
      lastRateChange: "2024-11-01",
      bankLast4: "4471",
      addressLine: "12 Rope Walk, Whitby",
      postcode: "YO21 3PU",
      withdrawalsThisYear: 2,
      beneficiaries: [{ name: "Arjun Nair", relationship: "spouse or civil partner", share: 100 }],
    },
    {
      number: "HL55190864",
      name: "Tom Whitaker",
      first: "Tom",
      dob: "1975-09-22",
      code: "730415",
      word: "marmalade",
      mobile: "02",
      email: "tom.w@…post.com",
      status: "active",
      employer: "Northgate Logistics",
      joined: "2023-09-04",
      salary: 36500,
      employeeRate: 4,
      employerRate: 3,
      lastRateChange: "2025-05-01",
      bankLast4: "9013",
      addressLine: "4 Canal Side, Leeds",
      postcode: "LS11 5QX",
      withdrawalsThisYear: 0,
      beneficiaries: [],
    },
    {
      number: "HL61003379",
      name: "Grace Okafor",
      first: "Grace",
      dob: "1958-01-05",
      code: "205588",
      word: "sunflower",
      mobile: "81",
      email: "g.okafor@…net.co.uk",
      status: "deferred",
      employer: "Calder & Finch Ltd",
      joined: "2011-06-01",
      left: "2021-08-31",
      salary: 0,
      employeeRate: 0,
      employerRate: 0,
      lastRateChange: "2019-04-01",
      bankLast4: "6620",
      addressLine: "31 Mill Lane, Harrogate",
      postcode: "HG1 2RT",
      withdrawalsThisYear: 0,
      beneficiaries: [
        { name: "Daniel Okafor", relationship: "child", share: 50 },
        { name: "Ruth Okafor", relationship: "child", share: 50 },
      ],
    },
  ];
  const pots: Pot[] = [
    {
      id: "P-1001",
      owner: "HL40217733",
      name: "Main pot",
      fund: "Harbourline Default Growth Fund",
      status: "active",
      value: 186420.55,
      safeguarded: false,
      opened: "2009-04-01",
    },
    {
      id: "P-1002",
      owner: "HL40217733",
      name: "AVC pot",
      fund: "Harbourline Cautious Fund",
      status: "active",
      value: 12310,
      safeguarded: false,
      opened: "2016-10-01",
    },
    {
      id: "P-1003",
      owner: "HL40217733",
      name: "Legacy pot",
      fund: "Whitby Ropes Section",
      status: "closed",
      value: 0,
      safeguarded: false,
      opened: "1998-02-01",
    },
    {
      id: "P-2001",
      owner: "HL55190864",
      name: "Main pot",
      fund: "Harbourline Default Growth Fund",
      status: "active",
      value: 41872.1,
      safeguarded: false,
      opened: "2023-09-04",
    },
    {
      id: "P-3001",
      owner: "HL61003379",
      name: "Main pot",
      fund: "Harbourline Default Growth Fund",
      status: "in_transfer",
      value: 64905,
      safeguarded: false,
      opened: "2011-06-01",
    },
    {
      id: "P-3002",
      owner: "HL61003379",
      name: "Protected pot",
      fund: "With-Profits Fund (guaranteed annuity rate)",
      status: "active",
      value: 38200,
      safeguarded: true,
      opened: "1994-05-01",
    },
  ];
  const transfers: Transfer[] = [
    {
      ref: "TR-66021",
      owner: "HL40217733",
      potId: "P-1003",
      scheme: "Whitby Ropes Pension Plan",
      requested: "2025-03-20",
      coolingOffEnds: "2025-04-03",
      status: "completed",
    },
    {
      ref: "TR-77120",
      owner: "HL61003379",
      potId: "P-3001",
      scheme: "Scottish Widows Retirement Account",
      requested: "2025-06-09",
      coolingOffEnds: "2025-06-23",
      status: "pending",
    },
  ];
  return {
    members: Object.fromEntries(members.map((m) => [m.number, m])),
    pots,
    transfers,
  };
}

/** Relationship choices for an expression of wish, in list order. */
export const RELATIONSHIPS = [
  "spouse or civil partner",
  "partner",
  "child",
  "other relative",
  "friend",
  "charity",
] as const;

/** Annual statements offered, newest first: label and the tax year's last day. */
export const STATEMENT_YEARS = [
  { label: "2024/25", ends: "2025-04-05" },
  { label: "2023/24", ends: "2024-04-05" },
  { label: "2022/23", ends: "2023-04-05" },
] as const;

export const FACTS: Facts = {
  personas: [
    {
      full_name: ["Priya Nair"],
      membership_number: ["HL40217733"],
      date_of_birth: ["14/03/1962"],
      one_time_code: ["481926"],
      memorable_word: ["lighthouse"],
      pot_id: ["P-1001", "P-1002", "P-1003", "P-2001"],
      withdrawal_amount: ["10000", "500", "250000"],
      bank_account_last4: ["4471"],
      contribution_rate: ["8", "6", "40"],
      statement_year: ["2024/25", "2023/24"],
      delivery_method: ["email", "post"],
      receiving_scheme: ["Aviva Workplace Pension"],
      transfer_reference: ["TR-66021", "TR-77120"],
      number_of_beneficiaries: ["2", "1", "5"],
      beneficiary_name: ["Arjun Nair", "Meera Nair"],
      relationship: ["spouse or civil partner", "child"],
      share_percent: ["60", "40", "30"],
      new_address_line: ["7 Harbour Steps, Whitby"],
      postcode: ["YO22 4JR"],
      retirement_age: ["66", "60"],
      retirement_option: ["annuity", "drawdown", "cash"],
    },
    {
      full_name: ["Tom Whitaker"],
      membership_number: ["HL55190864"],
      date_of_birth: ["22/09/1975"],
      one_time_code: ["730415"],
      memorable_word: ["marmalade"],
      pot_id: ["P-2001", "P-1001"],
      withdrawal_amount: ["5000"],
      bank_account_last4: ["9013"],
      contribution_rate: ["6"],
      statement_year: ["2022/23", "2024/25"],
      delivery_method: ["email"],
      receiving_scheme: ["Nest"],
      transfer_reference: ["TR-77120"],
      number_of_beneficiaries: ["1"],
      beneficiary_name: ["Sam Whitaker"],
      relationship: ["partner"],
      share_percent: ["100"],
      new_address_line: ["Flat 3, 88 Wharf Street, Leeds"],
      postcode: ["LS2 7EQ"],
      retirement_age: ["50", "60"],
      retirement_option: ["drawdown"],
    },
    {
      full_name: ["Grace Okafor"],
      membership_number: ["HL61003379"],
      date_of_birth: ["05/01/1958"],
      one_time_code: ["205588"],
      memorable_word: ["sunflower"],
      pot_id: ["P-3001", "P-3002"],
      withdrawal_amount: ["2000"],
      bank_account_last4: ["6620"],
      contribution_rate: ["5"],
      statement_year: ["2023/24"],
      delivery_method: ["post"],
      receiving_scheme: ["Royal London Personal Pension"],
      transfer_reference: ["TR-77120", "TR-66021"],
      number_of_beneficiaries: ["2"],
      beneficiary_name: ["Daniel Okafor", "Ruth Okafor"],
      relationship: ["child"],
      share_percent: ["50", "40"],
      new_address_line: ["Rue des Lilas 14, Lyon, France", "2 Station Road, Knaresborough"],
      postcode: ["HG5 0AB"],
      retirement_age: ["68", "66"],
      retirement_option: ["annuity"],
    },
  ],
  requests: [
    "How much is my pension worth?",
    "I'd like to take a lump sum out of my pension",
    "Can I change how much I pay in each month?",
    "I want to update who gets my pension if I die",
    "I need to cancel a transfer I asked for last week",
    "I want to transfer my pension to another provider",
    "I've moved house",
    "Can I have a copy of my annual statement?",
    "Could I get a quote for retiring at 66?",
    "What are your charges?",
    "When is the helpline open?",
    "How is a lump sum taxed?",
  ],
};

const HELP = "0345 600 4821";

/** Reply wordings: key -> variants. `{name}` placeholders are filled by the agent. */
export const T: Record<string, readonly string[]> = {
  greeting: [
    "Hello, I'm Pip, Harbourline Pensions' member assistant. I can answer general questions about your workplace pension, and once you've signed in I can show your pots, change your contributions, arrange withdrawals, statements, transfers and more. What can I do for you today?",
    "Hi there, you're chatting with Pip at Harbourline Pensions. Ask me about balances, paying in, taking money out, beneficiaries, moving house or moving your pension. How can I help?",
    "Good to see you. This is Pip, the Harbourline Pensions assistant. I can help with questions about your savings and, after a quick security check, with changes to your account. What would you like to do?",
  ],
  menu: [
    "Here's what I can help with:\n• General questions: opening hours, charges, the minimum pension age, tax on withdrawals, cooling-off periods, scams, how much you can pay in\n• Once you're signed in: your balance and pots, annual statements, your contribution rate, taking a lump sum, your beneficiaries, transferring out or cancelling a transfer, updating your address, and retirement quotes\nJust tell me what you need.",
    "I can answer questions about charges, opening hours, tax, the pension age and transfers. After a security check I can also show your pots, send a statement, change what you pay in, set up a withdrawal, update your beneficiaries or address, start or cancel a transfer, and give you a retirement quote. What would you like?",
    "Things I can do: explain our fees, hours, tax rules and cooling-off periods; and, once I know it's you, look at your balance, order a statement, change contributions, arrange a lump sum, update beneficiaries or your address, handle transfers out and produce a retirement quote. Where shall we start?",
  ],
  fallback: [
    "Sorry, I didn't follow that. I can help with your balance, contributions, withdrawals, beneficiaries, statements, transfers, address changes and retirement quotes, or general questions about charges and opening hours. What would you like to do?",
    'I\'m not sure I understood. Could you put it another way? For example: "what\'s my balance", "change my contributions" or "what are your opening hours".',
    "Hmm, that one's beyond me, I'm afraid. Try asking about your pots, paying in, taking money out, beneficiaries, transfers, statements, your address or a retirement quote.",
  ],
  reprompt: ["Sorry, I didn't catch that.", "I'm not sure I followed.", "Let me ask that again."],
  back_to: ["Now, back to where we were:", "Picking up where we left off:", "Anyway, back to your request:"],
  thanks: [
    "You're very welcome. Is there anything else I can help with?",
    "No problem at all. Anything else today?",
    "Glad to help! Let me know if there's anything else.",
  ],
  goodbye: [
    "Thanks for chatting with Harbourline Pensions. Take care, and goodbye for now.",
    "Bye for now, and remember your online account is there whenever you need it.",
    "Goodbye! Thanks for getting in touch.",
  ],
  cancelled: [
    "No problem, I've stopped there and nothing has been changed. What else can I help with?",
    "Okay, I've cancelled that. Nothing on your account has changed. Anything else?",
    "Consider it dropped; nothing was saved. Is there something else you'd like to do?",
  ],
  cancel_nothing: [
    'There\'s nothing in progress to cancel. If you meant a pension transfer, say "cancel my transfer".',
    "We're not in the middle of anything right now, so there's nothing to stop. To cancel a transfer out, just ask me to cancel your transfer.",
  ],
  handoff: [
    `Of course. I've passed our conversation to the member services team; your reference is {ref}. A colleague will pick it up during opening hours (Monday to Friday 8:30am to 5:30pm, Saturday 9am to 1pm). You can also call us on ${HELP}.`,
    `I'll get a person to help. Reference {ref}: our member services team will see everything we've discussed and come back to you within opening hours. If it's urgent, ring ${HELP}.`,
    `Sure, let me hand you over. I've logged your request under {ref}; a member of the team will take it from here during office hours, or you can phone ${HELP}.`,
  ],
  "info.hours": [
    "Our member services team is available Monday to Friday, 8:30am to 5:30pm, and Saturday 9am to 1pm (closed Sundays and bank holidays). I'm here around the clock for most things.",
    `You can call us on ${HELP}, Monday to Friday 8:30am to 5:30pm and Saturdays 9am to 1pm. We're closed on Sundays and bank holidays, but this chat is always open.`,
    "Phone lines are open weekdays 8:30am to 5:30pm and Saturday mornings 9am to 1pm. Outside those times I can still help with most things here.",
  ],
  "info.fees": [
    "The annual management charge is 0.45% a year on the Default Growth Fund and 0.40% on the Cautious Fund. Changing contributions and transferring out are free. Your first two lump-sum withdrawals in each tax year are free; after that each one has a £30 admin fee.",
    "Charges are simple: 0.45% a year for the Default Growth Fund (0.40% for the Cautious Fund), no exit fee for transfers, and no cost to change what you pay in. Lump sums: two free per tax year, then £30 per withdrawal.",
    "We take an annual management charge of 0.45% (Default Growth) or 0.40% (Cautious). There's nothing to pay to transfer out or to change contributions, and withdrawals are free twice each tax year, then £30 each.",
  ],
  "info.pension_age": [
    "You can normally start taking money from your pension at 55. The government is raising this to 57 from 6 April 2028. Taking money earlier is only possible if you're seriously ill.",
    "The minimum pension age is currently 55, rising to 57 on 6 April 2028. Before that age your pension has to stay invested, except in cases of serious ill health.",
    "From age 55 you can access your pot (57 from April 2028). Anyone offering to release your pension earlier is very likely a scam.",
  ],
  "info.tax": [
    "Usually 25% of each lump sum is tax-free; the other 75% is taxed as income in the tax year you take it. HMRC often applies an emergency tax code to a first withdrawal, so you may pay too much at first and can claim it back. When I prepare a withdrawal I show an estimate at the basic rate of 20%.",
    "A quarter of every lump sum is normally tax-free and the rest counts as taxable income. Your first payment may be taxed on an emergency code, which you can reclaim from HMRC. My withdrawal quotes estimate tax at 20%.",
    "Tax works like this: 25% of what you take is tax-free, 75% is added to your income for the year. Expect an emergency tax code on the first payment (refundable). I estimate tax at the 20% basic rate when quoting.",
  ],
  "info.cooling_off": [
    "When you ask us to transfer your pension to another provider you have a 14-day cooling-off period from the day you submit the request. Within those 14 days you can cancel free of charge and your money stays with us; after that, the transfer goes ahead.",
    "Transfers out come with 14 days to change your mind, counted from the day we receive your request. Cancel within that window and nothing moves; once it's passed, the transfer can't be stopped.",
  ],
  "info.contact": [
    `You can call us on ${HELP} (Mon to Fri 8:30am to 5:30pm, Sat 9am to 1pm), email members@harbourlinepensions.co.uk, or write to Harbourline Pensions, PO Box 2207, Leeds LS1 9HP.`,
    `Phone ${HELP}, email members@harbourlinepensions.co.uk, or post to Harbourline Pensions, PO Box 2207, Leeds LS1 9HP.`,
  ],
  "info.scams": [
    `Please be wary of anyone who contacts you out of the blue about your pension, promises unusually high returns or pressures you to act quickly. We will never ask for your one-time code by phone. If you're unsure, stop and call us on ${HELP}.`,
    `Pension scams often start with a cold call, text or social media message, a "free pension review" or an offer to unlock your pension before 55. Never share your one-time code. If in doubt, call us on ${HELP} before you do anything.`,
  ],
  "info.allowance": [
    "Most people can pay in up to £60,000 a year (the annual allowance), or 100% of their earnings if lower, and still get tax relief. Through Harbourline payroll you can set your own contribution from 2% to 25% of your pensionable salary.",
    "The annual allowance is £60,000 (or your earnings, if less). Within the scheme, your own contribution can be anything from 2% to 25% of pensionable pay.",
  ],
  "info.lost_details": [
    `Your membership number starts with HL followed by eight digits and is printed on every annual statement and welcome letter. If you can't find it, or can't get your one-time code, our team can help on ${HELP}.`,
    `Look at the top of any letter or statement from us: the membership number is HL plus eight digits. For a lost memorable word or a phone number that's changed, please call ${HELP}.`,
  ],
  "auth.intro": [
    "I can help with that. First I need to check it's really you.",
    "Happy to sort that out; I just need to confirm who I'm talking to first.",
    "Sure. Before I can look at your account, there's a quick security check.",
  ],
  "auth.ask_membership": [
    "What's your membership number? It starts with HL and you'll find it on your annual statement. (You can give me your date of birth in the same message if you like.)",
    "Could you tell me your membership number, please? It looks like HL followed by eight digits.",
    "Please type your Harbourline membership number (HL and eight digits).",
  ],
  "auth.bad_format": [
    "That doesn't look like a membership number: they're HL followed by eight digits, for example HL12345678. Could you check and try again?",
    "Hmm, I can't see a membership number there. It should be the letters HL and then eight digits. What is it?",
    "I need the membership number in the form HL plus eight digits. Could you type it again?",
  ],
  "auth.ask_dob": [
    "Thanks. And your date of birth? (for example 21/04/1970)",
    "Got it. Now, what's your date of birth?",
    "Thank you. Please confirm your date of birth, day/month/year.",
  ],
  "auth.bad_dob": [
    "I couldn't read that as a date. Could you give your date of birth as day/month/year, like 05/11/1968?",
    "Sorry, I need your date of birth in a format like 05/11/1968 or 5 November 1968.",
  ],
  "auth.mismatch": [
    "Sorry, those details don't match our records. You have {attempts} before I have to pause online access. What's your membership number?",
    "I couldn't find a member with that membership number and date of birth. Let's try again ({attempts} left). Your membership number, please?",
    "Those details didn't match, I'm afraid ({attempts} remaining). Could you re-enter your membership number?",
  ],
  "auth.ask_code": [
    "Thanks. I've just texted a six-digit one-time code to the mobile number ending {mobile}. Please type it here.",
    "Nearly there. We've sent a one-time code to your phone (ending {mobile}). What does it say?",
    "That matches. To finish signing in, enter the 6-digit one-time code we've texted to your mobile ending {mobile}.",
  ],
  "auth.code_format": [
    "The one-time code is six digits. Please type just the numbers from the text we sent to your mobile ending {mobile}.",
    "I'm looking for the six-digit one-time code from your text message (mobile ending {mobile}).",
  ],
  "auth.code_wrong": [
    "That code isn't right. Please check the text message and try again ({attempts} left). You can also ask me to resend it.",
    "Sorry, that's not the code we sent. {attempts} left. What's the one-time code?",
    "That one-time code doesn't match ({attempts} remaining). Check the latest text from us, or say resend.",
  ],
  "auth.code_resent": [
    "I've sent the code again to your mobile ending {mobile}. It may take a minute to arrive. What's the code?",
    "No problem, a fresh text is on its way to the phone ending {mobile}. Type the one-time code when you have it.",
  ],
  "auth.locked": [
    `For your security I've paused online access after too many unsuccessful attempts. I've passed this to our member services team (reference {ref}); please call ${HELP} and they'll help you get back in.`,
    `I'm sorry, that's too many attempts, so I've locked online access to protect your pension. A colleague in member services will help: reference {ref}, phone ${HELP}.`,
    `That's three unsuccessful tries, so online access is now locked. Our team has been alerted under reference {ref}; call ${HELP} to get it unlocked.`,
  ],
  "auth.locked_again": [
    `Online access is paused for this account, so I can't do that here. Please call member services on ${HELP} (your reference is {ref}).`,
    `I'm afraid I can't help with your account while access is locked. Our team can, on ${HELP}, quoting {ref}.`,
  ],
  "auth.verified": [
    "Thanks, {first}, you're signed in.",
    "That's it, you're in. Welcome back, {first}.",
    "All done, {first}, you're verified.",
  ],
  "auth.what_next": ["What would you like to do?", "How can I help today?", "What can I do for you?"],
  "auth.already": [
    "You're already signed in as {first}. What would you like to do?",
    "No need, you're signed in already, {first}. How can I help?",
  ],
  "auth.signed_out": [
    "You're signed out. Thanks for using Harbourline Pensions.",
    "Done, I've signed you out of this chat.",
    "Signed out. If you need anything else, you'll just need to verify again.",
  ],
  "auth.not_signed_in": [
    "You're not signed in at the moment, so there's nothing to sign out of.",
    "You aren't signed in right now.",
  ],
  "reverify.ask_word": [
    "Because this changes important details on your account, I need one more check. What's your memorable word?",
    "Before I make a change like this, please confirm your memorable word.",
    "One extra security step for sensitive changes: could you tell me your memorable word?",
  ],
  "reverify.failed": [
    "That isn't the memorable word we have. You can try once more.",
    "Sorry, that doesn't match. One more try: what's your memorable word?",
  ],
  "reverify.passed": [
    "Thank you, that's confirmed.",
    "Great, that matches.",
    "Thanks, security check passed.",
  ],
  "reverify.locked": [
    `I'm sorry, I can't make sensitive changes in this chat after that. I've flagged it to our security team (reference {ref}); please call ${HELP} to finish the change.`,
    `That's two incorrect memorable words, so changes are blocked for this chat. Our security team has reference {ref}; please ring ${HELP}.`,
  ],
  "balance.head": [
    "Here's a summary of your pots:",
    "This is what you hold with us:",
    "Your Harbourline pots as of {today}:",
  ],
  "balance.line": ["• {name} ({id}): {fund}, {status}, {value}", "• {id} {name}: {value} ({status}, {fund})"],
  "balance.total": ["Total across your pots: {total}.", "Altogether that comes to {total}."],
  "balance.pot_detail": [
    "{name} ({id}) is invested in the {fund}. Status: {status}. Current value: {value}. Opened {opened}.",
    "Your {name}, {id}: {value}, held in the {fund}; it's {status}. It was opened on {opened}.",
    "Pot {id} ({name}) is worth {value} today. Fund: {fund}. Status: {status}. Opened on {opened}.",
  ],
  "balance.pot_not_found": [
    "I can't find a pot with the ID {id}. Pot IDs look like P-1234; yours are {pots}.",
    "There's no pot {id} on our system. Yours are {pots}.",
  ],
  "balance.pot_not_yours": [
    "Pot {id} isn't one of yours, so I can't share anything about it. Your pots are {pots}.",
    "Sorry, {id} belongs to a different member's account and I can't show it. You hold {pots}.",
  ],
  "statement.ask_year": [
    "Which annual statement would you like?\n1) 2024/25 (latest)\n2) 2023/24\n3) 2022/23\nReply with the number or the statement year.",
    "I can send statements for these years, just pick one:\n1) 2024/25\n2) 2023/24\n3) 2022/23",
    "Which statement year? Choose 1 for 2024/25, 2 for 2023/24 or 3 for 2022/23.",
  ],
  "statement.refused_unavailable": [
    "You joined the scheme on {joined}, so there's no {year} statement for you. Please choose a later statement year.",
    "There isn't a {year} statement on your account; your membership started on {joined}. Which later year would you like?",
  ],
  "statement.ask_delivery": [
    "How would you like your {year} statement?\nA) by email to {email}\nB) by post to {address}\nPlease reply A or B.",
    "Where should I send the {year} statement? A for email ({email}) or B for post ({address}).",
    "Delivery method for the {year} statement: A) email to {email}, or B) post to {address}?",
  ],
  "statement.done": [
    "Done. Your {year} statement will be sent by {method} to {dest}. Reference {ref}.",
    "Your {year} statement is on its way by {method} to {dest}. Reference {ref}.",
    "I've ordered your {year} statement by {method} ({dest}). Your reference is {ref}.",
  ],
  "contrib.ask_rate": [
    "You currently pay {current}% of your pensionable salary of {salary}, about {monthly} a month, and {employer} add {employerRate}%. What contribution rate would you like to pay instead? Anything from 2% to 25%.",
    "Right now your contribution is {current}% ({monthly} a month from a salary of {salary}), plus {employerRate}% from {employer}. What percentage would you like to change it to (2 to 25%)?",
    "At the moment {current}% of your {salary} salary goes into your pension each month ({monthly}); {employer} pay in another {employerRate}%. What's the new contribution rate you'd like, as a percentage?",
  ],
  "contrib.refused_not_active": [
    "You're a deferred member: you left {employer}'s scheme on {left}, so there's no payroll to take contributions from. A new employer would need to enrol you in their own scheme.",
    "I can't change contributions on your account because it's deferred (you left {employer} on {left}). Nothing is being paid in at the moment.",
  ],
  "contrib.refused_recent_change": [
    "You last changed your contribution rate on {last}. Payroll only allows one change every three months, so the earliest you can change it again is {next}.",
    "Contribution rates can only be changed once every three months. Yours was changed on {last}, so the next change is possible from {next}.",
  ],
  "contrib.refused_out_of_range": [
    "I can only set a contribution rate between 2% and 25% of your salary. What rate would you like?",
    "{rate}% is outside what the scheme allows; it needs to be from 2% to 25%. Please choose another contribution rate.",
  ],
  "contrib.same_rate": [
    "You're already paying {rate}%, so there's nothing to change.",
    "That's your current rate already ({rate}%), so I've left everything as it is.",
  ],
  "contrib.confirm": [
    "Just to check: your contribution would go from {old}% to {new}% of your salary, roughly {newMonthly} a month instead of {oldMonthly}, starting with your pay on {effective}. Shall I go ahead? (yes/no)",
    "Let me read that back. New rate {new}% (was {old}%), about {newMonthly} a month rather than {oldMonthly}, effective {effective}. Is that right? (yes/no)",
    "So that's {new}% from {effective}: around {newMonthly} a month compared with {oldMonthly} now. Do you want me to make this change? Yes or no.",
  ],
  "contrib.corrected": [
    "No problem, I've updated that to {new}%. That's about {newMonthly} a month from {effective} (currently {oldMonthly}). Shall I go ahead? (yes/no)",
    "Changed to {new}%: roughly {newMonthly} monthly, starting {effective}. Is that right now? (yes/no)",
  ],
  "contrib.declined": [
    "Okay, I've left your contribution at {old}%. Let me know if you'd like a different rate.",
    "Fine, no change made; you're still paying {old}%.",
  ],
  "contrib.done": [
    "All set. From {effective} you'll pay {rate}% of your salary, about {monthly} a month. Reference {ref}. Your employer's payroll team will be told automatically.",
    "Done: your contribution rate is now {rate}% ({monthly} a month) from {effective}. Reference {ref}.",
    "That's changed. {rate}% from {effective}, roughly {monthly} each month. Your reference is {ref}.",
  ],
  "withdraw.refused_under_age": [
    "I'm sorry, you can't take money from your pension until you're 55, which for you is {date55}. Until then it has to stay invested, unless you're seriously ill; if so, please speak to our team.",
    "Withdrawals are only possible from age 55. You'll reach that on {date55}, so I can't set up a lump sum yet.",
  ],
  "withdraw.ask_pot": [
    "Which pot would you like to take money from? You have {pots}. Please give the pot ID.",
    "Sure. Which pot should the withdrawal come from: {pots}? Tell me the pot ID.",
    "Which of your pots ({pots}) should I use? The pot ID is fine.",
  ],
  "withdraw.pot_not_found": [
    "I can't find pot {id}. Your pots are {pots}. Which one should I use?",
    "There's no pot called {id}. Please choose from {pots}.",
  ],
  "withdraw.refused_not_yours": [
    "Pot {id} isn't on your account, so I can't take money from it. Which of your own pots, {pots}, would you like to use?",
    "Sorry, {id} belongs to someone else. Please pick one of your pots: {pots}.",
  ],
  "withdraw.refused_pot_status": [
    "Your {name} ({id}) is {status}, so no withdrawals can be made from it. Would you like to choose a different pot? You have {pots}.",
    "I can't take money from {id}: it's {status}. Which other pot would you like to use ({pots})?",
  ],
  "withdraw.refused_advice_needed": [
    "Your {name} ({id}) includes a guaranteed annuity rate and is worth {value}. Because safeguarded benefits over £30,000 are involved, the law requires advice from a regulated financial adviser before you take money from it. Is there another pot you'd like to use? You have {pots}.",
    "{id} holds safeguarded benefits worth {value}, over the £30,000 limit, so you'll need regulated financial advice before any withdrawal. Would you like to use a different pot ({pots})?",
  ],
  "withdraw.ask_amount": [
    "Your {name} ({id}) is worth {value}. How much would you like to withdraw? The minimum is £1,000.",
    "How much would you like to take out of your {name}? It currently holds {value}; the minimum withdrawal is £1,000.",
    "And the withdrawal amount? Anything from £1,000 up to {value}, the full value of your {name}.",
  ],
  "withdraw.refused_under_minimum": [
    "The smallest withdrawal we can pay is £1,000. How much would you like to take?",
    "{amount} is below our £1,000 minimum. What withdrawal amount would you like instead?",
  ],
  "withdraw.refused_over_balance": [
    "That's more than the {value} in your {name}. Please choose an amount up to {value}.",
    "{amount} is more than your {name} holds ({value}). How much would you like to withdraw instead?",
  ],
  "withdraw.quote": [
    "Here's how a withdrawal of {gross} from your {name} works out:\n• Tax-free portion: {taxFree}\n• Taxable portion: {taxable}, estimated income tax {tax} at 20%\n• {feeLine}\nYou'd receive about {net}. Your actual tax could be higher if HMRC uses an emergency code.\nTo go ahead, type WITHDRAW. If you want a different amount, just tell me.",
    "Taking {gross} from your {name}: {taxFree} tax-free, {taxable} taxable (about {tax} income tax at 20%). {feeLine}. Estimated payment to you: {net}.\nIf you're happy, type the word WITHDRAW to confirm, or give me a different amount.",
    "Your quote for {gross} from the {name}:\n- tax-free: {taxFree}\n- taxable: {taxable} (estimated tax {tax})\n- {feeLine}\n- you'd get around {net}\nPlease type WITHDRAW to confirm, or tell me a new amount.",
  ],
  "withdraw.fee": [
    "Admin fee: {fee} (you've already had your two free withdrawals this tax year)",
    "A {fee} admin fee applies, as this is more than two withdrawals this tax year",
  ],
  "withdraw.no_fee": [
    "No admin fee: this is one of your two free withdrawals this tax year",
    "There's no admin fee on this one",
  ],
  "withdraw.word_mismatch": [
    "To protect you, I can only go ahead when you type the word WITHDRAW. Or say cancel to stop.",
    "I need you to type WITHDRAW to confirm the payment, or cancel if you've changed your mind.",
  ],
  "withdraw.ask_bank_digits": [
    "Thanks. We'll pay the money into the bank account we hold for you. Please re-enter the last four digits of that bank account to confirm it's still the right one.",
    "Nearly done. To make sure the money goes to the right place, please type the last four digits of your bank account.",
    "One last check: what are the last four digits of the bank account you'd like paid? It must match the one we hold.",
  ],
  "withdraw.bank_mismatch": [
    "Those digits don't match the account we hold. Please check and enter the last four digits of your bank account again.",
    "That's not the bank account we have on file. Could you re-enter its last four digits?",
  ],
  "withdraw.bank_giveup": [
    `They still don't match, so I haven't made any payment. If your bank details have changed, please call us on ${HELP}.`,
    `I've stopped here and nothing has been paid, as the bank account didn't match. Our team can update your bank details on ${HELP}.`,
  ],
  "withdraw.done": [
    "Done. {gross} is being withdrawn from your {name}. You should receive {net} in your bank account by {payDate}. Your reference is {ref}.",
    "Your withdrawal is booked: {gross} from {id}, with {net} paid to your account ending {bank} by {payDate}. Reference {ref}.",
    "All confirmed. We'll pay {net} (from a {gross} withdrawal) into your bank by {payDate}. Reference {ref}.",
  ],
  "benef.show_current": [
    "Your current expression of wish: {list}.",
    "These are the people you've nominated to receive your pension if you die: {list}.",
    "On file at the moment: {list}.",
  ],
  "benef.none": ["You haven't nominated anyone yet.", "There's no expression of wish on your account yet."],
  "benef.ask_count": [
    "How many people would you like to nominate? You can name up to 4. (This replaces your current nomination.)",
    "How many beneficiaries should your new nomination have: 1, 2, 3 or 4?",
    "Let's set up your new expression of wish. What number of beneficiaries (up to four) would you like to include?",
  ],
  "benef.refused_too_many": [
    "Online nominations can include up to 4 beneficiaries; for more, please use the paper form. How many would you like to nominate here (1 to 4)?",
    "I can only take up to four people online. How many beneficiaries, between 1 and 4?",
  ],
  "benef.ask_name": [
    "What's the full name of the {ordinal} beneficiary?",
    "Who's the {ordinal} person? Please give the beneficiary's full name.",
    "Please type the {ordinal} beneficiary's full name.",
  ],
  "benef.ask_relationship": [
    "What is {name}'s relationship to you? Reply with a number:\n1) Spouse or civil partner\n2) Partner\n3) Child\n4) Other relative\n5) Friend\n6) Charity",
    "How is {name} related to you?\n1 Spouse or civil partner, 2 Partner, 3 Child, 4 Other relative, 5 Friend, 6 Charity",
    "Choose {name}'s relationship from this list:\n1) Spouse or civil partner\n2) Partner\n3) Child\n4) Other relative\n5) Friend\n6) Charity",
  ],
  "benef.ask_share": [
    "What share of the benefits should {name} receive, as a percentage?",
    "And what percentage share should go to {name}?",
    "What share percent would you like {name} to have?",
  ],
  "benef.invalid_share": [
    "Please give a whole percentage between 1 and 100 for {name}.",
    "The share needs to be a number from 1 to 100. What percentage for {name}?",
  ],
  "benef.refused_total": [
    "Those shares add up to {total}%, but they need to total exactly 100%. Let's go through them again. What share should {name} receive?",
    "The percentages come to {total}% rather than 100%, so I can't save them. Starting again with {name}: what share percent?",
  ],
  "benef.confirm": [
    "Here's your new nomination:\n{list}\nShall I save this? It will replace your current one. (yes/no)",
    "Please check: {list}. Would you like me to save this as your expression of wish? (yes/no)",
    "New expression of wish: {list}. Save it? Yes or no.",
  ],
  "benef.done": [
    "Saved. Your expression of wish now reads: {list}. Reference {ref}. The trustees take it into account but aren't bound by it.",
    "That's recorded: {list}. Reference {ref}.",
    "Your nomination has been updated to {list}. Your reference is {ref}.",
  ],
  "transfer.ask_pot": [
    "Which pot would you like to transfer out? You have {pots}. Please give the pot ID.",
    "Which pot are you moving: {pots}? The pot ID is all I need.",
  ],
  "transfer.pot_not_found": [
    "I can't find pot {id}. Which of your pots ({pots}) would you like to transfer?",
    "There's no pot {id}. Please choose from {pots}.",
  ],
  "transfer.refused_not_yours": [
    "Pot {id} isn't on your account, so I can't transfer it. Which of your pots, {pots}, do you mean?",
    "{id} belongs to a different member. Please pick one of yours: {pots}.",
  ],
  "transfer.refused_status": [
    "Your {name} ({id}) is {status}, so it can't be transferred right now. Do you want to pick another pot ({pots})?",
    "{id} can't be moved: it's {status}. Any other pot ({pots})?",
  ],
  "transfer.refused_advice_needed": [
    `Your {name} ({id}) includes safeguarded benefits worth {value}. For transfers of safeguarded benefits over £30,000 the law requires you to take regulated financial advice first, so I can't start this online. Once you have your adviser's confirmation, please call us on ${HELP}.`,
    `{id} has a guaranteed annuity rate and is worth {value}, above the £30,000 advice threshold. You'll need advice from a regulated financial adviser before transferring; our team on ${HELP} can take it from there.`,
  ],
  "transfer.ask_scheme": [
    "Which pension scheme are you moving it to? Please give the receiving scheme's name.",
    "What's the name of the receiving scheme?",
    "Who's the new provider? Tell me the name of the receiving scheme.",
  ],
  "transfer.ask_scam_check": [
    "One question we ask everyone, to protect you from scams: did anyone contact you out of the blue (phone, text, email or social media) about moving your pension? (yes/no)",
    "Quick safety check: were you cold-called or contacted unexpectedly by anyone about this transfer? Yes or no.",
    "Before I go on: has anyone approached you unexpectedly, for example a call or message you didn't ask for, suggesting you move your pension? (yes/no)",
  ],
  "transfer.refused_scam_risk": [
    "Thanks for being honest. Unsolicited contact is a common sign of a pension scam, so I can't submit this transfer online. I've referred it to our safeguarding team (reference {ref}); they'll call you to talk it through. Please don't share any codes with anyone in the meantime.",
    "That's a warning sign we take seriously, so I've stopped the transfer here and passed it to our safeguarding team under reference {ref}. They'll contact you. Your money is safe where it is.",
  ],
  "transfer.confirm": [
    "Here's the request:\n• Pot: {name} ({id}), currently worth {value}\n• Moving to: {scheme}\n• Exit fee: none\nOnce submitted you'll have a 14-day cooling-off period, until {coolEnds}, to cancel. To submit, type TRANSFER.",
    "You're asking to move your {name} ({id}, {value}) to {scheme}. No exit fee. You can cancel within the cooling-off period ending {coolEnds}. If that's right, type the word TRANSFER.",
    "Transfer summary: {id} {name}, worth {value}, to {scheme}. Cooling-off ends {coolEnds}. Please type TRANSFER to send the request.",
  ],
  "transfer.word_mismatch": [
    "I'll only submit the transfer when you type the word TRANSFER. Or say cancel to stop here.",
    "To send it, please type TRANSFER exactly. Say cancel if you'd rather not.",
  ],
  "transfer.done": [
    "Submitted. Your transfer of the {name} ({id}) to {scheme} has reference {ref}. Your cooling-off period runs until {coolEnds}; you can cancel any time before then by asking me to cancel transfer {ref}.",
    "Transfer request {ref} is in: {id} to {scheme}. If you change your mind, you can cancel until {coolEnds}.",
    "Done, reference {ref}. We'll move your {name} to {scheme} once the cooling-off period ends on {coolEnds}.",
  ],
  "tcancel.ask_ref": [
    "Which transfer would you like to cancel? Please give the transfer reference; it starts with TR-.",
    "Sure. What's the transfer reference (TR- and five digits)?",
    "Could you give me the transfer reference you'd like to stop?",
  ],
  "tcancel.not_found": [
    "I can't find a transfer with reference {ref}. Could you check it? It looks like TR- followed by five digits.",
    "There's no transfer {ref} on our system. What's the transfer reference?",
  ],
  "tcancel.refused_not_yours": [
    "Transfer {ref} isn't on your account, so I can't cancel it. Do you have another transfer reference?",
    "That transfer ({ref}) belongs to another member. Which of your transfers did you mean?",
  ],
  "tcancel.refused_cooling_off_ended": [
    `Transfer {ref} was requested on {requested} and its cooling-off period ended on {coolEnds}, so it can no longer be cancelled. If you think something's wrong, please call us on ${HELP}.`,
    "The 14-day cooling-off period for {ref} finished on {coolEnds} (requested {requested}), so I'm afraid it can't be cancelled now.",
  ],
  "tcancel.already_cancelled": [
    "Transfer {ref} has already been cancelled; your money is staying with us.",
    "{ref} was cancelled already, so there's nothing more to do.",
  ],
  "tcancel.confirm": [
    "Transfer {ref}, your {potName} ({potId}) to {scheme}, was requested on {requested}. You're still inside the cooling-off period, which ends {coolEnds}. Do you want me to cancel it and keep your pension with Harbourline? (yes/no)",
    "I've found {ref}: {potId} moving to {scheme}, requested {requested}, cooling-off until {coolEnds}. Shall I cancel it? Yes or no.",
  ],
  "tcancel.kept": ["Okay, I've left transfer {ref} as it is.", "No change: transfer {ref} will carry on."],
  "tcancel.done": [
    "Cancelled. Transfer {ref} has been stopped and your {potName} is active again. Confirmation reference {cref}.",
    "Done, {ref} is cancelled and your money stays with Harbourline. Reference {cref}.",
    "I've cancelled transfer {ref}; {potId} is back to active. Your cancellation reference is {cref}.",
  ],
  "address.ask_line": [
    "We currently have your address as {current}. What's the first line of your new address (house number, street and town)?",
    "Your address on file is {current}. What's the new address line?",
    "Let's update it. We have {current} at the moment; please type the first line of your new address.",
  ],
  "address.ask_postcode": [
    "Thanks. And the postcode?",
    "Got it. What's the postcode?",
    "And the new postcode, please?",
  ],
  "address.invalid_postcode": [
    "That doesn't look like a UK postcode. Could you check it? For example LS1 4AP.",
    "Hmm, I can't read that as a postcode. What's the postcode (like HG1 2RT)?",
  ],
  "address.refused_overseas": [
    "Thanks for letting us know. I can only update UK addresses here; overseas addresses need extra checks, so I've passed this to our team (reference {ref}). They'll be in touch.",
    "For an address outside the UK we need to do a few extra checks, so I can't change it in this chat. I've raised it with our team under {ref}.",
  ],
  "address.reenter_postcode": [
    "To make sure post reaches you, please type the new postcode once more.",
    "Could you re-enter the postcode, just so I know it's right?",
    "Please confirm by typing the postcode again.",
  ],
  "address.postcode_mismatch": [
    "Those two postcodes don't match ({a} and {b}). Let's try again: what's your new postcode?",
    "Hmm, {a} and {b} are different. What is the correct postcode?",
  ],
  "address.done": [
    "Updated. We'll now write to you at {line}, {postcode}. Reference {ref}.",
    "Your address is now {line}, {postcode}. Reference {ref}.",
    "All changed: {line}, {postcode}. Your reference is {ref}.",
  ],
  "quote.ask_age": [
    "At what age would you like to retire? Pick any retirement age from {min} to 75.",
    "What retirement age should I use for the quote ({min} to 75)?",
    "Which age are you thinking of retiring at? Anything between {min} and 75.",
  ],
  "quote.refused_age": [
    "I can only quote for a retirement age from {min} to 75. What age should I use?",
    "{age} isn't possible for a quote; the retirement age needs to be between {min} and 75. Which age would you like?",
  ],
  "quote.ask_option": [
    "And how would you like to take your pension?\nA) A guaranteed income for life (annuity)\nB) Keep it invested and draw an income (drawdown)\nC) Take it all as cash\nReply A, B or C.",
    "Which retirement option should the quote show? A annuity, B drawdown or C all as cash.",
    "How would you take it: A) annuity, B) drawdown, or C) cash lump sum?",
  ],
  "quote.result": [
    "Here's your illustration for retiring at {age} in {year}: your pots could be worth about {projected}, assuming 3% growth a year{contribNote}. {optionText} Reference {ref}. This is an estimate, not a guarantee.",
    "Quote {ref}: retiring at {age} ({year}), projected pot {projected} (3% a year growth{contribNote}). {optionText} Figures are illustrations only.",
  ],
  "quote.annuity": [
    "You could take {cash} tax-free, then buy a guaranteed income of around {income} a year.",
    "That's {cash} tax-free plus an annuity of roughly {income} a year for life.",
  ],
  "quote.drawdown": [
    "You could take {cash} tax-free and leave {rest} invested; drawing 4% would give about {income} a year, not guaranteed.",
    "Drawdown: {cash} tax-free now, {rest} stays invested, and a 4% draw would be around {income} a year.",
  ],
  "quote.cash": [
    "Taking it all as cash: {cash} tax-free and {rest} taxed as income in that tax year.",
    "As a single cash sum: {cash} tax-free, with the other {rest} taxable as income.",
  ],
};
