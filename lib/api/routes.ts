/**
 * Which route a request can reach. A document is refused when it is ambiguous about what a call
 * does, and a read sent by POST (batch, GraphQL) is checked against every write's route before it
 * is sent: a server routes `/playbooks/pb_1/activate` to `/playbooks/{id}/activate` whatever the
 * document calls it, so a concrete path on a write's template is that write.
 *
 * "Ambiguous" is decided exactly: two templates overlap only when some concrete path matches both.
 * Each segment is a pattern of literal text and parameters (`{id}`, `{id}:start`, `v{major}.{minor}`,
 * `{name}.json`); two segments overlap when some text matches both patterns, which is decided by a
 * search over pairs of positions in the two patterns (their product automaton), linear in the
 * product of their lengths. So `{name}:start` and `{name}:stop` are told apart, as AIP-136 custom
 * methods need, and `/playbooks/{id}` still overlaps `/playbooks/batch-get`.
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

/**
 * One segment as a pattern: literal text between parameters. `literals` has one more entry than
 * there are parameters; each parameter stands for any non-empty text. A concrete segment is one
 * literal and no parameter.
 */
interface SegmentPattern {
  literals: string[];
}

const PARAMETER = /\{[^{}]*\}/;

function templateSegment(segment: string): SegmentPattern {
  return { literals: segment.split(PARAMETER) };
}

function concreteSegment(segment: string): SegmentPattern {
  return { literals: [segment] };
}

/**
 * Bounds of the search, in time and memory. One pair of segments is searched only when its
 * pairs of positions number at most `PAIR_STATES` (5 MB of search state, freed after), and one
 * document check visits at most `DOCUMENT_VISITS` pairs in all. Beyond either, the pair counts
 * as overlapping, which refuses the document: conservative. Honest templates are short, the
 * literal prefix and suffix checks decide nearly every pair at once, and a search visits a few
 * hundred pairs; only a document built to be slow reaches a bound.
 */
const PAIR_STATES = 1_000_000;
const DOCUMENT_VISITS = 4_000_000;

interface OverlapBudget {
  /** Position pairs this check may still visit. */
  left: number;
}

const freshBudget = (): OverlapBudget => ({ left: DOCUMENT_VISITS });

function commonPrefix(a: string, b: string): boolean {
  return a.length <= b.length ? b.startsWith(a) : a.startsWith(b);
}

function commonSuffix(a: string, b: string): boolean {
  return a.length <= b.length ? b.endsWith(a) : a.endsWith(b);
}

/** A pattern as positions: a literal character, or a parameter's first character and its rest. */
const ONE = -1;
const MANY = -2;

function positions(pattern: SegmentPattern): (string | number)[] {
  const out: (string | number)[] = [];
  pattern.literals.forEach((literal, i) => {
    if (i > 0) out.push(ONE, MANY);
    for (const char of literal) out.push(char);
  });
  return out;
}

/**
 * Whether some text matches both segment patterns. Literal-only segments compare as text; else the
 * literal prefixes and suffixes must agree (a fast exact filter), then a breadth-first search over
 * pairs (i, j) of positions finds whether both patterns can end together. A step reads one
 * character both positions accept: equal literals, a literal and a parameter, or two parameters
 * (some character neither literal needs). A parameter's rest (`MANY`) may also be skipped.
 */
function segmentsOverlap(
  a: SegmentPattern,
  b: SegmentPattern,
  budget: OverlapBudget = freshBudget(),
): boolean {
  const aPlain = a.literals.length === 1;
  const bPlain = b.literals.length === 1;
  if (aPlain && bPlain) return a.literals[0] === b.literals[0];
  if (!commonPrefix(a.literals[0], b.literals[0])) return false;
  if (!commonSuffix(a.literals[a.literals.length - 1], b.literals[b.literals.length - 1])) return false;
  const left = positions(a);
  const right = positions(b);
  const width = right.length + 1;
  const states = (left.length + 1) * width;
  // Too large to decide within the bounds: counted as overlapping, never as distinct.
  if (states > PAIR_STATES || budget.left <= 0) return true;
  const seen = new Uint8Array(states);
  const queue = new Int32Array(states);
  let head = 0;
  let tail = 0;
  const visit = (i: number, j: number) => {
    const state = i * width + j;
    if (seen[state]) return;
    seen[state] = 1;
    queue[tail++] = state;
  };
  visit(0, 0);
  while (head < tail) {
    if (--budget.left < 0) return true;
    const state = queue[head++];
    const i = Math.floor(state / width);
    const j = state % width;
    if (i === left.length && j === right.length) return true;
    const x = left[i];
    const y = right[j];
    // A parameter's rest may match nothing.
    if (x === MANY) visit(i + 1, j);
    if (y === MANY) visit(i, j + 1);
    if (x === undefined || y === undefined) continue;
    // Read one character: a literal must equal the other side's literal; a parameter takes any.
    if (typeof x === 'string' && typeof y === 'string' && x !== y) continue;
    visit(x === MANY ? i : i + 1, y === MANY ? j : j + 1);
  }
  return false;
}

function overlapAll(left: SegmentPattern[], right: SegmentPattern[], budget: OverlapBudget): boolean {
  return (
    left.length === right.length && left.every((segment, i) => segmentsOverlap(segment, right[i], budget))
  );
}

/** Whether some concrete path matches both templates (a concrete path is a template without `{x}`). */
export function routesOverlap(a: string, b: string, budget = freshBudget()): boolean {
  return overlapAll(segmentsOf(a).map(templateSegment), segmentsOf(b).map(templateSegment), budget);
}

function refuseDocument(reason: string): never {
  throw new ApiError({
    kind: 'document-refused',
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
  // Each write against every operation (never all pairs), within one search budget for the document.
  const budget = freshBudget();
  for (const write of writeRoutes) {
    for (const other of [...writeRoutes, ...others]) {
      if (other === write || other.method !== write.method) continue;
      if (routesOverlap(write.pathTemplate, other.pathTemplate, budget))
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
  // The request's path is concrete: a decoded `{x}` in it is text, not a parameter.
  const concrete = candidates.map((candidate) => candidate.map(concreteSegment));
  const budget = freshBudget();
  for (const route of routesOf(doc)) {
    if (route.method !== method || route.operationId === undefined || !writes.has(route.operationId))
      continue;
    const template = segmentsOf(route.pathTemplate).map(templateSegment);
    if (concrete.some((candidate) => overlapAll(template, candidate, budget))) return route.operationId;
  }
  return undefined;
}
