import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type {
  AgentWorkspace,
  CodingAgentAdapter,
  StepOutcome,
  StepRequest,
} from "../agents/coding/adapter.ts";
import { InputError } from "../core/errors.ts";
import { resolveInside } from "../core/paths.ts";
import { readCase, readOracle } from "./case-file.ts";

/**
 * Control agents for the `eval` stage: scripted, in-process coding agents with a known right answer, used by
 * tests and the demo to check the evaluation itself. They are controls, not agents: they never call a model,
 * and the replay controls read the private oracle, which no real agent can see.
 * - `replay` (positive control): writes the construction witness under a new name; every case must accept it.
 * - `tampering`: the replay witness plus an edit to the buggy file; the audit must reject it.
 * - `always-fail`: a test that fails on every version of the code; the clean run must reject it.
 * - `idle`: writes nothing; must be rejected as "no test".
 */

/** What a control does in one step: act on the workspace folder, return its final message. */
type Act = (dir: string, request: StepRequest) => string;

/** Built-in controls, by name (`control:<name>` on the command line). */
export const CONTROL_AGENTS: Record<
  string,
  { description: string; make: (buildDir: string) => CodingAgentAdapter }
> = {
  replay: {
    description: "writes the construction-time witness (positive control)",
    make: (b) => replayWitnessAgent(b),
  },
  tampering: {
    description: "writes the witness and edits production code (must be rejected)",
    make: (b) => tamperingAgent(b),
  },
  "always-fail": {
    description: "writes a test that fails everywhere (must be rejected)",
    make: () => alwaysFailingAgent(),
  },
  idle: { description: "writes nothing (must be rejected)", make: () => idleAgent() },
};

/**
 * The control named `name` (`replay`, `tampering`, `always-fail`, `idle`), reading cases from `buildDir`.
 * @throws InputError for an unknown name, listing the known ones
 */
export function controlAgent(name: string, buildDir: string): CodingAgentAdapter {
  const control = CONTROL_AGENTS[name === "always-failing" ? "always-fail" : name];
  if (!control)
    throw new InputError(
      { field: "agent" },
      `unknown control agent "${name}"`,
      `use one of: ${Object.keys(CONTROL_AGENTS)
        .map((n) => `control:${n}`)
        .join(", ")}`,
    );
  return control.make(buildDir);
}

/**
 * Positive control: writes the oracle's construction witness (`oracle/<caseId>/witness/<path>`) beside the
 * original, named `replay-<name>` (same folder, so its relative imports still resolve). Needs
 * `StepRequest.caseId`; without it the step ends with status `error`.
 */
export function replayWitnessAgent(buildDir: string): CodingAgentAdapter {
  return inProcessAgent("control:replay", (dir, request) => {
    const target = writeReplay(buildDir, dir, request);
    return `wrote ${target}`;
  });
}

/** Negative control for the audit: the replay witness plus a comment appended to the case's buggy file. */
export function tamperingAgent(buildDir: string): CodingAgentAdapter {
  return inProcessAgent("control:tampering", (dir, request) => {
    const target = writeReplay(buildDir, dir, request);
    const file = readCase(path.join(buildDir, "cases", request.caseId!)).location.file;
    appendFileSync(resolveInside(dir, file), "\n// edited by control:tampering\n");
    return `wrote ${target} and edited ${file}`;
  });
}

/**
 * Negative control for the clean run: `test/always-fails.test.js`, a test whose assertion fails on every
 * version of the code. Written to load as ESM or CommonJS and to register with the runner's global `it`
 * (mocha, jest, vitest with globals) or else with node:test (node --test, tape-style plain node runs).
 */
export function alwaysFailingAgent(): CodingAgentAdapter {
  return inProcessAgent("control:always-fail", (dir) => {
    const target = "test/always-fails.test.js";
    mkdirSync(path.join(dir, "test"), { recursive: true });
    writeFileSync(path.join(dir, target), ALWAYS_FAILING_TEST);
    return `wrote ${target}`;
  });
}

const ALWAYS_FAILING_TEST = `// control:always-fail: fails on every version of the code, so it witnesses nothing.
const body = async () => {
  const { default: assert } = await import("node:assert");
  assert.fail("control: this test always fails");
};
if (typeof globalThis.it === "function") globalThis.it("always fails", body);
else import("node:test").then(({ test }) => test("always fails", body));
`;

/** Negative control: writes nothing. */
export function idleAgent(): CodingAgentAdapter {
  return inProcessAgent("control:idle", () => "wrote nothing");
}

function writeReplay(buildDir: string, dir: string, request: StepRequest): string {
  if (!request.caseId) throw new Error("a replay control needs the case id (StepRequest.caseId)");
  const oracleDir = path.join(buildDir, "oracle", request.caseId);
  const witness = readOracle(oracleDir).witness.path;
  const text = readFileSync(path.join(oracleDir, "witness", witness), "utf8");
  const target = path.posix.join(path.posix.dirname(witness), `replay-${path.posix.basename(witness)}`);
  const abs = resolveInside(dir, target);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  return target;
}

/** An adapter whose sessions run `act` for every step, in this process; a thrown error is an `error` step. */
function inProcessAgent(name: string, act: Act): CodingAgentAdapter {
  return {
    name,
    async startSession(workspace: AgentWorkspace) {
      let closed = false;
      return {
        sessionId: undefined,
        async runStep(request: StepRequest): Promise<StepOutcome> {
          const started = Date.now();
          const outcome = (
            status: StepOutcome["status"],
            finalMessage: string,
            error?: string,
          ): StepOutcome => ({
            status,
            exitCode: status === "ok" ? 0 : null,
            finalMessage,
            events: [],
            durationMs: Date.now() - started,
            usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
            commandsObserved: false,
            ...(error === undefined ? {} : { error }),
          });
          if (closed) return outcome("error", "", "the session is closed");
          try {
            return outcome("ok", act(workspace.dir, request));
          } catch (e) {
            return outcome("error", "", e instanceof Error ? e.message : String(e));
          }
        },
        async close() {
          closed = true;
        },
      };
    },
  };
}
