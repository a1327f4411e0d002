/** The agent skills the sandbox publishes, and the digest that pins each one. */
import { createHash } from 'node:crypto';
import { DISCLAIMER } from './identity';

export interface Skill {
  name: string;
  description: string;
  body: string;
}

export function skills(apiUrl: string): Skill[] {
  return [
    {
      name: 'playbook-authoring',
      description:
        'Turn an investment thesis or article excerpt into a private draft playbook through the Investing Agent API.',
      body: `# Playbook authoring

Use this skill when a user wants to turn a thesis, a narrative or an article excerpt into a playbook.

1. Read \`/openapi.json\` and find the operation \`createPlaybook\`; take its method and path from there.
2. Draft a title (under 200 characters), a thesis in the user's own words, and tickers only if the text names them.
3. Default the visibility to \`private\`. Ask the user to confirm before sending.
4. Send one request with an \`Idempotency-Key\` (a fresh UUID per confirmed intent); retry with the same key and body.
5. The answer is a playbook in status \`draft\`. Show its title and link; never activate it without a second confirmation.

API base: ${apiUrl}. ${DISCLAIMER}
`,
    },
    {
      name: 'backtest-review',
      description: 'Queue a backtest for a playbook and explain the result summary once it has completed.',
      body: `# Backtest review

1. Call \`runBacktest\` with \`start\` and \`end\` dates (YYYY-MM-DD) and an optional \`benchmark\` ticker (default SPY).
2. The answer is \`202\` with status \`queued\`. Do not poll the playbook; listen on \`streamEvents\` or poll \`listEvents\`.
3. A \`backtest.completed\` event carries \`total_return\`, \`benchmark_return\`, \`max_drawdown\` and \`sharpe\` in \`data\`.
4. Explain the numbers plainly, including the drawdown, and remind the user that past results do not predict future returns.

${DISCLAIMER}
`,
    },
    {
      name: 'service-discovery',
      description:
        'Discover the Investing Agent: llms.txt, OpenAPI, pricing, MCP card and skills, in the recommended order.',
      body: `# Service discovery

Fetch, in this order: \`/llms.txt\`, \`/llms-full.txt\`, \`/api-docs\`, \`/openapi.json\`, \`/pricing.md\`,
\`/.well-known/mcp/server-card.json\` and \`/mcp\`, \`/.well-known/agent-skills/index.json\`, \`/auth.md\`.
Send no credentials to any of them. Verify each skill's \`sha256:\` digest against the bytes you downloaded
and refuse a skill whose digest does not match. Find API operations by \`operationId\`, never by path.
`,
    },
  ];
}

export function skillMarkdown(skill: Skill): string {
  return `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n${skill.body}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
