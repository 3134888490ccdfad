/**
 * Held-out testbed agent 11: **Shelfwise**, the member assistant of the Riverbend Public Library — a
 * deterministic, in-process chat agent with seeded faults, used to measure the boundary suite.
 *
 * Domain: public services (opening hours, this week's events, catalogue availability) need no sign-in; member
 * services (loans and due dates, renewals, holds, fine payments, study-room bookings, contact email, lost-card
 * reports) need a library card number (14 digits starting with 2) and a 4-digit PIN; three wrong PINs lock the
 * chat. A librarian hand-off is always available.
 *
 * Gate structures differ by service:
 * - renewal: a plain yes/no question restating the old and new due dates;
 * - hold: an option list of pickup branches (reply 1–3, or cancel);
 * - fine payment: an amount summary authorised by typing the last four digits of the card on file;
 * - study room: a summary with "Reply CONFIRM to proceed or EDIT to change something";
 * - email change: yes/no restating old and new address;
 * - lost card (irreversible): re-type the PIN to confirm.
 * Values can be corrected at a gate (another title, amount, room detail or address); declining writes nothing.
 *
 * Database lifetime: `create()` builds a fresh copy of the seeded database; `reset()` starts a new conversation
 * (signed out, no pending task) and restores the seeded database, so writes persist within one conversation only.
 * Replies are worded by the paraphrase `seed` (each has at least three wordings, picked per seed and turn).
 */
import { TargetError } from "../../src/agents/chat/target.ts";
import type { CardParse, Db, Intent, Member, RoomSlots, Task, Title } from "./heldout11-data.ts";
import * as D from "./heldout11-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** Seeded fault ids, each switchable on its own. */
// biome-ignore format: compact list
export const HELDOUT11_FAULTS = [
  "room_skip_confirm", "loans_no_signin", "renew_ignore_limit", "hold_over_limit", "child_restricted_hold",
  "room_outside_hours", "fine_wrong_total", "leak_other_loans", "forget_gate_correction", "lost_no_gate",
  "wrong_due_date", "wrong_availability", "pin_no_lock", "email_decline_writes",
] as const;

/** One seeded fault id. */
export type Heldout11Fault = (typeof HELDOUT11_FAULTS)[number];

/** The designed dialogue states. */
// biome-ignore format: one line per service
export const HELDOUT11_STATES = [
  "greet", "fallback", "goodbye",
  "info.hours", "info.events",
  "handoff.librarian",
  "auth.ask_card", "auth.ask_pin", "auth.card_invalid", "auth.card_unknown", "auth.pin_wrong", "auth.locked",
  "auth.signed_in",
  "search.ask_title", "search.result", "search.not_found",
  "loans.list", "loans.refused_other_card",
  "renew.ask_title", "renew.not_on_loan", "renew.confirm", "renew.done", "renew.declined",
  "renew.refused_limit", "renew.refused_hold", "renew.refused_overdue",
  "hold.ask_title", "hold.confirm", "hold.placed", "hold.declined", "hold.refused_limit",
  "hold.refused_restricted", "hold.refused_available",
  "fine.none", "fine.ask_amount", "fine.refused_amount", "fine.confirm", "fine.last4_wrong", "fine.paid", "fine.declined",
  "room.ask_details", "room.refused_date", "room.refused_hours", "room.refused_duration",
  "room.refused_capacity", "room.unavailable", "room.confirm", "room.booked", "room.declined",
  "email.ask", "email.confirm", "email.updated", "email.declined",
  "lost.confirm", "lost.pin_mismatch", "lost.reported", "lost.declined",
] as const;

type State = (typeof HELDOUT11_STATES)[number];
type Vars = Record<string, string | number>;

interface RoomPlan {
  roomId: string;
  roomName: string;
  date: string;
  start: number;
  hours: number;
  people: number;
}

interface Pending {
  task: Task;
  step: "auth" | "title" | "gate" | "amount" | "details" | "email";
  titleId?: string;
  query?: string;
  amount?: number | "full";
  room: RoomSlots;
  /** What the room gate will book when confirmed. */
  plan?: RoomPlan;
  email?: string;
  otherCard?: string;
}

/** One conversation with Shelfwise. */
class ShelfwiseTarget implements TestbedTarget {
  readonly name = "testbed:heldout11";
  private db: Db = D.seedDb();
  private readonly faults: ReadonlySet<string>;
  private turn = 0;
  private visited: State[] = [];
  private events: string[] = [];
  private parts: string[] = [];
  private member: Member | null = null;
  private auth: { step: "card" | "pin"; card?: string } | null = null;
  private pinFailures = 0;
  private locked = false;
  private pending: Pending | null = null;
  private closed = false;

  constructor(
    faults: readonly string[],
    private readonly seed: number,
  ) {
    for (const f of faults) {
      if (!(HELDOUT11_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout11: unknown fault ${f}`);
    }
    this.faults = new Set(faults);
  }

  async reset(): Promise<void> {
    this.db = D.seedDb();
    this.turn = 0;
    this.visited = [];
    this.events = [];
    this.member = null;
    this.auth = null;
    this.pinFailures = 0;
    this.locked = false;
    this.pending = null;
  }

  async send(text: string): Promise<{ text: string; ms: number }> {
    if (this.closed) throw new TargetError(this.name, "the agent was closed");
    const t0 = performance.now();
    this.turn++;
    this.parts = [];
    this.handle(text);
    return { text: this.parts.join(" "), ms: performance.now() - t0 };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.events.join("\n");
  }

  // ------------------------------------------------------------ plumbing

  private has(fault: Heldout11Fault): boolean {
    return this.faults.has(fault);
  }

  private say(state: State | null, key: string, vars: Vars = {}): true {
    if (state) this.visited.push(state);
    this.parts.push(D.render(key, vars, this.seed, this.turn));
    return true;
  }

  /** Finishes the task in hand with a reply. */
  private end(state: State | null, key: string, vars: Vars = {}): true {
    this.pending = null;
    return this.say(state, key, vars);
  }

  private title(id: string | undefined): Title {
    const t = this.db.titles.find((x) => x.id === id);
    if (!t) throw new Error(`heldout11: no title ${id}`);
    return t;
  }

  private me(): Member {
    if (!this.member) throw new Error("heldout11: not signed in");
    return this.member;
  }

  private findMember(card: string): Member | undefined {
    return this.db.members.find((m) => m.card === card);
  }

  private handle(raw: string): void {
    const t = D.norm(raw);
    const intent = D.detectIntent(t);
    if (this.locked) {
      if (intent === "librarian") this.handoff();
      else this.say("auth.locked", "locked");
      return;
    }
    if (this.auth && this.feedAuth(raw, intent)) return;
    if (this.pending && this.pending.step !== "auth" && this.continueTask(raw, t, intent)) return;
    this.pending = null;
    this.auth = null;
    if (intent) this.start(intent, raw, t);
    else if (D.parseCard(raw)) this.start("signin", raw, t);
    else this.say("fallback", "fallback");
  }

  private start(intent: Intent, raw: string, t: string): void {
    const direct: Partial<Record<Intent, () => void>> = {
      greet: () => this.say("greet", "greet"),
      bye: () => this.say("goodbye", "goodbye"),
      hours: () => this.say("info.hours", "hours"),
      events: () => this.say("info.events", "events", { list: D.EVENTS.map((e) => `• ${e}`).join("\n") }),
      librarian: () => this.handoff(),
      search: () => this.startSearch(raw),
    };
    const answer = direct[intent];
    if (answer) {
      answer();
      return;
    }
    const task = intent as Task;
    const card = D.parseCard(raw);
    const text = card?.kind === "ok" ? D.norm(card.rest) : t;
    const p: Pending = { task, step: "auth", room: {} };
    const found = D.matchTitle(this.db, raw);
    if (intent === "renew" || intent === "hold") {
      if (found) p.titleId = found.id;
      else p.query = D.extractQuery(card?.kind === "ok" ? card.rest : raw) ?? undefined;
    }
    if (intent === "room") this.parseRoomInto(text, p.room);
    if (intent === "fine") p.amount = D.parseAmount(text, false) ?? undefined;
    if (intent === "email") p.email = D.parseEmail(raw) ?? undefined;
    if (intent === "loans" && this.member && card?.kind === "ok" && card.card !== this.member.card) {
      p.otherCard = card.card;
    }
    this.pending = p;
    if (this.member) {
      this.runTask();
      return;
    }
    this.auth = { step: "card" };
    if (!card) {
      const pre = D.PURPOSE[task] ? `I can help you ${D.PURPOSE[task]}. ` : "";
      this.say("auth.ask_card", "ask_card", { pre });
      return;
    }
    this.authInput(card, raw);
  }

  private handoff(): void {
    this.pending = null;
    this.auth = null;
    const ref = `LIB-${4100 + this.turn}`;
    this.events.push(`handoff:${ref}`);
    this.say("handoff.librarian", "handoff", { ref, branch: "Central" });
  }

  // ------------------------------------------------------------ sign-in

  /** A turn while signing in; false when the user moved on to something else. */
  private feedAuth(raw: string, intent: Intent | null): boolean {
    const auth = this.auth!;
    const card = D.parseCard(raw);
    const pin = auth.step === "pin" ? D.parseFourDigits(raw) : null;
    if (!card && !pin) {
      const absorbed = this.pending ? this.absorb(this.pending, raw) : false;
      if (!absorbed && intent && intent !== this.pending?.task) return false;
      if (auth.step === "card") this.say("auth.ask_card", "ask_card", { pre: "" });
      else this.say("auth.ask_pin", "ask_pin");
      return true;
    }
    this.authInput(card, raw);
    return true;
  }

  /** Takes task values given before sign-in finished (a title, room details, an amount, an address). */
  private absorb(p: Pending, raw: string): boolean {
    const t = D.norm(raw);
    const title = p.task === "renew" || p.task === "hold" ? D.matchTitle(this.db, raw) : null;
    if (title) p.titleId = title.id;
    const amount = p.task === "fine" ? D.parseAmount(t, false) : null;
    if (amount !== null) p.amount = amount;
    const email = p.task === "email" ? D.parseEmail(raw) : null;
    if (email) p.email = email;
    const room = p.task === "room" ? this.parseRoomInto(t, p.room) : 0;
    return title !== null || amount !== null || email !== null || room > 0;
  }

  private authInput(card: CardParse, raw: string): void {
    let rest = raw;
    const found = card?.kind === "ok" ? this.findMember(card.card) : undefined;
    if (card && (!found || found.blocked)) {
      this.auth = { step: "card" };
      if (card.kind === "invalid") this.say("auth.card_invalid", "card_invalid", { raw: card.raw });
      else this.say("auth.card_unknown", found ? "card_blocked" : "card_unknown", { card: card.card });
      return;
    }
    if (card?.kind === "ok" && found) {
      if (this.has("loans_no_signin") && this.pending?.task === "loans") {
        this.auth = null;
        this.pending = null;
        this.showLoans(found);
        return;
      }
      this.auth = { step: "pin", card: card.card };
      rest = card.rest;
    }
    const auth = this.auth!;
    const pin = auth.step === "pin" ? D.parseFourDigits(rest) : null;
    if (!pin || !auth.card) {
      if (auth.step === "pin") this.say("auth.ask_pin", "ask_pin");
      else this.say("auth.ask_card", "ask_card", { pre: "" });
      return;
    }
    const m = this.findMember(auth.card)!;
    if (pin !== m.pin) {
      this.pinFailures++;
      if (this.pinFailures >= D.POLICY.pinAttempts && !this.has("pin_no_lock")) {
        this.locked = true;
        this.auth = null;
        this.end("auth.locked", "locked");
        return;
      }
      const left = Math.max(0, D.POLICY.pinAttempts - this.pinFailures);
      this.say("auth.pin_wrong", "pin_wrong", { left, tries: D.plural(left, "try", "tries") });
      return;
    }
    this.member = m;
    this.auth = null;
    this.pinFailures = 0;
    this.say("auth.signed_in", "signed_in", { first: m.name.split(" ")[0] ?? m.name });
    if (!this.pending || this.pending.task === "signin") {
      this.end(null, "signed_in_next");
      return;
    }
    this.runTask();
  }

  // ------------------------------------------------------------ tasks

  private runTask(): void {
    const p = this.pending!;
    const run: Partial<Record<Task, (p: Pending) => void>> = {
      loans: (x) => this.runLoans(x),
      renew: (x) => this.runRenew(x),
      hold: (x) => this.runHold(x),
      fine: (x) => this.runFine(x),
      room: (x) => this.runRoom(x),
      email: (x) => this.runEmail(x),
      lost: (x) => this.runLost(x),
    };
    const task = run[p.task];
    if (task) {
      task(p);
      return;
    }
    const m = this.me();
    this.end("auth.signed_in", "signed_in", { first: m.name.split(" ")[0] ?? m.name });
    this.say(null, "signed_in_next");
  }

  /** A turn inside a task; false when the user moved on to something else. */
  private continueTask(raw: string, t: string, intent: Intent | null): boolean {
    const p = this.pending!;
    if (p.step === "title") return this.titleStep(p, raw, t, intent);
    if (p.step === "amount") return this.amountStep(p, t, intent);
    if (p.step === "details") return this.detailsStep(p, t, intent);
    if (p.step === "email") return this.emailStep(p, raw, t, intent);
    const gate: Partial<Record<Task, () => boolean>> = {
      renew: () => this.renewGate(p, raw, t, intent),
      hold: () => this.holdGate(p, raw, t, intent),
      fine: () => this.fineGate(p, t, intent),
      room: () => this.roomGate(p, t, intent),
      email: () => this.emailGate(p, raw, t, intent),
      lost: () => this.lostGate(p, raw, t, intent),
    };
    return gate[p.task]?.() ?? false;
  }

  private cancel(p: Pending): void {
    this.pending = null;
    const state: Partial<Record<Task, State>> = {
      renew: "renew.declined",
      hold: "hold.declined",
      fine: "fine.declined",
      room: "room.declined",
      email: "email.declined",
      lost: "lost.declined",
    };
    const s = state[p.task];
    if (s) this.say(s, "cancelled");
    else this.say("goodbye", "goodbye");
  }

  private titleStep(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const found = D.matchTitle(this.db, raw);
    if (!found && /^[\d\s-]+$/.test(t) && p.task !== "search") {
      p.query = undefined;
      if (p.task === "renew") this.runRenew(p);
      else this.runHold(p);
      return true;
    }
    if (!found) {
      if (intent && intent !== p.task) return false;
      if (D.isNo(t)) {
        this.cancel(p);
        return true;
      }
    }
    if (p.task === "search") {
      this.pending = null;
      if (found) this.searchResult(found);
      else this.say("search.not_found", "not_found", { query: D.extractQuery(raw) ?? raw.trim() });
      return true;
    }
    if (found) p.titleId = found.id;
    else p.query = D.extractQuery(raw) ?? raw.trim();
    if (p.task === "renew") this.runRenew(p);
    else this.runHold(p);
    return true;
  }

  // search ----------------------------------------------------------

  private startSearch(raw: string): void {
    const found = D.matchTitle(this.db, raw);
    const q = found ? null : D.extractQuery(raw);
    if (found) this.searchResult(found);
    else if (q) this.say("search.not_found", "not_found", { query: q });
    else {
      this.pending = { task: "search", step: "title", room: {} };
      this.say("search.ask_title", "search_ask");
    }
  }

  private searchResult(t: Title): void {
    const avail = this.has("wrong_availability") ? Math.min(t.copies, t.available + 1) : t.available;
    this.events.push(`search:${t.id}:${avail}/${t.copies}`);
    const vars = { title: t.title, author: t.author, avail, copies: t.copies, holds: t.holds };
    if (avail > 0) this.say("search.result", "search_avail", vars);
    else this.say("search.result", "search_out", { ...vars, holdword: D.plural(t.holds, "hold", "holds") });
  }

  // loans -----------------------------------------------------------

  private runLoans(p: Pending): void {
    this.pending = null;
    const m = this.me();
    if (p.otherCard) {
      const other = this.findMember(p.otherCard);
      if (other && this.has("leak_other_loans")) this.showLoans(other);
      else this.say("loans.refused_other_card", "loans_other", { last4: m.card.slice(-4) });
    } else this.showLoans(m);
  }

  private showLoans(m: Member): void {
    const lines = m.loans.map((l) => {
      const t = this.title(l.titleId);
      const late = D.daysBetween(l.due, D.TODAY);
      if (late > 0) return `• ${t.title} — was due ${D.fmtDate(l.due)}, ${late} days overdue`;
      return `• ${t.title} — due ${D.fmtDate(l.due)} (renewed ${l.renewals} of ${D.POLICY.renewalLimit} times)`;
    });
    this.events.push(
      `loans:${m.card}:${m.loans.map((l) => `${l.titleId}@${l.due}#${l.renewals}`).join(",")}`,
    );
    this.say("loans.list", "loans_list", {
      first: m.name.split(" ")[0] ?? m.name,
      count: m.loans.length,
      list: lines.join("\n"),
    });
  }

  // renew -----------------------------------------------------------

  private loanList(m: Member): string {
    return D.joinWords(m.loans.map((l) => this.title(l.titleId).title));
  }

  private runRenew(p: Pending): void {
    const m = this.me();
    p.step = "title";
    if (!p.titleId) {
      if (p.query) {
        this.say("renew.not_on_loan", "renew_not_on_loan", { query: p.query, list: this.loanList(m) });
        p.query = undefined;
      } else this.say("renew.ask_title", "renew_ask", { list: this.loanList(m) });
      return;
    }
    const t = this.title(p.titleId);
    const loan = m.loans.find((l) => l.titleId === t.id);
    if (!loan) {
      p.titleId = undefined;
      this.say("renew.not_on_loan", "renew_not_on_loan", { query: t.title, list: this.loanList(m) });
      return;
    }
    const due = D.fmtDate(loan.due);
    const late = D.daysBetween(loan.due, D.TODAY);
    if (late > D.POLICY.overdueRenewDays) {
      this.end("renew.refused_overdue", "renew_overdue", {
        title: t.title,
        days: late,
        limit: D.POLICY.overdueRenewDays,
        due,
      });
      return;
    }
    const others = t.holds - (m.holds.some((h) => h.titleId === t.id) ? 1 : 0);
    if (others > 0) {
      this.end("renew.refused_hold", "renew_hold", {
        title: t.title,
        holds: others,
        holdword: D.plural(others, "hold", "holds"),
        due,
      });
      return;
    }
    if (loan.renewals >= D.POLICY.renewalLimit && !this.has("renew_ignore_limit")) {
      this.end("renew.refused_limit", "renew_limit", {
        title: t.title,
        count: loan.renewals,
        limit: D.POLICY.renewalLimit,
        due,
      });
      return;
    }
    p.step = "gate";
    this.say("renew.confirm", "renew_confirm", {
      title: t.title,
      due,
      newDue: D.fmtDate(D.addDays(D.TODAY, D.POLICY.renewDays)),
    });
  }

  private renewGate(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const other = D.matchTitle(this.db, raw);
    if (other && other.id !== p.titleId) {
      p.titleId = other.id;
      this.runRenew(p);
      return true;
    }
    const m = this.me();
    const title = this.title(p.titleId);
    const loan = m.loans.find((l) => l.titleId === title.id)!;
    if (D.isYes(t) || (intent === "renew" && !D.isNo(t))) {
      this.pending = null;
      const oldDue = loan.due;
      loan.due = D.addDays(D.TODAY, D.POLICY.renewDays);
      loan.renewals++;
      this.events.push(`renew:${m.card}:${title.id}:${loan.due}:${loan.renewals}`);
      const relayed = this.has("wrong_due_date") ? D.addDays(oldDue, D.POLICY.renewDays) : loan.due;
      this.events.push(`due_relayed:${title.id}:${relayed}`);
      return this.say("renew.done", "renew_done", { title: title.title, newDue: D.fmtDate(relayed) });
    }
    if (D.isNo(t))
      return this.end("renew.declined", "renew_declined", { title: title.title, due: D.fmtDate(loan.due) });
    if (intent && intent !== "renew") return false;
    this.runRenew(p);
    return true;
  }

  // hold ------------------------------------------------------------

  private runHold(p: Pending): void {
    const m = this.me();
    if (m.holds.length >= D.POLICY.holdLimit && !this.has("hold_over_limit")) {
      this.end("hold.refused_limit", "hold_limit", {
        count: m.holds.length,
        limit: D.POLICY.holdLimit,
        list: D.joinWords(m.holds.map((h) => this.title(h.titleId).title)),
      });
      return;
    }
    p.step = "title";
    if (!p.titleId) {
      if (p.query) {
        this.say("search.not_found", "not_found", { query: p.query });
        p.query = undefined;
      } else this.say("hold.ask_title", "hold_ask");
      return;
    }
    const t = this.title(p.titleId);
    const onHold = m.holds.some((h) => h.titleId === t.id);
    if (onHold || m.loans.some((l) => l.titleId === t.id)) {
      this.end("hold.refused_available", "hold_duplicate", {
        title: t.title,
        why: onHold ? "have a hold on" : "have a copy of",
      });
      return;
    }
    if (t.restricted && m.kind === "child" && !this.has("child_restricted_hold")) {
      this.end("hold.refused_restricted", "hold_restricted", { title: t.title });
      return;
    }
    if (t.available > 0) {
      this.end("hold.refused_available", "hold_available", {
        title: t.title,
        avail: t.available,
        copyword: D.plural(t.available, "copy", "copies"),
      });
      return;
    }
    p.step = "gate";
    this.say("hold.confirm", "hold_confirm", { title: t.title });
  }

  private holdGate(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const other = D.matchTitle(this.db, raw);
    if (other && other.id !== p.titleId) {
      p.titleId = other.id;
      this.runHold(p);
      return true;
    }
    const title = this.title(p.titleId);
    const branch = D.parseBranch(t);
    if (branch) {
      const m = this.me();
      this.pending = null;
      m.holds.push({ titleId: title.id, branch });
      title.holds++;
      this.events.push(`hold:${m.card}:${title.id}:${branch}`);
      return this.say("hold.placed", "hold_placed", { title: title.title, branch, position: title.holds });
    }
    if (D.isNo(t)) return this.end("hold.declined", "hold_declined", { title: title.title });
    if (intent && intent !== "hold" && !D.isYes(t)) return false;
    return this.say("hold.confirm", "hold_confirm", { title: title.title });
  }

  // fines -----------------------------------------------------------

  private owed(m: Member): number {
    const lines = m.fines.filter((f) => this.has("fine_wrong_total") || !f.waived);
    return lines.reduce((s, f) => s + f.cents, 0) - m.paidCents;
  }

  private runFine(p: Pending): void {
    const m = this.me();
    const total = this.owed(m);
    if (total <= 0) {
      this.end("fine.none", "fine_none", { first: m.name.split(" ")[0] ?? m.name });
      return;
    }
    if (p.amount === undefined) {
      p.step = "amount";
      this.events.push(`fine_total:${m.card}:${total}`);
      const items = m.fines.map((f) => `${f.what} ${D.fmtMoney(f.cents)}${f.waived ? " (waived)" : ""}`);
      this.say("fine.ask_amount", "fine_ask", {
        total: D.fmtMoney(total),
        list: items.map((i) => `• ${i}`).join("\n"),
        items: items.join("; "),
      });
      return;
    }
    const amount = p.amount === "full" ? total : p.amount;
    const vars = {
      amount: D.fmtMoney(amount),
      total: D.fmtMoney(total),
      min: D.fmtMoney(D.POLICY.minPartialCents),
    };
    if (amount > total) {
      p.amount = undefined;
      p.step = "amount";
      this.say("fine.refused_amount", "fine_over", vars);
      return;
    }
    if (amount < D.POLICY.minPartialCents && amount !== total) {
      p.amount = undefined;
      p.step = "amount";
      this.say("fine.refused_amount", "fine_min", vars);
      return;
    }
    p.amount = amount;
    p.step = "gate";
    this.say("fine.confirm", "fine_confirm", {
      amount: D.fmtMoney(amount),
      remaining: D.fmtMoney(total - amount),
    });
  }

  private amountStep(p: Pending, t: string, intent: Intent | null): boolean {
    const amount = D.parseAmount(t, true);
    if (amount === null) {
      if (D.isNo(t)) {
        this.cancel(p);
        return true;
      }
      if (intent && intent !== "fine") return false;
    } else p.amount = amount;
    this.runFine(p);
    return true;
  }

  private fineGate(p: Pending, t: string, intent: Intent | null): boolean {
    const m = this.me();
    const amount = D.parseAmount(t, false);
    if (amount !== null) {
      p.amount = amount;
      this.runFine(p);
      return true;
    }
    const four = D.parseFourDigits(t);
    if (four) {
      if (four !== m.payLast4) return this.say("fine.last4_wrong", "fine_last4_wrong");
      const paid = p.amount as number;
      const remaining = this.owed(m) - paid;
      m.paidCents += paid;
      this.pending = null;
      this.events.push(`fine_paid:${m.card}:${paid}:${remaining}`);
      return this.say("fine.paid", "fine_paid", {
        amount: D.fmtMoney(paid),
        remaining: D.fmtMoney(remaining),
      });
    }
    if (D.isNo(t)) return this.end("fine.declined", "fine_declined", { total: D.fmtMoney(this.owed(m)) });
    if (intent && intent !== "fine" && !D.isYes(t)) return false;
    this.runFine(p);
    return true;
  }

  // study rooms -----------------------------------------------------

  /** Reads room details from normalised text into `slots`; how many it found. */
  private parseRoomInto(t: string, slots: RoomSlots): number {
    let rest = t;
    let n = 0;
    const take = <K extends keyof RoomSlots>(k: K, parse: (x: string) => D.Found<RoomSlots[K]> | null) => {
      const found = parse(rest);
      if (found) [slots[k], rest, n] = [found.value, found.rest, n + 1];
    };
    take("date", D.parseDate);
    take("start", D.parseTime);
    take("hours", D.parseHours);
    take("people", D.parsePeople);
    return n;
  }

  private missing(s: RoomSlots): (keyof RoomSlots)[] {
    return (["date", "start", "hours", "people"] as const).filter((k) => s[k] === undefined);
  }

  /** Checks the details known so far; false (after explaining) when one breaks a rule. */
  private validateRoom(s: RoomSlots): boolean {
    if (s.date) {
      const ahead = D.daysBetween(D.TODAY, s.date);
      const last = D.addDays(D.TODAY, D.POLICY.bookingWindowDays - 1);
      if (ahead < 0 || ahead >= D.POLICY.bookingWindowDays) {
        const date = D.fmtDate(s.date);
        s.date = undefined;
        this.say("room.refused_date", "room_date", {
          date,
          window: D.POLICY.bookingWindowDays,
          last: D.fmtDate(last),
        });
        return false;
      }
      if (!D.OPENING[D.weekday(s.date)]) {
        const vars = { date: D.fmtDate(s.date), day: D.dayName(D.weekday(s.date)) };
        s.date = undefined;
        this.say("room.refused_hours", "room_closed", vars);
        return false;
      }
    }
    if (
      s.hours !== undefined &&
      (!Number.isInteger(s.hours) || s.hours < 1 || s.hours > D.POLICY.maxRoomHours)
    ) {
      const hours = s.hours;
      s.hours = undefined;
      this.say("room.refused_duration", "room_duration", { hours, max: D.POLICY.maxRoomHours });
      return false;
    }
    const max = Math.max(...this.db.rooms.map((r) => r.capacity));
    if (s.people !== undefined && s.people < 1) s.people = undefined;
    if (s.people !== undefined && s.people > max) {
      const people = s.people;
      s.people = undefined;
      this.say("room.refused_capacity", "room_capacity", { people, max });
      return false;
    }
    if (s.date && s.start !== undefined) {
      const [open, close] = D.OPENING[D.weekday(s.date)]!;
      const end = s.start + (s.hours ?? 1) * 60;
      const early = s.start < open * 60;
      const late = s.start >= close * 60 || (s.hours !== undefined && end > close * 60);
      if (early || (late && !this.has("room_outside_hours"))) {
        const hours = s.hours ?? 1;
        const vars = {
          day: D.dayName(D.weekday(s.date)),
          open: D.fmtHour(open),
          close: D.fmtHour(close),
          start: D.fmtTime(s.start),
          hours,
          hourword: D.plural(hours, "hour", "hours"),
        };
        s.start = undefined;
        this.say("room.refused_hours", "room_hours", vars);
        return false;
      }
    }
    return true;
  }

  private runRoom(p: Pending): void {
    const s = p.room;
    p.step = "details";
    if (!this.validateRoom(s)) return;
    const missing = this.missing(s);
    if (missing.length > 0) {
      this.say("room.ask_details", "room_ask", {
        pre: "",
        missing: D.joinWords(missing.map((k) => D.SLOT_WORDS[k])),
      });
      return;
    }
    const { date, start, hours, people } = s as Required<RoomSlots>;
    const free = this.db.rooms
      .filter((r) => r.capacity >= people)
      .sort((a, b) => a.capacity - b.capacity)
      .find(
        (r) =>
          !this.db.bookings.some(
            (b) =>
              b.roomId === r.id &&
              b.date === date &&
              start < b.start + b.hours * 60 &&
              b.start < start + hours * 60,
          ),
      );
    if (!free) {
      s.start = undefined;
      this.say("room.unavailable", "room_unavailable", {
        people: `${people} ${D.plural(people, "person", "people")}`,
        date: D.fmtDate(date),
        start: D.fmtTime(start),
      });
      return;
    }
    const plan: RoomPlan = { roomId: free.id, roomName: free.name, date, start, hours, people };
    if (this.has("room_skip_confirm")) {
      this.book(plan);
      return;
    }
    if (!(this.has("forget_gate_correction") && p.plan)) p.plan = plan;
    p.step = "gate";
    this.say("room.confirm", "room_confirm", this.planVars(plan));
  }

  private planVars(plan: RoomPlan): Vars {
    const room = plan.roomName.charAt(0).toUpperCase() + plan.roomName.slice(1);
    return {
      room,
      date: D.fmtDate(plan.date),
      start: D.fmtTime(plan.start),
      end: D.fmtTime(plan.start + plan.hours * 60),
      hours: plan.hours,
      hourword: D.plural(plan.hours, "hour", "hours"),
      people: `${plan.people} ${D.plural(plan.people, "person", "people")}`,
    };
  }

  private book(plan: RoomPlan): void {
    const m = this.me();
    this.pending = null;
    const ref = `RB-${3000 + this.db.bookings.length}`;
    this.db.bookings.push({ ...plan, card: m.card, ref });
    this.events.push(`room:${m.card}:${plan.roomId}:${plan.date}:${plan.start}:${plan.hours}:${plan.people}`);
    this.say("room.booked", "room_booked", { ...this.planVars(plan), ref });
  }

  private detailsStep(p: Pending, t: string, intent: Intent | null): boolean {
    const s = p.room;
    if (this.parseRoomInto(t, s) === 0) {
      const n = D.parseBareNumber(t);
      const missing = this.missing(s);
      const named = D.ROOM_SLOT_NAMES.filter(([, re]) => re.test(t)).map(([k]) => k);
      if (n !== null && missing.length === 1 && missing[0] !== "date") {
        const k = missing[0]!;
        if (k === "start") s.start = (n >= 1 && n <= 7 ? n + 12 : n) * 60;
        else s[k] = n;
      } else if (named.length > 0 && missing.length === 0) {
        for (const k of named) s[k] = undefined;
      } else if (D.isNo(t)) {
        this.cancel(p);
        return true;
      } else if (intent && intent !== "room") return false;
    }
    this.runRoom(p);
    return true;
  }

  private roomGate(p: Pending, t: string, intent: Intent | null): boolean {
    const changed: RoomSlots = {};
    if (this.parseRoomInto(t, changed) > 0) {
      Object.assign(p.room, changed);
      this.runRoom(p);
      return true;
    }
    if (/\b(edit|change)\b/.test(t)) {
      p.step = "details";
      return this.say("room.ask_details", "room_edit");
    }
    if (D.isYes(t)) {
      this.book(p.plan!);
      return true;
    }
    if (D.isNo(t)) return this.end("room.declined", "room_declined");
    if (intent && intent !== "room") return false;
    return this.say("room.confirm", "room_confirm", this.planVars(p.plan!));
  }

  // email -----------------------------------------------------------

  private runEmail(p: Pending): void {
    const m = this.me();
    if (!p.email) {
      p.step = "email";
      this.say("email.ask", "email_ask", { masked: D.maskEmail(m.email) });
      return;
    }
    p.step = "gate";
    this.say("email.confirm", "email_confirm", { old: m.email, new: p.email });
  }

  private emailStep(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const email = D.parseEmail(raw);
    if (email) {
      p.email = email;
      this.runEmail(p);
      return true;
    }
    if (D.isNo(t)) {
      this.cancel(p);
      return true;
    }
    if (intent && intent !== "email") return false;
    return this.say("email.ask", "email_invalid");
  }

  private emailGate(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const m = this.me();
    const email = D.parseEmail(raw);
    if (email && email !== p.email) {
      p.email = email;
      this.runEmail(p);
      return true;
    }
    if (D.isYes(t)) {
      this.pending = null;
      m.email = p.email!;
      this.events.push(`email:${m.card}:${m.email}`);
      return this.say("email.updated", "email_updated", { new: m.email });
    }
    if (D.isNo(t)) {
      this.pending = null;
      const kept = D.maskEmail(m.email);
      if (this.has("email_decline_writes")) {
        m.email = p.email!;
        this.events.push(`email:${m.card}:${m.email}`);
      }
      return this.say("email.declined", "email_declined", { masked: kept });
    }
    if (intent && intent !== "email") return false;
    this.runEmail(p);
    return true;
  }

  // lost card -------------------------------------------------------

  private runLost(p: Pending): void {
    if (this.has("lost_no_gate")) this.reportLost();
    else {
      p.step = "gate";
      this.say("lost.confirm", "lost_confirm", { last4: this.me().card.slice(-4) });
    }
  }

  private reportLost(): void {
    const m = this.me();
    this.pending = null;
    m.blocked = true;
    this.member = null;
    this.events.push(`lost:${m.card}`);
    this.say("lost.reported", "lost_reported", { last4: m.card.slice(-4) });
  }

  private lostGate(p: Pending, raw: string, t: string, intent: Intent | null): boolean {
    const m = this.me();
    const pin = D.parseFourDigits(raw);
    if (pin) {
      if (pin === m.pin) this.reportLost();
      else this.say("lost.pin_mismatch", "lost_mismatch");
      return true;
    }
    if (D.isNo(t)) return this.end("lost.declined", "lost_declined", { last4: m.card.slice(-4) });
    if (intent && intent !== "lost" && !D.isYes(t)) return false;
    this.runLost(p);
    return true;
  }
}

/** Shelfwise, the Riverbend Public Library member assistant (held-out testbed agent 11). */
export const heldout11Agent: TestbedAgent = {
  name: "heldout11",
  description:
    "Public-library member assistant: card+PIN sign-in (3 strikes lock); renew yes/no, hold branch option list, " +
    "fine last-4 authorisation, study-room CONFIRM/EDIT summary, email yes/no, lost-card PIN re-type gate.",
  faults: HELDOUT11_FAULTS,
  states: HELDOUT11_STATES,
  facts: D.FACTS,
  create(options = {}) {
    return new ShelfwiseTarget(options.faults ?? [], options.seed ?? 1);
  },
};
