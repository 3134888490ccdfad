import type { ChatReply } from "../../src/agents/chat/target.ts";
import { Facts } from "../../src/boundary/types.ts";
import {
  type Account,
  type Booking,
  BRANCHES,
  COURTESY_DAY_RATE,
  COURTESY_FULLY_BOOKED,
  COURTESY_MAX_DAYS,
  COURTESY_MIN_AGE,
  type GarageDb,
  type Invoice,
  LATE_CANCEL_FEE,
  LATE_CANCEL_HOURS,
  MAX_AUTH_FAILURES,
  MIN_PART_PAYMENT,
  MOVE_CUTOFF_HOURS,
  NOW,
  PERSONAS,
  type Quote,
  REQUESTS,
  type RepairJob,
  SEED_DB,
  SERVICE_LABEL,
  SERVICE_PRICE,
  type ServiceType,
  TODAY,
  WARRANTY_MILES,
  WARRANTY_MONTHS,
  WORDING,
} from "./heldout20-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * `heldout20`: "Dot", the chat helper of Cogley & Daughters garages (servicing, MOTs, repairs). Sign-in is a
 * registration number, then the account postcode, then a texted one-time code; three failures (sign-in or the
 * memorable-word re-check before contact changes) lock the account and hand off to a service advisor.
 */

export const HELDOUT20_STATES = [
  "main.greeting",
  "main.help",
  "main.fallback",
  "main.goodbye",
  "main.thanks",
  "main.nothing_pending",
  "info.hours",
  "info.prices",
  "info.mot_scope",
  "info.courtesy_rules",
  "info.warranty_policy",
  "info.cancel_policy",
  "info.payment_methods",
  "info.branches",
  "auth.ask_registration",
  "auth.ask_postcode",
  "auth.details_mismatch",
  "auth.ask_code",
  "auth.bad_code",
  "auth.locked",
  "auth.signed_in",
  "auth.signed_out",
  "auth.reverify_ask_word",
  "auth.reverify_failed",
  "auth.reverify_ok",
  "handoff.ask_reason",
  "handoff.done",
  "bookings.list",
  "book.choose_type",
  "book.refused_mot_not_due",
  "book.refused_duplicate",
  "book.choose_slot",
  "book.confirm",
  "book.done",
  "book.cancelled",
  "move.ask_ref",
  "move.not_found",
  "move.refused_not_yours",
  "move.refused_status",
  "move.refused_too_late",
  "move.choose_slot",
  "move.confirm",
  "move.done",
  "move.cancelled",
  "cancel.ask_ref",
  "cancel.not_found",
  "cancel.refused_not_yours",
  "cancel.refused_status",
  "cancel.confirm_word",
  "cancel.wrong_word",
  "cancel.done",
  "cancel.kept",
  "quote.ask_ref",
  "quote.not_found",
  "quote.refused_not_yours",
  "quote.refused_decided",
  "quote.refused_expired",
  "quote.choose_option",
  "quote.pick_lines",
  "quote.confirm",
  "quote.done",
  "quote.abandoned",
  "courtesy.refused_age",
  "courtesy.ask_booking",
  "courtesy.not_found",
  "courtesy.refused_not_yours",
  "courtesy.refused_status",
  "courtesy.refused_mot_only",
  "courtesy.refused_no_cars",
  "courtesy.refused_already",
  "courtesy.ask_days",
  "courtesy.refused_too_many_days",
  "courtesy.confirm",
  "courtesy.done",
  "courtesy.cancelled",
  "pay.ask_invoice",
  "pay.not_found",
  "pay.refused_not_yours",
  "pay.refused_paid",
  "pay.ask_amount",
  "pay.refused_amount",
  "pay.confirm_amount",
  "pay.mismatch",
  "pay.done",
  "pay.cancelled",
  "warranty.ask_job",
  "warranty.not_found",
  "warranty.refused_not_yours",
  "warranty.refused_expired",
  "warranty.refused_mileage",
  "warranty.ask_fault",
  "warranty.confirm",
  "warranty.done",
  "warranty.cancelled",
  "mileage.ask",
  "mileage.refused_lower",
  "mileage.confirm",
  "mileage.done",
  "mileage.cancelled",
  "contact.ask_mobile",
  "contact.invalid",
  "contact.retype",
  "contact.mismatch",
  "contact.done",
  "contact.cancelled",
] as const;
export type Heldout20State = (typeof HELDOUT20_STATES)[number];

export const HELDOUT20_FAULTS = [
  "quote_no_auth",
  "contact_no_reverify",
  "cancel_skips_word",
  "courtesy_no_day_cap",
  "courtesy_age_ignored",
  "no_lockout",
  "invoice_any_owner",
  "move_inside_24h",
  "warranty_ignores_mileage",
  "mot_young_car_allowed",
  "quote_total_all_lines",
  "late_fee_doubled",
  "mileage_keeps_first",
  "contact_write_swapped",
  "booking_date_shift",
  "invoice_total_as_balance",
  "quote_status_flipped",
] as const;
export type Heldout20Fault = (typeof HELDOUT20_FAULTS)[number];

type Intent =
  | "greet"
  | "help"
  | "thanks"
  | "bye"
  | "signin"
  | "signout"
  | "handoff"
  | "info_hours"
  | "info_prices"
  | "info_mot"
  | "info_courtesy"
  | "info_warranty"
  | "info_cancel"
  | "info_payment"
  | "info_branches"
  | "bookings"
  | "book"
  | "move"
  | "cancel"
  | "quote"
  | "courtesy"
  | "pay"
  | "warranty"
  | "mileage"
  | "contact";

type FlowKind =
  | "auth"
  | "reverify"
  | "handoff"
  | "book"
  | "move"
  | "cancel"
  | "quote"
  | "courtesy"
  | "pay"
  | "warranty"
  | "mileage"
  | "contact";

interface Flow {
  kind: FlowKind;
  step: string;
  ref?: string;
  reg?: string;
  type?: ServiceType;
  slots?: string[];
  slot?: string;
  lines?: number[];
  days?: number;
  amount?: number;
  miles?: number;
  mobile?: string;
  fault?: string;
  fee?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Small parsing and formatting helpers.

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function stamp(iso: string): number {
  return Date.parse(`${iso.length === 10 ? `${iso}T00:00` : iso}:00Z`);
}

function fmtDate(iso: string): string {
  const d = new Date(stamp(iso));
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function fmtWhen(iso: string): string {
  const d = new Date(stamp(iso));
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const hh = h % 12 === 0 ? 12 : h % 12;
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${hh}:${String(m).padStart(2, "0")}${h < 12 ? "am" : "pm"}`;
}

function shiftDay(iso: string, days: number): string {
  const d = new Date(stamp(iso) + days * 86_400_000);
  return d.toISOString().slice(0, iso.length);
}

function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const yy = y + Math.floor(m / 12);
  const mm = (m % 12) + 1;
  return `${yy}-${String(mm).padStart(2, "0")}-${date.slice(8, 10)}`;
}

function hoursUntil(iso: string): number {
  return (stamp(iso) - stamp(NOW)) / 3_600_000;
}

function money(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

function miles(n: number): string {
  return n.toLocaleString("en-GB");
}

function showReg(reg: string): string {
  return reg.length === 7 ? `${reg.slice(0, 4)} ${reg.slice(4)}` : reg;
}

function aType(type: ServiceType): string {
  const label = SERVICE_LABEL[type];
  return `${/^[aeiou]|^mot/i.test(label) ? "an" : "a"} ${label}`;
}

function showMobile(m: string): string {
  return `${m.slice(0, 5)} ${m.slice(5, 8)} ${m.slice(8)}`;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function findReg(text: string): string | undefined {
  const m = /\b([a-z]{2}\d{2})\s?([a-z]{3})\b/i.exec(text);
  return m ? `${m[1]}${m[2]}`.toUpperCase() : undefined;
}

function findPostcode(text: string): string | undefined {
  const m = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i.exec(text);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : undefined;
}

function findCode(text: string): string | undefined {
  const m = /(?<![\d])(\d{3})[\s-]?(\d{3})(?![\d])/.exec(text);
  return m ? `${m[1]}${m[2]}` : undefined;
}

function findRef(text: string, prefix: string, digits: number): string | undefined {
  const tagged = new RegExp(`\\b${prefix}[\\s-]?(\\d{${digits}})\\b`, "i").exec(text);
  if (tagged) return `${prefix.toUpperCase()}-${tagged[1]}`;
  const bare = new RegExp(`^\\s*#?(\\d{${digits}})\\s*\\.?\\s*$`).exec(text);
  return bare ? `${prefix.toUpperCase()}-${bare[1]}` : undefined;
}

/** A whole number (commas and a `k` suffix allowed) or undefined. */
function findNumber(text: string): number | undefined {
  const m = /(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*(k\b)?/i.exec(text);
  if (!m?.[1]) return undefined;
  const n = Number(m[1].replace(/,/g, ""));
  return m[2] ? n * 1000 : n;
}

/** An amount of money in pence, or undefined. */
function findAmount(text: string): number | undefined {
  const m = /£?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?/.exec(text);
  if (!m?.[1]) return undefined;
  const pounds = Number(m[1].replace(/,/g, ""));
  const pence = m[2] ? Number(m[2].padEnd(2, "0")) : 0;
  return pounds * 100 + pence;
}

function findMobile(text: string): string | undefined {
  const digits = text.replace(/[\s\-().]/g, "");
  const m = /(?:\+44|0044|0)(7\d{9})(?!\d)/.exec(digits);
  return m ? `0${m[1]}` : undefined;
}

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};

function findChoice(text: string, max: number): number | undefined {
  const t = text.toLowerCase();
  for (const [word, n] of Object.entries(ORDINALS)) {
    if (new RegExp(`\\b${word}\\b`).test(t) && n <= max) return n;
  }
  if (/\blast\b/.test(t)) return max;
  const m = /(?<![\d:.])([1-9])(?![\d:])/.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n >= 1 && n <= max) return n;
  }
  return undefined;
}

const YES =
  /^\s*(y|yes|yeah|yea|yep|yup|sure|ok|okay|go ahead|go for it|do it|please do|confirm(ed)?|correct|that'?s (right|correct|fine|it)|sounds good|absolutely|definitely|lovely|perfect|great|fine|please)\b/i;
const NO = /^\s*(n|no|nope|nah|not really|don'?t|do not|wrong|that'?s wrong|incorrect|negative)\b/i;
const ABORT =
  /^\s*(cancel( that| it| this)?|stop|never ?mind|forget (it|that|about it)|abort|quit|leave it|scrap that|start over|no thanks|not now|exit)\s*[.!]*\s*$/i;

function isYes(t: string): boolean {
  return YES.test(t) && !NO.test(t);
}

function isNo(t: string): boolean {
  return NO.test(t);
}

function detectIntent(raw: string): Intent | undefined {
  const t = raw.toLowerCase();
  if (
    /\b(human|real person|a person|someone real|service advis[eo]rs?|advis[eo]r|agent|operator|call me back|speak to someone|talk to someone|complain|complaint|manager)\b/.test(
      t,
    )
  )
    return "handoff";
  if (/\b(sign|log)\s?(out|off)\b/.test(t)) return "signout";
  if (/\b(sign|log)\s?in\b|\blogin\b/.test(t)) return "signin";
  if (
    /\bcancell?(ation|ing)?\b.*\b(polic(y|ies)|fee|fees|charge|charges|rules?|terms)\b|\b(fee|charge|penalty)\b.*\bcancel/.test(
      t,
    ) &&
    !/\bmy\b.*\b(booking|appointment|service|mot)\b|\bbk[\s-]?\d/.test(t)
  )
    return "info_cancel";
  if (/\b(courtesy|loan|hire|replacement|spare|courtesey)\s+(car|cars|vehicle|vehicles)\b/.test(t)) {
    if (
      /\b(rules?|polic(y|ies)|who (can|gets)|eligib\w*|criteria|how (does|do|much)|do you (offer|provide|do|have|give)|is there|are there|requirements?|cost)\b/.test(
        t,
      )
    )
      return "info_courtesy";
    return "courtesy";
  }
  if (/\bwarrant(y|ies|ee)\b|\bguarantee\b/.test(t)) {
    if (
      /\b(claim|make|raise|log|register|start|open|put in|faulty|broken|again|failed|problem|issue|slipping)\b/.test(
        t,
      )
    )
      return "warranty";
    return "info_warranty";
  }
  if (
    /\b(came back|come back|coming back|same (problem|fault|issue|noise)|still (broken|faulty|not right|making)|(problem|fault|issue|noise) is back|again (since|after)|since you (fixed|replaced|repaired|did))\b/.test(
      t,
    )
  )
    return "warranty";
  if (
    /\b(pay (by|with|using|on) (card|cash|apple|google|transfer|credit|debit|finance|amex)|payment (methods?|options)|do you (take|accept)|accept (cards?|cash|amex)|apple pay|google pay|klarna|finance|pay monthly|instal?ments?|spread the cost)\b/.test(
      t,
    )
  )
    return "info_payment";
  if (
    /\bmot\b/.test(t) &&
    /\b(cover|covers|covered|check|checks|checked|include|includes|involve|involves|look at|inspect|what('?s| is) (an|the|a) mot|what happens|fail|pass|how long)\b/.test(
      t,
    ) &&
    !/\b(book|move|cancel|reschedul\w*|my mot)\b/.test(t)
  )
    return "info_mot";
  if (
    /\b(move|moving|reschedul\w*|rearrang\w*|change|switch|push (it )?back|bring (it )?forward|different (day|date|time)|another (day|date|time)|later date|earlier date)\b/.test(
      t,
    ) &&
    /\b(booking|appointment|slot|service|mot|date|time|day|bk[\s-]?\d+)\b/.test(t) &&
    !/\b(mobile|phone|number|details|mileage|miles|email|address)\b/.test(
      t.replace(/\bbooking number\b/g, "booking"),
    )
  )
    return "move";
  if (/\bcancel\w*\b/.test(t) && /\b(booking|appointment|slot|service|mot|bk[\s-]?\d+)\b/.test(t))
    return "cancel";
  if (
    /\b(quote|quotes|quotation|q[\s-]?\d{4}|extra work|additional work|further work|the work (you|the mechanic|they) found|mechanic (found|rang|called|phoned)|workshop (found|rang|called)|approve|authori[sz]e|go ahead with)\b/.test(
      t,
    )
  )
    return "quote";
  if (/\b(pay|paying|payment|invoice|invoices|inv[\s-]?\d+|balance|bill|owe|outstanding|settle)\b/.test(t))
    return "pay";
  if (
    /\b(my bookings?|my appointments?|booked in|what('?s| is)? booked|booking status|status of my|check (on )?my (booking|appointment|service|mot)|when('?s| is) my|upcoming|what have i got|see my bookings?|list)\b/.test(
      t,
    )
  )
    return "bookings";
  if (/\b(how much|price|prices|pricing|cost|costs|fees?|charge)\b/.test(t)) return "info_prices";
  if (/\b(mileage|odometer|miles|milage)\b/.test(t)) return "mileage";
  if (
    /\b(your|garage|branch)\b.*\b(phone|number|address)\b|\b(where are you|branches|branch|locations?|address|near me|directions|garages|postcode for)\b/.test(
      t,
    ) &&
    !/\bmy (address|number|phone)\b/.test(t)
  )
    return "info_branches";
  if (
    /\b(mobile|phone number|my number|number has changed|number changed|new number|new phone|contact details|my details|owner details|update my (details|number|phone))\b/.test(
      t,
    )
  )
    return "contact";
  if (
    /\bbook\b|\bbooking (in|for|a|an)\b|\b(schedule|arrange|get)\b.*\b(service|mot)\b|\b(need|want|due|like|needs)\b.*\b(service|mot|servicing)\b|\bservicing\b/.test(
      t,
    )
  )
    return "book";
  if (
    /\b(open|opening|hours|close|closing|closed|shut|weekend|saturday|sunday|bank holiday|what time)\b/.test(
      t,
    )
  )
    return "info_hours";
  if (
    /\b(bye|goodbye|see (you|ya)|that'?s all|that is all|nothing else|all done|that'?s everything)\b/.test(t)
  )
    return "bye";
  if (/\b(thanks|thank you|cheers|ta|much appreciated|thx)\b/.test(t)) return "thanks";
  if (/\b(help|what can you do|options|menu|what do you do|services do you|what can i)\b/.test(t))
    return "help";
  if (/^\s*(hi|hello|hey|hiya|howdy|good (morning|afternoon|evening)|morning|afternoon|evening|yo)\b/.test(t))
    return "greet";
  if (/\bmot\b/.test(t)) return "info_mot";
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------

class DotSession implements TestbedTarget {
  readonly name = "heldout20:dot";
  private readonly faults: ReadonlySet<Heldout20Fault>;
  private readonly seed: number;
  private db: GarageDb = structuredClone(SEED_DB);
  private visited: Heldout20State[] = [];
  private log: string[] = [];
  private flow: Flow | undefined;
  private user: Account | undefined;
  private pending: { intent: Intent; text: string } | undefined;
  private failures = 0;
  private locked = false;
  private lockRef = "";
  private reverified = false;
  private counter = 0;

  constructor(faults: readonly string[], seed: number) {
    for (const f of faults) {
      if (!(HELDOUT20_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout20: unknown fault ${f}`);
    }
    this.faults = new Set(faults as readonly Heldout20Fault[]);
    this.seed = Number.isFinite(seed) ? Math.abs(Math.trunc(seed)) : 1;
  }

  async reset(): Promise<void> {
    this.db = structuredClone(SEED_DB);
    this.visited = [];
    this.log = [];
    this.flow = undefined;
    this.user = undefined;
    this.pending = undefined;
    this.failures = 0;
    this.locked = false;
    this.lockRef = "";
    this.reverified = false;
    this.counter = 0;
  }

  async send(text: string): Promise<ChatReply> {
    const started = Date.now();
    let reply: string;
    try {
      reply = this.turn(String(text ?? ""));
    } catch {
      reply = this.say("fallback");
      this.enter("main.fallback");
    }
    return { text: reply, ms: Date.now() - started };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.log.join("\n");
  }

  // -------------------------------------------------------------------------------------------------------

  private on(f: Heldout20Fault): boolean {
    return this.faults.has(f);
  }

  private enter(s: Heldout20State): void {
    this.visited.push(s);
  }

  private say(key: string, vars: Record<string, string | number> = {}): string {
    const variants = WORDING[key];
    if (!variants || variants.length === 0) return key;
    const text = variants[(this.seed + hash(key)) % variants.length] ?? variants[0] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name: string) => (name in vars ? String(vars[name]) : `{${name}}`));
  }

  private nextRef(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${5100 + this.counter}`;
  }

  private write(entry: string): void {
    this.log.push(`W ${entry}`);
  }

  private relay(entry: string): void {
    this.log.push(`R ${entry}`);
  }

  private lines(...parts: string[]): string {
    return parts.filter((p) => p.length > 0).join(" ");
  }

  // -------------------------------------------------------------------------------------------------------

  private turn(text: string): string {
    const t = text.trim();
    if (t.length === 0) {
      if (this.flow) return this.reprompt(this.flow);
      this.enter("main.fallback");
      return this.say("fallback");
    }
    const intent = detectIntent(t);
    const flow = this.flow;

    if (flow) {
      if (flow.kind !== "handoff" && intent === "handoff") {
        this.flow = undefined;
        return this.startIntent("handoff", t);
      }
      if (intent === "bye" && !/\d/.test(t)) {
        this.flow = undefined;
        this.enter("main.goodbye");
        return this.say("goodbye");
      }
      if (ABORT.test(t)) return this.abort(flow);
      const reply = this.step(flow, t);
      if (reply !== undefined) return reply;
      if (intent && intent !== "greet" && intent !== "thanks" && intent !== flow.kind) {
        this.flow = undefined;
        if (flow.kind === "auth" && intent !== "signin") this.pending = undefined;
        return this.startIntent(intent, t);
      }
      return this.lines(this.say("not_following"), this.reprompt(flow));
    }

    if (ABORT.test(t)) {
      this.enter("main.nothing_pending");
      return this.say("nothing_pending");
    }
    if (!intent && findReg(t) && !this.user && !this.locked) return this.beginAuth(t, "auth_start");
    if (!intent) {
      this.enter("main.fallback");
      return this.say("fallback");
    }
    return this.startIntent(intent, t);
  }

  private startIntent(intent: Intent, text: string): string {
    switch (intent) {
      case "greet":
        this.enter("main.greeting");
        return this.say("greeting");
      case "help":
        this.enter("main.help");
        return this.say("help");
      case "thanks":
        this.enter("main.thanks");
        return this.say("thanks");
      case "bye":
        this.enter("main.goodbye");
        return this.say("goodbye");
      case "handoff":
        this.flow = { kind: "handoff", step: "reason" };
        this.enter("handoff.ask_reason");
        return this.say("handoff_ask");
      case "info_hours":
        this.enter("info.hours");
        return this.say("info_hours");
      case "info_prices":
        this.enter("info.prices");
        return this.say("info_prices", {
          mot: money(SERVICE_PRICE.mot),
          interim: money(SERVICE_PRICE.interim),
          full: money(SERVICE_PRICE.full),
          major: money(SERVICE_PRICE.major),
        });
      case "info_mot":
        this.enter("info.mot_scope");
        return this.say("info_mot");
      case "info_courtesy":
        this.enter("info.courtesy_rules");
        return this.say("info_courtesy", {
          age: COURTESY_MIN_AGE,
          max: COURTESY_MAX_DAYS,
          rate: money(COURTESY_DAY_RATE),
        });
      case "info_warranty":
        this.enter("info.warranty_policy");
        return this.say("info_warranty", { months: WARRANTY_MONTHS, miles: miles(WARRANTY_MILES) });
      case "info_cancel":
        this.enter("info.cancel_policy");
        return this.say("info_cancel", {
          hours: LATE_CANCEL_HOURS,
          fee: money(LATE_CANCEL_FEE),
          cutoff: MOVE_CUTOFF_HOURS,
        });
      case "info_payment":
        this.enter("info.payment_methods");
        return this.say("info_payment");
      case "info_branches":
        this.enter("info.branches");
        return this.say("info_branches", {
          kirkstall: BRANCHES.kirkstall.address,
          fallowfield: BRANCHES.fallowfield.address,
          horfield: BRANCHES.horfield.address,
        });
      case "signin":
        if (this.locked) return this.lockedReply();
        if (this.user) {
          this.enter("auth.signed_in");
          return this.say("auth_already", { first: this.user.firstName });
        }
        return this.beginAuth(text, "auth_start");
      case "signout":
        if (!this.user) {
          this.enter("main.help");
          return this.lines(this.say("not_signed_in"), this.say("anything_else"));
        }
        {
          const first = this.user.firstName;
          this.user = undefined;
          this.reverified = false;
          this.enter("auth.signed_out");
          return this.say("auth_signed_out", { first });
        }
      default:
        return this.startAccount(intent, text);
    }
  }

  private lockedReply(): string {
    this.enter("auth.locked");
    return this.say("auth_still_locked", { ref: this.lockRef });
  }

  private startAccount(intent: Intent, text: string): string {
    const needsAuth = !(intent === "quote" && this.on("quote_no_auth"));
    if (needsAuth && this.locked) return this.lockedReply();
    if (needsAuth && !this.user) {
      this.pending = { intent, text };
      return this.beginAuth(text, "auth_needed");
    }
    const user = this.user;
    switch (intent) {
      case "bookings":
        return this.listBookings();
      case "book":
        return this.startBook(text);
      case "move":
        return this.startRefFlow("move", text);
      case "cancel":
        return this.startRefFlow("cancel", text);
      case "quote": {
        this.flow = { kind: "quote", step: "ref" };
        const ref = findRef(text, "q", 4);
        if (ref) return this.quoteRef(this.flow, ref);
        this.enter("quote.ask_ref");
        return this.say("quote_ask_ref");
      }
      case "courtesy": {
        if (user && user.driverAge < COURTESY_MIN_AGE && !this.on("courtesy_age_ignored")) {
          this.enter("courtesy.refused_age");
          return this.lines(
            this.say("courtesy_refused_age", { first: user.firstName, age: COURTESY_MIN_AGE }),
            this.say("anything_else"),
          );
        }
        return this.startRefFlow("courtesy", text);
      }
      case "pay": {
        this.flow = { kind: "pay", step: "invoice" };
        const ref = findRef(text, "inv", 5);
        if (ref) return this.payInvoice(this.flow, ref);
        this.enter("pay.ask_invoice");
        return this.say("pay_ask_invoice");
      }
      case "warranty": {
        this.flow = { kind: "warranty", step: "job" };
        const ref = findRef(text, "job", 4);
        if (ref) return this.warrantyJob(this.flow, ref);
        this.enter("warranty.ask_job");
        return this.say("warranty_ask_job");
      }
      case "mileage": {
        this.flow = { kind: "mileage", step: "ask" };
        const n = findNumber(text);
        if (n !== undefined && n >= 100) return this.mileageValue(this.flow, n);
        this.enter("mileage.ask");
        return this.say("mileage_ask", { current: miles(user?.mileage ?? 0) });
      }
      case "contact":
        return this.startContact();
      default:
        this.enter("main.fallback");
        return this.say("fallback");
    }
  }

  // ---- authentication ----------------------------------------------------------------------------------

  private beginAuth(text: string, opener: string): string {
    this.flow = { kind: "auth", step: "reg" };
    const reg = findReg(text);
    if (reg) return this.authReg(this.flow, text, reg);
    this.enter("auth.ask_registration");
    return this.say(opener);
  }

  private authReg(flow: Flow, text: string, reg: string): string {
    flow.reg = reg;
    flow.step = "postcode";
    const rest = text.replace(/\b([a-z]{2}\d{2})\s?([a-z]{3})\b/i, " ");
    const pc = findPostcode(rest);
    if (pc) return this.authPostcode(flow, pc);
    this.enter("auth.ask_postcode");
    return this.say("auth_ask_postcode", { reg: showReg(reg) });
  }

  private authFailure(): boolean {
    this.failures += 1;
    if (this.on("no_lockout") || this.failures < MAX_AUTH_FAILURES) return false;
    this.locked = true;
    this.flow = undefined;
    this.pending = undefined;
    this.user = undefined;
    this.lockRef = this.nextRef("HO");
    this.write(`lockout handoff ${this.lockRef}`);
    this.enter("auth.locked");
    return true;
  }

  private attemptsLeft(): number {
    return Math.max(1, MAX_AUTH_FAILURES - this.failures);
  }

  private authPostcode(flow: Flow, pc: string): string {
    const account = this.db.accounts.find((a) => a.reg === flow.reg && a.postcode === pc);
    if (!account) {
      const reg = showReg(flow.reg ?? "");
      if (this.authFailure()) return this.say("auth_locked", { ref: this.lockRef });
      flow.step = "reg";
      flow.reg = undefined;
      this.enter("auth.details_mismatch");
      return this.say("auth_mismatch", { reg, left: this.attemptsLeft() });
    }
    flow.step = "code";
    flow.ref = account.id;
    this.enter("auth.ask_code");
    return this.say("auth_ask_code", { last4: account.mobile.slice(-4) });
  }

  private authCode(flow: Flow, code: string): string {
    const account = this.db.accounts.find((a) => a.id === flow.ref);
    if (!account) return this.abort(flow);
    if (code !== account.code) {
      if (this.authFailure()) return this.say("auth_locked", { ref: this.lockRef });
      this.enter("auth.bad_code");
      return this.say("auth_bad_code", { left: this.attemptsLeft() });
    }
    this.user = account;
    this.flow = undefined;
    this.enter("auth.signed_in");
    const hello = this.say("auth_signed_in", { first: account.firstName, vehicle: account.vehicle });
    const pending = this.pending;
    this.pending = undefined;
    if (pending) return this.lines(hello, this.startAccount(pending.intent, pending.text));
    return this.lines(hello, this.say("auth_signed_in_next"));
  }

  private stepAuth(flow: Flow, t: string): string | undefined {
    if (flow.step === "reg") {
      const reg = findReg(t);
      if (reg) return this.authReg(flow, t, reg);
      if (detectIntent(t)) return undefined;
      this.enter("auth.ask_registration");
      return this.say("auth_reg_unclear");
    }
    if (flow.step === "postcode") {
      const pc = findPostcode(t);
      if (pc) return this.authPostcode(flow, pc);
      const reg = findReg(t);
      if (reg) return this.authReg(flow, t, reg);
      if (detectIntent(t)) return undefined;
      this.enter("auth.ask_postcode");
      return this.say("auth_postcode_unclear");
    }
    const code = findCode(t);
    if (code) return this.authCode(flow, code);
    const account = this.db.accounts.find((a) => a.id === flow.ref);
    if (
      /\b(resend|re-send|send (it )?again|didn'?t (get|receive)|not (got|received)|no (code|text))\b/i.test(t)
    ) {
      this.enter("auth.ask_code");
      return this.say("auth_code_resent", { last4: account?.mobile.slice(-4) ?? "" });
    }
    if (/\d/.test(t)) {
      if (this.authFailure()) return this.say("auth_locked", { ref: this.lockRef });
      this.enter("auth.bad_code");
      return this.say("auth_bad_code", { left: this.attemptsLeft() });
    }
    if (detectIntent(t)) return undefined;
    this.enter("auth.ask_code");
    return this.say("auth_code_unclear");
  }

  private startContact(): string {
    const user = this.user;
    if (!user) return this.say("fallback");
    if (!this.reverified && !this.on("contact_no_reverify")) {
      this.flow = { kind: "reverify", step: "word" };
      this.enter("auth.reverify_ask_word");
      return this.say("reverify_ask");
    }
    this.flow = { kind: "contact", step: "mobile" };
    this.enter("contact.ask_mobile");
    return this.say("contact_ask_mobile");
  }

  private stepReverify(t: string): string | undefined {
    const user = this.user;
    if (!user) return undefined;
    const word = t
      .toLowerCase()
      .replace(/^(it'?s|my memorable word is|the word is|memorable word:?)\s+/, "")
      .replace(/["'.!]/g, "")
      .trim();
    if (word === user.memorableWord) {
      this.reverified = true;
      this.enter("auth.reverify_ok");
      this.flow = { kind: "contact", step: "mobile" };
      this.enter("contact.ask_mobile");
      return this.lines(this.say("reverify_ok"), this.say("contact_ask_mobile"));
    }
    if (detectIntent(t) && word.split(/\s+/).length > 2) return undefined;
    if (this.authFailure()) return this.say("auth_locked", { ref: this.lockRef });
    this.enter("auth.reverify_failed");
    return this.say("reverify_failed", { left: this.attemptsLeft() });
  }

  // ---- bookings ------------------------------------------------------------------------------------------

  private shownWhen(when: string): string {
    return this.on("booking_date_shift") ? shiftDay(when, 1) : when;
  }

  private listBookings(): string {
    const user = this.user;
    if (!user) return this.say("fallback");
    const mine = this.db.bookings
      .filter((b) => b.accountId === user.id)
      .sort((a, b) => a.when.localeCompare(b.when));
    this.enter("bookings.list");
    if (mine.length === 0) return this.say("bookings_none", { reg: showReg(user.reg) });
    const rows = mine.map((b) => {
      const when = this.shownWhen(b.when);
      this.relay(`booking ${b.ref} ${b.type} ${when} ${b.status}`);
      const courtesy = b.courtesyDays ? `, courtesy car ${b.courtesyDays} day(s)` : "";
      return `${b.ref}: ${SERVICE_LABEL[b.type]}, ${fmtWhen(when)} at ${BRANCHES[b.branch].name} (${b.status}${courtesy})`;
    });
    return `${this.say("bookings_intro", { reg: showReg(user.reg) })} ${rows.join("; ")}. ${this.say("anything_else")}`;
  }

  private typeList(): Record<string, string> {
    return {
      mot: money(SERVICE_PRICE.mot),
      interim: money(SERVICE_PRICE.interim),
      full: money(SERVICE_PRICE.full),
      major: money(SERVICE_PRICE.major),
    };
  }

  private slotList(slots: readonly string[]): string {
    return slots.map((s, i) => `${i + 1}) ${fmtWhen(s)}`).join(", ");
  }

  private freeSlots(branch: keyof typeof BRANCHES, exclude?: string): string[] {
    const taken = new Set(
      this.db.bookings.filter((b) => b.status === "booked").map((b) => `${b.branch}|${b.when}`),
    );
    return BRANCHES[branch].slots.filter((s) => s !== exclude && !taken.has(`${branch}|${s}`));
  }

  private parseType(t: string): ServiceType | undefined {
    const s = t.toLowerCase();
    if (/\bmajor\b/.test(s) || /^\s*\(?d\)?\s*[.!]?\s*$/.test(s) || /\boption d\b/.test(s)) return "major";
    if (/\bfull\b/.test(s) || /^\s*\(?c\)?\s*[.!]?\s*$/.test(s) || /\boption c\b/.test(s)) return "full";
    if (/\binterim\b|\bbasic\b/.test(s) || /^\s*\(?b\)?\s*[.!]?\s*$/.test(s) || /\boption b\b/.test(s))
      return "interim";
    if (/\bmot\b/.test(s) || /^\s*\(?a\)?\s*[.!]?\s*$/.test(s) || /\boption a\b/.test(s)) return "mot";
    return undefined;
  }

  private startBook(text: string): string {
    this.flow = { kind: "book", step: "type" };
    const type = this.parseType(text);
    if (type && /\b(mot|interim|full|major|basic)\b/i.test(text)) return this.bookType(this.flow, type);
    this.enter("book.choose_type");
    return this.say("book_choose_type", this.typeList());
  }

  private bookType(flow: Flow, type: ServiceType): string {
    const user = this.user;
    if (!user) return this.abort(flow);
    if (type === "mot" && !this.on("mot_young_car_allowed")) {
      const due = addMonths(user.firstRegistered, 36);
      if (due > TODAY) {
        this.enter("book.refused_mot_not_due");
        this.enter("book.choose_type");
        return this.say("book_refused_mot", {
          vehicle: user.vehicle,
          reg_date: fmtDate(user.firstRegistered),
          due: fmtDate(due),
        });
      }
    }
    const dup = this.db.bookings.find(
      (b) => b.accountId === user.id && b.type === type && b.status === "booked",
    );
    if (dup) {
      this.enter("book.refused_duplicate");
      this.enter("book.choose_type");
      return this.say("book_refused_duplicate", {
        a_type: aType(type),
        when: fmtWhen(dup.when),
        ref: dup.ref,
      });
    }
    flow.type = type;
    flow.step = "slot";
    flow.slots = this.freeSlots(user.branch);
    this.enter("book.choose_slot");
    return this.say("book_choose_slot", {
      branch: BRANCHES[user.branch].name,
      slots: this.slotList(flow.slots),
    });
  }

  private bookConfirmText(flow: Flow): string {
    const user = this.user;
    const type = flow.type ?? "full";
    return this.say("book_confirm", {
      type: SERVICE_LABEL[type],
      a_type: aType(type),
      branch: BRANCHES[user?.branch ?? "kirkstall"].name,
      when: fmtWhen(flow.slot ?? ""),
      price: money(SERVICE_PRICE[type]),
    });
  }

  private stepBook(flow: Flow, t: string): string | undefined {
    const user = this.user;
    if (!user) return undefined;
    if (flow.step === "type") {
      const type = this.parseType(t);
      if (type) return this.bookType(flow, type);
      if (detectIntent(t)) return undefined;
      this.enter("book.choose_type");
      return this.say("book_type_unclear");
    }
    const slots = flow.slots ?? [];
    if (flow.step === "slot") {
      const n = findChoice(t, slots.length);
      if (n === undefined) {
        if (detectIntent(t)) return undefined;
        this.enter("book.choose_slot");
        return this.say("slot_unclear");
      }
      flow.slot = slots[n - 1];
      flow.step = "confirm";
      this.enter("book.confirm");
      return this.bookConfirmText(flow);
    }
    // confirm
    const n = findChoice(t, slots.length);
    if (isYes(t) && n === undefined) {
      const ref = this.nextRef("BK");
      const type = flow.type ?? "full";
      const when = flow.slot ?? "";
      this.db.bookings.push({ ref, accountId: user.id, type, when, branch: user.branch, status: "booked" });
      this.write(`booking.create ${ref} ${user.id} ${type} ${when}`);
      this.flow = undefined;
      this.enter("book.done");
      return this.lines(
        this.say("book_done", {
          type: SERVICE_LABEL[type],
          when: fmtWhen(when),
          branch: BRANCHES[user.branch].name,
          ref,
        }),
        this.say("anything_else"),
      );
    }
    if (n !== undefined && !isYes(t)) {
      flow.slot = slots[n - 1];
      this.enter("book.confirm");
      return this.bookConfirmText(flow);
    }
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t)) return undefined;
    this.enter("book.confirm");
    return this.lines(this.say("yesno_unclear"), this.bookConfirmText(flow));
  }

  /** The booking a ref names, or a refusal (not found / not yours). */
  private lookupBooking(flow: Flow, ref: string): Booking | string {
    const kind = flow.kind as "move" | "cancel" | "courtesy";
    const booking = this.db.bookings.find((b) => b.ref === ref);
    if (!booking) {
      this.enter(`${kind}.not_found`);
      this.enter(kind === "courtesy" ? "courtesy.ask_booking" : (`${kind}.ask_ref` as Heldout20State));
      return this.say("booking_not_found", { ref });
    }
    if (booking.accountId !== this.user?.id) {
      this.flow = undefined;
      this.enter(`${kind}.refused_not_yours`);
      return this.lines(this.say("booking_not_yours", { ref }), this.say("anything_else"));
    }
    return booking;
  }

  private startRefFlow(kind: "move" | "cancel" | "courtesy", text: string): string {
    this.flow = { kind, step: "ref" };
    const ref = findRef(text, "bk", 4);
    if (ref) return this.refGiven(this.flow, ref);
    if (kind === "courtesy") {
      this.enter("courtesy.ask_booking");
      return this.say("courtesy_ask_booking");
    }
    this.enter(`${kind}.ask_ref`);
    return this.say(`${kind}_ask_ref`);
  }

  private refGiven(flow: Flow, ref: string): string {
    if (flow.kind === "move") return this.moveRef(flow, ref);
    if (flow.kind === "cancel") return this.cancelRef(flow, ref);
    return this.courtesyRef(flow, ref);
  }

  private moveRef(flow: Flow, ref: string): string {
    const found = this.lookupBooking(flow, ref);
    if (typeof found === "string") return found;
    const b = found;
    if (b.status !== "booked") {
      this.flow = undefined;
      this.enter("move.refused_status");
      return this.lines(this.say("move_status", { ref, status: b.status }), this.say("anything_else"));
    }
    if (hoursUntil(b.when) < MOVE_CUTOFF_HOURS && !this.on("move_inside_24h")) {
      this.flow = undefined;
      this.enter("move.refused_too_late");
      return this.say("move_too_late", { ref, when: fmtWhen(b.when), cutoff: MOVE_CUTOFF_HOURS });
    }
    flow.ref = ref;
    flow.step = "slot";
    flow.slots = this.freeSlots(b.branch, b.when);
    this.enter("move.choose_slot");
    return this.say("move_choose_slot", {
      ref,
      when: fmtWhen(b.when),
      branch: BRANCHES[b.branch].name,
      slots: this.slotList(flow.slots),
      type: SERVICE_LABEL[b.type],
    });
  }

  private moveConfirmText(flow: Flow): string {
    const b = this.db.bookings.find((x) => x.ref === flow.ref);
    return this.say("move_confirm", {
      ref: flow.ref ?? "",
      old: fmtWhen(b?.when ?? ""),
      when: fmtWhen(flow.slot ?? ""),
    });
  }

  private stepMove(flow: Flow, t: string): string | undefined {
    if (flow.step === "ref") {
      const ref = findRef(t, "bk", 4);
      if (ref) return this.moveRef(flow, ref);
      if (detectIntent(t)) return undefined;
      this.enter("move.ask_ref");
      return this.say("ref_unclear");
    }
    const slots = flow.slots ?? [];
    if (flow.step === "slot") {
      const n = findChoice(t, slots.length);
      if (n === undefined) {
        if (detectIntent(t)) return undefined;
        this.enter("move.choose_slot");
        return this.say("slot_unclear");
      }
      flow.slot = slots[n - 1];
      flow.step = "confirm";
      this.enter("move.confirm");
      return this.moveConfirmText(flow);
    }
    const n = findChoice(t, slots.length);
    if (isYes(t) && n === undefined) {
      const b = this.db.bookings.find((x) => x.ref === flow.ref);
      if (!b || !flow.slot) return this.abort(flow);
      b.when = flow.slot;
      this.write(`booking.move ${b.ref} ${b.when}`);
      this.flow = undefined;
      this.enter("move.done");
      return this.lines(
        this.say("move_done", { ref: b.ref, when: fmtWhen(b.when) }),
        this.say("anything_else"),
      );
    }
    if (n !== undefined && !isYes(t)) {
      flow.slot = slots[n - 1];
      this.enter("move.confirm");
      return this.moveConfirmText(flow);
    }
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t)) return undefined;
    this.enter("move.confirm");
    return this.lines(this.say("yesno_unclear"), this.moveConfirmText(flow));
  }

  private cancelRef(flow: Flow, ref: string): string {
    const found = this.lookupBooking(flow, ref);
    if (typeof found === "string") return found;
    const b = found;
    if (b.status !== "booked") {
      this.flow = undefined;
      this.enter("cancel.refused_status");
      return this.lines(this.say("cancel_status", { ref, status: b.status }), this.say("anything_else"));
    }
    const late = hoursUntil(b.when) < LATE_CANCEL_HOURS;
    const fee = late ? (this.on("late_fee_doubled") ? LATE_CANCEL_FEE * 2 : LATE_CANCEL_FEE) : 0;
    flow.ref = ref;
    flow.fee = fee;
    const vars = {
      ref,
      type: SERVICE_LABEL[b.type],
      when: fmtWhen(b.when),
      hours: LATE_CANCEL_HOURS,
      fee: money(fee),
    };
    const feeLine = fee > 0 ? this.say("cancel_fee_late", vars) : this.say("cancel_fee_none", vars);
    this.relay(`cancel.quote ${ref} fee=${fee}`);
    if (this.on("cancel_skips_word")) return this.lines(feeLine, this.cancelCommit(flow));
    flow.step = "word";
    this.enter("cancel.confirm_word");
    return this.lines(feeLine, this.say("cancel_confirm_word"));
  }

  private cancelCommit(flow: Flow): string {
    const b = this.db.bookings.find((x) => x.ref === flow.ref);
    const user = this.user;
    if (!b || !user) return this.abort(flow);
    b.status = "cancelled";
    const fee = flow.fee ?? 0;
    const cref = this.nextRef("CX");
    this.write(`booking.cancel ${b.ref} fee=${fee} ${cref}`);
    this.flow = undefined;
    this.enter("cancel.done");
    const feeNote = fee > 0 ? this.say("cancel_fee_note", { fee: money(fee), last4: user.cardLast4 }) : "";
    return this.lines(
      this.say("cancel_done", { ref: b.ref, cref, fee_note: feeNote }),
      this.say("anything_else"),
    );
  }

  private stepCancel(flow: Flow, t: string): string | undefined {
    if (flow.step === "ref") {
      const ref = findRef(t, "bk", 4);
      if (ref) return this.cancelRef(flow, ref);
      if (detectIntent(t) && detectIntent(t) !== "cancel") return undefined;
      this.enter("cancel.ask_ref");
      return this.say("ref_unclear");
    }
    if (/^\s*["']?release["']?\s*[.!]?\s*$/i.test(t)) return this.cancelCommit(flow);
    if (isNo(t) || /\b(keep|don'?t cancel|leave it)\b/i.test(t)) return this.abort(flow);
    this.enter("cancel.wrong_word");
    return this.say("cancel_wrong_word");
  }

  // ---- courtesy cars -------------------------------------------------------------------------------------

  private courtesyRef(flow: Flow, ref: string): string {
    const found = this.lookupBooking(flow, ref);
    if (typeof found === "string") return found;
    const b = found;
    const end = (state: Heldout20State, key: string, vars: Record<string, string | number>) => {
      this.flow = undefined;
      this.enter(state);
      return this.lines(this.say(key, vars), this.say("anything_else"));
    };
    if (b.status !== "booked")
      return end("courtesy.refused_status", "courtesy_status", { ref, status: b.status });
    if (b.type === "mot") return end("courtesy.refused_mot_only", "courtesy_mot_only", { ref });
    if (b.courtesyDays)
      return end("courtesy.refused_already", "courtesy_already", { ref, days: b.courtesyDays });
    const day = b.when.slice(0, 10);
    if (COURTESY_FULLY_BOOKED.includes(`${b.branch}|${day}`))
      return end("courtesy.refused_no_cars", "courtesy_no_cars", {
        branch: BRANCHES[b.branch].name,
        date: fmtDate(day),
      });
    flow.ref = ref;
    flow.step = "days";
    this.enter("courtesy.ask_days");
    return this.say("courtesy_ask_days", { max: COURTESY_MAX_DAYS });
  }

  private courtesyFee(days: number): number {
    return Math.max(0, days - 1) * COURTESY_DAY_RATE;
  }

  private courtesyConfirmText(flow: Flow): string {
    const b = this.db.bookings.find((x) => x.ref === flow.ref);
    const days = flow.days ?? 1;
    return this.say("courtesy_confirm", {
      date: fmtDate((b?.when ?? TODAY).slice(0, 10)),
      branch: BRANCHES[b?.branch ?? "kirkstall"].name,
      days,
      rate: money(COURTESY_DAY_RATE),
      fee: money(this.courtesyFee(days)),
    });
  }

  private courtesyDays(flow: Flow, days: number): string {
    if (days > COURTESY_MAX_DAYS && !this.on("courtesy_no_day_cap")) {
      flow.step = "days";
      this.enter("courtesy.refused_too_many_days");
      this.enter("courtesy.ask_days");
      return this.say("courtesy_too_many", { days, max: COURTESY_MAX_DAYS });
    }
    flow.days = days;
    flow.step = "confirm";
    this.enter("courtesy.confirm");
    return this.courtesyConfirmText(flow);
  }

  private stepCourtesy(flow: Flow, t: string): string | undefined {
    if (flow.step === "ref") {
      const ref = findRef(t, "bk", 4);
      if (ref) return this.courtesyRef(flow, ref);
      if (detectIntent(t) && detectIntent(t) !== "courtesy") return undefined;
      this.enter("courtesy.ask_booking");
      return this.say("ref_unclear");
    }
    const words: Record<string, number> = {
      one: 1,
      two: 2,
      three: 3,
      four: 4,
      five: 5,
      six: 6,
      seven: 7,
      a: 1,
    };
    const wordDays = /\b(one|two|three|four|five|six|seven|a)\s+(day|days|week)\b/i.exec(t);
    const week = /\b(a|one)\s+week\b/i.test(t) ? 7 : undefined;
    const num = findNumber(t);
    const days =
      week ?? (num !== undefined ? num : wordDays?.[1] ? words[wordDays[1].toLowerCase()] : undefined);
    if (flow.step === "days") {
      if (days === undefined || days < 1) {
        if (detectIntent(t) && detectIntent(t) !== "courtesy") return undefined;
        this.enter("courtesy.ask_days");
        return this.say("courtesy_days_unclear", { max: COURTESY_MAX_DAYS });
      }
      return this.courtesyDays(flow, days);
    }
    if (isYes(t) && days === undefined) {
      const b = this.db.bookings.find((x) => x.ref === flow.ref);
      if (!b) return this.abort(flow);
      const n = flow.days ?? 1;
      const fee = this.courtesyFee(n);
      b.courtesyDays = n;
      const cref = this.nextRef("CC");
      this.write(`courtesy.reserve ${b.ref} days=${n} fee=${fee} ${cref}`);
      this.flow = undefined;
      this.enter("courtesy.done");
      return this.lines(
        this.say("courtesy_done", { days: n, date: fmtDate(b.when.slice(0, 10)), fee: money(fee), cref }),
        this.say("anything_else"),
      );
    }
    if (days !== undefined && days >= 1) return this.courtesyDays(flow, days);
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t) && detectIntent(t) !== "courtesy") return undefined;
    this.enter("courtesy.confirm");
    return this.lines(this.say("yesno_unclear"), this.courtesyConfirmText(flow));
  }

  // ---- quotes ----------------------------------------------------------------------------------------------

  private quoteRef(flow: Flow, ref: string): string {
    const q = this.db.quotes.find((x) => x.ref === ref);
    if (!q) {
      this.enter("quote.not_found");
      this.enter("quote.ask_ref");
      return this.say("quote_not_found", { ref });
    }
    const user = this.user;
    const skipOwner = !user && this.on("quote_no_auth");
    if (!skipOwner && q.accountId !== user?.id) {
      this.flow = undefined;
      this.enter("quote.refused_not_yours");
      return this.lines(this.say("quote_not_yours", { ref }), this.say("anything_else"));
    }
    if (q.status !== "pending") {
      let status: string = q.status;
      if (this.on("quote_status_flipped")) status = q.status === "declined" ? "approved" : "declined";
      this.relay(`quote ${ref} status=${status}`);
      this.flow = undefined;
      this.enter("quote.refused_decided");
      return this.lines(
        this.say("quote_decided", { ref, status, date: fmtDate(q.decidedOn ?? q.raised) }),
        this.say("anything_else"),
      );
    }
    if (q.validUntil < TODAY) {
      this.flow = undefined;
      this.enter("quote.refused_expired");
      return this.say("quote_expired", { ref, date: fmtDate(q.validUntil) });
    }
    const owner = this.db.accounts.find((a) => a.id === q.accountId);
    const total = q.lines.reduce((s, l) => s + l.pence, 0);
    this.relay(`quote ${ref} lines=${q.lines.map((l) => l.pence).join(",")} total=${total}`);
    flow.ref = ref;
    flow.step = "option";
    this.enter("quote.choose_option");
    return this.lines(
      this.say("quote_show", {
        reg: showReg(owner?.reg ?? ""),
        ref,
        lines: q.lines.map((l, i) => `${i + 1}) ${l.label}, ${money(l.pence)}`).join("; "),
        total: money(total),
      }),
      this.say("quote_options"),
    );
  }

  private quote(flow: Flow): Quote | undefined {
    return this.db.quotes.find((x) => x.ref === flow.ref);
  }

  private parseLines(t: string, q: Quote): number[] {
    const picked = new Set<number>();
    for (const m of t.matchAll(/(?<![\d£.])(\d{1,2})(?![\d.])/g)) {
      const n = Number(m[1]);
      if (n >= 1 && n <= q.lines.length) picked.add(n - 1);
    }
    const words: Record<string, number> = {
      one: 1,
      two: 2,
      three: 3,
      four: 4,
      first: 1,
      second: 2,
      third: 3,
      fourth: 4,
    };
    for (const [w, n] of Object.entries(words)) {
      if (new RegExp(`\\b${w}\\b`, "i").test(t) && n <= q.lines.length) picked.add(n - 1);
    }
    const lower = t.toLowerCase();
    q.lines.forEach((l, i) => {
      const key = l.label.toLowerCase().split(/[\s,()]+/)[0] ?? "";
      const second = l.label.toLowerCase().split(/[\s,()]+/)[1] ?? "";
      if (key.length >= 4 && lower.includes(`${key} ${second}`)) picked.add(i);
      else if (key.length >= 5 && !/^(front|rear)$/.test(key) && lower.includes(key)) picked.add(i);
    });
    return [...picked].sort((a, b) => a - b);
  }

  private approvedTotal(q: Quote, lines: readonly number[]): number {
    const chosen = this.on("quote_total_all_lines") && lines.length > 0 ? q.lines.map((_, i) => i) : lines;
    return chosen.reduce((s, i) => s + (q.lines[i]?.pence ?? 0), 0);
  }

  private quoteConfirmText(flow: Flow): string {
    const q = this.quote(flow);
    if (!q) return "";
    const lines = flow.lines ?? [];
    const total = money(this.approvedTotal(q, lines));
    const ref = q.ref;
    if (lines.length === 0) return this.say("quote_confirm_none", { ref });
    if (lines.length === q.lines.length) return this.say("quote_confirm_all", { ref, total });
    const name = (i: number) => `${i + 1}) ${q.lines[i]?.label ?? ""}`;
    const left = q.lines.map((_, i) => i).filter((i) => !lines.includes(i));
    return this.say("quote_confirm_some", {
      chosen: lines.map(name).join(", "),
      left: left.map(name).join(", "),
      total,
    });
  }

  private stepQuote(flow: Flow, t: string): string | undefined {
    if (flow.step === "ref") {
      const ref = findRef(t, "q", 4);
      if (ref) return this.quoteRef(flow, ref);
      if (detectIntent(t) && detectIntent(t) !== "quote") return undefined;
      this.enter("quote.ask_ref");
      return this.say("quote_ref_unclear");
    }
    const q = this.quote(flow);
    if (!q) return this.abort(flow);
    const toConfirm = (lines: number[]) => {
      flow.lines = lines;
      flow.step = "confirm";
      this.enter("quote.confirm");
      return this.quoteConfirmText(flow);
    };
    if (flow.step === "option") {
      const s = t.toLowerCase();
      if (
        /^\s*\(?a\)?\s*[.!]?\s*$|\boption a\b|\b(all|everything|the lot|all of it)\b/.test(s) &&
        !/\bnone\b/.test(s)
      )
        return toConfirm(q.lines.map((_, i) => i));
      if (/^\s*\(?c\)?\s*[.!]?\s*$|\boption c\b|\b(decline|none|nothing|reject)\b/.test(s))
        return toConfirm([]);
      const lines = this.parseLines(t, q);
      if (lines.length > 0) return toConfirm(lines);
      if (/^\s*\(?b\)?\s*[.!]?\s*$|\boption b\b|\b(some|pick|choose|part|partial|certain|only)\b/.test(s)) {
        flow.step = "lines";
        this.enter("quote.pick_lines");
        return this.say("quote_pick_lines");
      }
      if (detectIntent(t) && detectIntent(t) !== "quote") return undefined;
      this.enter("quote.choose_option");
      return this.say("quote_option_unclear");
    }
    if (flow.step === "lines") {
      const lines = this.parseLines(t, q);
      if (lines.length > 0) return toConfirm(lines);
      if (/\b(none|nothing)\b/i.test(t)) return toConfirm([]);
      if (detectIntent(t) && detectIntent(t) !== "quote") return undefined;
      this.enter("quote.pick_lines");
      return this.say("quote_lines_unclear", { n: q.lines.length });
    }
    // confirm
    const lines = this.parseLines(t, q);
    if (isYes(t) && lines.length === 0) {
      const chosen = flow.lines ?? [];
      const total = this.approvedTotal(q, chosen);
      q.status =
        chosen.length === 0 ? "declined" : chosen.length === q.lines.length ? "approved" : "part-approved";
      q.decidedOn = TODAY;
      q.approvedLines = [...chosen];
      const aref = this.nextRef("QA");
      this.write(
        `quote.decide ${q.ref} ${q.status} lines=${chosen.map((i) => i + 1).join(",")} total=${total} ${aref}`,
      );
      this.flow = undefined;
      this.enter("quote.done");
      const key = chosen.length === 0 ? "quote_done_declined" : "quote_done_approved";
      return this.lines(this.say(key, { ref: q.ref, total: money(total), aref }), this.say("anything_else"));
    }
    if (lines.length > 0) return toConfirm(lines);
    if (isNo(t) && /\b(none|nothing|decline)\b/i.test(t)) return toConfirm([]);
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t) && detectIntent(t) !== "quote") return undefined;
    this.enter("quote.confirm");
    return this.lines(this.say("yesno_unclear"), this.quoteConfirmText(flow));
  }

  // ---- invoices ------------------------------------------------------------------------------------------

  private payInvoice(flow: Flow, ref: string): string {
    const inv = this.db.invoices.find((x) => x.ref === ref);
    if (!inv) {
      this.enter("pay.not_found");
      this.enter("pay.ask_invoice");
      return this.say("pay_not_found", { ref });
    }
    if (inv.accountId !== this.user?.id && !this.on("invoice_any_owner")) {
      this.flow = undefined;
      this.enter("pay.refused_not_yours");
      return this.lines(this.say("pay_not_yours", { ref }), this.say("anything_else"));
    }
    const balance = inv.totalPence - inv.paidPence;
    if (balance <= 0) {
      this.relay(`invoice ${ref} paid-in-full`);
      this.flow = undefined;
      this.enter("pay.refused_paid");
      return this.lines(this.say("pay_paid", { ref, desc: inv.description }), this.say("anything_else"));
    }
    const shown = this.on("invoice_total_as_balance") ? inv.totalPence : balance;
    this.relay(`invoice ${ref} total=${inv.totalPence} paid=${inv.paidPence} balance=${shown}`);
    flow.ref = ref;
    flow.step = "amount";
    this.enter("pay.ask_amount");
    return this.say("pay_show", {
      ref,
      desc: inv.description,
      date: fmtDate(inv.date),
      total: money(inv.totalPence),
      paid: money(inv.paidPence),
      balance: money(shown),
    });
  }

  private invoice(flow: Flow): Invoice | undefined {
    return this.db.invoices.find((x) => x.ref === flow.ref);
  }

  private payAmount(flow: Flow, inv: Invoice, amount: number): string {
    const balance = inv.totalPence - inv.paidPence;
    if (amount > balance) {
      flow.step = "amount";
      this.enter("pay.refused_amount");
      this.enter("pay.ask_amount");
      return this.say("pay_amount_over", { balance: money(balance), amount: money(amount) });
    }
    if (amount < MIN_PART_PAYMENT && amount !== balance) {
      flow.step = "amount";
      this.enter("pay.refused_amount");
      this.enter("pay.ask_amount");
      return this.say("pay_amount_under", { min: money(MIN_PART_PAYMENT) });
    }
    flow.amount = amount;
    flow.step = "confirm";
    this.enter("pay.confirm_amount");
    return this.say("pay_confirm", { amount: money(amount), last4: this.user?.cardLast4 ?? "" });
  }

  private stepPay(flow: Flow, t: string): string | undefined {
    if (flow.step === "invoice") {
      const ref = findRef(t, "inv", 5);
      if (ref) return this.payInvoice(flow, ref);
      if (detectIntent(t) && detectIntent(t) !== "pay") return undefined;
      this.enter("pay.ask_invoice");
      return this.say("pay_invoice_unclear");
    }
    const inv = this.invoice(flow);
    if (!inv) return this.abort(flow);
    const balance = inv.totalPence - inv.paidPence;
    const whole = /\b(all|everything|the lot|whole|full|in full|the balance|all of it)\b/i.test(t);
    const amount = findAmount(t) ?? (whole ? balance : undefined);
    if (flow.step === "amount") {
      if (amount === undefined) {
        if (detectIntent(t) && detectIntent(t) !== "pay") return undefined;
        this.enter("pay.ask_amount");
        return this.say("pay_amount_unclear");
      }
      return this.payAmount(flow, inv, amount);
    }
    // confirm by re-typing the amount
    const correction = /\b(make it|change it|actually|instead|rather|no,? (make|pay|just))\b/i.test(t);
    if (amount !== undefined && correction && amount !== flow.amount)
      return this.payAmount(flow, inv, amount);
    if (amount !== undefined && amount === flow.amount) {
      inv.paidPence += amount;
      const rref = this.nextRef("RC");
      this.write(`invoice.pay ${inv.ref} amount=${amount} ${rref}`);
      this.flow = undefined;
      this.enter("pay.done");
      return this.lines(
        this.say("pay_done", {
          amount: money(amount),
          rref,
          ref: inv.ref,
          balance: money(inv.totalPence - inv.paidPence),
        }),
        this.say("anything_else"),
      );
    }
    if (amount === undefined && isNo(t)) return this.abort(flow);
    if (amount === undefined && detectIntent(t) && detectIntent(t) !== "pay") return undefined;
    this.enter("pay.mismatch");
    this.enter("pay.confirm_amount");
    return this.say("pay_mismatch", { amount: money(flow.amount ?? 0) });
  }

  // ---- warranty --------------------------------------------------------------------------------------------

  private warrantyJob(flow: Flow, ref: string): string {
    const job = this.db.jobs.find((x) => x.ref === ref);
    if (!job) {
      this.enter("warranty.not_found");
      this.enter("warranty.ask_job");
      return this.say("warranty_not_found", { ref });
    }
    const user = this.user;
    if (!user || job.accountId !== user.id) {
      this.flow = undefined;
      this.enter("warranty.refused_not_yours");
      return this.lines(this.say("warranty_not_yours", { ref }), this.say("anything_else"));
    }
    const end = addMonths(job.date, WARRANTY_MONTHS);
    if (end < TODAY) {
      this.flow = undefined;
      this.enter("warranty.refused_expired");
      return this.say("warranty_expired", {
        ref,
        desc: job.description,
        date: fmtDate(job.date),
        months: WARRANTY_MONTHS,
        end: fmtDate(end),
      });
    }
    if (user.mileage - job.mileageAtRepair > WARRANTY_MILES && !this.on("warranty_ignores_mileage")) {
      this.flow = undefined;
      this.enter("warranty.refused_mileage");
      return this.lines(
        this.say("warranty_mileage", {
          ref,
          desc: job.description,
          at: miles(job.mileageAtRepair),
          now: miles(user.mileage),
          miles: miles(WARRANTY_MILES),
        }),
        this.say("anything_else"),
      );
    }
    flow.ref = ref;
    flow.step = "fault";
    this.enter("warranty.ask_fault");
    return this.say("warranty_ask_fault", { ref, desc: job.description, date: fmtDate(job.date) });
  }

  private job(flow: Flow): RepairJob | undefined {
    return this.db.jobs.find((x) => x.ref === flow.ref);
  }

  private warrantyConfirmText(flow: Flow): string {
    const job = this.job(flow);
    return this.say("warranty_confirm", {
      ref: flow.ref ?? "",
      desc: job?.description ?? "",
      fault: flow.fault ?? "",
    });
  }

  private stepWarranty(flow: Flow, t: string): string | undefined {
    if (flow.step === "job") {
      const ref = findRef(t, "job", 4);
      if (ref) return this.warrantyJob(flow, ref);
      if (detectIntent(t) && detectIntent(t) !== "warranty") return undefined;
      this.enter("warranty.ask_job");
      return this.say("warranty_job_unclear");
    }
    if (flow.step === "fault") {
      const words = t.split(/\s+/).filter((w) => /[a-z]/i.test(w));
      if (words.length < 2 || isYes(t) || isNo(t)) {
        this.enter("warranty.ask_fault");
        return this.say("warranty_fault_unclear");
      }
      flow.fault = t.replace(/\s+/g, " ").slice(0, 200);
      flow.step = "confirm";
      this.enter("warranty.confirm");
      return this.warrantyConfirmText(flow);
    }
    if (isYes(t)) {
      const job = this.job(flow);
      if (!job) return this.abort(flow);
      job.claimed = true;
      const wref = this.nextRef("WC");
      this.write(`warranty.claim ${job.ref} ${wref}`);
      this.flow = undefined;
      this.enter("warranty.done");
      return this.lines(this.say("warranty_done", { wref }), this.say("anything_else"));
    }
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t) && detectIntent(t) !== "warranty") return undefined;
    this.enter("warranty.confirm");
    return this.lines(this.say("yesno_unclear"), this.warrantyConfirmText(flow));
  }

  // ---- mileage ---------------------------------------------------------------------------------------------

  private mileageValue(flow: Flow, n: number): string {
    const user = this.user;
    if (!user) return this.abort(flow);
    if (n < user.mileage) {
      this.flow = undefined;
      this.enter("mileage.refused_lower");
      return this.lines(
        this.say("mileage_lower", { miles: miles(n), current: miles(user.mileage) }),
        this.say("anything_else"),
      );
    }
    flow.miles = n;
    flow.step = "confirm";
    this.enter("mileage.confirm");
    return this.say("mileage_confirm", { miles: miles(n), reg: showReg(user.reg) });
  }

  private stepMileage(flow: Flow, t: string): string | undefined {
    const user = this.user;
    if (!user) return undefined;
    const n = findNumber(t);
    if (flow.step === "ask") {
      if (n === undefined) {
        if (detectIntent(t) && detectIntent(t) !== "mileage") return undefined;
        this.enter("mileage.ask");
        return this.say("mileage_unclear");
      }
      return this.mileageValue(flow, n);
    }
    if (isYes(t) && n === undefined) {
      const value = flow.miles ?? user.mileage;
      user.mileage = value;
      this.write(`vehicle.mileage ${user.reg} ${value}`);
      this.flow = undefined;
      this.enter("mileage.done");
      return this.lines(
        this.say("mileage_done", { miles: miles(value), reg: showReg(user.reg) }),
        this.say("anything_else"),
      );
    }
    if (n !== undefined) {
      if (this.on("mileage_keeps_first")) {
        this.enter("mileage.confirm");
        return this.say("mileage_confirm", { miles: miles(flow.miles ?? n), reg: showReg(user.reg) });
      }
      return this.mileageValue(flow, n);
    }
    if (isNo(t)) return this.abort(flow);
    if (detectIntent(t) && detectIntent(t) !== "mileage") return undefined;
    this.enter("mileage.confirm");
    return this.lines(
      this.say("yesno_unclear"),
      this.say("mileage_confirm", { miles: miles(flow.miles ?? 0), reg: showReg(user.reg) }),
    );
  }

  // ---- contact details ------------------------------------------------------------------------------------

  private stepContact(flow: Flow, t: string): string | undefined {
    const user = this.user;
    if (!user) return undefined;
    const mobile = findMobile(t);
    if (flow.step === "mobile") {
      if (!mobile) {
        if (detectIntent(t) && detectIntent(t) !== "contact" && !/\d/.test(t)) return undefined;
        this.enter("contact.invalid");
        this.enter("contact.ask_mobile");
        return this.say("contact_invalid");
      }
      flow.mobile = mobile;
      flow.step = "retype";
      this.enter("contact.retype");
      return this.say("contact_retype", { mobile: showMobile(mobile) });
    }
    if (mobile && mobile === flow.mobile) {
      const stored = this.on("contact_write_swapped")
        ? `${mobile.slice(0, -2)}${mobile.slice(-1)}${mobile.slice(-2, -1)}`
        : mobile;
      user.mobile = stored;
      this.write(`account.mobile ${user.id} ${stored}`);
      this.flow = undefined;
      this.enter("contact.done");
      return this.lines(this.say("contact_done", { mobile: showMobile(stored) }), this.say("anything_else"));
    }
    if (!mobile && isNo(t)) return this.abort(flow);
    if (!mobile && !/\d/.test(t) && detectIntent(t) && detectIntent(t) !== "contact") return undefined;
    flow.step = "mobile";
    flow.mobile = undefined;
    this.enter("contact.mismatch");
    this.enter("contact.ask_mobile");
    return this.say("contact_mismatch");
  }

  // ---- shared flow plumbing ------------------------------------------------------------------------------

  private stepHandoff(): string {
    const ref = this.nextRef("HO");
    this.write(`handoff ${ref} ${this.user?.id ?? "guest"}`);
    this.flow = undefined;
    this.enter("handoff.done");
    return this.say("handoff_done", { ref });
  }

  private step(flow: Flow, t: string): string | undefined {
    switch (flow.kind) {
      case "auth":
        return this.stepAuth(flow, t);
      case "reverify":
        return this.stepReverify(t);
      case "handoff":
        return this.stepHandoff();
      case "book":
        return this.stepBook(flow, t);
      case "move":
        return this.stepMove(flow, t);
      case "cancel":
        return this.stepCancel(flow, t);
      case "quote":
        return this.stepQuote(flow, t);
      case "courtesy":
        return this.stepCourtesy(flow, t);
      case "pay":
        return this.stepPay(flow, t);
      case "warranty":
        return this.stepWarranty(flow, t);
      case "mileage":
        return this.stepMileage(flow, t);
      case "contact":
        return this.stepContact(flow, t);
    }
  }

  private abort(flow: Flow): string {
    this.flow = undefined;
    const ref = flow.ref ?? "";
    switch (flow.kind) {
      case "auth":
      case "reverify":
      case "handoff":
        this.pending = undefined;
        this.enter("main.help");
        return this.say("auth_abort");
      case "book":
        this.enter("book.cancelled");
        return this.lines(this.say("book_cancelled"), this.say("anything_else"));
      case "move":
        this.enter("move.cancelled");
        return this.lines(
          this.say("move_cancelled", { ref: ref || "your booking" }),
          this.say("anything_else"),
        );
      case "cancel":
        this.enter("cancel.kept");
        return this.lines(this.say("cancel_kept", { ref: ref || "your booking" }), this.say("anything_else"));
      case "quote": {
        const q = this.db.quotes.find((x) => x.ref === ref);
        this.enter("quote.abandoned");
        return this.lines(
          this.say("quote_abandoned", { ref: ref || "the quote", date: fmtDate(q?.validUntil ?? TODAY) }),
          this.say("anything_else"),
        );
      }
      case "courtesy":
        this.enter("courtesy.cancelled");
        return this.lines(this.say("courtesy_cancelled"), this.say("anything_else"));
      case "pay":
        this.enter("pay.cancelled");
        return this.lines(this.say("pay_cancelled"), this.say("anything_else"));
      case "warranty":
        this.enter("warranty.cancelled");
        return this.lines(this.say("warranty_cancelled"), this.say("anything_else"));
      case "mileage":
        this.enter("mileage.cancelled");
        return this.lines(
          this.say("mileage_cancelled", { current: miles(this.user?.mileage ?? 0) }),
          this.say("anything_else"),
        );
      case "contact":
        this.enter("contact.cancelled");
        return this.lines(this.say("contact_cancelled"), this.say("anything_else"));
    }
  }

  /** The current step's question again (after an empty or unclear turn). */
  private reprompt(flow: Flow): string {
    const user = this.user;
    switch (flow.kind) {
      case "auth":
        if (flow.step === "reg") {
          this.enter("auth.ask_registration");
          return this.say("auth_start");
        }
        if (flow.step === "postcode") {
          this.enter("auth.ask_postcode");
          return this.say("auth_ask_postcode", { reg: showReg(flow.reg ?? "") });
        }
        this.enter("auth.ask_code");
        return this.say("auth_code_unclear");
      case "reverify":
        this.enter("auth.reverify_ask_word");
        return this.say("reverify_ask");
      case "handoff":
        this.enter("handoff.ask_reason");
        return this.say("handoff_ask");
      case "book":
        if (flow.step === "type") {
          this.enter("book.choose_type");
          return this.say("book_choose_type", this.typeList());
        }
        if (flow.step === "slot") {
          this.enter("book.choose_slot");
          return this.say("slot_unclear");
        }
        this.enter("book.confirm");
        return this.bookConfirmText(flow);
      case "move":
        if (flow.step === "ref") {
          this.enter("move.ask_ref");
          return this.say("move_ask_ref");
        }
        if (flow.step === "slot") {
          this.enter("move.choose_slot");
          return this.say("slot_unclear");
        }
        this.enter("move.confirm");
        return this.moveConfirmText(flow);
      case "cancel":
        if (flow.step === "ref") {
          this.enter("cancel.ask_ref");
          return this.say("cancel_ask_ref");
        }
        this.enter("cancel.wrong_word");
        return this.say("cancel_wrong_word");
      case "quote":
        if (flow.step === "ref") {
          this.enter("quote.ask_ref");
          return this.say("quote_ask_ref");
        }
        if (flow.step === "option") {
          this.enter("quote.choose_option");
          return this.say("quote_options");
        }
        if (flow.step === "lines") {
          this.enter("quote.pick_lines");
          return this.say("quote_pick_lines");
        }
        this.enter("quote.confirm");
        return this.quoteConfirmText(flow);
      case "courtesy":
        if (flow.step === "ref") {
          this.enter("courtesy.ask_booking");
          return this.say("courtesy_ask_booking");
        }
        if (flow.step === "days") {
          this.enter("courtesy.ask_days");
          return this.say("courtesy_ask_days", { max: COURTESY_MAX_DAYS });
        }
        this.enter("courtesy.confirm");
        return this.courtesyConfirmText(flow);
      case "pay":
        if (flow.step === "invoice") {
          this.enter("pay.ask_invoice");
          return this.say("pay_ask_invoice");
        }
        if (flow.step === "amount") {
          this.enter("pay.ask_amount");
          return this.say("pay_amount_unclear");
        }
        this.enter("pay.confirm_amount");
        return this.say("pay_confirm", { amount: money(flow.amount ?? 0), last4: user?.cardLast4 ?? "" });
      case "warranty":
        if (flow.step === "job") {
          this.enter("warranty.ask_job");
          return this.say("warranty_ask_job");
        }
        if (flow.step === "fault") {
          this.enter("warranty.ask_fault");
          return this.say("warranty_fault_unclear");
        }
        this.enter("warranty.confirm");
        return this.warrantyConfirmText(flow);
      case "mileage":
        if (flow.step === "ask") {
          this.enter("mileage.ask");
          return this.say("mileage_ask", { current: miles(user?.mileage ?? 0) });
        }
        this.enter("mileage.confirm");
        return this.say("mileage_confirm", { miles: miles(flow.miles ?? 0), reg: showReg(user?.reg ?? "") });
      case "contact":
        if (flow.step === "mobile") {
          this.enter("contact.ask_mobile");
          return this.say("contact_ask_mobile");
        }
        this.enter("contact.retype");
        return this.say("contact_retype", { mobile: showMobile(flow.mobile ?? "") });
    }
  }
}

export const heldout20Agent: TestbedAgent = {
  name: "heldout20",
  description:
    "Car-servicing garage chat (Dot, Cogley & Daughters): public prices/hours/MOT/courtesy/warranty answers; sign-in by reg number + postcode + texted one-time code (3 strikes lock and hand off); memorable-word re-check before contact changes; bookings, quotes, courtesy cars, invoices, warranty, mileage with yes/no, typed-word, lettered/numbered-list and re-typed-value gates.",
  faults: HELDOUT20_FAULTS,
  states: HELDOUT20_STATES,
  facts: Facts.parse({ personas: PERSONAS, requests: REQUESTS }),
  create(options = {}) {
    return new DotSession(options.faults ?? [], options.seed ?? 1);
  },
};
