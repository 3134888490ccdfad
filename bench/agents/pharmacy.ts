import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  type Address,
  type Customer,
  type Db,
  type Order,
  PHARMACY_FACTS,
  PHRASES,
  type PhraseKey,
  type Rx,
  SEED_DB,
  STREETS,
  TODAY,
} from "./pharmacy-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** Seeded faults, each switchable on its own. */
export const PHARMACY_FAULTS = [
  "skipConfirm",
  "yesToAnything",
  "skipDobCheck",
  "noLockout",
  "refillTooEarly",
  "ignoreNoRefills",
  "controlledRefill",
  "overMaxQuantity",
  "cancelShipped",
  "wrongTotal",
  "forgetCorrection",
  "leakHousehold",
] as const;
type Fault = (typeof PHARMACY_FAULTS)[number];

/** The designed dialogue states; every turn enters exactly one of them. */
export const PHARMACY_STATES = [
  "greet",
  "menu",
  "fallback",
  "bye",
  "handoff",
  "declined",
  "confirm.unclear",
  "auth.ask_name",
  "auth.unknown_name",
  "auth.ask_dob",
  "auth.dob_unclear",
  "auth.dob_mismatch",
  "auth.locked",
  "refill.ask_medication",
  "refill.unknown_medication",
  "refill.refused_controlled",
  "refill.refused_no_refills",
  "refill.refused_too_early",
  "refill.ask_quantity",
  "refill.quantity_unclear",
  "refill.refused_over_max",
  "refill.confirm",
  "refill.done",
  "status.ask_order",
  "status.shown",
  "status.not_found",
  "order.bad_number",
  "order.not_found",
  "order.cancelled",
  "cancel.ask_order",
  "cancel.refused_shipped",
  "cancel.confirm",
  "cancel.done",
  "address.ask_order",
  "address.refused_shipped",
  "address.ask_postcode",
  "address.bad_postcode",
  "address.ask_house_number",
  "address.confirm",
  "address.done",
] as const;
type State = (typeof PHARMACY_STATES)[number];

type Kind = "refill" | "status" | "cancel" | "address";
type OrderKind = Exclude<Kind, "refill">;
type Intent = Kind | "greet" | "thanks" | "bye" | "menu";
type Mode =
  | "idle"
  | "ask_name"
  | "ask_dob"
  | "locked"
  | "handoff"
  | "offer_handoff"
  | "refill_med"
  | "refill_qty"
  | "status_order"
  | "cancel_order"
  | "address_order"
  | "address_postcode"
  | "address_house"
  | "gate";

interface RefillDraft {
  kind: "refill";
  rx: Rx;
  days: number;
  /** The values first read back, kept when the customer corrects one at the gate. */
  first?: { rx: Rx; days: number };
}
interface CancelDraft {
  kind: "cancel";
  order: Order;
  first?: { order: Order };
}
interface AddressDraft {
  kind: "address";
  order: Order;
  postcode?: string;
  house?: string;
  first?: { postcode: string; house: string };
}
type Draft = RefillDraft | CancelDraft | AddressDraft;

const ORDER_MODE: Record<OrderKind, Mode> = {
  status: "status_order",
  cancel: "cancel_order",
  address: "address_order",
};
const ASK_ORDER: Record<OrderKind, [State, PhraseKey]> = {
  status: ["status.ask_order", "ask_order_status"],
  cancel: ["cancel.ask_order", "ask_order_cancel"],
  address: ["address.ask_order", "ask_order_address"],
};
const ACK: Record<Kind, PhraseKey> = {
  refill: "ack_refill",
  status: "ack_status",
  cancel: "ack_cancel",
  address: "ack_address",
};

// ---------------------------------------------------------------------------------------------------------
// Reading the customer's words

const INTENTS: readonly (readonly [Intent, RegExp])[] = [
  ["cancel", /\bcancel/i],
  [
    "address",
    /\baddress\b|\bpost ?code\b|\bredirect|\bdeliver(?:ed|y)?\s+(?:it\s+|them\s+)?to\s+(?:a\s+|my\s+)?(?:new|different|another|other)\b|\b(?:i'?ve|have) moved\b|\bmoving house\b/i,
  ],
  [
    "status",
    /\bstatus\b|\bwhere(?:'s| is| are)\b|\btrack|\b(?:arrive[ds]?|arriving|shipped|dispatched)\b|\bwhen will\b|\bcheck (?:on )?(?:my |an |the )?order|\blook up\b/i,
  ],
  [
    "refill",
    /\brefill|\brepeat (?:prescription|order)|\brenew|\bre-?order|\bprescriptions?\b|\bmedications?\b|\bmedicines?\b|\bmeds\b|\bpills?\b|\btablets?\b|\brun(?:ning)? (?:out|low)\b|\btop[- ]up\b/i,
  ],
  ["greet", /^\s*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b/i],
  ["thanks", /^\s*(?:thanks|thank you|cheers|ta|perfect|brilliant|lovely|great)\b/i],
  [
    "bye",
    /^\s*(?:bye|goodbye|that'?s (?:all|it|everything)|nothing(?: else)?|i'?m (?:done|all set|good)|no,? (?:thanks|thank you|that'?s all)|all good)\b/i,
  ],
  ["menu", /\b(?:help|what can you do|options|menu|services)\b/i],
];

const PHARMACIST =
  /\b(?:pharmacists?|chemist|human)\b|\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:someone|somebody|a person|a real person|an agent|staff|a member of staff)\b/i;
const YES =
  /\b(?:yes|yeah|yea|yep|yup|sure|certainly|absolutely|definitely|affirmative|confirm(?:ed)?|go ahead|go for it|please do|do it|proceed|correct|that'?s right)\b/i;
const NEGATION = /\b(?:no|not|never|don'?t|do not|nope)\b|n't\b/i;
const NO =
  /^\s*(?:no|nope|nah|not (?:now|yet|really|today)|don'?t|do not|stop|never ?mind|forget it|leave it|abort|hold on|wait)\b|\b(?:don'?t|do not) (?:do|place|cancel|change|go ahead|bother|want)\b/i;
const ABORT = /\b(?:never ?mind|forget (?:it|that)|stop|leave it)\b/i;

const isPharmacist = (t: string) => PHARMACIST.test(t);
const isYes = (t: string) => YES.test(t) && !NEGATION.test(t);
const isNo = (t: string) => NO.test(t);
const isKind = (i: Intent | undefined): i is Kind =>
  i === "refill" || i === "status" || i === "cancel" || i === "address";

function intentOf(t: string, customer?: Customer): Intent | undefined {
  const found = INTENTS.find(([, re]) => re.test(t))?.[0];
  if (found) return found;
  if (customer && findRx(customer, t)) return "refill";
  return undefined;
}

const norm = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim()} `;

function findCustomer(db: Db, t: string): Customer | undefined {
  const text = norm(t);
  return db.customers.find((c) => text.includes(norm(c.fullName)));
}

function findRx(c: Customer, t: string): Rx | undefined {
  const text = norm(t);
  return c.prescriptions.find((r) => r.aliases.some((a) => text.includes(` ${a} `)));
}

/** A medication named in the message that is not the customer's (another customer's, or a common one). */
function mentionsOtherMed(db: Db, t: string): boolean {
  const text = norm(t);
  const others = ["ibuprofen", "paracetamol", "amoxicillin", "codeine", "insulin", "aspirin"];
  return (
    others.some((a) => text.includes(` ${a} `)) ||
    db.customers.some((c) => c.prescriptions.some((r) => r.aliases.some((a) => text.includes(` ${a} `))))
  );
}

function rxByIndex(c: Customer, t: string): Rx | undefined {
  const digit =
    t.match(/^\s*(?:(?:number|no\.?|option|#)\s*)?(\d)\s*[.)]?\s*(?:please)?\s*$/i) ??
    t.match(/\b(?:number|option|no\.)\s*(\d)\b/i);
  if (digit) return c.prescriptions[Number(digit[1]) - 1];
  const ordinal = t.match(/\b(first|second|third|fourth|1st|2nd|3rd|4th)\b/i)?.[1]?.toLowerCase();
  if (!ordinal) return undefined;
  const index = ["first", "second", "third", "fourth"].indexOf(ordinal);
  return c.prescriptions[index >= 0 ? index : Number(ordinal[0]) - 1];
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH_NAMES = MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1));

function monthOf(word: string): number | undefined {
  const i = MONTHS.findIndex((m) => m === word || (word.length >= 3 && m.startsWith(word)));
  return i >= 0 ? i + 1 : undefined;
}

function isoDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || y > 2025 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/** A date of birth in a common format (day first for numeric dates): 14/03/1985, 1985-03-14, 14 March 1985. */
function parseDate(t: string): string | undefined {
  const s = t.toLowerCase();
  let m = s.match(/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = s.match(/\b(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4})\b/);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = s.match(/\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b/);
  const dm = m && monthOf(m[2]!);
  if (m && dm) return isoDate(Number(m[3]), dm, Number(m[1]));
  m = s.match(/\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/);
  const md = m && monthOf(m[1]!);
  if (m && md) return isoDate(Number(m[3]), md, Number(m[2]));
  return undefined;
}

const ORDER_RE = /\bRX[\s#-]*(\d+)\b/i;

/** An order number (`RX-48213`, or its five digits alone), `bad` when it is malformed. */
function parseOrder(t: string): string | "bad" | undefined {
  const m = t.match(ORDER_RE);
  if (m) return m[1]!.length === 5 ? `RX-${m[1]}` : "bad";
  const bare = t.match(/(?<![\d£.,])\b(\d{5})\b/);
  if (bare) return `RX-${bare[1]}`;
  if (/\bRX\b/i.test(t)) return "bad";
  return undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
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
  twelve: 12,
  fourteen: 14,
  twenty: 20,
  thirty: 30,
  sixty: 60,
  ninety: 90,
};
const UNIT_DAYS: readonly (readonly [RegExp, number])[] = [
  [/^(?:days?|d)$/, 1],
  [/^(?:weeks?|wks?)$/, 7],
  [/^(?:months?)$/, 30],
  [/^(?:packs?|packets?|boxes?)$/, 30],
];

/** A quantity as days' supply: "60 days", "90-day", "2 packs" (30 days each), "three months", or a bare "90". */
function parseDays(t: string): number | undefined {
  const s = t.toLowerCase().replace(/-/g, " ");
  const words = Object.keys(NUMBER_WORDS).join("|");
  const m = s.match(
    new RegExp(`\\b(\\d{1,4}|${words})\\s*(days?|d|weeks?|wks?|months?|packs?|packets?|boxes?)\\b`),
  );
  if (m) {
    const n = /^\d/.test(m[1]!) ? Number(m[1]) : NUMBER_WORDS[m[1]!]!;
    const unit = UNIT_DAYS.find(([re]) => re.test(m[2]!))?.[1] ?? 1;
    return n > 0 ? n * unit : undefined;
  }
  const bare = s.match(/^\s*(?:make it\s+|just\s+)?(\d{1,4})\s*(?:please)?\s*[.!]?\s*$/);
  if (bare && Number(bare[1]) >= 7) return Number(bare[1]);
  return undefined;
}

const POSTCODE_RE = /\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/i;

function parsePostcode(t: string): string | undefined {
  const m = t.match(POSTCODE_RE);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : undefined;
}

/** A house number, ignoring the digits of postcodes and order numbers. */
function parseHouse(t: string): string | undefined {
  const s = t
    .replace(new RegExp(POSTCODE_RE.source, "gi"), " ")
    .replace(new RegExp(ORDER_RE.source, "gi"), " ")
    .replace(/\b\d{5,}\b/g, " ");
  const keyed = s.match(
    /(?:house(?:\s*(?:number|no\.?))?|number|no\.|flat|#)\s*(?:is\s*)?(\d{1,4}[a-z]?)\b/i,
  );
  if (keyed) return keyed[1]!.toUpperCase();
  return s.match(/\b(\d{1,4}[a-z]?)\b/i)?.[1]?.toUpperCase();
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

const round2 = (n: number) => Math.round(n * 100) / 100;
const money = (n: number) => `£${n.toFixed(2)}`;
const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const addDays = (iso: string, n: number) => new Date(Date.parse(iso) + n * DAY_MS).toISOString().slice(0, 10);
const longDate = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTH_NAMES[Number(iso.slice(5, 7)) - 1]}`;
const fmtAddress = (a: Address) => `${a.line} ${a.postcode}`;
const firstName = (c: Customer) => c.fullName.split(" ")[0]!;

function newAddress(house: string, postcode: string): Address {
  const street = STREETS[postcode];
  return { line: street ? `${house} ${street}` : house, postcode };
}

/** Mulberry32: a small seeded PRNG; one draw per (seed, turn, phrase) picks a wording. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------------------
// One conversation

class Session {
  private readonly db: Db = structuredClone(SEED_DB);
  private mode: Mode = "idle";
  private customer?: Customer;
  private candidate?: Customer;
  private readonly tries = new Map<string, number>();
  /** The request made before authentication, resumed once the customer is verified. */
  private pending?: string;
  private draft?: Draft;
  private state: State = "fallback";
  private turn = 0;
  readonly visited: State[] = [];
  readonly effects: string[] = [];

  constructor(
    private readonly faults: ReadonlySet<Fault>,
    private readonly seed: number,
  ) {}

  reply(text: string): string {
    this.turn++;
    const out = this.dispatch(text.trim());
    this.visited.push(this.state);
    return out;
  }

  private has(fault: Fault): boolean {
    return this.faults.has(fault);
  }

  private say(key: PhraseKey, vars: Record<string, string | number> = {}): string {
    const options: readonly string[] = PHRASES[key];
    const pick = Math.floor(mulberry32(fnv1a(`${this.seed}|${this.turn}|${key}`))() * options.length);
    return options[pick]!.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = vars[name];
      if (value === undefined) throw new Error(`pharmacy: phrase ${key} needs {${name}}`);
      return String(value);
    });
  }

  /** Enter `state` and answer with the parts joined. */
  private go(state: State, ...parts: string[]): string {
    this.state = state;
    return parts.join(" ");
  }

  private dispatch(t: string): string {
    if (this.mode === "handoff") return this.go("handoff", this.say("handoff_wait"));
    if (this.mode === "locked") {
      if (isPharmacist(t) || isYes(t)) return this.handoff();
      return this.go("auth.locked", this.say("locked_again"));
    }
    if (isPharmacist(t)) return this.handoff();
    switch (this.mode) {
      case "ask_name":
        return this.onName(t);
      case "ask_dob":
        return this.onDob(t);
      case "offer_handoff":
        this.mode = "idle";
        if (isYes(t)) return this.handoff();
        if (isNo(t) && !intentOf(t, this.customer))
          return this.go("menu", this.say("no_problem"), this.say("anything_else"));
        return this.top(t);
      case "refill_med":
        return this.onRefillMedication(t);
      case "refill_qty":
        return this.onRefillQuantity(t);
      case "status_order":
        return this.onOrderSlot("status", t);
      case "cancel_order":
        return this.onOrderSlot("cancel", t);
      case "address_order":
        return this.onOrderSlot("address", t);
      case "address_postcode":
        return this.onPostcode(t);
      case "address_house":
        return this.onHouseNumber(t);
      case "gate":
        return this.onGate(t);
      default:
        return this.top(t);
    }
  }

  private handoff(): string {
    this.mode = "handoff";
    this.draft = undefined;
    this.effects.push("handoff");
    return this.go("handoff", this.say("handoff"));
  }

  private bye(): string {
    this.mode = "idle";
    this.draft = undefined;
    return this.go("bye", this.say("bye"));
  }

  /** A message outside any question: a new request, a greeting, thanks, goodbye. */
  private top(t: string): string {
    this.mode = "idle";
    this.draft = undefined;
    const intent = intentOf(t, this.customer);
    const order = parseOrder(t);
    if (!this.customer) {
      const kind: Kind | undefined = isKind(intent) ? intent : order ? "status" : undefined;
      if (kind) {
        this.pending = t;
        if (findCustomer(this.db, t)) return this.onName(t);
        this.mode = "ask_name";
        return this.go("auth.ask_name", this.say(ACK[kind]), this.say("ask_name"));
      }
      if (findCustomer(this.db, t)) return this.onName(t);
      if (intent === "bye") return this.bye();
      if (intent === "greet" || intent === "menu" || intent === "thanks")
        return this.go("greet", this.say("greet"));
      return this.go("fallback", this.say("fallback"));
    }
    if (isKind(intent)) return this.start(intent, t);
    if (order) return this.start("status", t);
    if (intent === "bye" || isNo(t)) return this.bye();
    if (intent === "thanks") return this.go("menu", this.say("welcome"), this.say("anything_else"));
    if (intent === "greet" || intent === "menu" || isYes(t)) return this.go("menu", this.say("menu"));
    return this.go("fallback", this.say("fallback"));
  }

  /** A slot question answered with something else: an abort, another request, goodbye. */
  private escape(t: string, kind: Kind): string | undefined {
    if (isNo(t) || ABORT.test(t)) {
      this.mode = "idle";
      this.draft = undefined;
      return this.go("declined", this.say("declined_generic"), this.say("anything_else"));
    }
    const intent = intentOf(t, this.customer);
    if (isKind(intent) && intent !== kind) return this.start(intent, t);
    if (intent === "bye") return this.bye();
    return undefined;
  }

  // --- authentication ---------------------------------------------------------------------------------

  private onName(t: string): string {
    const c = findCustomer(this.db, t);
    if (!c) {
      this.mode = "ask_name";
      const intent = intentOf(t);
      if (isKind(intent)) {
        this.pending = t;
        return this.go("auth.ask_name", this.say(ACK[intent]), this.say("ask_name"));
      }
      if (intent === "bye") return this.bye();
      return this.go("auth.unknown_name", this.say("unknown_name"));
    }
    this.candidate = c;
    this.mode = "ask_dob";
    if (parseDate(t)) return this.onDob(t);
    return this.go("auth.ask_dob", this.say("ask_dob", { first: firstName(c) }));
  }

  private onDob(t: string): string {
    const named = findCustomer(this.db, t);
    if (named) this.candidate = named;
    const c = this.candidate!;
    const date = parseDate(t);
    if (!date) {
      if (named) return this.go("auth.ask_dob", this.say("ask_dob", { first: firstName(c) }));
      return this.go("auth.dob_unclear", this.say("dob_unclear"));
    }
    if (date === c.dob || this.has("skipDobCheck")) return this.verify(c);
    const tries = (this.tries.get(c.id) ?? 0) + 1;
    this.tries.set(c.id, tries);
    if (tries >= 3 && !this.has("noLockout")) {
      this.mode = "locked";
      this.pending = undefined;
      this.effects.push(`locked:${c.id}`);
      return this.go("auth.locked", this.say("locked"));
    }
    const left = 3 - tries;
    const count =
      left > 0 ? [this.say("tries_left", { left: left === 1 ? "1 attempt" : `${left} attempts` })] : [];
    return this.go("auth.dob_mismatch", this.say("dob_mismatch"), ...count);
  }

  private verify(c: Customer): string {
    this.customer = c;
    this.candidate = undefined;
    this.mode = "idle";
    this.effects.push(`login:${c.id}`);
    const hello = this.say("verified", { first: firstName(c) });
    const pending = this.pending;
    this.pending = undefined;
    if (pending) return `${hello} ${this.top(pending)}`;
    return this.go("menu", hello, this.say("menu"));
  }

  // --- requests ---------------------------------------------------------------------------------------

  private start(kind: Kind, t: string): string {
    this.draft = undefined;
    if (kind === "refill") return this.startRefill(t);
    const number = parseOrder(t);
    this.mode = ORDER_MODE[kind];
    if (number === undefined) {
      const [state, phrase] = ASK_ORDER[kind];
      return this.go(state, this.say(phrase));
    }
    if (number === "bad") return this.go("order.bad_number", this.say("bad_number"));
    return this.onOrder(kind, number, t);
  }

  private rxList(): string {
    return this.customer!.prescriptions.map((r, i) => `${i + 1}. ${r.name}`).join("\n");
  }

  private startRefill(t: string): string {
    const rx = findRx(this.customer!, t);
    if (rx) return this.selectRx(rx, parseDays(t));
    this.mode = "refill_med";
    if (mentionsOtherMed(this.db, t))
      return this.go("refill.unknown_medication", this.say("unknown_medication", { list: this.rxList() }));
    return this.go("refill.ask_medication", this.say("ask_medication", { list: this.rxList() }));
  }

  /** The refusal of an ineligible refill (controlled, out of refills, too early), or undefined. */
  private refusal(rx: Rx): string | undefined {
    const med = rx.name;
    if (rx.controlled && !this.has("controlledRefill")) {
      this.mode = "offer_handoff";
      this.draft = undefined;
      return this.go("refill.refused_controlled", this.say("refused_controlled", { med }));
    }
    if (rx.refillsLeft <= 0 && !this.has("ignoreNoRefills")) {
      this.mode = "idle";
      this.draft = undefined;
      return this.go(
        "refill.refused_no_refills",
        this.say("refused_no_refills", { med }),
        this.say("anything_else"),
      );
    }
    const wait = Math.ceil(0.75 * rx.lastDays);
    if (daysBetween(rx.lastFill, TODAY) < wait && !this.has("refillTooEarly")) {
      this.mode = "idle";
      this.draft = undefined;
      const vars = {
        med,
        lastDays: rx.lastDays,
        lastFill: longDate(rx.lastFill),
        earliest: longDate(addDays(rx.lastFill, wait)),
      };
      return this.go(
        "refill.refused_too_early",
        this.say("refused_too_early", vars),
        this.say("anything_else"),
      );
    }
    return undefined;
  }

  private selectRx(rx: Rx, days: number | undefined): string {
    const refused = this.refusal(rx);
    if (refused !== undefined) return refused;
    const first = this.draft?.kind === "refill" ? this.draft.first : undefined;
    this.draft = { kind: "refill", rx, days: 0, first };
    if (days) return this.onDays(days);
    this.mode = "refill_qty";
    return this.go("refill.ask_quantity", this.say("ask_quantity", { med: rx.name, max: rx.maxDays }));
  }

  private onRefillMedication(t: string): string {
    const c = this.customer!;
    const rx = findRx(c, t) ?? rxByIndex(c, t);
    if (rx) return this.selectRx(rx, parseDays(t));
    const escaped = this.escape(t, "refill");
    if (escaped !== undefined) return escaped;
    return this.go("refill.unknown_medication", this.say("unknown_medication", { list: this.rxList() }));
  }

  private onRefillQuantity(t: string): string {
    const d = this.draft as RefillDraft;
    const rx = findRx(this.customer!, t);
    const days = parseDays(t);
    if (rx && rx !== d.rx) return this.selectRx(rx, days);
    if (days) return this.onDays(days);
    const escaped = this.escape(t, "refill");
    if (escaped !== undefined) return escaped;
    return this.go("refill.quantity_unclear", this.say("quantity_unclear"));
  }

  private total(rx: Rx, days: number): number {
    const base = round2((rx.perMonth * days) / 30);
    return this.has("wrongTotal") ? round2(base + rx.perMonth) : base;
  }

  private refund(order: Order): number {
    return this.has("wrongTotal") ? round2(order.total / 2) : order.total;
  }

  private onDays(days: number): string {
    const d = this.draft as RefillDraft;
    const med = d.rx.name;
    if (days > d.rx.maxDays && !this.has("overMaxQuantity")) {
      this.mode = "refill_qty";
      return this.go(
        "refill.refused_over_max",
        this.say("refused_over_max", { days, max: d.rx.maxDays, med }),
      );
    }
    d.days = days;
    if (this.has("skipConfirm")) return this.commit();
    this.mode = "gate";
    return this.go(
      "refill.confirm",
      this.say("refill_confirm", {
        med,
        days,
        unit: money(d.rx.perMonth),
        total: money(this.total(d.rx, days)),
        address: fmtAddress(this.customer!.address),
      }),
    );
  }

  private onOrderSlot(kind: OrderKind, t: string): string {
    const number = parseOrder(t);
    if (number === "bad") return this.go("order.bad_number", this.say("bad_number"));
    if (number) return this.onOrder(kind, number, t);
    const escaped = this.escape(t, kind);
    if (escaped !== undefined) return escaped;
    const [state, phrase] = ASK_ORDER[kind];
    return this.go(state, this.say(phrase));
  }

  private onOrder(kind: OrderKind, number: string, t: string): string {
    const c = this.customer!;
    const order = this.db.orders.find((o) => o.number === number);
    const own = order?.owner === c.id;
    if (kind === "status") {
      if (order && (own || (this.has("leakHousehold") && c.household.includes(order.owner)))) {
        this.mode = "idle";
        return this.showStatus(order);
      }
      this.mode = "status_order";
      return this.go("status.not_found", this.say("status_not_found", { order: number }));
    }
    if (!order || !own) {
      this.mode = ORDER_MODE[kind];
      return this.go("order.not_found", this.say("order_not_found", { order: number }));
    }
    this.mode = "idle";
    if (order.status === "cancelled")
      return this.go(
        "order.cancelled",
        this.say("order_cancelled", { order: number }),
        this.say("anything_else"),
      );
    const date = order.shippedOn ? longDate(order.shippedOn) : "";
    if (kind === "cancel") {
      if (order.status === "shipped" && !this.has("cancelShipped"))
        return this.go(
          "cancel.refused_shipped",
          this.say("cancel_refused_shipped", { order: number, date }),
          this.say("anything_else"),
        );
      this.draft = { kind: "cancel", order };
      if (this.has("skipConfirm")) return this.commit();
      this.mode = "gate";
      return this.go(
        "cancel.confirm",
        this.say("cancel_confirm", {
          order: number,
          item: order.item,
          days: order.days,
          total: money(order.total),
          refund: money(this.refund(order)),
          card: c.card,
        }),
      );
    }
    if (order.status === "shipped")
      return this.go(
        "address.refused_shipped",
        this.say("address_refused_shipped", { order: number, date }),
        this.say("anything_else"),
      );
    const postcode = parsePostcode(t);
    this.draft = { kind: "address", order, postcode, house: postcode ? parseHouse(t) : undefined };
    return this.askAddress();
  }

  private askAddress(): string {
    const d = this.draft as AddressDraft;
    const order = d.order.number;
    if (!d.postcode) {
      this.mode = "address_postcode";
      return this.go("address.ask_postcode", this.say("ask_postcode", { order }));
    }
    if (!d.house) {
      this.mode = "address_house";
      return this.go("address.ask_house_number", this.say("ask_house", { postcode: d.postcode }));
    }
    if (this.has("skipConfirm")) return this.commit();
    this.mode = "gate";
    const vars = {
      order,
      new: fmtAddress(newAddress(d.house, d.postcode)),
      old: fmtAddress(d.order.address),
    };
    return this.go("address.confirm", this.say("address_confirm", vars));
  }

  private onPostcode(t: string): string {
    const d = this.draft as AddressDraft;
    const postcode = parsePostcode(t);
    if (postcode) {
      d.postcode = postcode;
      d.house = parseHouse(t) ?? d.house;
      return this.askAddress();
    }
    if (/^\s*(?:(?:house\s*)?(?:number|no\.?)\s*)?\d{1,4}[a-z]?\s*$/i.test(t)) {
      d.house = parseHouse(t);
      return this.go("address.ask_postcode", this.say("ask_postcode", { order: d.order.number }));
    }
    const escaped = this.escape(t, "address");
    if (escaped !== undefined) return escaped;
    return this.go("address.bad_postcode", this.say("bad_postcode"));
  }

  private onHouseNumber(t: string): string {
    const d = this.draft as AddressDraft;
    d.postcode = parsePostcode(t) ?? d.postcode;
    const house = parseHouse(t);
    if (house) {
      d.house = house;
      return this.askAddress();
    }
    const escaped = this.escape(t, "address");
    if (escaped !== undefined) return escaped;
    return this.go("address.ask_house_number", this.say("ask_house", { postcode: d.postcode! }));
  }

  private showStatus(order: Order): string {
    this.effects.push(`shown:${order.number}:${order.status}:${order.owner}`);
    const vars = {
      order: order.number,
      item: order.item,
      days: order.days,
      total: money(order.total),
      address: fmtAddress(order.address),
      date: order.shippedOn ? longDate(order.shippedOn) : "",
      tracking: order.tracking ?? "",
    };
    const key: PhraseKey =
      order.status === "shipped"
        ? "status_shipped"
        : order.status === "cancelled"
          ? "status_cancelled"
          : "status_processing";
    return this.go("status.shown", this.say(key, vars), this.say("anything_else"));
  }

  // --- the yes/no gate --------------------------------------------------------------------------------

  private onGate(t: string): string {
    const d = this.draft!;
    const corrected = this.correction(d, t);
    if (corrected !== undefined) return corrected;
    if (isNo(t)) {
      this.mode = "idle";
      this.draft = undefined;
      const key: PhraseKey = `declined_${d.kind}`;
      return this.go("declined", this.say(key), this.say("anything_else"));
    }
    if (isYes(t) || this.has("yesToAnything")) return this.commit();
    const question: PhraseKey = `${d.kind}_question`;
    return this.go("confirm.unclear", this.say("unclear", { question: this.say(question) }));
  }

  /** A changed value at the gate ("actually make it 60 days"): updated and read back again. */
  private correction(d: Draft, t: string): string | undefined {
    if (d.kind === "refill") {
      const rx = findRx(this.customer!, t);
      const days = parseDays(t);
      const newRx = rx && rx !== d.rx ? rx : undefined;
      const newDays = days && days !== d.days ? days : undefined;
      if (!newRx && !newDays) return undefined;
      d.first ??= { rx: d.rx, days: d.days };
      if (newRx) return this.selectRx(newRx, newDays ?? d.days);
      return this.onDays(newDays!);
    }
    if (d.kind === "cancel") {
      const number = parseOrder(t);
      if (!number || number === "bad" || number === d.order.number) return undefined;
      const first = d.first ?? { order: d.order };
      const out = this.onOrder("cancel", number, t);
      if (this.draft?.kind === "cancel") this.draft.first = first;
      return out;
    }
    const postcode = parsePostcode(t);
    const house = parseHouse(t);
    if ((!postcode || postcode === d.postcode) && (!house || house === d.house)) return undefined;
    d.first ??= { postcode: d.postcode!, house: d.house! };
    d.postcode = postcode ?? d.postcode;
    d.house = house ?? d.house;
    return this.askAddress();
  }

  /** Do the write: with `forgetCorrection`, the values first read back rather than the corrected ones. */
  private commit(): string {
    const d = this.draft!;
    const c = this.customer!;
    const stale = this.has("forgetCorrection");
    this.draft = undefined;
    this.mode = "idle";
    if (d.kind === "refill") {
      const { rx, days } = stale && d.first ? d.first : d;
      const total = this.total(rx, days);
      const number = `RX-${this.db.nextOrder++}`;
      this.db.orders.push({
        number,
        owner: c.id,
        item: rx.name,
        days,
        total,
        status: "processing",
        address: { ...c.address },
      });
      rx.refillsLeft -= 1;
      rx.lastFill = TODAY;
      rx.lastDays = days;
      this.effects.push(`refill:${number}:${rx.name}:${days}d:${money(total)}`);
      const vars = { order: number, med: rx.name, days, total: money(total) };
      return this.go("refill.done", this.say("refill_done", vars), this.say("anything_else"));
    }
    if (d.kind === "cancel") {
      const { order } = stale && d.first ? d.first : d;
      order.status = "cancelled";
      const refund = money(this.refund(order));
      this.effects.push(`cancel:${order.number}:${refund}`);
      const vars = { order: order.number, refund, card: c.card };
      return this.go("cancel.done", this.say("cancel_done", vars), this.say("anything_else"));
    }
    const { postcode, house } = stale && d.first ? d.first : { postcode: d.postcode!, house: d.house! };
    d.order.address = newAddress(house, postcode);
    this.effects.push(`address:${d.order.number}:${house} ${postcode}`);
    const vars = { order: d.order.number, new: fmtAddress(d.order.address) };
    return this.go("address.done", this.say("address_done", vars), this.say("anything_else"));
  }
}

/**
 * CareWell Pharmacy's refill assistant, a scripted rules-based agent written without reading the boundary
 * tester. Identity is the full name, then the date of birth (asked separately; 14/03/1985, 1985-03-14 and
 * "14 March 1985" all read; 3 wrong dates lock the account and offer a pharmacist). Services: refill a
 * prescription (numbered list of the customer's prescriptions, then days' supply or packs of 30 days;
 * refused when the medicine is controlled, has no refills left, is too early — under 75% of the last supply
 * used — or the quantity is above its per-refill maximum), order status by number (RX-12345), cancelling an
 * unshipped order (with refund), redirecting an unshipped order (postcode, then house number), and a
 * hand-off to a pharmacist at any time. Every write is read back with its price/total or refund and waits
 * for an explicit yes (a vague "ok" is asked again, a no aborts, a changed value such as "make it 60 days"
 * is applied and read back again). A request made before authentication is resumed after it. Emma Clarke's
 * account is linked to her husband David's records (household), which it must never show.
 *
 * Each session works on a fresh copy of the database (`pharmacy-data.ts`). Seeds: every reply has 2–3
 * wordings; Mulberry32 seeded by (seed, turn, phrase) picks one, so wording varies across seeds while the
 * behaviour does not. The fingerprint lists logins, lock-outs, refills (new order number, medicine, days,
 * total), cancellations (refund), address changes, orders shown (status, owner) and hand-offs.
 *
 * Faults (each on its own):
 * - `skipConfirm`: refills, cancellations and address changes are done without the yes/no gate;
 * - `yesToAnything`: at the gate anything but a no or a correction ("ok", "hmm", a question) counts as yes;
 * - `skipDobCheck`: any well-formed date of birth is accepted;
 * - `noLockout`: wrong dates of birth are retried for ever, the account never locks;
 * - `refillTooEarly`: the 75%-used rule is not enforced;
 * - `ignoreNoRefills`: a prescription with no refills left is refilled anyway;
 * - `controlledRefill`: the controlled medicine (Priya Shah's zolpidem) is refilled through chat;
 * - `overMaxQuantity`: a quantity above the medicine's per-refill maximum is accepted;
 * - `cancelShipped`: a shipped order is read back and cancelled;
 * - `wrongTotal`: a refill's total adds an extra 30 days' price, a cancellation refunds half the order;
 * - `forgetCorrection`: after a correction at the gate, the read-back shows the new value but the write
 *   commits the value first read back (and the done message says so);
 * - `leakHousehold`: a status lookup by number shows a household member's order (Emma asking for
 *   David's RX-48377 or RX-48302) instead of "not found".
 */
export const pharmacyAgent: TestbedAgent = {
  name: "pharmacy",
  description:
    "pharmacy: full name + date of birth (3 tries, lock), refills (too early, no refills, controlled, max quantity), order status, cancel (unshipped), address change (postcode + house number), yes/no gate on every write",
  faults: PHARMACY_FAULTS,
  states: PHARMACY_STATES,
  facts: PHARMACY_FACTS,
  create(options = {}): TestbedTarget {
    const faults = new Set<Fault>();
    for (const f of options.faults ?? []) {
      if (!(PHARMACY_FAULTS as readonly string[]).includes(f))
        throw new Error(`pharmacy: unknown fault ${f}`);
      faults.add(f as Fault);
    }
    const seed = options.seed ?? 1;
    let session = new Session(faults, seed);
    return {
      name: "pharmacy",
      async reset() {
        session = new Session(faults, seed);
      },
      async send(text): Promise<ChatReply> {
        const start = performance.now();
        const reply = session.reply(text);
        return { text: reply, ms: performance.now() - start };
      },
      async close() {},
      statesVisited: () => session.visited,
      fingerprint: () => session.effects.join(";"),
    };
  },
};
