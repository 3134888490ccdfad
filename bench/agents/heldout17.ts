import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  type Beneficiary,
  type Db,
  FACTS,
  type Member,
  type Pot,
  RELATIONSHIPS,
  STATEMENT_YEARS,
  seedDb,
  T,
  TODAY,
} from "./heldout17-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * Harbourline Pensions member assistant ("Pip"): a rule-based workplace-pension bot. Sign-in is membership
 * number + date of birth (together or one after the other) followed by a texted one-time code, with a lock-out
 * after three failures; a memorable word is re-checked before beneficiary, transfer and address changes.
 */

const FAULTS = [
  "otp_skipped",
  "no_lockout",
  "reverify_skipped",
  "other_member_pot",
  "withdraw_age_unchecked",
  "withdraw_over_balance",
  "contrib_no_confirm",
  "transfer_scam_ignored",
  "cancel_after_cooloff",
  "benef_total_unchecked",
  "quote_age_unchecked",
  "tax_free_miscalc",
  "withdraw_fee_omitted",
  "cooling_off_wrong",
  "contrib_correction_lost",
  "benef_share_swap",
  "balance_value_mutation",
  "balance_status_mislabel",
] as const;
type FaultId = (typeof FAULTS)[number];

const STATES = [
  "greeting",
  "menu",
  "fallback",
  "thanks",
  "goodbye",
  "flow.cancelled",
  "handoff.done",
  "info.hours",
  "info.fees",
  "info.pension_age",
  "info.tax",
  "info.cooling_off",
  "info.contact",
  "info.scams",
  "info.allowance",
  "info.lost_details",
  "auth.ask_membership",
  "auth.bad_format",
  "auth.ask_dob",
  "auth.bad_dob",
  "auth.mismatch",
  "auth.ask_code",
  "auth.code_wrong",
  "auth.code_resent",
  "auth.locked",
  "auth.verified",
  "auth.already_signed_in",
  "auth.signed_out",
  "reverify.ask_word",
  "reverify.failed",
  "reverify.passed",
  "reverify.locked",
  "balance.summary",
  "balance.pot_detail",
  "balance.pot_not_found",
  "balance.pot_not_yours",
  "statement.ask_year",
  "statement.refused_unavailable",
  "statement.ask_delivery",
  "statement.done",
  "contrib.ask_rate",
  "contrib.refused_not_active",
  "contrib.refused_recent_change",
  "contrib.refused_out_of_range",
  "contrib.same_rate",
  "contrib.confirm",
  "contrib.corrected",
  "contrib.declined",
  "contrib.done",
  "withdraw.refused_under_age",
  "withdraw.ask_pot",
  "withdraw.pot_not_found",
  "withdraw.refused_not_yours",
  "withdraw.refused_pot_status",
  "withdraw.refused_advice_needed",
  "withdraw.ask_amount",
  "withdraw.refused_under_minimum",
  "withdraw.refused_over_balance",
  "withdraw.quote",
  "withdraw.word_mismatch",
  "withdraw.ask_bank_digits",
  "withdraw.bank_mismatch",
  "withdraw.done",
  "benef.show_current",
  "benef.ask_count",
  "benef.refused_too_many",
  "benef.ask_name",
  "benef.ask_relationship",
  "benef.ask_share",
  "benef.invalid_share",
  "benef.refused_total",
  "benef.confirm",
  "benef.done",
  "transfer.ask_pot",
  "transfer.pot_not_found",
  "transfer.refused_not_yours",
  "transfer.refused_status",
  "transfer.refused_advice_needed",
  "transfer.ask_scheme",
  "transfer.ask_scam_check",
  "transfer.refused_scam_risk",
  "transfer.confirm",
  "transfer.word_mismatch",
  "transfer.done",
  "tcancel.ask_ref",
  "tcancel.not_found",
  "tcancel.refused_not_yours",
  "tcancel.refused_cooling_off_ended",
  "tcancel.already_cancelled",
  "tcancel.confirm",
  "tcancel.kept",
  "tcancel.done",
  "address.ask_line",
  "address.ask_postcode",
  "address.invalid_postcode",
  "address.refused_overseas",
  "address.reenter_postcode",
  "address.postcode_mismatch",
  "address.done",
  "quote.ask_age",
  "quote.refused_age",
  "quote.ask_option",
  "quote.result",
] as const;
type StateId = (typeof STATES)[number];

type Awaiting =
  | "auth.number"
  | "auth.dob"
  | "auth.code"
  | "reverify.word"
  | "statement.year"
  | "statement.delivery"
  | "contrib.rate"
  | "contrib.confirm"
  | "withdraw.pot"
  | "withdraw.amount"
  | "withdraw.word"
  | "withdraw.bank"
  | "benef.count"
  | "benef.name"
  | "benef.relationship"
  | "benef.share"
  | "benef.confirm"
  | "transfer.pot"
  | "transfer.scheme"
  | "transfer.scam"
  | "transfer.word"
  | "tcancel.ref"
  | "tcancel.confirm"
  | "address.line"
  | "address.postcode"
  | "address.reenter"
  | "quote.age"
  | "quote.option";

type Workflow =
  | "balance"
  | "statement"
  | "contrib"
  | "withdraw"
  | "benef.view"
  | "benef.update"
  | "transfer"
  | "tcancel"
  | "address"
  | "quote";
const WORKFLOWS: ReadonlySet<string> = new Set<Workflow>([
  "balance",
  "statement",
  "contrib",
  "withdraw",
  "benef.view",
  "benef.update",
  "transfer",
  "tcancel",
  "address",
  "quote",
]);

interface Pending {
  intent: Workflow;
  text: string;
}

interface Draft {
  potId?: string;
  amount?: number;
  rate?: number;
  firstRate?: number;
  bankTries?: number;
  year?: string;
  count?: number;
  idx?: number;
  reshare?: boolean;
  people?: Beneficiary[];
  scheme?: string;
  coolEnds?: string;
  ref?: string;
  line?: string;
  postcode?: string;
  age?: number;
}

interface Session {
  visited: StateId[];
  log: string[];
  member: string | null;
  locked: boolean;
  lockRef: string;
  authFails: number;
  codeFails: number;
  claimNumber: string | null;
  claimDob: string | null;
  candidate: string | null;
  pending: Pending | null;
  reverified: boolean;
  reverifyFails: number;
  reverifyBlocked: boolean;
  reverifyRef: string;
  reverifyPending: Pending | null;
  awaiting: Awaiting | null;
  prompt: { state: StateId; text: string } | null;
  d: Draft;
  seq: number;
}

function freshSession(): Session {
  return {
    visited: [],
    log: [],
    member: null,
    locked: false,
    lockRef: "",
    authFails: 0,
    codeFails: 0,
    claimNumber: null,
    claimDob: null,
    candidate: null,
    pending: null,
    reverified: false,
    reverifyFails: 0,
    reverifyBlocked: false,
    reverifyRef: "",
    reverifyPending: null,
    awaiting: null,
    prompt: null,
    d: {},
    seq: 0,
  };
}

type Vars = Record<string, string | number>;

// ---------------------------------------------------------------- formatting and dates

const MONTHS = [
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

function isoParts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split("-").map((x) => Number.parseInt(x, 10));
  return [y ?? 1970, m ?? 1, d ?? 1];
}

function toIso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function fmtDate(iso: string): string {
  const [y, m, d] = isoParts(iso);
  return `${d} ${MONTHS[m - 1] ?? ""} ${y}`;
}

function addDays(iso: string, n: number): string {
  const [y, m, d] = isoParts(iso);
  return toIso(new Date(Date.UTC(y, m - 1, d + n)));
}

function addMonths(iso: string, n: number): string {
  const [y, m, d] = isoParts(iso);
  return toIso(new Date(Date.UTC(y, m - 1 + n, d)));
}

function addWorkingDays(iso: string, n: number): string {
  let cur = iso;
  let left = n;
  while (left > 0) {
    cur = addDays(cur, 1);
    const [y, m, d] = isoParts(cur);
    const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    if (dow !== 0 && dow !== 6) left--;
  }
  return cur;
}

function firstOfNextMonth(iso: string): string {
  const [y, m] = isoParts(iso);
  return toIso(new Date(Date.UTC(y, m, 1)));
}

function ageOn(dob: string, today: string): number {
  const [by, bm, bd] = isoParts(dob);
  const [ty, tm, td] = isoParts(today);
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age--;
  return age;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function groupThousands(i: string): string {
  return i.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function money(n: number): string {
  const [i, f] = Math.abs(n).toFixed(2).split(".");
  return `${n < 0 ? "-" : ""}£${groupThousands(i ?? "0")}.${f ?? "00"}`;
}

function money0(n: number): string {
  return `${n < 0 ? "-" : ""}£${groupThousands(Math.round(Math.abs(n)).toString())}`;
}

function hash(s: string): number {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h * 33) ^ s.charCodeAt(i)) >>> 0;
  return h;
}

function fill(tpl: string, vars: Vars): string {
  return tpl.replace(/\{(\w+)\}/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole));
}

// ---------------------------------------------------------------- parsing

const NUM_WORDS: Record<string, number> = {
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
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  hundred: 100,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
};

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

function firstNumber(t: string): number | null {
  const m = t.replace(/(\d),(\d{3})/g, "$1$2").match(/-?\d+(?:\.\d+)?/);
  if (m) return Number.parseFloat(m[0]);
  for (const w of t.split(/[^a-z]+/)) {
    const v = NUM_WORDS[w];
    if (v !== undefined) return v;
  }
  return null;
}

function stripIds(t: string): string {
  return t
    .replace(/\bp\s*-?\s*\d{4}\b/gi, " ")
    .replace(/\btr\s*-?\s*\d{5}\b/gi, " ")
    .replace(/\bhl\s*-?\s*\d{8}\b/gi, " ");
}

/** An amount of money; `strict` needs a currency cue (used on opening requests). */
function parseMoney(t: string, strict: boolean): number | null {
  const s = stripIds(t)
    .replace(/(\d),(\d{3})/g, "$1$2")
    .replace(/(\d),(\d{3})/g, "$1$2");
  const m = s.match(/(£)?\s*(\d+(?:\.\d{1,2})?)\s*(k\b|thousand|grand|pounds|gbp|quid)?/);
  if (!m?.[2]) return null;
  let v = Number.parseFloat(m[2]);
  const unit = m[3] ?? "";
  if (unit === "k" || unit === "thousand" || unit === "grand") v *= 1000;
  if (strict && !m[1] && !unit && v < 100) return null;
  return v;
}

function parsePercent(t: string): number | null {
  const m = t.match(/(\d+(?:\.\d+)?)\s*(%|percent|per cent|pc\b)/);
  return m?.[1] ? Number.parseFloat(m[1]) : null;
}

function parseMembership(text: string): string | null {
  const m = text.match(/\bhl\s*-?\s*(\d{8})\b/i) ?? text.match(/(?:^|\s)(\d{8})(?:\s|$|[.,!])/);
  return m?.[1] ? `HL${m[1]}` : null;
}

const MONTH_KEYS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function validDate(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2030 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return toIso(dt);
}

function parseDob(text: string): string | null {
  const t = stripIds(norm(text));
  let m = t.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = t.match(/\b(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})\b/);
  if (m) return validDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = t.match(/\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b/);
  if (m) {
    const mi = MONTH_KEYS.indexOf((m[2] ?? "").slice(0, 3));
    if (mi >= 0) return validDate(Number(m[3]), mi + 1, Number(m[1]));
  }
  m = t.match(/\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/);
  if (m) {
    const mi = MONTH_KEYS.indexOf((m[1] ?? "").slice(0, 3));
    if (mi >= 0) return validDate(Number(m[3]), mi + 1, Number(m[2]));
  }
  return null;
}

function parsePotId(text: string): string | null {
  const m = text.match(/\bp\s*-?\s*(\d{4})\b/i);
  return m?.[1] ? `P-${m[1]}` : null;
}

function parseTransferRef(text: string): string | null {
  const m = text.match(/\btr\s*-?\s*(\d{5})\b/i);
  return m?.[1] ? `TR-${m[1]}` : null;
}

function extractPostcode(text: string): string | null {
  const m = text.toUpperCase().match(/\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/);
  return m?.[1] && m[2] ? `${m[1]} ${m[2]}` : null;
}

function isYes(t: string): boolean {
  return (
    /^(y|yes|yeah|yep|yup|yea|sure|ok|okay|correct|confirm|confirmed|right|go ahead|go on|please do|do it|absolutely|definitely|of course|affirmative|that's (right|correct|fine)|that is (right|correct)|sounds good|looks good|please)\b/.test(
      t,
    ) || /\byes\b/.test(t)
  );
}

function isNo(t: string): boolean {
  return /^(n|no|nope|nah|not really|negative|don't|do not|wrong|incorrect|not right|not quite)\b/.test(t);
}

function isCancel(t: string): boolean {
  return (
    /^(cancel|stop|never ?mind|forget (it|that|about it)|quit|abort|exit|start again|start over)\b/.test(t) ||
    /\b(i('ve| have) changed my mind|cancel (that|this)|don't bother|leave it)\b/.test(t)
  );
}

function isQuestion(t: string): boolean {
  return (
    t.endsWith("?") ||
    /^(what|when|how|why|where|who|can|could|do|does|is|are|should|would)\b/.test(t) ||
    /\b(human|opening hours)\b/.test(t)
  );
}

const OVERSEAS =
  /\b(france|spain|portugal|italy|germany|usa|united states|america|canada|australia|new zealand|netherlands|dubai|uae|cyprus|greece|abroad|overseas|emigrat\w*|(?<!northern )ireland)\b/;

function detectIntent(t: string): string | null {
  if (
    /\b(human|real person|a person|someone|somebody|an agent|adviser|advisor|colleague|operator|call me back|callback|speak to|talk to)\b/.test(
      t,
    )
  )
    return "handoff";
  if (/\b(log ?out|sign ?out|logout|signout)\b/.test(t)) return "signout";
  if (
    /\b(forgot|forgotten|lost|don't know|can't find|cannot find|where is|where do i find)\b.*\b(membership|member number|code|memorable)/.test(
      t,
    )
  )
    return "info.lost_details";
  if (/\b(cancel|stop|reverse|undo|halt)\b.*\btransfer|\btransfer\b.*\b(cancel|stop|reverse|undo)\b/.test(t))
    return "tcancel";
  if (/cooling[- ]?off/.test(t)) return "info.cooling_off";
  if (/\b(scam|scams|fraud|cold[- ]?call\w*)\b/.test(t)) return "info.scams";
  if (/\b(fee|fees|charge|charges|charged|cost|costs|amc)\b/.test(t)) return "info.fees";
  if (/\b(opening|hours|open|what time)\b/.test(t)) return "info.hours";
  if (
    /\b(annual allowance|allowance|how much can i (pay|put|contribute)|maximum (i can )?(pay|contribut))/.test(
      t,
    )
  )
    return "info.allowance";
  if (
    /\b(phone number|telephone|contact (you|details|number)|call you|postal address|write to you|your address|email you)\b/.test(
      t,
    )
  )
    return "info.contact";
  if (/\b(minimum age|earliest|what age|which age|how old|pension age|minimum pension)\b/.test(t))
    return "info.pension_age";
  if (
    /\b(tax|taxed|taxable|tax-free)\b/.test(t) &&
    !/\b(i want|i'd like|i would like|please|let me|i need)\b/.test(t)
  )
    return "info.tax";
  if (
    /\b(withdraw|withdrawal|lump ?sum|take (out|some|money|cash|my)|cash out|access my|tax-free cash|ufpls)\b/.test(
      t,
    )
  )
    return "withdraw";
  if (/\b(transfer|move my pension|moving my pension|switch provider|consolidate)\b/.test(t))
    return "transfer";
  if (/(beneficiar|nominat|expression of wish|who gets|death benefit|when i die|if i die)/.test(t))
    return /\b(change|update|add|replace|new|remove|nominate|set|make|edit)\b/.test(t)
      ? "benef.update"
      : "benef.view";
  if (
    /\b(contribution|contributions|contribute|pay in|paying in|pay more|pay less|increase my|decrease my|reduce my|lower my|raise my|percentage)\b/.test(
      t,
    )
  )
    return "contrib";
  if (/\bstatements?\b/.test(t)) return "statement";
  if (/\b(address|moved house|moving house|move house|new home|relocat\w*|moved)\b/.test(t)) return "address";
  if (/\b(quote|illustration|projection|forecast|retire|retiring|retirement)\b/.test(t)) return "quote";
  if (/\b(balance|how much (is|have i|do i have)|worth|value|pots?|valuation|my pension)\b/.test(t))
    return "balance";
  if (/\b(log ?in|sign ?in|login|verify me)\b/.test(t)) return "signin";
  if (isCancel(t)) return "cancel";
  if (
    /^(bye|goodbye|see you|that's all|that is all|nothing else|no,? thanks|no,? thank you|that's everything)\b/.test(
      t,
    ) ||
    /\b(goodbye|bye)\b/.test(t)
  )
    return "bye";
  if (/^(thanks|thank you|cheers|ta|great,? thanks|lovely)\b/.test(t)) return "thanks";
  if (/\b(help|what can you do|options|menu|services)\b/.test(t) || /^(yes|yeah|ok|okay|sure)\b/.test(t))
    return "menu";
  if (/^(hi|hello|hey|hiya|good (morning|afternoon|evening)|morning|afternoon)\b/.test(t)) return "greet";
  return null;
}

const STATUS_LABEL: Record<string, string> = {
  active: "active",
  closed: "closed",
  in_transfer: "in the middle of a transfer out",
};

const ORDINALS = ["first", "second", "third", "fourth"];

// ---------------------------------------------------------------- the bot

type PotLookup =
  | { kind: "own"; pot: Pot }
  | { kind: "other"; pot: Pot }
  | { kind: "unknown"; id: string }
  | { kind: "none" };

class HarbourlineBot implements TestbedTarget {
  readonly name = "heldout17";
  private db: Db = seedDb();
  private s: Session = freshSession();
  private readonly faults: ReadonlySet<string>;
  private readonly seed: number;

  constructor(faults: readonly string[], seed: number) {
    this.faults = new Set(faults);
    this.seed = Number.isFinite(seed) ? Math.trunc(seed) : 1;
  }

  async reset(): Promise<void> {
    this.db = seedDb();
    this.s = freshSession();
  }

  async send(text: string): Promise<ChatReply> {
    let out: string;
    try {
      out = this.turn(typeof text === "string" ? text : String(text ?? ""));
    } catch {
      this.s.awaiting = null;
      this.s.prompt = null;
      this.enter("fallback");
      out = this.say("fallback");
    }
    return { text: out, ms: 0 };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.s.visited];
  }

  fingerprint(): string {
    return this.s.log.join("\n");
  }

  // ---------------------------------------------------------------- plumbing

  private on(f: FaultId): boolean {
    return this.faults.has(f);
  }

  private say(key: string, vars: Vars = {}): string {
    const variants = T[key];
    if (!variants || variants.length === 0) return "";
    const n = variants.length;
    const idx = (((this.seed - 1) % n) + n) % n;
    return fill(variants[idx] ?? variants[0] ?? "", vars);
  }

  private enter(state: StateId): void {
    this.s.visited.push(state);
  }

  /** Enter a state that asks the customer something and wait for the answer. */
  private ask(state: StateId, key: string, vars: Vars, awaiting: Awaiting): string {
    this.enter(state);
    const text = this.say(key, vars);
    this.s.awaiting = awaiting;
    this.s.prompt = { state, text };
    return text;
  }

  /** A refusal or correction that re-asks: reprompts later repeat `promptState`'s question. */
  private reask(
    state: StateId,
    key: string,
    vars: Vars,
    awaiting: Awaiting,
    promptState: StateId,
    promptKey: string,
    promptVars: Vars = vars,
  ): string {
    const text = this.ask(state, key, vars, awaiting);
    this.s.prompt = { state: promptState, text: this.say(promptKey, promptVars) };
    return text;
  }

  /** Enter a state that ends the current flow. */
  private end(state: StateId, key: string, vars: Vars = {}): string {
    this.enter(state);
    this.s.awaiting = null;
    this.s.prompt = null;
    this.s.d = {};
    return this.say(key, vars);
  }

  private ref(prefix: string, payload: string): string {
    this.s.seq++;
    return `${prefix}-${(hash(`${payload}#${this.s.seq}`) % 90000) + 10000}`;
  }

  private me(): Member {
    const m = this.s.member ? this.db.members[this.s.member] : undefined;
    if (!m) throw new Error("not signed in");
    return m;
  }

  private potsOf(m: Member): Pot[] {
    return this.db.pots.filter((p) => p.owner === m.number);
  }

  private potList(m: Member): string {
    const names = this.potsOf(m).map((p) => `${p.name} (${p.id})`);
    if (names.length <= 1) return names.join("");
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }

  private findPot(id: string | undefined): Pot | undefined {
    return this.db.pots.find((p) => p.id === id);
  }

  private lookupPot(text: string, m: Member): PotLookup {
    const id = parsePotId(text);
    if (id) {
      const pot = this.findPot(id);
      if (!pot) return { kind: "unknown", id };
      return pot.owner === m.number ? { kind: "own", pot } : { kind: "other", pot };
    }
    const t = norm(text);
    const own = this.potsOf(m);
    for (const p of own) {
      const key = p.name.split(" ")[0]?.toLowerCase() ?? "";
      if (key && new RegExp(`\\b${key}\\b`).test(t)) return { kind: "own", pot: p };
    }
    if (t.length <= 12) {
      const n = firstNumber(t);
      const pot = n !== null && Number.isInteger(n) ? own[n - 1] : undefined;
      if (pot) return { kind: "own", pot };
    }
    return { kind: "none" };
  }

  private repeatPrompt(): string {
    const p = this.s.prompt;
    if (!p) return this.say("auth.what_next");
    this.enter(p.state);
    return p.text;
  }

  private relayPot(pot: Pot): { status: string; value: string } {
    const status = this.on("balance_status_mislabel") ? "active" : (STATUS_LABEL[pot.status] ?? pot.status);
    const shown = this.on("balance_value_mutation") ? pot.value + 1000 : pot.value;
    this.s.log.push(`relay:pot:${pot.id}:${status}:${shown.toFixed(2)}`);
    return { status, value: money(shown) };
  }

  // ---------------------------------------------------------------- the turn

  private turn(raw: string): string {
    const text = raw.slice(0, 2000);
    const t = norm(text);
    if (!t) {
      if (this.s.awaiting) return `${this.say("reprompt")} ${this.repeatPrompt()}`;
      this.enter("fallback");
      return this.say("fallback");
    }
    const awaiting = this.s.awaiting;
    if (awaiting) {
      if (awaiting === "tcancel.confirm") {
        const r = this.onTcancelConfirm(t);
        if (r !== null) return r;
      }
      const intent = detectIntent(t);
      if (intent === "handoff" && !/^(yes|no)\b/.test(t)) return this.handoff();
      if (isCancel(t)) {
        this.s.pending = null;
        this.s.reverifyPending = null;
        return this.end("flow.cancelled", "cancelled");
      }
      if (intent === "bye" && !isNo(t)) return this.goodbye();
      const r = this.onAwaiting(awaiting, text, t);
      if (r !== null) return r;
      if (intent?.startsWith("info.")) {
        this.enter(intent as StateId);
        return `${this.say(intent)}\n\n${this.say("back_to")} ${this.repeatPrompt()}`;
      }
      if (intent && WORKFLOWS.has(intent)) {
        if (awaiting.startsWith("auth.")) {
          this.s.pending = { intent: intent as Workflow, text };
        } else if (!awaiting.startsWith("reverify.")) {
          this.s.awaiting = null;
          this.s.prompt = null;
          this.s.d = {};
          return this.dispatch(intent, text);
        }
      }
      return `${this.say("reprompt")} ${this.repeatPrompt()}`;
    }
    const intent = detectIntent(t);
    if (intent) return this.dispatch(intent, text);
    if (parsePotId(text)) return this.requireAuth("balance", text);
    if (parseTransferRef(text)) return this.requireAuth("tcancel", text);
    if (!this.s.member && !this.s.locked) {
      if (parseMembership(text)) return this.startAuth(null, text);
      if (/^hl\s*-?\s*\d/.test(t)) {
        return this.reask(
          "auth.bad_format",
          "auth.bad_format",
          {},
          "auth.number",
          "auth.ask_membership",
          "auth.ask_membership",
        );
      }
    }
    this.enter("fallback");
    return this.say("fallback");
  }

  private dispatch(intent: string, text: string): string {
    if (intent.startsWith("info.")) {
      this.enter(intent as StateId);
      return this.say(intent);
    }
    switch (intent) {
      case "handoff":
        return this.handoff();
      case "bye":
        return this.goodbye();
      case "thanks":
        this.enter("thanks");
        return this.say("thanks");
      case "greet":
        this.enter("greeting");
        return this.say("greeting");
      case "menu":
        this.enter("menu");
        return this.say("menu");
      case "cancel":
        this.enter("flow.cancelled");
        return this.say("cancel_nothing");
      case "signin":
        if (this.s.locked) return this.lockedAgain();
        if (this.s.member) {
          this.enter("auth.already_signed_in");
          return this.say("auth.already", { first: this.me().first });
        }
        return this.startAuth(null, text);
      case "signout":
        this.enter("auth.signed_out");
        if (!this.s.member) return this.say("auth.not_signed_in");
        this.s.member = null;
        this.s.reverified = false;
        this.s.reverifyFails = 0;
        this.s.log.push("auth:signed_out");
        return this.say("auth.signed_out");
      default:
        if (WORKFLOWS.has(intent)) return this.requireAuth(intent as Workflow, text);
        this.enter("fallback");
        return this.say("fallback");
    }
  }

  private handoff(): string {
    const ref = this.ref("CB", `handoff:${this.s.member ?? "guest"}`);
    this.s.log.push(`handoff:${ref}`);
    this.s.pending = null;
    this.s.reverifyPending = null;
    return this.end("handoff.done", "handoff", { ref });
  }

  private goodbye(): string {
    this.s.pending = null;
    return this.end("goodbye", "goodbye");
  }

  private lockedAgain(): string {
    return this.end("auth.locked", "auth.locked_again", { ref: this.s.lockRef });
  }

  private requireAuth(intent: Workflow, text: string): string {
    if (this.s.locked) return this.lockedAgain();
    if (!this.s.member) return this.startAuth({ intent, text }, text);
    return this.run(intent, text);
  }

  private run(intent: Workflow, text: string): string {
    this.s.d = {};
    switch (intent) {
      case "balance":
        return this.startBalance(text);
      case "statement":
        return this.startStatement(text);
      case "contrib":
        return this.startContrib(text);
      case "withdraw":
        return this.startWithdraw(text);
      case "benef.view":
        return this.showBeneficiaries();
      case "benef.update":
        return this.sensitive(intent, text, () => this.startBenefUpdate());
      case "transfer":
        return this.sensitive(intent, text, () => this.startTransfer(text));
      case "tcancel":
        return this.startTcancel(text);
      case "address":
        return this.sensitive(intent, text, () => this.startAddress());
      case "quote":
        return this.startQuote(text);
    }
  }

  private onAwaiting(a: Awaiting, text: string, t: string): string | null {
    switch (a) {
      case "auth.number":
        return this.onAuthNumber(text, t);
      case "auth.dob":
        return this.onAuthDob(text, t);
      case "auth.code":
        return this.onAuthCode(text, t);
      case "reverify.word":
        return this.onReverify(t);
      case "statement.year":
        return this.onStatementYear(t);
      case "statement.delivery":
        return this.onStatementDelivery(t);
      case "contrib.rate":
        return this.onContribRate(t);
      case "contrib.confirm":
        return this.onContribConfirm(t);
      case "withdraw.pot":
        return this.onWithdrawPot(text);
      case "withdraw.amount":
        return this.onWithdrawAmount(t);
      case "withdraw.word":
        return this.onWithdrawWord(t);
      case "withdraw.bank":
        return this.onWithdrawBank(t);
      case "benef.count":
        return this.onBenefCount(t);
      case "benef.name":
        return this.onBenefName(text, t);
      case "benef.relationship":
        return this.onBenefRelationship(t);
      case "benef.share":
        return this.onBenefShare(t);
      case "benef.confirm":
        return this.onBenefConfirm(t);
      case "transfer.pot":
        return this.onTransferPot(text);
      case "transfer.scheme":
        return this.onTransferScheme(text, t);
      case "transfer.scam":
        return this.onTransferScam(t);
      case "transfer.word":
        return this.onTransferWord(t);
      case "tcancel.ref":
        return this.onTcancelRef(text);
      case "tcancel.confirm":
        return this.onTcancelConfirm(t);
      case "address.line":
        return this.onAddressLine(text, t);
      case "address.postcode":
        return this.onAddressPostcode(text, t);
      case "address.reenter":
        return this.onAddressReenter(text, t);
      case "quote.age":
        return this.onQuoteAge(t);
      case "quote.option":
        return this.onQuoteOption(t);
    }
  }

  // ---------------------------------------------------------------- sign-in

  private startAuth(pending: Pending | null, text: string): string {
    this.s.pending = pending;
    const intro = pending ? `${this.say("auth.intro")} ` : "";
    const num = parseMembership(text);
    if (num) return intro + this.gotNumber(num, text);
    return intro + this.ask("auth.ask_membership", "auth.ask_membership", {}, "auth.number");
  }

  private gotNumber(num: string, text: string): string {
    this.s.claimNumber = num;
    const dob = parseDob(text) ?? this.s.claimDob;
    if (dob) return this.checkIdentity(dob);
    return this.ask("auth.ask_dob", "auth.ask_dob", {}, "auth.dob");
  }

  private onAuthNumber(text: string, t: string): string | null {
    const num = parseMembership(text);
    if (num) return this.gotNumber(num, text);
    const dob = parseDob(text);
    if (dob) {
      this.s.claimDob = dob;
      return this.ask("auth.ask_membership", "auth.ask_membership", {}, "auth.number");
    }
    if (/\d/.test(t) || /^hl/.test(t)) {
      return this.reask(
        "auth.bad_format",
        "auth.bad_format",
        {},
        "auth.number",
        "auth.ask_membership",
        "auth.ask_membership",
      );
    }
    return null;
  }

  private onAuthDob(text: string, t: string): string | null {
    const dob = parseDob(text);
    if (dob) return this.checkIdentity(dob);
    const num = parseMembership(text);
    if (num) {
      this.s.claimNumber = num;
      return this.ask("auth.ask_dob", "auth.ask_dob", {}, "auth.dob");
    }
    if (/\d/.test(t))
      return this.reask("auth.bad_dob", "auth.bad_dob", {}, "auth.dob", "auth.ask_dob", "auth.ask_dob");
    return null;
  }

  private checkIdentity(dob: string): string {
    const m = this.s.claimNumber ? this.db.members[this.s.claimNumber] : undefined;
    this.s.claimDob = null;
    if (m && m.dob === dob) {
      this.s.candidate = m.number;
      if (this.on("otp_skipped")) return this.signIn(m);
      return this.ask("auth.ask_code", "auth.ask_code", { mobile: m.mobile }, "auth.code");
    }
    this.s.claimNumber = null;
    this.s.authFails++;
    if (this.s.authFails >= 3 && !this.on("no_lockout")) return this.lock();
    const left = Math.max(1, 3 - this.s.authFails);
    return this.reask(
      "auth.mismatch",
      "auth.mismatch",
      { attempts: `${left} more attempt${left === 1 ? "" : "s"}` },
      "auth.number",
      "auth.ask_membership",
      "auth.ask_membership",
    );
  }

  private onAuthCode(text: string, t: string): string | null {
    const m = this.s.candidate ? this.db.members[this.s.candidate] : undefined;
    if (!m) return null;
    if (
      /\b(resend|send (it|the code|a new code|another)( again)?|again|new code|didn't (get|receive)|not (received|arrived|come)|haven't (got|received))\b/.test(
        t,
      ) &&
      !/\d{6}/.test(t)
    ) {
      return this.ask("auth.code_resent", "auth.code_resent", { mobile: m.mobile }, "auth.code");
    }
    const compact = /^[\d\s-]+$/.test(t) ? t.replace(/[\s-]/g, "") : t;
    const code = compact.match(/(?:^|\D)(\d{6})(?:\D|$)/)?.[1];
    if (!code) {
      if (/\d/.test(t))
        return this.reask(
          "auth.ask_code",
          "auth.code_format",
          { mobile: m.mobile },
          "auth.code",
          "auth.ask_code",
          "auth.ask_code",
          { mobile: m.mobile },
        );
      return null;
    }
    void text;
    if (code === m.code) return this.signIn(m);
    this.s.codeFails++;
    if (this.s.codeFails >= 3 && !this.on("no_lockout")) return this.lock();
    const left = Math.max(1, 3 - this.s.codeFails);
    return this.reask(
      "auth.code_wrong",
      "auth.code_wrong",
      { attempts: `${left} attempt${left === 1 ? "" : "s"}` },
      "auth.code",
      "auth.ask_code",
      "auth.ask_code",
      { mobile: m.mobile },
    );
  }

  private signIn(m: Member): string {
    this.s.member = m.number;
    this.s.candidate = null;
    this.s.authFails = 0;
    this.s.codeFails = 0;
    this.s.log.push(`auth:signed_in:${m.number}`);
    this.s.awaiting = null;
    this.s.prompt = null;
    this.enter("auth.verified");
    const hello = this.say("auth.verified", { first: m.first });
    const pending = this.s.pending;
    this.s.pending = null;
    if (pending) return `${hello} ${this.run(pending.intent, pending.text)}`;
    return `${hello} ${this.say("auth.what_next")}`;
  }

  private lock(): string {
    this.s.locked = true;
    this.s.lockRef = this.ref("LK", `lock:${this.s.claimNumber ?? this.s.candidate ?? "unknown"}`);
    this.s.log.push(`auth:locked:${this.s.lockRef}`);
    this.s.pending = null;
    this.s.candidate = null;
    return this.end("auth.locked", "auth.locked", { ref: this.s.lockRef });
  }

  private sensitive(intent: Workflow, text: string, start: () => string): string {
    if (this.on("reverify_skipped") || this.s.reverified) return start();
    if (this.s.reverifyBlocked)
      return this.end("reverify.locked", "reverify.locked", { ref: this.s.reverifyRef });
    this.s.reverifyPending = { intent, text };
    return this.ask("reverify.ask_word", "reverify.ask_word", {}, "reverify.word");
  }

  private onReverify(t: string): string | null {
    const m = this.me();
    if (new RegExp(`\\b${m.word}\\b`).test(t)) {
      this.s.reverified = true;
      this.s.log.push("auth:reverified");
      this.enter("reverify.passed");
      const ok = this.say("reverify.passed");
      const p = this.s.reverifyPending;
      this.s.reverifyPending = null;
      this.s.awaiting = null;
      return p ? `${ok} ${this.run(p.intent, p.text)}` : ok;
    }
    const answer = t.replace(/^(my )?(memorable )?word is |^it'?s |^it is /, "");
    if (detectIntent(t) !== null || answer.split(" ").length > 3) return null;
    this.s.reverifyFails++;
    if (this.s.reverifyFails >= 2) {
      this.s.reverifyBlocked = true;
      this.s.reverifyRef = this.ref("SEC", `reverify:${m.number}`);
      this.s.log.push(`auth:reverify_blocked:${this.s.reverifyRef}`);
      this.s.reverifyPending = null;
      return this.end("reverify.locked", "reverify.locked", { ref: this.s.reverifyRef });
    }
    return this.reask(
      "reverify.failed",
      "reverify.failed",
      {},
      "reverify.word",
      "reverify.ask_word",
      "reverify.ask_word",
    );
  }

  // ---------------------------------------------------------------- balance

  private startBalance(text: string): string {
    const m = this.me();
    const id = parsePotId(text);
    if (id) return this.potDetail(id, m);
    const pots = this.potsOf(m);
    const lines = pots.map((p) => {
      const r = this.relayPot(p);
      return this.say("balance.line", {
        name: p.name,
        id: p.id,
        fund: p.fund,
        status: r.status,
        value: r.value,
      });
    });
    const total = round2(pots.reduce((a, p) => a + p.value, 0));
    this.s.log.push(`relay:total:${total.toFixed(2)}`);
    return this.end("balance.summary", "balance.head", { first: m.first, today: fmtDate(TODAY) }).concat(
      "\n",
      lines.join("\n"),
      "\n",
      this.say("balance.total", { total: money(total) }),
    );
  }

  private potDetail(id: string, m: Member): string {
    const pot = this.findPot(id);
    if (!pot)
      return this.end("balance.pot_not_found", "balance.pot_not_found", { id, pots: this.potList(m) });
    if (pot.owner !== m.number && !this.on("other_member_pot")) {
      return this.end("balance.pot_not_yours", "balance.pot_not_yours", { id, pots: this.potList(m) });
    }
    const r = this.relayPot(pot);
    return this.end("balance.pot_detail", "balance.pot_detail", {
      name: pot.name,
      id: pot.id,
      fund: pot.fund,
      status: r.status,
      value: r.value,
      opened: fmtDate(pot.opened),
    });
  }

  // ---------------------------------------------------------------- statements

  private startStatement(text: string): string {
    const idx = this.statementYear(norm(text), false);
    if (idx !== null) return this.pickStatementYear(idx);
    return this.ask("statement.ask_year", "statement.ask_year", {}, "statement.year");
  }

  private statementYear(t: string, loose: boolean): number | null {
    const m = t.match(/\b20(\d\d)\s*(?:\/|-|to)\s*(?:20)?(\d\d)\b/);
    if (m?.[1]) {
      const idx = 24 - Number(m[1]);
      return idx >= 0 && idx < STATEMENT_YEARS.length ? idx : -1;
    }
    if (/\b(latest|most recent|newest|last year's|this year's)\b/.test(t)) return 0;
    if (loose && t.length <= 12) {
      const n = firstNumber(t);
      if (n !== null && n >= 1 && n <= STATEMENT_YEARS.length) return n - 1;
    }
    return null;
  }

  private onStatementYear(t: string): string | null {
    const idx = this.statementYear(t, true);
    if (idx === null) return null;
    return this.pickStatementYear(idx);
  }

  private pickStatementYear(idx: number): string {
    const m = this.me();
    const year = STATEMENT_YEARS[idx];
    if (!year)
      return `${this.say("reprompt")} ${this.ask("statement.ask_year", "statement.ask_year", {}, "statement.year")}`;
    if (m.joined > year.ends) {
      return this.reask(
        "statement.refused_unavailable",
        "statement.refused_unavailable",
        { joined: fmtDate(m.joined), year: year.label },
        "statement.year",
        "statement.ask_year",
        "statement.ask_year",
      );
    }
    this.s.d.year = year.label;
    return this.ask(
      "statement.ask_delivery",
      "statement.ask_delivery",
      { year: year.label, email: m.email, address: `${m.addressLine}, ${m.postcode}` },
      "statement.delivery",
    );
  }

  private onStatementDelivery(t: string): string | null {
    const m = this.me();
    let method: "email" | "post" | null = null;
    if (/^a\b|\be-?mail\b|\bemailed\b|\binbox\b/.test(t)) method = "email";
    else if (/^b\b|\bpost\b|\bletter\b|\bpaper\b|\bposted\b/.test(t)) method = "post";
    if (!method) return null;
    const year = this.s.d.year ?? "";
    const dest = method === "email" ? m.email : `${m.addressLine}, ${m.postcode}`;
    const ref = this.ref("STM", `${m.number}:${year}:${method}`);
    this.s.log.push(`write:statement:${m.number}:${year}:${method}:${dest}`);
    return this.end("statement.done", "statement.done", { year, method, dest, ref });
  }

  // ---------------------------------------------------------------- contributions

  private monthly(m: Member, rate: number): string {
    return money(round2((m.salary * rate) / 100 / 12));
  }

  private startContrib(text: string): string {
    const m = this.me();
    if (m.status !== "active") {
      return this.end("contrib.refused_not_active", "contrib.refused_not_active", {
        employer: m.employer,
        left: fmtDate(m.left ?? m.lastRateChange),
      });
    }
    const next = addMonths(m.lastRateChange, 3);
    if (next > TODAY) {
      return this.end("contrib.refused_recent_change", "contrib.refused_recent_change", {
        last: fmtDate(m.lastRateChange),
        next: fmtDate(next),
      });
    }
    const pre = parsePercent(norm(text));
    if (pre !== null) return this.takeRate(pre);
    return this.ask("contrib.ask_rate", "contrib.ask_rate", this.rateVars(m), "contrib.rate");
  }

  private rateVars(m: Member): Vars {
    return {
      current: m.employeeRate,
      salary: money0(m.salary),
      monthly: this.monthly(m, m.employeeRate),
      employer: m.employer,
      employerRate: m.employerRate,
    };
  }

  private onContribRate(t: string): string | null {
    const r = parsePercent(t) ?? firstNumber(t);
    if (r === null) return null;
    return this.takeRate(r);
  }

  private takeRate(rate: number): string {
    const m = this.me();
    if (rate < 2 || rate > 25) {
      return this.reask(
        "contrib.refused_out_of_range",
        "contrib.refused_out_of_range",
        { rate },
        "contrib.rate",
        "contrib.ask_rate",
        "contrib.ask_rate",
        this.rateVars(m),
      );
    }
    if (rate === m.employeeRate) return this.end("contrib.same_rate", "contrib.same_rate", { rate });
    this.s.d.rate = rate;
    this.s.d.firstRate = rate;
    if (this.on("contrib_no_confirm")) return this.commitContrib();
    return this.ask("contrib.confirm", "contrib.confirm", this.confirmVars(m, rate), "contrib.confirm");
  }

  private confirmVars(m: Member, rate: number): Vars {
    return {
      old: m.employeeRate,
      new: rate,
      oldMonthly: this.monthly(m, m.employeeRate),
      newMonthly: this.monthly(m, rate),
      effective: fmtDate(firstOfNextMonth(TODAY)),
    };
  }

  private onContribConfirm(t: string): string | null {
    const m = this.me();
    const n = parsePercent(t) ?? firstNumber(t);
    if (n !== null && n !== this.s.d.rate) {
      if (n < 2 || n > 25) {
        return this.reask(
          "contrib.refused_out_of_range",
          "contrib.refused_out_of_range",
          { rate: n },
          "contrib.rate",
          "contrib.ask_rate",
          "contrib.ask_rate",
          this.rateVars(m),
        );
      }
      if (n === m.employeeRate) return this.end("contrib.same_rate", "contrib.same_rate", { rate: n });
      if (!this.on("contrib_correction_lost")) this.s.d.rate = n;
      return this.ask("contrib.corrected", "contrib.corrected", this.confirmVars(m, n), "contrib.confirm");
    }
    if (isNo(t)) return this.end("contrib.declined", "contrib.declined", { old: m.employeeRate });
    if (isYes(t)) return this.commitContrib();
    return null;
  }

  private commitContrib(): string {
    const m = this.me();
    const rate = this.s.d.rate ?? m.employeeRate;
    const effective = firstOfNextMonth(TODAY);
    m.employeeRate = rate;
    m.lastRateChange = effective;
    const ref = this.ref("CON", `${m.number}:${rate}`);
    this.s.log.push(`write:contribution:${m.number}:${rate}%:${effective}`);
    return this.end("contrib.done", "contrib.done", {
      rate,
      monthly: this.monthly(m, rate),
      effective: fmtDate(effective),
      ref,
    });
  }

  // ---------------------------------------------------------------- withdrawals

  private startWithdraw(text: string): string {
    const m = this.me();
    if (ageOn(m.dob, TODAY) < 55 && !this.on("withdraw_age_unchecked")) {
      const [y, mo, d] = isoParts(m.dob);
      return this.end("withdraw.refused_under_age", "withdraw.refused_under_age", {
        date55: fmtDate(`${y + 55}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`),
      });
    }
    const pre = parseMoney(norm(text), true);
    if (pre !== null) this.s.d.amount = pre;
    const look = this.lookupPot(text, m);
    if (look.kind !== "none") return this.withdrawPot(look);
    const own = this.potsOf(m);
    if (own.length === 1 && own[0]) return this.withdrawPot({ kind: "own", pot: own[0] });
    return this.ask("withdraw.ask_pot", "withdraw.ask_pot", { pots: this.potList(m) }, "withdraw.pot");
  }

  private onWithdrawPot(text: string): string | null {
    const look = this.lookupPot(text, this.me());
    if (look.kind === "none") return null;
    return this.withdrawPot(look);
  }

  private withdrawPot(look: PotLookup): string {
    const m = this.me();
    const pots = this.potList(m);
    const again = (state: StateId, vars: Vars) =>
      this.reask(state, state, vars, "withdraw.pot", "withdraw.ask_pot", "withdraw.ask_pot", { pots });
    if (look.kind === "none")
      return this.ask("withdraw.ask_pot", "withdraw.ask_pot", { pots }, "withdraw.pot");
    if (look.kind === "unknown") return again("withdraw.pot_not_found", { id: look.id, pots });
    if (look.kind === "other" && !this.on("other_member_pot"))
      return again("withdraw.refused_not_yours", { id: look.pot.id, pots });
    const pot = look.pot;
    if (pot.status !== "active") {
      return again("withdraw.refused_pot_status", {
        id: pot.id,
        name: pot.name,
        status: STATUS_LABEL[pot.status] ?? pot.status,
        pots,
      });
    }
    if (pot.safeguarded && pot.value > 30000) {
      return again("withdraw.refused_advice_needed", {
        id: pot.id,
        name: pot.name,
        value: money(pot.value),
        pots,
      });
    }
    this.s.d.potId = pot.id;
    const pre = this.s.d.amount;
    if (pre !== undefined) {
      this.s.d.amount = undefined;
      return this.withdrawAmount(pre);
    }
    return this.ask("withdraw.ask_amount", "withdraw.ask_amount", this.amountVars(pot), "withdraw.amount");
  }

  private amountVars(pot: Pot): Vars {
    return { id: pot.id, name: pot.name, value: money(pot.value) };
  }

  private onWithdrawAmount(t: string): string | null {
    if (parsePotId(t)) return this.withdrawPot(this.lookupPot(t, this.me()));
    const a = parseMoney(t, false);
    if (a === null) return null;
    return this.withdrawAmount(a);
  }

  private withdrawAmount(amount: number): string {
    const pot = this.findPot(this.s.d.potId);
    if (!pot) return this.end("flow.cancelled", "cancelled");
    const vars = { ...this.amountVars(pot), amount: money(amount) };
    if (amount < 1000) {
      return this.reask(
        "withdraw.refused_under_minimum",
        "withdraw.refused_under_minimum",
        vars,
        "withdraw.amount",
        "withdraw.ask_amount",
        "withdraw.ask_amount",
      );
    }
    if (amount > pot.value && !this.on("withdraw_over_balance")) {
      return this.reask(
        "withdraw.refused_over_balance",
        "withdraw.refused_over_balance",
        vars,
        "withdraw.amount",
        "withdraw.ask_amount",
        "withdraw.ask_amount",
      );
    }
    this.s.d.amount = round2(amount);
    const q = this.withdrawQuote(pot, this.s.d.amount);
    this.s.log.push(`relay:withdraw_quote:${pot.id}:${q.gross}:${q.taxFree}:${q.tax}:${q.fee}:${q.net}`);
    const feeLine = q.fee > 0 ? this.say("withdraw.fee", { fee: money(q.fee) }) : this.say("withdraw.no_fee");
    return this.ask(
      "withdraw.quote",
      "withdraw.quote",
      {
        name: pot.name,
        gross: money(q.gross),
        taxFree: money(q.taxFree),
        taxable: money(q.taxable),
        tax: money(q.tax),
        feeLine,
        net: money(q.net),
      },
      "withdraw.word",
    );
  }

  private withdrawQuote(pot: Pot, gross: number) {
    const m = this.me();
    void pot;
    const taxFree = round2(gross * (this.on("tax_free_miscalc") ? 0.2 : 0.25));
    const taxable = round2(gross - taxFree);
    const tax = round2(taxable * 0.2);
    const fee = m.withdrawalsThisYear >= 2 && !this.on("withdraw_fee_omitted") ? 30 : 0;
    const net = round2(gross - tax - fee);
    return { gross, taxFree, taxable, tax, fee, net };
  }

  private onWithdrawWord(t: string): string | null {
    if (/^\W*withdraw\W*$/.test(t)) {
      this.s.d.bankTries = 0;
      return this.ask("withdraw.ask_bank_digits", "withdraw.ask_bank_digits", {}, "withdraw.bank");
    }
    const a = parseMoney(t, false);
    if (a !== null) return this.withdrawAmount(a);
    if (isNo(t)) return this.end("flow.cancelled", "cancelled");
    if (isQuestion(t)) return null;
    const keep = this.s.prompt;
    const text = this.ask("withdraw.word_mismatch", "withdraw.word_mismatch", {}, "withdraw.word");
    if (keep) this.s.prompt = keep;
    return text;
  }

  private onWithdrawBank(t: string): string | null {
    const m = this.me();
    const digits = t.match(/(?:^|\D)(\d{4})(?:\D|$)/)?.[1];
    if (!digits) return null;
    if (digits === m.bankLast4) return this.commitWithdrawal();
    this.s.d.bankTries = (this.s.d.bankTries ?? 0) + 1;
    if (this.s.d.bankTries >= 2) return this.end("flow.cancelled", "withdraw.bank_giveup");
    return this.reask(
      "withdraw.bank_mismatch",
      "withdraw.bank_mismatch",
      {},
      "withdraw.bank",
      "withdraw.ask_bank_digits",
      "withdraw.ask_bank_digits",
    );
  }

  private commitWithdrawal(): string {
    const m = this.me();
    const pot = this.findPot(this.s.d.potId);
    const gross = this.s.d.amount;
    if (!pot || gross === undefined) return this.end("flow.cancelled", "cancelled");
    const q = this.withdrawQuote(pot, gross);
    pot.value = round2(pot.value - gross);
    m.withdrawalsThisYear++;
    const payDate = addWorkingDays(TODAY, 5);
    const ref = this.ref("WDL", `${pot.id}:${gross}`);
    this.s.log.push(
      `write:withdrawal:${pot.id}:${q.gross}:${q.taxFree}:${q.tax}:${q.fee}:${q.net}:${pot.value}`,
    );
    return this.end("withdraw.done", "withdraw.done", {
      gross: money(q.gross),
      net: money(q.net),
      name: pot.name,
      id: pot.id,
      bank: m.bankLast4,
      payDate: fmtDate(payDate),
      ref,
    });
  }

  // ---------------------------------------------------------------- beneficiaries

  private benefList(list: readonly Beneficiary[]): string {
    return list.map((b) => `${b.name} (${b.relationship}) ${b.share}%`).join("; ");
  }

  private showBeneficiaries(): string {
    const m = this.me();
    this.s.log.push(`relay:beneficiaries:${m.number}:${this.benefList(m.beneficiaries)}`);
    if (m.beneficiaries.length === 0) return this.end("benef.show_current", "benef.none");
    return this.end("benef.show_current", "benef.show_current", { list: this.benefList(m.beneficiaries) });
  }

  private startBenefUpdate(): string {
    const current = this.showBeneficiaries();
    return `${current} ${this.ask("benef.ask_count", "benef.ask_count", {}, "benef.count")}`;
  }

  private onBenefCount(t: string): string | null {
    const n = firstNumber(t);
    if (n === null || n < 1 || !Number.isInteger(n)) return null;
    if (n > 4)
      return this.reask(
        "benef.refused_too_many",
        "benef.refused_too_many",
        {},
        "benef.count",
        "benef.ask_count",
        "benef.ask_count",
      );
    this.s.d.count = n;
    this.s.d.people = [];
    this.s.d.idx = 0;
    this.s.d.reshare = false;
    return this.ask("benef.ask_name", "benef.ask_name", { ordinal: ORDINALS[0] ?? "first" }, "benef.name");
  }

  private onBenefName(text: string, t: string): string | null {
    if (isQuestion(t) || isYes(t) || isNo(t)) return null;
    const name = text
      .trim()
      .replace(/^(it's|it is|their name is|her name is|his name is|name is|the name is|called)\s+/i, "")
      .replace(/[.!]+$/, "")
      .slice(0, 60)
      .trim();
    if (name.length < 2 || !/[a-z]/i.test(name) || /\d/.test(name)) return null;
    const people = this.s.d.people ?? [];
    people.push({ name, relationship: "", share: 0 });
    this.s.d.people = people;
    return this.ask("benef.ask_relationship", "benef.ask_relationship", { name }, "benef.relationship");
  }

  private onBenefRelationship(t: string): string | null {
    let idx = -1;
    const n = t.length <= 14 ? firstNumber(t) : null;
    if (n !== null && n >= 1 && n <= RELATIONSHIPS.length) idx = n - 1;
    else if (/\b(spouse|wife|husband|civil partner|married)\b/.test(t)) idx = 0;
    else if (/\b(partner|girlfriend|boyfriend|fianc\w*)\b/.test(t)) idx = 1;
    else if (/\b(child|son|daughter|children|kid)\b/.test(t)) idx = 2;
    else if (
      /\b(relative|brother|sister|mother|father|mum|dad|parent|niece|nephew|cousin|grand\w*|aunt|uncle|sibling)\b/.test(
        t,
      )
    )
      idx = 3;
    else if (/\bfriend\b/.test(t)) idx = 4;
    else if (/\bcharity\b/.test(t)) idx = 5;
    if (idx < 0) return null;
    const people = this.s.d.people ?? [];
    const person = people[people.length - 1];
    if (!person) return null;
    person.relationship = RELATIONSHIPS[idx] ?? "other relative";
    if ((this.s.d.count ?? 1) === 1) {
      person.share = 100;
      return this.benefConfirm();
    }
    return this.ask("benef.ask_share", "benef.ask_share", { name: person.name }, "benef.share");
  }

  private onBenefShare(t: string): string | null {
    const people = this.s.d.people ?? [];
    const idx = this.s.d.idx ?? 0;
    const person = people[idx];
    if (!person) return null;
    const n = parsePercent(t) ?? firstNumber(t);
    if (n === null) return null;
    if (n < 1 || n > 100 || !Number.isInteger(n)) {
      return this.reask(
        "benef.invalid_share",
        "benef.invalid_share",
        { name: person.name },
        "benef.share",
        "benef.ask_share",
        "benef.ask_share",
      );
    }
    person.share = n;
    const next = idx + 1;
    this.s.d.idx = next;
    const count = this.s.d.count ?? 1;
    if (next < count) {
      const nextPerson = people[next];
      if (this.s.d.reshare && nextPerson) {
        return this.ask("benef.ask_share", "benef.ask_share", { name: nextPerson.name }, "benef.share");
      }
      return this.ask(
        "benef.ask_name",
        "benef.ask_name",
        { ordinal: ORDINALS[next] ?? "next" },
        "benef.name",
      );
    }
    const total = people.reduce((a, p) => a + p.share, 0);
    if (total !== 100 && !this.on("benef_total_unchecked")) {
      this.s.d.idx = 0;
      this.s.d.reshare = true;
      const first = people[0]?.name ?? "";
      return this.reask(
        "benef.refused_total",
        "benef.refused_total",
        { total, name: first },
        "benef.share",
        "benef.ask_share",
        "benef.ask_share",
        {
          name: first,
        },
      );
    }
    return this.benefConfirm();
  }

  private benefConfirm(): string {
    const list = this.benefList(this.s.d.people ?? []);
    this.s.log.push(`relay:beneficiary_readback:${list}`);
    return this.ask("benef.confirm", "benef.confirm", { list }, "benef.confirm");
  }

  private onBenefConfirm(t: string): string | null {
    if (isNo(t)) return this.end("flow.cancelled", "cancelled");
    if (!isYes(t)) return null;
    const m = this.me();
    const saved = (this.s.d.people ?? []).map((p) => ({ ...p }));
    if (this.on("benef_share_swap") && saved.length >= 2 && saved[0] && saved[1]) {
      const a = saved[0].share;
      saved[0].share = saved[1].share;
      saved[1].share = a;
    }
    m.beneficiaries = saved;
    const list = this.benefList(saved);
    const ref = this.ref("BEN", `${m.number}:${list}`);
    this.s.log.push(`write:beneficiaries:${m.number}:${list}`);
    return this.end("benef.done", "benef.done", { list, ref });
  }

  // ---------------------------------------------------------------- transfers out

  private startTransfer(text: string): string {
    const m = this.me();
    const look = this.lookupPot(text, m);
    if (look.kind !== "none") return this.transferPot(look);
    const own = this.potsOf(m);
    if (own.length === 1 && own[0]) return this.transferPot({ kind: "own", pot: own[0] });
    return this.ask("transfer.ask_pot", "transfer.ask_pot", { pots: this.potList(m) }, "transfer.pot");
  }

  private onTransferPot(text: string): string | null {
    const look = this.lookupPot(text, this.me());
    if (look.kind === "none") return null;
    return this.transferPot(look);
  }

  private transferPot(look: PotLookup): string {
    const m = this.me();
    const pots = this.potList(m);
    const again = (state: StateId, vars: Vars) =>
      this.reask(state, state, vars, "transfer.pot", "transfer.ask_pot", "transfer.ask_pot", { pots });
    if (look.kind === "none")
      return this.ask("transfer.ask_pot", "transfer.ask_pot", { pots }, "transfer.pot");
    if (look.kind === "unknown") return again("transfer.pot_not_found", { id: look.id, pots });
    if (look.kind === "other" && !this.on("other_member_pot"))
      return again("transfer.refused_not_yours", { id: look.pot.id, pots });
    const pot = look.pot;
    if (pot.status !== "active") {
      return again("transfer.refused_status", {
        id: pot.id,
        name: pot.name,
        status: STATUS_LABEL[pot.status] ?? pot.status,
        pots,
      });
    }
    if (pot.safeguarded && pot.value > 30000) {
      return this.end("transfer.refused_advice_needed", "transfer.refused_advice_needed", {
        id: pot.id,
        name: pot.name,
        value: money(pot.value),
      });
    }
    this.s.d.potId = pot.id;
    return this.ask("transfer.ask_scheme", "transfer.ask_scheme", {}, "transfer.scheme");
  }

  private onTransferScheme(text: string, t: string): string | null {
    if (isQuestion(t) || isYes(t) || isNo(t)) return null;
    const scheme = text
      .trim()
      .replace(/^(it's|it is|to|the scheme is|they are|it's called|called)\s+/i, "")
      .replace(/[.!]+$/, "")
      .slice(0, 80)
      .trim();
    if (scheme.replace(/[^a-z]/gi, "").length < 2) return null;
    this.s.d.scheme = scheme;
    return this.ask("transfer.ask_scam_check", "transfer.ask_scam_check", {}, "transfer.scam");
  }

  private onTransferScam(t: string): string | null {
    const yes =
      isYes(t) ||
      /\b(they (called|rang|texted|messaged)|cold[- ]?call\w*|someone (called|rang|contacted))\b/.test(t);
    if (yes && !isNo(t)) {
      if (!this.on("transfer_scam_ignored")) {
        const ref = this.ref("SAF", `scam:${this.s.d.potId}:${this.s.d.scheme}`);
        this.s.log.push(`referral:safeguarding:${this.s.d.potId}:${ref}`);
        return this.end("transfer.refused_scam_risk", "transfer.refused_scam_risk", { ref });
      }
      return this.transferConfirm();
    }
    if (isNo(t) || /\b(nobody|no one|noone|my own idea|myself)\b/.test(t)) return this.transferConfirm();
    return null;
  }

  private transferConfirm(): string {
    const pot = this.findPot(this.s.d.potId);
    if (!pot) return this.end("flow.cancelled", "cancelled");
    const coolEnds = addDays(TODAY, this.on("cooling_off_wrong") ? 7 : 14);
    this.s.d.coolEnds = coolEnds;
    return this.ask(
      "transfer.confirm",
      "transfer.confirm",
      {
        name: pot.name,
        id: pot.id,
        value: money(pot.value),
        scheme: this.s.d.scheme ?? "",
        coolEnds: fmtDate(coolEnds),
      },
      "transfer.word",
    );
  }

  private onTransferWord(t: string): string | null {
    if (/^\W*transfer\W*$/.test(t)) return this.commitTransfer();
    if (isNo(t)) return this.end("flow.cancelled", "cancelled");
    if (isQuestion(t)) return null;
    const keep = this.s.prompt;
    const text = this.ask("transfer.word_mismatch", "transfer.word_mismatch", {}, "transfer.word");
    if (keep) this.s.prompt = keep;
    return text;
  }

  private commitTransfer(): string {
    const m = this.me();
    const pot = this.findPot(this.s.d.potId);
    if (!pot) return this.end("flow.cancelled", "cancelled");
    const scheme = this.s.d.scheme ?? "";
    const coolEnds = this.s.d.coolEnds ?? addDays(TODAY, 14);
    let ref = this.ref("TR", `${pot.id}:${scheme}`);
    while (this.db.transfers.some((x) => x.ref === ref)) ref = this.ref("TR", `${pot.id}:${scheme}:again`);
    this.db.transfers.push({
      ref,
      owner: m.number,
      potId: pot.id,
      scheme,
      requested: TODAY,
      coolingOffEnds: coolEnds,
      status: "pending",
    });
    pot.status = "in_transfer";
    this.s.log.push(`write:transfer:${ref}:${pot.id}:${scheme}:${coolEnds}`);
    return this.end("transfer.done", "transfer.done", {
      name: pot.name,
      id: pot.id,
      scheme,
      ref,
      coolEnds: fmtDate(coolEnds),
    });
  }

  // ---------------------------------------------------------------- cancelling a transfer

  private startTcancel(text: string): string {
    const ref = parseTransferRef(text);
    if (ref) return this.tcancelRef(ref);
    return this.ask("tcancel.ask_ref", "tcancel.ask_ref", {}, "tcancel.ref");
  }

  private onTcancelRef(text: string): string | null {
    const ref = parseTransferRef(text);
    if (!ref) {
      if (/\d{4,}/.test(text)) return this.tcancelRef(`TR-${text.match(/\d+/)?.[0] ?? ""}`);
      return null;
    }
    return this.tcancelRef(ref);
  }

  private tcancelRef(ref: string): string {
    const m = this.me();
    const tr = this.db.transfers.find((x) => x.ref === ref);
    const again = (state: StateId) =>
      this.reask(state, state, { ref }, "tcancel.ref", "tcancel.ask_ref", "tcancel.ask_ref");
    if (!tr) return again("tcancel.not_found");
    if (tr.owner !== m.number) return again("tcancel.refused_not_yours");
    if (tr.status === "cancelled")
      return this.end("tcancel.already_cancelled", "tcancel.already_cancelled", { ref });
    const vars: Vars = {
      ref,
      requested: fmtDate(tr.requested),
      coolEnds: fmtDate(tr.coolingOffEnds),
      scheme: tr.scheme,
      potId: tr.potId,
      potName: this.findPot(tr.potId)?.name ?? "pot",
    };
    if ((tr.status === "completed" || TODAY > tr.coolingOffEnds) && !this.on("cancel_after_cooloff")) {
      return this.end("tcancel.refused_cooling_off_ended", "tcancel.refused_cooling_off_ended", vars);
    }
    this.s.d.ref = ref;
    return this.ask("tcancel.confirm", "tcancel.confirm", vars, "tcancel.confirm");
  }

  private onTcancelConfirm(t: string): string | null {
    const ref = this.s.d.ref ?? "";
    if (isNo(t) || /\b(keep|leave) it\b/.test(t)) return this.end("tcancel.kept", "tcancel.kept", { ref });
    if (!(isYes(t) || /^(please )?cancel( it| the transfer)?\b/.test(t))) return null;
    const m = this.me();
    const tr = this.db.transfers.find((x) => x.ref === ref);
    if (!tr) return this.end("flow.cancelled", "cancelled");
    tr.status = "cancelled";
    const pot = this.findPot(tr.potId);
    if (pot && pot.status === "in_transfer") pot.status = "active";
    const cref = this.ref("TCX", `${m.number}:${ref}`);
    this.s.log.push(`write:transfer_cancelled:${ref}:${tr.potId}`);
    return this.end("tcancel.done", "tcancel.done", {
      ref,
      cref,
      potName: pot?.name ?? "pot",
      potId: tr.potId,
    });
  }

  // ---------------------------------------------------------------- address

  private startAddress(): string {
    const m = this.me();
    return this.ask(
      "address.ask_line",
      "address.ask_line",
      { current: `${m.addressLine}, ${m.postcode}` },
      "address.line",
    );
  }

  private overseas(): string {
    const m = this.me();
    const ref = this.ref("ADX", `overseas:${m.number}`);
    this.s.log.push(`referral:overseas_address:${m.number}:${ref}`);
    return this.end("address.refused_overseas", "address.refused_overseas", { ref });
  }

  private onAddressLine(text: string, t: string): string | null {
    if (OVERSEAS.test(t)) return this.overseas();
    if (isQuestion(t) || isYes(t) || isNo(t)) return null;
    const pc = extractPostcode(text);
    const line = text
      .replace(/\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/i, "")
      .trim()
      .replace(/[,.\s]+$/, "")
      .slice(0, 90);
    if (line.length < 5 || !/[a-z]/i.test(line)) return null;
    this.s.d.line = line;
    if (pc) {
      this.s.d.postcode = pc;
      return this.ask("address.reenter_postcode", "address.reenter_postcode", {}, "address.reenter");
    }
    return this.ask("address.ask_postcode", "address.ask_postcode", {}, "address.postcode");
  }

  private onAddressPostcode(text: string, t: string): string | null {
    if (OVERSEAS.test(t)) return this.overseas();
    const pc = extractPostcode(text);
    if (!pc) {
      if (t.length <= 12 || /\d/.test(t)) {
        return this.reask(
          "address.invalid_postcode",
          "address.invalid_postcode",
          {},
          "address.postcode",
          "address.ask_postcode",
          "address.ask_postcode",
        );
      }
      return null;
    }
    this.s.d.postcode = pc;
    return this.ask("address.reenter_postcode", "address.reenter_postcode", {}, "address.reenter");
  }

  private onAddressReenter(text: string, t: string): string | null {
    const pc = extractPostcode(text);
    if (!pc && !(t.length <= 12 || /\d/.test(t))) return null;
    const first = this.s.d.postcode ?? "";
    if (pc === first) {
      const m = this.me();
      m.addressLine = this.s.d.line ?? m.addressLine;
      m.postcode = first;
      const ref = this.ref("ADR", `${m.number}:${m.addressLine}:${first}`);
      this.s.log.push(`write:address:${m.number}:${m.addressLine}:${first}`);
      return this.end("address.done", "address.done", { line: m.addressLine, postcode: first, ref });
    }
    return this.reask(
      "address.postcode_mismatch",
      "address.postcode_mismatch",
      { a: first, b: pc ?? text.trim().toUpperCase().slice(0, 12) },
      "address.postcode",
      "address.ask_postcode",
      "address.ask_postcode",
    );
  }

  // ---------------------------------------------------------------- retirement quotes

  private quoteMin(m: Member, strict: boolean): number {
    const age = ageOn(m.dob, TODAY);
    return strict ? Math.max(55, age) : age;
  }

  private startQuote(text: string): string {
    const m = this.me();
    const pre = norm(text).match(/\b(?:at|age|aged|when i'?m)\s*(\d{2})\b/);
    if (pre?.[1]) return this.quoteAge(Number(pre[1]));
    return this.ask("quote.ask_age", "quote.ask_age", { min: this.quoteMin(m, true) }, "quote.age");
  }

  private onQuoteAge(t: string): string | null {
    const n = firstNumber(t);
    if (n === null) return null;
    return this.quoteAge(n);
  }

  private quoteAge(age: number): string {
    const m = this.me();
    const min = this.quoteMin(m, !this.on("quote_age_unchecked"));
    if (!Number.isInteger(age) || age < min || age > 75) {
      const shownMin = this.quoteMin(m, true);
      return this.reask(
        "quote.refused_age",
        "quote.refused_age",
        { age, min: shownMin },
        "quote.age",
        "quote.ask_age",
        "quote.ask_age",
        {
          min: shownMin,
        },
      );
    }
    this.s.d.age = age;
    return this.ask("quote.ask_option", "quote.ask_option", {}, "quote.option");
  }

  private onQuoteOption(t: string): string | null {
    let option: "annuity" | "drawdown" | "cash" | null = null;
    if (/^a\b|annuit|guaranteed income|income for life/.test(t)) option = "annuity";
    else if (/^b\b|draw ?down|invested|flexi/.test(t)) option = "drawdown";
    else if (/^c\b|cash|lump/.test(t)) option = "cash";
    if (!option) return null;
    const m = this.me();
    const age = this.s.d.age ?? 65;
    const now = ageOn(m.dob, TODAY);
    const years = Math.max(0, age - now);
    const base = this.potsOf(m)
      .filter((p) => p.status === "active")
      .reduce((a, p) => a + p.value, 0);
    const annual = m.status === "active" ? (m.salary * (m.employeeRate + m.employerRate)) / 100 : 0;
    const g = 1.03 ** years;
    const projected = Math.round(base * g + (years > 0 ? (annual * (g - 1)) / 0.03 : 0));
    const cash = Math.round(projected * 0.25);
    const rest = projected - cash;
    const rate = 0.055 + 0.0015 * (age - 65);
    const income = option === "annuity" ? Math.round(rest * rate) : Math.round(rest * 0.04);
    const optionText = this.say(`quote.${option}`, {
      cash: money0(cash),
      rest: money0(rest),
      income: money0(income),
    });
    const [by] = isoParts(m.dob);
    const ref = this.ref("QTE", `${m.number}:${age}:${option}`);
    this.s.log.push(`relay:quote:${m.number}:${age}:${option}:${projected}:${cash}:${income}`);
    return this.end("quote.result", "quote.result", {
      age,
      year: by + age,
      projected: money0(projected),
      contribNote: annual > 0 && years > 0 ? ` and that you keep paying in ${money0(annual)} a year` : "",
      optionText,
      ref,
    });
  }
}

export const heldout17Agent: TestbedAgent = {
  name: "heldout17",
  description:
    "Workplace-pension member assistant (Harbourline Pensions): public answers; sign-in by membership number + date of birth then a texted one-time code (3-strike lock-out with hand-off); memorable-word re-check before beneficiary, transfer-out and address changes; gates: yes/no, typed WITHDRAW/TRANSFER, numbered and lettered lists, re-entered bank digits and postcode.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    return new HarbourlineBot(options?.faults ?? [], options?.seed ?? 1);
  },
};
