import { type ChatReply, TargetError } from "../../src/agents/chat/target.ts";
import type {
  Concession,
  Intent,
  Order,
  OrderIntent,
  Performance,
  Show,
  TemplateKey,
  Zone,
} from "./heldout13-data.ts";
import * as H from "./heldout13-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * heldout13: the Harbourside Hall box-office assistant (theatre and concert tickets), free-text dialogue with a
 * deterministic rule-based NLU. Records are per session: every reset() (and every create()) restores the seeded
 * orders and availability, and bookings, exchanges, refunds and requests made in one conversation never carry
 * over to the next. The sign-in lock, too, lasts only for the conversation.
 */

export const HELDOUT13_FAULTS = [
  "cap_off_by_one",
  "cap_ignores_held",
  "presale_code_unchecked",
  "age_check_skipped",
  "exchange_window_24h",
  "refund_if_past",
  "auth_any_customer_email",
  "resend_card_unchecked",
  "total_ignores_concession",
  "exchange_fee_once",
  "readback_qty_forgotten",
  "confirm_wrong_time",
  "leak_other_booking",
  "access_false_success",
  "final_zone_wrong",
] as const;
type Fault = (typeof HELDOUT13_FAULTS)[number];

/** The designed dialogue states. */
export const HELDOUT13_STATES: readonly string[] = `
public.greet public.help public.whats_on public.show_info public.parking public.access_info public.hours public.smalltalk public.unknown public.handoff public.goodbye
flow.cancelled
buy.ask_show buy.unknown_show buy.ask_date buy.ask_time buy.date_unavailable buy.refused_past buy.ask_presale_code buy.refused_presale buy.ask_age buy.refused_age buy.ask_quantity buy.refused_cap buy.ask_zone buy.zone_sold_out buy.ask_concession buy.ask_concession_type buy.concession_not_in_zone buy.ask_email buy.summary buy.summary_updated buy.confirmed buy.declined
auth.ask_reference auth.ask_email auth.not_found auth.mismatch auth.locked auth.signed_in
order.view order.refused_other
exchange.ask_date exchange.ask_time exchange.refused_window exchange.refused_past exchange.date_unavailable exchange.confirm exchange.done exchange.declined
refund.refused refund.confirm refund.done refund.declined refund.already
access.ask_need access.done
resend.confirm_on_file resend.ask_card resend.refused_card resend.done
`
  .trim()
  .split(/\s+/);
type State = string;

type AskSlot = "show" | "date" | "time" | "code" | "age" | "qty" | "zone" | "email" | "confirm";
type BuyExpect = AskSlot | "concession" | "concession_type" | "concession_fix";

interface Draft {
  showId?: string;
  date?: string;
  time?: string;
  perfId?: string;
  presaleOk?: boolean;
  ageOk?: boolean;
  qty?: number;
  zone?: Zone;
  concession?: Concession | "unspecified";
  email?: string;
  summarised?: boolean;
  /** Quantity at the first read-back. */
  readQty?: number;
}

type Flow =
  | { kind: "buy"; draft: Draft; expect: BuyExpect }
  | { kind: "auth"; pending: OrderIntent; ref?: string; email?: string; raw: string }
  | { kind: "exchange"; expect: "date" | "time" | "confirm"; date?: string; target?: string }
  | { kind: "refund" }
  | { kind: "access" }
  | { kind: "resend"; expect: "confirm" | "card"; address?: string }
  | { kind: "offer_exchange" };

type BuyFlow = Extract<Flow, { kind: "buy" }>;
type AuthFlow = Extract<Flow, { kind: "auth" }>;
type ExchangeFlow = Extract<Flow, { kind: "exchange" }>;
type ResendFlow = Extract<Flow, { kind: "resend" }>;

interface Out {
  state: State;
  text: string;
}

const ORDER_INTENTS: readonly Intent[] = ["view", "exchange", "refund", "access", "resend", "signin"];
const PUBLIC_REPLIES: Partial<Record<Intent, [State, TemplateKey]>> = {
  handoff: ["public.handoff", "handoff"],
  parking: ["public.parking", "parking"],
  hours: ["public.hours", "hours"],
  access_info: ["public.access_info", "access_info"],
  help: ["public.help", "help"],
  goodbye: ["public.goodbye", "goodbye"],
  thanks: ["public.smalltalk", "thanks"],
  chat: ["public.smalltalk", "chat"],
  greet: ["public.greet", "greet"],
};

// ---------------------------------------------------------------- the target

class BoxOffice implements TestbedTarget {
  readonly name = "heldout13";
  private readonly faults: ReadonlySet<Fault>;
  private readonly seed: number;
  private closed = false;
  private orders: Order[] = [];
  private visited: State[] = [];
  private effects: string[] = [];
  private uses = new Map<string, number>();
  private flow: Flow | undefined;
  private signedIn: string | undefined;
  private failures = 0;
  private locked = false;
  private nextRef = 9001;

  constructor(faults: readonly Fault[], seed: number) {
    this.faults = new Set(faults);
    this.seed = seed;
    this.clear();
  }

  private clear(): void {
    this.orders = H.ORDERS.map((o) => ({ ...o, access: [...o.access] }));
    this.visited = [];
    this.effects = [];
    this.uses = new Map();
    this.flow = undefined;
    this.signedIn = undefined;
    this.failures = 0;
    this.locked = false;
    this.nextRef = 9001;
  }

  async reset(): Promise<void> {
    if (this.closed) throw new TargetError(this.name, "target is closed");
    this.clear();
  }

  async send(text: string): Promise<ChatReply> {
    if (this.closed) throw new TargetError(this.name, "target is closed");
    const start = performance.now();
    const out = this.turn(text);
    this.visited.push(out.state);
    return { text: out.text, ms: performance.now() - start };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.effects.join("|");
  }

  private on(f: Fault): boolean {
    return this.faults.has(f);
  }

  private say(state: State, key: TemplateKey, vars: Record<string, string | number> = {}, prefix = ""): Out {
    const wordings: readonly string[] = H.TEMPLATES[key];
    const n = this.uses.get(key) ?? 0;
    this.uses.set(key, n + 1);
    let hash = 0;
    for (const ch of key) hash = (hash * 31 + ch.charCodeAt(0)) % 1009;
    const text = wordings[(this.seed - 1 + n + hash) % wordings.length]!.replace(
      /\{(\w+)\}/g,
      (_, k: string) => String(vars[k] ?? ""),
    );
    return { state, text: prefix + text };
  }

  /** Ends the current flow with a reply. */
  private end(state: State, key: TemplateKey, vars: Record<string, string | number> = {}): Out {
    this.flow = undefined;
    return this.say(state, key, vars);
  }

  /** In the buying flow: waits for `expect` next and replies. */
  private askFor(
    expect: BuyExpect,
    state: State,
    key: TemplateKey,
    vars: Record<string, string | number> = {},
  ) {
    if (this.flow?.kind === "buy") this.flow.expect = expect;
    return this.say(state, key, vars);
  }

  private order(): Order | undefined {
    return this.orders.find((o) => o.ref === this.signedIn);
  }

  // ------------------------------------------------------------ dispatch

  private turn(raw: string): Out {
    const t = raw.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
    const flow = this.flow;
    if (
      flow &&
      H.RX.cancel.test(t) &&
      !(flow.kind === "buy" && flow.expect === "confirm" && H.findQty(t, false))
    ) {
      return this.end("flow.cancelled", "flow_cancelled");
    }
    if (flow) {
      const out = this.continueFlow(flow, t, raw);
      if (out) return out;
    }
    const intent = H.detectIntent(t, raw);
    if (flow && !intent) return this.reprompt(flow);
    if (flow && intent === "buy" && flow.kind === "buy") return this.reprompt(flow);
    return this.route(intent, t, raw);
  }

  private route(intent: Intent | undefined, t: string, raw: string): Out {
    if (intent === "buy") return this.startBuy(t, raw);
    if (intent && ORDER_INTENTS.includes(intent)) return this.orderIntent(intent as OrderIntent, t, raw);
    if (intent === "whats_on") return this.say("public.whats_on", "whats_on", { listing: this.listing() });
    if (intent === "show_info") return this.showInfo(H.findShow(t)!);
    if (intent === "handoff" || intent === "goodbye") this.flow = undefined;
    const [state, key] = (intent && PUBLIC_REPLIES[intent]) ?? ["public.unknown", "unknown"];
    return this.say(state, key);
  }

  private listing(): string {
    return H.SHOWS.map((s) => {
      const prices = H.ZONES.map((z) => s.prices[z]);
      const age = s.minAge ? `, ${s.minAge}+` : "";
      return `• ${s.name} (${s.kind}${age}) — ${H.dateList(H.bookable(s))}; £${Math.min(...prices)}–£${Math.max(...prices)}`;
    }).join("\n");
  }

  private showInfo(show: Show): Out {
    const zones = H.ZONES.filter((z) => show.concession[z] !== undefined);
    const conc = zones.length
      ? ` Student and senior prices: ${zones.map((z) => `${z} £${show.concession[z]}`).join(", ")}.`
      : " No concession prices for this one.";
    return this.say("public.show_info", "show_info", {
      show: show.name,
      kind: show.kind,
      age: show.minAge ? `, strictly ${show.minAge}+` : "",
      dates: H.dateList(H.bookable(show)),
      prices: H.priceList(show),
      conc,
    });
  }

  private reprompt(flow: Flow): Out {
    const prefix = H.TEMPLATES.reprompt[(this.seed - 1 + this.visited.length) % H.TEMPLATES.reprompt.length]!;
    switch (flow.kind) {
      case "buy": {
        if (flow.expect === "confirm") return this.say("buy.summary", "buy_confirm_reprompt", {}, prefix);
        if (flow.expect === "show")
          return this.say("buy.unknown_show", "buy_unknown_show", { shows: this.showNames() });
        const out = this.advance(flow.draft);
        return { ...out, text: prefix + out.text };
      }
      case "auth":
        if (flow.ref) return this.say("auth.ask_email", "auth_ask_email", { ref: flow.ref }, prefix);
        return this.say("auth.ask_reference", "auth_ask_ref", {}, prefix);
      case "exchange":
        if (flow.expect === "confirm") {
          const out = this.exchangeConfirm(flow.target!);
          return { ...out, text: prefix + out.text };
        }
        return this.exchangeAskDate(prefix);
      case "refund": {
        const out = this.refundStart(this.order()!);
        return { ...out, text: prefix + out.text };
      }
      case "access":
        return this.say("access.ask_need", "access_ask_need", {}, prefix);
      case "resend":
        if (flow.expect === "card")
          return this.say("resend.ask_card", "resend_ask_card", { address: flow.address ?? "" }, prefix);
        return this.say(
          "resend.confirm_on_file",
          "resend_confirm_on_file",
          { masked: H.mask(this.order()!.email) },
          prefix,
        );
      case "offer_exchange":
        return this.end("public.unknown", "unknown");
    }
  }

  private continueFlow(flow: Flow, t: string, raw: string): Out | undefined {
    switch (flow.kind) {
      case "buy":
        return this.buyTurn(flow, t, raw);
      case "auth":
        return this.authTurn(flow, t, raw);
      case "exchange":
        return this.exchangeTurn(flow, t);
      case "refund": {
        const yn = H.yesNo(t);
        if (H.detectIntent(t, raw) === "refund" && yn !== "no") return this.refundDo();
        if (yn === "yes") return this.refundDo();
        if (yn === "no") return this.end("refund.declined", "refund_declined");
        return undefined;
      }
      case "access": {
        const need = H.findNeed(t);
        if (!need) return undefined;
        return this.accessDo(need);
      }
      case "resend":
        return this.resendTurn(flow, t, raw);
      case "offer_exchange": {
        const intent = H.detectIntent(t, raw);
        const yn = H.yesNo(t);
        if (yn === "no") return this.end("flow.cancelled", "flow_cancelled");
        if (intent === "exchange" || (yn === "yes" && (!intent || intent === "thanks"))) {
          this.flow = undefined;
          return this.exchangeStart(t);
        }
        return undefined;
      }
    }
  }

  // ------------------------------------------------------------ buying

  private showNames(): string {
    return H.listJoin(H.SHOWS.map((s) => s.name));
  }

  private limit(): number {
    return this.on("cap_off_by_one") ? H.TICKET_CAP + 1 : H.TICKET_CAP;
  }

  private startBuy(t: string, raw: string): Out {
    const flow: Flow = { kind: "buy", draft: {}, expect: "show" };
    this.flow = flow;
    this.applyEntities(flow, t, raw);
    return this.advance(flow.draft);
  }

  /** Fills the draft from what the user said; true when anything was taken. */
  private applyEntities(flow: BuyFlow, t: string, raw: string): boolean {
    const d = flow.draft;
    let took = false;
    const show = H.findShow(t);
    if (show && show.id !== d.showId) {
      d.showId = show.id;
      d.date = undefined;
      d.time = undefined;
      d.perfId = undefined;
      d.ageOk = undefined;
      took = true;
    }
    const curShow = d.showId ? H.showById(d.showId) : undefined;
    const dh = H.findDate(t);
    if (dh) {
      const date = H.resolveDate(dh, curShow);
      if (date !== d.date || !d.perfId) {
        d.date = date;
        d.time = undefined;
        d.perfId = undefined;
      }
      took = true;
    }
    const time = H.findTime(t);
    if (time && (flow.expect !== "email" || !H.findEmail(raw))) {
      if (d.perfId && H.perfById(d.perfId).perf.time !== time) d.perfId = undefined;
      d.time = time;
      took = true;
    }
    const qty = H.findQty(t, flow.expect === "qty");
    if (qty !== undefined && qty > 0) {
      if (flow.expect === "confirm" && qty !== d.qty && this.on("readback_qty_forgotten"))
        d.readQty ??= d.qty;
      d.qty = qty;
      took = true;
    }
    const zone = H.findZone(t);
    if (zone) {
      d.zone = zone;
      took = true;
    }
    const expectingConc = flow.expect === "concession" || flow.expect === "concession_type";
    const conc = H.findConcession(t, expectingConc);
    if (conc && !(conc === "unspecified" && (d.concession === "student" || d.concession === "senior"))) {
      d.concession = conc;
      took = true;
    }
    const email = H.findEmail(raw);
    if (email) {
      d.email = email;
      took = true;
    }
    return took;
  }

  private buyTurn(flow: BuyFlow, t: string, raw: string): Out | undefined {
    const d = flow.draft;
    const expect = flow.expect;
    if (expect === "code") {
      const code = raw.match(/\b(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{5,12}\b/i)?.[0];
      if (code) {
        if (code.toUpperCase() === H.PRESALE_CODE || this.on("presale_code_unchecked")) {
          d.presaleOk = true;
          this.applyEntities(flow, t.replace(code.toLowerCase(), " "), raw);
          return this.advance(d);
        }
        return this.refusePresale(d, "buy_refused_presale");
      }
      if (/\b(no|don'?t|dont|do not|haven'?t|havent|without)\b.*\b(code|one)\b|\bno code\b/.test(t))
        return this.refusePresale(d, "buy_no_presale_code");
    }
    if (expect === "age") {
      const a = H.ageAnswer(t);
      if (a === "no") {
        const show = H.showById(d.showId!);
        this.flow = undefined;
        const others = H.listJoin(
          H.SHOWS.filter((s) => !s.minAge).map((s) => s.name),
          "or",
        );
        return this.say("buy.refused_age", "buy_refused_age", { show: show.name, others });
      }
      if (a === "yes") {
        d.ageOk = true;
        this.applyEntities(flow, t, raw);
        return this.advance(d);
      }
    }
    if (expect === "concession_fix") {
      const zone = H.findZone(t);
      const yn = H.yesNo(t);
      if (!zone && (yn === "yes" || /\bfull[- ]price\b/.test(t))) {
        d.concession = "none";
        return this.advance(d);
      }
      if (!zone && yn === "no") {
        const show = H.showById(d.showId!);
        if (!H.ZONES.some((z) => show.concession[z] !== undefined))
          return this.end("flow.cancelled", "flow_cancelled");
        d.zone = undefined;
        return this.advance(d);
      }
    }
    if (expect === "confirm") {
      const before = JSON.stringify({ ...d, readQty: undefined, summarised: undefined });
      this.applyEntities(flow, t, raw);
      const after = JSON.stringify({ ...d, readQty: undefined, summarised: undefined });
      if (before !== after) return this.advance(d);
      const yn = H.yesNo(t);
      if (yn === "yes") return this.book(d);
      if (yn === "no") return this.end("buy.declined", "buy_declined");
      return undefined;
    }
    if (expect === "concession" && !H.findConcession(t, true) && H.yesNo(t) === "yes") {
      d.concession = "unspecified";
      return this.advance(d);
    }
    const took = this.applyEntities(flow, t, raw);
    if (took) return this.advance(d);
    if (expect === "show") {
      const intent = H.detectIntent(t, raw);
      if (intent && intent !== "buy" && intent !== "greet") return undefined;
      return this.say("buy.unknown_show", "buy_unknown_show", { shows: this.showNames() });
    }
    return undefined;
  }

  private refusePresale(d: Draft, key: "buy_refused_presale" | "buy_no_presale_code"): Out {
    const show = H.showById(d.showId!);
    (this.flow as BuyFlow).expect = "code";
    return this.say("buy.refused_presale", key, {
      dates: H.dateList(H.bookable(show).filter((p) => !p.presale)),
    });
  }

  /** Checks the draft in order and asks for (or refuses) the first thing not settled. */
  private advance(d: Draft): Out {
    if (!d.showId) return this.askFor("show", "buy.ask_show", "buy_ask_show");
    const show = H.showById(d.showId);
    const upcoming = H.bookable(show);
    if (!d.perfId) {
      if (!d.date) {
        return this.askFor("date", "buy.ask_date", "buy_ask_date", {
          show: show.name,
          dates: H.dateList(upcoming),
        });
      }
      const onDate = show.performances.filter((p) => p.date === d.date);
      if (onDate.length === 0) {
        const date = H.fmtDate(d.date);
        d.date = undefined;
        return this.askFor("date", "buy.date_unavailable", "buy_date_unavailable", {
          show: show.name,
          date,
          dates: H.dateList(upcoming),
        });
      }
      const cands = H.pickTime(onDate, d.time);
      if (cands.length > 1) {
        return this.askFor("time", "buy.ask_time", "buy_ask_time", {
          show: show.name,
          date: H.fmtDate(d.date),
          times: H.listJoin(
            cands.map((p) => H.fmtTime(p.time)),
            "or",
          ),
        });
      }
      const perf = cands[0]!;
      if (perf.status !== "scheduled" || H.isPast(perf)) {
        const why = H.whyGone(perf);
        d.date = undefined;
        d.time = undefined;
        return this.askFor("date", "buy.refused_past", "buy_refused_past", {
          show: show.name,
          date: H.fmtDate(perf.date),
          why,
          dates: H.dateList(upcoming),
        });
      }
      d.perfId = perf.id;
    }
    const perf = H.perfById(d.perfId).perf;
    const date = H.fmtDate(perf.date);
    if (perf.presale && !d.presaleOk)
      return this.askFor("code", "buy.ask_presale_code", "buy_ask_presale", { show: show.name, date });
    if (show.minAge && !d.ageOk && !this.on("age_check_skipped"))
      return this.askFor("age", "buy.ask_age", "buy_ask_age", { show: show.name });
    if (!d.qty) return this.askFor("qty", "buy.ask_quantity", "buy_ask_quantity", { show: show.name, date });
    if (d.qty > this.limit()) {
      const qty = d.qty;
      d.qty = undefined;
      return this.askFor("qty", "buy.refused_cap", "buy_cap_single", { cap: H.TICKET_CAP, qty });
    }
    if (!d.zone) return this.askFor("zone", "buy.ask_zone", "buy_ask_zone", { ...show.prices });
    if (perf.soldOut?.includes(d.zone)) {
      const zone = d.zone;
      d.zone = undefined;
      const others = H.ZONES.filter((z) => !perf.soldOut?.includes(z)).map(
        (z) => `${z} (£${show.prices[z]})`,
      );
      return this.askFor("zone", "buy.zone_sold_out", "buy_zone_sold_out", {
        zone,
        date,
        others: H.listJoin(others, "or"),
      });
    }
    if (d.concession === undefined)
      return this.askFor("concession", "buy.ask_concession", "buy_ask_concession");
    if (d.concession === "unspecified")
      return this.askFor("concession_type", "buy.ask_concession_type", "buy_ask_concession_type");
    if (d.concession !== "none" && show.concession[d.zone] === undefined) {
      const zones = H.ZONES.filter((z) => show.concession[z] !== undefined);
      const fix = "concession_fix";
      if (!zones.length)
        return this.askFor(fix, "buy.concession_not_in_zone", "buy_concession_none", { show: show.name });
      return this.askFor(fix, "buy.concession_not_in_zone", "buy_concession_not_in_zone", {
        ctype: d.concession,
        Ctype: H.cap(d.concession),
        show: show.name,
        zone: d.zone,
        zones: H.listJoin(zones, "or"),
      });
    }
    if (!d.email) return this.askFor("email", "buy.ask_email", "buy_ask_email");
    const held = this.on("cap_ignores_held")
      ? 0
      : this.orders
          .filter((o) => o.email === d.email && o.perfId === perf.id && o.status === "active")
          .reduce((n, o) => n + o.qty, 0);
    if (held + d.qty > this.limit()) {
      const qty = d.qty;
      d.qty = undefined;
      const left = H.TICKET_CAP - held;
      if (left <= 0)
        return this.end("buy.refused_cap", "buy_cap_full", { held, email: d.email, cap: H.TICKET_CAP });
      return this.askFor("qty", "buy.refused_cap", "buy_cap_held", {
        held,
        email: d.email,
        qty,
        cap: H.TICKET_CAP,
        left,
      });
    }
    const updated = d.summarised === true;
    d.summarised = true;
    const vars = this.summaryVars(d);
    if (updated) return this.askFor("confirm", "buy.summary_updated", "buy_summary_updated", vars);
    return this.askFor("confirm", "buy.summary", "buy_summary", vars);
  }

  private unitPrice(d: Draft): number {
    const show = H.showById(d.showId!);
    const zone = d.zone!;
    if (d.concession === "student" || d.concession === "senior") {
      if (!this.on("total_ignores_concession")) return show.concession[zone] ?? show.prices[zone];
    }
    return show.prices[zone];
  }

  private summaryVars(d: Draft): Record<string, string | number> {
    const { show, perf } = H.perfById(d.perfId!);
    const conc = d.concession === "student" || d.concession === "senior" ? `, ${d.concession} price` : "";
    return {
      qty: d.qty!,
      zone: d.zone!,
      show: show.name,
      when: H.fmtWhen(perf),
      conc,
      total: this.unitPrice(d) * d.qty!,
      email: d.email!,
    };
  }

  private book(d: Draft): Out {
    const { show, perf } = H.perfById(d.perfId!);
    const qty = d.readQty ?? d.qty!;
    const total = this.unitPrice(d) * qty;
    const ref = `HB${this.nextRef++}`;
    const concession = d.concession === "student" || d.concession === "senior" ? d.concession : "none";
    this.orders.push({
      ref,
      name: d.email!,
      email: d.email!,
      card4: "0000",
      perfId: perf.id,
      qty,
      zone: d.zone!,
      concession,
      paid: total,
      access: [],
      status: "active",
    });
    this.effects.push(`book:${ref}:${perf.id}:${qty}:${d.zone}:${concession}:${total}:${d.email}`);
    this.flow = undefined;
    const zone = this.on("final_zone_wrong")
      ? H.ZONES[(H.ZONES.indexOf(d.zone!) + 1) % H.ZONES.length]!
      : d.zone!;
    const when = this.on("confirm_wrong_time") ? H.fmtWhen(perf, "19:30") : H.fmtWhen(perf);
    return this.say("buy.confirmed", "buy_confirmed", {
      ref,
      qty,
      zone,
      show: show.name,
      when,
      total,
      email: d.email!,
    });
  }

  // ------------------------------------------------------------ sign-in

  private orderIntent(intent: OrderIntent, t: string, raw: string): Out {
    this.flow = undefined;
    if (this.locked) return this.say("auth.locked", "auth_locked");
    const ref = H.findRef(raw);
    const email = H.findEmail(raw);
    if (this.signedIn && (!ref || ref === this.signedIn)) return this.act(intent, t, raw);
    if (this.signedIn && ref && !email) {
      if (intent === "view" && this.on("leak_other_booking")) {
        const other = this.orders.find((o) => o.ref === ref);
        if (other) return this.viewOrder(other);
      }
      return this.say("order.refused_other", "order_refused_other", { ref: this.signedIn });
    }
    const flow: AuthFlow = { kind: "auth", pending: intent, raw: t };
    this.flow = flow;
    return this.authTurn(flow, t, raw, true)!;
  }

  private authTurn(flow: AuthFlow, t: string, raw: string, first = false): Out | undefined {
    const ref = H.findRef(raw);
    const email = H.findEmail(raw);
    if (!first && !ref && !email) return undefined;
    if (ref) flow.ref = ref;
    if (email) flow.email = email;
    if (!flow.ref && !flow.email) return this.say("auth.ask_reference", "auth_ask_ref");
    if (flow.ref) {
      const order = this.orders.find((o) => o.ref === flow.ref);
      if (!order) {
        const bad = flow.ref;
        flow.ref = undefined;
        return this.fail() ?? this.say("auth.not_found", "auth_not_found", { ref: bad });
      }
      if (!flow.email) return this.say("auth.ask_email", "auth_ask_email", { ref: flow.ref });
      const ok = this.on("auth_any_customer_email")
        ? this.orders.some((o) => o.email === flow.email)
        : order.email === flow.email;
      if (!ok) {
        flow.email = undefined;
        return this.fail() ?? this.say("auth.mismatch", "auth_mismatch", { ref: flow.ref });
      }
      this.signedIn = order.ref;
      this.failures = 0;
      this.flow = undefined;
      return this.act(flow.pending, first ? t : flow.raw, raw);
    }
    return this.say("auth.ask_reference", "auth_ask_ref_only");
  }

  private fail(): Out | undefined {
    this.failures++;
    if (this.failures < 3) return undefined;
    this.locked = true;
    return this.end("auth.locked", "auth_locked");
  }

  private act(intent: OrderIntent, t: string, raw: string): Out {
    const order = this.order()!;
    if (intent === "signin")
      return this.say("auth.signed_in", "auth_signed_in", {
        name: order.name.split(" ")[0]!,
        ref: order.ref,
      });
    if (intent === "view") return this.viewOrder(order);
    if (order.status === "refunded") return this.say("refund.already", "refund_already", { ref: order.ref });
    if (intent === "exchange") return this.exchangeStart(t);
    if (intent === "refund") return this.refundStart(order);
    if (intent === "access") {
      const need = H.findNeed(t);
      if (need) return this.accessDo(need);
      this.flow = { kind: "access" };
      return this.say("access.ask_need", "access_ask_need");
    }
    const address = H.findEmail(raw);
    if (address && address !== order.email) {
      this.flow = { kind: "resend", expect: "card", address };
      return this.say("resend.ask_card", "resend_ask_card", { address });
    }
    this.flow = { kind: "resend", expect: "confirm" };
    return this.say("resend.confirm_on_file", "resend_confirm_on_file", { masked: H.mask(order.email) });
  }

  private viewOrder(order: Order): Out {
    const { show, perf } = H.perfById(order.perfId);
    this.effects.push(`show:${order.ref}`);
    const status =
      order.status === "refunded"
        ? "refunded"
        : perf.status === "cancelled"
          ? "performance cancelled"
          : perf.status === "rescheduled"
            ? `performance rescheduled to ${H.fmtDate(perf.movedTo!)}`
            : H.isPast(perf)
              ? "performance has taken place"
              : "confirmed";
    return this.say("order.view", "order_view", {
      ref: order.ref,
      name: order.name,
      qty: order.qty,
      zone: order.zone,
      show: show.name,
      when: H.fmtWhen(perf),
      paid: order.paid,
      conc: order.concession === "none" ? "" : ` (${order.concession} price)`,
      status,
      access: order.access.length ? order.access.join(", ") : "none",
    });
  }

  // ------------------------------------------------------------ exchange

  private exchangeTargets(order: Order): Performance[] {
    const { show } = H.perfById(order.perfId);
    return H.bookable(show).filter((p) => p.id !== order.perfId && !p.presale);
  }

  private exchangeStart(t: string): Out {
    const order = this.order()!;
    const { perf } = H.perfById(order.perfId);
    const when = H.fmtWhen(perf);
    if (perf.status !== "scheduled" || H.isPast(perf)) {
      this.flow = undefined;
      const why = H.whyGone(perf);
      const hint =
        perf.status === "scheduled" ? "" : " As it didn't go ahead as planned, you can ask me for a refund.";
      return this.say("exchange.refused_past", "exchange_refused_past", { when, why, hint });
    }
    const hours = Math.floor((H.epoch(perf.date, perf.time) - H.NOW) / 3_600_000);
    const window = this.on("exchange_window_24h") ? 24 : H.EXCHANGE_WINDOW_HOURS;
    if (hours < window)
      return this.end("exchange.refused_window", "exchange_refused_window", { when, hours });
    const flow: Flow = { kind: "exchange", expect: "date" };
    this.flow = flow;
    if (H.findDate(t) || H.findTime(t)) return this.exchangeTurn(flow, t) ?? this.exchangeAskDate();
    return this.exchangeAskDate();
  }

  private exchangeAskDate(prefix = ""): Out {
    const order = this.order()!;
    const { show } = H.perfById(order.perfId);
    if (this.flow?.kind === "exchange") this.flow.expect = "date";
    return this.say(
      "exchange.ask_date",
      "exchange_ask_date",
      { show: show.name, dates: H.dateList(this.exchangeTargets(order), false) },
      prefix,
    );
  }

  private exchangeTurn(flow: ExchangeFlow, t: string): Out | undefined {
    const order = this.order()!;
    const { show, perf: current } = H.perfById(order.perfId);
    if (flow.expect === "confirm") {
      const yn = H.yesNo(t);
      if (yn === "yes") return this.exchangeDo(flow.target!);
      if (yn === "no") return this.end("exchange.declined", "exchange_declined");
      if (!H.findDate(t) && !H.findTime(t)) return undefined;
      flow.expect = "date";
    }
    const dh = H.findDate(t);
    const time = H.findTime(t);
    if (dh) flow.date = H.resolveDate(dh, show);
    if (!flow.date) return time ? this.exchangeAskDate() : undefined;
    if (!dh && !time) return undefined;
    const date = H.fmtDate(flow.date);
    const dates = H.dateList(this.exchangeTargets(order), false, "or");
    const onDate = show.performances.filter((p) => p.date === flow.date);
    const unavailable = (reason: string): Out => {
      flow.date = undefined;
      flow.expect = "date";
      return this.say("exchange.date_unavailable", "exchange_date_unavailable", { date, reason, dates });
    };
    if (!onDate.length) return unavailable(`${show.name} isn't playing that day`);
    const cands = H.pickTime(onDate, time);
    if (cands.length > 1) {
      flow.expect = "time";
      return this.say("exchange.ask_time", "exchange_ask_time", {
        date,
        times: H.listJoin(
          cands.map((p) => H.fmtTime(p.time)),
          "or",
        ),
      });
    }
    const target = cands[0]!;
    if (target.id === current.id) return unavailable("that's the performance you already have");
    if (target.status !== "scheduled" || H.isPast(target))
      return unavailable("that performance isn't going ahead");
    if (target.presale) return unavailable("that date is still in presale");
    if (target.soldOut?.includes(order.zone)) return unavailable(`the ${order.zone} is sold out that night`);
    flow.target = target.id;
    flow.expect = "confirm";
    return this.exchangeConfirm(target.id);
  }

  private exchangeFee(order: Order): number {
    return this.on("exchange_fee_once") ? H.EXCHANGE_FEE : H.EXCHANGE_FEE * order.qty;
  }

  private exchangeConfirm(target: string): Out {
    const order = this.order()!;
    const { perf } = H.perfById(target);
    return this.say("exchange.confirm", "exchange_confirm", {
      qty: order.qty,
      zone: order.zone,
      when: H.fmtWhen(perf),
      fee: H.EXCHANGE_FEE,
      feeTotal: this.exchangeFee(order),
    });
  }

  private exchangeDo(target: string): Out {
    const order = this.order()!;
    const from = order.perfId;
    const feeTotal = this.exchangeFee(order);
    order.perfId = target;
    this.effects.push(`exchange:${order.ref}:${from}->${target}:${feeTotal}`);
    this.flow = undefined;
    const { show, perf } = H.perfById(target);
    return this.say("exchange.done", "exchange_done", {
      ref: order.ref,
      show: show.name,
      when: H.fmtWhen(perf),
      feeTotal,
      card4: order.card4,
    });
  }

  // ------------------------------------------------------------ refund, access, resend

  private refundStart(order: Order): Out {
    const { show, perf } = H.perfById(order.perfId);
    const date = H.fmtDate(perf.date);
    const eligible =
      perf.status === "cancelled" ||
      perf.status === "rescheduled" ||
      (this.on("refund_if_past") && H.isPast(perf));
    if (!eligible) {
      const hours = (H.epoch(perf.date, perf.time) - H.NOW) / 3_600_000;
      const what = H.isPast(perf) ? "went ahead as planned" : "is going ahead as planned";
      const vars = { show: show.name, date, what, fee: H.EXCHANGE_FEE };
      if (hours < H.EXCHANGE_WINDOW_HOURS) return this.end("refund.refused", "refund_refused_final", vars);
      this.flow = { kind: "offer_exchange" };
      return this.say("refund.refused", "refund_refused", vars);
    }
    this.flow = { kind: "refund" };
    const what =
      perf.status === "cancelled"
        ? "cancelled"
        : perf.status === "rescheduled"
          ? `rescheduled to ${H.fmtDate(perf.movedTo!)}`
          : "completed";
    return this.say("refund.confirm", "refund_confirm", {
      show: show.name,
      date,
      what,
      paid: order.paid,
      card4: order.card4,
    });
  }

  private refundDo(): Out {
    const order = this.order()!;
    order.status = "refunded";
    this.effects.push(`refund:${order.ref}:${order.paid}`);
    return this.end("refund.done", "refund_done", { paid: order.paid, card4: order.card4, ref: order.ref });
  }

  private accessDo(need: string): Out {
    const order = this.order()!;
    if (!this.on("access_false_success")) {
      order.access.push(need);
      this.effects.push(`access:${order.ref}:${need}`);
    }
    return this.end("access.done", "access_done", { need, ref: order.ref });
  }

  private resendTurn(flow: ResendFlow, t: string, raw: string): Out | undefined {
    const order = this.order()!;
    const address = H.findEmail(raw);
    if (address && address !== order.email) {
      flow.expect = "card";
      flow.address = address;
      return this.say("resend.ask_card", "resend_ask_card", { address });
    }
    if (flow.expect === "card") {
      const digits = t.match(/\b(\d{4})\b/)?.[1];
      if (digits || /\b(don'?t know|not sure|can'?t remember|no idea)\b/.test(t)) {
        if (digits && (digits === order.card4 || this.on("resend_card_unchecked")))
          return this.resendDo(flow.address!);
        flow.expect = "confirm";
        flow.address = undefined;
        return this.say("resend.refused_card", "resend_refused_card", { masked: H.mask(order.email) });
      }
      return undefined;
    }
    const yn = H.yesNo(t);
    if (yn === "yes" || address === order.email) return this.resendDo(order.email);
    if (yn === "no") return this.end("flow.cancelled", "flow_cancelled");
    return undefined;
  }

  private resendDo(address: string): Out {
    const order = this.order()!;
    this.effects.push(`resend:${order.ref}:${address}`);
    return this.end("resend.done", "resend_done", { ref: order.ref, address });
  }
}

export const heldout13Agent: TestbedAgent = {
  name: "heldout13",
  description:
    "Theatre and concert box office (Harbourside Hall), free-text: ticket purchase gated by per-customer cap, presale code, 16+ confirmation and concession zones with an explicit read-back consent; booking reference + email sign-in for viewing, 48-hour exchange with a per-ticket fee, refunds only for cancelled or rescheduled performances, accessibility requests and ticket resends (new address needs the card's last 4 digits).",
  faults: HELDOUT13_FAULTS,
  states: HELDOUT13_STATES,
  facts: H.FACTS,
  create(options = {}) {
    const faults = options.faults ?? [];
    for (const f of faults) {
      if (!(HELDOUT13_FAULTS as readonly string[]).includes(f)) throw new Error(`unknown fault: ${f}`);
    }
    return new BoxOffice(faults as Fault[], options.seed ?? 1);
  },
};
