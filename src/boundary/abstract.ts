import {
  asksSomething,
  CLOSING_OFFER,
  GIVE_IT,
  menuGate,
  type Question,
  readQuestion,
  sentences,
} from "./answer.ts";
import { askingSentences } from "./asking.ts";
import { DONE, DONE_FIRST } from "./completions.ts";
import { maskEntities } from "./entities.ts";
import { securitySlot } from "./fallback.ts";
import { slotByFormat } from "./formats.ts";
import { echoFigure, GATE, gateWord, safetyCheck } from "./gates.ts";
import {
  CONTRARY,
  factSlotNames,
  knownValues,
  REPLACEMENT,
  type SlotValues,
  STRONG_REPLACEMENT,
  slotNamedIn,
  slotOfChoice,
  slotOfValue,
} from "./slots.ts";
import { POLICY_TOPICS } from "./topics.ts";
import {
  type AbstractTurn,
  CUE,
  cueOf,
  type Facts,
  type Labeller,
  TOPIC_FAMILIES,
  type Turn,
} from "./types.ts";
import { labelUserTurn, norm, userSays } from "./user-actions.ts";

/**
 * The `rules` engine of the labeller (AgentEval §IV-A): each turn → the user action of the utterance and the
 * agent activity of the reply, offline and deterministic (reference conversational-and-airline.md §4.2:
 * entity masking, then dialogue-act cue rules, then an entity-signature label for what is left). A reply's
 * label is a pure function of its text and the campaign's facts (whose slot names name what a question asks
 * for), so the judge re-labelling a run gets the labels the graph was built with. User turns: user-actions.ts.
 */

export { type Entity, type Masked, type MinedTemplate, maskEntities, mineTemplates } from "./entities.ts";
export { labelUserTurn } from "./user-actions.ts";

/* ---- Replies ---- */

/** A hand-off: "transferring you to a human", "connect you with one of our advisors", "a live agent". */
const TRANSFER =
  /\btransferr?(?:ed|ing)? (?:you )?to an? (?:human|live|real)\b|\b(?:human|live) (?:agent|representative|advis[eo]r|operator|colleague)s?\b|\b(?:connect(?:ing)?|put(?:ting)?|pass(?:ing)?|transferr?(?:ing)?) you (?:through )?(?:with|to) (?:an?|one of our|our|the) (?:\w+ )?(?:human|person|people|representative|colleague|specialist|advis[eo]r|agent|operator|team|staff|member|manager|supervisor)s?\b|\bhand(?:ing)? (?:you )?(?:over|off) to\b|\b(?:connect|transferr?|put|pass)(?:ing)? you (?:through )?(?:with|to) one of (?:our|my) \w+|\byou(?:'re| are) (?:now )?in the queue (?:for|to speak to)\b|\bsomeone (?:from|in|on) (?:the|our) (?:[a-z]+ ){0,2}(?:team|desk|department) will (?:now )?(?:be with you|join|call|contact|take over|pick (?:this|it) up)\b|\btransferring you to (?:an?|the|our) \w+|\b(?:a member of (?:our |the )?(?:staff|team)|(?:one of )?our (?:staff|team)(?: members?)?) will (?:call|contact|join|be with|take over|get back to)\b|\b(?:connect(?:ing)?|put(?:ting)?|hand(?:ing)?|pass(?:ing)?) (?:you|the chat|this(?: chat| one)?) (?:through |over )?(?:to|with) (?:someone|a|an|one|our|your|the)\b|\bbring (?:in )?an? (?:colleague|specialist|advis[eo]r|agent|member)\b|\b(?:a|an|one of our) (?:[a-z-]+ ){0,5}(?:agent|advis[eo]r|colleague|representative|specialist|person|human|operator|team|staff)s? (?:will|is about to|are about to) (?:now )?(?:take over|join|be with you|pick up|call|contact)\b/;
/** A question offering an alternative ("… another date instead?", "… a different room?"). */
const ALTERNATIVE_OFFER =
  /\b(?:instead|another|other|different|alternative|earlier|later)\b[^.!?]*\?|\?[^.!?]*\binstead\b/;
/** A question offering a hand-off ("would you like me to connect you?", "shall I put you through?"). */
const HANDOFF_OFFER =
  /\b(?:would you like|do you want|shall i|should i|can i|may i)\b[^.?!]*\b(?:connect|transfer|put you through|pass you|hand you)\b|\b(?:i can|i could|we can|happy to)\b[^.?!]*\b(?:connect|transfer|put you through|pass you|hand you)\b[^.?!]*\bif you(?:'d| would)? (?:like|want|wish|prefer)\b/;
/**
 * Nothing happened: "I won't make the transfer", "nothing has changed", "your money hasn't moved", "the card
 * stays active", "I've left it as it is" — checked before the completion cues ("I've cancelled the transfer.
 * Your money hasn't moved." is an abort).
 */
const ABORT =
  /\b(?:i|we) (?:will not|won't|shall not) (?:make|do|proceed|change|cancel|go ahead|apply|carry (?:it |that )?out|continue|process|send|transfer|move|freeze|block|book|submit)\b|\bnothing (?:has |have )?(?:been |was |is |will be )?(?:changed|modified|cancell?ed|done|moved|sent|charged|saved|submitted|issued|logged|filed|booked|placed|taken|recorded)\b|\b(?:has not|hasn't|have not|haven't|was not|wasn't|were not|weren't|will not be|won't be) (?:been )?(?:moved|changed|sent|charged|touched|modified|frozen|made)\b|\b(?:stays?|remains?|staying|remaining) (?:active|unchanged|open|valid|as (?:it|they) (?:is|are|was|were))\b|\b(?:left|leaving|keep(?:ing)?|kept) (?:it|everything|them|the \w+|your \w+) (?:as (?:it|they) (?:is|are|was|were)|as is|unchanged)\b|\bno changes? (?:has|have|were|was|will be) (?:been )?made\b|\bthe (?:request|operation|change) (?:has been|was|is) (?:aborted|withdrawn|dropped)\b|\b(?:i|we)(?: have not|'ve not| haven't) (?:\w+ )?(?:placed|added|booked|submitted|renewed|restarted|sent|changed|ordered|applied|made|processed|transferred|cancell?ed|issued|logged|filed|lodged|taken|charged|saved|recorded)\b|\b(?:i|we) (?:won't|will not) (?!be\b)[a-z]+ (?:it|them|the|your|that|this|any)\b|\b(?:i|we) (?:won't|will not|shan't) (?:renew|book|cancel|change|send|charge|process|submit|place|order|transfer|move|add|remove|apply|file|extend|freeze|close|refund|delete|go ahead)\b|\b(?:stays?|remains?|still) due\b|\b(?:is|are|remains?|stays?) (?:still )?unchanged\b|\b(?:dropped|discarded|scrapped) (?:that|the|this) (?:request|change)\b|\b(?:has not|hasn't|have not|haven't) been (?:added|submitted|placed|booked|renewed|transferred|applied|processed)\b|\bno \w+ (?:has|have) been (?:placed|added|made|booked|submitted|issued|logged|filed|lodged|sent|charged|taken)\b|^(?:ok(?:ay)?, |fine, |understood, )?no (?:\w+ )?(?:sent|issued|placed|made|booked|submitted|logged|filed|lodged|taken|charged)[.!]|\b(?:stays?|remains?) as (?:originally )?(?:booked|it was|they were|planned|before)\b|\b(?:left|leave|leaving|kept|keep) (?:\w+ ){0,3}(?:exactly )?as (?:it|they) (?:is|are|was|were)\b|^(?:(?:ok(?:ay)?|fine|understood|no problem|alright|all right)[,.!]? )?not (?:been )?(?:added|booked|placed|changed|cancell?ed|sent|made|done|applied|issued|saved|processed|moved|renewed|redeemed|refunded|reserved|updated)\b/;
const ERROR =
  /\bsomething went wrong\b|\bcould not be (?:made|completed|processed|saved|applied)\b|\b(?:technical|unexpected|internal|system) (?:error|issue|problem)\b|\berror (?:has )?occurred\b|\btry again later\b|\bfailed to\b|\b(?:system|service) is (?:currently )?(?:down|unavailable)\b|\b(?:got|hit|ran into|encountered) an? (?:\w+ )?error\b|\bserver (?:problem|error|issue)s?\b|\b(?:isn't|is not|aren't|are not) responding\b|\btimed out\b|\btemporarily (?:unavailable|down)\b|\bsomething(?:'s| is) (?:broken|wrong) on our (?:end|side)\b|\bhaving (?:trouble|problems|issues) (?:connecting|with|at|reaching)\b|\b(?:upload|payment|request|transaction|connection) (?:has )?failed\b/;
const NOT_FOUND =
  /\bi (?:don't|do not|can't|cannot) see (?:a|an|any) [a-z]+ (?:for|with|under|called|named|on)\b|\b(?:could not|couldn't|can't|cannot|was unable to|am unable to|wasn't able to|was not able to|weren't able to) (?:find|locate)\b|\b(?:don't|do not) seem to have any\b|\b(?:doesn't|does not) appear (?:anywhere )?(?:in|on)\b|\b(?:can't|cannot|don't) see any\b|\bno (?:\w+ ){1,3}(?:shows?|comes?|turns?) up\b|\b(?:doesn't|does not) match any\b|\bthere(?:'s| is) no (?:\w+ ){0,4}(?:under|for|registered|with|in our|on our|matching)\b|\bi found no\b|\bthere(?:'s| is) nothing (?:called|named|matching|by that name|under that)\b|\bno (?:such|matching) \w+|\b(?:does not|doesn't) exist\b|\bthere (?:is|are) no \S+(?: \S+)? (?:with|in our|found|matching|available|for)\b|\bno \w+(?: \w+)? (?:was|were) found\b|\bnot found\b|\bno (?:records?|results?) (?:of|for|found)\b|\bthere(?:'s| is| are) no (?:[a-z]+ ){1,2}[a-z-]*\d[a-z0-9-]*\b|\b(?:i|we) (?:don't|do not|can't|cannot) see\b[^.?!]{1,60}?\b(?:among|in|on) (?:your|our|the|those|these|them)\b|\bno (?:[a-z-]+ ){0,2}(?:records?|accounts?|bookings?|orders?|entr(?:y|ies)) match(?:es)?\b/;
/**
 * A refusal, including a credential that does not match ("That PIN doesn't match our records"), the
 * counterpart of "this reservation is not under your user id".
 */
const REFUSE =
  /\bwe (?:don't|do not|never) [a-z]+ (?:there|here)\b|\b(?:isn't|is not|aren't|are not) (?:in|within|part of|covered by) (?:the|our|your) [^.;]{0,40}\b(?:area|region|zone|network|catchment|district)\b|\boutside (?:it|of it|them)\b|\b(?:that's|that is|it's|it is|is|was) too (?:soon|early|late|short|long|far|many|much|few|big|heavy)\b|\b(?:is|are) only (?:issued|given|sold|offered|granted|open) (?:to|for)\b|\bwould (?:need|have) to be [^.;]*\bfirst\b|\b(?:does not|doesn't|did not|didn't) match (?:our|any|the|your) (?:records?|details|account)\b|\b(?:i|we) (?:can't|cannot|can not|am unable to|are unable to|am not able to|are not able to|won't be able to|wouldn't be able to|would not be able to)\b|\bi'm (?:unable|not able) to\b|\bnot (?:possible|allowed|permitted|eligible)\b|\bunfortunately\b|\b(?:does not|doesn't) belong to\b|\bnot under your\b|\b(?:do|does) not qualify\b|\bagainst (?:our |the )?policy\b|\byou (?:can't|cannot|can not|won't be able to|are not able to|aren't able to) (?!find\b|see\b)|\b(?:isn't|is not|aren't|are not) (?:possible|allowed|permitted|eligible)\b|\b(?:does not|doesn't|did not|didn't|do not|don't) match\b|\b(?:isn't|is not|wasn't|was not) (?:correct|right|valid)\b|\b(?:can't|cannot|can not) be (?:granted|done|changed|made|processed|cancell?ed|approved|refunded|applied|added)\b|\bcan no longer be\b|\b(?:can|may) only be\b|\b(?:i|we) can only (?!go ahead\b)|\b(?:is|are) only (?:available|visible|possible|allowed|permitted)\b|\bonly (?:one|once|\d+) (?:is|are) (?:allowed|permitted)\b|\b(?:that's|that is|it's|this is) not the (?:right |correct |valid )?(?:code|pin|password|passcode|one we)\b|\b(?:can't|cannot|can not) be [a-z]+ed (?:through|via|in|by|here|online|over)\b|\bi'?m afraid\b(?! i didn't| i did not)|\bsorry,? but\b|\bwon't be possible\b|\b(?:is|isn't|is not) (?:not )?an option\b|\bno later than\b|\bthe (?:latest|earliest|most|maximum|highest|lowest|longest|furthest) (?:[a-z-]+ ){0,2}(?:i|we|it|they) can\b|\b(?:i|we) (?:only|just) (?:offer|allow|permit|accept)\b|\bat most (?:once|one|twice|\d+) (?:every|per|a|each)\b|\bnext \w+ (?:is|will be) (?:possible|available|allowed) (?:from|after|on)\b|\b(?:isn't|is not|aren't|are not|no longer) available\b|\b(?:can't|cannot|can not|may not|must not) (?:exceed|go (?:above|beyond|past|over))\b|\b(?:restricted|limited) to\b|\b(?:have|need) to decline\b|\bmust decline\b|\b(?:not|isn't|aren't) (?:something|anything) (?:i|we) can\b|\b(?:we|i) (?:don't|do not) (?:allow|permit|offer|accept|support)\b|\b(?:fully booked|sold out|no availability|no (?:rooms?|seats?|slots?) (?:are )?(?:left|available))\b|\b(?:too late|too early|too soon) to\b|\b(?:beyond|past|after) (?:the|our) (?:\w+ )?(?:limit|cut-?off|deadline)\b|\bexceeds? (?:the|our|your) (?:\S+ )?(?:limit|cap|maximum)\b|\b(?:over|above) (?:the|our|your) (?:\S+ ){0,2}(?:cap|limit|maximum)\b|\bmore than the (?:maximum|max|limit)\b|\b(?:can't|cannot|can not|couldn't) (?:be [a-z]+(?:ed|en|wn|t|up)|take effect)\b|\b(?:we|i)(?:'re| are|'m| am) not able to\b|\bwe aren't able to\b|\b(?:doesn't|does not|don't|do not) (?:allow|permit)\b|\b(?:plan|membership|policy|tier|package|subscription|ticket|fare|account|card|contract|licen[cs]e|cover)\b[^.;!?]{0,30}\b(?:doesn't|does not|don't|do not|won't|will not) (?:include|cover|come with|extend to)\b|\bno (?:further|more) \w+ (?:is|are) possible\b|\balready\b[^.]*\b(?:so|and) (?:there's |there is )?(?:nothing|no further|no more)\b|\b(?:is|are|'s) the (?:maximum|limit|max)\b|\b(?:falls? |is |that's )?outside (?:of )?(?:what|your|our|the)\b|\b(?:paused|on hold|blocked) until\b|\buntil (?:that's|that is|it's|it is|this is|the \w+ is) (?:paid|settled|cleared)\b|\b(?:booked out|fully booked|sold out)\b|\bno (?:\w+ ){0,3}(?:left|remaining)\b|\b(?:all|every) (?:\w+ ){0,4}(?:is|are) (?:taken|booked|gone|full)\b|\bno spare capacity\b|\bonly (?:the |a |an )?(?:\w+ ){0,3}(?:can|may) (?!help\b)|\b(?:don't|do not|doesn't|does not) (?:line up|match up|tally)\b|\b(?:cut-?off|deadline|window) (?:\S+ ){0,6}?(?:has |have )?(?:passed|closed|expired|ended)\b|\bnot (?:listed|registered|named) as\b|\b(?:it's|it is|it would be) (?:probably |usually )?(?:best|better|wiser) not to\b|\b(?:wouldn't|would not) (?:pay (?:anything|out)|be worth)\b|\bnot worth (?:filing|claiming|making|it)\b|\b(?:isn't|is not|aren't|are not|wasn't|was not|wouldn't be|would not be|not) (?:\w+ )?covered\b|\b(?:you(?:'d| would)? need|requires? you to have|you (?:must|have to) have) (?:a pass in|passed|completed|finished)\b|\bno need\b[:,—–-]|\b(?:isn't|is not|wasn't|was not|'s not) (?:the|a) (?:[a-z-]+ ){0,4}(?:we|i) (?:have|hold|know|expected)\b|\b\d+ (?:more )?(?:attempts?|tries) (?:left|remaining)\b|\b(?:isn't|is not|aren't|are not) (?:on|in|among) your\b|\byou(?:'re| are)? ?(?:not|aren't) (?:enrolled|registered|signed up|booked|listed) (?:in|on|for)\b|\b(?:is|was) (?:wrong|incorrect)\b|\b(?:is|are|has been|have been) (?:now )?(?:locked|blocked|suspended)\b|\b(?:i've|i have|we've|we have) (?:now )?(?:locked|blocked|suspended)\b|\b(?:three|too many) (?:wrong|failed|unsuccessful|incorrect) (?:codes?|attempts?|tries|pins?|answers?)\b|\byou(?:'re| are) (?:already )?(?:registered|enrolled|booked|signed up|subscribed) (?:for|on|in|to) [^.!?]*\balready\b|\bonly (?:comes?|applies|apply|is included|are included) (?:with|to|on)\b|\bwe (?:don't|do not|never) [a-z]+ (?:on|at|to|after|before|outside|during|over|in)\b|\b(?:won't|will not|wouldn't|would not) work\b|\b(?:is|are|becomes?) (?:only )?(?:possible|available|allowed) (?:once|after|from|when)\b|\b(?:is|are) already (?:frozen|cancell?ed|booked|paused|on hold|registered|enrolled|active|set up|in place|scheduled|paid|on your|in your)\b|\b(?:they|the [a-z]+ team|our [a-z]+ team) (?:handles?|deals? with|takes? care of|looks? after) (?:all )?(?:[a-z]+ ){0,2}(?:cancell?ations|refunds|complaints|claims|requests|that|these|this)\b|\b(?:can't|cannot|can not) go (?:to|in|into|on)\b|\b(?:our|the) (?:[a-z]+ ){1,2}(?:can't|cannot|can not|won't be able to|isn't able to|aren't able to) (?!find\b|see\b|wait\b)[a-z]+|\bso there (?:are|is|will be) no\b|\b(?:there's|there is|there are|so) (?:no|nothing) (?:[a-z-]+ ){0,3}to (?!worry\b)[a-z]+\b|\b(?:isn't|is not|aren't|are not) (?:needed|required|necessary)\b|\b(?:enrol?ment|registration|bookings?|sign-?ups?|applications?|admissions?) (?:for [^.?!]{1,60}? )?(?:closed|ended|has closed|is closed|have closed)\b|\bthere (?:are|is) no (?:[a-z]+ ){1,2}(?:on|during|over) (?:a |an )?[A-Z0-9a-z]|\bnot (?:a|an) (?:valid|available|eligible|accepted|recogni[sz]ed|supported|bookable|permitted) [a-z]+|\b(?:isn't|is not|aren't|are not|not) (?:in|on|part of) (?:our|the) (?:range|catalogue|catalog|menu|list|stock|selection|programme|schedule|timetable)\b|(?:^|[.!?] )not (?:been )?(?:added|booked|placed|changed|cancell?ed|sent|made|done|applied|issued|accepted|saved|processed|moved|renewed|redeemed|refunded|reserved|approved|updated)[.!]|\bno (?:[a-z]+-[a-z-]+ )(?:[a-z]+ ){0,2}(?:left|remaining)\b|\b(?:paused|on hold|blocked|suspended|frozen)\b[^.;!?]{0,40}\buntil\b[^.;!?]{0,40}\b(?:paid|settled|cleared)\b|\b(?:you're|you are|you've|you have|it's|it is|that's|that is) (?:already )?(?:reached |hit |at |over |above )(?:the|your|its|our) (?:[\w-]+ ){0,2}(?:limit|maximum|cap|max|allowance)\b|\b(?:allows?|includes?|permits?) (?:up to |only |a maximum of )?\d+\b[^.!?]{0,80}\b(?:you(?:'ve| have)? already (?:have|had|used|booked|got|made)|you(?:'ve| have) used (?:all|both|up))\b|\bis the most (?:[a-z-]+ ){0,3}(?:can|may) (?:have|hold|take|get|borrow|book|place|reserve|renew|add|claim)\b|\b(?:blocks|prevents|rules out|stops) (?:the |any |further |all )?(?:renewals?|bookings?|changes?|transfers?|refunds?|holds?|cancell?ations?|extensions?|upgrades?|withdrawals?|payments?|redemptions?)\b|\b(?:has|have|must|needs? to|will have to) (?:to )?be (?:done|made|handled|arranged|renewed|processed|requested|booked|paid|collected|returned|submitted) (?:at|in|by|through|over|via) (?:a |the |one of our |any )?(?:desk|branch|counter|person|phone|store|shop|office|librarian|staff|reception|post)\b|\b(?:new )?(?:bookings?|renewals?|orders?|changes?|transfers?|withdrawals?|holds?|requests?|enrol?ments?|registrations?|reservations?|refills?|claims?|purchases?) (?:are|is) (?:on hold|paused|blocked|suspended|frozen) (?:because|while|as|since|due to|until)\b|\b(?:isn't|is not|wasn't|was not|that's not|that is not|aren't|are not) (?:a |an )?(?:valid|recogni[sz]ed)\b|\b(?:is|are|isn't|is not|aren't|are not|'s) no longer (?:possible|allowed|permitted|an option|open)\b|\b(?:isn't|is not|aren't|are not|can't be|cannot be|won't be) accepted\b|\bis (?:more|higher|greater|larger) than (?:your|the) (?:\w+ )?(?:balance|limit|maximum|amount (?:due|owed|outstanding)|allowance)\b|(?<!\b(?:if|unless|when|whether)\b[^.;!?]{0,40})\b(?:can't|cannot|can not|may not) (?:place|make|book|renew|reserve|hold|borrow|get|use|take|add|apply|receive|access|join|order|buy|redeem|exceed|have|claim|extend|upgrade|switch|transfer|enrol|enroll|register|rent|hire|collect)\b|\b(?:i|we) (?:have|had|need|must) (?:to )?(?:lock|block|suspend)\b|\b(?:is|are) (?:all |only )?(?:handled|dealt with|managed|processed) (?:by|through) (?:our|the|a) (?:[a-z-]+ ){0,3}(?:team|department|desk|office|colleagues)\b|(?:^|[.!?] )(?:sorry|apologies)[,!—–-]*\s*(?:but )?no (?!problem|worries|need|rush|trouble)[a-z]+|\b(?:isn't|is not|aren't|are not|wasn't|was not) (?:checked out|issued|registered|assigned|booked|lent|loaned) (?:to|for|under) (?:you|your)\b|\bno longer (?:active|valid|in use|open|live)\b|(?:^|[.!?] )please (?:visit|go to|call|contact|pop into|come (?:in)?to) (?:a|any|the|your|one of our) (?:local |nearest )?(?:branch|desk|counter|store|shop|office|reception)\b|\byou(?:'ll| will)? (?:need|have) to (?:visit|go to|call|contact|come (?:in)?to) (?:a|any|the|us|our|one of our)\b|\b(?:and|but) you (?:asked|requested) for\b/;
/** A sentence stating a rule as a condition: "If a loss costs less than …", "Unless you cancel by …". */
const CONDITION = /^(?:if|unless)\b/;
/** The cues of {@link REFUSE} that only state a limit ("… is the most we can pay", "no later than 11:00"). */
const LIMIT_STATEMENT =
  /(?<!\bso )\bthe (?:latest|earliest|most|maximum|highest|lowest|longest|furthest) (?:[a-z-]+ ){0,2}(?:i|we|it|they) can\b|\b(?:is|are|'s) the (?:maximum|limit|max)\b|\bno later than\b|\bat most (?:once|one|twice|\d+) (?:every|per|a|each)\b|\(?\bwe (?:don't|do not|never) [a-z]+ (?:on|at|after|before|during|over|in) [a-z]+s\)?/g;
const CAPABILITY =
  /\b(?:i|we) (?:can|could|am able to|are able to)\b|\bi'm able to\b|\b(?:i|we) (?:also )?(?:handle|look after|deal with|take care of)\b/;
/** "I can help you (with) X, Y or Z": a list of services after an offer of help. */
const HELP_LIST = /\b(?:i|we) can (?:help|assist)(?: you)?(?: with| to)?\s+([^?]+)$/;
const CLARIFY =
  /\bdid you mean\b|\b(?:could|can) you (?:please )?(?:clarify|rephrase|be more specific)\b|\bnot sure (?:what|which|i understand)\b|\bi (?:didn't|did not|don't|do not) (?:get|understand|catch|follow)\b|\bwhich one\b|\bdo you mean\b|\bi (?:couldn't|could not|can't|cannot|didn't|did not) (?:see|spot|pick out|read|recogni[sz]e|make out|work out) (?:a|an|any) [a-z' -]{2,40}?(?: (?:there|in that|in your (?:message|reply|answer))\b|[.!]|$)|\b(?:that|this|it) (?:doesn't|does not) (?:look|seem) like (?:a|an) (?:valid )?[a-z' -]{2,30}[.,;]/;
const CLOSE =
  /\bgood ?bye\b|\bbye\b|\bhave a (?:great|good|nice|wonderful) (?:day|trip|flight|evening)\b|\bsafe travels\b|\btake care\b/;
const GREET =
  /^(?:hello|hi|hey|welcome|greetings|good (?:morning|afternoon|evening))\b|\bhow (?:can|may) i (?:help|assist)\b|\bwhat can i do for you\b/;
const ASKING =
  /\?$|^(?:please|kindly)\b(?! (?:visit|go to|call|contact|pop into|come (?:in)?to|note|be aware|bear in mind|allow|keep|wait|hold)\b)|\b(?:could|can|would) you (?:please )?(?:give|tell|share|provide|send|enter|let me know)\b|\bi(?: will|'ll)? need (?:your|the|to know|a|an)\b|\bmay i (?:have|ask|get|know)\b|\bplease (?:give|tell|share|provide|send|enter|type|let me know|confirm)\b|^(?:just |simply |now )?(?:tell|give|send) me\b/;

/** Slots a question can ask for, by the noun phrase it names; first match wins. */
const SLOTS: readonly [string, RegExp][] = [
  ["user_id", /\buser ?(?:id|name)\b|\b(?:customer|account|member(?:ship)?) (?:id|number)\b/],
  [
    "reservation_id",
    /\breservation (?:id|code|number)\b|\bwhich reservation\b|\bbooking (?:reference|code|number|id)\b|\bconfirmation (?:number|code)\b/,
  ],
  ["reason", /\breason\b|\bwhy\b/],
  ["cabin", /\bcabin\b|\b(?:which|fare) class\b/],
  ["bags", /\bbags?\b|\bbaggage\b|\bluggage\b|\bsuitcases?\b/],
  [
    "route",
    /\broute\b|\borigin\b|\bdestination\b|\bwhere (?:to|from)\b|\b(?:travel|which|what) date\b|\bwhen (?:do|would|will) you\b/,
  ],
  ["flight", /\bwhich flight\b|\bflight number\b/],
  ["passengers", /\bpassengers?\b|\bhow many (?:people|travell?ers)\b/],
  ["payment_method", /\bpayment(?: method)?\b|\bpay with\b/],
  ["email", /\be-?mail\b/],
  ["amount", /\bhow much\b|\bamount\b/],
];

/**
 * The slot a sentence asks for, if it is a question or request for a value: a facts slot the sentence names
 * (slots.ts, the scorer the driver answers with), else a built-in slot noun, else "your <…> id/number/pin/…"
 * (words with digits or hyphens dropped: "your 4-digit PIN" → `pin`).
 */
function askedSlot(sentence: string, slots: readonly string[], loose = true): string | undefined {
  if (!ASKING.test(sentence)) return undefined;
  const named = slotNamedIn(sentence, slots, undefined, loose);
  if (named) return named;
  for (const [slot, pattern] of SLOTS) if (pattern.test(sentence)) return slot;
  const noun =
    /\byour ((?:[a-z0-9-]+ ){0,2}?(?:id|number|code|address|name|date|pin|password|passcode))\b/.exec(
      sentence,
    )?.[1];
  return noun
    ?.split(" ")
    .filter((w) => /^[a-z]+$/.test(w))
    .join("_");
}

/** Entity types in the order they name an informed topic. */
const TOPIC_TYPES = [
  "booking_code",
  "flight_number",
  "money",
  "date",
  "time",
  "airport",
  "email",
  "user_handle",
  "payment_id",
];
const TOPIC_WORDS: readonly [string, RegExp][] = [
  ["policy", /\bpolic(?:y|ies)\b|\brules?\b/],
  ["price", /\bprices?\b|\bfares?\b|\bcosts?\b|\bfees?\b|\brefunds?\b/],
  ["baggage", /\bbags?\b|\bbaggage\b|\bluggage\b/],
  ["insurance", /\binsurance\b/],
  ["membership", /\bmembership\b|\bmember\b/],
  ["schedule", /\bschedules?\b|\bdepart\w*\b|\barriv\w*\b/],
];

/** `inform_<topic>` from the entity-type signature of the masked reply, then topic keywords. */
function informLabel(text: string): string {
  const types = new Set(maskEntities(text).entities.map((e) => e.type));
  types.delete("number");
  if (types.has("booking_code") && types.size >= 3) return "inform_booking_details";
  if (types.has("flight_number") && types.has("money")) return "inform_flight_options";
  if (types.has("status")) return types.has("flight_number") ? "inform_flight_status" : "inform_status";
  const named = TOPIC_TYPES.filter((t) => types.has(t)).slice(0, 2);
  if (named.length > 0) return `inform_${named.join("_")}`;
  const t = norm(text);
  const topic = TOPIC_WORDS.find(([, pattern]) => pattern.test(t))?.[0];
  return topic ? `inform_${topic}` : "inform";
}

/**
 * What a refusal, error or not-found is about, by policy cue first (two guards on one slot — a limit and a
 * deadline — stay apart; topics.ts), then the facts slot or built-in slot noun it names: `already`,
 * `availability`, `balance`, `timing`, `limit`, `identity`, `eligibility`, `policy`, `pin`, `reservation_id`.
 * No entity types: they vary with the wording, and a label must stay the same across paraphrases.
 */
function topicOf(t: string, slots: readonly string[], values?: SlotValues): string | undefined {
  const policy = POLICY_TOPICS.find(([, re]) => re.test(t))?.[0];
  if (policy) return policy;
  return slotNamedIn(t, slots) ?? SLOTS.find(([, re]) => re.test(t))?.[0] ?? slotOfValue(t, values);
}

/** The pattern of each topic family's cue: its topic is read from the sentences the cue is in. */
const FAMILY_CUE: Readonly<Record<string, RegExp>> = { [CUE.refuse]: REFUSE, [CUE.error]: ERROR };

/**
 * A family cue with its topic (`refuse_limit`), or the bare cue when the reply names none. The topic is read
 * from the sentences that carry the cue (and the one after each: "I can't do that. Your balance is overdue."),
 * so a greeting before a refusal ("Great, that's you verified. I can't add a pass to a prepaid line.") does
 * not name it; from the whole reply when no single sentence carries the cue.
 */
const withTopic = (
  cue: string,
  t: string,
  parts: readonly string[],
  slots: readonly string[],
  values?: SlotValues,
) => {
  const re = FAMILY_CUE[cue];
  const at = re ? parts.flatMap((p, i) => (re.test(p) ? [i] : [])) : [];
  const scope = at.length
    ? [...new Set(at.flatMap((i) => [i, i + 1]))].map((i) => parts[i] ?? "").join(" ")
    : t;
  const topic = topicOf(scope, slots, values);
  return topic ? `${cue}_${topic}` : cue;
};

/**
 * What a reply that reports something done asks: the question its words name, else the slot whose form it
 * states ("I've sent a one-time code … Pop the 6 digits in here": the 6-digit code). Not the slot of a record it
 * names ("I've booked F12. Would you like to book another one?" asks for no seat).
 */
function askedAfterDone(raw: string, slots: readonly string[], values?: SlotValues): Question | undefined {
  const asked = readQuestion(raw, slots);
  if (asked || !values || !asksSomething(raw)) return asked;
  const slot = slotByFormat(raw, values);
  return slot ? { kind: "value", slot, options: [] } : undefined;
}

/** Cue rules in order: a gate listing details is a gate, a refusal that mentions cancelling is a refusal. */
const CUES: readonly [
  string,
  (t: string, parts: string[], raw: string, slots: readonly string[], values?: SlotValues) => boolean,
][] = [
  // "Zolpidem can't be refilled in chat — would you like me to connect you?", "We can't add a bed to a Standard
  // room. Would you like me to check a Family room instead?": the refusal is the outcome, not a gate.
  [CUE.refuse, (t) => REFUSE.test(t) && (HANDOFF_OFFER.test(t) || ALTERNATIVE_OFFER.test(t))],
  // A gate word unquoted must be in capitals ("reply CONFIRM"); not "That amount doesn't match. Please type 35.00.".
  [
    CUE.gate,
    (t, _, r) =>
      (GATE.test(t) && !safetyCheck(askingSentences(sentences(r)))) ||
      menuGate(r) !== undefined ||
      (gateWord(r) !== undefined && !(echoFigure(r) && REFUSE.test(t))),
  ],
  // "Done: one of our team will call you …", "All arranged.": a completion said first is the outcome.
  // Not "Code accepted. What's the registration of the vehicle?": a step passed, then a question for a value.
  [
    CUE.done,
    (_, parts, raw, slots, values) =>
      DONE_FIRST.test(parts[0] ?? "") && askedAfterDone(raw, slots, values)?.slot === undefined,
  ],
  [CUE.transfer, (t) => TRANSFER.test(t)],
  [CUE.abort, (t) => ABORT.test(t)],
  [CUE.error, (t) => ERROR.test(t)],
  [CUE.notFound, (t) => NOT_FOUND.test(t)],
  // "How much would you like to claim? The declared value is €120.00, which is the most we can pay.": a limit
  // stated beside the question for the value is the question, not a refusal.
  [
    CUE.refuse,
    (_, parts, raw, slots) => {
      // A rule stated as a condition ("If a loss costs less than your deductible, there's nothing for us to
      // pay.") informs; it refuses nothing asked.
      const t = parts.filter((p) => !CONDITION.test(p)).join(" ");
      return (
        REFUSE.test(t) &&
        (REFUSE.test(t.replace(LIMIT_STATEMENT, " ")) || readQuestion(raw, slots)?.kind !== "value")
      );
    },
  ],
  // "Sorry, AQ17 has been cancelled. Which other class would you like?": a reason against, then a question for a
  // replacement, refuses what was given (not "… cancelled, no fee. Would you like to book another one?").
  [
    CUE.refuse,
    (_, parts) => {
      const question = parts.filter((p) => p.endsWith("?")).at(-1);
      if (!question || !REPLACEMENT.test(question) || CLOSING_OFFER.test(question)) return false;
      // The reason comes first: "What date instead? Choose a day … (no Sundays)." asks, it refuses nothing.
      const statements = parts
        .slice(0, parts.lastIndexOf(question))
        .filter((p) => !p.endsWith("?") && !CLARIFY.test(p));
      if (!statements.some((p) => CONTRARY.test(p))) return false;
      return STRONG_REPLACEMENT.test(question) || !statements.some((p) => DONE.test(p));
    },
  ],
  // Not "You're enrolled in: 1. CS201 … Which course do you want to withdraw from?": a state, then a question.
  [
    CUE.done,
    // Nor "I've sent a code to the mobile ending 4471. Please type it here.": a request for what was sent.
    (_, parts, raw, slots, values) =>
      parts.some((s) => DONE.test(s)) &&
      askedAfterDone(raw, slots, values)?.kind !== "value" &&
      !GIVE_IT.test(raw),
  ],
  [
    CUE.capabilities,
    (t, parts) =>
      /\bhere(?:'s| is) what (?:i|we) can\b/.test(t) ||
      parts.some(
        (s) =>
          !s.endsWith("?") &&
          ((CAPABILITY.test(s) && (s.match(/,/g) ?? []).length >= 2) || helpList(s).length >= 2),
      ),
  ],
];

/** The services of an "I can help you (with) X, Y or Z" sentence (one comma is enough); empty when none. */
function helpList(sentence: string): string[] {
  const list = HELP_LIST.exec(sentence)?.[1]?.replace(/[.!]+$/, "");
  if (!list) return [];
  const items = list.split(/\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+/).map((i) => i.trim());
  return items.every((i) => i.length > 0 && i.split(" ").length <= 8) ? items : [];
}

const LATE_CUES: readonly [string, RegExp][] = [
  [CUE.clarify, CLARIFY],
  [CUE.close, CLOSE],
];

const SAYS: Record<string, string> = {
  [CUE.gate]: "asks for a yes/no confirmation before acting",
  [CUE.safety]: "asks a yes/no safety question (is anyone hurt, is it dangerous)",
  [CUE.done]: "reports the action as done",
  [CUE.refuse]: "refuses the request",
  [CUE.abort]: "acknowledges that nothing will be done",
  [CUE.notFound]: "reports that what was asked for was not found",
  [CUE.transfer]: "transfers the user to a human agent",
  [CUE.capabilities]: "lists what it can do",
  [CUE.clarify]: "asks the user to clarify",
  [CUE.close]: "closes the conversation",
  [CUE.error]: "reports an error",
  greet: "greets the user",
  open_question: "asks an open question",
  no_reply: "gives no reply",
};

/**
 * Label an agent reply with its activity (AgentEval §IV-A): the first cue rule that applies —
 * `request_confirmation`, `transfer_to_human`, `acknowledge_abort`, `report_error`, `report_not_found`,
 * `refuse`, `confirm_completion`, `offer_capabilities` — then `ask_<slot>` (a sentence asking for a value;
 * the slot a facts slot name the sentence names, else a built-in slot noun), `clarify`, `close_conversation`,
 * then information followed only by a closing offer ("… is €2,450.00. Anything else?") as the information,
 * a closing offer alone ("Is there anything else I can help you with?") as `close_conversation`,
 * `greet` (when it informs of nothing), `open_question` (any other question: what the user wants); otherwise
 * `inform_<topic>` from the masked text's entity types (`inform_flight_status`, `inform_booking_details`,
 * `inform_flight_options`, `inform_<type>[_<type>]`) or topic words (`inform_policy`…), else `inform`. An
 * empty reply is `no_reply`. Pure function of `text` and `facts` (whose slot names only name slots); never
 * throws.
 *
 * @returns the activity label (snake_case) and a one-sentence summary.
 */
export function labelReply(text: string, facts?: Facts): { activity: string; summary: string } {
  const t = norm(text);
  const activity = replyActivity(t, text, factSlotNames(facts), facts);
  const cue = cueOf(activity);
  const topic = cue === activity ? "" : ` (${activity.slice(cue.length + 1).replace(/_/g, " ")})`;
  const says =
    SAYS[activity] ??
    (SAYS[cue] ? `${SAYS[cue]}${topic}` : undefined) ??
    (activity.startsWith("ask_")
      ? `asks for the ${activity.slice(4).replace(/_/g, " ")}`
      : `informs about ${activity.replace(/^inform_?/, "").replace(/_/g, " ") || "something"}`);
  return { activity, summary: `The agent ${says}.` };
}

/** The facts slot some of whose values are among `options` (a menu of plans → `plan`), if any. */
function slotOfOptions(options: readonly string[], facts: Facts): string | undefined {
  const listed = new Set(options.map((o) => norm(o)));
  for (const persona of facts.personas)
    for (const [slot, values] of Object.entries(persona))
      if (values.some((v) => listed.has(norm(v)))) return slot;
  return undefined;
}

function replyActivity(t: string, text: string, slots: readonly string[], facts?: Facts): string {
  if (t.length === 0) return "no_reply";
  // Sentences as written (a line break ends one too: "- Guest passes left: 0\nCan I help …?"), normalised.
  const raw = sentences(text);
  const parts = raw.map(norm);
  const values = facts && knownValues(facts);
  for (const [activity, applies] of CUES)
    if (applies(t, parts, text, slots, values))
      return TOPIC_FAMILIES.includes(activity) ? withTopic(activity, t, parts, slots, values) : activity;
  // A slot named only by its qualifier after any sentence naming one in full (as the driver reads it).
  for (const loose of [false, true])
    for (const s of parts) {
      const slot = (ASKING.test(s) ? slotOfChoice(s, values) : undefined) ?? askedSlot(s, slots, loose);
      if (slot) return `ask_${slot}`;
    }
  const listed = readQuestion(text, slots, values);
  if (listed?.kind === "screen") return CUE.safety;
  if (listed?.slot && listed.kind !== "gate") return `ask_${listed.slot}`;
  if (listed?.kind === "value" && listed.options.length) {
    const slot = facts && slotOfOptions(listed.options, facts);
    // "Hmm, I didn't catch that. Here are the charges: 1. … Which one?": a list of no known slot, re-offered
    // because the answer was not understood, is the clarification.
    if (!slot && CLARIFY.test(t)) return CUE.clarify;
    return `ask_${slot ?? "choice"}`;
  }
  // A security question in its own words ("What was the make of your first car?"): the slot holding its answer.
  const secret = securitySlot(text, slots);
  if (secret) return `ask_${secret}`;
  for (const [activity, pattern] of LATE_CUES) if (pattern.test(t)) return activity;
  // Sentences of the original text (same split as `parts`), without closing offers.
  const body = raw
    .map((r) =>
      r
        .replace(/[\u2018\u2019]/g, "'")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((_, i) => !(CLOSING_OFFER.test(parts[i] ?? "") && parts[i]?.endsWith("?")));
  // Statements only (a closing offer aside): information, whatever it names ("Put simply, the deductible is
  // the part you cover. Can I help with anything else?").
  if (body.length > 0 && !body.some((s) => s.endsWith("?"))) return informLabel(body.join(" "));
  if (body.length === 0) return CUE.close;
  if (GREET.test(t)) return "greet";
  if (parts.some((p) => p.endsWith("?"))) return "open_question";
  return informLabel(text);
}

/**
 * The `rules` labeller (AgentEval §IV-A, {@link Labeller}): each reply through {@link labelReply}, each user
 * turn through {@link labelUserTurn} with the previous reply's activity, and a one-sentence summary per turn.
 * `known` is ignored: rules labels are a pure function of the text, so they are stable across traces anyway.
 */
export const rulesLabeller: Labeller = {
  async label(trace: { id: string; turns: readonly Turn[] }, facts: Facts): Promise<AbstractTurn[]> {
    let previous: string | undefined;
    return trace.turns.map((turn) => {
      const user = labelUserTurn(turn.user, facts, previous);
      const reply = labelReply(turn.reply, facts);
      previous = reply.activity;
      const agent = reply.summary.replace(/^The agent/, "the agent");
      return {
        userAction: user.userAction,
        activity: reply.activity,
        provided: user.provided,
        summary: `${userSays(user.userAction, user.provided)}; ${agent}`,
      };
    });
  },
};
