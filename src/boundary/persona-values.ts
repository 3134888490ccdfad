import type { Persona } from "./answer.ts";
import { escapeRegExp } from "./slots.ts";

/**
 * How the driver and the runner say a persona's values (answer.ts, driver.ts): the value a persona holds for a
 * slot, the words a user turn gives it ("My user id is …", "20 years", "4 people"), and which listed option is the
 * persona's own.
 */

/** The persona's value for a slot, `pick` choosing among several; undefined when it has none. */
export function personaValue(persona: Persona, slot: string, pick = 0): string | undefined {
  const v = persona[slot];
  if (v === undefined) return undefined;
  if (typeof v === "string") return v;
  return v.length ? v[pick % v.length] : undefined;
}

/** A slot value as a user turn: ids as "My user id is …", a bare count of a slot named by its unit with the unit ("20 years" for `licence_years`), other values as they are. */
export function sayValue(slot: string, value: string): string {
  return slot.endsWith("_id") ? `My ${slot.replace(/_/g, " ")} is ${value}.` : withUnit(slot, value);
}

const UNIT =
  /(?:^|_)(years|months|weeks|days|nights|hours|minutes|people|guests|adults|children|tickets|seats|copies|bags|passengers|rooms)$/;
/**
 * "20" for `additional_driver_licence_years` → "20 years" ("1 year"), "4" for `people` → "4 people" (a bare number
 * among several values says which it is); other values as they are.
 */
export function withUnit(slot: string, value: string): string {
  const unit = UNIT.exec(slot)?.[1];
  if (!unit || !/^\d+$/.test(value)) return value;
  if (value !== "1") return `${value} ${unit}`;
  return `1 ${oneOf(unit)}`;
}

/** A unit said of one ("people" → "person", "official copies" → "official copy", "nights" → "night"). */
export function oneOf(unit: string): string {
  if (/\bpeople$/.test(unit)) return unit.replace(/people$/, "person");
  if (/\bchildren$/.test(unit)) return unit.replace(/children$/, "child");
  return unit.replace(/ies$/, "y").replace(/(?<!s)s$/, "");
}

/** A value's words that tell options apart: lower case, months cut to three letters, small words dropped. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .map((w) => (/^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$/.test(w) ? w.slice(0, 3) : w))
    .filter((w) => !/^(?:a|an|the|on|at|in|of|for|to|my|your|and|or|with|from|by|is|it)$/.test(w));
}

/**
 * The option that is the persona's own (its plan, its time slot, its appointment): one holding a value of the
 * persona, or held by one (case-insensitive, as whole words), the persona's `pick`-th value of a slot first so
 * variants choose differently; a value every option holds (the customer's address on each) tells none apart.
 * Else the option sharing most of a value's words ("extractor fan visit on 18 March" → "Tue 18 Mar, 12pm–4pm —
 * bathroom extractor fan not working", its line in `visible`): two words at least and two thirds of the value's.
 * Undefined when none.
 */
export function ownOption(
  options: readonly string[],
  persona: Persona,
  pick: number,
  visible: readonly string[] = [],
): string | undefined {
  const values = Object.keys(persona)
    .map((slot) => personaValue(persona, slot, pick)?.toLowerCase())
    .filter((v): v is string => v !== undefined && v.length >= 2);
  const re = (x: string) => new RegExp(`(?:^|\\W)${escapeRegExp(x)}(?:\\W|$)`);
  const lower = options.map((o) => o.toLowerCase());
  const telling = values.filter((v) => options.length < 2 || !lower.every((o) => re(v).test(o)));
  const exact = options.find((_, i) =>
    telling.some((v) => re(v).test(lower[i] ?? "") || re(lower[i] ?? "").test(v)),
  );
  if (exact !== undefined || options.length < 2) return exact;
  // An option's whole line, where the reply cut its name short ("2. Tue 18 Mar, 12pm–4pm — bathroom extractor fan …").
  const words = options.map((o) => new Set(contentWords(visible.find((l) => l.includes(o)) ?? o)));
  const common = new Set([...(words[0] ?? [])].filter((w) => words.every((ws) => ws.has(w))));
  let best: [string | undefined, number] = [undefined, 0];
  for (const v of values) {
    const mine = [...new Set(contentWords(v))].filter((w) => !common.has(w));
    if (mine.length < 2) continue;
    options.forEach((o, i) => {
      const shared = mine.filter((w) => words[i]?.has(w)).length;
      const share = shared / mine.length;
      if (shared >= 2 && share >= 2 / 3 && share > best[1]) best = [o, share];
    });
  }
  return best[0];
}
