/**
 * The sandbox's store: SQLite through better-sqlite3 (WAL on files, `:memory:` for tests).
 * Every method is synchronous, so a write and its event commit in one transaction.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BacktestStore } from './backtestStore';
import type { CatalystRecord } from './catalystModel';
import { CatalystStore, type CatalystChange } from './catalystStore';
import type { Visibility } from './schemas';
import { otherUserPlaybooks, samplePlaybook, samplePlaybookStatus, type SeedPlaybook } from './seed';
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_USER_ID,
  OTHER_USER_ID,
  PLAYBOOK_COLUMNS,
  SCHEMA,
  eventId,
  hashApiKey,
  hashPassword,
  passwordMatches,
  toEvent,
  toPlaybook,
  toUser,
  type EventRow,
  type EventType,
  type IdempotencyRecord,
  type Playbook,
  type PlaybookPage,
  type PlaybookRow,
  type PlaybookStatus,
  type ServiceEvent,
  type StoredResponse,
  type User,
  type UserRow,
} from './storeRows';

export * from './storeRows';

export class Store {
  readonly db: Database.Database;
  readonly backtests: BacktestStore;
  readonly catalysts: CatalystStore;
  private readonly eventListeners = new Set<(ownerId: string, event: ServiceEvent) => void>();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    this.backtests = new BacktestStore(this.db);
    this.catalysts = new CatalystStore(this.db);
  }

  close(): void {
    this.db.close();
  }

  isEmpty(): boolean {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number };
    return row.n === 0;
  }

  /**
   * Seeds the demo user, the second user, `count` sample playbooks and the catalysts (dated from
   * the UTC day of `now`) in one transaction.
   */
  seed(count: number, now = Date.now()): void {
    const insertUser = this.db.prepare(
      'INSERT INTO users (id, name, email, plan, permissions, brokerage_linked, password_hash) VALUES (?, ?, ?, ?, ?, 0, ?)',
    );
    const base = Date.parse('2025-01-06T14:00:00Z');
    this.db.transaction(() => {
      insertUser.run(
        DEMO_USER_ID,
        'Demo Investor',
        DEMO_EMAIL,
        'pro',
        JSON.stringify([
          'playbooks:read',
          'playbooks:write',
          'backtests:run',
          'execution:manage',
          'billing:manage',
        ]),
        hashPassword(DEMO_PASSWORD),
      );
      insertUser.run(
        OTHER_USER_ID,
        'Ada Okafor',
        'ada@investing-agent.test',
        'starter',
        JSON.stringify(['playbooks:read', 'playbooks:write']),
        hashPassword(randomBytes(12).toString('hex')),
      );
      const others = otherUserPlaybooks();
      others.forEach((p, i) =>
        this.insertPlaybookRow(
          OTHER_USER_ID,
          p,
          new Date(base - (others.length - i) * 3_600_000).toISOString(),
        ),
      );
      const demoIds: string[] = [];
      for (let i = 0; i < count; i++) {
        demoIds.push(
          this.insertPlaybookRow(
            DEMO_USER_ID,
            samplePlaybook(i),
            new Date(base + i * 3_600_000).toISOString(),
            samplePlaybookStatus(i),
          ),
        );
      }
      this.backtests.seedDemo(DEMO_USER_ID, demoIds.reverse(), base + count * 3_600_000);
      this.catalysts.seed(now);
    })();
  }

  private insertPlaybookRow(
    ownerId: string,
    p: SeedPlaybook,
    at: string,
    status: PlaybookStatus = 'draft',
  ): string {
    const id = `pb_${randomBytes(9).toString('base64url')}`;
    this.db
      .prepare(
        `INSERT INTO playbooks (id, owner_id, title, thesis, visibility, status, tickers, source_url, source_title, source_excerpt, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        ownerId,
        p.title,
        p.thesis,
        p.visibility,
        status,
        JSON.stringify(p.tickers),
        p.source?.url ?? null,
        p.source?.title ?? null,
        p.source?.excerpt ?? null,
        at,
        at,
      );
    return id;
  }

  // --- users and keys -------------------------------------------------------------------------

  addApiKey(userId: string, key: string, label: string): void {
    this.db
      .prepare(
        'INSERT INTO api_keys (key_hash, user_id, label, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(key_hash) DO UPDATE SET revoked_at = NULL',
      )
      .run(hashApiKey(key), userId, label, new Date().toISOString());
  }

  userForKey(key: string): User | null {
    const row = this.db
      .prepare(
        'SELECT u.* FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ? AND k.revoked_at IS NULL',
      )
      .get(hashApiKey(key)) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  revokeApiKey(key: string): boolean {
    const result = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE key_hash = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), hashApiKey(key));
    return result.changes > 0;
  }

  apiKeyCount(userId: string): number {
    return (
      this.db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ?').get(userId) as { n: number }
    ).n;
  }

  getUser(id: string): User | null {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  signIn(email: string, password: string): User | null {
    const row = this.db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim().toLowerCase()) as
      UserRow | undefined;
    return row && passwordMatches(password, row.password_hash) ? toUser(row) : null;
  }

  setBrokerageLinked(userId: string, linked: boolean): void {
    this.db.prepare('UPDATE users SET brokerage_linked = ? WHERE id = ?').run(linked ? 1 : 0, userId);
  }

  setPlan(userId: string, plan: string): void {
    this.db.prepare('UPDATE users SET plan = ? WHERE id = ?').run(plan, userId);
  }

  createAccountLink(userId: string, kind: 'brokerage' | 'checkout', detail: string): string {
    const token = randomBytes(18).toString('base64url');
    this.db
      .prepare('INSERT INTO account_links (token, user_id, kind, detail, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(token, userId, kind, detail, new Date().toISOString());
    return token;
  }

  /** Marks a link used and returns it; null when unknown. */
  useAccountLink(token: string, kind: 'brokerage' | 'checkout'): { userId: string; detail: string } | null {
    const row = this.db
      .prepare('SELECT user_id, detail FROM account_links WHERE token = ? AND kind = ?')
      .get(token, kind) as { user_id: string; detail: string } | undefined;
    if (!row) return null;
    this.db
      .prepare('UPDATE account_links SET used_at = ? WHERE token = ?')
      .run(new Date().toISOString(), token);
    return { userId: row.user_id, detail: row.detail };
  }

  // --- playbooks --------------------------------------------------------------------------------

  getPlaybook(id: string): Playbook | null {
    const row = this.db
      .prepare(`SELECT ${PLAYBOOK_COLUMNS} FROM playbooks p JOIN users u ON u.id = p.owner_id WHERE p.id = ?`)
      .get(id) as PlaybookRow | undefined;
    return row ? toPlaybook(row) : null;
  }

  /** Keyset page, newest first: rows with seq below `beforeSeq`. */
  listPlaybooks(
    filter: { ownerId?: string; visibility?: Visibility },
    beforeSeq: number | null,
    limit: number,
  ): PlaybookPage {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.ownerId) {
      where.push('p.owner_id = ?');
      params.push(filter.ownerId);
    }
    if (filter.visibility) {
      where.push('p.visibility = ?');
      params.push(filter.visibility);
    }
    if (beforeSeq !== null) {
      where.push('p.seq < ?');
      params.push(beforeSeq);
    }
    const sql = `SELECT ${PLAYBOOK_COLUMNS} FROM playbooks p JOIN users u ON u.id = p.owner_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.seq DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, limit + 1) as PlaybookRow[];
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    return {
      rows: page.map(toPlaybook),
      seqs: page.map((r) => r.seq),
      lastSeq: page.length ? page[page.length - 1].seq : null,
      hasMore,
    };
  }

  searchPublicPlaybooks(query: string, limit: number): Playbook[] {
    const like = `%${query.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const rows = this.db
      .prepare(
        `SELECT ${PLAYBOOK_COLUMNS} FROM playbooks p JOIN users u ON u.id = p.owner_id
         WHERE p.visibility = 'public' AND (p.title LIKE ? ESCAPE '\\' OR p.thesis LIKE ? ESCAPE '\\' OR p.tickers LIKE ? ESCAPE '\\')
         ORDER BY p.seq DESC LIMIT ?`,
      )
      .all(like, like, like, limit) as PlaybookRow[];
    return rows.map(toPlaybook);
  }

  playbookCount(ownerId?: string): number {
    const row = ownerId
      ? (this.db.prepare('SELECT COUNT(*) AS n FROM playbooks WHERE owner_id = ?').get(ownerId) as {
          n: number;
        })
      : (this.db.prepare('SELECT COUNT(*) AS n FROM playbooks').get() as { n: number });
    return row.n;
  }

  createPlaybook(ownerId: string, input: SeedPlaybook): Playbook {
    const at = new Date().toISOString();
    const id = this.insertPlaybookRow(ownerId, input, at);
    return this.getPlaybook(id)!;
  }

  updatePlaybook(
    id: string,
    patch: {
      title?: string;
      thesis?: string;
      visibility?: Visibility;
      tickers?: string[];
      status?: PlaybookStatus;
    },
  ): Playbook {
    const current = this.getPlaybook(id);
    if (!current) throw new Error(`playbook ${id} not found`);
    // updated_at must change on every write so the etag does too, even within one millisecond.
    const now = Math.max(Date.now(), Date.parse(current.updated_at) + 1);
    this.db
      .prepare(
        'UPDATE playbooks SET title = ?, thesis = ?, visibility = ?, tickers = ?, status = ?, version = version + 1, updated_at = ? WHERE id = ?',
      )
      .run(
        patch.title ?? current.title,
        patch.thesis ?? current.thesis,
        patch.visibility ?? current.visibility,
        JSON.stringify(patch.tickers ?? current.tickers),
        patch.status ?? current.status,
        new Date(now).toISOString(),
        id,
      );
    return this.getPlaybook(id)!;
  }

  // --- events -----------------------------------------------------------------------------------

  appendEvent(
    ownerId: string,
    type: EventType,
    playbookId: string,
    data: Record<string, unknown>,
  ): ServiceEvent {
    const at = new Date().toISOString();
    const result = this.db
      .prepare('INSERT INTO events (owner_id, type, playbook_id, at, data) VALUES (?, ?, ?, ?, ?)')
      .run(ownerId, type, playbookId, at, JSON.stringify(data));
    const event: ServiceEvent = {
      id: eventId(Number(result.lastInsertRowid)),
      type,
      playbook_id: playbookId,
      at,
      data,
    };
    // Listeners run after the surrounding transaction commits (see notifyAfterCommit callers).
    queueMicrotask(() => {
      for (const listener of this.eventListeners) listener(ownerId, event);
    });
    return event;
  }

  eventsAfter(
    ownerId: string,
    afterSeq: number,
    limit: number,
  ): { events: ServiceEvent[]; hasMore: boolean; lastSeq: number } {
    const rows = this.db
      .prepare('SELECT * FROM events WHERE owner_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(ownerId, afterSeq, limit + 1) as EventRow[];
    const page = rows.slice(0, limit);
    return {
      events: page.map(toEvent),
      hasMore: rows.length > limit,
      lastSeq: page.length ? page[page.length - 1].seq : afterSeq,
    };
  }

  latestEventSeq(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM events').get() as { n: number }).n;
  }

  onEvent(listener: (ownerId: string, event: ServiceEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  // --- catalysts --------------------------------------------------------------------------------

  /**
   * Changes a catalyst and, in the same transaction, tells every user whose playbooks track its
   * ticker with one `catalyst.changed` event (on their newest such playbook). Null for an unknown id.
   */
  changeCatalyst(id: string, change: CatalystChange, now = Date.now()): CatalystRecord | null {
    return this.transaction(() => {
      const changed = this.catalysts.change(id, change, now);
      if (!changed) return null;
      const { record } = changed;
      for (const { ownerId, playbookId } of this.catalysts.trackers(record.ticker))
        this.appendEvent(ownerId, 'catalyst.changed', playbookId, {
          catalyst_id: record.id,
          ticker: record.ticker,
          at: record.at,
          status: record.status,
        });
      return record;
    });
  }

  // --- idempotency ------------------------------------------------------------------------------

  getIdempotency(userId: string, operation: string, key: string): IdempotencyRecord | null {
    const row = this.db
      .prepare(
        'SELECT body_hash, state, response FROM idempotency WHERE user_id = ? AND operation = ? AND key = ?',
      )
      .get(userId, operation, key) as
      { body_hash: string; state: string; response: string | null } | undefined;
    if (!row) return null;
    if (row.state === 'done' && row.response)
      return { state: 'done', bodyHash: row.body_hash, response: JSON.parse(row.response) as StoredResponse };
    return { state: 'in_flight', bodyHash: row.body_hash };
  }

  /** Claims the key; false when another request already holds it. */
  claimIdempotency(userId: string, operation: string, key: string, bodyHash: string): boolean {
    const result = this.db
      .prepare(
        "INSERT OR IGNORE INTO idempotency (user_id, operation, key, body_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)",
      )
      .run(userId, operation, key, bodyHash, new Date().toISOString());
    return result.changes === 1;
  }

  completeIdempotency(userId: string, operation: string, key: string, response: StoredResponse): void {
    this.db
      .prepare(
        "UPDATE idempotency SET state = 'done', response = ? WHERE user_id = ? AND operation = ? AND key = ?",
      )
      .run(JSON.stringify(response), userId, operation, key);
  }

  releaseIdempotency(userId: string, operation: string, key: string): void {
    this.db
      .prepare(
        "DELETE FROM idempotency WHERE user_id = ? AND operation = ? AND key = ? AND state = 'in_flight'",
      )
      .run(userId, operation, key);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}
