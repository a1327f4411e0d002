/**
 * The sandbox's store: SQLite through better-sqlite3 (WAL on files, `:memory:` for tests).
 * Every method is synchronous, so a write and its event commit in one transaction.
 */
import Database from 'better-sqlite3';
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Visibility } from './schemas';
import { otherUserPlaybooks, samplePlaybook, type SeedPlaybook } from './seed';

export type PlaybookStatus = 'draft' | 'active' | 'paused' | 'archived';
export type EventType =
  'playbook.created' | 'playbook.updated' | 'backtest.completed' | 'execution.started' | 'execution.stopped';

export interface User {
  id: string;
  name: string;
  email: string;
  plan: string;
  permissions: string[];
  brokerage_linked: boolean;
}

export interface Playbook {
  id: string;
  title: string;
  thesis: string;
  visibility: Visibility;
  status: PlaybookStatus;
  tickers: string[];
  source?: { url: string; title: string };
  owner: { id: string; name: string };
  created_at: string;
  updated_at: string;
  etag: string;
}

export interface ServiceEvent {
  id: string;
  type: EventType;
  playbook_id: string;
  at: string;
  data: Record<string, unknown>;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyRecord =
  { state: 'in_flight'; bodyHash: string } | { state: 'done'; bodyHash: string; response: StoredResponse };

interface PlaybookRow {
  seq: number;
  id: string;
  owner_id: string;
  owner_name: string;
  title: string;
  thesis: string;
  visibility: Visibility;
  status: PlaybookStatus;
  tickers: string;
  source_url: string | null;
  source_title: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

interface UserRow {
  id: string;
  name: string;
  email: string;
  plan: string;
  permissions: string;
  brokerage_linked: number;
  password_hash: string;
}

interface EventRow {
  seq: number;
  owner_id: string;
  type: EventType;
  playbook_id: string;
  at: string;
  data: string;
}

export const DEMO_USER_ID = 'usr_demo';
export const OTHER_USER_ID = 'usr_ada';
export const DEMO_EMAIL = 'demo@investing-agent.test';
export const DEMO_PASSWORD = 'sandbox-demo-password';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, plan TEXT NOT NULL,
  permissions TEXT NOT NULL, brokerage_linked INTEGER NOT NULL DEFAULT 0, password_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  key_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), label TEXT NOT NULL,
  created_at TEXT NOT NULL, revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS playbooks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, owner_id TEXT NOT NULL REFERENCES users(id),
  title TEXT NOT NULL, thesis TEXT NOT NULL, visibility TEXT NOT NULL, status TEXT NOT NULL,
  tickers TEXT NOT NULL, source_url TEXT, source_title TEXT, source_excerpt TEXT,
  version INTEGER NOT NULL DEFAULT 1, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS playbooks_owner ON playbooks(owner_id, seq);
CREATE INDEX IF NOT EXISTS playbooks_owner_visibility ON playbooks(owner_id, visibility, seq);
CREATE INDEX IF NOT EXISTS playbooks_visibility ON playbooks(visibility, seq);
CREATE TABLE IF NOT EXISTS idempotency (
  user_id TEXT NOT NULL, operation TEXT NOT NULL, key TEXT NOT NULL, body_hash TEXT NOT NULL,
  state TEXT NOT NULL, response TEXT, created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, operation, key)
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, owner_id TEXT NOT NULL, type TEXT NOT NULL,
  playbook_id TEXT NOT NULL, at TEXT NOT NULL, data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_owner ON events(owner_id, seq);
CREATE TABLE IF NOT EXISTS backtests (
  id TEXT PRIMARY KEY, playbook_id TEXT NOT NULL, user_id TEXT NOT NULL, start TEXT NOT NULL,
  end TEXT NOT NULL, benchmark TEXT NOT NULL, status TEXT NOT NULL, result TEXT, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_links (
  token TEXT PRIMARY KEY, user_id TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL,
  created_at TEXT NOT NULL, used_at TEXT
);
`;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newApiKey(): string {
  return `iak_${randomBytes(24).toString('base64url')}`;
}

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt:${salt.toString('hex')}:${scryptSync(password, salt, 32).toString('hex')}`;
}

function passwordMatches(password: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split(':');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const candidate = scryptSync(password, Buffer.from(salt, 'hex'), 32);
  const expected = Buffer.from(hash, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

function playbookEtag(row: Pick<PlaybookRow, 'id' | 'version' | 'updated_at'>): string {
  const digest = createHash('sha256')
    .update(`${row.id}:${row.version}:${row.updated_at}`)
    .digest('base64url');
  return `"${digest.slice(0, 22)}"`;
}

function toPlaybook(row: PlaybookRow): Playbook {
  const playbook: Playbook = {
    id: row.id,
    title: row.title,
    thesis: row.thesis,
    visibility: row.visibility,
    status: row.status,
    tickers: JSON.parse(row.tickers) as string[],
    owner: { id: row.owner_id, name: row.owner_name },
    created_at: row.created_at,
    updated_at: row.updated_at,
    etag: playbookEtag(row),
  };
  if (row.source_url) playbook.source = { url: row.source_url, title: row.source_title ?? '' };
  return playbook;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    plan: row.plan,
    permissions: JSON.parse(row.permissions) as string[],
    brokerage_linked: row.brokerage_linked === 1,
  };
}

export function eventId(seq: number): string {
  return `evt_${seq}`;
}

/** The sequence number inside an event id, or null when the id is not one of ours. */
export function eventSeq(id: string): number | null {
  const match = /^evt_(\d{1,15})$/.exec(id);
  return match ? Number(match[1]) : null;
}

function toEvent(row: EventRow): ServiceEvent {
  return {
    id: eventId(row.seq),
    type: row.type,
    playbook_id: row.playbook_id,
    at: row.at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

const PLAYBOOK_COLUMNS = `p.seq, p.id, p.owner_id, u.name AS owner_name, p.title, p.thesis, p.visibility, p.status,
  p.tickers, p.source_url, p.source_title, p.version, p.created_at, p.updated_at`;

export interface PlaybookPage {
  rows: Playbook[];
  /** Keyset position of each row, for per-edge cursors. */
  seqs: number[];
  lastSeq: number | null;
  hasMore: boolean;
}

export class Store {
  readonly db: Database.Database;
  private readonly eventListeners = new Set<(ownerId: string, event: ServiceEvent) => void>();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  isEmpty(): boolean {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number };
    return row.n === 0;
  }

  /** Seeds the demo user, the second user and `count` sample playbooks in one transaction. */
  seed(count: number): void {
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
      for (let i = 0; i < count; i++) {
        this.insertPlaybookRow(DEMO_USER_ID, samplePlaybook(i), new Date(base + i * 3_600_000).toISOString());
      }
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

  // --- backtests --------------------------------------------------------------------------------

  createBacktest(
    userId: string,
    playbookId: string,
    input: { start: string; end: string; benchmark: string },
  ): string {
    const id = `bt_${randomBytes(9).toString('base64url')}`;
    this.db
      .prepare(
        'INSERT INTO backtests (id, playbook_id, user_id, start, end, benchmark, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        id,
        playbookId,
        userId,
        input.start,
        input.end,
        input.benchmark,
        'queued',
        new Date().toISOString(),
      );
    return id;
  }

  getBacktest(id: string): {
    id: string;
    playbook_id: string;
    user_id: string;
    start: string;
    end: string;
    benchmark: string;
    status: string;
    result: string | null;
  } | null {
    return (
      (this.db.prepare('SELECT * FROM backtests WHERE id = ?').get(id) as
        ReturnType<Store['getBacktest']> | undefined) ?? null
    );
  }

  completeBacktest(id: string, result: Record<string, unknown>): void {
    this.db
      .prepare("UPDATE backtests SET status = 'completed', result = ? WHERE id = ?")
      .run(JSON.stringify(result), id);
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
