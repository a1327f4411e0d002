/** The event feed: `listEvents` pages and the `streamEvents` SSE stream (with its hostile profiles). */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppEnv, SandboxContext } from '../context';
import { CursorError, decodeCursor, encodeCursor } from '../cursor';
import { giantSseEvents, hostileEventData } from '../hostile';
import { badRequest } from '../http';
import { ListError, parseLimit } from '../lists';
import { eventSeq } from '../store';
import type { Routing } from './routing';

const EVENT_LIMIT_DEFAULT = 50;
const SSE_FLOOD_CHUNK = 64 * 1024;

export function addEventRoutes(api: Hono<AppEnv>, ctx: SandboxContext, routing: Routing): void {
  const { problem, requireUser, route, listRoute } = routing;

  api.get(route('streamEvents'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const lastEventId = c.req.header('last-event-id');
    let position = ctx.store.latestEventSeq();
    if (lastEventId !== undefined && lastEventId !== '') {
      const seq = eventSeq(lastEventId);
      if (seq === null)
        return problem(
          c,
          badRequest('Last-Event-ID is not an event id this service issued.', 'invalid_last_event_id', [
            { path: 'Last-Event-ID', message: 'unknown event id' },
          ]),
        );
      position = seq;
    }
    return streamSSE(c, async (stream) => {
      const flood = ctx.faults.config.sseNoNewlineBytes;
      if (flood > 0) {
        // Bytes and never a newline, until the bound: then the sandbox ends the stream itself.
        let aborted = ctx.closing.aborted;
        stream.onAbort(() => void (aborted = true));
        await stream.write('data: ');
        for (let sent = 6; sent < flood && !aborted && !ctx.closing.aborted; sent += SSE_FLOOD_CHUNK) {
          await stream.write('x'.repeat(Math.min(SSE_FLOOD_CHUNK, flood - sent)));
          await sleep(5);
        }
        return;
      }
      let pending = Promise.resolve();
      const flush = () => {
        pending = pending.then(async () => {
          for (;;) {
            const page = ctx.store.eventsAfter(user.id, position, 100);
            for (const event of page.events) {
              const sent = ctx.faults.config.hostileEventText
                ? { ...event, data: hostileEventData(event.data) }
                : event;
              await stream.writeSSE({ event: event.type, id: event.id, data: JSON.stringify(sent) });
              position = eventSeq(event.id)!;
            }
            if (!page.hasMore) break;
          }
        });
        return pending;
      };
      const off = ctx.store.onEvent((ownerId) => {
        if (ownerId === user.id) void flush().catch(() => undefined);
      });
      const heartbeat = setInterval(
        () => void stream.write(': heartbeat\n\n').catch(() => undefined),
        15_000,
      );
      try {
        await stream.write(': connected\n\n');
        if (ctx.faults.config.sseGiantEvent) await stream.write(giantSseEvents());
        await flush();
        await new Promise<void>((resolve) => {
          stream.onAbort(resolve);
          if (ctx.closing.aborted) resolve();
          ctx.closing.addEventListener('abort', () => resolve(), { once: true });
        });
      } finally {
        off();
        clearInterval(heartbeat);
      }
    });
  });

  api.get(route('listEvents'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    return listRoute(c, 'listEvents', () => {
      const limit = parseLimit(
        c.req.query('limit'),
        Math.min(EVENT_LIMIT_DEFAULT, ctx.dialect.limits.max),
        ctx.dialect.limits,
      );
      const cursor = c.req.query('cursor');
      let after = 0;
      if (cursor !== undefined) {
        try {
          after = decodeCursor(cursor, 'events', user.id);
        } catch (error) {
          if (error instanceof CursorError)
            throw new ListError(
              badRequest(error.message, 'invalid_cursor', [{ path: 'cursor', message: error.message }]),
            );
          throw error;
        }
      }
      const page = ctx.store.eventsAfter(user.id, after, limit);
      return {
        body: {
          data: ctx.faults.config.hostileEventText
            ? page.events.map((event) => ({ ...event, data: hostileEventData(event.data) }))
            : page.events,
          has_more: page.hasMore,
          next_cursor: encodeCursor('events', user.id, page.lastSeq),
        },
      };
    });
  });
}
