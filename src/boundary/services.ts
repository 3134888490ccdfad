/**
 * The services an agent offers in its own words ("I can help you file a new home or car claim, check or withdraw
 * an existing claim …"), split into one request each for the discovery planner and driver (AgentEval §III-A:
 * the capability round). Pure; no knowledge of the domain beyond a list of common service verbs.
 */

/**
 * Verbs that open a service in an agent's list of what it can do ("file a claim", "track a parcel"); a list
 * item that opens with none continues the item before it ("file a new home or car claim").
 */
const SERVICE_VERB = new RegExp(
  `^(?:${[
    "add|amend|answer|apply|arrange|ask|book|browse|buy|calculate|cancel|change|check|choose|close|compare|confirm|connect|create|delete",
    "dispute|download|downgrade|edit|enrol|enroll|explain|extend|file|find|fix|freeze|get|give|help|hire|lodge|look",
    "make|manage|modify|move|open|order|pause|pay|place|put|read|rebook|recommend|redeem|refill|refund|register|remove|renew",
    "rent|repair|replace|report|request|reschedule|reserve|reset|resume|return|review|schedule|see|sell|send|set",
    "share|show|sign|start|stop|submit|suspend|swap|switch|take|talk|tell|top|track|transfer|unblock|unlock|update",
    "upgrade|verify|view|withdraw|block|activate|deactivate|exchange|collect|deliver|redirect|raise|reactivate|search",
    "estimate|locate|log|pick|plan|print|quote|redeem|sort|split|trace|use|waive|join|leave|postpone|prepare",
    "handle|process|organise|organize|provide|discuss|settle|clear",
  ].join("|")})\\b`,
  "i",
);
/** Text ending in a relative word or an indefinite pronoun: the "I can" after it is not the agent's offer. */
const RELATIVE = /\b(?:that|which|who|whom|what|anything|something|nothing|everything|all|else)\s*$/i;
const DETERMINER = /^(?:a|an|the|my|your|its|their|our|any|new|existing)$/i;

/**
 * Rebuild coordinated items a plain split broke ("file a new home or car claim, check or withdraw an existing
 * claim, and answer questions about deductibles, claim times and office hours"): an item without a verb takes
 * the verb (and preposition) of the one before ("car claim" → "file a car claim", "claim times" → "answer
 * questions about claim times") and lends that item its head noun when it has none ("file a new home" → "file a
 * new home claim"); a bare verb takes the object of the item after ("check" → "check an existing claim").
 */
function coordinated(parts: readonly { item: string; bare: boolean }[]): string[] {
  const out = parts.map((p) => p.item);
  const verb = (item: string) => {
    const [w = "", next = ""] = item.split(/\s+/);
    // "changing your address": a gerund of a listed verb before its object's determiner ("opening hours" is a noun).
    return (
      SERVICE_VERB.test(item) ||
      (/ing$/i.test(w) && SERVICE_VERB.test(w.replace(/ing$/i, "")) && DETERMINER.test(next))
    );
  };
  for (let i = 0; i < out.length; i++) {
    const item = out[i] as string;
    const words = item.split(/\s+/);
    if (verb(item) && words.length === 1) {
      const next = out[i + 1];
      // Only when joined by a bare "or"/"and": "cancel, update their address" are two services.
      if (next && verb(next) && parts[i + 1]?.bare)
        out[i] = `${item} ${next.split(/\s+/).slice(1).join(" ")}`;
      continue;
    }
    if (verb(item) || i === 0 || !verb(out[i - 1] as string)) continue;
    const before = out[i - 1] as string;
    const head = before.split(/\s+/);
    // "redirect it to another address or a parcel locker": a noun phrase with its own determiner after "to".
    const prepositions = DETERMINER.test(words[0] ?? "")
      ? /^(?:about|on|regarding|for|to|with)$/i
      : /^(?:about|on|regarding|for)$/i;
    const prep = head.findLastIndex((w, k) => k > 0 && prepositions.test(w));
    // Only "X or Y claim" (joined by a bare or/and) or a list after a preposition ("questions about A, B").
    if (prep < 0 && !parts[i]?.bare) continue;
    const lead = prep > 0 ? head.slice(0, prep + 1) : head.slice(0, DETERMINER.test(head[1] ?? "") ? 2 : 1);
    out[i] = `${lead.join(" ")} ${item}`;
    // "file a new home" + "car claim": the earlier item lacked the head noun the later one ends in; so did
    // "open a claim for a damaged" + "lost parcel" (a determiner and one word after the preposition).
    const noun = words.at(-1) as string;
    const bareModifier = prep > 0 && head.length === prep + 3 && DETERMINER.test(head[prep + 1] ?? "");
    // Not "add breakfast" + "an extra bed": an item with its own determiner is a whole noun phrase.
    if (
      (prep < 0 || bareModifier) &&
      words.length >= 2 &&
      // Not "share the timetable" + "membership prices with anyone": a trailing phrase is no head noun.
      !words.slice(0, -1).some((w) => /^(?:with|for|to|on|in|at|from|by)$/i.test(w)) &&
      head.length >= 2 &&
      !head.includes(noun) &&
      !DETERMINER.test(words[0] ?? "")
    )
      out[i - 1] = `${before} ${noun}`;
  }
  return out;
}

/**
 * The services a reply offers ("I can help you cancel a reservation, change its cabin … or search for
 * flights" → `["cancel a reservation", "change its cabin", …, "search for flights"]`), in order, coordinated
 * items rebuilt ({@link coordinated}); empty when the reply lists fewer than two.
 */
export function offeredCapabilities(reply: string): string[] {
  const menu = menuServices(reply).filter((p) => p.split(/\s+/).length >= 2 && p.split(/\s+/).length <= 8);
  // "1. Track an order … 8. Payment methods. Just reply with a number, or ask about delivery fees, areas or
  // allergens.": the topics to ask about after the menu are services too.
  const asked = [...reply.matchAll(ASK_ABOUT)].flatMap((m) =>
    clauseItems(`ask me about ${reply.slice(m.index + m[0].length)}`),
  );
  if (menu.length >= 2) return [...new Set([...menu, ...asked])];
  const bullets = bulletServices(reply);
  if (bullets.length >= 2) return bullets;
  const labelled = labelledServices(reply);
  if (labelled.length >= 2) return labelled;
  // The first offer of a main clause: "no claim that I can access on your account" offers nothing. "I can see
  // CL-40112 and CL-40187": what the agent sees, not what it offers. "I can only move a delivery to …": a
  // restriction, not an offer. Further offers in the same sentence count too ("I handle bookings, freezes and
  // guest passes, and I can share the timetable with anyone").
  const offers = [...reply.matchAll(OFFER)].filter((m) => !RELATIVE.test(reply.slice(0, m.index)));
  const first = offers[0];
  if (!first) return [];
  const end = first.index + (/[.?!](?:\s|$)/.exec(reply.slice(first.index))?.index ?? reply.length);
  // A later sentence offering what customers can also do ("Signed-in customers can also …") adds its own.
  const items = offers
    .filter((m) => m.index <= end || /\balso\b/i.test(m[0]))
    .flatMap((m) => clauseItems(reply.slice(m.index)));
  // An item with an unclosed bracket was cut from a record's details ("CL-40187 (collision damage"), not a service.
  if (items.some((p) => (p.match(/\(/g) ?? []).length !== (p.match(/\)/g) ?? []).length)) return [];
  const parts = [...new Set(items)].filter((p) => p.split(/\s+/).length >= 2 && p.split(/\s+/).length <= 8);
  return parts.length >= 2 ? parts : [];
}

/**
 * Lists of services under labels after "what I can do" ("Here's what I can do. Anyone: prices, parking zones.
 * Signed in: your rides, disputing a ride charge …"), each item said as a customer would. Empty without the intro.
 */
function labelledServices(reply: string): string[] {
  if (!/\bwhat I can (?:do|help (?:you )?with)\b/i.test(reply)) return [];
  const items = [...reply.matchAll(/(?:^|[.!?]\s+)[A-Z][A-Za-z' -]{1,25}:\s+([^.?!]+)/g)].flatMap((m) =>
    clauseItems(`I can help with ${m[1]}`),
  );
  return [...new Set(items)].filter((p) => p.split(/\s+/).length <= 8);
}

/**
 * A bulleted list of services with no menu intro ("Tenants who sign in can:\n- report a repair\n- check or cancel
 * a repair appointment\n- rent balance & statement …"): most items open with a service verb; each said as a
 * customer would, a bracketed aside dropped or read as kinds of the service ({@link asideKinds}).
 * Empty when fewer than two items or fewer than half open with a verb (a list of records, not services).
 */
function bulletServices(reply: string): string[] {
  const items = bulletItems(reply)
    .flatMap(asideKinds)
    .flatMap(sharedModifier)
    .filter((i) => i && !/\d/.test(i) && i.split(/\s+/).length <= 8);
  const verbs = items.filter((i) => serviceVerb(i));
  if (items.length < 2 || verbs.length * 2 < items.length) return [];
  return [...new Set(items.map((i) => sayService(i, (n) => n.replace(/\s*&\s*/g, " and "))))].filter(
    (p) => p.split(/\s+/).length >= 2,
  );
}

/**
 * A listed service with its bracketed aside dropped, or, when the aside lists kinds of it, one service per kind
 * ("ask permission (pet, lodger, alteration)" → "ask permission for pet", "ask permission for lodger", …).
 */
function asideKinds(item: string): string[] {
  const aside = /\s*\(([^()]*)\)/.exec(item);
  const bare = item.replace(/\s*\([^()]*\)/g, "");
  const kinds = aside?.[1]?.split(/\s*(?:,|\/|\bor\b|\band\b)\s*/).filter(Boolean) ?? [];
  if (kinds.length < 2 || kinds.some((k) => /\d/.test(k) || k.split(/\s+/).length > 3)) return [bare];
  return kinds.map((k) => `${bare} for ${k}`);
}

/**
 * A listed item coordinating two heads or two verbs as the two services it names ("rent balance & statement" →
 * "rent balance", "rent statement"; "check or cancel a repair appointment" → "check a repair appointment", "cancel
 * a repair appointment"); any other item as it is.
 */
function sharedModifier(item: string): string[] {
  // "check or cancel a repair appointment": two verbs of one object.
  const verbs = /^([a-z]+) (?:or|and|&) ([a-z]+) (.+)$/i.exec(item);
  if (verbs && serviceVerb(verbs[1] ?? "") && serviceVerb(verbs[2] ?? ""))
    return [`${verbs[1]} ${verbs[3]}`, `${verbs[2]} ${verbs[3]}`];
  const m = /^([a-z][\w-]*(?: [\w-]+)*) ([\w-]+) (?:&|and) ([a-z][\w-]*)$/i.exec(item);
  if (!m) return [item];
  return [`${m[1]} ${m[2]}`, `${m[1]} ${m[3]}`];
}

/** The items of a bulleted list ("• track an order"), each `clean`ed (default: as written), trimmed, end punctuation dropped. */
function bulletItems(text: string, clean: (item: string) => string = (i) => i): string[] {
  return [...text.matchAll(/(?:^|\n)\s*[•·*\-–]\s+([^\n]+)/g)].map((m) =>
    clean(m[1] ?? "")
      .trim()
      .replace(/[.,;:]$/, ""),
  );
}

/**
 * A service as a customer says it: a verb phrase as listed ("Book a lesson" → "book a lesson"), a noun phrase as
 * its action ({@link nominalRequest}), `cleanNoun`ed first.
 */
function sayService(item: string, cleanNoun: (noun: string) => string = (n) => n): string {
  const lower = `${item.charAt(0).toLowerCase()}${item.slice(1)}`;
  return serviceVerb(lower) ? lower : nominalRequest(cleanNoun(lower));
}

/** What introduces a menu of services ("Here's what I can do:", "I can help with:", "My services:", "Options:"). */
const MENU_INTRO =
  /\b(?:what I can (?:do|help (?:you )?with)(?: for you| today)?|I can help (?:you )?with(?: the following| these| any of these| things like)?|(?:here are|these are) (?:my|our|the) (?:services|options)|(?:my|our) services|\b(?:options|services|menu))\s*[:\-–—]/i;

/**
 * A menu of services after a {@link MENU_INTRO}, each said as a customer would: numbered ("1. Book an appointment
 * 2. Move an appointment … 5. Vaccination record" → "book an appointment", …, "ask about vaccination record"),
 * bulleted one per line ("• track an order"), or listed in the sentence ("Here's what I can do: track an order,
 * change a delivery slot … or put you through to a person"; "My services: order tracking, delivery slot
 * changes, …" → "ask about order tracking", "change my delivery slot"); empty when there is none.
 */
function menuServices(reply: string): string[] {
  const intro = MENU_INTRO.exec(reply);
  if (!intro) return [];
  const rest = reply.slice(intro.index + intro[0].length);
  const items: string[] = [];
  // "1. Book …", "1) Book …", "1 - Book …; 2 - Move …"; an item ends at the next number, a line or a semicolon, and
  // at its sentence's end ("9) Opening hours and prices. Say a number …").
  for (const m of rest.matchAll(
    /(?:^|[\s;])(\d{1,2})\s*(?:[.)]|\s[-–])\s+([^\n;]+?)(?=;?\s+\d{1,2}\s*(?:[.)]|\s[-–])\s|[\n;]|$)/g,
  )) {
    if (Number(m[1]) !== items.length + 1) break;
    items.push(
      (m[2] ?? "")
        .split(/[.?!]\s/)[0]
        ?.trim()
        .replace(/[.,;:]$/, "") ?? "",
    );
  }
  if (items.length < 2) items.push(...bulletItems(rest));
  // "Options: 1. 12/06/2025 14:00-15:00 2. …": a list of values (dates, times, prices), not of services.
  const named = items.filter((i) => !/\d/.test(i));
  if (items.length >= 2 && named.length * 2 < items.length) return [];
  if (named.length >= 2) return named.filter((i) => i.split(/\s+/).length <= 8).map((i) => sayService(i));
  // A list in the sentence after the intro: of verb phrases when it opens with one ("track an order, change a
  // delivery slot …"), else of nouns ("order tracking, delivery slot changes, …").
  const list = rest.split(/[.?!](?:\s|$)/)[0]?.trim();
  if (!list) return [];
  return clauseItems(serviceVerb(list) ? `I can ${list}` : `I can help with ${list}`);
}

/** Where an agent says what it offers: "I can …", "I handle …", "I deal with / take care of / look after …". */
// Also what customers can do ("Signed-in customers can also check orders, change a slot …", "you can also …") and
// what to ask about ("Ask me about delivery areas, slot times …").
const OFFER = new RegExp(
  [
    String.raw`\bI(?: can|'ll| will| could)? (?:also )?(?:handle|deal with|take care of|look after)\b`,
    String.raw`\bI can (?:also )?(?!['’]t|not|only|(?:see|find|spot|view)\b)`,
    String.raw`\b(?:(?:signed[- ]in|logged[- ]in|registered|verified|existing)\s+)?(?:customers|members|users|patients|students|guests|residents|tenants|employees|staff|account holders|cardholders) can (?:also )?(?!['’]t|not|only\b)`,
    String.raw`\byou can also (?!['’]t|not|only\b)`,
    String.raw`\bask me about\b`,
  ].join("|"),
  "gi",
);
/** An invitation to ask about topics besides a menu ("… or ask about delivery fees", "you can also ask me about …"). */
const ASK_ABOUT = /\b(?:or|also|can|just) ask(?: me| us)? about\s+/gi;
/** An offer of a list of nouns ("I can help with refills, order status …", "I handle class bookings …", "I can sort out plans, billing …"). */
const NOMINAL =
  /^(?:I(?: can|'ll| will| could)? (?:also )?(?:handle|deal with|take care of|look after|help(?: you)? with|sort out|support you with)|ask me about)\b/i;

/** The services of one offer clause (`text` starts at the offer), up to the sentence's end or the next "and I". */
function clauseItems(text: string): string[] {
  const nominal = NOMINAL.exec(text);
  const intro = nominal ?? /^.*?\bcan (?:also )?(?:help(?: you)?(?: with| to)?\s+)?/i.exec(text);
  const list = text
    .slice(intro?.[0].length ?? 0)
    // "report missing/damaged items", "join/leave the pass": two items.
    .replace(/\b([a-z]+)\/([a-z]+)\b/gi, "$1 or $2")
    // "class bookings (and cancellations)": the bracketed item is one more.
    .replace(/\s*\((and|or) ([^()]+)\)/gi, " $1 $2")
    // "the basics (pricing, where to park, passes)": a generic head's bracketed list is the items.
    .replace(
      /\b(?:the )?(?:basics|usual (?:stuff|things)|general (?:questions|info|information|stuff)|public (?:info|information|questions))\s*\(([^()]*,[^()]*)\)/gi,
      "$1",
    )
    // "…, and, once you're signed in, leave, expense claims …": a condition between the items is none.
    .replace(
      /,?\s*(?:and,?\s+)?(?:once|when|after|if) (?:you(?:'re| are|'ve| have)|signed|logged)[^,.?!]*,/gi,
      ",",
    )
    .split(/[.?!](?:\s|$)/)[0]
    ?.split(/,?\s+(?:and|but)\s+I\b/i)[0]
    ?.trim();
  if (!list) return [];
  // Items with how each joined the one before: a bare "or"/"and" (no comma) may coordinate two halves.
  const pieces = list.split(/(\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)/);
  const split: { item: string; bare: boolean; or?: boolean }[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    // "…, and, once you've signed in, with rides and receipts": the preposition is the intro's.
    const item = (pieces[i] ?? "").trim().replace(/^with\s+/i, "");
    // "or sign in and I'll handle …": signing in is the way to the services, not one.
    if (item && !/^(?:sign|log) ?(?:in|on)$/i.test(item))
      split.push({
        item,
        bare: i > 0 && !(pieces[i - 1] ?? "").includes(","),
        or: /\bor\b/.test(pieces[i - 1] ?? ""),
      });
  }
  if (!nominal)
    return (
      coordinated(split)
        // "answer general questions straight away" offers no service; "sign you in for things like leave" offers leave.
        .filter((item) => !/^answer (?:[a-z]+ )?questions\b(?! (?:about|on|regarding)\b)/i.test(item))
        .map((item) => {
          const of =
            /^(?:sign you in|log you in|help(?: you)?)(?: for| with)(?: things| stuff)?(?: like)?\s+(.+)$/i.exec(
              item,
            );
          return of?.[1] ? nominalRequest(of[1]) : item;
        })
    );
  // "class bookings and cancellations": a bare noun after "and" shares the modifiers of the item before; each
  // noun is said as what a customer does with it ("book my class"), a gerund stays ("changing your address").
  return split.map(({ item, bare }, i) => {
    const before = split[i - 1]?.item.split(/\s+/) ?? [];
    const next = split[i + 1];
    // "buying or cancelling a pass": a lone gerund takes the object of the gerund after it.
    const whole =
      gerund(item) && !/\s/.test(item) && next?.bare && /\s/.test(next.item) && gerund(next.item)
        ? `${item} ${next.item.split(/\s+/).slice(1).join(" ")}`
        : // ("delivery fees, areas, opening hours or allergens": the "or" ending a longer list joins no two heads.)
          // ("class bookings and cancellations": an action on the same thing; "fees or allergens": two things.)
          bare && !/\s/.test(item) && before.length >= 2 && !(i >= 2 && split[i]?.or) && actionNoun(item)
          ? `${before.slice(0, -1).join(" ")} ${item}`
          : item;
    // "track an order" in a list of nouns is the customer's verb phrase already.
    const verbPhrase = serviceVerb(whole) && DETERMINER.test(whole.split(/\s+/)[1] ?? "");
    // A gerund alone ("pausing or cancelling") is asked about.
    return (gerund(whole) && /\s/.test(whole)) || verbPhrase ? whole : nominalRequest(whole);
  });
}

/** Words in -ing that head a noun phrase as a modifier ("opening hours", "parking zones", "billing address"). */
const NOUN_ING =
  /^(?:opening|closing|parking|shipping|billing|packaging|clothing|training|housing|heating|lighting|meeting|building|recycling|pricing|banking|boarding|seating|catering|cooking|funding|marketing|accounting|wedding|living|dining|sleeping|waiting|landing|hearing|reading|writing|sewing|swimming|walking|running|cleaning)$/i;
/**
 * Whether a service phrase opens with a verb in -ing ("changing your address", "cancelling bookings"), not a noun
 * in -ing that modifies the head ("booking summaries": a summary of a booking).
 */
function gerund(phrase: string): boolean {
  const [first = "", ...rest] = phrase.trim().toLowerCase().split(/\s+/);
  if (!/ing$/.test(first) || !serviceVerb(first) || (rest.length && NOUN_ING.test(first))) return false;
  // A noun in -ing modifies a head right after it; a verb takes its object with a determiner ("booking a …").
  return !(rest.length && ACTION_NOUN[first] && !DETERMINER.test(rest[0] ?? ""));
}

/**
 * The verb a service phrase opens with, in its base form ("changing your address" → "change"), or undefined when
 * it opens with none (a noun phrase: "class bookings", "order status").
 */
export function serviceVerb(phrase: string): string | undefined {
  const w = (phrase.trim().split(/\s+/)[0] ?? "").toLowerCase();
  const ing = w.replace(/ing$/, "");
  const forms = w.endsWith("ing") ? [ing, `${ing}e`, ing.replace(/(.)\1$/, "$1")] : [w];
  return forms.find(
    (f) => f.length > 1 && SERVICE_VERB.test(f) && SERVICE_VERB.exec(f)?.[0].length === f.length,
  );
}

/**
 * What a customer does with a service the agent named as a noun: the action its head noun names, on its
 * modifiers ("class bookings" → "book my class", "membership freezes" → "freeze my membership", "overdue
 * payments" → "pay my overdue payment", "account summaries" → "see my account summary"); other nouns are asked
 * about ("guest passes" → "ask about guest passes").
 */
const ACTION_NOUN: Readonly<Record<string, readonly [verb: string, keepHead: boolean]>> = {
  booking: ["book", false],
  reservation: ["reserve", false],
  cancellation: ["cancel", false],
  freeze: ["freeze", false],
  change: ["change", false],
  renewal: ["renew", false],
  upgrade: ["upgrade", false],
  downgrade: ["downgrade", false],
  extension: ["extend", false],
  transfer: ["transfer", false],
  return: ["return", false],
  exchange: ["exchange", false],
  repair: ["repair", false],
  payment: ["make", true],
  refund: ["get", true],
  summary: ["see", true],
  statement: ["see", true],
  overview: ["see", true],
  enrolment: ["enrol in", false],
  enrollment: ["enroll in", false],
  registration: ["register for", false],
  application: ["apply for", false],
  withdrawal: ["withdraw from", false],
  appointment: ["book", true],
  order: ["place", true],
  claim: ["make", true],
  complaint: ["make", true],
};
/** Action nouns a customer "makes" when the agent names them alone ("bookings" → "make a booking"). */
const MADE = new Set(["booking", "reservation", "cancellation", "change", "transfer", "return", "exchange"]);
/** Whether `noun` (singular or plural) names an action done to something ("cancellations", "refund"). */
const actionNoun = (noun: string) => {
  const w = noun.toLowerCase();
  return [w, w.replace(/s$/, ""), w.replace(/es$/, ""), w.replace(/ies$/, "y")].some((x) => ACTION_NOUN[x]);
};

/** A service named as a noun said as the customer's request (see {@link ACTION_NOUN}: "class bookings" → "book my class"). */
export function nominalRequest(phrase: string): string {
  const words = phrase
    .trim()
    .replace(/^(?:the|a|an|your|our)\s+/i, "")
    .split(/\s+/);
  const head = (words.at(-1) ?? "").toLowerCase();
  const singular =
    [head, head.replace(/s$/, ""), head.replace(/es$/, ""), head.replace(/ies$/, "y")].find(
      (w) => ACTION_NOUN[w],
    ) ?? head;
  const action = ACTION_NOUN[singular];
  const rest = words.slice(0, -1).join(" ");
  if (!action) return `ask about ${words.join(" ")}`;
  const [verb, keepHead] = action;
  // "upgrades and downgrades" alone: "get an upgrade"; "payments" alone: "make a payment".
  // ("bookings" alone: "make a booking"; "upgrades": "get an upgrade").
  const alone = keepHead ? verb : MADE.has(singular) ? "make" : "get";
  if (!rest) return `${alone} ${/^[aeiou]/.test(singular) ? "an" : "a"} ${singular}`;
  return `${verb} my ${keepHead ? `${rest} ${singular}` : rest}`;
}
