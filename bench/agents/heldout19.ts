/**
 * `heldout19`: "Pip", the in-app support chat of Loop (city bike, e-bike and e-scooter share). Rule-based:
 * regex NLU plus a small dialogue state machine. Public answers need no sign-in; account work needs a phone
 * number then a texted one-time code (lock-out and hand-off after 3 wrong codes), and card changes or account
 * closure need a date-of-birth re-check. Gates: yes/no read-backs, typed phrases (CANCEL PASS, CLOSE MY
 * ACCOUNT), numbered/lettered lists, and re-entering the card's last four digits.
 */
import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  APPEAL_GROUNDS,
  type Customer,
  DAMAGE_PROBLEMS,
  DISPUTE_REASONS,
  FACTS,
  type Fine,
  KIND_LABEL,
  LIMITS,
  PRICES,
  type Ride,
  seedWorld,
  TODAY,
  type Vehicle,
  W,
  type World,
} from "./heldout19-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

export const FAULTS = [
  "fines_no_auth",
  "no_lockout",
  "ride_other_customer",
  "topup_ignore_limit",
  "close_skip_reverify",
  "pass_cancel_no_phrase",
  "dispute_no_confirm",
  "fine_deadline_ignored",
  "breakdown_wrong_total",
  "dispute_refund_wrong",
  "pass_refund_wrong",
  "topup_forget_correction",
  "pass_wrong_type",
  "card_saved_wrong",
  "fine_status_wrong",
  "balance_wrong",
  "ride_vehicle_wrong",
] as const;

export const STATES = [
  "session.greet",
  "session.menu",
  "session.fallback",
  "session.thanks",
  "session.goodbye",
  "handoff.transfer",
  "info.pricing",
  "info.parking",
  "info.end_ride",
  "info.age",
  "info.pass_prices",
  "info.support_hours",
  "info.fines_policy",
  "auth.ask_phone",
  "auth.phone_unknown",
  "auth.account_closed",
  "auth.ask_code",
  "auth.code_resent",
  "auth.code_wrong",
  "auth.locked",
  "auth.signed_in",
  "auth.already_signed_in",
  "auth.signed_out",
  "auth.ask_dob",
  "auth.dob_wrong",
  "auth.reverify_failed",
  "auth.reverified",
  "rides.list",
  "rides.ask_ride",
  "rides.breakdown",
  "rides.not_found",
  "rides.refused_not_yours",
  "dispute.ask_ride",
  "dispute.not_found",
  "dispute.refused_not_yours",
  "dispute.refused_too_old",
  "dispute.refused_already_disputed",
  "dispute.ask_reason",
  "dispute.ask_minutes",
  "dispute.refused_bad_minutes",
  "dispute.refused_no_zone_fee",
  "dispute.confirm",
  "dispute.done",
  "dispute.cancelled",
  "wallet.balance",
  "topup.ask_amount",
  "topup.refused_too_small",
  "topup.refused_over_limit",
  "topup.refused_balance_cap",
  "topup.refused_card_expired",
  "topup.confirm",
  "topup.done",
  "topup.cancelled",
  "pass.status",
  "pass.choose",
  "pass.refused_insufficient_funds",
  "pass.refused_already_active",
  "pass.confirm",
  "pass.done",
  "pass.cancelled",
  "pass_cancel.refused_no_pass",
  "pass_cancel.refused_day_pass",
  "pass_cancel.refused_window",
  "pass_cancel.confirm",
  "pass_cancel.done",
  "pass_cancel.kept",
  "fines.list",
  "fines.ask_fine",
  "fines.not_found",
  "fines.refused_not_yours",
  "fines.refused_not_open",
  "fines.refused_already_appealed",
  "fines.refused_deadline",
  "fines.ask_grounds",
  "fines.confirm",
  "fines.done",
  "fines.cancelled",
  "damage.ask_vehicle",
  "damage.vehicle_unknown",
  "damage.already_reported",
  "damage.ask_safety",
  "damage.urgent_handoff",
  "damage.ask_problem",
  "damage.confirm",
  "damage.done",
  "damage.cancelled",
  "card.on_file",
  "card.ask_number",
  "card.invalid_number",
  "card.ask_expiry",
  "card.refused_expired",
  "card.reenter",
  "card.mismatch",
  "card.done",
  "card.cancelled",
  "close.refused_open_fines",
  "close.refused_negative_balance",
  "close.confirm",
  "close.done",
  "close.cancelled",
] as const;

type StateId = (typeof STATES)[number];
const STATE_SET: ReadonlySet<string> = new Set(STATES);

type IntentKind =
  | "greet"
  | "help"
  | "thanks"
  | "bye"
  | "info_pricing"
  | "info_parking"
  | "info_end"
  | "info_age"
  | "info_pass"
  | "info_hours"
  | "info_fines"
  | "sign_in"
  | "sign_out"
  | "rides_list"
  | "ride_breakdown"
  | "dispute"
  | "balance"
  | "topup"
  | "pass_status"
  | "pass_buy"
  | "pass_cancel"
  | "fines_list"
  | "fine_appeal"
  | "damage"
  | "card_show"
  | "card_change"
  | "close"
  | "unknown";

interface Intent {
  kind: IntentKind;
  rideId?: string;
  fineId?: string;
  vehicle?: string;
  amount?: number;
  passType?: "day" | "month";
  phone?: string;
}

const PROTECTED: ReadonlySet<IntentKind> = new Set<IntentKind>([
  "rides_list",
  "ride_breakdown",
  "dispute",
  "balance",
  "topup",
  "pass_status",
  "pass_buy",
  "pass_cancel",
  "fines_list",
  "fine_appeal",
  "damage",
  "card_show",
  "card_change",
  "close",
]);

// ---------------------------------------------------------------- parsing helpers

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
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function wordNumber(t: string): number | undefined {
  const m = t.match(
    /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:[\s-]+(one|two|three|four|five|six|seven|eight|nine))?\b/,
  );
  if (!m) return undefined;
  const a = NUM_WORDS[m[1] ?? ""] ?? 0;
  const b = m[2] ? (NUM_WORDS[m[2]] ?? 0) : 0;
  return a >= 20 && a < 100 ? a + b : a;
}

/** Strips record ids so their digits never read as amounts. */
function stripIds(t: string): string {
  return t.replace(/\b(r|pf|sc|bk|eb)[- ]?\d{3,5}\b/gi, " ");
}

/** A money amount in cents, or undefined. */
function parseMoney(t: string): number | undefined {
  const s = stripIds(t);
  const m = s.match(/(-?\d{1,6}(?:[.,]\d{1,2})?)/);
  if (m?.[1]) {
    const v = Number.parseFloat(m[1].replace(",", "."));
    if (Number.isFinite(v)) return Math.round(v * 100);
  }
  const w = wordNumber(s.toLowerCase());
  return w === undefined ? undefined : w * 100;
}

function parseInteger(t: string): number | undefined {
  const s = stripIds(t);
  const m = s.match(/-?\d{1,6}/);
  if (m) return Number.parseInt(m[0], 10);
  return wordNumber(s.toLowerCase());
}

function parseRideId(t: string): string | undefined {
  const m = t.match(/\br[- ]?(\d{4})\b/i);
  return m ? `R-${m[1]}` : undefined;
}

function parseFineId(t: string): string | undefined {
  const m = t.match(/\bpf[- ]?(\d{4})\b/i);
  return m ? `PF-${m[1]}` : undefined;
}

function parseVehicle(t: string): string | undefined {
  const m = t.match(/\b(sc|bk|eb)[- ]?(\d{3,5})\b/i);
  return m ? `${(m[1] ?? "").toUpperCase()}-${m[2]}` : undefined;
}

function parsePhone(t: string): string | undefined {
  const cand = t.match(/\+?\d[\d\s().-]{8,}\d/);
  if (!cand) return undefined;
  let d = cand[0].replace(/\D/g, "");
  if (d.startsWith("44") && d.length === 12) d = `0${d.slice(2)}`;
  if (d.length === 10 && d.startsWith("7")) d = `0${d}`;
  return d.length >= 10 && d.length <= 13 ? d : undefined;
}

function parseCode(t: string): string | undefined {
  const m = t.replace(/(\d)[\s-](?=\d)/g, "$1").match(/\b\d{4,8}\b/);
  return m ? m[0] : undefined;
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

function validDate(y: number, m: number, d: number): string | undefined {
  if (y < 1900 || y > 2030 || m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

function monthIndex(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}

/** A date of birth in any common shape, as ISO. */
function parseDate(t: string): string | undefined {
  let m = t.match(/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = t.match(/\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b/);
  if (m) return validDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = t.match(/\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?,?\s+(\d{4})\b/i);
  if (m && monthIndex(m[2] ?? "") > 0) return validDate(Number(m[3]), monthIndex(m[2] ?? ""), Number(m[1]));
  m = t.match(/\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/i);
  if (m && monthIndex(m[1] ?? "") > 0) return validDate(Number(m[3]), monthIndex(m[1] ?? ""), Number(m[2]));
  return undefined;
}

/** A card expiry as MM/YY. */
function parseExpiry(t: string): string | undefined {
  let m = t.match(/\b(\d{1,2})\s*[/-]\s*(\d{4}|\d{2})\b/);
  let month = 0;
  let year = 0;
  if (m) {
    month = Number(m[1]);
    year = Number(m[2]);
  } else {
    m = t.match(/\b([a-z]{3,9})\.?\s+(\d{4}|\d{2})\b/i);
    if (!m || monthIndex(m[1] ?? "") <= 0) return undefined;
    month = monthIndex(m[1] ?? "");
    year = Number(m[2]);
  }
  if (year >= 2000) year -= 2000;
  if (month < 1 || month > 12 || year < 0 || year > 99) return undefined;
  return `${pad2(month)}/${pad2(year)}`;
}

function expired(mmyy: string): boolean {
  const [mm, yy] = mmyy.split("/").map(Number);
  const [ty, tm] = TODAY.split("-").map(Number);
  const y = 2000 + (yy ?? 0);
  return y < (ty ?? 0) || (y === ty && (mm ?? 0) < (tm ?? 0));
}

function luhn(d: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = d.charCodeAt(i) - 48;
    if (dbl) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

function cardBrand(d: string): string {
  if (d.startsWith("4")) return "Visa";
  if (/^5[1-5]/.test(d) || /^2[2-7]/.test(d)) return "Mastercard";
  if (/^3[47]/.test(d)) return "Amex";
  return "card";
}

const YES =
  /^(y|ya|yes|yeah|yep|yup|sure|ok|okay|go ahead|go for it|do it|confirm(ed)?|please do|correct|that'?s right|right|sounds good|absolutely|definitely|of course|affirmative|please)\b/;
const NO = /^(n|no|nope|nah|don'?t|do not|not really|negative|wait|hold on)\b/;

function yesNo(t: string): "yes" | "no" | undefined {
  const s = t.replace(/^(um+|uh+|well|hmm+|oh)[,\s]+/, "").trim();
  if (NO.test(s)) return "no";
  if (YES.test(s)) return "yes";
  return undefined;
}

function isAbort(t: string): boolean {
  return (
    /\b(never ?mind|forget (it|that|about it)|abort|quit|stop this|start over|scrap (it|that))\b/.test(t) ||
    /^(cancel|cancel (that|this|it)|stop|exit)[.!]*$/.test(t)
  );
}

function isHandoff(t: string): boolean {
  return /\b(human|real person|a person|someone real|live agent|agent|operator|representative|customer service|speak to someone|talk to someone|call me)\b/.test(
    t,
  );
}

function detectIntent(t: string): Intent {
  const rideId = parseRideId(t);
  const fineId = parseFineId(t);
  const vehicle = parseVehicle(t);
  const base = { rideId, fineId, vehicle };
  const greeting = /^(hi|hello|hey|hiya|howdy|heya|good (morning|afternoon|evening)|yo)\b/.test(t);
  if (greeting && t.length < 25) return { kind: "greet" };
  if (/\b(sign|log)\s?-?(out|off)\b|\blogout\b/.test(t)) return { kind: "sign_out" };
  if (
    /\b(close|delete|deactivate|cancel|shut|terminate|remove|end)\b.*\baccount\b/.test(t) ||
    /\baccount\b.*\b(closed|deleted|close|delete)\b/.test(t)
  )
    return { kind: "close" };
  if (fineId || /\b(fines?|penalt(y|ies)|ticket|parking charge notice)\b/.test(t)) {
    if (!fineId && !/\bmy\b/.test(t) && /\b(how|what happens|policy|work|rules?|why)\b/.test(t))
      return { kind: "info_fines" };
    if (fineId || /\b(appeal|contest|dispute|challenge|unfair|wrong|not fair|object)\b/.test(t))
      return { kind: "fine_appeal", ...base };
    return { kind: "fines_list" };
  }
  if (/\bcards?\b|payment (method|details)|pay with/.test(t)) {
    if (/\b(change|update|new|replace|swap|add|different|expired|another)\b/.test(t))
      return { kind: "card_change" };
    if (!/\b(top|buy)\b/.test(t)) return { kind: "card_show" };
  }
  if (/\bpass(es)?\b/.test(t)) {
    const passType = /\bday\b/.test(t) ? "day" : /\bmonth(ly)?\b/.test(t) ? "month" : undefined;
    if (/\b(cancel|refund|stop|get rid|don'?t want|unsubscribe)\b/.test(t)) return { kind: "pass_cancel" };
    if (/\b(buy|get|purchase|want|need|grab|order)\b/.test(t)) return { kind: "pass_buy", passType };
    if (
      !/\bmy\b/.test(t) &&
      /\b(price|cost|how much|options|types?|what (is|are)|which|do you (have|sell))\b/.test(t)
    )
      return { kind: "info_pass" };
    return { kind: "pass_status" };
  }
  if (
    /\b(dispute|overcharg\w*|charged|refund|challenge|wrong(ly)? charge\w*)\b/.test(t) ||
    /\b(wouldn'?t|didn'?t|won'?t|did not|would not|couldn'?t|could not)\s+(end|lock|stop|finish)\b/.test(t) ||
    /\b(kept|still|keeps)\s+(running|charging|going)\b/.test(t)
  )
    return { kind: "dispute", ...base };
  if (
    /\btop\s?-?up\b|\btopup\b|\badd\b.*\b(money|funds|credit|€|euros?|\d+)|\b(load|put)\b.*\b(wallet|money)\b/.test(
      t,
    )
  )
    return { kind: "topup", amount: parseMoney(t) };
  if (/\b(balance|wallet|credit|how much (money )?do i have)\b/.test(t)) return { kind: "balance" };
  if (
    vehicle ||
    /\b(damaged?|broken|report(ing)?|faulty|vandali[sz]ed|flat tyre|flat tire|brakes?|snapped|not working|doesn'?t work|wrecked)\b/.test(
      t,
    )
  )
    return { kind: "damage", ...base };
  if (
    rideId ||
    /\b(my rides?|ride history|rides|trips?|history|journeys?|receipts?|breakdown|last ride)\b/.test(t)
  ) {
    if (rideId || /\b(breakdown|receipt|cost of|how much was|last ride)\b/.test(t))
      return {
        kind: "ride_breakdown",
        ...base,
        rideId: rideId ?? (/last ride/.test(t) ? "last" : undefined),
      };
    return { kind: "rides_list" };
  }
  if (
    /\b(end|finish|lock|stop|park)\w*\b.*\b(ride|trip)\b|how (do|to|can) (i )?(end|finish|stop|lock)/.test(t)
  )
    return { kind: "info_end" };
  if (/\b(park|parking|zones?|where can i (leave|put|drop))\b/.test(t)) return { kind: "info_parking" };
  if (/\b(price|prices|pricing|cost|costs|how much|rates?|per minute|unlock fee|fees?|tariffs?)\b/.test(t))
    return { kind: "info_pricing" };
  if (/\b(age|how old|minimum|under ?1[68]|kids?|children|teen\w*|licen[cs]e|old enough)\b/.test(t))
    return { kind: "info_age" };
  if (/\b(hours|open|opening|available|when can i (reach|contact|call))\b/.test(t))
    return { kind: "info_hours" };
  const phone = parsePhone(t);
  if (/\b(sign|log)\s?-?in\b|\blogin\b|\bverify me\b/.test(t)) return { kind: "sign_in", phone };
  if (/\b(help|menu|options|what can you|what do you do)\b/.test(t)) return { kind: "help" };
  if (/\b(thanks|thank you|cheers|ta|thx|ty)\b/.test(t)) return { kind: "thanks" };
  if (/\b(bye|goodbye|that'?s all|see ya|cya|all done)\b/.test(t)) return { kind: "bye" };
  if (greeting) return { kind: "greet" };
  return { kind: "unknown" };
}

// ---------------------------------------------------------------- formatting

function money(c: number): string {
  return c < 0 ? `-€${(-c / 100).toFixed(2)}` : `€${(c / 100).toFixed(2)}`;
}

function dayNum(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return Math.floor(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / 86400000);
}

function addDays(iso: string, n: number): string {
  return new Date((dayNum(iso) + n) * 86400000).toISOString().slice(0, 10);
}

function shortDate(iso: string): string {
  const [, m, d] = iso.split("-").map(Number);
  const mon = MONTHS[(m ?? 1) - 1] ?? "";
  return `${d} ${mon.charAt(0).toUpperCase()}${mon.slice(1)}`;
}

function hashKey(k: string): number {
  let h = 7;
  for (let i = 0; i < k.length; i++) h = (h * 31 + k.charCodeAt(i)) >>> 0;
  return h;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------------- the bot

interface Ctx {
  phoneCust?: string;
  codeTries: number;
  dobTries: number;
  rideId?: string;
  reason?: "a" | "b" | "c";
  actual?: number;
  refund?: number;
  amount?: number;
  confirmedAmount?: number;
  passType?: "day" | "month";
  passRefund?: number;
  passUsed?: number;
  fineId?: string;
  grounds?: number;
  vehicle?: string;
  problem?: keyof typeof DAMAGE_PROBLEMS;
  cardDigits?: string;
  cardExpiry?: string;
  mismatches: number;
}

interface Session {
  world: World;
  user: string | null;
  reverified: boolean;
  locked: Set<string>;
  await: StateId | null;
  ctx: Ctx;
  pending: Intent | null;
  visited: StateId[];
  fp: string[];
  refs: number;
}

function freshSession(): Session {
  return {
    world: seedWorld(),
    user: null,
    reverified: false,
    locked: new Set(),
    await: null,
    ctx: { codeTries: 0, dobTries: 0, mismatches: 0 },
    pending: null,
    visited: [],
    fp: [],
    refs: 0,
  };
}

class LoopBot implements TestbedTarget {
  readonly name = "heldout19";
  private s: Session = freshSession();
  private readonly f: ReadonlySet<string>;
  private readonly seed: number;

  constructor(faults: readonly string[], seed: number) {
    this.f = new Set(faults);
    this.seed = Number.isFinite(seed) ? Math.abs(Math.floor(seed)) : 1;
  }

  async reset(): Promise<void> {
    this.s = freshSession();
  }

  async send(text: string): Promise<ChatReply> {
    const t0 = Date.now();
    let out: string;
    try {
      out = this.turn(typeof text === "string" ? text : String(text ?? ""));
    } catch {
      this.s.await = null;
      this.enter("session.fallback");
      out = this.say("fallback");
    }
    return { text: out, ms: Date.now() - t0 };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.s.visited];
  }

  fingerprint(): string {
    return this.s.fp.join("|");
  }

  // ------------------------------------------------------------ plumbing

  private on(fault: string): boolean {
    return this.f.has(fault);
  }

  private enter(id: StateId): void {
    if (STATE_SET.has(id)) this.s.visited.push(id);
  }

  private say(key: string, vars: Record<string, string | number> = {}): string {
    const opts = W[key] ?? [key];
    const pick = opts[(this.seed - 1 + hashKey(key)) % opts.length] ?? opts[0] ?? "";
    return pick.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
  }

  private log(entry: string): void {
    this.s.fp.push(entry);
  }

  private ref(prefix: string): string {
    this.s.refs += 1;
    return `${prefix}-${4820 + this.s.refs * 7}`;
  }

  private me(): Customer | undefined {
    return this.s.world.customers.find((c) => c.id === this.s.user);
  }

  private ride(id: string): Ride | undefined {
    return this.s.world.rides.find((r) => r.id === id);
  }

  private fine(id: string): Fine | undefined {
    return this.s.world.fines.find((f) => f.id === id);
  }

  private vehicle(code: string): Vehicle | undefined {
    return this.s.world.vehicles.find((v) => v.code === code);
  }

  private clearFlow(): void {
    this.s.await = null;
    this.s.pending = null;
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
  }

  private wait(id: StateId): void {
    this.s.await = id;
  }

  // ------------------------------------------------------------ turn

  private turn(raw: string): string {
    const text = raw.replace(/\s+/g, " ").trim().slice(0, 2000);
    const t = text.toLowerCase();
    if (!t) {
      this.enter("session.fallback");
      return this.say("empty");
    }
    if (isHandoff(t)) {
      this.clearFlow();
      this.enter("handoff.transfer");
      this.log("handoff");
      return this.say("handoff");
    }
    const w = this.s.await;
    if (w) {
      if (isAbort(t)) return this.abort(w);
      const r = this.step(w, text, t);
      if (r !== null) return r;
      const intent = detectIntent(t);
      if (intent.kind !== "unknown" && intent.kind !== "greet") {
        this.clearFlow();
        return this.dispatch(intent, t);
      }
      return `${this.say("reprompt")} ${this.ask(w)}`;
    }
    return this.dispatch(detectIntent(t), t);
  }

  private abort(w: StateId): string {
    const flow = w.split(".")[0];
    const map: Record<string, [StateId, string]> = {
      dispute: ["dispute.cancelled", "dispute_cancelled"],
      topup: ["topup.cancelled", "topup_cancelled"],
      pass: ["pass.cancelled", "pass_cancelled"],
      pass_cancel: ["pass_cancel.kept", "pcancel_kept"],
      fines: ["fines.cancelled", "fines_cancelled"],
      damage: ["damage.cancelled", "damage_cancelled"],
      card: ["card.cancelled", "card_cancelled"],
      close: ["close.cancelled", "close_cancelled"],
    };
    let target = map[flow ?? ""];
    if (w === "auth.ask_dob" && this.s.pending) {
      target = this.s.pending.kind === "close" ? map.close : map.card;
    }
    this.clearFlow();
    if (target) {
      this.enter(target[0]);
      return this.say(target[1]);
    }
    this.enter("session.menu");
    return this.say("nevermind");
  }

  /** The question or read-back for a waiting state (used on first ask and on re-prompts). */
  private ask(w: StateId): string {
    const c = this.s.ctx;
    const me = this.me();
    this.enter(w);
    switch (w) {
      case "auth.ask_phone":
        return this.say("auth_ask_phone");
      case "auth.ask_code": {
        const cust = this.s.world.customers.find((x) => x.id === c.phoneCust);
        return this.say("auth_ask_code", { last4: cust?.phone.slice(-4) ?? "" });
      }
      case "auth.ask_dob":
        return this.say("auth_ask_dob");
      case "rides.ask_ride":
        return this.say("rides_ask");
      case "dispute.ask_ride":
        return this.say("dispute_ask_ride");
      case "dispute.ask_reason":
        return this.say("dispute_ask_reason", { id: c.rideId ?? "", ...DISPUTE_REASONS });
      case "dispute.ask_minutes":
        return this.say("dispute_ask_minutes", { minutes: this.ride(c.rideId ?? "")?.minutes ?? 0 });
      case "dispute.confirm":
        return this.disputeReadback();
      case "topup.ask_amount":
        return this.say("topup_ask");
      case "topup.confirm": {
        const amt = c.amount ?? 0;
        return this.say("topup_confirm", {
          amount: money(amt),
          brand: me?.card.brand ?? "",
          last4: me?.card.last4 ?? "",
          after: money((me?.walletCents ?? 0) + amt),
        });
      }
      case "pass.choose":
        return this.say("pass_choose");
      case "pass.confirm": {
        const type = c.passType ?? "day";
        const price = type === "day" ? PRICES.dayPass : PRICES.monthPass;
        return this.say("pass_confirm", {
          type,
          Type: cap(type),
          price: money(price),
          after: money((me?.walletCents ?? 0) - price),
          expires: shortDate(type === "day" ? TODAY : addDays(TODAY, 30)),
        });
      }
      case "pass_cancel.confirm":
        return this.say("pcancel_confirm", {
          used: c.passUsed ?? 0,
          refund: money(c.passRefund ?? 0),
          fee: money(PRICES.passCancelFee),
        });
      case "fines.ask_fine":
        return this.say("fines_ask");
      case "fines.ask_grounds":
        return this.say("fines_ask_grounds", {
          id: c.fineId ?? "",
          g1: APPEAL_GROUNDS[0] ?? "",
          g2: APPEAL_GROUNDS[1] ?? "",
          g3: APPEAL_GROUNDS[2] ?? "",
          g4: APPEAL_GROUNDS[3] ?? "",
        });
      case "fines.confirm": {
        const fine = this.fine(c.fineId ?? "");
        return this.say("fines_confirm", {
          id: c.fineId ?? "",
          amount: money(fine?.cents ?? 0),
          place: fine?.place ?? "",
          ground: APPEAL_GROUNDS[(c.grounds ?? 1) - 1] ?? "",
        });
      }
      case "damage.ask_vehicle":
        return this.say("damage_ask_vehicle");
      case "damage.ask_safety":
        return this.say("damage_ask_safety");
      case "damage.ask_problem":
        return this.say("damage_ask_problem", { code: c.vehicle ?? "", ...DAMAGE_PROBLEMS });
      case "damage.confirm":
        return this.say("damage_confirm", {
          code: c.vehicle ?? "",
          problem: DAMAGE_PROBLEMS[c.problem ?? "e"],
        });
      case "card.ask_number":
        return this.say("card_ask_number");
      case "card.ask_expiry":
        return this.say("card_ask_expiry");
      case "card.reenter":
        return this.say("card_reenter");
      case "close.confirm": {
        const pass = me?.pass && me.pass.expires >= TODAY ? me.pass : null;
        return this.say("close_confirm", {
          balance: money(Math.max(0, me?.walletCents ?? 0)),
          last4: me?.card.last4 ?? "",
          passnote: pass ? this.say("close_passnote", { type: pass.type }) : "",
        });
      }
      default:
        return this.say("fallback");
    }
  }

  // ------------------------------------------------------------ dispatch

  private dispatch(intent: Intent, t: string): string {
    switch (intent.kind) {
      case "greet":
        this.enter("session.greet");
        return this.say("greet");
      case "help":
        this.enter("session.menu");
        return this.say("menu");
      case "thanks":
        this.enter("session.thanks");
        return this.say("thanks");
      case "bye":
        this.enter("session.goodbye");
        return this.say("bye");
      case "info_pricing":
        this.enter("info.pricing");
        return this.say("info_pricing");
      case "info_parking":
        this.enter("info.parking");
        return this.say("info_parking");
      case "info_end":
        this.enter("info.end_ride");
        return this.say("info_end_ride");
      case "info_age":
        this.enter("info.age");
        return this.say("info_age");
      case "info_pass":
        this.enter("info.pass_prices");
        return this.say("info_pass_prices");
      case "info_hours":
        this.enter("info.support_hours");
        return this.say("info_hours");
      case "info_fines":
        this.enter("info.fines_policy");
        return this.say("info_fines");
      case "sign_in":
        return this.startAuth(null, intent.phone);
      case "sign_out":
        this.clearFlow();
        if (this.s.user) this.log(`signout:${this.s.user}`);
        this.s.user = null;
        this.s.reverified = false;
        this.enter("auth.signed_out");
        return this.say("auth_signed_out");
      case "unknown":
        this.enter("session.fallback");
        return this.say("fallback");
      default:
        break;
    }
    if (PROTECTED.has(intent.kind) && !this.s.user) {
      if (intent.kind === "fine_appeal" && this.on("fines_no_auth")) return this.run(intent);
      return this.startAuth(intent, parsePhone(t));
    }
    return this.run(intent);
  }

  private run(intent: Intent): string {
    switch (intent.kind) {
      case "rides_list":
        return this.ridesList();
      case "ride_breakdown":
        if (intent.rideId === "last") {
          const mine = this.myRides();
          return this.breakdown(mine[0]?.id ?? "");
        }
        if (intent.rideId) return this.breakdown(intent.rideId);
        this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
        this.wait("rides.ask_ride");
        return this.ask("rides.ask_ride");
      case "dispute":
        this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
        if (intent.rideId) return this.disputeRide(intent.rideId);
        this.wait("dispute.ask_ride");
        return this.ask("dispute.ask_ride");
      case "balance":
        return this.balance();
      case "topup":
        return this.topupStart(intent.amount);
      case "pass_status":
        return this.passStatus();
      case "pass_buy":
        return this.passBuy(intent.passType);
      case "pass_cancel":
        return this.passCancel();
      case "fines_list":
        return this.finesList();
      case "fine_appeal":
        this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
        if (intent.fineId) return this.appealFine(intent.fineId);
        this.wait("fines.ask_fine");
        return this.ask("fines.ask_fine");
      case "damage":
        this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
        if (intent.vehicle) return this.damageVehicle(intent.vehicle);
        this.wait("damage.ask_vehicle");
        return this.ask("damage.ask_vehicle");
      case "card_show":
        return this.cardOnFile();
      case "card_change":
      case "close":
        if (!this.s.reverified && !(intent.kind === "close" && this.on("close_skip_reverify"))) {
          this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
          this.s.pending = intent;
          this.wait("auth.ask_dob");
          return this.ask("auth.ask_dob");
        }
        return intent.kind === "close" ? this.closeStart() : this.cardStart();
      default:
        this.enter("session.fallback");
        return this.say("fallback");
    }
  }

  // ------------------------------------------------------------ steps

  private step(w: StateId, text: string, t: string): string | null {
    const c = this.s.ctx;
    switch (w) {
      case "auth.ask_phone": {
        const phone = parsePhone(text);
        return phone ? this.gotPhone(phone) : null;
      }
      case "auth.ask_code":
        return this.gotCode(t);
      case "auth.ask_dob": {
        const dob = parseDate(text);
        return dob ? this.gotDob(dob) : null;
      }
      case "rides.ask_ride": {
        const id = parseRideId(text);
        if (!id) return null;
        this.s.await = null;
        return this.breakdown(id);
      }
      case "dispute.ask_ride": {
        const id = parseRideId(text);
        return id ? this.disputeRide(id) : null;
      }
      case "dispute.ask_reason": {
        const r = this.pickLetter(t, ["a", "b", "c"], {
          a: /\b(end|lock|running|charging|stop|finish)\b/,
          b: /\b(zone|out-of-zone|parked|parking)\b/,
          c: /\b(faulty|broken|brakes?|battery|flat|damaged|fault)\b/,
        }) as "a" | "b" | "c" | undefined;
        return r ? this.disputeReason(r) : null;
      }
      case "dispute.ask_minutes": {
        const n = parseInteger(text);
        return n === undefined ? null : this.disputeMinutes(n);
      }
      case "dispute.confirm":
        return this.disputeConfirm(text, t);
      case "topup.ask_amount": {
        const amt = parseMoney(text);
        return amt === undefined ? null : this.topupAmount(amt);
      }
      case "topup.confirm":
        return this.topupConfirm(text, t);
      case "pass.choose": {
        const p = this.pickPass(t);
        return p ? this.passChosen(p) : null;
      }
      case "pass.confirm":
        return this.passConfirm(t);
      case "pass_cancel.confirm":
        return this.passCancelConfirm(text, t);
      case "fines.ask_fine": {
        const id = parseFineId(text);
        return id ? this.appealFine(id) : null;
      }
      case "fines.ask_grounds": {
        const g = this.pickGround(t);
        if (!g) return null;
        c.grounds = g;
        this.wait("fines.confirm");
        return this.ask("fines.confirm");
      }
      case "fines.confirm":
        return this.fineConfirm(t);
      case "damage.ask_vehicle": {
        const v = parseVehicle(text);
        return v ? this.damageVehicle(v) : null;
      }
      case "damage.ask_safety":
        return this.damageSafety(t);
      case "damage.ask_problem": {
        const p = this.pickProblem(t);
        if (!p) return null;
        c.problem = p;
        this.wait("damage.confirm");
        return this.ask("damage.confirm");
      }
      case "damage.confirm":
        return this.damageConfirm(t);
      case "card.ask_number":
        return this.cardNumber(text);
      case "card.ask_expiry": {
        const e = parseExpiry(text);
        return e ? this.cardExpiry(e) : null;
      }
      case "card.reenter":
        return this.cardReenter(text, t);
      case "close.confirm":
        return this.closeConfirm(text, t);
      default:
        return null;
    }
  }

  private pickLetter(t: string, letters: string[], kw: Record<string, RegExp>): string | undefined {
    const m =
      t.match(/^\(?([a-e])\)?(?:[.)!,:]|\s+[-:]|$)/) ??
      t.match(/\b(?:option|letter|answer)\s+\(?([a-e])\)?(?:\W|$)/);
    if (m?.[1] && letters.includes(m[1])) return m[1];
    for (const l of letters) if (kw[l]?.test(t)) return l;
    return undefined;
  }

  private pickPass(t: string): "day" | "month" | undefined {
    if (/\bmonth(ly)?\b/.test(t)) return "month";
    if (/\bday\b/.test(t)) return "day";
    if (/^\(?1\)?(\W|$)|\b(one|first)\b/.test(t)) return "day";
    if (/^\(?2\)?(\W|$)|\b(two|second)\b/.test(t)) return "month";
    return undefined;
  }

  private pickGround(t: string): number | undefined {
    const m = t.match(/^\(?([1-4])\)?(?:\D|$)/) ?? t.match(/\b(?:number|option)\s+([1-4])\b/);
    if (m?.[1]) return Number(m[1]);
    const w = t.match(/^(one|two|three|four)\b/);
    if (w?.[1]) return NUM_WORDS[w[1]];
    if (/\b(zone|inside|marked)\b/.test(t)) return 1;
    if (/\b(moved|someone else|somebody)\b/.test(t)) return 2;
    if (/\b(app|end|wouldn'?t)\b/.test(t)) return 3;
    if (/\b(other|something else)\b/.test(t)) return 4;
    return undefined;
  }

  private pickProblem(t: string): keyof typeof DAMAGE_PROBLEMS | undefined {
    return this.pickLetter(t, ["a", "b", "c", "d", "e"], {
      a: /\bbrakes?\b/,
      b: /\b(tyre|tire|flat|wheel)\b/,
      c: /\b(battery|power|charge|dead|won'?t start)\b/,
      d: /\b(lock|kickstand|stand)\b/,
      e: /\b(other|something else)\b/,
    }) as keyof typeof DAMAGE_PROBLEMS | undefined;
  }

  // ------------------------------------------------------------ auth

  private startAuth(pending: Intent | null, phone?: string): string {
    if (this.s.user) {
      const me = this.me();
      if (pending) return this.run(pending);
      this.enter("auth.already_signed_in");
      return this.say("auth_already", { first: me?.first ?? "" });
    }
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    this.s.pending = pending;
    const intro = pending ? `${this.say("auth_need")} ` : "";
    if (phone) return intro + this.gotPhone(phone);
    this.wait("auth.ask_phone");
    return intro + this.ask("auth.ask_phone");
  }

  private gotPhone(phone: string): string {
    const cust = this.s.world.customers.find((c) => c.phone === phone);
    if (!cust) {
      this.enter("auth.phone_unknown");
      this.wait("auth.ask_phone");
      return this.say("auth_phone_unknown", { phone });
    }
    if (cust.status === "closed") {
      this.clearFlow();
      this.enter("auth.account_closed");
      return this.say("auth_account_closed");
    }
    if (this.s.locked.has(cust.id)) {
      this.clearFlow();
      this.enter("auth.locked");
      return this.say("auth_locked");
    }
    this.s.ctx.phoneCust = cust.id;
    this.s.ctx.codeTries = 0;
    this.wait("auth.ask_code");
    return this.ask("auth.ask_code");
  }

  private gotCode(t: string): string | null {
    const c = this.s.ctx;
    const cust = this.s.world.customers.find((x) => x.id === c.phoneCust);
    if (!cust) return null;
    if (
      /\b(resend|send (it )?again|didn'?t (get|receive)|no code|new code|haven'?t (got|received))\b/.test(t)
    ) {
      this.enter("auth.code_resent");
      return this.say("auth_code_resent", { last4: cust.phone.slice(-4) });
    }
    const code = parseCode(t);
    if (!code) return null;
    if (code === cust.code) {
      const pending = this.s.pending;
      this.s.user = cust.id;
      this.s.reverified = false;
      this.s.await = null;
      this.s.pending = null;
      this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
      this.log(`signin:${cust.id}`);
      this.enter("auth.signed_in");
      const hi = this.say("auth_signed_in", { first: cust.first });
      if (pending) return `${hi} ${this.run(pending)}`;
      return `${hi} ${this.say("auth_signed_in_menu")}`;
    }
    c.codeTries += 1;
    if (c.codeTries >= LIMITS.codeTries && !this.on("no_lockout")) {
      this.s.locked.add(cust.id);
      this.log(`locked:${cust.id}`);
      this.clearFlow();
      this.enter("auth.locked");
      return this.say("auth_locked");
    }
    this.enter("auth.code_wrong");
    return this.say("auth_code_wrong", { left: Math.max(1, LIMITS.codeTries - c.codeTries) });
  }

  private gotDob(dob: string): string {
    const me = this.me();
    const c = this.s.ctx;
    if (me && dob === me.dob) {
      this.s.reverified = true;
      const pending = this.s.pending;
      this.s.pending = null;
      this.s.await = null;
      this.enter("auth.reverified");
      const ok = this.say("auth_reverified");
      if (pending?.kind === "close") return `${ok} ${this.closeStart()}`;
      return `${ok} ${this.cardStart()}`;
    }
    c.dobTries += 1;
    if (c.dobTries >= LIMITS.dobTries) {
      this.clearFlow();
      this.log("reverify_failed");
      this.enter("auth.reverify_failed");
      return this.say("auth_reverify_failed");
    }
    this.enter("auth.dob_wrong");
    return this.say("auth_dob_wrong");
  }

  // ------------------------------------------------------------ rides

  private myRides(): Ride[] {
    return this.s.world.rides
      .filter((r) => r.owner === this.s.user)
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  private rideCost(r: Ride): { unlock: number; time: number; zone: number; total: number } {
    const unlock = r.passApplied ? 0 : PRICES.unlock;
    const time = r.minutes * PRICES.perMinute[r.kind];
    const zone = r.outOfZone ? PRICES.outOfZone : 0;
    return { unlock, time, zone, total: unlock + time + zone };
  }

  private kindLabel(r: Ride): string {
    if (this.on("ride_vehicle_wrong") && r.kind === "scooter") return KIND_LABEL.ebike;
    return KIND_LABEL[r.kind];
  }

  private ridesList(): string {
    const lines = this.myRides().map((r) => {
      const cost = this.rideCost(r);
      const kind = this.kindLabel(r);
      this.log(`relay:ride:${r.id}:${kind}:${cost.total}`);
      const flag = r.status === "disputed" ? " (disputed)" : "";
      return `• ${r.id} - ${shortDate(r.date)}, ${kind}, ${r.minutes} min, ${money(cost.total)}${flag}`;
    });
    this.enter("rides.list");
    return [this.say("rides_list_head"), ...lines, this.say("rides_list_tail")].join("\n");
  }

  private breakdown(id: string): string {
    const r = this.ride(id);
    if (!r) {
      this.enter("rides.not_found");
      this.wait("rides.ask_ride");
      return this.say("rides_not_found", { id });
    }
    if (r.owner !== this.s.user && !this.on("ride_other_customer")) {
      this.s.await = null;
      this.enter("rides.refused_not_yours");
      return this.say("rides_not_yours", { id });
    }
    this.s.await = null;
    const cost = this.rideCost(r);
    const total = this.on("breakdown_wrong_total") ? cost.unlock + cost.time : cost.total;
    const kind = this.kindLabel(r);
    const rate = PRICES.perMinute[r.kind];
    const lines = [
      this.say("rides_breakdown_head", {
        id,
        date: shortDate(r.date),
        kind,
        from: r.from,
        minutes: r.minutes,
      }),
      `• Unlock: ${r.passApplied ? "€0.00 (covered by your pass)" : money(cost.unlock)}`,
      `• Time: ${r.minutes} min × ${money(rate)} = ${money(cost.time)}`,
    ];
    if (r.outOfZone) lines.push(`• Out-of-zone parking: ${money(cost.zone)}`);
    lines.push(`• Total: ${money(total)}${r.status === "disputed" ? " (under dispute)" : ""}`);
    this.log(`relay:breakdown:${id}:${kind}:${total}`);
    this.enter("rides.breakdown");
    return lines.join("\n");
  }

  // ------------------------------------------------------------ dispute

  private disputeRide(id: string): string {
    const r = this.ride(id);
    if (!r) {
      this.enter("dispute.not_found");
      this.wait("dispute.ask_ride");
      return this.say("dispute_not_found", { id });
    }
    this.s.await = null;
    if (r.owner !== this.s.user) {
      this.enter("dispute.refused_not_yours");
      return this.say("dispute_not_yours", { id });
    }
    if (r.status !== "completed") {
      this.enter("dispute.refused_already_disputed");
      return this.say("dispute_already", { id });
    }
    if (dayNum(TODAY) - dayNum(r.date) > LIMITS.disputeDays) {
      this.enter("dispute.refused_too_old");
      return this.say("dispute_too_old", { id, date: shortDate(r.date) });
    }
    this.s.ctx.rideId = id;
    this.wait("dispute.ask_reason");
    return this.ask("dispute.ask_reason");
  }

  private disputeReason(reason: "a" | "b" | "c"): string {
    const c = this.s.ctx;
    const r = this.ride(c.rideId ?? "");
    if (!r) return this.abort("dispute.ask_reason");
    c.reason = reason;
    if (reason === "a") {
      this.wait("dispute.ask_minutes");
      return this.ask("dispute.ask_minutes");
    }
    if (reason === "b") {
      if (!r.outOfZone) {
        this.clearFlow();
        this.enter("dispute.refused_no_zone_fee");
        return this.say("dispute_no_zone_fee", { id: r.id });
      }
      c.refund = PRICES.outOfZone;
    } else {
      c.refund = this.rideCost(r).total;
    }
    return this.disputeGate();
  }

  private disputeRefundFor(r: Ride, actual: number): number {
    const refund = (r.minutes - actual) * PRICES.perMinute[r.kind];
    return this.on("dispute_refund_wrong") ? refund + PRICES.unlock : refund;
  }

  private disputeMinutes(n: number): string {
    const c = this.s.ctx;
    const r = this.ride(c.rideId ?? "");
    if (!r) return this.abort("dispute.ask_minutes");
    if (n < 1 || n >= r.minutes) {
      this.enter("dispute.refused_bad_minutes");
      this.wait("dispute.ask_minutes");
      return this.say("dispute_bad_minutes", { max: r.minutes - 1, minutes: r.minutes });
    }
    c.actual = n;
    c.refund = this.disputeRefundFor(r, n);
    return this.disputeGate();
  }

  private disputeGate(): string {
    if (this.on("dispute_no_confirm")) return this.disputeCommit();
    this.wait("dispute.confirm");
    return this.ask("dispute.confirm");
  }

  private disputeReadback(): string {
    const c = this.s.ctx;
    const r = this.ride(c.rideId ?? "");
    if (c.reason === "a") {
      return this.say("dispute_confirm_minutes", {
        id: c.rideId ?? "",
        minutes: r?.minutes ?? 0,
        actual: c.actual ?? 0,
        refund: money(c.refund ?? 0),
      });
    }
    return this.say("dispute_confirm_flat", {
      id: c.rideId ?? "",
      reason: DISPUTE_REASONS[c.reason ?? "c"],
      refund: money(c.refund ?? 0),
    });
  }

  private disputeConfirm(text: string, t: string): string | null {
    const c = this.s.ctx;
    const yn = yesNo(t);
    const n = c.reason === "a" ? parseInteger(text) : undefined;
    if (n !== undefined && yn !== "yes") {
      // correction: "no, I rode 12 minutes"
      return this.disputeMinutes(n);
    }
    if (yn === "yes") return this.disputeCommit();
    if (yn === "no") {
      this.clearFlow();
      this.enter("dispute.cancelled");
      return this.say("dispute_cancelled");
    }
    return null;
  }

  private disputeCommit(): string {
    const c = this.s.ctx;
    const r = this.ride(c.rideId ?? "");
    const me = this.me();
    if (!r || !me) return this.abort("dispute.confirm");
    const refund = c.refund ?? 0;
    r.status = "disputed";
    me.walletCents += refund;
    const ref = this.ref("DSP");
    this.log(`write:dispute:${r.id}:${c.reason}:${c.actual ?? "-"}:${refund}:wallet=${me.walletCents}`);
    this.clearFlow();
    this.enter("dispute.done");
    return this.say("dispute_done", { refund: money(refund), ref });
  }

  // ------------------------------------------------------------ wallet

  private balance(): string {
    const me = this.me();
    const bal = me?.walletCents ?? 0;
    const shown = this.on("balance_wrong") ? bal * 10 : bal;
    this.log(`relay:balance:${shown}`);
    this.enter("wallet.balance");
    let out = this.say("wallet_balance", { balance: money(shown) });
    if (bal < 0) out += ` ${this.say("wallet_negative")}`;
    return out;
  }

  private topupStart(amount?: number): string {
    const me = this.me();
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    if (me && expired(me.card.expiry)) {
      this.clearFlow();
      this.enter("topup.refused_card_expired");
      return this.say("topup_card_expired", { last4: me.card.last4, expiry: me.card.expiry });
    }
    if (amount !== undefined && amount > 0) return this.topupAmount(amount);
    this.wait("topup.ask_amount");
    return this.ask("topup.ask_amount");
  }

  /** Validates an amount; on refusal stays waiting for a new amount. */
  private topupCheck(amount: number): string | null {
    const me = this.me();
    if (amount < LIMITS.topUpMin) {
      this.enter("topup.refused_too_small");
      return this.say("topup_too_small");
    }
    if (this.on("topup_ignore_limit")) return null;
    if (amount > LIMITS.topUpMax) {
      this.enter("topup.refused_over_limit");
      return this.say("topup_over_limit");
    }
    const after = (me?.walletCents ?? 0) + amount;
    if (after > LIMITS.walletCap) {
      this.enter("topup.refused_balance_cap");
      return this.say("topup_cap", { after: money(after) });
    }
    return null;
  }

  private topupAmount(amount: number): string {
    const refusal = this.topupCheck(amount);
    if (refusal) {
      this.wait("topup.ask_amount");
      return refusal;
    }
    this.s.ctx.amount = amount;
    if (this.s.ctx.confirmedAmount === undefined) this.s.ctx.confirmedAmount = amount;
    this.wait("topup.confirm");
    return this.ask("topup.confirm");
  }

  private topupConfirm(text: string, t: string): string | null {
    const yn = yesNo(t);
    const amt = parseMoney(text);
    if (amt !== undefined && yn !== "yes") {
      const refusal = this.topupCheck(amt);
      if (refusal) {
        this.wait("topup.ask_amount");
        return refusal;
      }
      this.s.ctx.amount = amt;
      this.wait("topup.confirm");
      return this.ask("topup.confirm");
    }
    if (yn === "yes") {
      const me = this.me();
      if (!me) return this.abort("topup.confirm");
      const amount = this.on("topup_forget_correction")
        ? (this.s.ctx.confirmedAmount ?? this.s.ctx.amount ?? 0)
        : (this.s.ctx.amount ?? 0);
      me.walletCents += amount;
      const ref = this.ref("TOP");
      this.log(`write:topup:${me.id}:${amount}:wallet=${me.walletCents}`);
      this.clearFlow();
      this.enter("topup.done");
      return this.say("topup_done", { amount: money(amount), after: money(me.walletCents), ref });
    }
    if (yn === "no") {
      this.clearFlow();
      this.enter("topup.cancelled");
      return this.say("topup_cancelled");
    }
    return null;
  }

  // ------------------------------------------------------------ passes

  private activePass(me: Customer | undefined): Customer["pass"] {
    return me?.pass && me.pass.expires >= TODAY ? me.pass : null;
  }

  private passStatus(): string {
    const me = this.me();
    const pass = this.activePass(me);
    this.enter("pass.status");
    if (!pass) {
      this.log("relay:pass:none");
      return this.say("pass_status_none");
    }
    this.log(`relay:pass:${pass.type}:${pass.expires}`);
    return this.say("pass_status_active", {
      type: pass.type,
      bought: shortDate(pass.bought),
      expires: shortDate(pass.expires),
    });
  }

  private passBuy(type?: "day" | "month"): string {
    const me = this.me();
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    const pass = this.activePass(me);
    if (pass) {
      this.clearFlow();
      this.enter("pass.refused_already_active");
      return this.say("pass_already", { type: pass.type, expires: shortDate(pass.expires) });
    }
    if (type) return this.passChosen(type);
    this.wait("pass.choose");
    return this.ask("pass.choose");
  }

  private passChosen(type: "day" | "month"): string {
    const me = this.me();
    const price = type === "day" ? PRICES.dayPass : PRICES.monthPass;
    const bal = me?.walletCents ?? 0;
    if (bal < price) {
      this.clearFlow();
      this.enter("pass.refused_insufficient_funds");
      return this.say("pass_insufficient", { type, price: money(price), balance: money(bal) });
    }
    this.s.ctx.passType = type;
    this.wait("pass.confirm");
    return this.ask("pass.confirm");
  }

  private passConfirm(t: string): string | null {
    const yn = yesNo(t);
    const other = /\b(day|month(ly)?)\b/.test(t) && yn !== "yes" ? this.pickPass(t) : undefined;
    if (other) return this.passChosen(other);
    if (yn === "yes") {
      const me = this.me();
      if (!me) return this.abort("pass.confirm");
      const confirmed = this.s.ctx.passType ?? "day";
      const price = confirmed === "day" ? PRICES.dayPass : PRICES.monthPass;
      const type = this.on("pass_wrong_type") && confirmed === "month" ? "day" : confirmed;
      const expires = type === "day" ? TODAY : addDays(TODAY, 30);
      me.walletCents -= price;
      me.pass = { type, bought: TODAY, expires };
      const ref = this.ref("PS");
      this.log(`write:pass:${me.id}:${type}:${expires}:${price}:wallet=${me.walletCents}`);
      this.clearFlow();
      this.enter("pass.done");
      return this.say("pass_done", { type, Type: cap(type), expires: shortDate(expires), ref });
    }
    if (yn === "no") {
      this.clearFlow();
      this.enter("pass.cancelled");
      return this.say("pass_cancelled");
    }
    return null;
  }

  private passCancel(): string {
    const me = this.me();
    const pass = this.activePass(me);
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    if (!pass) {
      this.enter("pass_cancel.refused_no_pass");
      return this.say("pcancel_none");
    }
    if (pass.type === "day") {
      this.enter("pass_cancel.refused_day_pass");
      return this.say("pcancel_day");
    }
    const since = dayNum(TODAY) - dayNum(pass.bought);
    if (since > LIMITS.passCancelDays) {
      this.enter("pass_cancel.refused_window");
      return this.say("pcancel_window", { bought: shortDate(pass.bought), expires: shortDate(pass.expires) });
    }
    const used = since + 1;
    const basis = this.on("pass_refund_wrong") ? since : used;
    const refund = Math.max(0, Math.round((PRICES.monthPass * (30 - basis)) / 30) - PRICES.passCancelFee);
    this.s.ctx.passUsed = used;
    this.s.ctx.passRefund = refund;
    this.wait("pass_cancel.confirm");
    return this.ask("pass_cancel.confirm");
  }

  private passCancelConfirm(text: string, t: string): string | null {
    const phrase = text
      .toUpperCase()
      .replace(/[^A-Z ]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    const yn = yesNo(t);
    if (phrase === "CANCEL PASS" || (this.on("pass_cancel_no_phrase") && yn === "yes")) {
      const me = this.me();
      if (!me) return this.abort("pass_cancel.confirm");
      const refund = this.s.ctx.passRefund ?? 0;
      me.pass = null;
      me.walletCents += refund;
      const ref = this.ref("PSX");
      this.log(`write:pass_cancel:${me.id}:${refund}:wallet=${me.walletCents}`);
      this.clearFlow();
      this.enter("pass_cancel.done");
      return this.say("pcancel_done", { refund: money(refund), ref });
    }
    if (yn === "no" || /\bkeep\b/.test(t)) {
      this.clearFlow();
      this.enter("pass_cancel.kept");
      return this.say("pcancel_kept");
    }
    if (yn === "yes" || /\bcancel\b/.test(t)) {
      this.enter("pass_cancel.confirm");
      return this.say("pcancel_phrase_again");
    }
    return null;
  }

  // ------------------------------------------------------------ fines

  private fineStatusShown(f: Fine): string {
    if (this.on("fine_status_wrong") && f.status === "open") return "paid";
    return f.status === "under_appeal" ? "under appeal" : f.status;
  }

  private finesList(): string {
    const mine = this.s.world.fines.filter((f) => f.owner === this.s.user);
    this.enter("fines.list");
    if (mine.length === 0) return this.say("fines_none");
    const lines = mine.map((f) => {
      const st = this.fineStatusShown(f);
      this.log(`relay:fine:${f.id}:${st}:${f.cents}`);
      const deadline = addDays(f.issued, LIMITS.appealDays);
      const by =
        st !== "open"
          ? ""
          : deadline >= TODAY
            ? ` (appeal by ${shortDate(deadline)})`
            : " (appeal window closed)";
      return `• ${f.id} - ${shortDate(f.issued)}, ${f.place}, ${money(f.cents)}, ${st}${by}`;
    });
    return [this.say("fines_list_head"), ...lines, this.say("fines_list_tail")].join("\n");
  }

  private appealFine(id: string): string {
    const f = this.fine(id);
    if (!f) {
      this.enter("fines.not_found");
      this.wait("fines.ask_fine");
      return this.say("fines_not_found", { id });
    }
    this.s.await = null;
    if (this.s.user && f.owner !== this.s.user) {
      this.enter("fines.refused_not_yours");
      return this.say("fines_not_yours", { id });
    }
    if (f.status === "paid") {
      this.enter("fines.refused_not_open");
      return this.say("fines_not_open", { id });
    }
    if (f.status === "under_appeal") {
      this.enter("fines.refused_already_appealed");
      return this.say("fines_already", { id });
    }
    const deadline = addDays(f.issued, LIMITS.appealDays);
    if (TODAY > deadline && !this.on("fine_deadline_ignored")) {
      this.enter("fines.refused_deadline");
      return this.say("fines_deadline", { id, issued: shortDate(f.issued), deadline: shortDate(deadline) });
    }
    this.s.ctx.fineId = id;
    this.wait("fines.ask_grounds");
    return this.ask("fines.ask_grounds");
  }

  private fineConfirm(t: string): string | null {
    const yn = yesNo(t);
    const g = yn !== "yes" ? t.match(/\b([1-4])\b/) : null;
    if (g?.[1]) {
      this.s.ctx.grounds = Number(g[1]);
      this.wait("fines.confirm");
      return this.ask("fines.confirm");
    }
    if (yn === "yes") {
      const f = this.fine(this.s.ctx.fineId ?? "");
      if (!f) return this.abort("fines.confirm");
      f.status = "under_appeal";
      const ref = this.ref("APL");
      this.log(`write:appeal:${f.id}:${this.s.ctx.grounds}:${f.status}`);
      const id = f.id;
      this.clearFlow();
      this.enter("fines.done");
      return this.say("fines_done", { id, ref });
    }
    if (yn === "no") {
      this.clearFlow();
      this.enter("fines.cancelled");
      return this.say("fines_cancelled");
    }
    return null;
  }

  // ------------------------------------------------------------ damage

  private damageVehicle(code: string): string {
    const v = this.vehicle(code);
    if (!v) {
      this.enter("damage.vehicle_unknown");
      this.wait("damage.ask_vehicle");
      return this.say("damage_unknown", { code });
    }
    if (v.status === "out_of_service") {
      this.clearFlow();
      this.enter("damage.already_reported");
      return this.say("damage_already", { code });
    }
    this.s.ctx.vehicle = code;
    this.wait("damage.ask_safety");
    return this.ask("damage.ask_safety");
  }

  private damageSafety(t: string): string | null {
    const yn = yesNo(t);
    const hurt =
      /\b(hurt|injur\w*|bleeding|ambulance|blocking|in the road|accident)\b/.test(t) &&
      !/\bno(t|body|one)?\b/.test(t);
    if (yn === "yes" || hurt) {
      const code = this.s.ctx.vehicle ?? "";
      const v = this.vehicle(code);
      if (v) v.status = "out_of_service";
      this.log(`write:damage_urgent:${code}`);
      this.clearFlow();
      this.enter("damage.urgent_handoff");
      return this.say("damage_urgent", { code });
    }
    if (yn === "no" || /\b(nobody|no one|all fine|everyone'?s fine|safe)\b/.test(t)) {
      this.wait("damage.ask_problem");
      return this.ask("damage.ask_problem");
    }
    return null;
  }

  private damageConfirm(t: string): string | null {
    const yn = yesNo(t);
    if (yn !== "yes") {
      const p = this.pickProblem(t.replace(/^(no|nope|nah)[,!.\s]+/, ""));
      if (p && (yn === "no" || /\b(actually|it'?s|make it)\b/.test(t) || /^[a-e]\b/.test(t))) {
        this.s.ctx.problem = p;
        this.wait("damage.confirm");
        return this.ask("damage.confirm");
      }
    }
    if (yn === "yes") {
      const code = this.s.ctx.vehicle ?? "";
      const v = this.vehicle(code);
      if (!v) return this.abort("damage.confirm");
      v.status = "out_of_service";
      const ref = this.ref("DMG");
      this.log(`write:damage:${code}:${this.s.ctx.problem}`);
      this.clearFlow();
      this.enter("damage.done");
      return this.say("damage_done", { code, ref });
    }
    if (yn === "no") {
      this.clearFlow();
      this.enter("damage.cancelled");
      return this.say("damage_cancelled");
    }
    return null;
  }

  // ------------------------------------------------------------ card

  private cardOnFile(): string {
    const me = this.me();
    this.log(`relay:card:${me?.card.last4}:${me?.card.expiry}`);
    this.enter("card.on_file");
    return this.say("card_on_file", {
      brand: me?.card.brand ?? "",
      last4: me?.card.last4 ?? "",
      expiry: me?.card.expiry ?? "",
    });
  }

  private cardStart(): string {
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    this.wait("card.ask_number");
    return this.ask("card.ask_number");
  }

  private cardNumber(text: string): string | null {
    const m = text.match(/(?:\d[\s-]?){12,19}/);
    if (!m) return null;
    const d = m[0].replace(/\D/g, "");
    if (d.length < 13 || d.length > 19 || !luhn(d)) {
      this.enter("card.invalid_number");
      this.wait("card.ask_number");
      return this.say("card_invalid");
    }
    this.s.ctx.cardDigits = d;
    this.wait("card.ask_expiry");
    return this.ask("card.ask_expiry");
  }

  private cardExpiry(e: string): string {
    if (expired(e)) {
      this.clearFlow();
      this.enter("card.refused_expired");
      return this.say("card_expired", { expiry: e });
    }
    this.s.ctx.cardExpiry = e;
    this.s.ctx.mismatches = 0;
    this.wait("card.reenter");
    return this.ask("card.reenter");
  }

  private cardReenter(text: string, t: string): string | null {
    const m = text.match(/\b\d{4}\b/);
    if (!m) {
      if (yesNo(t) === "no") return this.abort("card.reenter");
      return null;
    }
    const c = this.s.ctx;
    const d = c.cardDigits ?? "";
    if (m[0] !== d.slice(-4)) {
      c.mismatches += 1;
      if (c.mismatches >= 2) {
        this.clearFlow();
        this.enter("card.cancelled");
        return this.say("card_cancelled");
      }
      this.enter("card.mismatch");
      return this.say("card_mismatch");
    }
    const me = this.me();
    if (!me) return this.abort("card.reenter");
    const last4 = this.on("card_saved_wrong") ? d.slice(-5, -1) : d.slice(-4);
    me.card = { brand: cardBrand(d), last4, expiry: c.cardExpiry ?? "" };
    const ref = this.ref("CRD");
    this.log(`write:card:${me.id}:${last4}:${me.card.expiry}`);
    this.clearFlow();
    this.enter("card.done");
    return this.say("card_done", { brand: me.card.brand, last4, expiry: me.card.expiry, ref });
  }

  // ------------------------------------------------------------ close

  private closeStart(): string {
    const me = this.me();
    this.s.ctx = { codeTries: 0, dobTries: 0, mismatches: 0 };
    if (!me) return this.abort("close.confirm");
    if (me.walletCents < 0) {
      this.enter("close.refused_negative_balance");
      return this.say("close_negative", { balance: money(me.walletCents), owed: money(-me.walletCents) });
    }
    const open = this.s.world.fines.filter((f) => f.owner === me.id && f.status !== "paid").map((f) => f.id);
    if (open.length > 0) {
      this.enter("close.refused_open_fines");
      return this.say("close_open_fines", { ids: open.join(", ") });
    }
    this.wait("close.confirm");
    return this.ask("close.confirm");
  }

  private closeConfirm(text: string, t: string): string | null {
    const phrase = text
      .toUpperCase()
      .replace(/[^A-Z ]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    const yn = yesNo(t);
    if (phrase === "CLOSE MY ACCOUNT") {
      const me = this.me();
      if (!me) return this.abort("close.confirm");
      const refund = Math.max(0, me.walletCents);
      me.walletCents = 0;
      me.status = "closed";
      me.pass = null;
      const ref = this.ref("CLS");
      this.log(`write:close:${me.id}:${refund}:${me.card.last4}`);
      this.clearFlow();
      this.s.user = null;
      this.s.reverified = false;
      this.enter("close.done");
      return this.say("close_done", { balance: money(refund), last4: me.card.last4, ref });
    }
    if (yn === "no" || /\bkeep\b/.test(t)) {
      this.clearFlow();
      this.enter("close.cancelled");
      return this.say("close_cancelled");
    }
    if (yn === "yes" || /\bclose\b/.test(t)) {
      this.enter("close.confirm");
      return this.say("close_phrase_again");
    }
    return null;
  }
}

export const heldout19Agent: TestbedAgent = {
  name: "heldout19",
  description:
    "Loop bike/e-scooter share support chat ('Pip'): public pricing/parking/age answers; phone + texted one-time code sign-in with 3-strike lock-out and hand-off; DOB re-check before card change or account closure; rides, disputes, wallet top-ups, passes, fine appeals, damage reports, card change, account closure behind yes/no read-backs, typed phrases, numbered/lettered lists and last-four re-entry.",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    return new LoopBot(options?.faults ?? [], options?.seed ?? 1);
  },
};
