import type { Facts } from "../../../boundary/types.ts";

/**
 * What a tester playing customers of the reference airline knows before it starts (the "benchmark-provided
 * seed", AgentEval §V-A): the three customers of `seedAirlineDb` (seed.ts) with what a real customer would have —
 * their user id, their own reservation ids, why they might cancel, a trip they might search for, how many
 * checked bags they want. Nothing the agent's database alone knows (memberships, fares, flight statuses,
 * eligibility) is here; the tester learns those only from the agent's replies.
 *
 * `requests` adds two things customers ask for that the agent does not list among its services.
 */
export const AIRLINE_FACTS: Facts = {
  personas: [
    {
      user_id: ["mia_li_3668"],
      reservation_id: ["HAT1A1", "HAT3C3", "HAT6F6"],
      reason: ["change of plan"],
      route: ["from SFO to JFK on 2024-05-18"],
      bags: ["2"],
    },
    {
      user_id: ["omar_davis_3817"],
      reservation_id: ["HAT2B2", "HAT5E5", "HAT7G7"],
      reason: ["change of plan", "the airline cancelled my flight"],
      route: ["from LAX to SEA on 2024-05-19"],
      bags: ["1"],
    },
    {
      user_id: ["sofia_kim_7287"],
      reservation_id: ["HAT4D4", "HAT8H8"],
      reason: ["health", "weather"],
      route: ["from BOS to MIA on 2024-05-21"],
      bags: ["3"],
    },
  ],
  requests: ["get compensation for a delayed flight", "add travel insurance to a reservation"],
};
