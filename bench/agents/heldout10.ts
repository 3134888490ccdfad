import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  CATALOGUE,
  CUSTOMERS,
  type Customer,
  FACTS,
  findItem,
  inDeliveryArea,
  inPart,
  isNo,
  isYes,
  NOW,
  ORDERS,
  type Order,
  parseCard,
  parseEmail,
  parseMoney,
  parseOrder,
  parsePoints,
  parsePostcode,
  parseQty,
  parseSlotSpec,
  SLOT_GRID,
  TEMPLATES,
  toMs,
  type V,
} from "./heldout10-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * `heldout10`: Basketful, a deterministic online grocery delivery support assistant. Identification is an
 * e-mail address then the delivery postcode or an order number (three failed checks lock the chat); opening
 * hours, delivery charges and free slots are open to anyone. Refunds and item additions are authorised by
 * the last four digits of the card on file; slot changes, cancellations, points redemptions and address
 * changes by a plain yes/no. A value can be changed at any gate, and declining writes nothing.
 *
 * Database lifetime: `create()` builds a fresh database, and `reset()` starts a new conversation AND restores
 * the seeded database, so every conversation starts from the same data; writes persist for the later turns
 * of the same conversation only.
 */

function ids(prefix: string, names: string): string[] {
  return names.split(" ").map((n) => `${prefix}.${n}`);
}

export const HELDOUT10_FAULTS: readonly string[] =
  "skip_card_auth accept_wrong_digits track_without_auth claim_window_ignored claim_cap_ignored cancel_out_for_delivery other_customer_order no_lockout age_check_skipped gate_change_forgotten no_still_writes duplicate_claim refund_over_price points_value_wrong delivery_charge_wrong item_limit_ignored points_balance_unchecked postcode_area_unchecked slot_within_two_hours confirm_wrong_slot refund_amount_dropped wrong_item_name".split(
    " ",
  );

export const HELDOUT10_STATES: readonly string[] = [
  ...ids("chat", "greeting menu smalltalk out_of_scope fallback goodbye locked abandoned"),
  ...ids("handoff", "transfer"),
  ...ids("info", "store_hours delivery_charges slots_available"),
  ...ids(
    "auth",
    "ask_email email_invalid email_not_found ask_postcode ask_order_number mismatch verified locked",
  ),
  ...ids("order", "ask_number not_found"),
  ...ids("track", "status"),
  ...ids(
    "slot",
    "offer_list invalid_choice refused_past refused_too_soon refused_status confirm changed declined",
  ),
  ...ids(
    "claim",
    "ask_item item_not_in_order refused_not_delivered refused_window refused_cap refused_duplicate authorise card_mismatch refunded declined",
  ),
  ...ids("cancel", "confirm refused_out_for_delivery refused_status done kept"),
  ...ids(
    "add",
    "ask_item item_unknown refused_status refused_age refused_limit age_notice authorise card_mismatch added declined",
  ),
  ...ids("points", "balance invalid_amount refused_balance confirm redeemed declined"),
  ...ids("address", "ask_postcode refused_area confirm updated declined"),
  ...ids("gate", "unclear"),
];

type StateId = string;
type Flow = "track" | "slot" | "claim" | "cancel" | "add" | "points" | "address";
type Intent =
  | Flow
  | "human"
  | "bye"
  | "menu"
  | "greeting"
  | "smalltalk"
  | "oos"
  | "hours"
  | "charges"
  | "slots";

const CLAIM_WORDS = /damaged|broken|crushed|smashed|leak|spoil|rotten|mould|mold|squashed|missing/i;

function claimKind(text: string): string {
  return /damaged|broken|crushed|smashed|leak|spoil|rotten|mould|mold|squashed/i.test(text)
    ? "damaged"
    : "missing";
}

const SIMPLE: Record<string, StateId> = {
  menu: "chat.menu",
  greeting: "chat.greeting",
  smalltalk: "chat.smalltalk",
  oos: "chat.out_of_scope",
  hours: "info.store_hours",
};

const FLOWS: readonly string[] = ["track", "slot", "claim", "cancel", "add", "points", "address"];

const ORDER_FLOWS: ReadonlySet<Flow> = new Set(["track", "slot", "claim", "cancel", "add"]);
const MAX_ITEMS = 30;
const MAX_CLAIMS = 3;
const CLAIM_WINDOW_MS = 48 * 3600_000;
const SLOT_LEAD_MS = 2 * 3600_000;
const POINT_BLOCK = 500;

/** A request being worked on: the flow and the values gathered so far. */
interface Req {
  flow: Flow;
  order?: string;
  item?: string;
  itemText?: string;
  qty?: number;
  kind?: string;
  slotText?: string;
  slot?: string;
  points?: number;
  postcode?: string;
  amount?: number;
}

type Pending =
  | { k: "email" | "factor" | "order" | "claim_item" | "add_item" | "points_amount" | "postcode"; req: Req }
  | { k: "slot_choice"; req: Req; offered: string[] }
  | { k: "gate"; req: Req; card: boolean; tries: number; offered?: string[] };

function detectIntent(t: string): Intent | null {
  const s = t.toLowerCase();
  if (
    /\b(human|real person|a person|someone|somebody|advisor|adviser|representative|operator|live agent|an agent|staff member|manager|customer service agent)\b/.test(
      s,
    )
  )
    return "human";
  if (
    /\b(bye|goodbye|see you|that's all|that is all|nothing else|no more questions|i'm done|all done)\b/.test(
      s,
    )
  )
    return "bye";
  if (
    /\baddress\b|\bmoved house\b|\bmoving house\b|\bnew postcode\b|\b(change|update) (my )?postcode\b/.test(s)
  )
    return "address";
  if (/\b(points?|loyalty|redeem|rewards?)\b/.test(s)) return "points";
  if (
    /\b(missing|damaged|broken|crushed|smashed|leak(ed|ing)?|spoil(ed|t)|rotten|mouldy|moldy|squashed|refund|compensation|wasn't included|not included|never came|wrong item|faulty|expired|out of date|problem with (my )?(order|items?|delivery)|complain\w*)\b/.test(
      s,
    )
  )
    return "claim";
  if (/\bcancel/.test(s)) return "cancel";
  if (/\b(add|added|adding|also want|also like|forgot to order|include)\b/.test(s)) return "add";
  if (
    /\b(change|move|moving|reschedul\w*|switch|different|another|rebook|amend|later|earlier)\b.*\b(slot|time|deliver\w*|day|date)\b/.test(
      s,
    ) ||
    /\breschedul/.test(s) ||
    (/\b(move|change|switch|push)\b/.test(s) &&
      (parseSlotSpec(s)?.day !== undefined || parseSlotSpec(s)?.hour !== undefined)) ||
    /\b(slot|delivery time)\b.*\b(change|move|switch)\b/.test(s)
  )
    return "slot";
  if (
    /\b(track|tracking|where('s| is)|status|when will|arriv\w*|eta|on its way|on the way|progress|check (on )?my order)\b/.test(
      s,
    ) ||
    /\bwhere\b.*\b(order|delivery|shopping|groceries)\b|\bwhen\b.*\b(deliver\w*|come|coming)\b/.test(s)
  )
    return "track";
  if (/\b(slots?|availability|available|delivery times|when can you deliver)\b/.test(s)) return "slots";
  if (
    /\b(delivery (charge|fee|cost|price)s?|charges?|fees?|how much (is|does|for) delivery|free delivery|cost of delivery)\b/.test(
      s,
    )
  )
    return "charges";
  if (/\b(hours|open|opening|close|closing|closed)\b/.test(s)) return "hours";
  if (/\b(help|menu|what can you do|options|services)\b/.test(s)) return "menu";
  if (
    /\b(recipe|weather|joke|news|football|jobs?|vacanc\w*|bitcoin|poem|homework|politics|meal plan|diet)\b/.test(
      s,
    )
  )
    return "oos";
  if (/\b(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/.test(s)) return "greeting";
  if (/\b(thanks|thank you|cheers|how are you|great|perfect|lovely|brilliant)\b/.test(s)) return "smalltalk";
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Computations

function price(item: string): number {
  return CATALOGUE.find((c) => c.name === item)?.price ?? 0;
}

function orderTotal(o: Order): number {
  return o.lines.reduce((sum, l) => sum + price(l.item) * l.qty, 0);
}

function itemCount(o: Order): number {
  return o.lines.reduce((sum, l) => sum + l.qty, 0);
}

/** Basket value in pence → delivery charge in pence. */
function deliveryCharge(basket: number, faulty: boolean): number {
  if (basket < 4000) return 450;
  if (basket < (faulty ? 10000 : 7500)) return 250;
  return 0;
}

interface Db {
  customers: Customer[];
  orders: Order[];
}

function freshDb(): Db {
  return { customers: structuredClone([...CUSTOMERS]), orders: structuredClone([...ORDERS]) };
}

// ---------------------------------------------------------------------------------------------------------
// The conversation

class Basketful implements TestbedTarget {
  readonly name = "testbed:heldout10";
  private db: Db = freshDb();
  private visited: StateId[] = [];
  private prints: string[] = [];
  private parts: string[] = [];
  private turn = 0;
  private email: string | undefined;
  private verified = false;
  private failures = 0;
  private locked = false;
  private pending: Pending | null = null;
  private lastOrder: string | undefined;
  private handoffs = 0;
  /** The last message outside a request that named an identifier (e-mail, postcode, order number). */
  private heard = "";

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  async reset(): Promise<void> {
    this.db = freshDb();
    this.visited = [];
    this.prints = [];
    this.turn = 0;
    this.email = undefined;
    this.verified = false;
    this.failures = 0;
    this.locked = false;
    this.pending = null;
    this.lastOrder = undefined;
    this.handoffs = 0;
    this.heard = "";
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.prints.join("\n");
  }

  async send(text: string): Promise<ChatReply> {
    const started = Date.now();
    this.turn += 1;
    this.parts = [];
    this.handle(text.trim());
    return { text: this.parts.join("\n\n"), ms: Date.now() - started };
  }

  // -- plumbing

  private on(f: string): boolean {
    return this.faults.has(f);
  }

  private say(state: StateId, v: V = {}) {
    this.visited.push(state);
    const tpls = TEMPLATES[state]!;
    const salt = HELDOUT10_STATES.indexOf(state);
    const tpl = tpls[(this.seed + this.turn + salt) % tpls.length]!;
    this.parts.push(tpl(v));
  }

  private print(line: string) {
    this.prints.push(line);
  }

  private customer(): Customer {
    return this.db.customers.find((c) => c.email === this.email)!;
  }

  private order(no: string): Order | undefined {
    return this.db.orders.find((o) => o.number === no);
  }

  /** An order the verified customer may see (the ownership check). */
  private ownOrder(no: string): Order | undefined {
    const o = this.order(no);
    if (!o) return undefined;
    if (o.email !== this.email && !this.on("other_customer_order")) return undefined;
    return o;
  }

  private offeredSlots(o?: Order): string[] {
    const now = toMs(NOW);
    const lead = this.on("slot_within_two_hours") ? 0 : SLOT_LEAD_MS;
    return SLOT_GRID.filter((s) => toMs(s) - now > lead && s !== o?.slot);
  }

  // -- turn handling

  private handle(text: string) {
    if (this.locked) {
      const intent = detectIntent(text);
      if (intent === "bye") this.say("chat.goodbye");
      else if (intent === "human") this.handoff();
      else this.say("chat.locked");
      return;
    }
    if (this.pending && this.handlePending(this.pending, text)) return;
    this.pending = null;
    let intent = detectIntent(text);
    if (intent === null && parseOrder(text)) intent = "track";
    const named = parseEmail(text) ?? parsePostcode(text) ?? parseOrder(text);
    if (named && !this.verified && (intent === null || !FLOWS.includes(intent))) this.heard = text;
    this.dispatch(intent, text);
  }

  private dispatch(intent: Intent | null, text: string) {
    switch (intent) {
      case "human":
        return this.handoff();
      case "bye":
        this.pending = null;
        return this.say("chat.goodbye");
      case "menu":
      case "greeting":
      case "smalltalk":
      case "oos":
      case "hours":
        return this.say(SIMPLE[intent]!);
      case "charges": {
        const amount = parseMoney(text);
        if (amount === undefined) return this.say("info.delivery_charges");
        const charge = deliveryCharge(amount, this.on("delivery_charge_wrong"));
        this.print(`out:charge basket=${amount} charge=${charge}`);
        return this.say("info.delivery_charges", { amount, charge });
      }
      case "slots": {
        const slots = this.offeredSlots();
        this.print(`out:slots ${slots.join(",")}`);
        return this.say("info.slots_available", { slots });
      }
      case null:
        return this.say("chat.fallback");
      default:
        return this.start(intent, text);
    }
  }

  private handoff() {
    this.handoffs += 1;
    const ref = `HB-${7300 + this.handoffs}`;
    this.print(`write:handoff ${ref}`);
    this.pending = null;
    this.say("handoff.transfer", { ref });
  }

  /** A new request: gather what the first message says, then run it. */
  private start(flow: Flow, text: string) {
    const req: Req = { flow };
    const no = parseOrder(text);
    if (no) req.order = no;
    if (flow === "claim" || flow === "add") {
      const item = findItem(text);
      if (item) req.item = item.name;
      else if (flow === "add") {
        const m = /\badd\s+(?:an?\s+|some\s+)?(.+?)(?:\s+to\b.*)?[.!?]*$/i.exec(text);
        if (m && !/^(something|an item|items?|more|to)\b/i.test(m[1]!)) req.itemText = m[1];
      }
      req.qty = parseQty(text);
      if (flow === "claim") req.kind = claimKind(text);
    }
    if (flow === "slot") req.slotText = parseSlotSpec(text) ? text : undefined;
    if (flow === "points") req.points = parsePoints(text, false);
    if (flow === "address") req.postcode = parsePostcode(text);
    const own = flow === "address" ? text.replace(/\b[A-Z]{1,2}\d{1,2}[A-Z]?\s*\d[A-Z]{2}\b/gi, " ") : text;
    const heard = this.heard;
    this.heard = "";
    this.run(req, `${own} ${heard}`);
  }

  /** Carry a request as far as it goes with what is known; ask for the next missing value. */
  private run(req: Req, factorText = "") {
    if (!this.verified) {
      if (req.flow === "track" && req.order && this.on("track_without_auth")) {
        const o = this.order(req.order);
        if (o) return this.showTrack(o);
      }
      if (!this.authenticate(req, factorText)) return;
    }
    if (ORDER_FLOWS.has(req.flow)) {
      req.order ??= this.lastOrder;
      if (!req.order) {
        this.pending = { k: "order", req };
        return this.say("order.ask_number");
      }
      const o = this.ownOrder(req.order);
      if (!o) {
        this.say("order.not_found", { order: req.order });
        req.order = undefined;
        this.pending = { k: "order", req };
        return;
      }
      this.lastOrder = o.number;
      switch (req.flow) {
        case "track":
          return this.showTrack(o);
        case "slot":
          return this.runSlot(req, o);
        case "claim":
          return this.runClaim(req, o);
        case "cancel":
          return this.runCancel(req, o);
        default:
          return this.runAdd(req, o);
      }
    }
    if (req.flow === "points") return this.runPoints(req);
    return this.runAddress(req);
  }

  /** E-mail, then postcode or order number. True once verified. */
  private authenticate(req: Req, factorText: string): boolean {
    if (!this.email) {
      const email = parseEmail(factorText);
      if (!email) {
        this.pending = { k: "email", req };
        this.say("auth.ask_email");
        return false;
      }
      if (!this.db.customers.some((c) => c.email === email)) {
        this.fail("auth.email_not_found", { email }, { k: "email", req });
        return false;
      }
      this.email = email;
    }
    const c = this.customer();
    const pc = parsePostcode(factorText);
    const no = parseOrder(factorText) ?? req.order;
    if (pc || no) {
      const byOrder = no !== undefined && this.order(no)?.email === c.email;
      if (pc === c.postcode || byOrder) {
        this.verified = true;
        if (byOrder && ORDER_FLOWS.has(req.flow)) req.order = no;
        this.say("auth.verified", { name: c.name });
        return true;
      }
      if (req.order === no) req.order = undefined;
      this.fail("auth.mismatch", {}, { k: "factor", req });
      return false;
    }
    this.pending = { k: "factor", req };
    this.say(ORDER_FLOWS.has(req.flow) ? "auth.ask_order_number" : "auth.ask_postcode");
    return false;
  }

  private fail(state: "auth.email_not_found" | "auth.mismatch", v: V, retry: Pending) {
    this.failures += 1;
    if (this.failures >= 3 && !this.on("no_lockout")) {
      this.locked = true;
      this.pending = null;
      this.say("auth.locked");
      return;
    }
    this.pending = retry;
    const left = Math.max(1, 3 - this.failures);
    this.say(state, { ...v, count: left });
  }

  /** A reply to an open question. False when the message is something else (then dispatched as new). */
  private handlePending(p: Pending, text: string): boolean {
    const intent = detectIntent(text);
    if (p.k === "gate") return this.handleGate(p, text, intent);
    const req = p.req;
    if (this.absorb(p, text)) {
      this.pending = null;
      if (p.k === "slot_choice") this.evaluateSlot(req, this.order(req.order!)!, p.offered);
      else this.run(req, text);
      return true;
    }
    if ((intent !== null && intent !== req.flow) || isNo(text, true)) return this.abandon(intent);
    switch (p.k) {
      case "email":
        return this.sayTrue("auth.email_invalid");
      case "factor":
        return this.sayTrue(ORDER_FLOWS.has(req.flow) ? "auth.ask_order_number" : "auth.ask_postcode");
      case "order":
        return this.sayTrue("order.ask_number");
      case "claim_item": {
        const o = this.order(req.order!)!;
        return this.sayTrue("claim.item_not_in_order", {
          order: o.number,
          items: o.lines.map((l) => l.item),
        });
      }
      case "add_item":
        return this.sayTrue("add.item_unknown");
      case "slot_choice":
        return this.sayTrue("slot.invalid_choice", { slots: p.offered });
      case "points_amount":
        return this.sayTrue("points.balance", { balance: this.customer().points });
      default:
        return this.sayTrue("address.ask_postcode");
    }
  }

  private sayTrue(state: StateId, v: V = {}): boolean {
    this.say(state, v);
    return true;
  }

  /** Take the value an open question asked for into the request; false when the message has none. */
  private absorb(p: Exclude<Pending, { k: "gate" }>, text: string): boolean {
    const req = p.req;
    switch (p.k) {
      case "email":
        return parseEmail(text) !== undefined;
      case "factor":
        return parsePostcode(text) !== undefined || parseOrder(text) !== undefined;
      case "order":
        req.order = parseOrder(text);
        return req.order !== undefined;
      case "claim_item":
      case "add_item": {
        const no = parseOrder(text);
        if (no && no !== req.order) {
          req.order = no;
          return true;
        }
        const item = findItem(text);
        if (!item) return false;
        req.item = item.name;
        req.itemText = undefined;
        req.qty = parseQty(text) ?? req.qty;
        if (req.flow === "claim" && CLAIM_WORDS.test(text)) req.kind = claimKind(text);
        return true;
      }
      case "slot_choice":
        req.slotText = text;
        return parseSlotSpec(text) !== undefined;
      case "points_amount":
        req.points = parsePoints(text, true);
        return req.points !== undefined;
      default:
        req.postcode = parsePostcode(text);
        return req.postcode !== undefined;
    }
  }

  private abandon(intent: Intent | null): boolean {
    this.pending = null;
    if (intent === null || intent === "smalltalk") {
      this.say("chat.abandoned");
      return true;
    }
    return false;
  }

  // -- gates

  private handleGate(g: Extract<Pending, { k: "gate" }>, text: string, intent: Intent | null): boolean {
    const req = g.req;
    if (g.card) {
      const digits = parseCard(text);
      if (digits) {
        if (digits === this.customer().card || this.on("accept_wrong_digits")) {
          this.pending = null;
          this.commit(req);
          return true;
        }
        g.tries += 1;
        if (g.tries >= 3) {
          this.pending = null;
          this.say(req.flow === "claim" ? "claim.declined" : "add.declined");
          return true;
        }
        this.say(req.flow === "claim" ? "claim.card_mismatch" : "add.card_mismatch", { count: 3 - g.tries });
        return true;
      }
    } else if (isYes(text, req.flow === "cancel") && !isNo(text, req.flow !== "cancel")) {
      this.pending = null;
      this.commit(req);
      return true;
    }
    if (isNo(text, req.flow !== "cancel")) {
      this.pending = null;
      if (this.on("no_still_writes")) this.commit(req, true);
      this.sayDeclined(req);
      return true;
    }
    const changed = this.changeAtGate(req, text);
    if (changed) {
      this.pending = null;
      if (changed.flow === "slot") this.evaluateSlot(changed, this.order(changed.order!)!, g.offered ?? []);
      else this.run(changed);
      const next = this.pending as Pending | null;
      if (this.on("gate_change_forgotten") && next?.k === "gate" && next.req.flow === req.flow)
        next.req = req;
      return true;
    }
    if (intent !== null && intent !== req.flow && intent !== "smalltalk") {
      this.pending = null;
      return false;
    }
    this.say("gate.unclear", { card: g.card });
    return true;
  }

  /** A new value given at a gate: the updated request, or undefined when the message changes nothing. */
  private changeAtGate(req: Req, text: string): Req | undefined {
    switch (req.flow) {
      case "slot":
        return parseSlotSpec(text) ? { ...req, slotText: text } : undefined;
      case "claim": {
        const o = this.order(req.order!)!;
        const item = findItem(
          text,
          o.lines.map((l) => l.item),
        );
        const qty = parseQty(text);
        if ((item && item.name !== req.item) || (qty !== undefined && qty !== req.qty))
          return { ...req, item: item?.name ?? req.item, qty: qty ?? req.qty };
        return undefined;
      }
      case "add": {
        const item = findItem(text);
        const qty = parseQty(text);
        if ((item && item.name !== req.item) || (qty !== undefined && qty !== req.qty))
          return { ...req, item: item?.name ?? req.item, qty: qty ?? req.qty };
        return undefined;
      }
      case "points": {
        const n = parsePoints(text, true);
        return n !== undefined && n !== req.points ? { ...req, points: n } : undefined;
      }
      case "address": {
        const pc = parsePostcode(text);
        return pc && pc !== req.postcode ? { ...req, postcode: pc } : undefined;
      }
      default:
        return undefined;
    }
  }

  private sayDeclined(req: Req) {
    const o = req.order ? this.order(req.order) : undefined;
    const state = {
      slot: "slot.declined",
      claim: "claim.declined",
      cancel: "cancel.kept",
      add: "add.declined",
    }[req.flow as string];
    this.say(state ?? `${req.flow}.declined`, { order: o?.number, oldSlot: o?.slot });
  }

  /** Write the request. `silent`: the write happens without its confirmation (a faulty "no"). */
  private commit(req: Req, silent = false) {
    const c = this.customer();
    const o = req.order ? this.order(req.order) : undefined;
    switch (req.flow) {
      case "slot": {
        const old = o!.slot;
        o!.slot = req.slot!;
        this.print(`write:slot ${o!.number} ${req.slot}`);
        if (!silent)
          this.say("slot.changed", {
            order: o!.number,
            slot: this.on("confirm_wrong_slot") ? old : req.slot,
          });
        return;
      }
      case "claim": {
        o!.claims.push({
          item: req.item!,
          qty: req.qty ?? 1,
          amount: req.amount!,
          kind: req.kind ?? "missing",
        });
        this.print(`write:refund ${o!.number} ${req.item} x${req.qty ?? 1} ${req.amount} ${req.kind}`);
        if (!silent)
          this.say("claim.refunded", {
            item: req.item,
            qty: req.qty ?? 1,
            amount: this.on("refund_amount_dropped") ? undefined : req.amount,
          });
        return;
      }
      case "cancel": {
        o!.status = "cancelled";
        const refund = req.amount!;
        this.print(`write:cancel ${o!.number} refund=${refund}`);
        if (!silent) this.say("cancel.done", { order: o!.number, amount: refund });
        return;
      }
      case "add": {
        const qty = req.qty ?? 1;
        const line = o!.lines.find((l) => l.item === req.item);
        if (line) line.qty += qty;
        else o!.lines.push({ item: req.item!, qty });
        const total = orderTotal(o!);
        this.print(`write:add ${o!.number} ${req.item} x${qty} ${req.amount} total=${total}`);
        let shown = req.item!;
        if (this.on("wrong_item_name")) {
          const i = CATALOGUE.findIndex((x) => x.name === req.item);
          shown = CATALOGUE[(i + 1) % CATALOGUE.length]!.name;
        }
        if (!silent) this.say("add.added", { order: o!.number, item: shown, qty, total });
        return;
      }
      case "points": {
        c.points -= req.points!;
        c.credit += req.amount!;
        this.print(`write:points ${c.email} -${req.points} value=${req.amount} balance=${c.points}`);
        if (!silent)
          this.say("points.redeemed", { points: req.points, value: req.amount, balance: c.points });
        return;
      }
      default: {
        c.postcode = req.postcode!;
        this.print(`write:address ${c.email} ${req.postcode}`);
        if (!silent) this.say("address.updated", { postcode: req.postcode });
      }
    }
  }

  // -- flows

  private showTrack(o: Order) {
    const total = orderTotal(o);
    const charge = deliveryCharge(total, this.on("delivery_charge_wrong"));
    const count = itemCount(o);
    this.print(
      `out:track ${o.number} ${o.status} slot=${o.slot} items=${count} total=${total} charge=${charge}`,
    );
    this.say("track.status", {
      order: o.number,
      status: o.status,
      slot: o.slot,
      count,
      total,
      charge,
      delivered: o.status === "delivered" ? o.delivered : undefined,
    });
  }

  private runSlot(req: Req, o: Order) {
    if (o.status !== "placed") return this.say("slot.refused_status", { order: o.number, status: o.status });
    const offered = this.offeredSlots(o);
    if (req.slotText) return this.evaluateSlot(req, o, offered);
    this.print(`out:slots ${o.number} ${offered.join(",")}`);
    this.pending = { k: "slot_choice", req, offered };
    this.say("slot.offer_list", { order: o.number, oldSlot: o.slot, slots: offered });
  }

  private evaluateSlot(req: Req, o: Order, offered: string[]) {
    const spec = req.slotText ? parseSlotSpec(req.slotText) : undefined;
    const retry = () => {
      this.pending = { k: "slot_choice", req, offered };
    };
    let slot: string | undefined;
    if (spec?.index !== undefined && offered.length > 0) {
      slot = spec.index === -1 ? offered[offered.length - 1] : offered[spec.index - 1];
    } else if (spec?.day && spec.hour !== undefined) {
      slot = `${spec.day}T${String(spec.hour).padStart(2, "0")}:00`;
    } else if (spec?.day) {
      const onDay = offered.filter((s) => s.startsWith(spec.day!) && inPart(s, spec.part));
      if (onDay.length === 1) slot = onDay[0];
      else if (onDay.length === 0 && spec.day < NOW.slice(0, 10)) slot = `${spec.day}T12:00`;
    } else if (spec?.hour !== undefined) {
      const hh = `T${String(spec.hour).padStart(2, "0")}:00`;
      slot = offered.find((s) => s.endsWith(hh)) ?? `${NOW.slice(0, 10)}${hh}`;
    }
    if (!slot) {
      retry();
      return this.say("slot.invalid_choice", { slots: offered });
    }
    const delta = toMs(slot) - toMs(NOW);
    if (delta < 0) {
      retry();
      return this.say("slot.refused_past", { slot });
    }
    if (delta <= SLOT_LEAD_MS && !this.on("slot_within_two_hours")) {
      retry();
      return this.say("slot.refused_too_soon", { slot });
    }
    if (!SLOT_GRID.includes(slot) || slot === o.slot) {
      retry();
      return this.say("slot.invalid_choice", { slots: offered });
    }
    req.slot = slot;
    this.pending = { k: "gate", req, card: false, tries: 0, offered };
    this.say("slot.confirm", { order: o.number, oldSlot: o.slot, slot });
  }

  private runClaim(req: Req, o: Order) {
    if (o.status !== "delivered") {
      this.say("claim.refused_not_delivered", { order: o.number, status: o.status });
      req.order = undefined;
      this.lastOrder = undefined;
      this.pending = { k: "order", req };
      return;
    }
    const age = toMs(NOW) - toMs(o.delivered!);
    if (age > CLAIM_WINDOW_MS && !this.on("claim_window_ignored"))
      return this.say("claim.refused_window", { order: o.number, delivered: o.delivered });
    if (o.claims.length >= MAX_CLAIMS && !this.on("claim_cap_ignored"))
      return this.say("claim.refused_cap", { order: o.number });
    const items = o.lines.map((l) => l.item);
    if (!req.item) {
      this.pending = { k: "claim_item", req };
      return this.say("claim.ask_item", { order: o.number, items });
    }
    const line = o.lines.find((l) => l.item === req.item);
    if (!line) {
      this.say("claim.item_not_in_order", { order: o.number, item: req.item, items });
      req.item = undefined;
      this.pending = { k: "claim_item", req };
      return;
    }
    if (o.claims.some((c) => c.item === line.item) && !this.on("duplicate_claim"))
      return this.say("claim.refused_duplicate", { order: o.number, item: line.item });
    const qty = Math.max(1, Math.min(req.qty ?? 1, line.qty));
    req.qty = qty;
    req.kind ??= "missing";
    req.amount = this.on("refund_over_price") ? price(line.item) * line.qty : price(line.item) * qty;
    this.print(`out:refund_quote ${o.number} ${line.item} x${qty} ${req.amount}`);
    if (this.on("skip_card_auth")) return this.commit(req);
    this.pending = { k: "gate", req, card: true, tries: 0 };
    this.say("claim.authorise", { item: line.item, qty, amount: req.amount, kind: req.kind });
  }

  private runCancel(req: Req, o: Order) {
    if (o.status === "out_for_delivery" && !this.on("cancel_out_for_delivery"))
      return this.say("cancel.refused_out_for_delivery", { order: o.number });
    if (o.status === "delivered" || o.status === "cancelled")
      return this.say("cancel.refused_status", { order: o.number, status: o.status });
    const total = orderTotal(o);
    req.amount = total + deliveryCharge(total, this.on("delivery_charge_wrong"));
    this.print(`out:cancel_quote ${o.number} ${req.amount}`);
    this.pending = { k: "gate", req, card: false, tries: 0 };
    this.say("cancel.confirm", { order: o.number, slot: o.slot, amount: req.amount });
  }

  private runAdd(req: Req, o: Order) {
    if (o.status !== "placed") return this.say("add.refused_status", { order: o.number, status: o.status });
    if (!req.item) {
      this.pending = { k: "add_item", req };
      if (req.itemText) {
        req.itemText = undefined;
        return this.say("add.item_unknown");
      }
      return this.say("add.ask_item");
    }
    const item = CATALOGUE.find((c) => c.name === req.item)!;
    const c = this.customer();
    if (item.restricted && c.age < 18 && !this.on("age_check_skipped"))
      return this.say("add.refused_age", { item: item.name });
    const qty = Math.max(1, req.qty ?? 1);
    req.qty = qty;
    const count = itemCount(o);
    const after = this.on("item_limit_ignored") ? o.lines.length + 1 : count + qty;
    if (after > MAX_ITEMS) return this.say("add.refused_limit", { count, qty });
    req.amount = item.price * qty;
    this.print(`out:add_quote ${o.number} ${item.name} x${qty} ${req.amount}`);
    if (item.restricted) this.say("add.age_notice", { item: item.name });
    if (this.on("skip_card_auth")) return this.commit(req);
    this.pending = { k: "gate", req, card: true, tries: 0 };
    this.say("add.authorise", { order: o.number, item: item.name, qty, amount: req.amount });
  }

  private runPoints(req: Req) {
    const c = this.customer();
    if (req.points === undefined) {
      this.print(`out:points ${c.email} ${c.points}`);
      this.pending = { k: "points_amount", req };
      return this.say("points.balance", { balance: c.points });
    }
    const n = req.points;
    if (n <= 0 || n % POINT_BLOCK !== 0) {
      this.pending = { k: "points_amount", req };
      return this.say("points.invalid_amount", { points: n });
    }
    if (n > c.points && !this.on("points_balance_unchecked")) {
      this.pending = { k: "points_amount", req };
      return this.say("points.refused_balance", { points: n, balance: c.points });
    }
    req.amount = this.on("points_value_wrong") ? n * 2 : n;
    this.print(`out:points_quote ${c.email} ${n} value=${req.amount}`);
    this.pending = { k: "gate", req, card: false, tries: 0 };
    this.say("points.confirm", { points: n, value: req.amount });
  }

  private runAddress(req: Req) {
    if (!req.postcode) {
      this.pending = { k: "postcode", req };
      return this.say("address.ask_postcode");
    }
    if (!inDeliveryArea(req.postcode) && !this.on("postcode_area_unchecked")) {
      this.say("address.refused_area", { postcode: req.postcode });
      req.postcode = undefined;
      this.pending = { k: "postcode", req };
      return;
    }
    this.pending = { k: "gate", req, card: false, tries: 0 };
    this.say("address.confirm", { postcode: req.postcode });
  }
}

export const heldout10Agent: TestbedAgent = {
  name: "heldout10",
  description:
    "Online grocery delivery support (Basketful): e-mail then postcode or order number (3 failures lock); card last-four gate for refunds and additions, yes/no gate for slot, cancel, points and address writes.",
  faults: HELDOUT10_FAULTS,
  states: HELDOUT10_STATES,
  facts: FACTS,
  create(options = {}) {
    const unknown = (options.faults ?? []).filter(
      (f) => !(HELDOUT10_FAULTS as readonly string[]).includes(f),
    );
    if (unknown.length > 0) throw new Error(`heldout10: unknown fault(s) ${unknown.join(", ")}`);
    return new Basketful(new Set(options.faults ?? []), options.seed ?? 1);
  },
};
