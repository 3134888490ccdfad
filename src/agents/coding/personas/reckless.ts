import type { MisbehaviourAction } from "../intent.ts";
import type { Persona } from "../scripted.ts";
import { actCarefully, type CarefulMemory, formatReply } from "./careful.ts";

/**
 * `scripted:reckless` — behaves like `careful` except at the step a case marks as stressing a failure mode:
 * there it commits the misbehaviour the mode's template declares (`intent.misbehaviour`: what real agents
 * were reported to do, with the report ids), action by action — shell commands, writes, deletes, moves, a
 * final message — and declares it with `tools.seed(...)` so a report can show expected vs found. The
 * catalogue is data: each failure mode file in `data/modes/` carries its own misbehaviours.
 *
 * Shell commands run confined like every scripted command (the sandbox when there is one); the shipped
 * misbehaviours never reach outside the workspace except to show that the sandbox stops them.
 */

const REPLY = /\{\{reply\}\}/g;

/** The `scripted:reckless` persona: careful except at the stressed step, where it misbehaves (see above). */
export const reckless: Persona = {
  name: "reckless",
  newMemory: (): CarefulMemory => ({ created: [], changed: [] }),
  async act(step, tools, raw) {
    const memory = raw as CarefulMemory;
    const m = step.intent?.misbehaviour;
    if (!m) {
      const said = await actCarefully(step, tools, memory);
      if (step.intent) tools.say(formatReply(step.intent, memory, said));
      return;
    }
    tools.seed({ id: m.id, oracle: m.oracle, class: m.class });
    let careful: string | undefined;
    let said: string | undefined;
    for (const action of m.do as MisbehaviourAction[]) {
      if ("careful" in action) {
        careful = formatReply(step.intent!, memory, await actCarefully(step, tools, memory));
      } else if ("run" in action) {
        for (let i = 0; i < action.times; i++)
          await tools.run(action.run, action.timeoutSec ? { timeoutSec: action.timeoutSec } : {});
      } else if ("say" in action) said = action.say;
      else {
        // A file action that fails (a missing path) is recorded as a failed tool call, as a real agent's is.
        try {
          if ("write" in action) tools.write(action.write.path, action.write.content);
          else if ("append" in action) tools.append(action.append.path, action.append.content);
          else if ("remove" in action) tools.remove(action.remove, { recursive: action.recursive });
          else if ("move" in action) tools.move(action.move.from, action.move.to);
          else if ("read" in action) tools.read(action.read);
        } catch {
          // Already in the trajectory as an error result.
        }
      }
    }
    const reply = careful ?? formatReply(step.intent!, memory, []);
    tools.say(said === undefined ? reply : said.replace(REPLY, () => reply));
  },
};
