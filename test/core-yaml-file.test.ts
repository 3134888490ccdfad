import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError } from "../src/core/errors.ts";
import { loadYamlFile } from "../src/core/yaml-file.ts";

/** Where loadYamlFile says the problem is (issue 15 new-user trial: an unknown key was reported on line 1). */
describe("loadYamlFile error positions", () => {
  const schema = z
    .object({ personas: z.array(z.object({ pin: z.string() }).strict()), requests: z.array(z.string()) })
    .strict();
  const load = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "gauntlet-yaml-")), "facts.yaml");
    writeFileSync(file, text);
    try {
      loadYamlFile(file, schema, "fix it");
    } catch (error) {
      return error as InputError;
    }
    throw new Error("expected an InputError");
  };
  it("names the line and field of an unknown top-level key", () => {
    const e = load('personas:\n  - pin: "1"\nrequests: []\nrequest: ["x"]\n');
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toMatch(/facts\.yaml:4: field "request": Unrecognized key/);
  });
  it("names the line and field of an unknown nested key", () => {
    const e = load('personas:\n  - pin: "1"\n    pinn: "2"\nrequests: []\n');
    expect(e.message).toMatch(/facts\.yaml:3: field "personas\.0\.pinn"/);
  });
  it("reports a misnamed key as such, not as a missing field", () => {
    const e = load('persona:\n  - pin: "1"\nrequests: []\n');
    expect(e.message).toMatch(
      /facts\.yaml:1: field "persona": unknown key "persona"; the required "personas" is missing — did you mean "personas"\?/,
    );
  });
  it("shows a file outside the working directory by its absolute path, not ../../", () => {
    const e = load("personas: 3\nrequests: []\n");
    expect(e.message.startsWith(tmpdir())).toBe(true);
    expect(e.message).not.toMatch(/^\.\./);
  });
});
