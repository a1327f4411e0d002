/**
 * A popup row never cuts its date ("Jan 7, 202"), whatever the number and length of its tickers,
 * in English, German and Arabic (right to left), at the popup's narrowest width (body min-width
 * 380 px). Proof by geometry: each row's date is drawn whole inside its row and inside the visible
 * width of the page (no horizontal scrolling needed to read it), the tickers' line inside its row
 * (a 300-character "ticker" ends in "…"); a screen reader gets the first twenty tickers by name
 * and a count of the rest. Screenshots are kept as artifacts.
 */
import type { Page, TestInfo } from '@playwright/test';
import { DEMO_USER_ID } from '../../sandbox/store';
import { expect, test } from './fixtures';
import { message } from './helpers/locales';

async function snap(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Every row's date and tickers against the row's inner box: what is cut, by row. */
function cutParts(page: Page) {
  return page.locator('.pb-row').evaluateAll((rows) =>
    rows.flatMap((row, index) => {
      const inner = row.getBoundingClientRect();
      const style = getComputedStyle(row);
      const left = inner.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) - 0.5;
      const right = inner.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) + 0.5;
      const problems: string[] = [];
      const date = row.querySelector('time');
      if (!date) return [`row ${index}: no date`];
      const box = date.getBoundingClientRect();
      if (date.scrollWidth > date.clientWidth + 0.5) problems.push(`row ${index}: date text overflows`);
      if (box.left < left || box.right > right)
        problems.push(`row ${index}: date ${box.left}–${box.right} outside ${left}–${right}`);
      // Inside the row is not enough: the row itself must be in view, without scrolling sideways.
      const visible = document.documentElement.clientWidth;
      if (box.left < -0.5 || box.right > visible + 0.5)
        problems.push(`row ${index}: date ${box.left}–${box.right} outside the visible 0–${visible}`);
      // Anything in the row's lines that hides what does not fit would hide part of the date.
      for (const parent of [date.parentElement, row.querySelector('.pb-tickers')]) {
        if (parent && parent.scrollWidth > parent.clientWidth + 0.5)
          problems.push(`row ${index}: a line overflows`);
      }
      // The tickers end in "…" inside the row (the whole list is the tooltip); "+N" is never cut.
      for (const part of row.querySelectorAll('.pb-ticker-text, .pb-ticker-more')) {
        const partBox = part.getBoundingClientRect();
        if (partBox.left < left || partBox.right > right)
          problems.push(`row ${index}: tickers ${part.textContent} outside the row`);
      }
      const more = row.querySelector('.pb-ticker-more');
      if (more && more.scrollWidth > more.clientWidth + 0.5) problems.push(`row ${index}: "+N" cut`);
      return problems;
    }),
  );
}

/** 25 tickers after one of 300 characters: service data, bounded by nothing. */
const LONG_TICKER = 'L'.repeat(300);
const MANY_TICKERS = [LONG_TICKER, ...Array.from({ length: 25 }, (_, i) => `T${i}`)];

for (const language of ['en', 'de', 'ar']) {
  test.describe(`in ${language}`, () => {
    test.use({ uiLanguage: language });

    test('a row keeps its whole date in view at 380 px, with four tickers or a long one', async ({
      extension,
      sandbox,
    }, testInfo) => {
      await extension.configure();
      const expected = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 20).rows;
      const four = expected.find((playbook) => playbook.tickers.length === 4);
      expect(four, 'the sandbox seeds a playbook with four tickers').toBeDefined();
      const crowded = sandbox.db.updatePlaybook(expected.find((playbook) => playbook !== four)!.id, {
        tickers: MANY_TICKERS,
      });
      const page = await extension.open('popup.html');
      await page.setViewportSize({ width: 380, height: 640 });
      await expect(page.locator('.pb-row')).toHaveCount(20);
      // The popup paints its saved copy (read before the tickers changed) first: the rows are
      // measured once the crowded row has come in the service's answer, or nothing long is drawn.
      const crowdedRow = page.locator('.pb-row').filter({ hasText: crowded.title });
      await expect(crowdedRow.locator('.pb-ticker-text')).toContainText(LONG_TICKER.slice(0, 20));
      expect(await cutParts(page)).toEqual([]);
      await snap(page, `popup-row-${language}-380`, testInfo);
      // The full list, in the UI language's words, for whoever cannot see the tickers' line.
      const row = page.locator('.pb-row').filter({ hasText: four!.title });
      const list = four!.tickers.join(message(language, 'common.separator.list'));
      await expect(row.locator('.pb-tickers .visually-hidden')).toHaveText(
        message(language, 'popup.row.tickerList', { list }),
      );
      await expect(row.locator('.pb-ticker-text')).toHaveAttribute('aria-hidden', 'true');
      // Twenty tickers by name, then the count of the other six in the language's plural form.
      const rest = MANY_TICKERS.length - 20;
      const [count, category] = await page.evaluate((n) => {
        const tag = document.documentElement.lang;
        return [new Intl.NumberFormat(tag).format(n), new Intl.PluralRules(tag).select(n)];
      }, rest);
      await expect(crowdedRow.locator('.pb-tickers .visually-hidden')).toHaveText(
        message(language, `popup.row.tickerListMore.${category}`, {
          list: MANY_TICKERS.slice(0, 20).join(message(language, 'common.separator.list')),
          count,
        }),
      );
    });
  });
}

test('long titles that differ only at their end stay apart: the end drawn, the whole title heard', async ({
  extension,
  sandbox,
}) => {
  const stem =
    'Grid modernization and transmission capex: regulated utilities with rate-base growth above 8 % a year through 2030, variant';
  for (const n of [1, 2, 3])
    sandbox.db.createPlaybook(DEMO_USER_ID, {
      title: `${stem} ${n}`,
      thesis: 'Utility capex keeps rising with data-centre load.',
      visibility: 'unlisted',
      tickers: ['NEE'],
    });
  await extension.configure();
  const page = await extension.open('popup.html');
  await page.setViewportSize({ width: 380, height: 600 });
  for (const n of [1, 2, 3]) {
    const title = page.getByRole('button', { name: `${stem} ${n}`, exact: true });
    await expect(title).toHaveAttribute('title', `${stem} ${n}`);
    // What is drawn (two lines at most, nothing clipped) ends in what tells the variants apart.
    const drawn = await title.evaluate((el) => ({
      text: el.querySelector<HTMLElement>('bdi')!.innerText,
      lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      cut: el.scrollHeight > el.clientHeight + 1,
    }));
    expect(drawn.text.trim()).toMatch(new RegExp(`variant ${n}$`));
    expect(drawn.lines).toBeLessThanOrEqual(2);
    expect(drawn.cut).toBe(false);
  }
});
