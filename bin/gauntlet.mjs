#!/usr/bin/env node
// Entry point of the `gauntlet` command: loads the TypeScript CLI through tsx, so no build step is needed.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv);
