import { urlProblemText } from '@/lib/i18n/problems';
import { describe, expect, it } from 'vitest';
import { serviceUrlProblem } from '@/lib/contract/origins';

describe('serviceUrlProblem', () => {
  it.each([
    ['https://svc.example.com', undefined],
    ['http://127.0.0.1:8787', undefined],
    ['http://localhost:3000/', undefined],
    ['', 'Enter a URL.'],
    ['svc.example.com', 'Enter a full URL, like https://example.com'],
    ['javascript:alert(1)', 'Only http and https URLs work.'],
    ['ftp://svc.example.com', 'Only http and https URLs work.'],
    ['https://user:pw@svc.example.com', 'Leave out any user name or password.'],
    ['http://svc.example.com', 'Use https for a service that is not on this computer.'],
  ])('%j → %s', (input, problem) => {
    const found = serviceUrlProblem(input);
    // The code, worded as the English locale says it.
    expect(found && urlProblemText(found)).toBe(problem);
  });
});
