/**
 * Completions as chat agents word them (AgentEval §III-A, the outcome a gate guards): "Done: …", "Booked! …",
 * "Payment received.", "Your permit is live now", "£45.00 charged to your account". Used by the labeller
 * (abstract.ts) for `confirm_completion`; a status ("Flight cancelled."), a verification ("Code accepted.") and a
 * negated completion ("No report sent.") are not completions.
 */

const COMPLETED =
  "(?:cancell?ed|completed|added|updated|changed|issued|booked|processed|refunded|modified|upgraded|downgraded|removed|applied|sent|credited|made|moved|submitted|extended|renewed|frozen|withdrawn|switched|scheduled|reserved|registered|enrolled|placed|transferred|activated|deactivated|unblocked|arranged|lodged|filed|redirected|paid|received|taken|accepted|saved|recorded|logged|rescheduled|ordered|released|dropped|deleted|unenroll?ed|discarded|approved|topped up)";
/**
 * A completion said first ("Done: …", "All arranged.", "Booked! 6 guests on 21 June …", "Cancelled — …",
 * "Payment received.", "Claim submitted."; not a status such as "Flight cancelled.").
 */
export const DONE_FIRST = new RegExp(
  String.raw`^(?:done|all (?:done|set|arranged|sorted|booked)|sorted|confirmed|${COMPLETED}|you(?:'re| are) (?:all )?in(?=:))(?:[!.:,—–-]|$|\s+[—–-])|^${COMPLETED} (?:[£$€]|gbp |usd |eur )?\d|^(?!(?:flight|train|bus|ferry|service|departure|arrival|order|parcel|package|delivery|no|nothing|not|code|pin|password|passcode|identity|details|otp|answer)\b)[a-z]+ ${COMPLETED}(?:[:!]|\s+[—–-])|^(?:the |your )?(?!(?:flight|train|bus|ferry|service|departure|arrival|order|parcel|package|delivery|no|nothing|not|code|pin|password|passcode|identity|details|otp|answer)\b)[a-z]+ (?:[a-z]+ )?${COMPLETED}[.!]$|^(?:the |your )?(?!(?:flight|train|bus|ferry|service|departure|arrival|order|parcel|package|delivery|no|nothing|not)\b)[a-z]+ (?:(?!(?:is|are|was|were|has|have|will|can)\b)[a-z]+ )?(?:updated|changed|switched|moved|increased|reduced|raised|lowered|set) to (?:[£$€]\s?)?\d`,
);
/** A completion anywhere in a sentence ("I've cancelled it", "has been refunded", "is live now", "is confirmed (BK-1)"). */
export const DONE = new RegExp(
  String.raw`^(?:done|all set|completed)\b|\bit(?:'s| is| has been) done\b|\b(?:has|have) (?:now )?been (?:successfully )?${COMPLETED}\b|\bi(?: have|'ve) (?:now )?(?:successfully )?${COMPLETED}\b|\b(?:that's|that is|that's all|that's now|all) ${COMPLETED}\b|\bis now (?!(?:on time|delayed|boarding|flying|landed|scheduled|available|departed)\b)|\bsuccessfully\b|\b(?:you're|you are|it's|it is|that's|your \w+ is|the \w+ is) (?:all )?(?:booked|reserved)\b|\byou(?:'ve| have) been (?:\w+ )?${COMPLETED}\b|\byou're (?:all )?(?:switched|set up|signed up|registered|enrolled)\b|\b(?:is|are) (?:now )?(?:booked|frozen|scheduled) (?:with|for|from|on|until)\b|\byour \w+ (?:is|has been) (?:now )?complete\b|\b(?:is|are) (?:live|active|in effect) now\b|^[£$€]\s?\d[\d,]*(?:\.\d{2})? (?:has been )?(?:charged|debited) (?:to|from) your\b|\b(?:is|are) (?:now |all )?ready(?: for (?:you|use|collection)| to (?:use|go))?[.,;!]|\b(?:payment|transfer|refund|renewal|reservation|booking|order) of [^;!?]{1,30}? (?:received|taken|accepted|made|completed)\b|(?<!\b(?:flight|train|bus|ferry|service|departure|arrival)\b[^.;!?]{0,40})\b(?:is|are) (?:now )?${COMPLETED}(?:[.;!:,(]|$| to\b| for \d| \(| [\u2705\u2714\u2713\u2611])|\b(?:is|are) (?:now )?confirmed\s*[(:]|^(?:the |your )?(?!(?:flight|train|bus|ferry|service|departure|arrival|order|parcel|package|delivery)\b)[a-z-]+(?: (?!(?:is|are|was|were)\b)[a-z-]+)? confirmed (?:for|on|at|until)\b|\byou(?:'re| are) (?:now )?on the (?:waiting|wait) ?list\b|\b(?:is|are) (?:all )?set[.!]?$`,
);
