/** How fresh rows meet the rows on screen: the row under the pointer must not move. */

interface Identified {
  id: string;
}

/**
 * Fresh rows while the pointer is over the list: rows already shown keep their place (with fresh
 * content where the service still has them), rows new to the list are appended. The full fresh
 * order is applied once the pointer leaves.
 */
export function mergeInPlace<T extends Identified>(shown: readonly T[], fresh: readonly T[]): T[] {
  const freshById = new Map(fresh.map((item) => [item.id, item]));
  const shownIds = new Set(shown.map((item) => item.id));
  return [
    ...shown.map((item) => freshById.get(item.id) ?? item),
    ...fresh.filter((item) => !shownIds.has(item.id)),
  ];
}
