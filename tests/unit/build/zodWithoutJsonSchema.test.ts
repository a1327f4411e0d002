import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversionStandIn } from '../../../build/zodWithoutJsonSchema';

const ROOT = join(__dirname, '../../..');

/** One of zod's conversion modules, by path: the package does not export them. */
async function zodModule(name: string): Promise<Record<string, unknown>> {
  return (await import(join(ROOT, 'node_modules/zod/v4/core', name))) as Record<string, unknown>;
}

/** The stand-in module, run: its exports by name. */
async function standIn(exports: Record<string, unknown>): Promise<Record<string, unknown>> {
  const code = conversionStandIn('/zod/module.js', exports).replace(
    /^export \{ aggregateChecks \} from .*$/m,
    'export const aggregateChecks = "kept";',
  );
  return (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as Record<string, unknown>;
}

describe('the stand-ins for zod JSON Schema conversion (worker and page builds)', () => {
  it('export every name the real modules export, so nothing that imports them breaks', async () => {
    for (const name of ['json-schema-processors.js', 'to-json-schema.js']) {
      const real = await zodModule(name);
      const stand = await standIn(real);
      expect(Object.keys(stand).sort()).toEqual(Object.keys(real).sort());
    }
  });

  it('keep aggregateChecks from zod, hand out throwing methods from the factories, throw on conversion', async () => {
    const stand = await standIn({
      ...(await zodModule('json-schema-processors.js')),
      ...(await zodModule('to-json-schema.js')),
    });
    expect(stand.aggregateChecks).toBe('kept');
    const method = (stand.createStandardJSONSchemaMethod as () => () => unknown)();
    expect(method).toThrow(/left out of the extension/);
    expect(() => (stand.toJSONSchema as () => unknown)()).toThrow(/left out of the extension/);
    expect(() => (stand.stringProcessor as () => unknown)()).toThrow(/left out of the extension/);
  });
});

describe('nothing the extension ships converts a zod schema to JSON Schema', () => {
  const shipped = ['lib', 'entrypoints', 'components'].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  );

  it('finds the sources (the scan itself works)', () => {
    expect(shipped).toContain('lib/mcp/client.ts');
  });

  it.each(shipped)('%s', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(
      /toJSONSchema|JSONSchemaGenerator|['"]~standard['"]\]?\.jsonSchema|json-schema-processors|to-json-schema/,
    );
  });
});
