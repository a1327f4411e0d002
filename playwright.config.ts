import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  // Extensions need a persistent context each; two cores run two at a time at best.
  workers: process.env.CI ? 1 : 2,
  fullyParallel: false,
  // CI retries a failed test once and lists it (tests/retries): a test that needs it is still a defect.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['./tests/retries/playwrightReporter.ts']]
    : [['list'], ['html', { open: 'never' }], ['./tests/retries/playwrightReporter.ts']],
  outputDir: 'test-results',
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
