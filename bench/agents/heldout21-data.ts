/**
 * The world of the `heldout21` testbed agent: the Forkful food-delivery app on a fixed evening (Thursday 12 June
 * 2025, 19:40 London time, kept as UTC for simplicity). Three customers with their orders (placed, being prepared,
 * on the way, delivered, cancelled), saved cards, app credit, Forkful Plus memberships and vouchers; the
 * restaurants with the postcode districts they deliver to; the promo codes; and the limits the support bot
 * enforces. `seedWorld()` gives each session its own mutable copy.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** "Now" for the bot: Thursday 12 June 2025, 19:40. */
export const NOW = Date.UTC(2025, 5, 12, 19, 40);

/** A moment in June 2025 (day, hour, minute). */
const june = (day: number, hour: number, minute: number): number => Date.UTC(2025, 5, day, hour, minute);

/** Limits and policies the bot enforces. */
export const LIMITS = {
  /** Missing/wrong items can be reported up to this many hours after delivery. */
  refundWindowHours: 48,
  /** Refunds on one order above this total go to a person for review. */
  refundAutoCap: 30,
  /** Tips can be changed up to this many hours after delivery. */
  tipWindowHours: 24,
  /** Largest tip the app accepts. */
  maxTip: 25,
  /** Share of the food subtotal kept when cancelling after the restaurant accepted. */
  cancelFeeRate: 0.5,
  /** Longest Plus pause, in months. */
  maxPauseMonths: 3,
  /** Wrong sign-in codes before the chat locks sign-in. */
  codeAttempts: 3,
  /** Wrong card digits before a sensitive action is blocked. */
  reverifyAttempts: 2,
  /** Longest courier note. */
  instructionsMax: 150,
} as const;

/** Postcode districts Forkful delivers to (East and North-East London). */
export const SERVICE_AREAS: readonly string[] = ["E1", "E2", "E3", "E8", "E9", "N1", "N16", "EC1", "EC2"];

/** One line of an order. */
export interface Item {
  name: string;
  qty: number;
  /** Unit price, pounds. */
  price: number;
  /** How many of this line were refunded already. */
  refunded: number;
}

/** Where an order is in its life. */
export type OrderStatus = "placed" | "accepted" | "on_the_way" | "delivered" | "cancelled";

/** A restaurant order. Times are epoch ms. */
export interface Order {
  id: string;
  customerId: string;
  restaurant: string;
  status: OrderStatus;
  placedAt: number;
  eta?: number;
  deliveredAt?: number;
  cancelledAt?: number;
  courier?: string;
  vehicle?: string;
  items: Item[];
  deliveryFee: number;
  tip: number;
  street: string;
  postcode: string;
  instructions: string;
  /** Pounds refunded on this order so far. */
  refundTotal: number;
}

/** A saved payment card. */
export interface Card {
  brand: string;
  last4: string;
}

/** Forkful Plus membership. */
export interface Plus {
  status: "active" | "paused" | "cancelled";
  fee: number;
  renewsOn: number;
  pausedUntil?: number;
  endsOn?: number;
}

/** A customer account. */
export interface Customer {
  id: string;
  name: string;
  firstName: string;
  email: string;
  phoneLast2: string;
  code: string;
  cards: Card[];
  /** last4 of the default card. */
  defaultCard: string;
  credit: number;
  plus: Plus | null;
  vouchers: string[];
  deleted: boolean;
}

/** A promo code. */
export interface Promo {
  code: string;
  description: string;
  minSpend: number;
  expires: number;
  newCustomersOnly: boolean;
  usedBy: string[];
}

/** A restaurant and the districts it delivers to. */
export interface Restaurant {
  name: string;
  zones: string[];
}

/** Everything the bot can read and write. */
export interface World {
  customers: Record<string, Customer>;
  orders: Record<string, Order>;
  promos: Record<string, Promo>;
  restaurants: Record<string, Restaurant>;
}

const item = (name: string, qty: number, price: number): Item => ({ name, qty, price, refunded: 0 });

const BASE: World = {
  restaurants: {
    "Mama Rosa's Pizzeria": { name: "Mama Rosa's Pizzeria", zones: ["E1", "E2", "E8", "E9", "N16"] },
    "Golden Lotus": { name: "Golden Lotus", zones: ["E1", "E2", "E3", "EC1", "N1"] },
    "Burger Barn": { name: "Burger Barn", zones: ["E1", "E2", "E8", "N1", "N16", "EC1", "EC2"] },
    "Sakura Sushi": { name: "Sakura Sushi", zones: ["EC1", "EC2", "E1", "N1"] },
    "Green Bowl": { name: "Green Bowl", zones: ["E2", "E8", "E9", "N16", "N1"] },
  },
  customers: {
    c1: {
      id: "c1",
      name: "Priya Shah",
      firstName: "Priya",
      email: "priya.shah@example.com",
      phoneLast2: "21",
      code: "482913",
      cards: [
        { brand: "Visa", last4: "4821" },
        { brand: "Mastercard", last4: "0093" },
      ],
      defaultCard: "4821",
      credit: 3.5,
      plus: { status: "active", fee: 7.99, renewsOn: june(28, 0, 0) },
      vouchers: ["FREEDEL"],
      deleted: false,
    },
    c2: {
      id: "c2",
      name: "Tom Okafor",
      firstName: "Tom",
      email: "tom.okafor@example.com",
      phoneLast2: "68",
      code: "157340",
      cards: [{ brand: "Amex", last4: "3007" }],
      defaultCard: "3007",
      credit: 0,
      plus: {
        status: "paused",
        fee: 7.99,
        renewsOn: Date.UTC(2025, 7, 1),
        pausedUntil: Date.UTC(2025, 7, 1),
      },
      vouchers: [],
      deleted: false,
    },
    c3: {
      id: "c3",
      name: "Hannah Berg",
      firstName: "Hannah",
      email: "hannah.berg@example.com",
      phoneLast2: "05",
      code: "903625",
      cards: [
        { brand: "Visa", last4: "7764" },
        { brand: "Mastercard", last4: "5120" },
      ],
      defaultCard: "7764",
      credit: 12,
      plus: null,
      vouchers: [],
      deleted: false,
    },
  },
  orders: {
    "FK-20417": {
      id: "FK-20417",
      customerId: "c1",
      restaurant: "Mama Rosa's Pizzeria",
      status: "delivered",
      placedAt: june(12, 18, 10),
      deliveredAt: june(12, 18, 55),
      courier: "Dev",
      vehicle: "scooter",
      items: [item("Margherita pizza", 2, 11.5), item("Garlic bread", 1, 4.5), item("Tiramisu", 2, 5.25)],
      deliveryFee: 0,
      tip: 2,
      street: "14 Fournier Street",
      postcode: "E1 6QE",
      instructions: "",
      refundTotal: 0,
    },
    "FK-20388": {
      id: "FK-20388",
      customerId: "c1",
      restaurant: "Golden Lotus",
      status: "delivered",
      placedAt: june(8, 19, 30),
      deliveredAt: june(8, 20, 10),
      courier: "Aisha",
      vehicle: "bike",
      items: [
        item("Crispy aromatic duck", 1, 14.8),
        item("Egg fried rice", 2, 4.2),
        item("Prawn crackers", 1, 2.9),
      ],
      deliveryFee: 0,
      tip: 1,
      street: "14 Fournier Street",
      postcode: "E1 6QE",
      instructions: "",
      refundTotal: 0,
    },
    "FK-20431": {
      id: "FK-20431",
      customerId: "c1",
      restaurant: "Burger Barn",
      status: "accepted",
      placedAt: june(12, 19, 25),
      eta: june(12, 20, 10),
      items: [
        item("Double smash burger", 1, 12.95),
        item("Sweet potato fries", 2, 3.95),
        item("Oreo shake", 1, 5.15),
      ],
      deliveryFee: 0,
      tip: 1.5,
      street: "14 Fournier Street",
      postcode: "E1 6QE",
      instructions: "",
      refundTotal: 0,
    },
    "FK-20425": {
      id: "FK-20425",
      customerId: "c2",
      restaurant: "Sakura Sushi",
      status: "on_the_way",
      placedAt: june(12, 19, 2),
      eta: june(12, 19, 52),
      courier: "Marek",
      vehicle: "bike",
      items: [
        item("Salmon nigiri set", 1, 16.5),
        item("Chicken katsu curry", 1, 11.9),
        item("Miso soup", 2, 2.75),
      ],
      deliveryFee: 2.49,
      tip: 2.5,
      street: "9 Mildmay Grove North",
      postcode: "N1 4RH",
      instructions: "Blue door next to the launderette",
      refundTotal: 0,
    },
    "FK-20402": {
      id: "FK-20402",
      customerId: "c2",
      restaurant: "Green Bowl",
      status: "delivered",
      placedAt: june(11, 11, 55),
      deliveredAt: june(11, 12, 30),
      courier: "Sofia",
      vehicle: "bike",
      items: [item("Halloumi harvest bowl", 1, 10.5), item("Sparkling lemonade", 2, 2.8)],
      deliveryFee: 1.99,
      tip: 0,
      street: "9 Mildmay Grove North",
      postcode: "N1 4RH",
      instructions: "",
      refundTotal: 0,
    },
    "FK-20436": {
      id: "FK-20436",
      customerId: "c2",
      restaurant: "Golden Lotus",
      status: "placed",
      placedAt: june(12, 19, 37),
      eta: june(12, 20, 25),
      items: [
        item("Kung pao chicken", 1, 11.2),
        item("Vegetable spring rolls", 1, 5.4),
        item("Steamed rice", 1, 2.6),
      ],
      deliveryFee: 2.49,
      tip: 1,
      street: "9 Mildmay Grove North",
      postcode: "N1 4RH",
      instructions: "",
      refundTotal: 0,
    },
    "FK-20379": {
      id: "FK-20379",
      customerId: "c3",
      restaurant: "Burger Barn",
      status: "cancelled",
      placedAt: june(7, 19, 5),
      cancelledAt: june(7, 19, 15),
      items: [item("Classic cheeseburger", 1, 10.95), item("Skin-on fries", 1, 3.45)],
      deliveryFee: 2.29,
      tip: 0,
      street: "Flat 3, 41 Amhurst Road",
      postcode: "E8 1JX",
      instructions: "",
      refundTotal: 16.69,
    },
    "FK-20410": {
      id: "FK-20410",
      customerId: "c3",
      restaurant: "Mama Rosa's Pizzeria",
      status: "delivered",
      placedAt: june(12, 12, 20),
      deliveredAt: june(12, 13, 5),
      courier: "Dev",
      vehicle: "scooter",
      items: [item("Pepperoni pizza", 1, 13), item("Caesar salad", 1, 8.5), item("Cola can", 3, 1.8)],
      deliveryFee: 1.99,
      tip: 1,
      street: "Flat 3, 41 Amhurst Road",
      postcode: "E8 1JX",
      instructions: "",
      refundTotal: 0,
    },
  },
  promos: {
    SUMMER10: {
      code: "SUMMER10",
      description: "10% off",
      minSpend: 20,
      expires: june(30, 23, 59),
      newCustomersOnly: false,
      usedBy: [],
    },
    FREEDEL: {
      code: "FREEDEL",
      description: "free delivery",
      minSpend: 15,
      expires: Date.UTC(2025, 6, 15, 23, 59),
      newCustomersOnly: false,
      usedBy: [],
    },
    WELCOME5: {
      code: "WELCOME5",
      description: "£5 off your first order",
      minSpend: 10,
      expires: Date.UTC(2025, 11, 31, 23, 59),
      newCustomersOnly: true,
      usedBy: [],
    },
    SPRING25: {
      code: "SPRING25",
      description: "25% off",
      minSpend: 30,
      expires: Date.UTC(2025, 4, 31, 23, 59),
      newCustomersOnly: false,
      usedBy: [],
    },
    PIZZA3: {
      code: "PIZZA3",
      description: "£3 off at Mama Rosa's Pizzeria",
      minSpend: 25,
      expires: Date.UTC(2025, 8, 30, 23, 59),
      newCustomersOnly: false,
      usedBy: ["c2"],
    },
  },
};

/** A fresh, mutable copy of the world for one session. */
export function seedWorld(): World {
  return structuredClone(BASE);
}

/** What a tester knows before starting: three customers and some plain-words requests. */
export const FACTS: Facts = {
  personas: [
    {
      name: ["Priya Shah"],
      email: ["priya.shah@example.com"],
      verification_code: ["482913"],
      order_number: ["FK-20417", "FK-20431", "FK-20388"],
      card_last4: ["4821", "0093"],
      promo_code: ["SUMMER10", "SPRING25"],
      street_address: ["22 Hoxton Square"],
      postcode: ["N1 6NT", "SE15 4QL"],
      delivery_instructions: ["Please ring flat 2, the buzzer for the building is broken"],
      tip_amount: ["5", "30"],
      pause_months: ["2", "6"],
    },
    {
      name: ["Tom Okafor"],
      email: ["tom.okafor@example.com"],
      verification_code: ["157340"],
      order_number: ["FK-20436", "FK-20425", "FK-20402"],
      card_last4: ["3007"],
      promo_code: ["FREEDEL", "PIZZA3"],
      street_address: ["31 Rosebery Avenue"],
      postcode: ["EC1R 4SR", "E8 3QP"],
      delivery_instructions: ["Leave it with the concierge at the front desk"],
      tip_amount: ["4", "1"],
    },
    {
      name: ["Hannah Berg"],
      email: ["hannah.berg@example.com"],
      verification_code: ["903625"],
      order_number: ["FK-20410", "FK-20379"],
      card_last4: ["7764", "5120"],
      promo_code: ["FREEDEL", "WELCOME5"],
      tip_amount: ["3"],
    },
  ],
  requests: [
    "Where is my food? The app says it's on the way but it's taking ages",
    "Half of my order was missing, I'd like a refund for it",
    "I need to cancel the order I just placed",
    "Can I change the delivery address on my order?",
    "I want to give my courier a bigger tip",
    "I have a promo code, how do I add it?",
    "Can I pause my Plus membership for a couple of months?",
    "Please delete my account and all my data",
  ],
};
