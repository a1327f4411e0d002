/**
 * Turns a request-body schema from the service's (untrusted) OpenAPI document into one that
 * @cfworker/json-schema can check in bounded time: one walk with bounds on nodes, depth, $ref
 * targets and literal values, keeping only keywords whose cost is known. A regex or format that
 * could backtrack is dropped, which only loosens the check: the service validates again on its
 * side, and our own zod rules on the draft keep running. Where dropping would tighten instead
 * (`not`, `if`, `oneOf`, `contains` with `maxContains`), the whole construct goes.
 */
import { pointerSegment } from './operations';
import { isLinearServicePattern } from './servicePattern';

export const SCHEMA_LIMITS = {
  /** Schema objects visited, each $ref target once. */
  maxNodes: 5_000,
  maxDepth: 64,
  maxRefTargets: 500,
  /** Values inside `enum` and `const`, counted one per JSON value. */
  maxLiteralValues: 20_000,
  /** Upper bound of schema-node × instance-character steps one validation may take. */
  maxValidationSteps: 20_000_000,
  /** Upper bound of schema-node × instance-node visits one validation may take. */
  maxValidationCalls: 200_000,
};

/**
 * Formats whose @cfworker/json-schema checks are linear on any input (measured at 1 MB in
 * tests/unit/api/validateHostile.test.ts). `url` backtracks exponentially, `regex` compiles the
 * user's text, the others are not needed and not measured.
 */
export const LINEAR_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'email',
  'hostname',
  'ipv4',
  'uuid',
  'json-pointer',
]);

const SUBSCHEMA = [
  'additionalProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'then',
  'else',
] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'dependentSchemas'] as const;
const NON_NEGATIVE_INTEGERS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords that change what is valid and that this walk does not keep: dropping them loosens. */
const DROPPED_ASSERTIONS = ['uniqueItems', '$dynamicRef', '$recursiveRef', 'dependencies'] as const;

/** The schema is larger or costlier than the bounds: the caller skips the service's check. */
export class SchemaTooComplexError extends Error {}
/** The schema cannot be used as written (a $ref that does not resolve): the caller refuses to send. */
export class SchemaUnusableError extends Error {}

export type SafeSchema = Record<string, unknown> | boolean;

export interface SanitizedSchema {
  /** Self-contained: every $ref points into its own `$defs`. */
  schema: SafeSchema;
  /** Keywords left out because they could not be checked in bounded time. */
  dropped: string[];
  /** Paths with exactly k descents into the instance, k = 0, 1, … (see validationCost). */
  pathsByDepth: (depth: number) => number;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const segment = pointerSegment(raw);
    if (segment === undefined || !isObject(target) || !Object.hasOwn(target, segment)) return undefined;
    target = target[segment];
  }
  return target;
}

interface Result {
  schema: SafeSchema;
  /** True when something was dropped here or below: the result accepts more than the original. */
  loosened: boolean;
}

class Sanitizer {
  private nodes = 0;
  private literals = 0;
  private readonly targets = new Map<unknown, { name: string; loosened: boolean | undefined }>();
  readonly defs: Record<string, SafeSchema> = {};
  readonly dropped = new Set<string>();

  constructor(
    private readonly doc: unknown,
    /** Set on a second pass once something was dropped: annotations feeding `unevaluated*` may have changed. */
    private readonly dropUnevaluated: boolean,
  ) {}

  private drop(keyword: string): void {
    this.dropped.add(keyword);
  }

  private countLiterals(value: unknown, depth: number): void {
    this.literals += 1;
    if (this.literals > SCHEMA_LIMITS.maxLiteralValues || depth > SCHEMA_LIMITS.maxDepth)
      throw new SchemaTooComplexError('its enum and const values are too large');
    if (Array.isArray(value)) for (const item of value) this.countLiterals(item, depth + 1);
    else if (isObject(value)) for (const key in value) this.countLiterals(value[key], depth + 1);
  }

  private ref(ref: string, depth: number): Result {
    let entry = this.targets.get(ref);
    if (!entry) {
      const target = resolvePointer(this.doc, ref);
      if (target === undefined)
        throw new SchemaUnusableError(`its $ref ${ref.slice(0, 80)} does not resolve`);
      if (this.targets.size >= SCHEMA_LIMITS.maxRefTargets)
        throw new SchemaTooComplexError('it references too many schemas');
      entry = { name: `s${this.targets.size}`, loosened: undefined };
      this.targets.set(ref, entry);
      const result = this.walk(target, depth + 1);
      this.defs[entry.name] = result.schema;
      entry.loosened = result.loosened;
    }
    // A target still being walked (a cycle) counts as loosened: the safe guess for `not`/`if`/`oneOf`.
    return { schema: { $ref: `#/$defs/${entry.name}` }, loosened: entry.loosened ?? true };
  }

  // eslint-disable-next-line max-lines-per-function -- one pass over the JSON Schema keywords, in an order later keywords depend on (patternProperties, if, contains delete what earlier ones kept)
  walk(node: unknown, depth: number): Result {
    this.nodes += 1;
    if (this.nodes > SCHEMA_LIMITS.maxNodes) throw new SchemaTooComplexError('it has too many parts');
    if (depth > SCHEMA_LIMITS.maxDepth) throw new SchemaTooComplexError('it is nested too deeply');
    if (typeof node === 'boolean') return { schema: node, loosened: false };
    if (!isObject(node)) {
      this.drop('(not a schema)');
      return { schema: true, loosened: true };
    }
    const out: Json = {};
    let loosened = false;
    const sub = (value: unknown): SafeSchema => {
      const result = this.walk(value, depth + 1);
      loosened ||= result.loosened;
      return result.schema;
    };

    if (node.$ref !== undefined) {
      if (typeof node.$ref !== 'string') throw new SchemaUnusableError('its $ref is not a string');
      const result = this.ref(node.$ref, depth);
      // $ref beside other keywords applies in addition to them (2020-12).
      out.allOf = [result.schema];
      loosened ||= result.loosened;
    }

    if (
      typeof node.type === 'string'
        ? TYPES.has(node.type)
        : Array.isArray(node.type) && node.type.every((t) => TYPES.has(t as string))
    )
      out.type = node.type;
    else if (node.type !== undefined) {
      this.drop('type');
      loosened = true;
    }
    for (const keyword of ['enum', 'const'] as const) {
      if (node[keyword] === undefined) continue;
      if (keyword === 'enum' && !Array.isArray(node.enum)) {
        this.drop('enum');
        loosened = true;
        continue;
      }
      this.countLiterals(node[keyword], 0);
      out[keyword] = node[keyword];
    }
    for (const keyword of ['required', 'dependentRequired'] as const) {
      if (node[keyword] === undefined) continue;
      // The validator loops over these names for every value it checks: they count as literals.
      this.countLiterals(node[keyword], 0);
      const valid =
        keyword === 'required'
          ? Array.isArray(node.required) && node.required.every((name) => typeof name === 'string')
          : isObject(node.dependentRequired) &&
            Object.values(node.dependentRequired).every(
              (names) => Array.isArray(names) && names.every((name) => typeof name === 'string'),
            );
      if (valid) out[keyword] = node[keyword];
      else {
        this.drop(keyword);
        loosened = true;
      }
    }
    for (const keyword of NON_NEGATIVE_INTEGERS) {
      const value = node[keyword];
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[keyword] = value;
    }
    for (const keyword of NUMBERS) if (typeof node[keyword] === 'number') out[keyword] = node[keyword];
    if (typeof node.multipleOf === 'number' && node.multipleOf > 0) out.multipleOf = node.multipleOf;

    if (node.pattern !== undefined) {
      if (isLinearServicePattern(node.pattern)) out.pattern = node.pattern;
      else {
        this.drop('pattern');
        loosened = true;
      }
    }
    if (node.format !== undefined) {
      if (typeof node.format === 'string' && LINEAR_FORMATS.has(node.format)) out.format = node.format;
      else {
        this.drop(`format ${typeof node.format === 'string' ? node.format.slice(0, 30) : ''}`.trim());
        loosened = true;
      }
    }
    for (const keyword of DROPPED_ASSERTIONS) {
      if (node[keyword] !== undefined) {
        this.drop(keyword);
        loosened = true;
      }
    }

    for (const keyword of SUBSCHEMA) if (node[keyword] !== undefined) out[keyword] = sub(node[keyword]);
    if (node.items !== undefined)
      out.items = Array.isArray(node.items) ? node.items.map(sub) : sub(node.items);
    for (const keyword of SUBSCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) out[keyword] = [...((out[keyword] as unknown[]) ?? []), ...list.map(sub)];
    }
    for (const keyword of SUBSCHEMA_MAPS) {
      const map = node[keyword];
      // fromEntries defines own properties, so a key named __proto__ stays a property name.
      if (isObject(map))
        out[keyword] = Object.fromEntries(Object.keys(map).map((key) => [key, sub(map[key])]));
    }
    if (isObject(node.patternProperties)) {
      const kept: [string, SafeSchema][] = [];
      let droppedHere = false;
      for (const key of Object.keys(node.patternProperties)) {
        // patternProperties are unanchored searches over property names: same rule as `pattern`.
        if (isLinearServicePattern(key)) kept.push([key, sub(node.patternProperties[key])]);
        else droppedHere = true;
      }
      if (kept.length > 0) out.patternProperties = Object.fromEntries(kept);
      if (droppedHere) {
        this.drop('patternProperties');
        loosened = true;
        // Names the dropped entries matched would otherwise fall to additionalProperties: that tightens.
        delete out.additionalProperties;
      }
    }

    // Constructs in which a loosened part tightens the whole: kept only when nothing below was dropped.
    if (node.not !== undefined) {
      const result = this.walk(node.not, depth + 1);
      if (result.loosened) this.drop('not');
      else out.not = result.schema;
      loosened ||= result.loosened;
    }
    if (node.if !== undefined) {
      const result = this.walk(node.if, depth + 1);
      if (result.loosened) {
        this.drop('if');
        delete out.then;
        delete out.else;
        loosened = true;
      } else out.if = result.schema;
    }
    if (Array.isArray(node.oneOf)) {
      const results = node.oneOf.map((branch) => this.walk(branch, depth + 1));
      if (results.some((result) => result.loosened)) {
        this.drop('oneOf');
        loosened = true;
      } else out.oneOf = results.map((result) => result.schema);
    }
    if (node.contains !== undefined) {
      const result = this.walk(node.contains, depth + 1);
      if (result.loosened && out.maxContains !== undefined) {
        this.drop('contains');
        delete out.minContains;
        delete out.maxContains;
        loosened = true;
      } else {
        out.contains = result.schema;
        loosened ||= result.loosened;
      }
    }
    if (this.dropUnevaluated) {
      delete out.unevaluatedProperties;
      delete out.unevaluatedItems;
    }
    return { schema: out, loosened };
  }
}

const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE = ['not', 'if', 'then', 'else'] as const;
const DESCENDING = [
  'additionalProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contains',
] as const;
const DESCENDING_MAPS = ['properties', 'patternProperties'] as const;
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * Counts, for each k, the paths through the schema that the validator can follow to reach an
 * instance value k levels down: an upper bound on the schemas applied to any one value there.
 * A loop of $ref through allOf/anyOf/oneOf/not/if without descending is infinite: refused.
 */
function pathCounter(root: SafeSchema, defs: Record<string, SafeSchema>): (depth: number) => number {
  const memo = new Map<SafeSchema, number[]>();
  const inProgress = new Map<SafeSchema, Set<number>>();
  const count = (node: SafeSchema, depth: number): number => {
    if (typeof node === 'boolean') return depth === 0 ? 1 : 0;
    let perDepth = memo.get(node);
    if (!perDepth) memo.set(node, (perDepth = []));
    const known = perDepth[depth];
    if (known !== undefined) return known;
    let active = inProgress.get(node);
    if (!active) inProgress.set(node, (active = new Set()));
    if (active.has(depth)) throw new SchemaUnusableError('its $ref loops without ever reaching a value');
    active.add(depth);
    let total = depth === 0 ? 1 : 0;
    const add = (child: unknown, childDepth: number) => {
      if (childDepth < 0 || child === undefined) return;
      total = Math.min(MAX_COUNT, total + count(child as SafeSchema, childDepth));
    };
    if (typeof node.$ref === 'string') add(defs[node.$ref.slice('#/$defs/'.length)], depth);
    for (const keyword of IN_PLACE) add(node[keyword], depth);
    for (const keyword of IN_PLACE_LISTS)
      for (const child of (node[keyword] as unknown[] | undefined) ?? []) add(child, depth);
    for (const child of Object.values((node.dependentSchemas as Json | undefined) ?? {})) add(child, depth);
    for (const keyword of DESCENDING) add(node[keyword], depth - 1);
    for (const keyword of ['items', 'prefixItems'] as const) {
      const value = node[keyword];
      if (Array.isArray(value)) for (const child of value) add(child, depth - 1);
      else add(value, depth - 1);
    }
    for (const keyword of DESCENDING_MAPS)
      for (const child of Object.values((node[keyword] as Json | undefined) ?? {})) add(child, depth - 1);
    active.delete(depth);
    perDepth[depth] = total;
    return total;
  };
  return (depth) => count(root, depth);
}

/** Sanitizes a body schema of `doc`; throws SchemaTooComplexError or SchemaUnusableError. */
export function sanitizeServiceSchema(doc: unknown, bodySchema: unknown): SanitizedSchema {
  let sanitizer = new Sanitizer(doc, false);
  let root = sanitizer.walk(bodySchema, 0);
  if (root.loosened) {
    // Dropped keywords change the annotations unevaluated* relies on: walk again without those.
    sanitizer = new Sanitizer(doc, true);
    root = sanitizer.walk(bodySchema, 0);
  }
  const schema: SafeSchema =
    typeof root.schema === 'boolean' ? root.schema : { ...root.schema, $defs: sanitizer.defs };
  return { schema, dropped: [...sanitizer.dropped], pathsByDepth: pathCounter(root.schema, sanitizer.defs) };
}

/** Characters and values at each depth of the instance (the draft body), stopping past maxDepth. */
export function instanceProfile(value: unknown): { chars: number[]; values: number[] } {
  const chars: number[] = [];
  const values: number[] = [];
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > SCHEMA_LIMITS.maxDepth) throw new SchemaTooComplexError('the body is nested too deeply');
    values[depth] = (values[depth] ?? 0) + 1;
    chars[depth] = (chars[depth] ?? 0) + 1 + (typeof current === 'string' ? current.length : 0);
    if (Array.isArray(current)) for (const item of current) stack.push([item, depth + 1]);
    else if (isObject(current))
      for (const key of Object.keys(current)) {
        chars[depth + 1] = (chars[depth + 1] ?? 0) + key.length;
        stack.push([current[key], depth + 1]);
      }
  }
  return { chars, values };
}

/** Throws SchemaTooComplexError when validating `body` could exceed the step bounds. */
export function assertValidationCost(sanitized: SanitizedSchema, body: unknown): void {
  const profile = instanceProfile(body);
  let steps = 0;
  let calls = 0;
  for (let depth = 0; depth < profile.values.length; depth += 1) {
    const paths = sanitized.pathsByDepth(depth);
    steps += paths * (profile.chars[depth] ?? 0);
    calls += paths * (profile.values[depth] ?? 0);
  }
  if (steps > SCHEMA_LIMITS.maxValidationSteps || calls > SCHEMA_LIMITS.maxValidationCalls)
    throw new SchemaTooComplexError('checking this body against it would take too long');
}
