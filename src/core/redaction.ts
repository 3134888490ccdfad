/**
 * Secret redaction: values of secret-looking environment variables never reach traces, reports or logs
 * verbatim. Detection of a leak (fuzz oracle `secret-leak`) works on the raw text before redaction.
 */

/** Name parts (split on `_`) that mark an environment variable as a secret: `OPENAI_API_KEY`, `GH_TOKEN`. */
export const SECRET_NAME_PARTS = new Set([
  "KEY",
  "APIKEY",
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASS",
  "CREDENTIAL",
  "CREDENTIALS",
  "AUTH",
  "PRIVATE",
  "COOKIE",
]);

/** True when a variable name looks like it holds a secret (`GIT_AUTHOR_NAME` does not; `AUTH_TOKEN` does). */
export function isSecretName(name: string): boolean {
  return name
    .toUpperCase()
    .split(/[_\W]+/)
    .some((part) => SECRET_NAME_PARTS.has(part));
}

/** A secret to hide: its variable name and its value (values shorter than 6 chars are ignored). */
export interface Secret {
  name: string;
  value: string;
}

/**
 * Secrets among `env`: variables whose name {@link isSecretName} or is listed in `alsoSecret` (e.g. every
 * variable the user passed through on purpose), and whose value has ≥ 6 chars.
 */
export function secretsFromEnv(
  env: Record<string, string | undefined>,
  alsoSecret: readonly string[] = [],
): Secret[] {
  const out: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 6 || !(isSecretName(name) || alsoSecret.includes(name))) continue;
    out.push({ name, value });
    // A multi-line value (a PEM key) is also hidden line by line: diffs and logs split it across lines.
    if (value.includes("\n"))
      for (const line of value.split(/\r?\n/))
        if (line.trim().length >= 8) out.push({ name, value: line.trim() });
  }
  // Longest first, so a secret containing another is replaced whole.
  return out.sort((a, b) => b.value.length - a.value.length);
}

/** Replace every occurrence of each secret value with `[REDACTED:<NAME>]`. */
export function redact(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(`[REDACTED:${s.name}]`);
  return out;
}

/** Names of the secrets whose values occur in `text`. */
export function findSecrets(text: string, secrets: readonly Secret[]): string[] {
  return secrets.filter((s) => text.includes(s.value)).map((s) => s.name);
}

/** Deep-redact every string inside a JSON-like value (objects, arrays); returns a new value. */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redact(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets);
    return out as T;
  }
  return value;
}
