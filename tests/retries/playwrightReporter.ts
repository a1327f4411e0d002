/** Playwright reporter: each test that failed, then passed on its retry, goes to the retried list. */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { relative } from 'node:path';
import { recordRetried } from './log';

export default class RetriedReporter implements Reporter {
  private readonly retried: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'passed' || result.retry === 0) return;
    // titlePath: root, project, file, describes…, title.
    const file = relative(process.cwd(), test.location.file);
    this.retried.push([`${file}:${test.location.line}`, ...test.titlePath().slice(3)].join(' › '));
  }

  onEnd(): void {
    recordRetried('chromium', this.retried);
  }

  printsToStdio(): boolean {
    return false;
  }
}
