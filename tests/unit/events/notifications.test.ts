import { describe, expect, it } from 'vitest';
import { clipTitle, MAX_NOTIFIED_TITLE, notificationFor, NOTIFIED_TYPES } from '@/lib/events/notifications';

describe('notificationFor', () => {
  it.each([
    ['backtest.completed', 'Backtest completed'],
    ['execution.started', 'Live automation started'],
    ['execution.stopped', 'Live automation stopped'],
  ] as const)('gives %s its fixed title', (type, title) => {
    expect(notificationFor(type, 'Momentum').title).toBe(title);
    expect(NOTIFIED_TYPES.has(type)).toBe(true);
  });

  it('names the playbook by its title, or not at all', () => {
    expect(notificationFor('backtest.completed', 'Momentum').message).toBe(
      '“Momentum”. Decision support, not financial advice.',
    );
    expect(notificationFor('backtest.completed', undefined).message).toBe(
      'One of your playbooks. Decision support, not financial advice.',
    );
    expect(notificationFor('backtest.completed', ' \u202e\u200b ').message).toMatch(/^One of your playbooks/);
  });

  it.each([
    ['a long title', 'x'.repeat(10_000)],
    ['bidi overrides and line breaks', `Safe\u202eeviL\n\r\u2028${'y'.repeat(500)}`],
  ])('clips %s and strips hidden characters', (_name, title) => {
    const clipped = clipTitle(title);
    expect(clipped.length).toBeLessThanOrEqual(MAX_NOTIFIED_TITLE);
    expect(clipped).not.toMatch(/[\u202e\n\r\u2028]/);
    expect(notificationFor('execution.started', title).message.length).toBeLessThan(MAX_NOTIFIED_TITLE + 50);
  });
});
