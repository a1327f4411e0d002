import type { OfferKey } from './runtime';

/**
 * Whether a click on the offer is one the user made, on the offer as drawn. A page can dispatch
 * synthetic clicks (`isTrusted` is false), hide or fade the offer through its ancestors, or lay
 * its own element over it. What is left (a decoy drawn over the offer with `pointer-events: none`
 * on browsers without IntersectionObserver v2) is why the confirm window stays the real gate:
 * nothing is sent before the user confirms there, in a window the page cannot reach.
 */
export interface OfferClick {
  isTrusted: boolean;
  clientX: number;
  clientY: number;
}

export interface OfferView {
  host: Element;
  /** The element the browser hits at a viewport point (`document.elementFromPoint`). */
  topElementAt: (x: number, y: number) => Element | null;
  /** The ancestors' opacity, multiplied: a faded offer is not a visible offer. */
  effectiveOpacity: () => number;
  /** From IntersectionObserver v2 where the browser has it: false when occluded or distorted. */
  lastSeenVisible?: boolean;
}

export type ClickRefusal = 'untrusted' | 'covered' | 'hidden';

const MIN_OPACITY = 0.9;

export function clickRefusal(event: OfferClick, view: OfferView): ClickRefusal | undefined {
  if (!event.isTrusted) return 'untrusted';
  // A keyboard activation has no point (0, 0 with isTrusted): only occlusion by point is skipped then.
  const pointed = event.clientX !== 0 || event.clientY !== 0;
  if (pointed && view.topElementAt(event.clientX, event.clientY) !== view.host) return 'covered';
  if (view.effectiveOpacity() < MIN_OPACITY || view.lastSeenVisible === false) return 'hidden';
  return undefined;
}

/** Product of the opacity of the element and its ancestors (composed tree: shadow hosts included). */
export function effectiveOpacity(element: Element): number {
  let opacity = 1;
  for (let node: Element | null = element; node; node = node.parentElement) {
    const value = Number.parseFloat(getComputedStyle(node).opacity);
    if (Number.isFinite(value)) opacity *= value;
  }
  return opacity;
}

/** What the offer says when it refuses a click (locales/*.yml, group `offer`). */
export const REFUSAL_MESSAGE = {
  untrusted: 'offer.untrusted',
  covered: 'offer.covered',
  hidden: 'offer.hidden',
} as const satisfies Record<ClickRefusal, OfferKey>;
