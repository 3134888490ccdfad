/**
 * Records, personas and wording tables of the Marquee streaming support assistant ("Bea"), the testbed agent
 * `heldout18`. Everything here is seed data: each session deep-copies it, so writes never leak between sessions.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The assistant's "today": every date rule (refund window, proration, pause dates) counts from it. */
export const TODAY = "2025-03-14";

export type PlanId = "basic" | "standard" | "premium";
export type RatingId = "little_kids" | "older_kids" | "teens" | "adults";
export type MemberStatus = "active" | "paused" | "cancelling";

export interface Plan {
  id: PlanId;
  label: string;
  letter: string;
  /** Monthly price in cents. */
  cents: number;
  screens: number;
  quality: string;
}

export const PLANS: readonly Plan[] = [
  { id: "basic", label: "Basic", letter: "A", cents: 799, screens: 1, quality: "HD" },
  { id: "standard", label: "Standard", letter: "B", cents: 1399, screens: 2, quality: "Full HD" },
  {
    id: "premium",
    label: "Premium",
    letter: "C",
    cents: 1999,
    screens: 4,
    quality: "4K HDR with spatial audio",
  },
];

export interface Rating {
  id: RatingId;
  label: string;
  letter: string;
  blurb: string;
  rank: number;
}

export const RATINGS: readonly Rating[] = [
  { id: "little_kids", label: "Little Kids", letter: "A", blurb: "TV-Y / G", rank: 1 },
  { id: "older_kids", label: "Older Kids", letter: "B", blurb: "up to TV-Y7 / PG", rank: 2 },
  { id: "teens", label: "Teens", letter: "C", blurb: "up to TV-14 / PG-13", rank: 3 },
  { id: "adults", label: "Adults", letter: "D", blurb: "everything, including TV-MA / R", rank: 4 },
];

/** Kids profiles can never go above this rating. */
export const KIDS_MAX_RANK = 2;
/** Refunds: charge must be at most this many days old… */
export const REFUND_WINDOW_DAYS = 30;
/** …and the account must not have had a refund in the last this many days. */
export const REFUND_COOLDOWN_DAYS = 365;
export const PAUSE_MAX_MONTHS = 3;
export const CODE_ATTEMPTS = 3;
export const RETENTION_PERCENT = 50;
export const RETENTION_BILLS = 2;

export interface Profile {
  name: string;
  kids: boolean;
  rating: RatingId;
  pin: string | null;
}

export interface Device {
  name: string;
  kind: string;
  lastUsed: string;
  signedIn: boolean;
}

export interface Account {
  id: string;
  fullName: string;
  firstName: string;
  email: string;
  code: string;
  phoneTail: string;
  cardLast4: string;
  plan: PlanId;
  status: MemberStatus;
  nextBilling: string;
  pausedUntil: string | null;
  pendingPlan: PlanId | null;
  creditCents: number;
  lastRefund: string | null;
  discount: { percent: number; bills: number } | null;
  memberSince: string;
  profiles: Profile[];
  devices: Device[];
}

export interface Charge {
  id: string;
  account: string;
  date: string;
  cents: number;
  description: string;
  refunded: boolean;
}

export interface GiftCard {
  code: string;
  cents: number;
  expires: string;
  redeemedBy: string | null;
}

export interface World {
  accounts: Account[];
  charges: Charge[];
  giftCards: GiftCard[];
}

export const SEED_WORLD: World = {
  accounts: [
    {
      id: "ACC-1001",
      fullName: "Maya Ortiz",
      firstName: "Maya",
      email: "maya.ortiz@example.com",
      code: "482913",
      phoneTail: "42",
      cardLast4: "4417",
      plan: "standard",
      status: "active",
      nextBilling: "2025-03-28",
      pausedUntil: null,
      pendingPlan: null,
      creditCents: 0,
      lastRefund: null,
      discount: null,
      memberSince: "2021-06-28",
      profiles: [
        { name: "Maya", kids: false, rating: "adults", pin: null },
        { name: "Leo", kids: true, rating: "little_kids", pin: null },
        { name: "Nana", kids: false, rating: "teens", pin: null },
      ],
      devices: [
        { name: "Living Room TV", kind: "Roku", lastUsed: "2025-03-14", signedIn: true },
        { name: "Maya's iPhone", kind: "iOS app", lastUsed: "2025-03-13", signedIn: true },
        { name: "Kitchen iPad", kind: "iPadOS app", lastUsed: "2025-02-02", signedIn: true },
        { name: "Leo's Fire Tablet", kind: "Fire OS app", lastUsed: "2025-03-10", signedIn: true },
      ],
    },
    {
      id: "ACC-1002",
      fullName: "Dev Patel",
      firstName: "Dev",
      email: "dev.patel@example.net",
      code: "730245",
      phoneTail: "07",
      cardLast4: "9052",
      plan: "premium",
      status: "active",
      nextBilling: "2025-03-20",
      pausedUntil: null,
      pendingPlan: null,
      creditCents: 0,
      lastRefund: "2024-08-05",
      discount: null,
      memberSince: "2019-11-20",
      profiles: [
        { name: "Dev", kids: false, rating: "adults", pin: "5913" },
        { name: "Asha", kids: true, rating: "older_kids", pin: null },
        { name: "Guest", kids: false, rating: "teens", pin: null },
      ],
      devices: [
        { name: "Bedroom Samsung TV", kind: "Samsung Tizen app", lastUsed: "2025-03-12", signedIn: true },
        { name: "Dev's Pixel", kind: "Android app", lastUsed: "2025-03-14", signedIn: true },
        { name: "PlayStation 5", kind: "console app", lastUsed: "2025-01-30", signedIn: true },
      ],
    },
    {
      id: "ACC-1003",
      fullName: "Sam Okafor",
      firstName: "Sam",
      email: "sam.okafor@example.org",
      code: "115608",
      phoneTail: "86",
      cardLast4: "3386",
      plan: "basic",
      status: "paused",
      nextBilling: "2025-05-02",
      pausedUntil: "2025-05-02",
      pendingPlan: null,
      creditCents: 500,
      lastRefund: null,
      discount: null,
      memberSince: "2023-02-02",
      profiles: [
        { name: "Sam", kids: false, rating: "adults", pin: null },
        { name: "Kiddo", kids: true, rating: "older_kids", pin: null },
      ],
      devices: [
        { name: "Sam's MacBook", kind: "web browser", lastUsed: "2025-01-28", signedIn: true },
        { name: "Hallway Chromecast", kind: "Google TV", lastUsed: "2025-01-31", signedIn: true },
      ],
    },
  ],
  charges: [
    {
      id: "CH-50781",
      account: "ACC-1001",
      date: "2025-02-28",
      cents: 1399,
      description: "Standard plan, monthly",
      refunded: false,
    },
    {
      id: "CH-49920",
      account: "ACC-1001",
      date: "2025-01-28",
      cents: 1679,
      description: "Standard plan + prorated upgrade",
      refunded: false,
    },
    {
      id: "CH-48812",
      account: "ACC-1001",
      date: "2024-12-28",
      cents: 799,
      description: "Basic plan, monthly",
      refunded: false,
    },
    {
      id: "CH-51234",
      account: "ACC-1002",
      date: "2025-02-20",
      cents: 1999,
      description: "Premium plan, monthly",
      refunded: false,
    },
    {
      id: "CH-50102",
      account: "ACC-1002",
      date: "2025-01-20",
      cents: 1999,
      description: "Premium plan, monthly",
      refunded: false,
    },
    {
      id: "CH-47003",
      account: "ACC-1002",
      date: "2024-07-20",
      cents: 1999,
      description: "Premium plan, monthly",
      refunded: true,
    },
    {
      id: "CH-49117",
      account: "ACC-1003",
      date: "2025-01-02",
      cents: 799,
      description: "Basic plan, monthly",
      refunded: false,
    },
    {
      id: "CH-47950",
      account: "ACC-1003",
      date: "2024-12-02",
      cents: 799,
      description: "Basic plan, monthly",
      refunded: false,
    },
  ],
  giftCards: [
    { code: "MQ-7Q4M-2KD9", cents: 5000, expires: "2026-12-31", redeemedBy: null },
    { code: "MQ-3F8P-XW21", cents: 2500, expires: "2026-06-30", redeemedBy: "ACC-1001" },
    { code: "MQ-9H2T-6VBN", cents: 3000, expires: "2024-12-31", redeemedBy: null },
    { code: "MQ-K5R8-L3ZP", cents: 1500, expires: "2027-01-31", redeemedBy: null },
  ],
};

/** What a tester knows before it starts. */
export const FACTS: Facts = {
  personas: [
    {
      email: ["maya.ortiz@example.com"],
      verification_code: ["482913"],
      card_last_four: ["4417"],
      charge_id: ["CH-50781", "CH-49920"],
      other_customer_charge_id: ["CH-51234"],
      plan: ["Premium", "Basic"],
      profile_name: ["Leo", "Nana", "Maya"],
      other_customer_profile_name: ["Asha"],
      new_pin: ["4826", "7305"],
      weak_pin: ["1234", "0000"],
      maturity_rating: ["Teens", "Older Kids", "Adults"],
      device_name: ["Kitchen iPad", "Living Room TV"],
      pause_months: ["2", "1"],
      too_long_pause_months: ["6"],
      gift_card_code: ["MQ-7Q4M-2KD9", "MQ-3F8P-XW21"],
    },
    {
      email: ["dev.patel@example.net"],
      verification_code: ["730245"],
      card_last_four: ["9052"],
      charge_id: ["CH-51234", "CH-47003"],
      other_customer_charge_id: ["CH-50781"],
      plan: ["Standard", "Premium"],
      profile_name: ["Asha", "Guest"],
      maturity_rating: ["Teens", "Little Kids"],
      new_pin: ["6142"],
      device_name: ["PlayStation 5"],
      pause_months: ["3"],
      gift_card_code: ["MQ-9H2T-6VBN", "MQ-K5R8-L3ZP"],
    },
    {
      email: ["sam.okafor@example.org"],
      verification_code: ["115608"],
      card_last_four: ["3386"],
      charge_id: ["CH-49117"],
      plan: ["Standard"],
      profile_name: ["Kiddo"],
      device_name: ["Hallway Chromecast"],
      gift_card_code: ["MQ-K5R8-L3ZP"],
    },
  ],
  requests: [
    "I'd like to upgrade to Premium, how much extra will that be this month?",
    "I was charged on Feb 28 and I want that refunded",
    "Can you put a PIN on my son's profile?",
    "Someone else is using my account, sign out all my devices",
    "I want to cancel my membership",
    "Pause my subscription for a couple of months",
    "I got a gift card for my birthday, how do I use it?",
    "Set Leo's profile to Teens",
    "When is my next bill and how much will it be?",
    "What's your refund policy?",
  ],
};

/**
 * Wording table: each key has several phrasings; the session's seed picks one (same seed, same words).
 * `{name}` placeholders are filled per reply.
 */
export const WORDING: Record<string, readonly string[]> = {
  // ── general ─────────────────────────────────────────────────────────
  greeting: [
    "Hey there, I'm Bea from Marquee 🎬 I can sort out plans, billing and refunds, profiles and parental controls, devices, pausing or cancelling, and gift cards. What's going on today?",
    "Hi! Bea here, Marquee's support assistant. Whether it's your plan, a charge that looks off, profile PINs, signed-in devices or a gift card, tell me in your own words and we'll sort it.",
    "Hello and welcome to Marquee support! I'm Bea. Ask me about plans and prices, refunds, profiles, devices, pausing, cancelling or gift cards. What can I do for you?",
  ],
  help: [
    "Here's what I can do: explain plans and prices, change your plan, show your billing history or refund a charge, list profiles, set a profile PIN or maturity rating, sign devices out, pause, resume or cancel your membership, and redeem gift cards. Want a person instead? Just say so.",
    "Happy to help! I can handle plan changes, billing history and refunds, profile PINs and maturity ratings, device sign-outs, pausing, resuming or cancelling, and gift-card codes. I can also answer policy questions or put you through to our live team.",
    "A few things I'm good at: plans and upgrades, charges and refunds, profiles (PINs and maturity ratings), kicking devices off your account, pausing or cancelling, and gift cards. Or ask for a human any time.",
  ],
  fallback: [
    "Hmm, I'm not sure I followed that. I can help with plans, billing and refunds, profiles, devices, pausing or cancelling, and gift cards. Which one is it?",
    "Sorry, that one went over my head! Could you put it another way? For example: 'upgrade my plan', 'refund a charge' or 'sign out my devices'.",
    "I didn't quite catch what you need. Try telling me something like 'pause my membership' or 'what plans do you have?'",
  ],
  reprompt: [
    "Sorry, I didn't catch that.",
    "Hmm, that didn't look like what I was after.",
    "I'm not sure that answers my question.",
  ],
  thanks: [
    "You're very welcome! Anything else I can help with?",
    "Any time! Is there anything else on your mind?",
    "Glad I could help. Need anything else?",
  ],
  bye: [
    "Thanks for chatting with Marquee, enjoy the show! 🍿",
    "Bye for now, happy watching!",
    "Take care, and enjoy whatever's next on your watchlist!",
  ],
  handoff: [
    "No problem, I'm handing you over to someone on our live team. Your chat reference is {ref} and the wait is usually around 4 minutes. They'll see everything we've talked about.",
    "Sure thing, let me get a real person for you. I've opened chat {ref} with our support team and someone should join in a few minutes.",
    "Of course. I've passed this chat to a human teammate (reference {ref}). Hang tight, they'll be with you shortly.",
  ],
  // ── public info ─────────────────────────────────────────────────────
  info_plans: [
    "We've got three plans: Basic at $7.99/month (1 screen, HD), Standard at $13.99/month (2 screens, Full HD) and Premium at $19.99/month (4 screens, 4K HDR with spatial audio). Upgrades kick in straight away with a prorated charge; downgrades start on your next billing date.",
    "Marquee plans: Basic $7.99 a month for one screen in HD, Standard $13.99 for two screens in Full HD, and Premium $19.99 for four screens in 4K HDR. If you upgrade mid-cycle you only pay the difference for the days left; downgrades wait until your next bill.",
    "Here's the line-up: Basic ($7.99/mo, 1 screen, HD), Standard ($13.99/mo, 2 screens, Full HD), Premium ($19.99/mo, 4 screens, 4K HDR). Upgrading is immediate and prorated, downgrading takes effect at the next billing date.",
  ],
  info_refund: [
    "Our refund rules: a charge can be refunded if it's no more than 30 days old, and each account gets one refund per 12 months. Refunds go back to the original card within 5 to 10 business days. Want me to look at a specific charge?",
    "Refunds are possible for charges from the last 30 days, limited to one refund per account in any 12-month period. The money lands back on your card in 5 to 10 business days. I can check a charge for you if you sign in.",
    "Quick version: charges up to 30 days old can be refunded, once per account per year, and it takes 5 to 10 business days to reach your card. Happy to look into a charge if you like.",
  ],
  info_pause: [
    "You can pause your membership for 1 to 3 months. The pause starts on your next billing date, you aren't charged while paused, and your profiles and watch history stay put.",
    "Pauses run from 1 to 3 months, starting at your next billing date. No charges while you're paused, and everything (profiles, lists, history) is kept for when you're back.",
    "Need a break? A pause can be 1, 2 or 3 months, begins on your next billing date and costs nothing. Your profiles and watch history are saved.",
  ],
  info_cancel: [
    "If you cancel, you keep watching until the end of your current billing period and won't be charged again. We don't do partial refunds for the unused days, and you can come back any time.",
    "Cancelling stops future charges; your access lasts until your next billing date. There's no partial refund for the rest of the month, and your profiles are kept for 10 months in case you return.",
    "When you cancel, Marquee stays on until the billing period ends and then stops, with no more charges and no partial refunds. Rejoining later is easy.",
  ],
  info_gift: [
    "Marquee gift cards have codes like MQ-XXXX-XXXX. Redeeming one adds its value as account credit, which we use before charging your card. Codes can be used once and must be redeemed before the expiry date on the card.",
    "Gift cards turn into account credit: give me the code (MQ- followed by two blocks of four characters) once you're signed in and I'll add it. Each code works once and has an expiry date.",
    "A gift card code looks like MQ-1234-ABCD. Once redeemed, its value sits on your account as credit and pays your bills before your card does. One use per code, and it must not be expired.",
  ],
  info_parental: [
    "Parental controls are set per profile: each one has a maturity rating (Little Kids, Older Kids, Teens or Adults) and can be locked with a 4-digit PIN. Kids profiles can go up to Older Kids at most.",
    "Every profile has its own maturity rating (Little Kids, Older Kids, Teens, Adults) and an optional 4-digit PIN lock. Kids profiles are capped at Older Kids. I can change either for you once you're signed in.",
    "You can set a maturity rating on each profile, from Little Kids up to Adults, and protect a profile with a PIN. Kids profiles top out at Older Kids.",
  ],
  info_devices: [
    "Your plan sets how many screens can stream at once: 1 on Basic, 2 on Standard, 4 on Premium. There's no limit on signed-in devices, but I can sign any of them out for you, or all of them at once.",
    "Streams at the same time: Basic 1, Standard 2, Premium 4. If you spot a device you don't recognise, I can sign it out, or sign out everywhere.",
    "Simultaneous screens depend on your plan (1, 2 or 4). I can show the devices signed into your account and sign out one or all of them.",
  ],
  info_hours: [
    "I'm here 24/7. Our live support team chats from 8am to 11pm Eastern, every day of the year.",
    "Bea never sleeps! The human team is online 8am to 11pm ET, seven days a week.",
    "You can reach me any time. People from our support team are around daily from 8am until 11pm Eastern.",
  ],
  info_password: [
    "I can't see or change passwords here. Use the 'Forgot password?' link on the Marquee sign-in page and we'll email you a reset link.",
    "For password resets, tap 'Forgot password?' on the sign-in screen. A reset link goes to your account email. I don't have access to passwords myself.",
    "Passwords are handled on the sign-in page: choose 'Forgot password?' and follow the email. I'm not able to reset it from this chat.",
  ],
  // ── sign-in ─────────────────────────────────────────────────────────
  auth_ask_email: [
    "Sure! First I need to find your account. What's the email address you use for Marquee?",
    "Happy to. Let's get you signed in first: which email address is your Marquee account under?",
    "I can do that once I know it's you. What email address is on your Marquee account?",
  ],
  auth_bad_email: [
    "That doesn't look like an email address to me. Could you type the full address, like name@example.com?",
    "Hmm, I need the full email address (something@something.com) to find your account.",
    "I was expecting an email address there. What's the one on your account?",
  ],
  auth_email_not_found: [
    "I couldn't find a Marquee account under {email}. Could you double-check the spelling or try another address?",
    "No account turned up for {email}, I'm afraid. Is there another email you might have signed up with?",
    "Hmm, {email} isn't ringing any bells on our side. Want to try a different email address?",
  ],
  auth_ask_code: [
    "Found you! I've just texted a 6-digit verification code to the phone ending in {tail}. What does it say?",
    "Great, I've sent a one-time code to your phone number ending {tail}. Pop the 6 digits in here when it arrives.",
    "Thanks! A 6-digit verification code is on its way to the phone ending in {tail}. What's the code?",
  ],
  auth_code_wrong: [
    "That code doesn't match, sorry. You have {left} more {tries} before I have to lock sign-in for this chat.",
    "Hmm, that's not the code I sent. {left} {tries} left, so take your time.",
    "Not quite. Please check the text again; you've got {left} {tries} remaining.",
  ],
  auth_code_format: [
    "The verification code is 6 digits long. What does your text say?",
    "I need the 6-digit code from the text I just sent.",
    "Could you type the 6 digits from the verification text?",
  ],
  auth_locked: [
    "That's too many incorrect codes, so I've locked sign-in for this chat to keep your account safe. I've passed you to our live team (reference {ref}); they'll verify you another way.",
    "For your security, sign-in is now locked for this conversation after too many wrong codes. A person from our support team will pick this up, reference {ref}.",
    "I can't accept any more codes in this chat, since the account is locked for safety. I've handed this over to a human colleague (ref {ref}) who can help you get back in.",
  ],
  auth_signed_in: [
    "You're verified, thanks {first}!",
    "All set, you're signed in, {first}.",
    "Perfect, that's you, {first}. You're signed in.",
  ],
  auth_signed_in_next: ["What can I help you with?", "What would you like to do?", "What's next?"],
  auth_already: [
    "You're already signed in as {email}. What would you like to do?",
    "No need, you're signed in already ({email}). How can I help?",
    "You're good, I already have you signed in as {email}.",
  ],
  auth_cancelled: [
    "No worries, we'll leave sign-in for now. I can still answer general questions.",
    "Okay, I've stopped the sign-in. Ask me anything general in the meantime.",
    "Sure, sign-in cancelled. Let me know if there's anything else.",
  ],
  reverify_ask: [
    "This one's a sensitive change, so one quick security check: what are the last four digits of the card we bill?",
    "Before I go ahead, please confirm the last 4 digits of the payment card on your account.",
    "For your protection, I need to re-check it's you: what are the last four digits of the card on file?",
  ],
  reverify_retry: [
    "That doesn't match the card on file. One more try: the last four digits of the card?",
    "Hmm, those digits don't match. Could you check the card and try once more?",
    "Not a match, I'm afraid. You have one more go at the last four digits.",
  ],
  reverify_failed: [
    "Sorry, I couldn't verify the card, so I won't make that change. If you need help getting it sorted, I can pass you to a teammate.",
    "Those digits still don't match, so I've stopped here for your security. Our live team can help if you ask for a person.",
    "I wasn't able to confirm the card details, so I've left everything as it was. Say 'agent' if you'd like a human to help.",
  ],
  locked_refuse: [
    "Sign-in is locked for this chat after too many wrong codes, so I can't open your account. Our live team can help (just ask for a person).",
    "I'm afraid account access is locked in this conversation for security. A human teammate can verify you another way if you ask.",
    "Your account is locked for this chat, so I can't do that here. Want me to get you a person?",
  ],
  // ── account ─────────────────────────────────────────────────────────
  summary_active: [
    "Here's your account: {plan} plan at {price}/month, status {status}. Your next bill is on {next} for {due}{credit_note}.{extra}",
    "You're on {plan} ({price} a month) and your membership is {status}. Next billing date: {next}, amount {due}{credit_note}.{extra}",
    "Account snapshot: plan {plan}, {price}/mo, status {status}. We'll next bill you {due} on {next}{credit_note}.{extra}",
  ],
  summary_paused: [
    "Here's your account: {plan} plan, status {status}. Your membership picks back up on {next}, when we'll bill {due}{credit_note}.",
    "You're on {plan} and the membership is currently {status} until {next}. The first bill after that is {due}{credit_note}.",
    "Account snapshot: plan {plan}, status {status}. Billing resumes on {next} at {due}{credit_note}.",
  ],
  summary_cancelling: [
    "Your {plan} membership is {status}: you can keep watching until {next}, and there are no more charges after that.",
    "Status: {status}. Your {plan} plan stays on until {next}, then ends with no further bills.",
    "You're on {plan}, status {status}. Access continues until {next}; nothing more will be charged.",
  ],
  history: [
    "Here are your recent charges:\n{rows}\nLet me know if one of them looks wrong.",
    "Your billing history:\n{rows}\nAnything there you'd like me to look into?",
    "These are the latest charges on your account:\n{rows}\nIf something doesn't look right, I can check whether it can be refunded.",
  ],
  profiles_list: [
    "Your profiles:\n{rows}\nI can change a maturity rating or set a PIN on any of them.",
    "Here's who's on the account:\n{rows}\nWant to change a rating or a PIN lock?",
    "These are your profiles:\n{rows}\nJust say if you'd like to adjust one.",
  ],
  // ── plan change ─────────────────────────────────────────────────────
  plan_choose: [
    "You're currently on {current}. Which plan would you like?\n{rows}",
    "Sure! Right now you have {current}. Pick the plan you want:\n{rows}",
    "Let's find you the right fit. You're on {current} today; which of these should I switch you to?\n{rows}",
  ],
  plan_same: [
    "Good news: you're already on {plan}! Nothing to change there.",
    "You're on {plan} already, so there's nothing to switch.",
    "That's the plan you already have ({plan}), so no change needed.",
  ],
  plan_refused_status: [
    "I can't change plans while your membership is {status}. {hint}",
    "Plan changes aren't possible while the membership is {status}. {hint}",
    "Since your membership is {status}, the plan can't be changed right now. {hint}",
  ],
  plan_confirm_up: [
    "Upgrading from {old} to {new}: it starts right away, and for the {days} days left in this billing period I'll charge {charge} today. From {next} you'll pay {price}/month. Shall I go ahead?",
    "Here's the deal: {old} → {new}, effective immediately. The prorated charge for the remaining {days} days is {charge}, then {price} a month from {next}. Okay to proceed?",
    "Switching you up to {new} (from {old}) today costs {charge} for the {days} days left in your cycle, and {price}/month after {next}. Do you want me to confirm that?",
  ],
  plan_confirm_down: [
    "Moving from {old} to {new}: the change happens on your next billing date, {next}, and you'll pay {price}/month from then. Nothing extra today. Shall I book it in?",
    "{old} → {new}: you keep {old} until {next}, then it's {price} a month. No charge today. Go ahead?",
    "I can schedule the switch to {new} for {next}; from then on it's {price}/month, and you keep {old} until that date. Confirm?",
  ],
  plan_done_up: [
    "Done! You're now on {new}. I've charged {charge} to your card and your reference is {ref}. Enjoy the upgrade!",
    "All set, {new} is live on your account. Prorated charge: {charge}. Reference {ref}.",
    "Upgrade complete: {new}, with {charge} charged today (ref {ref}). Happy watching!",
  ],
  plan_done_down: [
    "Booked: you'll move to {new} on {next} at {price}/month. Reference {ref}.",
    "Done. Your plan switches to {new} on {next}, and your reference is {ref}.",
    "All set: {new} starts on {next} ({price}/month). Ref {ref}.",
  ],
  plan_cancelled: [
    "No problem, I've left your plan exactly as it is.",
    "Okay, no changes made to your plan.",
    "Sure, we'll keep things as they are.",
  ],
  // ── refunds ─────────────────────────────────────────────────────────
  refund_ask_charge: [
    "Let's take a look. Which charge is it? The charge ID looks like CH-12345 and shows on your billing history.\n{rows}",
    "Sure. Which charge would you like refunded? Give me the charge ID (CH- and five digits).\n{rows}",
    "I can check that. What's the charge ID you're asking about?\n{rows}",
  ],
  refund_not_found: [
    "I can't find a charge {id} on your account. Could you check the ID against your billing history?",
    "There's no charge with ID {id} on this account, sorry. Want me to show your recent charges?",
    "Hmm, {id} doesn't match any charge on your account. Double-check the ID for me?",
  ],
  refund_too_old: [
    "Charge {id} from {date} is {age} days old. Refunds are only possible within 30 days of a charge, so I can't refund this one.",
    "Sorry, {id} was billed on {date}, which is {age} days ago, past our 30-day refund window.",
    "I'm afraid {id} ({date}) is outside the 30-day refund window; it's {age} days old.",
  ],
  refund_already: [
    "Charge {id} has already been refunded, so there's nothing more to give back on that one.",
    "Looks like {id} was refunded already.",
    "That charge ({id}) has already had a refund.",
  ],
  refund_yearly: [
    "I'm sorry, your account already had a refund on {last}, and we allow one refund per account every 12 months. The next one is possible from {from}.",
    "Unfortunately there's already been a refund on this account within the last year ({last}). Our policy is one per 12 months, so you'd be eligible again on {from}.",
    "Our once-a-year refund rule applies here: the last refund was on {last}, so another one can't be issued before {from}.",
  ],
  refund_reason: [
    "Charge {id} from {date} for {amount} can be refunded. What happened?\n1. I was charged after I meant to cancel\n2. I was charged twice\n3. I didn't use the service this month\n4. Something else",
    "Okay, {id} ({amount}, {date}) qualifies. Which of these fits best?\n1. Charged after I tried to cancel\n2. Duplicate charge\n3. Didn't watch anything\n4. Other",
    "{id} for {amount} on {date} is eligible. Could you pick a reason?\n1. Meant to cancel before this\n2. Charged twice\n3. Didn't use Marquee this month\n4. Something else",
  ],
  refund_confirm: [
    "To confirm: refund {amount} for charge {id} ({reason}) back to the card ending {card}. This uses your one refund for the next 12 months. Go ahead?",
    "So that's {amount} back to your card ending {card} for {id}, reason: {reason}. Heads-up: it counts as your yearly refund. Shall I submit it?",
    "Ready to refund {amount} on {id} to the card ending {card} ({reason}). It'll be your one refund for this 12-month period. Okay?",
  ],
  refund_done: [
    "Done! {amount} is on its way back to your card ending {card}; expect it within 5 to 10 business days. Your refund reference is {ref}.",
    "Refund submitted: {amount} for {id}, reference {ref}. It should reach your card in 5 to 10 business days.",
    "All sorted. I've refunded {amount} (ref {ref}). Banks usually take 5 to 10 business days to show it.",
  ],
  refund_cancelled: [
    "Okay, I haven't requested any refund.",
    "No problem, the refund request is cancelled and nothing's changed.",
    "Alright, I've left that charge as it is.",
  ],
  // ── profile PIN ─────────────────────────────────────────────────────
  pin_ask_profile: [
    "Which profile would you like to lock with a PIN? You have {names}.",
    "Sure! Which profile is the PIN for: {names}?",
    "Happy to set that up. Which profile: {names}?",
  ],
  profile_not_found: [
    "I don't see a profile called {name} on your account. Your profiles are {names}.",
    "There's no {name} profile here, just {names}. Which one did you mean?",
    "Hmm, {name} isn't one of your profiles. You've got {names}.",
  ],
  pin_ask_new: [
    "What 4-digit PIN would you like for {profile}'s profile?",
    "Great. Choose a new 4-digit PIN for {profile}.",
    "Okay! What should {profile}'s new 4-digit PIN be?",
  ],
  pin_format: [
    "A profile PIN needs to be exactly 4 digits. What would you like it to be?",
    "PINs are 4 numbers, no letters. Try again?",
    "I need 4 digits for the PIN. What should it be?",
  ],
  pin_weak: [
    "{pin} is a bit too easy to guess. PINs can't be all the same digit or a straight run like 1234. Pick another?",
    "Let's go for something harder to guess than {pin}: no repeated digits like 0000 and no sequences like 1234 or 4321. What else would you like?",
    "I can't use {pin} since it's too predictable (same digit or a simple sequence). Could you choose a different 4-digit PIN?",
  ],
  pin_reenter: [
    "Got it. Please type the new PIN once more to confirm.",
    "Just to be safe, enter the same 4-digit PIN again.",
    "Thanks! Could you re-enter the PIN so I know there's no typo?",
  ],
  pin_mismatch: [
    "Those two PINs don't match. Let's start again: what 4-digit PIN would you like for {profile}?",
    "Hmm, the second PIN was different. What PIN should {profile} have? We'll try again.",
    "They didn't match, so nothing is saved yet. Tell me the PIN for {profile} again?",
  ],
  pin_done: [
    "Done! {profile}'s profile is now locked with PIN {masked}. You'll need it to open the profile on any device.",
    "All set: {profile} now asks for a PIN ({masked}) before opening.",
    "The PIN for {profile} is saved ({masked}). It applies on every device straight away.",
  ],
  pin_cancelled: [
    "Okay, I haven't changed any PINs.",
    "No problem, the PIN stays as it was.",
    "Alright, PIN change cancelled.",
  ],
  // ── maturity ratings ────────────────────────────────────────────────
  rating_ask_profile: [
    "Which profile's maturity rating should I change? You have {names}.",
    "Sure! Whose profile are we adjusting: {names}?",
    "Happy to help with parental controls. Which profile: {names}?",
  ],
  rating_ask_level: [
    "{profile} is currently set to {current}. What should it be?\n{rows}",
    "Right now {profile} can watch {current} titles. Choose a new maturity level:\n{rows}",
    "{profile}'s rating is {current}. Which level would you like instead?\n{rows}",
  ],
  rating_kids_cap: [
    "{profile} is a kids profile, so the highest it can go is Older Kids. For {level} content they'd need a regular profile.",
    "Kids profiles like {profile} are capped at Older Kids, so I can't set {level}.",
    "I can't set {profile} to {level}: kids profiles go up to Older Kids only.",
  ],
  rating_same: [
    "{profile} is already set to {level}, so nothing to change.",
    "That's already {profile}'s rating ({level}).",
    "{profile} is on {level} already.",
  ],
  rating_confirm: [
    "Just to check: change {profile} from {old} to {new}?",
    "So {profile} goes from {old} to {new}. Shall I save that?",
    "{profile}: {old} → {new}. Okay to apply?",
  ],
  rating_done: [
    "Done: {profile} is now set to {new} ({blurb}).",
    "Saved! {profile}'s maturity rating is {new} ({blurb}) from now on.",
    "All set, {profile} can now watch {new} titles ({blurb}).",
  ],
  rating_cancelled: [
    "Okay, I've left the maturity ratings as they were.",
    "No problem, no rating changes made.",
    "Alright, ratings unchanged.",
  ],
  // ── devices ─────────────────────────────────────────────────────────
  devices_list: [
    "These devices are signed in to your account:\n{rows}\nWhich one should I sign out? Give me its number or name, or say 'all'.",
    "Here's where you're signed in:\n{rows}\nTell me the device number or name to sign out, or 'all' to sign out everywhere.",
    "Signed-in devices:\n{rows}\nWhich one should go? You can also say 'all of them'.",
  ],
  devices_none: [
    "There are no devices signed in to your account right now.",
    "Nothing's signed in at the moment, so there's nothing to sign out.",
    "Your account isn't signed in anywhere right now.",
  ],
  devices_invalid: [
    "I don't see that one in the list. Which number or device name should I sign out?",
    "That doesn't match any of your signed-in devices. Try the number from the list?",
    "Hmm, no device matches that. Pick a number from the list, or say 'all'.",
  ],
  devices_confirm_one: [
    "Sign out {device} ({kind})? Anyone using it will need your password to get back in. Yes or no?",
    "Just to check: sign out {device} ({kind}), right?",
    "I'll sign out {device} ({kind}). Shall I go ahead?",
  ],
  devices_done_one: [
    "Done, {device} is signed out.",
    "{device} has been signed out of Marquee.",
    "All set, {device} is no longer signed in.",
  ],
  devices_confirm_all: [
    "That signs out all {count} devices, including this one if you're watching on it. If you're sure, type SIGN OUT EVERYWHERE.",
    "Signing out everywhere logs out all {count} devices. To confirm, please type the words SIGN OUT EVERYWHERE.",
    "This will sign out every one of your {count} devices. Type SIGN OUT EVERYWHERE to go ahead, or 'no' to stop.",
  ],
  devices_confirm_all_retry: [
    "To sign out everywhere I need the exact phrase SIGN OUT EVERYWHERE (or say 'no' to stop).",
    "Please type SIGN OUT EVERYWHERE to confirm, or 'never mind'.",
    "I'll need you to type SIGN OUT EVERYWHERE exactly, or 'no' to leave it.",
  ],
  devices_done_all: [
    "Done. All {count} devices are signed out. I'd suggest changing your password too, just to be safe.",
    "Every device ({count}) has been signed out. A password change is a good idea if you think someone else had access.",
    "All {count} devices are now signed out of your account. Consider resetting your password as well.",
  ],
  devices_cancelled: [
    "Okay, nobody's been signed out.",
    "No problem, all devices stay signed in.",
    "Alright, I haven't signed anything out.",
  ],
  // ── pause / resume ──────────────────────────────────────────────────
  pause_ask: [
    "Sure, a little break! How many months would you like to pause for: 1, 2 or 3?",
    "No problem. How long should the pause be? Anything from 1 to 3 months.",
    "I can do that. For how many months (1 to 3)?",
  ],
  pause_refused_status: [
    "Your membership is already {status}, so I can't set up a pause. {hint}",
    "A pause isn't possible while your membership is {status}. {hint}",
    "Since the membership is {status}, there's nothing to pause. {hint}",
  ],
  pause_too_long: [
    "Pauses can be at most 3 months, so {months} is too long. How about 1, 2 or 3?",
    "I can only pause for up to 3 months, not {months}. Pick 1, 2 or 3?",
    "{months} months is over our 3-month limit. Would 1, 2 or 3 months work?",
  ],
  pause_confirm: [
    "So: a {months}-month pause starting on {start}. You won't be charged during the pause, and billing picks up again on {until}. Shall I set it up?",
    "Here's the plan: pause from {start} for {months} month(s), back on {until}. No charges in between. Go ahead?",
    "Pausing for {months} month(s): it begins {start} and your membership restarts {until}. Okay to confirm?",
  ],
  pause_done: [
    "Done! Your membership will pause on {start} and resume on {until}. Reference {ref}. Enjoy the break!",
    "Pause booked: {start} to {until}, reference {ref}. We'll be here when you're back.",
    "All set: paused from {start}, restarting {until} (ref {ref}).",
  ],
  pause_cancelled: [
    "No problem, I didn't pause anything.",
    "Okay, your membership carries on as normal.",
    "Alright, pause cancelled before it started.",
  ],
  resume_not_paused: [
    "Your membership isn't paused; it's {status}, so there's nothing to resume.",
    "Nothing to resume: your membership is {status}.",
    "You're not on a pause right now (status: {status}).",
  ],
  resume_confirm: [
    "Welcome back! If I resume today, you'll be charged {charge} today{credit_note} for {plan}, and your next bill will be on {next}. Resume now?",
    "Resuming today means a {plan} charge of {charge}{credit_note} now, with the next bill on {next}. Shall I?",
    "I can end your pause right now: {charge} today{credit_note}, then your next billing date is {next}. Go ahead?",
  ],
  resume_done: [
    "You're back! Your membership is active again and the next bill is on {next}. Reference {ref}.",
    "Pause ended, welcome back! Next billing date {next}, reference {ref}.",
    "Done, Marquee is active again. Next bill: {next}. Ref {ref}.",
  ],
  resume_cancelled: [
    "No problem, your pause continues as planned.",
    "Okay, I'll leave the pause in place.",
    "Alright, you stay paused for now.",
  ],
  // ── cancel ──────────────────────────────────────────────────────────
  cancel_already: [
    "Your membership is already set to end on {next}, so there's nothing more to cancel.",
    "It's already cancelled: your access ends on {next}.",
    "You've cancelled already; Marquee stays on until {next}.",
  ],
  cancel_offer: [
    "I'm sorry to see you go! Before you decide: I can take {percent}% off your next {bills} bills, so {plan} would be {discounted} instead of {price}. Would you like that offer, or shall I continue with the cancellation?",
    "Before you leave, how about {percent}% off your next {bills} months? That's {discounted} rather than {price} on {plan}. Want to keep Marquee with the discount, or carry on cancelling?",
    "One thing first: we'd love to keep you, so I can give you {percent}% off for the next {bills} bills ({discounted} instead of {price}). Take the offer, or continue to cancel?",
  ],
  cancel_offer_accepted: [
    "Lovely, so glad you're staying! Your next {bills} bills will be {discounted} each. Reference {ref}.",
    "Great choice! The discount is applied: {discounted} for your next {bills} bills (ref {ref}).",
    "Done: {percent}% off your next {bills} bills, so {discounted} each. Reference {ref}. Happy watching!",
  ],
  cancel_typed: [
    "Understood. Cancelling means you keep watching until {next} and then we stop billing you. If you're sure, please type CANCEL MY MEMBERSHIP.",
    "Okay. Your access would end on {next}, with no more charges after that. To confirm, type the words CANCEL MY MEMBERSHIP.",
    "No problem. You'd have Marquee until {next}. Type CANCEL MY MEMBERSHIP to make it final, or 'keep it' to stay.",
  ],
  cancel_typed_retry: [
    "To cancel I need the exact phrase CANCEL MY MEMBERSHIP, or say 'keep it' to stay.",
    "Please type CANCEL MY MEMBERSHIP to confirm, or 'never mind' to keep your plan.",
    "I'll need CANCEL MY MEMBERSHIP typed out to go ahead (or 'no' to stop).",
  ],
  cancel_done: [
    "Your membership is cancelled. You can keep watching until {next}, and there'll be no more charges. Cancellation reference: {ref}. We hope to see you again!",
    "Done. Marquee will end on {next} and you won't be billed again. Reference {ref}. Thanks for being with us.",
    "Cancelled, with reference {ref}. Your access runs until {next}; after that, no charges. Come back any time!",
  ],
  cancel_kept: [
    "Phew! Your membership stays exactly as it is.",
    "Great, nothing's cancelled. Glad you're sticking around!",
    "Okay, I've stopped the cancellation, and your plan carries on.",
  ],
  // ── gift cards ──────────────────────────────────────────────────────
  gift_ask: [
    "Ooh, nice! What's the gift card code? It looks like MQ-XXXX-XXXX.",
    "Let's add it. Please type the code from the card (MQ- then two groups of four).",
    "Sure, what's the code on the gift card?",
  ],
  gift_invalid: [
    "I can't find a gift card with the code {code}. Could you check it for typos?",
    "Hmm, {code} isn't a valid Marquee gift card code. Mind double-checking it?",
    "That code ({code}) doesn't match any gift card, sorry. Want to try again?",
  ],
  gift_redeemed: [
    "Gift card {code} has already been redeemed, so it can't be used again.",
    "That card ({code}) was already used, I'm afraid.",
    "Sorry, {code} has been redeemed before; each code works once.",
  ],
  gift_expired: [
    "Unfortunately gift card {code} expired on {expires}, so I can't redeem it.",
    "That one ({code}) passed its expiry date of {expires}, sorry.",
    "Gift card {code} expired on {expires} and can't be added any more.",
  ],
  gift_confirm: [
    "That card is worth {value}. I'll add it to your account credit, bringing it to {total}, which covers {months} of {plan}. Redeem it now?",
    "Code {code}: {value}. Adding it makes your credit {total} (that's {months} of {plan}). Shall I redeem?",
    "Nice, {value} on {code}! Your credit would go up to {total}, enough for {months} on {plan}. Go ahead?",
  ],
  gift_done: [
    "Redeemed! Your account credit is now {total}, and we'll use it before charging your card. Reference {ref}.",
    "Done. {value} added, new credit balance {total}. Ref {ref}.",
    "All set: credit balance {total} (reference {ref}). Enjoy!",
  ],
  gift_cancelled: [
    "Okay, I haven't redeemed anything. The code will still work later.",
    "No problem, the gift card is untouched.",
    "Alright, we'll leave the gift card for another time.",
  ],
  // ── shared refusals / prompts ───────────────────────────────────────
  yes_no: ["Just a yes or no, please.", "Could you answer yes or no?", "Shall I? Yes or no works."],
  pick_letter: [
    "Please pick one of the letters or names from the list.",
    "Choose a letter from the list, or type the name.",
    "Which one? A letter or the name is fine.",
  ],
  pick_number: [
    "Please choose a number from 1 to 4.",
    "Which number fits best, 1 to 4?",
    "Just reply with 1, 2, 3 or 4.",
  ],
  months_prompt: [
    "How many months, 1, 2 or 3?",
    "Please tell me a number of months from 1 to 3.",
    "I need the number of months (1 to 3).",
  ],
  offer_prompt: [
    "Would you like the discount, or shall I carry on with cancelling?",
    "Take the offer (yes), or continue cancelling (no)?",
    "Shall I apply the discount, or continue with the cancellation?",
  ],
};

/** Reasons offered in the refund flow, numbered 1-4. */
export const REFUND_REASONS = [
  "charged after I meant to cancel",
  "charged twice",
  "didn't use the service",
  "something else",
] as const;
