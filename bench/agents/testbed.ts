import type { ChatTarget } from "../../src/agents/chat/target.ts";
import type { Facts } from "../../src/boundary/types.ts";

/**
 * A chat agent built to measure the boundary suite (issue 15): its seeded faults, its designed dialogue
 * states, and a privileged view (states visited, effects) that the tester never sees. `bench/boundary-agents.ts`
 * plans against the clean agent, runs the plan over several paraphrase seeds and with each fault on, and prints
 * the kill matrix, false-alarm rate, inconclusive rate, distinct boundaries, duplicate rate and the share of the
 * designed states discovery reached.
 */
export interface TestbedAgent {
  /** Short name, e.g. `airline`. */
  readonly name: string;
  /** One line: domain and gate structure. */
  readonly description: string;
  /** Seeded fault ids, in order (each switchable on its own). */
  readonly faults: readonly string[];
  /**
   * The designed dialogue states (ids such as `auth.ask_pin`, `transfer.confirm`, `refill.refused_too_early`):
   * the denominator of discovery's state coverage. Every id a target reports in `statesVisited()` is one of these.
   */
  readonly states: readonly string[];
  /** What a tester knows before it starts (personas' slot values, extra requests): a facts file's content. */
  readonly facts: Facts;
  /** A fresh agent: `faults` switched on (default none), `seed` picks the paraphrases (default 1). */
  create(options?: { faults?: readonly string[]; seed?: number }): TestbedTarget;
}

/** A testbed agent's chat target with its privileged view (for the measurement only, never the tester). */
export interface TestbedTarget extends ChatTarget {
  /** Designed states entered since the last `reset()`, in order (repeats allowed). */
  statesVisited(): readonly string[];
  /**
   * A fingerprint of what this session did beyond its words: writes committed (with their values) and tool or
   * database outputs the agent relayed. Two sessions with the same user turns on the clean and a faulty agent
   * differ here when the fault acted (AgentEval §VI-B kill confirmation).
   */
  fingerprint(): string;
}
