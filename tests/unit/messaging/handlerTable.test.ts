import { describe, expect, it } from 'vitest';
import { handlerTable } from '@/lib/background/handlers';
import { handlersOf, messages, type Handlers } from '@/lib/messaging';

describe('the handler table', () => {
  it('answers every message of the map, and nothing else', () => {
    expect(Object.keys(handlerTable()).sort()).toEqual(Object.keys(messages).sort());
  });

  it('a table without a handler for a message does not compile', () => {
    // @ts-expect-error -- getState (and every other message) has no handler.
    const incomplete: Handlers = { getState: () => ({}) as never };
    expect(Object.keys(incomplete)).toEqual(['getState']);
  });

  it('refuses a group whose declared names differ from what it registers', () => {
    expect(() =>
      handlersOf(['listSites', 'addSite'], (registry) => {
        registry.register('listSites', () => ({ extra: [] }));
      }),
    ).toThrow('Declared handlers [addSite, listSites], registered [listSites]');
    expect(() =>
      handlersOf(['listSites'], (registry) => {
        registry.register('listSites', () => ({ extra: [] }));
        registry.register('addSite', () => ({ extra: [] }));
      }),
    ).toThrow(/registered \[addSite, listSites\]/);
    expect(
      Object.keys(
        handlersOf(['listSites'], (registry) => registry.register('listSites', () => ({ extra: [] }))),
      ),
    ).toEqual(['listSites']);
  });
});
