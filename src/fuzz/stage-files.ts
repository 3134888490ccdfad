import { z } from "zod";
import { ActionType, InteractionPattern, type Inventory } from "./inventory.ts";
import { Placement } from "./modes/recognise.ts";

/**
 * Record shapes of the fuzz stage files that are not a single schema elsewhere: `inventory.jsonl` holds one
 * record per pattern, action type or report placement, tagged by `kind`.
 */

export const InventoryRecord = z.discriminatedUnion("kind", [
  InteractionPattern.extend({ kind: z.literal("pattern") }),
  ActionType.extend({ kind: z.literal("action") }),
  Placement.extend({ kind: z.literal("placement") }),
]);
export type InventoryRecord = z.infer<typeof InventoryRecord>;

/** Inventory → JSONL records. */
export function inventoryRecords(inventory: Inventory): InventoryRecord[] {
  return [
    ...inventory.patterns.map((p) => ({ kind: "pattern" as const, ...p })),
    ...inventory.actionTypes.map((a) => ({ kind: "action" as const, ...a })),
    ...inventory.placements.map((p) => ({ kind: "placement" as const, ...p })),
  ];
}

/** JSONL records → inventory (the report count is the number of distinct reports seen). */
export function inventoryFromRecords(records: readonly InventoryRecord[]): Inventory {
  const patterns = records.filter((r) => r.kind === "pattern").map(({ kind: _k, ...p }) => p);
  const actionTypes = records.filter((r) => r.kind === "action").map(({ kind: _k, ...a }) => a);
  const placements = records.filter((r) => r.kind === "placement").map(({ kind: _k, ...p }) => p);
  const reports = new Set([
    ...patterns.flatMap((x) => x.sourceReports),
    ...actionTypes.flatMap((x) => x.sourceReports),
    ...placements.map((p) => p.reportId),
  ]).size;
  return { reports, patterns, actionTypes, placements };
}

/** A record of `rejected.jsonl`: a template that could not be grounded, and why. */
export const RejectedTemplateRecord = z.object({ seedTemplateId: z.string(), reason: z.string() });
