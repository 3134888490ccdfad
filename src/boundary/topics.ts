/**
 * What a refusal is about, read from its words (issue 15 §2: guards kept apart by topic): the policy families
 * of abstract.ts's `refuse_<topic>` labels, first match wins. Pure patterns over lower-cased reply text.
 */

/** Policy cues of refusal topics, in the order they are tried (first match wins). */
export const POLICY_TOPICS: readonly [string, RegExp][] = [
  [
    "already",
    /\balready\b|\bduplicate\b|\b(?:can't|cannot) (?:create|issue|open|make) another\b|\bwas (?:issued|submitted|made|sent|filed) on\b/,
  ],
  [
    "availability",
    /\bout of stock\b|\b(?:booked|sold) out\b|\bfully booked\b|\bno (?:\w+ ){0,2}(?:left|available|availability|remaining)\b|\bno spare\b|\b(?:isn't|is not|aren't|are not|no longer) available\b|\bnone (?:left|available)\b/,
  ],
  [
    "balance",
    /\bbalance\b|\bfunds\b|\barrears\b|\bunpaid\b|\boverdue\b|\boutstanding\b|\bdebt\b|\bowes?\b|\bnot enough\b|\bisn't enough\b|\b(?:is|are) settled\b|\buntil (?:that's|it's|that is|it is) paid\b/,
  ],
  [
    "timing",
    /\btoo (?:early|late|soon)\b|\bwithin\b(?! (?:that|this|the (?:limit|cap|range))\b)|\bdeadline\b|\bcut-?off\b|\bexpir\w*\b|\bno longer\b(?! than)|\b(?:hours?|days?|weeks?|months?) (?:ago|before|after|of)\b|\bminimum (?:term|period|contract)\b|\bnot (?:yet )?due\b|\bbackdate\b|\b(?:period|window) (?:ended|has ended|closed|has closed|has passed)\b|\bhas passed\b|\bdue date\b|\bwas due\b|\bnot ready (?:before|until)\b/,
  ],
  [
    "limit",
    /\blimits?\b|\blimited to\b|\bmaximum\b|\bmax\b|\babove\b|\bexceed\w*\b|\bmore than\b|\bover (?:the|our|\S*\d)|\bcap(?:s|ped)?\b|\bup to\b|\bno longer than\b|\bat most\b|\bthe most\b|\bused (?:all|up)\b/,
  ],
  [
    "identity",
    /\bverif\w*\b|\bidentity\b|\bauthenticat\w*\b|\bbelong to\b|\bnot under your\b|\b(?:does not|doesn't|did not|didn't|don't|do not) (?:match|line up)\b|\b(?:two|different) (?:different )?records\b|\bnot (?:listed|registered|named) as\b|\bonly the (?:registered|named|account) \w+\b|\bisn't the one registered\b|\b(?:is|are) different from the\b/,
  ],
  [
    "eligibility",
    /\beligib\w*\b|\bqualif\w*\b|\bcovered\b|\bcoverage\b|\bentitled\b|\bonly (?:offered|available|included|for|applies|open) (?:to|for|with)?\b|\b(?:isn't|is not|aren't|are not) (?:part of|included in)\b|\bmeet the criteria\b|\bneed to have (?:held|been|had)\b|\boutside what your\b|\b(?:doesn't|does not) (?:give|include)\b/,
  ],
  [
    "policy",
    /\bpolic(?:y|ies)\b|\bnot (?:allowed|permitted)\b|\b(?:doesn't|does not|don't|do not) allow\b|\bhas to (?:go|be)\b|\b(?:we|i) (?:can )?only (?:pay|accept|send|share|take)\b|\b(?:don't|do not|aren't able to|are not able to) (?:pass|share|give out)\b|\bcan't be taken\b/,
  ],
];
