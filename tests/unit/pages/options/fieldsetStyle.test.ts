/**
 * The options page's group of fields (quiet hours) has no browser frame: Chromium draws a fieldset
 * with a grey groove and padding in light and dark alike, unlike every other group on the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(join(import.meta.dirname, '../../../../lib/pages/options/options.css'), 'utf8');

/** The declarations of the rule whose selector is exactly `selector`. */
function declarations(selector: string): Record<string, string> {
  const rule = css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('}')
    .find((block) => block.split('{')[0].trim() === selector);
  const body = rule?.split('{')[1] ?? '';
  return Object.fromEntries(
    body
      .split(';')
      .map((line) => line.split(':').map((part) => part.trim()))
      .filter((pair) => pair.length === 2 && pair[0]),
  );
}

describe('the options page’s field groups', () => {
  it('take off the browser’s fieldset frame and padding, and draw the legend in the page’s colour', () => {
    const fieldset = declarations('.options fieldset');
    expect(fieldset.border).toBe('0');
    expect(fieldset.padding).toBe('0');
    expect(fieldset.margin).toBe('0');
    expect(declarations('.options legend')).toMatchObject({ padding: '0', color: 'var(--fg)' });
  });
});
