import { AIRLINE_FAULTS, type AirlineFaults, airlineTarget } from "../../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../../src/agents/chat/airline/facts.ts";
import { TEMPLATES } from "../../src/agents/chat/airline/templates.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * The built-in airline agent (τ-bench airline policy, `src/agents/chat/airline/`) as a testbed agent: its
 * designed states are its reply kinds (the template keys, e.g. `airline.ask_user_id`, `airline.refuse`), its
 * fingerprint the database hash plus the tool results it relayed.
 */
export const airlineAgent: TestbedAgent = {
  name: "airline",
  description: "airline desk: user id + reservation id gates, yes/no confirmation, policy refusals (τ-bench)",
  faults: AIRLINE_FAULTS,
  states: Object.keys(TEMPLATES).map((act) => `airline.${act}`),
  facts: AIRLINE_FACTS,
  create(options = {}): TestbedTarget {
    const faults: AirlineFaults = Object.fromEntries((options.faults ?? []).map((f) => [f, true]));
    const target = airlineTarget({ seed: options.seed ?? 1, faults });
    return {
      name: target.name,
      reset: () => target.reset(),
      send: (text) => target.send(text),
      close: () => target.close(),
      statesVisited: () => target.privileged().acts.map((act) => `airline.${act}`),
      fingerprint() {
        const view = target.privileged();
        const relayed = view.trace.map((c) => `${c.name}:${JSON.stringify(c.result ?? c.error ?? null)}`);
        return `${view.dbHash}|${relayed.join(";")}`;
      },
    };
  },
};
