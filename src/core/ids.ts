import { createHash, randomBytes } from "node:crypto";

/** Hex sha256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Short stable id: the first `length` hex chars of sha256 over the parts joined by NUL. */
export function stableId(parts: readonly string[], length = 12): string {
  return sha256(parts.join("\0")).slice(0, length);
}

/** New run id: UTC timestamp plus 8 random hex chars, e.g. `20261130-084512-a3f91c0e`; sorts by time. */
export function newRunId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${t}-${randomBytes(4).toString("hex")}`;
}
