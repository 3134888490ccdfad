/**
 * Secret redaction: values of secret-looking environment variables never reach traces, reports or logs
 * verbatim. Detection of a leak (fuzz oracle `secret-leak`) works on the raw text before redaction.
 */

/** Names of environment variables treated as secrets. */
export const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|PRIVATE)/i;

/** A secret to hide: its variable name and its value (values shorter than 6 chars are ignored). */
export interface Secret {
  name: string;
  value: string;
}

/** Secrets among `env`: variables whose name matches {@link SECRET_NAME} and whose value has ≥ 6 chars. */
export function secretsFromEnv(env: Record<string, string | undefined>): Secret[] {
  const out: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= 6 && SECRET_NAME.test(name)) out.push({ name, value });
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
