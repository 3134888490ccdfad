/**
 * Bounded memory for reading a log as a stream (issue 14: memory flat at any log size): maps and sets that
 * forget their oldest entries past a limit, and string copies that keep no source text alive.
 */

/**
 * Entries a detector keeps in a map keyed by something a log has no bound on (call signatures, output
 * hashes): past this many, the entry set longest ago is forgotten — a repeat that far back is not seen.
 */
export const MAX_REMEMBERED = 8192;

/** A map that forgets the entry set longest ago once it holds more than `limit` (see {@link MAX_REMEMBERED}). */
export class RecentMap<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit = MAX_REMEMBERED) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Store (or replace) and make the entry the most recent. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}

/** A set that forgets the entry added longest ago once it holds more than `limit`. */
export class RecentSet<T> {
  private readonly set = new Set<T>();
  constructor(private readonly limit = MAX_REMEMBERED) {}

  /** Add (or re-add) `x` as the most recent entry. */
  add(x: T): void {
    this.set.delete(x);
    this.set.add(x);
    if (this.set.size > this.limit) this.set.delete(this.set.values().next().value as T);
  }

  has(x: T): boolean {
    return this.set.has(x);
  }
}

/**
 * A copy of a string that shares no memory with the text it was cut from. V8 hands out strings parsed
 * from a JSON line (and slices, and concatenations holding slices, of any string) as views into the whole
 * source; keeping one such id, path or excerpt per event would keep every line of the log alive.
 */
export function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
