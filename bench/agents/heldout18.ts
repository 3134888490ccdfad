/**
 * `heldout18`: "Bea", the support assistant of Marquee, a video-streaming subscription service. A deterministic,
 * rule-based bot (regex NLU + a dialogue state machine). Sign-in is an account email followed by a 6-digit code
 * texted to the phone on file (three wrong codes lock the chat and hand it to a person); refunds, PIN changes and
 * cancellations additionally re-check the last four digits of the billed card. Gates: yes/no read-backs, lettered
 * plan and rating lists, a numbered refund-reason list, typed phrases (CANCEL MY MEMBERSHIP, SIGN OUT EVERYWHERE)
 * and PIN re-entry.
 */

import {
  type Account,
  type Charge,
  CODE_ATTEMPTS,
  FACTS,
  KIDS_MAX_RANK,
  PAUSE_MAX_MONTHS,
  PLANS,
  type Plan,
  type PlanId,
  type Profile,
  RATINGS,
  type Rating,
  type RatingId,
  REFUND_COOLDOWN_DAYS,
  REFUND_REASONS,
  REFUND_WINDOW_DAYS,
  RETENTION_BILLS,
  RETENTION_PERCENT,
  SEED_WORLD,
  TODAY,
  WORDING,
  type World,
} from "./heldout18-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

const FAULTS = [
  "devices_skip_auth",
  "no_lockout",
  "cancel_skip_typed_gate",
  "refund_ignore_yearly_limit",
  "refund_other_account",
  "kids_rating_cap_ignored",
  "pin_skip_reentry",
  "prorate_off_by_one",
  "plan_correction_ignored",
  "pause_extra_month",
  "device_wrong_target",
  "gift_double_credit",
  "summary_status_wrong",
  "history_amount_shift",
] as const;

const STATES = [
  // general
  "greeting",
  "menu.help",
  "fallback",
  "smalltalk.thanks",
  "goodbye",
  "handoff.human",
  // public answers
  "info.plans",
  "info.refund_policy",
  "info.pause_policy",
  "info.cancel_policy",
  "info.gift_cards",
  "info.parental_controls",
  "info.devices",
  "info.hours",
  "info.password",
  // sign-in
  "auth.ask_email",
  "auth.email_not_found",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.locked",
  "auth.signed_in",
  "auth.already_signed_in",
  "auth.cancelled",
  "reverify.ask_card",
  "reverify.retry",
  "reverify.failed",
  // account views
  "account.summary",
  "billing.history",
  "profiles.list",
  // plan change
  "plan.choose",
  "plan.refused_same",
  "plan.refused_paused",
  "plan.refused_cancelled",
  "plan.confirm_upgrade",
  "plan.confirm_downgrade",
  "plan.done_upgrade",
  "plan.done_downgrade",
  "plan.cancelled",
  // refunds
  "refund.ask_charge",
  "refund.not_found",
  "refund.refused_already_refunded",
  "refund.refused_too_old",
  "refund.refused_yearly_limit",
  "refund.ask_reason",
  "refund.confirm",
  "refund.done",
  "refund.cancelled",
  // profile PIN
  "pin.ask_profile",
  "pin.profile_not_found",
  "pin.ask_new",
  "pin.refused_weak",
  "pin.ask_reenter",
  "pin.mismatch",
  "pin.done",
  "pin.cancelled",
  // maturity rating
  "rating.ask_profile",
  "rating.profile_not_found",
  "rating.ask_level",
  "rating.refused_kids_cap",
  "rating.unchanged",
  "rating.confirm",
  "rating.done",
  "rating.cancelled",
  // devices
  "devices.list",
  "devices.none",
  "devices.invalid_choice",
  "devices.confirm_one",
  "devices.done_one",
  "devices.confirm_all",
  "devices.done_all",
  "devices.cancelled",
  // pause / resume
  "pause.ask_months",
  "pause.refused_paused",
  "pause.refused_cancelled",
  "pause.refused_too_long",
  "pause.confirm",
  "pause.done",
  "pause.cancelled",
  "resume.not_paused",
  "resume.confirm",
  "resume.done",
  "resume.cancelled",
  // cancel
  "cancel.refused_already",
  "cancel.retention_offer",
  "cancel.offer_accepted",
  "cancel.confirm_typed",
  "cancel.done",
  "cancel.kept",
  // gift cards
  "gift.ask_code",
  "gift.invalid_code",
  "gift.refused_redeemed",
  "gift.refused_expired",
  "gift.confirm",
  "gift.done",
  "gift.cancelled",
] as const;

type StateId = (typeof STATES)[number];

type Intent =
  | "human"
  | "greeting"
  | "help"
  | "thanks"
  | "bye"
  | "signin"
  | "info_plans"
  | "info_refund"
  | "info_pause"
  | "info_cancel"
  | "info_gift"
  | "info_parental"
  | "info_devices"
  | "info_hours"
  | "info_password"
  | "summary"
  | "history"
  | "profiles"
  | "plan"
  | "refund"
  | "pin"
  | "rating"
  | "devices"
  | "pause"
  | "resume"
  | "cancel"
  | "gift";

const ACCOUNT_INTENTS: ReadonlySet<Intent> = new Set<Intent>([
  "summary",
  "history",
  "profiles",
  "plan",
  "refund",
  "pin",
  "rating",
  "devices",
  "pause",
  "resume",
  "cancel",
  "gift",
]);

type Flow =
  | {
      kind: "auth";
      at: StateId;
      step: "email" | "code";
      accountId?: string;
      pending: Intent | null;
      text: string;
    }
  | { kind: "reverify"; at: StateId; tries: number; resume: Flow }
  | { kind: "plan"; at: StateId; step: "choose" | "confirm"; plan?: PlanId }
  | { kind: "refund"; at: StateId; step: "charge" | "reason" | "confirm"; chargeId?: string; reason?: number }
  | { kind: "pin"; at: StateId; step: "profile" | "new" | "reenter"; profile?: string; pin?: string }
  | { kind: "rating"; at: StateId; step: "profile" | "level" | "confirm"; profile?: string; level?: RatingId }
  | {
      kind: "devices";
      at: StateId;
      step: "choose" | "confirm_one" | "confirm_all";
      shown: string[];
      pick?: string;
    }
  | { kind: "pause"; at: StateId; step: "months" | "confirm"; months?: number }
  | { kind: "resume"; at: StateId }
  | { kind: "cancel"; at: StateId; step: "offer" | "typed" }
  | { kind: "gift"; at: StateId; step: "code" | "confirm"; code?: string };

// ── small helpers ──────────────────────────────────────────────────────

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

function dayNum(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / 86_400_000;
}

function isoOf(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round(dayNum(to) - dayNum(from));
}

function addDays(iso: string, n: number): string {
  return isoOf(dayNum(iso) + n);
}

function addMonths(iso: string, n: number): string {
  const [y, m, d] = iso.split("-").map(Number);
  const total = (y ?? 1970) * 12 + ((m ?? 1) - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = total % 12;
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return isoOf(Date.UTC(ny, nm, Math.min(d ?? 1, last)) / 86_400_000);
}

function human(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  const month = MONTHS[(m ?? 1) - 1] ?? "";
  return `${month.charAt(0).toUpperCase()}${month.slice(1)} ${d}, ${y}`;
}

function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function planOf(id: PlanId): Plan {
  return PLANS.find((p) => p.id === id) ?? PLANS[0]!;
}

function ratingOf(id: RatingId): Rating {
  return RATINGS.find((r) => r.id === id) ?? RATINGS[0]!;
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ── NLU ────────────────────────────────────────────────────────────────

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/i;
const CHARGE_ID = /\bch[-\s]?(\d{5})\b/i;
const GIFT_CODE_STRICT = /\bmq[-\s]?([a-z0-9]{4})[-\s]?([a-z0-9]{4})\b/i;
const YES =
  /^(y|yes|yeah|yea|yep|yup|sure|ok|okay|confirm(ed)?|correct|right|do it|go ahead|please do|please|absolutely|definitely|sounds good|that'?s right|affirmative|of course|go for it|i'?m sure|proceed)\b/;
const NO = /^(n|no|nope|nah|not really|don'?t|do not|negative|no thanks)\b/;
const ABORT =
  /^(cancel|stop|quit|exit)[.!]?$|\bnever ?mind\b|\bforget (it|that|about it)\b|\bscratch that\b|\bcancel (that|this|it)\b|\babort\b|\bleave it\b|\bdon'?t bother\b|\bchanged my mind\b/;
const HUMAN =
  /\b(human|agent|real person|representative|rep|someone real|live (chat|person|agent)|speak (to|with) (a|an|someone)|talk (to|with) (a|an|someone)|operator|supervisor|manager)\b/;
const POLICY =
  /\b(policy|policies|rules?|how (do|does) (it|they|that|refunds?|pauses?|pausing|gift cards?|cancell?ing|cancell?ation) work|how long (can|does)|what happens|how many times|how often|explain|terms|am i allowed)\b/;

const NUMBER_WORDS: Record<string, number> = {
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
  "a couple": 2,
  "a couple of": 2,
  "a few": 3,
  a: 1,
  an: 1,
};

function detectIntent(t: string): Intent | null {
  if (HUMAN.test(t)) return "human";
  if (/\b(password|forgot (my )?(login|email)|can'?t (log|sign) ?in|reset my (login|account))\b/.test(t))
    return "info_password";
  if (
    /\b(cancel|end|terminate|close|stop)\b.{0,30}\b(membership|subscription|account|service|marquee)\b|\bunsubscribe\b|\bquit marquee\b|\bcancel(l?ing)? (marquee|it all)\b/.test(
      t,
    )
  )
    return POLICY.test(t) ? "info_cancel" : "cancel";
  if (
    /\b(resume|unpause|un-pause|reactivate|end (the|my) pause|restart my (membership|subscription))\b/.test(t)
  )
    return "resume";
  if (/\b(pause|pausing|take a break|freeze|put (it|my \w+) on hold)\b/.test(t))
    return POLICY.test(t) ? "info_pause" : "pause";
  if (
    /\b(refund|refunded|refunds|money back|dispute|charged twice|double charged|overcharged|didn'?t authori[sz]e|wrong charge|charge ?back)\b/.test(
      t,
    )
  )
    return POLICY.test(t) ? "info_refund" : "refund";
  if (CHARGE_ID.test(t)) return "refund";
  if (/\b(gift ?cards?|gift codes?|redeem|voucher)\b/.test(t) || GIFT_CODE_STRICT.test(t))
    return POLICY.test(t) ? "info_gift" : "gift";
  if (/\bpins?\b|\block\b.{0,20}\bprofile|\bprofile\b.{0,20}\block\b/.test(t)) return "pin";
  if (
    /\b(maturity|ratings?|age (limit|level|rating)|restrict|content (level|settings))\b/.test(t) ||
    /\b(set|change|make|switch|move|raise|lower|put)\b.*\b(little kids|older kids|teens?|adults?)\b/.test(t)
  )
    return "rating";
  if (/\bparental\b/.test(t))
    return /\b(set|change|update|turn on|adjust|raise|lower)\b/.test(t) ? "rating" : "info_parental";
  if (
    /\b(devices?|sign(ed)? ?(me |them |it )?(out|off)|log(ged)? ?(me |them |it )?(out|off)|kick\b|someone else is (using|watching)|who('?s| is) (using|watching)|\b(where|which)\b.*\b(signed|logged) in\b)/.test(
      t,
    )
  )
    return /\b(how many|limit|screens? at once|at the same time|simultaneous)\b/.test(t)
      ? "info_devices"
      : "devices";
  if (/\b(how many screens|screens? at once|at the same time|simultaneous|streams?)\b/.test(t))
    return "info_devices";
  if (/\b(sign|log) ?(me )?in\b|\bverify me\b|\bauthenticate\b/.test(t)) return "signin";
  if (
    /\b(upgrade|downgrade|change (my |the )?plan|switch (my |to |plans?)|move (me )?to (basic|standard|premium)|change (it )?to (basic|standard|premium)|(go|get|want|try|need) (to |the )?(basic|standard|premium)|cheaper plan|bigger plan)\b/.test(
      t,
    )
  )
    return "plan";
  if (
    /\b(billing history|history|charges|payment history|payments|invoices?|receipts?|statement|what (have|did) you charge|past bills)\b/.test(
      t,
    )
  )
    return "history";
  if (
    /\b(my account|account (summary|status|details|info)|next (bill|payment|charge)|when (am i|will i be|do i get|is my) (billed|charged|bill)|billing date|my (balance|credit|plan|membership|subscription)|membership status|what plan|am i (paused|active))\b/.test(
      t,
    )
  )
    return "summary";
  if (/\bprofiles?\b/.test(t)) return "profiles";
  if (/\b(plans?|pricing|prices?|how much|cost|tiers?|basic|standard|premium|4k)\b/.test(t))
    return "info_plans";
  if (/\b(hours|open|opening|closed|when can i (reach|talk|chat)|available)\b/.test(t)) return "info_hours";
  if (/\b(help|what can you do|options|menu|what do you do)\b/.test(t)) return "help";
  if (/\b(thanks|thank you|thx|cheers|appreciate it)\b/.test(t)) return "thanks";
  if (/\b(bye|goodbye|see ya|see you|that'?s all|that is all|all done|i'?m done)\b/.test(t)) return "bye";
  if (/^(hi|hello|hey|hiya|howdy|good (morning|afternoon|evening)|yo)\b/.test(t)) return "greeting";
  return null;
}

function parsePlan(t: string, allowLetter: boolean): PlanId | null {
  const m = t.match(/\b(basic|standard|premium)\b/);
  if (m) return m[1] as PlanId;
  if (allowLetter) {
    const l = t.match(/^(?:option |plan )?\(?([abc])\)?[.!]?$/);
    if (l) return PLANS.find((p) => p.letter.toLowerCase() === l[1])?.id ?? null;
  }
  return null;
}

function parseLevel(t: string, allowLetter: boolean): RatingId | null {
  if (/\b(little|young(er)?|toddlers?|preschool)\b/.test(t)) return "little_kids";
  if (/\bolder kids?\b|\btv-?y7\b|\bpg\b(?!-?13)/.test(t)) return "older_kids";
  if (/\bteens?\b|\bteenagers?\b|\bpg-?13\b|\btv-?14\b|\b13\+/.test(t)) return "teens";
  if (/\badults?\b|\bmature\b|\beverything\b|\ball (titles|content|ratings)\b|\btv-?ma\b|\b18\+/.test(t))
    return "adults";
  if (allowLetter) {
    const l = t.match(/^(?:option |level )?\(?([abcd])\)?[.!]?$/);
    if (l) return RATINGS.find((r) => r.letter.toLowerCase() === l[1])?.id ?? null;
  }
  return null;
}

function parseMonths(t: string, bare: boolean): number | null {
  const digit = bare ? t.match(/\b(\d{1,2})\b/) : t.match(/\b(\d{1,2})\s*(months?|mos?)\b/);
  if (digit) return Number(digit[1]);
  const words = t.match(
    /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple(?: of)?|a few|an?)\s*(months?)\b/,
  );
  if (words) return NUMBER_WORDS[words[1] ?? ""] ?? null;
  if (bare) {
    const w = t.match(/\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/);
    if (w) return NUMBER_WORDS[w[1] ?? ""] ?? null;
  }
  return null;
}

function parseDate(t: string): string | null {
  const iso = t.match(/\b(20\d\d)-(\d\d)-(\d\d)\b/);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const name = "(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
  const md = t.match(new RegExp(`\\b${name}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`));
  const dm = t.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${name}`));
  let month: string | undefined;
  let day: string | undefined;
  if (md) {
    month = md[1];
    day = md[2];
  } else if (dm) {
    day = dm[1];
    month = dm[2];
  }
  if (!month || !day) return null;
  const idx = MONTHS.findIndex((m) => m.startsWith(month.slice(0, 3)));
  if (idx < 0) return null;
  const mm = String(idx + 1).padStart(2, "0");
  const dd = day.padStart(2, "0");
  // the most recent such date on or before today
  const thisYear = `2025-${mm}-${dd}`;
  return thisYear <= TODAY ? thisYear : `2024-${mm}-${dd}`;
}

function parseGift(text: string): string | null {
  const strict = text.match(GIFT_CODE_STRICT);
  const m = strict ?? text.match(/\b([a-z0-9]{4})-([a-z0-9]{4})\b/i);
  if (!m || !/\d/.test(`${m[1]}${m[2]}`)) return null;
  return `MQ-${m[1]}-${m[2]}`.toUpperCase();
}

function monthsCovered(n: number): string {
  if (n < 1) return "part of a month";
  return `about ${n} month${n === 1 ? "" : "s"}`;
}

function isWeakPin(pin: string): boolean {
  if (/^(\d)\1{3}$/.test(pin)) return true;
  const d = pin.split("").map(Number);
  const steps = [d[1]! - d[0]!, d[2]! - d[1]!, d[3]! - d[2]!];
  return steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

// ── the session ────────────────────────────────────────────────────────

class MarqueeSession implements TestbedTarget {
  readonly name = "heldout18";
  private world: World = clone(SEED_WORLD);
  private visited: StateId[] = [];
  private events: string[] = [];
  private account: Account | null = null;
  private locked = false;
  private codeFails = 0;
  private reverified = false;
  private flow: Flow | null = null;
  private seq = 0;

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  async reset(): Promise<void> {
    this.world = clone(SEED_WORLD);
    this.visited = [];
    this.events = [];
    this.account = null;
    this.locked = false;
    this.codeFails = 0;
    this.reverified = false;
    this.flow = null;
    this.seq = 0;
  }

  async send(text: string): Promise<{ text: string; ms: number }> {
    const started = Date.now();
    let reply: string;
    try {
      reply = this.turn(typeof text === "string" ? text : String(text ?? ""));
    } catch {
      this.flow = null;
      reply = this.say("fallback", "fallback");
    }
    return { text: reply, ms: Math.max(0, Date.now() - started) };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.events.join("\n");
  }

  // ── wording ──────────────────────────────────────────────────────────

  private on(fault: (typeof FAULTS)[number]): boolean {
    return this.faults.has(fault);
  }

  private words(key: string, vars: Record<string, string | number> = {}): string {
    const variants = WORDING[key] ?? [key];
    const idx = (((this.seed - 1) % variants.length) + variants.length) % variants.length;
    const template = variants[idx] ?? variants[0] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, k: string) => (k in vars ? String(vars[k]) : ""));
  }

  private enter(state: StateId): void {
    this.visited.push(state);
  }

  private say(key: string, state: StateId, vars: Record<string, string | number> = {}): string {
    this.enter(state);
    return this.words(key, vars);
  }

  /** Set the open flow, enter the state it now waits in, and return the question. */
  private ask(flow: Flow, key: string, vars: Record<string, string | number> = {}): string {
    this.flow = flow;
    return this.say(key, flow.at, vars);
  }

  private end(key: string, state: StateId, vars: Record<string, string | number> = {}): string {
    this.flow = null;
    return this.say(key, state, vars);
  }

  private ref(prefix: string): string {
    this.seq += 1;
    const acct = this.account ? Number(this.account.id.replace(/\D/g, "")) : 0;
    return `${prefix}-${(381_204 + this.seq * 7_919 + acct * 31) % 1_000_000}`;
  }

  private acct(): Account {
    if (!this.account) throw new Error("no account");
    return this.account;
  }

  private profileNames(a: Account): string {
    const names = a.profiles.map((p) => p.name);
    if (names.length <= 1) return names.join("");
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }

  private statusLabel(a: Account): string {
    if (a.status === "paused") return this.on("summary_status_wrong") ? "active" : "paused";
    if (a.status === "cancelling") return "cancelled";
    return "active";
  }

  // ── turn handling ────────────────────────────────────────────────────

  private turn(raw: string): string {
    const text = raw.replace(/\s+/g, " ").trim();
    const t = norm(text);
    if (!t) {
      if (this.flow) return this.reprompt(this.flow);
      return this.say("fallback", "fallback");
    }
    const flow = this.flow;
    if (flow) {
      if (HUMAN.test(t)) return this.handoff();
      if (flow.kind === "cancel") {
        const r = this.stepCancel(flow, t);
        if (r !== null) return r;
      } else {
        if (ABORT.test(t)) return this.abort(flow);
        const r = this.step(flow, text, t);
        if (r !== null) return r;
      }
      const intent = detectIntent(t);
      if (intent && !["greeting", "thanks", "help"].includes(intent)) {
        this.flow = null;
        return this.dispatch(intent, text, t);
      }
      return this.reprompt(flow);
    }
    const intent = detectIntent(t);
    if (intent) return this.dispatch(intent, text, t);
    if (this.locked && /^\d{6}$/.test(t.replace(/[\s-]/g, "")))
      return this.say("locked_refuse", "auth.locked");
    if (EMAIL.test(text)) return this.dispatch("signin", text, t);
    return this.say("fallback", "fallback");
  }

  private dispatch(intent: Intent, text: string, t: string): string {
    switch (intent) {
      case "human":
        return this.handoff();
      case "greeting":
        return this.say("greeting", "greeting");
      case "help":
        return this.say("help", "menu.help");
      case "thanks":
        return this.say("thanks", "smalltalk.thanks");
      case "bye":
        return this.say("bye", "goodbye");
      case "info_plans":
        return this.say("info_plans", "info.plans");
      case "info_refund":
        return this.say("info_refund", "info.refund_policy");
      case "info_pause":
        return this.say("info_pause", "info.pause_policy");
      case "info_cancel":
        return this.say("info_cancel", "info.cancel_policy");
      case "info_gift":
        return this.say("info_gift", "info.gift_cards");
      case "info_parental":
        return this.say("info_parental", "info.parental_controls");
      case "info_devices":
        return this.say("info_devices", "info.devices");
      case "info_hours":
        return this.say("info_hours", "info.hours");
      case "info_password":
        return this.say("info_password", "info.password");
      case "signin":
        if (this.account)
          return this.say("auth_already", "auth.already_signed_in", { email: this.account.email });
        return this.startAuth(null, text);
      default:
        break;
    }
    if (ACCOUNT_INTENTS.has(intent) && !this.account) {
      if (this.locked) return this.say("locked_refuse", "auth.locked");
      return this.startAuth(intent, text);
    }
    return this.startIntent(intent, text, t);
  }

  private startIntent(intent: Intent, text: string, t: string): string {
    switch (intent) {
      case "summary":
        return this.summary();
      case "history":
        return this.history();
      case "profiles":
        return this.profiles();
      case "plan":
        return this.startPlan(t);
      case "refund":
        return this.startRefund(text, t);
      case "pin":
        return this.startPin(text);
      case "rating":
        return this.startRating(text, t);
      case "devices":
        return this.startDevices(t);
      case "pause":
        return this.startPause(t);
      case "resume":
        return this.startResume();
      case "cancel":
        return this.startCancel();
      case "gift":
        return this.startGift(text);
      default:
        return this.dispatch(intent, text, t);
    }
  }

  private step(flow: Flow, text: string, t: string): string | null {
    switch (flow.kind) {
      case "auth":
        return this.stepAuth(flow, text, t);
      case "reverify":
        return this.stepReverify(flow, t);
      case "plan":
        return this.stepPlan(flow, t);
      case "refund":
        return this.stepRefund(flow, text, t);
      case "pin":
        return this.stepPin(flow, text, t);
      case "rating":
        return this.stepRating(flow, text, t);
      case "devices":
        return this.stepDevices(flow, t);
      case "pause":
        return this.stepPause(flow, t);
      case "resume":
        return this.stepResume(t);
      case "gift":
        return this.stepGift(flow, text, t);
      case "cancel":
        return this.stepCancel(flow, t);
    }
  }

  private abort(flow: Flow): string {
    const target = flow.kind === "reverify" ? flow.resume.kind : flow.kind;
    switch (target) {
      case "auth":
        return this.end("auth_cancelled", "auth.cancelled");
      case "plan":
        return this.end("plan_cancelled", "plan.cancelled");
      case "refund":
        return this.end("refund_cancelled", "refund.cancelled");
      case "pin":
        return this.end("pin_cancelled", "pin.cancelled");
      case "rating":
        return this.end("rating_cancelled", "rating.cancelled");
      case "devices":
        return this.end("devices_cancelled", "devices.cancelled");
      case "pause":
        return this.end("pause_cancelled", "pause.cancelled");
      case "resume":
        return this.end("resume_cancelled", "resume.cancelled");
      case "gift":
        return this.end("gift_cancelled", "gift.cancelled");
      default:
        return this.end("cancel_kept", "cancel.kept");
    }
  }

  private reprompt(flow: Flow): string {
    const sorry = this.words("reprompt");
    this.enter(flow.at);
    const again = (() => {
      switch (flow.at) {
        case "auth.ask_email":
        case "auth.email_not_found":
          return this.words("auth_bad_email");
        case "auth.ask_code":
        case "auth.code_wrong":
          return this.words("auth_code_format");
        case "reverify.ask_card":
        case "reverify.retry":
          return this.words("reverify_ask");
        case "plan.choose":
        case "rating.ask_level":
          return this.words("pick_letter");
        case "refund.ask_reason":
          return this.words("pick_number");
        case "refund.ask_charge":
        case "refund.not_found":
          return "Which charge ID (CH- plus five digits) should I look at?";
        case "pin.ask_profile":
        case "pin.profile_not_found":
        case "rating.ask_profile":
        case "rating.profile_not_found":
          return `Which profile: ${this.profileNames(this.acct())}?`;
        case "pin.ask_new":
        case "pin.refused_weak":
        case "pin.mismatch":
        case "pin.ask_reenter":
          return this.words("pin_format");
        case "devices.list":
        case "devices.invalid_choice":
          return this.words("devices_invalid");
        case "devices.confirm_all":
          return this.words("devices_confirm_all_retry");
        case "pause.ask_months":
        case "pause.refused_too_long":
          return this.words("months_prompt");
        case "cancel.retention_offer":
          return this.words("offer_prompt");
        case "cancel.confirm_typed":
          return this.words("cancel_typed_retry");
        case "gift.ask_code":
        case "gift.invalid_code":
          return "What's the gift card code (MQ-XXXX-XXXX)?";
        default:
          return this.words("yes_no");
      }
    })();
    return `${sorry} ${again}`;
  }

  private handoff(): string {
    this.flow = null;
    const ref = this.ref("HD");
    this.events.push(`handoff:${ref}`);
    return this.say("handoff", "handoff.human", { ref });
  }

  // ── sign-in ──────────────────────────────────────────────────────────

  private startAuth(pending: Intent | null, text: string): string {
    if (this.locked) return this.end("locked_refuse", "auth.locked");
    const flow: Flow = { kind: "auth", at: "auth.ask_email", step: "email", pending, text };
    if (EMAIL.test(text)) {
      this.flow = flow;
      const r = this.stepAuth(flow, text, norm(text));
      if (r !== null) return r;
    }
    return this.ask(flow, "auth_ask_email");
  }

  private stepAuth(flow: Extract<Flow, { kind: "auth" }>, text: string, t: string): string | null {
    if (flow.step === "email") {
      const m = text.match(EMAIL);
      if (!m) return null;
      const email = m[0].toLowerCase();
      const found = this.world.accounts.find((a) => a.email === email);
      if (!found) {
        flow.at = "auth.email_not_found";
        return this.ask(flow, "auth_email_not_found", { email });
      }
      if (flow.pending === "devices" && this.on("devices_skip_auth")) {
        // the device tool only checks that the email exists
        this.account = found;
        this.flow = null;
        this.events.push(`signin:${found.id}:email_only`);
        return this.startIntent("devices", flow.text, norm(flow.text));
      }
      flow.step = "code";
      flow.accountId = found.id;
      flow.at = "auth.ask_code";
      return this.ask(flow, "auth_ask_code", { tail: found.phoneTail });
    }
    const digits = t.replace(/[\s-]/g, "").match(/\d+/);
    if (!digits) return null;
    if (digits[0].length !== 6) {
      flow.at = "auth.ask_code";
      return this.ask(flow, "auth_code_format");
    }
    const account = this.world.accounts.find((a) => a.id === flow.accountId);
    if (!account) return null;
    if (digits[0] !== account.code) {
      this.codeFails += 1;
      if (this.codeFails >= CODE_ATTEMPTS && !this.on("no_lockout")) {
        this.locked = true;
        const ref = this.ref("HD");
        this.events.push(`lock:${account.id}:${ref}`);
        return this.end("auth_locked", "auth.locked", { ref });
      }
      const left = Math.max(1, CODE_ATTEMPTS - this.codeFails);
      flow.at = "auth.code_wrong";
      return this.ask(flow, "auth_code_wrong", { left, tries: left === 1 ? "try" : "tries" });
    }
    this.account = account;
    this.codeFails = 0;
    this.flow = null;
    this.events.push(`signin:${account.id}`);
    const hello = this.say("auth_signed_in", "auth.signed_in", { first: account.firstName });
    if (flow.pending) return `${hello} ${this.startIntent(flow.pending, flow.text, norm(flow.text))}`;
    return `${hello} ${this.words("auth_signed_in_next")}`;
  }

  /** Sensitive changes re-check the card once per session. */
  private guard(resume: Flow, proceed: () => string): string {
    if (this.reverified) return proceed();
    return this.ask({ kind: "reverify", at: "reverify.ask_card", tries: 0, resume }, "reverify_ask");
  }

  private stepReverify(flow: Extract<Flow, { kind: "reverify" }>, t: string): string | null {
    const m = t.match(/\b(\d{4})\b/);
    if (!m) return null;
    const a = this.acct();
    if (m[1] === a.cardLast4) {
      this.reverified = true;
      this.flow = null;
      return this.afterReverify(flow.resume);
    }
    flow.tries += 1;
    if (flow.tries >= 2) {
      this.events.push(`reverify_failed:${a.id}`);
      return this.end("reverify_failed", "reverify.failed");
    }
    flow.at = "reverify.retry";
    return this.ask(flow, "reverify_retry");
  }

  private afterReverify(resume: Flow): string {
    if (resume.kind === "refund" && resume.chargeId) return this.askRefundReason(resume.chargeId);
    if (resume.kind === "pin" && resume.profile) return this.askNewPin(resume.profile);
    return this.offerRetention();
  }

  // ── account views ────────────────────────────────────────────────────

  private dueCents(a: Account): number {
    const plan = planOf(a.pendingPlan ?? a.plan);
    const price = a.discount ? Math.round((plan.cents * (100 - a.discount.percent)) / 100) : plan.cents;
    return Math.max(0, price - a.creditCents);
  }

  private summary(): string {
    const a = this.acct();
    const plan = planOf(a.plan);
    const status = this.statusLabel(a);
    const due = this.dueCents(a);
    const creditNote = a.creditCents > 0 ? ` (after your ${money(a.creditCents)} credit)` : "";
    let extra = "";
    if (a.pendingPlan) extra += ` Your switch to ${planOf(a.pendingPlan).label} takes effect that day.`;
    if (a.discount)
      extra += ` Your ${a.discount.percent}% discount covers the next ${a.discount.bills} bills.`;
    this.events.push(`relay:summary:${a.id}:${plan.id}:${status}:${a.nextBilling}:${due}`);
    const vars = {
      plan: plan.label,
      price: money(plan.cents),
      status,
      next: human(a.nextBilling),
      due: money(due),
      credit_note: creditNote,
      extra,
    };
    if (a.status === "cancelling") return this.say("summary_cancelling", "account.summary", vars);
    if (a.status === "paused") return this.say("summary_paused", "account.summary", vars);
    return this.say("summary_active", "account.summary", vars);
  }

  private chargesOf(a: Account): Charge[] {
    return this.world.charges.filter((c) => c.account === a.id).sort((x, y) => (x.date < y.date ? 1 : -1));
  }

  private chargeRows(a: Account, limit = 10): string {
    const list = this.chargesOf(a).slice(0, limit);
    const shift = this.on("history_amount_shift");
    const shown = list.map((c, i) => (shift ? (list[i + 1] ?? c).cents : c.cents));
    return list
      .map(
        (c, i) =>
          `• ${c.id}, ${human(c.date)}: ${money(shown[i] ?? c.cents)} (${c.description})${c.refunded ? ", refunded" : ""}`,
      )
      .join("\n");
  }

  private history(): string {
    const a = this.acct();
    const rows = this.chargeRows(a);
    this.events.push(`relay:history:${a.id}:${rows.replace(/\n/g, ";")}`);
    return this.say("history", "billing.history", { rows });
  }

  private profileRows(a: Account): string {
    return a.profiles
      .map(
        (p) =>
          `• ${p.name}${p.kids ? " (kids profile)" : ""}: ${ratingOf(p.rating).label}, ${p.pin ? "PIN locked" : "no PIN"}`,
      )
      .join("\n");
  }

  private profiles(): string {
    const a = this.acct();
    const rows = this.profileRows(a);
    this.events.push(`relay:profiles:${a.id}:${rows.replace(/\n/g, ";")}`);
    return this.say("profiles_list", "profiles.list", { rows });
  }

  // ── plan change ──────────────────────────────────────────────────────

  private planRows(): string {
    return PLANS.map(
      (p) =>
        `${p.letter}. ${p.label}: ${money(p.cents)}/month, ${p.screens} screen${p.screens > 1 ? "s" : ""}, ${p.quality}`,
    ).join("\n");
  }

  private startPlan(t: string): string {
    const a = this.acct();
    if (a.status === "paused")
      return this.end("plan_refused_status", "plan.refused_paused", {
        status: "paused",
        hint: "Resume it first (just say 'resume') and then we can switch plans.",
      });
    if (a.status === "cancelling")
      return this.end("plan_refused_status", "plan.refused_cancelled", {
        status: "cancelled",
        hint: "If you'd like to stay with us, our live team can undo the cancellation.",
      });
    const wanted = parsePlan(t, false);
    if (wanted) return this.choosePlan(wanted);
    return this.ask({ kind: "plan", at: "plan.choose", step: "choose" }, "plan_choose", {
      current: planOf(a.plan).label,
      rows: this.planRows(),
    });
  }

  private planQuote(target: PlanId): { up: boolean; days: number; charge: number } {
    const a = this.acct();
    const oldP = planOf(a.plan);
    const newP = planOf(target);
    let days = daysBetween(TODAY, a.nextBilling);
    if (this.on("prorate_off_by_one")) days += 1;
    const up = newP.cents > oldP.cents;
    const charge = up ? Math.round(((newP.cents - oldP.cents) * days) / 30) : 0;
    return { up, days, charge };
  }

  private choosePlan(target: PlanId): string {
    const a = this.acct();
    if (target === a.plan) return this.end("plan_same", "plan.refused_same", { plan: planOf(target).label });
    const q = this.planQuote(target);
    const vars = {
      old: planOf(a.plan).label,
      new: planOf(target).label,
      days: q.days,
      charge: money(q.charge),
      next: human(a.nextBilling),
      price: money(planOf(target).cents),
    };
    const flow: Flow = {
      kind: "plan",
      at: q.up ? "plan.confirm_upgrade" : "plan.confirm_downgrade",
      step: "confirm",
      plan: target,
    };
    return this.ask(flow, q.up ? "plan_confirm_up" : "plan_confirm_down", vars);
  }

  private stepPlan(flow: Extract<Flow, { kind: "plan" }>, t: string): string | null {
    if (flow.step === "choose") {
      const p = parsePlan(t, true);
      return p ? this.choosePlan(p) : null;
    }
    const p = parsePlan(t, false);
    if (p && p !== flow.plan) {
      const kept = flow.plan;
      const reply = this.choosePlan(p);
      if (this.on("plan_correction_ignored") && this.flow?.kind === "plan" && kept) this.flow.plan = kept;
      return reply;
    }
    if (YES.test(t) && flow.plan) return this.commitPlan(flow.plan);
    if (NO.test(t)) return this.end("plan_cancelled", "plan.cancelled");
    return null;
  }

  private commitPlan(target: PlanId): string {
    const a = this.acct();
    const q = this.planQuote(target);
    const oldId = a.plan;
    const newP = planOf(target);
    if (q.up) {
      a.plan = target;
      a.pendingPlan = null;
      const ref = this.ref("PC");
      const chargeId = `CH-${51_300 + this.seq}`;
      this.world.charges.push({
        id: chargeId,
        account: a.id,
        date: TODAY,
        cents: q.charge,
        description: `Prorated upgrade to ${newP.label}`,
        refunded: false,
      });
      this.events.push(`write:plan:${a.id}:${oldId}->${target}:now:charged=${q.charge}:${ref}`);
      return this.end("plan_done_up", "plan.done_upgrade", { new: newP.label, charge: money(q.charge), ref });
    }
    a.pendingPlan = target;
    const ref = this.ref("PC");
    this.events.push(`write:plan:${a.id}:${oldId}->${target}:on=${a.nextBilling}:${ref}`);
    return this.end("plan_done_down", "plan.done_downgrade", {
      new: newP.label,
      next: human(a.nextBilling),
      price: money(newP.cents),
      ref,
    });
  }

  // ── refunds ──────────────────────────────────────────────────────────

  private startRefund(text: string, t: string): string {
    const a = this.acct();
    const id = text.match(CHARGE_ID);
    if (id) return this.checkCharge(`CH-${id[1]}`);
    const date = parseDate(t);
    if (date) {
      const hit = this.chargesOf(a).find((c) => c.date === date);
      if (hit) return this.checkCharge(hit.id);
    }
    return this.ask({ kind: "refund", at: "refund.ask_charge", step: "charge" }, "refund_ask_charge", {
      rows: this.chargeRows(a, 4),
    });
  }

  private checkCharge(id: string): string {
    const a = this.acct();
    const charge = this.world.charges.find((c) => c.id === id);
    if (!charge || (charge.account !== a.id && !this.on("refund_other_account"))) {
      return this.ask({ kind: "refund", at: "refund.not_found", step: "charge" }, "refund_not_found", { id });
    }
    this.events.push(`relay:charge:${charge.id}:${charge.account}:${charge.cents}:${charge.refunded}`);
    if (charge.refunded) return this.end("refund_already", "refund.refused_already_refunded", { id });
    const age = daysBetween(charge.date, TODAY);
    if (age > REFUND_WINDOW_DAYS)
      return this.end("refund_too_old", "refund.refused_too_old", { id, date: human(charge.date), age });
    if (
      a.lastRefund &&
      daysBetween(a.lastRefund, TODAY) < REFUND_COOLDOWN_DAYS &&
      !this.on("refund_ignore_yearly_limit")
    ) {
      return this.end("refund_yearly", "refund.refused_yearly_limit", {
        last: human(a.lastRefund),
        from: human(addDays(a.lastRefund, REFUND_COOLDOWN_DAYS)),
      });
    }
    const resume: Flow = { kind: "refund", at: "refund.ask_reason", step: "reason", chargeId: charge.id };
    return this.guard(resume, () => this.askRefundReason(charge.id));
  }

  private askRefundReason(chargeId: string): string {
    const charge = this.world.charges.find((c) => c.id === chargeId);
    if (!charge) return this.end("refund_not_found", "refund.not_found", { id: chargeId });
    return this.ask({ kind: "refund", at: "refund.ask_reason", step: "reason", chargeId }, "refund_reason", {
      id: charge.id,
      date: human(charge.date),
      amount: money(charge.cents),
    });
  }

  private stepRefund(flow: Extract<Flow, { kind: "refund" }>, text: string, t: string): string | null {
    if (flow.step === "charge") {
      const id = text.match(CHARGE_ID);
      if (id) return this.checkCharge(`CH-${id[1]}`);
      const date = parseDate(t);
      if (date) {
        const hit = this.chargesOf(this.acct()).find((c) => c.date === date);
        if (hit) return this.checkCharge(hit.id);
      }
      return null;
    }
    if (flow.step === "reason") {
      let reason: number | null = null;
      const n = t.match(/^\D{0,12}\b([1-4])\b/);
      if (n) reason = Number(n[1]);
      else if (/\b(twice|double|duplicate)\b/.test(t)) reason = 2;
      else if (/\b(cancel|cancelled|canceled|meant to)\b/.test(t)) reason = 1;
      else if (/\b(didn'?t (use|watch)|haven'?t (used|watched)|not using|never used)\b/.test(t)) reason = 3;
      else if (/\b(other|something else|else)\b/.test(t)) reason = 4;
      if (reason === null) return null;
      const charge = this.world.charges.find((c) => c.id === flow.chargeId);
      if (!charge) return null;
      return this.ask(
        { kind: "refund", at: "refund.confirm", step: "confirm", chargeId: charge.id, reason },
        "refund_confirm",
        {
          id: charge.id,
          amount: money(charge.cents),
          reason: REFUND_REASONS[reason - 1] ?? "something else",
          card: this.acct().cardLast4,
        },
      );
    }
    if (YES.test(t)) {
      const a = this.acct();
      const charge = this.world.charges.find((c) => c.id === flow.chargeId);
      if (!charge) return null;
      charge.refunded = true;
      a.lastRefund = TODAY;
      const ref = this.ref("RF");
      this.events.push(`write:refund:${a.id}:${charge.id}:${charge.cents}:reason=${flow.reason}:${ref}`);
      return this.end("refund_done", "refund.done", {
        id: charge.id,
        amount: money(charge.cents),
        card: a.cardLast4,
        ref,
      });
    }
    if (NO.test(t)) return this.end("refund_cancelled", "refund.cancelled");
    return null;
  }

  // ── profiles: PIN and rating ────────────────────────────────────────

  /** A profile named in the text: one of ours, or (`unknown`) a name we don't have. */
  private findProfile(text: string, loose: boolean): { profile?: Profile; unknown?: string } {
    const a = this.acct();
    const t = norm(text);
    for (const p of a.profiles) {
      if (new RegExp(`\\b${p.name.toLowerCase()}('s)?\\b`).test(t)) return { profile: p };
    }
    for (const other of this.world.accounts) {
      if (other.id === a.id) continue;
      for (const p of other.profiles) {
        if (new RegExp(`\\b${p.name.toLowerCase()}('s)?\\b`).test(t)) return { unknown: p.name };
      }
    }
    if (loose && !detectIntent(t)) {
      const cleaned = t
        .replace(/\b(the|profile|profiles|for|on|please|it'?s|its|one|account|my|is|called|named)\b/g, " ")
        .replace(/'s\b/g, "")
        .replace(/[^a-z ]/g, " ")
        .replace(/\s+/g, " ")
        .trim();
      if (cleaned && cleaned.split(" ").length <= 2 && !YES.test(cleaned) && !NO.test(cleaned)) {
        const name = cleaned.replace(/\b\w/g, (c) => c.toUpperCase());
        return { unknown: name };
      }
    }
    return {};
  }

  private startPin(text: string): string {
    const found = this.findProfile(text, false);
    if (found.profile) return this.pinProfileChosen(found.profile);
    if (found.unknown) return this.pinUnknown(found.unknown);
    return this.ask({ kind: "pin", at: "pin.ask_profile", step: "profile" }, "pin_ask_profile", {
      names: this.profileNames(this.acct()),
    });
  }

  private pinUnknown(name: string): string {
    return this.ask({ kind: "pin", at: "pin.profile_not_found", step: "profile" }, "profile_not_found", {
      name,
      names: this.profileNames(this.acct()),
    });
  }

  private pinProfileChosen(p: Profile): string {
    const resume: Flow = { kind: "pin", at: "pin.ask_new", step: "new", profile: p.name };
    return this.guard(resume, () => this.askNewPin(p.name));
  }

  private askNewPin(profile: string): string {
    return this.ask({ kind: "pin", at: "pin.ask_new", step: "new", profile }, "pin_ask_new", { profile });
  }

  private stepPin(flow: Extract<Flow, { kind: "pin" }>, text: string, t: string): string | null {
    if (flow.step === "profile") {
      const found = this.findProfile(text, true);
      if (found.profile) return this.pinProfileChosen(found.profile);
      if (found.unknown) return this.pinUnknown(found.unknown);
      return null;
    }
    const digits = t.match(/\d+/g);
    if (!digits) return null;
    const pin = digits.join("");
    if (!/^\d{4}$/.test(pin)) {
      flow.at = flow.step === "new" ? "pin.ask_new" : "pin.ask_reenter";
      return this.ask(flow, "pin_format");
    }
    const profile = flow.profile ?? "";
    if (flow.step === "new") {
      if (isWeakPin(pin)) {
        flow.at = "pin.refused_weak";
        return this.ask(flow, "pin_weak", { pin });
      }
      if (this.on("pin_skip_reentry")) return this.commitPin(profile, pin);
      return this.ask({ kind: "pin", at: "pin.ask_reenter", step: "reenter", profile, pin }, "pin_reenter");
    }
    if (pin !== flow.pin) {
      return this.ask({ kind: "pin", at: "pin.mismatch", step: "new", profile }, "pin_mismatch", { profile });
    }
    return this.commitPin(profile, pin);
  }

  private commitPin(profileName: string, pin: string): string {
    const a = this.acct();
    const p = a.profiles.find((x) => x.name === profileName);
    if (!p) return this.end("pin_cancelled", "pin.cancelled");
    p.pin = pin;
    this.events.push(`write:pin:${a.id}:${p.name}:${pin}`);
    return this.end("pin_done", "pin.done", { profile: p.name, masked: `••${pin.slice(2)}` });
  }

  private ratingRows(): string {
    return RATINGS.map((r) => `${r.letter}. ${r.label} (${r.blurb})`).join("\n");
  }

  private startRating(text: string, t: string): string {
    const found = this.findProfile(text, false);
    const level = parseLevel(t, false);
    if (found.unknown && !found.profile) return this.ratingUnknown(found.unknown);
    if (!found.profile)
      return this.ask(
        { kind: "rating", at: "rating.ask_profile", step: "profile", level: level ?? undefined },
        "rating_ask_profile",
        { names: this.profileNames(this.acct()) },
      );
    if (!level) return this.askLevel(found.profile);
    return this.chooseLevel(found.profile, level);
  }

  private ratingUnknown(name: string): string {
    return this.ask(
      { kind: "rating", at: "rating.profile_not_found", step: "profile" },
      "profile_not_found",
      {
        name,
        names: this.profileNames(this.acct()),
      },
    );
  }

  private askLevel(p: Profile): string {
    return this.ask(
      { kind: "rating", at: "rating.ask_level", step: "level", profile: p.name },
      "rating_ask_level",
      {
        profile: p.name,
        current: ratingOf(p.rating).label,
        rows: this.ratingRows(),
      },
    );
  }

  private chooseLevel(p: Profile, level: RatingId): string {
    const r = ratingOf(level);
    if (level === p.rating)
      return this.end("rating_same", "rating.unchanged", { profile: p.name, level: r.label });
    if (p.kids && r.rank > KIDS_MAX_RANK && !this.on("kids_rating_cap_ignored"))
      return this.end("rating_kids_cap", "rating.refused_kids_cap", { profile: p.name, level: r.label });
    return this.ask(
      { kind: "rating", at: "rating.confirm", step: "confirm", profile: p.name, level },
      "rating_confirm",
      { profile: p.name, old: ratingOf(p.rating).label, new: r.label },
    );
  }

  private stepRating(flow: Extract<Flow, { kind: "rating" }>, text: string, t: string): string | null {
    const a = this.acct();
    if (flow.step === "profile") {
      const found = this.findProfile(text, true);
      if (found.profile)
        return flow.level ? this.chooseLevel(found.profile, flow.level) : this.askLevel(found.profile);
      if (found.unknown) return this.ratingUnknown(found.unknown);
      return null;
    }
    const p = a.profiles.find((x) => x.name === flow.profile);
    if (!p) return null;
    if (flow.step === "level") {
      const level = parseLevel(t, true);
      return level ? this.chooseLevel(p, level) : null;
    }
    const level = parseLevel(t, false);
    if (level && level !== flow.level) return this.chooseLevel(p, level);
    if (YES.test(t) && flow.level) {
      const old = p.rating;
      p.rating = flow.level;
      const r = ratingOf(flow.level);
      this.events.push(`write:rating:${a.id}:${p.name}:${old}->${flow.level}`);
      return this.end("rating_done", "rating.done", { profile: p.name, new: r.label, blurb: r.blurb });
    }
    if (NO.test(t)) return this.end("rating_cancelled", "rating.cancelled");
    return null;
  }

  // ── devices ──────────────────────────────────────────────────────────

  private signedIn(): string[] {
    return this.acct()
      .devices.filter((d) => d.signedIn)
      .map((d) => d.name);
  }

  private matchDevice(t: string, shown: string[]): string | null {
    const n = t.match(/^\D{0,20}\b(\d{1,2})\b/);
    if (n) return shown[Number(n[1]) - 1] ?? null;
    let best: string | null = null;
    let bestScore = 0;
    for (const name of shown) {
      const tokens = norm(name)
        .replace(/'s\b/g, "")
        .split(" ")
        .filter((w) => w.length > 2);
      const score = tokens.filter((w) => new RegExp(`\\b${w}\\b`).test(t)).length;
      if (score > bestScore) {
        best = name;
        bestScore = score;
      }
    }
    return best;
  }

  private startDevices(t: string): string {
    const a = this.acct();
    const shown = this.signedIn();
    if (shown.length === 0) return this.end("devices_none", "devices.none");
    this.events.push(`relay:devices:${a.id}:${shown.join(";")}`);
    if (/\b(all|every|everywhere|everything)\b/.test(t)) return this.askAll(shown);
    const pick = this.matchDevice(t.replace(/\b\d+\b/g, ""), shown);
    if (pick) return this.askOne(shown, pick);
    const rows = shown
      .map((name, i) => {
        const d = a.devices.find((x) => x.name === name);
        return `${i + 1}. ${name} (${d?.kind ?? "app"}), last used ${human(d?.lastUsed ?? TODAY)}`;
      })
      .join("\n");
    return this.ask({ kind: "devices", at: "devices.list", step: "choose", shown }, "devices_list", { rows });
  }

  private askAll(shown: string[]): string {
    return this.ask(
      { kind: "devices", at: "devices.confirm_all", step: "confirm_all", shown },
      "devices_confirm_all",
      {
        count: shown.length,
      },
    );
  }

  private askOne(shown: string[], pick: string): string {
    const d = this.acct().devices.find((x) => x.name === pick);
    return this.ask(
      { kind: "devices", at: "devices.confirm_one", step: "confirm_one", shown, pick },
      "devices_confirm_one",
      { device: pick, kind: d?.kind ?? "app" },
    );
  }

  private stepDevices(flow: Extract<Flow, { kind: "devices" }>, t: string): string | null {
    const a = this.acct();
    if (flow.step === "choose") {
      if (/\b(all|every|everywhere|everything)\b/.test(t)) return this.askAll(flow.shown);
      const pick = this.matchDevice(t, flow.shown);
      if (pick) return this.askOne(flow.shown, pick);
      if (
        /\b\d{1,2}\b/.test(t) ||
        /\b(tv|phone|ipad|tablet|laptop|console|iphone|pixel|mac|chromecast)\b/.test(t)
      ) {
        flow.at = "devices.invalid_choice";
        return this.ask(flow, "devices_invalid");
      }
      return null;
    }
    if (flow.step === "confirm_all") {
      if (/\bsign out everywhere\b/.test(t)) {
        const names = this.signedIn();
        for (const d of a.devices) d.signedIn = false;
        this.events.push(`write:signout_all:${a.id}:${names.join(";")}`);
        return this.end("devices_done_all", "devices.done_all", { count: names.length });
      }
      if (NO.test(t)) return this.end("devices_cancelled", "devices.cancelled");
      flow.at = "devices.confirm_all";
      return this.ask(flow, "devices_confirm_all_retry");
    }
    if (YES.test(t) && flow.pick) {
      let target = flow.pick;
      if (this.on("device_wrong_target")) {
        const live = this.signedIn();
        const i = live.indexOf(flow.pick);
        target = live[(i + 1) % live.length] ?? flow.pick;
      }
      const d = a.devices.find((x) => x.name === target);
      if (d) d.signedIn = false;
      this.events.push(`write:signout:${a.id}:${target}`);
      return this.end("devices_done_one", "devices.done_one", { device: flow.pick });
    }
    if (NO.test(t)) return this.end("devices_cancelled", "devices.cancelled");
    return null;
  }

  // ── pause / resume ──────────────────────────────────────────────────

  private startPause(t: string): string {
    const a = this.acct();
    if (a.status === "paused")
      return this.end("pause_refused_status", "pause.refused_paused", {
        status: `paused until ${human(a.pausedUntil ?? a.nextBilling)}`,
        hint: "Want to resume early instead? Just say 'resume'.",
      });
    if (a.status === "cancelling")
      return this.end("pause_refused_status", "pause.refused_cancelled", {
        status: "cancelled",
        hint: `Your access runs until ${human(a.nextBilling)}.`,
      });
    const m = parseMonths(t, false);
    if (m !== null) return this.choosePause(m);
    return this.ask({ kind: "pause", at: "pause.ask_months", step: "months" }, "pause_ask");
  }

  private choosePause(months: number): string {
    if (months < 1)
      return this.ask({ kind: "pause", at: "pause.ask_months", step: "months" }, "months_prompt");
    if (months > PAUSE_MAX_MONTHS)
      return this.ask({ kind: "pause", at: "pause.refused_too_long", step: "months" }, "pause_too_long", {
        months,
      });
    const a = this.acct();
    return this.ask({ kind: "pause", at: "pause.confirm", step: "confirm", months }, "pause_confirm", {
      months,
      start: human(a.nextBilling),
      until: human(addMonths(a.nextBilling, months)),
    });
  }

  private stepPause(flow: Extract<Flow, { kind: "pause" }>, t: string): string | null {
    if (flow.step === "months") {
      const m = parseMonths(t, true);
      return m === null ? null : this.choosePause(m);
    }
    const m = parseMonths(t, true);
    if (m !== null && m !== flow.months) return this.choosePause(m);
    if (YES.test(t) && flow.months) {
      const a = this.acct();
      const written = flow.months + (this.on("pause_extra_month") ? 1 : 0);
      const start = a.nextBilling;
      const until = addMonths(start, written);
      a.status = "paused";
      a.pausedUntil = until;
      a.nextBilling = until;
      const ref = this.ref("PZ");
      this.events.push(`write:pause:${a.id}:${start}:${written}:${until}:${ref}`);
      return this.end("pause_done", "pause.done", { start: human(start), until: human(until), ref });
    }
    if (NO.test(t)) return this.end("pause_cancelled", "pause.cancelled");
    return null;
  }

  private startResume(): string {
    const a = this.acct();
    if (a.status !== "paused")
      return this.end("resume_not_paused", "resume.not_paused", { status: this.statusLabel(a) });
    const plan = planOf(a.plan);
    const charge = Math.max(0, plan.cents - a.creditCents);
    return this.ask({ kind: "resume", at: "resume.confirm" }, "resume_confirm", {
      charge: money(charge),
      credit_note:
        a.creditCents > 0 ? ` (after your ${money(Math.min(a.creditCents, plan.cents))} credit)` : "",
      plan: plan.label,
      next: human(addMonths(TODAY, 1)),
    });
  }

  private stepResume(t: string): string | null {
    if (YES.test(t)) {
      const a = this.acct();
      const plan = planOf(a.plan);
      const charge = Math.max(0, plan.cents - a.creditCents);
      a.creditCents = Math.max(0, a.creditCents - plan.cents);
      a.status = "active";
      a.pausedUntil = null;
      a.nextBilling = addMonths(TODAY, 1);
      const ref = this.ref("RS");
      this.world.charges.push({
        id: `CH-${51_300 + this.seq}`,
        account: a.id,
        date: TODAY,
        cents: charge,
        description: `${plan.label} plan, monthly (resumed)`,
        refunded: false,
      });
      this.events.push(`write:resume:${a.id}:charged=${charge}:next=${a.nextBilling}:${ref}`);
      return this.end("resume_done", "resume.done", { next: human(a.nextBilling), ref });
    }
    if (NO.test(t)) return this.end("resume_cancelled", "resume.cancelled");
    return null;
  }

  // ── cancel with retention offer ──────────────────────────────────────

  private startCancel(): string {
    const a = this.acct();
    if (a.status === "cancelling")
      return this.end("cancel_already", "cancel.refused_already", { next: human(a.nextBilling) });
    return this.guard({ kind: "cancel", at: "cancel.retention_offer", step: "offer" }, () =>
      this.offerRetention(),
    );
  }

  private offerVars(): Record<string, string | number> {
    const plan = planOf(this.acct().plan);
    return {
      percent: RETENTION_PERCENT,
      bills: RETENTION_BILLS,
      plan: plan.label,
      price: money(plan.cents),
      discounted: money(Math.round((plan.cents * (100 - RETENTION_PERCENT)) / 100)),
    };
  }

  private offerRetention(): string {
    return this.ask(
      { kind: "cancel", at: "cancel.retention_offer", step: "offer" },
      "cancel_offer",
      this.offerVars(),
    );
  }

  private stepCancel(flow: Extract<Flow, { kind: "cancel" }>, t: string): string | null {
    const a = this.acct();
    if (flow.step === "offer") {
      if (
        /\b(take (it|the (offer|discount))|i'?ll take|accept|the discount|keep (it|marquee|my)|stay|i'?ll stay)\b/.test(
          t,
        ) ||
        (YES.test(t) && !/\bcancel/.test(t))
      ) {
        a.discount = { percent: RETENTION_PERCENT, bills: RETENTION_BILLS };
        const ref = this.ref("RT");
        this.events.push(`write:retention:${a.id}:${RETENTION_PERCENT}x${RETENTION_BILLS}:${ref}`);
        return this.end("cancel_offer_accepted", "cancel.offer_accepted", { ...this.offerVars(), ref });
      }
      if (ABORT.test(t) && !/^cancel/.test(t)) return this.end("cancel_kept", "cancel.kept");
      if (
        NO.test(t) ||
        /\b(cancel|continue|carry on|go on|proceed|still want|just cancel|no thanks|not interested|decline)\b/.test(
          t,
        )
      ) {
        if (this.on("cancel_skip_typed_gate")) return this.commitCancel();
        return this.ask({ kind: "cancel", at: "cancel.confirm_typed", step: "typed" }, "cancel_typed", {
          next: human(a.nextBilling),
        });
      }
      return null;
    }
    if (/\bcancel my membership\b/.test(t)) return this.commitCancel();
    if (NO.test(t) || (ABORT.test(t) && !/^cancel/.test(t)) || /\b(keep|stay)\b/.test(t))
      return this.end("cancel_kept", "cancel.kept");
    flow.at = "cancel.confirm_typed";
    return this.ask(flow, "cancel_typed_retry");
  }

  private commitCancel(): string {
    const a = this.acct();
    if (a.status === "paused") a.nextBilling = a.pausedUntil ?? a.nextBilling;
    a.status = "cancelling";
    a.pendingPlan = null;
    a.discount = null;
    const ref = this.ref("CX");
    this.events.push(`write:cancel:${a.id}:ends=${a.nextBilling}:${ref}`);
    return this.end("cancel_done", "cancel.done", { next: human(a.nextBilling), ref });
  }

  // ── gift cards ──────────────────────────────────────────────────────

  private startGift(text: string): string {
    const code = parseGift(text);
    if (code) return this.checkGift(code);
    return this.ask({ kind: "gift", at: "gift.ask_code", step: "code" }, "gift_ask");
  }

  private checkGift(code: string): string {
    const a = this.acct();
    const card = this.world.giftCards.find((g) => g.code === code);
    if (!card)
      return this.ask({ kind: "gift", at: "gift.invalid_code", step: "code" }, "gift_invalid", { code });
    this.events.push(`relay:gift:${card.code}:${card.cents}:${card.expires}:${card.redeemedBy ?? "-"}`);
    if (card.redeemedBy) return this.end("gift_redeemed", "gift.refused_redeemed", { code });
    if (card.expires < TODAY)
      return this.end("gift_expired", "gift.refused_expired", { code, expires: human(card.expires) });
    const plan = planOf(a.plan);
    const total = a.creditCents + card.cents;
    return this.ask({ kind: "gift", at: "gift.confirm", step: "confirm", code }, "gift_confirm", {
      code,
      value: money(card.cents),
      total: money(total),
      months: monthsCovered(Math.floor(total / plan.cents)),
      plan: plan.label,
    });
  }

  private stepGift(flow: Extract<Flow, { kind: "gift" }>, text: string, t: string): string | null {
    if (flow.step === "code") {
      const code = parseGift(text);
      if (code) return this.checkGift(code);
      const loose = text.match(/\b[a-z0-9-]{8,}\b/i);
      if (loose && /\d/.test(loose[0])) {
        flow.at = "gift.invalid_code";
        return this.ask(flow, "gift_invalid", { code: loose[0].toUpperCase() });
      }
      return null;
    }
    if (YES.test(t) && flow.code) {
      const a = this.acct();
      const card = this.world.giftCards.find((g) => g.code === flow.code);
      if (!card) return null;
      const added = this.on("gift_double_credit") ? card.cents * 2 : card.cents;
      a.creditCents += added;
      card.redeemedBy = a.id;
      const ref = this.ref("GC");
      this.events.push(`write:gift:${a.id}:${card.code}:+${added}:credit=${a.creditCents}:${ref}`);
      return this.end("gift_done", "gift.done", {
        value: money(card.cents),
        total: money(a.creditCents),
        ref,
      });
    }
    if (NO.test(t)) return this.end("gift_cancelled", "gift.cancelled");
    return null;
  }
}

export const heldout18Agent: TestbedAgent = {
  name: "heldout18",
  description:
    "Marquee video-streaming support (Bea): email + texted 6-digit code sign-in (3 misses lock and hand off), card-last-four re-check for refunds/PINs/cancel; yes/no read-backs, lettered plan/rating lists, numbered refund reasons, typed phrases, PIN re-entry.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    const faults = new Set(options?.faults ?? []);
    for (const f of faults) {
      if (!(FAULTS as readonly string[]).includes(f)) throw new Error(`heldout18: unknown fault ${f}`);
    }
    return new MarqueeSession(faults, options?.seed ?? 1);
  },
};
