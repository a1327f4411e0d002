import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_FLAGS } from '../../sandbox/faults';
import { startTestSandbox, walkRest } from './helpers';

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the CLI and resolves with its first four stdout lines. */
function startCli(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; lines: string[] }> {
  const child = spawn(TSX, ['sandbox/main.ts', ...args], { cwd: ROOT });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      if (lines.length > 4) resolve({ child, lines: lines.slice(0, 4) });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('CLI', () => {
  it('--help documents every flag, every fault and the admin routes', () => {
    const result = spawnSync(TSX, ['sandbox/main.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const flag of [
      '--port',
      '--db',
      '--demo-key',
      '--seed',
      '--rate-quota',
      '--rate-window',
      '--dialect',
      ...FAULT_FLAGS.map((f) => f.flag),
    ])
      expect(result.stdout).toContain(flag);
    for (const route of [
      '/__admin/faults',
      '/__admin/requests',
      '/__admin/status',
      '/__admin/keys/revoke',
      '/__admin/events',
    ])
      expect(result.stdout).toContain(route);
  });

  it('--dialect b and list-valued fault flags reach the served document', async () => {
    const { child, lines } = await startCli([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--dialect',
      'b',
      '--fault-openapi-tamper',
      'pause-replaced-by-activate,writes-as-get',
      '--fault-servers-url',
      'http://api.remote.example/api',
    ]);
    try {
      const baseUrl = lines[2].slice('listening on '.length);
      const doc = await (await fetch(`${baseUrl}/openapi.json`)).json();
      expect(doc.servers[0].url).toBe('http://api.remote.example/api');
      const pause = doc.paths['/v2/books/{bookId}/live/stop'].get;
      expect(pause.operationId).toBe('pausePlaybook');
      expect(pause['x-replaced-by']).toBe('activatePlaybook');
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('rejects an unknown dialect', () => {
    const result = spawnSync(TSX, ['sandbox/main.ts', '--dialect', 'z'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--dialect');
  });

  it('prints the key, token and URL first; a restart on the same file keeps data and the key; SIGTERM stops it', async () => {
    const db = join(dir, 'nested', 'sandbox.db');
    const args = [
      '--port',
      '0',
      '--db',
      db,
      '--demo-key',
      'iak_cli_demo_key_123456',
      '--seed',
      '12',
      '--fault-latency-ms',
      '1',
    ];
    const first = await startCli(args);
    expect(first.lines[0]).toBe('demo API key: iak_cli_demo_key_123456');
    expect(first.lines[1]).toMatch(/^admin token: \S{20,}$/);
    expect(first.lines[2]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.lines[3]).toMatch(/^demo sign-in: \S[^\s@]*@\S+ \/ \S+$/);
    const baseUrl = first.lines[2].slice('listening on '.length);
    const headers = {
      Authorization: 'Bearer iak_cli_demo_key_123456',
      'Content-Type': 'application/json',
      'Idempotency-Key': crypto.randomUUID(),
    };
    const created = await fetch(`${baseUrl}/api/v1/playbooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Kept', thesis: 'Survives a restart', visibility: 'private' }),
    });
    expect(created.status).toBe(201);
    const token = first.lines[1].slice('admin token: '.length);
    expect(
      (
        await fetch(`${baseUrl}/__admin/faults`, { headers: { Authorization: `Bearer ${token}` } }).then(
          (r) => r.json(),
        )
      ).latencyMs,
    ).toBe(1);
    expect(await stop(first.child)).toBe(0);

    const second = await startCli(['--port', '0', '--db', db, '--demo-key', 'iak_cli_demo_key_123456']);
    const url2 = second.lines[2].slice('listening on '.length);
    const list = await (
      await fetch(`${url2}/api/v1/playbooks?limit=100`, {
        headers: { Authorization: 'Bearer iak_cli_demo_key_123456' },
      })
    ).json();
    expect(list.data).toHaveLength(13);
    expect(list.data[0].title).toBe('Kept');
    expect(await stop(second.child)).toBe(0);
  });

  it('rejects an unknown flag', () => {
    const result = spawnSync(TSX, ['sandbox/main.ts', '--no-such-flag'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).not.toBe(0);
  });
});

describe('scale', () => {
  // How fast is `npm run bench`'s business (paging 10,000 playbooks against a raw fetch loop).
  it('seeds 10,000 playbooks and pages through all of them', async () => {
    const sb = await startTestSandbox({ seed: 10_000 });
    try {
      const ids = await walkRest(sb, '/playbooks', 100);
      expect(ids).toHaveLength(10_000);
      expect(new Set(ids).size).toBe(10_000);
      const titles = new Set(ids.slice(0, 200).map((id) => sb.db.getPlaybook(id)!.title));
      expect(titles.size).toBeGreaterThan(100);
    } finally {
      await sb.close();
    }
  });
});
