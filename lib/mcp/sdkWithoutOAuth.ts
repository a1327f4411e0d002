/**
 * What the MCP SDK's Streamable HTTP transport gets in place of its OAuth client (swapped in by
 * build/mcpSdk.ts): connectMcp never passes an `authProvider` (the endpoint is public
 * and requests carry no credentials), so the OAuth flow is dead code in the worker. Each stand-in
 * keeps the no-provider answer and throws on anything else, so nothing can run half of a flow.
 */
export class McpOAuthUnavailableError extends Error {
  override name = 'McpOAuthUnavailableError';
  constructor(what: string) {
    super(`${what}: the extension's MCP client has no OAuth (it sends no credentials).`);
  }
}

/** The transport asks this of `opts.authProvider`; without one the SDK's answer is also false. */
export function isOAuthClientProvider(provider: unknown): false {
  if (provider == null) return false;
  throw new McpOAuthUnavailableError('authProvider');
}

export function adaptOAuthProvider(): never {
  throw new McpOAuthUnavailableError('adaptOAuthProvider');
}

export function auth(): Promise<never> {
  return Promise.reject(new McpOAuthUnavailableError('auth'));
}

export function resolveAuthorizationCallbackParams(): Promise<never> {
  return Promise.reject(new McpOAuthUnavailableError('finishAuth'));
}
