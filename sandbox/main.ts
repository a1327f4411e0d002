/** The sandbox CLI: `tsx sandbox/main.ts [flags]`. Prints the demo key, admin token and URL, then serves. */
import { parseArgs } from 'node:util';
import { DIALECTS, isDialect } from './dialect';
import { FAULT_FLAGS, type FaultConfig } from './faults';
import { DEFAULT_DB, DEFAULT_PORT, DEFAULT_SEED, startSandbox } from './server';
import { DEMO_EMAIL, DEMO_PASSWORD } from './store';

const HELP = `Investing Agent sandbox: a local reference implementation of the service contract.

Usage: npm run sandbox -- [flags]        (or: tsx sandbox/main.ts [flags])

  --port <n>               port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 = any free port)
  --db <path|:memory:>     SQLite store (default ${DEFAULT_DB}; the folder is created)
  --demo-key <key>         API key of the demo user (default: a new random key each start)
  --seed <count>           sample playbooks for the demo user in an empty store (default ${DEFAULT_SEED})
  --backtest-delay-ms <n>  time until a queued backtest completes (default 1500)
  --rate-quota <n>         token-bucket quota per API key (default 120)
  --rate-window <s>        token-bucket window in seconds (default 60)
  --dialect <a|b|c>        contract dialect: a = /api/v1/playbooks/{id} (default), b = /api/v2/books/{bookId},
                           c = /api/v3/strategies/{name}:goLive (AIP-136 custom methods)
  --help                   this text

Fault switches (all off by default; counters count API requests under /api/ only):
${FAULT_FLAGS.map((f) => `  ${`${f.flag}${f.kind === 'bool' ? '' : ' <' + (f.kind === 'int' ? 'n' : f.kind === 'list' ? 'a,b' : 'value') + '>'}`.padEnd(38)} ${f.help}`).join('\n')}

Admin routes (loopback only, Authorization: Bearer <admin token>; never counted or faulted):
  GET    /__admin/faults           the current fault configuration
  POST   /__admin/faults           merge a partial FaultConfig (JSON, field names as in sandbox/README.md)
  DELETE /__admin/faults           reset every fault
  GET    /__admin/requests         every recorded request (method, path, query, headers, body)
  DELETE /__admin/requests         forget recorded requests
  POST   /__admin/status           {"status": "degraded"|"outage"|"operational", "components"?: [{name, status}]}
  POST   /__admin/keys/revoke      {"key": "<api key>"}: later calls with it get 401
  POST   /__admin/events           {"playbook_id", "type", "data"?}: emit a synthetic event
  POST   /__admin/catalysts/<id>   {"at"?, "all_day"?, "status"?, "session"?, "title"?}: move, confirm or
                                   cancel a catalyst (sequence grows; catalyst.changed to its trackers)
  POST   /__admin/catalysts        a new catalyst {id, ticker, kind, title, at, all_day, status, session?}

On start it prints "demo API key: …", "admin token: …", "listening on …" and the demo sign-in for /apikey.
`;

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) {
    console.error(`${name} needs a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const faultOptions = Object.fromEntries(
    FAULT_FLAGS.map((f) => [
      f.flag.slice(2),
      { type: f.kind === 'bool' ? ('boolean' as const) : ('string' as const) },
    ]),
  );
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      port: { type: 'string' },
      db: { type: 'string' },
      'demo-key': { type: 'string' },
      seed: { type: 'string' },
      'backtest-delay-ms': { type: 'string' },
      'rate-quota': { type: 'string' },
      'rate-window': { type: 'string' },
      dialect: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...faultOptions,
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const faults: Partial<FaultConfig> = {};
  const record = faults as Record<string, unknown>;
  for (const flag of FAULT_FLAGS) {
    const value = (values as Record<string, string | boolean | undefined>)[flag.flag.slice(2)];
    if (value === undefined) continue;
    if (flag.field === 'legacySunsetPast') record[flag.field] = !value;
    else if (flag.kind === 'bool') record[flag.field] = value;
    else if (flag.kind === 'int') record[flag.field] = integer(flag.flag, String(value), 0);
    else if (flag.kind === 'list') record[flag.field] = String(value).split(',').filter(Boolean);
    else record[flag.field] = String(value);
  }
  const dialect = values.dialect ?? 'a';
  if (!isDialect(dialect)) {
    console.error(`--dialect needs one of ${DIALECTS.join(', ')}, got "${dialect}"`);
    process.exit(2);
  }
  const sandbox = await startSandbox({
    dialect,
    port: integer('--port', values.port, DEFAULT_PORT),
    db: values.db ?? DEFAULT_DB,
    demoKey: values['demo-key'],
    seed: integer('--seed', values.seed, DEFAULT_SEED),
    backtestDelayMs: integer('--backtest-delay-ms', values['backtest-delay-ms'], 1500),
    rateQuota: integer('--rate-quota', values['rate-quota'], 120) || 120,
    rateWindowSeconds: integer('--rate-window', values['rate-window'], 60) || 60,
    faults,
  });
  process.stdout.write(
    `demo API key: ${sandbox.demoKey}\nadmin token: ${sandbox.adminToken}\nlistening on ${sandbox.baseUrl}\ndemo sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}\n`,
  );
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('sandbox failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
