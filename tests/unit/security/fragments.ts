import { SENTINEL_KEY } from '../api/support';

/** The key without its readable format prefix (`sk_sentinel_`): the part a reader could use. */
export const SECRET_PART = SENTINEL_KEY.slice('sk_sentinel_'.length);

/** Every 6-character window of the key, and every 4-character window of its secret part, found in a text. */
export function shortFragmentsIn(text: string): string[] {
  const found: string[] = [];
  for (const [of, size] of [
    [SENTINEL_KEY, 6],
    [SECRET_PART, 4],
  ] as const) {
    for (let start = 0; start + size <= of.length; start++) {
      const window = of.slice(start, start + size);
      if (text.includes(window)) found.push(window);
    }
  }
  return found;
}
