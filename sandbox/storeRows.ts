/** The sandbox store's tables, row types and row-to-resource mapping (see store.ts). */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Visibility } from './schemas';

export type PlaybookStatus = 'draft' | 'active' | 'paused' | 'archived';
export type EventType =
  | 'playbook.created'
  | 'playbook.updated'
  | 'backtest.completed'
  | 'execution.started'
  | 'execution.stopped'
  | 'catalyst.changed';

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

export interface PlaybookRow {
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

export interface UserRow {
  id: string;
  name: string;
  email: string;
  plan: string;
  permissions: string;
  brokerage_linked: number;
  password_hash: string;
}

export interface EventRow {
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

export const SCHEMA = `
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

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt:${salt.toString('hex')}:${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(password: string, stored: string): boolean {
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

export function toPlaybook(row: PlaybookRow): Playbook {
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

export function toUser(row: UserRow): User {
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

export function toEvent(row: EventRow): ServiceEvent {
  return {
    id: eventId(row.seq),
    type: row.type,
    playbook_id: row.playbook_id,
    at: row.at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

export const PLAYBOOK_COLUMNS = `p.seq, p.id, p.owner_id, u.name AS owner_name, p.title, p.thesis, p.visibility, p.status,
  p.tickers, p.source_url, p.source_title, p.version, p.created_at, p.updated_at`;

export interface PlaybookPage {
  rows: Playbook[];
  /** Keyset position of each row, for per-edge cursors. */
  seqs: number[];
  lastSeq: number | null;
  hasMore: boolean;
}
