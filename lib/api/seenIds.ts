/**
 * The ids one client has seen: in the paths it filled (`playbookId`, path arguments), in the ids a
 * batch read asked for, and in the `id` and `playbook_id` fields of the answers it received. A read
 * sent by POST never goes to a path that names one of them (`postReadRefusal` in routes.ts): only a
 * write's route names one playbook.
 *
 * Bounded in memory (the oldest are forgotten first) and in time: an answer is walked up to a fixed
 * number of values, so a large or deeply nested answer costs no more than that.
 */
import { fold } from './routes';

/** More ids than a user's playbooks and backtests in any session; the oldest go first. */
const MAX_IDS = 20_000;
/** Values looked at per answer, and how deep. */
const MAX_VISITS = 20_000;
const MAX_DEPTH = 8;
/** Longer strings are not ids (the contract's are short); nothing is kept of them. */
const MAX_ID_LENGTH = 200;
const ID_FIELDS = new Set(['id', 'playbook_id', 'playbookId', 'backtest_id']);

export class SeenIds {
  private readonly ids = new Set<string>();

  has(piece: string): boolean {
    return this.ids.has(fold(piece));
  }

  add(id: unknown): void {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) return;
    const key = fold(id);
    this.ids.delete(key);
    this.ids.add(key);
    if (this.ids.size > MAX_IDS) this.ids.delete(this.ids.values().next().value!);
  }

  /** The ids a call fills into its path. */
  addArguments(args: { playbookId?: string; path?: Record<string, unknown> }): void {
    this.add(args.playbookId);
    for (const value of Object.values(args.path ?? {}))
      this.add(typeof value === 'number' ? String(value) : value);
  }

  /** The ids a batch read asks for (`{ids: […]}`). */
  addBody(body: unknown): void {
    const ids = (body as { ids?: unknown } | null | undefined)?.ids;
    if (Array.isArray(ids)) for (const id of ids.slice(0, MAX_VISITS)) this.add(id);
  }

  /** The `id`-like fields of an answer, walked breadth-first up to `MAX_VISITS` values. */
  addResponse(data: unknown): void {
    const queue: Array<[unknown, number]> = [[data, 0]];
    let visits = 0;
    for (let next = 0; next < queue.length && visits < MAX_VISITS; next++) {
      const [value, depth] = queue[next];
      visits++;
      if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) continue;
      const entries = Array.isArray(value) ? value.map((item) => ['', item] as const) : Object.entries(value);
      for (const [field, item] of entries) {
        if (queue.length >= MAX_VISITS) break;
        if (ID_FIELDS.has(field)) this.add(item);
        else if (item !== null && typeof item === 'object') queue.push([item, depth + 1]);
      }
    }
  }
}
