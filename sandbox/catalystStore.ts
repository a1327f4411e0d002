/**
 * Catalysts in the sandbox's SQLite store: one row per catalyst, listed ascending by `at` (then by
 * insertion) with keyset pages. `playbook_ids` is worked out per caller: the caller's own
 * playbooks that track the ticker, newest first, at most MAX_CATALYST_PLAYBOOKS.
 */
import type Database from 'better-sqlite3';
import {
  MAX_CATALYST_PLAYBOOKS,
  seededCatalysts,
  type Catalyst,
  type CatalystKind,
  type CatalystRecord,
  type CatalystSession,
  type CatalystStatus,
} from './catalystModel';

interface CatalystRow {
  seq: number;
  id: string;
  ticker: string;
  kind: CatalystKind;
  title: string;
  at: string;
  all_day: number;
  status: CatalystStatus;
  session: CatalystSession | null;
  source_url: string | null;
  sequence: number;
  updated_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS catalysts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, ticker TEXT NOT NULL, kind TEXT NOT NULL,
  title TEXT NOT NULL, at TEXT NOT NULL, all_day INTEGER NOT NULL, status TEXT NOT NULL, session TEXT,
  source_url TEXT, sequence INTEGER NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS catalysts_ticker_at ON catalysts(ticker, at, seq);
`;

function toRecord(row: CatalystRow): CatalystRecord {
  const record: CatalystRecord = {
    id: row.id,
    ticker: row.ticker,
    kind: row.kind,
    title: row.title,
    at: row.at,
    all_day: row.all_day === 1,
    status: row.status,
    sequence: row.sequence,
    updated_at: row.updated_at,
  };
  if (row.session) record.session = row.session;
  if (row.source_url) record.source_url = row.source_url;
  return record;
}

/** Where a page ends: the `at` and insertion order of its last row. */
export interface CatalystPosition {
  at: string;
  seq: number;
}

export interface CatalystQuery {
  tickers: string[];
  /** Full-dates, inclusive; `to` open when null. */
  from: string;
  to: string | null;
  after: CatalystPosition | null;
  limit: number;
}

export interface CatalystPage {
  rows: Catalyst[];
  last: CatalystPosition | null;
  hasMore: boolean;
}

/** What a move may change; anything else about a catalyst stays. */
export type CatalystChange = Partial<Pick<CatalystRecord, 'at' | 'all_day' | 'status' | 'session' | 'title'>>;

export class CatalystStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM catalysts').get() as { n: number }).n === 0;
  }

  seed(now: number): void {
    for (const record of seededCatalysts(now)) this.insert(record);
  }

  insert(record: CatalystRecord): void {
    this.db
      .prepare(
        `INSERT INTO catalysts (id, ticker, kind, title, at, all_day, status, session, source_url, sequence, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.id,
        record.ticker,
        record.kind,
        record.title,
        record.at,
        record.all_day ? 1 : 0,
        record.status,
        record.session ?? null,
        record.source_url ?? null,
        record.sequence,
        record.updated_at,
      );
  }

  get(id: string): CatalystRecord | null {
    const row = this.db.prepare('SELECT * FROM catalysts WHERE id = ?').get(id) as CatalystRow | undefined;
    return row ? toRecord(row) : null;
  }

  /** The caller's playbooks that track `ticker`, newest first (tickers are stored as a JSON array). */
  playbookIds(userId: string, ticker: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT id FROM playbooks WHERE owner_id = ? AND instr(tickers, ?) > 0 ORDER BY seq DESC LIMIT ?`,
      )
      .all(userId, JSON.stringify(ticker), MAX_CATALYST_PLAYBOOKS) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** Every user with a playbook tracking `ticker`, each with its newest such playbook. */
  trackers(ticker: string): { ownerId: string; playbookId: string }[] {
    const rows = this.db
      .prepare(
        `SELECT owner_id, id FROM playbooks p WHERE instr(tickers, ?) > 0
         AND seq = (SELECT MAX(seq) FROM playbooks q WHERE q.owner_id = p.owner_id AND instr(q.tickers, ?) > 0)`,
      )
      .all(JSON.stringify(ticker), JSON.stringify(ticker)) as { owner_id: string; id: string }[];
    return rows.map((row) => ({ ownerId: row.owner_id, playbookId: row.id }));
  }

  /** One keyset page, ascending by `at` then insertion, of the tickers' catalysts dated in [from, to]. */
  list(userId: string, query: CatalystQuery): CatalystPage {
    const where = [`ticker IN (${query.tickers.map(() => '?').join(', ')})`, 'substr(at, 1, 10) >= ?'];
    const params: (string | number)[] = [...query.tickers, query.from];
    if (query.to !== null) {
      where.push('substr(at, 1, 10) <= ?');
      params.push(query.to);
    }
    if (query.after) {
      where.push('(at, seq) > (?, ?)');
      params.push(query.after.at, query.after.seq);
    }
    const rows = this.db
      .prepare(`SELECT * FROM catalysts WHERE ${where.join(' AND ')} ORDER BY at, seq LIMIT ?`)
      .all(...params, query.limit + 1) as CatalystRow[];
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      rows: page.map((row) => ({ ...toRecord(row), playbook_ids: this.playbookIds(userId, row.ticker) })),
      last: last ? { at: last.at, seq: last.seq } : null,
      hasMore: rows.length > query.limit,
    };
  }

  /**
   * Applies a change; `sequence` grows when the date, time or status changes (iCalendar's
   * SEQUENCE). Returns the new record and whether `sequence` grew, or null for an unknown id.
   */
  change(
    id: string,
    change: CatalystChange,
    now: number,
  ): { record: CatalystRecord; bumped: boolean } | null {
    const current = this.get(id);
    if (!current) return null;
    const next: CatalystRecord = { ...current, ...change };
    const bumped =
      next.at !== current.at || next.all_day !== current.all_day || next.status !== current.status;
    if (bumped) next.sequence = current.sequence + 1;
    next.updated_at = new Date(Math.max(now, Date.parse(current.updated_at) + 1000)).toISOString();
    next.updated_at = next.updated_at.replace(/\.\d{3}Z$/, 'Z');
    this.db
      .prepare(
        'UPDATE catalysts SET title = ?, at = ?, all_day = ?, status = ?, session = ?, sequence = ?, updated_at = ? WHERE id = ?',
      )
      .run(
        next.title,
        next.at,
        next.all_day ? 1 : 0,
        next.status,
        next.session ?? null,
        next.sequence,
        next.updated_at,
        id,
      );
    return { record: next, bumped };
  }
}
