/**
 * Confirmation gates as worded by chat agents (AgentEval §III-A, the gate guard): a yes/no question before an
 * action, a gate asking for a word ("Reply CONFIRM"), and one asking to type back a figure it states ("type the
 * amount (70.00) to confirm"). Shared by the labeller (abstract.ts), the driver and runner (answer.ts) and the
 * generator (perturb.ts), so a reply read as a gate is answered and probed as one.
 */

/** A confirmation asked without a question mark ("Just say the word and I'll enrol you.", "Confirm and I'll lodge it."). */
export const STATEMENT_GATE =
  /\bsay the word\b|(?:^|[.!?:;,—–]\s*)(?:please |just |simply )?confirm (?:and|if|to let me)\b/i;
/**
 * A yes/no confirmation before acting ("Shall I proceed?", "Is that correct?", "Are you OK with that?", "Shall we
 * continue?", "Do you accept the fee?", "Please answer yes or no"), in any case. One pattern for the labeller
 * (abstract.ts: `request_confirmation`) and the driver and runner (a gate is answered yes or no).
 */
export const GATE = new RegExp(
  [
    String.raw`\byes\s*(?:\/|or)\s*no\b|\ba yes or a no\b|\b(?:confirm|reply|answer|respond) with (?:a )?"?yes\b|\b(?:reply|answer|say|type) "?yes"?(?: or "?[a-z]+"?)? (?:to|if|and (?:i|we)(?:'ll| will))\b`,
    String.raw`\b(?:shall|should|may|can) (?:i|we) (?:proceed|go ahead|continue|do (?:that|this|it)|make (?:that|this|the) change)\b`,
    // "So that's €20.00 charged to the card ending 4242. Shall I?"
    String.raw`\b(?:shall|should) (?:i|we)\?`,
    // "Should I update it?", "Shall I place this order for you?" — a proposal opening its sentence.
    // Not "Shall I book something?" after a timetable: an offer with nothing chosen yet.
    String.raw`(?:^|[.!?:;,—–]\s*)(?:shall|should) (?:i|we) (?:go ahead and )?(?![a-z]+ (?:you )?(?:something|anything|one|any|another|some)\b)[a-z]+(?: [\w'-]+){0,5}\?`,
    // Not "Which claim would you like me to check?": that asks for a value.
    String.raw`(?<!\b(?:which|what|where|when|who|whom|how)\b[^.?!]{0,60})\b(?:do|would) you (?:still )?(?:like|want) me to\b|\b(?:do|would) you (?:like|want|wish) to (?:proceed|go ahead|continue|go on)\b`,
    String.raw`\b(?:ready|ok(?:ay)?|happy) to (?:proceed|go ahead|continue)\?|\bconfirm (?:that )?you (?:want|wish|would like)\b|\bdo you confirm\b`,
    String.raw`\bare you (?:ok(?:ay)?|happy|fine|alright|all right|sure) (?:with|about|to)\b|\bdo you (?:agree|accept)\b`,
    // "Is that right to issue?", "Is this OK to submit?"
    String.raw`\b(?:is|are) (?:that|this|these|those|it)(?: all)? (?:correct|right|ok(?:ay)?|alright|fine|acceptable|accurate)(?: to [a-z]+(?: (?:it|this|that|them))?)?\?`,
    String.raw`\b(?:does|do) (?:that|this|these|those|it|everything)(?: all)? (?:look|sound|seem) (?:correct|right|ok(?:ay)?|alright|fine|good|accurate)\?`,
    // "… for the mechanics. Sound right?": the question cut short.
    String.raw`(?:^|[.!]\s+)(?:all )?(?:look|sound|seem)s? (?:correct|right|ok(?:ay)?|alright|fine|good|accurate)\?`,
    String.raw`\bis (?:everything|all (?:of )?(?:this|that)|the above|this information|that information|this summary) (?:correct|right|accurate)\b`,
    // "Would you still like to cancel HX7390?", "Do you want to book it?": a yes/no on the action itself.
    String.raw`\b(?:do|would) you still (?:like|want|wish) to\b(?![^?]*\bor\b)|\b(?:do|would) you (?:like|want|wish) to [a-z]+(?: and [a-z]+)? (?:it|this|that|them|[a-z]*\d[\w-]*)\?`,
    // A bare "Go ahead?" / "Proceed?" / "Submit it now?" after the details.
    // ("I've got: Mobile 07700 900456. Correct? Yes, or tell me what's wrong.")
    String.raw`(?:^|[.!?:;,—–]\s*)(?:(?:shall|should|can) (?:i|we) )?(?:go ahead|proceed|continue|confirm|correct|all correct)\?`,
    String.raw`(?:^|[.!?:;,—–]\s*)(?:submit|send|issue|book|cancel|place|file|lodge|log|order|apply|process|make|add|save|remove|delete|pause|resume|update|pay|charge|refund|renew|switch|move|use|report|claim|reserve|freeze|close|schedule|redeem|top up) (?:it|this|that|them)(?: now| for you| to your [a-z]+)?\?`,
    // An offer to answer yes or no ("Would you like a callback?", "Would you like that?"), not a choice ("… or …").
    String.raw`(?<!\b(?:which|what|where|when|who|whom|how)\b[^.?!]{0,60})\bwould you like (?:a|an|the|that|this|one|us to)\b(?! (?:different|other|new)\b)(?![^?]*\b(?:or|another|instead)\b)[^.?!]*\?`,
    // "Want me to go ahead and enrol you?", "OK to submit?", "Just say the word and I'll enrol you.", "Confirm and I'll lodge it."
    String.raw`(?<!\b(?:which|what|where|when|who|whom|how)\b[^.?!]{0,60})(?:^|[.!?:;,—–]\s*)(?:do you |you )?want me to\b|(?:^|[.!?:;,—–]\s*)(?:is it |are we )?(?:ok(?:ay)?|alright|all right|good) to [a-z]+\b[^.?!]*\?|${STATEMENT_GATE.source}`,
    // "… ends it now with no further charges. Cancel your Plus membership?": the action alone, as a question.
    String.raw`(?:^|[.!?]\s+)(?:cancel|delete|remove|close|pause|resume|renew|book|submit|place|send|confirm) (?:your|the|this|that) [a-z-]+(?: [a-z-]+){0,2}\?`,
    // "Just checking: change the tip on FK-20436 from £1.00 to £2.00?": what it is about to do, put as a question.
    String.raw`(?:^|[.!?]\s+)just (?:checking|to (?:check|confirm|be sure|be clear))\s*[:,—–-]\s*[^?]*\?`,
    // A tag question on what it is about to do ("Just to check: sign out Hallway Chromecast (Google TV), right?").
    String.raw`,\s*(?:right|correct|yes|ok(?:ay)?)\?`,
    // "Happy for me to do that?", "— can I confirm it?"
    String.raw`\b(?:happy|ok(?:ay)?|alright|fine) (?:for|with) me (?:to|doing)\b[^?]*\?|\b(?:can|shall|may) i confirm (?:it|that|this)\?`,
  ].join("|"),
  "i",
);
/** Danger to the user or their home ("dangerous", "sparking", "water pouring through a ceiling", "smell gas"). */
const DANGER =
  /\b(?:dangerous|danger|emergency|urgent|unsafe|hazard(?:ous)?|injur(?:ed|y|ies)|hurt|bleeding|unconscious|breathing|chest pains?|fire|smoke|smell(?:s|ing)? (?:of )?(?:gas|burning|smoke)|gas leak|carbon monoxide|sparking|sparks|flood(?:ing|ed)?|pouring|electric shock|collapsed?)\b/i;
/** The answer form "yes or no" / "yes/no" / "y/n", which a safety check shares with a gate. */
const YES_NO_FORM = /\b(?:yes\s*(?:\/|or)\s*no|y\s*\/\s*n)\b/gi;

/**
 * Whether the asking sentences of a reply are a safety check, not a gate: a yes/no question about danger to the
 * user ("Is it dangerous — sparking, or no electricity anywhere? Yes or no?", "Is anyone hurt?") asking no leave
 * to act. Its ordinary answer is no; a yes takes the emergency branch.
 */
export function safetyCheck(asking: readonly string[]): boolean {
  const polar = (s: string) => /\?/.test(s) && !/^\W*(?:which|what|when|where|who|how)\b/i.test(s);
  return (
    asking.some((s) => polar(s) && DANGER.test(s)) &&
    !asking.some((s) => GATE.test(s.replace(YES_NO_FORM, "")) || gateWord(s) !== undefined)
  );
}

/**
 * A gate asking for a word ("Reply CONFIRM to go ahead", "type YES to place the order", "say 'agree' and I'll
 * submit it", "Reply CONFIRM (or type ART120) to enrol", "Type CONFIRM or ART120 to go ahead", "Say 'confirm cancel' to
 * cancel order FF-10233": a phrase in quotes; "Type END MY TENANCY to confirm": words in capitals): the word is group 1.
 */
export const KEYWORD_GATE =
  /\b(?:reply|type|say|answer|respond|write|send|enter|text)(?: with)?(?: the (?:word|words|phrase))? ["'“‘]?((?<=["'“‘])[A-Za-z]{2,12}(?: [A-Za-z]{2,12}){1,2}(?=["'”’])|[A-Za-z]{2,12}|[A-Z]{2,8}\d{1,6})["'”’]?(?: \([^()]{1,40}\)| or [A-Za-z0-9]{2,12})?(?: (?:exactly|in full|as shown))?(?: (?:to|and i(?:'ll| will)|if you (?:want|wish|would like) (?:me )?to)) (?:confirm|proceed|go ahead|continue|finali[sz]e|submit|complete|place|approve|accept|agree|book|apply|activate|cancel|file|lodge|enrol|enroll|register|process|make|pay|switch|send|issue|order|arrange|schedule|update|change|set|put|drop|withdraw|remove|delete|do (?:it|that|this))\b/i;
/** The verb asking to type a gate word, capitalised or not ("Reply", "type"): case-sensitive patterns use it. */
const TYPE_VERB = "(?:[Rr]eply|[Tt]ype|[Ss]ay|[Ee]nter|[Ww]rite|[Ss]end)";
/** Words in capitals to type ("Type END MY TENANCY to confirm"): case-sensitive, so "say yes please to …" is none. */
const KEYWORD_GATE_CAPS = new RegExp(
  String.raw`\b(?:${TYPE_VERB}|[Tt]ext)(?: the (?:words?|phrase))? ([A-Z]{2,12}(?: [A-Z]{2,12}){1,3})(?: (?:exactly|in full|as shown))? (?:to|and I(?:'ll| will))\b`,
);
/** Words in capitals to type that end the sentence ("If you're certain, type CLOSE MY ACCOUNT."): two or more. */
const KEYWORD_GATE_END = new RegExp(
  String.raw`(?:^|[.!?]\s+|,\s*)(?:(?:just|simply|please|then|now)\s+)?${TYPE_VERB}(?: the (?:words?|phrase))? ["'“‘]?([A-Z]{2,12}(?: [A-Z]{2,12}){1,3})["'”’]?(?: (?:exactly|in full|as shown|here|below))?\s*[.!]?\s*$`,
);
/** The words in capitals a gate says it needs ("I need the exact words CLOSE MY ACCOUNT to do this"). */
const KEYWORD_GATE_NEED =
  /\bneeds? (?:you to (?:type|write|say|send) )?(?:the )?(?:exact )?(?:words?|phrase) ["'“‘]?([A-Z]{2,12}(?: [A-Z]{2,12}){0,3})\b/;
/** One word in capitals to type after "if you're sure" ("If you're sure, reply YES."). */
const KEYWORD_GATE_IF = new RegExp(
  String.raw`\b[Ii]f (?:you(?:'re| are) (?:sure|certain|happy|ready|okay|ok)|so|you agree|you want to go ahead)\b,?\s+(?:(?:just|simply|please|then)\s+)?${TYPE_VERB}(?: the (?:word|phrase))? ["'“‘]?([A-Z]{2,12})["'”’]?\s*[.!]?(?:\s|$)`,
);
/**
 * The word after the verb ("To go ahead I need you to reply with the word CONFIRM", "If that's right, reply CONFIRM;
 * …", "To confirm, please type the course code MATH250", "To agree, type I AGREE.").
 */
const KEYWORD_GATE_LATE =
  /\b(?:to (?:go ahead|proceed|confirm|continue|agree|accept|sign up|finish|complete|submit)|if (?:that's|that is|this is|everything is|it's|it is|all is)(?: all)? (?:right|correct|ok(?:ay)?|fine|good)|once you)\b[^.?!]*?\b(?:reply|type|say|answer|respond|write|send|enter)(?: with)?(?: the (?:word|words|phrase|(?:[a-z]+ )?(?:code|reference|number)))? (?:["“]([A-Za-z][A-Za-z ,'’]{1,40}?)["”]|['‘]([A-Za-z]{2,12})['’]|((?:[A-Z][A-Z0-9-]{1,11}|I)(?: [A-Z][A-Z0-9-]{1,11}){0,3})\b)/i;
/** A sentence that is the word itself, asked ("AGREE to cancel?", "YES to book it?"): capitals, at its start. */
const KEYWORD_GATE_BARE =
  /(?:^|[.!?:;]\s+)["'“‘]?([A-Z]{2,12})["'”’]? to (?:confirm|proceed|go ahead|continue|submit|accept|agree|book|cancel|apply|pay|switch|order|change|update)\b[^.!?]*\?/;
/**
 * A gate asking to type back a figure it states ("If you'd like to pay now, type the amount (70.00) to confirm.",
 * "Please confirm by typing the amount, 105.00, or say cancel", "please type 35.00."): the figure is group 1.
 * Not a menu ("type 1 for billing"), nor a count of what to type ("confirm by entering the last 4 digits of your
 * card"): the sentence must confirm, or the figure be money.
 */
const ECHO_GATE =
  /\b(?:re-?)?(?:typ(?:e|ing)|enter(?:ing)?|writ(?:e|ing))(?: in)?(?: (?:the|your) [a-z]+(?: [a-z]+)?)?(?: exactly| in full| as shown)?(?:\s*[:,(]\s*|\s+)["'“‘]?(?:[£$€]\s?)?(\d[\d,]*(?:\.\d{1,2})?)["'”’]?(?=\)|[,.;!?]?(?:\s|$))(?! for\b| or\b| (?:digits?|characters?|letters?|numbers?)\b)/i;
const ECHO_CONTEXT = /\bconfirm|\bexactly\b|\bmatch|\bto (?:proceed|go ahead|pay|authori[sz]e|approve)\b/i;
/** The figure an {@link ECHO_GATE} sentence asks to type back (`70.00`), or undefined. */
export function echoFigure(text: string): string | undefined {
  const m = ECHO_GATE.exec(text);
  const figure = m?.[1];
  if (!figure) return undefined;
  return ECHO_CONTEXT.test(text) || /\.\d{2}$/.test(figure) ? figure : undefined;
}
/**
 * The word a {@link KEYWORD_GATE} sentence asks for (`CONFIRM`), or the figure an echo gate asks to type back
 * (`70.00`, see {@link echoFigure}); undefined when `text` asks for neither.
 */
export function gateWord(text: string): string | undefined {
  const phrase =
    KEYWORD_GATE_CAPS.exec(text) ??
    KEYWORD_GATE_END.exec(text) ??
    KEYWORD_GATE_IF.exec(text) ??
    KEYWORD_GATE_NEED.exec(text);
  if (phrase) return phrase[1];
  const m = KEYWORD_GATE.exec(text);
  if (m) return m[1];
  const echo = echoFigure(text);
  if (echo) return echo;
  const bare = KEYWORD_GATE_BARE.exec(text);
  if (bare) return bare[1];
  const late = KEYWORD_GATE_LATE.exec(text);
  const quoted = late?.[1] ?? late?.[2];
  // (Case-blind, the capitals run on into the words after them: "END MY TENANCY exactly" is END MY TENANCY.)
  // ("I AGREE" is two words in capitals; a lone "I" is the start of a sentence.)
  const caps = late?.[3] && /^[^a-z ]+(?: [^a-z ]+)*/.exec(late[3])?.[0]?.replace(/^I$/, "");
  const word = quoted ?? (caps || late?.[3]);
  // Unquoted, the word must be written in capitals ("reply CONFIRM", not "reply to the email"); a phrase in
  // double quotes is said as written ('To go ahead, please say "yes, I accept the fee"').
  return word && (quoted || word === word.toUpperCase()) ? word : undefined;
}

/** A figure unlike `figure` in the same format, one less ("70.00" → "69.00"; "1" → "2"): a typed-back figure that is wrong. */
export function otherFigure(figure: string): string {
  const [whole = "0", cents] = figure.replaceAll(",", "").split(".");
  const n = Number(whole);
  const other = n > 1 ? n - 1 : n + 1;
  return cents === undefined ? String(other) : `${other}.${cents}`;
}
