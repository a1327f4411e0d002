import { expect, type Locator, type Page } from '@playwright/test';
import { clickOffer, expectOffer } from '../helpers/offer';

/** Page objects: each surface's landmarks, found by role and accessible name (CONTRACT.md §6). */
export class PopupPage {
  constructor(readonly page: Page) {}
  get list(): Locator {
    return this.page.getByRole('list', { name: 'Playbooks' });
  }
  get status(): Locator {
    return this.page.getByRole('region', { name: 'Service status' });
  }
  get openSidePanel(): Locator {
    return this.page.getByRole('link', { name: 'Open side panel' });
  }
  get disclaimer(): Locator {
    return this.page.getByText('Decision support, not financial advice');
  }
  /**
   * Waits until this popup's own refresh has answered ("Updated …", no longer "Cached"). Close a
   * popup before then and the next one opened joins that refresh instead of asking the service:
   * right for users, but a test that counts the next opening's requests or changes the service
   * in between would see the earlier answer.
   */
  async refreshed(): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: /^Updated / })).toBeVisible({
      timeout: 15_000,
    });
  }
}

export class OptionsPage {
  constructor(readonly page: Page) {}
  get serviceUrl(): Locator {
    return this.page.getByRole('textbox', { name: 'Service URL' });
  }
  get apiUrl(): Locator {
    return this.page.getByRole('textbox', { name: 'API URL' });
  }
  get apiKey(): Locator {
    // Password inputs have no textbox role in the accessibility tree; find them by label.
    return this.page.getByLabel('API key');
  }
  get save(): Locator {
    return this.page.getByRole('button', { name: 'Save' });
  }
  get createKeyLink(): Locator {
    return this.page.getByRole('link', { name: 'Create an API key' });
  }
  get status(): Locator {
    return this.page.getByRole('status');
  }
}

export class SidePanelPage {
  constructor(readonly page: Page) {}
  tab(name: 'Playbooks' | 'Discovery' | 'Events'): Locator {
    return this.page.getByRole('tab', { name });
  }
  /** The open playbook's Backtests region (CONTRACT.md section 6). */
  get backtests(): Locator {
    return this.page.getByRole('region', { name: 'Backtests' });
  }
  /**
   * The run sent last is listed first as completed, which only its completion event brings (sending
   * it lists it queued), and its result is shown: the equity curve and the total return the service
   * stored for it (`newestRun`, read once the list says completed), as the page formats it.
   */
  async expectNewestRunCompleted(
    newestRun: () => { status: string; benchmark: string; metrics: { total_return: number } | null },
    timeout?: number,
  ): Promise<void> {
    const first = this.backtests.getByRole('list', { name: 'Backtest runs' }).getByRole('listitem').first();
    await expect(first).toContainText('Completed', { timeout });
    const run = newestRun();
    expect(run.status).toBe('completed');
    await expect(first).toContainText(`vs ${run.benchmark}`);
    await expect(this.backtests.getByRole('img', { name: 'Equity curve' })).toBeVisible();
    const total = await this.page.evaluate(
      (fraction) =>
        new Intl.NumberFormat(undefined, {
          style: 'percent',
          minimumFractionDigits: 1,
          maximumFractionDigits: 1,
          signDisplay: 'exceptZero',
        }).format(fraction),
      run.metrics!.total_return,
    );
    // The figures write a loss with the real minus (U+2212), as lib/backtests/format.ts's formatReturn does.
    await expect(this.backtests.locator('dt', { hasText: 'Total return' }).locator('+ dd')).toHaveText(
      total.replace(/-/g, '\u2212'),
    );
  }
}

export class ConfirmPage {
  constructor(readonly page: Page) {}
  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Confirm' });
  }
  get confirm(): Locator {
    return this.dialog.getByRole('button', { name: 'Confirm' });
  }
  get cancel(): Locator {
    return this.dialog.getByRole('button', { name: 'Cancel' });
  }
  get visibility(): Locator {
    return this.dialog.getByLabel('Visibility');
  }
}

/** The offer lives in a closed shadow root: found by role and name in the accessibility tree. */
export class FinancePage {
  constructor(readonly page: Page) {}
  expectOffer(): Promise<void> {
    return expectOffer(this.page);
  }
  clickOffer(): Promise<void> {
    return clickOffer(this.page);
  }
}
