import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Two swaps in the MCP SDK as the extension bundles it, both for size; tests/unit/mcp/workerBuild.test.ts
 * runs the client built this way.
 *
 * 1. `@modelcontextprotocol/client/_shims` is lib/mcp/sdkShims.ts: the SDK's browser shim makes
 * its own bundled copy of @cfworker/json-schema the Client's default validator (≈6 KB gzip), kept
 * although connectMcp always passes the bounded one.
 *
 * 2. The MCP SDK's Streamable HTTP transport (in @modelcontextprotocol/client's index.mjs) reaches the
 * whole OAuth client (discovery, PKCE, token exchange: ≈5 KB gzip) through four imports from the
 * SDK's `public-*.mjs` chunk, though it runs them only for an `authProvider`, which connectMcp
 * never passes. This gives index.mjs that chunk with those four swapped for the stand-ins in
 * lib/mcp/sdkWithoutOAuth.ts, so the bundler drops the rest; every other import is the SDK's own.
 * COMPAT(@modelcontextprotocol/client-2): if index.mjs stops importing the four from one
 * `public-*.mjs` chunk, the build fails here, on purpose.
 */
export const OAUTH_ENTRY_POINTS = [
  'isOAuthClientProvider',
  'adaptOAuthProvider',
  'auth',
  'resolveAuthorizationCallbackParams',
] as const;

const SHIMS = '@modelcontextprotocol/client/_shims';
const OUR_SHIMS = join(import.meta.dirname, '../lib/mcp/sdkShims.ts');
const SDK_INDEX = /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/]index\.mjs$/;
const PUBLIC_CHUNK = /^\.\/public-[\w-]+\.mjs$/;
const VIRTUAL = '\0playbook-companion:mcp-public-without-oauth';
const STAND_INS = join(import.meta.dirname, '../lib/mcp/sdkWithoutOAuth.ts');

/** The module index.mjs gets for `from "<chunk>"`: the chunk's exports, the four from STAND_INS. */
export function chunkWithoutOAuth(indexSource: string, chunk: string, chunkPath: string): string {
  const escaped = chunk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const statement = new RegExp(`import \\{([^}]*)\\} from "${escaped}";`).exec(indexSource);
  if (!statement) throw new Error(`index.mjs no longer imports { … } from "${chunk}"`);
  const bindings = statement[1].split(',').map((binding) => {
    const [exported, local = exported] = binding.trim().split(' as ');
    return { exported, local };
  });
  const missing = OAUTH_ENTRY_POINTS.filter((name) => !bindings.some((b) => b.local === name));
  if (missing.length > 0)
    throw new Error(`index.mjs no longer imports ${missing.join(', ')} from "${chunk}"`);
  return bindings
    .map(({ exported, local }) =>
      (OAUTH_ENTRY_POINTS as readonly string[]).includes(local)
        ? `export { ${local} as ${exported} } from ${JSON.stringify(STAND_INS)};`
        : `export { ${exported} } from ${JSON.stringify(chunkPath)};`,
    )
    .join('\n');
}

export function slimMcpSdk(): Plugin {
  const chunks = new Map<string, { index: string; chunk: string }>();
  return {
    name: 'playbook-companion:slim-mcp-sdk',
    // Size only: the dev server serves the libraries whole.
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === SHIMS) return OUR_SHIMS;
      if (!importer || !SDK_INDEX.test(importer) || !PUBLIC_CHUNK.test(source)) return null;
      const id = `${VIRTUAL}:${source}`;
      chunks.set(id, { index: importer, chunk: source });
      return id;
    },
    load(id) {
      const found = chunks.get(id);
      if (!found) return null;
      try {
        return chunkWithoutOAuth(
          readFileSync(found.index, 'utf8'),
          found.chunk,
          join(dirname(found.index), found.chunk),
        );
      } catch (error) {
        this.error(`${(error as Error).message}: update build/mcpSdk.ts`);
      }
    },
  };
}
