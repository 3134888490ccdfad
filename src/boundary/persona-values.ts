import type { Persona } from "./answer.ts";

/**
 * How the driver and the runner say a persona's values (answer.ts, driver.ts): the value a persona holds for a
 * slot, and the words a user turn gives it ("My user id is …", "20 years", "4 people").
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
