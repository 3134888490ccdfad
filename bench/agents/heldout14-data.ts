import type { Facts } from "../../src/boundary/types.ts";

/** Seeded records of the heldout14 grocery-delivery bot ("Fernhill Fresh"). Money is in pence. */

/** The bot's fixed clock: Tuesday 10 March 2026, 10:00. */
export const NOW = "2026-03-10T10:00";

export interface CatalogItem {
  key: string;
  name: string;
  /** Words a customer may use for it (lower case). */
  words: string[];
  price: number;
  stock: number;
  maxPerOrder: number;
  alcohol: boolean;
}

export const CATALOG: CatalogItem[] = [
  {
    key: "bananas",
    name: "Bananas (bunch of 5)",
    words: ["bananas", "banana"],
    price: 120,
    stock: 40,
    maxPerOrder: 10,
    alcohol: false,
  },
  {
    key: "milk",
    name: "Semi-skimmed milk 2L",
    words: ["milk"],
    price: 165,
    stock: 30,
    maxPerOrder: 6,
    alcohol: false,
  },
  {
    key: "sourdough",
    name: "Sourdough loaf",
    words: ["sourdough", "bread", "loaf"],
    price: 310,
    stock: 3,
    maxPerOrder: 4,
    alcohol: false,
  },
  {
    key: "eggs",
    name: "Free-range eggs (12)",
    words: ["eggs", "egg"],
    price: 340,
    stock: 0,
    maxPerOrder: 5,
    alcohol: false,
  },
  {
    key: "avocados",
    name: "Avocados (2 pack)",
    words: ["avocados", "avocado"],
    price: 200,
    stock: 25,
    maxPerOrder: 8,
    alcohol: false,
  },
  {
    key: "coffee",
    name: "Ground coffee 227g",
    words: ["coffee"],
    price: 450,
    stock: 15,
    maxPerOrder: 5,
    alcohol: false,
  },
  {
    key: "strawberries",
    name: "Strawberries 400g",
    words: ["strawberries", "strawberry"],
    price: 300,
    stock: 12,
    maxPerOrder: 6,
    alcohol: false,
  },
  {
    key: "cheddar",
    name: "Mature cheddar 400g",
    words: ["cheddar", "cheese"],
    price: 375,
    stock: 20,
    maxPerOrder: 5,
    alcohol: false,
  },
  {
    key: "wine",
    name: "Merlot red wine 75cl",
    words: ["wine", "merlot"],
    price: 899,
    stock: 24,
    maxPerOrder: 6,
    alcohol: true,
  },
  {
    key: "lager",
    name: "Lager 4 x 440ml",
    words: ["lager", "beer", "beers"],
    price: 550,
    stock: 18,
    maxPerOrder: 6,
    alcohol: true,
  },
];

export interface OrderLine {
  item: string;
  qty: number;
  /** Units refunded so far (delivered orders). */
  refunded: number;
  removed?: boolean;
}

export interface Order {
  id: string;
  customer: string;
  status: "upcoming" | "delivered" | "cancelled";
  /** Slot start and end, ISO local time. */
  start: string;
  end: string;
  deliveredAt?: string;
  lines: OrderLine[];
  voucher?: string;
}

export interface Customer {
  id: string;
  name: string;
  email: string;
  code: string;
  dob: string;
  address: string;
  postcode: string;
  card: string;
  credit: number;
  vouchersUsed: string[];
  pass?: { plan: string; until: string };
}

export interface Slot {
  id: string;
  start: string;
  end: string;
  free: number;
}

export interface Voucher {
  code: string;
  off: number;
  minSpend: number;
  expires: string;
}

export interface PassPlan {
  key: string;
  name: string;
  price: number;
  per: string;
}

export interface Db {
  customers: Customer[];
  orders: Order[];
  slots: Slot[];
  stock: Record<string, number>;
}

export const VOUCHERS: Voucher[] = [
  { code: "FRESH10", off: 1000, minSpend: 4000, expires: "2026-04-30" },
  { code: "SPRING5", off: 500, minSpend: 2000, expires: "2026-02-28" },
  { code: "WELCOME15", off: 1500, minSpend: 6000, expires: "2026-12-31" },
];

export const PASS_PLANS: PassPlan[] = [
  { key: "monthly", name: "Monthly pass", price: 799, per: "month" },
  { key: "annual", name: "Annual pass", price: 6900, per: "year" },
];

/** Outward codes we deliver to. */
export const AREAS = ["FH1", "FH2", "FH3", "FH4", "FH5"];

export const MIN_BASKET = 2500;
export const LATE_CANCEL_FEE = 500;
export const REFUND_WINDOW_HOURS = 48;
export const MAX_CODE_TRIES = 3;

function line(item: string, qty: number): OrderLine {
  return { item, qty, refunded: 0 };
}

export function seedDb(): Db {
  const customers: Customer[] = [
    {
      id: "C1",
      name: "Amira Patel",
      email: "amira.patel@example.com",
      code: "482913",
      dob: "1985-04-12",
      address: "12 Orchard Row, Fernhill FH1 2AB",
      postcode: "FH1 2AB",
      card: "4417",
      credit: 0,
      vouchersUsed: [],
    },
    {
      id: "C2",
      name: "Tom Reed",
      email: "tom.reed@example.com",
      code: "730155",
      dob: "2009-06-01",
      address: "3 Kiln Street, Fernhill FH2 4CD",
      postcode: "FH2 4CD",
      card: "2051",
      credit: 0,
      vouchersUsed: [],
    },
    {
      id: "C3",
      name: "Grace Okafor",
      email: "grace.okafor@example.com",
      code: "159026",
      dob: "1990-11-30",
      address: "41 Weir Close, Fernhill FH3 1EF",
      postcode: "FH3 1EF",
      card: "8820",
      credit: 0,
      vouchersUsed: ["WELCOME15"],
    },
    {
      id: "C4",
      name: "Leo Marsh",
      email: "leo.marsh@example.com",
      code: "604871",
      dob: "1978-02-14",
      address: "7 Heath View, Fernhill FH4 7GH",
      postcode: "FH4 7GH",
      card: "9302",
      credit: 0,
      vouchersUsed: [],
      pass: { plan: "annual", until: "2026-09-01" },
    },
  ];
  const orders: Order[] = [
    {
      id: "FF-10233",
      customer: "C1",
      status: "upcoming",
      start: "2026-03-12T10:00",
      end: "2026-03-12T11:00",
      lines: [
        line("bananas", 2),
        line("milk", 2),
        line("coffee", 1),
        line("cheddar", 1),
        line("strawberries", 2),
        line("wine", 2),
        line("avocados", 2),
      ],
    },
    {
      id: "FF-10198",
      customer: "C1",
      status: "delivered",
      start: "2026-03-09T17:00",
      end: "2026-03-09T18:00",
      deliveredAt: "2026-03-09T17:40",
      lines: [line("eggs", 1), line("milk", 1), line("sourdough", 1), line("strawberries", 2)],
    },
    {
      id: "FF-10240",
      customer: "C2",
      status: "upcoming",
      start: "2026-03-11T17:00",
      end: "2026-03-11T18:00",
      lines: [line("milk", 1), line("bananas", 2), line("sourdough", 1), line("coffee", 2)],
    },
    {
      id: "FF-10251",
      customer: "C3",
      status: "upcoming",
      start: "2026-03-10T18:00",
      end: "2026-03-10T19:00",
      lines: [line("cheddar", 2), line("avocados", 3), line("lager", 2)],
    },
    {
      id: "FF-10262",
      customer: "C3",
      status: "upcoming",
      start: "2026-03-13T09:00",
      end: "2026-03-13T10:00",
      lines: [line("wine", 5), line("coffee", 3), line("strawberries", 2)],
    },
    {
      id: "FF-10150",
      customer: "C3",
      status: "delivered",
      start: "2026-03-05T13:00",
      end: "2026-03-05T14:00",
      deliveredAt: "2026-03-05T13:35",
      lines: [line("bananas", 1), line("eggs", 2), line("milk", 2)],
    },
  ];
  const slots: Slot[] = [
    { id: "A", start: "2026-03-10T08:00", end: "2026-03-10T09:00", free: 3 },
    { id: "B", start: "2026-03-10T20:00", end: "2026-03-10T21:00", free: 2 },
    { id: "C", start: "2026-03-11T08:00", end: "2026-03-11T09:00", free: 4 },
    { id: "D", start: "2026-03-11T19:00", end: "2026-03-11T20:00", free: 0 },
    { id: "E", start: "2026-03-12T12:00", end: "2026-03-12T13:00", free: 1 },
    { id: "F", start: "2026-03-13T17:00", end: "2026-03-13T18:00", free: 5 },
  ];
  const stock: Record<string, number> = {};
  for (const c of CATALOG) stock[c.key] = c.stock;
  return { customers, orders, slots, stock };
}

export const HELDOUT14_FACTS: Facts = {
  personas: [
    {
      name: ["Amira Patel"],
      email: ["amira.patel@example.com"],
      one_time_code: ["482913"],
      date_of_birth: ["1985-04-12"],
      postcode: ["FH1 2AB"],
      order_number: ["FF-10233", "FF-10198"],
      item: ["strawberries", "bananas", "wine"],
      voucher_code: ["FRESH10"],
      new_address: ["8 Mill Lane, Fernhill FH2 9XY", "22 Dock Road, Leddon LD7 3QP"],
      card_last_four: ["4417"],
    },
    {
      name: ["Tom Reed"],
      email: ["tom.reed@example.com"],
      one_time_code: ["730155"],
      date_of_birth: ["2009-06-01"],
      postcode: ["FH2 4CD"],
      order_number: ["FF-10240"],
      item: ["lager", "wine", "milk"],
      voucher_code: ["FRESH10"],
    },
    {
      name: ["Grace Okafor"],
      email: ["grace.okafor@example.com"],
      one_time_code: ["159026"],
      date_of_birth: ["1990-11-30"],
      postcode: ["FH3 1EF"],
      order_number: ["FF-10251", "FF-10262", "FF-10150"],
      item: ["eggs", "milk"],
      voucher_code: ["SPRING5", "WELCOME15"],
    },
    {
      name: ["Leo Marsh"],
      email: ["leo.marsh@example.com"],
      one_time_code: ["604871"],
      date_of_birth: ["1978-02-14"],
      postcode: ["FH4 7GH", "FH9 1ZZ"],
    },
  ],
  requests: [
    "Do you deliver to FH5 2LL?",
    "Some strawberries in my last delivery were squashed, can I get a refund?",
    "Can I move my delivery to an earlier slot?",
    "Add a bottle of wine to my next order",
  ],
};
