/**
 * Backtests in the sandbox's SQLite store: a run per row, newest first by insertion, with its
 * metrics and equity series once completed. Synchronous like the rest of the store, so a
 * completion and its event commit in one transaction.
 */
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { simulateBacktest, type BacktestMetrics, type EquityPoint } from './backtestModel';

export type BacktestStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface BacktestProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
}

/** The contract's Backtest; `equity` only on a completed one read by itself. */
export interface Backtest {
  id: string;
  playbook_id: string;
  status: BacktestStatus;
  start: string;
  end: string;
  benchmark: string;
  created_at: string;
  completed_at: string | null;
  metrics: BacktestMetrics | null;
  equity?: EquityPoint[];
  error?: BacktestProblem;
}

interface BacktestRow {
  seq: number;
  id: string;
  playbook_id: string;
  user_id: string;
  start: string;
  end: string;
  benchmark: string;
  status: BacktestStatus;
  metrics: string | null;
  equity: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS backtest_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, playbook_id TEXT NOT NULL,
  user_id TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL, benchmark TEXT NOT NULL,
  status TEXT NOT NULL, metrics TEXT, equity TEXT, error TEXT, created_at TEXT NOT NULL, completed_at TEXT
);
CREATE INDEX IF NOT EXISTS backtest_runs_playbook ON backtest_runs(playbook_id, seq);
`;

function toBacktest(row: BacktestRow, withEquity: boolean): Backtest {
  const backtest: Backtest = {
    id: row.id,
    playbook_id: row.playbook_id,
    status: row.status,
    start: row.start,
    end: row.end,
    benchmark: row.benchmark,
    created_at: row.created_at,
    completed_at: row.completed_at,
    metrics: row.metrics ? (JSON.parse(row.metrics) as BacktestMetrics) : null,
  };
  if (withEquity && row.status === 'completed' && row.equity)
    backtest.equity = JSON.parse(row.equity) as EquityPoint[];
  // The problem's type is a URL on the serving origin, which the store does not know.
  if (row.error)
    backtest.error = {
      type: '/problems/backtest_failed',
      ...(JSON.parse(row.error) as object),
    } as BacktestProblem;
  return backtest;
}

export interface BacktestPage {
  rows: Backtest[];
  lastSeq: number | null;
  hasMore: boolean;
}

/** The seeded history: what each of the newest demo playbooks has run (newest playbook first). */
const DEMO_RUNS: {
  start: string;
  end: string;
  benchmark: string;
  outcome: 'completed' | 'failed' | 'queued';
}[][] = [
  [
    { start: '2019-01-02', end: '2021-12-31', benchmark: 'QQQ', outcome: 'completed' },
    { start: '1985-01-02', end: '1989-12-29', benchmark: 'SPY', outcome: 'failed' },
    { start: '2022-01-03', end: '2024-12-31', benchmark: 'SPY', outcome: 'completed' },
  ],
  [
    { start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY', outcome: 'completed' },
    { start: '2024-01-02', end: '2024-12-31', benchmark: 'SPY', outcome: 'queued' },
  ],
  [{ start: '2022-01-03', end: '2024-12-31', benchmark: 'SPY', outcome: 'completed' }],
  [{ start: '2020-01-02', end: '2024-12-31', benchmark: 'IWM', outcome: 'completed' }],
];

export class BacktestStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  create(
    userId: string,
    playbookId: string,
    input: { start: string; end: string; benchmark: string },
    createdAt = new Date().toISOString(),
  ): string {
    const id = `bt_${randomBytes(9).toString('base64url')}`;
    this.db
      .prepare(
        'INSERT INTO backtest_runs (id, playbook_id, user_id, start, end, benchmark, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, playbookId, userId, input.start, input.end, input.benchmark, 'queued', createdAt);
    return id;
  }

  /** The backtest if `userId` ran it; another user's reads as missing. */
  get(id: string, userId: string): Backtest | null {
    const row = this.db
      .prepare('SELECT * FROM backtest_runs WHERE id = ? AND user_id = ?')
      .get(id, userId) as BacktestRow | undefined;
    return row ? toBacktest(row, true) : null;
  }

  /** Keyset page of one playbook's backtests, newest first, without equity. */
  list(playbookId: string, userId: string, beforeSeq: number | null, limit: number): BacktestPage {
    const rows = this.db
      .prepare(
        `SELECT * FROM backtest_runs WHERE playbook_id = ? AND user_id = ? ${beforeSeq === null ? '' : 'AND seq < ?'}
         ORDER BY seq DESC LIMIT ?`,
      )
      .all(...[playbookId, userId, ...(beforeSeq === null ? [] : [beforeSeq]), limit + 1]) as BacktestRow[];
    const page = rows.slice(0, limit);
    return {
      rows: page.map((row) => toBacktest(row, false)),
      lastSeq: page.length ? page[page.length - 1].seq : null,
      hasMore: rows.length > limit,
    };
  }

  markRunning(id: string): void {
    this.db.prepare("UPDATE backtest_runs SET status = 'running' WHERE id = ? AND status = 'queued'").run(id);
  }

  /** Runs the engine and stores the result; returns the metrics the completion event carries. */
  complete(id: string, completedAt = new Date().toISOString()): BacktestMetrics {
    const row = this.db.prepare('SELECT * FROM backtest_runs WHERE id = ?').get(id) as BacktestRow;
    const result = simulateBacktest(row.playbook_id, row.start, row.end, row.benchmark);
    this.db
      .prepare(
        "UPDATE backtest_runs SET status = 'completed', metrics = ?, equity = ?, completed_at = ? WHERE id = ?",
      )
      .run(JSON.stringify(result.metrics), JSON.stringify(result.equity), completedAt, id);
    return result.metrics;
  }

  fail(id: string, detail: string, completedAt = new Date().toISOString()): void {
    const error: Omit<BacktestProblem, 'type'> = {
      title: 'Backtest failed',
      status: 422,
      detail,
      code: 'backtest_failed',
    };
    this.db
      .prepare("UPDATE backtest_runs SET status = 'failed', error = ?, completed_at = ? WHERE id = ?")
      .run(JSON.stringify(error), completedAt, id);
  }

  /** The demo history for the newest playbooks (ids newest first); no events, it is the past. */
  seedDemo(userId: string, playbookIds: string[], base: number): void {
    let minute = 0;
    DEMO_RUNS.forEach((runs, i) => {
      const playbookId = playbookIds[i];
      if (!playbookId) return;
      for (const run of runs) {
        const at = new Date(base + ++minute * 60_000).toISOString();
        const id = this.create(userId, playbookId, run, at);
        const done = new Date(base + minute * 60_000 + 20_000).toISOString();
        if (run.outcome === 'completed') this.complete(id, done);
        if (run.outcome === 'failed')
          this.fail(id, 'No price data before 1990-01-02 for this universe.', done);
      }
    });
  }
}
