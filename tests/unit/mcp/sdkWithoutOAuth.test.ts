import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkWithoutOAuth, OAUTH_ENTRY_POINTS } from '../../../build/mcpSdk';
import {
  adaptOAuthProvider,
  auth,
  isOAuthClientProvider,
  McpOAuthUnavailableError,
  resolveAuthorizationCallbackParams,
} from '@/lib/mcp/sdkWithoutOAuth';

describe('the OAuth stand-ins the worker build gives the MCP SDK', () => {
  it('answer "no provider" as the SDK does, and refuse any provider', () => {
    expect(isOAuthClientProvider(undefined)).toBe(false);
    expect(isOAuthClientProvider(null)).toBe(false);
    expect(() =>
      isOAuthClientProvider({ tokens: () => undefined, clientInformation: () => undefined }),
    ).toThrow(McpOAuthUnavailableError);
    expect(() => adaptOAuthProvider()).toThrow(McpOAuthUnavailableError);
  });

  it('fail an OAuth flow instead of running any of it', async () => {
    await expect(auth()).rejects.toThrow(McpOAuthUnavailableError);
    await expect(resolveAuthorizationCallbackParams()).rejects.toThrow(McpOAuthUnavailableError);
  });
});

describe('chunkWithoutOAuth, on the installed SDK', () => {
  const index = join(
    dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/client')),
    'index.mjs',
  );
  const source = readFileSync(index, 'utf8');
  const chunk = /from "(\.\/public-[\w-]+\.mjs)"/.exec(source)?.[1] ?? '';

  it('re-exports every binding index.mjs takes from the chunk, the four OAuth ones from the stand-ins', () => {
    const imported = /import \{([^}]*)\} from "\.\/public-/.exec(source)?.[1].split(',') ?? [];
    const module = chunkWithoutOAuth(source, chunk, '/sdk/chunk.mjs');
    const lines = module.split('\n');
    expect(lines).toHaveLength(imported.length);
    const fromStandIns = lines.filter((line) => line.includes('sdkWithoutOAuth'));
    expect(fromStandIns).toHaveLength(OAUTH_ENTRY_POINTS.length);
    for (const name of OAUTH_ENTRY_POINTS)
      expect(fromStandIns.some((line) => line.startsWith(`export { ${name} as `))).toBe(true);
    expect(lines.filter((line) => line.endsWith('from "/sdk/chunk.mjs";'))).toHaveLength(
      imported.length - OAUTH_ENTRY_POINTS.length,
    );
  });

  it('fails when the SDK no longer imports one of the four from that chunk', () => {
    const renamed = source.replace(/\bas auth\b/, 'as authorize');
    expect(() => chunkWithoutOAuth(renamed, chunk, '/sdk/chunk.mjs')).toThrow(/auth/);
    expect(() => chunkWithoutOAuth(source, './public-gone.mjs', '/sdk/chunk.mjs')).toThrow(/public-gone/);
  });
});
