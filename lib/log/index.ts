/**
 * The one logger. It takes an event name and structured fields, never free text, so a secret
 * cannot ride along inside a sentence. Fields whose name says "secret" are dropped, and any
 * registered secret value is masked wherever it appears in a string.
 */
import { t } from '@/lib/i18n';
import { createSecretMask, maskDeep, MIN_FRAGMENT, type SecretMask } from './secretMask';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export interface LogRecord {
  level: LogLevel;
  event: string;
  at: string;
  fields: LogFields;
}
export type LogSink = (record: LogRecord) => void;

const SECRET_FIELD = /(api[-_]?key|authorization|password|secret|token|cookie|bearer)/i;
const BEARER_VALUE = /\bBearer\s+[^\s"',]+/gi;
const EVENT_NAME = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$/i;
const MAX_DEPTH = 4;
const MAX_STRING = 500;
const MAX_ITEMS = 20;
export const REDACTED = '[redacted]';

const secrets = new Set<string>();

/**
 * Every text that holds a registered secret in any form (lib/log/secretMask.ts `screen`) reaches
 * a page or a log record as this one sentence, whole, in the UI language.
 */
export function keyWithheld(): string {
  return t('errors.api.keyWithheld');
}

/** The one mask of the worker: pages and logs both see what it screens. */
export function secretMaskOf(values: Iterable<string>): SecretMask {
  return createSecretMask(values, { replacement: keyWithheld });
}

let secretMask: SecretMask = secretMaskOf([]);

/** Masks this value and its fragments (lib/log/secretMask.ts says which) in every later log record and error. */
export function registerSecret(value: string): void {
  if (value.length < MIN_FRAGMENT || secrets.has(value)) return;
  secrets.add(value);
  secretMask = secretMaskOf(secrets);
}

export function forgetSecrets(): void {
  secrets.clear();
  secretMask = secretMaskOf([]);
}

/**
 * Whether a text holds 8 characters in a row of a registered secret's secret part (the key without
 * its readable prefix): for text that would leave for another origin whole, such as a link the
 * service asks us to open, or that must stay whole where it is kept (an id).
 */
export function carriesSecret(text: string): boolean {
  return secretMask.carries(text);
}

/**
 * carriesSecret, or the same 8-character run of the secret part in a disguise (zero-width or bidi
 * characters, fullwidth, case, reversed, pieces): for values kept whole (ids, links, event
 * fields), where the 6-character test of maskSecrets would break a random id now and then.
 */
export function carriesSecretInAnyForm(text: string): boolean {
  return secretMask.carries(text) || secretMask.carriesDisguised(text);
}

/**
 * Whether a JSON text could hold a registered secret once parsed: its raw text carries one, or it
 * spells printable ASCII with `\u00XX` escapes (or with `\"`, `\\`, `\/` when a secret holds
 * such a character), which the raw text would hide. The usual answer holds neither and is then not
 * walked at all (dropCarriedSecrets).
 */
export function jsonMayCarrySecret(text: string): boolean {
  return secretMask.jsonMayCarry(text);
}

/**
 * Masks, in a parsed JSON value (changed in place), every string that carries 8 characters in a
 * row of a registered secret (maskSecrets: the rest of its text stays), and drops every property
 * named by one: a service that
 * echoes the key in a title, a thesis or an MCP result does not put it in front of a page. Walked
 * with a stack of its own, so a deeply nested answer cannot overflow the call stack; linear.
 */
export function dropCarriedSecrets<T>(root: T): T {
  if (secrets.size === 0) return root;
  if (typeof root === 'string') return (carriesSecretInAnyForm(root) ? maskSecrets(root) : root) as T;
  const stack: object[] = root !== null && typeof root === 'object' ? [root] : [];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const record = node as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      if (!Array.isArray(node) && carriesSecretInAnyForm(name)) {
        delete record[name];
        continue;
      }
      const value = record[name];
      if (typeof value === 'string') {
        if (carriesSecretInAnyForm(value)) record[name] = maskSecrets(value);
      } else if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return root;
}

/**
 * What a page or a log may receive of a text that leaves the worker (errors, wire, outbox, log
 * fields): keyWithheld() whole when it holds a registered secret in any form, even disguised;
 * otherwise the text with every raw fragment of one masked.
 */
export function maskSecrets(text: string): string {
  return secretMask.screen(text);
}

/** The same for every string (and property name) inside a plain value, keeping its shape. */
export function maskSecretsDeep<T>(value: T): T {
  return maskDeep(value, secretMask);
}

// Masked first, cut second: a cut inside a secret would otherwise leave most of it unmasked.
function maskString(value: string): string {
  const out = maskSecrets(value).replace(BEARER_VALUE, `Bearer ${REDACTED}`);
  return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}…` : out;
}

export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string') return maskString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: maskString(value.message) };
  if (depth >= MAX_DEPTH) return '[depth]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
  if (typeof value === 'object') {
    const out: LogFields = {};
    for (const [name, item] of Object.entries(value as LogFields).slice(0, MAX_ITEMS)) {
      // A name can come from the service too (a problem's field paths): masked like any string.
      out[maskSecrets(name)] = SECRET_FIELD.test(name) ? REDACTED : redact(item, depth + 1);
    }
    return out;
  }
  return `[${typeof value}]`;
}

const consoleSink: LogSink = (record) => {
  const line = JSON.stringify(record);
  if (record.level === 'error') console.error(line);
  else if (record.level === 'warn') console.warn(line);
  else if (record.level === 'debug') console.debug(line);
  else console.info(line);
};

let sink: LogSink = consoleSink;

/** Tests route records elsewhere; returns a function that restores the console sink. */
export function setLogSink(next: LogSink): () => void {
  sink = next;
  return () => {
    sink = consoleSink;
  };
}

function write(level: LogLevel, event: string, fields: LogFields = {}): void {
  const safeEvent = EVENT_NAME.test(event) ? event : 'log.invalid-event-name';
  sink({ level, event: safeEvent, at: new Date().toISOString(), fields: redact(fields) as LogFields });
}

export const log = {
  debug: (event: string, fields?: LogFields) => write('debug', event, fields),
  info: (event: string, fields?: LogFields) => write('info', event, fields),
  warn: (event: string, fields?: LogFields) => write('warn', event, fields),
  error: (event: string, fields?: LogFields) => write('error', event, fields),
};
