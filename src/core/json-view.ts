/**
 * Reading untyped JSON from other programs (agent event streams, session logs, wire requests) without
 * throwing on a shape that moved: each accessor returns an empty value of the asked type instead.
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** `v` if it is a (non-array) object, else `{}`. */
export const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** `v` if it is an array, else `[]`. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `v` if it is a string, else `""`. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
