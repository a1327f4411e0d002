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
