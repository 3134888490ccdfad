/**
 * A conversational agent under test, seen only through its chat interface (AgentEval §II-A): start a
 * fresh conversation, send a user turn, read the agent's reply. Everything the boundary suite learns
 * about an agent comes through this interface, so the same tests run against an HTTP bot, a local
 * program or the built-in reference agent.
 */

/** One reply of the agent to one user turn. */
export interface ChatReply {
  /** The agent's reply text (empty when it said nothing). */
  text: string;
  /** Wall time from sending the turn to the whole reply, ms. */
  ms: number;
}

/** A chat target (AgentEval §II-A: `reset()` and `send(text) → reply`). */
export interface ChatTarget {
  /** Display name, e.g. `http:support-bot`. */
  readonly name: string;
  /** Start a fresh conversation: no memory of earlier turns. */
  reset(): Promise<void>;
  /**
   * Send one user turn and wait for the reply.
   * @throws TargetError when the target cannot answer (unreachable, bad response, timeout)
   */
  send(text: string): Promise<ChatReply>;
  /** Release what the target holds (processes, connections). Safe to call twice. */
  close(): Promise<void>;
}

/** The target could not answer a turn: the reason is one line a person can act on. */
export class TargetError extends Error {
  constructor(
    readonly target: string,
    message: string,
  ) {
    super(`${target}: ${message}`);
    this.name = "TargetError";
  }
}
