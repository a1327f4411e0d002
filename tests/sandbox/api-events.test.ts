/** The REST API's events: the polled list, the stream and its resumption. */
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { admin, api, createPlaybook, expectProblem, startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 45 });
});
afterAll(() => sb.close());

describe('events', () => {
  it('listEvents polls after a cursor, always returns next_cursor, has_more false when caught up', async () => {
    let cursor: string | null = null;
    const seen: string[] = [];
    for (;;) {
      const page: Json = await api(sb, `/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.json.next_cursor).toEqual(expect.any(String));
      seen.push(...page.json.data.map((e: Json) => e.id));
      cursor = page.json.next_cursor;
      if (!page.json.has_more) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const caughtUp = await api(sb, `/events?cursor=${cursor}`);
    expect(caughtUp.json).toMatchObject({ data: [], has_more: false, next_cursor: cursor });
    const created = await createPlaybook(sb);
    const next = await api(sb, `/events?cursor=${cursor}`);
    expect(next.json.data.map((e: Json) => [e.type, e.playbook_id])).toEqual([
      ['playbook.created', created.id],
    ]);
    // Events are scoped to their owner.
    const theirs = await api(sb, '/events?limit=100', { key: sb.otherUserKey });
    expect(theirs.json.data.some((e: Json) => e.playbook_id === created.id)).toBe(false);
  });

  async function readSse(headers: Record<string, string>, count: number, trigger?: () => Promise<void>) {
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}/events/stream`, {
      headers: { Authorization: `Bearer ${sb.demoKey}`, Accept: 'text/event-stream', ...headers },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events: { event?: string; id?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    if (trigger) await trigger();
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    controller.abort();
    return events;
  }

  it('streamEvents sends new events with event: type and id:, and resumes after Last-Event-ID', async () => {
    let created: Json;
    const live = await readSse({}, 1, async () => {
      created = await createPlaybook(sb);
    });
    expect(live[0].event).toBe('playbook.created');
    const data = JSON.parse(live[0].data);
    expect(data.playbook_id).toBe(created.id);
    expect(live[0].id).toBe(data.id);
    const later = await createPlaybook(sb);
    const resumed = await readSse({ 'Last-Event-ID': live[0].id! }, 1);
    expect(JSON.parse(resumed[0].data).playbook_id).toBe(later.id);
    const polled = await api(sb, '/events?limit=100');
    expect(polled.json.data.map((e: Json) => e.id)).toContain(resumed[0].id);
  });

  it('admin can emit a synthetic event that reaches the owner', async () => {
    const created = await createPlaybook(sb);
    const emitted = await admin(sb, 'POST', '/events', {
      playbook_id: created.id,
      type: 'backtest.completed',
      data: { total_return: 12.5 },
    });
    expect(emitted.status).toBe(201);
    const resumedFrom = `evt_${Number(emitted.json.id.slice(4)) - 1}`;
    const events = await readSse({ 'Last-Event-ID': resumedFrom }, 1);
    expect(JSON.parse(events[0].data)).toMatchObject({
      type: 'backtest.completed',
      data: { total_return: 12.5 },
    });
  });

  it('a Last-Event-ID this service never issued is a 400', async () => {
    expectProblem(
      await api(sb, '/events/stream', { headers: { 'Last-Event-ID': 'nonsense' } }),
      400,
      'invalid_last_event_id',
    );
  });
});
