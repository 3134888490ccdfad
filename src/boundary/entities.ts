import type { Facts } from "./types.ts";

/**
 * Masked text for event abstraction (AgentEval §IV-A; reference conversational-and-airline.md §4): entity
 * masking (domain-neutral regexes replace values by `<type>` so that replies differing only in their values
 * read the same; facts, when given, type their values by slot name), and the Drain template miner over the
 * masked replies, to show people the wordings behind an activity. Labels never depend on the miner.
 */

/** One masked value: its type (an entity type below, or a facts slot such as `user_id`) and the text. */
export interface Entity {
  type: string;
  value: string;
}

/** A text with its values replaced by `<type>` placeholders, and those values in text order. */
export interface Masked {
  masked: string;
  entities: Entity[];
}

/** Month names and their abbreviations, as one regex alternation (no group). */
export const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const AMOUNT = String.raw`\d+(?:,\d{3})*(?:\.\d+)?`;

/**
 * Entity types and their patterns, in the order they claim text (an earlier type wins an overlap).
 * `status` words are workflow states a service reports about a thing (a flight, an order, a ticket).
 */
/** A record's status word ("shipped", "on time", "cancelled"). */
export const STATUS_WORD =
  /\b(?:on time|delayed|cancell?ed|landed|flying|available|scheduled|boarding|departed|arrived|diverted|confirmed|pending|shipped|delivered|processing|paused|active|expired|suspended|frozen|overdue|refunded|approved|rejected|declined|on hold)\b/gi;

const PATTERNS: readonly [string, RegExp][] = [
  ["email", /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g],
  ["date", /\b\d{4}-\d{2}-\d{2}\b/g],
  // Numeric with the year ("24/01/2025", "01/24/2025"): read day first unless the first number cannot be a month.
  ["date", /\b\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2})\b/g],
  ["date", new RegExp(String.raw`\b(?:${MONTHS})\.? \d{1,2}(?:st|nd|rd|th)?\b`, "gi")],
  // Day first, as most of the world writes it ("3 June 2025", "14th of March").
  ["date", new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?(?: of)? (?:${MONTHS})\b\.?(?: \d{4}\b)?`, "gi")],
  ["time", /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m\b)?|\b\d{1,2}\s?[ap]m\b/gi],
  ["money", new RegExp(String.raw`[$€£]\s?${AMOUNT}|\b(?:USD|EUR|GBP)\s?${AMOUNT}`, "g")],
  ["money", new RegExp(String.raw`\b${AMOUNT}\s?(?:USD|EUR|GBP|dollars?|euros?|pounds?)\b`, "gi")],
  ["payment_id", /\b(?:[a-z]+_)*(?:card|certificate|paypal|voucher|wallet|account)_\d+\b/gi],
  ["user_handle", /\b[a-z]+_[a-z]+_\d{3,}\b/gi],
  ["flight_number", /\b[A-Z]{2,3}\d{2,4}\b/g],
  ["booking_code", /\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,8}\b/g],
  ["status", STATUS_WORD],
  ["airport", /\b[A-Z]{3}\b/g],
  ["number", /\b\d+(?:\.\d+)?\b/g],
];

/** Three-letter capitals that are words or currencies, not places. */
const NOT_AIRPORT = new Set(["USD", "EUR", "GBP", "THE", "AND", "YOU", "ARE", "FOR", "NOT", "ALL", "OK"]);

/** `facts` as value (lower case) → slot name, longest values first so `HAT1A1` beats `HAT1`. */
function factSlots(facts: Facts | undefined): [string, string][] {
  const slots = new Map<string, string>();
  for (const persona of facts?.personas ?? [])
    for (const [slot, values] of Object.entries(persona))
      for (const value of values) if (!slots.has(value.toLowerCase())) slots.set(value.toLowerCase(), slot);
  return [...slots].sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1));
}

/** A code right after "from", "to", "via" or "between … and", or joined to another code by to, →, - or /. */
const ROUTE_WORD = /\b(?:from|to|via|between|between [A-Z]{3} and)\s+$/i;
const ROUTE_BEFORE = /\b[A-Z]{3}\s*(?:→|->|-|\/|\bto)\s*$/;
const ROUTE_AFTER = /^\s*(?:→|->|-|\/|to\b)\s*[A-Z]{3}\b/;

/**
 * Whether three capitals at `start`–`end` sit in route context ("from SFO", "to JFK", "SFO→JFK", "SFO-JFK",
 * "between SFO and JFK"): a plain acronym ("your PIN", "any ATM", "PIN and CVV") is not an airport.
 */
function onRoute(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 16), start);
  return ROUTE_WORD.test(before) || ROUTE_BEFORE.test(before) || ROUTE_AFTER.test(text.slice(end));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Mostly capitals (a shouted reply): three-letter words there are words, not airport codes. */
function shouted(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, "");
  return letters.length > 12 && letters.replace(/[^A-Z]/g, "").length / letters.length > 0.6;
}

/**
 * Mask the values of a text (AgentEval §IV-A, pre-processing step of Drain, He et al. 2017).
 *
 * Types: `email`, `date` (ISO or "May 18"), `time`, `money` ($12, 12 USD), `payment_id` (credit_card_123),
 * `user_handle` (word_word_1234), `flight_number` ([A-Z]{2,3}\d{2,4}), `booking_code` (5–8 capitals and
 * digits with a digit), `status` (on time, delayed, cancelled…), `airport` (three capitals on a route: after
 * from/to/via/between or joined to another code by to, →, - or /; not PIN, ATM), `number`. A
 * value listed in `facts` is typed by its slot instead (`user_id`, `reservation_id`…), matched whole-word and
 * case-insensitively, and claimed before any pattern. Pure; never throws.
 *
 * @returns the text with each value replaced by `<type>`, and the values in text order.
 */
export function maskEntities(text: string, facts?: Facts): Masked {
  const claimed: { start: number; end: number; type: string }[] = [];
  const free = (start: number, end: number) => claimed.every((c) => end <= c.start || start >= c.end);
  const claim = (
    pattern: RegExp,
    type: string,
    accept: (value: string, start: number, end: number) => boolean = () => true,
  ) => {
    for (const m of text.matchAll(pattern)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (m[0].length > 0 && free(start, end) && accept(m[0], start, end)) claimed.push({ start, end, type });
    }
  };
  // A small number a persona holds (a tip of 1, 2 months) is that value only standing alone: not the day of a
  // date ("1 August"), a part of an amount or a time.
  const MONTH = `(?:${MONTHS})`;
  for (const [value, slot] of factSlots(facts))
    claim(
      /^\d{1,3}$/.test(value)
        ? new RegExp(
            `(?<![\\w£$€.,:/]|\\b${MONTH}\\s)${value}(?![\\w.,:/%]|\\s*(?:st|nd|rd|th)?\\s+${MONTH}\\b)`,
            "gi",
          )
        : new RegExp(`(?<![\\w])${escapeRegExp(value)}(?![\\w])`, "gi"),
      slot,
    );
  const loud = shouted(text);
  /** Three capitals are a place only on a route (see {@link onRoute}), and not before a name ("HAT Airlines"). */
  const place = (v: string, start: number, end: number) =>
    !loud && !NOT_AIRPORT.has(v) && !/^ [A-Z][a-z]/.test(text.slice(end)) && onRoute(text, start, end);
  for (const [type, pattern] of PATTERNS) claim(pattern, type, type === "airport" ? place : undefined);
  claimed.sort((a, b) => a.start - b.start);
  let masked = "";
  let at = 0;
  for (const c of claimed) {
    masked += `${text.slice(at, c.start)}<${c.type}>`;
    at = c.end;
  }
  masked += text.slice(at);
  return { masked, entities: claimed.map((c) => ({ type: c.type, value: text.slice(c.start, c.end) })) };
}

/* ---- Templates (Drain, He, Zhu, Zheng, Lyu, ICWS 2017) ---- */

/** A mined template: masked tokens with `<*>` where its members differ, and the indexes of its members. */
export interface MinedTemplate {
  template: string;
  count: number;
  /** Indexes into the mined replies, ascending. */
  members: number[];
}

/**
 * Mine the templates behind a set of replies with Drain (reference conversational-and-airline.md §4.1):
 * mask entities, then group by token count and the first `depth − 2` tokens (tokens with digits count as
 * `<*>`), join the most similar group of the leaf when simSeq (equal tokens / length) ≥ `similarity` (ties →
 * the group with more `<*>`), else open a group; differing positions become `<*>`. Deterministic: groups are
 * returned in the order they were opened. For display only (e.g. templates per activity: mine the replies
 * labelled with it); no maxChild overflow, since the sets mined are small.
 *
 * @param options.depth parse-tree depth (default 4); `options.similarity` join threshold in [0, 1] (0.5).
 */
export function mineTemplates(
  replies: readonly string[],
  options: { depth?: number; similarity?: number } = {},
): MinedTemplate[] {
  const prefix = Math.max(0, (options.depth ?? 4) - 2);
  const threshold = options.similarity ?? 0.5;
  const groups: { tokens: string[]; members: number[] }[] = [];
  const leaves = new Map<string, number[]>();
  replies.forEach((reply, index) => {
    const tokens = maskEntities(reply)
      .masked.split(/\s+/)
      .filter((t) => t.length > 0);
    const path = [tokens.length, ...tokens.slice(0, prefix).map((t) => (/\d/.test(t) ? "<*>" : t))];
    const key = JSON.stringify(path);
    const leaf = leaves.get(key) ?? [];
    let best: { group: number; sim: number; wild: number } | undefined;
    for (const g of leaf) {
      const template = (groups[g] as { tokens: string[] }).tokens;
      const sim = tokens.length === 0 ? 1 : template.filter((t, i) => t === tokens[i]).length / tokens.length;
      const wild = template.filter((t) => t === "<*>").length;
      if (!best || sim > best.sim || (sim === best.sim && wild > best.wild)) best = { group: g, sim, wild };
    }
    if (best && best.sim >= threshold) {
      const group = groups[best.group] as { tokens: string[]; members: number[] };
      group.tokens = group.tokens.map((t, i) => (t === tokens[i] ? t : "<*>"));
      group.members.push(index);
    } else {
      groups.push({ tokens, members: [index] });
      leaves.set(key, [...leaf, groups.length - 1]);
    }
  });
  return groups.map((g) => ({ template: g.tokens.join(" "), count: g.members.length, members: g.members }));
}
