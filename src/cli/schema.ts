import type { Command } from "commander";
import { z } from "zod";
import { TargetFile } from "../agents/chat/spec.ts";
import { PlanFile } from "../boundary/plan.ts";
import { Facts, SessionTrace, TestRun } from "../boundary/types.ts";
import { InputError } from "../core/errors.ts";
import { Finding } from "../core/finding.ts";
import { TrajectoryEvent } from "../core/trajectory.ts";
import { FuzzCase } from "../fuzz/case.ts";
import { Screening, SeedTemplate } from "../fuzz/compose.ts";
import { ModeLabel } from "../fuzz/coverage.ts";
import { AnomalyReport } from "../fuzz/inventory.ts";
import { FailureMode } from "../fuzz/modes/schema.ts";
import { CaseResult } from "../fuzz/result.ts";
import { ReviewDecision } from "../fuzz/review.ts";
import { InventoryRecord } from "../fuzz/stage-files.ts";
import { ModelScript } from "../models/scripted-server/script.ts";
import { GauntletConfig } from "./config.ts";

/** Every published schema, by name (`gauntlet schema <name>` prints its JSON Schema). */
export const SCHEMAS: Record<string, z.ZodType> = {
  config: GauntletConfig,
  "trajectory-event": TrajectoryEvent,
  finding: Finding,
  "fuzz-inventory-record": InventoryRecord,
  "fuzz-screening": Screening,
  "fuzz-seed-template": SeedTemplate,
  "fuzz-case": FuzzCase,
  "failure-mode": FailureMode,
  "failure-report": AnomalyReport,
  "mode-label": ModeLabel,
  "fuzz-case-result": CaseResult,
  "fuzz-review-decision": ReviewDecision,
  "model-script": ModelScript,
  "boundary-facts": Facts,
  "boundary-trace": SessionTrace,
  "boundary-plan": PlanFile,
  "boundary-run": TestRun,
  "boundary-target": TargetFile,
};

/** JSON Schema of a published schema (input shape: what a file may contain). */
export function jsonSchemaOf(name: string): unknown {
  const schema = SCHEMAS[name];
  if (!schema)
    throw new InputError(
      { field: "schema" },
      `unknown schema "${name}"`,
      `use one of: ${Object.keys(SCHEMAS).join(", ")}`,
    );
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
}

/** Add `gauntlet schema [name]` to the program. */
export function registerSchemaCommand(program: Command): void {
  program
    .command("schema")
    .description("print the JSON Schema of a file format (without a name: list them)")
    .argument("[name]", "schema name")
    .action((name?: string) => {
      if (!name) {
        process.stdout.write(`${Object.keys(SCHEMAS).join("\n")}\n`);
        return;
      }
      process.stdout.write(`${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
    });
}
