/**
 * Which command runs a JavaScript repository's own tests, read from its package.json scripts.
 */

/**
 * Scripts that run only the tests, tried in this order before `test`: a package's `test` script often wraps
 * lint or audit steps that need the network (minimist's `test` has `pretest: eslint` and
 * `posttest: aud --production`, which queries the registry).
 */
export const TESTS_ONLY_SCRIPTS: readonly string[] = ["tests-only", "test:only", "test:unit", "unit"];

/**
 * The shell command that runs the package's tests: `npm run <script>` for the first of
 * {@link TESTS_ONLY_SCRIPTS} it defines, else `npm test` when `test` is defined and is not npm's
 * placeholder (`echo "Error: no test specified" && exit 1`), else `undefined`.
 *
 * @param packageJson the parsed package.json (anything; non-objects and odd `scripts` yield `undefined`)
 */
export function detectTestCommand(packageJson: unknown): string | undefined {
  if (typeof packageJson !== "object" || packageJson === null) return undefined;
  const scripts = (packageJson as { scripts?: unknown }).scripts;
  if (typeof scripts !== "object" || scripts === null) return undefined;
  const defined = (name: string): boolean => {
    const body = (scripts as Record<string, unknown>)[name];
    return typeof body === "string" && body.trim() !== "";
  };
  for (const name of TESTS_ONLY_SCRIPTS) if (defined(name)) return `npm run ${name}`;
  if (defined("test") && !/no test specified/i.test((scripts as Record<string, string>).test!))
    return "npm test";
  return undefined;
}
