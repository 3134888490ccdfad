/**
 * Records, personas and wording for `heldout20`: "Dot", the chat helper of Cogley & Daughters, an independent
 * chain of car-servicing garages (servicing, MOT tests, repairs). Everything here is seed data: each session
 * works on its own copy.
 */

/** The bot's idea of "now": Monday 10 March 2025, 2pm. */
export const NOW = "2025-03-10T14:00";
export const TODAY = "2025-03-10";

export type BranchId = "kirkstall" | "fallowfield" | "horfield";
export type ServiceType = "mot" | "interim" | "full" | "major";

export interface Branch {
  readonly name: string;
  readonly address: string;
  /** Slots still free for new or moved bookings (ISO local time). */
  readonly slots: readonly string[];
  /** Courtesy cars in the branch's fleet. */
  readonly fleet: number;
}

export const BRANCHES: Record<BranchId, Branch> = {
  kirkstall: {
    name: "Kirkstall",
    address: "14 Kirkstall Road, Leeds LS4 2AB",
    slots: ["2025-03-17T09:00", "2025-03-18T13:30", "2025-03-20T08:30", "2025-03-22T10:00"],
    fleet: 3,
  },
  fallowfield: {
    name: "Fallowfield",
    address: "202 Wilmslow Road, Manchester M14 6LF",
    slots: ["2025-03-17T11:00", "2025-03-19T14:00", "2025-03-21T08:00", "2025-03-24T09:30"],
    fleet: 2,
  },
  horfield: {
    name: "Horfield",
    address: "Unit 3, Gloucester Road Trading Estate, Bristol BS7 0XT",
    slots: ["2025-03-18T08:00", "2025-03-19T10:30", "2025-03-25T13:00", "2025-03-27T09:00"],
    fleet: 2,
  },
};

/** Branch-days whose courtesy cars are all out already (`branch|date`). */
export const COURTESY_FULLY_BOOKED: readonly string[] = ["horfield|2025-03-13", "kirkstall|2025-03-21"];

export const SERVICE_LABEL: Record<ServiceType, string> = {
  mot: "MOT test",
  interim: "interim service",
  full: "full service",
  major: "major service",
};

/** Prices in pence, VAT included. */
export const SERVICE_PRICE: Record<ServiceType, number> = {
  mot: 5485,
  interim: 14900,
  full: 23900,
  major: 32900,
};

export const COURTESY_DAY_RATE = 2000;
export const COURTESY_MAX_DAYS = 3;
export const COURTESY_MIN_AGE = 25;
export const LATE_CANCEL_FEE = 2500;
export const LATE_CANCEL_HOURS = 48;
export const MOVE_CUTOFF_HOURS = 24;
export const WARRANTY_MONTHS = 12;
export const WARRANTY_MILES = 12000;
export const MIN_PART_PAYMENT = 1000;
export const MAX_AUTH_FAILURES = 3;

export interface Account {
  readonly id: string;
  readonly firstName: string;
  readonly surname: string;
  readonly reg: string;
  readonly postcode: string;
  readonly code: string;
  readonly memorableWord: string;
  mobile: string;
  readonly cardLast4: string;
  readonly driverAge: number;
  readonly vehicle: string;
  readonly firstRegistered: string;
  mileage: number;
  readonly branch: BranchId;
}

export type BookingStatus = "booked" | "completed" | "cancelled";

export interface Booking {
  readonly ref: string;
  readonly accountId: string;
  readonly type: ServiceType;
  when: string;
  readonly branch: BranchId;
  status: BookingStatus;
  courtesyDays?: number;
}

export interface QuoteLine {
  readonly label: string;
  readonly pence: number;
}

export type QuoteStatus = "pending" | "approved" | "part-approved" | "declined";

export interface Quote {
  readonly ref: string;
  readonly accountId: string;
  readonly raised: string;
  readonly validUntil: string;
  status: QuoteStatus;
  decidedOn?: string;
  readonly lines: readonly QuoteLine[];
  approvedLines?: number[];
}

export interface Invoice {
  readonly ref: string;
  readonly accountId: string;
  readonly date: string;
  readonly description: string;
  readonly totalPence: number;
  paidPence: number;
}

export interface RepairJob {
  readonly ref: string;
  readonly accountId: string;
  readonly date: string;
  readonly description: string;
  readonly mileageAtRepair: number;
  claimed?: boolean;
}

export interface GarageDb {
  accounts: Account[];
  bookings: Booking[];
  quotes: Quote[];
  invoices: Invoice[];
  jobs: RepairJob[];
}

export const SEED_DB: GarageDb = {
  accounts: [
    {
      id: "A-101",
      firstName: "Priya",
      surname: "Shah",
      reg: "KD19XRT",
      postcode: "LS6 2QA",
      code: "481907",
      memorableWord: "marmalade",
      mobile: "07700900471",
      cardLast4: "4471",
      driverAge: 38,
      vehicle: "2019 Ford Focus 1.0 EcoBoost",
      firstRegistered: "2019-06-14",
      mileage: 47950,
      branch: "kirkstall",
    },
    {
      id: "A-102",
      firstName: "Tom",
      surname: "Okafor",
      reg: "YA23MKP",
      postcode: "M14 5RD",
      code: "302114",
      memorableWord: "kestrel",
      mobile: "07700900228",
      cardLast4: "0923",
      driverAge: 22,
      vehicle: "2023 Volkswagen Polo Life",
      firstRegistered: "2023-05-02",
      mileage: 12400,
      branch: "fallowfield",
    },
    {
      id: "A-103",
      firstName: "Maggie",
      surname: "Doyle",
      reg: "BN16UFE",
      postcode: "BS7 8LP",
      code: "775030",
      memorableWord: "bluebell",
      mobile: "07700900615",
      cardLast4: "8816",
      driverAge: 61,
      vehicle: "2016 Skoda Octavia Estate 2.0 TDI",
      firstRegistered: "2016-09-30",
      mileage: 88300,
      branch: "horfield",
    },
  ],
  bookings: [
    {
      ref: "BK-2041",
      accountId: "A-101",
      type: "full",
      when: "2025-03-14T09:00",
      branch: "kirkstall",
      status: "booked",
    },
    {
      ref: "BK-2057",
      accountId: "A-101",
      type: "mot",
      when: "2025-03-11T08:30",
      branch: "kirkstall",
      status: "booked",
    },
    {
      ref: "BK-1988",
      accountId: "A-101",
      type: "interim",
      when: "2025-02-03T09:00",
      branch: "kirkstall",
      status: "completed",
    },
    {
      ref: "BK-2063",
      accountId: "A-102",
      type: "interim",
      when: "2025-03-19T10:00",
      branch: "fallowfield",
      status: "booked",
    },
    {
      ref: "BK-2070",
      accountId: "A-103",
      type: "major",
      when: "2025-03-13T08:00",
      branch: "horfield",
      status: "booked",
    },
    {
      ref: "BK-2074",
      accountId: "A-103",
      type: "mot",
      when: "2025-03-26T15:00",
      branch: "horfield",
      status: "booked",
    },
  ],
  quotes: [
    {
      ref: "Q-7781",
      accountId: "A-101",
      raised: "2025-03-07",
      validUntil: "2025-03-21",
      status: "pending",
      lines: [
        { label: "Front brake pads, supplied and fitted", pence: 8640 },
        { label: "Rear wiper blade", pence: 1499 },
        { label: "Coolant drain and refill", pence: 5900 },
      ],
    },
    {
      ref: "Q-7702",
      accountId: "A-101",
      raised: "2025-02-03",
      validUntil: "2025-02-17",
      status: "approved",
      decidedOn: "2025-02-03",
      lines: [{ label: "Cabin air filter", pence: 2450 }],
      approvedLines: [0],
    },
    {
      ref: "Q-7790",
      accountId: "A-102",
      raised: "2025-02-15",
      validUntil: "2025-03-01",
      status: "pending",
      lines: [
        { label: "Front tyre, 185/65 R15, fitted and balanced", pence: 9200 },
        { label: "Four-wheel alignment", pence: 4500 },
      ],
    },
    {
      ref: "Q-7795",
      accountId: "A-103",
      raised: "2025-03-08",
      validUntil: "2025-03-22",
      status: "pending",
      lines: [
        { label: "Timing belt and water pump kit", pence: 28900 },
        { label: "Auxiliary drive belt", pence: 3850 },
        { label: "Front anti-roll bar drop links (pair)", pence: 7400 },
        { label: "Screenwash top-up", pence: 500 },
      ],
    },
  ],
  invoices: [
    {
      ref: "INV-55012",
      accountId: "A-101",
      date: "2025-02-03",
      description: "interim service and cabin filter",
      totalPence: 23900,
      paidPence: 10000,
    },
    {
      ref: "INV-54870",
      accountId: "A-101",
      date: "2024-09-02",
      description: "clutch replacement",
      totalPence: 64800,
      paidPence: 64800,
    },
    {
      ref: "INV-55120",
      accountId: "A-102",
      date: "2025-01-15",
      description: "two front tyres",
      totalPence: 14900,
      paidPence: 0,
    },
    {
      ref: "INV-55098",
      accountId: "A-103",
      date: "2024-08-10",
      description: "water pump replacement",
      totalPence: 41250,
      paidPence: 41250,
    },
    {
      ref: "INV-55131",
      accountId: "A-103",
      date: "2025-02-20",
      description: "rear brake discs and pads",
      totalPence: 52000,
      paidPence: 30000,
    },
  ],
  jobs: [
    {
      ref: "JOB-2208",
      accountId: "A-101",
      date: "2024-09-02",
      description: "clutch replacement",
      mileageAtRepair: 41200,
    },
    {
      ref: "JOB-1873",
      accountId: "A-101",
      date: "2023-11-20",
      description: "alternator replacement",
      mileageAtRepair: 29800,
    },
    {
      ref: "JOB-2301",
      accountId: "A-102",
      date: "2025-01-15",
      description: "front tyres",
      mileageAtRepair: 11900,
    },
    {
      ref: "JOB-2215",
      accountId: "A-103",
      date: "2024-08-10",
      description: "water pump replacement",
      mileageAtRepair: 74100,
    },
    {
      ref: "JOB-2290",
      accountId: "A-103",
      date: "2025-02-20",
      description: "rear brake discs and pads",
      mileageAtRepair: 87600,
    },
  ],
};

/** What a tester knows up front: slot names follow Dot's wording. */
export const PERSONAS: Record<string, string[]>[] = [
  {
    registration_number: ["KD19 XRT"],
    postcode: ["LS6 2QA"],
    one_time_code: ["481907"],
    memorable_word: ["marmalade"],
    booking_reference: ["BK-2041", "BK-2057", "BK-1988", "BK-2063"],
    service_type: ["interim service", "full service", "MOT"],
    slot_number: ["2", "3"],
    quote_number: ["Q-7781", "Q-7702", "Q-7795"],
    quote_lines: ["1 and 3", "2"],
    courtesy_days: ["2", "5"],
    invoice_number: ["INV-55012", "INV-54870", "INV-55120"],
    payment_amount: ["50", "139.00", "500"],
    job_number: ["JOB-2208", "JOB-1873", "JOB-2301"],
    fault_description: ["clutch is slipping again when pulling away"],
    mileage: ["48210", "46000"],
    mobile_number: ["07700 900 512"],
  },
  {
    registration_number: ["YA23 MKP"],
    postcode: ["M14 5RD"],
    one_time_code: ["302114"],
    memorable_word: ["kestrel"],
    booking_reference: ["BK-2063", "BK-2041"],
    service_type: ["MOT", "major service"],
    slot_number: ["1"],
    quote_number: ["Q-7790"],
    invoice_number: ["INV-55120"],
    payment_amount: ["149", "5"],
    job_number: ["JOB-2301"],
    fault_description: ["car pulls to the left since the new tyres"],
    mileage: ["12950"],
    mobile_number: ["07700 900 333"],
  },
  {
    registration_number: ["BN16 UFE"],
    postcode: ["BS7 8LP"],
    one_time_code: ["775030"],
    memorable_word: ["bluebell"],
    booking_reference: ["BK-2070", "BK-2074"],
    service_type: ["major service", "interim service"],
    slot_number: ["4"],
    quote_number: ["Q-7795"],
    quote_lines: ["1, 2 and 3"],
    courtesy_days: ["1"],
    invoice_number: ["INV-55131", "INV-55098"],
    payment_amount: ["220", "100"],
    job_number: ["JOB-2215", "JOB-2290"],
    fault_description: ["squealing from the back brakes"],
    mileage: ["88950", "85000"],
    mobile_number: ["07700 900 784"],
  },
];

export const REQUESTS: string[] = [
  "I'd like to book my car in for a service",
  "Can I move my booking to a different day?",
  "I need to cancel my booking",
  "The mechanic rang about extra work, I only want some of it done",
  "Can I have a courtesy car while mine's in?",
  "I want to pay off the balance on my invoice",
  "My clutch is slipping again since you replaced it, can I claim on the warranty?",
  "I need to update the mileage on my car",
  "I've got a new mobile number",
  "What's booked for my car at the moment?",
  "What does an MOT actually check?",
  "Can I talk to a service advisor?",
];

/**
 * Dot's wording: every key has two or three phrasings, the session's seed picks one. `{name}` placeholders are
 * filled in by the bot.
 */
export const WORDING: Record<string, readonly string[]> = {
  greeting: [
    "Hiya, I'm Dot from Cogley & Daughters. I can sort bookings, MOTs, quotes from the workshop, courtesy cars, invoices and warranty claims, or just answer questions about prices and opening times. What's up with the car?",
    "Morning from the Cogley & Daughters workshop! Dot here. Ask me about opening times, prices or what an MOT covers, or sign in and I'll help with bookings, extra work, courtesy cars, bills and warranty claims. What can I do?",
    "Hello! You're chatting with Dot at Cogley & Daughters garages. Bookings, MOTs, the mechanic's quotes, courtesy cars, invoices, warranty repairs: I can help with all of those. Where shall we start?",
  ],
  help: [
    "Here's what I can do. Without signing in: opening times, service and MOT prices, what an MOT covers, courtesy-car rules, our repair warranty, cancellation charges, payment options and where our garages are. Once you're signed in: see your bookings, book, move or cancel a service or MOT, approve or decline extra work, request a courtesy car, pay an invoice, claim on a repair warranty, update your mileage or your mobile number. I can also pass you to a service advisor.",
    "Happy to help with: our hours, prices, MOT checks, courtesy cars, warranty and cancellation rules, payment options and branches, no sign-in needed. With your account: bookings (new, move, cancel, list), the workshop's quotes for extra work, courtesy cars, paying invoices, warranty claims, mileage and mobile number updates. Or I can get a service advisor for you.",
    "You can ask me general stuff (opening hours, prices, what the MOT looks at, courtesy cars, warranty, cancelling, paying, branch addresses) or, after a quick sign-in, get me to book, move or cancel work, go through a quote, arrange a courtesy car, take a payment, open a warranty claim or update your mileage or mobile. A human advisor is always an option too.",
  ],
  fallback: [
    "Sorry, that one went over my head. I'm good with bookings, quotes, courtesy cars, invoices, warranty claims and general questions like prices or opening times. Could you put it another way?",
    "Hmm, I didn't follow that, I'm afraid. Try something like 'book a service', 'pay my invoice' or 'what time do you open?'.",
    "I'm not sure what you mean there. I can help with bookings, the mechanic's quotes, courtesy cars, bills, warranty claims, mileage and contact details, or answer general questions. What would you like?",
  ],
  not_following: [
    "Sorry, I didn't quite catch that.",
    "Hmm, that didn't make sense to me.",
    "I'm not sure I followed.",
  ],
  nothing_pending: [
    "There's nothing on the go to stop. What would you like to do?",
    "Nothing's in progress at the moment, so nothing to cancel. Anything I can help with?",
  ],
  goodbye: [
    "Cheers for chatting. Drive safe!",
    "Lovely, take care and mind the potholes. Bye for now!",
    "All the best, speak soon. Bye!",
  ],
  thanks: [
    "No problem at all. Anything else for the car?",
    "You're welcome! Anything else I can do?",
    "Any time. Is there anything else?",
  ],
  anything_else: ["Anything else?", "Is there anything else I can help with?", "What else can I do for you?"],
  info_hours: [
    "All three garages open Monday to Friday 7:30am to 6pm and Saturday 8am to 1pm. We're shut on Sundays and bank holidays. Car drop-off starts at 7:30.",
    "Opening times: weekdays 7:30am-6pm, Saturdays 8am-1pm, closed Sundays and bank holidays. Same at Kirkstall, Fallowfield and Horfield.",
    "We're open 7:30 till 6 on weekdays and 8 till 1 on a Saturday. No Sundays or bank holidays, I'm afraid. All branches keep the same hours.",
  ],
  info_prices: [
    "Our fixed prices (VAT included): MOT test {mot}, interim service {interim}, full service {full}, major service {major}. Any extra work is quoted first and only done once you approve it.",
    "Price list: {mot} for an MOT, {interim} for an interim service, {full} for a full service and {major} for a major service, all including VAT. If the mechanic finds anything else, you get a quote before we touch it.",
    "An MOT is {mot}. Services: interim {interim}, full {full}, major {major}. VAT's included and nothing extra gets done without your say-so.",
  ],
  info_mot: [
    "The MOT is the yearly legal safety check for cars over three years old. It covers lights, brakes, steering, suspension, tyres and wheels, seatbelts, the windscreen and wipers, the exhaust and emissions, the horn, mirrors, the fuel system and the body structure. It doesn't check the engine, clutch or gearbox condition. It takes about 45 minutes.",
    "An MOT checks the car is roadworthy: brakes, lights, tyres, steering and suspension, seatbelts, visibility (windscreen, wipers, mirrors), exhaust emissions, horn, fuel system and no dangerous corrosion. It's not a service, so oil, clutch and gearbox aren't covered. Your first one is due three years after registration.",
    "Roughly 45 minutes, and the tester looks at brakes, tyres, lights, steering, suspension, belts, windscreen and wipers, mirrors, horn, emissions, fuel lines and the bodywork for rust. Mechanical wear like the clutch isn't part of it. New cars need their first MOT at three years old.",
  ],
  info_courtesy: [
    "Courtesy cars are for service and repair bookings (not MOT-only visits, those are done while you wait). The driver must be {age} or over with a full UK licence. You can keep one for up to {max} days: the first day's free, then {rate} a day. Subject to availability at the branch.",
    "Rules for courtesy cars: you need to be at least {age}, hold a full UK licence and have a service or repair booked with us. MOT-only bookings don't qualify. Maximum {max} days, first day free and {rate} per extra day, and it depends on what the branch has free.",
    "If your car's in for a service or repair, we can lend you one of ours for up to {max} days, as long as you're {age}+ with a full UK licence. Day one is on us, after that it's {rate} a day. No courtesy cars for MOT-only slots.",
  ],
  info_warranty: [
    "Every repair we do carries a {months}-month / {miles}-mile warranty on parts and labour, whichever comes first. If something we fixed goes wrong in that time, sign in and I can open a claim.",
    "Our repairs are guaranteed for {months} months or {miles} miles, whichever's first, parts and labour. I can log a warranty claim for you once you've signed in.",
    "Repair warranty: {months} months or {miles} miles from the repair date, whichever comes first. Claims go through me or any branch.",
  ],
  info_cancel: [
    "Cancelling is free up to {hours} hours before your slot. Inside {hours} hours there's a {fee} late-cancellation charge. Bookings can be moved up to {cutoff} hours before the slot.",
    "You can cancel free of charge until {hours} hours before. After that it's {fee}. Moving a booking is free but has to be done at least {cutoff} hours ahead.",
    "No charge if you cancel more than {hours} hours ahead; within {hours} hours we charge {fee}. You can rearrange for free until {cutoff} hours before.",
  ],
  info_payment: [
    "We take debit and credit cards (not Amex), Apple Pay and Google Pay, and bank transfer on invoices. Bills over £300 can be split over 3 months interest-free. I can take a card payment on an invoice once you're signed in.",
    "Payment options: cards (Visa and Mastercard), Apple Pay, Google Pay or bank transfer. Anything over £300 can be spread over three months at 0%. Signed-in customers can pay an invoice with me here.",
    "Card, phone wallet or bank transfer are all fine (sorry, no Amex or cash). There's 0% spread-the-cost over 3 months for bills above £300, and you can pay invoices right here after signing in.",
  ],
  info_branches: [
    "We've got three garages: Kirkstall ({kirkstall}), Fallowfield ({fallowfield}) and Horfield ({horfield}).",
    "Find us at Kirkstall, {kirkstall}; Fallowfield, {fallowfield}; and Horfield, {horfield}.",
    "Our branches: {kirkstall} (Kirkstall), {fallowfield} (Fallowfield) and {horfield} (Horfield).",
  ],
  auth_needed: [
    "I'll need to check it's you first. What's the registration number of the car?",
    "Before I open your account, a quick security check. Can you tell me the car's registration number?",
    "Sure, let's get you signed in first. What's the registration number on the car?",
  ],
  auth_start: [
    "Let's sign you in. What's the car's registration number?",
    "No problem. Start me off with the registration number, please.",
    "Okay! What registration number is the account under?",
  ],
  auth_already: [
    "You're already signed in, {first}. What would you like to do?",
    "Already done, {first}. You're signed in. What next?",
  ],
  auth_reg_unclear: [
    "That doesn't look like a UK registration number to me. It'll be something like AB12 CDE.",
    "I couldn't spot a registration number there. Could you type it as it appears on the plate, like AB12 CDE?",
    "Hmm, not a registration number I recognise the shape of. Try again? It's two letters, two numbers, three letters.",
  ],
  auth_ask_postcode: [
    "Thanks, {reg}. And what's the postcode on the account?",
    "Got {reg}. Now the postcode we have for you, please.",
    "{reg}, lovely. Which postcode is that registered to with us?",
  ],
  auth_postcode_unclear: [
    "I need the postcode, something like LS6 2QA.",
    "That doesn't look like a postcode. Could you try again?",
    "Sorry, I can't see a postcode there. What's the postcode on the account?",
  ],
  auth_mismatch: [
    "Hmm, {reg} and that postcode don't match anything we've got. {left} attempt(s) left. What's the registration number?",
    "Sorry, I can't find an account with those details. You've got {left} more go(es). Let's start again with the registration number.",
    "That registration and postcode don't go together on our system. {left} try/tries left before I have to lock things. Registration number again?",
  ],
  auth_ask_code: [
    "Lovely. I've texted a six-digit one-time code to the mobile ending {last4}. What does it say?",
    "Nearly there: there's a one-time code on its way to your phone ending {last4}. Pop the six digits in here.",
    "Thanks! Check your phone (the number ending {last4}): what's the one-time code I've just sent?",
  ],
  auth_code_unclear: [
    "The one-time code is six digits. What does the text say?",
    "I'm after the six-digit one-time code from the text message.",
    "Sorry, that's not six digits. Can you type the one-time code again?",
  ],
  auth_code_resent: [
    "I've sent the same one-time code again to the mobile ending {last4}.",
    "No worries, the one-time code's been re-sent to the phone ending {last4}.",
  ],
  auth_bad_code: [
    "That code doesn't match, I'm afraid. {left} attempt(s) left. What's the one-time code?",
    "Not quite. That's not the code I sent. You've got {left} more go(es).",
    "Sorry, wrong code. {left} try/tries left before the account locks.",
  ],
  auth_locked: [
    "That's too many attempts, so I've locked online access to the account for now. I've passed this to a service advisor (ref {ref}) who'll ring the number we have on file.",
    "For your security I've locked the account after too many failed tries. A service advisor will call you back: your reference is {ref}.",
    "Sorry, I have to stop there: too many wrong attempts, so the account's locked. I've handed you over to a service advisor under reference {ref}.",
  ],
  auth_still_locked: [
    "The account is locked for this chat after too many failed attempts. A service advisor will be in touch (ref {ref}). I can still answer general questions.",
    "I can't open account stuff while it's locked, sorry. The advisor has your reference {ref}. General questions are fine though.",
  ],
  auth_signed_in: [
    "You're in. Hi {first}! I can see your {vehicle}.",
    "That's you signed in, {first}. Your {vehicle} is on screen.",
    "Spot on, thanks {first}. I've got your {vehicle} up.",
  ],
  auth_signed_in_next: ["What would you like to do?", "What can I help with?", "What's next?"],
  auth_signed_out: [
    "Done, you're signed out. Anything general I can help with?",
    "You're signed out now. Thanks, {first}!",
    "Signed out. Take care!",
  ],
  not_signed_in: ["You're not signed in at the moment.", "Nobody's signed in on this chat."],
  auth_abort: [
    "No problem, we'll leave signing in for now. Anything else?",
    "Okay, stopping there. Let me know if you need anything else.",
  ],
  reverify_ask: [
    "Changing contact details is a sensitive one, so one more check: what's your memorable word?",
    "Before I change how we contact you, I need your memorable word, please.",
    "Just to be extra safe with contact changes: what's the memorable word on the account?",
  ],
  reverify_failed: [
    "That's not the memorable word we have. {left} attempt(s) left. Try again?",
    "Sorry, that doesn't match. You've {left} go(es) left. What's your memorable word?",
  ],
  reverify_ok: ["Thanks, that's correct.", "Perfect, that matches.", "Great, verified."],
  handoff_ask: [
    "I can get a service advisor for you. What's it about, so they're ready when they call?",
    "Sure, I'll pass you to one of our service advisors. Briefly, what do you need help with?",
    "Of course. A real person it is. What should I tell the advisor?",
  ],
  handoff_done: [
    "Done. A service advisor will call you within two working hours. Your reference is {ref}.",
    "I've passed that on. An advisor will be in touch shortly, reference {ref}.",
    "All sorted: you're in the advisors' queue under reference {ref}. They usually ring back within two hours.",
  ],
  bookings_intro: [
    "Here's what's on the books for {reg}:",
    "These are the bookings I can see for {reg}:",
    "On the system for {reg}:",
  ],
  bookings_none: ["There's nothing booked for {reg} at the moment.", "I can't see any bookings for {reg}."],
  book_choose_type: [
    "What are we booking in? A) MOT test {mot}, B) interim service {interim}, C) full service {full}, D) major service {major}. Pick a letter.",
    "Which of these is it? A) MOT test ({mot}), B) interim service ({interim}), C) full service ({full}), D) major service ({major}). Just reply with the letter.",
    "Choose the service type: A) MOT test, {mot}; B) interim service, {interim}; C) full service, {full}; D) major service, {major}.",
  ],
  book_type_unclear: [
    "Just the letter is fine: A, B, C or D.",
    "I need one of the options: A for MOT, B interim, C full or D major service.",
  ],
  book_refused_mot: [
    "Your {vehicle} was first registered on {reg_date}, so it doesn't need an MOT until {due}. I can't book one before then. Would a service do instead? A, B, C or D.",
    "No MOT needed yet: the car was registered {reg_date} and the first MOT isn't due until {due}. Pick a service instead (B, C or D)?",
  ],
  book_refused_duplicate: [
    "You've already got {a_type} booked for {when} ({ref}), so I can't add another. Want a different service instead? A, B, C or D.",
    "There's already {a_type} on the books for {when}, reference {ref}. Only one of each at a time, I'm afraid. Choose another option?",
  ],
  book_choose_slot: [
    "Here's what {branch} has free: {slots}. Which number suits?",
    "Free slots at {branch}: {slots}. Which one would you like?",
    "{branch} can fit you in at: {slots}. Tell me the number.",
  ],
  slot_unclear: [
    "Just tell me the number of the slot you'd like.",
    "Which one? A number from the list is perfect.",
  ],
  book_confirm: [
    "So that's {a_type} at {branch} on {when}, {price}. Shall I book it? (yes/no)",
    "To confirm: {type}, {when}, {branch} garage, {price}. Go ahead?",
    "Booking {a_type} for {when} at {branch} at {price}. Is that right?",
  ],
  yesno_unclear: [
    "Sorry, is that a yes or a no?",
    "Just a yes or a no, please.",
    "I need a yes or no on that one.",
  ],
  book_done: [
    "Booked! Your {type} is on {when} at {branch}. Reference {ref}.",
    "All done: {type}, {when}, {branch}. Your booking reference is {ref}.",
    "That's in the diary for {when}. Reference {ref}. See you then!",
  ],
  book_cancelled: ["No problem, I haven't booked anything.", "Okay, I've left the diary as it was."],
  ref_unclear: [
    "I need the booking reference. It looks like BK-1234.",
    "Sorry, I couldn't see a booking reference there (it starts BK-).",
  ],
  move_ask_ref: [
    "Which booking are we moving? The booking reference starts BK-.",
    "Sure. What's the booking reference you want to move?",
    "Happy to rearrange. What's the booking reference?",
  ],
  booking_not_found: [
    "I can't find a booking {ref}. Could you check the booking reference?",
    "{ref} doesn't ring any bells on our system. What's the booking reference again?",
  ],
  booking_not_yours: [
    "Sorry, {ref} isn't a booking on your account, so I can't touch it.",
    "That booking ({ref}) belongs to a different account. I'm not able to help with it.",
  ],
  move_status: [
    "{ref} is {status}, so there's nothing to move.",
    "That one's already {status} ({ref}), so it can't be rearranged.",
  ],
  move_too_late: [
    "{ref} is on {when}, less than {cutoff} hours away, so it's too late to move online. Ring the branch and they'll see what they can do.",
    "Sorry, bookings can only be moved up to {cutoff} hours before, and {ref} is {when}. The branch may be able to help by phone.",
  ],
  move_choose_slot: [
    "{ref} is currently {when}. {branch} can offer: {slots}. Which number?",
    "Right now {ref} is {when}. New options at {branch}: {slots}. Pick one.",
    "Your {type} ({ref}) is {when}. Alternatives: {slots}. Which suits?",
  ],
  move_confirm: [
    "Move {ref} from {old} to {when}? (yes/no)",
    "So: {ref} moves from {old} to {when}. Happy with that?",
    "That's {ref} going from {old} to {when}. Shall I make the change?",
  ],
  move_done: [
    "Moved. {ref} is now {when}.",
    "All changed: {ref} is now booked for {when}.",
    "Done, see you on {when}. Same reference, {ref}.",
  ],
  move_cancelled: ["Okay, I've left {ref} as it was.", "No change made. {ref} stays put."],
  cancel_ask_ref: [
    "Which booking would you like to cancel? The booking reference, please.",
    "Sorry to hear it. What's the booking reference?",
    "Okay. What's the booking reference you want cancelled?",
  ],
  cancel_status: [
    "{ref} is already {status}, so it can't be cancelled.",
    "That one ({ref}) is {status} already. Nothing to cancel.",
  ],
  cancel_fee_none: [
    "{ref} is your {type} on {when}. It's more than {hours} hours away, so there's no charge.",
    "That's the {type} on {when} ({ref}). Cancelling this far ahead is free.",
  ],
  cancel_fee_late: [
    "{ref} is your {type} on {when}, within {hours} hours, so there's a {fee} late-cancellation charge.",
    "That's the {type} on {when} ({ref}). As it's less than {hours} hours away, cancelling costs {fee}.",
  ],
  cancel_confirm_word: [
    "If you're sure, type the word RELEASE and I'll give the slot up.",
    "To confirm, please type RELEASE. Anything else and I'll keep the booking.",
    "Type RELEASE to cancel it for good.",
  ],
  cancel_wrong_word: [
    "I need the word RELEASE exactly to cancel. Or say 'keep it' to leave the booking.",
    "To go ahead, type RELEASE. If you'd rather keep the booking, just say so.",
  ],
  cancel_done: [
    "Cancelled. {ref} is gone. Cancellation reference {cref}.{fee_note}",
    "That's cancelled. Your cancellation reference is {cref}.{fee_note}",
    "Done, {ref} is cancelled (reference {cref}).{fee_note}",
  ],
  cancel_fee_note: [
    " The {fee} charge will go on the card ending {last4}.",
    " {fee} will be taken from the card ending {last4}.",
  ],
  cancel_kept: ["Okay, {ref} stays booked.", "No worries, I haven't cancelled anything."],
  quote_ask_ref: [
    "Which quote is it? The quote number starts Q-, it's in the text the workshop sent.",
    "Let's have a look. What's the quote number?",
    "Sure. Can you give me the quote number (like Q-1234)?",
  ],
  quote_ref_unclear: [
    "I need the quote number. It looks like Q-1234.",
    "Sorry, I can't see a quote number there.",
  ],
  quote_not_found: [
    "I can't find a quote {ref}. Could you double-check the quote number?",
    "No quote {ref} on our system. What's the quote number again?",
  ],
  quote_not_yours: [
    "Quote {ref} isn't for your car, so I can't show or change it.",
    "Sorry, {ref} belongs to another customer's vehicle.",
  ],
  quote_decided: [
    "Quote {ref} was already {status} on {date}, so there's nothing left to decide.",
    "That quote ({ref}) was {status} on {date}. It's closed now.",
  ],
  quote_expired: [
    "Quote {ref} expired on {date}. Prices may have changed, so the workshop will need to re-quote. Want me to get an advisor to call?",
    "Sorry, {ref} was only valid until {date}. It'll need a fresh quote from the workshop.",
  ],
  quote_show: [
    "Here's what the mechanic found on {reg} ({ref}): {lines}. Total {total}.",
    "Quote {ref} for {reg}: {lines}. Altogether that's {total}.",
    "The workshop has quoted for {reg} ({ref}): {lines}. Total: {total}.",
  ],
  quote_options: [
    "How would you like to go? A) approve everything, B) approve some lines, C) decline it all.",
    "Your choice: A) go ahead with all of it, B) pick which lines, C) decline the lot.",
  ],
  quote_option_unclear: ["Please choose A, B or C.", "Just A (all), B (some) or C (none), please."],
  quote_pick_lines: [
    "Which line numbers should the workshop go ahead with?",
    "Tell me the line numbers you'd like done, e.g. '1 and 3'.",
    "Which lines do you want? Just the numbers.",
  ],
  quote_lines_unclear: [
    "I need line numbers from the quote, between 1 and {n}.",
    "Sorry, which lines? Numbers 1 to {n}.",
  ],
  quote_confirm_some: [
    "So the workshop goes ahead with {chosen}, and leaves {left}. Total to approve: {total}. Shall I tell them? (yes/no)",
    "Approving {chosen} and declining {left}, which comes to {total}. Confirm?",
  ],
  quote_confirm_all: [
    "Approving all the work on {ref}, total {total}. Okay to go ahead?",
    "That's everything on {ref} approved, {total} in all. Confirm?",
  ],
  quote_confirm_none: [
    "Declining all the work on {ref}, so nothing extra will be done or charged. Is that right?",
    "So we won't do any of the extra work on {ref}. Confirm?",
  ],
  quote_done_approved: [
    "Done. The workshop has the go-ahead for {total} of work on {ref}. Authorisation reference {aref}.",
    "Passed on: {ref} approved for {total}. Your authorisation reference is {aref}.",
    "The mechanic's been told to crack on ({total}). Reference {aref}.",
  ],
  quote_done_declined: [
    "Okay, {ref} declined. Nothing extra will be done. Reference {aref}.",
    "The workshop knows you've declined {ref}. Reference {aref}.",
  ],
  quote_abandoned: [
    "No decision made. Quote {ref} stays open until {date}.",
    "Okay, I haven't told the workshop anything. {ref} is still open until {date}.",
  ],
  courtesy_refused_age: [
    "Sorry, {first}, courtesy-car drivers must be {age} or over for our insurance, so I can't arrange one.",
    "I'm afraid our insurer only covers courtesy-car drivers aged {age} and up, so we can't offer you one this time.",
  ],
  courtesy_ask_booking: [
    "Which booking is the courtesy car for? The booking reference, please.",
    "Sure! What's the booking reference for the visit?",
    "Happy to check. Which booking reference should I attach it to?",
  ],
  courtesy_status: [
    "{ref} is {status}, so a courtesy car isn't possible for it.",
    "That booking ({ref}) is {status}. Courtesy cars only go with upcoming visits.",
  ],
  courtesy_mot_only: [
    "{ref} is an MOT-only visit. Those take under an hour while you wait, so there's no courtesy car for them.",
    "Courtesy cars don't come with MOT-only bookings like {ref}, sorry. You're welcome to wait in our lounge.",
  ],
  courtesy_no_cars: [
    "Sorry, all of {branch}'s courtesy cars are out on {date}. An advisor may be able to move your booking to a day with one free.",
    "No courtesy cars free at {branch} on {date}, I'm afraid.",
  ],
  courtesy_already: [
    "{ref} already has a courtesy car arranged ({days} day(s)).",
    "There's already a courtesy car on {ref} for {days} day(s).",
  ],
  courtesy_ask_days: [
    "How many days will you need the courtesy car? Up to {max}.",
    "And for how many days? (We can do up to {max}.)",
    "How long will you need it for? Maximum {max} days.",
  ],
  courtesy_days_unclear: ["Just the number of days, please.", "How many days? A number between 1 and {max}."],
  courtesy_too_many: [
    "Sorry, the most we can lend a courtesy car for is {max} days. How many days within that?",
    "{days} days is over our limit of {max}. Could you manage with {max} or fewer?",
  ],
  courtesy_confirm: [
    "Courtesy car from {date} ({branch}) for {days} day(s). First day free, then {rate} a day: {fee} in total. You'll need your licence on the day. Book it? (yes/no)",
    "That's {days} day(s) with a courtesy car from {date} at {branch}, costing {fee} (day one free). Shall I reserve it?",
  ],
  courtesy_done: [
    "Reserved: courtesy car for {days} day(s) from {date}, {fee}. Reference {cref}.",
    "Courtesy car's yours for {days} day(s) from {date} ({fee}). Reference {cref}.",
  ],
  courtesy_cancelled: ["No problem, no courtesy car booked.", "Okay, I won't reserve one."],
  pay_ask_invoice: [
    "Which invoice would you like to pay? The invoice number starts INV-.",
    "Sure. What's the invoice number?",
    "Happy to take a payment. Which invoice number is it?",
  ],
  pay_invoice_unclear: [
    "I need the invoice number. It looks like INV-12345.",
    "Sorry, I couldn't see an invoice number.",
  ],
  pay_not_found: [
    "I can't find an invoice {ref}. Could you check the invoice number?",
    "No invoice {ref} on the system. What's the invoice number again?",
  ],
  pay_not_yours: [
    "Invoice {ref} isn't on your account, so I can't show it or take payment for it.",
    "Sorry, {ref} belongs to someone else.",
  ],
  pay_paid: [
    "Good news: invoice {ref} ({desc}) is already paid in full. Nothing to pay.",
    "{ref} for {desc} is settled already, nothing owing.",
  ],
  pay_show: [
    "Invoice {ref} ({desc}, {date}): total {total}, paid {paid}, balance {balance}. How much would you like to pay today?",
    "{ref} is for {desc} on {date}. Total {total}, you've paid {paid}, leaving {balance}. How much shall I take?",
    "On {ref} ({desc}, {date}) there's {balance} left of {total} (paid so far {paid}). How much do you want to pay?",
  ],
  pay_amount_unclear: [
    "How much would you like to pay? An amount in pounds, or 'all of it'.",
    "Sorry, I need an amount, like 50 or 139.00.",
  ],
  pay_amount_over: [
    "That's more than the {balance} balance. How much would you like to pay?",
    "You only owe {balance} on this one, so I can't take {amount}. What amount?",
  ],
  pay_amount_under: [
    "The minimum part-payment is {min} (unless you're clearing the balance). How much?",
    "Part-payments need to be at least {min}. What amount would you like?",
  ],
  pay_confirm: [
    "To confirm, please type the amount again: {amount} from the card ending {last4}.",
    "For safety, re-type the amount you want to pay ({amount}, card ending {last4}).",
    "Just type {amount} once more to confirm the payment from the card ending {last4}.",
  ],
  pay_mismatch: [
    "That doesn't match {amount}. Please type the amount again, or say stop.",
    "Hmm, those amounts don't match. Re-type {amount} to pay, or cancel.",
  ],
  pay_done: [
    "Payment of {amount} taken. Receipt {rref}. Remaining balance on {ref}: {balance}.",
    "Thanks! {amount} paid on {ref}, receipt number {rref}. Left to pay: {balance}.",
    "All done: {amount} received, receipt {rref}. {ref} now shows {balance} outstanding.",
  ],
  pay_cancelled: ["Okay, no payment taken.", "No problem, I haven't charged anything."],
  warranty_ask_job: [
    "Which repair is it about? The job number is on your invoice and starts JOB-.",
    "Sorry to hear that. What's the job number of the original repair?",
    "Let's check the warranty. What's the job number?",
  ],
  warranty_job_unclear: [
    "I need the job number. It looks like JOB-1234.",
    "Sorry, I couldn't see a job number there.",
  ],
  warranty_not_found: [
    "I can't find a job {ref}. Can you check the job number?",
    "No repair {ref} on our records. What's the job number?",
  ],
  warranty_not_yours: [
    "Job {ref} wasn't done on your vehicle, so I can't claim on it.",
    "That repair ({ref}) is on another customer's account.",
  ],
  warranty_expired: [
    "The {desc} ({ref}) was done on {date}, so the {months}-month warranty ran out on {end}. An advisor can still take a look if you'd like.",
    "Sorry, {ref} ({desc}, {date}) is outside the {months}-month warranty, which ended {end}.",
  ],
  warranty_mileage: [
    "The {desc} ({ref}) was done at {at} miles and the car's on {now} now. That's over the {miles}-mile warranty limit, I'm afraid.",
    "Sorry: {ref} was at {at} miles, you're at {now}, more than {miles} miles since, so the warranty's used up.",
  ],
  warranty_ask_fault: [
    "Got it: {desc} on {date}, still under warranty. What's it doing? Describe the fault in a sentence.",
    "{ref} ({desc}) is covered. What's going wrong with it?",
    "Good news, that repair is in warranty. Tell me what the fault is.",
  ],
  warranty_fault_unclear: [
    "Could you describe the problem in a few words?",
    "A bit more detail, please: what's it doing?",
  ],
  warranty_confirm: [
    "I'll log a warranty claim on {ref} ({desc}): \"{fault}\". We'll inspect it free of charge. Shall I submit it? (yes/no)",
    'Warranty claim for {ref}, {desc}, problem: "{fault}". Inspection\'s free. Submit?',
  ],
  warranty_done: [
    "Claim submitted, reference {wref}. The branch will call to book the inspection.",
    "Logged under {wref}. Someone from the workshop will ring to arrange a time.",
  ],
  warranty_cancelled: ["Okay, no claim logged.", "No problem, I haven't submitted anything."],
  mileage_ask: [
    "What's the mileage showing on the dash at the moment? We've got {current} on file.",
    "Sure. What does the odometer read now? (Last recorded: {current}.)",
    "What's the current mileage? Our records say {current}.",
  ],
  mileage_unclear: ["Just the mileage as a number, please.", "How many miles is it showing?"],
  mileage_lower: [
    "{miles} is lower than the {current} we already have, and mileage can't go backwards. If the clock's been changed, an advisor can sort it.",
    "Hmm, we've already recorded {current}, so {miles} can't be right. Please check the dash.",
  ],
  mileage_confirm: [
    "So the mileage is {miles}. Shall I update the record? (yes/no)",
    "Updating {reg} to {miles} miles. Is that right?",
    "{miles} miles, correct?",
  ],
  mileage_done: [
    "Mileage updated to {miles}.",
    "Done, {reg} now shows {miles} miles.",
    "Updated: {miles} miles on file.",
  ],
  mileage_cancelled: ["Okay, mileage left at {current}.", "No change made."],
  contact_ask_mobile: [
    "What's the new mobile number?",
    "Which mobile number should we use from now on?",
    "Go on then: what's your new mobile number?",
  ],
  contact_invalid: [
    "That doesn't look like a UK mobile number. It should start 07 and have 11 digits.",
    "Sorry, I need a UK mobile: 07 followed by nine more digits.",
  ],
  contact_retype: [
    "Got {mobile}. Please type it once more so I know it's right.",
    "Thanks. Could you type the mobile number again to double-check?",
    "And once more, please, just to be sure.",
  ],
  contact_mismatch: [
    "Those two don't match. Let's start again: what's the new mobile number?",
    "Hmm, that's different from the first one. What's the new mobile number?",
  ],
  contact_done: [
    "Updated. We'll text {mobile} from now on.",
    "Done: your mobile number is now {mobile}.",
    "All changed. Reminders will go to {mobile}.",
  ],
  contact_cancelled: ["Okay, I've left your number as it was.", "No change made to your contact details."],
};
