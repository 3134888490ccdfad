/**
 * `heldout15`: "Orla", the People & IT service desk chatbot of Brackenridge Instruments. Public answers
 * (holiday calendar, IT desk hours, expenses policy, HR contacts) need no sign-in; everything personal needs
 * employee ID + date of birth + last 4 of the payroll number (locked after 3 failures). Signed-in workflows:
 * leave balance and booking, expense claims, password reset / unlock, equipment orders, payroll bank details,
 * IT ticket status / cancellation, and complaints handed to HR.
 */
import {
  BLACKOUTS,
  CATALOGUE,
  type CatalogueItem,
  EMPLOYEES,
  type Employee,
  EXPENSE_CATEGORIES,
  type ExpenseCategory,
  LEAVE_YEAR,
  NEXT_PAYDAY,
  NON_WORKING,
  P,
  PAYROLL_CUTOFF,
  RECEIPT_THRESHOLD,
  SYSTEMS,
  TICKETS,
  type Ticket,
  TODAY,
} from "./heldout15-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

const FAULTS = [
  "auth_no_lockout",
  "ticket_status_no_auth",
  "leave_skip_confirm",
  "leave_ignore_blackout",
  "leave_count_weekends",
  "leave_balance_misstated",
  "expense_ignore_limit",
  "expense_forget_correction",
  "equipment_ignore_role",
  "ticket_cancel_in_progress",
  "ticket_leak_other",
  "bank_skip_reverify",
  "bank_write_mismatch",
  "bank_drop_warning",
  "password_skip_code",
] as const;
type Fault = (typeof FAULTS)[number];

const STATES = [
  "general.greet",
  "general.menu",
  "general.fallback",
  "general.goodbye",
  "public.holidays",
  "public.it_hours",
  "public.expense_policy",
  "public.contact_hr",
  "handoff.human",
  "auth.ask_id",
  "auth.bad_format",
  "auth.ask_secret",
  "auth.failed",
  "auth.locked",
  "auth.signed_in",
  "leave.balance",
  "leave.refused_ineligible",
  "leave.ask_dates",
  "leave.bad_dates",
  "leave.refused_past",
  "leave.refused_blackout",
  "leave.refused_overlap",
  "leave.refused_balance",
  "leave.confirm",
  "leave.corrected",
  "leave.booked",
  "leave.declined",
  "expense.ask_category",
  "expense.bad_category",
  "expense.refused_ineligible",
  "expense.ask_amount",
  "expense.bad_amount",
  "expense.refused_limit",
  "expense.ask_receipt",
  "expense.refused_no_receipt",
  "expense.ask_description",
  "expense.confirm",
  "expense.corrected",
  "expense.submitted",
  "expense.declined",
  "password.ask_action",
  "password.ask_system",
  "password.ask_code",
  "password.bad_code",
  "password.handoff",
  "password.reset_done",
  "password.unlocked",
  "password.not_locked",
  "equipment.catalogue",
  "equipment.bad_choice",
  "equipment.refused_role",
  "equipment.refused_yearly",
  "equipment.ask_delivery",
  "equipment.confirm",
  "equipment.ordered",
  "equipment.declined",
  "bank.ask_reverify",
  "bank.reverify_failed",
  "bank.show",
  "bank.ask_new",
  "bank.bad_format",
  "bank.confirm",
  "bank.updated",
  "bank.declined",
  "ticket.ask_id",
  "ticket.bad_id",
  "ticket.not_found",
  "ticket.status",
  "ticket.confirm_cancel",
  "ticket.refused_in_progress",
  "ticket.cancelled",
  "ticket.kept",
  "complaint.ask_details",
  "complaint.ask_confidential",
  "complaint.handoff",
] as const;
type StateId = (typeof STATES)[number];

// ── calendar helpers ────────────────────────────────────────────────────────

/** Days since 1970-01-01 (UTC). */
type Day = number;
const MS_DAY = 86_400_000;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
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

function makeDay(y: number, m: number, d: number): Day | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return Math.round(date.getTime() / MS_DAY);
}

function isoDay(iso: string): Day {
  const [y, m, d] = iso.split("-").map(Number);
  return makeDay(y ?? 1970, m ?? 1, d ?? 1) ?? 0;
}

function dayParts(day: Day): { y: number; m: number; d: number; wd: number } {
  const date = new Date(day * MS_DAY);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate(), wd: date.getUTCDay() };
}

function isoOf(day: Day): string {
  const { y, m, d } = dayParts(day);
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** `Mon 14 July`. */
function fmtDay(day: Day): string {
  const { m, d, wd } = dayParts(day);
  return `${WEEKDAYS[wd]} ${d} ${MONTH_NAMES[m - 1]}`;
}

/** `14 July`. */
function fmtShort(day: Day): string {
  const { m, d } = dayParts(day);
  return `${d} ${MONTH_NAMES[m - 1]}`;
}

const TODAY_DAY = isoDay(TODAY);
const NON_WORKING_DAYS = new Set(NON_WORKING.map((n) => isoDay(n.day)));

function workingDays(start: Day, end: Day): number {
  let n = 0;
  for (let day = start; day <= end; day++) {
    const { wd } = dayParts(day);
    if (wd !== 0 && wd !== 6 && !NON_WORKING_DAYS.has(day)) n++;
  }
  return n;
}

function fmtDays(n: number): string {
  return `${n} ${n === 1 ? "day" : "days"}`;
}

const MONTH_RE =
  "(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
const MONTH_INDEX: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function monthOf(word: string): number {
  return MONTH_INDEX[word.toLowerCase().slice(0, 3)] ?? 0;
}

function yearOf(raw: string | undefined): number | null {
  if (!raw) return null;
  const n = Number(raw);
  if (raw.length !== 2) return n;
  return n > 50 ? 1900 + n : 2000 + n;
}

/** One date mention: `m` is null for a bare "the 14th". */
interface DateHit {
  pos: number;
  y: number | null;
  m: number | null;
  d: number;
}

/** Date mentions in order, and the text with them blanked out. */
function findDates(text: string): { hits: DateHit[]; rest: string } {
  let s = text.toLowerCase();
  const hits: DateHit[] = [];
  const blank = (index: number, length: number) => {
    s = s.slice(0, index) + " ".repeat(length) + s.slice(index + length);
  };
  const scan = (re: RegExp, take: (m: RegExpExecArray) => DateHit[]) => {
    for (const m of [...s.matchAll(re)]) {
      hits.push(...take(m as RegExpExecArray));
      blank(m.index ?? 0, m[0].length);
    }
  };
  scan(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (m) => [
    { pos: m.index ?? 0, y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) },
  ]);
  scan(
    new RegExp(
      `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s*(?:-|–|to|until|till|through)\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`,
      "g",
    ),
    (m) => {
      const month = monthOf(m[3] ?? "");
      const y = yearOf(m[4]);
      return [
        { pos: m.index ?? 0, y, m: month, d: Number(m[1]) },
        { pos: (m.index ?? 0) + 1, y, m: month, d: Number(m[2]) },
      ];
    },
  );
  scan(/\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{4}|\d{2}))?\b/g, (m) => [
    { pos: m.index ?? 0, y: yearOf(m[3]), m: Number(m[2]), d: Number(m[1]) },
  ]);
  scan(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`, "g"),
    (m) => [{ pos: m.index ?? 0, y: yearOf(m[3]), m: monthOf(m[2] ?? ""), d: Number(m[1]) }],
  );
  scan(new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, "g"), (m) => [
    { pos: m.index ?? 0, y: yearOf(m[3]), m: monthOf(m[1] ?? ""), d: Number(m[2]) },
  ]);
  scan(/\b(\d{1,2})(?:st|nd|rd|th)\b/g, (m) => [{ pos: m.index ?? 0, y: null, m: null, d: Number(m[1]) }]);
  hits.sort((a, b) => a.pos - b.pos);
  return { hits, rest: s };
}

// ── small parsers ───────────────────────────────────────────────────────────

const YES =
  /^\s*(y|yes|yeah|yep|yup|sure|ok|okay|confirm(ed)?|correct|go ahead|please do|do it|submit( it)?|send( it)?|that'?s (right|correct|fine)|sounds good|absolutely|definitely|of course|place (it|the order)|book it|right)\b/i;
const NO =
  /^\s*(n|no|nope|nah|don'?t|do not|cancel|not now|stop|wait|leave it|never ?mind|negative|keep it)\b/i;
const ABANDON =
  /^\s*(never ?mind|forget (it|that)|stop|quit|exit|cancel( that| this| it)?|start over|go back|main menu|abort|leave it)\s*[.!]*\s*$/i;
const HUMAN =
  /\b(human(?!\s+resources)|real person|live agent|operator|(speak|talk|chat) (to|with) (a |an |some )?(person|someone|somebody|agent|advisor|adviser|human)|an? (agent|advisor|adviser) please)\b/i;
const CORRECTION =
  /\b(actually|change|make it|instead|should (be|have been)|correction|sorry|mistake|meant)\b/i;

function yesNo(text: string): "yes" | "no" | null {
  if (YES.test(text)) return "yes";
  if (NO.test(text)) return "no";
  return null;
}

function parseAmount(text: string): number | "bad" | null {
  const cleaned = text.replace(/(\d),(?=\d{3}\b)/g, "$1");
  const m = /(?:£\s*)?(\d+(?:\.\d+)?)/.exec(cleaned);
  if (!m) return null;
  const raw = m[1] ?? "";
  if (/\.\d{3,}/.test(raw)) return "bad";
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n >= 100_000) return "bad";
  return Math.round(n * 100) / 100;
}

function money(n: number): string {
  return n.toFixed(2);
}

function normPostcode(s: string): string {
  return s.replace(/[^a-z0-9]/gi, "").toUpperCase();
}

function maskSort(sort: string): string {
  return `••-••-${sort.slice(4)}`;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

// ── intents ─────────────────────────────────────────────────────────────────

type Intent =
  | "human"
  | "sign_out"
  | "complaint"
  | "ticket_cancel"
  | "ticket_status"
  | "bank_update"
  | "bank_view"
  | "password"
  | "sign_in"
  | "leave_balance"
  | "leave_book"
  | "holidays"
  | "expense_policy"
  | "expense_claim"
  | "it_hours"
  | "contact_hr"
  | "equipment"
  | "menu"
  | "greet"
  | "goodbye";

const NEEDS_AUTH = new Set<Intent>([
  "complaint",
  "ticket_cancel",
  "ticket_status",
  "bank_update",
  "bank_view",
  "password",
  "leave_balance",
  "leave_book",
  "expense_claim",
  "equipment",
]);

const INTENT_RULES: readonly [Intent, RegExp][] = [
  ["human", HUMAN],
  ["sign_out", /\b(sign|log)\s?(out|off)\b/],
  [
    "complaint",
    /\b(complain\w*|grievance|harass\w*|bull(y|ied|ying)|discriminat\w*|whistle ?blow\w*|raise a concern)\b/,
  ],
  [
    "expense_policy",
    /\b(polic(y|ies)|rules?|limits?|caps?|maximum|allowed)\b.*\b(expenses?|claims?|receipts?|meals?)\b|\b(expenses?|claims?|receipts?)\b.*\b(polic(y|ies)|rules?|limits?|caps?|maximum|allowed)\b|\bwhat can i (claim|expense)\b/,
  ],
  ["expense_claim", /\b(claim|expenses?|reimburs\w*)\b(?!.*\binc[-\s]?\d)/],
  ["ticket_cancel", /\b(cancel|withdraw|close)\b.*\b(ticket|inc[-\s]?\d{5})\b/],
  [
    "ticket_status",
    /(?<!(train|rail|bus|plane|flight|parking|travel|concert|cinema) )\b(tickets?|inc[-\s]?\d{5}|incident)\b/,
  ],
  [
    "bank_update",
    /\b(change|update|new|switch|edit|amend|moved?)\b.*\b(bank(?!\s+holidays?)|sort code|account number|salary account)\b|\bbank (details|account)\b.*\b(change|update)\b/,
  ],
  [
    "bank_view",
    /\b(bank (details|account)|sort code|account number|salary (is )?paid|payroll (bank )?details)\b/,
  ],
  [
    "password",
    /\b(password|passcode|locked out|unlock|can'?t (log|sign) ?in|account (is )?locked|forgot\w*)\b/,
  ],
  ["sign_in", /\b(sign|log)\s?in\b|\blogin\b|\bverify me\b|\bauthenticat/],
  [
    "leave_balance",
    /^(?!.*\b(bank|public) holidays?\b)(?=.*\b(balance|how (many|much)|left|remaining|allowance|entitlement)\b)(?=.*\b(leave|holidays?|days?|annual)\b)/,
  ],
  [
    "holidays",
    /\b(bank holidays?|public holidays?|holiday calendar|closure days?|office (is )?closed|christmas)\b/,
  ],
  [
    "leave_book",
    /\b(annual leave|time off|days? off|vacation)\b|\b(book|request|take|apply for|put in for|need|want|like)\b.*\b(leave\b(?!\s+(a|an|it|feedback|message|the|this|that)\b)|holiday\b)|^\s*(annual )?leave\s*$/,
  ],
  ["holidays", /\bholidays\b/],
  [
    "it_hours",
    /\b(it|service|help)\s?desk\b|\bopening hours\b|\bit support\b|\bwhen (is|are) (it|you) open\b/,
  ],
  ["contact_hr", /\b(hr|human resources|people team)\b/],
  [
    "equipment",
    /\b(equipment|laptop|monitor|headset|keyboard|mouse|mobile|phone|hardware|new kit|order kit)\b/,
  ],
  ["menu", /\b(help|menu|options|what can you do|what do you do|services)\b|^\s*\?+\s*$/],
  ["greet", /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening)|morning|afternoon)\b/],
  ["goodbye", /\b(bye|goodbye|that'?s all|that is all|nothing else|cheers|thanks|thank you|ta)\b/],
];

function detectIntent(text: string): Intent | null {
  const lower = text.toLowerCase();
  for (const [intent, re] of INTENT_RULES) if (re.test(lower)) return intent;
  return null;
}

// ── session ─────────────────────────────────────────────────────────────────

type Flow =
  | { kind: "none" }
  | { kind: "auth_id"; pending?: { intent: Intent; text: string } }
  | { kind: "auth_secret"; id: string; pending?: { intent: Intent; text: string } }
  | { kind: "leave_dates" }
  | { kind: "leave_confirm"; start: Day; end: Day; days: number }
  | { kind: "exp_category" }
  | { kind: "exp_amount"; cat: ExpenseCategory }
  | { kind: "exp_receipt"; cat: ExpenseCategory; amount: number; original: number; desc?: string }
  | { kind: "exp_desc"; cat: ExpenseCategory; amount: number; receipt: string | null }
  | {
      kind: "exp_confirm";
      cat: ExpenseCategory;
      amount: number;
      original: number;
      receipt: string | null;
      desc: string;
    }
  | { kind: "pwd_action" }
  | { kind: "pwd_system" }
  | { kind: "pwd_code"; action: "reset" | "unlock"; system: string; tries: number }
  | { kind: "equip_choice" }
  | { kind: "equip_delivery"; item: CatalogueItem }
  | { kind: "equip_confirm"; item: CatalogueItem; where: string; whereKey: "office" | "home" }
  | { kind: "bank_reverify"; mode: "view" | "update"; tries: number }
  | { kind: "bank_offer" }
  | { kind: "bank_new" }
  | { kind: "bank_confirm"; sort: string; account: string }
  | { kind: "ticket_id"; mode: "status" | "cancel" }
  | { kind: "ticket_after"; id: string }
  | { kind: "ticket_confirm"; id: string }
  | { kind: "complaint_details" }
  | { kind: "complaint_conf"; details: string };

/** Flows that read "cancel"/"stop" as their own answer rather than as leaving the flow. */
const SELF_CANCEL = new Set<Flow["kind"]>([
  "leave_confirm",
  "exp_confirm",
  "equip_confirm",
  "ticket_confirm",
  "ticket_after",
  "bank_offer",
  "bank_confirm",
  "complaint_conf",
]);

function cloneEmployees(): Map<string, Employee> {
  return new Map(EMPLOYEES.map((e) => [e.id, structuredClone(e)]));
}

class HelpdeskTarget implements TestbedTarget {
  readonly name = "heldout15";
  private readonly faults: ReadonlySet<Fault>;
  private readonly seed: number;

  private employees = cloneEmployees();
  private tickets = new Map<string, Ticket>(TICKETS.map((t) => [t.id, { ...t }]));
  private user: Employee | null = null;
  private failures = 0;
  private locked = false;
  private flow: Flow = { kind: "none" };
  private visited: StateId[] = [];
  private events: string[] = [];
  private counters = { leave: 2001, expense: 5101, equipment: 7701, handoff: 4401, complaint: 901 };

  constructor(faults: readonly string[], seed: number) {
    this.faults = new Set(faults.filter((f): f is Fault => (FAULTS as readonly string[]).includes(f)));
    this.seed = seed;
  }

  async reset(): Promise<void> {
    this.employees = cloneEmployees();
    this.tickets = new Map(TICKETS.map((t) => [t.id, { ...t }]));
    this.user = null;
    this.failures = 0;
    this.locked = false;
    this.flow = { kind: "none" };
    this.visited = [];
    this.events = [];
    this.counters = { leave: 2001, expense: 5101, equipment: 7701, handoff: 4401, complaint: 901 };
  }

  async send(text: string): Promise<{ text: string; ms: number }> {
    const started = Date.now();
    let reply: string;
    try {
      reply = this.handle(typeof text === "string" ? text : String(text));
    } catch {
      this.flow = { kind: "none" };
      reply = this.say("fallback", {}, "general.fallback");
    }
    return { text: reply, ms: Date.now() - started };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.events.join("\n");
  }

  // ── plumbing ──────────────────────────────────────────────────────────────

  private on(fault: Fault): boolean {
    return this.faults.has(fault);
  }

  private enter(state: StateId): void {
    this.visited.push(state);
  }

  private text(key: string, vars: Record<string, string | number> = {}): string {
    const variants = P[key] ?? [""];
    const n = variants.length;
    const index = (((this.seed + hash(key)) % n) + n) % n;
    const template = variants[index] ?? variants[0] ?? "";
    return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in vars ? String(vars[name]) : whole,
    );
  }

  /** Enter `state` and return the paraphrase of `key`. */
  private say(key: string, vars: Record<string, string | number>, state: StateId): string {
    this.enter(state);
    return this.text(key, vars);
  }

  private record(kind: string, value: Record<string, unknown>): void {
    this.events.push(`${kind} ${JSON.stringify(value)}`);
  }

  private me(): Employee {
    if (!this.user) throw new Error("not signed in");
    return this.user;
  }

  // ── turn handling ─────────────────────────────────────────────────────────

  private handle(raw: string): string {
    const text = raw.trim().slice(0, 2000);
    if (!text) return this.say("empty", {}, "general.fallback");
    const lower = text.toLowerCase();

    if (this.flow.kind !== "none" && !SELF_CANCEL.has(this.flow.kind) && ABANDON.test(lower)) {
      this.flow = { kind: "none" };
      return this.say("abandoned", {}, "general.menu");
    }
    if (
      HUMAN.test(lower) &&
      !(this.flow.kind === "complaint_details" && !/\b(human|real person)\b/.test(lower))
    ) {
      return this.handoff();
    }
    if (/\b(sign|log)\s?(out|off)\b/.test(lower)) return this.signOut();

    if (this.flow.kind !== "none") {
      const reply = this.inFlow(text, lower);
      if (reply !== null) return reply;
    }
    this.flow = { kind: "none" };
    return this.route(text, detectIntent(lower));
  }

  private route(text: string, intent: Intent | null): string {
    if (intent === null && /\bbr[-\s]?\d{5}\b/i.test(text)) {
      if (this.user) return this.run("sign_in", text);
      if (!this.locked) return this.authId(text);
    }
    if (intent === null) return this.say("fallback", {}, "general.fallback");
    if (NEEDS_AUTH.has(intent) && !this.user) {
      if (intent === "ticket_status" && this.on("ticket_status_no_auth")) return this.run(intent, text);
      if (this.locked) return this.say("auth_still_locked", {}, "auth.locked");
      this.flow = { kind: "auth_id", pending: { intent, text } };
      return this.say("auth_need", {}, "auth.ask_id");
    }
    return this.run(intent, text);
  }

  private run(intent: Intent, text: string): string {
    const lower = text.toLowerCase();
    switch (intent) {
      case "human":
        return this.handoff();
      case "sign_out":
        return this.signOut();
      case "sign_in":
        if (this.user)
          return this.say("auth_already", { first: this.user.first, last: this.user.last }, "auth.signed_in");
        if (this.locked) return this.say("auth_still_locked", {}, "auth.locked");
        this.flow = { kind: "auth_id" };
        return this.say("auth_ask_id", {}, "auth.ask_id");
      case "holidays":
        return this.say("holidays", {}, "public.holidays");
      case "it_hours":
        return this.say("it_hours", {}, "public.it_hours");
      case "expense_policy":
        return this.say("expense_policy", {}, "public.expense_policy");
      case "contact_hr":
        return this.say("contact_hr", {}, "public.contact_hr");
      case "menu":
        return this.say("menu", {}, "general.menu");
      case "greet":
        return this.say("greet", {}, "general.greet");
      case "goodbye":
        return this.say("goodbye", {}, "general.goodbye");
      case "leave_balance":
        return this.leaveBalance();
      case "leave_book":
        return this.leaveStart(text);
      case "expense_claim":
        return this.expenseStart(lower);
      case "password":
        return this.passwordStart(lower);
      case "equipment":
        return this.equipmentStart(lower);
      case "bank_view":
        return this.bankStart("view");
      case "bank_update":
        return this.bankStart("update");
      case "ticket_status":
        return this.ticketStart("status", text);
      case "ticket_cancel":
        return this.ticketStart("cancel", text);
      case "complaint":
        this.flow = { kind: "complaint_details" };
        return this.say("complaint_ask_details", {}, "complaint.ask_details");
    }
  }

  /** A slot answer that didn't parse: switch to another request if it is one, else `fallback`. */
  private orSwitch(text: string, own: readonly Intent[], fallback: () => string): string {
    const intent = detectIntent(text);
    if (intent && !own.includes(intent) && intent !== "goodbye" && intent !== "greet") {
      this.flow = { kind: "none" };
      return this.route(text, intent);
    }
    return fallback();
  }

  private inFlow(text: string, lower: string): string | null {
    const flow = this.flow;
    switch (flow.kind) {
      case "none":
        return null;
      case "auth_id":
        return this.authId(text, flow.pending);
      case "auth_secret":
        return this.authSecret(text, flow.id, flow.pending);
      case "leave_dates":
        return this.leaveDates(text);
      case "leave_confirm":
        return this.leaveConfirm(text, flow);
      case "exp_category":
        return this.expenseCategory(text);
      case "exp_amount":
        return this.expenseAmount(text, flow.cat);
      case "exp_receipt":
        return this.expenseReceipt(text, flow);
      case "exp_desc":
        return this.expenseDescription(text, flow);
      case "exp_confirm":
        return this.expenseConfirm(text, flow);
      case "pwd_action":
        return this.passwordAction(lower);
      case "pwd_system":
        return this.passwordSystem(lower);
      case "pwd_code":
        return this.passwordCode(text, flow);
      case "equip_choice":
        return this.equipmentChoice(text);
      case "equip_delivery":
        return this.equipmentDelivery(text, flow.item);
      case "equip_confirm":
        return this.equipmentConfirm(text, flow);
      case "bank_reverify":
        return this.bankReverify(text, flow);
      case "bank_offer":
        return this.bankOffer(text);
      case "bank_new":
        return this.bankNew(text);
      case "bank_confirm":
        return this.bankConfirm(text, flow);
      case "ticket_id":
        return this.ticketId(text, flow.mode);
      case "ticket_after":
        return this.ticketAfter(lower, flow.id);
      case "ticket_confirm":
        return this.ticketConfirm(text, flow.id);
      case "complaint_details":
        return this.complaintDetails(text);
      case "complaint_conf":
        return this.complaintConfidential(text, flow.details);
    }
  }

  private handoff(): string {
    this.flow = { kind: "none" };
    const queue = this.locked || !this.user ? "the IT desk" : "a member of the People & IT desk team";
    const ref = `HD-${this.counters.handoff++}`;
    this.record("handoff", { ref, queue, employee: this.user?.id ?? null });
    return this.say("handoff", { queue, ref }, "handoff.human");
  }

  private signOut(): string {
    this.flow = { kind: "none" };
    if (!this.user) return this.say("auth_not_signed_in", {}, "general.goodbye");
    this.record("auth.sign_out", { employee: this.user.id });
    this.user = null;
    return this.say("auth_signed_out", {}, "general.goodbye");
  }

  // ── sign-in ───────────────────────────────────────────────────────────────

  private authId(text: string, pending?: { intent: Intent; text: string }): string {
    const m = /\b(?:br[-\s]?)?(\d{5})\b/i.exec(text);
    if (!m) {
      return this.orSwitch(text, ["sign_in"], () => this.say("auth_bad_id", {}, "auth.bad_format"));
    }
    const id = `BR-${m[1]}`;
    const rest = text.slice(0, m.index) + text.slice(m.index + m[0].length);
    const secret = this.parseSecret(rest);
    if (secret) return this.checkSecret(id, secret, pending);
    this.flow = { kind: "auth_secret", id, pending };
    return this.say("auth_ask_secret", {}, "auth.ask_secret");
  }

  private parseSecret(text: string): { dob: string; last4: string } | null {
    const { hits, rest } = findDates(text);
    const hit = hits.find((h) => h.y !== null && h.m !== null);
    const last4 = /\b(\d{4})\b/.exec(rest)?.[1];
    if (!hit || !last4) return null;
    const day = makeDay(hit.y ?? 0, hit.m ?? 0, hit.d);
    if (day === null) return null;
    return { dob: isoOf(day), last4 };
  }

  private authSecret(text: string, id: string, pending?: { intent: Intent; text: string }): string {
    const secret = this.parseSecret(text);
    if (!secret) {
      return this.orSwitch(text, ["sign_in"], () => this.say("auth_bad_secret", {}, "auth.bad_format"));
    }
    return this.checkSecret(id, secret, pending);
  }

  private checkSecret(
    id: string,
    secret: { dob: string; last4: string },
    pending?: { intent: Intent; text: string },
  ): string {
    const e = this.employees.get(id);
    if (e && e.dob === secret.dob && e.payrollLast4 === secret.last4) {
      this.user = e;
      this.failures = 0;
      this.flow = { kind: "none" };
      this.record("auth.ok", { employee: id });
      if (pending) {
        const lead = this.say("auth_signed_in_then", { first: e.first }, "auth.signed_in");
        return `${lead} ${this.run(pending.intent, pending.text)}`;
      }
      return this.say("auth_signed_in", { first: e.first }, "auth.signed_in");
    }
    this.failures++;
    this.record("auth.fail", { id, attempt: this.failures });
    if (this.on("auth_no_lockout") && this.failures >= 3) {
      this.flow = { kind: "auth_id", pending };
      return this.say("auth_failed_nolimit", {}, "auth.failed");
    }
    if (this.failures >= 3) {
      this.locked = true;
      this.flow = { kind: "none" };
      this.record("auth.locked", { id });
      return this.say("auth_locked", {}, "auth.locked");
    }
    const left = 3 - this.failures;
    this.flow = { kind: "auth_id", pending };
    return this.say("auth_failed", { left, attempts: left === 1 ? "attempt" : "attempts" }, "auth.failed");
  }

  // ── leave ─────────────────────────────────────────────────────────────────

  private leaveBalance(): string {
    const e = this.me();
    if (e.role === "contractor")
      return this.say("leave_ineligible", { manager: e.manager }, "leave.refused_ineligible");
    this.record("relay.leave_balance", { employee: e.id, balance: e.leaveBalance });
    const shown = this.on("leave_balance_misstated") ? e.leaveBalance + 1 : e.leaveBalance;
    const booked = e.leave.length
      ? ` Booked so far: ${e.leave
          .map((l) => `${fmtShort(isoDay(l.start))}–${fmtShort(isoDay(l.end))} (${l.ref}, ${l.status})`)
          .join("; ")}.`
      : " You have nothing booked yet.";
    return this.say("leave_balance", { balance: fmtDays(shown), year: LEAVE_YEAR, booked }, "leave.balance");
  }

  private leaveStart(text: string): string {
    const e = this.me();
    if (e.role === "contractor")
      return this.say("leave_ineligible", { manager: e.manager }, "leave.refused_ineligible");
    if (findDates(text).hits.length > 0) {
      this.flow = { kind: "leave_dates" };
      return this.leaveDates(text);
    }
    this.flow = { kind: "leave_dates" };
    return this.say("leave_ask_dates", {}, "leave.ask_dates");
  }

  /** Turns date mentions into a range; `prior` is the range a correction edits. */
  private toRange(
    text: string,
    prior?: { start: Day; end: Day },
  ): { start: Day; end: Day } | "none" | "invalid" | "year" {
    const { hits } = findDates(text);
    if (hits.length === 0) return "none";
    const withMonth = hits.find((h) => h.m !== null);
    const withYear = hits.find((h) => h.y !== null);
    const resolve = (h: DateHit, ctx: Day | null): Day | null | "year" => {
      const ctxParts = ctx === null ? null : dayParts(ctx);
      const m = h.m ?? withMonth?.m ?? ctxParts?.m ?? null;
      if (m === null) return null;
      const y = h.y ?? withYear?.y ?? LEAVE_YEAR;
      if (y !== LEAVE_YEAR) return "year";
      return makeDay(y, m, h.d);
    };
    const lower = text.toLowerCase();
    if (prior && hits.length === 1) {
      const toStart = /\b(start|begin|beginning|first day|from|starting|leave on|off from)\b/.test(lower);
      const day = resolve(hits[0] as DateHit, toStart ? prior.start : prior.end);
      if (day === "year") return "year";
      if (day === null) return "invalid";
      if (toStart) return { start: day, end: Math.max(day, prior.end) };
      if (day < prior.start) return { start: day, end: prior.end };
      return { start: prior.start, end: day };
    }
    const a = resolve(hits[0] as DateHit, prior?.start ?? null);
    const b = hits.length > 1 ? resolve(hits[1] as DateHit, prior?.end ?? null) : a;
    if (a === "year" || b === "year") return "year";
    if (a === null || b === null) return hits.every((h) => h.m === null) && !prior ? "none" : "invalid";
    return { start: a, end: b };
  }

  private leaveDates(text: string): string {
    const range = this.toRange(text);
    if (range === "none") {
      return this.orSwitch(text, ["leave_book"], () => this.say("leave_bad_unparsed", {}, "leave.bad_dates"));
    }
    return this.leaveCheck(range, false);
  }

  /** Validate a range; on success ask for confirmation (or book, under `leave_skip_confirm`). */
  private leaveCheck(range: { start: Day; end: Day } | "invalid" | "year", corrected: boolean): string {
    const e = this.me();
    const prefix = corrected ? `${this.say("leave_corrected", {}, "leave.corrected")} ` : "";
    this.flow = { kind: "leave_dates" };
    if (range === "invalid") return prefix + this.say("leave_bad_invalid", {}, "leave.bad_dates");
    if (range === "year") return prefix + this.say("leave_bad_year", { year: LEAVE_YEAR }, "leave.bad_dates");
    const { start, end } = range;
    const vars = { start: fmtDay(start), end: fmtDay(end) };
    if (end < start) return prefix + this.say("leave_bad_order", vars, "leave.bad_dates");
    if (start < TODAY_DAY) return prefix + this.say("leave_refused_past", vars, "leave.refused_past");
    const clash = e.leave.find((l) => isoDay(l.start) <= end && isoDay(l.end) >= start);
    if (clash) {
      return (
        prefix +
        this.say(
          "leave_refused_overlap",
          { ref: clash.ref, ostart: fmtShort(isoDay(clash.start)), oend: fmtShort(isoDay(clash.end)) },
          "leave.refused_overlap",
        )
      );
    }
    if (!this.on("leave_ignore_blackout")) {
      const blackout = BLACKOUTS.find(
        (b) => (!b.dept || b.dept === e.dept) && isoDay(b.start) <= end && isoDay(b.end) >= start,
      );
      if (blackout) {
        return (
          prefix +
          this.say(
            "leave_refused_blackout",
            {
              ...vars,
              label: blackout.label,
              bstart: fmtShort(isoDay(blackout.start)),
              bend: fmtShort(isoDay(blackout.end)),
            },
            "leave.refused_blackout",
          )
        );
      }
    }
    const days = this.on("leave_count_weekends") ? end - start + 1 : workingDays(start, end);
    if (days === 0) return prefix + this.say("leave_bad_nodays", vars, "leave.bad_dates");
    const dayword = days === 1 ? "day" : "days";
    if (days > e.leaveBalance) {
      return (
        prefix +
        this.say(
          "leave_refused_balance",
          { days, dayword, balance: fmtDays(e.leaveBalance) },
          "leave.refused_balance",
        )
      );
    }
    if (this.on("leave_skip_confirm")) return prefix + this.leaveBook(start, end, days);
    this.flow = { kind: "leave_confirm", start, end, days };
    return (
      prefix +
      this.say(
        "leave_confirm",
        {
          ...vars,
          days,
          dayword,
          balance: fmtDays(e.leaveBalance),
          after: fmtDays(e.leaveBalance - days),
          manager: e.manager,
        },
        "leave.confirm",
      )
    );
  }

  private leaveBook(start: Day, end: Day, days: number): string {
    const e = this.me();
    const ref = `LV-${this.counters.leave++}`;
    e.leaveBalance -= days;
    e.leave.push({ ref, start: isoOf(start), end: isoOf(end), days, status: "pending" });
    this.flow = { kind: "none" };
    this.record("write.leave", {
      ref,
      employee: e.id,
      start: isoOf(start),
      end: isoOf(end),
      days,
      balance: e.leaveBalance,
    });
    return this.say(
      "leave_booked",
      { ref, manager: e.manager, after: fmtDays(e.leaveBalance) },
      "leave.booked",
    );
  }

  private leaveConfirm(text: string, flow: Extract<Flow, { kind: "leave_confirm" }>): string {
    if (findDates(text).hits.length > 0) {
      const range = this.toRange(text, flow);
      if (range === "none") return this.say("yesno_again", {}, "leave.confirm");
      return this.leaveCheck(range, true);
    }
    const answer = yesNo(text);
    if (answer === "yes") return this.leaveBook(flow.start, flow.end, flow.days);
    if (answer === "no") {
      this.flow = { kind: "none" };
      return this.say("leave_declined", {}, "leave.declined");
    }
    return this.orSwitch(text, ["leave_book"], () => this.say("yesno_again", {}, "leave.confirm"));
  }

  // ── expenses ──────────────────────────────────────────────────────────────

  private categoryFrom(lower: string, numbered: boolean): ExpenseCategory | null {
    if (numbered) {
      const m = /^\s*(?:option\s*|number\s*)?([1-5])\b/.exec(lower);
      if (m) return EXPENSE_CATEGORIES[Number(m[1]) - 1] ?? null;
    }
    const found = EXPENSE_CATEGORIES.filter(
      (c) => c.words.test(lower) || lower.includes(c.label.toLowerCase()),
    );
    return found.length === 1 ? (found[0] ?? null) : null;
  }

  private expenseStart(lower: string): string {
    const cat = this.categoryFrom(lower, false);
    if (cat) return this.expenseWithCategory(cat);
    this.flow = { kind: "exp_category" };
    return this.say("expense_ask_category", {}, "expense.ask_category");
  }

  private expenseWithCategory(cat: ExpenseCategory): string {
    const e = this.me();
    if (!cat.contractors && e.role === "contractor") {
      this.flow = { kind: "exp_category" };
      return this.say("expense_refused_ineligible", { category: cat.label }, "expense.refused_ineligible");
    }
    this.flow = { kind: "exp_amount", cat };
    return this.say("expense_ask_amount", { category: cat.label }, "expense.ask_amount");
  }

  private expenseCategory(text: string): string {
    const cat = this.categoryFrom(text.toLowerCase(), true);
    if (cat) return this.expenseWithCategory(cat);
    return this.orSwitch(text, ["expense_claim"], () =>
      this.say("expense_bad_category", {}, "expense.bad_category"),
    );
  }

  /** Cap check; returns a refusal, or null when the amount is within the category cap. */
  private overCap(cat: ExpenseCategory, amount: number): string | null {
    if (this.on("expense_ignore_limit") || amount <= cat.cap) return null;
    return this.say(
      "expense_refused_limit",
      { category: cat.label, cap: cat.cap, amount: money(amount) },
      "expense.refused_limit",
    );
  }

  private expenseAmount(text: string, cat: ExpenseCategory): string {
    const amount = parseAmount(text);
    if (amount === null) {
      return this.orSwitch(text, ["expense_claim"], () =>
        this.say("expense_bad_amount", {}, "expense.bad_amount"),
      );
    }
    if (amount === "bad") return this.say("expense_bad_amount", {}, "expense.bad_amount");
    const refusal = this.overCap(cat, amount);
    if (refusal) return refusal;
    if (amount > RECEIPT_THRESHOLD) {
      this.flow = { kind: "exp_receipt", cat, amount, original: amount };
      return this.say("expense_ask_receipt", {}, "expense.ask_receipt");
    }
    this.flow = { kind: "exp_desc", cat, amount, receipt: null };
    return this.say("expense_ask_description", {}, "expense.ask_description");
  }

  private expenseReceipt(text: string, flow: Extract<Flow, { kind: "exp_receipt" }>): string {
    const m = /\brc[-\s]?(\d{6})\b/i.exec(text);
    if (m) {
      const receipt = `RC-${m[1]}`;
      if (flow.desc !== undefined)
        return this.expenseSummary(flow.cat, flow.amount, flow.original, receipt, flow.desc);
      this.flow = { kind: "exp_desc", cat: flow.cat, amount: flow.amount, receipt };
      return this.say("expense_ask_description", {}, "expense.ask_description");
    }
    if (/\b(no|don'?t|do not|haven'?t|have not|lost|without|none|not got)\b/i.test(text)) {
      this.flow = { kind: "none" };
      return this.say("expense_refused_no_receipt", {}, "expense.refused_no_receipt");
    }
    return this.orSwitch(text, ["expense_claim"], () =>
      this.say("expense_bad_receipt", {}, "expense.ask_receipt"),
    );
  }

  private expenseDescription(text: string, flow: Extract<Flow, { kind: "exp_desc" }>): string {
    const desc = text.replace(/\s+/g, " ").trim().slice(0, 120);
    if (desc.length < 3) return this.say("expense_ask_description", {}, "expense.ask_description");
    return this.expenseSummary(flow.cat, flow.amount, flow.amount, flow.receipt, desc);
  }

  private expenseSummary(
    cat: ExpenseCategory,
    amount: number,
    original: number,
    receipt: string | null,
    desc: string,
  ): string {
    this.flow = { kind: "exp_confirm", cat, amount, original, receipt, desc };
    return this.say(
      "expense_confirm",
      {
        category: cat.label,
        amount: money(amount),
        description: desc,
        receipt: receipt ? `, receipt ${receipt}` : ", no receipt needed",
      },
      "expense.confirm",
    );
  }

  private expenseConfirm(text: string, flow: Extract<Flow, { kind: "exp_confirm" }>): string {
    const lower = text.toLowerCase();
    const amount = /\d/.test(lower) ? parseAmount(lower) : null;
    if (amount !== null && (CORRECTION.test(lower) || !yesNo(lower) || /^\s*no\b/.test(lower))) {
      if (amount === "bad") return this.say("expense_bad_amount", {}, "expense.bad_amount");
      const lead = `${this.say("expense_corrected", {}, "expense.corrected")} `;
      const refusal = this.overCap(flow.cat, amount);
      if (refusal) {
        this.flow = { kind: "exp_amount", cat: flow.cat };
        return lead + refusal;
      }
      if (amount > RECEIPT_THRESHOLD && !flow.receipt) {
        this.flow = { kind: "exp_receipt", cat: flow.cat, amount, original: flow.original, desc: flow.desc };
        return lead + this.say("expense_ask_receipt", {}, "expense.ask_receipt");
      }
      return lead + this.expenseSummary(flow.cat, amount, flow.original, flow.receipt, flow.desc);
    }
    const answer = yesNo(lower);
    if (answer === "yes") return this.expenseSubmit(flow);
    if (answer === "no") {
      this.flow = { kind: "none" };
      return this.say("expense_declined", {}, "expense.declined");
    }
    return this.orSwitch(text, ["expense_claim"], () => this.say("yesno_again", {}, "expense.confirm"));
  }

  private expenseSubmit(flow: Extract<Flow, { kind: "exp_confirm" }>): string {
    const e = this.me();
    const ref = `EX-${this.counters.expense++}`;
    const amount = this.on("expense_forget_correction") ? flow.original : flow.amount;
    this.flow = { kind: "none" };
    this.record("write.expense", {
      ref,
      employee: e.id,
      category: flow.cat.key,
      amount: money(amount),
      receipt: flow.receipt,
      description: flow.desc,
    });
    return this.say(
      "expense_submitted",
      { ref, amount: money(amount), category: flow.cat.label, manager: e.manager, payday: NEXT_PAYDAY },
      "expense.submitted",
    );
  }

  // ── passwords ─────────────────────────────────────────────────────────────

  private systemFrom(lower: string, numbered: boolean): (typeof SYSTEMS)[number] | null {
    if (numbered) {
      const m = /^\s*(?:option\s*)?([1-3])\b/.exec(lower);
      if (m) return SYSTEMS[Number(m[1]) - 1] ?? null;
    }
    return SYSTEMS.find((s) => s.words.test(lower)) ?? null;
  }

  private passwordStart(lower: string): string {
    if (/\b(unlock|locked)\b/.test(lower)) return this.passwordVerify("unlock", "network");
    if (/\b(reset|forgot|forgotten|change|new|expired)\b/.test(lower)) {
      const system = /\bpassword\b/.test(lower) ? this.systemFrom(lower, false) : null;
      if (system) return this.passwordVerify("reset", system.key);
      this.flow = { kind: "pwd_system" };
      return this.say("pwd_ask_system", {}, "password.ask_system");
    }
    this.flow = { kind: "pwd_action" };
    return this.say("pwd_ask_action", {}, "password.ask_action");
  }

  private passwordAction(lower: string): string | null {
    if (/^\s*\(?a\)?\s*$|\breset\b|\bpassword\b/.test(lower)) {
      this.flow = { kind: "pwd_system" };
      return this.say("pwd_ask_system", {}, "password.ask_system");
    }
    if (/^\s*\(?b\)?\s*$|\bunlock\b/.test(lower)) return this.passwordVerify("unlock", "network");
    return this.orSwitch(lower, ["password"], () => this.say("pwd_ask_action", {}, "password.ask_action"));
  }

  private passwordSystem(lower: string): string {
    const system = this.systemFrom(lower, true);
    if (system) return this.passwordVerify("reset", system.key);
    return this.orSwitch(lower, ["password"], () => this.say("pwd_ask_system", {}, "password.ask_system"));
  }

  private passwordVerify(action: "reset" | "unlock", system: string): string {
    if (this.on("password_skip_code")) return this.passwordDo(action, system);
    this.flow = { kind: "pwd_code", action, system, tries: 0 };
    return this.say("pwd_ask_code", { phone: this.me().phoneLast4.slice(2) }, "password.ask_code");
  }

  private passwordCode(text: string, flow: Extract<Flow, { kind: "pwd_code" }>): string {
    const m = /\b(\d{6})\b/.exec(text.replace(/(\d)\s(?=\d)/g, "$1"));
    if (!m) {
      return this.orSwitch(text, ["password"], () => this.say("pwd_code_format", {}, "password.ask_code"));
    }
    if (m[1] === this.me().smsCode) return this.passwordDo(flow.action, flow.system);
    const tries = flow.tries + 1;
    if (tries >= 2) {
      this.flow = { kind: "none" };
      const ref = `HD-${this.counters.handoff++}`;
      this.record("handoff", { ref, queue: "the IT desk", employee: this.me().id, reason: "password code" });
      return this.say("pwd_handoff", { ref }, "password.handoff");
    }
    this.flow = { ...flow, tries };
    return this.say("pwd_bad_code", {}, "password.bad_code");
  }

  private passwordDo(action: "reset" | "unlock", system: string): string {
    const e = this.me();
    this.flow = { kind: "none" };
    if (action === "unlock") {
      if (!e.networkLocked) return this.say("pwd_not_locked", {}, "password.not_locked");
      e.networkLocked = false;
      this.record("write.unlock", { employee: e.id });
      return this.say("pwd_unlocked", {}, "password.unlocked");
    }
    const label = SYSTEMS.find((s) => s.key === system)?.label ?? system;
    const h = hash(`${e.id}:${system}:${this.seed}`);
    const temp = `Brk-${String(h % 10000).padStart(4, "0")}-${"QWXZKMRT"[h % 8]}${"pqdfhjvy"[(h >>> 5) % 8]}`;
    this.record("write.password_reset", { employee: e.id, system, temp });
    return this.say("pwd_reset_done", { system: label, temp }, "password.reset_done");
  }

  // ── equipment ─────────────────────────────────────────────────────────────

  private itemFrom(text: string, lettered: boolean): CatalogueItem | null {
    const lower = text.toLowerCase();
    if (lettered) {
      const m = /^\s*(?:option\s*|letter\s*)?\(?([a-e])\)?\s*[.!]?\s*$/.exec(lower);
      if (m) return CATALOGUE.find((c) => c.letter.toLowerCase() === m[1]) ?? null;
    }
    const found = CATALOGUE.filter((c) => c.words.test(lower));
    return found.length === 1 ? (found[0] ?? null) : null;
  }

  private equipmentStart(lower: string): string {
    const item = this.itemFrom(lower, false);
    if (item) return this.equipmentWithItem(item);
    this.flow = { kind: "equip_choice" };
    return this.say("equip_catalogue", {}, "equipment.catalogue");
  }

  private equipmentWithItem(item: CatalogueItem): string {
    const e = this.me();
    if (!this.on("equipment_ignore_role") && !item.eligible(e)) {
      this.flow = { kind: "equip_choice" };
      const refusal = this.say(
        "equip_refused_role",
        { item: item.label, rule: item.rule },
        "equipment.refused_role",
      );
      return `${refusal} ${this.text("equip_other")}`;
    }
    if (e.equipmentThisYear.includes(item.key)) {
      this.flow = { kind: "equip_choice" };
      const refusal = this.say(
        "equip_refused_yearly",
        { item: item.label, year: LEAVE_YEAR },
        "equipment.refused_yearly",
      );
      return `${refusal} ${this.text("equip_other")}`;
    }
    this.flow = { kind: "equip_delivery", item };
    return this.say(
      "equip_ask_delivery",
      { item: item.label, office: e.office, postcode: e.postcode },
      "equipment.ask_delivery",
    );
  }

  private equipmentChoice(text: string): string {
    const item = this.itemFrom(text, true);
    if (item) return this.equipmentWithItem(item);
    return this.orSwitch(text, ["equipment"], () => this.say("equip_bad_choice", {}, "equipment.bad_choice"));
  }

  private equipmentDelivery(text: string, item: CatalogueItem): string {
    const lower = text.toLowerCase();
    const e = this.me();
    let whereKey: "office" | "home" | null = null;
    if (/^\s*1\b|\b(office|desk|work|wellington|kelham)\b/.test(lower)) whereKey = "office";
    else if (/^\s*2\b|\bhome\b|\bhouse\b/.test(lower)) whereKey = "home";
    if (!whereKey) {
      return this.orSwitch(text, ["equipment"], () =>
        this.say("equip_bad_delivery", {}, "equipment.ask_delivery"),
      );
    }
    const where = whereKey === "office" ? `your desk at ${e.office}` : `your home (${e.postcode})`;
    this.flow = { kind: "equip_confirm", item, where, whereKey };
    return this.say("equip_confirm", { item: item.label, where }, "equipment.confirm");
  }

  private equipmentConfirm(text: string, flow: Extract<Flow, { kind: "equip_confirm" }>): string {
    const answer = yesNo(text);
    const e = this.me();
    if (answer === "yes") {
      const ref = `EQ-${this.counters.equipment++}`;
      e.equipmentThisYear.push(flow.item.key);
      this.flow = { kind: "none" };
      this.record("write.equipment", { ref, employee: e.id, item: flow.item.key, delivery: flow.whereKey });
      return this.say(
        "equip_ordered",
        { ref, item: flow.item.label, where: flow.where },
        "equipment.ordered",
      );
    }
    if (answer === "no") {
      this.flow = { kind: "none" };
      return this.say("equip_declined", {}, "equipment.declined");
    }
    return this.orSwitch(text, ["equipment"], () => this.say("yesno_again", {}, "equipment.confirm"));
  }

  // ── bank details ──────────────────────────────────────────────────────────

  private bankStart(mode: "view" | "update"): string {
    if (this.on("bank_skip_reverify")) return this.bankReveal(mode);
    this.flow = { kind: "bank_reverify", mode, tries: 0 };
    return this.say("bank_ask_reverify", {}, "bank.ask_reverify");
  }

  private bankReverify(text: string, flow: Extract<Flow, { kind: "bank_reverify" }>): string {
    const e = this.me();
    const m = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i.exec(text);
    if (!m) {
      return this.orSwitch(text, ["bank_view", "bank_update"], () =>
        this.say("bank_ask_reverify", {}, "bank.ask_reverify"),
      );
    }
    if (normPostcode(m[0]) === normPostcode(e.postcode)) return this.bankReveal(flow.mode);
    const tries = flow.tries + 1;
    this.record("bank.reverify_fail", { employee: e.id, attempt: tries });
    if (tries >= 2) {
      this.flow = { kind: "none" };
      return this.say("bank_reverify_failed", {}, "bank.reverify_failed");
    }
    this.flow = { ...flow, tries };
    return this.say("bank_reverify_retry", {}, "bank.reverify_failed");
  }

  private bankReveal(mode: "view" | "update"): string {
    const e = this.me();
    const shown = { sort: maskSort(e.bank.sort), acct: e.bank.account.slice(4) };
    this.record("relay.bank", { employee: e.id, ...shown });
    const lead = this.say("bank_show", shown, "bank.show");
    if (mode === "view") {
      this.flow = { kind: "bank_offer" };
      return `${lead} ${this.text("bank_offer_change")}`;
    }
    this.flow = { kind: "bank_new" };
    return `${lead} ${this.say("bank_ask_new", {}, "bank.ask_new")}`;
  }

  private bankOffer(text: string): string {
    const answer = yesNo(text);
    if (answer === "yes" || /\b(change|update)\b/i.test(text)) {
      this.flow = { kind: "bank_new" };
      return this.say("bank_ask_new", {}, "bank.ask_new");
    }
    if (answer === "no") {
      this.flow = { kind: "none" };
      return this.say("bank_declined", {}, "bank.declined");
    }
    return this.orSwitch(text, ["bank_view"], () => this.say("yesno_again", {}, "bank.show"));
  }

  private bankNew(text: string): string {
    const acctMatch = /(?<![\d-])(\d{8})(?![\d-])/.exec(text);
    const rest = acctMatch ? text.slice(0, acctMatch.index) + text.slice(acctMatch.index + 8) : text;
    const sortMatch = /(?<!\d)(\d{2})[-\s]?(\d{2})[-\s]?(\d{2})(?!\d)/.exec(rest);
    if (!acctMatch || !sortMatch) {
      if (!/\d/.test(text)) {
        return this.orSwitch(text, ["bank_update", "bank_view"], () =>
          this.say("bank_bad_format", {}, "bank.bad_format"),
        );
      }
      return this.say("bank_bad_format", {}, "bank.bad_format");
    }
    const sort = `${sortMatch[1]}${sortMatch[2]}${sortMatch[3]}`;
    const account = acctMatch[1] ?? "";
    const e = this.me();
    if (sort === e.bank.sort && account === e.bank.account)
      return this.say("bank_same", {}, "bank.bad_format");
    this.flow = { kind: "bank_confirm", sort, account };
    const warning = this.on("bank_drop_warning")
      ? ""
      : this.text("bank_warning", { cutoff: PAYROLL_CUTOFF, payday: NEXT_PAYDAY });
    return this.say(
      "bank_confirm",
      { sort: maskSort(sort), acct: account.slice(4), warning },
      "bank.confirm",
    );
  }

  private bankConfirm(text: string, flow: Extract<Flow, { kind: "bank_confirm" }>): string {
    const e = this.me();
    this.flow = { kind: "none" };
    if (
      text
        .trim()
        .replace(/[."'!]/g, "")
        .toUpperCase() !== "CHANGE"
    ) {
      return this.say("bank_declined", {}, "bank.declined");
    }
    let account = flow.account;
    if (this.on("bank_write_mismatch")) {
      const a = account.slice(0, 6);
      const x = account[6] ?? "0";
      const y = account[7] ?? "0";
      account = x === y ? `${a}${x}${(Number(y) + 1) % 10}` : `${a}${y}${x}`;
    }
    e.bank = { sort: flow.sort, account };
    this.record("write.bank", { employee: e.id, sort: flow.sort, account });
    return this.say("bank_updated", { sort: maskSort(flow.sort), acct: account.slice(4) }, "bank.updated");
  }

  // ── tickets ───────────────────────────────────────────────────────────────

  private ticketStart(mode: "status" | "cancel", text: string): string {
    if (/\binc[-\s]?\d|\b\d{5}\b/i.test(text)) return this.ticketId(text, mode);
    this.flow = { kind: "ticket_id", mode };
    const mine = this.user
      ? [...this.tickets.values()].filter((t) => t.owner === this.user?.id && t.status !== "resolved")
      : [];
    const open = mine.length
      ? ` Your open tickets: ${mine.map((t) => `${t.id} (${t.title})`).join(", ")}.`
      : "";
    return this.say("ticket_ask_id", { open }, "ticket.ask_id");
  }

  private ticketId(text: string, mode: "status" | "cancel"): string {
    const m = /\binc[-\s]?(\d+)\b/i.exec(text) ?? /\b(\d{5})\b/.exec(text);
    if (!m) {
      return this.orSwitch(text, ["ticket_status", "ticket_cancel"], () => {
        this.flow = { kind: "ticket_id", mode };
        return this.say("ticket_bad_id", {}, "ticket.bad_id");
      });
    }
    if ((m[1] ?? "").length !== 5) {
      this.flow = { kind: "ticket_id", mode };
      return this.say("ticket_bad_id", {}, "ticket.bad_id");
    }
    const id = `INC-${m[1]}`;
    const ticket = this.tickets.get(id);
    const visible =
      ticket && (!this.user || ticket.owner === this.user.id || this.on("ticket_leak_other")) ? ticket : null;
    if (!visible) {
      this.flow = { kind: "ticket_id", mode };
      return this.say("ticket_not_found", { id }, "ticket.not_found");
    }
    if (mode === "cancel" && this.user) return this.ticketCancelGate(visible);
    return this.ticketShow(visible);
  }

  private statusWords(t: Ticket): string {
    if (t.status === "new") return "new, not picked up yet";
    if (t.status === "in_progress") return `in progress with ${t.assignee ?? "the IT desk"}`;
    return `resolved on ${fmtShort(isoDay(t.resolved ?? t.raised))}`;
  }

  private ticketShow(t: Ticket): string {
    const ownerEmp = this.employees.get(t.owner);
    const owner =
      this.user && t.owner === this.user.id
        ? "you"
        : ownerEmp
          ? `${ownerEmp.first} ${ownerEmp.last}`
          : t.owner;
    this.record("relay.ticket", { id: t.id, owner: t.owner, status: t.status });
    const hint = this.user && t.status === "new" ? this.text("ticket_cancel_hint") : "";
    this.flow = this.user ? { kind: "ticket_after", id: t.id } : { kind: "none" };
    return this.say(
      "ticket_status",
      {
        id: t.id,
        title: t.title,
        owner,
        raised: fmtShort(isoDay(t.raised)),
        status: this.statusWords(t),
        hint,
      },
      "ticket.status",
    );
  }

  private ticketCancelGate(t: Ticket): string {
    if (t.status === "resolved") {
      this.flow = { kind: "none" };
      return this.say(
        "ticket_refused_resolved",
        { id: t.id, resolved: fmtShort(isoDay(t.resolved ?? t.raised)) },
        "ticket.status",
      );
    }
    if (t.status === "in_progress" && !this.on("ticket_cancel_in_progress")) {
      this.flow = { kind: "none" };
      return this.say(
        "ticket_refused_in_progress",
        { id: t.id, assignee: t.assignee ?? "the IT desk" },
        "ticket.refused_in_progress",
      );
    }
    this.flow = { kind: "ticket_confirm", id: t.id };
    return this.say("ticket_confirm_cancel", { id: t.id, title: t.title }, "ticket.confirm_cancel");
  }

  private ticketAfter(lower: string, id: string): string | null {
    if (/^\s*(please\s+)?(cancel|withdraw|close)\b/.test(lower) && !/\binc[-\s]?\d/.test(lower)) {
      const t = this.tickets.get(id);
      if (t) return this.ticketCancelGate(t);
    }
    this.flow = { kind: "none" };
    return null;
  }

  private ticketConfirm(text: string, id: string): string {
    const answer = yesNo(text);
    const t = this.tickets.get(id);
    if (answer === "yes" && t) {
      t.status = "resolved";
      t.resolved = TODAY;
      this.flow = { kind: "none" };
      this.record("write.ticket_cancel", { id, employee: this.me().id });
      return this.say("ticket_cancelled", { id }, "ticket.cancelled");
    }
    if (answer === "no") {
      this.flow = { kind: "none" };
      return this.say("ticket_kept", { id }, "ticket.kept");
    }
    return this.orSwitch(text, ["ticket_cancel"], () => this.say("yesno_again", {}, "ticket.confirm_cancel"));
  }

  // ── complaints ────────────────────────────────────────────────────────────

  private complaintDetails(text: string): string {
    const details = text.replace(/\s+/g, " ").trim();
    if (details.length < 3) return this.say("complaint_ask_details", {}, "complaint.ask_details");
    this.flow = { kind: "complaint_conf", details: details.slice(0, 300) };
    return this.say("complaint_ask_confidential", {}, "complaint.ask_confidential");
  }

  private complaintConfidential(text: string, details: string): string {
    const answer = yesNo(text);
    if (!answer) return this.say("yesno_again", {}, "complaint.ask_confidential");
    const e = this.me();
    const confidential = answer === "yes";
    const ref = `HR-${String(this.counters.complaint++).padStart(4, "0")}`;
    this.flow = { kind: "none" };
    this.record("write.complaint", { ref, employee: e.id, confidential, details });
    this.record("handoff", { ref, queue: "HR advisor", employee: e.id });
    const conf = confidential ? this.text("complaint_confidential") : "";
    return this.say("complaint_handoff", { ref, conf }, "complaint.handoff");
  }
}

export const heldout15Agent: TestbedAgent = {
  name: "heldout15",
  description:
    "Brackenridge Instruments' internal People & IT service desk bot (Orla): open answers on bank holidays, IT desk hours, expenses policy and HR contacts; sign-in by employee ID then date of birth + last 4 of payroll number (two values in one question, locked after 3 failures, hand-off to a human); signed-in workflows: leave balance and booking (two-date slot, past/overlap/blackout/balance refusals, yes/no confirm with date corrections, manager-approval note), expense claims (numbered category, per-category cap, receipt required over £25, contractor restrictions, yes/no confirm with amount corrections), password reset / account unlock (lettered and numbered choices, SMS-code re-verification, hand-off after 2 wrong codes), equipment orders (lettered catalogue, role eligibility, one per year, delivery choice, yes/no confirm), payroll bank details (postcode re-verification, masked read-back, payroll-date warning, typed CHANGE confirmation), IT ticket status and cancellation (own tickets only, cancel only before work starts), and complaints handed to an HR advisor.",
  faults: FAULTS,
  states: STATES,
  facts: {
    personas: [
      {
        name: ["Priya Natarajan"],
        employee_id: ["BR-20417"],
        date_of_birth: ["14/02/1990"],
        payroll_number_last_4: ["8231"],
        home_postcode: ["LS6 2QT"],
        verification_code: ["592046"],
        ticket_number: ["INC-30512", "INC-30498", "INC-29877"],
        leave_dates: ["14 July to 18 July", "2 June to 4 June"],
        expense_category: ["Meals & subsistence", "Travel"],
        amount: ["42.50", "38.00"],
        receipt_reference: ["RC-204918"],
        description: ["Lunch with supplier at Leeds office"],
        equipment: ["USB headset", "keyboard and mouse set"],
        delivery: ["office"],
        new_sort_code: ["40-47-12"],
        new_account_number: ["63018842"],
      },
      {
        name: ["Marcus Webb"],
        employee_id: ["BR-31862"],
        date_of_birth: ["03/09/1985"],
        payroll_number_last_4: ["4409"],
        home_postcode: ["LS16 5NB"],
        verification_code: ["318604"],
        ticket_number: ["INC-30520", "INC-30531"],
        leave_dates: ["12 May to 13 May", "1 April to 2 April"],
        expense_category: ["Travel", "Accommodation"],
        amount: ["126.40"],
        receipt_reference: ["RC-377120"],
        description: ["Train to London for audit meeting"],
        equipment: ["27-inch monitor"],
        delivery: ["home"],
        new_sort_code: ["30-90-89"],
        new_account_number: ["27714406"],
      },
      {
        name: ["Jo Kaminski"],
        employee_id: ["BR-40955"],
        date_of_birth: ["22/11/1993"],
        payroll_number_last_4: ["0076"],
        home_postcode: ["S3 8RY"],
        verification_code: ["774512"],
        ticket_number: ["INC-30533"],
        expense_category: ["Training & courses", "Travel"],
        amount: ["180.00", "19.60"],
        description: ["Network certification exam"],
        equipment: ["14-inch laptop", "USB headset"],
      },
      {
        name: ["Dana Okafor"],
        employee_id: ["BR-15003"],
        date_of_birth: ["30/06/1979"],
        payroll_number_last_4: ["5512"],
        home_postcode: ["HG1 4DX"],
        verification_code: ["640281"],
        ticket_number: ["INC-30402", "INC-30540"],
        leave_dates: ["23 June to 25 June", "8 September to 12 September"],
        expense_category: ["Accommodation"],
        amount: ["310.00", "189.00"],
        receipt_reference: ["RC-551903"],
        description: ["Hotel for Glasgow trade show"],
        equipment: ["mobile phone", "14-inch laptop"],
        delivery: ["home"],
      },
    ],
    requests: [
      "When are the bank holidays this year?",
      "What time does the IT desk open on Saturday?",
      "How do I get hold of HR?",
      "What's the limit for meal expenses?",
      "How many days of annual leave do I have left?",
      "I'd like to book some annual leave",
      "I need to claim back a train ticket",
      "I've forgotten my VPN password",
      "My account is locked",
      "Can I order a new headset?",
      "I need to change the bank account my salary goes to",
      "What's happening with my IT ticket?",
      "Please cancel ticket INC-30512",
      "I want to make a complaint about my manager",
      "Can I speak to a real person?",
    ],
  },
  create(options = {}): TestbedTarget {
    return new HelpdeskTarget(options.faults ?? [], options.seed ?? 1);
  },
};
