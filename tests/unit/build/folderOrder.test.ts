/**
 * The lint rule that fixes the order of lib's folders (build/eslint-layers.js), run with the order
 * eslint.config.js gives it: a back edge, written any way an import can be written, fails.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { bottomFirst, findLoop, folderGraph } from '../../../build/folderGraph';
// @ts-expect-error: a plain JS ESLint plugin, typed by its JSDoc only.
import plugin from '../../../build/eslint-layers.js';
// @ts-expect-error: the plain JS config, typed by its JSDoc only.
import config, { LIB_LAYERS } from '../../../eslint.config.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, '../../..');
const file = (relative: string) => path.join(root, relative);
const rule = (plugin as { rules: Record<string, Parameters<RuleTester['run']>[1]> }).rules['folder-order'];
const options = [{ layers: LIB_LAYERS, root }];

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, sourceType: 'module' } });

const withOrder = <T extends object>(cases: T[]) => cases.map((test) => ({ ...test, options }));

tester.run('layers/folder-order', rule, {
  valid: withOrder([
    // Down the order, by alias and by relative path, types and values.
    {
      filename: file('lib/store/outbox.ts'),
      code: "import type { OutboxEntry } from '@/lib/contract/outbox';",
    },
    {
      filename: file('lib/store/snapshot.ts'),
      code: "import type { PopupSnapshot } from '../contract/wire';",
    },
    { filename: file('lib/api/service.ts'), code: "import { loadApiKey } from '@/lib/store/apiKey';" },
    { filename: file('lib/store/apiKey.ts'), code: "import { sha256Hex } from '@/lib/digest';" },
    {
      filename: file('lib/background/index.ts'),
      code: "import { openFirstRunSetup } from '@/lib/pages/navigation';",
    },
    // Its own folder, a library, and anything outside lib/.
    { filename: file('lib/store/outbox.ts'), code: "import { database } from './db';" },
    { filename: file('lib/api/writes.ts'), code: "import { t } from '../api/errors';" },
    { filename: file('lib/contract/wire.ts'), code: "import { z } from 'zod';" },
    { filename: file('lib/pages/popup/start.tsx'), code: "import { Spinner } from '@/components/Spinner';" },
    // A component imports what is below it; entrypoints and tests are not the rule's business.
    { filename: file('components/Chart.tsx'), code: "import { t } from '@/lib/i18n';" },
    {
      filename: file('entrypoints/popup/main.tsx'),
      code: "import { startBackground } from '@/lib/background';",
    },
    { filename: file('lib/events/index.ts'), code: "export { log } from '@/lib/log';" },
  ]),
  invalid: withOrder([
    // The back edges this order removed, each as it was written.
    {
      filename: file('lib/store/outbox.ts'),
      code: "import type { ConfirmedIntent, WriteOperation } from '@/lib/api/writeOperations';",
      errors: [{ messageId: 'upward', data: { from: 'store', to: 'api' } }],
    },
    {
      filename: file('lib/store/outbox.ts'),
      code: "import type { ShownWrite } from '../writes/token';",
      errors: [{ messageId: 'upward', data: { from: 'store', to: 'writes' } }],
    },
    {
      filename: file('lib/store/snapshot.ts'),
      code: "export type { PopupDraft, PopupSnapshot } from '@/lib/messaging/protocol';",
      errors: [{ messageId: 'upward', data: { from: 'store', to: 'messaging' } }],
    },
    {
      filename: file('lib/writes/owner.ts'),
      code: "import { openConfirmWindow } from '@/lib/pages/navigation';",
      errors: [{ messageId: 'upward', data: { from: 'writes', to: 'pages' } }],
    },
    {
      filename: file('lib/i18n/problems.ts'),
      code: "import type { SiteProblem } from '@/lib/finance/sites';",
      errors: [{ messageId: 'upward', data: { from: 'i18n', to: 'finance' } }],
    },
    {
      filename: file('lib/backtests/reads.ts'),
      code: "import { HandledError } from '~/lib/messaging';",
      errors: [{ messageId: 'upward', data: { from: 'backtests', to: 'messaging' } }],
    },
    // Every form of import is checked.
    {
      filename: file('lib/contract/wire.ts'),
      code: "export * from '../store/outbox';",
      errors: [{ messageId: 'upward', data: { from: 'contract', to: 'store' } }],
    },
    {
      filename: file('lib/api/readCache.ts'),
      code: "const lazy = () => import('@/lib/writes/owner');",
      errors: [{ messageId: 'upward', data: { from: 'api', to: 'writes' } }],
    },
    {
      filename: file('lib/log/index.ts'),
      code: "type Kinds = typeof import('../api/errors').API_ERROR_KINDS;",
      errors: [{ messageId: 'upward', data: { from: 'log', to: 'api' } }],
    },
    // The four the layering must never allow again.
    {
      filename: file('lib/store/apiKey.ts'),
      code: "import { isApiError } from '@/lib/api';",
      errors: [{ messageId: 'upward', data: { from: 'store', to: 'api' } }],
    },
    {
      filename: file('lib/discovery/run.ts'),
      code: "import { announce } from '@/lib/writes/transitions';",
      errors: [{ messageId: 'upward', data: { from: 'discovery', to: 'writes' } }],
    },
    {
      filename: file('lib/log/index.ts'),
      code: "import type { WireError } from '@/lib/messaging';",
      errors: [{ messageId: 'upward', data: { from: 'log', to: 'messaging' } }],
    },
    {
      filename: file('components/ErrorMessage.tsx'),
      code: "import { meaningOf } from '@/lib/writes/errors';",
      errors: [{ messageId: 'upward', data: { from: 'components', to: 'writes' } }],
    },
    {
      filename: file('components/Chart.tsx'),
      code: "import { t } from '../lib/background/index';",
      errors: [{ messageId: 'upward', data: { from: 'components', to: 'background' } }],
    },
    {
      filename: file('lib/messaging/client.ts'),
      code: "import { Spinner } from '@/components/Spinner';",
      errors: [{ messageId: 'upward', data: { from: 'messaging', to: 'components' } }],
    },
    // A root file of lib/ is a folder; side by side is no better than upward.
    {
      filename: file('lib/digest.ts'),
      code: "import { boundedText } from './http';",
      errors: [{ messageId: 'sideways', data: { from: 'digest', to: 'http' } }],
    },
    {
      filename: file('lib/mcp/client.ts'),
      code: "import { backtestNotificationLine } from '@/lib/backtests/reads';",
      errors: [{ messageId: 'sideways', data: { from: 'mcp', to: 'backtests' } }],
    },
    // A folder the order does not name must be placed first.
    {
      filename: file('lib/newthing/index.ts'),
      code: "import { log } from '@/lib/log';",
      errors: [{ messageId: 'unplaced', data: { folder: 'newthing' } }],
    },
    {
      filename: file('lib/store/db.ts'),
      code: "import { x } from '@/lib/newthing/x';",
      errors: [{ messageId: 'unplaced', data: { folder: 'newthing' } }],
    },
  ]),
});

describe('eslint.config.js', () => {
  it('runs the rule on every lib file with LIB_LAYERS, and LIB_LAYERS names each folder once', () => {
    const entries = (config as { files?: string[]; rules?: Record<string, unknown> }[]).filter(
      (entry) => entry.rules?.['layers/folder-order'] !== undefined,
    );
    expect(entries.map((entry) => [entry.files, entry.rules?.['layers/folder-order']])).toEqual([
      [
        ['lib/**', 'components/**'],
        ['error', { layers: LIB_LAYERS }],
      ],
    ]);
    const folders = (LIB_LAYERS as (string | string[])[]).flat();
    expect(new Set(folders).size).toBe(folders.length);
    const onDisk = [
      ...readdirSync(path.join(root, 'lib')).map((name) => name.replace(/\.tsx?$/, '')),
      'components',
    ];
    expect([...onDisk].sort()).toEqual([...folders].sort());
  });
});

describe('the folder graph of lib/ and components/ (build/folderGraph.ts)', () => {
  it('has no loop, type-only imports counted', () => {
    const graph = folderGraph(root);
    expect(findLoop(graph)).toBeUndefined();
    // The order the code has agrees with the one the rule is given.
    const rank = new Map(
      (LIB_LAYERS as (string | string[])[]).flatMap((layer, i) => [layer].flat().map((f) => [f, i])),
    );
    for (const [from, targets] of graph)
      for (const to of targets) expect(rank.get(to)!, `${from} → ${to}`).toBeLessThan(rank.get(from)!);
  });

  it('finds a loop when there is one', () => {
    const graph = folderGraph(root);
    graph.get('store')!.add('writes');
    expect(findLoop(graph)).toEqual(expect.arrayContaining(['store', 'writes']));
    expect(bottomFirst(graph)).toBeUndefined();
  });
});
