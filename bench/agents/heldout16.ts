/**
 * `heldout16`: "Kes", the tenant-services chat assistant of Kestrel Vale Homes, a housing association.
 * Public info (hours, emergency numbers, ways to pay, pet policy) is open; everything about a tenancy needs
 * sign-in with a tenancy reference plus surname and date of birth (locked after three failed checks).
 * Signed-in workflows: repairs (room, problem type, emergency triage, access days, lettered slots, yes/no
 * booking with corrections), appointments (numbered list, 24-hour rule, typed CANCEL), rent balance and
 * statement, card payments (limits, card on file or new), arrears payment plans (eligibility, instalment
 * bounds, Monday start, typed I AGREE), permissions (pet/lodger/alteration with policy refusals), notice to
 * end a tenancy (4 weeks, Monday, typed END MY TENANCY), contact details (re-verification, read-back) and
 * complaints (handed to a person).
 */
import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  APPOINTMENTS,
  type Appointment,
  FACTS,
  MAX_PETS,
  NOTICE_MIN_DAYS,
  PAY_MAX,
  PAY_MIN,
  PHRASES,
  PLAN_MAX_INSTALMENT,
  PLAN_MAX_WEEKS,
  PLAN_MIN_INSTALMENT,
  TENANTS,
  type Tenant,
  TODAY,
  type Vars,
} from "./heldout16-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

// ---------------------------------------------------------------------------------------------------------
// Faults and states
// ---------------------------------------------------------------------------------------------------------

const FAULTS = [
  "repair_skip_confirm",
  "repair_forget_correction",
  "balance_skip_auth",
  "balance_wrong_total",
  "pay_ignore_limit",
  "pay_receipt_wrong_amount",
  "plan_ignore_min_instalment",
  "appt_cancel_within_24h",
  "appt_leak_other_tenant",
  "auth_no_lockout",
  "contact_write_different",
  "notice_ignore_weekday",
  "notice_drop_warning",
  "perm_ignore_pet_rule",
] as const;
type Fault = (typeof FAULTS)[number];

const STATES = [
  "public.menu",
  "public.fallback",
  "public.hours",
  "public.emergency",
  "public.pay_methods",
  "public.pets_policy",
  "session.goodbye",
  "handoff.human",
  "flow.aborted",
  "auth.ask_ref",
  "auth.ref_malformed",
  "auth.ask_identity",
  "auth.failed",
  "auth.locked",
  "auth.ok",
  "repair.ask_location",
  "repair.ask_category",
  "repair.triage",
  "repair.emergency",
  "repair.ask_access",
  "repair.access_invalid",
  "repair.offer_slots",
  "repair.slot_invalid",
  "repair.confirm",
  "repair.booked",
  "appt.list",
  "appt.none",
  "appt.refused_24h",
  "appt.confirm_cancel",
  "appt.cancelled",
  "appt.kept",
  "rent.balance",
  "rent.statement",
  "pay.ask_amount",
  "pay.amount_invalid",
  "pay.refused_limit",
  "pay.ask_method",
  "pay.ask_card",
  "pay.card_invalid",
  "pay.confirm",
  "pay.done",
  "plan.refused_no_arrears",
  "plan.refused_existing",
  "plan.ask_instalment",
  "plan.refused_instalment",
  "plan.ask_start",
  "plan.start_invalid",
  "plan.confirm",
  "plan.done",
  "perm.ask_type",
  "perm.ask_pet",
  "perm.refused_pet",
  "perm.refused_lodger",
  "perm.ask_lodger",
  "perm.ask_alteration",
  "perm.refused_alteration",
  "perm.confirm",
  "perm.submitted",
  "notice.refused_fixed_term",
  "notice.ask_date",
  "notice.date_invalid",
  "notice.refused_weekday",
  "notice.refused_period",
  "notice.ask_forwarding",
  "notice.confirm",
  "notice.submitted",
  "contact.show",
  "contact.reverify",
  "contact.reverify_failed",
  "contact.ask_field",
  "contact.ask_value",
  "contact.value_invalid",
  "contact.readback",
  "contact.updated",
  "complaint.ask_summary",
] as const;
type State = (typeof STATES)[number];

// ---------------------------------------------------------------------------------------------------------
// Dates and money
// ---------------------------------------------------------------------------------------------------------

const MS_DAY = 86_400_000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
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

function dn(y: number, m: number, d: number): number {
  return Math.round(Date.UTC(y, m - 1, d) / MS_DAY);
}
function partsOf(n: number): { y: number; m: number; d: number } {
  const dt = new Date(n * MS_DAY);
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate() };
}
function weekday(n: number): number {
  return new Date(n * MS_DAY).getUTCDay();
}
function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2100) return false;
  const p = partsOf(dn(y, m, d));
  return p.y === y && p.m === m && p.d === d;
}
function isoOf(n: number): string {
  const p = partsOf(n);
  return `${p.y}-${String(p.m).padStart(2, "0")}-${String(p.d).padStart(2, "0")}`;
}
function fromIso(s: string): number {
  const [y, m, d] = s.split("-").map(Number);
  return dn(y ?? 1970, m ?? 1, d ?? 1);
}
function fmtLong(n: number): string {
  const p = partsOf(n);
  return `${WEEKDAYS[weekday(n)]} ${p.d} ${MONTHS[p.m - 1]} ${p.y}`;
}
function fmtShort(n: number): string {
  const p = partsOf(n);
  return `${(WEEKDAYS[weekday(n)] ?? "").slice(0, 3)} ${p.d} ${(MONTHS[p.m - 1] ?? "").slice(0, 3)}`;
}

const TODAY_N = dn(TODAY.y, TODAY.m, TODAY.d);
const NOW_HOURS = TODAY_N * 24 + TODAY.hour;

function nextWeekday(from: number, wd: number): number {
  let d = from + 1;
  while (weekday(d) !== wd) d++;
  return d;
}
function addWorkingDays(from: number, k: number): number {
  let d = from;
  let left = k;
  while (left > 0) {
    d++;
    const w = weekday(d);
    if (w !== 0 && w !== 6) left--;
  }
  return d;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
function money(x: number): string {
  const v = Math.abs(round2(x));
  const [whole = "0", frac = "00"] = v.toFixed(2).split(".");
  return `£${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}
function balanceText(bal: number): string {
  if (bal > 0.004) return `${money(bal)} in arrears`;
  if (bal < -0.004) return `${money(bal)} in credit`;
  return "£0.00";
}

// ---------------------------------------------------------------------------------------------------------
// Text understanding
// ---------------------------------------------------------------------------------------------------------

function norm(t: string): string {
  return t
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}
function bare(low: string): string {
  return low
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const YES =
  /^(y|yes|yeah|yep|yup|ya|yh|sure|ok|okay|correct|confirm(ed)?|go ahead|please do|do it|book it|submit( it)?|send it|that's right|that is right|right|absolutely|definitely|sounds good|perfect|fine|it is|i do|please|i confirm|i agree|that's correct|that is correct|that'?s fine|that works|great)\b/;
const NO =
  /^(n|no|nope|nah|not really|negative|don't|do not|no thanks|no thank you|i don't|it isn't|it's not|not)\b/;
function isYes(low: string): boolean {
  return YES.test(low) && !NO.test(low);
}
function isNo(low: string): boolean {
  return NO.test(low);
}
const HAZARD =
  /\b(no (heating|hot water|power|electricity|electric)|sparking|sparks|burning|smoke|smoking|pouring|flooding|through the ceiling|near (the )?electrics|can'?t (turn|switch|stop) (it |the water )?(off)?|cannot (turn|switch|stop)|won'?t (lock|close|shut)|can'?t (lock|secure|shut|close)|insecure|unsecured|at risk|in danger|emergency|dangerous|urgent)\b/g;
const NEGATION =
  /\b(no|not|nothing|isn't|isnt|aren't|none|neither|never|don't|doesn't|can|fine|ok|okay|just)\b/;

/** The answer to a yes/no safety question, read from free text ("nothing dangerous", "yes, water everywhere"). */
function triageAnswer(low: string): { yes: boolean; no: boolean } {
  if (isYes(low)) return { yes: true, no: false };
  const rest = low.replace(HAZARD, " ");
  const hazard = rest !== low;
  const negated =
    NEGATION.test(rest) ||
    /\b(not|no|nothing|isn't|never) (an |a |really |at all )?(emergency|dangerous|urgent)\b/.test(low);
  if (/^(no|nope|nah|not)\b/.test(low) && !/^no (heating|hot water|power|electricity)/.test(low))
    return { yes: false, no: true };
  if (negated) return { yes: false, no: true };
  if (hazard) return { yes: true, no: false };
  return { yes: false, no: isNo(low) };
}

const ABORT =
  /^(stop|cancel|cancel (that|this|it)|never ?mind|forget (it|that|about it)|quit|abort|exit|start (again|over)|leave it|don't bother|i('ve| have)? changed my mind|changed my mind|stop please|please stop)[.! ]*$/;
const HUMAN =
  /\b(human|real person|a person|someone real|adviser|advisor|agent|operator|member of staff|staff member|speak to someone|talk to someone|speak to a|talk to a|speak with a|talk with a|call me back|customer service|housing officer)\b/;

type Intent =
  | "human"
  | "complaint"
  | "emergency"
  | "hours"
  | "pay_methods"
  | "pets_policy"
  | "signout"
  | "signin"
  | "plan"
  | "statement"
  | "balance"
  | "pay"
  | "notice"
  | "contact_update"
  | "contact_show"
  | "appt_cancel"
  | "appt_check"
  | "permission"
  | "repair"
  | "menu"
  | "goodbye";

const PUBLIC_INTENTS = new Set<Intent>(["hours", "emergency", "pay_methods", "pets_policy", "menu"]);

const ANIMAL_WORDS =
  "dogs?|pupp(?:y|ies)|cats?|kittens?|rabbits?|pets?|hamsters?|guinea pigs?|birds?|budgies?|parrots?|fish|snakes?|lizards?|reptiles?|animals?";
const PERMISSION_RE = new RegExp(
  `\\b(permission|consent|lodgers?|alteration|alterations|alter|extension|satellite|shed|decorat\\w*|put up|install(ing)?|fit (a|an|new)|apply for (a )?(${ANIMAL_WORDS}))\\b`,
);
const PET_WANT_RE = new RegExp(`\\b(get|getting|have|keep|adopt|bring home|buy)\\b.*\\b(${ANIMAL_WORDS})\\b`);
const PETS_POLICY_RE = new RegExp(
  `\\b(pet policy|pets policy|policy on (pets|animals)|rules (on|about|for) (pets|animals)|pets? allowed|(dogs?|cats?|animals?) allowed|allowed (to have |to keep )?(a |any )?(${ANIMAL_WORDS})|(can|may|could) (i|we|tenants) (have|keep|get|own) (a |any )?(${ANIMAL_WORDS}))\\b`,
);

const INTENT_RULES: readonly [Intent, RegExp][] = [
  ["human", HUMAN],
  ["complaint", /\b(complain|complaint|complaining|not happy with|unhappy with|poor service|disgusted)\b/],
  [
    "hours",
    /\b(opening (hours|times)|office hours|hours|when are you open|are you open|what time do you (open|close)|closing time)\b/,
  ],
  [
    "pay_methods",
    /\b(how (can|do|could|should) (i|we) pay|ways? (to|of) pay(ing)?|payment (methods|options)|pay(ing)? methods|direct debit|standing order|bank transfer|allpay|paypoint|sort code)\b/,
  ],
  ["signout", /\b(sign ?out|log ?out|logout)\b/],
  ["signin", /\b(sign ?in|log ?in|login|verify me)\b/],
  [
    "plan",
    /\b(payment plan|repayment plan|payment arrangement|arrangement to pay|pay (off|back) (my |the )?arrears|clear (my |the )?arrears|instal?ments?|spread (the )?(cost|payments?)|plan for (my )?arrears)\b/,
  ],
  [
    "notice",
    /\b(end (my|the|our) tenancy|ending (my|the|our) tenancy|give notice|giving notice|hand in (my )?notice|notice to (quit|leave|end)|moving out|move out|leave (my|the) (home|property|flat|house|tenancy)|terminate|termination)\b/,
  ],
  ["statement", /\b(statement|transactions|payment history|rent history)\b/],
  ["balance", /\b(balance|how much (do )?i owe|what do i owe|arrears|owe|in credit|rent account)\b/],
  ["pay", /\b(pay|payment|paying)\b/],
  [
    "contact_update",
    /\b(update|change|changed|new|amend|correct)\b.*\b(contact|phone|mobile|number|email|e-mail|details)\b|\b(contact|phone|mobile|email|e-mail) .*\b(update|change|wrong)\b/,
  ],
  [
    "contact_show",
    /\b(contact details|my details|my phone number|my mobile|my email|what (number|email)|details (do you|you) have)\b/,
  ],
  [
    "appt_cancel",
    /\bcancel\w*\b.*\b(appointment|visit|booking|repair|engineer|operative|job)s?\b|\b(appointment|visit|booking)s?\b.*\bcancel/,
  ],
  [
    "appt_check",
    /\b(appointments?|visits?|booked|bookings?|when is (the|my) (engineer|operative|repair|plumber|electrician)|when are you coming)\b/,
  ],
  ["pets_policy", PETS_POLICY_RE],
  ["permission", PERMISSION_RE],
  ["permission", PET_WANT_RE],
  [
    "emergency",
    /\b(emergency|emergencies|gas leak|smell(ing)? (of )?gas|gas smell|smells? of gas|fire|flood(ing|ed)?|sparking|carbon monoxide|co alarm)\b/,
  ],
  [
    "repair",
    /\b(repair|repairs|broken|broke|leak\w*|drip\w*|not working|doesn't work|does not work|won't (work|close|open|lock|flush|turn)|stopped working|fix|faulty|fault|boiler|heating|radiators?|hot water|damp|mould|mold|blocked|toilet|tap|taps|sink|drain|pipe|window|door|lock|lights?|socket|fuse|electrics?|power|ceiling|roof|gutter|fence|extractor|fan|shower|cracked|smashed|hole)\b/,
  ],
  [
    "menu",
    /^(hi|hello|hey|hiya|good (morning|afternoon|evening)|help|menu|start|options)\b|\b(what can you (do|help)|help me|how can you help|what do you do)\b/,
  ],
  [
    "goodbye",
    /^(bye|goodbye|cheers|thanks|thank you|ta|that's all|that is all|nothing else|all done|that's it|done)\b/,
  ],
];

function detectIntent(low: string): Intent | null {
  const mentionsRepair = /\b(repair|report)\b/.test(low);
  for (const [intent, re] of INTENT_RULES) {
    if (!re.test(low)) continue;
    if (intent === "emergency" && mentionsRepair) continue;
    if (intent === "pets_policy" && /\b(permission|apply|request)\b/.test(low)) continue;
    return intent;
  }
  return null;
}

type Flow =
  | "auth"
  | "repair"
  | "appt"
  | "rent"
  | "pay"
  | "plan"
  | "perm"
  | "notice"
  | "contact"
  | "complaint";
function flowOf(intent: Intent): Flow | null {
  switch (intent) {
    case "repair":
      return "repair";
    case "appt_cancel":
    case "appt_check":
      return "appt";
    case "balance":
    case "statement":
      return "rent";
    case "pay":
      return "pay";
    case "plan":
      return "plan";
    case "permission":
      return "perm";
    case "notice":
      return "notice";
    case "contact_show":
    case "contact_update":
      return "contact";
    case "complaint":
      return "complaint";
    case "signin":
      return "auth";
    default:
      return null;
  }
}

// ---- dates ----------------------------------------------------------------------------------------------

const MONTH_RE =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec";
const MONTH_KEYS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
function monthNum(word: string): number {
  return MONTH_KEYS.indexOf(word.slice(0, 3)) + 1;
}
function fullYear(y: string): number {
  const n = Number(y);
  if (y.length === 4) return n;
  return n <= 50 ? 2000 + n : 1900 + n;
}
const DAY_NAMES: readonly [number, RegExp][] = [
  [1, /\b(mon|monday|mondays)\b/],
  [2, /\b(tue|tues|tuesday|tuesdays)\b/],
  [3, /\b(wed|weds|wednesday|wednesdays)\b/],
  [4, /\b(thu|thur|thurs|thursday|thursdays)\b/],
  [5, /\b(fri|friday|fridays)\b/],
  [6, /\b(sat|saturday|saturdays)\b/],
  [0, /\b(sun|sunday|sundays)\b/],
];
function weekdayIn(low: string): number | null {
  for (const [n, re] of DAY_NAMES) if (re.test(low)) return n;
  return null;
}

/**
 * A date in the text: a day number, "bad" when something date-like is not a real date, or null.
 * `future`: dates without a year take the next occurrence, weekday names and today/tomorrow count.
 */
function parseDate(low: string, future: boolean): number | "bad" | null {
  const mk = (y: number, m: number, d: number): number | "bad" => (validDate(y, m, d) ? dn(y, m, d) : "bad");
  const withYearOrNext = (m: number, d: number): number | "bad" => {
    if (!validDate(TODAY.y, m, d) && !validDate(TODAY.y + 1, m, d)) return "bad";
    if (validDate(TODAY.y, m, d) && dn(TODAY.y, m, d) >= TODAY_N) return dn(TODAY.y, m, d);
    return mk(TODAY.y + 1, m, d);
  };
  let m = low.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return mk(Number(m[1]), Number(m[2]), Number(m[3]));
  m = low.match(/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/);
  if (m) return mk(fullYear(m[3] ?? ""), Number(m[2]), Number(m[1]));
  m = low.match(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_RE})\\b\\.?,?(?:\\s+(\\d{4}))?`),
  );
  if (m) {
    const mo = monthNum(m[2] ?? "");
    if (m[3]) return mk(Number(m[3]), mo, Number(m[1]));
    return future ? withYearOrNext(mo, Number(m[1])) : "bad";
  }
  m = low.match(new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b,?(?:\\s+(\\d{4}))?`));
  if (m) {
    const mo = monthNum(m[1] ?? "");
    if (m[3]) return mk(Number(m[3]), mo, Number(m[2]));
    return future ? withYearOrNext(mo, Number(m[2])) : "bad";
  }
  if (!future) return /\b\d{1,2}[/.-]\d{1,2}\b/.test(low) ? "bad" : null;
  m = low.match(/\b(\d{1,2})\/(\d{1,2})\b/);
  if (m) return withYearOrNext(Number(m[2]), Number(m[1]));
  if (/\btoday\b/.test(low)) return TODAY_N;
  if (/\btomorrow\b/.test(low)) return TODAY_N + 1;
  const wd = weekdayIn(low);
  if (wd !== null) return nextWeekday(TODAY_N, wd);
  return null;
}

// ---- references, names, money, contact values -----------------------------------------------------------

function parseRef(text: string): string | "bad" | null {
  const m = text.match(/\bkvh[\s-]*(\d+)\b/i);
  if (m) return (m[1] ?? "").length === 6 ? `KVH-${m[1]}` : "bad";
  const digits = text.replace(/\D/g, "");
  const six = text.match(/(?<!\d)(\d{6})(?!\d)/);
  if (six && digits.length === 6) return `KVH-${six[1]}`;
  return null;
}
function stripRef(text: string): string {
  return text.replace(/\bkvh[\s-]*\d+\b/gi, " ");
}

const NAME_STOP = new Set(
  (
    "my name is surname last family and date of birth dob born on the it's its it i am im i'm reference tenancy ref number " +
    "mr mrs ms miss dr mx hi hello hey yes yeah sure ok okay please thanks thank you here are details d o b st nd rd th a an " +
    "kvh was in me so that this sorry oops actually correct with er um full first name's it is what why do don't dont know not " +
    "remember need how the lodger lodgers their they them he she his her will would be moving move moves in from called named " +
    "starting start date on at by of to for is are can could should whose who would like want"
  ).split(" "),
);
const MONTH_WORDS = new Set(MONTH_RE.split("|"));
const DAY_WORDS = new Set(
  "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun today tomorrow next".split(
    " ",
  ),
);
function nameWords(text: string): string[] {
  const cleaned = stripRef(text)
    .replace(/\d+(st|nd|rd|th)?/gi, " ")
    .toLowerCase();
  return cleaned
    .split(/[^a-z'-]+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ""))
    .filter((w) => w.length >= 2 && !NAME_STOP.has(w) && !MONTH_WORDS.has(w) && !DAY_WORDS.has(w));
}
function parseSurname(text: string): string | null {
  const words = nameWords(text);
  return words.length > 0 ? (words[words.length - 1] ?? null) : null;
}
function titleCase(w: string): string {
  return w.replace(/(^|[-' ])([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase());
}

function parseMoney(low: string): number | "bad" | null {
  if (
    /\b(all|full|whole|everything|entire)\b/.test(low) &&
    /\b(balance|owe|arrears|amount|of it|lot)\b/.test(low)
  )
    return -1;
  const m = low.match(/(-\s*)?£?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d)/);
  if (!m) return null;
  if (m[1]) return "bad";
  const whole = Number((m[2] ?? "0").replace(/,/g, ""));
  const frac = m[3] ? Number(m[3].padEnd(2, "0")) / 100 : 0;
  const v = round2(whole + frac);
  return Number.isFinite(v) ? v : "bad";
}
/** An explicit amount change ("actually £50", "make it 80") in a confirmation turn. */
function amountCorrection(low: string): number | null {
  if (!/£|\b(make it|actually|instead|change|rather|only|just)\b|^\d/.test(low)) return null;
  const v = parseMoney(low);
  return typeof v === "number" && v >= 0 ? v : null;
}

function parseMobile(text: string): string | "bad" | null {
  const withoutEmail = text.replace(/\S*@\S*/g, " ").replace(/[\s().-]/g, "");
  const m = withoutEmail.match(/(?:\+44|0044|0)(7\d{9})(?!\d)/);
  if (m) {
    const n = `0${m[1]}`;
    return `${n.slice(0, 5)} ${n.slice(5)}`;
  }
  return /\d{4,}/.test(withoutEmail) ? "bad" : null;
}
function parseEmail(text: string): string | "bad" | null {
  const m = text.match(/[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i);
  if (m) return m[0].toLowerCase();
  return text.includes("@") ? "bad" : null;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
function parseCard(text: string): { last4?: string; expiry?: string; why?: string } {
  const exp = text.match(/\b(0[1-9]|1[0-2])\s*\/\s*(\d{4}|\d{2})\b/);
  const rest = exp ? text.replace(exp[0], " ") : text;
  const grouped = rest.match(/\b\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}\b/);
  const digits = grouped ? grouped[0].replace(/\D/g, "") : (rest.match(/\d{12,}/)?.[0] ?? "");
  const out: { last4?: string; expiry?: string; why?: string } = {};
  if (!digits) out.why = "I couldn't see a card number";
  else if (digits.length !== 16 || !luhn(digits)) out.why = "that card number isn't valid";
  else out.last4 = digits.slice(-4);
  if (!exp)
    out.why = out.why ? `${out.why}, and there's no expiry date` : "I need the expiry date too (MM/YY)";
  else {
    const mm = Number(exp[1]);
    const yy = Number((exp[2] ?? "").slice(-2));
    const expired = yy < TODAY.y % 100 || (yy === TODAY.y % 100 && mm < TODAY.m);
    if (expired) out.why = out.why ?? "that card has expired";
    else out.expiry = `${String(mm).padStart(2, "0")}/${String(yy).padStart(2, "0")}`;
  }
  return out;
}

// ---- repairs --------------------------------------------------------------------------------------------

type Cat = "plumbing" | "electrics" | "heating" | "doors" | "other";
const CAT_LABEL: Record<Cat, string> = {
  plumbing: "leak/plumbing",
  electrics: "electrics",
  heating: "heating/hot water",
  doors: "doors/windows/locks",
  other: "other",
};
const CAT_ORDER: readonly Cat[] = ["plumbing", "electrics", "heating", "doors", "other"];
const CAT_RULES: readonly [Cat, RegExp][] = [
  ["heating", /\b(heating|boiler|radiators?|hot water|thermostat|no heat)\b/],
  [
    "electrics",
    /\b(electric\w*|sockets?|lights?|lighting|switch(es)?|fuse ?box|fuses?|power|wiring|extractor|fan|sparking|bulbs?)\b/,
  ],
  [
    "plumbing",
    /\b(leak\w*|plumbing|taps?|toilets?|drips?|dripping|pipes?|sinks?|drains?|blocked|blockage|flush\w*|shower|bath|overflow|water)\b/,
  ],
  ["doors", /\b(doors?|windows?|locks?|keys?|glass|glazing|handles?|letterbox|hinges?)\b/],
  [
    "other",
    /\b(damp|mould|mold|pests?|mice|rats|floor\w*|ceiling|walls?|plaster|roof|gutters?|fence|stairs|other|something else)\b/,
  ],
];
function parseCat(low: string): Cat | null {
  for (const [c, re] of CAT_RULES) if (re.test(low)) return c;
  return null;
}
const ROOM_RULES: readonly [string, RegExp][] = [
  ["kitchen", /\bkitchen\b/],
  ["bathroom", /\b(bathroom|bath room|en-?suite|shower room|wc)\b/],
  ["bedroom", /\b(bedroom|bed room|box ?room)\b/],
  ["living room", /\b(living ?room|lounge|sitting room|front room|dining room)\b/],
  ["hallway", /\b(hall|hallway|landing|stairs|staircase|entrance)\b/],
  [
    "outside",
    /\b(outside|garden|communal|roof|gutters?|balcony|bin store|fence|driveway|exterior|external)\b/,
  ],
  ["whole home", /\b(whole (house|flat|home|place)|everywhere|all rooms|every room)\b/],
];
function parseRoom(low: string): string | null {
  for (const [r, re] of ROOM_RULES) if (re.test(low)) return r;
  return null;
}
const LEAD_DAYS: Record<Cat, number> = { heating: 1, plumbing: 2, electrics: 2, doors: 3, other: 5 };

type Band = "am" | "pm";
interface Slot {
  day: number;
  band: Band;
}
function slotLabel(s: Slot): string {
  return `${fmtShort(s.day)}, ${s.band === "am" ? "8am–12pm" : "12pm–4pm"}`;
}
function fullyBooked(day: number, band: Band): boolean {
  return (day % 4 === 0 && band === "am") || (day % 9 === 0 && band === "pm");
}
function parseBand(low: string): Band | "either" | null {
  const am = /\b(mornings?|am|a\.m\.|early)\b/.test(low);
  const pm = /\b(afternoons?|pm|p\.m\.|after lunch|later in the day)\b/.test(low);
  if (
    (am && pm) ||
    /\b(either|any ?time|all day|don't mind|dont mind|whenever|both|flexible|no preference)\b/.test(low)
  )
    return "either";
  if (am) return "am";
  if (pm) return "pm";
  return null;
}
function parseDays(low: string): { days: number[]; weekendOnly: boolean } | null {
  if (
    /\b(any ?day|any weekday|all week|weekdays|every ?day|whenever|any ?time|don't mind|dont mind|flexible|all days|most days)\b/.test(
      low,
    )
  )
    return { days: [1, 2, 3, 4, 5], weekendOnly: false };
  const range = low.match(
    /\b(mon|tue|wed|thu|fri)\w*\s*(?:-|to|through|till|until)\s*(mon|tue|wed|thu|fri)\w*/,
  );
  if (range) {
    const key = ["mon", "tue", "wed", "thu", "fri"];
    const a = key.indexOf(range[1] ?? "") + 1;
    const b = key.indexOf(range[2] ?? "") + 1;
    if (a > 0 && b >= a)
      return { days: Array.from({ length: b - a + 1 }, (_v, i) => a + i), weekendOnly: false };
  }
  const found = DAY_NAMES.filter(([, re]) => re.test(low)).map(([n]) => n);
  if (found.length === 0) return null;
  const weekdays = found.filter((d) => d >= 1 && d <= 5).sort();
  return { days: weekdays, weekendOnly: weekdays.length === 0 };
}
function dayList(days: readonly number[]): string {
  if (days.length === 5) return "any weekday";
  const names = days.map((d) => WEEKDAYS[d] ?? "");
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

// ---- permissions -----------------------------------------------------------------------------------------

const ANIMALS: readonly [string, RegExp, boolean][] = [
  ["guinea pig", /\bguinea ?pigs?\b/, false],
  ["dog", /\b(dogs?|pupp(y|ies))\b/, false],
  ["cat", /\b(cats?|kittens?)\b/, false],
  ["rabbit", /\b(rabbits?|bunn(y|ies))\b/, false],
  ["hamster", /\bhamsters?\b/, false],
  ["bird", /\b(birds?|budgies?|budgerigars?|parrots?|canar(y|ies))\b/, false],
  ["fish", /\b(fish|goldfish|fishes)\b/, false],
  ["snake", /\b(snakes?|pythons?|boas?)\b/, true],
  ["lizard", /\b(lizards?|geckos?|iguanas?|reptiles?|bearded dragons?)\b/, true],
  ["spider", /\b(spiders?|tarantulas?|scorpions?)\b/, true],
  ["monkey", /\b(monkeys?|primates?)\b/, true],
];
function parseAnimal(low: string): { animal: string; exotic: boolean; plural: boolean } | null {
  for (const [animal, re, exotic] of ANIMALS) {
    const m = low.match(re);
    if (m) return { animal, exotic, plural: /(s|ies)$/.test(m[0]) && animal !== "fish" };
  }
  return null;
}
const COUNT_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  couple: 2,
  pair: 2,
};
function parseCount(low: string): number | null {
  const m = low.match(/\b(\d{1,2})\b/);
  if (m) return Number(m[1]);
  for (const [w, n] of Object.entries(COUNT_WORDS)) if (new RegExp(`\\b${w}\\b`).test(low)) return n;
  if (/\b(a|an|single|just the one)\b/.test(low)) return 1;
  return null;
}
const STRUCTURAL =
  /\b(walls?|knock\w*|structural|load[- ]bearing|extension|extend|loft conversion|conservatory|gas|boiler|chimney|fireplace|roof|demolish\w*|porch|foundations?)\b/;

// ---------------------------------------------------------------------------------------------------------
// Session
// ---------------------------------------------------------------------------------------------------------

type Step =
  | "idle"
  | "auth.ref"
  | "auth.identity"
  | "repair.location"
  | "repair.category"
  | "repair.triage"
  | "repair.access"
  | "repair.slot"
  | "repair.confirm"
  | "appt.pick"
  | "appt.confirm"
  | "rent.offer"
  | "pay.amount"
  | "pay.method"
  | "pay.card"
  | "pay.confirm"
  | "plan.instalment"
  | "plan.start"
  | "plan.confirm"
  | "perm.type"
  | "perm.pet"
  | "perm.lodger"
  | "perm.alteration"
  | "perm.confirm"
  | "notice.date"
  | "notice.forwarding"
  | "notice.confirm"
  | "contact.reverify"
  | "contact.field"
  | "contact.value"
  | "contact.readback"
  | "complaint.summary";

interface RepairDraft {
  room: string | null;
  cat: Cat | null;
  days: number[] | null;
  band: Band | "either" | null;
  offered: Slot[];
  seen: string[];
  chosen: Slot | null;
  book: Slot | null;
}
type ContactField = "mobile" | "email" | "both";
interface Session {
  step: Step;
  stepFails: number;
  tenant: Tenant | null;
  tenants: Tenant[];
  appts: Appointment[];
  authFails: number;
  locked: boolean;
  pending: { intent: Intent; text: string } | null;
  skipIdentity: boolean;
  authRef: string | null;
  authSurname: string | null;
  authDob: number | null;
  statementRef: string | null;
  repair: RepairDraft;
  apptIds: string[];
  apptPick: string | null;
  pay: { amount: number; card: { label: string; last4: string } | null };
  plan: { arrears: number; min: number; weekly: number; start: number | null };
  perm: {
    type: "pet" | "lodger" | "alteration" | null;
    animal: string | null;
    plural: boolean;
    lodger: string | null;
    moveIn: number | null;
    summary: string;
    details: Record<string, string | number>;
  };
  notice: { date: number | null; forwarding: string | null };
  contact: { field: ContactField | null; mobile: string | null; email: string | null };
  visited: State[];
  writes: Record<string, string | number>[];
  relayed: string[];
  seq: number;
}

function cloneTenant(t: Tenant): Tenant {
  return {
    ...t,
    ledger: t.ledger.map((e) => ({ ...e })),
    pets: [...t.pets],
    ...(t.card ? { card: { ...t.card } } : {}),
    ...(t.plan ? { plan: { ...t.plan } } : {}),
  };
}
function emptyRepair(): RepairDraft {
  return { room: null, cat: null, days: null, band: null, offered: [], seen: [], chosen: null, book: null };
}
function freshSession(): Session {
  return {
    step: "idle",
    stepFails: 0,
    tenant: null,
    tenants: TENANTS.map(cloneTenant),
    appts: APPOINTMENTS.map((a) => ({ ...a })),
    authFails: 0,
    locked: false,
    pending: null,
    skipIdentity: false,
    authRef: null,
    authSurname: null,
    authDob: null,
    statementRef: null,
    repair: emptyRepair(),
    apptIds: [],
    apptPick: null,
    pay: { amount: 0, card: null },
    plan: { arrears: 0, min: 0, weekly: 0, start: null },
    perm: { type: null, animal: null, plural: false, lodger: null, moveIn: null, summary: "", details: {} },
    notice: { date: null, forwarding: null },
    contact: { field: null, mobile: null, email: null },
    visited: [],
    writes: [],
    relayed: [],
    seq: 0,
  };
}

const ABORT_WHAT: Record<Flow, string> = {
  auth: "you're not signed in",
  repair: "nothing has been booked",
  appt: "your appointments are unchanged",
  rent: "nothing changed on your account",
  pay: "no payment has been taken",
  plan: "no payment plan has been set up",
  perm: "no request has been sent",
  notice: "no notice has been given and your tenancy carries on as normal",
  contact: "your contact details are unchanged",
  complaint: "no complaint has been logged",
};
const FLOW_LABEL: Record<Flow, string> = {
  auth: "sign-in",
  repair: "repair request",
  appt: "appointment",
  rent: "rent account",
  pay: "payment",
  plan: "payment plan",
  perm: "permission request",
  notice: "notice",
  contact: "contact details update",
  complaint: "complaint",
};

// ---------------------------------------------------------------------------------------------------------
// The target
// ---------------------------------------------------------------------------------------------------------

class KestrelTarget implements TestbedTarget {
  readonly name = "heldout16";
  private s: Session = freshSession();
  private out: string[] = [];
  private readonly faults: ReadonlySet<string>;
  private readonly seed: number;

  constructor(faults: readonly string[], seed: number) {
    this.faults = new Set(faults);
    this.seed = Number.isFinite(seed) ? Math.abs(Math.trunc(seed)) : 1;
  }

  async reset(): Promise<void> {
    this.s = freshSession();
  }

  async send(text: string): Promise<ChatReply> {
    const t0 = Date.now();
    let reply: string;
    try {
      reply = this.turn(typeof text === "string" ? text : String(text));
    } catch {
      this.s.step = "idle";
      this.out = [];
      this.enter("public.fallback", "public.fallback");
      reply = this.out.join("\n\n");
    }
    return { text: reply, ms: Date.now() - t0 };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.s.visited];
  }

  fingerprint(): string {
    return JSON.stringify({ writes: this.s.writes, relayed: this.s.relayed });
  }

  // ---- plumbing ----------------------------------------------------------------------------------------

  private fault(f: Fault): boolean {
    return this.faults.has(f);
  }

  private phrase(key: string, v: Vars = {}): string {
    const list = PHRASES[key];
    if (!list || list.length === 0) return "";
    let h = 0;
    for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) % 9973;
    const tpl = list[(this.seed + h) % list.length] ?? list[0];
    return tpl ? tpl(v) : "";
  }

  private enter(state: State, key: string | null, v: Vars = {}): void {
    this.s.visited.push(state);
    if (key) this.say(key, v);
  }

  private say(key: string, v: Vars = {}): void {
    const text = this.phrase(key, v);
    if (text) this.out.push(text);
  }

  private setStep(step: Step): void {
    if (step !== this.s.step) this.s.stepFails = 0;
    this.s.step = step;
  }

  private write(rec: Record<string, string | number>): void {
    this.s.writes.push(rec);
  }

  private relay(line: string): void {
    this.s.relayed.push(line);
  }

  private nextRef(prefix: string): string {
    this.s.seq++;
    const base: Record<string, number> = {
      RJ: 50400,
      EJ: 7100,
      PAY: 88210,
      PP: 3300,
      PR: 6120,
      NT: 2040,
      CMP: 9150,
      HO: 41800,
    };
    return `${prefix}-${(base[prefix] ?? 1000) + this.s.seq}`;
  }

  private currentFlow(): Flow | null {
    if (this.s.step === "idle") return null;
    return this.s.step.split(".")[0] as Flow;
  }

  private clearFlow(): void {
    this.setStep("idle");
    this.s.pending = null;
    this.s.skipIdentity = false;
    this.s.authRef = null;
    this.s.authSurname = null;
    this.s.authDob = null;
  }

  /** A failed answer at the current step: the error reply, or a hand-off after three in a row. */
  private miss(state: State, key: string, v: Vars = {}): void {
    this.s.stepFails++;
    if (this.s.stepFails >= 3) {
      this.handoff("repeated");
      return;
    }
    this.enter(state, key, v);
  }

  /**
   * An answer the step could not use: a public question is answered in place, another workflow takes over
   * (returns false so the top level runs it), anything else is a miss.
   */
  private missOrSwitch(low: string, onMiss: () => void): boolean {
    const intent = detectIntent(low);
    const flow = this.currentFlow();
    if (intent && flowOf(intent) !== flow) {
      if (PUBLIC_INTENTS.has(intent)) {
        this.publicAnswer(intent);
        if (flow) this.out.push(`(Whenever you're ready, we can carry on with your ${FLOW_LABEL[flow]}.)`);
        return true;
      }
      this.clearFlow();
      return false;
    }
    onMiss();
    return true;
  }

  private turn(raw: string): string {
    this.out = [];
    const text = raw.replace(/\s+/g, " ").trim();
    const low = norm(text);
    if (!low) {
      this.enter("public.fallback", "public.fallback_empty");
      return this.flush();
    }
    if (this.s.step !== "idle" && this.handleStep(text, low)) return this.flush();
    this.topLevel(text, low);
    return this.flush();
  }

  private flush(): string {
    const text = this.out.filter((p) => p.length > 0).join("\n\n");
    if (text) return text;
    this.enter("public.fallback", "public.fallback");
    return this.out.join("\n\n");
  }

  // ---- top level ---------------------------------------------------------------------------------------

  private topLevel(text: string, low: string): void {
    const intent = detectIntent(low);
    if (intent) {
      this.runIntent(intent, text, low);
      return;
    }
    const ref = parseRef(text);
    if (this.s.locked && !this.s.tenant && (ref !== null || parseDate(low, false) !== null)) {
      this.enter("auth.locked", "auth.locked");
      return;
    }
    if (!this.s.tenant && typeof ref === "string") {
      if (this.s.locked) {
        this.enter("auth.locked", "auth.locked");
        return;
      }
      this.setStep("auth.ref");
      this.stepRef(text, low);
      return;
    }
    if (isNo(low) || ABORT.test(low)) {
      this.enter("session.goodbye", "session.goodbye");
      return;
    }
    if (isYes(low)) {
      this.menu();
      return;
    }
    this.enter("public.fallback", "public.fallback");
  }

  private menu(): void {
    if (this.s.tenant) this.enter("public.menu", "public.menu_signed", { name: this.s.tenant.firstName });
    else this.enter("public.menu", "public.menu");
  }

  private publicAnswer(intent: Intent): void {
    if (intent === "hours") this.enter("public.hours", "public.hours");
    else if (intent === "emergency") this.enter("public.emergency", "public.emergency");
    else if (intent === "pay_methods") this.enter("public.pay_methods", "public.pay_methods");
    else if (intent === "pets_policy") this.enter("public.pets_policy", "public.pets_policy");
    else this.menu();
  }

  private runIntent(intent: Intent, text: string, low: string): void {
    switch (intent) {
      case "human":
        this.handoff("request");
        return;
      case "hours":
      case "emergency":
      case "pay_methods":
      case "pets_policy":
      case "menu":
        this.publicAnswer(intent);
        return;
      case "goodbye":
        this.enter("session.goodbye", "session.goodbye");
        return;
      case "signout":
        if (this.s.tenant) {
          this.s.tenant = null;
          this.enter("session.goodbye", "session.signed_out");
        } else this.enter("session.goodbye", "session.goodbye");
        return;
      case "signin":
        if (this.s.tenant) {
          this.enter("auth.ok", "auth.already", { name: this.s.tenant.firstName });
          return;
        }
        this.beginAuth(null, text, low);
        return;
      default:
        if (!this.s.tenant) {
          this.beginAuth({ intent, text }, text, low);
          return;
        }
        this.startFlow(intent, text, low);
    }
  }

  private startFlow(intent: Intent, text: string, low: string): void {
    const t = this.s.tenant;
    if (!t) return;
    switch (intent) {
      case "repair":
        this.startRepair(low);
        return;
      case "appt_cancel":
      case "appt_check":
        this.startAppt(t, intent === "appt_cancel");
        return;
      case "balance":
        this.showBalance(t);
        return;
      case "statement":
        this.showStatement(t);
        return;
      case "pay":
        this.startPay(t, low);
        return;
      case "plan":
        this.startPlan(t);
        return;
      case "permission":
        this.startPerm(t, low);
        return;
      case "notice":
        this.startNotice(t, low);
        return;
      case "contact_show":
        this.showContact(t);
        return;
      case "contact_update":
        this.startContactUpdate(text, low);
        return;
      case "complaint":
        this.setStep("complaint.summary");
        this.enter("complaint.ask_summary", "complaint.ask_summary");
        return;
      default:
        this.menu();
    }
  }

  private handoff(kind: "request" | "repeated" | "complaint", ref?: string): void {
    const r = ref ?? this.nextRef("HO");
    this.write({ kind: "handoff", reason: kind, ref: r, tenancy: this.s.tenant?.ref ?? "-" });
    this.clearFlow();
    this.enter("handoff.human", `handoff.${kind}`, { ref: r });
    this.say("handoff.note");
  }

  private abort(): void {
    const flow = this.currentFlow() ?? "auth";
    this.clearFlow();
    this.enter("flow.aborted", "flow.aborted", { what: ABORT_WHAT[flow] });
  }

  private handleStep(text: string, low: string): boolean {
    const step = this.s.step;
    if (HUMAN.test(low)) {
      this.handoff("request");
      return true;
    }
    if (step !== "appt.confirm" && ABORT.test(low)) {
      this.abort();
      return true;
    }
    const t = this.s.tenant;
    if (step === "auth.ref") return this.stepRef(text, low);
    if (step === "auth.identity") return this.stepIdentity(text, low);
    if (step === "rent.offer") return this.stepRentOffer(low);
    if (!t) {
      this.clearFlow();
      return false;
    }
    switch (step) {
      case "repair.location":
        return this.stepRepairLocation(low);
      case "repair.category":
        return this.stepRepairCategory(low);
      case "repair.triage":
        return this.stepRepairTriage(t, low);
      case "repair.access":
        return this.stepRepairAccess(low);
      case "repair.slot":
        return this.stepRepairSlot(t, low);
      case "repair.confirm":
        return this.stepRepairConfirm(t, low);
      case "appt.pick":
        return this.stepApptPick(low);
      case "appt.confirm":
        return this.stepApptConfirm(low);
      case "pay.amount":
        return this.stepPayAmount(t, low);
      case "pay.method":
        return this.stepPayMethod(t, low);
      case "pay.card":
        return this.stepPayCard(t, text, low);
      case "pay.confirm":
        return this.stepPayConfirm(t, low);
      case "plan.instalment":
        return this.stepPlanInstalment(t, low);
      case "plan.start":
        return this.stepPlanStart(t, low);
      case "plan.confirm":
        return this.stepPlanConfirm(t, low);
      case "perm.type":
        return this.stepPermType(t, low);
      case "perm.pet":
        return this.stepPermPet(t, low);
      case "perm.lodger":
        return this.stepPermLodger(text, low);
      case "perm.alteration":
        return this.stepPermAlteration(text, low);
      case "perm.confirm":
        return this.stepPermConfirm(t, low);
      case "notice.date":
        return this.stepNoticeDate(t, low);
      case "notice.forwarding":
        return this.stepNoticeForwarding(t, text, low);
      case "notice.confirm":
        return this.stepNoticeConfirm(t, low);
      case "contact.reverify":
        return this.stepContactReverify(t, low);
      case "contact.field":
        return this.stepContactField(t, low);
      case "contact.value":
        return this.stepContactValue(t, text, low);
      case "contact.readback":
        return this.stepContactReadback(t, text, low);
      case "complaint.summary":
        return this.stepComplaint(t, text, low);
      default:
        this.clearFlow();
        return false;
    }
  }

  // ---- sign-in -----------------------------------------------------------------------------------------

  private beginAuth(pending: { intent: Intent; text: string } | null, text: string, low: string): void {
    if (this.s.locked) {
      this.enter("auth.locked", "auth.locked");
      return;
    }
    this.s.pending = pending;
    this.s.skipIdentity = pending?.intent === "balance" && this.fault("balance_skip_auth");
    this.setStep("auth.ref");
    if (typeof parseRef(text) === "string") {
      this.stepRef(text, low);
      return;
    }
    this.enter("auth.ask_ref", "auth.ask_ref", { lead: pending ? "Happy to help with that. " : "" });
  }

  private stepRef(text: string, low: string): boolean {
    const ref = parseRef(text);
    if (ref === null)
      return this.missOrSwitch(low, () => this.miss("auth.ref_malformed", "auth.ref_malformed"));
    if (ref === "bad") {
      this.miss("auth.ref_malformed", "auth.ref_malformed");
      return true;
    }
    this.s.authRef = ref;
    this.s.authSurname = null;
    this.s.authDob = null;
    if (this.s.skipIdentity) {
      const t = this.s.tenants.find((x) => x.ref === ref);
      if (t) {
        this.clearFlow();
        this.showBalance(t);
        return true;
      }
    }
    const rest = stripRef(text);
    const dob = parseDate(norm(rest), false);
    if (typeof dob === "number") {
      this.s.authDob = dob;
      const sn = parseSurname(rest);
      if (sn) {
        this.s.authSurname = sn;
        this.verify();
        return true;
      }
    }
    this.setStep("auth.identity");
    this.enter(
      "auth.ask_identity",
      this.s.authDob !== null ? "auth.ask_identity_surname" : "auth.ask_identity",
    );
    return true;
  }

  private stepIdentity(text: string, low: string): boolean {
    const dob = parseDate(low, false);
    const intent = detectIntent(low);
    if (dob === null && intent && flowOf(intent) !== "auth") {
      return this.missOrSwitch(low, () => this.miss("auth.ask_identity", "auth.ask_identity"));
    }
    const sn = parseSurname(text);
    if (sn) this.s.authSurname = sn;
    if (dob === "bad") {
      this.miss("auth.ask_identity", "auth.ask_identity_baddate");
      return true;
    }
    if (typeof dob === "number") this.s.authDob = dob;
    if (this.s.authDob !== null && this.s.authSurname) {
      this.verify();
      return true;
    }
    if (this.s.authDob === null && !this.s.authSurname) {
      this.miss("auth.ask_identity", "auth.ask_identity");
      return true;
    }
    this.enter(
      "auth.ask_identity",
      this.s.authDob === null ? "auth.ask_identity_dob" : "auth.ask_identity_surname",
    );
    return true;
  }

  private verify(): void {
    const t = this.s.tenants.find((x) => x.ref === this.s.authRef);
    const ok =
      t !== undefined &&
      t.surname.toLowerCase().replace(/[^a-z]/g, "") === (this.s.authSurname ?? "").replace(/[^a-z]/g, "") &&
      this.s.authDob !== null &&
      t.dob === isoOf(this.s.authDob);
    const pending = this.s.pending;
    this.s.authRef = null;
    this.s.authSurname = null;
    this.s.authDob = null;
    if (ok && t) {
      this.s.tenant = t;
      this.relay(`signed_in ${t.ref}`);
      this.s.pending = null;
      this.setStep("idle");
      this.enter("auth.ok", "auth.ok", { name: t.firstName });
      if (pending) this.startFlow(pending.intent, pending.text, norm(pending.text));
      else this.say("auth.ok_menu");
      return;
    }
    this.s.authFails++;
    if (this.s.authFails >= 3 && !this.fault("auth_no_lockout")) {
      this.s.locked = true;
      this.write({ kind: "signin_locked", attempts: this.s.authFails });
      this.clearFlow();
      this.enter("auth.locked", "auth.locked");
      return;
    }
    this.setStep("auth.ref");
    this.s.stepFails = 0;
    this.enter("auth.failed", "auth.failed");
  }

  // ---- repairs -----------------------------------------------------------------------------------------

  private startRepair(low: string): void {
    this.s.repair = emptyRepair();
    this.s.repair.room = parseRoom(low);
    this.s.repair.cat = parseCat(low);
    this.nextRepairQuestion();
  }

  private nextRepairQuestion(): void {
    const r = this.s.repair;
    if (!r.room) {
      this.setStep("repair.location");
      this.enter("repair.ask_location", "repair.ask_location");
    } else if (!r.cat) {
      this.setStep("repair.category");
      this.enter("repair.ask_category", "repair.ask_category", { room: titleCase(r.room) });
    } else {
      this.setStep("repair.triage");
      this.enter("repair.triage", `repair.triage.${r.cat}`);
    }
  }

  private stepRepairLocation(low: string): boolean {
    const room = parseRoom(low);
    const cat = parseCat(low);
    if (cat && !this.s.repair.cat) this.s.repair.cat = cat;
    if (!room) return this.missOrSwitch(low, () => this.miss("repair.ask_location", "repair.location_again"));
    this.s.repair.room = room;
    this.nextRepairQuestion();
    return true;
  }

  private stepRepairCategory(low: string): boolean {
    const num = low.match(/^\s*[[(]?([1-5])[\])]?(?:\W|$)|\b(?:option|number|no\.?)\s*([1-5])\b/);
    const cat = num ? (CAT_ORDER[Number(num[1] ?? num[2]) - 1] ?? null) : parseCat(low);
    if (!cat) return this.missOrSwitch(low, () => this.miss("repair.ask_category", "repair.category_again"));
    this.s.repair.cat = cat;
    this.nextRepairQuestion();
    return true;
  }

  private stepRepairTriage(t: Tenant, low: string): boolean {
    const { yes, no } = triageAnswer(low);
    const r = this.s.repair;
    if (yes) {
      const ref = this.nextRef("EJ");
      this.write({
        kind: "emergency_repair",
        tenancy: t.ref,
        job: ref,
        room: r.room ?? "-",
        category: r.cat ?? "-",
      });
      this.clearFlow();
      this.enter("repair.emergency", "repair.emergency", {
        ref,
        room: r.room ?? "home",
        category: CAT_LABEL[r.cat ?? "other"],
      });
      return true;
    }
    if (no) {
      this.setStep("repair.access");
      this.enter("repair.ask_access", "repair.ask_access");
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("repair.triage", "repair.triage_again"));
  }

  private stepRepairAccess(low: string): boolean {
    const r = this.s.repair;
    const days = parseDays(low);
    const band = parseBand(low);
    if (days?.weekendOnly && !band) {
      this.enter("repair.access_invalid", "repair.access_invalid");
      return true;
    }
    if (!days && !band)
      return this.missOrSwitch(low, () => this.miss("repair.access_invalid", "repair.access_unclear"));
    if (days && !days.weekendOnly) r.days = days.days;
    if (band) r.band = band;
    if (days?.weekendOnly && !r.days) {
      this.enter("repair.access_invalid", "repair.access_invalid");
      return true;
    }
    if (r.days && r.band) {
      this.offerSlots();
      return true;
    }
    if (r.days)
      this.enter("repair.ask_access", "repair.ask_access_band", { days: titleCase(dayList(r.days)) });
    else
      this.enter("repair.ask_access", "repair.ask_access_days", {
        band: r.band === "am" ? "Mornings" : r.band === "pm" ? "Afternoons" : "Any time",
      });
    return true;
  }

  private earliest(): number {
    return addWorkingDays(TODAY_N, LEAD_DAYS[this.s.repair.cat ?? "other"]);
  }

  private genSlots(count: number): Slot[] {
    const r = this.s.repair;
    const bands: Band[] = r.band === "am" ? ["am"] : r.band === "pm" ? ["pm"] : ["am", "pm"];
    const out: Slot[] = [];
    const start = this.earliest();
    for (let d = start; d < start + 42 && out.length < count; d++) {
      if (!(r.days ?? []).includes(weekday(d))) continue;
      for (const b of bands) {
        const key = `${d}${b}`;
        if (!fullyBooked(d, b) && !r.seen.includes(key) && out.length < count) out.push({ day: d, band: b });
      }
    }
    return out;
  }

  private slotList(slots: readonly Slot[]): string {
    return slots.map((s, i) => `- **${"ABC"[i]}** ${slotLabel(s)}`).join("\n");
  }

  private offerSlots(): void {
    const r = this.s.repair;
    const slots = this.genSlots(3);
    if (slots.length === 0) {
      r.days = null;
      r.seen = [];
      this.setStep("repair.access");
      this.enter("repair.access_invalid", "repair.no_slots");
      return;
    }
    r.offered = slots;
    for (const s of slots) r.seen.push(`${s.day}${s.band}`);
    this.setStep("repair.slot");
    this.enter("repair.offer_slots", "repair.offer_slots", { list: this.slotList(slots) });
  }

  private pickSlot(low: string, offered: readonly Slot[]): Slot | null {
    const letter = low.match(
      /^\s*(?:option\s+|slot\s+)?[[(]?([abc])[\])]?(?:[.,!)]|\s+(?:please|thanks|is fine|works|one|slot)|\s*$)/,
    );
    const word = low.match(/\b(?:option|slot|letter)\s+([abc])\b/);
    const verb = low.match(
      /\b(?:take|choose|pick|go (?:with|for)|want|prefer|book|have|like)\s+(?:option\s+|slot\s+)?([abc])(?=\s*(?:$|[.,!]|please|thanks|thank you))/,
    );
    const l = letter?.[1] ?? word?.[1] ?? verb?.[1];
    if (l) return offered["abc".indexOf(l)] ?? null;
    const ord = low.match(/\b(first|1st|second|2nd|third|3rd|last)\b|^\s*([123])\s*$/);
    if (ord) {
      const w = ord[1] ?? ord[2] ?? "";
      const idx = /first|1st|^1$/.test(w)
        ? 0
        : /second|2nd|^2$/.test(w)
          ? 1
          : /third|3rd|^3$/.test(w)
            ? 2
            : offered.length - 1;
      return offered[idx] ?? null;
    }
    const date = parseDate(low, true);
    const wd = weekdayIn(low);
    const band = parseBand(low);
    const cands = offered.filter(
      (s) =>
        (typeof date === "number" && !/\b(mon|tue|wed|thu|fri)/.test(low) ? s.day === date : true) &&
        (typeof date === "number" && /\d/.test(low) ? s.day === date : true) &&
        (wd !== null ? weekday(s.day) === wd : true) &&
        (band === "am" || band === "pm" ? s.band === band : true),
    );
    if (
      (wd !== null || (typeof date === "number" && /\d/.test(low)) || band === "am" || band === "pm") &&
      cands.length > 0
    )
      return cands[0] ?? null;
    return null;
  }

  private stepRepairSlot(t: Tenant, low: string): boolean {
    const r = this.s.repair;
    const chosen = this.pickSlot(low, r.offered);
    if (chosen) {
      r.chosen = chosen;
      r.book = chosen;
      if (this.fault("repair_skip_confirm")) this.bookRepair(t);
      else this.confirmRepair(t, null);
      return true;
    }
    if (
      /\b(none|neither|other|others|more|later|different|another|something else|none of (these|those|them))\b/.test(
        low,
      ) ||
      isNo(low)
    ) {
      this.offerSlots();
      return true;
    }
    return this.missOrSwitch(low, () =>
      this.miss("repair.slot_invalid", "repair.slot_invalid", { list: this.slotList(r.offered) }),
    );
  }

  private confirmRepair(t: Tenant, changed: string | null): void {
    const r = this.s.repair;
    this.setStep("repair.confirm");
    this.s.visited.push("repair.confirm");
    if (changed)
      this.say(changed.startsWith("!") ? "repair.confirm_weekend" : "repair.confirm_changed", {
        what: changed,
      });
    this.say("repair.confirm", {
      room: r.room ?? "home",
      category: CAT_LABEL[r.cat ?? "other"],
      slot: r.chosen ? slotLabel(r.chosen) : "-",
      mobile: t.mobile,
    });
  }

  /** A corrected slot for a weekday / band change, or null when none is free in the next weeks. */
  private correctedSlot(wd: number, band: Band): Slot | null {
    const start = this.earliest();
    for (let d = start; d < start + 56; d++) {
      if (weekday(d) !== wd) continue;
      if (!fullyBooked(d, band)) return { day: d, band };
      const other: Band = band === "am" ? "pm" : "am";
      if (!fullyBooked(d, other)) return { day: d, band: other };
    }
    return null;
  }

  private stepRepairConfirm(t: Tenant, low: string): boolean {
    const r = this.s.repair;
    const cur = r.chosen;
    if (!cur) {
      this.clearFlow();
      return false;
    }
    const date = /\d/.test(low) ? parseDate(low, true) : null;
    const wd = typeof date === "number" ? weekday(date) : weekdayIn(low);
    const bandRaw = parseBand(low);
    const band: Band | null = bandRaw === "am" || bandRaw === "pm" ? bandRaw : null;
    const room = parseRoom(low);
    const dayChange = wd !== null && (typeof date === "number" ? date !== cur.day : wd !== weekday(cur.day));
    const bandChange = band !== null && band !== cur.band;
    const roomChange = room !== null && room !== r.room;
    if (dayChange || bandChange || roomChange) {
      const changes: string[] = [];
      if (roomChange && room) {
        r.room = room;
        changes.push(`room is now the ${room}`);
      }
      if (dayChange || bandChange) {
        const targetWd = dayChange && wd !== null ? wd : weekday(cur.day);
        const targetBand = band ?? cur.band;
        if (targetWd === 0 || targetWd === 6) {
          this.confirmRepair(t, "!weekend");
          return true;
        }
        let next: Slot | null = null;
        if (typeof date === "number" && date >= this.earliest()) {
          next = fullyBooked(date, targetBand) ? null : { day: date, band: targetBand };
        }
        next = next ?? (dayChange ? this.correctedSlot(targetWd, targetBand) : null);
        if (!next && !dayChange && !fullyBooked(cur.day, targetBand))
          next = { day: cur.day, band: targetBand };
        if (next) {
          r.chosen = next;
          if (!this.fault("repair_forget_correction")) r.book = next;
          changes.push(`visit now ${slotLabel(next)}`);
        }
      }
      this.confirmRepair(
        t,
        changes.length > 0 ? changes.join("; ") : "no free slot then, so the visit is unchanged",
      );
      return true;
    }
    if (isYes(low)) {
      this.bookRepair(t);
      return true;
    }
    if (isNo(low)) {
      this.abort();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("repair.confirm", "repair.confirm_again"));
  }

  private bookRepair(t: Tenant): void {
    const r = this.s.repair;
    const slot = r.book ?? r.chosen;
    if (!slot) return;
    const ref = this.nextRef("RJ");
    const cat = CAT_LABEL[r.cat ?? "other"];
    this.s.appts.push({
      id: ref,
      tenancyRef: t.ref,
      date: isoOf(slot.day),
      startHour: slot.band === "am" ? 8 : 12,
      endHour: slot.band === "am" ? 12 : 16,
      job: `${cat} repair (${r.room ?? "home"})`,
    });
    this.write({
      kind: "repair_booking",
      tenancy: t.ref,
      job: ref,
      room: r.room ?? "-",
      category: r.cat ?? "-",
      date: isoOf(slot.day),
      band: slot.band,
    });
    this.clearFlow();
    this.enter("repair.booked", "repair.booked", {
      ref,
      room: r.room ?? "home",
      category: cat,
      slot: slotLabel(slot),
    });
  }

  // ---- appointments ------------------------------------------------------------------------------------

  private upcoming(t: Tenant): Appointment[] {
    const mine = this.s.appts.filter((a) => a.tenancyRef === t.ref && fromIso(a.date) >= TODAY_N);
    if (this.fault("appt_leak_other_tenant")) {
      const other = this.s.appts.find((a) => a.tenancyRef !== t.ref && fromIso(a.date) >= TODAY_N);
      if (other) mine.push(other);
    }
    return mine.sort((a, b) => fromIso(a.date) * 24 + a.startHour - (fromIso(b.date) * 24 + b.startHour));
  }

  private apptSlot(a: Appointment): string {
    const h = (n: number) => (n === 12 ? "12pm" : n > 12 ? `${n - 12}pm` : `${n}am`);
    return `${fmtShort(fromIso(a.date))}, ${h(a.startHour)}–${h(a.endHour)}`;
  }

  private startAppt(t: Tenant, cancel: boolean): void {
    const list = this.upcoming(t);
    if (list.length === 0) {
      this.enter("appt.none", "appt.none");
      return;
    }
    const lines = list.map((a, i) => {
      const addr = this.s.tenants.find((x) => x.ref === a.tenancyRef)?.address ?? "";
      return `${i + 1}. ${this.apptSlot(a)} — ${a.job} (job ${a.id}) at ${addr}`;
    });
    for (const l of lines) this.relay(`appointment ${l}`);
    this.s.apptIds = list.map((a) => a.id);
    this.setStep("appt.pick");
    this.enter("appt.list", "appt.list", {
      list: lines.join("\n"),
      tail: this.phrase(cancel ? "appt.tail_cancel" : "appt.tail_check"),
    });
  }

  private stepApptPick(low: string): boolean {
    const ids = this.s.apptIds;
    let idx: number | null = null;
    const num = low.match(
      /^\s*(?:number\s+|no\.?\s*|#)?([1-9])\b|\b(?:number|no\.?|#|appointment|visit)\s*([1-9])\b/,
    );
    if (num) idx = Number(num[1] ?? num[2]) - 1;
    else if (/\b(first|1st)\b/.test(low)) idx = 0;
    else if (/\b(second|2nd)\b/.test(low)) idx = 1;
    else if (/\b(third|3rd)\b/.test(low)) idx = 2;
    else if (/\blast\b/.test(low)) idx = ids.length - 1;
    else if (ids.length === 1 && (isYes(low) || /\b(that one|it)\b/.test(low))) idx = 0;
    else {
      const appts = ids.map((id) => this.s.appts.find((a) => a.id === id));
      const byJob = appts.findIndex(
        (a) => a?.job.split(/\W+/).some((w) => w.length > 3 && low.includes(w)) === true,
      );
      const date = /\d/.test(low) ? parseDate(low, true) : null;
      const byDate =
        typeof date === "number" ? appts.findIndex((a) => a !== undefined && fromIso(a.date) === date) : -1;
      const wd = weekdayIn(low);
      const byDay =
        wd !== null ? appts.findIndex((a) => a !== undefined && weekday(fromIso(a.date)) === wd) : -1;
      const found = byDate >= 0 ? byDate : byDay >= 0 ? byDay : byJob;
      if (found >= 0) idx = found;
    }
    if (idx === null && (isNo(low) || /\b(none|neither|keep|leave)\b/.test(low))) {
      this.clearFlow();
      this.enter("appt.kept", "appt.kept");
      return true;
    }
    const id = idx !== null ? ids[idx] : undefined;
    const appt = id ? this.s.appts.find((a) => a.id === id) : undefined;
    if (!appt) {
      if (idx !== null) {
        this.miss("appt.list", "appt.pick_again", { n: ids.length });
        return true;
      }
      return this.missOrSwitch(low, () => this.miss("appt.list", "appt.pick_again", { n: ids.length }));
    }
    const hoursAway = fromIso(appt.date) * 24 + appt.startHour - NOW_HOURS;
    if (hoursAway < 24 && !this.fault("appt_cancel_within_24h")) {
      this.clearFlow();
      this.enter("appt.refused_24h", "appt.refused_24h", { slot: this.apptSlot(appt) });
      return true;
    }
    this.s.apptPick = appt.id;
    this.setStep("appt.confirm");
    this.enter("appt.confirm_cancel", "appt.confirm_cancel", { job: appt.job, slot: this.apptSlot(appt) });
    return true;
  }

  private stepApptConfirm(low: string): boolean {
    const appt = this.s.appts.find((a) => a.id === this.s.apptPick);
    this.clearFlow();
    if (appt && bare(low) === "cancel") {
      this.s.appts = this.s.appts.filter((a) => a.id !== appt.id);
      this.write({ kind: "appointment_cancelled", job: appt.id, tenancy: appt.tenancyRef, date: appt.date });
      this.enter("appt.cancelled", "appt.cancelled", {
        job: appt.job,
        slot: this.apptSlot(appt),
        id: appt.id,
      });
      return true;
    }
    this.enter("appt.kept", "appt.kept");
    return true;
  }

  // ---- rent --------------------------------------------------------------------------------------------

  private balance(t: Tenant): number {
    let entries = t.ledger;
    if (this.fault("balance_wrong_total")) {
      let lastPay = -1;
      entries.forEach((e, i) => {
        if (e.amount < 0) lastPay = i;
      });
      entries = entries.filter((_e, i) => i !== lastPay);
    }
    return round2(entries.reduce((sum, e) => sum + e.amount, 0));
  }

  private showBalance(t: Tenant): void {
    const bal = this.balance(t);
    this.relay(`balance ${t.ref} ${bal.toFixed(2)}`);
    const key =
      bal > 0.004 ? "rent.balance.owed" : bal < -0.004 ? "rent.balance.credit" : "rent.balance.zero";
    this.s.statementRef = t.ref;
    this.setStep("rent.offer");
    this.enter("rent.balance", key, {
      ref: t.ref,
      amount: money(bal),
      rent: money(t.weeklyRent),
      next: fmtLong(nextWeekday(TODAY_N, 1)),
    });
  }

  private showStatement(t: Tenant): void {
    const bal = this.balance(t);
    const rows = t.ledger.slice(-6).map((e) => {
      const amt = e.amount < 0 ? `−${money(e.amount)}` : money(e.amount);
      return `- ${fmtShort(fromIso(e.date))}  ${e.text}  ${amt}`;
    });
    for (const r of rows) this.relay(`statement ${t.ref} ${r}`);
    this.relay(`balance ${t.ref} ${bal.toFixed(2)}`);
    this.clearFlow();
    this.enter("rent.statement", "rent.statement", { list: rows.join("\n"), balance: balanceText(bal) });
  }

  private stepRentOffer(low: string): boolean {
    const t = this.s.tenants.find((x) => x.ref === this.s.statementRef);
    if (isYes(low) && t) {
      this.showStatement(t);
      return true;
    }
    this.clearFlow();
    return false;
  }

  // ---- payments ----------------------------------------------------------------------------------------

  private startPay(t: Tenant, low: string): void {
    const bal = this.balance(t);
    this.relay(`balance ${t.ref} ${bal.toFixed(2)}`);
    this.s.pay = { amount: 0, card: null };
    this.setStep("pay.amount");
    const pre = parseMoney(low.replace(/\bkvh[\s-]*\d+/g, ""));
    if (typeof pre === "number") {
      this.takeAmount(t, pre);
      return;
    }
    const lead =
      bal > 0.004
        ? `Your balance is ${money(bal)} in arrears. `
        : bal < -0.004
          ? `You're ${money(bal)} in credit at the moment. `
          : "Your account is up to date. ";
    this.enter("pay.ask_amount", "pay.ask_amount", { lead });
  }

  /** Validates an amount (−1 = the whole balance) and moves on to the card; false when refused. */
  private takeAmount(t: Tenant, raw: number): boolean {
    const amount = raw === -1 ? this.balance(t) : raw;
    const limited = this.fault("pay_ignore_limit") ? amount <= 0 : amount < PAY_MIN || amount > PAY_MAX;
    if (limited) {
      this.setStep("pay.amount");
      this.enter("pay.refused_limit", "pay.refused_limit", { min: PAY_MIN, max: "1,500" });
      return false;
    }
    this.s.pay.amount = round2(amount);
    if (this.s.step === "pay.confirm") return true;
    if (t.card) {
      this.setStep("pay.method");
      this.enter("pay.ask_method", "pay.ask_method", { brand: t.card.brand, last4: t.card.last4 });
    } else {
      this.setStep("pay.card");
      this.enter("pay.ask_card", "pay.ask_card");
    }
    return true;
  }

  private stepPayAmount(t: Tenant, low: string): boolean {
    const v = parseMoney(low);
    if (v === null)
      return this.missOrSwitch(low, () => this.miss("pay.amount_invalid", "pay.amount_invalid"));
    if (v === "bad" || (v === -1 && this.balance(t) <= 0)) {
      this.miss("pay.amount_invalid", "pay.amount_invalid");
      return true;
    }
    this.takeAmount(t, v);
    return true;
  }

  private stepPayMethod(t: Tenant, low: string): boolean {
    const card = t.card;
    const onFile =
      /^\s*[[(]?a[\])]?(?:\W|$)|^\s*1\s*$/.test(low) ||
      /\b(on file|saved|existing|same|usual|current|stored|that one|the one you have|yes)\b/.test(low) ||
      (card !== undefined && low.includes(card.last4)) ||
      (card !== undefined &&
        low.includes(card.brand.toLowerCase()) &&
        !/\b(new|different|another)\b/.test(low));
    const fresh =
      /^\s*[[(]?b[\])]?(?:\W|$)|^\s*2\s*$/.test(low) || /\b(new|different|another|other)\b/.test(low);
    if (fresh && !/^\s*[[(]?a[\])]?(?:\W|$)/.test(low)) {
      this.setStep("pay.card");
      this.enter("pay.ask_card", "pay.ask_card");
      return true;
    }
    if (onFile && card) {
      this.s.pay.card = { label: `your ${card.brand} ending ${card.last4}`, last4: card.last4 };
      this.confirmPay(t);
      return true;
    }
    return this.missOrSwitch(low, () =>
      this.miss("pay.ask_method", "pay.method_again", { last4: card?.last4 ?? "" }),
    );
  }

  private stepPayCard(t: Tenant, text: string, low: string): boolean {
    const c = parseCard(text);
    if (c.last4 && c.expiry) {
      this.s.pay.card = { label: `the card ending ${c.last4}`, last4: c.last4 };
      this.confirmPay(t);
      return true;
    }
    if (!/\d/.test(low))
      return this.missOrSwitch(low, () =>
        this.miss("pay.card_invalid", "pay.card_invalid", { why: c.why ?? "" }),
      );
    this.miss("pay.card_invalid", "pay.card_invalid", { why: c.why ?? "something's missing" });
    return true;
  }

  private confirmPay(t: Tenant): void {
    this.setStep("pay.confirm");
    this.enter("pay.confirm", "pay.confirm", {
      amount: money(this.s.pay.amount),
      card: this.s.pay.card?.label ?? "your card",
      ref: t.ref,
    });
  }

  private stepPayConfirm(t: Tenant, low: string): boolean {
    const corr = amountCorrection(low);
    if (corr !== null && round2(corr) !== this.s.pay.amount) {
      if (this.takeAmount(t, corr)) this.confirmPay(t);
      return true;
    }
    if (isYes(low)) {
      const amt = this.s.pay.amount;
      const card = this.s.pay.card;
      t.ledger.push({ date: isoOf(TODAY_N), text: "Card payment (chat)", amount: -amt });
      const receipt = this.nextRef("PAY");
      this.write({
        kind: "payment",
        tenancy: t.ref,
        amount: amt.toFixed(2),
        card: card?.last4 ?? "-",
        receipt,
      });
      const bal = this.balance(t);
      this.relay(`balance ${t.ref} ${bal.toFixed(2)}`);
      const shown = this.fault("pay_receipt_wrong_amount") ? amt + 10 : amt;
      this.clearFlow();
      this.enter("pay.done", "pay.done", {
        amount: money(shown),
        card: card?.label ?? "your card",
        receipt,
        balance: balanceText(bal),
      });
      return true;
    }
    if (isNo(low)) {
      this.abort();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("pay.confirm", "pay.confirm_again"));
  }

  // ---- payment plans -----------------------------------------------------------------------------------

  private startPlan(t: Tenant): void {
    const bal = this.balance(t);
    this.relay(`balance ${t.ref} ${bal.toFixed(2)}`);
    if (t.plan) {
      this.enter("plan.refused_existing", "plan.refused_existing", {
        weekly: money(t.plan.weekly),
        start: fmtLong(fromIso(t.plan.start)),
      });
      return;
    }
    if (bal <= 0.004) {
      this.enter("plan.refused_no_arrears", "plan.refused_no_arrears", { balance: balanceText(bal) });
      return;
    }
    const min = Math.max(PLAN_MIN_INSTALMENT, Math.ceil((bal / PLAN_MAX_WEEKS) * 100) / 100);
    this.s.plan = { arrears: bal, min, weekly: 0, start: null };
    this.setStep("plan.instalment");
    this.enter("plan.ask_instalment", "plan.ask_instalment", this.planVars(t));
  }

  private planVars(t: Tenant): Vars {
    const p = this.s.plan;
    return {
      arrears: money(p.arrears),
      rent: money(t.weeklyRent),
      weeks: PLAN_MAX_WEEKS,
      min: money(p.min),
      max: money(PLAN_MAX_INSTALMENT),
    };
  }

  /** Validates a weekly instalment; false (with a refusal) when it's outside the bounds. */
  private takeInstalment(t: Tenant, v: number): boolean {
    const p = this.s.plan;
    const vars = { ...this.planVars(t), amount: money(v) };
    const tooLow = this.fault("plan_ignore_min_instalment") ? v <= 0 : v < p.min - 0.004;
    if (tooLow) {
      this.setStep("plan.instalment");
      this.enter("plan.refused_instalment", "plan.refused_instalment.low", vars);
      return false;
    }
    if (v > PLAN_MAX_INSTALMENT) {
      this.setStep("plan.instalment");
      this.enter("plan.refused_instalment", "plan.refused_instalment.high", vars);
      return false;
    }
    p.weekly = round2(v);
    return true;
  }

  private stepPlanInstalment(t: Tenant, low: string): boolean {
    const v = parseMoney(low);
    if (typeof v !== "number" || v < 0) {
      const vars = this.planVars(t);
      if (v === null)
        return this.missOrSwitch(low, () => this.miss("plan.ask_instalment", "plan.instalment_again", vars));
      this.miss("plan.ask_instalment", "plan.instalment_again", vars);
      return true;
    }
    if (this.takeInstalment(t, v)) {
      this.setStep("plan.start");
      this.enter("plan.ask_start", "plan.ask_start", { amount: money(v) });
    }
    return true;
  }

  private planWindow(): { from: number; to: number } {
    const from = nextWeekday(TODAY_N, 1);
    let to = TODAY_N + 28;
    while (weekday(to) !== 1) to--;
    return { from, to };
  }

  private stepPlanStart(t: Tenant, low: string): boolean {
    const d = parseDate(low, true);
    const w = this.planWindow();
    const vars = { from: fmtLong(w.from), to: fmtLong(w.to) };
    if (d === null)
      return this.missOrSwitch(low, () =>
        this.miss("plan.start_invalid", "plan.start_invalid", { ...vars, why: "I couldn't read that date." }),
      );
    if (d === "bad") {
      this.miss("plan.start_invalid", "plan.start_invalid", { ...vars, why: "that isn't a real date." });
      return true;
    }
    if (d < w.from || d > TODAY_N + 28) {
      this.enter("plan.start_invalid", "plan.start_invalid", {
        ...vars,
        why: `${fmtLong(d)} is outside the next four weeks.`,
      });
      return true;
    }
    if (weekday(d) !== 1) {
      this.enter("plan.start_invalid", "plan.start_invalid", {
        ...vars,
        why: `${fmtLong(d)} isn't a Monday.`,
      });
      return true;
    }
    this.s.plan.start = d;
    this.confirmPlan(t);
    return true;
  }

  private confirmPlan(t: Tenant): void {
    const p = this.s.plan;
    this.setStep("plan.confirm");
    this.enter("plan.confirm", "plan.confirm", {
      arrears: money(p.arrears),
      amount: money(p.weekly),
      total: money(p.weekly + t.weeklyRent),
      start: fmtLong(p.start ?? TODAY_N),
      count: Math.ceil(p.arrears / p.weekly),
    });
  }

  private stepPlanConfirm(t: Tenant, low: string): boolean {
    const p = this.s.plan;
    if (bare(low) === "i agree") {
      const ref = this.nextRef("PP");
      const start = p.start ?? TODAY_N;
      t.plan = { weekly: p.weekly, start: isoOf(start) };
      this.write({
        kind: "payment_plan",
        tenancy: t.ref,
        ref,
        weekly: p.weekly.toFixed(2),
        start: isoOf(start),
        weeks: Math.ceil(p.arrears / p.weekly),
      });
      this.clearFlow();
      this.enter("plan.done", "plan.done", { amount: money(p.weekly), start: fmtLong(start), ref });
      return true;
    }
    const corr = amountCorrection(low);
    if (corr !== null && round2(corr) !== p.weekly) {
      if (this.takeInstalment(t, corr)) this.confirmPlan(t);
      return true;
    }
    if (isNo(low)) {
      this.abort();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("plan.confirm", "plan.confirm_again"));
  }

  // ---- permissions -------------------------------------------------------------------------------------

  private startPerm(t: Tenant, low: string): void {
    this.s.perm = {
      type: null,
      animal: null,
      plural: false,
      lodger: null,
      moveIn: null,
      summary: "",
      details: {},
    };
    if (parseAnimal(low) || /\bpets?\b/.test(low)) this.startPet(t, low);
    else if (/\blodgers?\b/.test(low)) this.startLodger(t);
    else if (
      /\b(alteration|alterations|alter|extension|satellite|shed|decorat\w*|put up|install\w*|fit (a|an|new)|change to (my|the) home)\b/.test(
        low,
      )
    )
      this.startAlteration();
    else {
      this.setStep("perm.type");
      this.enter("perm.ask_type", "perm.ask_type");
    }
  }

  private stepPermType(t: Tenant, low: string): boolean {
    const pick = low.match(/^\s*[[(]?([abc123])[\])]?(?:\W|$)/)?.[1];
    if (pick === "a" || pick === "1" || parseAnimal(low) || /\bpets?\b/.test(low)) this.startPet(t, low);
    else if (pick === "b" || pick === "2" || /\blodgers?\b/.test(low)) this.startLodger(t);
    else if (pick === "c" || pick === "3" || /\b(alteration|alter|change|improvement|home)\b/.test(low))
      this.startAlteration();
    else return this.missOrSwitch(low, () => this.miss("perm.ask_type", "perm.type_again"));
    return true;
  }

  private startPet(t: Tenant, low: string): void {
    this.s.perm.type = "pet";
    const a = parseAnimal(low);
    const n = a ? parseCount(low) : null;
    this.setStep("perm.pet");
    if (a && n !== null && (n > 0 || !a.plural)) {
      this.evaluatePet(t, a.animal, a.exotic, n);
      return;
    }
    if (a) {
      this.s.perm.animal = a.animal;
      this.s.perm.plural = a.plural;
      if (!a.plural) {
        this.evaluatePet(t, a.animal, a.exotic, 1);
        return;
      }
      this.enter("perm.ask_pet", "perm.pet_count", { animal: a.animal });
      return;
    }
    this.enter("perm.ask_pet", "perm.ask_pet");
  }

  private stepPermPet(t: Tenant, low: string): boolean {
    const a = parseAnimal(low);
    const n = parseCount(low);
    const animal = a?.animal ?? this.s.perm.animal;
    if (!animal) return this.missOrSwitch(low, () => this.miss("perm.ask_pet", "perm.pet_again"));
    const exotic = a?.exotic ?? ANIMALS.some(([name, , ex]) => name === animal && ex);
    const count = n ?? (a && !a.plural ? 1 : null);
    if (count === null) {
      this.s.perm.animal = animal;
      this.miss("perm.ask_pet", "perm.pet_count", { animal });
      return true;
    }
    this.evaluatePet(t, animal, exotic, count);
    return true;
  }

  private evaluatePet(t: Tenant, animal: string, exotic: boolean, count: number): void {
    if (count < 1 || count > 20) {
      this.miss("perm.ask_pet", "perm.pet_again");
      return;
    }
    if (exotic) {
      this.clearFlow();
      this.enter("perm.refused_pet", "perm.refused_pet.exotic", { animal });
      return;
    }
    if (!this.fault("perm_ignore_pet_rule")) {
      if (animal === "dog" && !(t.propertyType === "house" && t.hasGarden)) {
        this.clearFlow();
        this.enter("perm.refused_pet", "perm.refused_pet.dog_flat");
        return;
      }
      if (t.pets.length + count > MAX_PETS) {
        this.clearFlow();
        this.enter("perm.refused_pet", "perm.refused_pet.too_many", {
          total: t.pets.length + count,
          have: t.pets.length,
        });
        return;
      }
    }
    const label = `${count} ${animal}${count > 1 ? "s" : ""}`;
    this.s.perm.summary = `Pet: ${label} at ${t.address}`;
    this.s.perm.details = { animal, count };
    this.confirmPerm();
  }

  private startLodger(t: Tenant): void {
    this.s.perm.type = "lodger";
    if (t.tenancyType === "starter" && t.fixedTermEnds && fromIso(t.fixedTermEnds) > TODAY_N) {
      this.clearFlow();
      this.enter("perm.refused_lodger", "perm.refused_lodger.starter", {
        until: fmtLong(fromIso(t.fixedTermEnds)),
      });
      return;
    }
    const bal = this.balance(t);
    if (bal > 0.004) {
      this.clearFlow();
      this.enter("perm.refused_lodger", "perm.refused_lodger.arrears", { balance: money(bal) });
      return;
    }
    this.setStep("perm.lodger");
    this.enter("perm.ask_lodger", "perm.ask_lodger");
  }

  private stepPermLodger(text: string, low: string): boolean {
    const p = this.s.perm;
    const d = parseDate(low, true);
    const words = nameWords(text.replace(/\b\d{1,2}[/.-]\d{1,2}([/.-]\d{2,4})?\b/g, " "));
    if (words.length >= 2) p.lodger = words.slice(0, 3).map(titleCase).join(" ");
    if (typeof d === "number" && d >= TODAY_N) p.moveIn = d;
    if (p.lodger && p.moveIn !== null) {
      p.summary = `Lodger: ${p.lodger}, moving in ${fmtLong(p.moveIn)}`;
      p.details = { lodger: p.lodger, move_in: isoOf(p.moveIn) };
      this.confirmPerm();
      return true;
    }
    if (!p.lodger && p.moveIn === null && d === null)
      return this.missOrSwitch(low, () => this.miss("perm.ask_lodger", "perm.lodger_again"));
    this.miss("perm.ask_lodger", "perm.lodger_again");
    return true;
  }

  private startAlteration(): void {
    this.s.perm.type = "alteration";
    this.setStep("perm.alteration");
    this.enter("perm.ask_alteration", "perm.ask_alteration");
  }

  private stepPermAlteration(text: string, low: string): boolean {
    const words = low.split(/\s+/).filter((w) => /[a-z]/.test(w));
    if (words.length < 3)
      return this.missOrSwitch(low, () => this.miss("perm.ask_alteration", "perm.alteration_again"));
    if (STRUCTURAL.test(low)) {
      this.clearFlow();
      this.enter("perm.refused_alteration", "perm.refused_alteration");
      return true;
    }
    const desc = text.replace(/[.!]+$/, "").slice(0, 160);
    this.s.perm.summary = `Alteration: ${desc}`;
    this.s.perm.details = { alteration: desc };
    this.confirmPerm();
    return true;
  }

  private confirmPerm(): void {
    this.setStep("perm.confirm");
    this.enter("perm.confirm", "perm.confirm", { summary: this.s.perm.summary });
  }

  private stepPermConfirm(t: Tenant, low: string): boolean {
    if (isYes(low)) {
      const ref = this.nextRef("PR");
      const p = this.s.perm;
      this.write({ kind: "permission_request", tenancy: t.ref, ref, type: p.type ?? "-", ...p.details });
      if (p.type === "pet" && typeof p.details.animal === "string") t.pets.push(p.details.animal);
      this.clearFlow();
      this.enter("perm.submitted", "perm.submitted", { ref });
      return true;
    }
    if (isNo(low)) {
      this.abort();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("perm.confirm", "perm.confirm_again"));
  }

  // ---- notice ------------------------------------------------------------------------------------------

  private startNotice(t: Tenant, low: string): void {
    if (t.tenancyType === "starter" && t.fixedTermEnds && fromIso(t.fixedTermEnds) > TODAY_N) {
      this.enter("notice.refused_fixed_term", "notice.refused_fixed_term", {
        until: fmtLong(fromIso(t.fixedTermEnds)),
      });
      return;
    }
    this.s.notice = { date: null, forwarding: null };
    this.setStep("notice.date");
    const d = /\d/.test(low) ? parseDate(low, true) : null;
    if (typeof d === "number") {
      this.takeNoticeDate(t, d);
      return;
    }
    this.enter("notice.ask_date", "notice.ask_date");
  }

  private earliestNotice(): number {
    let d = TODAY_N + NOTICE_MIN_DAYS;
    while (weekday(d) !== 1) d++;
    return d;
  }

  private takeNoticeDate(t: Tenant, d: number): void {
    if (d < TODAY_N + NOTICE_MIN_DAYS) {
      this.setStep("notice.date");
      this.enter("notice.refused_period", "notice.refused_period", {
        earliest: fmtLong(this.earliestNotice()),
      });
      return;
    }
    if (weekday(d) !== 1 && !this.fault("notice_ignore_weekday")) {
      this.setStep("notice.date");
      this.enter("notice.refused_weekday", "notice.refused_weekday", {
        date: fmtLong(d).replace(/^\w+ /, ""),
        weekday: WEEKDAYS[weekday(d)] ?? "",
      });
      return;
    }
    this.s.notice.date = d;
    if (this.s.notice.forwarding) {
      this.confirmNotice(t);
      return;
    }
    this.setStep("notice.forwarding");
    this.enter("notice.ask_forwarding", "notice.ask_forwarding", { date: fmtLong(d) });
  }

  private stepNoticeDate(t: Tenant, low: string): boolean {
    const d = parseDate(low, true);
    if (d === null)
      return this.missOrSwitch(low, () => this.miss("notice.date_invalid", "notice.date_invalid"));
    if (d === "bad") {
      this.miss("notice.date_invalid", "notice.date_invalid");
      return true;
    }
    this.takeNoticeDate(t, d);
    return true;
  }

  private stepNoticeForwarding(t: Tenant, text: string, low: string): boolean {
    const postcode = /\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b/i.test(text);
    if (!postcode || text.length < 10)
      return this.missOrSwitch(low, () => this.miss("notice.ask_forwarding", "notice.forwarding_again"));
    this.s.notice.forwarding = text
      .replace(
        /^(it'?s|it is|my (new |forwarding )?address (is|will be)|forwarding address( is)?:?|to)\s+/i,
        "",
      )
      .replace(/[.!]+$/, "");
    this.confirmNotice(t);
    return true;
  }

  private confirmNotice(t: Tenant): void {
    const n = this.s.notice;
    const date = fmtLong(n.date ?? TODAY_N);
    this.setStep("notice.confirm");
    this.enter("notice.confirm", "notice.confirm", {
      ref: t.ref,
      address: t.address,
      date,
      forwarding: n.forwarding ?? "-",
      warning: this.fault("notice_drop_warning") ? "" : this.phrase("notice.warning", { date }),
    });
  }

  private stepNoticeConfirm(t: Tenant, low: string): boolean {
    const n = this.s.notice;
    if (bare(low) === "end my tenancy") {
      const ref = this.nextRef("NT");
      const d = n.date ?? TODAY_N;
      this.write({
        kind: "notice",
        tenancy: t.ref,
        ref,
        end_date: isoOf(d),
        forwarding: n.forwarding ?? "-",
      });
      this.clearFlow();
      this.enter("notice.submitted", "notice.submitted", { ref, date: fmtLong(d) });
      return true;
    }
    const d = /\d/.test(low) || weekdayIn(low) !== null ? parseDate(low, true) : null;
    if (typeof d === "number" && d !== n.date) {
      this.takeNoticeDate(t, d);
      return true;
    }
    if (isNo(low)) {
      this.abort();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("notice.confirm", "notice.confirm_again"));
  }

  // ---- contact details ---------------------------------------------------------------------------------

  private showContact(t: Tenant): void {
    this.relay(`contact ${t.ref} ${t.mobile} ${t.email}`);
    this.enter("contact.show", "contact.show", { mobile: t.mobile, email: t.email, address: t.address });
  }

  private parseField(low: string): ContactField | null {
    const mob = /\b(mobile|phone|number|cell|telephone|tel)\b/.test(low);
    const em = /\b(e-?mail|email address)\b/.test(low);
    if (/\bboth\b/.test(low) || (mob && em)) return "both";
    if (mob) return "mobile";
    if (em) return "email";
    return null;
  }

  private startContactUpdate(text: string, low: string): void {
    const field = this.parseField(low);
    const mobile = parseMobile(text);
    const email = parseEmail(text);
    this.s.contact = {
      field,
      mobile: typeof mobile === "string" && mobile !== "bad" ? mobile : null,
      email: typeof email === "string" && email !== "bad" ? email : null,
    };
    this.setStep("contact.reverify");
    this.enter("contact.reverify", "contact.reverify");
  }

  private stepContactReverify(t: Tenant, low: string): boolean {
    const d = parseDate(low, false);
    if (d === null)
      return this.missOrSwitch(low, () => this.miss("contact.reverify", "contact.reverify_again"));
    if (d === "bad") {
      this.miss("contact.reverify", "contact.reverify_again");
      return true;
    }
    if (isoOf(d) !== t.dob) {
      this.s.authFails++;
      if (this.s.authFails >= 3 && !this.fault("auth_no_lockout")) {
        this.s.locked = true;
        this.s.tenant = null;
        this.write({ kind: "signin_locked", attempts: this.s.authFails });
        this.clearFlow();
        this.enter("contact.reverify_failed", null);
        this.enter("auth.locked", "auth.locked");
        return true;
      }
      this.miss("contact.reverify_failed", "contact.reverify_failed");
      return true;
    }
    if (this.s.contact.field) this.askContactValue();
    else {
      this.setStep("contact.field");
      this.enter("contact.ask_field", "contact.ask_field");
    }
    return true;
  }

  private stepContactField(_t: Tenant, low: string): boolean {
    const pick = low.match(/^\s*[[(]?([123])[\])]?(?:\W|$)/)?.[1];
    const field: ContactField | null =
      pick === "1" ? "mobile" : pick === "2" ? "email" : pick === "3" ? "both" : this.parseField(low);
    if (!field) return this.missOrSwitch(low, () => this.miss("contact.ask_field", "contact.field_again"));
    this.s.contact.field = field;
    this.askContactValue();
    return true;
  }

  private needs(): { mobile: boolean; email: boolean } {
    const f = this.s.contact.field;
    return { mobile: f === "mobile" || f === "both", email: f === "email" || f === "both" };
  }

  private askContactValue(): void {
    const c = this.s.contact;
    const need = this.needs();
    if ((!need.mobile || c.mobile) && (!need.email || c.email)) {
      this.readback();
      return;
    }
    this.setStep("contact.value");
    const key =
      need.mobile && need.email && (c.mobile || c.email)
        ? c.mobile
          ? "email"
          : "mobile"
        : (c.field ?? "both");
    this.enter("contact.ask_value", `contact.ask_value.${key}`);
  }

  private takeContactValues(text: string): string | null {
    const c = this.s.contact;
    const need = this.needs();
    const mobile = need.mobile ? parseMobile(text) : null;
    const email = need.email ? parseEmail(text) : null;
    if (mobile === "bad") return "a UK mobile number starts 07 and has 11 digits";
    if (email === "bad") return "that email address isn't complete (it needs a name, @ and a domain)";
    if (mobile) c.mobile = mobile;
    if (email) c.email = email;
    return null;
  }

  private stepContactValue(_t: Tenant, text: string, low: string): boolean {
    const before = `${this.s.contact.mobile}|${this.s.contact.email}`;
    const why = this.takeContactValues(text);
    if (why) {
      this.miss("contact.value_invalid", "contact.value_invalid", { why });
      return true;
    }
    if (before === `${this.s.contact.mobile}|${this.s.contact.email}`) {
      const need = this.needs();
      const what =
        need.mobile && !this.s.contact.mobile
          ? "I need a mobile number starting 07"
          : "I need an email address";
      return this.missOrSwitch(low, () =>
        this.miss("contact.value_invalid", "contact.value_invalid", { why: what }),
      );
    }
    this.askContactValue();
    return true;
  }

  private contactLines(mobile: string | null, email: string | null): string {
    const need = this.needs();
    const lines: string[] = [];
    if (need.mobile) lines.push(`- Mobile: ${mobile ?? "-"}`);
    if (need.email) lines.push(`- Email: ${email ?? "-"}`);
    return lines.join("\n");
  }

  private readback(): void {
    this.setStep("contact.readback");
    this.enter("contact.readback", "contact.readback", {
      list: this.contactLines(this.s.contact.mobile, this.s.contact.email),
    });
  }

  private mangle(field: "mobile" | "email", v: string): string {
    if (field === "mobile") {
      const a = v.slice(-2, -1);
      const b = v.slice(-1);
      return a !== b ? `${v.slice(0, -2)}${b}${a}` : `${v.slice(0, -1)}${(Number(b) + 1) % 10}`;
    }
    return v.endsWith(".com") ? `${v.slice(0, -4)}.co` : v.replace(/\.[a-z]+$/, ".com");
  }

  private stepContactReadback(t: Tenant, text: string, low: string): boolean {
    const before = `${this.s.contact.mobile}|${this.s.contact.email}`;
    if (!isYes(low)) {
      const why = this.takeContactValues(text);
      if (why) {
        this.miss("contact.value_invalid", "contact.value_invalid", { why });
        return true;
      }
      if (before !== `${this.s.contact.mobile}|${this.s.contact.email}`) {
        this.readback();
        return true;
      }
    }
    if (isYes(low)) {
      const c = this.s.contact;
      const need = this.needs();
      const wrong = this.fault("contact_write_different");
      const mobile = need.mobile && c.mobile ? (wrong ? this.mangle("mobile", c.mobile) : c.mobile) : null;
      const email = need.email && c.email ? (wrong ? this.mangle("email", c.email) : c.email) : null;
      if (mobile) {
        t.mobile = mobile;
        this.write({ kind: "contact_update", tenancy: t.ref, field: "mobile", value: mobile });
      }
      if (email) {
        t.email = email;
        this.write({ kind: "contact_update", tenancy: t.ref, field: "email", value: email });
      }
      this.clearFlow();
      this.enter("contact.updated", "contact.updated", { list: this.contactLines(mobile, email) });
      return true;
    }
    if (isNo(low)) {
      const c = this.s.contact;
      const need = this.needs();
      if (need.mobile) c.mobile = null;
      if (need.email) c.email = null;
      this.askContactValue();
      return true;
    }
    return this.missOrSwitch(low, () => this.miss("contact.readback", "contact.readback_again"));
  }

  // ---- complaints --------------------------------------------------------------------------------------

  private stepComplaint(t: Tenant, text: string, low: string): boolean {
    const words = low.split(/\s+/).filter((w) => /[a-z]/.test(w));
    if (words.length < 3)
      return this.missOrSwitch(low, () => this.miss("complaint.ask_summary", "complaint.summary_again"));
    const ref = this.nextRef("CMP");
    this.write({ kind: "complaint", tenancy: t.ref, ref, summary: text.slice(0, 200) });
    this.handoff("complaint", ref);
    return true;
  }
}

export const heldout16Agent: TestbedAgent = {
  name: "heldout16",
  description:
    "Housing-association tenant-services bot (Kestrel Vale Homes): open hours/emergency/payment-method/pet-policy info; sign-in by tenancy reference then surname + date of birth with lockout after 3 failures; repairs (room, numbered problem type, yes/no emergency triage, two-part access question, lettered slots, yes/no booking with day corrections), appointments (numbered pick, 24-hour rule, typed CANCEL), rent balance/statement, card payments (£1–£1,500, card on file vs new card + expiry, yes/no), arrears payment plans (eligibility, instalment bounds, Monday start, typed I AGREE), permissions (pet/lodger/alteration with policy refusals), notice (≥4 weeks, Monday, typed END MY TENANCY), contact update (DOB re-check, read-back), complaints and hand-off to a person.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    return new KestrelTarget(options?.faults ?? [], options?.seed ?? 1);
  },
};
