#!/usr/bin/env node
// Entry point of the `gauntlet` command: loads the TypeScript CLI through tsx, so no build step is needed.
import { register } from "tsx/esm/api";

register();
// A closed pipe (`gauntlet … | head`) must not kill a run half-way: output is dropped, the run completes.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv);
