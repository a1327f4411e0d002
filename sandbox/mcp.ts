/** The public, read-only MCP server (CONTRACT.md section 5), served statelessly per request. */
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { discoveryDocuments } from './content';
import { DISCLAIMER, SERVICE_NAME, SERVICE_VERSION, SUMMARY } from './identity';
import { MCP_TOOLS } from './mcpTools';
import { PLAN_ROWS } from './plans';
import type { SandboxContext } from './context';
import { CATEGORIES } from './seed';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

function describe(name: string): string {
  return MCP_TOOLS.find((t) => t.name === name)!.description;
}

export function createPublicMcp(ctx: SandboxContext): McpHttpHandler {
  const factory = () => {
    const server = new McpServer({
      name: 'investing-agent-public',
      title: `${SERVICE_NAME} (public)`,
      version: SERVICE_VERSION,
    });
    const docs = () =>
      discoveryDocuments({ baseUrl: ctx.baseUrl, apiUrl: ctx.apiUrl, tamperedSkillDigest: false });

    server.registerTool(
      'get_product_overview',
      { description: describe('get_product_overview'), annotations: readOnly },
      () =>
        text(
          `# ${SERVICE_NAME}\n\n${SUMMARY}\n\n## Plans\n\n${PLAN_ROWS.map((p) => `- ${p.name}: ${p.price}/month, ${p.playbooks}, ${p.backtests}, ${p.live}`).join('\n')}\n\n` +
            `## Safety\n\nEvery write is confirmed by the user; new playbooks are private; live automation needs a linked brokerage and a second confirmation.\n\n${DISCLAIMER}`,
        ),
    );
    server.registerTool(
      'list_resources',
      { description: describe('list_resources'), annotations: readOnly },
      () => {
        const list = [...docs().values()].map((d) => ({
          title: d.title,
          url: `${ctx.baseUrl}${d.path}`,
          type: d.contentType,
        }));
        list.push({
          title: 'OpenAPI document',
          url: `${ctx.baseUrl}/openapi.json`,
          type: 'application/json',
        });
        return { ...text(JSON.stringify(list, null, 2)), structuredContent: { resources: list } };
      },
    );
    server.registerTool(
      'list_categories',
      { description: describe('list_categories'), annotations: readOnly },
      () => {
        const list = CATEGORIES.map(({ slug, name }) => ({ slug, name }));
        return { ...text(JSON.stringify(list, null, 2)), structuredContent: { categories: list } };
      },
    );
    server.registerTool(
      'get_category',
      {
        description: describe('get_category'),
        inputSchema: z.object({ slug: z.string().min(1).max(100) }),
        annotations: readOnly,
      },
      ({ slug }) => {
        const category = CATEGORIES.find((c) => c.slug === slug);
        if (!category)
          return {
            ...text(`No category "${slug}". Known: ${CATEGORIES.map((c) => c.slug).join(', ')}.`),
            isError: true,
          };
        const examples = ctx.store
          .listPlaybooks({ visibility: 'public' }, null, 3)
          .rows.map((p) => ({ id: p.id, title: p.title }));
        const result = { ...category, examples };
        return { ...text(JSON.stringify(result, null, 2)), structuredContent: result };
      },
    );
    server.registerTool(
      'search_public_playbooks',
      {
        description: describe('search_public_playbooks'),
        inputSchema: z.object({
          query: z.string().min(1).max(200),
          limit: z.number().int().min(1).max(50).optional(),
        }),
        annotations: readOnly,
      },
      ({ query, limit }) => {
        const results = ctx.store.searchPublicPlaybooks(query, limit ?? 10).map((p) => ({
          id: p.id,
          title: p.title,
          tickers: p.tickers,
          thesis: p.thesis,
          owner: p.owner.name,
        }));
        return { ...text(JSON.stringify(results, null, 2)), structuredContent: { playbooks: results } };
      },
    );

    for (const doc of docs().values()) {
      if (doc.contentType.startsWith('text/html')) continue;
      server.registerResource(
        doc.path,
        `${ctx.baseUrl}${doc.path}`,
        { title: doc.title, mimeType: doc.contentType.split(';')[0] },
        (uri) => ({
          contents: [{ uri: uri.href, mimeType: doc.contentType.split(';')[0], text: doc.body }],
        }),
      );
    }
    return server;
  };
  return createMcpHandler(factory, { onerror: (error) => ctx.reportError('sandbox.mcp.error', error) });
}
