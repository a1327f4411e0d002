import type { Sandbox } from '../../sandbox/server';
import { expect, test } from './fixtures';

/**
 * Issue 31, hole 3, end to end: the service answers one playbook's backtest list with another
 * playbook's backtests (the sandbox's store is made to borrow them). The detail shows none of them
 * as that playbook's result, and the comparison does not draw one curve under two playbooks.
 */

const BORROWED = "The service answered with another playbook's backtests, so they are not shown here.";

/** The demo playbooks, and a sandbox whose list for `from` answers with the backtests of `to`. */
function borrowing(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  const [first, , third] = sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows;
  const store = sandbox.db.backtests;
  const list = store.list.bind(store);
  store.list = (playbookId, ...rest) => list(playbookId === first.id ? third.id : playbookId, ...rest);
  return { first, third };
}

test("a list answered with another playbook's backtests: no latest result, no borrowed curve", async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { first, third } = borrowing(sandbox);

  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(first.id)}`);
  const region = page.getByRole('region', { name: 'Backtests' });
  await expect(region.getByRole('alert')).toHaveText(BORROWED);
  await expect(region.getByRole('heading', { level: 4 })).toHaveCount(0);
  await expect(region.getByRole('img', { name: 'Equity curve' })).toHaveCount(0);

  const panel = await extension.open('sidepanel.html');
  await expect(
    panel.getByRole('list', { name: 'Playbooks' }).getByRole('button', { name: first.title }),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Choose playbooks…' }).click();
  await panel.getByRole('checkbox', { name: first.title, exact: true }).check();
  await panel.getByRole('checkbox', { name: third.title, exact: true }).check();
  await panel.getByRole('button', { name: 'Compare (2)' }).click();
  const comparison = panel.getByRole('region', { name: 'Comparison' });
  await expect(comparison.getByRole('note')).toHaveText(`${first.title}: ${BORROWED}`);
  await expect(comparison.getByRole('img', { name: 'Comparison chart' }).locator('path')).toHaveCount(1);
  const rows = comparison.getByRole('table', { name: 'Comparison metrics' }).getByRole('row');
  await expect(rows.nth(1).getByRole('cell')).toHaveText(['No completed backtest']);
});
