/**
 * heldout21: the in-app support chat of "Forkful", a food-delivery app (restaurant orders brought by couriers).
 * Anyone can ask about delivery fees, the areas served, opening hours and the allergen policy; everything about
 * an account sits behind a two-step sign-in (the account e-mail, then a 6-digit code texted to the phone on file,
 * with sign-in locked after three wrong codes). Signed in, a customer can track an order, report missing or wrong
 * items (per item, within 48 hours of delivery, refunded to card or app credit, with a per-order cap above which a
 * person reviews), cancel an order (free before the restaurant accepts it, half the food cost after, never once
 * it is on the way), change the delivery address or add courier instructions before dispatch, change the courier
 * tip (capped, and only raised within 24 hours after delivery), add promo codes (expiry, one use, new-customer
 * codes), pause/resume/cancel the Plus membership, manage saved cards and delete the account. Gates: yes/no
 * read-backs, typed phrases (CANCEL ORDER, DELETE MY ACCOUNT), numbered and lettered choices, corrections at
 * read-back, "never mind" at any step, and re-verification with a saved card's last four digits before removing
 * a card or deleting the account. Rule-based (regex NLU and a state machine), no network.
 */
import {
  type Customer,
  FACTS,
  LIMITS,
  NOW,
  type Order,
  type Promo,
  SERVICE_AREAS,
  seedWorld,
  type World,
} from "./heldout21-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** Seeded faults, each switchable on its own. */
export const FAULTS = [
  "auth_skip_track",
  "no_lockout",
  "refund_other_customer",
  "refund_window_ignored",
  "refund_amount_wrong",
  "refund_forget_correction",
  "cancel_skip_typed_gate",
  "cancel_after_dispatch",
  "address_zone_ignored",
  "address_forget_correction",
  "tip_cap_ignored",
  "tip_saved_wrong",
  "promo_expired_accepted",
  "promo_min_spend_wrong",
  "plus_resume_date_wrong",
  "plus_status_wrong",
  "delete_skip_reverify",
  "pay_remove_wrong_card",
  "track_eta_wrong",
] as const;

/** The designed dialogue states. */
export const STATES = [
  "greet.welcome",
  "menu.options",
  "fallback.unknown",
  "fallback.offer_human",
  "handoff.human",
  "close.thanks",
  "close.goodbye",
  "flow.aborted",
  "info.delivery_fees",
  "info.areas",
  "info.area_served",
  "info.area_not_served",
  "info.hours",
  "info.allergens",
  "auth.ask_email",
  "auth.email_unknown",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.code_resent",
  "auth.locked",
  "auth.verified",
  "reverify.ask_card",
  "reverify.wrong",
  "reverify.blocked",
  "order.list",
  "order.not_found",
  "order.not_yours",
  "track.ask_order",
  "track.placed",
  "track.preparing",
  "track.on_the_way",
  "track.delivered",
  "track.cancelled",
  "refund.ask_order",
  "refund.not_delivered",
  "refund.refused_window",
  "refund.choose_item",
  "refund.already_refunded",
  "refund.ask_quantity",
  "refund.quantity_too_many",
  "refund.ask_method",
  "refund.needs_review",
  "refund.confirm",
  "refund.corrected",
  "refund.done",
  "cancel.ask_order",
  "cancel.confirm_free",
  "cancel.fee_warning",
  "cancel.typed_mismatch",
  "cancel.refused_dispatched",
  "cancel.refused_closed",
  "cancel.done_free",
  "cancel.done_fee",
  "cancel.kept",
  "address.ask_order",
  "address.too_late",
  "address.choose_change",
  "address.ask_street",
  "address.ask_postcode",
  "address.out_of_zone",
  "address.confirm",
  "address.corrected",
  "address.done",
  "address.ask_instructions",
  "address.instructions_too_long",
  "address.instructions_confirm",
  "address.instructions_done",
  "tip.ask_order",
  "tip.refused_cancelled",
  "tip.refused_window",
  "tip.ask_amount",
  "tip.invalid_amount",
  "tip.over_cap",
  "tip.refused_lower",
  "tip.confirm",
  "tip.corrected",
  "tip.done",
  "promo.ask_code",
  "promo.unknown",
  "promo.expired",
  "promo.already_used",
  "promo.new_customers_only",
  "promo.confirm",
  "promo.added",
  "promo.wallet",
  "plus.not_member",
  "plus.status",
  "plus.already_paused",
  "plus.ask_pause_length",
  "plus.pause_too_long",
  "plus.pause_confirm",
  "plus.paused_done",
  "plus.resume_confirm",
  "plus.resumed_done",
  "plus.cancel_offer_pause",
  "plus.cancel_confirm",
  "plus.cancelled_done",
  "pay.list",
  "pay.add_info",
  "pay.choose_default",
  "pay.default_done",
  "pay.choose_remove",
  "pay.remove_refused",
  "pay.remove_confirm",
  "pay.removed_done",
  "delete.refused_open_orders",
  "delete.warn",
  "delete.phrase_mismatch",
  "delete.done",
  "delete.kept",
] as const;

type Fault = (typeof FAULTS)[number];
type State = (typeof STATES)[number];
type Flow = "track" | "refund" | "cancel" | "address" | "tip" | "promo" | "plus" | "pay" | "delete";
type Intent =
  | Flow
  | "fees"
  | "areas"
  | "hours"
  | "allergens"
  | "signin"
  | "menu"
  | "human"
  | "thanks"
  | "bye"
  | "greet";
type OrderFlow = "track" | "refund" | "cancel" | "address" | "tip";
type V = readonly [string, string, string, ...string[]];

const ORDER_FLOWS: ReadonlySet<string> = new Set(["track", "refund", "cancel", "address", "tip"]);
const MENU: readonly Intent[] = ["track", "refund", "cancel", "address", "tip", "promo", "plus", "pay"];

interface Ctx {
  flow?: Flow;
  orderId?: string;
  sub?: "address" | "instructions" | "pause" | "resume" | "cancel" | "remove" | "default";
  list?: string[];
  itemIdx?: number;
  qty?: number;
  commitQty?: number;
  method?: "card" | "credit";
  street?: string;
  postcode?: string;
  commitStreet?: string;
  commitPostcode?: string;
  instructions?: string;
  tip?: number;
  months?: number;
  cardIdx?: number;
  promo?: string;
}

// ---------------------------------------------------------------- formatting

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const money = (n: number): string => `£${n.toFixed(2)}`;
const round2 = (n: number): number => Math.round(n * 100) / 100;
const pad = (n: number): string => String(n).padStart(2, "0");
const fmtTime = (ms: number): string => {
  const d = new Date(ms);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};
const fmtDate = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()] ?? ""}`;
};
const dayKey = (ms: number): number => Math.floor(ms / 86_400_000);
const when = (ms: number): string => {
  const diff = dayKey(NOW) - dayKey(ms);
  if (diff === 0) return `today at ${fmtTime(ms)}`;
  if (diff === 1) return `yesterday at ${fmtTime(ms)}`;
  return `on ${fmtDate(ms)} at ${fmtTime(ms)}`;
};
const addMonths = (ms: number, months: number): number => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate());
};
const hoursSince = (ms: number): number => (NOW - ms) / 3_600_000;

// ---------------------------------------------------------------- parsing

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  twenty: 20,
  thirty: 30,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  single: 1,
};
const WORD_NUMBER_RE = new RegExp(`\\b(${Object.keys(WORD_NUMBERS).join("|")})\\b`);

function parseNumber(low: string): number | null {
  const m = /(?<![\d.,£])(\d{1,3})(?![\d.,])/.exec(low);
  if (m?.[1]) return Number(m[1]);
  const w = WORD_NUMBER_RE.exec(low);
  if (w?.[1] !== undefined) return WORD_NUMBERS[w[1]] ?? null;
  return null;
}

function parseMoney(low: string): number | null {
  if (/-\s*£?\s*\d/.test(low)) return -1;
  const m = /(\d{1,6}(?:[.,]\d{1,2})?)/.exec(low);
  if (m?.[1]) return round2(Number(m[1].replace(",", ".")));
  if (/\b(nothing|no tip|none)\b/.test(low)) return 0;
  const w = WORD_NUMBER_RE.exec(low);
  if (w?.[1] !== undefined) return WORD_NUMBERS[w[1]] ?? null;
  return null;
}

function parseOrderId(low: string): string | null {
  const m = /\bfk\s*[-#]?\s*(\d{5})\b/.exec(low) ?? /(?:^|[^\d£.])#?(\d{5})(?![\d])/.exec(low);
  return m?.[1] ? `FK-${m[1]}` : null;
}

function parseEmail(text: string): string | null {
  const m = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/i.exec(text);
  return m ? m[0].toLowerCase() : null;
}

function parseCode(text: string): string | null {
  const joined = text.replace(/(\d)[\s-]+(?=\d)/g, "$1");
  const m = /(?<!\d)(\d{6})(?!\d)/.exec(joined);
  return m?.[1] ?? null;
}

function parseLast4(text: string): string | null {
  const m = /(?<!\d)(\d{4})(?!\d)/.exec(text);
  return m?.[1] ?? null;
}

interface Postcode {
  full: string;
  district: string;
}

function parsePostcode(text: string): Postcode | null {
  const m = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i.exec(text);
  if (!m?.[1] || !m[2]) return null;
  const outward = m[1].toUpperCase();
  return { full: `${outward} ${m[2].toUpperCase()}`, district: toDistrict(outward) };
}

function toDistrict(outward: string): string {
  return /^[A-Z]{1,2}\d[A-Z]$/.test(outward) ? outward.slice(0, -1) : outward;
}

function parseDistrict(text: string): string | null {
  const full = parsePostcode(text);
  if (full) return full.district;
  const m = /\b([a-z]{1,2}\d{1,2}[a-z]?)\b/i.exec(text);
  return m?.[1] ? toDistrict(m[1].toUpperCase()) : null;
}

function parseLetter(low: string, n: number): number | null {
  const m =
    /^(?:option\s+|choice\s+)?\(?([a-z])\)?[.)!]?$/.exec(low.trim()) ??
    /\b(?:option|choice)\s+([a-z])\b/.exec(low);
  if (!m?.[1]) return null;
  const idx = m[1].charCodeAt(0) - 97;
  return idx >= 0 && idx < n ? idx : null;
}

/** A case-insensitive whole-word pattern over the alternatives (each may hold regex syntax). */
const words = (...alts: string[]): RegExp => new RegExp(`\\b(?:${alts.join("|")})\\b`);

const squash = (low: string): string =>
  low
    .replace(/[^a-z0-9 ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const NO_RE =
  /^(no|nope|nah|n|not really|negative|don'?t|do not|wrong|incorrect|not quite|not right|that'?s (wrong|not right))\b/;
const YES_RE = words(
  "yes|yeah|yep|yup|yea|y|sure|ok|okay|correct|confirm(ed)?|go ahead|go for it|do it|please do",
  "that'?s (right|correct|fine)|absolutely|definitely|of course|sounds good|perfect|right|submit|save it",
);
const isNo = (low: string): boolean => NO_RE.test(low.trim());
const isYes = (low: string): boolean => !isNo(low) && YES_RE.test(low);

const ABORT_RE = new RegExp(
  [
    "^(?:(?:ok|okay|actually|oh|um|hmm|no|please|sorry)[,. ]+)*",
    "(?:never ?mind|nvm|forget (?:it|that|about it)|stop|abort|quit|start over|scrap (?:that|it)|don'?t bother",
    "|cancel(?: that| this)?|exit|leave it)",
    "(?:[,. ]+(?:please|thanks|thank you|then|for now))*[.! ]*$",
  ].join(""),
);

const HUMAN_RE = words(
  "human|real person|a person|someone real|live (agent|chat|person)|agent|representative|advisor|adviser",
  "operator|customer service|speak to someone|talk to someone|speak with someone|member of staff",
);
const REFUND_RE = words(
  "missing|refund|wrong (item|order|dish|food|meal|drink)|didn'?t (get|receive|come with|include)",
  "not (in|included in) (the|my) (bag|order)|left out|forgot|forgotten|spill(ed|t)?|damaged|squashed|incorrect",
  "compensation|money back",
);
const ADDRESS_RE = words(
  "address|instructions?|door ?code|gate code|buzzer|doorbell|leave (it|the order|the food) (at|by|with|outside)",
  "note for the (courier|driver|rider)",
);
const TRACK_RE = words(
  "track|tracking|where'?s|where is|status|eta|how long|when will|arriv\\w*|on (its|the) way|late|delayed",
  "courier|rider|driver|hasn'?t (come|arrived)|still waiting",
);
const ALLERGEN_RE = words(
  "allerg\\w*|gluten|nuts?|peanuts?|dairy|lactose|coeliac|celiac|vegan|halal|kosher|ingredients?|shellfish|sesame",
);

function detectIntent(low: string): Intent | null {
  if (HUMAN_RE.test(low)) return "human";
  if (
    !/\bcards?\b/.test(low) &&
    (/\b(delete|close|deactivate|remove|erase|terminate)\b.*\b(account|profile|my data)\b/.test(low) ||
      /\b(forget me|gdpr|right to be forgotten)\b/.test(low))
  )
    return "delete";
  if (/\b(plus|membership|subscription|subscribed|member)\b/.test(low)) return "plus";
  if (/\bcancel/.test(low) || /\bdon'?t want (the|my|this) order\b/.test(low)) return "cancel";
  if (REFUND_RE.test(low)) return "refund";
  if (/\b(tip|tips|tipping|gratuity)\b/.test(low)) return "tip";
  if (ADDRESS_RE.test(low)) return "address";
  if (/\b(promo|voucher|vouchers|coupon|discount|offer code|referral code|promotion)\b/.test(low))
    return "promo";
  if (/\b(payment|card|cards|billing|visa|mastercard|amex|pay with|payment method)\b/.test(low)) return "pay";
  if (TRACK_RE.test(low)) return "track";
  if (
    /\b(delivery (fee|fees|cost|charge)|fees?|how much (is|does|for) delivery|service charge|small order)\b/.test(
      low,
    )
  )
    return "fees";
  if (
    /\b(deliver(y)? (to|in|around)|do you deliver|areas?|postcodes?|zones?|do you cover|cover my|serve)\b/.test(
      low,
    )
  )
    return "areas";
  if (/\b(hours|open|opening|closing|what time|late night|24\/7)\b/.test(low)) return "hours";
  if (ALLERGEN_RE.test(low)) return "allergens";
  if (/\b(sign|log)\s?(in|on)\b|\blogin\b/.test(low)) return "signin";
  if (/\b(help|menu|options|what can you do|what do you do|services)\b/.test(low)) return "menu";
  if (/\b(bye|goodbye|see ya|see you|that'?s all|that is all|nothing else|i'?m done|all sorted)\b/.test(low))
    return "bye";
  if (/\b(thanks|thank you|thx|cheers|ta|appreciate it)\b/.test(low)) return "thanks";
  if (/^(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|howdy|greetings)\b/.test(low)) return "greet";
  return null;
}

const STATUS_WORDS: Record<Order["status"], string> = {
  placed: "waiting for the restaurant",
  accepted: "being prepared",
  on_the_way: "on the way",
  delivered: "delivered",
  cancelled: "cancelled",
};
const subtotal = (o: Order): number => round2(o.items.reduce((s, i) => s + i.qty * i.price, 0));
const orderTotal = (o: Order): number => round2(subtotal(o) + o.deliveryFee + o.tip);
const isOpen = (o: Order): boolean =>
  o.status === "placed" || o.status === "accepted" || o.status === "on_the_way";

// ---------------------------------------------------------------- the bot

class Forkful implements TestbedTarget {
  readonly name = "testbed:heldout21";
  private readonly seed: number;
  private readonly faults: ReadonlySet<string>;
  private world: World = seedWorld();
  private state: State | "" = "";
  private ctx: Ctx = {};
  private customer: Customer | null = null;
  private pendingCustomer: Customer | null = null;
  private pending: { intent: Flow; text: string } | null = null;
  private sensitive: "remove" | "delete" | null = null;
  private codeFails = 0;
  private locked = false;
  private reverified = false;
  private reverifyFails = 0;
  private reverifyBlocked = false;
  private fallbacks = 0;
  private refunds = 0;
  private lastOrderFlow: OrderFlow = "track";
  private visited: State[] = [];
  private log: string[] = [];

  constructor(faults: readonly string[], seed: number) {
    this.faults = new Set(faults);
    this.seed = Number.isFinite(seed) ? Math.floor(seed) : 1;
  }

  async reset(): Promise<void> {
    this.world = seedWorld();
    this.state = "";
    this.ctx = {};
    this.customer = null;
    this.pendingCustomer = null;
    this.pending = null;
    this.sensitive = null;
    this.codeFails = 0;
    this.locked = false;
    this.reverified = false;
    this.reverifyFails = 0;
    this.reverifyBlocked = false;
    this.fallbacks = 0;
    this.refunds = 0;
    this.lastOrderFlow = "track";
    this.visited = [];
    this.log = [];
  }

  async send(text: string): Promise<{ text: string; ms: number }> {
    const start = performance.now();
    let reply: string;
    try {
      reply = this.handle(typeof text === "string" ? text : String(text ?? ""));
    } catch {
      reply = this.say("fallback.unknown", [
        "Sorry, something went wrong on my side. Could you say that again?",
        "Oops — I hit a snag there. Mind trying that once more?",
        "Apologies, I couldn't process that. Please try again.",
      ]);
    }
    return { text: reply, ms: performance.now() - start };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.log.join("\n");
  }

  // ---------------------------------------------------------------- helpers

  private on(f: Fault): boolean {
    return this.faults.has(f);
  }

  private pick(v: V): string {
    const n = v.length;
    return v[(((this.seed - 1) % n) + n) % n] ?? v[0];
  }

  private say(state: State, v: V): string {
    this.state = state;
    this.visited.push(state);
    return this.pick(v);
  }

  private me(): Customer {
    if (!this.customer) throw new Error("not signed in");
    return this.customer;
  }

  private card(c: Customer, last4: string = c.defaultCard): string {
    const card = c.cards.find((k) => k.last4 === last4) ?? c.cards[0];
    return card ? `${card.brand} ending ${card.last4}` : "your card";
  }

  private order(): Order {
    const o = this.ctx.orderId ? this.world.orders[this.ctx.orderId] : undefined;
    if (!o) throw new Error("no order in context");
    return o;
  }

  // ---------------------------------------------------------------- dispatch

  private handle(raw: string): string {
    const text = raw.slice(0, 4000).trim();
    const low = text.toLowerCase().replace(/[’‘`]/g, "'");
    if (!text) {
      if (this.awaiting()) return this.reprompt();
      return this.fallback();
    }
    if (HUMAN_RE.test(low)) return this.handoff();
    const awaiting = this.awaiting();
    if (awaiting && ABORT_RE.test(low) && !(this.ctx.flow === "cancel" && /^cancel[.! ]*$/.test(low))) {
      return this.abort();
    }
    if (awaiting) {
      const r = this.onState(text, low);
      if (r !== null) {
        this.fallbacks = 0;
        return r;
      }
    }
    const intent = detectIntent(low);
    if (intent) {
      this.fallbacks = 0;
      return this.route(intent, text, low);
    }
    if (ABORT_RE.test(low)) return this.abort();
    if (parseOrderId(low)) {
      this.fallbacks = 0;
      return this.route(this.lastOrderFlow, text, low);
    }
    if (awaiting) return this.reprompt();
    return this.fallback();
  }

  private awaiting(): boolean {
    return AWAITING.has(this.state);
  }

  private abort(): string {
    this.ctx = {};
    this.pending = null;
    this.sensitive = null;
    return this.say("flow.aborted", [
      "No problem, I've stopped there and nothing has been changed. Is there anything else I can help with?",
      "Okay, I've cancelled that — nothing was changed. What else can I do for you?",
      "Sure, let's leave it. Nothing's been updated on your account. Anything else?",
    ]);
  }

  private handoff(): string {
    this.ctx = {};
    this.log.push("handoff:human");
    return this.say("handoff.human", [
      "Of course — I'm passing you to someone from our support team now. The current wait is about 4 minutes, and " +
        "they'll see this conversation so you won't need to repeat yourself.",
      "Sure thing. I've asked a member of our support team to join this chat — it's usually under 5 minutes. " +
        "Stay on this screen and they'll pick up from here.",
      "No problem, connecting you with a support specialist. Hang tight — someone will be with you in a few " +
        "minutes, with our chat history in front of them.",
    ]);
  }

  private fallback(): string {
    this.fallbacks++;
    if (this.fallbacks >= 2) {
      return this.say("fallback.offer_human", [
        "Sorry, I'm still not sure what you need. Would you like me to connect you with someone from our support team?",
        "I'm having trouble understanding, I'm afraid. Shall I get a person from our support team to help?",
        "Apologies — I don't think I'm getting it. Do you want me to pass you to a human colleague?",
      ]);
    }
    return this.say("fallback.unknown", [
      'Sorry, I didn\'t quite catch that. You can ask me things like "where\'s my order?", "something was missing" ' +
        'or "cancel my order" — or type "menu" to see everything I can help with.',
      'Hmm, I\'m not sure I understood. Try telling me what you need in a few words, e.g. "track my order" or ' +
        '"change my tip". Typing "menu" shows all the options.',
      "I didn't get that one, sorry! I can help with orders, refunds, tips, vouchers, Plus and payment cards. " +
        'What do you need? (Or say "menu".)',
    ]);
  }

  private route(intent: Intent, text: string, low: string): string {
    switch (intent) {
      case "human":
        return this.handoff();
      case "greet":
        this.ctx = {};
        return this.greet();
      case "menu":
        this.ctx = {};
        return this.menu("");
      case "thanks":
        this.ctx = {};
        return this.say("close.thanks", [
          "You're welcome! Is there anything else I can help with?",
          "Happy to help! Anything else I can do for you today?",
          "No problem at all. Let me know if there's anything else.",
        ]);
      case "bye":
        this.ctx = {};
        return this.say("close.goodbye", [
          "Thanks for chatting with Forkful — enjoy your meal! 🍕",
          "Bye for now, and enjoy your food! You can reopen this chat from the Help tab anytime.",
          "Take care! If anything else comes up, I'm here 24/7 in the Help section.",
        ]);
      case "fees":
        this.ctx = {};
        return this.fees();
      case "areas":
        this.ctx = {};
        return this.areas(text);
      case "hours":
        this.ctx = {};
        return this.hours();
      case "allergens":
        this.ctx = {};
        return this.allergens();
      case "signin":
        this.ctx = {};
        if (this.customer) {
          const c = this.customer;
          return this.say("auth.verified", [
            `You're already signed in as ${c.name}. What can I help you with?`,
            `Good news — you're signed in already, ${c.firstName}. What do you need?`,
            `You're still signed in (${c.email}). How can I help?`,
          ]);
        }
        if (this.locked) return this.lockedReply();
        this.pending = null;
        return this.askEmail(text);
      default:
        return this.protectedFlow(intent, text, low);
    }
  }

  private protectedFlow(flow: Flow, text: string, low: string): string {
    this.ctx = {};
    this.sensitive = null;
    if (!this.customer) {
      if (flow === "track" && this.on("auth_skip_track") && parseOrderId(low)) {
        return this.startFlow(flow, text, low);
      }
      if (this.locked) return this.lockedReply();
      this.pending = { intent: flow, text };
      return this.askEmail(text);
    }
    return this.startFlow(flow, text, low);
  }

  // ---------------------------------------------------------------- greeting, menu, info

  private greet(): string {
    return this.say("greet.welcome", [
      "Hi there 👋 I'm the Forkful support assistant. I can track an order, sort out missing or wrong items, cancel " +
        "or change an order, update your courier tip, and help with vouchers, Forkful Plus and your saved cards. " +
        "I can also answer questions about delivery fees, areas and allergens. What can I help with today?",
      "Hello! Welcome to Forkful Help. Whether it's a late order, something missing from your bag, a promo code or " +
        "your Plus membership, I'm here to help. What's going on?",
      "Hey! Thanks for reaching out to Forkful. Tell me what you need — tracking, refunds for missing items, " +
        'cancellations, address changes, tips, vouchers, Plus or payment cards. Or type "menu" for a list.',
    ]);
  }

  private menu(prefix: string): string {
    const list =
      "1. Track an order\n2. Missing or wrong items\n3. Cancel an order\n4. Change address or courier instructions\n" +
      "5. Courier tip\n6. Promo codes & vouchers\n7. Forkful Plus membership\n8. Payment methods";
    return (
      prefix +
      this.say("menu.options", [
        `Here's what I can help with:\n${list}\nJust reply with a number, or ask about delivery fees, areas, ` +
          "opening hours or allergens.",
        `Sure! Pick one of these:\n${list}\nYou can also ask me general questions, like where we deliver or how ` +
          "fees work.",
        `These are the things I can sort out for you:\n${list}\nType the number — or just tell me in your own words.`,
      ])
    );
  }

  private fees(): string {
    return this.say("info.delivery_fees", [
      "Delivery costs between £1.49 and £3.49 depending on how far the restaurant is, and you'll always see the " +
        "exact fee before you pay. There's also a 5% service fee (capped at £2.99) and a £2 small-order fee on " +
        "baskets under £12. Forkful Plus members get free delivery on orders over £15.",
      "Good question! The delivery fee is £1.49–£3.49 based on distance, plus a service fee of 5% (max £2.99). " +
        "Orders under £12 have a £2 small-order fee. With Forkful Plus, delivery is free on orders over £15.",
      "Here's how our fees work: delivery £1.49 to £3.49 (shown at checkout), a 5% service fee up to £2.99, and a " +
        "£2 small-order fee if your basket is under £12. Plus members pay no delivery fee on orders of £15+.",
    ]);
  }

  private areas(text: string): string {
    const district = parseDistrict(text);
    if (district) return this.areaCheck(district);
    const list = SERVICE_AREAS.join(", ");
    return this.say("info.areas", [
      `We currently deliver across East and North-East London: ${list}. Each restaurant has its own delivery ` +
        "radius, so the app only shows places that can reach you. Send me a postcode and I'll check it for you.",
      `Right now Forkful covers these postcode districts: ${list}. We're growing, so more areas are on the way! ` +
        "Want me to check a specific postcode?",
      `Our delivery area is ${list} in London. Tell me your postcode and I'll let you know if we reach you and ` +
        "which restaurants deliver there.",
    ]);
  }

  private areaCheck(district: string): string {
    if (!SERVICE_AREAS.includes(district)) {
      this.log.push(`read:area:${district}:not_served`);
      return this.say("info.area_not_served", [
        `Sorry, we don't deliver to ${district} yet. At the moment we cover ${SERVICE_AREAS.join(", ")}.`,
        `Unfortunately ${district} is outside our delivery area for now — we're only in ${SERVICE_AREAS.join(", ")}.`,
        `I'm afraid Forkful doesn't reach ${district} yet. Our current areas are ${SERVICE_AREAS.join(", ")}.`,
      ]);
    }
    const names = Object.values(this.world.restaurants)
      .filter((r) => r.zones.includes(district))
      .map((r) => r.name)
      .join(", ");
    this.log.push(`read:area:${district}:served:${names}`);
    return this.say("info.area_served", [
      `Good news — we deliver to ${district}! Restaurants that reach you include ${names}.`,
      `Yes, ${district} is in our delivery area. You can order from ${names}, among others.`,
      `We do cover ${district} 🎉 Places delivering there: ${names}.`,
    ]);
  }

  private hours(): string {
    return this.say("info.hours", [
      "Most restaurants on Forkful take orders from 11:30 until 23:00, and some stay open later on Fridays and " +
        "Saturdays — the app shows each restaurant's hours. I'm here 24/7, and our support team is online from 8am " +
        "to midnight.",
      "Restaurant hours vary, but most are open 11:30–23:00 (later at weekends for some). This chat runs around " +
        "the clock, and you can reach a person in our support team between 8am and midnight.",
      "Generally you can order between 11:30 and 23:00; each restaurant's page lists its own opening times. " +
        "Support: this assistant is 24/7, human agents 8:00–00:00 every day.",
    ]);
  }

  private allergens(): string {
    return this.say("info.allergens", [
      "Restaurants list the 14 major allergens for each dish on their menu page (tap the ⓘ next to a dish). If you " +
        "have an allergy, add a note at checkout and call the restaurant through the app before ordering. Kitchens " +
        "handle lots of ingredients, so we can't guarantee any dish is completely allergen-free.",
      "Every dish shows allergen info on the restaurant's menu. For allergies, please contact the restaurant " +
        "before you order (there's a call button on their page) and leave a note at checkout. We can't promise " +
        "there's no cross-contamination, as kitchens prepare many dishes.",
      "Good to check! Allergen details are on each item in the menu. Since restaurants prepare food with shared " +
        "equipment, we can't guarantee a dish is free from allergens — please speak to the restaurant directly " +
        "(via the app) if you have a serious allergy, and add it to your order notes.",
    ]);
  }

  // ---------------------------------------------------------------- sign-in

  private askEmail(text: string): string {
    const email = parseEmail(text);
    if (email) return this.checkEmail(email);
    return this.say("auth.ask_email", [
      "I can help with that — first I just need to sign you in. What's the email address on your Forkful account?",
      "Sure! To look at your account I'll need to verify you. Which email address do you use with Forkful?",
      "Happy to help. For security, could you tell me the email address linked to your Forkful account first?",
    ]);
  }

  private checkEmail(email: string): string {
    const c = Object.values(this.world.customers).find((k) => k.email === email && !k.deleted);
    if (!c) {
      this.log.push(`auth:email_unknown:${email}`);
      return this.say("auth.email_unknown", [
        `I couldn't find a Forkful account for ${email}. Could you double-check the spelling, or try another email?`,
        `Hmm, there's no account under ${email}. Is there another email address you might have signed up with?`,
        `Sorry, ${email} doesn't match any account I can see. Please check it and try again.`,
      ]);
    }
    this.pendingCustomer = c;
    return this.say("auth.ask_code", [
      `Thanks! I've just texted a 6-digit verification code to the phone number ending in ${c.phoneLast2}. ` +
        "Please type it here.",
      `Great, I've found your account. We've sent a verification code by SMS to your number ending ${c.phoneLast2} ` +
        "— what's the code?",
      `Got it. To confirm it's you, enter the 6-digit code we just sent to the mobile ending in ${c.phoneLast2}.`,
    ]);
  }

  private onCode(text: string, low: string): string | null {
    const email = parseEmail(text);
    if (email) return this.checkEmail(email);
    const c = this.pendingCustomer;
    if (!c) return null;
    if (
      /\b(resend|send (it )?again|new code|another code|didn'?t (get|receive)|haven'?t (got|received)|no code)\b/.test(
        low,
      )
    ) {
      return this.say("auth.code_resent", [
        `No problem — I've sent a fresh code to the number ending in ${c.phoneLast2}. It can take a minute to arrive.`,
        `I've resent the code to your phone ending ${c.phoneLast2}. Give it a moment, then type it in here.`,
        `A new code is on its way to the mobile ending in ${c.phoneLast2}. Let me know when you have it.`,
      ]);
    }
    const code = parseCode(text);
    if (!code) return null;
    if (code === c.code) {
      this.customer = c;
      this.pendingCustomer = null;
      this.codeFails = 0;
      this.log.push(`auth:verified:${c.id}`);
      const pending = this.pending;
      this.pending = null;
      const hello = this.say("auth.verified", [
        `Thanks, ${c.firstName} — you're verified.`,
        `Perfect, you're signed in, ${c.firstName}.`,
        `That's the one! Welcome back, ${c.firstName}.`,
      ]);
      if (pending)
        return `${hello} ${this.startFlow(pending.intent, pending.text, pending.text.toLowerCase())}`;
      const next = this.pick([
        "What can I help you with?",
        "What would you like to do?",
        "How can I help today?",
      ]);
      return `${hello} ${next}`;
    }
    this.codeFails++;
    this.log.push(`auth:code_wrong:${this.codeFails}`);
    if (this.codeFails >= LIMITS.codeAttempts && !this.on("no_lockout")) {
      this.locked = true;
      this.pendingCustomer = null;
      this.pending = null;
      this.log.push("auth:locked");
      return this.lockedReply();
    }
    const left = LIMITS.codeAttempts - this.codeFails;
    const tries = left > 0 ? `${left} attempt${left === 1 ? "" : "s"} left` : "please try again";
    return this.say("auth.code_wrong", [
      `That code doesn't match, sorry. Please check the text message and try again (${tries}).`,
      `Hmm, that's not the right code. Double-check the SMS and enter it again — ${tries}.`,
      `The code didn't work. Make sure you're using the latest one we sent (${tries}).`,
    ]);
  }

  private lockedReply(): string {
    return this.say("auth.locked", [
      "For your security I've locked sign-in after too many incorrect codes. Please try again in 30 minutes, or I " +
        "can connect you with our support team.",
      "There have been too many wrong codes, so sign-in is temporarily locked to protect your account. You can try " +
        "again in half an hour — or ask me for a person if it's urgent.",
      "Sorry, I can't sign you in right now: the account is locked after several incorrect codes. It unlocks in 30 " +
        "minutes; our support team can also help in the meantime.",
    ]);
  }

  // ---------------------------------------------------------------- re-verification

  private reverify(action: "remove" | "delete", next: () => string): string {
    if (this.reverified) return next();
    if (this.reverifyBlocked) return this.blockedReply();
    this.sensitive = action;
    return this.say("reverify.ask_card", [
      "Before I do that, I need to double-check it's really you. Please type the last 4 digits of one of the cards " +
        "saved on your account.",
      "This is a sensitive change, so one more security check: what are the last four digits of a card saved on " +
        "your Forkful account?",
      "Just to be safe — could you confirm the last 4 digits of any card you have saved with us?",
    ]);
  }

  private blockedReply(): string {
    this.ctx = {};
    this.sensitive = null;
    return this.say("reverify.blocked", [
      "Sorry, I wasn't able to verify you, so I can't make this change in chat. Our support team can help — just " +
        "ask to speak to someone.",
      "Those details didn't match, so for your security I've stopped here. If you need this done, a member of our " +
        "support team can take it from here.",
      "I couldn't confirm your identity, so this change is blocked for now. You can ask me to connect you with a " +
        "person if you'd like.",
    ]);
  }

  private onReverify(text: string): string | null {
    const c = this.customer;
    if (!c) return null;
    const last4 = parseLast4(text);
    if (!last4) return null;
    if (c.cards.some((k) => k.last4 === last4)) {
      this.reverified = true;
      this.log.push("auth:reverified");
      const ok = this.pick([
        "Thanks, that matches.",
        "Great, that's verified.",
        "Perfect, thanks for confirming.",
      ]);
      const action = this.sensitive;
      this.sensitive = null;
      if (action === "remove") return `${ok} ${this.chooseRemove()}`;
      return `${ok} ${this.deleteWarn()}`;
    }
    this.reverifyFails++;
    this.log.push(`auth:reverify_wrong:${this.reverifyFails}`);
    if (this.reverifyFails >= LIMITS.reverifyAttempts) {
      this.reverifyBlocked = true;
      return this.blockedReply();
    }
    return this.say("reverify.wrong", [
      "Those digits don't match any card on your account. You have one more try.",
      "Hmm, that doesn't match a saved card. Please check and try once more.",
      "Sorry, no card on your account ends in those digits. One attempt left.",
    ]);
  }

  // ---------------------------------------------------------------- flows

  private startFlow(flow: Flow, text: string, low: string): string {
    this.ctx = { flow };
    if (ORDER_FLOWS.has(flow)) {
      this.lastOrderFlow = flow as OrderFlow;
      if (flow === "address") {
        if (
          /\b(instructions?|door ?code|gate code|buzzer|doorbell|note|leave (it|the order|the food))\b/.test(
            low,
          )
        ) {
          this.ctx.sub = "instructions";
        } else if (/\baddress\b/.test(low)) this.ctx.sub = "address";
      }
      const id = parseOrderId(low);
      if (id) return this.onOrder(flow as OrderFlow, id);
      return this.askOrder(flow as OrderFlow);
    }
    switch (flow) {
      case "promo":
        return this.startPromo(text, low);
      case "plus":
        return this.startPlus(low);
      case "pay":
        return this.startPay(low);
      default:
        return this.startDelete();
    }
  }

  private askOrder(flow: OrderFlow): string {
    const hint = this.pick([
      'It starts with "FK-" and you\'ll find it under Orders in the app.',
      "You can find it in the Orders tab (it looks like FK-12345).",
      'It\'s on your receipt email and in the Orders tab — something like "FK-12345".',
    ]);
    const lead: Record<OrderFlow, V> = {
      track: [
        "Sure, let me check on that. What's the order number?",
        "Of course! Which order would you like me to track? Please send the order number.",
        "I'll look it up for you. What's your order number?",
      ],
      refund: [
        "I'm sorry something wasn't right with your order. What's the order number?",
        "Oh no, sorry about that! Which order was it? Please share the order number.",
        "Let's get that sorted. Could you give me the order number?",
      ],
      cancel: [
        "I can help with that. Which order would you like to cancel? Please send the order number.",
        "Okay — what's the order number of the order you want to cancel?",
        "Sure. Tell me the order number and I'll check whether it can still be cancelled.",
      ],
      address: [
        "Which order is this for? Send me the order number and I'll check it's not too late to change.",
        "No problem. What's the order number? I'll see if the courier has already set off.",
        "Sure — please share the order number so I can check whether it can still be changed.",
      ],
      tip: [
        "Happy to help with the tip. What's the order number?",
        "Sure! Which order is the tip for? Please send the order number.",
        "Of course — what's the order number for the delivery you'd like to change the tip on?",
      ],
    };
    return `${this.say(`${flow}.ask_order`, lead[flow])} ${hint}`;
  }

  private onOrderInput(low: string): string | null {
    const flow = this.ctx.flow;
    if (!flow || !ORDER_FLOWS.has(flow)) return null;
    const id = parseOrderId(low);
    if (id) return this.onOrder(flow as OrderFlow, id);
    if (this.state === "order.list" && this.ctx.list) {
      const n = parseNumber(low);
      const chosen = n !== null ? this.ctx.list[n - 1] : undefined;
      if (chosen) return this.onOrder(flow as OrderFlow, chosen);
    }
    if (
      this.customer &&
      /\b(don'?t know|not sure|no idea|list|show|which ones?|can'?t find|latest|last|recent|my orders|forgot)\b/.test(
        low,
      )
    ) {
      return this.listOrders();
    }
    return null;
  }

  private listOrders(): string {
    const c = this.me();
    const orders = Object.values(this.world.orders)
      .filter((o) => o.customerId === c.id)
      .sort((a, b) => b.placedAt - a.placedAt);
    this.ctx.list = orders.map((o) => o.id);
    const lines = orders
      .map(
        (o, i) => `${i + 1}. ${o.id} — ${o.restaurant}, ${fmtDate(o.placedAt)} (${STATUS_WORDS[o.status]})`,
      )
      .join("\n");
    this.log.push(`read:orders:${c.id}:${orders.map((o) => `${o.id}=${o.status}`).join(",")}`);
    return this.say("order.list", [
      `Here are your recent orders:\n${lines}\nWhich one is it? Reply with the number.`,
      `No worries, these are the orders on your account:\n${lines}\nJust tell me the number of the right one.`,
      `I found these orders:\n${lines}\nWhich one do you mean (1–${orders.length})?`,
    ]);
  }

  private onOrder(flow: OrderFlow, id: string): string {
    const o = this.world.orders[id];
    if (!o) {
      this.log.push(`read:order:${id}:not_found`);
      return this.say("order.not_found", [
        `I can't find an order with the number ${id}. Could you check it and send it again? If you're not sure, ` +
          'say "show my orders".',
        `Hmm, ${id} doesn't match any order I can see. Please double-check the number — or ask me to list your ` +
          "orders.",
        `Sorry, there's no order ${id} on our system. Mind checking the number? I can also show your recent orders.`,
      ]);
    }
    const mine = this.customer !== null && o.customerId === this.customer.id;
    const allowed =
      mine ||
      (flow === "refund" && this.customer !== null && this.on("refund_other_customer")) ||
      (flow === "track" && this.customer === null && this.on("auth_skip_track"));
    if (!allowed) {
      this.log.push(`read:order:${id}:not_yours`);
      return this.say("order.not_yours", [
        `Order ${id} isn't linked to your account, so I can't help with it here. Could you check the order number?`,
        `That order (${id}) belongs to a different account — for privacy I can only help with your own orders. ` +
          "Is there another order number?",
        `I'm afraid ${id} isn't one of your orders. Please send an order number from your own account.`,
      ]);
    }
    this.ctx.orderId = id;
    switch (flow) {
      case "track":
        return this.track(o);
      case "refund":
        return this.refundStart(o);
      case "cancel":
        return this.cancelStart(o);
      case "address":
        return this.addressStart(o);
      default:
        return this.tipStart(o);
    }
  }

  // ---------------------------------------------------------------- track

  private track(o: Order): string {
    const to = `${o.street}, ${o.postcode}`;
    const note = o.instructions ? ` Note for the courier: "${o.instructions}".` : "";
    const detail = `Delivering to ${to}; courier tip ${money(o.tip)}.${note}`;
    const eta = o.eta ?? NOW;
    switch (o.status) {
      case "placed":
        this.log.push(
          `read:order:${o.id}:placed:eta=${fmtTime(eta)}:to=${to}:tip=${o.tip}:note=${o.instructions}`,
        );
        return this.say("track.placed", [
          `Order ${o.id} from ${o.restaurant} was placed at ${fmtTime(o.placedAt)} and is waiting for the ` +
            `restaurant to accept it — that usually takes a few minutes. Estimated arrival: ${fmtTime(eta)}. ${detail}`,
          `${o.restaurant} hasn't accepted ${o.id} yet (you ordered at ${fmtTime(o.placedAt)}), but that's normal ` +
            `at this stage. We expect it around ${fmtTime(eta)}. ${detail}`,
          `${o.id} is with ${o.restaurant}, waiting for them to confirm. Current estimate: ${fmtTime(eta)}. ${detail}`,
        ]);
      case "accepted":
        this.log.push(
          `read:order:${o.id}:accepted:eta=${fmtTime(eta)}:to=${to}:tip=${o.tip}:note=${o.instructions}`,
        );
        return this.say("track.preparing", [
          `Good news — ${o.restaurant} is preparing order ${o.id} now. Estimated delivery: ${fmtTime(eta)}. ${detail}`,
          `${o.id} has been accepted and the kitchen at ${o.restaurant} is on it 🍔 It should reach you by about ` +
            `${fmtTime(eta)}. ${detail}`,
          `Your order ${o.id} is being cooked at ${o.restaurant}. We'll assign a courier shortly; expected arrival ` +
            `${fmtTime(eta)}. ${detail}`,
        ]);
      case "on_the_way": {
        const shown = this.on("track_eta_wrong") ? eta + 25 * 60_000 : eta;
        this.log.push(
          `read:order:${o.id}:on_the_way:eta=${fmtTime(shown)}:courier=${o.courier}:to=${to}:tip=${o.tip}` +
            `:note=${o.instructions}`,
        );
        return this.say("track.on_the_way", [
          `${o.courier} has picked up your order ${o.id} from ${o.restaurant} and is on the way by ${o.vehicle}. ` +
            `Estimated arrival: ${fmtTime(shown)}. ${detail}`,
          `It's on its way! ${o.courier} is bringing ${o.id} by ${o.vehicle} and should be with you around ` +
            `${fmtTime(shown)}. You can follow them live on the map in the app. ${detail}`,
          `Your food has left ${o.restaurant} — ${o.courier} (${o.vehicle}) expects to arrive at ${fmtTime(shown)}. ` +
            detail,
        ]);
      }
      case "delivered": {
        const at = o.deliveredAt ?? NOW;
        this.log.push(`read:order:${o.id}:delivered:at=${at}:to=${to}:tip=${o.tip}`);
        return this.say("track.delivered", [
          `Order ${o.id} from ${o.restaurant} was delivered ${when(at)} to ${to} by ${o.courier}. If something was ` +
            "missing or wrong, just let me know and I'll sort it out.",
          `According to our records, ${o.courier} delivered ${o.id} ${when(at)} (${to}). Was there a problem with ` +
            "it? I can help with missing or wrong items.",
          `${o.id} shows as delivered ${when(at)} to ${to}. If anything wasn't right, tell me and we'll fix it.`,
        ]);
      }
      default: {
        const at = o.cancelledAt ?? o.placedAt;
        this.log.push(`read:order:${o.id}:cancelled:at=${at}:refund=${o.refundTotal}`);
        return this.say("track.cancelled", [
          `Order ${o.id} from ${o.restaurant} was cancelled ${when(at)}, and ${money(o.refundTotal)} was refunded ` +
            "to your card.",
          `${o.id} was cancelled ${when(at)}. A refund of ${money(o.refundTotal)} went back to your original ` +
            "payment method.",
          `That order (${o.id}) is cancelled — it happened ${when(at)}, and you were refunded ${money(o.refundTotal)}.`,
        ]);
      }
    }
  }

  // ---------------------------------------------------------------- refund (missing / wrong items)

  private refundStart(o: Order): string {
    if (o.status !== "delivered") {
      const why =
        o.status === "cancelled"
          ? this.pick([
              "it was cancelled and refunded already",
              "it was cancelled, so it was never delivered",
              "it's a cancelled order",
            ])
          : this.pick([
              `it's still ${STATUS_WORDS[o.status]}`,
              `it hasn't arrived yet (it's ${STATUS_WORDS[o.status]})`,
              `it's currently ${STATUS_WORDS[o.status]}`,
            ]);
      this.log.push(`read:order:${o.id}:${o.status}`);
      return this.say("refund.not_delivered", [
        `I can't log missing items on ${o.id} because ${why}. Once your food arrives, check the bag and come back ` +
          "to me if anything's missing.",
        `Missing-item reports are only for delivered orders, and ${o.id} — ${why}. If something's off after it ` +
          "arrives, I'm here.",
        `${o.id} can't be reported yet: ${why}. You can report missing or wrong items once an order is delivered.`,
      ]);
    }
    const at = o.deliveredAt ?? NOW;
    if (hoursSince(at) > LIMITS.refundWindowHours && !this.on("refund_window_ignored")) {
      this.log.push(`read:order:${o.id}:delivered:at=${at}:refund_window_closed`);
      return this.say("refund.refused_window", [
        `${o.id} was delivered ${when(at)} — more than ${LIMITS.refundWindowHours} hours ago, so it's outside the ` +
          "window for reporting missing or wrong items here. If you think something's gone wrong, I can connect " +
          "you with our team.",
        `Sorry, missing or wrong items need to be reported within ${LIMITS.refundWindowHours} hours of delivery, ` +
          `and ${o.id} arrived ${when(at)}. I'm not able to issue a refund for it in chat.`,
        `I'm afraid ${o.id} is too old to claim for — it was delivered ${when(at)} and the limit is ` +
          `${LIMITS.refundWindowHours} hours. Our support team can take a look if you'd like.`,
      ]);
    }
    return this.chooseItem(o);
  }

  private itemLines(o: Order): string {
    return o.items
      .map((it, i) => {
        const done = it.refunded >= it.qty ? " — refunded" : "";
        return `${i + 1}. ${it.qty}× ${it.name} (${money(it.price)} each)${done}`;
      })
      .join("\n");
  }

  private chooseItem(o: Order): string {
    const lines = this.itemLines(o);
    this.log.push(
      `read:items:${o.id}:${o.items.map((it) => `${it.name}x${it.qty}@${it.price}r${it.refunded}`).join(",")}`,
    );
    return this.say("refund.choose_item", [
      `Here's what was on ${o.id} from ${o.restaurant}:\n${lines}\nWhich item was missing or wrong? Reply with the ` +
        "number or the name.",
      `Let's find the item. Your order ${o.id} had:\n${lines}\nWhich one was the problem?`,
      `Thanks. These are the items on ${o.id}:\n${lines}\nTell me which one was missing or incorrect (number or name).`,
    ]);
  }

  private onItem(low: string): string | null {
    const o = this.order();
    let idx: number | null = null;
    const byName = o.items.findIndex((it) =>
      it.name
        .toLowerCase()
        .split(/\s+/)
        .some((w) => w.length > 3 && low.includes(w)),
    );
    if (byName >= 0) idx = byName;
    else {
      const n = parseNumber(low);
      if (n !== null && n >= 1 && n <= o.items.length) idx = n - 1;
    }
    if (idx === null) return null;
    const it = o.items[idx];
    if (!it) return null;
    if (it.refunded >= it.qty) {
      return this.say("refund.already_refunded", [
        `You've already been refunded for the ${it.name} on this order. Was it a different item?`,
        `The ${it.name} on ${o.id} has already been refunded. Is there another item that was missing or wrong?`,
        `Looks like we've refunded the ${it.name} already. Which other item was affected, if any?`,
      ]);
    }
    this.ctx.itemIdx = idx;
    const left = it.qty - it.refunded;
    if (left > 1) {
      return this.say("refund.ask_quantity", [
        `You ordered ${it.qty}× ${it.name}. How many of them were missing or wrong?`,
        `There were ${it.qty} ${it.name} on the order — how many were affected?`,
        `Got it, the ${it.name}. How many out of ${it.qty}?`,
      ]);
    }
    return this.setQty(1);
  }

  private onQty(low: string): string | null {
    const o = this.order();
    const it = o.items[this.ctx.itemIdx ?? -1];
    if (!it) return null;
    const left = it.qty - it.refunded;
    let n: number | null = /\b(all|both|every|whole lot|all of them)\b/.test(low) ? left : parseNumber(low);
    if (n === null) return null;
    n = Math.floor(n);
    if (n < 1 || n > left) return this.qtyTooMany(it.name, left);
    return this.setQty(n);
  }

  private qtyTooMany(name: string, left: number): string {
    return this.say("refund.quantity_too_many", [
      `There ${left === 1 ? "was" : "were"} only ${left} ${name} I can refund on this order, so please pick a number ` +
        `from 1 to ${left}. How many were affected?`,
      `I can only refund up to ${left} × ${name} here. How many were actually missing or wrong?`,
      `That's more than the ${left} ${name} on the order. Could you give me a number between 1 and ${left}?`,
    ]);
  }

  private refundAmount(qty: number): number {
    const it = this.order().items[this.ctx.itemIdx ?? -1];
    if (!it) return 0;
    const billedQty = this.on("refund_amount_wrong") ? it.qty : qty;
    return round2(it.price * billedQty);
  }

  private overCap(qty: number): string | null {
    const o = this.order();
    const amount = this.refundAmount(qty);
    const total = round2(o.refundTotal + amount);
    if (total <= LIMITS.refundAutoCap) return null;
    this.log.push(`read:refund_cap:${o.id}:${total}`);
    return this.say("refund.needs_review", [
      `That would bring refunds on ${o.id} to ${money(total)}, which is more than I can approve in chat ` +
        `(${money(LIMITS.refundAutoCap)} per order). Would you like me to pass this to our support team?`,
      `Refunds over ${money(LIMITS.refundAutoCap)} on a single order need a quick review by a person — this one ` +
        `would come to ${money(total)} in total. Shall I connect you with the team?`,
      `I'm only able to refund up to ${money(LIMITS.refundAutoCap)} per order here, and this would take ${o.id} to ` +
        `${money(total)}. Do you want me to hand this over to a colleague?`,
    ]);
  }

  private setQty(qty: number): string {
    this.ctx.qty = qty;
    this.ctx.commitQty = qty;
    const cap = this.overCap(qty);
    if (cap) return cap;
    const it = this.order().items[this.ctx.itemIdx ?? -1];
    const c = this.me();
    const amount = this.refundAmount(qty);
    return this.say("refund.ask_method", [
      `Got it — ${qty}× ${it?.name}, that's ${money(amount)}. Would you like the refund back to your ` +
        `${this.card(c)} (3–5 working days) or as Forkful credit (instant)?`,
      `Thanks. I can refund ${money(amount)} for ${qty}× ${it?.name}. Card or app credit? Card refunds take 3–5 ` +
        "working days; credit is available straight away.",
      `Okay, ${money(amount)} for ${qty}× ${it?.name}. How would you like it: to your ${this.card(c)}, or as ` +
        "Forkful credit you can spend right away?",
    ]);
  }

  private parseMethod(low: string): "card" | "credit" | null {
    if (/\b(credit|wallet|balance|voucher|app|account)\b/.test(low)) return "credit";
    if (/\b(card|bank|visa|mastercard|amex|original|payment method|money)\b/.test(low)) return "card";
    return null;
  }

  private onMethod(low: string): string | null {
    const m = this.parseMethod(low);
    if (!m) return null;
    this.ctx.method = m;
    return this.refundReadBack("refund.confirm");
  }

  private refundReadBack(state: "refund.confirm" | "refund.corrected"): string {
    const o = this.order();
    const it = o.items[this.ctx.itemIdx ?? -1];
    const qty = this.ctx.qty ?? 1;
    const amount = this.refundAmount(qty);
    const dest = this.ctx.method === "credit" ? "as Forkful credit" : `to your ${this.card(this.me())}`;
    const what = `${money(amount)} for ${qty}× ${it?.name} on ${o.id}, ${dest}`;
    if (state === "refund.corrected") {
      return this.say(state, [
        `No problem, I've updated it: ${what}. Shall I submit it?`,
        `Thanks for the correction. So that's ${what}. Is that right now?`,
        `Updated — ${what}. Good to go?`,
      ]);
    }
    return this.say(state, [
      `Just to confirm: refund ${what}. Shall I submit it?`,
      `Here's the claim: ${what}. Is everything correct?`,
      `So I'll refund ${what}. Okay to go ahead?`,
    ]);
  }

  private onRefundConfirm(low: string): string | null {
    const m = /\b(make it|change|actually|should be|instead|only|it was|no)\b/.test(low)
      ? this.parseMethod(low)
      : null;
    const n = parseNumber(low);
    if (!isYes(low) && (n !== null || m)) {
      const o = this.order();
      const it = o.items[this.ctx.itemIdx ?? -1];
      if (!it) return null;
      if (m) this.ctx.method = m;
      if (n !== null) {
        const left = it.qty - it.refunded;
        if (n < 1 || n > left) return this.qtyTooMany(it.name, left);
        this.ctx.qty = n;
        if (!this.on("refund_forget_correction")) this.ctx.commitQty = n;
        const cap = this.overCap(n);
        if (cap) return cap;
      }
      return this.refundReadBack("refund.corrected");
    }
    if (isYes(low)) return this.refundCommit();
    if (isNo(low)) return this.abort();
    return null;
  }

  private refundCommit(): string {
    const o = this.order();
    const c = this.me();
    const it = o.items[this.ctx.itemIdx ?? -1];
    if (!it) return this.abort();
    const qty = this.ctx.commitQty ?? this.ctx.qty ?? 1;
    const amount = this.refundAmount(qty);
    it.refunded += qty;
    o.refundTotal = round2(o.refundTotal + amount);
    this.refunds++;
    const ref = `RF-${o.id.slice(3)}-${this.refunds}`;
    const method = this.ctx.method ?? "card";
    this.log.push(
      `write:refund:${o.id}:item=${it.name}:qty=${qty}:amount=${amount}:method=${method}:ref=${ref}`,
    );
    this.ctx = {};
    if (method === "credit") {
      c.credit = round2(c.credit + amount);
      this.log.push(`write:credit:${c.id}:${c.credit}`);
      return this.say("refund.done", [
        `Done! ${money(amount)} has been added to your Forkful credit (reference ${ref}). Your balance is now ` +
          `${money(c.credit)}.`,
        `All sorted — ${money(amount)} is in your Forkful credit, ready for your next order. New balance: ` +
          `${money(c.credit)}. Ref: ${ref}.`,
        `That's done: ${money(amount)} credit added (ref ${ref}), so you now have ${money(c.credit)} to spend.`,
      ]);
    }
    return this.say("refund.done", [
      `Done! ${money(amount)} is on its way back to your ${this.card(c)} — please allow 3–5 working days. Your ` +
        `reference is ${ref}.`,
      `All sorted. We've refunded ${money(amount)} to your ${this.card(c)} (ref ${ref}); it usually shows within ` +
        "3–5 working days.",
      `Your refund of ${money(amount)} has been issued to the ${this.card(c)}. Reference: ${ref}. Depending on ` +
        "your bank it can take 3–5 working days.",
    ]);
  }

  private onNeedsReview(low: string): string | null {
    if (isYes(low)) return this.handoff();
    if (isNo(low)) return this.abort();
    return null;
  }

  // ---------------------------------------------------------------- cancel

  private cancelStart(o: Order): string {
    const c = this.me();
    const status = o.status === "on_the_way" && this.on("cancel_after_dispatch") ? "placed" : o.status;
    this.log.push(`read:order:${o.id}:${o.status}`);
    if (status === "placed") {
      const total = orderTotal(o);
      return this.say("cancel.confirm_free", [
        `${o.id} from ${o.restaurant} hasn't been accepted by the restaurant yet, so you can cancel for free and get ` +
          `the full ${money(total)} back. Do you want me to cancel it?`,
        `Good timing — ${o.restaurant} hasn't started on ${o.id}, so there's no charge to cancel. You'd be refunded ` +
          `${money(total)} to your ${this.card(c)}. Shall I go ahead and cancel?`,
        `You can still cancel ${o.id} free of charge (full refund of ${money(total)}). Would you like me to cancel ` +
          "it now?",
      ]);
    }
    if (status === "accepted") {
      if (this.on("cancel_skip_typed_gate")) return this.cancelCommit(true);
      const fee = round2(subtotal(o) * LIMITS.cancelFeeRate);
      const back = round2(orderTotal(o) - fee);
      return this.say("cancel.fee_warning", [
        `${o.restaurant} has already started preparing ${o.id}, so cancelling now comes with a ${money(fee)} fee ` +
          `(half the food cost) — you'd get ${money(back)} back. If you still want to cancel, type CANCEL ORDER. ` +
          'Otherwise just say "keep it".',
        `Heads up: the restaurant accepted ${o.id} and is cooking it. Cancelling at this point costs ${money(fee)}, ` +
          `and ${money(back)} would be refunded. To confirm, please type CANCEL ORDER — or say "keep it" to keep ` +
          "your order.",
        `${o.id} is already being made by ${o.restaurant}. You can still cancel, but there's a fee of ` +
          `${money(fee)} (50% of the food), with ${money(back)} refunded. Type CANCEL ORDER if you're sure, or ` +
          '"keep it" if you\'d rather wait for it.',
      ]);
    }
    if (status === "on_the_way") {
      return this.say("cancel.refused_dispatched", [
        `${o.id} is already on its way with ${o.courier}, so it can't be cancelled now. If there's a problem when ` +
          "it arrives, I can help with that.",
        `Sorry, once the courier has picked up the food (${o.courier} has ${o.id}) we can't cancel the order any ` +
          "more. It should be with you soon!",
        `I'm not able to cancel ${o.id} — it's already out for delivery. Let me know if anything's wrong once it ` +
          "arrives.",
      ]);
    }
    const closed =
      o.status === "delivered"
        ? this.pick([
            `was already delivered ${when(o.deliveredAt ?? NOW)}`,
            "has already been delivered",
            `arrived ${when(o.deliveredAt ?? NOW)}`,
          ])
        : this.pick([
            `was already cancelled ${when(o.cancelledAt ?? NOW)}`,
            "has already been cancelled",
            "is already cancelled",
          ]);
    return this.say("cancel.refused_closed", [
      `${o.id} ${closed}, so there's nothing to cancel. If something was wrong with an order, I can help you ` +
        "report it.",
      `There's nothing I can cancel here — ${o.id} ${closed}.`,
      `That order can't be cancelled: ${o.id} ${closed}. Anything else I can check?`,
    ]);
  }

  private cancelCommit(withFee: boolean): string {
    const o = this.order();
    const c = this.me();
    const fee = withFee ? round2(subtotal(o) * LIMITS.cancelFeeRate) : 0;
    const back = round2(orderTotal(o) - fee);
    o.status = "cancelled";
    o.cancelledAt = NOW;
    o.refundTotal = round2(o.refundTotal + back);
    this.log.push(`write:cancel:${o.id}:fee=${fee}:refund=${back}`);
    this.ctx = {};
    if (withFee) {
      return this.say("cancel.done_fee", [
        `${o.id} is cancelled. A ${money(fee)} cancellation fee applies, and ${money(back)} is being refunded to ` +
          `your ${this.card(c)}.`,
        `Okay, I've cancelled ${o.id}. After the ${money(fee)} fee, you'll get ${money(back)} back on your ` +
          `${this.card(c)} within 3–5 working days.`,
        `Done — ${o.id} has been cancelled and the restaurant's been told. Refund: ${money(back)} (a ${money(fee)} ` +
          "fee was kept because the food was already being prepared).",
      ]);
    }
    return this.say("cancel.done_free", [
      `Done — ${o.id} is cancelled. ${money(back)} will be refunded to your ${this.card(c)} within 3–5 working days.`,
      `Your order ${o.id} has been cancelled at no charge. The full ${money(back)} is on its way back to your ` +
        `${this.card(c)}.`,
      `Cancelled! ${o.restaurant} has been notified, and you'll get the full ${money(back)} back on your ` +
        `${this.card(c)}.`,
    ]);
  }

  private cancelKept(): string {
    const o = this.order();
    this.ctx = {};
    return this.say("cancel.kept", [
      `No problem, I've left ${o.id} as it is. It should arrive around ${fmtTime(o.eta ?? NOW)}.`,
      `Okay, your order ${o.id} stays on. Enjoy your food when it arrives (about ${fmtTime(o.eta ?? NOW)})!`,
      `Sure — nothing's been cancelled. ${o.id} is still coming, expected around ${fmtTime(o.eta ?? NOW)}.`,
    ]);
  }

  private onCancelFree(low: string): string | null {
    if (isNo(low) || /\b(keep|leave it)\b/.test(low)) return this.cancelKept();
    if (isYes(low) || /^cancel( it)?[.! ]*$/.test(low)) return this.cancelCommit(false);
    return null;
  }

  private onCancelTyped(low: string): string {
    if (squash(low) === "cancel order") return this.cancelCommit(true);
    if (isNo(low) || /\b(keep|leave it|don'?t cancel)\b/.test(low)) return this.cancelKept();
    return this.say("cancel.typed_mismatch", [
      'To cancel with the fee I need you to type the exact words CANCEL ORDER — or say "keep it" to keep your order.',
      "Sorry, that's not the confirmation phrase. Please type CANCEL ORDER to go ahead, or \"keep it\" if you've " +
        "changed your mind.",
      'I can only cancel once you type CANCEL ORDER (exactly that). Want to keep the order instead? Say "keep it".',
    ]);
  }

  // ---------------------------------------------------------------- address and instructions

  private addressStart(o: Order): string {
    if (o.status !== "placed" && o.status !== "accepted") {
      this.log.push(`read:order:${o.id}:${o.status}`);
      return this.say("address.too_late", [
        `${o.id} is already ${STATUS_WORDS[o.status]}, so the address and instructions can't be changed any more. ` +
          "If it's on its way, you can message the courier from the order screen.",
        `Sorry, it's too late to change ${o.id} — it's ${STATUS_WORDS[o.status]}. Changes are only possible ` +
          "before the courier picks it up.",
        `I can't update ${o.id} now, as it's ${STATUS_WORDS[o.status]}. Address changes only work before dispatch.`,
      ]);
    }
    this.log.push(`read:order:${o.id}:${o.status}:to=${o.street}, ${o.postcode}`);
    if (this.ctx.sub === "address") return this.askStreet(o);
    if (this.ctx.sub === "instructions") return this.askInstructions(o);
    return this.say("address.choose_change", [
      `${o.id} hasn't left ${o.restaurant} yet, so there's still time. What would you like to do?\nA) Change the ` +
        `delivery address (currently ${o.street}, ${o.postcode})\nB) Add or update instructions for the courier`,
      `Good news, ${o.id} is still with the restaurant. Would you like to:\nA) change the delivery address, or\nB) ` +
        `leave a note for the courier?\n(It's going to ${o.street}, ${o.postcode} at the moment.)`,
      `There's time to make changes to ${o.id}. Please choose:\nA) New delivery address (now: ${o.street}, ` +
        `${o.postcode})\nB) Delivery instructions for the courier`,
    ]);
  }

  private onAddressChoice(low: string): string | null {
    const o = this.order();
    const letter = parseLetter(low, 2);
    if (letter === 0 || /\b(address|move|different place|new place)\b/.test(low) || /^1\b/.test(low)) {
      return this.askStreet(o);
    }
    if (letter === 1 || /\b(instructions?|note|courier|door|buzzer|leave)\b/.test(low) || /^2\b/.test(low)) {
      return this.askInstructions(o);
    }
    return null;
  }

  private askStreet(o: Order): string {
    this.ctx.sub = "address";
    return this.say("address.ask_street", [
      `What's the new delivery address for ${o.id}? Just the house number and street for now.`,
      "Sure — where should we deliver instead? Please give me the street address (number and street).",
      "No problem. What's the new street address? (e.g. 10 Example Road — I'll ask for the postcode next)",
    ]);
  }

  private looksLikeStreet(text: string): boolean {
    const withoutPc = text.replace(/\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b/i, "").trim();
    return /\d/.test(withoutPc) && /[a-z]{3,}/i.test(withoutPc) && withoutPc.length <= 80;
  }

  private cleanStreet(text: string): string {
    return text
      .replace(/\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b/i, "")
      .replace(/^(no|actually|sorry|it'?s|it is|make it|the address is|new address is)[,:]?\s+/i, "")
      .replace(/^(it'?s|it is)\s+/i, "")
      .replace(/[,.\s]+$/, "")
      .trim();
  }

  private onStreet(text: string): string | null {
    if (!this.looksLikeStreet(text)) return null;
    const street = this.cleanStreet(text);
    this.ctx.street = street;
    this.ctx.commitStreet = street;
    const pc = parsePostcode(text);
    if (pc) return this.checkPostcode(pc);
    return this.say("address.ask_postcode", [
      "Thanks. And what's the postcode?",
      `Got it, ${street}. What's the postcode there?`,
      "Great — and the postcode, please?",
    ]);
  }

  private onPostcode(text: string): string | null {
    const pc = parsePostcode(text);
    if (!pc) return null;
    return this.checkPostcode(pc);
  }

  private zoneRefusal(pc: Postcode): string | null {
    const o = this.order();
    const zones = this.world.restaurants[o.restaurant]?.zones ?? [];
    if (zones.includes(pc.district) || this.on("address_zone_ignored")) return null;
    this.log.push(`read:zone:${o.restaurant}:${pc.district}:refused`);
    if (!SERVICE_AREAS.includes(pc.district)) {
      return this.say("address.out_of_zone", [
        `Sorry, we don't deliver to ${pc.district} yet, so I can't send ${o.id} there. Is there another postcode ` +
          "you could use?",
        `${pc.full} is outside the Forkful delivery area, I'm afraid. Could you give me an address in our area?`,
        `Unfortunately we don't cover ${pc.district}. Do you have another address (and postcode) we could deliver to?`,
      ]);
    }
    return this.say("address.out_of_zone", [
      `${o.restaurant} doesn't deliver to ${pc.district}, so I can't move the order there. Could you give me a ` +
        "postcode closer to the restaurant?",
      `Sorry — ${pc.full} is too far from ${o.restaurant} for them to deliver. Is there another postcode you can use?`,
      `That's outside ${o.restaurant}'s delivery radius (they don't go to ${pc.district}). Any other postcode?`,
    ]);
  }

  private checkPostcode(pc: Postcode): string {
    const refused = this.zoneRefusal(pc);
    if (refused) return refused;
    this.ctx.postcode = pc.full;
    this.ctx.commitPostcode = pc.full;
    return this.addressReadBack("address.confirm");
  }

  private addressReadBack(state: "address.confirm" | "address.corrected"): string {
    const o = this.order();
    const to = `${this.ctx.street}, ${this.ctx.postcode}`;
    if (state === "address.corrected") {
      return this.say(state, [
        `Thanks for catching that. Updated: deliver ${o.id} to ${to}. Shall I save it?`,
        `Okay, corrected — the new address is ${to}. Is that right now?`,
        `Got it, I've changed it to ${to}. Good to save?`,
      ]);
    }
    return this.say(state, [
      `Let me read that back: deliver ${o.id} to ${to} instead of ${o.street}, ${o.postcode}. Is that right?`,
      `So the new delivery address for ${o.id} will be ${to}. Shall I update it?`,
      `Just to check — ${o.id} goes to ${to} (not ${o.street}). Correct?`,
    ]);
  }

  private onAddressConfirm(text: string, low: string): string | null {
    const pc = parsePostcode(text);
    const streetGiven = this.looksLikeStreet(text);
    if (pc || streetGiven) {
      if (streetGiven) {
        this.ctx.street = this.cleanStreet(text);
        if (!this.on("address_forget_correction")) this.ctx.commitStreet = this.ctx.street;
      }
      if (pc) {
        const refused = this.zoneRefusal(pc);
        if (refused) return refused;
        this.ctx.postcode = pc.full;
        if (!this.on("address_forget_correction")) this.ctx.commitPostcode = pc.full;
      }
      return this.addressReadBack("address.corrected");
    }
    if (isYes(low)) {
      const o = this.order();
      o.street = this.ctx.commitStreet ?? o.street;
      o.postcode = this.ctx.commitPostcode ?? o.postcode;
      this.log.push(`write:address:${o.id}:${o.street}, ${o.postcode}`);
      this.ctx = {};
      return this.say("address.done", [
        `All set — ${o.id} will now go to ${o.street}, ${o.postcode}. The restaurant and courier have been updated.`,
        `Done! I've changed the delivery address on ${o.id} to ${o.street}, ${o.postcode}.`,
        `Updated ✅ ${o.id} is now being delivered to ${o.street}, ${o.postcode}.`,
      ]);
    }
    if (isNo(low)) {
      return this.say("address.ask_street", [
        "No problem — what's the correct street address?",
        "Okay, let's fix it. What should the street address be?",
        "Sorry about that. Could you give me the right house number and street?",
      ]);
    }
    return null;
  }

  private askInstructions(o: Order): string {
    this.ctx.sub = "instructions";
    const current = o.instructions
      ? this.pick([
          ` (current note: "${o.instructions}")`,
          ` Right now it says: "${o.instructions}".`,
          ` The existing note is "${o.instructions}".`,
        ])
      : "";
    return `${this.say("address.ask_instructions", [
      `What should the courier know? For example a door code or where to leave the bag — up to ` +
        `${LIMITS.instructionsMax} characters.`,
      "Sure! Type the delivery instructions you'd like the courier to see (gate code, which door, etc.).",
      `What delivery instructions would you like to add? Keep it under ${LIMITS.instructionsMax} characters.`,
    ])}${current}`;
  }

  private onInstructions(text: string): string | null {
    const note = text.replace(/\s+/g, " ").trim();
    if (note.length < 3) return null;
    if (note.length > LIMITS.instructionsMax) {
      return this.say("address.instructions_too_long", [
        `That's a bit long — notes can be up to ${LIMITS.instructionsMax} characters and yours is ${note.length}. ` +
          "Could you shorten it?",
        `Couriers only see the first ${LIMITS.instructionsMax} characters, so please keep it shorter (yours is ` +
          `${note.length}).`,
        `Sorry, that's over the ${LIMITS.instructionsMax}-character limit (${note.length}). Can you trim it down?`,
      ]);
    }
    this.ctx.instructions = note;
    const o = this.order();
    return this.say("address.instructions_confirm", [
      `I'll add this note for the courier on ${o.id}: "${note}". OK to save?`,
      `Here's the note the courier will see: "${note}". Shall I add it to ${o.id}?`,
      `So the instructions for ${o.id} will read "${note}". Is that right?`,
    ]);
  }

  private onInstructionsConfirm(low: string): string | null {
    if (isYes(low)) {
      const o = this.order();
      o.instructions = this.ctx.instructions ?? "";
      this.log.push(`write:instructions:${o.id}:${o.instructions}`);
      this.ctx = {};
      return this.say("address.instructions_done", [
        `Saved! The courier will see your note when they pick up ${o.id}.`,
        `Done — your instructions are now on ${o.id}.`,
        `Your note has been added to ${o.id}. The courier will get it in their app.`,
      ]);
    }
    if (isNo(low)) return this.askInstructions(this.order());
    return null;
  }

  // ---------------------------------------------------------------- tip

  private tipStart(o: Order): string {
    if (o.status === "cancelled") {
      this.log.push(`read:order:${o.id}:cancelled`);
      return this.say("tip.refused_cancelled", [
        `${o.id} was cancelled, so there's no courier tip to change on it.`,
        `There's no tip on ${o.id} to update — that order was cancelled.`,
        `Since ${o.id} was cancelled, no courier delivered it and the tip can't be changed.`,
      ]);
    }
    if (o.status === "delivered" && hoursSince(o.deliveredAt ?? NOW) > LIMITS.tipWindowHours) {
      this.log.push(`read:order:${o.id}:delivered:tip_window_closed`);
      return this.say("tip.refused_window", [
        `Tips can be changed up to ${LIMITS.tipWindowHours} hours after delivery, and ${o.id} was delivered ` +
          `${when(o.deliveredAt ?? NOW)} — so it's too late to change it now, sorry.`,
        `Sorry, the tip on ${o.id} is locked: it was delivered ${when(o.deliveredAt ?? NOW)}, and tips can only be ` +
          `changed within ${LIMITS.tipWindowHours} hours.`,
        `I'm afraid the ${LIMITS.tipWindowHours}-hour window to change the tip on ${o.id} has passed (delivered ` +
          `${when(o.deliveredAt ?? NOW)}).`,
      ]);
    }
    this.log.push(`read:tip:${o.id}:${o.tip}:${o.status}`);
    const who = o.courier ? `${o.courier}` : "your courier";
    const rule =
      o.status === "delivered"
        ? this.pick([
            "As it's been delivered, you can only increase it.",
            "Since the order has arrived, the tip can only go up.",
            "Because it's already delivered, you can raise it but not lower it.",
          ])
        : "";
    return `${this.say("tip.ask_amount", [
      `The current tip on ${o.id} is ${money(o.tip)}. How much would you like it to be? 100% goes to ${who}, and ` +
        `the maximum is ${money(LIMITS.maxTip)}.`,
      `Right now you're tipping ${money(o.tip)} on ${o.id}. What should the new tip be (up to ` +
        `${money(LIMITS.maxTip)})? Every penny goes to ${who}.`,
      `${o.id} has a ${money(o.tip)} tip at the moment. What amount would you like instead? You can tip up to ` +
        `${money(LIMITS.maxTip)}.`,
    ])}${rule ? ` ${rule}` : ""}`;
  }

  private tipRefusal(amount: number | null): string | null {
    const o = this.order();
    if (amount === null || amount < 0 || !Number.isFinite(amount)) {
      return this.say("tip.invalid_amount", [
        "Sorry, I need an amount in pounds — for example 3 or £4.50.",
        "I didn't catch an amount there. How much would you like to tip? (e.g. £3)",
        "Could you give me the tip as a number of pounds, like 2.50?",
      ]);
    }
    if (amount > LIMITS.maxTip && !this.on("tip_cap_ignored")) {
      return this.say("tip.over_cap", [
        `The most you can tip in the app is ${money(LIMITS.maxTip)}. Would you like to choose an amount up to that?`,
        `Tips are capped at ${money(LIMITS.maxTip)} per order, so I can't set ${money(amount)}. What amount up to ` +
          `${money(LIMITS.maxTip)} would you like?`,
        `That's very generous! But the limit is ${money(LIMITS.maxTip)}. How much would you like, within that?`,
      ]);
    }
    if (o.status === "delivered" && amount < o.tip) {
      return this.say("tip.refused_lower", [
        `As ${o.id} has already been delivered, the tip can only be increased — it's ${money(o.tip)} right now. ` +
          "What amount above that would you like?",
        `The courier has already been told about your ${money(o.tip)} tip, so after delivery it can't be lowered. ` +
          "Would you like to set a higher amount?",
        `Sorry, tips can't be reduced once the order's been delivered (currently ${money(o.tip)}). Any amount of ` +
          `${money(o.tip)} or more is fine.`,
      ]);
    }
    return null;
  }

  private onTipAmount(low: string): string | null {
    const amount = parseMoney(low);
    if (amount === null && detectIntent(low) !== null) return null;
    const refused = this.tipRefusal(amount);
    if (refused) return refused;
    this.ctx.tip = amount ?? 0;
    return this.tipReadBack("tip.confirm");
  }

  private tipReadBack(state: "tip.confirm" | "tip.corrected"): string {
    const o = this.order();
    const c = this.me();
    const tip = this.ctx.tip ?? 0;
    if (state === "tip.corrected") {
      return this.say(state, [
        `Sure — changed to ${money(tip)} instead of ${money(o.tip)}. Shall I go ahead?`,
        `No problem, ${money(tip)} it is (currently ${money(o.tip)}). Confirm?`,
        `Updated: the new tip would be ${money(tip)}. Okay to save?`,
      ]);
    }
    return this.say(state, [
      `So that's a tip of ${money(tip)} instead of ${money(o.tip)} on ${o.id}, charged to your ${this.card(c)}. ` +
        "Confirm?",
      `Just checking: change the tip on ${o.id} from ${money(o.tip)} to ${money(tip)}? The difference goes on your ` +
        `${this.card(c)}.`,
      `I'll set the tip on ${o.id} to ${money(tip)} (it's ${money(o.tip)} now). Shall I go ahead?`,
    ]);
  }

  private onTipConfirm(low: string): string | null {
    if (!isYes(low) && /\d|£/.test(low)) {
      const amount = parseMoney(low);
      const refused = this.tipRefusal(amount);
      if (refused) return refused;
      this.ctx.tip = amount ?? 0;
      return this.tipReadBack("tip.corrected");
    }
    if (isYes(low)) {
      const o = this.order();
      const tip = this.ctx.tip ?? 0;
      const old = o.tip;
      o.tip = this.on("tip_saved_wrong") ? round2(old + tip) : tip;
      this.log.push(`write:tip:${o.id}:${o.tip}`);
      this.ctx = {};
      return this.say("tip.done", [
        `Done! The tip on ${o.id} is now ${money(tip)} — thanks for looking after your courier.`,
        `All set: ${money(tip)} tip on ${o.id}. ${o.courier ?? "Your courier"} will really appreciate it!`,
        `Tip updated to ${money(tip)} on ${o.id}. Thank you for being generous 💚`,
      ]);
    }
    if (isNo(low)) return this.abort();
    return null;
  }

  // ---------------------------------------------------------------- promo codes

  private findCodeToken(text: string): string | null {
    const tokens = text.toUpperCase().match(/\b[A-Z0-9]{4,12}\b/g) ?? [];
    const known = tokens.find((t) => this.world.promos[t]);
    if (known) return known;
    const coded = tokens.find((t) => /[A-Z]/.test(t) && /\d/.test(t));
    return coded ?? null;
  }

  private minSpend(p: Promo): number {
    return this.on("promo_min_spend_wrong") ? round2(p.minSpend / 2) : p.minSpend;
  }

  private startPromo(text: string, low: string): string {
    const code = this.findCodeToken(text);
    if (code) return this.checkPromo(code);
    if (
      /\b(my|which|what|list|show|have i got|do i have)\b.*\b(vouchers?|codes?|promos?|discounts?)\b/.test(
        low,
      )
    ) {
      return this.wallet("");
    }
    return this.say("promo.ask_code", [
      "Sure! What's the promo code? I'll check it and add it to your account.",
      "Happy to help — type the promo code and I'll see if it can be used.",
      "Of course. Which promo code would you like to add?",
    ]);
  }

  private wallet(prefix: string): string {
    const c = this.me();
    const lines = c.vouchers
      .map((v) => this.world.promos[v])
      .filter((p): p is Promo => p !== undefined)
      .map(
        (p) =>
          `• ${p.code} — ${p.description} on orders over ${money(this.minSpend(p))}, until ${fmtDate(p.expires)}`,
      );
    this.log.push(`read:wallet:${c.id}:${c.vouchers.join(",")}:min=${lines.join("|")}`);
    if (lines.length === 0) {
      return (
        prefix +
        this.say("promo.wallet", [
          "You don't have any vouchers on your account right now. If you've got a promo code, just type it here.",
          "There aren't any vouchers saved on your account at the moment. Got a code to add?",
          "Your voucher wallet is empty for now — send me a promo code if you have one.",
        ])
      );
    }
    return (
      prefix +
      this.say("promo.wallet", [
        `Here are the vouchers on your account:\n${lines.join("\n")}\nThey're applied automatically at checkout.`,
        `You've got these saved:\n${lines.join("\n")}\nJust order as usual and they'll be applied.`,
        `Your vouchers:\n${lines.join("\n")}\nThe discount shows up at checkout when the order qualifies.`,
      ])
    );
  }

  private checkPromo(code: string): string {
    const c = this.me();
    const p = this.world.promos[code];
    if (!p) {
      this.log.push(`read:promo:${code}:unknown`);
      return this.say("promo.unknown", [
        `Hmm, I can't find a code called ${code}. Codes aren't case-sensitive, but check for typos (like 0 vs O) ` +
          "and try again.",
        `${code} doesn't seem to be a valid Forkful code. Could you double-check it?`,
        `Sorry, ${code} isn't recognised. Please check the spelling or try another code.`,
      ]);
    }
    if (c.vouchers.includes(code))
      return this.wallet(
        this.pick([
          `${code} is already on your account. `,
          `Good news, you've already added ${code}. `,
          `No need — ${code} is already saved. `,
        ]),
      );
    if (p.expires < NOW && !this.on("promo_expired_accepted")) {
      this.log.push(`read:promo:${code}:expired:${p.expires}`);
      return this.say("promo.expired", [
        `${code} expired on ${fmtDate(p.expires)}, so I can't add it, sorry. Do you have another code?`,
        `Unfortunately ${code} ran out on ${fmtDate(p.expires)}. Any other code I can check?`,
        `That code's no longer valid — it expired on ${fmtDate(p.expires)}. Got a different one?`,
      ]);
    }
    if (p.usedBy.includes(c.id)) {
      this.log.push(`read:promo:${code}:used`);
      return this.say("promo.already_used", [
        `${code} has already been used on your account — each code works once per customer.`,
        `Looks like you've used ${code} before, and it's a one-time code, sorry.`,
        `You redeemed ${code} on a previous order, so it can't be used again.`,
      ]);
    }
    if (p.newCustomersOnly && Object.values(this.world.orders).some((o) => o.customerId === c.id)) {
      this.log.push(`read:promo:${code}:new_only`);
      return this.say("promo.new_customers_only", [
        `${code} is for new customers' first order, and your account already has orders, so it can't be applied.`,
        `Sorry, ${code} only works on a first Forkful order — it isn't available on your account.`,
        `That one's a welcome code for brand-new customers, so I can't add it to an existing account.`,
      ]);
    }
    this.ctx.promo = code;
    const min = money(this.minSpend(p));
    this.log.push(`read:promo:${code}:valid:min=${min}:until=${fmtDate(p.expires)}`);
    return this.say("promo.confirm", [
      `${code} gives you ${p.description} on orders over ${min}, valid until ${fmtDate(p.expires)}. Shall I add it ` +
        "to your account?",
      `Nice, ${code} is valid: ${p.description} when you spend ${min} or more (until ${fmtDate(p.expires)}). Add it?`,
      `${code} works — ${p.description}, minimum spend ${min}, expires ${fmtDate(p.expires)}. Want me to save it to ` +
        "your account?",
    ]);
  }

  private onPromoInput(text: string): string | null {
    const single = text.trim().replace(/[.!]+$/, "");
    if (
      /^[a-z0-9]{4,12}$/i.test(single) &&
      detectIntent(single.toLowerCase()) === null &&
      !isYes(single.toLowerCase())
    ) {
      return this.checkPromo(single.toUpperCase());
    }
    const code = this.findCodeToken(text);
    if (!code) return null;
    if (
      /^[a-z0-9 ]+$/i.test(text.trim()) ||
      this.world.promos[code] ||
      text.trim().split(/\s+/).length <= 4
    ) {
      return this.checkPromo(code);
    }
    return null;
  }

  private onPromoConfirm(low: string): string | null {
    if (isYes(low) || /\b(add it|apply|save)\b/.test(low)) {
      const c = this.me();
      const code = this.ctx.promo ?? "";
      const p = this.world.promos[code];
      if (!p) return this.abort();
      c.vouchers.push(code);
      this.log.push(`write:voucher:${c.id}:${code}`);
      this.ctx = {};
      const min = money(this.minSpend(p));
      return this.say("promo.added", [
        `Added! ${code} will be applied automatically at checkout on your next order over ${min} (until ` +
          `${fmtDate(p.expires)}).`,
        `Done — ${code} is in your account. Spend ${min} or more before ${fmtDate(p.expires)} and it'll apply itself.`,
        `${code} is saved ✅ You'll see it at checkout on orders over ${min}, until ${fmtDate(p.expires)}.`,
      ]);
    }
    if (isNo(low)) return this.abort();
    return null;
  }

  // ---------------------------------------------------------------- Plus membership

  private startPlus(low: string): string {
    const c = this.me();
    if (!c.plus || c.plus.status === "cancelled") {
      this.log.push(`read:plus:${c.id}:none`);
      return this.say("plus.not_member", [
        "You're not a Forkful Plus member at the moment. Plus is £7.99 a month for free delivery on orders over £15 " +
          "and member-only offers — you can join any time from the Account tab.",
        "I can't see a Plus membership on your account. If you're interested, it costs £7.99/month and gives you " +
          "free delivery on £15+ orders; sign up under Account → Forkful Plus.",
        "There's no active Plus membership on this account. Plus (£7.99 a month) includes free delivery over £15 " +
          "and exclusive deals — you'll find it in the Account tab.",
      ]);
    }
    if (/\b(pause|freeze|hold|break)\b/.test(low)) return this.plusPause();
    if (/\b(resume|unpause|restart|reactivate|turn (it )?back on|start again)\b/.test(low))
      return this.plusResume();
    if (/\b(cancel|end|stop|quit|unsubscribe|terminate|get rid)\b/.test(low)) return this.plusCancel();
    return this.plusStatus("");
  }

  private plusStatus(prefix: string): string {
    const c = this.me();
    const plus = c.plus;
    if (!plus) return this.startPlus("");
    const shownStatus = plus.status === "paused" && this.on("plus_status_wrong") ? "active" : plus.status;
    this.log.push(`read:plus:${c.id}:${shownStatus}:renews=${fmtDate(plus.renewsOn)}`);
    if (shownStatus === "paused") {
      const until = fmtDate(plus.pausedUntil ?? plus.renewsOn);
      return (
        prefix +
        this.say("plus.status", [
          `Your Plus membership is paused until ${until} — you won't be charged until then. Would you like to:\n` +
            "A) resume it now\nB) cancel it",
          `Plus is on pause until ${until}, so no charges and no Plus perks for now. What would you like to do?\n` +
            "A) Resume now\nB) Cancel my membership",
          `Your membership is currently paused (it restarts on ${until}). Options:\nA) resume it today\nB) cancel it`,
        ])
      );
    }
    return (
      prefix +
      this.say("plus.status", [
        `Your Forkful Plus membership is active (${money(plus.fee)}/month) and renews on ${fmtDate(plus.renewsOn)}. ` +
          "What would you like to do?\nA) Pause it\nB) Cancel it",
        `You're a Plus member 🎉 — ${money(plus.fee)} a month, next renewal ${fmtDate(plus.renewsOn)}. Would you ` +
          "like to:\nA) pause your membership\nB) cancel it",
        `Plus is active on your account and renews on ${fmtDate(plus.renewsOn)} for ${money(plus.fee)}. I can:\n` +
          "A) pause it for a while\nB) cancel it",
      ])
    );
  }

  private onPlusStatus(low: string): string | null {
    const plus = this.customer?.plus;
    if (!plus) return null;
    const letter = parseLetter(low, 2);
    if (plus.status === "paused") {
      if (letter === 0 || /\b(resume|restart|unpause|reactivate)\b/.test(low)) return this.plusResume();
    } else if (letter === 0 || /\b(pause|freeze|hold|break)\b/.test(low)) return this.plusPause();
    if (letter === 1 || /\b(cancel|end|stop|quit|unsubscribe)\b/.test(low)) return this.plusCancel();
    if (isNo(low) || /\b(nothing|neither|none)\b/.test(low)) return this.abort();
    return null;
  }

  private plusPause(): string {
    const c = this.me();
    const plus = c.plus;
    if (plus?.status === "paused") {
      const until = fmtDate(plus.pausedUntil ?? plus.renewsOn);
      this.log.push(`read:plus:${c.id}:paused:until=${until}`);
      return this.say("plus.already_paused", [
        `Your membership is already paused until ${until}. If you'd like it back sooner, just say "resume my Plus".`,
        `Plus is already on pause — it restarts on ${until}. I can resume it early if you want.`,
        `No need, it's paused already (until ${until}). Want it back earlier? Ask me to resume it.`,
      ]);
    }
    this.ctx.flow = "plus";
    this.ctx.sub = "pause";
    return this.say("plus.ask_pause_length", [
      `You can pause Plus for 1, 2 or ${LIMITS.maxPauseMonths} months. How many months would you like?`,
      `Sure — how long would you like to pause for? It can be 1 to ${LIMITS.maxPauseMonths} months.`,
      `No problem. Pauses run from your next billing date for 1, 2 or ${LIMITS.maxPauseMonths} months — which ` +
        "would you like?",
    ]);
  }

  private pauseTooLong(): string {
    return this.say("plus.pause_too_long", [
      `Pauses can be up to ${LIMITS.maxPauseMonths} months. How many months — 1, 2 or 3?`,
      `Sorry, the longest pause is ${LIMITS.maxPauseMonths} months. Please choose 1, 2 or 3 months.`,
      `I can only pause for between 1 and ${LIMITS.maxPauseMonths} months. Which would you like?`,
    ]);
  }

  private onPauseLength(low: string): string | null {
    if (/\b(week|weeks|day|days|year|years)\b/.test(low)) {
      if (/\b(year|years)\b/.test(low)) return this.pauseTooLong();
      return this.say("plus.ask_pause_length", [
        "Pauses work in whole months, I'm afraid. Would you like 1, 2 or 3 months?",
        "Plus can only be paused by the month — 1, 2 or 3 months?",
        "It has to be full months. How many: 1, 2 or 3?",
      ]);
    }
    const n = parseNumber(low);
    if (n === null) return null;
    if (n < 1 || n > LIMITS.maxPauseMonths) return this.pauseTooLong();
    this.ctx.months = n;
    return this.pauseReadBack();
  }

  private resumeDate(months: number): number {
    const plus = this.me().plus;
    const from = this.on("plus_resume_date_wrong") ? NOW : (plus?.renewsOn ?? NOW);
    return addMonths(from, months);
  }

  private pauseReadBack(): string {
    const plus = this.me().plus;
    const months = this.ctx.months ?? 1;
    const from = fmtDate(plus?.renewsOn ?? NOW);
    const until = fmtDate(this.resumeDate(months));
    const m = `${months} month${months === 1 ? "" : "s"}`;
    return this.say("plus.pause_confirm", [
      `Okay: your Plus will pause for ${m} from ${from} (your next billing date) and restart on ${until}. You keep ` +
        `your benefits until ${from} and won't be charged in between. Shall I pause it?`,
      `Here's the plan — pause Plus for ${m}: no charges from ${from}, and it picks up again on ${until}. Go ahead?`,
      `So Plus pauses on ${from} and resumes automatically on ${until} (${m}). Confirm?`,
    ]);
  }

  private onPauseConfirm(low: string): string | null {
    if (!isYes(low)) {
      const n = parseNumber(low);
      if (n !== null) {
        if (n < 1 || n > LIMITS.maxPauseMonths) return this.pauseTooLong();
        this.ctx.months = n;
        return this.pauseReadBack();
      }
    }
    if (isYes(low)) {
      const c = this.me();
      const plus = c.plus;
      if (!plus) return this.abort();
      const until = this.resumeDate(this.ctx.months ?? 1);
      plus.status = "paused";
      plus.pausedUntil = until;
      this.log.push(`write:plus:${c.id}:paused_until=${fmtDate(until)}`);
      this.ctx = {};
      return this.say("plus.paused_done", [
        `Done — your Plus membership is paused until ${fmtDate(until)}. We'll email you a reminder before it restarts.`,
        `All set! Plus is paused and will start again on ${fmtDate(until)}.`,
        `Your membership is now paused until ${fmtDate(until)}. No charges until then.`,
      ]);
    }
    if (isNo(low)) return this.abort();
    return null;
  }

  private plusResume(): string {
    const c = this.me();
    const plus = c.plus;
    if (plus?.status !== "paused") {
      return this.plusStatus(
        this.pick([
          "Your membership isn't paused — it's already running. ",
          "Nothing to resume, Plus is already active. ",
          "Plus is already active on your account. ",
        ]),
      );
    }
    this.ctx.flow = "plus";
    this.ctx.sub = "resume";
    const next = fmtDate(addMonths(NOW, 1));
    return this.say("plus.resume_confirm", [
      `Resuming now means ${money(plus.fee)} is charged to your ${this.card(c)} today and your benefits start ` +
        `straight away. Your next renewal would be ${next}. Go ahead?`,
      `If I resume Plus today, you'll pay ${money(plus.fee)} now (${this.card(c)}) and renew on ${next}. Shall I ` +
        "resume it?",
      `Happy to! You'd be charged ${money(plus.fee)} today and Plus would renew on ${next}. Confirm?`,
    ]);
  }

  private onResumeConfirm(low: string): string | null {
    if (isYes(low)) {
      const c = this.me();
      const plus = c.plus;
      if (!plus) return this.abort();
      plus.status = "active";
      plus.pausedUntil = undefined;
      plus.renewsOn = addMonths(NOW, 1);
      this.log.push(`write:plus:${c.id}:resumed:renews=${fmtDate(plus.renewsOn)}:charged=${plus.fee}`);
      this.ctx = {};
      return this.say("plus.resumed_done", [
        `Welcome back! Plus is active again and renews on ${fmtDate(plus.renewsOn)}.`,
        `Done — your membership is running again. Next renewal: ${fmtDate(plus.renewsOn)}.`,
        `Plus is back on 🎉 Free delivery applies from your next order; renewal on ${fmtDate(plus.renewsOn)}.`,
      ]);
    }
    if (isNo(low)) return this.abort();
    return null;
  }

  private plusCancel(): string {
    const c = this.me();
    const plus = c.plus;
    this.ctx.flow = "plus";
    this.ctx.sub = "cancel";
    if (plus?.status === "active") {
      return this.say("plus.cancel_offer_pause", [
        `Sorry to see you go! Before you cancel: you could pause Plus for up to ${LIMITS.maxPauseMonths} months ` +
          "instead and keep your perks for later.\nA) Pause instead\nB) Cancel anyway",
        `Did you know you can take a break instead of cancelling? What would you prefer?\nA) Pause for 1–` +
          `${LIMITS.maxPauseMonths} months\nB) Cancel my membership`,
        "Before I cancel — lots of members pause instead when they're ordering less. Which would you like?\nA) " +
          "Pause Plus\nB) Cancel Plus",
      ]);
    }
    return this.plusCancelConfirm();
  }

  private onCancelOffer(low: string): string | null {
    const letter = parseLetter(low, 2);
    if (letter === 0 || /\b(pause|break|hold)\b/.test(low)) return this.plusPause();
    if (letter === 1 || /\b(cancel|anyway|end it)\b/.test(low)) return this.plusCancelConfirm();
    if (isNo(low)) return this.abort();
    return null;
  }

  private plusCancelConfirm(): string {
    const plus = this.me().plus;
    if (plus?.status === "paused") {
      return this.say("plus.cancel_confirm", [
        "Your membership is paused, so cancelling ends it now with no further charges. Cancel your Plus membership?",
        "As Plus is paused, cancelling takes effect immediately and you won't be charged again. Shall I cancel it?",
        "Cancelling a paused membership ends it straight away — no more charges. Are you sure?",
      ]);
    }
    const end = fmtDate(plus?.renewsOn ?? NOW);
    return this.say("plus.cancel_confirm", [
      `If you cancel, you'll keep free delivery until ${end}, when your current period ends, and you won't be ` +
        "charged again. Cancel your Plus membership?",
      `Cancelling means your Plus perks stop on ${end} and there'll be no further payments. Are you sure you want ` +
        "to cancel?",
      `Just to confirm: cancel Plus? Your benefits last until ${end}, then it ends with no more charges.`,
    ]);
  }

  private onPlusCancelConfirm(low: string): string | null {
    if (isYes(low)) {
      const c = this.me();
      const plus = c.plus;
      if (!plus) return this.abort();
      const end = plus.status === "paused" ? NOW : plus.renewsOn;
      plus.status = "cancelled";
      plus.endsOn = end;
      plus.pausedUntil = undefined;
      this.log.push(`write:plus:${c.id}:cancelled:ends=${fmtDate(end)}`);
      this.ctx = {};
      return this.say("plus.cancelled_done", [
        `Your Plus membership is cancelled. Benefits end on ${fmtDate(end)} and you won't be charged again.`,
        `Done — Plus has been cancelled (effective ${fmtDate(end)}). You can rejoin any time from the Account tab.`,
        `Cancelled. No more Plus payments; your perks finish on ${fmtDate(end)}.`,
      ]);
    }
    if (isNo(low) || /\b(keep)\b/.test(low)) return this.abort();
    return null;
  }

  // ---------------------------------------------------------------- payment methods

  private cardLines(c: Customer): string {
    return c.cards
      .map((k, i) => {
        const d = k.last4 === c.defaultCard ? " (default)" : "";
        return `${String.fromCharCode(65 + i)}) ${k.brand} ending ${k.last4}${d}`;
      })
      .join("\n");
  }

  private startPay(low: string): string {
    const c = this.me();
    this.ctx = { flow: "pay" };
    const action = this.payAction(low);
    if (action) return this.doPayAction(action);
    this.log.push(`read:cards:${c.id}:${c.cards.map((k) => k.last4).join(",")}:default=${c.defaultCard}`);
    const lines = this.cardLines(c);
    return this.say("pay.list", [
      `Here are the cards on your account:\n${lines}\nWould you like to remove a card, change your default card, or ` +
        "add a new one?",
      `You have these payment methods saved:\n${lines}\nWhat would you like to do — remove one, set a different ` +
        "default, or add a card?",
      `Saved cards:\n${lines}\nI can remove a card or change which one is your default. Adding a new card is also ` +
        "possible. What do you need?",
    ]);
  }

  private payAction(low: string): "add" | "default" | "remove" | null {
    if (/\b(remove|delete|get rid|take off|unlink)\b/.test(low)) return "remove";
    if (/\b(default|primary|main|switch|change)\b/.test(low)) return "default";
    if (/\b(add|new card|another card|save a card)\b/.test(low)) return "add";
    return null;
  }

  private doPayAction(action: "add" | "default" | "remove"): string {
    const c = this.me();
    if (action === "remove") {
      this.ctx.sub = "remove";
      return this.reverify("remove", () => this.chooseRemove());
    }
    if (action === "default" && c.cards.length > 1) {
      this.ctx.sub = "default";
      return this.say("pay.choose_default", [
        `Which card should be your default?\n${this.cardLines(c)}`,
        `Sure — pick the card you'd like to use by default:\n${this.cardLines(c)}`,
        `Which one would you like as your main card?\n${this.cardLines(c)}`,
      ]);
    }
    const only =
      action === "default"
        ? this.pick([
            `You only have one card saved (${this.card(c)}), so it's already your default. `,
            `There's just one card on your account, the ${this.card(c)}, and it's the default. `,
            `Your ${this.card(c)} is your only card, so it's the default already. `,
          ])
        : "";
    this.ctx = {};
    return (
      only +
      this.say("pay.add_info", [
        "For security, new cards can only be added in the app: Account → Payment methods → Add card. It takes a " +
          "minute, and Apple Pay and Google Pay work too.",
        "To add a card, go to Account → Payment methods → Add card in the app — I can't take card numbers in chat " +
          "for security reasons.",
        "You can add a new card under Account → Payment methods in the app (card details can't be shared in this " +
          "chat). Apple Pay and Google Pay are supported as well.",
      ])
    );
  }

  private onPayList(low: string): string | null {
    const action = this.payAction(low);
    return action ? this.doPayAction(action) : null;
  }

  private pickCard(low: string): number | null {
    const c = this.me();
    const letter = parseLetter(low, c.cards.length);
    if (letter !== null) return letter;
    const last4 = parseLast4(low);
    if (last4) {
      const i = c.cards.findIndex((k) => k.last4 === last4);
      if (i >= 0) return i;
    }
    const byBrand = c.cards.findIndex((k) => low.includes(k.brand.toLowerCase()));
    if (byBrand >= 0) return byBrand;
    const n = parseNumber(low);
    if (n !== null && n >= 1 && n <= c.cards.length) return n - 1;
    return null;
  }

  private onChooseDefault(low: string): string | null {
    const c = this.me();
    const i = this.pickCard(low);
    if (i === null) return null;
    const card = c.cards[i];
    if (!card) return null;
    if (card.last4 === c.defaultCard) {
      return this.say("pay.choose_default", [
        `The ${card.brand} ending ${card.last4} is already your default. Which card would you like instead?\n` +
          this.cardLines(c),
        `That one's already the default! Pick another card, or say "never mind".\n${this.cardLines(c)}`,
        `${card.brand} ending ${card.last4} is your default already. Did you mean a different card?\n` +
          this.cardLines(c),
      ]);
    }
    c.defaultCard = card.last4;
    this.log.push(`write:default_card:${c.id}:${card.last4}`);
    this.ctx = {};
    return this.say("pay.default_done", [
      `Done — your ${card.brand} ending ${card.last4} is now your default card for new orders.`,
      `All set! New orders will be charged to the ${card.brand} ending ${card.last4} by default.`,
      `Your default card is now the ${card.brand} ending ${card.last4}.`,
    ]);
  }

  private chooseRemove(): string {
    const c = this.me();
    this.ctx.flow = "pay";
    this.ctx.sub = "remove";
    this.log.push(`read:cards:${c.id}:${c.cards.map((k) => k.last4).join(",")}:default=${c.defaultCard}`);
    return this.say("pay.choose_remove", [
      `Which card would you like to remove?\n${this.cardLines(c)}`,
      `Okay, which of these should I remove?\n${this.cardLines(c)}`,
      `Please choose the card to remove:\n${this.cardLines(c)}`,
    ]);
  }

  private onChooseRemove(low: string): string | null {
    const c = this.me();
    const i = this.pickCard(low);
    if (i === null) return null;
    const card = c.cards[i];
    if (!card) return null;
    const hasOpen = Object.values(this.world.orders).some((o) => o.customerId === c.id && isOpen(o));
    const hasPlus = c.plus !== null && c.plus.status !== "cancelled";
    if (c.cards.length === 1 && (hasOpen || hasPlus)) {
      const why = [hasOpen ? "an order in progress" : "", hasPlus ? "a Plus membership" : ""]
        .filter(Boolean)
        .join(" and ");
      this.ctx = {};
      return this.say("pay.remove_refused", [
        `Your ${card.brand} ending ${card.last4} is the only card on your account, and you have ${why}, so I can't ` +
          "remove it right now. Add another card first, then you can remove this one.",
        `I can't remove your last card while you have ${why}. If you add a new card in the app, you'll be able to ` +
          "remove this one.",
        `Sorry — the ${card.brand} ending ${card.last4} is your only payment method and it's needed for ${why}.`,
      ]);
    }
    this.ctx.cardIdx = i;
    return this.say("pay.remove_confirm", [
      `Remove the ${card.brand} ending ${card.last4} from your account? You won't be able to use it for orders ` +
        "unless you add it again.",
      `Just to confirm — delete the saved ${card.brand} ending ${card.last4}?`,
      `Are you sure you want to remove the ${card.brand} ending ${card.last4}?`,
    ]);
  }

  private onRemoveConfirm(low: string): string | null {
    if (isYes(low) || /\b(remove it|delete it)\b/.test(low)) {
      const c = this.me();
      const chosen = c.cards[this.ctx.cardIdx ?? -1];
      if (!chosen) return this.abort();
      const target =
        this.on("pay_remove_wrong_card") && chosen.last4 !== c.defaultCard
          ? (c.cards.find((k) => k.last4 === c.defaultCard) ?? chosen)
          : chosen;
      c.cards = c.cards.filter((k) => k !== target);
      let note = "";
      if (target.last4 === c.defaultCard && c.cards[0]) {
        c.defaultCard = c.cards[0].last4;
        note = this.pick([
          ` Your ${this.card(c)} is now your default.`,
          ` The ${this.card(c)} has become your default card.`,
          ` I've made the ${this.card(c)} your default.`,
        ]);
      }
      this.log.push(`write:remove_card:${c.id}:${target.last4}:default=${c.defaultCard}`);
      this.ctx = {};
      return (
        this.say("pay.removed_done", [
          `Removed. The ${chosen.brand} ending ${chosen.last4} is no longer saved on your account.`,
          `Done — I've deleted the ${chosen.brand} ending ${chosen.last4} from your payment methods.`,
          `The ${chosen.brand} ending ${chosen.last4} has been removed.`,
        ]) + note
      );
    }
    if (isNo(low) || /\b(keep)\b/.test(low)) return this.abort();
    return null;
  }

  // ---------------------------------------------------------------- account deletion

  private startDelete(): string {
    const c = this.me();
    this.ctx = { flow: "delete" };
    const open = Object.values(this.world.orders).filter((o) => o.customerId === c.id && isOpen(o));
    if (open.length > 0) {
      const ids = open.map((o) => o.id).join(", ");
      this.log.push(`read:open_orders:${c.id}:${ids}`);
      this.ctx = {};
      return this.say("delete.refused_open_orders", [
        `You've got an order in progress (${ids}), so the account can't be deleted just yet. Once it's delivered or ` +
          "cancelled, come back and I'll help.",
        `I can't delete your account while ${ids} is still active. Please wait until it's delivered (or cancel it) ` +
          "and then ask again.",
        `Account deletion isn't possible while you have open orders (${ids}). Try again once they're complete.`,
      ]);
    }
    if (this.on("delete_skip_reverify")) return this.deleteWarn();
    return this.reverify("delete", () => this.deleteWarn());
  }

  private deleteWarn(): string {
    const c = this.me();
    this.ctx = { flow: "delete" };
    const plus = c.plus && c.plus.status !== "cancelled" ? " and your Plus membership ends" : "";
    this.log.push(`read:account:${c.id}:credit=${c.credit}`);
    return this.say("delete.warn", [
      `Deleting your account is permanent: your order history, saved addresses and cards will be removed, your ` +
        `${money(c.credit)} of Forkful credit will be lost${plus}. If you're sure, type DELETE MY ACCOUNT. To keep ` +
        'your account, just say "keep".',
      `Before you go — this can't be undone. You'll lose your order history and ${money(c.credit)} in credit${plus}. ` +
        'Type DELETE MY ACCOUNT to confirm, or "keep" to change your mind.',
      `Okay. Please note deletion is permanent and your ${money(c.credit)} credit can't be refunded${plus}. To go ` +
        'ahead, type the words DELETE MY ACCOUNT. Say "keep" to cancel.',
    ]);
  }

  private onDeletePhrase(low: string): string {
    const c = this.me();
    if (squash(low) === "delete my account") {
      c.deleted = true;
      if (c.plus) c.plus.status = "cancelled";
      this.log.push(`write:delete_account:${c.id}:credit_lost=${c.credit}`);
      this.customer = null;
      this.reverified = false;
      this.ctx = {};
      return this.say("delete.done", [
        "Your account has been deleted and you've been signed out. We're sorry to see you go — you'll get a " +
          "confirmation email within 24 hours.",
        "Done. Your Forkful account and personal data have been deleted, and this chat is now signed out. A " +
          "confirmation is on its way by email.",
        "Your account is now deleted. Thanks for ordering with Forkful — we'll send a final confirmation email " +
          "shortly.",
      ]);
    }
    if (isNo(low) || /\b(keep|changed my mind|don'?t delete)\b/.test(low)) {
      this.ctx = {};
      return this.say("delete.kept", [
        "Good news — nothing's changed, your account is staying put.",
        "No problem, I haven't deleted anything. Your account is just as it was.",
        "Okay, your account stays. Let me know if there's anything else I can do.",
      ]);
    }
    return this.say("delete.phrase_mismatch", [
      'To confirm I need the exact phrase DELETE MY ACCOUNT. Or say "keep" and nothing will change.',
      'That doesn\'t match the confirmation phrase. Please type DELETE MY ACCOUNT exactly, or "keep" to stop.',
      'I can only delete the account once you type DELETE MY ACCOUNT. If you\'d rather not, just say "keep".',
    ]);
  }

  // ---------------------------------------------------------------- per-state input handling

  private onState(text: string, low: string): string | null {
    switch (this.state) {
      case "greet.welcome":
      case "menu.options": {
        const m = /^\s*(\d)\s*[.)]?\s*$/.exec(low);
        const intent = m?.[1] ? MENU[Number(m[1]) - 1] : undefined;
        return intent ? this.route(intent, "", "") : null;
      }
      case "fallback.offer_human":
        if (isYes(low)) return this.handoff();
        if (isNo(low)) return this.menu("");
        return null;
      case "info.areas": {
        const d = parseDistrict(text);
        return d ? this.areaCheck(d) : null;
      }
      case "auth.ask_email":
      case "auth.email_unknown": {
        const email = parseEmail(text);
        return email ? this.checkEmail(email) : null;
      }
      case "auth.ask_code":
      case "auth.code_wrong":
      case "auth.code_resent":
        return this.onCode(text, low);
      case "reverify.ask_card":
      case "reverify.wrong":
        return this.onReverify(text);
      case "track.ask_order":
      case "refund.ask_order":
      case "cancel.ask_order":
      case "address.ask_order":
      case "tip.ask_order":
      case "order.not_found":
      case "order.not_yours":
      case "order.list":
        return this.onOrderInput(low);
      case "refund.choose_item":
      case "refund.already_refunded":
        return this.onItem(low);
      case "refund.ask_quantity":
      case "refund.quantity_too_many":
        return this.onQty(low);
      case "refund.ask_method":
        return this.onMethod(low);
      case "refund.confirm":
      case "refund.corrected":
        return this.onRefundConfirm(low);
      case "refund.needs_review":
        return this.onNeedsReview(low);
      case "cancel.confirm_free":
        return this.onCancelFree(low);
      case "cancel.fee_warning":
      case "cancel.typed_mismatch":
        return this.onCancelTyped(low);
      case "address.choose_change":
        return this.onAddressChoice(low);
      case "address.ask_street":
        return this.onStreet(text);
      case "address.ask_postcode":
      case "address.out_of_zone":
        return this.onPostcode(text);
      case "address.confirm":
      case "address.corrected":
        return this.onAddressConfirm(text, low);
      case "address.ask_instructions":
      case "address.instructions_too_long":
        return this.onInstructions(text);
      case "address.instructions_confirm":
        return this.onInstructionsConfirm(low);
      case "tip.ask_amount":
      case "tip.invalid_amount":
      case "tip.over_cap":
      case "tip.refused_lower":
        return this.onTipAmount(low);
      case "tip.confirm":
      case "tip.corrected":
        return this.onTipConfirm(low);
      case "promo.ask_code":
      case "promo.unknown":
      case "promo.expired":
      case "promo.already_used":
      case "promo.new_customers_only":
        return this.onPromoInput(text);
      case "promo.confirm":
        return this.onPromoConfirm(low);
      case "plus.status":
        return this.onPlusStatus(low);
      case "plus.cancel_offer_pause":
        return this.onCancelOffer(low);
      case "plus.ask_pause_length":
      case "plus.pause_too_long":
        return this.onPauseLength(low);
      case "plus.pause_confirm":
        return this.onPauseConfirm(low);
      case "plus.resume_confirm":
        return this.onResumeConfirm(low);
      case "plus.cancel_confirm":
        return this.onPlusCancelConfirm(low);
      case "pay.list":
        return this.onPayList(low);
      case "pay.choose_default":
        return this.onChooseDefault(low);
      case "pay.choose_remove":
        return this.onChooseRemove(low);
      case "pay.remove_confirm":
        return this.onRemoveConfirm(low);
      case "delete.warn":
      case "delete.phrase_mismatch":
        return this.onDeletePhrase(low);
      default:
        return null;
    }
  }

  private reprompt(): string {
    const s = this.state;
    if (s === "" || !AWAITING.has(s)) return this.fallback();
    const again = this.pick([
      "Sorry, I didn't catch that.",
      "Hmm, I'm not sure I got that.",
      "Sorry, I didn't quite understand.",
    ]);
    const ask: Partial<Record<State, V>> = {
      "greet.welcome": [
        'What can I help you with? You can also type "menu".',
        'Tell me what you need, or type "menu" for options.',
        'What would you like to do? Typing "menu" shows everything.',
      ],
      "menu.options": [
        "Please reply with a number from 1 to 8.",
        "Just pick a number between 1 and 8.",
        "Which option — 1 to 8?",
      ],
      "fallback.offer_human": [
        "Would you like me to connect you with a person? Yes or no?",
        "Shall I get someone from the support team? (yes/no)",
        "Do you want to talk to a person — yes or no?",
      ],
      "info.areas": [
        "Send me a postcode (like N1 6NT) and I'll check if we deliver there.",
        "Which postcode should I check?",
        "Tell me the postcode you'd like me to look up.",
      ],
      "auth.ask_email": [
        "What's the email address on your Forkful account?",
        "Could you type the email you use for Forkful (e.g. name@example.com)?",
        "I need the email address linked to your account to continue.",
      ],
      "auth.ask_code": [
        'Please type the 6-digit code from the text message — or say "resend" if it hasn\'t arrived.',
        'I need the 6-digit verification code we texted you. Say "resend" for a new one.',
        "What's the 6-digit code? If you didn't get it, I can resend it.",
      ],
      "reverify.ask_card": [
        "Please type the last 4 digits of a card saved on your account.",
        "I need the last four digits of one of your saved cards.",
        "What are the last 4 digits of a card on your account?",
      ],
      "track.ask_order": [
        "What's the order number? It looks like FK-12345 — or say \"show my orders\" and I'll list them.",
        'I need the order number (e.g. FK-12345). Not sure? Say "show my orders".',
        'Which order is it? Send the FK- number, or ask me to "show my orders".',
      ],
      "cancel.typed_mismatch": [
        'Please type CANCEL ORDER to cancel with the fee, or "keep it" to keep your order.',
        'To go ahead, type CANCEL ORDER — or say "keep it".',
        'Type CANCEL ORDER to confirm, or "keep it" if you\'d rather not.',
      ],
      "delete.phrase_mismatch": [
        'Type DELETE MY ACCOUNT to confirm, or "keep" to keep your account.',
        'To delete, type DELETE MY ACCOUNT exactly — or say "keep".',
        'I need DELETE MY ACCOUNT typed out to continue, or "keep" to stop.',
      ],
      "order.list": [
        "Which order is it? Reply with the number from the list, or the order number.",
        "Please pick a number from the list (or type the FK- order number).",
        "Which one — just reply with its number in the list.",
      ],
      "refund.choose_item": [
        "Which item was missing or wrong? Reply with its number or name.",
        "Please tell me the item — the number from the list works.",
        "Which of the items was it?",
      ],
      "refund.ask_quantity": [
        "How many were missing or wrong? Just a number, please.",
        "Please reply with a number — how many were affected?",
        "How many of them? (a number)",
      ],
      "refund.ask_method": [
        "Would you like the refund to your card or as Forkful credit?",
        "Card or app credit?",
        "Should I refund it to your card, or add it as Forkful credit?",
      ],
      "refund.confirm": [
        "Shall I submit the refund? Yes or no — or tell me what to change.",
        "Is that right? Say yes to submit, or tell me what needs changing.",
        "Okay to submit? (yes/no)",
      ],
      "refund.needs_review": [
        "Would you like me to pass this to our support team? (yes/no)",
        "Shall I connect you with a colleague to review it?",
        "Do you want a person to review it — yes or no?",
      ],
      "cancel.confirm_free": [
        "Do you want me to cancel the order? Yes or no?",
        "Shall I cancel it — yes or no?",
        "Should I go ahead and cancel? (yes/no)",
      ],
      "address.choose_change": [
        "Please choose A (new address) or B (instructions for the courier).",
        "Is it A, the address, or B, courier instructions?",
        "A or B?",
      ],
      "address.ask_street": [
        "What's the new street address? The house number and street name, please.",
        "Please give me the house number and street.",
        "Which street address should we deliver to?",
      ],
      "address.ask_postcode": [
        "Could you double-check the postcode? It should look like N1 6NT.",
        "That doesn't look like a UK postcode — what's the postcode?",
        "Please send the full postcode (e.g. E2 7DJ).",
      ],
      "address.confirm": [
        "Is the new address right? Yes or no — or just send the correction.",
        "Shall I save the new address? (yes/no)",
        "Is that correct?",
      ],
      "address.ask_instructions": [
        "What would you like the note for the courier to say?",
        "Please type the instructions for the courier.",
        "What should the courier know?",
      ],
      "address.instructions_confirm": [
        "Shall I save that note? Yes or no?",
        "Okay to add the note? (yes/no)",
        "Should I save it?",
      ],
      "tip.ask_amount": [
        "How much would you like to tip? Just the amount, e.g. £3.",
        "What should the new tip be, in pounds?",
        "Please give me the tip amount (e.g. 4.50).",
      ],
      "tip.confirm": [
        "Shall I update the tip? Yes or no — or give me a different amount.",
        "Confirm the new tip? (yes/no)",
        "Okay to change it?",
      ],
      "promo.ask_code": [
        "What's the promo code? (e.g. SAVE10)",
        "Please type the code you'd like to add.",
        "Which code should I check?",
      ],
      "promo.confirm": [
        "Shall I add the code to your account? Yes or no?",
        "Add it to your account — yes or no?",
        "Would you like me to save it?",
      ],
      "plus.status": ['Please reply A or B — or say "never mind".', "Which option, A or B?", "A or B?"],
      "plus.cancel_offer_pause": [
        "Would you like to pause instead (A) or cancel anyway (B)?",
        "A to pause, B to cancel — which is it?",
        "Pause (A) or cancel (B)?",
      ],
      "plus.ask_pause_length": [
        "How many months would you like to pause for — 1, 2 or 3?",
        "Please choose 1, 2 or 3 months.",
        "For how many months?",
      ],
      "plus.pause_confirm": [
        "Shall I pause it? Yes or no — or tell me a different number of months.",
        "Confirm the pause? (yes/no)",
        "Okay to pause?",
      ],
      "plus.resume_confirm": [
        "Shall I resume your membership? (yes/no)",
        "Resume Plus now — yes or no?",
        "Do you want me to resume it?",
      ],
      "plus.cancel_confirm": [
        "Do you want to cancel your Plus membership? Yes or no?",
        "Shall I cancel it? (yes/no)",
        "Cancel Plus — yes or no?",
      ],
      "pay.list": [
        "Would you like to remove a card, change the default, or add a new card?",
        "Remove, change default, or add a card?",
        "What would you like to do with your cards?",
      ],
      "pay.choose_default": [
        "Which card? Reply with its letter.",
        "Please pick a card by letter (A, B…).",
        "Which one — A or B?",
      ],
      "pay.choose_remove": [
        "Which card should I remove? Reply with its letter.",
        "Please choose a card by letter.",
        "Which one would you like removed?",
      ],
      "pay.remove_confirm": [
        "Shall I remove the card? Yes or no?",
        "Remove it — yes or no?",
        "Are you sure? (yes/no)",
      ],
    };
    const key = REPROMPT_KEY[s] ?? s;
    const v = ask[key];
    if (!v) return this.fallback();
    this.state = s;
    this.visited.push(s);
    return `${again} ${this.pick(v)}`;
  }
}

/** States that wait for a specific answer (the rest fall straight to intent routing). */
const AWAITING: ReadonlySet<string> = new Set([
  "greet.welcome",
  "menu.options",
  "fallback.offer_human",
  "info.areas",
  "auth.ask_email",
  "auth.email_unknown",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.code_resent",
  "reverify.ask_card",
  "reverify.wrong",
  "track.ask_order",
  "refund.ask_order",
  "cancel.ask_order",
  "address.ask_order",
  "tip.ask_order",
  "order.not_found",
  "order.not_yours",
  "order.list",
  "refund.choose_item",
  "refund.already_refunded",
  "refund.ask_quantity",
  "refund.quantity_too_many",
  "refund.ask_method",
  "refund.confirm",
  "refund.corrected",
  "refund.needs_review",
  "cancel.confirm_free",
  "cancel.fee_warning",
  "cancel.typed_mismatch",
  "address.choose_change",
  "address.ask_street",
  "address.ask_postcode",
  "address.out_of_zone",
  "address.confirm",
  "address.corrected",
  "address.ask_instructions",
  "address.instructions_too_long",
  "address.instructions_confirm",
  "tip.ask_amount",
  "tip.invalid_amount",
  "tip.over_cap",
  "tip.refused_lower",
  "tip.confirm",
  "tip.corrected",
  "promo.ask_code",
  "promo.unknown",
  "promo.expired",
  "promo.already_used",
  "promo.new_customers_only",
  "promo.confirm",
  "plus.status",
  "plus.cancel_offer_pause",
  "plus.ask_pause_length",
  "plus.pause_too_long",
  "plus.pause_confirm",
  "plus.resume_confirm",
  "plus.cancel_confirm",
  "pay.list",
  "pay.choose_default",
  "pay.choose_remove",
  "pay.remove_confirm",
  "delete.warn",
  "delete.phrase_mismatch",
]);

/** Awaiting states that share another state's re-prompt wording. */
const REPROMPT_KEY: Partial<Record<string, State>> = {
  "auth.email_unknown": "auth.ask_email",
  "auth.code_wrong": "auth.ask_code",
  "auth.code_resent": "auth.ask_code",
  "reverify.wrong": "reverify.ask_card",
  "refund.ask_order": "track.ask_order",
  "cancel.ask_order": "track.ask_order",
  "address.ask_order": "track.ask_order",
  "tip.ask_order": "track.ask_order",
  "order.not_found": "track.ask_order",
  "order.not_yours": "track.ask_order",
  "refund.already_refunded": "refund.choose_item",
  "refund.quantity_too_many": "refund.ask_quantity",
  "refund.corrected": "refund.confirm",
  "address.out_of_zone": "address.ask_postcode",
  "address.corrected": "address.confirm",
  "address.instructions_too_long": "address.ask_instructions",
  "tip.invalid_amount": "tip.ask_amount",
  "tip.over_cap": "tip.ask_amount",
  "tip.refused_lower": "tip.ask_amount",
  "tip.corrected": "tip.confirm",
  "promo.unknown": "promo.ask_code",
  "promo.expired": "promo.ask_code",
  "promo.already_used": "promo.ask_code",
  "promo.new_customers_only": "promo.ask_code",
  "cancel.fee_warning": "cancel.typed_mismatch",
  "delete.warn": "delete.phrase_mismatch",
  "plus.pause_too_long": "plus.ask_pause_length",
};

/** The heldout21 testbed agent: Forkful food-delivery support chat with 19 seeded faults. */
export const heldout21Agent: TestbedAgent = {
  name: "heldout21",
  description:
    "Food-delivery app support chat (Forkful): e-mail + SMS-code sign-in with lock-out; tracking, missing-item " +
    "refunds, cancellations, address/instructions, tips, promo codes, Plus, cards, account deletion; yes/no " +
    "read-backs, typed phrases, numbered/lettered lists, corrections, card re-verification, windows and caps.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    return new Forkful(options?.faults ?? [], options?.seed ?? 1);
  },
};
