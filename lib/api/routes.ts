/**
 * Which route a request can reach. A document is refused when it is ambiguous about what a call
 * does, and a read sent by POST (batch, GraphQL) is checked against every write's route before it
 * is sent: a server routes `/playbooks/pb_1/activate` to `/playbooks/{id}/activate` whatever the
 * document calls it, so a concrete path on a write's template is that write.
 *
 * "Ambiguous" is decided exactly: two templates overlap only when some concrete path matches both.
 * Each segment is a pattern of literal text and parameters (`{id}`, `{id}:start`, `v{major}.{minor}`,
 * `{name}.json`), each parameter any non-empty text. Two patterns that both hold a parameter share
 * a text exactly when their leading literals agree (one starts the other) and so do their trailing
 * ones: "longer prefix, #, one side's middles, #, the other's, #, longer suffix" matches both. A
 * pattern against plain text is a glob match, decided by placing each middle literal leftmost. So
 * `{name}:start` and `{name}:stop` are told apart, as AIP-136 custom methods need, in time linear
 * in the segments (up to `MAX_SEGMENT` characters; a longer one counts as overlapping).
 */
import { t } from '@/lib/i18n';
import { ApiError } from './errors';
import { HTTP_METHODS, SAFE_METHODS, type HttpMethod, type OpenApiDocument } from './operations';

/** `/playbooks/{bookId}` and `/playbooks/{id}` are one route: parameter names do not tell routes apart. */
export function routeShape(pathTemplate: string): string {
  return pathTemplate.replace(/\{[^{}/]*\}/g, '{}');
}

/** Case folded one code point at a time, so a letter folds the same wherever it stands (Σ, ς). */
export function fold(text: string): string {
  let out = '';
  for (const char of text) out += char.toUpperCase().toLowerCase();
  return out;
}

/** A path's segments as a server compares them: without the trailing slash, case folded, decoded. */
function segmentsOf(path: string): string[] {
  const segments = path.split('/');
  while (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments.map((segment) => {
    try {
      return fold(decodeURIComponent(segment));
    } catch {
      return fold(segment);
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
  /** Longer than `MAX_SEGMENT`: not compared, counted as overlapping. */
  long: boolean;
}

/** Longer segments are not compared (no honest route has one): they count as overlapping. */
const MAX_SEGMENT = 1024;

const PARAMETER = /\{[^{}]*\}/;

function templateSegment(segment: string): SegmentPattern {
  return { literals: segment.split(PARAMETER), long: segment.length > MAX_SEGMENT };
}

function concreteSegment(segment: string): SegmentPattern {
  return { literals: [segment], long: segment.length > MAX_SEGMENT };
}

function commonPrefix(a: string, b: string): boolean {
  return a.length <= b.length ? b.startsWith(a) : a.startsWith(b);
}

function commonSuffix(a: string, b: string): boolean {
  return a.length <= b.length ? b.endsWith(a) : a.endsWith(b);
}

/** Whether `text` matches the pattern: each literal placed leftmost, each parameter at least one character. */
function globMatches(pattern: string[], text: string): boolean {
  const first = pattern[0];
  const last = pattern[pattern.length - 1];
  if (!text.startsWith(first)) return false;
  let at = first.length;
  for (const middle of pattern.slice(1, -1)) {
    const found = text.indexOf(middle, at + 1);
    if (found < 0) return false;
    at = found + middle.length;
  }
  return text.length - last.length >= at + 1 && text.endsWith(last);
}

function segmentsOverlap(a: SegmentPattern, b: SegmentPattern): boolean {
  if (a.long || b.long) return true;
  const aPlain = a.literals.length === 1;
  const bPlain = b.literals.length === 1;
  if (aPlain && bPlain) return a.literals[0] === b.literals[0];
  if (aPlain) return globMatches(b.literals, a.literals[0]);
  if (bPlain) return globMatches(a.literals, b.literals[0]);
  return commonPrefix(a.literals[0], b.literals[0]) && commonSuffix(a.literals.at(-1)!, b.literals.at(-1)!);
}

function overlapAll(left: SegmentPattern[], right: SegmentPattern[]): boolean {
  return left.length === right.length && left.every((segment, i) => segmentsOverlap(segment, right[i]));
}

const patternOf = (pathTemplate: string) => segmentsOf(pathTemplate).map(templateSegment);

/** Whether some concrete path matches both templates (a concrete path is a template without `{x}`). */
export function routesOverlap(a: string, b: string): boolean {
  return overlapAll(patternOf(a), patternOf(b));
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
  // Each write against every operation (never all pairs), each template parsed once: linear in
  // the size of the document, times the handful of writes.
  const patterns = new Map<Route, SegmentPattern[]>();
  const parsed = (route: Route) =>
    patterns.get(route) ?? patterns.set(route, patternOf(route.pathTemplate)).get(route)!;
  for (const write of writeRoutes) {
    for (const other of [...writeRoutes, ...others]) {
      if (other === write || other.method !== write.method) continue;
      if (overlapAll(parsed(write), parsed(other)))
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
 * The ways a server may read a request path: as sent, decoded before it is split (an encoded `/`
 * becomes one), without `;…` parameters in a segment (Servlet containers), and with runs of `/`
 * merged (nginx's merge_slashes). Each is checked, with and without the server's own prefix.
 */
function pathReadings(pathname: string): string[][] {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Left as sent: the segment-wise reading below decodes what it can.
  }
  const asSent = segmentsOf(pathname);
  return [
    asSent,
    segmentsOf(decoded.replaceAll('%', '%25')),
    asSent.map((segment) => (segment.includes(';') ? segment.slice(0, segment.indexOf(';')) : segment)),
    segmentsOf(pathname.replace(/\/{2,}/g, '/')),
  ];
}

/** A write's route as a document declared it, kept after that document is gone (`lib/api/service.ts`). */
export interface WriteRoute {
  operationId: string;
  method: HttpMethod;
  pathTemplate: string;
}

/** The routes a document declares for the writes of `writeOperationIds`. */
export function declaredWriteRoutes(
  doc: OpenApiDocument,
  writeOperationIds: readonly string[],
): WriteRoute[] {
  const writes = new Set(writeOperationIds);
  const routes: WriteRoute[] = [];
  for (const { operationId, method, pathTemplate } of routesOf(doc))
    if (operationId !== undefined && writes.has(operationId))
      routes.push({ operationId, method, pathTemplate });
  return routes;
}

/**
 * The write a request of `method` to `url` would reach, if any: `url`'s path, in each way a server
 * may read it (`pathReadings`) and also without the server's own path prefix, against every
 * write's route of that method: those the document declares, and `remembered` ones (a write's
 * route in an earlier document) for the writes this document leaves out.
 */
export function writeReachedBy(
  doc: OpenApiDocument,
  writeOperationIds: readonly string[],
  method: HttpMethod,
  url: string,
  serverUrl: string,
  remembered: readonly WriteRoute[] = [],
): string | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  const declared = declaredWriteRoutes(doc, writeOperationIds);
  const routes = [
    ...declared,
    ...remembered.filter((route) => !declared.some((d) => d.operationId === route.operationId)),
  ];
  const concrete = concreteReadings(url, serverUrl);
  for (const route of routes) {
    if (route.method !== method) continue;
    const template = patternOf(route.pathTemplate);
    if (concrete.some((candidate) => overlapAll(template, candidate))) return route.operationId;
  }
  return undefined;
}

/** Every way a server may read `url`'s path, with and without the server's own prefix, as concrete patterns. */
function concreteReadings(url: string, serverUrl: string): SegmentPattern[][] {
  return pathCandidates(url, serverUrl).map((candidate) => candidate.map(concreteSegment));
}

function pathCandidates(url: string, serverUrl: string): string[][] {
  const prefix = segmentsOf(new URL(serverUrl).pathname).filter(Boolean);
  const candidates: string[][] = [];
  for (const path of pathReadings(new URL(url).pathname)) {
    candidates.push(path);
    // The path below the server's own prefix (`/v1`), as the document's templates are written.
    if (prefix.length > 0 && prefix.every((segment, i) => path[i + 1] === segment))
      candidates.push(['', ...path.slice(prefix.length + 1)]);
  }
  return candidates;
}

/** A word as a route spells it, compared without case, `-` or `_`: `go-live`, `goLive` and `GO_LIVE` are one. */
function word(text: string): string {
  return fold(text).replace(/[-_]/g, '');
}

/** A segment's pieces: the whole, and its parts between the separators routes use (`:verb`, `.json`, `;v=1`). */
function piecesOf(segment: string): string[] {
  return [segment, ...segment.split(/[:.;,@!$+=~*'()]/)].filter(Boolean);
}

/** `createCheckoutSession` → create, checkout, session: the words of the contract's writes. */
function contractWriteWords(writeOperationIds: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const operationId of writeOperationIds) {
    words.add(word(operationId));
    for (const part of operationId.split(/(?=[A-Z])/)) {
      // Every read names playbooks too: the resource is not a write's word, the verbs are.
      if (word(part) === 'playbook') continue;
      words.add(word(part));
      words.add(`${word(part)}s`);
    }
  }
  return words;
}

/**
 * The action words of a write route: a custom method's verb (`{name}:goLive`, `/billing:checkout`)
 * and any literal that follows a parameter (`/{id}/activate`, `/{id}/backtests`).
 */
function actionWordsOf(pathTemplate: string): string[] {
  const words: string[] = [];
  let afterParameter = false;
  for (const segment of pathTemplate.split('/')) {
    const literals = segment.split(PARAMETER);
    const verb = literals.at(-1)!.split(':').slice(1).join(':');
    if (verb) words.push(word(verb));
    if (afterParameter && literals.length === 1) words.push(...piecesOf(segment).map(word));
    if (literals.length > 1) afterParameter = true;
  }
  return words.filter(Boolean);
}

/** Why a POST read may not go to `url`, or undefined when it may. */
export type PostReadRefusal =
  | { reason: 'write-route'; write: string }
  | { reason: 'write-word'; word: string }
  | { reason: 'seen-id'; id: string };

export interface PostReadCheck {
  doc: OpenApiDocument;
  writeOperationIds: readonly string[];
  url: string;
  serverUrl: string;
  /** Write routes of earlier trusted documents (`declaredWriteRoutes`), for writes this one leaves out. */
  remembered?: readonly WriteRoute[];
  /** Whether a (decoded, case-folded) path piece is an id the client has seen. */
  isSeenId: (piece: string) => boolean;
}

/**
 * Where a read sent by POST (batch, GraphQL) may go, held by route and by shape at once:
 * - not to any write's route, declared here or remembered from an earlier document (`writeReachedBy`);
 * - not to a path with a piece that names a write: a word of the contract's writes (`activate`,
 *   `pause`, `backtests`, `checkout`, …) or an action word of a write route this document or an
 *   earlier one declared (`goLive`, `halt`), whether or not this document declares that write;
 * - not to a path with a literal piece that is an id the client has seen (a playbook's or a
 *   backtest's): a read acts on a collection, and only a write names one playbook in its path.
 * Each reading of the path a server may make is checked (`pathReadings`). Linear in the path,
 * times the handful of writes.
 */
export function postReadRefusal(check: PostReadCheck): PostReadRefusal | undefined {
  const { doc, writeOperationIds, url, serverUrl, remembered = [] } = check;
  const write = writeReachedBy(doc, writeOperationIds, 'POST', url, serverUrl, remembered);
  if (write !== undefined) return { reason: 'write-route', write };
  const words = contractWriteWords(writeOperationIds);
  for (const route of [...declaredWriteRoutes(doc, writeOperationIds), ...remembered])
    for (const action of actionWordsOf(route.pathTemplate)) words.add(action);
  for (const path of pathCandidates(url, serverUrl)) {
    for (const segment of path) {
      for (const piece of piecesOf(segment)) {
        if (words.has(word(piece))) return { reason: 'write-word', word: piece };
        if (check.isSeenId(piece)) return { reason: 'seen-id', id: piece };
      }
    }
  }
  return undefined;
}
