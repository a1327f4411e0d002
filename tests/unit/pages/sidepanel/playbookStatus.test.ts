import { describe, expect, it } from 'vitest';
import { playbookStatusText } from '@/lib/pages/playbookWords';

describe('playbookStatusText (the one status lookup of the popup and the side panel)', () => {
  it('says each status in the UI language, and a status this build does not know as sent', () => {
    expect(['draft', 'active', 'paused', 'archived'].map(playbookStatusText)).toEqual([
      'Draft',
      'Active',
      'Paused',
      'Archived',
    ]);
    expect(playbookStatusText('retired')).toBe('retired');
    // An inherited property is not a status.
    expect(playbookStatusText('constructor')).toBe('constructor');
  });
});
