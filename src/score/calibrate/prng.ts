import { shuffle } from "simple-statistics";

/**
 * A seeded pseudo-random source, so cross-fitting folds and synthetic data are the same on every run and
 * every machine (trajectory-formats.md §4.3: "use a seeded RNG so CI output is reproducible").
 */

/**
 * Mulberry32 (T. Ettinger, 2017; public domain): a 32-bit state generator, fast and good enough for fold
 * assignment and resampling (not for cryptography).
 *
 * @param seed any number; only its low 32 bits are used
 * @returns a function giving uniform numbers in [0, 1), like `Math.random`
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A shuffled copy of `items` (Fisher–Yates via `simple-statistics`), driven by `random`.
 * @param random e.g. {@link seededRandom}`(seed)`
 */
export function seededShuffle<T>(items: readonly T[], random: () => number): T[] {
  return shuffle([...items], random);
}
