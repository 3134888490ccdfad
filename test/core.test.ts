import { describe, expect, it } from "vitest";
import { unsafePathReason } from "../src/core/paths.ts";

describe("workspace paths", () => {
  it("rejects absolute paths and traversal", () => {
    expect(unsafePathReason("/etc/passwd")).toMatch(/absolute/);
    expect(unsafePathReason("a/../../b")).toMatch(/traversal/);
    expect(unsafePathReason("out/report.json")).toBeUndefined();
  });
});
