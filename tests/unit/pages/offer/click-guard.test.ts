// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clickRefusal, effectiveOpacity, type OfferView } from '@/lib/pages/offer/clickGuard';

function view(overrides: Partial<OfferView> = {}): OfferView {
  const host = document.createElement('playbook-companion-offer');
  return {
    host,
    topElementAt: () => host,
    effectiveOpacity: () => 1,
    ...overrides,
  };
}

const userClick = { isTrusted: true, clientX: 900, clientY: 700 };

describe('clickRefusal', () => {
  it('accepts a trusted click on the offer as drawn', () => {
    expect(clickRefusal(userClick, view())).toBeUndefined();
  });

  it('accepts a trusted keyboard activation (no pointer position)', () => {
    expect(clickRefusal({ isTrusted: true, clientX: 0, clientY: 0 }, view())).toBeUndefined();
  });

  it.each([
    ['a click the page dispatched', { ...userClick, isTrusted: false }, {}, 'untrusted'],
    [
      'a page element laid over the offer',
      userClick,
      { topElementAt: () => document.createElement('div') },
      'covered',
    ],
    ['nothing at the click point', userClick, { topElementAt: () => null }, 'covered'],
    ['an ancestor faded to near zero', userClick, { effectiveOpacity: () => 0.05 }, 'hidden'],
    ['the browser saw it occluded', userClick, { lastSeenVisible: false }, 'hidden'],
  ])('refuses %s', (_label, click, overrides, refusal) => {
    expect(clickRefusal(click, view(overrides as Partial<OfferView>))).toBe(refusal);
  });

  it('an untrusted click is refused even when everything else looks right', () => {
    expect(clickRefusal({ isTrusted: false, clientX: 0, clientY: 0 }, view({ lastSeenVisible: true }))).toBe(
      'untrusted',
    );
  });
});

describe('effectiveOpacity', () => {
  it('multiplies the opacity of the element and its ancestors', () => {
    const outer = document.createElement('div');
    const inner = document.createElement('div');
    const host = document.createElement('span');
    outer.style.opacity = '0.5';
    inner.style.opacity = '0.5';
    outer.append(inner);
    inner.append(host);
    document.body.append(outer);
    expect(effectiveOpacity(host)).toBeCloseTo(0.25);
    outer.remove();
  });
});

describe('the offer host style', () => {
  const css = readFileSync(join(process.cwd(), 'lib/pages/offer/offer.css'), 'utf8');
  const hostBlock = /:host\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const declarations = hostBlock
    .split(';')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('/*'));

  it('marks every host declaration !important, so page CSS on the host cannot override it', () => {
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.filter((line) => !line.endsWith('!important'))).toEqual([]);
  });

  it.each(['all', 'display', 'position', 'z-index', 'visibility', 'opacity', 'pointer-events', 'transform'])(
    'pins %s',
    (property) => {
      expect(declarations.some((line) => line.startsWith(`${property}:`))).toBe(true);
    },
  );
});
