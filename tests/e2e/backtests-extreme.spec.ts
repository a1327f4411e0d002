import type { Sandbox } from '../../sandbox/server';
import { expect, test } from './fixtures';

/**
 * Issue 31, hole 2, end to end: one playbook's stored series is schema-valid but extreme (every
 * value in (0, 10,000]); once rebased it overflows or underflows whatever the common start. The
 * comparison names that playbook in a note and still draws the other one; nothing reads ∞ or NaN.
 */

function demoPlaybooks(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return { userId: user.id, playbooks: sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows };
}

/** Only finite coordinates, two decimals each: no NaN, no Infinity. */
const FINITE_PATH = /^(?:[ML]\d+\.\d{2} \d+\.\d{2})+$/;

test('comparing with an extreme series: a note for it, the other curve drawn, no ∞ or NaN', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [first, , third] = playbooks;
  const newest = sandbox.db.backtests
    .list(third.id, userId, null, 20)
    .rows.find((r) => r.status === 'completed')!;
  const equity = sandbox.db.backtests.get(newest.id, userId)!.equity!;
  // 5e-324 and 10,000 in turn: a base of either gives a ratio of Infinity or 0 with the other.
  const extreme = equity.map((p, i) => ({ ...p, value: i % 2 === 0 ? 5e-324 : 10_000 }));
  sandbox.db.db
    .prepare('UPDATE backtest_runs SET equity = ? WHERE id = ?')
    .run(JSON.stringify(extreme), newest.id);

  const page = await extension.open('sidepanel.html');
  await expect(
    page.getByRole('list', { name: 'Playbooks' }).getByRole('button', { name: first.title }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Choose playbooks…' }).click();
  await page.getByRole('checkbox', { name: first.title, exact: true }).check();
  await page.getByRole('checkbox', { name: third.title, exact: true }).check();
  await page.getByRole('button', { name: 'Compare (2)' }).click();

  const region = page.getByRole('region', { name: 'Comparison' });
  const chart = region.getByRole('img', { name: 'Comparison chart' });
  await expect(chart).toBeVisible();
  // Every curve drawn is finite (before, each one was NaN), and only the honest one is drawn.
  for (const d of await chart.locator('path').evaluateAll((paths) => paths.map((p) => p.getAttribute('d'))))
    expect(d).toMatch(FINITE_PATH);
  await expect(chart.locator('path')).toHaveCount(1);
  await expect(region.getByRole('note')).toHaveText(
    `${third.title}: its equity series holds values too extreme to draw against the others (beyond ×1,000,000 of its start, or rounded to zero), so it is left out of the chart.`,
  );
  await chart.focus();
  await page.keyboard.press('Home');
  await expect(region.locator('.chart-readout')).toContainText(`${first.title} 0.0%`);
  await region.getByRole('button', { name: 'Show data' }).click();
  await expect(region.getByRole('table', { name: 'Comparison data' })).toBeVisible();
  expect(await region.textContent()).not.toMatch(/∞|NaN|Infinity/);
});
