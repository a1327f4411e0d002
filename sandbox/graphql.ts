/** The read-only GraphQL endpoint: the same keyset pages as REST, as a Relay-style connection. */
import { buildSchema, graphql, GraphQLError } from 'graphql';
import { ListError, pagePlaybooks } from './lists';
import type { SandboxContext } from './context';
import { encodeCursor } from './cursor';
import { visibilitySchema } from './schemas';
import type { Playbook, User } from './store';

export const GRAPHQL_SDL = `
"Who can see a playbook."
enum Visibility { private unlisted public }
enum PlaybookStatus { draft active paused archived }
type Owner { id: ID! name: String! }
type Source { url: String! title: String! }
type Playbook {
  id: ID!
  title: String!
  thesis: String!
  visibility: Visibility!
  status: PlaybookStatus!
  tickers: [String!]!
  source: Source
  owner: Owner!
  createdAt: String!
  updatedAt: String!
  etag: String!
}
type PlaybookEdge { cursor: String! node: Playbook! }
type PageInfo { hasNextPage: Boolean! endCursor: String }
type PlaybookConnection { edges: [PlaybookEdge!]! pageInfo: PageInfo! }
type Account { id: ID! name: String! email: String! plan: String! permissions: [String!]! brokerageLinked: Boolean! }
type Query {
  "The caller's playbooks, newest first. first is bounded like the REST limit."
  playbooks(first: Int, after: String, visibility: Visibility): PlaybookConnection!
  playbook(id: ID!): Playbook
  account: Account!
}
`;

const schema = buildSchema(GRAPHQL_SDL);

function toNode(p: Playbook): Record<string, unknown> {
  return { ...p, createdAt: p.created_at, updatedAt: p.updated_at };
}

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

export async function executeGraphql(
  ctx: SandboxContext,
  user: User,
  request: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null },
): Promise<unknown> {
  const root = {
    playbooks: (args: { first?: number | null; after?: string | null; visibility?: string | null }) => {
      const { min, max } = ctx.dialect.limits;
      const first = args.first ?? ctx.dialect.limits.default;
      if (first < min || first > max) throw badInput(`first must be from ${min} to ${max}.`);
      const visibility = args.visibility ? visibilitySchema.parse(args.visibility) : undefined;
      try {
        const page = pagePlaybooks(ctx, { ownerId: user.id }, visibility, args.after ?? undefined, first);
        return {
          edges: page.data.map((p, i) => ({
            cursor: encodeCursor(page.kind, page.filter, page.seqs[i]),
            node: toNode(p),
          })),
          pageInfo: {
            hasNextPage: page.has_more,
            endCursor:
              page.next_cursor ??
              (page.seqs.length
                ? encodeCursor(page.kind, page.filter, page.seqs[page.seqs.length - 1])
                : null),
          },
        };
      } catch (error) {
        if (error instanceof ListError) throw badInput(error.problem.detail);
        throw error;
      }
    },
    playbook: (args: { id: string }) => {
      const p = ctx.store.getPlaybook(args.id);
      return p && (p.owner.id === user.id || p.visibility !== 'private') ? toNode(p) : null;
    },
    account: () => {
      const account = ctx.store.getUser(user.id)!;
      return { ...account, brokerageLinked: account.brokerage_linked };
    },
  };
  return graphql({
    schema,
    source: request.query,
    rootValue: root,
    variableValues: request.variables ?? undefined,
    operationName: request.operationName ?? undefined,
  });
}
