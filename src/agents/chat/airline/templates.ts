/**
 * What the reference airline agent says (issue 5 §1): each act has several paraphrases, one chosen per
 * reply by a seeded PRNG, so the boundary suite's abstraction step (turn → activity) is really exercised
 * while every run with the same seed says the same words. `{name}` slots are filled from the values given.
 */
export const TEMPLATES: Record<string, string[]> = {
  greet: [
    "Hello! This is HAT Airlines customer service. How can I help you today?",
    "Hi, thanks for contacting HAT Airlines. What can I do for you?",
    "Welcome to HAT Airlines support. How may I assist you?",
  ],
  ask_user_id: [
    "Could you please give me your user id?",
    "To continue I need your user id, please.",
    "May I have your user id first?",
  ],
  ask_reservation_id: [
    "Which reservation is it? Please give me the reservation id.",
    "Could you tell me the reservation id?",
    "Please share the reservation id you are asking about.",
  ],
  ask_reason: [
    "What is the reason for the cancellation: change of plan, a flight cancelled by the airline, health, or weather?",
    "May I ask why you want to cancel? (change of plan, airline cancellation, health or weather)",
  ],
  ask_cabin: [
    "Which cabin would you like: basic economy, economy or business?",
    "To which cabin should I move the reservation (basic economy, economy, business)?",
  ],
  ask_bags: [
    "How many checked bags should the reservation have in total?",
    "What total number of checked bags would you like?",
  ],
  unknown_user: [
    "I could not find a user with the id {user}. Could you check it?",
    "There is no user {user} in our system. Please verify the id.",
  ],
  unknown_reservation: [
    "I could not find reservation {reservation}.",
    "Reservation {reservation} does not exist in our system.",
  ],
  not_owner: [
    "Reservation {reservation} is not under your user id, so I cannot act on it.",
    "I'm sorry, reservation {reservation} does not belong to your account.",
  ],
  confirm: [
    "Here is what I will do: {summary}. Shall I proceed? Please answer yes or no.",
    "To confirm: {summary}. Do you want me to go ahead (yes/no)?",
    "I am about to {summary}. Please confirm with yes to proceed.",
  ],
  done: ["Done: {summary}.", "All set. {summary} has been completed.", "It's done: {summary}."],
  aborted: [
    "Okay, I will not make that change.",
    "Understood, nothing has been changed.",
    "No problem, I've left the reservation as it is.",
  ],
  refuse: [
    "I'm sorry, I can't do that: {why}.",
    "Unfortunately that is not possible: {why}.",
    "I am not able to help with that, because {why}.",
  ],
  failed: ["The change could not be made: {why}.", "Something went wrong on our side: {why}."],
  status: ["Flight {flight} on {date} is {status}.", "The status of {flight} on {date}: {status}."],
  reservation: [
    "Reservation {reservation}: {route}, {cabin}, {passengers} passenger(s), flights {flights}, insurance: {insurance}, total paid {total}.",
    "Here are the details of {reservation}: {route} in {cabin} for {passengers} passenger(s); flights {flights}; travel insurance {insurance}; fare total {total}.",
  ],
  flights: ["I found these flights: {list}.", "Available options: {list}."],
  ask_route: [
    "Which route and date? For example: from SFO to JFK on 2024-05-18.",
    "Please tell me the origin, destination and travel date.",
  ],
  no_flights: [
    "I found no available direct flights for that route and date.",
    "There are no direct flights available then.",
  ],
  compensation: [
    "I'm sorry for the trouble. I have issued a travel certificate of {amount} to your account.",
    "As a gesture for the disruption, a {amount} travel certificate has been added to your profile.",
  ],
  transfer: ["YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."],
  fallback: [
    "I can help you cancel a reservation, change its cabin, add checked bags, check a flight's status, show a reservation's details or search for flights. What would you like to do?",
    "Sorry, I didn't get that. I can cancel a reservation, change its cabin, add checked bags, check a flight's status, show a reservation's details or search for flights.",
  ],
  bye: [
    "Thank you for contacting HAT Airlines. Have a great day!",
    "You're welcome. Goodbye and safe travels!",
  ],
};

/** Fill `{name}` slots of a template. */
export function render(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
