import type { Facts } from "../../src/boundary/types.ts";

/**
 * Data tables of the `heldout10` testbed agent (Basketful online grocery delivery support): catalogue,
 * customers, orders, the delivery-slot grid, the facts file, the paraphrase templates and their formatters.
 * Money is held in pence; times are naive local ISO strings (`2025-06-14T10:00`) against a fixed clock.
 */

/** The agent's fixed clock: Thursday 12 June 2025, 10:00. */
export const NOW = "2025-06-12T10:00";

export type OrderStatus = "placed" | "out_for_delivery" | "delivered" | "cancelled";

export interface Line {
  item: string;
  qty: number;
}

export interface Claim {
  item: string;
  qty: number;
  amount: number;
  kind: string;
}

export interface Order {
  number: string;
  email: string;
  status: OrderStatus;
  slot: string;
  lines: Line[];
  delivered?: string;
  claims: Claim[];
}

export interface Customer {
  email: string;
  name: string;
  postcode: string;
  card: string;
  age: number;
  points: number;
  credit: number;
}

export interface CatalogueItem {
  name: string;
  price: number;
  aliases: string[];
  restricted?: boolean;
}

export const CATALOGUE: readonly CatalogueItem[] = [
  { name: "free-range eggs", price: 290, aliases: ["free range eggs", "eggs", "egg"] },
  { name: "strawberries", price: 350, aliases: ["strawberry", "strawbs"] },
  { name: "sourdough loaf", price: 275, aliases: ["sourdough", "loaf", "bread"] },
  { name: "oat milk", price: 165, aliases: ["milk"] },
  { name: "bananas", price: 120, aliases: ["banana"] },
  { name: "chicken breast fillets", price: 540, aliases: ["chicken breasts", "chicken breast", "chicken"] },
  { name: "salmon fillets", price: 625, aliases: ["salmon fillet", "salmon"] },
  { name: "basmati rice", price: 210, aliases: ["rice"] },
  { name: "cheddar cheese", price: 380, aliases: ["cheddar", "cheese"] },
  {
    name: "greek yoghurt",
    price: 235,
    aliases: ["greek yogurt", "yoghurts", "yogurts", "yoghurt", "yogurt"],
  },
  { name: "olive oil", price: 650, aliases: [] },
  { name: "ground coffee", price: 475, aliases: ["coffee"] },
  { name: "crisps multipack", price: 260, aliases: ["multipack crisps", "crisps"] },
  { name: "apples", price: 220, aliases: ["apple"] },
  { name: "tomatoes", price: 145, aliases: ["tomato"] },
  { name: "laundry detergent", price: 720, aliases: ["detergent", "washing liquid"] },
  { name: "red wine", price: 899, aliases: ["bottle of red", "wine"], restricted: true },
  { name: "white wine", price: 799, aliases: ["bottle of white"], restricted: true },
  { name: "lager 4-pack", price: 550, aliases: ["lager", "beers", "beer"], restricted: true },
  { name: "prosecco", price: 950, aliases: [], restricted: true },
];

const CUSTOMER_ROWS: [string, string, string, string, number, number][] = [
  // email, name, postcode, card last four, age, loyalty points
  ["priya.shah@example.com", "Priya", "BS1 4DJ", "4821", 34, 1250],
  ["tom.brennan@example.com", "Tom", "BS3 1AB", "0937", 52, 300],
  ["grace.okafor@example.com", "Grace", "BS7 8EE", "5519", 41, 820],
  ["leo.martin@example.com", "Leo", "BS2 0JA", "7702", 17, 150],
  ["mei.chen@example.com", "Mei", "BS8 1TH", "2264", 29, 1200],
];

export const CUSTOMERS: readonly Customer[] = CUSTOMER_ROWS.map(
  ([email, name, postcode, card, age, points]) => ({
    email,
    name,
    postcode,
    card,
    age,
    points,
    credit: 0,
  }),
);

function lines(spec: string): Line[] {
  return spec.split(", ").map((part) => {
    const [item, qty] = part.split(":");
    return { item: item!, qty: Number(qty) };
  });
}

export const ORDERS: readonly Order[] = [
  {
    number: "BK-40217",
    email: "priya.shah@example.com",
    status: "placed",
    slot: "2025-06-13T09:00",
    lines: lines(
      "chicken breast fillets:2, salmon fillets:2, olive oil:1, ground coffee:2, cheddar cheese:2, basmati rice:2, laundry detergent:2, oat milk:4, apples:2",
    ),
    claims: [],
  },
  {
    number: "BK-40190",
    email: "priya.shah@example.com",
    status: "delivered",
    slot: "2025-06-11T18:00",
    delivered: "2025-06-11T18:30",
    lines: lines("free-range eggs:2, strawberries:1, sourdough loaf:1, tomatoes:3"),
    claims: [],
  },
  {
    number: "BK-40222",
    email: "tom.brennan@example.com",
    status: "out_for_delivery",
    slot: "2025-06-12T10:00",
    lines: lines("bananas:2, greek yoghurt:2, lager 4-pack:1, sourdough loaf:1, ground coffee:1"),
    claims: [],
  },
  {
    number: "BK-39960",
    email: "grace.okafor@example.com",
    status: "delivered",
    slot: "2025-06-09T11:00",
    delivered: "2025-06-09T12:00",
    lines: lines("salmon fillets:1, tomatoes:2, apples:1"),
    claims: [],
  },
  {
    number: "BK-40150",
    email: "grace.okafor@example.com",
    status: "delivered",
    slot: "2025-06-11T07:00",
    delivered: "2025-06-11T08:00",
    lines: lines("strawberries:2, bananas:1, sourdough loaf:1, greek yoghurt:4, cheddar cheese:1"),
    claims: [
      { item: "strawberries", qty: 2, amount: 700, kind: "damaged" },
      { item: "bananas", qty: 1, amount: 120, kind: "missing" },
      { item: "sourdough loaf", qty: 1, amount: 275, kind: "damaged" },
    ],
  },
  {
    number: "BK-40230",
    email: "leo.martin@example.com",
    status: "placed",
    slot: "2025-06-14T15:00",
    lines: lines("crisps multipack:6, greek yoghurt:8, bananas:4, oat milk:6, basmati rice:4"),
    claims: [],
  },
  {
    number: "BK-40241",
    email: "mei.chen@example.com",
    status: "placed",
    slot: "2025-06-12T18:00",
    lines: lines(
      "chicken breast fillets:2, cheddar cheese:1, olive oil:1, tomatoes:4, ground coffee:2, apples:2",
    ),
    claims: [],
  },
];

/** Every delivery slot (one hour each) with a van free; the ones within two hours of now are never offered. */
export const SLOT_GRID: readonly string[] = [
  "2025-06-12T11:00",
  "2025-06-12T14:00",
  "2025-06-12T18:00",
  "2025-06-13T09:00",
  "2025-06-13T17:00",
  "2025-06-14T10:00",
  "2025-06-14T15:00",
  "2025-06-15T12:00",
];

/** Outward codes Basketful delivers to (Bristol BS1–BS16). */
export function inDeliveryArea(postcode: string): boolean {
  const m = /^BS(\d{1,2})\s/.exec(postcode);
  if (!m) return false;
  const n = Number(m[1]);
  return n >= 1 && n <= 16;
}

export const FACTS: Facts = {
  personas: [
    {
      name: ["Priya Shah"],
      email: ["priya.shah@example.com"],
      postcode: ["BS1 4DJ"],
      order_number: ["BK-40217", "BK-40190"],
      card_last4: ["4821"],
      item: ["free-range eggs", "strawberries", "oat milk"],
      issue: ["missing", "damaged"],
      delivery_slot: ["Saturday 14 June 10:00-11:00", "Friday 13 June 17:00-18:00"],
      points: ["500", "1000"],
      new_postcode: ["BS6 5QA"],
    },
    {
      name: ["Tom Brennan"],
      email: ["tom.brennan@example.com"],
      postcode: ["BS3 1AB"],
      order_number: ["BK-40222"],
      card_last4: ["0937"],
      item: ["ground coffee"],
      delivery_slot: ["Friday 13 June 17:00-18:00"],
      new_postcode: ["EX4 4QJ"],
    },
    {
      name: ["Grace Okafor"],
      email: ["grace.okafor@example.com"],
      postcode: ["BS7 8EE"],
      order_number: ["BK-39960", "BK-40150"],
      card_last4: ["5519"],
      item: ["salmon fillets", "greek yoghurt"],
      issue: ["damaged", "missing"],
    },
    {
      name: ["Leo Martin"],
      email: ["leo.martin@example.com"],
      postcode: ["BS2 0JA"],
      order_number: ["BK-40230"],
      card_last4: ["7702"],
      item: ["red wine", "crisps"],
      quantity: ["1", "3"],
      delivery_slot: ["Thursday 12 June 11:00-12:00", "Sunday 15 June 12:00-13:00"],
    },
    {
      name: ["Mei Chen"],
      email: ["mei.chen@example.com"],
      postcode: ["BS8 1TH"],
      order_number: ["BK-40241"],
      card_last4: ["2264"],
      item: ["red wine", "olive oil"],
      quantity: ["1", "2"],
      points: ["1500", "1000"],
      new_postcode: ["BS16 2JP"],
    },
  ],
  requests: [
    "What are your opening hours?",
    "How much is delivery for a £50 basket?",
    "Which delivery slots are free this week?",
    "Can I speak to a person?",
    "Can you suggest a recipe for tonight?",
    "How many loyalty points do I have?",
  ],
};

// ---------------------------------------------------------------------------------------------------------
// Parsing: what a customer message says (identifiers, quantities, items, yes/no, delivery slots)

const WORD_NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  both: 2,
  couple: 2,
};

export function parseEmail(t: string): string | undefined {
  return /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(t)?.[0].toLowerCase();
}

export function parseOrder(t: string): string | undefined {
  const m = /\bBK[-\s]?(\d{5})\b/i.exec(t) ?? /(?<![\d-])(\d{5})(?!\d)/.exec(t);
  return m ? `BK-${m[1]}` : undefined;
}

export function parsePostcode(t: string): string | undefined {
  const m = /\b([A-Z]{1,2}\d{1,2}[A-Z]?)\s*(\d[A-Z]{2})\b/i.exec(t);
  return m ? `${m[1]!.toUpperCase()} ${m[2]!.toUpperCase()}` : undefined;
}

export function parseCard(t: string): string | undefined {
  return /(?<![\d-])(\d{4})(?![\d,])/.exec(t)?.[1];
}

/** Strip identifiers and times so stray digits aren't read as quantities or amounts. */
export function stripIds(t: string): string {
  return t
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, " ")
    .replace(/\bBK[-\s]?\d{5}\b/gi, " ")
    .replace(/\b[A-Z]{1,2}\d{1,2}[A-Z]?\s*\d[A-Z]{2}\b/gi, " ")
    .replace(/\b\d{1,2}(:\d{2})?\s*(am|pm)\b/gi, " ")
    .replace(/\b\d{1,2}:\d{2}\b/g, " ")
    .replace(/\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, " ")
    .replace(/\b\d{1,2}(st|nd|rd|th)?\s+(june?|july?)\b/gi, " ");
}

export function parseQty(t: string): number | undefined {
  const s = stripIds(t).toLowerCase();
  const m = /(?:^|[^\d£.,])(\d{1,2})(?![\d.,:])/.exec(s);
  if (m) return Number(m[1]);
  const w = /\b(one|two|three|four|five|six|both|couple)\b/.exec(s);
  return w ? WORD_NUMBERS[w[1]!] : undefined;
}

export function parsePoints(t: string, bare: boolean): number | undefined {
  const s = stripIds(t);
  const m = /(\d[\d,]*)\s*(?:loyalty\s+)?(?:points|pts)\b/i.exec(s) ?? (bare ? /(\d[\d,]*)/.exec(s) : null);
  return m ? Number(m[1]!.replace(/,/g, "")) : undefined;
}

export function parseMoney(t: string): number | undefined {
  const m = /£\s*(\d+(?:\.\d{1,2})?)|(\d+(?:\.\d{1,2})?)\s*(?:pounds|gbp|quid)/i.exec(t);
  const v = m?.[1] ?? m?.[2];
  return v === undefined ? undefined : Math.round(Number(v) * 100);
}

export function findItem(t: string, among?: readonly string[]): CatalogueItem | undefined {
  const s = ` ${t.toLowerCase().replace(/[^a-z0-9-]+/g, " ")} `;
  let best: CatalogueItem | undefined;
  let bestLen = 0;
  for (const item of CATALOGUE) {
    if (among && !among.includes(item.name)) continue;
    for (const alias of [item.name, ...item.aliases]) {
      const a = alias.toLowerCase().replace(/[^a-z0-9-]+/g, " ");
      if (s.includes(` ${a} `) && a.length > bestLen) {
        best = item;
        bestLen = a.length;
      }
    }
  }
  return best;
}

export function isYes(t: string, cancelling: boolean): boolean {
  if (
    /^\s*(please\s+)?(y|yes|yeah|yep|yup|sure|ok|okay|confirm|confirmed|correct|go ahead|do it|absolutely|definitely|that's right|that is right)\b/i.test(
      t,
    )
  )
    return true;
  if (/\b(yes|go ahead|confirm(ed)?|please do|sounds good|that's fine)\b/i.test(t)) return true;
  return cancelling && /\bcancel (it|the order|my order|that)\b/i.test(t);
}

export function isNo(t: string, allowCancelWord: boolean): boolean {
  if (/^\s*(n|no|nope|nah)\b/i.test(t)) return true;
  const words = allowCancelWord
    ? /\b(don't|do not|never ?mind|stop|abort|keep it|leave it|changed my mind|forget it|cancel)\b/i
    : /\b(don't|do not|never ?mind|stop|abort|keep it|leave it|changed my mind|forget it)\b/i;
  return words.test(t);
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

export interface SlotSpec {
  /** morning (before 12), afternoon (12–17) or evening (from 17). */
  part?: string;
  index?: number;
  day?: string;
  hour?: number;
}

export function parseSlotSpec(t: string): SlotSpec | undefined {
  const s = t.toLowerCase();
  const spec: SlotSpec = {};
  const idx =
    /\b(?:option|number|slot|no\.?|#)\s*(\d)\b/.exec(s) ?? /^\s*(\d)\s*[.)]?\s*(please)?[.!]?\s*$/.exec(s);
  if (idx) spec.index = Number(idx[1]);
  const ord = new RegExp(`\\b(${ORDINALS.join("|")}|last)\\b`).exec(s);
  if (!idx && ord) spec.index = ord[1] === "last" ? -1 : ORDINALS.indexOf(ord[1]!) + 1;
  const nowMs = toMs(NOW);
  const today = NOW.slice(0, 10);
  const dayMs = 24 * 3600_000;
  const dateM =
    /\b(\d{1,2})(?:st|nd|rd|th)?\s+(june?|july?)\b/.exec(s) ??
    /\b(june?|july?)\s+(\d{1,2})(?:st|nd|rd|th)?\b/.exec(s);
  const numeric = /\b(\d{1,2})\/(\d{1,2})(?:\/\d{2,4})?\b/.exec(s);
  if (dateM) {
    const dayNum = Number(/\d+/.exec(dateM[0])![0]);
    const month = /jul/.test(dateM[0]) ? "07" : "06";
    spec.day = `2025-${month}-${String(dayNum).padStart(2, "0")}`;
  } else if (numeric) {
    spec.day = `2025-${numeric[2]!.padStart(2, "0")}-${numeric[1]!.padStart(2, "0")}`;
  } else if (/\byesterday\b/.test(s)) {
    spec.day = fromMs(nowMs - dayMs).slice(0, 10);
  } else if (/\b(today|tonight|this (morning|afternoon|evening))\b/.test(s)) {
    spec.day = today;
  } else if (/\btomorrow\b/.test(s)) {
    spec.day = fromMs(nowMs + dayMs).slice(0, 10);
  } else {
    const wd = new RegExp(`\\b(${WEEKDAYS.join("|")}|mon|tue|wed|thu|fri|sat|sun)\\b`).exec(s);
    if (wd) {
      const target = WEEKDAYS.findIndex((w) => w.startsWith(wd[1]!));
      const cur = new Date(nowMs).getUTCDay();
      spec.day = fromMs(nowMs + ((target - cur + 7) % 7) * dayMs).slice(0, 10);
    }
  }
  const time = /\b(\d{1,2}):(\d{2})\s*(am|pm)?/.exec(s) ?? /\b(\d{1,2})\s*(am|pm)\b/.exec(s);
  if (time) {
    let h = Number(time[1]);
    const suffix = time[3] ?? (time[2] === "am" || time[2] === "pm" ? time[2] : undefined);
    if (suffix === "pm" && h < 12) h += 12;
    if (suffix === "am" && h === 12) h = 0;
    spec.hour = h;
  } else if (/\b(noon|midday|lunchtime)\b/.test(s)) {
    spec.hour = 12;
  }
  const part = /\b(morning|afternoon|evening|tonight)\b/.exec(s)?.[1];
  if (part) spec.part = part === "tonight" ? "evening" : part;
  return spec.index !== undefined || spec.day !== undefined || spec.hour !== undefined ? spec : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Formatters: each template picks one of several styles, so money and dates read differently per seed.

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"];

export function toMs(iso: string): number {
  return Date.parse(`${iso}:00Z`);
}

export function fromMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** Money in pence, in style 0 `£2.90`, 1 `2.90 GBP`, 2 `GBP 2.90`. */
export function money(pence: number, style: number): string {
  const v = (pence / 100).toFixed(2);
  if (style % 3 === 1) return `${v} GBP`;
  if (style % 3 === 2) return `GBP ${v}`;
  return `£${v}`;
}

function hour12(h: number, min: number): string {
  const suffix = h >= 12 ? "pm" : "am";
  const hh = h % 12 === 0 ? 12 : h % 12;
  return min === 0 ? `${hh}${suffix}` : `${hh}:${String(min).padStart(2, "0")}${suffix}`;
}

/** Whether a slot start falls in a part of the day. */
export function inPart(iso: string, part: string | undefined): boolean {
  const h = Number(iso.slice(11, 13));
  if (part === "morning") return h < 12;
  if (part === "afternoon") return h >= 12 && h < 17;
  if (part === "evening") return h >= 17;
  return true;
}

function parts(iso: string): { d: Date; h: number; m: number } {
  const d = new Date(toMs(iso));
  return { d, h: d.getUTCHours(), m: d.getUTCMinutes() };
}

/** A one-hour slot: 0 `Fri 13 Jun, 09:00–10:00`, 1 `Friday 13 June, 9am to 10am`, 2 `13/06/2025 09:00-10:00`. */
export function slotText(iso: string, style: number): string {
  const { d, h } = parts(iso);
  const day = DAYS[d.getUTCDay()]!;
  const month = MONTHS[d.getUTCMonth()]!;
  const dd = d.getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  if (style % 3 === 1) return `${day} ${dd} ${month}, ${hour12(h, 0)} to ${hour12(h + 1, 0)}`;
  if (style % 3 === 2)
    return `${pad(dd)}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(h)}:00-${pad(h + 1)}:00`;
  return `${day.slice(0, 3)} ${dd} ${month.slice(0, 3)}, ${pad(h)}:00–${pad(h + 1)}:00`;
}

/** A moment: 0 `Wed 11 Jun at 18:30`, 1 `Wednesday 11 June at 6:30pm`, 2 `11/06/2025 18:30`. */
export function momentText(iso: string, style: number): string {
  const { d, h, m } = parts(iso);
  const day = DAYS[d.getUTCDay()]!;
  const month = MONTHS[d.getUTCMonth()]!;
  const dd = d.getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  if (style % 3 === 1) return `${day} ${dd} ${month} at ${hour12(h, m)}`;
  if (style % 3 === 2)
    return `${pad(dd)}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(h)}:${pad(m)}`;
  return `${day.slice(0, 3)} ${dd} ${month.slice(0, 3)} at ${pad(h)}:${pad(m)}`;
}

function slotList(slots: readonly string[], style: number): string {
  return slots.map((s, i) => `${i + 1}. ${slotText(s, style)}`).join("\n");
}

function statusText(status: string, style: number): string {
  const table: Record<string, string[]> = {
    placed: [
      "confirmed and being picked",
      "booked in and waiting for its slot",
      "placed (not yet dispatched)",
    ],
    out_for_delivery: ["out for delivery", "on the van and on its way", "with the driver now"],
    delivered: ["delivered", "already delivered", "marked as delivered"],
    cancelled: ["cancelled", "already cancelled", "marked as cancelled"],
  };
  return table[status]?.[style % 3] ?? status;
}

function pts(n: number): string {
  return n.toLocaleString("en-GB");
}

// ---------------------------------------------------------------------------------------------------------
// Templates: three or more per reply kind (one kind per designed state).

/** Values a reply may show. */
export interface V {
  name?: string;
  email?: string;
  order?: string;
  status?: string;
  slot?: string;
  oldSlot?: string;
  slots?: string[];
  item?: string;
  items?: string[];
  qty?: number;
  amount?: number;
  total?: number;
  charge?: number;
  points?: number;
  balance?: number;
  value?: number;
  postcode?: string;
  delivered?: string;
  count?: number;
  ref?: string;
  kind?: string;
  card?: boolean;
  restricted?: boolean;
}

type Tpl = (p: V) => string;

const MENU = [
  "track an order, change a delivery slot, report missing or damaged items, cancel an order, add items to an upcoming order, redeem loyalty points, update your delivery address, or put you through to a person",
  "• track an order\n• change your delivery slot\n• report missing/damaged items for a refund\n• cancel an order\n• add items to an upcoming order\n• redeem loyalty points\n• update your delivery address\n• talk to a member of the team",
  "order tracking, delivery slot changes, refunds for missing or damaged items, cancellations, adding items, loyalty point redemptions, delivery address changes and hand-offs to a human",
];

export const TEMPLATES: Record<string, Tpl[]> = {
  "chat.greeting": [
    () => `Hello, and welcome to Basketful support! I can ${MENU[0]}. What can I do for you?`,
    () => `Hi there, you're chatting with the Basketful assistant. I can help with:\n${MENU[1]}`,
    () => `Welcome to Basketful. Ask me about ${MENU[2]}. How can I help today?`,
  ],
  "chat.menu": [
    () =>
      `Here's what I can do: ${MENU[0]}. I can also tell you our opening hours, delivery charges and free slots.`,
    () =>
      `I can help with:\n${MENU[1]}\nNo sign-in needed for opening hours, delivery charges or slot availability.`,
    () => `My services: ${MENU[2]}. Hours, delivery prices and available slots are open to everyone.`,
  ],
  "chat.smalltalk": [
    () => "You're welcome! Is there anything else I can help with?",
    () => "Happy to help. Anything else on your groceries today?",
    () => "No problem at all. Let me know if there's something else you need.",
  ],
  "chat.out_of_scope": [
    () => "Sorry, I can only help with Basketful orders, deliveries, refunds and loyalty points.",
    () => "That's outside what I can do here. I handle grocery orders, delivery slots, refunds and points.",
    () =>
      "I'm afraid I can't help with that. Try asking me about an order, a delivery or your loyalty points.",
  ],
  "chat.fallback": [
    () => `Sorry, I didn't catch that. I can ${MENU[0]}.`,
    () => `I'm not sure what you mean. Here's what I can help with:\n${MENU[1]}`,
    () => `Could you rephrase that? I deal with ${MENU[2]}.`,
  ],
  "chat.goodbye": [
    () => "Thanks for shopping with Basketful. Goodbye!",
    () => "Take care, and enjoy your groceries. Bye for now!",
    () => "Glad I could help. Have a lovely day — goodbye.",
  ],
  "chat.locked": [
    () => "This chat is locked after too many failed identity checks. Please call us on 0117 496 0000.",
    () => "For your security I can't continue this conversation. Contact our phone team on 0117 496 0000.",
    () =>
      "Too many verification attempts failed, so this chat has been locked. Our phone line is 0117 496 0000.",
  ],
  "chat.abandoned": [
    () => "No problem, I've left that as it is. Anything else?",
    () => "Okay, I've stopped there and nothing has changed. What else can I do?",
    () => "Fine, we'll leave that. Is there something else I can help with?",
  ],
  "handoff.transfer": [
    (p) => `I'm passing you to a member of our support team now. Your reference is ${p.ref}.`,
    (p) => `Sure — a colleague will join this chat shortly. Please quote ${p.ref} if you get disconnected.`,
    (p) => `Connecting you to a person. Reference: ${p.ref}. Typical wait is under five minutes.`,
  ],
  "info.store_hours": [
    () =>
      "Our support team is available 7am–10pm every day. Deliveries run 7am–11pm Monday to Saturday and 9am–6pm on Sunday.",
    () =>
      "Support hours: 07:00 to 22:00, seven days a week. Delivery hours: 07:00–23:00 Mon–Sat, 09:00–18:00 Sun.",
    () =>
      "You can reach us from 7 in the morning until 10 at night daily; vans deliver from 7am to 11pm (Sundays 9am to 6pm).",
  ],
  "info.delivery_charges": [
    (p) =>
      `Delivery costs ${money(450, 0)} for baskets under ${money(4000, 0)}, ${money(250, 0)} from ${money(4000, 0)} to ${money(7499, 0)}, and it's free from ${money(7500, 0)}.${p.amount !== undefined ? ` For a basket of ${money(p.amount, 0)} that's ${money(p.charge!, 0)}.` : ""}`,
    (p) =>
      `Our delivery charges:\n- under 40.00 GBP: ${money(450, 1)}\n- 40.00 to 74.99 GBP: ${money(250, 1)}\n- 75.00 GBP and over: free${p.amount !== undefined ? `\nYour ${money(p.amount, 1)} basket would pay ${money(p.charge!, 1)}.` : ""}`,
    (p) =>
      `${p.amount !== undefined ? `A ${money(p.amount, 2)} basket is charged ${money(p.charge!, 2)} for delivery. ` : ""}In general: ${money(450, 2)} below ${money(4000, 2)}, ${money(250, 2)} up to ${money(7499, 2)}, nothing from ${money(7500, 2)}.`,
  ],
  "info.slots_available": [
    (p) => `These delivery slots are free at the moment:\n${slotList(p.slots!, 0)}`,
    (p) =>
      `Right now you can book any of these:\n${slotList(p.slots!, 1)}\nYou can choose one when you order.`,
    (p) => `Open slots:\n${slotList(p.slots!, 2)}`,
  ],
  "auth.ask_email": [
    () => "I can help with that. First, what's the e-mail address on your Basketful account?",
    () => "Sure. To find your account, please tell me your e-mail address.",
    () => "Happy to look into it — could you give me the email address you shop with?",
  ],
  "auth.email_invalid": [
    () => "That doesn't look like an e-mail address. Could you type it again, e.g. name@example.com?",
    () => "Sorry, I need a valid email address (something like name@example.com).",
    () => "I couldn't read an e-mail address there. Please send the address on your account.",
  ],
  "auth.email_not_found": [
    (p) => `I can't find an account for ${p.email}. Could you check the address and try again?`,
    (p) => `No Basketful account matches ${p.email}. Please try another e-mail address.`,
    (p) => `Hmm, ${p.email} isn't registered with us. Which address did you sign up with?`,
  ],
  "auth.ask_postcode": [
    () =>
      "Thanks. To confirm it's you, what's the postcode of your delivery address? (Your order number works too.)",
    () => "Got it. Please confirm the postcode you have your shopping delivered to, or an order number.",
    () => "Thank you. For security, what's your delivery postcode? An order number is also fine.",
  ],
  "auth.ask_order_number": [
    () => "Thanks. Which order is this about? Please give the order number (it starts with BK-).",
    () => "Got it. To verify you and find the order, what's the order number, e.g. BK-12345?",
    () =>
      "Thank you. Please tell me the order number (BK-…); your delivery postcode also works to verify you.",
  ],
  "auth.mismatch": [
    (p) => `That doesn't match our records. You have ${p.count} attempt(s) left — please try again.`,
    (p) => `Sorry, those details don't match the account. ${p.count} more attempt(s) before the chat locks.`,
    (p) => `I couldn't verify that. Please check and try again (${p.count} tries remaining).`,
  ],
  "auth.verified": [
    (p) => `Thanks ${p.name}, you're verified.`,
    (p) => `Lovely, that matches — hello ${p.name}.`,
    (p) => `All checked, ${p.name}. Thank you.`,
  ],
  "auth.locked": [
    () => "That's three failed checks, so I've locked this chat. Please call 0117 496 0000 to continue.",
    () => "Too many unsuccessful attempts — this conversation is now locked for your security.",
    () => "I couldn't verify you after three tries, so I have to lock the chat. Our phone team can help.",
  ],
  "order.ask_number": [
    () => "Which order do you mean? Please give me the order number (BK-…).",
    () => "Could you tell me the order number this is about?",
    () => "What's the order number? It's in your confirmation e-mail and starts with BK-.",
  ],
  "order.not_found": [
    (p) => `I can't find order ${p.order} on your account. Could you check the number?`,
    (p) => `There's no order ${p.order} under your account. Which order number should I use?`,
    (p) => `Order ${p.order} doesn't appear on your account — please try another order number.`,
  ],
  "track.status": [
    (p) =>
      `Order ${p.order} is ${statusText(p.status!, 0)}. ${p.delivered ? `It was delivered ${momentText(p.delivered, 0)}.` : `Delivery slot: ${slotText(p.slot!, 0)}.`} ${p.count} items, total ${money(p.total!, 0)}, delivery charge ${money(p.charge!, 0)}.`,
    (p) =>
      `Your order ${p.order} is ${statusText(p.status!, 1)}.\n${p.delivered ? `Delivered: ${momentText(p.delivered, 1)}` : `Slot: ${slotText(p.slot!, 1)}`}\nItems: ${p.count}\nGoods: ${money(p.total!, 1)}\nDelivery: ${money(p.charge!, 1)}`,
    (p) =>
      `${p.order}: ${statusText(p.status!, 2)}; ${p.delivered ? `delivered ${momentText(p.delivered, 2)}` : `due ${slotText(p.slot!, 2)}`}; ${p.count} items worth ${money(p.total!, 2)} plus ${money(p.charge!, 2)} delivery.`,
  ],
  "slot.offer_list": [
    (p) =>
      `Order ${p.order} is booked for ${slotText(p.oldSlot!, 0)}. These slots are free:\n${slotList(p.slots!, 0)}\nWhich one would you like?`,
    (p) =>
      `You're currently down for ${slotText(p.oldSlot!, 1)}. I can move you to:\n${slotList(p.slots!, 1)}\nJust tell me the number or the time.`,
    (p) => `Current slot ${slotText(p.oldSlot!, 2)}. Available:\n${slotList(p.slots!, 2)}\nPick one, please.`,
  ],
  "slot.invalid_choice": [
    (p) => `That slot isn't available. Please choose one of these:\n${slotList(p.slots!, 0)}`,
    (p) => `Sorry, I can't book that one. The free slots are:\n${slotList(p.slots!, 1)}`,
    (p) => `Not an available slot. Options:\n${slotList(p.slots!, 2)}`,
  ],
  "slot.refused_past": [
    (p) => `${slotText(p.slot!, 0)} is already in the past, so I can't book it. Please pick a later slot.`,
    (p) => `I can't move a delivery to ${slotText(p.slot!, 1)} — that time has gone. Choose a future slot.`,
    (p) => `Slot ${slotText(p.slot!, 2)} has passed. Please choose another.`,
  ],
  "slot.refused_too_soon": [
    (p) =>
      `${slotText(p.slot!, 0)} is less than two hours away, and we need at least two hours to pick your order. Please choose a later one.`,
    (p) => `Sorry, ${slotText(p.slot!, 1)} is too soon — slots must start more than 2 hours from now.`,
    (p) => `Too close to now: ${slotText(p.slot!, 2)}. We can't book slots within two hours.`,
  ],
  "slot.refused_status": [
    (p) => `Order ${p.order} is ${statusText(p.status!, 0)}, so its slot can't be changed any more.`,
    (p) => `I'm afraid I can't move the slot: order ${p.order} is ${statusText(p.status!, 1)}.`,
    (p) => `Slot changes aren't possible for ${p.order} — it's ${statusText(p.status!, 2)}.`,
  ],
  "slot.confirm": [
    (p) =>
      `Just to confirm: move order ${p.order} from ${slotText(p.oldSlot!, 0)} to ${slotText(p.slot!, 0)}? (yes/no)`,
    (p) =>
      `Shall I change ${p.order} to ${slotText(p.slot!, 1)} (currently ${slotText(p.oldSlot!, 1)})? Please reply yes or no.`,
    (p) => `Confirm new slot ${slotText(p.slot!, 2)} for ${p.order}? Yes or no.`,
  ],
  "slot.changed": [
    (p) => `Done — order ${p.order} will now arrive ${slotText(p.slot!, 0)}.`,
    (p) => `All sorted. Your new delivery slot for ${p.order} is ${slotText(p.slot!, 1)}.`,
    (p) => `Slot updated: ${p.order} → ${slotText(p.slot!, 2)}.`,
  ],
  "slot.declined": [
    (p) => `Okay, I've kept ${p.order} on ${slotText(p.oldSlot!, 0)}.`,
    (p) => `No change made — your delivery stays ${slotText(p.oldSlot!, 1)}.`,
    (p) => `Fine, slot unchanged (${slotText(p.oldSlot!, 2)}).`,
  ],
  "claim.ask_item": [
    (p) =>
      `Sorry to hear that. Which item from order ${p.order} was missing or damaged? It had: ${p.items!.join(", ")}.`,
    (p) =>
      `Let's sort it out. Which item is affected? Order ${p.order} contained:\n- ${p.items!.join("\n- ")}`,
    (p) => `Which product was the problem? (${p.order}: ${p.items!.join("; ")})`,
  ],
  "claim.item_not_in_order": [
    (p) => `I can't see ${p.item ?? "that"} in order ${p.order}. It contained: ${p.items!.join(", ")}.`,
    (p) =>
      `${p.item ?? "That item"} wasn't part of ${p.order}. Which of these was affected?\n- ${p.items!.join("\n- ")}`,
    (p) => `No ${p.item ?? "such item"} on ${p.order}. Items were: ${p.items!.join("; ")}.`,
  ],
  "claim.refused_not_delivered": [
    (p) =>
      `Order ${p.order} is ${statusText(p.status!, 0)}, so there's nothing to claim for yet. Is there another order number?`,
    (p) =>
      `Claims are only for delivered orders, and ${p.order} is ${statusText(p.status!, 1)}. Which delivered order do you mean?`,
    (p) =>
      `${p.order} hasn't been delivered (${statusText(p.status!, 2)}). Give me a delivered order number instead.`,
  ],
  "claim.refused_window": [
    (p) =>
      `Order ${p.order} was delivered ${momentText(p.delivered!, 0)}. Missing or damaged items must be reported within 48 hours of delivery, so I can't raise a claim.`,
    (p) =>
      `I'm sorry — ${p.order} arrived ${momentText(p.delivered!, 1)}, more than 48 hours ago, which is past our claim window.`,
    (p) => `Claim window closed: ${p.order} delivered ${momentText(p.delivered!, 2)} (limit 48h).`,
  ],
  "claim.refused_cap": [
    (p) =>
      `Order ${p.order} already has 3 claims, which is the most we allow per order. Our team can review it further.`,
    (p) => `I can't add another claim: ${p.order} has reached the limit of three claims.`,
    (p) => `Maximum of 3 claims per order reached for ${p.order}.`,
  ],
  "claim.refused_duplicate": [
    (p) => `You've already claimed for the ${p.item} on ${p.order}, so I can't refund it twice.`,
    (p) => `There's already a claim for ${p.item} on order ${p.order}.`,
    (p) => `${p.item} on ${p.order} has been claimed before — duplicate claims aren't possible.`,
  ],
  "claim.authorise": [
    (p) =>
      `I can refund ${money(p.amount!, 0)} for ${p.qty} × ${p.item} (${p.kind}). To authorise the refund to your card, please type the last four digits of the card on file.`,
    (p) =>
      `That's a refund of ${money(p.amount!, 1)} for ${p.qty} ${p.item} (${p.kind}). Please confirm by entering the last 4 digits of your payment card.`,
    (p) =>
      `Refund due: ${money(p.amount!, 2)} (${p.item} ×${p.qty}, ${p.kind}). Type your card's last four digits to approve it, or "no" to stop.`,
  ],
  "claim.card_mismatch": [
    (p) => `Those digits don't match the card on file. ${p.count} attempt(s) left — please try again.`,
    (p) => `Sorry, that's not the card we have. Please re-enter the last four digits (${p.count} left).`,
    (p) => `Card digits incorrect. You can try ${p.count} more time(s).`,
  ],
  "claim.refunded": [
    (p) =>
      p.amount !== undefined
        ? `Done: ${money(p.amount, 0)} has been refunded to your card for the ${p.item}. It should show within 3–5 working days.`
        : `Done: the refund for the ${p.item} has been sent to your card. It should show within 3–5 working days.`,
    (p) =>
      p.amount !== undefined
        ? `Refund approved — ${money(p.amount, 1)} is on its way back to your card for ${p.qty} ${p.item}.`
        : `Refund approved — it's on its way back to your card for ${p.qty} ${p.item}.`,
    (p) =>
      p.amount !== undefined
        ? `Refunded ${money(p.amount, 2)} (${p.item}). Allow a few working days.`
        : `Refund processed (${p.item}). Allow a few working days.`,
  ],
  "claim.declined": [
    () => "Okay, I haven't raised a refund. Let me know if you change your mind.",
    () => "No refund has been made. Anything else I can help with?",
    () => "Understood — the claim has been dropped and nothing was refunded.",
  ],
  "cancel.confirm": [
    (p) =>
      `Order ${p.order} (slot ${slotText(p.slot!, 0)}) will be cancelled and ${money(p.amount!, 0)} refunded. Are you sure? (yes/no)`,
    (p) =>
      `Do you really want to cancel ${p.order}, due ${slotText(p.slot!, 1)}? You'd get ${money(p.amount!, 1)} back. Yes or no?`,
    (p) => `Cancel ${p.order} and refund ${money(p.amount!, 2)}? Please answer yes or no.`,
  ],
  "cancel.refused_out_for_delivery": [
    (p) =>
      `Order ${p.order} is already out for delivery, so it can't be cancelled now. You can refuse it at the door.`,
    (p) => `Sorry, ${p.order} is on the van already and can no longer be cancelled.`,
    (p) => `Too late to cancel ${p.order}: it's with the driver.`,
  ],
  "cancel.refused_status": [
    (p) => `Order ${p.order} is ${statusText(p.status!, 0)}, so there's nothing to cancel.`,
    (p) => `I can't cancel ${p.order} — it's ${statusText(p.status!, 1)}.`,
    (p) => `${p.order} can't be cancelled (${statusText(p.status!, 2)}).`,
  ],
  "cancel.done": [
    (p) => `Order ${p.order} has been cancelled. ${money(p.amount!, 0)} will be refunded to your card.`,
    (p) => `Cancelled. You'll receive ${money(p.amount!, 1)} back for ${p.order} within 3–5 days.`,
    (p) => `${p.order} cancelled; refund of ${money(p.amount!, 2)} issued.`,
  ],
  "cancel.kept": [
    (p) => `No problem, order ${p.order} stays as it is.`,
    (p) => `Okay, I haven't cancelled ${p.order}.`,
    (p) => `Fine — ${p.order} is still booked.`,
  ],
  "add.ask_item": [
    () => "What would you like to add to your order?",
    () => "Sure — which item should I add?",
    () => "Tell me the product you'd like added (and how many).",
  ],
  "add.item_unknown": [
    () =>
      "Sorry, I couldn't find that product. Try something like eggs, oat milk, bananas, coffee or red wine.",
    () => "That isn't in our range. We have, for example, strawberries, cheddar, rice, apples and prosecco.",
    () => "I don't recognise that item. Popular ones: sourdough, salmon, crisps, tomatoes, white wine.",
  ],
  "add.refused_status": [
    (p) => `Order ${p.order} is ${statusText(p.status!, 0)}, so I can't add anything to it.`,
    (p) => `Items can only be added to upcoming orders, and ${p.order} is ${statusText(p.status!, 1)}.`,
    (p) => `Can't edit ${p.order} (${statusText(p.status!, 2)}).`,
  ],
  "add.refused_age": [
    (p) => `Sorry, ${p.item} is age-restricted and the account holder must be 18 or over, so I can't add it.`,
    (p) => `I can't add ${p.item}: it's an 18+ product and your account doesn't meet the age requirement.`,
    (p) => `${p.item} requires the customer to be aged 18+. Not added.`,
  ],
  "add.refused_limit": [
    (p) => `Orders are limited to 30 items, and yours already has ${p.count}, so I can't add ${p.qty} more.`,
    (p) => `That would take you over our 30-item maximum (you have ${p.count} items now).`,
    (p) => `Item limit reached: ${p.count} + ${p.qty} exceeds 30.`,
  ],
  "add.age_notice": [
    (p) => `Please note ${p.item} is age-restricted: the driver will check photo ID on delivery.`,
    (p) => `Heads-up: ${p.item} is an 18+ item, so have ID ready when it's delivered.`,
    (p) => `ID check on delivery applies to ${p.item}.`,
  ],
  "add.authorise": [
    (p) =>
      `I'll add ${p.qty} × ${p.item} for ${money(p.amount!, 0)} to order ${p.order}. To authorise the extra charge, please type the last four digits of your card on file.`,
    (p) =>
      `Adding ${p.qty} ${p.item} (${money(p.amount!, 1)}) to ${p.order}. Enter the last 4 digits of your payment card to approve.`,
    (p) =>
      `${p.item} ×${p.qty} = ${money(p.amount!, 2)} on ${p.order}. Card last four digits to confirm, or "no".`,
  ],
  "add.card_mismatch": [
    (p) => `Those digits don't match the card on file. ${p.count} attempt(s) left.`,
    (p) => `That's not the card we hold. Please try again (${p.count} remaining).`,
    (p) => `Incorrect card digits — ${p.count} more attempt(s).`,
  ],
  "add.added": [
    (p) => `Added ${p.qty} × ${p.item} to order ${p.order}. New order total: ${money(p.total!, 0)}.`,
    (p) => `Done — ${p.item} (×${p.qty}) is now on ${p.order}, bringing it to ${money(p.total!, 1)}.`,
    (p) => `${p.order}: +${p.qty} ${p.item}. Total ${money(p.total!, 2)}.`,
  ],
  "add.declined": [
    () => "Okay, I haven't added anything.",
    () => "No problem — your order is unchanged.",
    () => "Understood, nothing was added.",
  ],
  "points.balance": [
    (p) =>
      `You have ${pts(p.balance!)} loyalty points. They can be redeemed in blocks of 500 (500 points = ${money(500, 0)} off). How many would you like to redeem?`,
    (p) =>
      `Your balance is ${pts(p.balance!)} points. Every 500 points is worth ${money(500, 1)} — how many points shall I redeem?`,
    (p) => `Points balance: ${p.balance}. Redeem in multiples of 500 (${money(500, 2)} each). How many?`,
  ],
  "points.invalid_amount": [
    (p) => `${pts(p.points!)} isn't a multiple of 500. Points can only be redeemed in blocks of 500.`,
    (p) => `Sorry, I can only redeem points in steps of 500 — ${pts(p.points!)} won't work.`,
    (p) => `Invalid amount (${p.points}). Use 500, 1,000, 1,500 …`,
  ],
  "points.refused_balance": [
    (p) => `You only have ${pts(p.balance!)} points, so I can't redeem ${pts(p.points!)}.`,
    (p) => `That's more than your balance: ${pts(p.points!)} requested, ${pts(p.balance!)} available.`,
    (p) => `Insufficient points (${p.balance} available, ${p.points} requested).`,
  ],
  "points.confirm": [
    (p) => `Redeem ${pts(p.points!)} points for ${money(p.value!, 0)} off your next order? (yes/no)`,
    (p) => `Shall I turn ${pts(p.points!)} points into a ${money(p.value!, 1)} voucher? Yes or no?`,
    (p) => `Confirm: ${p.points} points → ${money(p.value!, 2)} credit. Yes/no?`,
  ],
  "points.redeemed": [
    (p) =>
      `Done! ${pts(p.points!)} points redeemed — ${money(p.value!, 0)} will come off your next order. Remaining balance: ${pts(p.balance!)} points.`,
    (p) => `Your ${money(p.value!, 1)} voucher is ready. You have ${pts(p.balance!)} points left.`,
    (p) => `Redeemed ${p.points} points = ${money(p.value!, 2)}. Balance now ${p.balance}.`,
  ],
  "points.declined": [
    () => "Okay, your points are untouched.",
    () => "No problem — I haven't redeemed anything.",
    () => "Understood, points balance unchanged.",
  ],
  "address.ask_postcode": [
    () => "What's the postcode of your new delivery address?",
    () => "Sure — please tell me the new delivery postcode.",
    () => "Which postcode should we deliver to from now on?",
  ],
  "address.refused_area": [
    (p) => `Sorry, ${p.postcode} is outside our delivery area (Bristol BS1–BS16), so I can't switch to it.`,
    (p) => `We don't deliver to ${p.postcode} yet. Our vans cover BS1 to BS16 only.`,
    (p) => `${p.postcode}: not in the delivery area. Please give a BS1–BS16 postcode.`,
  ],
  "address.confirm": [
    (p) => `Update your delivery address to postcode ${p.postcode}? (yes/no)`,
    (p) => `Shall I change your delivery postcode to ${p.postcode}? Yes or no?`,
    (p) => `Confirm new delivery postcode ${p.postcode}: yes or no?`,
  ],
  "address.updated": [
    (p) => `Your delivery address now uses postcode ${p.postcode}. Future orders will go there.`,
    (p) => `Done — we'll deliver to ${p.postcode} from now on.`,
    (p) => `Address updated (${p.postcode}).`,
  ],
  "address.declined": [
    () => "Okay, I've left your address as it is.",
    () => "No change made to your delivery address.",
    () => "Understood — address unchanged.",
  ],
  "gate.unclear": [
    (p) =>
      p.card
        ? "Please type the last four digits of your card to go ahead, or say no."
        : "Sorry, is that a yes or a no?",
    (p) =>
      p.card
        ? "To continue I need the last 4 digits of the card on file (or 'no' to stop)."
        : "I need a clear yes or no to continue.",
    (p) => (p.card ? "Card digits, please — or 'no' to cancel." : "Please answer yes or no."),
  ],
};
