import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Whether `program` (a path, or a name looked up on PATH) is an executable file, exists but is not executable, or is missing. */
export function findProgram(
  program: string,
  pathVar = process.env.PATH ?? "",
): "ok" | "not-executable" | "missing" {
  const check = (p: string): "ok" | "not-executable" | "missing" => {
    try {
      if (!statSync(p).isFile()) return "missing";
    } catch {
      return "missing";
    }
    try {
      accessSync(p, constants.X_OK);
      return "ok";
    } catch {
      return "not-executable";
    }
  };
  if (program.includes("/")) return check(path.resolve(program));
  const results = pathVar
    .split(":")
    .filter(Boolean)
    .map((dir) => check(path.join(dir, program)));
  return results.includes("ok") ? "ok" : results.includes("not-executable") ? "not-executable" : "missing";
}
