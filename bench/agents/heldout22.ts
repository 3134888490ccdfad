/**
 * heldout22: the Civil Identity Office online assistant, a rule-based, formally worded support bot for passport and
 * identity-card applications and appointments. Public answers (fees, processing times, photograph rules, office
 * hours, fast-track and lost-passport guidance, document checklists by applicant type) need no sign-in. Everything
 * tied to an applicant's records sits behind a multi-step sign-in (applicant number, date of birth and postcode,
 * then a personal security question) that locks the session after three failed attempts: application status by
 * reference, viewing appointments, booking an in-person appointment (numbered offices, lettered dates, named times,
 * a yes/no read-back that accepts corrections), rescheduling (at most twice, never within two days of the
 * appointment), cancelling (typed CANCEL APPOINTMENT phrase), fast-track upgrades (passports only, travel within 21
 * days, quoted fee, re-verification of the security answer before charging), lost or stolen passport reports (a
 * typed I DECLARE declaration), paying outstanding fees (lettered list, a £250 cap per transaction,
 * re-verification and a yes/no confirmation) and changing an application's delivery address (refused once the
 * passport has been printed; read-back with corrections). Records of other applicants are refused, unknown
 * references are reported as not found, "stop" or "never mind" abandons any flow, and a member of staff can be
 * requested at any point. Every reply exists in at least three wordings picked by the seed.
 */
import type { ChatReply } from "../../src/agents/chat/target.ts";
import {
  type Application,
  type Appointment,
  type AppStatus,
  type AppType,
  addDays,
  addWorkingDays,
  type Customer,
  datesFor,
  daysBetween,
  FACTS,
  type Fee,
  LIMITS,
  OFFICES,
  type OfficeId,
  officeById,
  PRICES,
  seedWorld,
  slotsFor,
  TODAY,
  type World,
  weekday,
} from "./heldout22-data.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/** The seeded faults, each switchable on its own. */
export const FAULTS = [
  "status_no_auth",
  "no_lockout",
  "status_other_customer",
  "cancel_other_customer",
  "reschedule_limit_ignored",
  "fasttrack_window_ignored",
  "cancel_skip_phrase",
  "payment_skip_reverify",
  "payment_cap_ignored",
  "address_after_print",
  "lost_skip_declaration",
  "book_full_slot_accepted",
  "status_wrong_date",
  "status_wrong_name",
  "book_forget_correction",
  "reschedule_wrong_day",
  "fasttrack_child_fee",
  "pay_wrong_amount",
  "address_saved_wrong",
  "lost_wrong_kind",
] as const;

/** One of the seeded faults. */
export type Fault = (typeof FAULTS)[number];

/** The designed dialogue states. */
export const STATES = [
  "menu.greeting",
  "menu.help",
  "fallback.unknown",
  "fallback.repeated",
  "general.thanks",
  "general.goodbye",
  "flow.aborted",
  "flow.nothing_to_abort",
  "handoff.confirm",
  "handoff.done",
  "handoff.declined",
  "auth.required",
  "auth.ask_reference",
  "auth.invalid_reference",
  "auth.ask_dob",
  "auth.invalid_dob",
  "auth.ask_postcode",
  "auth.mismatch",
  "auth.ask_security",
  "auth.security_wrong",
  "auth.locked",
  "auth.success",
  "auth.already_signed_in",
  "auth.signed_out",
  "verify.ask_security",
  "verify.failed",
  "lookup.not_found",
  "lookup.not_yours",
  "info.topics",
  "info.fees",
  "info.processing_times",
  "info.photo_rules",
  "info.office_hours",
  "info.fast_track",
  "info.lost_stolen",
  "checklist.ask_type",
  "checklist.adult_first",
  "checklist.child",
  "checklist.renewal",
  "checklist.id_card",
  "status.ask_reference",
  "status.show",
  "status.list_all",
  "appointments.list",
  "appointments.none",
  "book.ask_application",
  "book.no_eligible",
  "book.refused_status",
  "book.choose_office",
  "book.choose_date",
  "book.choose_time",
  "book.slot_full",
  "book.confirm",
  "book.corrected",
  "book.ask_change",
  "book.done",
  "reschedule.ask_appointment",
  "reschedule.refused_limit",
  "reschedule.refused_too_late",
  "reschedule.refused_attended",
  "reschedule.choose_date",
  "reschedule.choose_time",
  "reschedule.confirm",
  "reschedule.done",
  "reschedule.kept",
  "cancel.ask_appointment",
  "cancel.refused_attended",
  "cancel.confirm_phrase",
  "cancel.phrase_mismatch",
  "cancel.done",
  "cancel.kept",
  "fasttrack.ask_application",
  "fasttrack.refused_id_card",
  "fasttrack.refused_status",
  "fasttrack.ask_travel_date",
  "fasttrack.invalid_date",
  "fasttrack.refused_window",
  "fasttrack.quote",
  "fasttrack.done",
  "fasttrack.declined",
  "lost.ask_passport",
  "lost.already_reported",
  "lost.ask_kind",
  "lost.ask_police_ref",
  "lost.ask_date",
  "lost.invalid_date",
  "lost.declaration",
  "lost.declaration_mismatch",
  "lost.done",
  "lost.withdrawn",
  "pay.list",
  "pay.none_outstanding",
  "pay.refused_cap",
  "pay.invalid_choice",
  "pay.confirm",
  "pay.done",
  "pay.declined",
  "address.ask_application",
  "address.refused_printed",
  "address.ask_line",
  "address.ask_postcode",
  "address.invalid_postcode",
  "address.confirm",
  "address.corrected",
  "address.done",
  "address.kept",
] as const;

/** One designed dialogue state. */
export type State = (typeof STATES)[number];

// ---------------------------------------------------------------------------------------------------------------
// Wording

const w = (...parts: string[]): string => parts.join(" ");

/** Every reply fragment in at least three wordings; `{slot}` marks a value. */
const P: Record<string, readonly string[]> = {
  greet: [
    w(
      "Good day, and welcome to the Civil Identity Office online assistant. I can help with passport and identity",
      "card matters, including: checking the status of an application; booking, rescheduling or cancelling an",
      "in-person appointment; the fast-track service; reporting a lost or stolen passport; paying an outstanding",
      "fee; updating the delivery address on an application; and document checklists. General information on fees,",
      "processing times, photograph requirements and office opening hours is also available. How may I assist you?",
    ),
    w(
      "Welcome to the Civil Identity Office. This automated service can assist you with:\n• application status",
      "enquiries\n• booking, rescheduling or cancelling an appointment\n• fast-track processing\n• declaring a",
      "passport lost or stolen\n• payment of outstanding fees\n•",
      "changing the delivery address on an application\n•",
      "supporting document checklists\nGuidance on fees, processing times, photographs and opening hours is also",
      "available without signing in. Please tell me what you need.",
    ),
    w(
      "Hello. You are speaking with the Civil Identity Office virtual assistant. Please state the nature of your",
      "enquiry. For example, I can tell you where your application has got to, arrange, move or cancel an",
      "appointment, upgrade an eligible passport application to fast-track, record a lost or stolen passport, take",
      "payment of a fee you owe, amend the delivery address on an application, or list the documents you will need.",
      "Information on fees, processing times, photo rules and office hours does not require you to sign in.",
    ),
  ],
  help: [
    w(
      "I can assist with the following services: application status; appointments (book, reschedule, cancel or",
      "view); fast-track upgrades; lost or stolen passport reports; outstanding fees and payment; delivery address",
      "changes; document checklists (adult, child, renewal, identity card). I can also answer general questions on",
      "fees, processing times, photographs and office hours, or transfer you to a member of staff.",
    ),
    w(
      "Here is what this service covers:\n1. Checking an application's progress\n2. In-person appointments:",
      "booking, moving, cancelling\n3. Fast-track processing for imminent travel\n4. Reporting a lost or stolen",
      "passport\n5. Paying a fee that is due\n6. Updating a delivery address\n7. Document checklists\nGeneral",
      "information (fees, timescales, photo rules, opening hours) is available too. What would you like to do?",
    ),
    w(
      "You may ask me about the status of an application, your appointments (new bookings, changes and",
      "cancellations), the fast-track service, lost or stolen passports, fees owed on your account, or the",
      "delivery address held for an application. I can also explain which documents are required, and provide",
      "public information on fees, processing times, photographs and opening hours. Please describe your enquiry.",
    ),
  ],
  anything_else: [
    "Is there anything else I can help you with today?",
    "May I assist you with anything further?",
    "Is there any other matter I can help with?",
  ],
  how_help: [
    "How may I assist you today?",
    "What can I help you with?",
    "Please tell me what you would like to do.",
  ],
  not_understood: [
    "I'm sorry, I did not understand that response.",
    "Apologies, I was unable to interpret your reply.",
    "I'm afraid that response was not recognised.",
  ],
  fallback: [
    w(
      "I'm sorry, I did not understand your enquiry. You can ask me about application status, appointments,",
      "fast-track, lost or stolen passports, fees, address changes or document checklists.",
    ),
    w(
      "Apologies, I was unable to identify your request. Please rephrase it, for example 'check my application",
      "status' or 'book an appointment'.",
    ),
    w(
      "I'm afraid I don't recognise that request. Type 'help' to see the services available through this",
      "assistant.",
    ),
  ],
  fallback_repeated: [
    w(
      "I'm sorry, I still have not been able to understand your enquiry. You may type 'help' for a list of",
      "services, or ask to speak to a member of staff.",
    ),
    w(
      "Unfortunately I have not recognised your last few messages. If your query is not covered by this service,",
      "I can transfer you to an adviser. Alternatively, type 'menu' to see what I can do.",
    ),
    w(
      "It appears I am unable to assist with this request as worded. Please try one of the listed services",
      "(type 'help'), or say 'speak to an adviser' to be connected with a member of staff.",
    ),
  ],
  thanks: [
    "You're welcome. Is there anything else I can assist you with?",
    "Thank you for contacting the Civil Identity Office. Do you need help with anything else?",
    "It is my pleasure. Please let me know if there is anything further.",
  ],
  goodbye: [
    "Thank you for using the Civil Identity Office online assistant. Goodbye.",
    "This conversation is now ended. Thank you for contacting the Civil Identity Office.",
    "Thank you, and goodbye. Should you need further assistance, this service is available at any time.",
  ],
  aborted: [
    "Understood. That request has been cancelled and no changes have been made. How else may I assist you?",
    "Very well, I have stopped that process. Nothing has been changed on your records. What would you like to do?",
    "No problem. The request has been abandoned and your records remain unchanged. Is there anything else?",
  ],
  nothing_to_abort: [
    "There is no request in progress to cancel. How may I assist you?",
    "Nothing is currently in progress. Please tell me what you would like to do.",
    "There is no active process to stop. What can I help you with?",
  ],
  handoff_confirm: [
    w(
      "I can transfer you to a member of staff. Please note the current waiting time is approximately 25",
      "minutes. Would you like me to place you in the queue? (yes/no)",
    ),
    w(
      "Would you like to be connected with an adviser? The estimated wait is around 25 minutes at present.",
      "Please reply yes or no.",
    ),
    w(
      "A member of our staff can take over this conversation; the expected wait is about 25 minutes. Shall I",
      "transfer you now? (yes/no)",
    ),
  ],
  handoff_done: [
    w(
      "Thank you. You have been placed in the queue for the next available adviser. Your enquiry reference is",
      "{ticket}. Please keep this window open.",
    ),
    "Your request has been passed to a member of staff (reference {ticket}). An adviser will join shortly.",
    w(
      "I have transferred your enquiry to our advisers under reference {ticket}. Please remain in the chat;",
      "you will be connected as soon as someone is available.",
    ),
  ],
  handoff_declined: [
    "Very well, I will not transfer you. How else may I assist?",
    "Understood, you remain with the online assistant. What would you like to do?",
    "No problem. Please let me know how I can help.",
  ],
  auth_required: [
    w(
      "This service requires you to sign in so that I can access your records. To begin, please enter your",
      "applicant number (for example NP-123456). It is shown on your application confirmation letter.",
    ),
    w(
      "For data protection reasons I must first verify your identity. Please provide your applicant number,",
      "which begins with NP and appears on your confirmation email or letter.",
    ),
    w(
      "Before I can help with that, you will need to sign in. What is your applicant number? It has the format",
      "NP-123456.",
    ),
  ],
  auth_ask_reference: [
    "Please enter your applicant number (format NP-123456).",
    "To sign in, please provide your applicant number. It begins with NP and is followed by six digits.",
    "Certainly. What is your applicant number? You will find it on your confirmation letter.",
  ],
  auth_invalid_reference: [
    "That does not appear to be a valid applicant number. It should be in the format NP-123456. Please try again.",
    "I'm sorry, applicant numbers consist of the letters NP followed by six digits. Please re-enter it.",
    "The applicant number was not recognised as valid. Please check it (NP and six digits) and enter it again.",
  ],
  auth_ask_dob: [
    "Thank you. Please enter your date of birth (DD/MM/YYYY).",
    "Next, what is your date of birth? Please use the format DD/MM/YYYY.",
    "Please confirm your date of birth, for example 01/02/1980.",
  ],
  auth_invalid_dob: [
    "That date of birth could not be read. Please enter it in the format DD/MM/YYYY.",
    "I'm sorry, I could not recognise a valid date of birth. Please use DD/MM/YYYY, for example 05/09/1975.",
    "Please provide your date of birth as a full date including the year (DD/MM/YYYY).",
  ],
  auth_ask_postcode: [
    "Thank you. What is the postcode of your home address?",
    "Please enter the postcode registered on your account.",
    "And finally, please provide your postcode.",
  ],
  auth_bad_postcode: [
    "That does not look like a valid UK postcode.",
    "I could not recognise a postcode in your reply.",
    "The postcode entered is not in a recognised format.",
  ],
  auth_mismatch: [
    w(
      "I'm sorry, the details provided do not match our records. Please note that repeated failed attempts",
      "will temporarily lock this service. Please enter your applicant number again.",
    ),
    w(
      "We were unable to verify your identity with the information given. Please start again with your",
      "applicant number. For security reasons, access will be suspended after several unsuccessful attempts.",
    ),
    w(
      "The combination of applicant number, date of birth and postcode does not match our records. Please",
      "re-enter your applicant number to try again.",
    ),
  ],
  auth_ask_security: [
    "Thank you. For security, please answer the following question: {question}",
    "Your details have been located. To complete sign-in, please answer your security question: {question}",
    "One final check. Security question: {question}",
  ],
  auth_security_wrong: [
    "I'm sorry, that answer is incorrect. Please try again: {question}",
    "The answer given does not match our records. Please answer the security question again: {question}",
    "That is not the answer we hold. Repeated failures will lock this service. {question}",
  ],
  auth_locked: [
    w(
      "For your security, online access has been locked following repeated unsuccessful sign-in attempts.",
      "Please contact the Civil Identity Office helpline on 0300 555 0144, or ask to speak to a member of staff.",
    ),
    w(
      "Too many failed verification attempts have been made. Sign-in through this assistant is now suspended.",
      "To regain access, please call 0300 555 0144 or request an adviser.",
    ),
    w(
      "This service has been locked because the identity checks failed several times. I am unable to accept",
      "further sign-in attempts. You may telephone 0300 555 0144 or speak to a member of staff.",
    ),
  ],
  auth_locked_refuse: [
    w(
      "I'm sorry, sign-in is locked for this session following repeated failed attempts, so I cannot access any",
      "records. Please telephone 0300 555 0144 or ask to speak to a member of staff.",
    ),
    w(
      "Access to account services remains suspended after the failed verification attempts. Public information",
      "is still available, or you may request an adviser.",
    ),
    w(
      "Account services are unavailable because sign-in has been locked. I can still answer general questions,",
      "or transfer you to a member of staff.",
    ),
  ],
  auth_success: [
    "Thank you, {name}. Your identity has been verified.",
    "Verification complete. Welcome, {name}.",
    "You are now signed in, {name}.",
  ],
  auth_already: [
    "You are already signed in as {name}. How may I assist you?",
    "There is no need to sign in again, {name}; your session is already verified. What would you like to do?",
    "You are currently signed in ({name}). Please tell me what you need.",
  ],
  auth_signed_out: [
    "You have been signed out. Thank you for using the Civil Identity Office online assistant.",
    "Your session has ended and you are now signed out.",
    "Sign-out complete. Your records are no longer accessible in this conversation.",
  ],
  auth_not_signed_in: [
    "You are not currently signed in, so there is nothing to sign out of.",
    "No applicant is signed in at present.",
    "You are not signed in to this service.",
  ],
  verify_ask: [
    "Before I proceed, I need to re-verify your identity. Please answer your security question: {question}",
    "As this is a payment, please confirm your identity once more. Security question: {question}",
    "For your protection, additional verification is required. {question}",
  ],
  verify_failed: [
    "I'm sorry, that answer does not match our records. For your security the transaction has not been made.",
    "Re-verification was unsuccessful, so I am unable to proceed. No payment has been taken.",
    "The security answer was incorrect. The request has been cancelled and nothing has been charged.",
  ],
  not_found_app: [
    "I'm sorry, I cannot find an application with the reference {ref}. Please check the reference and try again.",
    "No application matching {ref} exists in our records. Please re-enter the application reference.",
    "The reference {ref} was not recognised. Please check it against your confirmation letter and try again.",
  ],
  not_found_apt: [
    "I cannot find an active appointment with the reference {ref}. Please check it and try again.",
    "No current appointment matches {ref}. Please re-enter the appointment reference.",
    "The appointment reference {ref} was not recognised. Please check and enter it again.",
  ],
  not_found_fee: [
    "There is no fee with the reference {ref} on record. Please check it and try again.",
    "I could not locate the fee {ref}. Please re-enter the fee reference or choose from the list.",
    "The fee reference {ref} was not recognised. Please try again.",
  ],
  not_found_passport: [
    "I cannot find a passport with the number {ref}. Please check the nine-digit number and try again.",
    "No passport numbered {ref} is held on our records. Please re-enter the passport number.",
    "The passport number {ref} was not recognised. Please check it and enter it again.",
  ],
  not_yours: [
    w(
      "I'm sorry, the record {ref} is not linked to your account. For data protection reasons I am unable to",
      "disclose or act on it.",
    ),
    "The reference {ref} does not belong to the applicant signed in, so I cannot access it.",
    w(
      "For data protection reasons I can only deal with records held under your own account, and {ref} is not",
      "one of them.",
    ),
  ],
  info_topics: [
    w(
      "I can provide general information on the following topics: fees; processing times; photograph",
      "requirements; office locations and opening hours; the fast-track service; lost or stolen passports; and",
      "document checklists. Which would you like?",
    ),
    w(
      "Public information available:\n• Fees\n• Processing times\n• Photo rules\n• Office hours and",
      "addresses\n• Fast-track service\n• Lost or stolen passports\n• Required documents\nPlease choose a topic.",
    ),
    w(
      "Which topic are you interested in? I can explain fees, processing times, photograph rules, office opening",
      "hours, fast-track eligibility, what to do about a lost or stolen passport, or the documents required.",
    ),
  ],
  info_fees: [
    w(
      "Current fees: adult passport (first application or renewal) £88.50; child passport (under 16) £57.50;",
      "identity card £42.00. The fast-track supplement is £95.00 for an adult passport and £65.00 for a child",
      "passport. Replacements for lost or stolen passports are charged at the standard rate.",
    ),
    w(
      "The fees are as follows:\n• Adult passport: £88.50\n•",
      "Child passport: £57.50\n• Identity card: £42.00\n•",
      "Fast-track supplement: £95.00 (adult) or £65.00 (child)\nA replacement for a lost or stolen passport costs",
      "the same as a standard application.",
    ),
    w(
      "An adult passport costs £88.50 and a child passport £57.50, whether new or a renewal. An identity card is",
      "£42.00. If you need fast-track processing, an additional £95.00 (adult) or £65.00 (child) is payable.",
    ),
  ],
  info_processing: [
    w(
      "Typical processing times: adult renewals about 3 weeks; first adult passports about 10 weeks (an",
      "in-person appointment is required); child passports about 4 weeks; identity cards about 6 weeks. Fast-track",
      "applications are completed within 5 working days. Times are counted from receipt of a complete application.",
    ),
    w(
      "Please allow: 3 weeks for an adult renewal, 10 weeks for a first adult passport, 4 weeks for a child",
      "passport and 6 weeks for an identity card. The fast-track service aims to complete within 5 working days.",
    ),
    w(
      "Standard processing currently takes around 3 weeks for renewals, 4 weeks for children's passports, 6",
      "weeks for identity cards and 10 weeks for first-time adult applications. Fast-track: 5 working days.",
    ),
  ],
  info_photo: [
    w(
      "Photographs must be 45mm high by 35mm wide, taken within the last month, against a plain cream or light",
      "grey background. You must face forward with a neutral expression, eyes open and mouth closed, with no",
      "glasses and nothing covering your face. Head coverings are permitted only for religious or medical reasons.",
    ),
    w(
      "Photo requirements: 45mm x 35mm; plain light grey or cream background; taken in the last month; neutral",
      "expression; no glasses; no shadows or reflections; head coverings for religious or medical reasons only.",
      "Digital photos must be at least 600 x 750 pixels.",
    ),
    w(
      "Your photo should be recent (within one month), sized 45mm by 35mm, taken against a plain light background,",
      "showing your full face looking straight at the camera, without glasses or a smile. Digital photos need a",
      "resolution of at least 600 by 750 pixels.",
    ),
  ],
  info_hours: [
    w(
      "Our counters are open Monday to Friday, 08:30 to 17:00; London Victoria also opens on Saturdays, 09:00 to",
      "13:00. All visits are by appointment only. Offices:\n{offices}",
    ),
    w(
      "Opening hours: weekdays 08:30–17:00 at all offices, plus",
      "Saturday 09:00–13:00 in London. Offices:\n{offices}",
    ),
    w(
      "Appointments are available Monday to Friday between 08:30 and 17:00 (London Victoria also Saturday",
      "mornings). We are closed on public holidays. Our offices are:\n{offices}",
    ),
  ],
  info_fasttrack: [
    w(
      "The fast-track service is available for passport applications (not identity cards) where the applicant",
      "is due to travel within 21 days. It cannot be added once a passport has been printed. The supplement is",
      "£95.00 for adults and £65.00 for children. Sign in and ask to fast-track your application to apply.",
    ),
    w(
      "Fast-track: passport applications only; travel must be within the next 21 days; not available after",
      "printing. Fee £95.00 (adult) or £65.00 (child). Applications are then completed within 5 working days.",
    ),
    w(
      "If you are travelling within 21 days, an eligible passport application can be upgraded to fast-track for",
      "£95.00 (adult) or £65.00 (child), with completion in 5 working days. Identity cards are not eligible.",
    ),
  ],
  info_lost: [
    w(
      "If your passport is lost or stolen, you should report it as soon as possible. Once reported, it is",
      "permanently cancelled and cannot be used, even if found. If stolen, please obtain a crime reference number",
      "from the police first. You can make the report through this assistant after signing in.",
    ),
    w(
      "A lost or stolen passport must be reported promptly. The report cancels the passport permanently. For",
      "thefts, please have your police crime reference number ready. Sign in and say 'report my passport lost' to",
      "begin.",
    ),
    w(
      "Please report a missing passport straight away. Reporting it cancels it for good, so it cannot be used",
      "again if recovered. Stolen passports should also be reported to the police. I can take the report once you",
      "have signed in.",
    ),
  ],
  checklist_ask: [
    w(
      "Which type of application do you need the checklist for?\nA) Adult passport – first application\nB)",
      "Child passport (under 16)\nC) Adult passport renewal\nD) Identity card",
    ),
    w(
      "Please select the applicant type:\nA) First adult passport\nB) Child passport\nC) Renewal of an adult",
      "passport\nD) Identity card",
    ),
    w(
      "Certainly. Is the application for:\nA) an adult applying for the first time\nB) a child under 16\nC) an",
      "adult renewing a passport\nD) an identity card",
    ),
  ],
  checklist_adult_first: [
    w(
      "Documents required for a first adult passport: the completed application form; two identical photographs",
      "(or a digital photo code); your original full birth certificate or naturalisation certificate; proof of",
      "address dated within the last three months; details of a countersignatory; and the fee of £88.50.",
    ),
    w(
      "For a first adult passport please provide:\n• Application form\n• Two photos or a digital photo",
      "code\n• Original birth or naturalisation certificate\n• Proof of address (last 3 months)\n•",
      "Countersignatory details\n• Fee: £88.50\nAn identity interview appointment is also required.",
    ),
    w(
      "First-time adult applicants will need the application form, passport photographs, an original birth",
      "certificate (or naturalisation certificate), a recent proof of address, a countersignatory and the £88.50",
      "fee. You will be asked to attend an in-person appointment.",
    ),
  ],
  checklist_child: [
    w(
      "Documents required for a child passport: the completed form signed by a person with parental",
      "responsibility; the child's full birth certificate showing parents' details; a parent's passport or",
      "identity card; two photographs; and the fee of £57.50. Children aged 12 or over must attend the appointment.",
    ),
    w(
      "For a child passport please provide:\n• Application form signed by a parent or guardian\n• The child's full",
      "birth certificate\n• Proof of the parent's identity\n•",
      "Two photos\n• Fee: £57.50\nConsent from all holders",
      "of parental responsibility may be requested.",
    ),
    w(
      "A child passport application needs the child's full birth certificate, identification for the parent",
      "signing the form, two recent photographs and the £57.50 fee. Where parents are separated, evidence of",
      "parental responsibility may be required.",
    ),
  ],
  checklist_renewal: [
    w(
      "Documents required for an adult renewal: your current or most recent passport; one new photograph (or a",
      "digital photo code); the completed renewal form; and the fee of £88.50. If your name has changed, include",
      "the marriage certificate or deed poll.",
    ),
    w(
      "To renew an adult passport you need:\n• Your existing passport\n• A new photo\n• The renewal form\n•",
      "Fee: £88.50\n• Evidence of any change of name",
    ),
    w(
      "For a renewal, please send your old passport, a recent photo, the renewal form and the £88.50 fee, plus",
      "any certificate supporting a change of name.",
    ),
  ],
  checklist_id_card: [
    w(
      "Documents required for an identity card: proof of identity (passport or full birth certificate); proof of",
      "address dated within three months; one photograph; and the fee of £42.00. Fingerprints are taken at the",
      "in-person appointment.",
    ),
    w(
      "For an identity card please provide:\n• Proof of identity\n• Proof of address (last 3 months)\n• One",
      "photo\n• Fee: £42.00\nYou must attend an appointment for fingerprinting.",
    ),
    w(
      "An identity card application requires evidence of identity, a recent proof of address, a photograph and",
      "the £42.00 fee. Your fingerprints will be captured when you attend your appointment.",
    ),
  ],
  status_ask: [
    "Please provide the application reference (for example PA-2025-012345).",
    "Which application would you like to check? Please enter its reference number, e.g. ID-2025-001234.",
    "Certainly. What is the application reference? It begins with PA, PC or ID followed by the year.",
  ],
  status_show: [
    "Application {ref} ({type}) for {name}.\nCurrent status: {status}.{date}\nDelivery address: {address}.",
    w(
      "Here are the details of application {ref}:\n• Applicant: {name}\n•",
      "Type: {type}\n• Status: {status}.{date}\n• Delivery to: {address}",
    ),
    "The {type} application {ref} in the name of {name} is currently: {status}.{date} It will be sent to {address}.",
  ],
  status_date_est: [
    " Estimated completion: {date}.",
    " Expected completion date: {date}.",
    " Target date: {date}.",
  ],
  status_date_dispatch: [
    " Expected dispatch: {date}.",
    " Due to be dispatched on {date}.",
    " Dispatch is scheduled for {date}.",
  ],
  status_list: [
    "The following applications are held under your account:\n{list}",
    "You have these applications on record:\n{list}",
    "Applications linked to your applicant number:\n{list}",
  ],
  appts_list: [
    "Your upcoming appointments:\n{list}",
    "You have the following appointments booked:\n{list}",
    "Here are your current appointments:\n{list}",
  ],
  appts_none: [
    "You have no upcoming appointments.",
    "There are no appointments currently booked under your account.",
    "I cannot see any upcoming appointments for you.",
  ],
  book_ask_app: [
    "Which application is the appointment for? Please reply with the number or the reference:\n{list}",
    "The following applications are awaiting an in-person appointment:\n{list}\nPlease select one.",
    "Please choose the application you wish to book an appointment for:\n{list}",
  ],
  book_no_eligible: [
    "None of your applications is currently awaiting an appointment, so there is nothing to book.",
    w(
      "I'm unable to book an appointment: there are no applications under your account that require one at",
      "this stage.",
    ),
    "There are no applications on your account awaiting an in-person appointment at present.",
  ],
  book_refused_booked: [
    "Application {ref} already has an appointment booked. If you need a different date, please ask to reschedule.",
    "An appointment already exists for {ref}. You may reschedule it instead of making a new booking.",
    "I'm unable to make a second booking for {ref}, as one is already in place. Would you like to reschedule it?",
  ],
  book_refused_status: [
    "Application {ref} does not require an appointment at its current stage ({status}).",
    "An appointment cannot be booked for {ref}: its status is '{status}', which does not call for one.",
    "I'm sorry, {ref} is not awaiting an appointment (current status: {status}), so a booking is not possible.",
  ],
  book_office: [
    "Which office would you like to attend?\n{list}",
    "Please choose an office by number:\n{list}",
    "Appointments are available at the following offices:\n{list}\nWhich would you prefer?",
  ],
  book_date: [
    "The next available dates at {office} are:\n{list}\nPlease reply with the letter of your preferred date.",
    "Please select a date at {office}:\n{list}",
    "{office} has availability on:\n{list}\nWhich date suits you?",
  ],
  book_time: [
    "On {date} the following times are offered:\n{list}\nWhich time would you like?",
    "Please choose a time on {date}:\n{list}",
    "Available times for {date}:\n{list}\nPlease state your preferred time.",
  ],
  book_slot_full: [
    "I'm sorry, the {time} slot is fully booked. Please choose another time from the list.",
    "Unfortunately {time} is no longer available. Please select a different time.",
    "The {time} appointment is fully booked. Kindly choose one of the available times.",
  ],
  book_confirm: [
    w(
      "Please confirm the following booking:\n• Application: {ref} ({name})\n•",
      "Office: {office}\n• Date: {date}\n• Time: {time}\nIs this correct? (yes/no)",
    ),
    "I am about to book an appointment for {name} ({ref}) at {office} on {date} at {time}. Shall I confirm it?",
    w(
      "To confirm: {office}, {date} at {time}, for application {ref}",
      "({name}). Do you wish to proceed? Please answer yes or no.",
    ),
  ],
  book_corrected: [
    "Thank you, I have amended the booking details.",
    "Noted, the details have been updated.",
    "Understood, I have made that change.",
  ],
  book_ask_change: [
    "Which detail would you like to change: the office, the date or the time? Or say 'stop' to abandon the booking.",
    "What needs to be changed — office, date or time?",
    "Please tell me what to amend (office, date or time), or say 'never mind' to cancel.",
  ],
  book_done: [
    w(
      "Your appointment is confirmed. Reference: {apt}. Please attend {office} ({address}) on {date} at {time},",
      "bringing the documents listed in your application checklist.",
    ),
    "Booking complete. Appointment {apt}: {date}, {time}, at {office}, {address}. Please arrive ten minutes early.",
    w(
      "The appointment has been booked under reference {apt}, for {date} at {time} at {office} ({address}). A",
      "confirmation has been sent to your registered email address.",
    ),
  ],
  resched_ask: [
    "Which appointment would you like to reschedule? Please reply with the number or the reference:\n{list}",
    "Please select the appointment to move:\n{list}",
    "You have the following appointments. Which one do you wish to change?\n{list}",
  ],
  resched_limit: [
    w(
      "I'm sorry, appointment {ref} has already been rescheduled {max} times, which is the maximum permitted.",
      "If you cannot attend, you may cancel it and book again, or speak to a member of staff.",
    ),
    w(
      "Appointment {ref} cannot be moved again: the limit of {max} reschedules has been reached. You may cancel",
      "it, or request an adviser.",
    ),
    "The rescheduling limit ({max} changes) has been reached for {ref}, so I am unable to move it further.",
  ],
  resched_too_late: [
    w(
      "I'm sorry, appointment {ref} is on {date}. Appointments cannot be rescheduled less than two days before",
      "they are due. Please contact the office directly.",
    ),
    "Changes are not possible within two days of an appointment, and {ref} is due on {date}.",
    w(
      "Appointment {ref} ({date}) is too close to be rescheduled online; the minimum notice is two days. Please",
      "call 0300 555 0144.",
    ),
  ],
  resched_attended: [
    "Appointment {ref} has already taken place and cannot be rescheduled.",
    "Our records show that appointment {ref} was attended, so it cannot be moved.",
    "I'm unable to reschedule {ref}: that appointment has already been attended.",
  ],
  resched_date: [
    w(
      "Appointment {ref} is currently on {current}. The following",
      "dates are available:\n{list}\nPlease reply with a letter.",
    ),
    "Please choose a new date for {ref} (currently {current}):\n{list}",
    "You may move {ref} from {current} to one of these dates:\n{list}",
  ],
  resched_time: [
    "These times are available on {date}:\n{list}\nWhich would you like?",
    "Please select a time on {date}:\n{list}",
    "Available times for {date}:\n{list}",
  ],
  resched_confirm: [
    "Please confirm: move appointment {ref} from {from} to {to}? (yes/no)",
    "Appointment {ref} will be changed from {from} to {to}. Shall I proceed?",
    "To confirm, the new appointment time for {ref} is {to} (previously {from}). Is that correct?",
  ],
  resched_done: [
    "Appointment {ref} has been rescheduled to {date} at {time}. A confirmation has been sent to you.",
    "Done. Your appointment {ref} is now on {date} at {time}.",
    "The change has been made: {ref} is booked for {date}, {time}.",
  ],
  resched_kept: [
    "Understood. Your appointment has not been changed.",
    "Very well, the original appointment remains in place.",
    "No changes have been made to your appointment.",
  ],
  cancel_ask: [
    "Which appointment do you wish to cancel? Please reply with the number or the reference:\n{list}",
    "Please select the appointment to cancel:\n{list}",
    "You have the following appointments booked. Which one should be cancelled?\n{list}",
  ],
  cancel_attended: [
    "Appointment {ref} has already taken place, so it cannot be cancelled.",
    "Our records show that {ref} was attended. A past appointment cannot be cancelled.",
    "I'm unable to cancel {ref}, as the appointment has already been attended.",
  ],
  cancel_phrase: [
    w(
      "You are about to cancel appointment {ref} at {office} on {date} at {time}. Your application will return",
      "to 'awaiting appointment'. To confirm, please type CANCEL APPOINTMENT.",
    ),
    w(
      "Appointment {ref} ({date}, {time}, {office}) will be cancelled. This cannot be undone. Please type the",
      "words CANCEL APPOINTMENT to proceed, or 'keep' to retain it.",
    ),
    w(
      "To cancel {ref} on {date} at {time} ({office}), please confirm by typing CANCEL APPOINTMENT exactly as",
      "shown.",
    ),
  ],
  cancel_mismatch: [
    "To confirm the cancellation, please type CANCEL APPOINTMENT, or say 'keep' to leave the appointment in place.",
    "I need the exact words CANCEL APPOINTMENT to proceed. Alternatively, reply 'keep it'.",
    "The confirmation was not recognised. Please type CANCEL APPOINTMENT, or 'no' to keep your appointment.",
  ],
  cancel_done: [
    "Appointment {ref} has been cancelled. You may book a new appointment at any time.",
    "The cancellation of {ref} is complete. A confirmation has been sent to your registered email address.",
    "Done. Appointment {ref} is now cancelled.",
  ],
  cancel_kept: [
    "Understood. Your appointment remains booked.",
    "Very well, I have not cancelled the appointment.",
    "No problem. The appointment is unchanged.",
  ],
  ft_ask: [
    "Which application would you like to fast-track? Please reply with the number or the reference:\n{list}",
    "Please select the application for the fast-track service:\n{list}",
    "Your applications are listed below. Which one should be considered for fast-track?\n{list}",
  ],
  ft_id_card: [
    "I'm sorry, the fast-track service is available for passport applications only; {ref} is an identity card.",
    "Identity card applications such as {ref} are not eligible for fast-track processing.",
    "Fast-track cannot be applied to {ref}, because it is an identity card application.",
  ],
  ft_refused_status: [
    "Application {ref} cannot be fast-tracked at its current stage ({status}).",
    "I'm sorry, {ref} is not eligible for fast-track: its status is '{status}'.",
    "Fast-track is unavailable for {ref}, which is already at the '{status}' stage.",
  ],
  ft_already: [
    "Application {ref} has already been upgraded to the fast-track service.",
    "Fast-track is already in place for {ref}.",
    "{ref} is already being processed under the fast-track service.",
  ],
  ft_ask_travel: [
    "What is your date of travel? (DD/MM/YYYY)",
    "Fast-track is available for travel within 21 days. On what date are you due to travel?",
    "Please provide your planned departure date.",
  ],
  ft_invalid_date: [
    "That travel date is not valid; it must be a future date. Please enter your departure date (DD/MM/YYYY).",
    "I could not accept that date. Please provide a travel date after today.",
    "The travel date must be in the future. Please re-enter it.",
  ],
  ft_window: [
    w(
      "I'm sorry, your travel date of {date} is {days} days away. Fast-track is only available when travelling",
      "within 21 days. Your application will be processed within the standard timescale.",
    ),
    w(
      "Your application is not eligible for fast-track: travel on {date} is more than 21 days from today ({days}",
      "days).",
    ),
    w(
      "Fast-track is restricted to travel within the next 21 days, and {date} is {days} days away. Please apply",
      "again nearer the time if required.",
    ),
  ],
  ft_quote: [
    w(
      "Application {ref} is eligible for fast-track. The supplement is {fee}, and the application will be",
      "completed by {target}. Would you like to proceed? (yes/no)",
    ),
    "Fast-track for {ref} costs {fee}, with a target completion date of {target}. Shall I go ahead?",
    w(
      "You are eligible. Upgrading {ref} to fast-track will cost {fee}; we aim to complete it by {target}. Do",
      "you wish to continue?",
    ),
  ],
  ft_done: [
    w(
      "Fast-track has been applied to {ref}. {fee} has been charged",
      "to your card ending {card}. Target completion: {target}.",
    ),
    "Payment of {fee} taken (card ending {card}). Application {ref} is now fast-tracked, for completion by {target}.",
    "Done. {ref} has been upgraded to fast-track; {fee} was charged to the card ending {card}. Expected by {target}.",
  ],
  ft_declined: [
    "Understood. Fast-track has not been applied and no charge has been made.",
    "Very well, your application will remain on the standard service.",
    "No problem. Nothing has been charged.",
  ],
  lost_ask_passport: [
    "Please provide the nine-digit number of the passport you wish to report.",
    "What is the passport number? It is nine digits long.",
    "Which passport is affected? Please enter its passport number.",
  ],
  lost_already: [
    "Passport {ref} has already been reported as lost or stolen and has been cancelled. No further report is needed.",
    "Our records show that passport {ref} was previously reported missing. It is already cancelled.",
    "A report already exists for passport {ref}; it has been cancelled.",
  ],
  lost_ask_kind: [
    "Was the passport lost or stolen?",
    "Please state whether the passport was lost or stolen.",
    "Please choose one: Lost, or Stolen.",
  ],
  lost_ask_police: [
    "Please provide the police crime reference number. If you have not yet reported the theft, type 'none'.",
    "What is the crime reference number given by the police? Reply 'none' if you do not have one.",
    "Thefts should be reported to the police. Please enter your crime reference number, or 'none'.",
  ],
  lost_ask_date: [
    "On what date was the passport lost or stolen? (DD/MM/YYYY)",
    "When did you last have the passport? Please give the date it was lost or stolen.",
    "Please provide the date of the loss or theft.",
  ],
  lost_invalid_date: [
    "That date cannot be accepted: it must not be in the future. Please enter the date the passport went missing.",
    "The date of loss must be today or earlier. Please try again.",
    "I'm sorry, the date given is in the future. When was the passport lost or stolen?",
  ],
  lost_declaration: [
    w(
      "Please review your report: passport {ref}, {kind} on {date}{crime}. Once submitted, the passport will be",
      "permanently cancelled and cannot be used, even if it is found. To make this declaration, please type I",
      "DECLARE.",
    ),
    w(
      "Declaration: I confirm that passport {ref} was {kind} on {date}{crime}, and I understand it will be cancelled",
      "permanently. Type I DECLARE to submit, or 'no' to withdraw.",
    ),
    w(
      "Before I submit the report for passport {ref} ({kind}, {date}{crime}), you must confirm the information is",
      "true to the best of your knowledge. Please type I DECLARE. The passport will be cancelled immediately.",
    ),
  ],
  lost_mismatch: [
    "To submit the report, please type I DECLARE exactly. Reply 'no' to withdraw the report.",
    "The declaration must be made by typing the words I DECLARE. Otherwise, say 'no'.",
    "That was not recognised as a declaration. Please type I DECLARE, or 'no' to cancel.",
  ],
  lost_done: [
    w(
      "Your report has been recorded under reference {report}. Passport {ref} has been cancelled as {kind}.",
      "You may now apply for a replacement.",
    ),
    "Thank you. Passport {ref} is now recorded as {kind} and cancelled (report reference {report}).",
    "The declaration has been submitted (reference {report}). Passport {ref} is cancelled; status: {kind}.",
  ],
  lost_withdrawn: [
    "Understood. The report has not been submitted and the passport remains valid.",
    "Very well, no report has been made. Passport {ref} has not been cancelled.",
    "The declaration was withdrawn; nothing has been recorded.",
  ],
  pay_list: [
    w(
      "The following fees are outstanding on your account:\n{list}\nWhich",
      "would you like to pay? Please reply with the letter.",
    ),
    "Outstanding fees:\n{list}\nPlease select the fee you wish to pay.",
    "You currently owe:\n{list}\nWhich fee would you like to settle?",
  ],
  pay_none: [
    "There are no outstanding fees on your account.",
    "You have nothing to pay at present; all fees have been settled.",
    "Your account shows no fees due.",
  ],
  pay_already: [
    "Fee {ref} has already been paid. There is nothing outstanding on it.",
    "Our records show that {ref} is already settled.",
    "No payment is due on {ref}; it has been paid.",
  ],
  pay_cap: [
    w(
      "I'm sorry, fee {ref} is {amount}. Payments over {cap} cannot be taken through this assistant. Please pay by",
      "telephone on 0300 555 0144 or at the counter.",
    ),
    "Payments above {cap} are not accepted online, and {ref} is {amount}. Please contact the payments line.",
    w(
      "Fee {ref} ({amount}) exceeds the online payment limit of {cap}. Kindly arrange payment through the",
      "helpline or at your appointment.",
    ),
  ],
  pay_invalid: [
    "Please choose one of the fees listed by its letter or reference:\n{list}",
    "That selection was not recognised. Outstanding fees:\n{list}",
    "I'm sorry, please select a valid option:\n{list}",
  ],
  pay_confirm: [
    "Please confirm: pay {amount} for {ref} ({desc}) using your card ending {card}? (yes/no)",
    "You are about to pay {amount} towards {ref} ({desc}) with the card ending {card}. Shall I proceed?",
    "Payment of {amount} for {desc} ({ref}) will be taken from the card ending {card}. Do you wish to continue?",
  ],
  pay_done: [
    "Payment successful. {amount} has been paid for {ref}. Receipt number: {receipt}.",
    "Thank you. Your payment of {amount} towards {ref} has been received (receipt {receipt}).",
    "Done. {ref} has been settled with a payment of {amount}. Your receipt reference is {receipt}.",
  ],
  pay_declined: [
    "Understood. No payment has been taken.",
    "Very well, the payment has not been made.",
    "No problem. Nothing has been charged to your card.",
  ],
  addr_ask_app: [
    "Which application's delivery address would you like to update? Please reply with the number or reference:\n{list}",
    "Please select the application to update:\n{list}",
    "The address change will apply to one application. Which one?\n{list}",
  ],
  addr_printed: [
    w(
      "I'm sorry, the delivery address for {ref} cannot be changed because the document has already been",
      "printed ({status}). Please contact the courier or the helpline.",
    ),
    "Address changes are not possible once a passport is printed, and {ref} is at the '{status}' stage.",
    "The address on {ref} can no longer be amended (status: {status}).",
  ],
  addr_ask_line: [
    "Please enter the new delivery address for {ref} (house number, street and town).",
    "What is the new address? Please include the house number or name, street and town.",
    "Please provide the new address where the document for {ref} should be delivered.",
  ],
  addr_ask_postcode: [
    "Thank you. What is the postcode of the new address?",
    "And the new postcode, please?",
    "Please provide the postcode for that address.",
  ],
  addr_invalid_postcode: [
    "That does not appear to be a valid UK postcode. Please enter the new postcode again.",
    "I'm sorry, the postcode was not recognised. Please check it and try again.",
    "The postcode must be in a valid UK format (for example LS1 4AB). Please re-enter it.",
  ],
  addr_confirm: [
    "Please confirm the new delivery address for {ref}: {line}, {postcode}. Is this correct? (yes/no)",
    "The address for {ref} will be changed to: {line}, {postcode}. Shall I save it?",
    "New address for {ref}: {line}, {postcode}. Please confirm that this is correct.",
  ],
  addr_corrected: [
    "Thank you, I have corrected the address.",
    "Noted, the address has been amended.",
    "Understood, I have updated that detail.",
  ],
  addr_done: [
    "The delivery address for {ref} has been updated.",
    "Thank you. The new address has been saved against application {ref}.",
    "Done. Application {ref} will now be delivered to the new address.",
  ],
  addr_kept: [
    "Understood. The delivery address has not been changed.",
    "Very well, the existing address remains on the application.",
    "No changes have been made to the address.",
  ],
};

const TYPE_LABEL: Record<AppType, string> = {
  adult_first: "first adult passport",
  adult_renewal: "adult passport renewal",
  child: "child passport",
  id_card: "identity card",
};

const STATUS_LABEL: Record<AppStatus, string> = {
  received: "Received – initial checks under way",
  awaiting_appointment: "Awaiting an in-person appointment",
  appointment_booked: "Appointment booked",
  in_processing: "In processing",
  printed: "Printed – awaiting dispatch",
  dispatched: "Dispatched",
  completed: "Completed",
};

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function fmtDate(iso: string): string {
  const d = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return `${DAY_NAMES[d.getUTCDay()]} ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function money(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Language understanding

type Intent =
  | "greeting"
  | "help"
  | "thanks"
  | "goodbye"
  | "handoff"
  | "signin"
  | "signout"
  | "info_topics"
  | "info_fees"
  | "info_processing"
  | "info_photo"
  | "info_hours"
  | "info_fasttrack"
  | "info_lost"
  | "checklist"
  | "status"
  | "status_all"
  | "appointments"
  | "book"
  | "reschedule"
  | "cancel"
  | "fasttrack"
  | "lost"
  | "pay"
  | "address";

const GATED: ReadonlySet<Intent> = new Set<Intent>([
  "status",
  "status_all",
  "appointments",
  "book",
  "reschedule",
  "cancel",
  "fasttrack",
  "lost",
  "pay",
  "address",
]);

/** A regular expression from pieces (kept short for readability). */
const rx = (...parts: string[]): RegExp => new RegExp(parts.join(""));

const HANDOFF_RE = rx(
  String.raw`\b(human|real person|live (agent|person|chat)|adviser|advisor|operator|representative|`,
  "member of (staff|the team)|staff member|caseworker|customer service|someone (real|in person)|",
  String.raw`(?<!travel )agent|(speak|talk) to (someone|somebody|a person|an agent|an officer))\b`,
);
const ABORT_RE = rx(
  String.raw`^(?:ok(?:ay)?[,.]?\s+|actually[,.]?\s+|no[,.]?\s+)?(?:stop|cancel|never\s?mind|nevermind|`,
  "forget (?:it|that|about it)|abort|quit|exit|leave it|scrap (?:that|it)|start (?:over|again)|",
  String.raw`main menu|back to (?:the )?menu|i(?:'ve| have)? changed my mind|don'?t bother)\b`,
);
const YES_RE = rx(
  "^(?:y|yes|yeah|yea|yep|yup|sure|ok|okay|correct|confirm(?:ed)?|that'?s (?:right|correct|fine|good)|",
  "that is (?:right|correct|fine)|go ahead|proceed|please do|do it|affirmative|absolutely|of course|",
  String.raw`definitely|fine|i confirm|agreed|sounds good|book it|looks good)\b|^please[.!]?$`,
);
const NO_RE = rx(
  "^(?:n|no|nope|nah|not (?:really|quite|right|correct)|incorrect|wrong|",
  "that'?s (?:wrong|not right|incorrect)|that is (?:wrong|not right|incorrect)|negative|",
  String.raw`don'?t|do not|i don'?t)\b`,
);

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

function words(lc: string): number {
  return lc.split(" ").filter((x) => /[a-z0-9]/.test(x)).length;
}

const LOST_RE = /\b(lost|lose|losing|stolen|stole|theft|misplaced|mislaid|can'?t find|cannot find|nicked)\b/;
const LOST_INFO_RE =
  /\b(what (should|do|must) (i|you) do|what happens|if (i|you|my|your|a|someone)\b|in case)/;
const APPT_WORD_RE = /\b(appointments?|bookings?|slot|interview|apt[\s-]?\d)/;
const RESCHED_RE = rx(
  "(re-?schedul|re-?book|re-?arrange|postpone|bring (it |my appointment |the appointment )?forward|",
  "push (it |my appointment |the appointment )?back|different (date|time|day|slot)|",
  "another (date|time|day|slot))",
);
const FAST_RE = rx(
  String.raw`(fast[\s-]?track|expedit|urgent|speed (it |this |things |my application |the application )?up|`,
  "priority service|premium service|hurry|travel(l)?ing (soon|next|in|on|abroad)|",
  "fly(ing)? (soon|next|in|on)|",
  "holiday (soon|next))",
);
const FAST_QUESTION_RE = rx(
  String.raw`\b(what is|what's|how much|how does|how do|is there|do you (offer|have)|tell me about|explain|`,
  "eligib|rules|work)",
);
const MINE_RE = /\b(my|me)\b|\bi('m| am| need| want|'d like| would like| have)\b/;
const PAY_RE = /\b(pay|paying|payment|outstanding|owe|owing|balance|settle|amount due|arrears|unpaid)\b/;
const VIEW_APPT_RE = rx(
  String.raw`\b(check|view|see|show|list|details|when is|where is|what time is|what time's|remind)\b`,
  String.raw`[^.?!]*\b(appointments?|bookings?)\b`,
);
const BOOK_RE =
  /\b(book|make|arrange|schedule|set up|need|want|get|request|like)\b[^.?!]*\b(appointment|slot|interview)\b/;
const STATUS_RE = rx(
  String.raw`\b(status|progress|track|tracking|update on|where is my|where's my|how is my|any news|`,
  String.raw`been (approved|processed|printed|sent|dispatched)|when will (i|my))\b`,
);
const CHECKLIST_RE = rx(
  String.raw`\b(documents?|checklist|check list|paperwork|supporting|evidence|requirements?|proof of|`,
  String.raw`what (do|should|must) i (need|bring|provide|send))\b`,
);
const PROCESSING_RE = rx(
  String.raw`\b(how long|processing times?|turnaround|how many (weeks|days)|waiting times?|timescales?|`,
  String.raw`take to process)\b`,
);
const GOODBYE_RE = rx(
  String.raw`\b(bye|goodbye|good-bye|farewell|that'?s (all|everything|it)|that is (all|everything)|nothing else|`,
  String.raw`no more questions|i'?m done|all done|end (the )?chat|see you)\b`,
);

function detectIntent(lc: string): Intent | null {
  if (!/[a-z0-9]/.test(lc)) return null;
  if (HANDOFF_RE.test(lc)) return "handoff";
  if (/\b(sign|log)\s*(out|off)\b|\blogout\b/.test(lc)) return "signout";
  if (/\b(sign|log)\s*(in|on)\b|\blogin\b|\bauthenticat|\bverify (me|my identity)\b/.test(lc))
    return "signin";
  if (
    LOST_RE.test(lc) ||
    /\bmissing\b.*\b(passport|id)\b|\b(passport|id)\b.*\bmissing\b/.test(lc) ||
    /\breport(ing)? (a |my |the )?passport\b/.test(lc)
  ) {
    return LOST_INFO_RE.test(lc) ? "info_lost" : "lost";
  }
  const apptWord = APPT_WORD_RE.test(lc);
  if (/\bcancel/.test(lc) && apptWord) return "cancel";
  if (RESCHED_RE.test(lc) || (/\b(move|change|switch|amend)\b/.test(lc) && apptWord)) return "reschedule";
  if (FAST_RE.test(lc))
    return FAST_QUESTION_RE.test(lc) && !MINE_RE.test(lc) ? "info_fasttrack" : "fasttrack";
  if (
    (/\baddress\b/.test(lc) &&
      /(chang|updat|amend|correct|new|moved|wrong|different|edit)/.test(lc) &&
      !/\b(office|your address|where)\b/.test(lc)) ||
    /\b(moved (house|home|flat|address)|have moved|i'?ve moved|relocat)/.test(lc)
  ) {
    return "address";
  }
  if (PAY_RE.test(lc)) return "pay";
  if (VIEW_APPT_RE.test(lc) && !/\bbook\b/.test(lc)) return "appointments";
  if (BOOK_RE.test(lc) || /\bbook\b/.test(lc)) return "book";
  if (/\b(appointments?|bookings?)\b/.test(lc)) return "appointments";
  if (/\b(all|list|every|each)\b[^.?!]*\bapplications\b|\bmy applications\b/.test(lc)) return "status_all";
  if (STATUS_RE.test(lc) || appRef(lc) !== null) return "status";
  if (/\b(photo|photos|photograph|photographs|picture|pictures|headshot|selfie)\b/.test(lc))
    return "info_photo";
  if (CHECKLIST_RE.test(lc)) return "checklist";
  if (PROCESSING_RE.test(lc)) return "info_processing";
  if (/\b(fees?|cost|costs|price|prices|how much|charges?)\b/.test(lc)) return "info_fees";
  if (/\b(opening|open|hours|closing|close|offices?|locations?|counters?|nearest|branch(es)?)\b/.test(lc)) {
    return "info_hours";
  }
  if (/\b(information|info|general (questions?|enquiry|enquiries)|faqs?)\b/.test(lc)) return "info_topics";
  if (GOODBYE_RE.test(lc)) return "goodbye";
  if (/\b(thanks|thank you|thankyou|cheers|much appreciated|grateful|ta)\b/.test(lc)) return "thanks";
  if (/^(hi|hello|hey|hiya|good (morning|afternoon|evening|day)|greetings|howdy)\b/.test(lc))
    return "greeting";
  if (/\b(help|menu|options|what can you (do|help)|services|what do you do|assist|start)\b/.test(lc))
    return "help";
  return null;
}

function appRef(text: string): string | null {
  const m = /\b(pa|pc|id)[\s-]?(\d{4})[\s-]?(\d{6})\b/i.exec(text);
  return m ? `${(m[1] ?? "").toUpperCase()}-${m[2]}-${m[3]}` : null;
}

function aptRef(text: string): string | null {
  const m = /\bapt[\s-]?(\d{5})\b/i.exec(text);
  return m ? `APT-${m[1]}` : null;
}

function feeRef(text: string): string | null {
  const m = /\bfee[\s-]?(\d{4})\b/i.exec(text);
  return m ? `FEE-${m[1]}` : null;
}

function passportNo(text: string): string | null {
  const m = /(?<![\d-])(\d{3})[\s-]?(\d{3})[\s-]?(\d{3})(?![\d-])/.exec(text);
  return m ? `${m[1]}${m[2]}${m[3]}` : null;
}

function applicantNo(text: string): string | null {
  const m = /\bnp[\s-]?(\d{6})\b/i.exec(text);
  return m ? `NP-${m[1]}` : null;
}

function postcode(text: string): string | null {
  const m = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i.exec(text);
  return m ? `${(m[1] ?? "").toUpperCase()} ${(m[2] ?? "").toUpperCase()}` : null;
}

/** Whether a reply gives the expected security answer (whole words, case and punctuation ignored). */
function answers(reply: string, expected: string): boolean {
  const flat = (x: string): string =>
    ` ${x
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim()} `;
  const want = flat(expected);
  return (
    want.trim().length > 0 && flat(reply).includes(want) && words(norm(reply)) <= words(norm(expected)) + 6
  );
}

function compact(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const MONTH_RE = [
  "(january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|",
  "september|sept|sep|october|oct|november|nov|december|dec)",
].join("");
const MONTH_NUM: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function isoOf(y: number, m: number, d: number): string | null {
  if (!(y >= 1900 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  const iso = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const back = new Date(`${iso}T12:00:00Z`);
  return !Number.isNaN(back.getTime()) && back.toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * A date in free text (DD/MM/YYYY, ISO, "28 March 2025", "March 28", "tomorrow", "in 10 days"...). Without a
 * year, `prefer` picks this year's or the adjacent year's date; with no `prefer`, a year is required.
 */
function parseDate(text: string, prefer?: "future" | "past"): string | null {
  const s = norm(text);
  let m = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(s);
  if (m) return isoOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /(?<![\d-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?![\d-])/.exec(s);
  if (m) {
    let y = Number(m[3]);
    if ((m[3] ?? "").length === 2) y += y <= 30 ? 2000 : 1900;
    return isoOf(y, Number(m[2]), Number(m[1]));
  }
  const withYear = (d: number, mo: number, y: string | undefined): string | null => {
    if (y) return isoOf(Number(y), mo, d);
    if (!prefer) return null;
    const base = Number(TODAY.slice(0, 4));
    const here = isoOf(base, mo, d);
    if (!here) return null;
    if (prefer === "future" && here < TODAY) return isoOf(base + 1, mo, d);
    if (prefer === "past" && here > TODAY) return isoOf(base - 1, mo, d);
    return here;
  };
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b\\.?,?(?:\\s+(\\d{4}))?`).exec(s);
  if (m) return withYear(Number(m[1]), MONTH_NUM[(m[2] ?? "").slice(0, 3)] ?? 0, m[3]);
  m = new RegExp(`\\b${MONTH_RE}\\b\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b,?(?:\\s+(\\d{4}))?`).exec(s);
  if (m) return withYear(Number(m[2]), MONTH_NUM[(m[1] ?? "").slice(0, 3)] ?? 0, m[3]);
  if (prefer) {
    m = /(?<![\d/.-])(\d{1,2})[/.](\d{1,2})(?![\d/.-])/.exec(s);
    if (m) return withYear(Number(m[1]), Number(m[2]), undefined);
    if (/\btoday\b/.test(s)) return TODAY;
    if (/\btomorrow\b/.test(s)) return addDays(TODAY, 1);
    if (/\byesterday\b/.test(s)) return addDays(TODAY, -1);
    m = /\bin (\d{1,3}) days?\b/.exec(s);
    if (m) return addDays(TODAY, Number(m[1]));
    m = /\b(\d{1,3}) days? ago\b/.exec(s);
    if (m) return addDays(TODAY, -Number(m[1]));
  }
  return null;
}

function parseTime(lc: string): string | null {
  let m = /\b(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?/.exec(lc);
  let h: number;
  let min: number;
  let ap: string | undefined;
  if (m) {
    h = Number(m[1]);
    min = Number(m[2]);
    ap = m[3];
  } else {
    m = /\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|o'?clock)/.exec(lc);
    if (!m) return null;
    h = Number(m[1]);
    min = 0;
    ap = m[2];
  }
  if (ap?.startsWith("p") && h < 12) h += 12;
  if (ap?.startsWith("a") && h === 12) h = 0;
  if (!ap && h >= 1 && h <= 6) h += 12;
  if (h > 23 || min > 59) return null;
  return `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}`;
}

const ORDINALS: Record<string, number> = {
  first: 0,
  second: 1,
  third: 2,
  fourth: 3,
  fifth: 4,
  sixth: 5,
  seventh: 6,
  eighth: 7,
  one: 0,
  two: 1,
  three: 2,
  four: 3,
  five: 4,
  six: 5,
  seven: 6,
  eight: 7,
};

/** A position in a list of `n` options: "2", "option 2", "B", "the second one", "last". */
function pickIndex(lc: string, n: number): number | null {
  const s = lc.replace(/[.!?,;:]+$/g, "").trim();
  const ok = (i: number): number | null => (i >= 0 && i < n ? i : null);
  let m = /^(?:option|number|no\.?|#|choice)?\s*\(?(\d{1,2})\)?(?:\s+please)?$/.exec(s);
  if (m) return ok(Number(m[1]) - 1);
  m = /\b(?:option|number|choice|no\.)\s*(\d{1,2})\b/.exec(s);
  if (m) return ok(Number(m[1]) - 1);
  m = /^(?:option|letter|choice)?\s*\(?([a-h])\)?(?:\s+please)?$/.exec(s);
  if (m) return ok((m[1] ?? "a").charCodeAt(0) - 97);
  m = /\b(?:option|letter|choice)\s+\(?([a-h])\)?(?![a-z])/.exec(s);
  if (m) return ok((m[1] ?? "a").charCodeAt(0) - 97);
  if (/\b(last|latest|final)\b/.test(s)) return ok(n - 1);
  if (/\b(earliest|soonest)\b/.test(s)) return ok(0);
  m = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth)\b/.exec(s);
  if (m) return ok(ORDINALS[m[1] ?? ""] ?? -1);
  m = /^(?:the\s+)?(one|two|three|four|five|six|seven|eight)(?:\s+please)?$/.exec(s);
  if (m) return ok(ORDINALS[m[1] ?? ""] ?? -1);
  return null;
}

function pickOffice(lc: string): OfficeId | null {
  if (/\bleeds\b/.test(lc)) return "leeds";
  if (/\bmanchester\b/.test(lc)) return "manchester";
  if (/\bbristol\b/.test(lc)) return "bristol";
  if (/\b(london|victoria)\b/.test(lc)) return "london";
  const i = pickIndex(lc, OFFICES.length);
  return i === null ? null : (OFFICES[i]?.id ?? null);
}

function pickDate(text: string, dates: readonly string[]): string | null {
  const lc = norm(text);
  const full = parseDate(text, "future");
  if (full) return dates.includes(full) ? full : null;
  const wd = /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/.exec(lc);
  if (wd) {
    const n = DAY_NAMES.findIndex((d) => d.toLowerCase() === wd[1]);
    return dates.find((d) => weekday(d) === n) ?? null;
  }
  const i = pickIndex(lc, dates.length);
  if (i !== null) return dates[i] ?? null;
  const dm = /\b(\d{1,2})(?:st|nd|rd|th)\b/.exec(lc);
  if (dm) return dates.find((d) => Number(d.slice(8, 10)) === Number(dm[1])) ?? null;
  return null;
}

function pickTime(lc: string, times: readonly string[]): string | null {
  const t = parseTime(lc);
  if (t) return times.includes(t) ? t : null;
  const bare = /^(?:at\s+)?(\d{1,2})(?:\s+please)?$/.exec(lc.replace(/[.!?]+$/, "").trim());
  if (bare) {
    const n = Number(bare[1]);
    if (n >= 1 && n <= times.length) return times[n - 1] ?? null;
    return null;
  }
  const i = pickIndex(lc, times.length);
  return i === null ? null : (times[i] ?? null);
}

// ---------------------------------------------------------------------------------------------------------------
// Dialogue

type Flow =
  | "auth"
  | "verify"
  | "handoff"
  | "status"
  | "book"
  | "resched"
  | "cancel"
  | "fasttrack"
  | "lost"
  | "pay"
  | "address"
  | "checklist";

interface Draft {
  after?: Intent;
  afterText?: string;
  applicant?: string;
  dob?: string;
  pc?: string;
  custId?: string;
  unauth?: boolean;
  appRef?: string;
  aptRef?: string;
  feeRef?: string;
  passport?: string;
  office?: OfficeId;
  date?: string;
  time?: string;
  origDate?: string;
  origTime?: string;
  corrected?: boolean;
  travelDate?: string;
  amount?: number;
  target?: string;
  kind?: "lost" | "stolen";
  crimeRef?: string;
  dateLost?: string;
  line?: string;
  postcode?: string;
  verifyFor?: "pay" | "fasttrack";
}

interface Pending {
  flow: Flow;
  step: string;
  d: Draft;
}

interface Ctx {
  customerId: string | null;
  failures: number;
  locked: boolean;
  pending: Pending | null;
  unknown: number;
  seq: number;
}

/** The flow an intent starts (asking for the same flow again mid-flow re-prompts rather than restarting). */
const FLOW_OF: Partial<Record<Intent, Flow>> = {
  status: "status",
  book: "book",
  reschedule: "resched",
  cancel: "cancel",
  fasttrack: "fasttrack",
  lost: "lost",
  pay: "pay",
  address: "address",
  checklist: "checklist",
  handoff: "handoff",
};

const freshCtx = (): Ctx => ({
  customerId: null,
  failures: 0,
  locked: false,
  pending: null,
  unknown: 0,
  seq: 0,
});

const UPCOMING = (a: Appointment): boolean => a.status === "booked";
const PRINTED: ReadonlySet<AppStatus> = new Set<AppStatus>(["printed", "dispatched", "completed"]);

function keyHash(key: string): number {
  let h = 7;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) % 1_000_003;
  return h;
}

class Heldout22Session implements TestbedTarget {
  readonly name = "heldout22";
  private world: World = seedWorld();
  private visited: State[] = [];
  private fp: string[] = [];
  private c: Ctx = freshCtx();
  private out: string[] = [];

  constructor(
    private readonly faults: ReadonlySet<string>,
    private readonly seed: number,
  ) {}

  async reset(): Promise<void> {
    this.world = seedWorld();
    this.visited = [];
    this.fp = [];
    this.c = freshCtx();
    this.out = [];
  }

  async send(text: string): Promise<ChatReply> {
    const started = Date.now();
    this.out = [];
    try {
      const raw = typeof text === "string" ? text : String(text ?? "");
      this.turn(raw);
    } catch {
      this.out = [];
      this.c.pending = null;
      this.enter("fallback.unknown");
      this.say("fallback");
    }
    if (this.out.length === 0) {
      this.enter("fallback.unknown");
      this.say("fallback");
    }
    return { text: this.out.join("\n\n"), ms: Date.now() - started };
  }

  async close(): Promise<void> {}

  statesVisited(): readonly string[] {
    return [...this.visited];
  }

  fingerprint(): string {
    return this.fp.join("\n");
  }

  // --- plumbing ------------------------------------------------------------------------------------------------

  private f(fault: Fault): boolean {
    return this.faults.has(fault);
  }

  private enter(state: State): void {
    this.visited.push(state);
  }

  private say(key: string, vars: Record<string, string | number> = {}): void {
    const options = P[key] ?? P.fallback ?? [""];
    const n = options.length;
    const idx = (((this.seed - 1 + keyHash(key)) % n) + n) % n;
    const template = options[idx] ?? options[0] ?? "";
    this.out.push(template.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? "")));
  }

  private log(line: string): void {
    this.fp.push(line);
  }

  private me(): Customer | null {
    return this.world.customers.find((c) => c.id === this.c.customerId) ?? null;
  }

  private app(ref: string): Application | undefined {
    return this.world.applications.find((a) => a.reference === ref);
  }

  private apt(ref: string): Appointment | undefined {
    return this.world.appointments.find((a) => a.reference === ref);
  }

  private myApps(): Application[] {
    return this.world.applications.filter((a) => a.customerId === this.c.customerId);
  }

  private myUpcoming(): Appointment[] {
    return this.world.appointments
      .filter((a) => a.customerId === this.c.customerId && UPCOMING(a))
      .sort((x, y) => `${x.date} ${x.time}`.localeCompare(`${y.date} ${y.time}`));
  }

  private appLines(apps: readonly Application[]): string {
    return apps
      .map(
        (a, i) =>
          `${i + 1}. ${a.reference} – ${TYPE_LABEL[a.type]} – ${a.applicantName} – ${STATUS_LABEL[a.status]}`,
      )
      .join("\n");
  }

  private aptLine(a: Appointment): string {
    const app = this.app(a.applicationRef);
    const what = app ? `${TYPE_LABEL[app.type]}, ${app.reference}` : a.applicationRef;
    return `${a.reference} – ${fmtDate(a.date)} at ${a.time}, ${officeById(a.office).name} (${what})`;
  }

  private aptLines(apts: readonly Appointment[]): string {
    return apts.map((a, i) => `${i + 1}. ${this.aptLine(a)}`).join("\n");
  }

  // --- turn ----------------------------------------------------------------------------------------------------

  private turn(raw: string): void {
    const text = raw.slice(0, 4000).replace(/\s+/g, " ").trim();
    const lc = norm(text);
    const p = this.c.pending;
    if (p) {
      if (this.isAbort(p, lc)) {
        this.c.pending = null;
        this.enter("flow.aborted");
        this.say("aborted");
        return;
      }
      if (p.flow !== "handoff" && HANDOFF_RE.test(lc)) {
        this.start("handoff", text);
        return;
      }
      if (lc && this.step(p, text, lc)) {
        this.c.unknown = 0;
        return;
      }
      const intent = detectIntent(lc);
      if (intent && FLOW_OF[intent] !== p.flow) {
        this.c.unknown = 0;
        this.start(intent, text);
        return;
      }
      this.reprompt(p);
      return;
    }
    const intent = detectIntent(lc);
    if (intent) {
      this.c.unknown = 0;
      this.start(intent, text);
      return;
    }
    if (applicantNo(text)) {
      if (this.c.locked || this.me()) {
        this.start("signin", text);
        return;
      }
      const auth: Pending = { flow: "auth", step: "reference", d: {} };
      this.c.pending = auth;
      this.stepAuth(auth, text, lc);
      return;
    }
    if (ABORT_RE.test(lc)) {
      this.enter("flow.nothing_to_abort");
      this.say("nothing_to_abort");
      return;
    }
    this.c.unknown++;
    if (this.c.unknown >= 2) {
      this.enter("fallback.repeated");
      this.say("fallback_repeated");
    } else {
      this.enter("fallback.unknown");
      this.say("fallback");
    }
  }

  private isAbort(p: Pending, lc: string): boolean {
    if (!ABORT_RE.test(lc)) return false;
    if (/\b(appointment|apt[\s-]?\d)/.test(lc)) return false;
    if (p.flow === "cancel" && p.step === "phrase" && /^cancel appointment\b/.test(lc)) return false;
    return true;
  }

  private start(intent: Intent, text: string): void {
    const lc = norm(text);
    this.c.pending = null;
    switch (intent) {
      case "greeting":
        this.enter("menu.greeting");
        this.say("greet");
        return;
      case "help":
        this.enter("menu.help");
        this.say("help");
        return;
      case "thanks":
        this.enter("general.thanks");
        this.say("thanks");
        return;
      case "goodbye":
        this.enter("general.goodbye");
        this.say("goodbye");
        return;
      case "handoff":
        this.ask({ flow: "handoff", step: "confirm", d: {} });
        return;
      case "signin": {
        const me = this.me();
        if (this.c.locked) {
          this.enter("auth.locked");
          this.say("auth_locked_refuse");
        } else if (me) {
          this.enter("auth.already_signed_in");
          this.say("auth_already", { name: me.name });
        } else {
          this.ask({ flow: "auth", step: "reference", d: {} });
        }
        return;
      }
      case "signout":
        this.enter("auth.signed_out");
        if (this.me()) {
          this.c.customerId = null;
          this.say("auth_signed_out");
        } else {
          this.say("auth_not_signed_in");
        }
        return;
      case "info_topics":
        this.enter("info.topics");
        this.say("info_topics");
        return;
      case "info_fees":
        this.enter("info.fees");
        this.say("info_fees");
        return;
      case "info_processing":
        this.enter("info.processing_times");
        this.say("info_processing");
        return;
      case "info_photo":
        this.enter("info.photo_rules");
        this.say("info_photo");
        return;
      case "info_hours":
        this.enter("info.office_hours");
        this.say("info_hours", { offices: OFFICES.map((o) => `• ${o.name}, ${o.address}`).join("\n") });
        return;
      case "info_fasttrack":
        this.enter("info.fast_track");
        this.say("info_fasttrack");
        return;
      case "info_lost":
        this.enter("info.lost_stolen");
        this.say("info_lost");
        return;
      case "checklist":
        this.startChecklist(lc);
        return;
      default:
        break;
    }
    if (!GATED.has(intent)) return;
    if (!this.me()) {
      if (intent === "status" && this.f("status_no_auth")) {
        this.startStatus(text, lc, true);
        return;
      }
      if (this.c.locked) {
        this.enter("auth.locked");
        this.say("auth_locked_refuse");
        return;
      }
      this.c.pending = { flow: "auth", step: "reference", d: { after: intent, afterText: text } };
      this.enter("auth.required");
      this.say("auth_required");
      return;
    }
    switch (intent) {
      case "status":
        this.startStatus(text, lc, false);
        return;
      case "status_all":
        this.listApps();
        return;
      case "appointments":
        this.listAppointments();
        return;
      case "book":
        this.startBook(text);
        return;
      case "reschedule":
        this.startResched(text);
        return;
      case "cancel":
        this.startCancel(text);
        return;
      case "fasttrack":
        this.startFast(text);
        return;
      case "lost":
        this.startLost(text, lc);
        return;
      case "pay":
        this.startPay(text);
        return;
      case "address":
        this.startAddress(text);
        return;
      default:
        return;
    }
  }

  /** Enter the state that asks for the pending step's input (`again`: after input that was not understood). */
  private ask(p: Pending, again = false): void {
    this.c.pending = p;
    const d = p.d;
    const me = this.me();
    switch (`${p.flow}.${p.step}`) {
      case "auth.reference":
        this.enter(again ? "auth.invalid_reference" : "auth.ask_reference");
        this.say(again ? "auth_invalid_reference" : "auth_ask_reference");
        return;
      case "auth.dob":
        this.enter(again ? "auth.invalid_dob" : "auth.ask_dob");
        this.say(again ? "auth_invalid_dob" : "auth_ask_dob");
        return;
      case "auth.postcode":
        this.enter("auth.ask_postcode");
        if (again) this.say("auth_bad_postcode");
        this.say("auth_ask_postcode");
        return;
      case "auth.security": {
        const cust = this.world.customers.find((c) => c.id === d.custId);
        this.enter("auth.ask_security");
        if (again) this.say("not_understood");
        this.say("auth_ask_security", { question: cust?.securityQuestion ?? "" });
        return;
      }
      case "verify.security":
        this.enter("verify.ask_security");
        if (again) this.say("not_understood");
        this.say("verify_ask", { question: me?.securityQuestion ?? "" });
        return;
      case "handoff.confirm":
        this.enter("handoff.confirm");
        if (again) this.say("not_understood");
        this.say("handoff_confirm");
        return;
      case "status.reference":
        this.enter("status.ask_reference");
        if (again) this.say("not_understood");
        this.say("status_ask");
        return;
      case "checklist.type":
        this.enter("checklist.ask_type");
        if (again) this.say("not_understood");
        this.say("checklist_ask");
        return;
      default:
        break;
    }
    if (again) this.say("not_understood");
    switch (`${p.flow}.${p.step}`) {
      case "book.application":
        this.enter("book.ask_application");
        this.say("book_ask_app", { list: this.appLines(this.bookEligible()) });
        return;
      case "book.office":
        this.enter("book.choose_office");
        this.say("book_office", {
          list: OFFICES.map((o, i) => `${i + 1}. ${o.name}, ${o.address}`).join("\n"),
        });
        return;
      case "book.date": {
        const office = d.office ?? "leeds";
        this.enter("book.choose_date");
        this.say("book_date", { office: officeById(office).name, list: this.dateLines(datesFor(office)) });
        return;
      }
      case "book.time": {
        const slots = slotsFor(d.office ?? "leeds", d.date ?? TODAY);
        this.enter("book.choose_time");
        this.say("book_time", {
          date: fmtDate(d.date ?? TODAY),
          list: slots.map((s) => `• ${s.time}${s.full ? " (fully booked)" : ""}`).join("\n"),
        });
        return;
      }
      case "book.confirm":
        this.enter("book.confirm");
        this.sayBookConfirm(d);
        return;
      case "book.change":
        this.enter("book.ask_change");
        this.say("book_ask_change");
        return;
      case "resched.appointment":
        this.enter("reschedule.ask_appointment");
        this.say("resched_ask", { list: this.aptLines(this.myUpcoming()) });
        return;
      case "resched.date": {
        const apt = this.apt(d.aptRef ?? "");
        this.enter("reschedule.choose_date");
        this.say("resched_date", {
          ref: d.aptRef ?? "",
          current: apt ? `${fmtDate(apt.date)} at ${apt.time}` : "",
          list: this.dateLines(this.reschedDates(d)),
        });
        return;
      }
      case "resched.time":
        this.enter("reschedule.choose_time");
        this.say("resched_time", {
          date: fmtDate(d.date ?? TODAY),
          list: this.freeTimes(d)
            .map((t) => `• ${t}`)
            .join("\n"),
        });
        return;
      case "resched.confirm": {
        const apt = this.apt(d.aptRef ?? "");
        this.enter("reschedule.confirm");
        this.say("resched_confirm", {
          ref: d.aptRef ?? "",
          from: apt ? `${fmtDate(apt.date)} at ${apt.time}` : "",
          to: `${fmtDate(d.date ?? TODAY)} at ${d.time ?? ""}`,
        });
        return;
      }
      case "cancel.appointment":
        this.enter("cancel.ask_appointment");
        this.say("cancel_ask", { list: this.aptLines(this.myUpcoming()) });
        return;
      case "cancel.phrase": {
        const apt = this.apt(d.aptRef ?? "");
        if (again) {
          this.out.pop();
          this.enter("cancel.phrase_mismatch");
          this.say("cancel_mismatch");
          return;
        }
        this.enter("cancel.confirm_phrase");
        this.say("cancel_phrase", {
          ref: d.aptRef ?? "",
          office: apt ? officeById(apt.office).name : "",
          date: apt ? fmtDate(apt.date) : "",
          time: apt?.time ?? "",
        });
        return;
      }
      case "fasttrack.application":
        this.enter("fasttrack.ask_application");
        this.say("ft_ask", { list: this.appLines(this.myApps()) });
        return;
      case "fasttrack.travel":
        this.enter("fasttrack.ask_travel_date");
        this.say("ft_ask_travel");
        return;
      case "fasttrack.quote":
        this.enter("fasttrack.quote");
        this.say("ft_quote", {
          ref: d.appRef ?? "",
          fee: money(d.amount ?? 0),
          target: fmtDate(d.target ?? TODAY),
        });
        return;
      case "lost.passport":
        this.enter("lost.ask_passport");
        this.say("lost_ask_passport");
        return;
      case "lost.kind":
        this.enter("lost.ask_kind");
        this.say("lost_ask_kind");
        return;
      case "lost.police":
        this.enter("lost.ask_police_ref");
        this.say("lost_ask_police");
        return;
      case "lost.date":
        this.enter("lost.ask_date");
        this.say("lost_ask_date");
        return;
      case "lost.declaration":
        if (again) {
          this.out.pop();
          this.enter("lost.declaration_mismatch");
          this.say("lost_mismatch");
          return;
        }
        this.enter("lost.declaration");
        this.say("lost_declaration", {
          ref: d.passport ?? "",
          kind: d.kind ?? "lost",
          date: fmtDate(d.dateLost ?? TODAY),
          crime: d.kind === "stolen" ? ` (crime reference: ${d.crimeRef ?? "none"})` : "",
        });
        return;
      case "pay.choose":
        if (again) {
          this.out.pop();
          this.enter("pay.invalid_choice");
          this.say("pay_invalid", { list: this.feeLines(this.myFees()) });
          return;
        }
        this.enter("pay.list");
        this.say("pay_list", { list: this.feeLines(this.myFees()) });
        return;
      case "pay.confirm": {
        const fee = this.world.fees.find((x) => x.reference === d.feeRef);
        this.enter("pay.confirm");
        this.say("pay_confirm", {
          ref: d.feeRef ?? "",
          desc: fee?.description ?? "",
          amount: money(fee?.amountPence ?? 0),
          card: me?.cardLast4 ?? "",
        });
        return;
      }
      case "address.application":
        this.enter("address.ask_application");
        this.say("addr_ask_app", { list: this.appLines(this.myApps()) });
        return;
      case "address.line":
        this.enter("address.ask_line");
        this.say("addr_ask_line", { ref: d.appRef ?? "" });
        return;
      case "address.postcode":
        if (again) {
          this.out.pop();
          this.enter("address.invalid_postcode");
          this.say("addr_invalid_postcode");
          return;
        }
        this.enter("address.ask_postcode");
        this.say("addr_ask_postcode");
        return;
      case "address.confirm":
        this.enter("address.confirm");
        this.say("addr_confirm", { ref: d.appRef ?? "", line: d.line ?? "", postcode: d.postcode ?? "" });
        return;
      default:
        this.c.pending = null;
        this.enter("fallback.unknown");
        this.say("fallback");
    }
  }

  private reprompt(p: Pending): void {
    this.ask(p, true);
  }

  private step(p: Pending, text: string, lc: string): boolean {
    switch (p.flow) {
      case "auth":
        return this.stepAuth(p, text, lc);
      case "verify":
        return this.stepVerify(p, text, lc);
      case "handoff":
        return this.stepHandoff(lc);
      case "status":
        return this.stepStatus(p, text, lc);
      case "checklist":
        return this.stepChecklist(lc);
      case "book":
        return this.stepBook(p, text, lc);
      case "resched":
        return this.stepResched(p, text, lc);
      case "cancel":
        return this.stepCancel(p, text, lc);
      case "fasttrack":
        return this.stepFast(p, text, lc);
      case "lost":
        return this.stepLost(p, text, lc);
      case "pay":
        return this.stepPay(p, text, lc);
      case "address":
        return this.stepAddress(p, text, lc);
      default:
        return false;
    }
  }

  private notFound(p: Pending, kind: "app" | "apt" | "fee" | "passport", ref: string): void {
    this.c.pending = p;
    this.enter("lookup.not_found");
    this.say(`not_found_${kind}`, { ref });
  }

  private notYours(ref: string): void {
    this.c.pending = null;
    this.enter("lookup.not_yours");
    this.say("not_yours", { ref });
    this.say("anything_else");
  }

  // --- sign-in -------------------------------------------------------------------------------------------------

  private stepAuth(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    if (p.step === "security") {
      if (words(lc) >= 4 && detectIntent(lc)) return false;
      const cust = this.world.customers.find((c) => c.id === d.custId);
      if (!cust) return false;
      if (answers(text, cust.securityAnswer)) {
        this.c.customerId = cust.id;
        this.c.pending = null;
        this.enter("auth.success");
        this.say("auth_success", { name: cust.name });
        if (d.after) this.start(d.after, d.afterText ?? "");
        else this.say("how_help");
      } else {
        this.authFail(p, "security");
      }
      return true;
    }
    if (p.step === "reference") {
      const an =
        applicantNo(text) ??
        (/^\D*\d{6}\D*$/.test(lc) && words(lc) <= 3 ? `NP-${lc.replace(/\D/g, "")}` : null);
      if (!an) return false;
      d.applicant = an;
      const rest = text.replace(/\bnp[\s-]?\d{6}\b/i, " ");
      const dob = parseDate(rest);
      if (dob && dob < TODAY) d.dob = dob;
      const pc = postcode(rest);
      if (pc) d.pc = pc;
    } else if (p.step === "dob") {
      const dob = parseDate(text);
      if (!dob || dob >= TODAY) return false;
      d.dob = dob;
      const pc = postcode(text);
      if (pc) d.pc = pc;
    } else if (p.step === "postcode") {
      const pc = postcode(text);
      if (!pc) return false;
      d.pc = pc;
    }
    if (!d.dob) {
      p.step = "dob";
      this.ask(p);
    } else if (!d.pc) {
      p.step = "postcode";
      this.ask(p);
    } else {
      const cust = this.world.customers.find(
        (c) =>
          c.applicantNumber === d.applicant && c.dob === d.dob && compact(c.postcode) === compact(d.pc ?? ""),
      );
      if (!cust) {
        this.authFail(p, "mismatch");
      } else {
        d.custId = cust.id;
        p.step = "security";
        this.ask(p);
      }
    }
    return true;
  }

  private authFail(p: Pending, kind: "mismatch" | "security"): void {
    this.c.failures++;
    if (this.c.failures >= LIMITS.maxSignInFailures && !this.f("no_lockout")) {
      this.c.locked = true;
      this.c.pending = null;
      this.enter("auth.locked");
      this.say("auth_locked");
      return;
    }
    this.c.pending = p;
    if (kind === "mismatch") {
      p.step = "reference";
      delete p.d.applicant;
      delete p.d.dob;
      delete p.d.pc;
      this.enter("auth.mismatch");
      this.say("auth_mismatch");
    } else {
      const cust = this.world.customers.find((c) => c.id === p.d.custId);
      this.enter("auth.security_wrong");
      this.say("auth_security_wrong", { question: cust?.securityQuestion ?? "" });
    }
  }

  private stepVerify(p: Pending, text: string, lc: string): boolean {
    if (words(lc) >= 4 && detectIntent(lc)) return false;
    const me = this.me();
    if (!me) return false;
    if (!answers(text, me.securityAnswer)) {
      this.c.pending = null;
      this.enter("verify.failed");
      this.say("verify_failed");
      this.say("anything_else");
      return true;
    }
    if (p.d.verifyFor === "pay") this.ask({ flow: "pay", step: "confirm", d: p.d });
    else this.commitFast(p.d);
    return true;
  }

  private stepHandoff(lc: string): boolean {
    if (YES_RE.test(lc)) {
      this.c.pending = null;
      this.c.seq++;
      const ticket = `ENQ-${String(70400 + this.c.seq)}`;
      this.log(`W:handoff|${ticket}`);
      this.enter("handoff.done");
      this.say("handoff_done", { ticket });
      return true;
    }
    if (NO_RE.test(lc)) {
      this.c.pending = null;
      this.enter("handoff.declined");
      this.say("handoff_declined");
      return true;
    }
    return false;
  }

  // --- public checklists ---------------------------------------------------------------------------------------

  private checklistType(lc: string): "adult_first" | "child" | "renewal" | "id_card" | null {
    if (/\b(id|identity)[\s-]?cards?\b/.test(lc)) return "id_card";
    if (/\b(child|children|kid|kids|son|daughter|baby|minor|under (16|sixteen))\b/.test(lc)) return "child";
    if (/\b(renew|renewal|renewing|replace|replacement)\b/.test(lc)) return "renewal";
    if (/\b(first|new|first[\s-]time|adult)\b/.test(lc)) return "adult_first";
    return null;
  }

  private startChecklist(lc: string): void {
    const t = this.checklistType(lc);
    if (t) this.showChecklist(t);
    else this.ask({ flow: "checklist", step: "type", d: {} });
  }

  private stepChecklist(lc: string): boolean {
    const i = pickIndex(lc, 4);
    const t =
      this.checklistType(lc) ??
      (i !== null ? (["adult_first", "child", "renewal", "id_card"] as const)[i] : null);
    if (!t) return false;
    this.showChecklist(t);
    return true;
  }

  private showChecklist(t: "adult_first" | "child" | "renewal" | "id_card"): void {
    this.c.pending = null;
    this.enter(`checklist.${t}`);
    this.say(`checklist_${t}`);
  }

  // --- status and listings ---------------------------------------------------------------------------------------

  private startStatus(text: string, lc: string, unauth: boolean): void {
    const ref = appRef(text);
    if (ref) {
      this.showStatus(ref, unauth);
      return;
    }
    if (!unauth && /\b(all|list|every|each|both)\b/.test(lc)) {
      this.listApps();
      return;
    }
    this.ask({ flow: "status", step: "reference", d: { unauth } });
  }

  private stepStatus(p: Pending, text: string, lc: string): boolean {
    const ref = appRef(text);
    if (ref) {
      this.showStatus(ref, p.d.unauth === true);
      return true;
    }
    if (!p.d.unauth && /\b(all|list|every|each|both)\b/.test(lc)) {
      this.listApps();
      return true;
    }
    return false;
  }

  private showStatus(ref: string, unauth: boolean): void {
    const app = this.app(ref);
    if (!app) {
      this.notFound({ flow: "status", step: "reference", d: { unauth } }, "app", ref);
      return;
    }
    if (!unauth && app.customerId !== this.c.customerId && !this.f("status_other_customer")) {
      this.notYours(ref);
      return;
    }
    const owner = this.world.customers.find((c) => c.id === app.customerId);
    const name =
      this.f("status_wrong_name") && app.type === "child" ? (owner?.name ?? "") : app.applicantName;
    let date = "";
    let dateKey = "";
    if (app.estimatedCompletion) {
      if (app.status === "in_processing" || app.status === "received") {
        date =
          this.f("status_wrong_date") && app.status === "in_processing"
            ? addDays(app.estimatedCompletion, -7)
            : app.estimatedCompletion;
        dateKey = "status_date_est";
      } else if (app.status === "printed") {
        date = app.estimatedCompletion;
        dateKey = "status_date_dispatch";
      }
    }
    const address = `${app.delivery.line}, ${app.delivery.postcode}`;
    this.c.pending = null;
    this.enter("status.show");
    const dateText = dateKey ? this.render(dateKey, { date: fmtDate(date) }) : "";
    this.say("status_show", {
      ref,
      type: TYPE_LABEL[app.type],
      name,
      status: STATUS_LABEL[app.status],
      date: dateText,
      address,
    });
    this.log(`R:status|${ref}|${app.status}|${date}|${name}|${address}`);
    this.say("anything_else");
  }

  private render(key: string, vars: Record<string, string>): string {
    const before = this.out.length;
    this.say(key, vars);
    const s = this.out.splice(before).join("");
    return s;
  }

  private listApps(): void {
    const apps = this.myApps();
    this.c.pending = null;
    this.enter("status.list_all");
    this.say("status_list", { list: this.appLines(apps) });
    this.log(`R:apps|${apps.map((a) => `${a.reference}:${a.status}`).join(",")}`);
    this.say("anything_else");
  }

  private listAppointments(): void {
    const apts = this.myUpcoming();
    this.c.pending = null;
    if (apts.length === 0) {
      this.enter("appointments.none");
      this.say("appts_none");
      this.log("R:appts|");
    } else {
      this.enter("appointments.list");
      this.say("appts_list", { list: apts.map((a) => `• ${this.aptLine(a)}`).join("\n") });
      this.log(`R:appts|${apts.map((a) => `${a.reference}@${a.office}/${a.date}/${a.time}`).join(",")}`);
    }
    this.say("anything_else");
  }

  private dateLines(dates: readonly string[]): string {
    return dates.map((d, i) => `${String.fromCharCode(65 + i)}) ${fmtDate(d)}`).join("\n");
  }

  // --- booking -------------------------------------------------------------------------------------------------

  private bookEligible(): Application[] {
    return this.myApps().filter((a) => a.status === "awaiting_appointment");
  }

  private startBook(text: string): void {
    const ref = appRef(text);
    if (ref) {
      this.bookPick(ref);
      return;
    }
    if (this.bookEligible().length === 0) {
      this.c.pending = null;
      this.enter("book.no_eligible");
      this.say("book_no_eligible");
      this.say("anything_else");
      return;
    }
    this.ask({ flow: "book", step: "application", d: {} });
  }

  private bookPick(ref: string): void {
    const app = this.app(ref);
    if (!app) {
      this.notFound({ flow: "book", step: "application", d: {} }, "app", ref);
      return;
    }
    if (app.customerId !== this.c.customerId) {
      this.notYours(ref);
      return;
    }
    if (app.status !== "awaiting_appointment") {
      this.c.pending = null;
      this.enter("book.refused_status");
      if (app.status === "appointment_booked") this.say("book_refused_booked", { ref });
      else this.say("book_refused_status", { ref, status: STATUS_LABEL[app.status] });
      this.say("anything_else");
      return;
    }
    this.ask({ flow: "book", step: "office", d: { appRef: ref } });
  }

  private stepBook(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    switch (p.step) {
      case "application": {
        const ref = appRef(text);
        if (ref) {
          this.bookPick(ref);
          return true;
        }
        const list = this.bookEligible();
        const i = pickIndex(lc, list.length);
        const chosen = i === null ? undefined : list[i];
        if (!chosen) return false;
        this.bookPick(chosen.reference);
        return true;
      }
      case "office": {
        const office = pickOffice(lc);
        if (!office) return false;
        d.office = office;
        p.step = "date";
        this.ask(p);
        return true;
      }
      case "date": {
        const date = pickDate(text, datesFor(d.office ?? "leeds"));
        if (!date) return false;
        d.date = date;
        p.step = "time";
        this.ask(p);
        return true;
      }
      case "time": {
        const slots = slotsFor(d.office ?? "leeds", d.date ?? TODAY);
        const time = pickTime(
          lc,
          slots.map((s) => s.time),
        );
        if (!time) return false;
        this.bookSetTime(p, time);
        return true;
      }
      case "confirm": {
        if (YES_RE.test(lc) && !this.bookCorrection(p, text, lc, true)) {
          this.commitBook(d);
          return true;
        }
        if (this.bookCorrection(p, text, lc, false)) return true;
        if (NO_RE.test(lc) || /\b(change|amend|wrong)\b/.test(lc)) {
          p.step = "change";
          this.ask(p);
          return true;
        }
        return false;
      }
      case "change": {
        if (this.bookCorrection(p, text, lc, false)) return true;
        if (/\b(time|slot|hour|date|day|office|location|centre|center|place|venue)\b/.test(lc))
          d.corrected = true;
        if (/\b(time|slot|hour)\b/.test(lc)) {
          p.step = "time";
          this.ask(p);
          return true;
        }
        if (/\b(date|day)\b/.test(lc)) {
          p.step = "date";
          this.ask(p);
          return true;
        }
        if (/\b(office|location|centre|center|place|venue)\b/.test(lc)) {
          p.step = "office";
          this.ask(p);
          return true;
        }
        if (/\b(nothing|keep|fine|as (it|is)|all good|correct)\b/.test(lc) || YES_RE.test(lc)) {
          p.step = "confirm";
          this.ask(p);
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  private bookSetTime(p: Pending, time: string): void {
    const d = p.d;
    const slot = slotsFor(d.office ?? "leeds", d.date ?? TODAY).find((s) => s.time === time);
    if (slot?.full && !this.f("book_full_slot_accepted")) {
      p.step = "time";
      this.c.pending = p;
      this.enter("book.slot_full");
      this.say("book_slot_full", { time });
      return;
    }
    d.time = time;
    p.step = "confirm";
    if (!d.origDate) {
      d.origDate = d.date;
      d.origTime = time;
    }
    this.ask(p);
  }

  /** A correction inside the read-back ("no, make it 14:15", "the Tuesday instead", "Bristol"). */
  private bookCorrection(p: Pending, text: string, lc: string, probeOnly: boolean): boolean {
    const d = p.d;
    const office = /\b(leeds|manchester|bristol|london|victoria)\b/.test(lc) ? pickOffice(lc) : null;
    const t = parseTime(lc);
    const dates = datesFor(d.office ?? "leeds");
    const explicitDate =
      parseDate(text, "future") !== null ||
      /\b(monday|tuesday|wednesday|thursday|friday|saturday|\d{1,2}(st|nd|rd|th))\b/.test(lc) ||
      /\b(option|letter)\s+[a-e]\b/.test(lc);
    const picked = explicitDate ? pickDate(text.replace(/\b\d{1,2}[:.]\d{2}\b/g, " "), dates) : null;
    const date = picked !== d.date ? picked : null;
    if ((!office || office === d.office) && (!t || t === d.time) && !date) return false;
    if (probeOnly) return true;
    d.corrected = true;
    if (office && office !== d.office) {
      d.office = office;
      delete d.date;
      delete d.time;
      p.step = "date";
      this.say("book_corrected");
      this.ask(p);
      return true;
    }
    if (date) d.date = date;
    if (t) {
      const slots = slotsFor(d.office ?? "leeds", d.date ?? TODAY);
      if (!slots.some((s) => s.time === t)) {
        p.step = "time";
        this.say("book_corrected");
        this.ask(p);
        return true;
      }
      const wanted = slots.find((s) => s.time === t);
      if (wanted?.full && !this.f("book_full_slot_accepted")) {
        p.step = "time";
        this.c.pending = p;
        this.enter("book.slot_full");
        this.say("book_slot_full", { time: t });
        return true;
      }
      d.time = t;
    }
    const slot = slotsFor(d.office ?? "leeds", d.date ?? TODAY).find((s) => s.time === d.time);
    if (!slot || (slot.full && !this.f("book_full_slot_accepted"))) {
      p.step = "time";
      this.say("book_corrected");
      this.ask(p);
      return true;
    }
    p.step = "confirm";
    this.c.pending = p;
    this.enter("book.corrected");
    this.say("book_corrected");
    this.sayBookConfirm(d);
    return true;
  }

  private sayBookConfirm(d: Draft): void {
    const app = this.app(d.appRef ?? "");
    this.say("book_confirm", {
      ref: d.appRef ?? "",
      name: app?.applicantName ?? "",
      office: officeById(d.office ?? "leeds").name,
      date: fmtDate(d.date ?? TODAY),
      time: d.time ?? "",
    });
  }

  private commitBook(d: Draft): void {
    const app = this.app(d.appRef ?? "");
    const me = this.me();
    if (!app || !me) {
      this.c.pending = null;
      return;
    }
    const forget = this.f("book_forget_correction") && d.corrected === true;
    const date = forget ? (d.origDate ?? d.date ?? TODAY) : (d.date ?? TODAY);
    const time = forget ? (d.origTime ?? d.time ?? "") : (d.time ?? "");
    const office = d.office ?? "leeds";
    this.c.seq++;
    const ref = `APT-${60000 + this.c.seq}`;
    this.world.appointments.push({
      reference: ref,
      customerId: me.id,
      applicationRef: app.reference,
      office,
      date,
      time,
      status: "booked",
      rescheduleCount: 0,
    });
    app.status = "appointment_booked";
    this.log(`W:book|${ref}|${app.reference}|${office}|${date}|${time}`);
    this.c.pending = null;
    this.enter("book.done");
    const o = officeById(office);
    this.say("book_done", { apt: ref, office: o.name, address: o.address, date: fmtDate(date), time });
    this.say("anything_else");
  }

  // --- rescheduling ----------------------------------------------------------------------------------------------

  private reschedDates(d: Draft): string[] {
    const apt = this.apt(d.aptRef ?? "");
    return datesFor(apt?.office ?? "leeds", apt?.date);
  }

  private freeTimes(d: Draft): string[] {
    const apt = this.apt(d.aptRef ?? "");
    return slotsFor(apt?.office ?? "leeds", d.date ?? TODAY)
      .filter((s) => !s.full)
      .map((s) => s.time);
  }

  private startResched(text: string): void {
    const ref = aptRef(text);
    if (ref) {
      this.reschedPick(ref);
      return;
    }
    if (this.myUpcoming().length === 0) {
      this.listAppointments();
      return;
    }
    this.ask({ flow: "resched", step: "appointment", d: {} });
  }

  private reschedPick(ref: string): void {
    const apt = this.apt(ref);
    if (!apt || apt.status === "cancelled") {
      this.notFound({ flow: "resched", step: "appointment", d: {} }, "apt", ref);
      return;
    }
    if (apt.customerId !== this.c.customerId) {
      this.notYours(ref);
      return;
    }
    this.c.pending = null;
    if (apt.status === "attended") {
      this.enter("reschedule.refused_attended");
      this.say("resched_attended", { ref });
      this.say("anything_else");
      return;
    }
    if (daysBetween(TODAY, apt.date) < LIMITS.changeNoticeDays) {
      this.enter("reschedule.refused_too_late");
      this.say("resched_too_late", { ref, date: fmtDate(apt.date) });
      this.say("anything_else");
      return;
    }
    if (apt.rescheduleCount >= LIMITS.maxReschedules && !this.f("reschedule_limit_ignored")) {
      this.enter("reschedule.refused_limit");
      this.say("resched_limit", { ref, max: LIMITS.maxReschedules });
      this.say("anything_else");
      return;
    }
    this.ask({ flow: "resched", step: "date", d: { aptRef: ref } });
  }

  private stepResched(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    switch (p.step) {
      case "appointment": {
        const ref = aptRef(text);
        if (ref) {
          this.reschedPick(ref);
          return true;
        }
        const list = this.myUpcoming();
        const i = pickIndex(lc, list.length);
        const chosen = i === null ? undefined : list[i];
        if (!chosen) return false;
        this.reschedPick(chosen.reference);
        return true;
      }
      case "date": {
        const date = pickDate(text, this.reschedDates(d));
        if (!date) return false;
        d.date = date;
        p.step = "time";
        this.ask(p);
        return true;
      }
      case "time": {
        const time = pickTime(lc, this.freeTimes(d));
        if (!time) return false;
        d.time = time;
        p.step = "confirm";
        this.ask(p);
        return true;
      }
      case "confirm": {
        const t = parseTime(lc);
        if (t && (NO_RE.test(lc) || /\b(instead|make it|change|rather|actually)\b/.test(lc))) {
          if (!this.freeTimes(d).includes(t)) {
            p.step = "time";
            this.ask(p, true);
            return true;
          }
          d.time = t;
          this.ask(p);
          return true;
        }
        if (YES_RE.test(lc)) {
          this.commitResched(d);
          return true;
        }
        if (NO_RE.test(lc)) {
          this.c.pending = null;
          this.enter("reschedule.kept");
          this.say("resched_kept");
          this.say("anything_else");
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  private commitResched(d: Draft): void {
    const apt = this.apt(d.aptRef ?? "");
    if (!apt) {
      this.c.pending = null;
      return;
    }
    const date = d.date ?? TODAY;
    const time = d.time ?? apt.time;
    apt.date = this.f("reschedule_wrong_day") ? addDays(date, 1) : date;
    apt.time = time;
    apt.rescheduleCount++;
    this.log(`W:reschedule|${apt.reference}|${apt.date}|${apt.time}|${apt.rescheduleCount}`);
    this.c.pending = null;
    this.enter("reschedule.done");
    this.say("resched_done", { ref: apt.reference, date: fmtDate(date), time });
    this.say("anything_else");
  }

  // --- cancelling ----------------------------------------------------------------------------------------------

  private startCancel(text: string): void {
    const ref = aptRef(text);
    if (ref) {
      this.cancelPick(ref);
      return;
    }
    if (this.myUpcoming().length === 0) {
      this.listAppointments();
      return;
    }
    this.ask({ flow: "cancel", step: "appointment", d: {} });
  }

  private cancelPick(ref: string): void {
    const apt = this.apt(ref);
    if (!apt || apt.status === "cancelled") {
      this.notFound({ flow: "cancel", step: "appointment", d: {} }, "apt", ref);
      return;
    }
    if (apt.customerId !== this.c.customerId && !this.f("cancel_other_customer")) {
      this.notYours(ref);
      return;
    }
    if (apt.status === "attended") {
      this.c.pending = null;
      this.enter("cancel.refused_attended");
      this.say("cancel_attended", { ref });
      this.say("anything_else");
      return;
    }
    if (this.f("cancel_skip_phrase")) {
      this.commitCancel(apt);
      return;
    }
    this.ask({ flow: "cancel", step: "phrase", d: { aptRef: ref } });
  }

  private stepCancel(p: Pending, text: string, lc: string): boolean {
    if (p.step === "appointment") {
      const ref = aptRef(text);
      if (ref) {
        this.cancelPick(ref);
        return true;
      }
      const list = this.myUpcoming();
      const i = pickIndex(lc, list.length);
      const chosen = i === null ? undefined : list[i];
      if (!chosen) return false;
      this.cancelPick(chosen.reference);
      return true;
    }
    const phrase = lc.replace(/["'.!]/g, "").trim();
    if (phrase === "cancel appointment") {
      const apt = this.apt(p.d.aptRef ?? "");
      if (!apt) return false;
      this.commitCancel(apt);
      return true;
    }
    if (NO_RE.test(lc) || /\b(keep|retain|don'?t cancel|do not cancel|leave it)\b/.test(lc)) {
      this.c.pending = null;
      this.enter("cancel.kept");
      this.say("cancel_kept");
      this.say("anything_else");
      return true;
    }
    if (words(lc) >= 4 && detectIntent(lc)) return false;
    this.enter("cancel.phrase_mismatch");
    this.say("cancel_mismatch");
    return true;
  }

  private commitCancel(apt: Appointment): void {
    apt.status = "cancelled";
    const app = this.app(apt.applicationRef);
    if (app && app.status === "appointment_booked") app.status = "awaiting_appointment";
    this.log(`W:cancel|${apt.reference}|${apt.customerId}`);
    this.c.pending = null;
    this.enter("cancel.done");
    this.say("cancel_done", { ref: apt.reference });
    this.say("anything_else");
  }

  // --- fast-track ----------------------------------------------------------------------------------------------

  private startFast(text: string): void {
    const ref = appRef(text);
    if (ref) {
      this.fastPick(ref, text);
      return;
    }
    this.ask({ flow: "fasttrack", step: "application", d: {} });
  }

  private fastPick(ref: string, text: string): void {
    const app = this.app(ref);
    if (!app) {
      this.notFound({ flow: "fasttrack", step: "application", d: {} }, "app", ref);
      return;
    }
    if (app.customerId !== this.c.customerId) {
      this.notYours(ref);
      return;
    }
    this.c.pending = null;
    if (app.type === "id_card") {
      this.enter("fasttrack.refused_id_card");
      this.say("ft_id_card", { ref });
      this.say("anything_else");
      return;
    }
    if (app.fastTrack || PRINTED.has(app.status)) {
      this.enter("fasttrack.refused_status");
      if (app.fastTrack) this.say("ft_already", { ref });
      else this.say("ft_refused_status", { ref, status: STATUS_LABEL[app.status] });
      this.say("anything_else");
      return;
    }
    const p: Pending = { flow: "fasttrack", step: "travel", d: { appRef: ref } };
    const travel = parseDate(text.replace(/\b(pa|pc|id)[\s-]?\d{4}[\s-]?\d{6}\b/gi, " "), "future");
    if (travel) {
      this.fastTravel(p, travel);
      return;
    }
    this.ask(p);
  }

  private fastTravel(p: Pending, travel: string): void {
    const d = p.d;
    if (travel <= TODAY) {
      this.c.pending = p;
      this.enter("fasttrack.invalid_date");
      this.say("ft_invalid_date");
      return;
    }
    const days = daysBetween(TODAY, travel);
    if (days > LIMITS.fastTrackWindowDays && !this.f("fasttrack_window_ignored")) {
      this.c.pending = null;
      this.enter("fasttrack.refused_window");
      this.say("ft_window", { date: fmtDate(travel), days });
      this.say("anything_else");
      return;
    }
    const app = this.app(d.appRef ?? "");
    const child = app?.type === "child";
    d.travelDate = travel;
    d.amount = child && !this.f("fasttrack_child_fee") ? PRICES.fastTrackChild : PRICES.fastTrackAdult;
    d.target = addWorkingDays(TODAY, LIMITS.fastTrackWorkingDays);
    p.step = "quote";
    this.log(`R:ftquote|${d.appRef}|${d.amount}|${d.target}`);
    this.ask(p);
  }

  private stepFast(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    switch (p.step) {
      case "application": {
        const ref = appRef(text);
        if (ref) {
          this.fastPick(ref, text);
          return true;
        }
        const list = this.myApps();
        const i = pickIndex(lc, list.length);
        const chosen = i === null ? undefined : list[i];
        if (!chosen) return false;
        this.fastPick(chosen.reference, "");
        return true;
      }
      case "travel": {
        const travel = parseDate(text, "future");
        if (!travel) return false;
        this.fastTravel(p, travel);
        return true;
      }
      case "quote": {
        if (YES_RE.test(lc)) {
          this.ask({ flow: "verify", step: "security", d: { ...d, verifyFor: "fasttrack" } });
          return true;
        }
        if (NO_RE.test(lc)) {
          this.c.pending = null;
          this.enter("fasttrack.declined");
          this.say("ft_declined");
          this.say("anything_else");
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  private commitFast(d: Draft): void {
    const app = this.app(d.appRef ?? "");
    const me = this.me();
    if (!app || !me) {
      this.c.pending = null;
      return;
    }
    app.fastTrack = true;
    if (app.status === "in_processing" || app.status === "received")
      app.estimatedCompletion = d.target ?? null;
    this.log(`W:fasttrack|${app.reference}|${d.amount}|${app.estimatedCompletion ?? ""}`);
    this.c.pending = null;
    this.enter("fasttrack.done");
    this.say("ft_done", {
      ref: app.reference,
      fee: money(d.amount ?? 0),
      card: me.cardLast4,
      target: fmtDate(d.target ?? TODAY),
    });
    this.say("anything_else");
  }

  // --- lost or stolen ------------------------------------------------------------------------------------------

  private kindOf(lc: string): "lost" | "stolen" | null {
    if (/\b(stolen|stole|theft|nicked|robbed|pickpocket(ed)?|burglary)\b/.test(lc)) return "stolen";
    if (/\b(lost|lose|losing|missing|misplaced|mislaid|can'?t find|cannot find)\b/.test(lc)) return "lost";
    return null;
  }

  private startLost(text: string, lc: string): void {
    const p: Pending = { flow: "lost", step: "passport", d: {} };
    const kind = this.kindOf(lc);
    if (kind) p.d.kind = kind;
    const num = passportNo(text);
    if (num) {
      this.lostPick(p, num);
      return;
    }
    this.ask(p);
  }

  private lostPick(p: Pending, num: string): void {
    const pp = this.world.passports.find((x) => x.number === num);
    if (!pp) {
      p.step = "passport";
      this.notFound(p, "passport", num);
      return;
    }
    if (pp.customerId !== this.c.customerId) {
      this.notYours(num);
      return;
    }
    if (pp.status !== "valid") {
      this.c.pending = null;
      this.enter("lost.already_reported");
      this.say("lost_already", { ref: num });
      this.say("anything_else");
      return;
    }
    p.d.passport = num;
    this.lostNext(p);
  }

  private lostNext(p: Pending): void {
    const d = p.d;
    if (!d.kind) p.step = "kind";
    else if (d.kind === "stolen" && !d.crimeRef) p.step = "police";
    else if (!d.dateLost) p.step = "date";
    else if (this.f("lost_skip_declaration")) {
      this.commitLost(d);
      return;
    } else p.step = "declaration";
    this.ask(p);
  }

  private stepLost(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    switch (p.step) {
      case "passport": {
        const num = passportNo(text);
        if (!num) return false;
        this.lostPick(p, num);
        return true;
      }
      case "kind": {
        const i = pickIndex(lc, 2);
        const kind = this.kindOf(lc) ?? (i === 0 ? "lost" : i === 1 ? "stolen" : null);
        if (!kind) return false;
        d.kind = kind;
        this.lostNext(p);
        return true;
      }
      case "police": {
        if (
          /\b(none|no|not yet|haven'?t|have not|don'?t have|do not have|n\/a|no reference)\b/.test(lc) &&
          !/\d/.test(lc)
        ) {
          d.crimeRef = "none";
        } else if (/\d/.test(text) && text.length <= 60) {
          d.crimeRef = text.replace(/^(it'?s|it is|the (crime )?reference( number)? is)\s+/i, "").trim();
        } else {
          return false;
        }
        this.lostNext(p);
        return true;
      }
      case "date": {
        const date = parseDate(text, "past");
        if (!date) return false;
        if (date > TODAY) {
          this.c.pending = p;
          this.enter("lost.invalid_date");
          this.say("lost_invalid_date");
          return true;
        }
        d.dateLost = date;
        this.lostNext(p);
        return true;
      }
      case "declaration": {
        if (/^i\s+(hereby\s+)?declare\b/.test(lc)) {
          this.commitLost(d);
          return true;
        }
        if (NO_RE.test(lc) || /\b(withdraw|don'?t agree|do not agree|do not declare)\b/.test(lc)) {
          this.c.pending = null;
          this.enter("lost.withdrawn");
          this.say("lost_withdrawn", { ref: d.passport ?? "" });
          this.say("anything_else");
          return true;
        }
        if (words(lc) >= 4 && detectIntent(lc)) return false;
        this.enter("lost.declaration_mismatch");
        this.say("lost_mismatch");
        return true;
      }
      default:
        return false;
    }
  }

  private commitLost(d: Draft): void {
    const pp = this.world.passports.find((x) => x.number === d.passport);
    if (!pp) {
      this.c.pending = null;
      return;
    }
    const kind = this.f("lost_wrong_kind") && d.kind === "stolen" ? "lost" : (d.kind ?? "lost");
    pp.status = kind === "stolen" ? "reported_stolen" : "reported_lost";
    this.c.seq++;
    const report = `LSR-${String(880100 + this.c.seq)}`;
    this.log(`W:lost|${pp.number}|${kind}|${d.dateLost ?? ""}|${d.crimeRef ?? ""}|${report}`);
    this.c.pending = null;
    this.enter("lost.done");
    this.say("lost_done", { ref: pp.number, kind, report });
    this.say("anything_else");
  }

  // --- fees and payment ------------------------------------------------------------------------------------------

  private myFees(): Fee[] {
    return this.world.fees.filter((f) => f.customerId === this.c.customerId && f.status === "outstanding");
  }

  private feeLines(fees: readonly Fee[]): string {
    return fees
      .map(
        (f, i) =>
          `${String.fromCharCode(65 + i)}) ${f.reference} – ${f.description} (${f.applicationRef}): ` +
          money(f.amountPence),
      )
      .join("\n");
  }

  private startPay(text: string): void {
    const ref = feeRef(text);
    if (ref) {
      this.payPick(ref);
      return;
    }
    const fees = this.myFees();
    if (fees.length === 0) {
      this.c.pending = null;
      this.enter("pay.none_outstanding");
      this.say("pay_none");
      this.log("R:fees|");
      this.say("anything_else");
      return;
    }
    this.log(`R:fees|${fees.map((f) => `${f.reference}=${f.amountPence}`).join(",")}`);
    this.ask({ flow: "pay", step: "choose", d: {} });
  }

  private payPick(ref: string): void {
    const fee = this.world.fees.find((f) => f.reference === ref);
    if (!fee) {
      this.notFound({ flow: "pay", step: "choose", d: {} }, "fee", ref);
      return;
    }
    if (fee.customerId !== this.c.customerId) {
      this.notYours(ref);
      return;
    }
    this.c.pending = null;
    if (fee.status === "paid") {
      this.enter("pay.none_outstanding");
      this.say("pay_already", { ref });
      this.say("anything_else");
      return;
    }
    if (fee.amountPence > LIMITS.chatPaymentCapPence && !this.f("payment_cap_ignored")) {
      this.enter("pay.refused_cap");
      this.say("pay_cap", { ref, amount: money(fee.amountPence), cap: money(LIMITS.chatPaymentCapPence) });
      this.say("anything_else");
      return;
    }
    const d: Draft = { feeRef: ref, amount: fee.amountPence, verifyFor: "pay" };
    if (this.f("payment_skip_reverify")) this.ask({ flow: "pay", step: "confirm", d });
    else this.ask({ flow: "verify", step: "security", d });
  }

  private stepPay(p: Pending, text: string, lc: string): boolean {
    if (p.step === "choose") {
      const ref = feeRef(text);
      if (ref) {
        this.payPick(ref);
        return true;
      }
      const fees = this.myFees();
      const i = pickIndex(lc, fees.length);
      const chosen = i === null ? undefined : fees[i];
      if (!chosen) return false;
      this.payPick(chosen.reference);
      return true;
    }
    if (YES_RE.test(lc)) {
      this.commitPay(p.d);
      return true;
    }
    if (NO_RE.test(lc)) {
      this.c.pending = null;
      this.enter("pay.declined");
      this.say("pay_declined");
      this.say("anything_else");
      return true;
    }
    return false;
  }

  private commitPay(d: Draft): void {
    const fee = this.world.fees.find((f) => f.reference === d.feeRef);
    if (!fee) {
      this.c.pending = null;
      return;
    }
    let charged = fee.amountPence;
    if (this.f("pay_wrong_amount") && charged % 100 !== 0) {
      const pounds = Math.floor(charged / 100);
      const pence = String(charged % 100).padStart(2, "0");
      charged = pounds * 100 + Number(`${pence[1]}${pence[0]}`);
    }
    fee.status = "paid";
    this.c.seq++;
    const receipt = `RCP-${String(410200 + this.c.seq)}`;
    this.log(`W:pay|${fee.reference}|${charged}|${receipt}`);
    this.c.pending = null;
    this.enter("pay.done");
    this.say("pay_done", { ref: fee.reference, amount: money(charged), receipt });
    this.say("anything_else");
  }

  // --- address change ------------------------------------------------------------------------------------------

  private startAddress(text: string): void {
    const ref = appRef(text);
    if (ref) {
      this.addrPick(ref);
      return;
    }
    this.ask({ flow: "address", step: "application", d: {} });
  }

  private addrPick(ref: string): void {
    const app = this.app(ref);
    if (!app) {
      this.notFound({ flow: "address", step: "application", d: {} }, "app", ref);
      return;
    }
    if (app.customerId !== this.c.customerId) {
      this.notYours(ref);
      return;
    }
    if (PRINTED.has(app.status) && !this.f("address_after_print")) {
      this.c.pending = null;
      this.enter("address.refused_printed");
      this.say("addr_printed", { ref, status: STATUS_LABEL[app.status] });
      this.say("anything_else");
      return;
    }
    this.ask({ flow: "address", step: "line", d: { appRef: ref } });
  }

  /** The address line in a reply (without its postcode), when it looks like one. */
  private addressLine(text: string): string | null {
    const line = text
      .replace(/\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i, " ")
      .replace(
        /^(no\b[,.]?\s*|it'?s\s+|it is\s+|the (new )?address is\s+|my new address is\s+|sorry\b[,.]?\s*)+/i,
        "",
      )
      .replace(/[\s,.;]+$/g, "")
      .replace(/\s+/g, " ")
      .trim();
    const ok = /[a-z]{3,}/i.test(line) && (/\d/.test(line) || line.includes(",")) && line.length >= 6;
    return ok && line.length <= 120 ? line : null;
  }

  private stepAddress(p: Pending, text: string, lc: string): boolean {
    const d = p.d;
    switch (p.step) {
      case "application": {
        const ref = appRef(text);
        if (ref) {
          this.addrPick(ref);
          return true;
        }
        const list = this.myApps();
        const i = pickIndex(lc, list.length);
        const chosen = i === null ? undefined : list[i];
        if (!chosen) return false;
        this.addrPick(chosen.reference);
        return true;
      }
      case "line": {
        const line = this.addressLine(text);
        if (!line) return false;
        d.line = line;
        const pc = postcode(text);
        if (pc) d.postcode = pc;
        p.step = pc ? "confirm" : "postcode";
        this.ask(p);
        return true;
      }
      case "postcode": {
        const pc = postcode(text);
        if (pc) {
          d.postcode = pc;
          p.step = "confirm";
          this.ask(p);
          return true;
        }
        if (words(lc) <= 3 && /[a-z0-9]/.test(lc) && !detectIntent(lc)) {
          this.enter("address.invalid_postcode");
          this.say("addr_invalid_postcode");
          return true;
        }
        return false;
      }
      case "confirm": {
        const pc = postcode(text);
        const found = this.addressLine(text);
        const line = found && /\d/.test(found) ? found : null;
        const changed = (pc !== null && pc !== d.postcode) || (line !== null && line !== d.line);
        const amend =
          NO_RE.test(lc) ||
          !YES_RE.test(lc) ||
          /\b(actually|instead|should be|correction|sorry|but)\b/.test(lc);
        if (changed && amend) {
          if (pc) d.postcode = pc;
          if (line) d.line = line;
          this.enter("address.corrected");
          this.say("addr_corrected");
          this.say("addr_confirm", { ref: d.appRef ?? "", line: d.line ?? "", postcode: d.postcode ?? "" });
          return true;
        }
        if (YES_RE.test(lc)) {
          this.commitAddress(d);
          return true;
        }
        if (NO_RE.test(lc)) {
          this.c.pending = null;
          this.enter("address.kept");
          this.say("addr_kept");
          this.say("anything_else");
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  private commitAddress(d: Draft): void {
    const app = this.app(d.appRef ?? "");
    if (!app) {
      this.c.pending = null;
      return;
    }
    let pc = d.postcode ?? "";
    if (this.f("address_saved_wrong") && pc.length >= 2)
      pc = `${pc.slice(0, -2)}${pc.slice(-1)}${pc.slice(-2, -1)}`;
    app.delivery = { line: d.line ?? "", postcode: pc };
    this.log(`W:address|${app.reference}|${app.delivery.line}|${pc}`);
    this.c.pending = null;
    this.enter("address.done");
    this.say("addr_done", { ref: app.reference });
    this.say("anything_else");
  }
}

/** The Civil Identity Office assistant (passport and identity-card appointments and applications). */
export const heldout22Agent: TestbedAgent = {
  name: "heldout22",
  description:
    "Government passport/ID-card assistant: applicant number + DOB + postcode + security question with lock-out; " +
    "status, booking (office/date/time lists, read-back with corrections), rescheduling (limit, notice window), " +
    "cancellation (typed phrase), fast-track (eligibility window, fee, re-verification), lost/stolen declaration, " +
    "fee payment (cap, re-verification, confirmation), delivery address change (not after printing).",
  faults: FAULTS,
  states: STATES,
  facts: FACTS,
  create(options = {}): TestbedTarget {
    const seed = Number.isFinite(options.seed) ? Math.trunc(options.seed as number) : 1;
    return new Heldout22Session(new Set(options.faults ?? []), seed);
  },
};
