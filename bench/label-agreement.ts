/**
 * Paraphrase agreement of the `rules` labeller (issue 15 §3, "checks tolerate paraphrase"): discovery's sessions
 * replayed turn for turn on the same agent under other paraphrase seeds, each reply labelled, and the label's
 * family (types.ts `cueOf`; every `inform_*` one family) compared with the seed-1 reply's. A disagreement is a
 * check that holds under one wording and not another: stabilisation drops it (a weaker plan) or, on a seed it
 * never saw, a clean agent fails it (a false alarm). Used by bench/boundary-agents.ts.
 */
import { labelReply } from "../src/boundary/abstract.ts";
import { cueOf, type Facts } from "../src/boundary/types.ts";
import type { TestbedAgent } from "./agents/testbed.ts";

/** An activity's family: its cue, every information reply one family. */
const family = (activity: string) => (activity.startsWith("inform") ? "inform" : cueOf(activity));

/** The result of {@link labelAgreement}. */
export interface Agreement {
  /** Replies compared (turns × seeds). */
  turns: number;
  /** Of those, replies whose label family matched seed 1's. */
  agree: number;
  /** Disagreeing label pairs (`seed-1 label | other label`), most frequent first, with one example of each. */
  pairs: { pair: string; count: number; seed1: string; other: string }[];
  /** The same disagreements by label family only (`request_confirmation | inform`): no wording, no topic. */
  families: { pair: string; count: number }[];
}

/**
 * Replay each session's user turns on `agent` under each of `seeds` and compare the label families of the replies
 * turn by turn with the session's own (seed-1) replies. `sessions` are discovery traces, run on seed 1.
 * @throws nothing of the agent's: a testbed agent answers every turn (a thrown error propagates as a bench bug)
 */
export async function labelAgreement(
  agent: TestbedAgent,
  facts: Facts,
  sessions: readonly { turns: readonly { user: string; reply: string }[] }[],
  seeds: readonly number[],
): Promise<Agreement> {
  const pairs = new Map<string, { count: number; seed1: string; other: string }>();
  const families = new Map<string, number>();
  let turns = 0;
  let agree = 0;
  const replies = async (seed: number, users: readonly string[]) => {
    const target = agent.create({ seed });
    await target.reset();
    const out: string[] = [];
    for (const u of users) out.push((await target.send(u)).text);
    await target.close();
    return out;
  };
  for (const session of sessions) {
    const users = session.turns.map((t) => t.user);
    // Discovery ran on seed 1: its replies are the seed-1 ones (a testbed agent is deterministic per seed).
    const base = session.turns.map((t) => t.reply);
    const baseLabels = base.map((r) => labelReply(r, facts).activity);
    for (const seed of seeds) {
      const other = await replies(seed, users);
      other.forEach((reply, i) => {
        const a = baseLabels[i] ?? "";
        const b = labelReply(reply, facts).activity;
        turns++;
        if (family(a) === family(b)) {
          agree++;
          return;
        }
        const kinds = `${family(a)} | ${family(b)}`;
        families.set(kinds, (families.get(kinds) ?? 0) + 1);
        const key = `${a} | ${b}`;
        const seen = pairs.get(key);
        if (seen) seen.count++;
        else pairs.set(key, { count: 1, seed1: base[i] ?? "", other: reply });
      });
    }
  }
  return {
    turns,
    agree,
    pairs: [...pairs].map(([pair, v]) => ({ pair, ...v })).sort((x, y) => y.count - x.count),
    families: [...families].map(([pair, count]) => ({ pair, count })).sort((x, y) => y.count - x.count),
  };
}
