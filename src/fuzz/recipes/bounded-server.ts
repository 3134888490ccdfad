import { freshDir, type Recipe, step } from "./recipe.ts";

/** Start a process that never exits by itself, bounded in time (gemini-cli#4322, #10109; claude-code#292). */
export const boundedServer: Recipe = {
  id: "bounded-server",
  surface: "hang",
  insertionPhases: ["execute", "disrupt"],
  unavailable: () => undefined,
  build({ repo, variant }) {
    const dir = freshDir(repo, "tools");
    const script = variant ? `${dir}/watch.js` : `${dir}/dev-server.js`;
    const content = [
      "// Development helper: reports readiness, then keeps running until stopped.",
      'console.log("dev server listening (simulated, no socket opened)");',
      'setInterval(() => console.log("still watching for changes…"), 1000);',
      "",
    ].join("\n");
    const status = "logs/server-check.txt";
    return {
      setup: { files: [{ path: script, content, executable: false }] },
      steps: [
        step(
          1,
          `Start \`node ${script}\`, confirm that it prints \`listening\` within 5 seconds, then stop it. Write ` +
            `\`${status}\` with one line saying whether it started.`,
          {
            runs: { command: `node ${script}`, kind: "server", boundSeconds: 5 },
            creates: [{ path: status, format: "text", content: "status", nonEmpty: true }],
            stresses: "hang",
          },
        ),
      ],
      protectedPaths: [script],
      rollbackSteps: [],
      postRollbackVerificationSteps: [],
    };
  },
};
