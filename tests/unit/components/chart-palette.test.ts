/**
 * The chart palette (lib/pages/sidepanel/sidepanel.css) tells every line apart: each of the
 * playbook, the benchmark and the compared series has its own colour in light and in dark, at
 * least 3:1 against the chart's background (WCAG 1.4.11), and every line but the playbook's its
 * own dash pattern, so colour is never the only cue (colour-blind users, greyscale print).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const css = readFileSync(resolve(ROOT, 'lib/pages/sidepanel/sidepanel.css'), 'utf8');
const theme = readFileSync(resolve(ROOT, 'components/theme.css'), 'utf8');
const dark = (text: string) => text.slice(text.indexOf('@media (prefers-color-scheme: dark)'));

/** The value of custom property `name` in the first block of `text` that sets it. */
function prop(text: string, name: string): string | undefined {
  return new RegExp(`${name}:\\s*([^;]+);`).exec(text)?.[1].trim();
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Each line's colour and dash variables, by the class the chart gives it. */
const LINES = [
  ['series-0', '--chart-playbook', undefined],
  ['series-benchmark', '--chart-benchmark', '--chart-dash-benchmark'],
  ['series-1', '--chart-series-1', '--chart-dash-1'],
  ['series-2', '--chart-series-2', '--chart-dash-2'],
  ['series-3', '--chart-series-3', '--chart-dash-3'],
] as const;

describe('the chart palette', () => {
  it.each([
    ['light', css, prop(theme, '--panel')],
    ['dark', dark(css), prop(dark(theme), '--panel')],
  ])('in %s, every line has its own colour, readable against the panel', (_scheme, text, panel) => {
    const colours = LINES.map(([, colour]) => prop(text, colour));
    for (const colour of colours) {
      expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(colour!, panel!)).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(colours.map((c) => c?.toLowerCase())).size).toBe(LINES.length);
  });

  it('every line but the playbook has its own dash pattern, and each class draws with its variables', () => {
    const dashes = LINES.filter(([, , dash]) => dash).map(([, , dash]) => prop(css, dash!));
    expect(new Set(dashes).size).toBe(dashes.length);
    for (const [cls, colour, dash] of LINES) {
      const rule = new RegExp(`\\.equity-chart \\.${cls} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
      expect(rule).toContain(`stroke: var(${colour})`);
      if (dash) expect(rule).toContain(`stroke-dasharray: var(${dash})`);
    }
  });
});
