import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/**
 * zod's classic schemas carry their own JSON Schema conversion (`.toJSONSchema()`,
 * `~standard.jsonSchema`, ≈6 KB gzip in the worker), wired in as each schema is built, so no
 * bundler can drop it. The extension never converts a schema to JSON Schema (only the sandbox
 * does, outside this build; tests/unit/build/zodWithoutJsonSchema.test.ts keeps it so), and
 * the MCP SDK converts only in its server-side elicitation helpers. This swaps the two modules
 * for stand-ins that throw when called, keeping `aggregateChecks` (the `.minLength`-style
 * getters) as zod wrote it.
 * COMPAT(zod-4): the stand-ins mirror the modules' exports at build time; a conversion module
 * zod adds under another name would simply stay in.
 */
const CONVERSION = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;
const ORIGINAL = '?zod-original';
/** Not conversion: read by zod's classic schema getters. */
const KEPT = new Set(['aggregateChecks']);
/** Called as a schema is built or read (`~standard`): they return the function that throws. */
const FACTORY = /^create\w+Method$/;

const UNAVAILABLE = `const unavailable = () => {
  throw new Error("zod's JSON Schema conversion is left out of the extension (build/zodWithoutJsonSchema.ts)");
};`;

/** The stand-in module for one of zod's conversion modules, from its actual exports. */
export function conversionStandIn(id: string, exports: Record<string, unknown>): string {
  const lines = [UNAVAILABLE];
  for (const [name, value] of Object.entries(exports)) {
    if (KEPT.has(name)) lines.push(`export { ${name} } from ${JSON.stringify(id + ORIGINAL)};`);
    else if (typeof value !== 'function') lines.push(`export const ${name} = Object.freeze({});`);
    else if (FACTORY.test(name)) lines.push(`export const ${name} = () => unavailable;`);
    else lines.push(`export const ${name} = unavailable;`);
  }
  return lines.join('\n');
}

export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'playbook-companion:zod-without-json-schema',
    // Size only: the dev server serves the libraries whole.
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      if (id.endsWith(ORIGINAL)) return readFileSync(id.slice(0, -ORIGINAL.length), 'utf8');
      if (!CONVERSION.test(id)) return null;
      const exports = (await import(pathToFileURL(id).href)) as Record<string, unknown>;
      return conversionStandIn(id, exports);
    },
  };
}
