/** Every operation of the contract: its method and path in dialect `a`, auth, kind, summary and tag. */
import type { OperationId } from './dialect';

export interface OperationSpec {
  operationId: OperationId;
  method: 'get' | 'post' | 'patch';
  /** OpenAPI path template of dialect `a` relative to the API base, e.g. `/playbooks/{id}`. */
  path: string;
  auth: boolean;
  write: boolean;
  summary: string;
  tag: string;
}

export const OPERATIONS: OperationSpec[] = [
  {
    operationId: 'getStatus',
    method: 'get',
    path: '/status',
    auth: false,
    write: false,
    summary: 'Service status',
    tag: 'Status',
  },
  {
    operationId: 'listPublicPlaybooks',
    method: 'get',
    path: '/public/playbooks',
    auth: false,
    write: false,
    summary: 'List public playbooks',
    tag: 'Explore',
  },
  {
    operationId: 'getAccount',
    method: 'get',
    path: '/account',
    auth: true,
    write: false,
    summary: 'The signed-in account',
    tag: 'Account',
  },
  {
    operationId: 'listPlaybooks',
    method: 'get',
    path: '/playbooks',
    auth: true,
    write: false,
    summary: "List the user's playbooks",
    tag: 'Playbooks',
  },
  {
    operationId: 'listPlaybooksLegacy',
    method: 'get',
    path: '/legacy/playbooks',
    auth: true,
    write: false,
    summary: "List the user's playbooks (deprecated)",
    tag: 'Playbooks',
  },
  {
    operationId: 'getPlaybook',
    method: 'get',
    path: '/playbooks/{id}',
    auth: true,
    write: false,
    summary: 'Get one playbook',
    tag: 'Playbooks',
  },
  {
    operationId: 'batchGetPlaybooks',
    method: 'post',
    path: '/playbooks/batch-get',
    auth: true,
    write: false,
    summary: 'Get up to 50 playbooks in request order',
    tag: 'Playbooks',
  },
  {
    operationId: 'createPlaybook',
    method: 'post',
    path: '/playbooks',
    auth: true,
    write: true,
    summary: 'Create a draft playbook',
    tag: 'Playbooks',
  },
  {
    operationId: 'updatePlaybook',
    method: 'patch',
    path: '/playbooks/{id}',
    auth: true,
    write: true,
    summary: 'Update a playbook (If-Match required)',
    tag: 'Playbooks',
  },
  {
    operationId: 'runBacktest',
    method: 'post',
    path: '/playbooks/{id}/backtests',
    auth: true,
    write: true,
    summary: 'Queue a backtest',
    tag: 'Backtests',
  },
  {
    operationId: 'listBacktests',
    method: 'get',
    path: '/playbooks/{id}/backtests',
    auth: true,
    write: false,
    summary: "List one playbook's backtests, newest first",
    tag: 'Backtests',
  },
  {
    operationId: 'getBacktest',
    method: 'get',
    path: '/backtests/{id}',
    auth: true,
    write: false,
    summary: 'Get one backtest with its equity series',
    tag: 'Backtests',
  },
  {
    operationId: 'activatePlaybook',
    method: 'post',
    path: '/playbooks/{id}/activate',
    auth: true,
    write: true,
    summary: 'Start live automation',
    tag: 'Execution',
  },
  {
    operationId: 'pausePlaybook',
    method: 'post',
    path: '/playbooks/{id}/pause',
    auth: true,
    write: true,
    summary: 'Stop live automation',
    tag: 'Execution',
  },
  {
    operationId: 'createCheckoutSession',
    method: 'post',
    path: '/billing/checkout-sessions',
    auth: true,
    write: true,
    summary: 'Start a plan checkout',
    tag: 'Billing',
  },
  {
    operationId: 'createBrokerageLink',
    method: 'post',
    path: '/brokerage/links',
    auth: true,
    write: true,
    summary: 'Start linking a brokerage',
    tag: 'Account',
  },
  {
    operationId: 'listCatalysts',
    method: 'get',
    path: '/catalysts',
    auth: true,
    write: false,
    summary: "Dated events that matter to a playbook's tickers, ascending by date",
    tag: 'Catalysts',
  },
  {
    operationId: 'getPlaybookPerformance',
    method: 'get',
    path: '/playbooks/{id}/performance',
    auth: true,
    write: false,
    summary: 'How the idea has done since it was captured',
    tag: 'Catalysts',
  },
  {
    operationId: 'listEvents',
    method: 'get',
    path: '/events',
    auth: true,
    write: false,
    summary: 'Poll change events after a cursor',
    tag: 'Events',
  },
  {
    operationId: 'streamEvents',
    method: 'get',
    path: '/events/stream',
    auth: true,
    write: false,
    summary: 'Stream change events (SSE)',
    tag: 'Events',
  },
  {
    operationId: 'graphql',
    method: 'post',
    path: '/graphql',
    auth: true,
    write: false,
    summary: 'GraphQL queries (read-only)',
    tag: 'GraphQL',
  },
];

export function operation(id: OperationId): OperationSpec {
  return OPERATIONS.find((op) => op.operationId === id)!;
}
