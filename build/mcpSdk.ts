import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Node, Program } from 'estree';
import { parseAst, type Plugin } from 'vite';

/**
 * Four changes to the MCP SDK as the extension bundles it, all for size; tests/unit/mcp/workerBuild.test.ts
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
 *
 * 3. The SDK's dist files build ~180 zod schemas at module level (`const XSchema = z.object(…)…`);
 * the bundler keeps every one, not knowing zod's methods are pure. pureZodSchemas marks each
 * initializer that is nothing but zod calls on the `z` namespace pure, so the unused ones go.
 * A dropped schema's `.describe()` entry in zod's global registry goes with it: only JSON Schema
 * conversion reads that registry, and the extension has none (build/zodWithoutJsonSchema.ts).
 *
 * 4. That alone drops nothing: the SDK's `specTypeSchemas`/`isSpecType` registry reaches every
 * schema at module level, and the Client reads one guard of it (`isSpecType.Implementation`).
 * specTypeRegistryOnDemand builds the registry only where it is read; clientWithoutSpecTypeRegistry
 * gives the Client that one guard straight from the schema, exactly as the registry defines it.
 * COMPAT(@modelcontextprotocol/client-2): if the registry or the Client's one read changes shape,
 * the build fails here, on purpose.
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
    transform(code, id) {
      if (!SDK_DIST.test(id)) return null;
      try {
        let slimmed = code;
        if (SDK_SRC_CHUNK.test(id)) slimmed = specTypeRegistryOnDemand(slimmed);
        if (SDK_PUBLIC_CHUNK.test(id)) slimmed = clientWithoutSpecTypeRegistry(slimmed);
        slimmed = pureZodSchemas(slimmed).code;
        return slimmed === code ? null : { code: slimmed, map: null };
      } catch (error) {
        this.error(`${(error as Error).message} (${id}): update build/mcpSdk.ts`);
      }
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

const SDK_DIST = /[\\/]@modelcontextprotocol[\\/](client|core)[\\/]dist[\\/][^\\/]+\.mjs$/;
const SDK_SRC_CHUNK = /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/]src-[\w-]+\.mjs$/;
const SDK_PUBLIC_CHUNK = /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/]public-[\w-]+\.mjs$/;
const PURE = '/* @__PURE__ */';
/** `z.<name>` calls with an effect beyond the schema they return: never marked. */
const ZOD_EFFECTS = new Set(['config', 'setErrorMap']);
/** `z.<namespace>.<name>` namespaces of schema builders. */
const ZOD_BUILDER_NAMESPACES = new Set(['iso', 'coerce']);
/** Schema methods that validate (may throw): a top-level call to one is not a definition. */
const VALIDATING_METHOD = /^(?:safe)?(?:parse|encode|decode)(?:Async)?$|^spa$/;

/**
 * The module with every top-level `const X = <zod schema>` initializer wrapped in a pure
 * arrow call, so the bundler drops the schemas nothing reads. An initializer qualifies only if
 * it is calls on the module's `import * as z from "zod…"` namespace (or on schemas defined so
 * above), with arguments that are literals, bindings, functions, object and array literals of
 * those, `...schema.shape` spreads, or such calls again: nothing else runs while it is built.
 */
export function pureZodSchemas(code: string): { code: string; schemas: string[] } {
  const program: Program = parseAst(code);
  // The parser (rollup's, through vite) puts each node's source offsets on it.
  const span = (node: Node) => node as Node & { start: number; end: number };
  const namespace = zodNamespace(program);
  if (!namespace) return { code, schemas: [] };
  const schemas = new Set<string>();

  const onZod = (node: Node): boolean =>
    node.type === 'Identifier'
      ? node.name === namespace
      : node.type === 'MemberExpression' &&
        !node.computed &&
        node.object.type === 'Identifier' &&
        node.object.name === namespace &&
        node.property.type === 'Identifier' &&
        ZOD_BUILDER_NAMESPACES.has(node.property.name);

  const isSchema = (node: Node): boolean => {
    if (node.type === 'Identifier') return schemas.has(node.name);
    if (node.type !== 'CallExpression' || node.optional) return false;
    const callee = node.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
      return false;
    const name = callee.property.name;
    const built = onZod(callee.object)
      ? !ZOD_EFFECTS.has(name)
      : isSchema(callee.object) && !VALIDATING_METHOD.test(name);
    return built && node.arguments.every(isInert);
  };

  const isShape = (node: Node): boolean =>
    node.type === 'MemberExpression' &&
    !node.computed &&
    node.property.type === 'Identifier' &&
    node.property.name === 'shape' &&
    isSchema(node.object);

  const isInert = (node: Node | null): boolean => {
    if (!node) return false;
    switch (node.type) {
      case 'Literal':
      case 'Identifier':
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return true;
      case 'TemplateLiteral':
        return node.expressions.every(isInert);
      case 'UnaryExpression':
        return node.operator !== 'delete' && isInert(node.argument);
      case 'ArrayExpression':
        return node.elements.every((element) => element?.type !== 'SpreadElement' && isInert(element));
      case 'ObjectExpression':
        return node.properties.every((property) =>
          property.type === 'SpreadElement'
            ? isShape(property.argument)
            : (!property.computed || property.key.type === 'Identifier' || property.key.type === 'Literal') &&
              isInert(property.value),
        );
      default:
        return node.type !== 'SpreadElement' && isSchema(node);
    }
  };

  const edits: { at: number; text: string }[] = [];
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      const { id, init } = declarator;
      if (id.type !== 'Identifier' || !init || init.type !== 'CallExpression' || !isSchema(init)) continue;
      schemas.add(id.name);
      edits.push({ at: span(init).start, text: `${PURE} (() => ` }, { at: span(init).end, text: ')()' });
    }
  }
  let marked = code;
  for (const { at, text } of edits.reverse()) marked = marked.slice(0, at) + text + marked.slice(at);
  return { code: marked, schemas: [...schemas] };
}

/** The local name of `import * as z from "zod" | "zod/v4"`, if the module has one. */
function zodNamespace(program: Program): string | undefined {
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || !/^zod(?:\/v4)?$/.test(String(statement.source.value)))
      continue;
    for (const specifier of statement.specifiers)
      if (specifier.type === 'ImportNamespaceSpecifier') return specifier.local.name;
  }
  return undefined;
}

const REGISTRATION =
  'for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\nfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);\n';
const FROZEN = (name: string) => `const ${name} = Object.freeze(_${name});`;
const REGISTERED = (name: string) => `const ${name} = ${PURE} registeredSpecTypes(_${name});`;
const ON_DEMAND = `let specTypesRegistered = false;
function registeredSpecTypes(registry) {
\tif (!specTypesRegistered) {
\t\tspecTypesRegistered = true;
\t\t${REGISTRATION.trimEnd().replace('\n', '\n\t\t')}
\t}
\treturn Object.freeze(registry);
}
`;

/**
 * src-*.mjs with the spec-type registry filled by the first of its two frozen views to be
 * built, at the same point of module evaluation as before; each view is a pure call, so the
 * bundler drops the registry (and the schemas only it reaches) when neither is read.
 */
export function specTypeRegistryOnDemand(source: string): string {
  const views = ['specTypeSchemas', 'isSpecType'];
  const found = [REGISTRATION, ...views.map(FROZEN)].filter((text) => source.split(text).length === 2);
  if (found.length !== 3)
    throw new Error('src-*.mjs no longer registers spec types as build/mcpSdk.ts expects');
  let rewritten = source.replace(REGISTRATION, ON_DEMAND);
  for (const view of views) rewritten = rewritten.replace(FROZEN(view), REGISTERED(view));
  return rewritten;
}

const GUARD_READ = 'isSpecType.Implementation(fromMeta)';
const CORE = '@modelcontextprotocol/core/internal';

/**
 * public-*.mjs (the Client) with its one spec-type guard read made what the registry makes it,
 * `(v) => ImplementationSchema.safeParse(v).success`, on the same schema from core.
 */
export function clientWithoutSpecTypeRegistry(source: string): string {
  const reads = source.match(/(?<!\bas )\bisSpecType\b/g) ?? [];
  if (reads.length !== 1 || source.split(GUARD_READ).length !== 2)
    throw new Error('public-*.mjs no longer reads the spec-type registry only as build/mcpSdk.ts expects');
  return (
    `import { ImplementationSchema as ImplementationSpecTypeSchema } from ${JSON.stringify(CORE)};\n` +
    source.replace(GUARD_READ, 'ImplementationSpecTypeSchema.safeParse(fromMeta).success')
  );
}
