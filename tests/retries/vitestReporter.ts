/** Vitest reporter (the Firefox suite): each test that passed only after a retry goes to the retried list. */
import type { Reporter, TestCase } from 'vitest/node';
import { recordRetried } from './log';

export default class RetriedReporter implements Reporter {
  private readonly retried: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const diagnostic = test.diagnostic();
    if (test.result().state === 'passed' && diagnostic && diagnostic.retryCount > 0)
      this.retried.push(`${test.module.relativeModuleId} › ${test.fullName}`);
  }

  onTestRunEnd(): void {
    recordRetried('firefox', this.retried);
  }
}
