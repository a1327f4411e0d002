/**
 * A form model from a tool's JSON Schema: flat objects whose properties are strings, numbers,
 * integers, booleans or enums become fields; anything else (nested objects, arrays, unions)
 * falls back to one JSON textarea. Values are checked here before a call is sent.
 */
import { t } from '@/lib/i18n';
import { MAX_RESULT_BLOCKS, MAX_RESULT_CHARS, prettyJson, type PrintedJson } from './boundedJson';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

export interface SchemaField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: (string | number)[];
  default?: string | number | boolean;
  minimum?: number;
  maximum?: number;
}

export type FormModel = { kind: 'fields'; fields: SchemaField[] } | { kind: 'json' };

const MAX_FIELDS = 50;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldOf(name: string, raw: unknown, required: boolean): SchemaField | null {
  if (!isRecord(raw)) return null;
  const description = typeof raw.description === 'string' ? raw.description.slice(0, 500) : '';
  const base = { name, required, description, options: [] as (string | number)[] };
  const numberOr = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  if (Array.isArray(raw.enum)) {
    const options = raw.enum.filter(
      (option): option is string | number => typeof option === 'string' || typeof option === 'number',
    );
    if (options.length !== raw.enum.length || options.length === 0) return null;
    const fallback = options.includes(raw.default as string | number)
      ? (raw.default as string | number)
      : undefined;
    return { ...base, kind: 'enum', options, default: fallback };
  }
  switch (raw.type) {
    case 'string':
      return { ...base, kind: 'string', default: typeof raw.default === 'string' ? raw.default : undefined };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: raw.type,
        default: numberOr(raw.default),
        minimum: numberOr(raw.minimum),
        maximum: numberOr(raw.maximum),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        default: typeof raw.default === 'boolean' ? raw.default : undefined,
      };
    default:
      return null;
  }
}

export function formModelOf(schema: unknown): FormModel {
  if (!isRecord(schema) || (schema.type !== undefined && schema.type !== 'object')) return { kind: 'json' };
  if (schema.oneOf || schema.anyOf || schema.allOf || schema.$ref) return { kind: 'json' };
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS) return { kind: 'json' };
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [],
  );
  const fields: SchemaField[] = [];
  for (const name of names) {
    const field = fieldOf(name, properties[name], required.has(name));
    if (!field) return { kind: 'json' };
    fields.push(field);
  }
  return { kind: 'fields', fields };
}

/** The text a field starts with: its default, or empty. */
export function initialValues(model: FormModel): Record<string, string> {
  if (model.kind === 'json') return { __json: '{}' };
  const values: Record<string, string> = {};
  for (const field of model.fields)
    values[field.name] = field.default === undefined ? '' : String(field.default);
  return values;
}

export type BuiltArgs =
  { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Turns the form's text values into the call's arguments, or says which fields are wrong. */
export function buildArgs(model: FormModel, values: Record<string, string>): BuiltArgs {
  if (model.kind === 'json') {
    try {
      const parsed: unknown = JSON.parse(values.__json ?? '{}');
      if (!isRecord(parsed)) return { ok: false, errors: { __json: t('sidepanel.mcp.errorJsonObject') } };
      return { ok: true, args: parsed };
    } catch {
      return { ok: false, errors: { __json: t('sidepanel.mcp.errorJson') } };
    }
  }
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of model.fields) {
    const text = (values[field.name] ?? '').trim();
    if (text === '') {
      if (field.required && field.kind !== 'boolean') errors[field.name] = t('sidepanel.mcp.errorRequired');
      continue;
    }
    switch (field.kind) {
      case 'string':
        args[field.name] = values[field.name];
        break;
      case 'boolean':
        args[field.name] = text === 'true';
        break;
      case 'enum': {
        const option = field.options.find((candidate) => String(candidate) === text);
        if (option === undefined) errors[field.name] = t('sidepanel.mcp.errorOption');
        else args[field.name] = option;
        break;
      }
      case 'number':
      case 'integer': {
        const number = Number(text);
        if (!Number.isFinite(number)) errors[field.name] = t('sidepanel.mcp.errorNumber');
        else if (field.kind === 'integer' && !Number.isInteger(number))
          errors[field.name] = t('sidepanel.mcp.errorInteger');
        else if (field.minimum !== undefined && number < field.minimum)
          errors[field.name] = t('sidepanel.mcp.errorMin', { min: field.minimum });
        else if (field.maximum !== undefined && number > field.maximum)
          errors[field.name] = t('sidepanel.mcp.errorMax', { max: field.maximum });
        else args[field.name] = number;
        break;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}

export interface ContentBlock {
  kind: 'text' | 'json';
  text: string;
  /** The result's budget ran out here: this block is shortened, or blocks after it are left out. */
  cut?: true;
}

/**
 * An MCP tool result's content blocks as text: text as it is, anything else as pretty JSON, at
 * most MAX_RESULT_BLOCKS blocks and MAX_RESULT_CHARS characters in all (./boundedJson.ts).
 */
export function contentBlocksOf(content: unknown): ContentBlock[] {
  const blocks = Array.isArray(content) ? content : [content];
  const shown: ContentBlock[] = [];
  let left = MAX_RESULT_CHARS;
  for (const block of blocks) {
    if (shown.length === MAX_RESULT_BLOCKS || left <= 0) {
      const last = shown.at(-1);
      if (last) last.cut = true;
      break;
    }
    const printed = blockText(block, left);
    shown.push({ kind: printed.kind, text: printed.text, ...(printed.cut ? { cut: true as const } : {}) });
    left -= printed.text.length;
    if (printed.cut) break;
  }
  return shown;
}

function blockText(block: unknown, budget: number): { kind: 'text' | 'json' } & PrintedJson {
  if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') {
    const text = block.text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null)
        return { kind: 'json', ...prettyJson(parsed, budget) };
    } catch {
      // Plain prose (or JSON too deep to parse): shown as it is.
    }
    return text.length > budget
      ? { kind: 'text', text: text.slice(0, budget) + '…', cut: true }
      : { kind: 'text', text, cut: false };
  }
  return { kind: 'json', ...prettyJson(block, budget) };
}
