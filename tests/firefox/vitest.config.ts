import { defineConfig } from 'vitest/config';

/**
 * The Firefox journeys: real Firefox ESR over WebDriver BiDi against the Firefox build.
 * A config of its own, so `vitest run` stays the fast unit and sandbox run.
 */
export default defineConfig({
  test: {
    name: 'firefox',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/firefox/**/*.test.ts'],
    environment: 'node',
    // One Firefox at a time: each file launches its own, and the machines have two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/firefox/global-setup.ts'],
    // CI retries a failed test once and lists it (tests/retries): a test that needs it is still a defect.
    retry: process.env.CI ? 1 : 0,
    reporters: ['verbose', './tests/retries/vitestReporter.ts'],
  },
});
