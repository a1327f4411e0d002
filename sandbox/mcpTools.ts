/** The public MCP server's tools, as the documents and the server both list them. */
export interface McpToolSummary {
  name: string;
  description: string;
}

export const MCP_TOOLS: McpToolSummary[] = [
  {
    name: 'get_product_overview',
    description: 'What the Investing Agent does, its plans and its safety rules, in one Markdown document.',
  },
  {
    name: 'list_resources',
    description: 'The public discovery documents (llms.txt, OpenAPI, pricing, auth, skills) with their URLs.',
  },
  { name: 'list_categories', description: 'The use-case categories the service covers, with slugs.' },
  {
    name: 'get_category',
    description: 'One use-case category by slug, with a summary and example public playbooks.',
  },
  {
    name: 'search_public_playbooks',
    description: 'Search public playbooks by words in the title, thesis or tickers.',
  },
];
