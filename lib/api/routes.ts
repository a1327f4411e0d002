/**
 * Which route a request can reach. A document is refused when it is ambiguous about what a call
 * does, and a read sent by POST (batch, GraphQL) is checked against every write's route before it
 * is sent: a server routes `/playbooks/pb_1/activate` to `/playbooks/{id}/activate` whatever the
 * document calls it, so a concrete path on a write's template is that write.
 */
import { t } from '@/lib/i18n';
import { ApiError } from './errors';
import { HTTP_METHODS, SAFE_METHODS, type HttpMethod, type OpenApiDocument } from './operations';

/** `/playbooks/{bookId}` and `/playbooks/{id}` are one route: parameter names do not tell routes apart. */
export function routeShape(pathTemplate: string): string {
  return pathTemplate.replace(/\{[^{}/]*\}/g, '{}');
}

/** A path's segments as a server compares them: without the trailing slash, case folded, decoded. */
function segmentsOf(path: string): string[] {
  const segments = path.split('/');
  while (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments.map((segment) => {
    try {
      return decodeURIComponent(segment).toLowerCase();
    } catch {
      return segment.toLowerCase();
    }
  });
}

const hasParameter = (segment: string) => /\{[^{}]*\}/.test(segment);

/** One template segment as a pattern: each `{x}` is any non-empty text within the segment. */
function segmentPattern(segment: string): RegExp {
  const parts = segment.split(/\{[^{}]*\}/).map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`, 'i');
}

function segmentsOverlap(a: string, b: string): boolean {
  const aParam = hasParameter(a);
  const bParam = hasParameter(b);
  // Two templated segments may both match some text: counted as overlapping, never as distinct.
  if (aParam && bParam) return true;
  if (aParam) return segmentPattern(a).test(b);
  if (bParam) return segmentPattern(b).test(a);
  return a === b;
}

/** Whether some concrete path matches both templates (a concrete path is a template without `{x}`). */
export function routesOverlap(a: string, b: string): boolean {
  return segmentsMatch(segmentsOf(a), segmentsOf(b));
}

function segmentsMatch(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((segment, i) => segmentsOverlap(segment, right[i]));
}

function refuseDocument(reason: string): never {
  throw new ApiError({
    kind: 'malformed-response',
    operationId: 'openapi',
    message: t('errors.api.documentRefused', { reason }),
  });
}

interface Route {
  name: string;
  method: HttpMethod;
  pathTemplate: string;
}

function* routesOf(doc: OpenApiDocument): Generator<Route & { operationId?: string }> {
  for (const [pathTemplate, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const upper = method.toUpperCase() as HttpMethod;
      const name = raw.operationId ?? `(unnamed ${upper} ${pathTemplate})`;
      yield { name, method: upper, pathTemplate, operationId: raw.operationId };
    }
  }
}

/**
 * Refuses a document that is ambiguous about what is sent: two operations on one method and
 * route, one operationId used twice, a write declared as GET or HEAD, or any other operation of a
 * write's method whose path a write's route could match (`POST /playbooks/pb_1/activate` is
 * `activatePlaybook`, whatever its operationId). The whole document is refused, reads included,
 * because a document that lies about one route cannot be trusted for others.
 */
export function assertUnambiguousDocument(doc: OpenApiDocument, writeOperationIds: readonly string[]): void {
  const writes = new Set(writeOperationIds);
  const byRoute = new Map<string, string>();
  const byId = new Map<string, string>();
  const writeRoutes: Route[] = [];
  const others: Route[] = [];
  for (const operation of routesOf(doc)) {
    const { name, method, pathTemplate, operationId } = operation;
    const route = `${method} ${routeShape(pathTemplate)}`;
    const sameRoute = byRoute.get(route);
    if (sameRoute !== undefined)
      refuseDocument(t('errors.api.sameRoute', { first: sameRoute, second: name, route }));
    byRoute.set(route, name);
    const isWrite = operationId !== undefined && writes.has(operationId);
    (isWrite ? writeRoutes : others).push(operation);
    if (operationId === undefined) continue;
    const sameId = byId.get(operationId);
    if (sameId !== undefined)
      refuseDocument(t('errors.api.sameId', { operation: operationId, first: sameId, second: route }));
    byId.set(operationId, route);
    if (isWrite && SAFE_METHODS.has(method))
      refuseDocument(
        t('errors.api.writeAsRead', { operation: operationId, route: `${method} ${pathTemplate}` }),
      );
  }
  // Each write against every operation (never all pairs): linear in the size of the document.
  for (const write of writeRoutes) {
    for (const other of [...writeRoutes, ...others]) {
      if (other === write || other.method !== write.method) continue;
      if (routesOverlap(write.pathTemplate, other.pathTemplate))
        refuseDocument(
          t('errors.api.overlappingRoute', {
            operation: other.name,
            route: `${other.method} ${other.pathTemplate}`,
            write: write.name,
            writeRoute: `${write.method} ${write.pathTemplate}`,
          }),
        );
    }
  }
}

/**
 * The write a request of `method` to `url` would reach, if any: `url`'s path (without the server's
 * own path prefix) against every write's route of that method.
 */
export function writeReachedBy(
  doc: OpenApiDocument,
  writeOperationIds: readonly string[],
  method: HttpMethod,
  url: string,
  serverUrl: string,
): string | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  const writes = new Set(writeOperationIds);
  const path = segmentsOf(new URL(url).pathname);
  const prefix = segmentsOf(new URL(serverUrl).pathname).filter(Boolean);
  const candidates = [path];
  // The path below the server's own prefix (`/v1`), as the document's templates are written.
  if (prefix.length > 0 && prefix.every((segment, i) => path[i + 1] === segment))
    candidates.push(['', ...path.slice(prefix.length + 1)]);
  for (const route of routesOf(doc)) {
    if (route.method !== method || route.operationId === undefined || !writes.has(route.operationId))
      continue;
    const template = segmentsOf(route.pathTemplate);
    if (candidates.some((candidate) => segmentsMatch(template, candidate))) return route.operationId;
  }
  return undefined;
}
