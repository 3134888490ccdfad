import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  AREAS,
  CATALOG,
  type CatalogItem,
  type Customer,
  type Db,
  HELDOUT14_FACTS,
  LATE_CANCEL_FEE,
  MAX_CODE_TRIES,
  MIN_BASKET,
  NOW,
  type Order,
  PASS_PLANS,
  REFUND_WINDOW_HOURS,
  seedDb,
  VOUCHERS,
} from "./heldout14-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * heldout14: "Fernhill Fresh", a rule-based grocery-delivery assistant (keyword NLU + dialogue state machine).
 * Public info without sign-in; e-mail + one-time code sign-in for orders, slots, items, vouchers, refunds,
 * cancellations, address and delivery pass. Every write sits behind a confirmation step.
 */

export const HELDOUT14_FAULTS = [
  "auth_extra_attempt",
  "order_owner_unchecked",
  "slot_cutoff_ignored",
  "slot_readback_wrong_day",
  "items_age_unchecked",
  "items_max_off_by_one",
  "items_removed_still_listed",
  "items_write_before_confirm",
  "voucher_reuse_allowed",
  "voucher_expired_accepted",
  "refund_window_ignored",
  "refund_over_cap",
  "refund_credit_not_written",
  "cancel_fee_skipped",
  "cancelled_order_still_listed",
  "address_area_unchecked",
  "pass_double_subscribe",
] as const;

type Fault = (typeof HELDOUT14_FAULTS)[number];

const STATES = [
  "greet",
  "fallback",
  "goodbye",
  "handoff.human",
  "flow.abandoned",
  "info.ask_postcode",
  "info.area_yes",
  "info.area_no",
  "info.hours",
  "info.min_order",
  "info.pass_prices",
  "auth.ask_email",
  "auth.unknown_email",
  "auth.ask_code",
  "auth.bad_code",
  "auth.locked",
  "auth.ok",
  "orders.list",
  "orders.none",
  "orders.detail",
  "order.pick",
  "order.not_found",
  "order.not_open",
  "slot.refused_order_locked",
  "slot.refused_min_basket",
  "slot.choose",
  "slot.refused_past",
  "slot.refused_cutoff",
  "slot.refused_full",
  "slot.confirm",
  "slot.done",
  "items.menu",
  "items.refused_locked",
  "items.ask_add",
  "items.ask_remove",
  "items.unknown_item",
  "items.refused_age",
  "items.refused_stock",
  "items.refused_max_qty",
  "items.add_confirm",
  "items.add_done",
  "items.remove_confirm",
  "items.remove_done",
  "voucher.ask",
  "voucher.unknown",
  "voucher.refused_expired",
  "voucher.refused_used",
  "voucher.refused_min_spend",
  "voucher.refused_stack",
  "voucher.confirm",
  "voucher.done",
  "refund.ask",
  "refund.refused_not_delivered",
  "refund.refused_window",
  "refund.refused_item",
  "refund.ask_qty",
  "refund.refused_qty_over",
  "refund.ask_method",
  "refund.confirm",
  "refund.done",
  "cancel.confirm",
  "cancel.confirm_fee",
  "cancel.done",
  "address.ask",
  "address.refused_area",
  "address.confirm",
  "address.done",
  "pass.refused_active",
  "pass.choose_plan",
  "pass.confirm",
  "pass.done",
  "pass.cancel_refused_none",
  "pass.cancel_confirm",
  "pass.cancel_done",
] as const;

type State = (typeof STATES)[number];

// ---------------------------------------------------------------- replies (several wordings each)

const T: Record<string, string[]> = {
  greet: [
    "Hi! I'm Fern, the Fernhill Fresh assistant. I can check whether we deliver to you, slot times and the minimum order, and once you're signed in I can show your orders, move a delivery, add or remove items, apply vouchers, sort out missing or damaged items, cancel an order, change your address or manage a Delivery Pass.",
    "Hello from Fernhill Fresh 🥕 Ask me about delivery areas, slot times, the minimum order or the Delivery Pass. Signed-in customers can also check orders, change a slot or items, use a voucher, report missing/damaged items, cancel, update their address or join/leave the pass.",
  ],
  fallback: [
    "Hmm, that one's beyond me. I can help with: delivery areas, slot times, minimum order, Delivery Pass, your orders, delivery slots, adding/removing items, vouchers, missing or damaged items, cancelling, your address, or a human colleague.",
    "I didn't quite get that. Things I can do: check a postcode, tell you slot times or the minimum order, show your orders, change a slot or items, apply a voucher, refund missing/damaged items, cancel an order, change your address, manage the Delivery Pass — or pass you to a person.",
  ],
  goodbye: [
    "Thanks for shopping with Fernhill Fresh — bye for now!",
    "Take care, and enjoy your groceries 👋",
  ],
  handoff: [
    "Okay — I'm handing you over to one of the team. Someone will pick this chat up within about 10 minutes (reference HF-{ref}).",
    "Connecting you to a colleague now. Your reference is HF-{ref}; average wait is around 10 minutes.",
  ],
  abandoned: ["No problem — I've left everything as it was.", "Okay, nothing's been changed."],
  not_caught: ["Sorry, I didn't catch that.", "Hmm, I couldn't read that one."],
  ask_postcode: [
    "Sure — what's the postcode?",
    "Which postcode should I check? (The first half is enough, e.g. FH2.)",
  ],
  area_yes: ["Good news — we deliver to {pc}.", "Yes! {pc} is in our delivery area."],
  area_no: [
    "Ah, we don't reach {pc} yet, I'm afraid. We currently cover FH1–FH5.",
    "{pc} is outside our delivery area for now — we only go to FH1 to FH5 postcodes.",
  ],
  hours: [
    "We deliver every day in one-hour slots from 08:00 to 22:00. Changes close at the cut-off: 23:00 the night before your slot.",
    "Delivery slots run 08:00–22:00, seven days a week, an hour each. The cut-off for changes is 23:00 on the day before.",
  ],
  min_order: [
    "The minimum basket is £25.00. Delivery costs £3.50, or it's free over £60 and for Delivery Pass members.",
    "Orders need to come to at least £25.00. Delivery is £3.50 — free on baskets over £60 or with a Delivery Pass.",
  ],
  pass_prices: [
    "The Delivery Pass gives you free delivery on every order: £7.99 a month, or £69.00 for a year.",
    "Delivery Pass prices: Monthly £7.99 · Annual £69.00. Either way, no delivery charges.",
  ],
  ask_email: [
    "I'll need to sign you in first. What's the e-mail address on your account?",
    "First things first — which e-mail address do you use with us?",
  ],
  unknown_email: [
    "I can't find an account for {email}. Could you check the address and send it again?",
    "No account matches {email}, I'm afraid — try another e-mail address?",
  ],
  ask_code: [
    "Thanks. I've sent a 6-digit code to {masked}. Please type it here.",
    "Great — a one-time code is on its way to {masked}. What are the 6 digits?",
  ],
  code_again: ["Please type the 6-digit code from the e-mail.", "What's the 6-digit code we sent you?"],
  code_format: [
    "The code is 6 digits — could you type just those?",
    "That doesn't look like a 6-digit code.",
  ],
  bad_code: [
    "That code doesn't match. {left} more {tries} before I have to lock sign-in.",
    "Not quite right — you have {left} {tries} left.",
  ],
  locked: [
    "For security, sign-in is locked for this chat after too many wrong codes. Please ask for a human colleague or try again later.",
    "Too many incorrect codes, so I've locked sign-in for this conversation. A colleague can help if you ask for a person.",
  ],
  auth_ok: ["You're signed in — hello {first}!", "Thanks {first}, that's you verified."],
  already_in: ["You're already signed in as {first}.", "Already done — you're signed in, {first}."],
  what_next: ["What can I do for you?", "How can I help today?"],
  orders_list: [
    "Here are your orders:\n{list}{credit}\nReply with a number to see what's in one.",
    "Your orders:\n{list}{credit}\nWhich one shall I open? (number)",
  ],
  orders_none: ["There are no upcoming orders on your account.", "I can't see any orders coming up for you."],
  orders_none_at_all: [
    "You don't have any orders with us yet.",
    "There aren't any orders on this account yet.",
  ],
  order_detail: [
    "Order {id} ({status}, {slot}):\n{lines}\n{totals}",
    "{id} — {status}, {slot}\n{lines}\n{totals}",
  ],
  order_not_found: [
    "I can't find order {id} on your account.",
    "{id} doesn't match any of your orders — double-check the number?",
  ],
  order_not_open: [
    "{id} is {status}, so there's nothing I can change on it.",
    "That one ({id}) is already {status} — changes are only possible on upcoming orders.",
  ],
  pick_order: [
    "Which order do you mean?\n{list}\nReply with the number.",
    "You've got a few coming up:\n{list}\nWhich one? (1, 2…)",
  ],
  slot_locked: [
    "{id} is past its cut-off ({cutoff}), so the slot can't be moved any more.",
    "Too late to move {id}, sorry — the cut-off was {cutoff}.",
  ],
  slot_min_basket: [
    "{id} comes to {total}, below our £25.00 minimum, so I can't book a new slot for it. Add a few items first.",
    "The basket on {id} is only {total}. Slots can only be booked for baskets of £25.00 or more.",
  ],
  slot_menu: [
    "Slots this week for {id} (now {slot}):\n{menu}\n— reply with the letter.",
    "Here's the slot grid for {id}, currently {slot}:\n{menu}\nPick a letter.",
  ],
  slot_past: [
    "{slot} has already gone by — choose another letter.",
    "That slot ({slot}) is in the past. Another one?",
  ],
  slot_cutoff: [
    "{slot} closed for bookings at {cutoff}. Please pick a different one.",
    "Bookings for {slot} shut at {cutoff} — try another letter.",
  ],
  slot_full: [
    "{slot} is fully booked. Got another choice?",
    "No room left on {slot}, I'm afraid — pick again?",
  ],
  slot_confirm: [
    "Move {id} from {old} to {slot}? Shall I go ahead? (y/n)",
    "So that's {id} moving to {slot} (was {old}). OK to go ahead? (y/n)",
  ],
  slot_done: ["Done — {id} will now arrive {slot}.", "All sorted: {id} is booked for {slot}."],
  items_menu: [
    "What would you like to do with {id}?\n1. Add something\n2. Remove something",
    "Changes to {id} — reply 1 to add an item or 2 to take one off.",
  ],
  items_locked: [
    "{id} has passed its cut-off ({cutoff}), so the items are locked in now.",
    "I can't change items on {id} — it went past the cut-off at {cutoff}.",
  ],
  ask_add: ["What would you like to add to {id}, and how many?", "Sure — which item, and what quantity?"],
  ask_qty_for: ["How many {item} would you like?", "And how many of the {item}?"],
  ask_item_for: ["Which item is that for?", "How many of what, sorry?"],
  ask_remove: [
    "Which item should come off {id}?\n{list}",
    "These are on {id}:\n{list}\nWhich one shall I remove?",
  ],
  unknown_item: [
    'I can\'t find "{what}" in our range. Try another item?',
    'Hmm, "{what}" isn\'t something we stock. What else could I add?',
  ],
  not_on_order: [
    "There's no {item} on {id}. Which item did you mean?",
    "{id} doesn't have any {item}. Pick another?",
  ],
  refused_age: [
    "{item} is age-restricted, and the account holder needs to be 18 or over — so I can't add it.",
    "We can only sell {item} to customers aged 18+, which your date of birth on file doesn't meet. Anything else to add?",
  ],
  out_of_stock: [
    "{item} is out of stock at the moment. Anything else?",
    "Sorry, we've sold out of {item}. Something else instead?",
  ],
  refused_stock: [
    "We've only got {stock} {item} left, so I can't add {qty}. Fewer, maybe?",
    "Not enough {item} in stock for {qty} (we have {stock}). Try a smaller number?",
  ],
  refused_max: [
    "There's a limit of {max} {item} per order (you'd have {total}). Try a smaller number?",
    "{item} is capped at {max} per order, and that would make {total}. How many instead?",
  ],
  add_confirm: [
    "Adding {qty} × {item} ({cost}) to {id}. New total {total}. Reply ADD to confirm.",
    "{qty} × {item} for {cost}, taking {id} to {total}. Type ADD and I'll put it on.",
  ],
  add_token: [
    "Just type ADD to confirm (or 'no' to leave it).",
    "Please reply with the word ADD to go ahead.",
  ],
  add_done: [
    "Added! {id} now has {have} × {item}; total {total}.",
    "Done — {have} × {item} on {id}, new total {total}.",
  ],
  remove_confirm: ["Take {item} off {id}? (y/n)", "Remove all the {item} from {id}? y/n"],
  remove_done: ["Removed {item}. {id} now comes to {total}.", "{item} is off {id}. New total: {total}."],
  voucher_ask: ["Which voucher code would you like to use on {id}?", "What's the code? It'll go on {id}."],
  voucher_unknown: [
    "{code} isn't a code I recognise. Try again?",
    "Hmm, no voucher called {code}. Another code?",
  ],
  voucher_expired: [
    "{code} expired on {date}, so it can't be used now. Got another code?",
    "That voucher ran out on {date}. Any other code?",
  ],
  voucher_used: [
    "You've already used {code} — it's one use per customer.",
    "{code} has been redeemed on your account before, and it only works once.",
  ],
  voucher_min_spend: [
    "{code} needs a spend of {min}; {id} is at {subtotal}.",
    "To use {code} the basket has to reach {min}. {id} is {subtotal} right now.",
  ],
  voucher_stack: [
    "{id} already has {code} on it — only one voucher per order.",
    "There's already a voucher ({code}) on {id}; they can't be combined.",
  ],
  voucher_confirm: [
    "{code} takes {off} off {id} (new total {total}). Type the voucher code again to apply it.",
    "That's {off} off, bringing {id} to {total}. To apply it, type the code once more.",
  ],
  voucher_token: [
    "To apply it, please type the voucher code itself.",
    "I need the code typed out again — that's how we double-check.",
  ],
  cancel_token: [
    "Please type 'confirm cancel' to cancel it.",
    "Just to be sure, reply with the words 'confirm cancel'.",
  ],
  stop_token: ["Please reply 'stop my pass' to end it.", "To go ahead, type 'stop my pass'."],
  voucher_mismatch: [
    "That's not the same code, so I've left {id} alone.",
    "The codes don't match — nothing applied.",
  ],
  voucher_done: [
    "Applied! {code} is on {id}; new total {total}.",
    "Voucher {code} added to {id}. You'll pay {total}.",
  ],
  refund_ask_both: [
    "Sorry about that. Which order, and which item is missing or damaged?",
    "Let's put it right — tell me the order number and the item that was missing or damaged.",
  ],
  refund_ask_order: ["And which order was that in? (e.g. FF-12345)", "Got it. Which order number?"],
  refund_ask_item: ["Which item was missing or damaged?", "And the item?"],
  refund_not_delivered: [
    "{id} hasn't been delivered yet, so there's nothing to refund on it.",
    "{id} is still {status} — refunds are for delivered orders only.",
  ],
  refund_window: [
    "{id} was delivered on {when}. Missing or damaged items need reporting within 48 hours, so I can't refund this one here.",
    "That delivery ({when}) is more than 48 hours ago — too late for a refund through chat, I'm afraid.",
  ],
  refund_item: [
    "I can't see {item} on {id}. Which item was it?",
    "{id} didn't include {item}. Which item do you mean?",
  ],
  refund_ask_qty: [
    "You had {qty} × {item}. How many were missing or damaged?",
    "How many of the {qty} {item} were affected?",
  ],
  refund_over: [
    "Only {left} {item} can be refunded on {id}. How many, up to {left}?",
    "That's more than I can refund — the most is {left}. How many?",
  ],
  refund_none_left: [
    "The {item} on {id} has already been fully refunded.",
    "We've already refunded all the {item} on {id}.",
  ],
  refund_method: [
    "Refund of {amount}. Where should it go?\n1) Back to card ending {card}\n2) Account credit",
    "That comes to {amount}. Reply 1 for your card ending {card}, or 2 for account credit.",
  ],
  refund_confirm: [
    "Refund {amount} for {qty} × {item} from {id} to {dest}. Shall I go ahead? (y/n)",
    "So: {qty} × {item}, {amount}, paid to {dest}. Go ahead? (y/n)",
  ],
  refund_done: ["Done — {amount} is on its way to {dest}.", "Refund issued: {amount} to {dest}."],
  cancel_confirm: [
    "Say 'confirm cancel' to cancel order {id} ({slot}). There's no charge.",
    "To cancel {id} ({slot}) free of charge, reply 'confirm cancel'.",
  ],
  cancel_confirm_fee: [
    "{id} is past its cut-off, so a {fee} late-cancellation fee applies. Say 'confirm cancel' to cancel anyway.",
    "Cancelling {id} now costs {fee} because the cut-off has passed. Reply 'confirm cancel' if you still want to.",
  ],
  cancel_done: ["{id} is cancelled.{feeNote}", "Order {id} cancelled.{feeNote}"],
  address_ask: [
    "What's the new delivery address? Please include the postcode.",
    "Sure — send me the full new address, postcode included.",
  ],
  address_need_pc: [
    "I need a postcode in there to check we deliver.",
    "Could you add the postcode? I can't check the address without it.",
  ],
  address_area: [
    "{pc} is outside our delivery area (FH1–FH5), so I can't use that address. Another one?",
    "We don't deliver to {pc}. Is there a different address?",
  ],
  address_confirm: [
    "New address: {address}. Reply SAVE to confirm.",
    "I'll set your address to {address}. Type SAVE to confirm.",
  ],
  save_token: ["Just reply SAVE to confirm, or 'no' to leave it.", "Type SAVE to go ahead."],
  address_done: ["Saved — deliveries will now go to {address}.", "Address updated to {address}."],
  pass_active: [
    "You already have an active {plan} pass (until {until}), so there's no need to join again.",
    "Good news: your {plan} pass is already running until {until}.",
  ],
  pass_menu: [
    "Which Delivery Pass?\nA) Monthly — £7.99 a month\nB) Annual — £69.00 a year\nReply with the letter.",
    "Two options: A) Monthly £7.99/month  B) Annual £69.00/year — A or B?",
  ],
  pass_confirm: [
    "{plan} at {price}/{per}, charged to card ending {card}. Reply JOIN to confirm.",
    "Starting the {plan} ({price} per {per}) on card ending {card}. Type JOIN to go ahead.",
  ],
  join_token: ["Please type JOIN to confirm.", "Reply with JOIN if you'd like to go ahead."],
  pass_done: [
    "Welcome aboard — your {plan} is active until {until}.",
    "You're in! {plan} active until {until}.",
  ],
  pass_none: ["You don't have a Delivery Pass to cancel.", "There's no Delivery Pass on your account."],
  pass_cancel_confirm: [
    "Your {plan} pass runs until {until}. Say 'stop my pass' to end it now.",
    "To end your {plan} pass (valid until {until}), reply 'stop my pass'.",
  ],
  pass_cancel_done: ["Your Delivery Pass has been cancelled.", "Done — the Delivery Pass is stopped."],
};

// ---------------------------------------------------------------- helpers

const NOW_MIN = toMin(NOW);
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function toMin(iso: string): number {
  return Date.parse(`${iso.length === 10 ? `${iso}T00:00` : iso}:00Z`) / 60000;
}

function fromMin(m: number): string {
  return new Date(m * 60000).toISOString().slice(0, 16);
}

function dayLabel(iso: string): string {
  const d = new Date(toMin(iso) * 60000);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

function longDate(iso: string): string {
  const d = new Date(toMin(iso) * 60000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function slotLabel(start: string, end: string): string {
  return `${dayLabel(start)} ${start.slice(11, 16)}–${end.slice(11, 16)}`;
}

/** Cut-off for a slot: 23:00 the day before it. */
function cutoffOf(start: string): number {
  return toMin(start.slice(0, 10)) - 60;
}

function cutoffLabel(start: string): string {
  const c = fromMin(cutoffOf(start));
  return `${dayLabel(c)} 23:00`;
}

function money(p: number): string {
  return `£${(p / 100).toFixed(2)}`;
}

function item(key: string): CatalogItem {
  const it = CATALOG.find((c) => c.key === key);
  if (!it) throw new Error(`heldout14: unknown item ${key}`);
  return it;
}

function ageOn(dob: string): number {
  const [y, m, d] = dob.split("-").map(Number) as [number, number, number];
  const [ny, nm, nd] = NOW.slice(0, 10).split("-").map(Number) as [number, number, number];
  return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0);
}

function subtotal(o: Order): number {
  return o.lines.filter((l) => !l.removed).reduce((s, l) => s + item(l.item).price * l.qty, 0);
}

function discount(o: Order): number {
  const v = VOUCHERS.find((x) => x.code === o.voucher);
  return v ? v.off : 0;
}

function total(o: Order): number {
  return Math.max(0, subtotal(o) - discount(o));
}

const RE_EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const RE_ORDER = /\bff[-\s]?(\d{5})\b/i;
const RE_POSTCODE = /\b([a-z]{1,2}\d{1,2}[a-z]?)(?:\s*(\d[a-z]{2}))?\b/i;
const RE_YES = /^(y|yes|yeah|yep|yup|sure|ok|okay|go ahead|please do|do it|confirm|correct)\b/i;
const RE_NO = /^(n|no|nope|nah|don'?t|do not|not now|leave it|keep it)\b/i;
const RE_ESCAPE = /^(never ?mind|forget it|stop|quit|start over|no thanks|cancel)[.!]?$/i;
const WORD_NUM: Record<string, number> = {
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
  first: 1,
  second: 2,
  third: 3,
};

function parseOrderId(t: string): string | undefined {
  const m = RE_ORDER.exec(t);
  return m ? `FF-${m[1]}` : undefined;
}

function parsePostcode(t: string): { outward: string; full: string } | undefined {
  const m = RE_POSTCODE.exec(t.replace(RE_ORDER, " "));
  if (!m?.[1]) return undefined;
  const outward = m[1].toUpperCase();
  return { outward, full: m[2] ? `${outward} ${m[2].toUpperCase()}` : outward };
}

function findItem(t: string): CatalogItem | undefined {
  return CATALOG.find((c) => c.words.some((w) => new RegExp(`\\b${w}\\b`, "i").test(t)));
}

function parseQty(t: string): number | undefined {
  const s = t
    .toLowerCase()
    .replace(RE_ORDER, " ")
    .replace(/\b2l\b/g, " ");
  const m = /\b(\d{1,3})\b/.exec(s);
  if (m?.[1]) return Number(m[1]);
  for (const [w, n] of Object.entries(WORD_NUM)) if (new RegExp(`\\b${w}\\b`).test(s)) return n;
  if (/\b(a|an|another|a bottle of|a pack of)\b/.test(s)) return 1;
  return undefined;
}

function parseChoiceNumber(t: string): number | undefined {
  const m = /^\s*(?:number |no\.? |option |#)?(\d{1,2})\s*[.)]?\s*$/i.exec(t);
  if (m?.[1]) return Number(m[1]);
  const w = /^\s*(?:the )?(one|two|three|first|second|third)(?: one)?\s*$/i.exec(t);
  return w?.[1] ? WORD_NUM[w[1].toLowerCase()] : undefined;
}

function parseLetter(t: string, max: string): string | undefined {
  const m =
    /^\s*(?:option |slot |letter )?\(?([a-z])\)?[.)]?\s*$/i.exec(t) ?? /^\s*\(?([a-z])\)\s+\S/i.exec(t);
  const l = m?.[1]?.toUpperCase();
  return l && l <= max.toUpperCase() ? l : undefined;
}

function parseVoucher(t: string): string | undefined {
  const m = /\b([a-z]{3,}\d{1,3})\b/i.exec(t);
  if (m?.[1]) return m[1].toUpperCase();
  return undefined;
}

type Intent =
  | "greet"
  | "goodbye"
  | "handoff"
  | "areas"
  | "hours"
  | "min_order"
  | "pass_info"
  | "pass_join"
  | "pass_cancel"
  | "orders"
  | "order_detail"
  | "slot"
  | "items"
  | "add"
  | "remove"
  | "voucher"
  | "refund"
  | "cancel"
  | "address"
  | "signin";

const PUBLIC: readonly Intent[] = ["greet", "goodbye", "handoff", "areas", "hours", "min_order", "pass_info"];

function detectIntent(text: string): Intent | undefined {
  const t = text.toLowerCase();
  if (/\b(human|agent|real person|a person|someone real|operator|colleague|adviser|advisor)\b/.test(t))
    return "handoff";
  if (/\b(bye|goodbye|that'?s all|cheers)\b/.test(t) || /^(thanks|thank you)[!. ]*$/.test(t))
    return "goodbye";
  if (/\bpass\b/.test(t)) {
    if (/\b(cancel|stop|end|leave|quit)\b/.test(t)) return "pass_cancel";
    if (/\b(join|subscribe|sign up|buy|get|start|want)\b/.test(t)) return "pass_join";
    return "pass_info";
  }
  if (
    /(missing|damaged|broken|squashed|leak|refund|didn'?t (get|receive|come)|never (came|arrived)|wasn'?t in|rotten|mouldy|moldy|smashed)/.test(
      t,
    )
  )
    return "refund";
  if (/\b(address|moved house|moving house|new home)\b/.test(t)) return "address";
  if (/\b(voucher|promo|coupon|discount code)\b/.test(t)) return "voucher";
  if (/\bcancel\b/.test(t)) return "cancel";
  if (/\b(opening|hours|slot times|delivery times|when do you deliver|what times?)\b/.test(t)) return "hours";
  if (
    /\b(slot|reschedule|re-schedule)\b/.test(t) ||
    /\b(change|move|swap|switch)\b.*\b(delivery|time|day|date)\b/.test(t) ||
    /\b(earlier|later) (delivery|time|slot)\b/.test(t)
  )
    return "slot";
  if (/\b(add|put in|include)\b/.test(t)) return "add";
  if (/\b(remove|take off|take out|delete)\b/.test(t)) return "remove";
  if (/\b(change|edit|amend|modify|update)\b.*\b(order|items|basket|shopping)\b/.test(t)) return "items";
  if (
    /\b(deliver to|deliver in|deliver here|delivery areas?|do you (cover|deliver)|postcode|areas?)\b/.test(t)
  )
    return "areas";
  if (/\b(minimum|min\.? order|smallest order|delivery (fee|charge|cost))\b/.test(t)) return "min_order";
  if (/\b(sign in|log in|login|signin|sign me in)\b/.test(t)) return "signin";
  if (RE_ORDER.test(t)) return "order_detail";
  if (
    /\b(my orders?|orders|upcoming|what'?s in|contents|order status|where'?s my|see my order|show .*order)\b/.test(
      t,
    )
  )
    return "orders";
  if (/^(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/.test(t)) return "greet";
  if (/\b(help|what can you do|options|menu)\b/.test(t)) return "greet";
  return undefined;
}

type Flow = "slot" | "items" | "add" | "remove" | "voucher" | "cancel" | "detail";

interface Ctx {
  orderId?: string;
  pickFlow?: Flow;
  pickIds?: string[];
  pickText?: string;
  listIds?: string[];
  slotId?: string;
  itemKey?: string;
  qty?: number;
  voucher?: string;
  rOrder?: string;
  rItem?: string;
  rQty?: number;
  rAmount?: number;
  rMethod?: "card" | "credit";
  address?: string;
  postcode?: string;
  plan?: string;
  fee?: number;
  earlyWritten?: boolean;
}

interface Session {
  wait: State | "idle";
  prompt: string;
  customer?: Customer;
  authCustomer?: Customer;
  tries: number;
  locked: boolean;
  pending?: { intent: Intent; text: string };
  c: Ctx;
}

class Heldout14Target implements TestbedTarget {
  readonly name = "testbed:heldout14";
  private db: Db = seedDb();
  private s: Session = this.fresh();
  private visited: State[] = [];
  private writes: string[] = [];
  private relayed: string[] = [];
  private turn = 0;

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  private fresh(): Session {
    return { wait: "idle", prompt: "", tries: 0, locked: false, c: {} };
  }

  async reset(): Promise<void> {
    this.db = seedDb();
    this.s = this.fresh();
    this.visited = [];
    this.writes = [];
    this.relayed = [];
    this.turn = 0;
  }

  async send(text: string): Promise<ChatReply> {
    const t0 = Date.now();
    this.turn++;
    const reply = this.handle(text);
    return { text: reply, ms: Date.now() - t0 };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return `writes[${this.writes.join(" | ")}] relayed[${this.relayed.join(" | ")}]`;
  }

  // ------------------------------------------------------------ plumbing

  private on(f: Fault): boolean {
    return this.faults.has(f);
  }

  private say(key: string, vars: Record<string, string | number> = {}): string {
    const opts = T[key];
    if (!opts || opts.length === 0) throw new Error(`heldout14: no template ${key}`);
    // Seeds 1 and 2 take the first and second wordings throughout; later seeds mix them per template.
    const seed = Math.max(1, Math.floor(this.seed));
    let mix = 0;
    if (seed >= 3) for (const ch of `${key}#${seed}`) mix = (mix * 31 + ch.charCodeAt(0)) % 9973;
    const tpl = opts[(seed - 1 + mix) % opts.length] ?? opts[0]!;
    return tpl.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
  }

  private enter(state: State): void {
    this.visited.push(state);
  }

  /** Enter a state that waits for an answer, remembering the question for a re-prompt. */
  private ask(state: State, reply: string, waitAs: State = state): string {
    this.enter(state);
    this.s.wait = waitAs;
    this.s.prompt = reply;
    return reply;
  }

  /** Enter a state that ends the current flow. */
  private end(state: State, reply: string): string {
    this.enter(state);
    this.s.wait = "idle";
    this.s.prompt = "";
    return reply;
  }

  private write(w: string): void {
    this.writes.push(w);
  }

  private get me(): Customer {
    if (!this.s.customer) throw new Error("heldout14: not signed in");
    return this.s.customer;
  }

  private myOrders(): Order[] {
    return this.db.orders.filter((o) => o.customer === this.me.id);
  }

  private order(id: string): Order | undefined {
    return this.db.orders.find((o) => o.id === id);
  }

  // ------------------------------------------------------------ turn handling

  private handle(raw: string): string {
    const text = raw.trim();
    const t = text.toLowerCase();
    if (!text) return this.fallback();
    if (this.s.wait !== "idle") {
      if (RE_ESCAPE.test(t)) {
        this.s.c = {};
        return this.end("flow.abandoned", this.say("abandoned"));
      }
      const r = this.onWait(this.s.wait, text, t);
      if (r !== null) return r;
      const intent = detectIntent(text);
      if (intent) {
        this.s.wait = "idle";
        this.s.c = {};
        return this.start(intent, text);
      }
      if (this.s.wait.endsWith("confirm") || this.s.wait.endsWith("confirm_fee")) {
        this.s.c = {};
        return this.end("flow.abandoned", this.say("abandoned"));
      }
      this.enter(this.s.wait);
      return `${this.say("not_caught")} ${this.s.prompt}`;
    }
    const intent = detectIntent(text);
    if (!intent) return this.fallback();
    this.s.c = {};
    return this.start(intent, text);
  }

  private fallback(): string {
    return this.end("fallback", this.say("fallback"));
  }

  private start(intent: Intent, text: string): string {
    if (!PUBLIC.includes(intent)) {
      if (!this.s.customer) {
        if (this.s.locked) return this.end("auth.locked", this.say("locked"));
        this.s.pending = intent === "signin" ? undefined : { intent, text };
        const email = RE_EMAIL.exec(text)?.[0];
        if (email) return this.takeEmail(email);
        return this.ask("auth.ask_email", this.say("ask_email"));
      }
    }
    return this.run(intent, text);
  }

  private run(intent: Intent, text: string): string {
    switch (intent) {
      case "greet":
        return this.end("greet", this.say("greet"));
      case "goodbye":
        return this.end("goodbye", this.say("goodbye"));
      case "handoff":
        return this.end("handoff.human", this.say("handoff", { ref: 4100 + this.turn }));
      case "hours":
        return this.end("info.hours", this.say("hours"));
      case "min_order":
        return this.end("info.min_order", this.say("min_order"));
      case "pass_info":
        return this.end("info.pass_prices", this.say("pass_prices"));
      case "areas": {
        const pc = parsePostcode(text.replace(/\b(deliver|delivery|areas?|postcode)\b/gi, " "));
        if (pc) return this.areaAnswer(pc.full, pc.outward);
        return this.ask("info.ask_postcode", this.say("ask_postcode"));
      }
      case "signin":
        return this.end("auth.ok", this.say("already_in", { first: this.first() }));
      case "orders":
        return this.listOrders();
      case "order_detail":
        return this.showOrder(parseOrderId(text) ?? "");
      case "slot":
      case "items":
      case "add":
      case "remove":
      case "voucher":
      case "cancel":
        return this.withOrder(intent, text);
      case "refund":
        return this.refundTake(text);
      case "address":
        return this.addressStart(text);
      case "pass_join":
        return this.passJoin();
      case "pass_cancel":
        return this.passCancel();
    }
  }

  private first(): string {
    return this.me.name.split(" ")[0] ?? this.me.name;
  }

  private onWait(wait: State, text: string, t: string): string | null {
    const c = this.s.c;
    switch (wait) {
      case "auth.ask_email": {
        const email = RE_EMAIL.exec(text)?.[0];
        return email ? this.takeEmail(email) : null;
      }
      case "auth.ask_code":
        return this.takeCode(text);
      case "info.ask_postcode": {
        const pc = parsePostcode(text);
        return pc ? this.areaAnswer(pc.full, pc.outward) : null;
      }
      case "orders.list": {
        const id = parseOrderId(text);
        if (id && !/\b(cancel|slot|add|remove|voucher)\b/i.test(t)) return this.showOrder(id);
        const n = parseChoiceNumber(t);
        const pick = n !== undefined ? c.listIds?.[n - 1] : undefined;
        return pick ? this.showOrder(pick) : null;
      }
      case "order.pick": {
        const id = parseOrderId(text);
        const n = parseChoiceNumber(t);
        const pick = id && c.pickIds?.includes(id) ? id : n !== undefined ? c.pickIds?.[n - 1] : undefined;
        if (!pick || !c.pickFlow) return null;
        const o = this.order(pick);
        return o ? this.continueFlow(c.pickFlow, o, c.pickText ?? "") : null;
      }
      case "slot.choose":
        return this.slotPick(t);
      case "slot.confirm":
        if (RE_YES.test(t)) return this.slotCommit();
        if (RE_NO.test(t)) return this.abandon();
        return null;
      case "items.menu": {
        const n = parseChoiceNumber(t);
        const o = this.order(c.orderId ?? "");
        if (!o) return null;
        if (n === 1 || /\badd\b/.test(t)) return this.ask("items.ask_add", this.say("ask_add", { id: o.id }));
        if (n === 2 || /\b(remove|take)\b/.test(t)) return this.askRemove(o);
        return null;
      }
      case "items.ask_add":
        return this.tryAdd(text);
      case "items.ask_remove":
        return this.tryRemove(text);
      case "items.add_confirm":
        if (/^add[.!]?$/i.test(t)) return this.addCommit();
        if (RE_NO.test(t)) return this.abandon();
        if (RE_YES.test(t)) return this.ask("items.add_confirm", this.say("add_token"));
        return null;
      case "items.remove_confirm":
        if (RE_YES.test(t)) return this.removeCommit();
        if (RE_NO.test(t)) return this.abandon();
        return null;
      case "voucher.ask": {
        const code = parseVoucher(text);
        return code ? this.voucherCheck(code) : null;
      }
      case "voucher.confirm": {
        if (RE_NO.test(t)) return this.abandon();
        const code = parseVoucher(text);
        if (!code) return RE_YES.test(t) ? this.ask("voucher.confirm", this.say("voucher_token")) : null;
        if (code === c.voucher) return this.voucherCommit();
        c.voucher = undefined;
        return this.end("flow.abandoned", this.say("voucher_mismatch", { id: c.orderId ?? "" }));
      }
      case "refund.ask": {
        if (!parseOrderId(text) && !findItem(text)) return null;
        return this.refundTake(text);
      }
      case "refund.ask_qty":
        return this.refundQty(t);
      case "refund.ask_method": {
        const n = parseChoiceNumber(t);
        if (n === 1 || /\bcard\b/.test(t)) return this.refundMethod("card");
        if (n === 2 || /\bcredit|account\b/.test(t)) return this.refundMethod("credit");
        return null;
      }
      case "refund.confirm":
        if (RE_YES.test(t)) return this.refundCommit();
        if (RE_NO.test(t)) return this.abandon();
        return null;
      case "cancel.confirm":
      case "cancel.confirm_fee":
        if (/\bconfirm cancel\b/.test(t)) return this.cancelCommit();
        if (RE_NO.test(t)) return this.abandon();
        if (RE_YES.test(t)) return this.ask(wait, this.say("cancel_token"));
        return null;
      case "address.ask":
        return this.addressTake(text);
      case "address.confirm":
        if (/^save[.!]?$/i.test(t)) return this.addressCommit();
        if (RE_NO.test(t)) return this.abandon();
        if (RE_YES.test(t)) return this.ask("address.confirm", this.say("save_token"));
        return null;
      case "pass.choose_plan": {
        const l = parseLetter(t, "B");
        const plan =
          l === "A" || /\bmonth/.test(t) ? "monthly" : l === "B" || /\b(annual|year)/.test(t) ? "annual" : "";
        if (!plan) return null;
        return this.passPlan(plan);
      }
      case "pass.confirm":
        if (/^join[.!]?$/i.test(t)) return this.passCommit();
        if (RE_NO.test(t)) return this.abandon();
        if (RE_YES.test(t)) return this.ask("pass.confirm", this.say("join_token"));
        return null;
      case "pass.cancel_confirm":
        if (/\bstop my pass\b/.test(t)) return this.passCancelCommit();
        if (RE_NO.test(t)) return this.abandon();
        if (RE_YES.test(t)) return this.ask("pass.cancel_confirm", this.say("stop_token"));
        return null;
      default:
        return null;
    }
  }

  private abandon(): string {
    this.s.c = {};
    return this.end("flow.abandoned", this.say("abandoned"));
  }

  // ------------------------------------------------------------ public info

  private areaAnswer(full: string, outward: string): string {
    this.relayed.push(`area:${outward}:${AREAS.includes(outward)}`);
    if (AREAS.includes(outward)) return this.end("info.area_yes", this.say("area_yes", { pc: full }));
    return this.end("info.area_no", this.say("area_no", { pc: full }));
  }

  // ------------------------------------------------------------ sign-in

  private takeEmail(email: string): string {
    const cust = this.db.customers.find((x) => x.email === email.toLowerCase());
    if (!cust) return this.ask("auth.unknown_email", this.say("unknown_email", { email }), "auth.ask_email");
    this.s.authCustomer = cust;
    this.s.tries = 0;
    const [user = "", domain = ""] = cust.email.split("@");
    const masked = `${user.slice(0, 1)}***@${domain}`;
    const reply = this.ask("auth.ask_code", this.say("ask_code", { masked }));
    this.s.prompt = this.say("code_again");
    return reply;
  }

  private takeCode(text: string): string | null {
    const m = /\b(\d{6})\b/.exec(text);
    if (!m) {
      if (/\d/.test(text)) return this.ask("auth.ask_code", this.say("code_format"));
      return null;
    }
    const cust = this.s.authCustomer;
    if (!cust) return null;
    if (m[1] === cust.code) {
      this.s.customer = cust;
      this.s.tries = 0;
      this.enter("auth.ok");
      this.s.wait = "idle";
      const hello = this.say("auth_ok", { first: this.first() });
      const pending = this.s.pending;
      this.s.pending = undefined;
      if (pending) return `${hello} ${this.run(pending.intent, pending.text)}`;
      return `${hello} ${this.say("what_next")}`;
    }
    this.s.tries++;
    const limit = MAX_CODE_TRIES + (this.on("auth_extra_attempt") ? 1 : 0);
    if (this.s.tries >= limit) {
      this.s.locked = true;
      this.s.pending = undefined;
      return this.end("auth.locked", this.say("locked"));
    }
    const left = MAX_CODE_TRIES - this.s.tries;
    const reply = this.ask(
      "auth.bad_code",
      this.say("bad_code", { left, tries: left === 1 ? "try" : "tries" }),
      "auth.ask_code",
    );
    this.s.prompt = this.say("code_again");
    return reply;
  }

  // ------------------------------------------------------------ orders

  private listOrders(): string {
    const mine = this.myOrders();
    const shown = mine.filter((o) => o.status !== "cancelled" || this.on("cancelled_order_still_listed"));
    if (shown.length === 0) return this.end("orders.none", this.say("orders_none_at_all"));
    const rows = shown.map((o, i) => {
      const status = o.status === "cancelled" ? "upcoming" : o.status;
      return `${i + 1}. ${o.id} — ${slotLabel(o.start, o.end)} — ${money(total(o))} (${status})`;
    });
    const credit = this.me.credit > 0 ? `\nAccount credit: ${money(this.me.credit)}` : "";
    this.relayed.push(
      `list:${shown.map((o) => `${o.id}/${o.status === "cancelled" ? "upcoming" : o.status}/${o.start}/${total(o)}`).join(",")}:credit=${this.me.credit}`,
    );
    this.s.c.listIds = shown.map((o) => o.id);
    return this.ask("orders.list", this.say("orders_list", { list: rows.join("\n"), credit }));
  }

  private showOrder(id: string): string {
    const o = this.order(id);
    const visible = o && (o.customer === this.me.id || this.on("order_owner_unchecked"));
    if (!o || !visible) return this.end("order.not_found", this.say("order_not_found", { id }));
    const lines = o.lines
      .filter((l) => !l.removed || this.on("items_removed_still_listed"))
      .map((l) => `• ${l.qty} × ${item(l.item).name} — ${money(item(l.item).price * l.qty)}`)
      .join("\n");
    let totals = `Subtotal ${money(subtotal(o))}`;
    if (o.voucher) totals += `, voucher ${o.voucher} −${money(discount(o))}`;
    totals += `, total ${money(total(o))}`;
    const out = this.say("order_detail", {
      id: o.id,
      status: o.status,
      slot: slotLabel(o.start, o.end),
      lines,
      totals,
    });
    const shownLines = o.lines
      .filter((l) => !l.removed || this.on("items_removed_still_listed"))
      .map((l) => `${l.item}x${l.qty}`)
      .join(",");
    this.relayed.push(`detail:${o.id}:${o.status}:${o.start}:${shownLines}:${total(o)}`);
    return this.end("orders.detail", out);
  }

  /** Resolve the order a write flow is about: named in the text, the only upcoming one, or picked from a list. */
  private withOrder(flow: Flow, text: string): string {
    const id = parseOrderId(text);
    if (id) {
      const o = this.myOrders().find((x) => x.id === id);
      if (!o) return this.end("order.not_found", this.say("order_not_found", { id }));
      return this.continueFlow(flow, o, text);
    }
    const open = this.myOrders().filter((o) => o.status === "upcoming");
    if (open.length === 0) return this.end("orders.none", this.say("orders_none"));
    if (open.length === 1) return this.continueFlow(flow, open[0]!, text);
    this.s.c.pickFlow = flow;
    this.s.c.pickIds = open.map((o) => o.id);
    this.s.c.pickText = text;
    const list = open.map((o, i) => `${i + 1}. ${o.id} — ${slotLabel(o.start, o.end)}`).join("\n");
    return this.ask("order.pick", this.say("pick_order", { list }));
  }

  private continueFlow(flow: Flow, o: Order, text: string): string {
    this.s.c.orderId = o.id;
    if (o.status !== "upcoming")
      return this.end("order.not_open", this.say("order_not_open", { id: o.id, status: o.status }));
    switch (flow) {
      case "slot":
        return this.slotStart(o);
      case "items":
      case "add":
      case "remove":
        return this.itemsStart(o, flow, text);
      case "voucher":
        return this.voucherStart(o, text);
      case "cancel":
        return this.cancelStart(o);
      default:
        return this.showOrder(o.id);
    }
  }

  // ------------------------------------------------------------ slots

  private slotStart(o: Order): string {
    if (cutoffOf(o.start) <= NOW_MIN)
      return this.end(
        "slot.refused_order_locked",
        this.say("slot_locked", { id: o.id, cutoff: cutoffLabel(o.start) }),
      );
    if (subtotal(o) < MIN_BASKET)
      return this.end(
        "slot.refused_min_basket",
        this.say("slot_min_basket", { id: o.id, total: money(subtotal(o)) }),
      );
    const menu = this.db.slots.map((s) => `${s.id}) ${slotLabel(s.start, s.end)}`).join("\n");
    return this.ask(
      "slot.choose",
      this.say("slot_menu", { id: o.id, slot: slotLabel(o.start, o.end), menu }),
    );
  }

  private slotPick(t: string): string | null {
    const l = parseLetter(t, this.db.slots[this.db.slots.length - 1]?.id ?? "A");
    const s = this.db.slots.find((x) => x.id === l);
    if (!s) return null;
    const label = slotLabel(s.start, s.end);
    if (toMin(s.start) <= NOW_MIN)
      return this.ask("slot.refused_past", this.say("slot_past", { slot: label }), "slot.choose");
    if (cutoffOf(s.start) <= NOW_MIN && !this.on("slot_cutoff_ignored"))
      return this.ask(
        "slot.refused_cutoff",
        this.say("slot_cutoff", { slot: label, cutoff: cutoffLabel(s.start) }),
        "slot.choose",
      );
    if (s.free <= 0)
      return this.ask("slot.refused_full", this.say("slot_full", { slot: label }), "slot.choose");
    const o = this.order(this.s.c.orderId ?? "");
    if (!o) return null;
    this.s.c.slotId = s.id;
    return this.ask(
      "slot.confirm",
      this.say("slot_confirm", { id: o.id, old: slotLabel(o.start, o.end), slot: label }),
    );
  }

  private slotCommit(): string {
    const o = this.order(this.s.c.orderId ?? "");
    const s = this.db.slots.find((x) => x.id === this.s.c.slotId);
    if (!o || !s) return this.abandon();
    const old = this.db.slots.find((x) => x.start === o.start);
    if (old) old.free++;
    s.free--;
    o.start = s.start;
    o.end = s.end;
    this.write(`slot:${o.id}:${s.start}`);
    let shown = slotLabel(s.start, s.end);
    if (this.on("slot_readback_wrong_day")) {
      const next = fromMin(toMin(s.start) + 24 * 60);
      shown = `${dayLabel(next)} ${s.start.slice(11, 16)}–${s.end.slice(11, 16)}`;
    }
    this.s.c = {};
    return this.end("slot.done", this.say("slot_done", { id: o.id, slot: shown }));
  }

  // ------------------------------------------------------------ items

  private itemsStart(o: Order, flow: Flow, text: string): string {
    if (cutoffOf(o.start) <= NOW_MIN)
      return this.end(
        "items.refused_locked",
        this.say("items_locked", { id: o.id, cutoff: cutoffLabel(o.start) }),
      );
    if (flow === "add") {
      if (findItem(text)) {
        const r = this.tryAdd(text);
        if (r !== null) return r;
      }
      return this.ask("items.ask_add", this.say("ask_add", { id: o.id }));
    }
    if (flow === "remove") {
      if (findItem(text)) {
        const r = this.tryRemove(text);
        if (r !== null) return r;
      }
      return this.askRemove(o);
    }
    return this.ask("items.menu", this.say("items_menu", { id: o.id }));
  }

  private askRemove(o: Order): string {
    const list = o.lines
      .filter((l) => !l.removed)
      .map((l) => `- ${item(l.item).name} (×${l.qty})`)
      .join("\n");
    return this.ask("items.ask_remove", this.say("ask_remove", { id: o.id, list }));
  }

  private tryAdd(text: string): string | null {
    const c = this.s.c;
    const o = this.order(c.orderId ?? "");
    if (!o) return null;
    const found = findItem(text);
    const it = found ?? (c.itemKey ? item(c.itemKey) : undefined);
    const qty = parseQty(found ? text.replace(new RegExp(found.words.join("|"), "gi"), " ") : text);
    if (!found && qty === undefined) {
      if (detectIntent(text)) return null;
      const what = text.replace(/^(add|some|please|i'?d like|can i have)\s+/i, "").slice(0, 40);
      return this.ask("items.unknown_item", this.say("unknown_item", { what }), "items.ask_add");
    }
    if (it && qty === undefined) {
      c.itemKey = it.key;
      return this.ask("items.ask_add", this.say("ask_qty_for", { item: it.name }));
    }
    if (!it) return this.ask("items.ask_add", this.say("ask_item_for"));
    const q = qty ?? 1;
    if (q <= 0) return null;
    c.itemKey = it.key;
    if (it.alcohol && ageOn(this.me.dob) < 18 && !this.on("items_age_unchecked")) {
      c.itemKey = undefined;
      return this.ask("items.refused_age", this.say("refused_age", { item: it.name }), "items.ask_add");
    }
    const stock = this.db.stock[it.key] ?? 0;
    if (stock === 0) {
      c.itemKey = undefined;
      return this.ask("items.refused_stock", this.say("out_of_stock", { item: it.name }), "items.ask_add");
    }
    if (q > stock)
      return this.ask(
        "items.refused_stock",
        this.say("refused_stock", { item: it.name, qty: q, stock }),
        "items.ask_add",
      );
    const have = o.lines.find((l) => l.item === it.key && !l.removed)?.qty ?? 0;
    const max = it.maxPerOrder + (this.on("items_max_off_by_one") ? 1 : 0);
    if (have + q > max)
      return this.ask(
        "items.refused_max_qty",
        this.say("refused_max", { item: it.name, max: it.maxPerOrder, total: have + q }),
        "items.ask_add",
      );
    c.qty = q;
    const newTotal = total(o) + it.price * q;
    const reply = this.say("add_confirm", {
      qty: q,
      item: it.name,
      cost: money(it.price * q),
      id: o.id,
      total: money(newTotal),
    });
    if (this.on("items_write_before_confirm")) {
      this.applyAdd(o, it, q);
      c.earlyWritten = true;
    }
    return this.ask("items.add_confirm", reply);
  }

  private applyAdd(o: Order, it: CatalogItem, q: number): void {
    const line = o.lines.find((l) => l.item === it.key);
    if (line && !line.removed) line.qty += q;
    else if (line) {
      line.removed = false;
      line.qty = q;
    } else o.lines.push({ item: it.key, qty: q, refunded: 0 });
    this.db.stock[it.key] = (this.db.stock[it.key] ?? 0) - q;
    this.write(`add:${o.id}:${it.key}x${q}`);
  }

  private addCommit(): string {
    const c = this.s.c;
    const o = this.order(c.orderId ?? "");
    if (!o || !c.itemKey || !c.qty) return this.abandon();
    const it = item(c.itemKey);
    if (!c.earlyWritten) this.applyAdd(o, it, c.qty);
    const have = o.lines.find((l) => l.item === it.key)?.qty ?? c.qty;
    this.s.c = {};
    return this.end(
      "items.add_done",
      this.say("add_done", { id: o.id, have, item: it.name, total: money(total(o)) }),
    );
  }

  private tryRemove(text: string): string | null {
    const c = this.s.c;
    const o = this.order(c.orderId ?? "");
    if (!o) return null;
    const it = findItem(text);
    if (!it) {
      if (detectIntent(text)) return null;
      return this.ask(
        "items.unknown_item",
        this.say("unknown_item", { what: text.slice(0, 40) }),
        "items.ask_remove",
      );
    }
    const line = o.lines.find((l) => l.item === it.key && !l.removed);
    if (!line)
      return this.ask(
        "items.unknown_item",
        this.say("not_on_order", { item: it.name, id: o.id }),
        "items.ask_remove",
      );
    c.itemKey = it.key;
    return this.ask("items.remove_confirm", this.say("remove_confirm", { item: it.name, id: o.id }));
  }

  private removeCommit(): string {
    const c = this.s.c;
    const o = this.order(c.orderId ?? "");
    const line = o?.lines.find((l) => l.item === c.itemKey && !l.removed);
    if (!o || !line) return this.abandon();
    line.removed = true;
    this.db.stock[line.item] = (this.db.stock[line.item] ?? 0) + line.qty;
    this.write(`remove:${o.id}:${line.item}`);
    this.s.c = {};
    return this.end(
      "items.remove_done",
      this.say("remove_done", { item: item(line.item).name, id: o.id, total: money(total(o)) }),
    );
  }

  // ------------------------------------------------------------ vouchers

  private voucherStart(o: Order, text: string): string {
    if (o.voucher)
      return this.end("voucher.refused_stack", this.say("voucher_stack", { id: o.id, code: o.voucher }));
    const code = parseVoucher(text.replace(RE_ORDER, " "));
    if (code && VOUCHERS.some((v) => v.code === code)) return this.voucherCheck(code) ?? this.abandon();
    return this.ask("voucher.ask", this.say("voucher_ask", { id: o.id }));
  }

  private voucherCheck(code: string): string | null {
    const o = this.order(this.s.c.orderId ?? "");
    if (!o) return null;
    const v = VOUCHERS.find((x) => x.code === code);
    if (!v) return this.ask("voucher.unknown", this.say("voucher_unknown", { code }), "voucher.ask");
    if (NOW.slice(0, 10) > v.expires && !this.on("voucher_expired_accepted"))
      return this.ask(
        "voucher.refused_expired",
        this.say("voucher_expired", { code, date: longDate(v.expires) }),
        "voucher.ask",
      );
    if (this.me.vouchersUsed.includes(code) && !this.on("voucher_reuse_allowed"))
      return this.ask("voucher.refused_used", this.say("voucher_used", { code }), "voucher.ask");
    if (subtotal(o) < v.minSpend)
      return this.ask(
        "voucher.refused_min_spend",
        this.say("voucher_min_spend", {
          code,
          min: money(v.minSpend),
          id: o.id,
          subtotal: money(subtotal(o)),
        }),
        "voucher.ask",
      );
    this.s.c.voucher = code;
    return this.ask(
      "voucher.confirm",
      this.say("voucher_confirm", {
        code,
        off: money(v.off),
        id: o.id,
        total: money(Math.max(0, subtotal(o) - v.off)),
      }),
    );
  }

  private voucherCommit(): string {
    const c = this.s.c;
    const o = this.order(c.orderId ?? "");
    if (!o || !c.voucher) return this.abandon();
    o.voucher = c.voucher;
    this.me.vouchersUsed.push(c.voucher);
    this.write(`voucher:${o.id}:${c.voucher}:total=${total(o)}`);
    this.s.c = {};
    return this.end(
      "voucher.done",
      this.say("voucher_done", { code: o.voucher, id: o.id, total: money(total(o)) }),
    );
  }

  // ------------------------------------------------------------ refunds

  private refundTake(text: string): string {
    const c = this.s.c;
    const id = parseOrderId(text);
    const it = findItem(text);
    if (id) c.rOrder = id;
    if (it) c.rItem = it.key;
    if (!c.rOrder && !c.rItem) return this.ask("refund.ask", this.say("refund_ask_both"));
    if (!c.rOrder) return this.ask("refund.ask", this.say("refund_ask_order"));
    const o = this.myOrders().find((x) => x.id === c.rOrder);
    if (!o) {
      const bad = c.rOrder;
      this.s.c = {};
      return this.end("order.not_found", this.say("order_not_found", { id: bad }));
    }
    if (o.status !== "delivered") {
      this.s.c = {};
      return this.end(
        "refund.refused_not_delivered",
        this.say("refund_not_delivered", { id: o.id, status: o.status }),
      );
    }
    const hours = (NOW_MIN - toMin(o.deliveredAt ?? o.end)) / 60;
    if (hours > REFUND_WINDOW_HOURS && !this.on("refund_window_ignored")) {
      this.s.c = {};
      const when = `${dayLabel(o.deliveredAt ?? o.end)} ${(o.deliveredAt ?? o.end).slice(11, 16)}`;
      return this.end("refund.refused_window", this.say("refund_window", { id: o.id, when }));
    }
    if (!c.rItem) return this.ask("refund.ask", this.say("refund_ask_item"));
    const line = o.lines.find((l) => l.item === c.rItem);
    if (!line) {
      const name = item(c.rItem).name;
      c.rItem = undefined;
      return this.ask("refund.refused_item", this.say("refund_item", { item: name, id: o.id }), "refund.ask");
    }
    const left = line.qty - line.refunded;
    if (left <= 0) {
      this.s.c = {};
      return this.end(
        "refund.refused_qty_over",
        this.say("refund_none_left", { item: item(line.item).name, id: o.id }),
      );
    }
    return this.ask(
      "refund.ask_qty",
      this.say("refund_ask_qty", { qty: line.qty, item: item(line.item).name }),
    );
  }

  private refundLine(): { o: Order; line: Order["lines"][number] } | undefined {
    const o = this.order(this.s.c.rOrder ?? "");
    const line = o?.lines.find((l) => l.item === this.s.c.rItem);
    return o && line ? { o, line } : undefined;
  }

  private refundQty(t: string): string | null {
    const r = this.refundLine();
    const q = parseChoiceNumber(t) ?? parseQty(t);
    if (!r || q === undefined || q <= 0) return null;
    const left = r.line.qty - r.line.refunded;
    const name = item(r.line.item).name;
    if (q > left && !this.on("refund_over_cap"))
      return this.ask(
        "refund.refused_qty_over",
        this.say("refund_over", { left, item: name, id: r.o.id }),
        "refund.ask_qty",
      );
    this.s.c.rQty = q;
    this.s.c.rAmount = item(r.line.item).price * q;
    return this.ask(
      "refund.ask_method",
      this.say("refund_method", { amount: money(this.s.c.rAmount), card: this.me.card }),
    );
  }

  private dest(method: "card" | "credit"): string {
    return method === "card" ? `card ending ${this.me.card}` : "your account credit";
  }

  private refundMethod(method: "card" | "credit"): string | null {
    const r = this.refundLine();
    if (!r) return null;
    this.s.c.rMethod = method;
    return this.ask(
      "refund.confirm",
      this.say("refund_confirm", {
        amount: money(this.s.c.rAmount ?? 0),
        qty: this.s.c.rQty ?? 0,
        item: item(r.line.item).name,
        id: r.o.id,
        dest: this.dest(method),
      }),
    );
  }

  private refundCommit(): string {
    const r = this.refundLine();
    const c = this.s.c;
    if (!r || !c.rQty || !c.rMethod) return this.abandon();
    const amount = c.rAmount ?? 0;
    if (!(c.rMethod === "credit" && this.on("refund_credit_not_written"))) {
      r.line.refunded += c.rQty;
      if (c.rMethod === "credit") this.me.credit += amount;
      this.write(`refund:${r.o.id}:${r.line.item}x${c.rQty}:${amount}:${c.rMethod}`);
    }
    const reply = this.say("refund_done", { amount: money(amount), dest: this.dest(c.rMethod) });
    this.s.c = {};
    return this.end("refund.done", reply);
  }

  // ------------------------------------------------------------ cancellation

  private cancelStart(o: Order): string {
    const late = cutoffOf(o.start) <= NOW_MIN;
    const slot = slotLabel(o.start, o.end);
    if (late && !this.on("cancel_fee_skipped")) {
      this.s.c.fee = LATE_CANCEL_FEE;
      return this.ask(
        "cancel.confirm_fee",
        this.say("cancel_confirm_fee", { id: o.id, fee: money(LATE_CANCEL_FEE) }),
      );
    }
    this.s.c.fee = 0;
    return this.ask("cancel.confirm", this.say("cancel_confirm", { id: o.id, slot }));
  }

  private cancelCommit(): string {
    const o = this.order(this.s.c.orderId ?? "");
    if (!o) return this.abandon();
    const fee = this.s.c.fee ?? 0;
    o.status = "cancelled";
    for (const l of o.lines) if (!l.removed) this.db.stock[l.item] = (this.db.stock[l.item] ?? 0) + l.qty;
    this.write(`cancel:${o.id}:fee=${fee}`);
    const feeNote =
      fee > 0 ? ` A ${money(fee)} late-cancellation fee goes on card ending ${this.me.card}.` : "";
    this.s.c = {};
    return this.end("cancel.done", this.say("cancel_done", { id: o.id, feeNote }));
  }

  // ------------------------------------------------------------ address

  private addressStart(text: string): string {
    if (parsePostcode(text.replace(/\baddress\b/gi, " "))) {
      const r = this.addressTake(text.replace(/^.*\bto\b\s*/i, ""));
      if (r !== null) return r;
    }
    return this.ask("address.ask", this.say("address_ask"));
  }

  private addressTake(text: string): string | null {
    const pc = parsePostcode(text);
    if (!pc?.full.includes(" ")) {
      if (detectIntent(text) && !/\baddress\b/i.test(text)) return null;
      return this.ask("address.ask", this.say("address_need_pc"));
    }
    if (!AREAS.includes(pc.outward) && !this.on("address_area_unchecked"))
      return this.ask("address.refused_area", this.say("address_area", { pc: pc.full }), "address.ask");
    this.s.c.address = text.trim().replace(/[.!]+$/, "");
    this.s.c.postcode = pc.full;
    return this.ask("address.confirm", this.say("address_confirm", { address: this.s.c.address }));
  }

  private addressCommit(): string {
    const c = this.s.c;
    if (!c.address || !c.postcode) return this.abandon();
    this.me.address = c.address;
    this.me.postcode = c.postcode;
    this.write(`address:${this.me.id}:${c.address}`);
    this.s.c = {};
    return this.end("address.done", this.say("address_done", { address: this.me.address }));
  }

  // ------------------------------------------------------------ delivery pass

  private passJoin(): string {
    const p = this.me.pass;
    if (p && !this.on("pass_double_subscribe")) {
      const plan = PASS_PLANS.find((x) => x.key === p.plan)?.name.replace(/ pass$/, "") ?? p.plan;
      return this.end("pass.refused_active", this.say("pass_active", { plan, until: longDate(p.until) }));
    }
    return this.ask("pass.choose_plan", this.say("pass_menu"));
  }

  private passPlan(key: string): string {
    const plan = PASS_PLANS.find((x) => x.key === key)!;
    this.s.c.plan = key;
    return this.ask(
      "pass.confirm",
      this.say("pass_confirm", {
        plan: plan.name,
        price: money(plan.price),
        per: plan.per,
        card: this.me.card,
      }),
    );
  }

  private passCommit(): string {
    const plan = PASS_PLANS.find((x) => x.key === this.s.c.plan);
    if (!plan) return this.abandon();
    const until = plan.key === "monthly" ? "2026-04-10" : "2027-03-10";
    this.me.pass = { plan: plan.key, until };
    this.write(`pass:join:${this.me.id}:${plan.key}:${plan.price}`);
    this.s.c = {};
    return this.end("pass.done", this.say("pass_done", { plan: plan.name, until: longDate(until) }));
  }

  private passCancel(): string {
    const p = this.me.pass;
    if (!p) return this.end("pass.cancel_refused_none", this.say("pass_none"));
    const plan =
      PASS_PLANS.find((x) => x.key === p.plan)
        ?.name.replace(/ pass$/, "")
        .toLowerCase() ?? p.plan;
    return this.ask(
      "pass.cancel_confirm",
      this.say("pass_cancel_confirm", { plan, until: longDate(p.until) }),
    );
  }

  private passCancelCommit(): string {
    this.me.pass = undefined;
    this.write(`pass:cancel:${this.me.id}`);
    this.s.c = {};
    return this.end("pass.cancel_done", this.say("pass_cancel_done"));
  }
}

export const heldout14Agent: TestbedAgent = {
  name: "heldout14",
  description:
    "Grocery delivery assistant (Fernhill Fresh): public area/slot/pass info; e-mail + one-time-code sign-in gates orders, slot moves, item edits, vouchers, refunds, cancellation, address and Delivery Pass, each write behind a confirmation.",
  faults: HELDOUT14_FAULTS,
  states: STATES,
  facts: HELDOUT14_FACTS,
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget {
    for (const f of options?.faults ?? [])
      if (!(HELDOUT14_FAULTS as readonly string[]).includes(f))
        throw new Error(`heldout14: unknown fault ${f}`);
    return new Heldout14Target(new Set(options?.faults ?? []), options?.seed ?? 1);
  },
};
