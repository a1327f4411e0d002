/**
 * Three dialects of the same contract, so that clients prove they read the document: `a` (the
 * reference paths under /api/v1), `b` (other paths, a `bookId` path parameter and smaller page
 * sizes) and `c` (AIP-136 custom methods: `/strategies/{name}:goLive`, `/strategies:batchGet`).
 */

/** Every operation of the contract, by the operationId clients look it up by. */
export type OperationId =
  | 'getStatus'
  | 'listPublicPlaybooks'
  | 'getAccount'
  | 'listPlaybooks'
  | 'listPlaybooksLegacy'
  | 'getPlaybook'
  | 'batchGetPlaybooks'
  | 'createPlaybook'
  | 'updatePlaybook'
  | 'runBacktest'
  | 'listBacktests'
  | 'getBacktest'
  | 'activatePlaybook'
  | 'pausePlaybook'
  | 'createCheckoutSession'
  | 'createBrokerageLink'
  | 'listCatalysts'
  | 'getPlaybookPerformance'
  | 'listEvents'
  | 'streamEvents'
  | 'graphql';

export type Dialect = 'a' | 'b' | 'c';
export const DIALECTS: readonly Dialect[] = ['a', 'b', 'c'];
export const isDialect = (value: string): value is Dialect => (DIALECTS as readonly string[]).includes(value);

export interface DialectSpec {
  /** Path of servers[0].url on the sandbox origin. */
  apiPrefix: string;
  /** Name of the one path parameter of per-playbook operations. */
  playbookParam: string;
  /** Page-size bounds of every list operation (`limit`, GraphQL `first`). */
  limits: { min: number; max: number; default: number };
  /** Path templates relative to servers[0].url, by operationId. */
  paths: Record<OperationId, string>;
  /** Paths end in AIP-136 custom methods (`…/{name}:goLive`), which the router sees as `…/{name}/~goLive`. */
  customMethods?: boolean;
}

export const DIALECT_SPECS: Record<Dialect, DialectSpec> = {
  a: {
    apiPrefix: '/api/v1',
    playbookParam: 'id',
    limits: { min: 1, max: 100, default: 20 },
    paths: {
      getStatus: '/status',
      listPublicPlaybooks: '/public/playbooks',
      getAccount: '/account',
      listPlaybooks: '/playbooks',
      listPlaybooksLegacy: '/legacy/playbooks',
      getPlaybook: '/playbooks/{id}',
      batchGetPlaybooks: '/playbooks/batch-get',
      createPlaybook: '/playbooks',
      updatePlaybook: '/playbooks/{id}',
      runBacktest: '/playbooks/{id}/backtests',
      listBacktests: '/playbooks/{id}/backtests',
      getBacktest: '/backtests/{id}',
      activatePlaybook: '/playbooks/{id}/activate',
      pausePlaybook: '/playbooks/{id}/pause',
      createCheckoutSession: '/billing/checkout-sessions',
      createBrokerageLink: '/brokerage/links',
      listCatalysts: '/catalysts',
      getPlaybookPerformance: '/playbooks/{id}/performance',
      listEvents: '/events',
      streamEvents: '/events/stream',
      graphql: '/graphql',
    },
  },
  b: {
    apiPrefix: '/api',
    playbookParam: 'bookId',
    limits: { min: 1, max: 25, default: 10 },
    paths: {
      getStatus: '/v2/health',
      listPublicPlaybooks: '/v2/public/books',
      getAccount: '/v2/me',
      listPlaybooks: '/v2/books',
      listPlaybooksLegacy: '/v1/books',
      getPlaybook: '/v2/books/{bookId}',
      batchGetPlaybooks: '/v2/batch/books',
      createPlaybook: '/v2/books',
      updatePlaybook: '/v2/books/{bookId}',
      runBacktest: '/v2/books/{bookId}/run-backtest',
      listBacktests: '/v2/books/{bookId}/backtests',
      getBacktest: '/v2/backtest-runs/{runId}',
      activatePlaybook: '/v2/books/{bookId}/live/start',
      pausePlaybook: '/v2/books/{bookId}/live/stop',
      createCheckoutSession: '/v2/billing/checkout',
      createBrokerageLink: '/v2/brokerage/link-sessions',
      listCatalysts: '/v2/calendar/catalysts',
      getPlaybookPerformance: '/v2/books/{bookId}/since-capture',
      listEvents: '/v2/changes',
      streamEvents: '/v2/changes/stream',
      graphql: '/v2/graphql',
    },
  },
  c: {
    apiPrefix: '/api/v3',
    playbookParam: 'name',
    limits: { min: 1, max: 50, default: 15 },
    customMethods: true,
    paths: {
      getStatus: '/health',
      listPublicPlaybooks: '/public/strategies',
      getAccount: '/accounts/me',
      listPlaybooks: '/strategies',
      listPlaybooksLegacy: '/legacy/strategies',
      getPlaybook: '/strategies/{name}',
      batchGetPlaybooks: '/strategies:batchGet',
      createPlaybook: '/strategies',
      updatePlaybook: '/strategies/{name}',
      runBacktest: '/strategies/{name}:backtest',
      listBacktests: '/strategies/{name}/backtests',
      getBacktest: '/backtests/{backtest}',
      activatePlaybook: '/strategies/{name}:goLive',
      pausePlaybook: '/strategies/{name}:halt',
      createCheckoutSession: '/billing:checkout',
      createBrokerageLink: '/brokerage:link',
      listCatalysts: '/catalysts',
      getPlaybookPerformance: '/strategies/{name}/performance',
      listEvents: '/events',
      streamEvents: '/events:stream',
      graphql: '/graphql',
    },
  },
};

/**
 * The path the sandbox's router matches for a custom-method path: each segment's last `:verb`
 * becomes a segment of its own, `~verb` (Hono reads `:` as a parameter). Applied alike to the
 * dialect's templates and to request paths; an encoded `%3A` stays part of the name.
 */
export function routingPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      const colon = segment.lastIndexOf(':');
      return colon < 0 ? segment : `${segment.slice(0, colon)}/~${segment.slice(colon + 1)}`;
    })
    .join('/');
}

/** A per-playbook path with its parameter filled in, e.g. for Location headers. */
export function playbookPath(spec: DialectSpec, id: OperationId, playbookId: string): string {
  return spec.paths[id].replace(`{${spec.playbookParam}}`, encodeURIComponent(playbookId));
}
