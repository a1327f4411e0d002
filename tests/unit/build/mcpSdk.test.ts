import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSpecType, specTypeSchemas } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clientWithoutSpecTypeRegistry,
  pureZodSchemas,
  slimMcpSdk,
  specTypeRegistryOnDemand,
} from '../../../build/mcpSdk';

const ROOT = join(__dirname, '../../..');
const SDK = join(ROOT, 'node_modules/@modelcontextprotocol');
/** Under node_modules, so the rewritten modules import `zod/v4` and the SDK as the originals do. */
const SCRATCH = join(ROOT, 'node_modules/.cache');
mkdirSync(SCRATCH, { recursive: true });
const scratch = mkdtempSync(join(SCRATCH, 'mcp-sdk-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The one dist file of a package whose name starts so (the hash changes with each release). */
function distFile(pkg: 'client' | 'core', prefix: string): string {
  const name = readdirSync(join(SDK, pkg, 'dist')).find(
    (file) => file.startsWith(prefix) && file.endsWith('.mjs'),
  );
  if (!name) throw new Error(`no ${prefix}*.mjs in @modelcontextprotocol/${pkg}`);
  return join(SDK, pkg, 'dist', name);
}

async function importSource(name: string, source: string): Promise<Record<string, unknown>> {
  const file = join(scratch, name);
  writeFileSync(file, source);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** What a schema accepts, comparable across two builds of it. */
function described(schema: unknown): unknown {
  return z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'input', cycles: 'ref' });
}

describe('pureZodSchemas on the SDK dist files the worker bundles', () => {
  it.each([
    ['core', 'schemas-'],
    ['core', 'auth-'],
  ] as const)(
    'marks every top-level schema of @modelcontextprotocol/%s %s*.mjs, which builds the same schemas',
    async (pkg, prefix) => {
      const file = distFile(pkg, prefix);
      const source = readFileSync(file, 'utf8');
      const { code, schemas } = pureZodSchemas(source);
      // `const A = B;` aliases need no mark: reading a binding is already pure to the bundler.
      const topLevelSchemas = source.match(/^(?:export )?const \w+Schema = (?!\w+;$)/gm) ?? [];
      expect(schemas.length).toBeGreaterThan(10);
      expect(schemas.length).toBe(topLevelSchemas.length);
      expect(code.match(/\/\* @__PURE__ \*\/ \(\(\) => /g)).toHaveLength(schemas.length);

      const original = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const marked = await importSource(`${prefix}marked.mjs`, code);
      expect(Object.keys(marked).sort()).toEqual(Object.keys(original).sort());
      for (const [name, value] of Object.entries(original)) {
        if (!(value instanceof z.ZodType)) expect(marked[name], name).toEqual(value);
        else expect(described(marked[name]), name).toEqual(described(value));
      }
    },
  );

  it('finds no module-level zod schema in the client chunks (theirs are built inside functions)', () => {
    for (const prefix of ['src-', 'public-', 'index'])
      expect(pureZodSchemas(readFileSync(distFile('client', prefix), 'utf8')).schemas).toEqual([]);
  });
});

describe('pureZodSchemas marks nothing but zod schema definitions', () => {
  const marks = (body: string, head = 'import * as z from "zod/v4";\n') =>
    pureZodSchemas(head + body).schemas;

  it('marks chains of zod calls, schemas built on schemas defined above, and inert arguments', () => {
    expect(
      marks(`const KEY = "k";
const A = z.string().min(1).optional();
const B = z.object({ a: A, [KEY]: z.iso.datetime({ offset: true }), n: z.coerce.number(), f: (v) => v, xs: [1, -1, \`t\`] });
const C = B.extend({ ...A.shape, c: z.lazy(() => C) }).meta({ id: "c" });
export const D = z.union([A, C]).refine((v) => Boolean(v), { message: "m" });`),
    ).toEqual(['A', 'B', 'C', 'D']);
    expect(marks('const Y = zod.string();', 'import * as zod from "zod";\n')).toEqual(['Y']);
  });

  it.each([
    ['z.config', 'const A = z.config({ jitless: true });'],
    ['a call that is not on z', 'const A = makeSchema(z.string());'],
    ['a side effect in an argument', 'const A = z.object({ a: track(z.string()) });'],
    ['a side effect in a computed key', 'const A = z.object({ [next()]: z.string() });'],
    ['a method on something that is not a schema defined above', 'const A = Other.optional();'],
    ['validation at module level', 'const S = z.string();\nconst A = S.parse("x");'],
    ['a spread of anything but a schema shape', 'const A = z.object({ ...defaults });'],
    ['a let, which may be reassigned', 'let A = z.string();'],
    ['an assignment inside an argument', 'const A = z.string().default(x = 1);'],
  ])('leaves %s alone', (_, body) => {
    expect(marks(body)).not.toContain('A');
  });

  it('leaves a module without a zod namespace import (zod itself, our code) as it is', () => {
    const code = 'import { z } from "zod";\nconst A = z.string();';
    expect(pureZodSchemas(code)).toEqual({ code, schemas: [] });
  });

  it('is applied to the MCP SDK dist files only, never to our code or to zod', () => {
    const plugin = slimMcpSdk();
    const transform = plugin.transform as (code: string, id: string) => unknown;
    const schema = 'import * as z from "zod/v4";\nconst A = z.string();\nexport { A };';
    for (const id of [
      join(ROOT, 'lib/api/serviceSchema.ts'),
      join(ROOT, 'node_modules/zod/v4/classic/schemas.js'),
    ])
      expect(transform.call({}, schema, id)).toBeNull();
    expect(transform.call({}, schema, join(SDK, 'core/dist/schemas-x.mjs'))).toMatchObject({
      code: expect.stringContaining('@__PURE__') as unknown,
    });
  });
});

describe("the SDK's spec-type registry, built only where it is read", () => {
  it('is the same registry: every type, and guards that answer as the original ones do', async () => {
    const file = distFile('client', 'src-');
    const rewritten = specTypeRegistryOnDemand(readFileSync(file, 'utf8')).replace(
      /from "\.\/([\w-]+\.mjs)"/g,
      (_, chunk: string) => `from ${JSON.stringify(pathToFileURL(join(SDK, 'client/dist', chunk)).href)}`,
    );
    const exported = (name: string) => new RegExp(`\\b${name} as (\\w+)\\b`).exec(rewritten)![1];
    const module = await importSource('src-on-demand.mjs', rewritten);
    const guards = module[exported('isSpecType')] as typeof isSpecType;
    const schemas = module[exported('specTypeSchemas')] as typeof specTypeSchemas;
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(specTypeSchemas).sort());
    expect(Object.keys(guards).sort()).toEqual(Object.keys(isSpecType).sort());
    expect(Object.isFrozen(guards) && Object.isFrozen(schemas)).toBe(true);
    for (const value of [{ name: 'n', version: '1' }, { name: 'n' }, null, 'x'])
      expect(guards.Implementation(value)).toBe(isSpecType.Implementation(value));
    expect(guards.Tool({ name: 't', inputSchema: { type: 'object' } })).toBe(true);
  });

  it('fails the build when the SDK registers spec types some other way', () => {
    const source = readFileSync(distFile('client', 'src-'), 'utf8');
    expect(() =>
      specTypeRegistryOnDemand(source.replace('register(key, schema);', 'register(key, schema, 1);')),
    ).toThrow(/no longer registers spec types/);
  });

  it('gives the Client its one guard from ImplementationSchema, and fails the build if it reads another', () => {
    const source = readFileSync(distFile('client', 'public-'), 'utf8');
    const slimmed = clientWithoutSpecTypeRegistry(source);
    expect(slimmed).toContain('ImplementationSpecTypeSchema.safeParse(fromMeta).success');
    expect(slimmed).not.toMatch(/\bisSpecType\./);
    expect(() => clientWithoutSpecTypeRegistry(`${source}\nisSpecType.Tool(x);`)).toThrow(/no longer reads/);
  });
});
