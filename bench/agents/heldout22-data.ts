/**
 * The world of the `heldout22` testbed agent: the Civil Identity Office's applicants, their passport and
 * identity-card applications, appointments, outstanding fees and passports, the offices and their slots,
 * the published fees and limits, and a fixed TODAY. `seedWorld()` gives each session its own mutable copy.
 */
import type { Facts } from "../../src/boundary/types.ts";

/** The assistant's fixed "today" (a Wednesday), ISO date. */
export const TODAY = "2025-03-12";

/** Application types the office handles. */
export type AppType = "adult_first" | "adult_renewal" | "child" | "id_card";

/** Lifecycle of an application. */
export type AppStatus =
  | "received"
  | "awaiting_appointment"
  | "appointment_booked"
  | "in_processing"
  | "printed"
  | "dispatched"
  | "completed";

/** A signed-up applicant (the account holder who signs in). */
export interface Customer {
  id: string;
  applicantNumber: string;
  name: string;
  dob: string;
  postcode: string;
  securityQuestion: string;
  securityAnswer: string;
  cardLast4: string;
}

/** A postal address. */
export interface Address {
  line: string;
  postcode: string;
}

/** A passport or identity-card application. */
export interface Application {
  reference: string;
  customerId: string;
  applicantName: string;
  type: AppType;
  status: AppStatus;
  received: string;
  estimatedCompletion: string | null;
  delivery: Address;
  fastTrack: boolean;
}

/** An in-person appointment at an office. */
export interface Appointment {
  reference: string;
  customerId: string;
  applicationRef: string;
  office: OfficeId;
  date: string;
  time: string;
  status: "booked" | "attended" | "cancelled";
  rescheduleCount: number;
}

/** A fee raised against an application. */
export interface Fee {
  reference: string;
  customerId: string;
  applicationRef: string;
  description: string;
  amountPence: number;
  status: "outstanding" | "paid";
}

/** A passport already issued to an applicant. */
export interface Passport {
  number: string;
  customerId: string;
  holder: string;
  expiry: string;
  status: "valid" | "reported_lost" | "reported_stolen";
}

/** Office ids. */
export type OfficeId = "leeds" | "manchester" | "bristol" | "london";

/** A public counter. */
export interface Office {
  id: OfficeId;
  name: string;
  address: string;
  saturday: boolean;
}

/** The whole mutable world of one session. */
export interface World {
  customers: Customer[];
  applications: Application[];
  appointments: Appointment[];
  fees: Fee[];
  passports: Passport[];
}

/** Offices in the order the assistant lists them. */
export const OFFICES: readonly Office[] = [
  { id: "leeds", name: "Leeds Civic Identity Centre", address: "3 Park Row, Leeds LS1 5HD", saturday: false },
  {
    id: "manchester",
    name: "Manchester Passport Office",
    address: "71 Oxford Road, Manchester M1 6FQ",
    saturday: false,
  },
  {
    id: "bristol",
    name: "Bristol Identity Services Centre",
    address: "12 Temple Way, Bristol BS2 0BY",
    saturday: false,
  },
  {
    id: "london",
    name: "London Victoria Passport Office",
    address: "40 Buckingham Gate, London SW1E 6BZ",
    saturday: true,
  },
];

/** Published fees, in pence. */
export const PRICES = {
  adult_first: 8850,
  adult_renewal: 8850,
  child: 5750,
  id_card: 4200,
  fastTrackAdult: 9500,
  fastTrackChild: 6500,
} as const;

/** Business rules the assistant enforces. */
export const LIMITS = {
  /** Failed sign-in attempts before the session is locked. */
  maxSignInFailures: 3,
  /** An appointment can be rescheduled at most this many times. */
  maxReschedules: 2,
  /** No change to an appointment less than this many days ahead. */
  changeNoticeDays: 2,
  /** Fast-track only when travelling within this many days. */
  fastTrackWindowDays: 21,
  /** Fast-track target: this many working days. */
  fastTrackWorkingDays: 5,
  /** Largest payment the assistant may take, pence. */
  chatPaymentCapPence: 25000,
  /** First bookable day is this many days after today. */
  bookingLeadDays: 2,
  /** Dates offered per list. */
  datesOffered: 5,
} as const;

/** Weekday appointment times. */
export const WEEKDAY_TIMES = [
  "09:00",
  "09:45",
  "10:30",
  "11:15",
  "13:30",
  "14:15",
  "15:00",
  "15:45",
] as const;
/** Saturday appointment times (London only). */
export const SATURDAY_TIMES = ["09:00", "09:45", "10:30", "11:15"] as const;

const BASE: World = {
  customers: [
    {
      id: "c1",
      applicantNumber: "NP-482913",
      name: "Eleanor Whitcombe",
      dob: "1986-03-14",
      postcode: "LS6 2QT",
      securityQuestion: "What was the name of your first school?",
      securityAnswer: "Hollins Park",
      cardLast4: "4417",
    },
    {
      id: "c2",
      applicantNumber: "NP-517460",
      name: "Marcus Adeyemi",
      dob: "1979-11-02",
      postcode: "M14 5RL",
      securityQuestion: "In which city did your parents meet?",
      securityAnswer: "Bristol",
      cardLast4: "9032",
    },
    {
      id: "c3",
      applicantNumber: "NP-630058",
      name: "Amira Haddad",
      dob: "1992-06-09",
      postcode: "BS3 4HJ",
      securityQuestion: "What was the name of your first pet?",
      securityAnswer: "Biscuit",
      cardLast4: "2268",
    },
  ],
  applications: [
    {
      reference: "PA-2025-018734",
      customerId: "c1",
      applicantName: "Eleanor Whitcombe",
      type: "adult_renewal",
      status: "in_processing",
      received: "2025-02-20",
      estimatedCompletion: "2025-03-26",
      delivery: { line: "14 Ash Grove, Leeds", postcode: "LS6 2QT" },
      fastTrack: false,
    },
    {
      reference: "PC-2025-020155",
      customerId: "c1",
      applicantName: "Oliver Whitcombe",
      type: "child",
      status: "awaiting_appointment",
      received: "2025-03-03",
      estimatedCompletion: null,
      delivery: { line: "14 Ash Grove, Leeds", postcode: "LS6 2QT" },
      fastTrack: false,
    },
    {
      reference: "ID-2025-004410",
      customerId: "c1",
      applicantName: "Eleanor Whitcombe",
      type: "id_card",
      status: "appointment_booked",
      received: "2025-02-27",
      estimatedCompletion: null,
      delivery: { line: "14 Ash Grove, Leeds", postcode: "LS6 2QT" },
      fastTrack: false,
    },
    {
      reference: "PC-2024-093311",
      customerId: "c2",
      applicantName: "Amara Adeyemi",
      type: "child",
      status: "printed",
      received: "2024-12-16",
      estimatedCompletion: "2025-03-14",
      delivery: { line: "88 Platt Lane, Manchester", postcode: "M14 5RL" },
      fastTrack: false,
    },
    {
      reference: "PA-2025-019980",
      customerId: "c2",
      applicantName: "Marcus Adeyemi",
      type: "adult_first",
      status: "appointment_booked",
      received: "2025-02-24",
      estimatedCompletion: null,
      delivery: { line: "88 Platt Lane, Manchester", postcode: "M14 5RL" },
      fastTrack: false,
    },
    {
      reference: "ID-2025-006027",
      customerId: "c2",
      applicantName: "Marcus Adeyemi",
      type: "id_card",
      status: "appointment_booked",
      received: "2025-03-04",
      estimatedCompletion: null,
      delivery: { line: "88 Platt Lane, Manchester", postcode: "M14 5RL" },
      fastTrack: false,
    },
    {
      reference: "ID-2025-007781",
      customerId: "c3",
      applicantName: "Amira Haddad",
      type: "id_card",
      status: "awaiting_appointment",
      received: "2025-03-06",
      estimatedCompletion: null,
      delivery: { line: "27 Greville Road, Bristol", postcode: "BS3 4HJ" },
      fastTrack: false,
    },
    {
      reference: "PA-2025-022406",
      customerId: "c3",
      applicantName: "Amira Haddad",
      type: "adult_renewal",
      status: "appointment_booked",
      received: "2025-03-07",
      estimatedCompletion: null,
      delivery: { line: "27 Greville Road, Bristol", postcode: "BS3 4HJ" },
      fastTrack: false,
    },
  ],
  appointments: [
    {
      reference: "APT-31822",
      customerId: "c1",
      applicationRef: "ID-2025-004410",
      office: "leeds",
      date: "2025-03-18",
      time: "10:30",
      status: "booked",
      rescheduleCount: 0,
    },
    {
      reference: "APT-29904",
      customerId: "c1",
      applicationRef: "PA-2025-018734",
      office: "leeds",
      date: "2025-02-26",
      time: "09:45",
      status: "attended",
      rescheduleCount: 0,
    },
    {
      reference: "APT-40577",
      customerId: "c2",
      applicationRef: "PA-2025-019980",
      office: "manchester",
      date: "2025-03-20",
      time: "13:30",
      status: "booked",
      rescheduleCount: 2,
    },
    {
      reference: "APT-40612",
      customerId: "c2",
      applicationRef: "ID-2025-006027",
      office: "manchester",
      date: "2025-03-13",
      time: "09:45",
      status: "booked",
      rescheduleCount: 0,
    },
    {
      reference: "APT-52240",
      customerId: "c3",
      applicationRef: "PA-2025-022406",
      office: "bristol",
      date: "2025-03-24",
      time: "14:15",
      status: "booked",
      rescheduleCount: 1,
    },
  ],
  fees: [
    {
      reference: "FEE-5521",
      customerId: "c1",
      applicationRef: "PC-2025-020155",
      description: "Child passport application balance",
      amountPence: 5350,
      status: "outstanding",
    },
    {
      reference: "FEE-6030",
      customerId: "c2",
      applicationRef: "PA-2025-019980",
      description: "Replacement passport (lost) with premium handling",
      amountPence: 27500,
      status: "outstanding",
    },
    {
      reference: "FEE-6044",
      customerId: "c2",
      applicationRef: "PC-2024-093311",
      description: "Secure redelivery charge",
      amountPence: 1800,
      status: "outstanding",
    },
    {
      reference: "FEE-7102",
      customerId: "c3",
      applicationRef: "PA-2025-022406",
      description: "Late supporting-document handling fee",
      amountPence: 2500,
      status: "outstanding",
    },
  ],
  passports: [
    {
      number: "533918274",
      customerId: "c1",
      holder: "Eleanor Whitcombe",
      expiry: "2025-05-02",
      status: "valid",
    },
    {
      number: "209114563",
      customerId: "c2",
      holder: "Marcus Adeyemi",
      expiry: "2029-08-19",
      status: "reported_lost",
    },
    { number: "118402276", customerId: "c3", holder: "Amira Haddad", expiry: "2026-01-30", status: "valid" },
  ],
};

/** A fresh, mutable copy of the world for one session. */
export function seedWorld(): World {
  return structuredClone(BASE);
}

/** ISO date plus `days` calendar days. */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Day of week of an ISO date (0 = Sunday). */
export function weekday(iso: string): number {
  return new Date(`${iso}T12:00:00Z`).getUTCDay();
}

/** Whole days from `a` to `b` (ISO dates). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T12:00:00Z`) - Date.parse(`${a}T12:00:00Z`)) / 86_400_000);
}

/** ISO date `n` working days (Mon–Fri) after `iso`. */
export function addWorkingDays(iso: string, n: number): string {
  let d = iso;
  let left = n;
  while (left > 0) {
    d = addDays(d, 1);
    const w = weekday(d);
    if (w !== 0 && w !== 6) left--;
  }
  return d;
}

/** The office with this id. */
export function officeById(id: OfficeId): Office {
  return OFFICES.find((o) => o.id === id) ?? (OFFICES[0] as Office);
}

/** The dates an office offers (the next opening days after the booking lead time), skipping `exclude`. */
export function datesFor(office: OfficeId, exclude?: string): string[] {
  const out: string[] = [];
  const o = officeById(office);
  let d = addDays(TODAY, LIMITS.bookingLeadDays);
  while (out.length < LIMITS.datesOffered) {
    const w = weekday(d);
    const open = w >= 1 && w <= 5 ? true : w === 6 && o.saturday;
    if (open && d !== exclude) out.push(d);
    d = addDays(d, 1);
  }
  return out;
}

/** The slots of an office on a date, each with whether it is fully booked. */
export function slotsFor(office: OfficeId, date: string): { time: string; full: boolean }[] {
  const times: readonly string[] = weekday(date) === 6 ? SATURDAY_TIMES : WEEKDAY_TIMES;
  const oi = OFFICES.findIndex((o) => o.id === office);
  const day = Number(date.slice(8, 10));
  return times.map((time, i) => ({ time, full: (day + i + oi) % 4 === 0 }));
}

/** What a tester knows before it starts: three applicants and some plain requests. */
export const FACTS: Facts = {
  personas: [
    {
      full_name: ["Eleanor Whitcombe"],
      applicant_number: ["NP-482913"],
      date_of_birth: ["14/03/1986"],
      postcode: ["LS6 2QT"],
      security_answer: ["Hollins Park"],
      application_reference: ["PA-2025-018734", "PC-2025-020155", "ID-2025-004410"],
      appointment_reference: ["APT-31822", "APT-29904"],
      passport_number: ["533918274"],
      travel_date: ["28/03/2025"],
      date_lost: ["08/03/2025"],
      fee_reference: ["FEE-5521"],
      new_address: ["22 Kirkstall Lane, Leeds"],
      new_postcode: ["LS5 3BE"],
    },
    {
      full_name: ["Marcus Adeyemi"],
      applicant_number: ["NP-517460"],
      date_of_birth: ["02/11/1979"],
      postcode: ["M14 5RL"],
      security_answer: ["Bristol"],
      application_reference: ["PA-2025-019980", "PC-2024-093311", "ID-2025-006027"],
      appointment_reference: ["APT-40577", "APT-40612"],
      passport_number: ["209114563"],
      travel_date: ["30/05/2025"],
      fee_reference: ["FEE-6044", "FEE-6030"],
      new_address: ["5 Wilmslow Road, Manchester"],
      new_postcode: ["M14 6XQ"],
    },
    {
      full_name: ["Amira Haddad"],
      applicant_number: ["NP-630058"],
      date_of_birth: ["09/06/1992"],
      postcode: ["BS3 4HJ"],
      security_answer: ["Biscuit"],
      application_reference: ["ID-2025-007781", "PA-2025-022406"],
      appointment_reference: ["APT-52240"],
      passport_number: ["118402276"],
      crime_reference_number: ["BS-2025-04417"],
      date_lost: ["09/03/2025"],
      travel_date: ["04/04/2025"],
      fee_reference: ["FEE-7102"],
      new_address: ["Flat 3, 41 North Street, Bristol"],
      new_postcode: ["BS3 1EN"],
    },
  ],
  requests: [
    "I'd like to check the status of my passport application",
    "I need to book an appointment for my identity card",
    "Can I move my appointment to a different day?",
    "I want to cancel my appointment",
    "I'm travelling soon, can my application be fast-tracked?",
    "My passport has been stolen",
    "I'd like to pay an outstanding fee",
    "I've moved house and need to change the address on my application",
  ],
};
