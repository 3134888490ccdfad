/**
 * Data for the `heldout15` testbed agent: "Orla", the People & IT service desk of Brackenridge Instruments
 * (a mid-size UK instrument maker). Employees, tickets, calendars, catalogues, and the paraphrase tables
 * the agent picks its wording from.
 */

/** A calendar day, `YYYY-MM-DD`. */
export type IsoDay = string;

export type Role = "staff" | "manager" | "contractor";

export interface LeaveBooking {
  ref: string;
  start: IsoDay;
  end: IsoDay;
  days: number;
  status: "approved" | "pending";
}

export interface Employee {
  id: string;
  first: string;
  last: string;
  dob: IsoDay;
  payrollLast4: string;
  postcode: string;
  phoneLast4: string;
  smsCode: string;
  role: Role;
  dept: string;
  title: string;
  office: string;
  manager: string;
  leaveBalance: number;
  leave: LeaveBooking[];
  /** Catalogue keys already ordered this calendar year. */
  equipmentThisYear: string[];
  bank: { sort: string; account: string };
  networkLocked: boolean;
}

export type TicketStatus = "new" | "in_progress" | "resolved";

export interface Ticket {
  id: string;
  owner: string;
  title: string;
  status: TicketStatus;
  raised: IsoDay;
  assignee?: string;
  resolved?: IsoDay;
}

/** "Today" for every session, so replies are deterministic. */
export const TODAY: IsoDay = "2025-03-10";
export const LEAVE_YEAR = 2025;
export const NEXT_PAYDAY = "25 March";
export const PAYROLL_CUTOFF = "18 March";

export const EMPLOYEES: readonly Employee[] = [
  {
    id: "BR-20417",
    first: "Priya",
    last: "Natarajan",
    dob: "1990-02-14",
    payrollLast4: "8231",
    postcode: "LS6 2QT",
    phoneLast4: "4471",
    smsCode: "592046",
    role: "staff",
    dept: "Engineering",
    title: "Senior Test Engineer",
    office: "Leeds, Wellington Place",
    manager: "Tom Ellery",
    leaveBalance: 18,
    leave: [{ ref: "LV-1987", start: "2025-04-14", end: "2025-04-17", days: 4, status: "approved" }],
    equipmentThisYear: ["monitor"],
    bank: { sort: "204577", account: "41839921" },
    networkLocked: false,
  },
  {
    id: "BR-31862",
    first: "Marcus",
    last: "Webb",
    dob: "1985-09-03",
    payrollLast4: "4409",
    postcode: "LS16 5NB",
    phoneLast4: "2208",
    smsCode: "318604",
    role: "staff",
    dept: "Finance",
    title: "Finance Analyst",
    office: "Leeds, Wellington Place",
    manager: "Helen Osei",
    leaveBalance: 2.5,
    leave: [{ ref: "LV-1962", start: "2025-03-24", end: "2025-03-28", days: 5, status: "approved" }],
    equipmentThisYear: [],
    bank: { sort: "309612", account: "11227654" },
    networkLocked: true,
  },
  {
    id: "BR-40955",
    first: "Jo",
    last: "Kaminski",
    dob: "1993-11-22",
    payrollLast4: "0076",
    postcode: "S3 8RY",
    phoneLast4: "6610",
    smsCode: "774512",
    role: "contractor",
    dept: "IT Operations",
    title: "Network Contractor",
    office: "Sheffield, Kelham Island",
    manager: "Ravi Patel",
    leaveBalance: 0,
    leave: [],
    equipmentThisYear: [],
    bank: { sort: "401122", account: "70915533" },
    networkLocked: false,
  },
  {
    id: "BR-15003",
    first: "Dana",
    last: "Okafor",
    dob: "1979-06-30",
    payrollLast4: "5512",
    postcode: "HG1 4DX",
    phoneLast4: "9034",
    smsCode: "640281",
    role: "manager",
    dept: "Sales",
    title: "Regional Sales Manager",
    office: "Leeds, Wellington Place",
    manager: "Claire Dunmore",
    leaveBalance: 25,
    leave: [{ ref: "LV-1940", start: "2025-08-04", end: "2025-08-15", days: 10, status: "approved" }],
    equipmentThisYear: ["laptop"],
    bank: { sort: "608371", account: "55102938" },
    networkLocked: false,
  },
];

export const TICKETS: readonly Ticket[] = [
  { id: "INC-30512", owner: "BR-20417", title: "Laptop fan very loud", status: "new", raised: "2025-03-03" },
  {
    id: "INC-30498",
    owner: "BR-20417",
    title: "VPN keeps dropping when working from home",
    status: "in_progress",
    raised: "2025-02-26",
    assignee: "Sam Clarke",
  },
  {
    id: "INC-29877",
    owner: "BR-20417",
    title: "Can't print to the 3rd floor printer",
    status: "resolved",
    raised: "2025-01-15",
    resolved: "2025-01-16",
  },
  {
    id: "INC-30520",
    owner: "BR-31862",
    title: "Access to the expenses approval screen",
    status: "in_progress",
    raised: "2025-03-06",
    assignee: "Aisha Rahman",
  },
  {
    id: "INC-30531",
    owner: "BR-31862",
    title: "Replace broken docking station",
    status: "new",
    raised: "2025-03-07",
  },
  {
    id: "INC-30533",
    owner: "BR-40955",
    title: "Badge doesn't open the server room",
    status: "new",
    raised: "2025-03-07",
  },
  {
    id: "INC-30402",
    owner: "BR-15003",
    title: "CRM export timing out",
    status: "in_progress",
    raised: "2025-02-19",
    assignee: "Sam Clarke",
  },
  {
    id: "INC-30540",
    owner: "BR-15003",
    title: "Set up a laptop for a new starter",
    status: "new",
    raised: "2025-03-10",
  },
];

/** Bank holidays (England) plus the company's Christmas closure; none of these cost a day of leave. */
export const NON_WORKING: readonly { day: IsoDay; label: string }[] = [
  { day: "2025-01-01", label: "New Year's Day" },
  { day: "2025-04-18", label: "Good Friday" },
  { day: "2025-04-21", label: "Easter Monday" },
  { day: "2025-05-05", label: "Early May bank holiday" },
  { day: "2025-05-26", label: "Spring bank holiday" },
  { day: "2025-08-25", label: "Summer bank holiday" },
  { day: "2025-12-25", label: "Christmas Day" },
  { day: "2025-12-26", label: "Boxing Day" },
  { day: "2025-12-29", label: "Company closure" },
  { day: "2025-12-30", label: "Company closure" },
  { day: "2025-12-31", label: "Company closure" },
];

export interface Blackout {
  start: IsoDay;
  end: IsoDay;
  label: string;
  /** Only this department is affected; absent = everyone. */
  dept?: string;
}

export const BLACKOUTS: readonly Blackout[] = [
  { start: "2025-03-31", end: "2025-04-04", label: "the Finance year-end close", dept: "Finance" },
  { start: "2025-06-23", end: "2025-06-27", label: "the annual stocktake" },
  { start: "2025-09-29", end: "2025-10-03", label: "the Finance quarter-end close", dept: "Finance" },
];

export interface ExpenseCategory {
  key: string;
  label: string;
  cap: number;
  contractors: boolean;
  words: RegExp;
}

export const RECEIPT_THRESHOLD = 25;

export const EXPENSE_CATEGORIES: readonly ExpenseCategory[] = [
  {
    key: "travel",
    label: "Travel",
    cap: 500,
    contractors: true,
    words: /\b(travel|train|rail|taxi|cab|uber|mileage|flight|bus|parking|fuel|petrol)\b/,
  },
  {
    key: "meals",
    label: "Meals & subsistence",
    cap: 60,
    contractors: true,
    words: /\b(meals?|subsistence|lunch|dinner|breakfast|food|coffee|sandwich)\b/,
  },
  {
    key: "accommodation",
    label: "Accommodation",
    cap: 250,
    contractors: true,
    words: /\b(accommodation|hotel|b&b|airbnb|overnight|lodging)\b/,
  },
  {
    key: "training",
    label: "Training & courses",
    cap: 400,
    contractors: false,
    words: /\b(training|course|courses|conference|exam|certification|book|books)\b/,
  },
  {
    key: "home",
    label: "Home-office equipment",
    cap: 150,
    contractors: false,
    words: /\b(home[- ]?office|chair|desk|lamp|footrest|webcam)\b/,
  },
];

export interface CatalogueItem {
  key: string;
  letter: string;
  label: string;
  /** Who may order it. */
  eligible: (e: Employee) => boolean;
  rule: string;
  words: RegExp;
}

export const CATALOGUE: readonly CatalogueItem[] = [
  {
    key: "laptop",
    letter: "A",
    label: "14-inch laptop",
    eligible: (e) => e.role !== "contractor",
    rule: "Laptops are only issued to permanent staff; contractors use their agency's kit.",
    words: /\b(laptop|notebook|computer)\b/,
  },
  {
    key: "monitor",
    letter: "B",
    label: "27-inch monitor",
    eligible: (e) => e.role !== "contractor",
    rule: "Monitors are only issued to permanent staff.",
    words: /\b(monitor|screen|display)\b/,
  },
  {
    key: "headset",
    letter: "C",
    label: "USB headset",
    eligible: () => true,
    rule: "",
    words: /\b(headset|headphones?|earphones?)\b/,
  },
  {
    key: "keyboard",
    letter: "D",
    label: "keyboard and mouse set",
    eligible: () => true,
    rule: "",
    words: /\b(keyboard|mouse|mice)\b/,
  },
  {
    key: "phone",
    letter: "E",
    label: "mobile phone",
    eligible: (e) => e.role === "manager" || e.dept === "Sales",
    rule: "Work mobiles are for people managers and the Sales team.",
    words: /\b(mobile|phone|smartphone|iphone)\b/,
  },
];

export const SYSTEMS: readonly { key: string; label: string; words: RegExp }[] = [
  {
    key: "windows",
    label: "Windows / network login",
    words: /\b(windows|network|pc|laptop|computer|login)\b/,
  },
  { key: "email", label: "email (Outlook)", words: /\b(e-?mail|outlook|mail)\b/ },
  { key: "vpn", label: "VPN", words: /\b(vpn|remote access|globalprotect)\b/ },
];

/**
 * Paraphrase tables: a key → variants. The agent picks one variant per key by seed. Variants say the same
 * facts in different words; `{name}` placeholders are filled by the agent.
 */
export const P: Record<string, readonly string[]> = {
  // ── general ───────────────────────────────────────────────────────────────
  greet: [
    "Hi, I'm Orla, the Brackenridge People & IT desk. I can answer general questions straight away, or sign you in for things like leave, expenses, passwords and equipment. What do you need?",
    "Hello! Orla here, from People & IT at Brackenridge. Ask me about bank holidays, desk hours or the expenses policy, or sign in and I'll handle leave, claims, passwords, kit, bank details and tickets. How can I help?",
    "Morning! I'm Orla, Brackenridge's service desk assistant. What can I sort out for you today?",
  ],
  menu: [
    "Here's what I can do.\nWithout signing in: bank holidays and closure days, IT desk hours, the expenses policy, how to reach HR.\nOnce you're signed in: leave balance and booking annual leave, expense claims, password resets and account unlocks, equipment requests, payroll bank details, IT ticket status or cancellation, and raising a complaint with HR.",
    "I can help with two kinds of thing.\n• Open to anyone: the holiday calendar, when the IT desk is open, expenses rules, contacting HR.\n• After sign-in: annual leave (balance or a new request), expense claims, password reset or unlock, ordering equipment, your payroll bank details, checking or cancelling an IT ticket, and complaints to HR.",
  ],
  fallback: [
    "Sorry, I didn't follow that. I can help with bank holidays, IT desk hours, the expenses policy and contacting HR, and, once you're signed in, leave, expense claims, passwords, equipment, bank details, IT tickets and complaints. What would you like?",
    "I'm not sure what you mean there. Try asking about leave, expenses, a password, equipment, your bank details, an IT ticket, or a complaint. I can also tell you about bank holidays, IT desk hours or how to reach HR.",
    "Hmm, that one's beyond me. Things I can do: holiday calendar, IT desk hours, expenses policy, HR contacts; and after sign-in, annual leave, expense claims, password help, equipment, payroll bank details, ticket status or cancellation, complaints.",
  ],
  empty: [
    "I didn't get anything there. What can I help with?",
    "Looks like that came through blank. What do you need?",
  ],
  holidays: [
    "Bank holidays in 2025: 1 Jan, 18 Apr (Good Friday), 21 Apr (Easter Monday), 5 May, 26 May, 25 Aug, 25 Dec and 26 Dec. On top of those, the company closes 29–31 Dec. None of these days come out of your leave.",
    "The 2025 calendar: New Year's Day (1 Jan), Good Friday (18 Apr), Easter Monday (21 Apr), the May bank holidays (5 May and 26 May), the summer bank holiday (25 Aug), Christmas (25 Dec) and Boxing Day (26 Dec). The company closure runs 29–31 Dec. You don't need to book leave for any of them.",
  ],
  it_hours: [
    "The IT desk is staffed Monday to Friday 07:30–18:00 and Saturday 09:00–13:00, closed Sundays and bank holidays. Call ext 4400 or email itdesk@brackenridge.co.uk. For a site-wide outage out of hours, ring 0113 496 0700.",
    "IT desk hours: Mon–Fri 07:30 to 18:00, Sat 09:00 to 13:00. Sundays and bank holidays are closed. You can reach them on ext 4400 or at itdesk@brackenridge.co.uk, and for out-of-hours outages the on-call line is 0113 496 0700.",
  ],
  expense_policy: [
    "Expenses in brief: claims must be made within 60 days. Caps per claim are Travel £500, Meals & subsistence £60, Accommodation £250, Training & courses £400 and Home-office equipment £150. Anything over £25 needs a receipt. Contractors can claim Travel, Meals and Accommodation only. Approved claims are paid with the monthly salary on the 25th.",
    "The short version of the expenses policy: claim within 60 days; a receipt is required for anything above £25; per-claim limits are £500 Travel, £60 Meals & subsistence, £250 Accommodation, £400 Training & courses, £150 Home-office equipment. Training and home-office claims are for employees, not contractors. Payment goes out with payroll on the 25th.",
  ],
  contact_hr: [
    "You can reach the People team at people@brackenridge.co.uk or on ext 4100, Monday to Friday 09:00–17:00. There's also an HR drop-in every Thursday 14:00–16:00 on level 3 at Wellington Place.",
    "HR (the People team): email people@brackenridge.co.uk, phone ext 4100, weekdays 9 to 5. If you'd rather talk face to face, they run a drop-in on Thursdays from 2 to 4pm, level 3, Wellington Place.",
  ],
  handoff: [
    "I've asked {queue} to pick this up. Someone will reply in this chat within 15 minutes during working hours (reference {ref}).",
    "Okay, passing you to {queue} now. Your reference is {ref}; a person will join this conversation shortly, normally within 15 minutes in working hours.",
    "No problem, I've put you through to {queue} (reference {ref}). They'll be with you here soon, usually within a quarter of an hour in working hours.",
  ],
  goodbye: ["You're welcome. Have a good day!", "Glad I could help. Bye for now!", "Anytime. Take care!"],
  abandoned: [
    "No problem, I've dropped that. Anything else?",
    "Okay, I've left that there and nothing was changed. What else can I do?",
    "Sure, cancelled. Nothing's been submitted. Anything else?",
  ],
  yesno_again: [
    "Sorry, was that a yes or a no?",
    "I just need a yes or a no on that one.",
    "Could you answer yes or no, please?",
  ],

  // ── sign-in ───────────────────────────────────────────────────────────────
  auth_need: [
    "I can help with that once I know who you are. What's your employee ID? It's the BR- number on your badge (like BR-12345).",
    "For that I'll need to sign you in first. Please tell me your employee ID (it starts BR- and is printed on your badge).",
    "Happy to, but first I need to check who I'm talking to. What's your employee ID? You'll find it on your badge, e.g. BR-12345.",
  ],
  auth_ask_id: [
    "Sure. What's your employee ID? It looks like BR-12345.",
    "Let's get you signed in. Your employee ID, please (BR- followed by five digits).",
  ],
  auth_bad_id: [
    "That doesn't look like an employee ID. It should be BR- followed by five digits, for example BR-12345.",
    "Hmm, I need an employee ID in the form BR-12345. Could you check your badge and try again?",
  ],
  auth_ask_secret: [
    "Thanks. Now your date of birth and the last 4 digits of your payroll number, please (for example: 31/01/1990 and 1234).",
    "Got it. To confirm it's you, what are your date of birth and the last 4 digits of your payroll number? Something like 31/01/1990, 1234.",
    "Thanks. Next I need two things: your date of birth, and the last 4 digits of your payroll number (e.g. 31/01/1990 1234).",
  ],
  auth_bad_secret: [
    "I need both your date of birth (like 31/01/1990) and the last 4 digits of your payroll number. Could you send both together?",
    "I couldn't pick out both details there. Please give your date of birth and the last 4 digits of your payroll number, e.g. 31/01/1990 and 1234.",
  ],
  auth_failed: [
    "Those details don't match our records. You have {left} more {attempts} before sign-in is locked. What's your employee ID?",
    "Sorry, that didn't match. {left} {attempts} left before I have to lock sign-in. Let's start again: your employee ID?",
  ],
  auth_failed_nolimit: [
    "Those details don't match our records. Let's try again: what's your employee ID?",
    "Sorry, that didn't match. Let's start again: your employee ID?",
  ],
  auth_locked: [
    "Sign-in is now locked for this chat after 3 failed attempts. For your security I can't take more tries, but I can put you through to the IT desk. Just say 'human'. IT desk: ext 4400.",
    "That's 3 failed attempts, so I've locked sign-in for this chat. If you need help getting in, say 'human' and I'll connect you to the IT desk (or call ext 4400).",
  ],
  auth_still_locked: [
    "Sign-in is locked for this chat after too many failed attempts, so I can't do anything that needs it. Say 'human' to reach the IT desk, or call ext 4400.",
    "I'm afraid sign-in is locked after 3 failed attempts. I can still answer general questions, or connect you to the IT desk if you say 'human'.",
  ],
  auth_signed_in: [
    "Thanks, {first}, you're signed in. What can I help you with?",
    "You're in. Hi {first}! What would you like to do?",
    "All verified. Welcome, {first}. What do you need today?",
  ],
  auth_signed_in_then: [
    "Thanks, {first}, you're signed in.",
    "You're in, {first}.",
    "Verified, thanks {first}.",
  ],
  auth_already: [
    "You're already signed in as {first} {last}. What can I help with?",
    "You're signed in already ({first} {last}). What would you like to do?",
  ],
  auth_signed_out: [
    "You're signed out. Thanks for using the service desk!",
    "Done, you've been signed out of this chat.",
  ],
  auth_not_signed_in: [
    "You weren't signed in, so there's nothing to sign out of.",
    "You're not signed in at the moment.",
  ],

  // ── leave ─────────────────────────────────────────────────────────────────
  leave_balance: [
    "You have {balance} of annual leave left for {year}.{booked}",
    "Your remaining {year} annual leave is {balance}.{booked}",
  ],
  leave_ineligible: [
    "Contractors don't have a Brackenridge leave allowance, so I can't show a balance or book leave for you. Time off is arranged through your agency; let {manager} know your dates.",
    "As a contractor you aren't on the Brackenridge leave scheme, so there's no balance here and I can't book time off. Please arrange it with your agency and tell {manager}.",
  ],
  leave_ask_dates: [
    "Sure. What's the first day and the last day you'd like off? (e.g. 14 July to 18 July)",
    "Let's book it. Which dates? Give me the first and last day of your leave, like 14/07 to 18/07.",
    "Okay, what dates are you after? First day off and last day off, please.",
  ],
  leave_bad_unparsed: [
    "I couldn't read those dates. Please give a first and last day, like 14 July to 18 July or 14/07/2025 to 18/07/2025.",
    "Sorry, I didn't understand the dates. Try something like 3 June to 6 June.",
  ],
  leave_bad_order: [
    "The last day ({end}) is before the first day ({start}). Which dates did you mean?",
    "Those dates are the wrong way round: {end} comes before {start}. Could you give them again?",
  ],
  leave_bad_invalid: [
    "One of those isn't a real date. Could you check and send them again?",
    "That date doesn't exist on the calendar. Try again?",
  ],
  leave_bad_year: [
    "I can only book leave in the current leave year (January to December {year}). Which dates in {year}?",
    "Leave requests here are for {year} only. Could you pick dates this year?",
  ],
  leave_bad_nodays: [
    "{start} to {end} is all weekend or bank holidays, so there's nothing to book.",
    "There are no working days between {start} and {end}, so no leave is needed.",
  ],
  leave_refused_past: [
    "I can't book leave that starts in the past ({start}). If you were off already, your manager can record it. Any future dates?",
    "{start} has already gone, so I can't put in a request for it. Want to try other dates?",
  ],
  leave_refused_blackout: [
    "Sorry, {start} to {end} overlaps {label} ({bstart}–{bend}), when leave isn't allowed. Could you pick other dates?",
    "I can't book that: leave is blocked during {label}, {bstart} to {bend}. Any other dates?",
  ],
  leave_refused_overlap: [
    "You already have leave booked from {ostart} to {oend} ({ref}), which overlaps those dates. Want to choose different days?",
    "Those dates clash with your existing booking {ref} ({ostart}–{oend}). Could you pick days that don't overlap?",
  ],
  leave_refused_balance: [
    "That's {days} working {dayword}, but you only have {balance} left, so I can't submit it. Try a shorter period?",
    "You'd need {days} working {dayword} and your balance is {balance}. I can't book more than you have. Shorter dates?",
  ],
  leave_confirm: [
    "Here's the request: {start} to {end}, {days} working {dayword}. Your balance would go from {balance} to {after}. It'll go to {manager} for approval. Shall I send it? (yes/no)",
    "Just to check: leave from {start} to {end}, which is {days} working {dayword}, leaving you {after} (from {balance}). {manager} will need to approve it. Submit? (yes/no)",
    "So that's {start} through {end}: {days} working {dayword}, taking your balance from {balance} down to {after}. The request goes to {manager} to approve. OK to send? (yes/no)",
  ],
  leave_corrected: ["Got it, I've changed that.", "No problem, updated.", "Sure, amended."],
  leave_booked: [
    "Done. Request {ref} is in and waiting for {manager} to approve it. Your balance now shows {after}.",
    "Sent! {ref} has gone to {manager} for approval. Remaining balance: {after}.",
    "That's submitted as {ref}. {manager} will get an approval email; your balance is now {after}.",
  ],
  leave_declined: [
    "Okay, I haven't sent anything.",
    "No problem, nothing's been booked.",
    "Fine, I've left it. Nothing submitted.",
  ],

  // ── expenses ──────────────────────────────────────────────────────────────
  expense_ask_category: [
    "What kind of expense is it?\n1. Travel\n2. Meals & subsistence\n3. Accommodation\n4. Training & courses\n5. Home-office equipment",
    "Which category does it fall under? Reply with a number:\n1. Travel\n2. Meals & subsistence\n3. Accommodation\n4. Training & courses\n5. Home-office equipment",
  ],
  expense_bad_category: [
    "Sorry, I need one of the categories: 1 Travel, 2 Meals & subsistence, 3 Accommodation, 4 Training & courses, 5 Home-office equipment.",
    "That's not one of the options. Pick 1 to 5: Travel, Meals & subsistence, Accommodation, Training & courses, Home-office equipment.",
  ],
  expense_refused_ineligible: [
    "{category} claims are only open to employees, so as a contractor you can't claim those here. You can claim Travel, Meals & subsistence or Accommodation.",
    "Sorry, contractors can't claim {category}. The categories open to you are Travel, Meals & subsistence and Accommodation.",
  ],
  expense_ask_amount: [
    "{category}. How much are you claiming, in pounds?",
    "Okay, {category}. What's the amount (e.g. £42.50)?",
    "{category} it is. And the total amount?",
  ],
  expense_bad_amount: [
    "I need an amount in pounds, like 42.50. What's the total?",
    "That doesn't look like an amount. Please give it in pounds and pence, e.g. £18.20.",
  ],
  expense_refused_limit: [
    "{category} claims are capped at £{cap} each, so I can't submit £{amount}. If there's a good reason for the extra, your manager can approve an exception in the finance portal. You can give me a lower amount, or say cancel.",
    "Sorry, £{amount} is over the £{cap} limit for {category}. I can't put that through. Exceptions need manager sign-off in the finance portal. Want to claim a different amount?",
  ],
  expense_ask_receipt: [
    "Anything over £25 needs a receipt. What's the receipt reference from the Snap app? It starts RC- (e.g. RC-123456).",
    "Claims above £25 need a receipt. Please give me the receipt reference you got when you scanned it (RC- and six digits).",
  ],
  expense_bad_receipt: [
    "That doesn't look like a receipt reference. It should be RC- followed by six digits, like RC-204918. If you don't have one, just say so.",
    "I need a reference in the form RC-123456. Do you have it?",
  ],
  expense_refused_no_receipt: [
    "Without a receipt I can't submit a claim over £25; it's a firm rule from Finance. Scan the receipt in the Snap app and come back with the RC- reference.",
    "Sorry, claims above £25 must have a receipt, so I can't send this one. Once you've scanned it (Snap app), I can submit it with the RC- reference.",
  ],
  expense_ask_description: [
    "Thanks. In a few words, what was it for?",
    "And a short description, please (e.g. 'train to Birmingham for supplier visit').",
    "Nearly there. What was the expense for?",
  ],
  expense_confirm: [
    'Here\'s your claim: {category}, £{amount}, "{description}"{receipt}. Submit it? (yes/no)',
    'Please check: £{amount} under {category} for "{description}"{receipt}. Shall I send it to Finance? (yes/no)',
    'Claim summary: {category}, £{amount}, "{description}"{receipt}. OK to submit? (yes/no)',
  ],
  expense_corrected: ["Changed, thanks.", "Sure, I've updated it.", "Okay, amended."],
  expense_submitted: [
    "Submitted: claim {ref} for £{amount} ({category}). Once {manager} approves it, it'll be paid with your salary on {payday}.",
    "All done. Claim {ref}, £{amount} for {category}, has gone to {manager} for approval and will be paid on {payday} if approved.",
    "That's in: {ref}, £{amount} ({category}). Approved claims are paid on {payday}; {manager} has been notified.",
  ],
  expense_declined: [
    "Okay, I haven't submitted it.",
    "No problem, the claim wasn't sent.",
    "Fine, nothing's been submitted.",
  ],

  // ── passwords ─────────────────────────────────────────────────────────────
  pwd_ask_action: [
    "I can help with that. Which do you need?\n(a) reset a password\n(b) unlock my account",
    "Sure. Is it:\n(a) a password reset, or\n(b) unlocking your account?",
  ],
  pwd_ask_system: [
    "Which password should I reset?\n1. Windows / network login\n2. Email (Outlook)\n3. VPN",
    "Which system is it for? 1 for Windows / network login, 2 for email (Outlook), 3 for VPN.",
  ],
  pwd_ask_code: [
    "I've just texted a 6-digit code to your work mobile ending {phone}. What is it?",
    "For security I've sent a verification code to your work phone (ending {phone}). Please type the 6 digits.",
    "One more check: there's a 6-digit code on its way to your work mobile ending {phone}. What does it say?",
  ],
  pwd_bad_code: [
    "That code isn't right. You have one more try. What's the 6-digit code we texted you?",
    "Sorry, that doesn't match the code I sent. One more attempt, please.",
  ],
  pwd_code_format: [
    "The code is 6 digits long. What does the text message say?",
    "That doesn't look like the code; it should be 6 digits. Could you check the message again?",
  ],
  pwd_handoff: [
    "That code didn't match again, so I can't go ahead. I've passed this to the IT desk (reference {ref}); they'll call you on your work mobile to finish the reset.",
    "Two wrong codes, so I've stopped there for security. The IT desk has your request ({ref}) and will ring you to sort it out.",
  ],
  pwd_reset_done: [
    "Done. Your {system} password has been reset. Temporary password: {temp}. You'll be asked to choose a new one the first time you log in.",
    "Your {system} password is reset. Log in with the temporary password {temp}; it'll make you set a new one straight away.",
  ],
  pwd_unlocked: [
    "Your account was locked and I've unlocked it. You can log in again now; if you've forgotten the password, ask me to reset it.",
    "Unlocked! Your network account is active again. Try logging in now.",
  ],
  pwd_not_locked: [
    "Your account isn't locked at the moment, so there's nothing to unlock. If you can't log in, it might be the password. Want me to reset it?",
    "I checked: your account is not locked. If you're still stuck, I can reset your password instead.",
  ],

  // ── equipment ─────────────────────────────────────────────────────────────
  equip_catalogue: [
    "What do you need? Pick a letter:\n(A) 14-inch laptop\n(B) 27-inch monitor\n(C) USB headset\n(D) keyboard and mouse set\n(E) mobile phone\nEach item can be ordered once per calendar year.",
    "Here's the catalogue:\nA: 14-inch laptop\nB: 27-inch monitor\nC: USB headset\nD: keyboard and mouse set\nE: mobile phone\nWhich one? (One of each per year.)",
  ],
  equip_bad_choice: [
    "Please choose A, B, C, D or E from the list.",
    "Sorry, I need a letter from A to E: laptop, monitor, headset, keyboard and mouse, or mobile phone.",
  ],
  equip_refused_role: [
    "I can't order a {item} for you. {rule}",
    "Sorry, a {item} isn't available to you. {rule}",
  ],
  equip_refused_yearly: [
    "You've already had a {item} this year, and it's one of each per calendar year. If yours is broken, raise a fault with the IT desk (ext 4400) instead.",
    "Our records show a {item} already issued to you in {year}. Only one per year, I'm afraid. For a faulty one, the IT desk can swap it.",
  ],
  equip_other: [
    "Is there something else from the catalogue you need (A to E)?",
    "Anything else I can order instead? Reply with a letter from A to E, or 'cancel'.",
  ],
  equip_ask_delivery: [
    "A {item}, sure. Where should it go?\n1. Your desk at {office}\n2. Your home address (postcode {postcode})",
    "Where would you like the {item} delivered? 1 for your desk at {office}, 2 for home ({postcode}).",
  ],
  equip_bad_delivery: [
    "Please reply 1 (office desk) or 2 (home).",
    "Just 1 for the office or 2 for home, please.",
  ],
  equip_confirm: [
    "So that's one {item}, delivered to {where}. Place the order? (yes/no)",
    "Order a {item} for delivery to {where}? (yes/no)",
  ],
  equip_ordered: [
    "Ordered: {ref}, one {item} to {where}. It usually arrives within 3 working days.",
    "Done. Order {ref} for a {item} is placed and will go to {where}, normally within 3 working days.",
  ],
  equip_declined: ["Okay, I haven't ordered anything.", "No problem, order not placed."],

  // ── bank details ──────────────────────────────────────────────────────────
  bank_ask_reverify: [
    "Bank details are sensitive, so I need one more check. What's the postcode of your home address?",
    "Before I show or change payroll bank details, please confirm your home postcode.",
  ],
  bank_reverify_retry: [
    "That postcode doesn't match what we hold. One more try?",
    "Sorry, that's not the postcode on file. Please try once more.",
  ],
  bank_reverify_failed: [
    "That didn't match again, so I can't open your bank details in chat. Please contact payroll on ext 4120 or payroll@brackenridge.co.uk.",
    "Still no match, so for security I've stopped. Payroll can help directly: ext 4120, payroll@brackenridge.co.uk.",
  ],
  bank_show: [
    "Your salary is paid to sort code {sort}, account ending {acct}.",
    "On file: sort code {sort}, account number ending {acct}.",
  ],
  bank_offer_change: ["Would you like to change them? (yes/no)", "Do you want to update them? (yes/no)"],
  bank_ask_new: [
    "What are the new sort code and account number? (e.g. 12-34-56 and 12345678)",
    "Please give me the new sort code and 8-digit account number, like 12-34-56 12345678.",
  ],
  bank_bad_format: [
    "I need a 6-digit sort code and an 8-digit account number, e.g. 12-34-56 and 12345678. Could you send both again?",
    "That doesn't look right: a sort code is 6 digits (12-34-56) and an account number is 8. Please try again.",
  ],
  bank_same: [
    "Those are the details we already hold, so there's nothing to change. Any different details?",
    "That's the same account we already pay into. Did you mean a different one?",
  ],
  bank_confirm: [
    "New details: sort code {sort}, account ending {acct}.{warning} To confirm, type CHANGE. Anything else cancels.",
    "I'll switch your salary to sort code {sort}, account ending {acct}.{warning} Type CHANGE to go ahead, or anything else to cancel.",
  ],
  bank_warning: [
    " Heads-up: the {cutoff} payroll cut-off hasn't passed, so your {payday} salary will go to this new account. Payroll will also email you to confirm the change.",
    " Please note: because today is before the {cutoff} cut-off, your {payday} pay will be sent to the new account. You'll get a confirmation email from payroll.",
  ],
  bank_updated: [
    "Done. Payroll will now pay into sort code {sort}, account ending {acct}.",
    "Updated. Your salary account is now sort code {sort}, account ending {acct}.",
  ],
  bank_declined: [
    "Okay, nothing changed; your bank details stay as they are.",
    "No changes made. Your current account stays on file.",
  ],

  // ── tickets ───────────────────────────────────────────────────────────────
  ticket_ask_id: [
    "Which ticket? Give me the number, like INC-30000.{open}",
    "What's the ticket number (INC- and five digits)?{open}",
  ],
  ticket_bad_id: [
    "Ticket numbers look like INC-12345. Which one do you mean?",
    "I need a ticket number in the form INC-12345. Could you check it?",
  ],
  ticket_not_found: [
    "I can't find {id} among your tickets. Could you check the number?",
    "There's no ticket {id} on your account. Maybe a typo?",
  ],
  ticket_status: [
    '{id}: "{title}", raised by {owner} on {raised}. Status: {status}.{hint}',
    "Here's {id} (\"{title}\"), opened by {owner} on {raised}. It's {status}.{hint}",
  ],
  ticket_cancel_hint: [
    " If you don't need it any more, just say 'cancel it'.",
    " You can still cancel it if it's no longer needed.",
  ],
  ticket_confirm_cancel: [
    "Cancel {id} (\"{title}\")? It hasn't been picked up yet, so it'll just be closed. (yes/no)",
    'Shall I cancel {id}, "{title}"? (yes/no)',
  ],
  ticket_refused_in_progress: [
    "{id} is already being worked on by {assignee}, so I can't cancel it here. If you don't need it any more, reply to their email or call the IT desk on ext 4400.",
    "Sorry, {id} is in progress with {assignee}, and tickets can only be cancelled before someone picks them up. Please let {assignee} know directly (ext 4400).",
  ],
  ticket_refused_resolved: [
    "{id} was resolved on {resolved}, so there's nothing to cancel.",
    "That one's already closed (resolved {resolved}). Nothing to cancel.",
  ],
  ticket_cancelled: ["Cancelled. {id} is closed and won't be picked up.", "Done, {id} has been withdrawn."],
  ticket_kept: ["Okay, {id} stays open.", "No problem, I've left {id} as it is."],

  // ── complaints ────────────────────────────────────────────────────────────
  complaint_ask_details: [
    "I'm sorry something's gone wrong. Tell me briefly what happened, and I'll get it to the right person in HR.",
    "Okay. In a sentence or two, what's the complaint about? An HR advisor will take it from there.",
  ],
  complaint_ask_confidential: [
    "Thank you. Does this involve a specific colleague or manager? (yes/no)",
    "Thanks for telling me. Is it about a particular person you work with? (yes/no)",
  ],
  complaint_handoff: [
    "I've passed this to an HR advisor as case {ref}.{conf} They'll contact you within 2 working days. If you feel unsafe at work, call the People team on ext 4100 now.",
    "Your complaint is logged as {ref} and with an HR advisor.{conf} Expect to hear from them within 2 working days; for anything urgent, ring ext 4100.",
  ],
  complaint_confidential: [
    " Because it involves a colleague, it's marked confidential and won't go to your line manager.",
    " As it concerns someone you work with, it's been flagged confidential and kept away from your management chain.",
  ],
};
