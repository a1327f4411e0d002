/** What every route needs: the store, the faults, the limits and the origins. */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { DialectSpec } from './dialect';
import type { FaultState } from './faults';
import type { TokenBuckets } from './ratelimit';
import type { Store, User } from './store';

export type ComponentStatus = 'operational' | 'degraded' | 'outage';

export interface ServiceStatus {
  status: ComponentStatus;
  components: { name: string; status: ComponentStatus }[];
  updated_at: string;
}

export interface SandboxContext {
  store: Store;
  faults: FaultState;
  buckets: TokenBuckets;
  baseUrl: string;
  apiUrl: string;
  /** Paths, parameter name and page sizes this sandbox serves. */
  dialect: DialectSpec;
  adminToken: string;
  backtestDelayMs: number;
  status: ServiceStatus;
  /** Aborted when the sandbox closes: ends SSE streams, hangs and timers. */
  closing: AbortSignal;
  timers: Set<NodeJS.Timeout>;
  /** The clock catalysts and performance figures read "today" from (epoch ms). */
  now: () => number;
  /** Report unexpected errors on stderr (off under `quiet`). */
  reportError: (event: string, error: unknown) => void;
}

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: { user: User | null; apiKey: string | null };
}

export type AppContext = Context<AppEnv>;

export const DEFAULT_COMPONENTS = ['API', 'Backtesting engine', 'Live execution', 'MCP server'];
