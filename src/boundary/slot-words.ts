/**
 * The vocabulary of slot naming (slots.ts): the words a sentence may use for a slot name's words, whole-slot
 * phrases, and the words a sentence need not say. Data only.
 */

/**
 * Words (or phrases) a sentence may use for a slot-name word. Keys and values are singular and lower case;
 * a phrase matches consecutive words.
 */
export const SLOT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  id: ["code", "number", "reference", "identifier"],
  reservation: ["booking"],
  booking: ["reservation", "confirmation"],
  reference: ["code", "number", "ref"],
  number: ["reference", "ref", "code", "id"],
  user: ["customer", "account"],
  reason: ["why"],
  route: ["origin", "destination", "where"],
  destination: ["heading", "country", "travelling", "traveling", "going to", "visiting"],
  bag: ["baggage", "luggage", "suitcase"],
  date: ["when", "day"],
  amount: ["how much", "sum", "cost", "price", "estimate", "total"],
  sum: ["how much", "amount"],
  surname: ["last name", "family name"],
  // "What's your dog called?"
  name: ["called", "named"],
  postcode: ["postal code", "post code", "zip", "zip code"],
  zip: ["postcode", "postal code", "post code"],
  phone: ["telephone", "mobile", "contact number"],
  email: ["e mail", "email address"],
  birth: ["born", "birthday"],
  guest: ["people", "person", "adult", "traveller", "traveler"],
  quantity: ["how many", "how much", "amount", "supply"],
  medication: ["medicine", "prescription", "drug"],
  arrival: ["check in", "arriving"],
  sms: ["text", "texted", "text message", "mobile", "phone"],
  otp: ["one-time", "one time", "texted", "text"],
  text: ["texted", "sms", "text message"],
  verification: ["security", "one-time", "one time", "verify"],
  collection: ["collect", "collected", "taken", "take"],
  payment: ["pay", "paid", "debit", "direct debit"],
  monthly: ["month", "each month", "per month", "a month"],
  departure: ["check out", "leaving"],
  last4: ["last four", "last 4", "final four", "final 4"],
  // "address_line1" ↔ "the first line of the address".
  line1: ["first line", "line 1", "line one"],
  line2: ["second line", "line 2", "line two"],
  start: ["begin"],
  item: ["product", "goods"],
  product: ["item"],
  // "Which book should I put a hold on?" asks for the `title`.
  title: ["book", "film", "movie", "album", "novel"],
  additional: ["extra", "second", "other", "named"],
  // "How long should the freeze be?" asks for `freeze_weeks`; "How long will you stay?" for `nights`.
  week: ["how long"],
  day: ["how long", "date"],
  night: ["how long"],
  month: ["how long"],
  duration: ["how long"],
  end: ["finish", "until"],
  description: [
    "describe",
    "what happened",
    "what went wrong",
    "what s wrong",
    "what is wrong",
    "the problem",
    // "In a few words, what was it for?"
    "in a few words",
    "what was it for",
    "what it was for",
    "briefly",
  ],
};

/**
 * Whole-slot names (slot words joined by spaces, singular) and other ways to say them that share no word with
 * them ("date of birth" ↔ "DOB", "When were you born?").
 */
export const SLOT_PHRASES: Readonly<Record<string, readonly string[]>> = {
  "date of birth": ["dob", "born", "birthday", "birth date"],
  "birth date": ["dob", "born", "birthday", "date of birth"],
  dob: ["date of birth", "born", "birthday"],
  surname: ["last name", "family name"],
  "last name": ["surname", "family name"],
  "first name": ["given name", "forename"],
};
/** Slot-name words a sentence need not say ("full_name" ↔ "your name?", "date_of_birth" ↔ "date … birth"). */
export const OPTIONAL = new Set(["full", "your", "current", "of", "the", "a", "for", "to"]);
