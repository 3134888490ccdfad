/**
 * Which persona slot a question asks for when its words name none plainly (answer.ts reads the question): the
 * slots the parts of one sentence name ("the postcode and last name"), the slot of the options it lists, the
 * object of the request's verb in an open question. Pure functions of the text, the slot names and the values.
 */
import {
  changed,
  mentionsWhole,
  qualifiedIn,
  type SlotValues,
  slotNamedIn,
  slotOfValue,
  valueList,
} from "./slots.ts";

/** "What would you like to add …?", "What do you want to return?": the verb an open question asks the object of. */
const OPEN_WHAT = /\bwhat (?:would|do|did|will) you (?:like|want|wish|need) to ([a-z]+)\b/i;

/**
 * The slot an open question naming none asks for ("What would you like to add to FF-10233?"): the one `context`
 * (the request) names — by a slot's name or one of its values — between the question's verb and the next
 * preposition ("add an item to my order" → `item`), or undefined.
 */
export function objectAsked(
  asking: readonly string[],
  context: string | undefined,
  slots: readonly string[],
  values: SlotValues | undefined,
): string | undefined {
  if (!context) return undefined;
  for (const sentence of asking) {
    const verb = OPEN_WHAT.exec(sentence)?.[1];
    const after = verb && new RegExp(String.raw`\b${verb}\s+(.+)`, "i").exec(context)?.[1];
    const object = after?.split(/\s+(?:to|from|on|onto|in|into|for|with|at|of|by)\s+|[,.?!]/i)[0];
    if (!object) continue;
    const slot = slotNamedIn(object, slots, undefined, false) ?? slotOfValue(object, values);
    if (slot && slots.includes(slot)) return slot;
  }
  return undefined;
}

/**
 * The slots the parts of one asking sentence name, in order, when it names two or more: "What's the postcode
 * and last name on the policy?"; "What's your forwarding address — first line and postcode?" (both of the new
 * address, as the sentence says); "Tell me the extra driver's full name, date of birth and years licensed" (the
 * qualifier one part names carries to the parts after it, unless they say "your").
 */
export function slotsOfParts(sentence: string, reply: string, slots: readonly string[]): string[] {
  const parts = sentence.split(/,?\s+\(?(?:and|plus)\s+|\s*&\s*|,\s+/i);
  if (parts.length < 2) return [];
  let shared: string | undefined;
  const named = parts.map((part) => {
    const own = slotNamedIn(part, slots);
    const yours = /\byours?\b/i.test(part);
    const whose = shared && !own?.startsWith(`${shared}_`) && !yours ? shared : undefined;
    const carried = whose
      ? slotNamedIn(
          `${part} ${whose.replaceAll("_", " ")}`,
          slots.filter((s) => s.startsWith(`${whose}_`)),
        )
      : undefined;
    const slot = carried ?? own;
    if (slot) shared = sharedQualifier(slot, slots) ?? shared;
    if (slot === undefined || yours) return slot;
    return changed(sentence, slot, slots) ?? qualifiedIn(reply, slot, slots) ?? slot;
  });
  return named.filter((x, i, xs): x is string => x !== undefined && xs.indexOf(x) === i);
}

/** The longest leading words of `slot` (not all but its head) that begin two slots or more (`additional_driver`). */
function sharedQualifier(slot: string, slots: readonly string[]): string | undefined {
  const words = slot.split("_");
  for (let k = words.length - 2; k >= 1; k--) {
    const lead = words.slice(0, k).join("_");
    if (slots.filter((s) => s.startsWith(`${lead}_`)).length >= 2) return lead;
  }
  return undefined;
}

/** A day of a date or an hour of a time ("Thu 20 Mar", "March 3rd", "8am–12pm", "14:30"), where a small number is no value. */
const DATE_OR_TIME =
  /\b\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}[:.]\d{2}\b/gi;

/**
 * The slot with the most known values among `options` (one at least), or undefined. A number of one or two digits
 * counts only outside dates and times (a `weekly_instalment` of 20 is not "Thu 20 Mar").
 */
export function optionsSlot(options: readonly string[], values: SlotValues): string | undefined {
  const bare = options.map((o) => o.replace(DATE_OR_TIME, " "));
  let best: string | undefined;
  let most = 0;
  for (const [slot, vs] of Object.entries(values)) {
    const n = valueList(vs).filter(
      (v) => v.length >= 2 && (/^\d{1,2}$/.test(v) ? bare : options).some((o) => mentionsWhole(o, v)),
    ).length;
    if (n > most) [best, most] = [slot, n];
  }
  return best;
}
