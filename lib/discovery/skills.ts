/**
 * Agent Skills discovery v0.2.0: the index at `/.well-known/agent-skills/index.json` and each
 * skill's SKILL.md (YAML front matter `name`, `description`, then Markdown). The front matter is
 * read with a deliberately small parser: flat `key: value` pairs, quoted or block scalars.
 */
import { t } from '@/lib/i18n';
import { z } from 'zod';
import { resolveWebUrl } from './urls';

const SkillEntrySchema = z.looseObject({
  name: z.string().min(1).max(128),
  type: z.string().max(64),
  description: z.string().max(4_000).default(''),
  url: z.string().min(1).max(4_096),
  digest: z.string().max(200),
});

const SkillsIndexSchema = z.looseObject({
  $schema: z.string().max(500).optional(),
  skills: z.array(z.unknown()).max(500),
});

export interface SkillIndexEntry {
  name: string;
  description: string;
  /** Absolute http(s) URL of the SKILL.md. */
  url: string;
  digest: string;
}

export interface SkillsIndex {
  schema: string | null;
  skills: SkillIndexEntry[];
  /** Entries left out, with the reason (wrong type, bad URL, malformed entry). */
  skipped: { name: string; reason: string }[];
}

/** Validates the index; relative skill URLs resolve against the index URL. */
export function parseSkillsIndex(json: unknown, indexUrl: string): SkillsIndex {
  const index = SkillsIndexSchema.parse(json);
  const result: SkillsIndex = { schema: index.$schema ?? null, skills: [], skipped: [] };
  const seen = new Set<string>();
  for (const raw of index.skills) {
    const entry = SkillEntrySchema.safeParse(raw);
    if (!entry.success) {
      result.skipped.push({ name: '', reason: t('errors.discovery.skillSkipped.malformed') });
      continue;
    }
    const { name, type, description, url, digest } = entry.data;
    if (type !== 'skill-md') {
      result.skipped.push({
        name,
        reason: t('errors.discovery.skillSkipped.unsupportedType', { type: type.slice(0, 40) }),
      });
      continue;
    }
    if (seen.has(name)) {
      result.skipped.push({ name, reason: t('errors.discovery.skillSkipped.duplicate') });
      continue;
    }
    const absolute = resolveWebUrl(url, indexUrl);
    if (!absolute) {
      result.skipped.push({ name, reason: t('errors.discovery.skillSkipped.notHttp') });
      continue;
    }
    seen.add(name);
    result.skills.push({ name, description, url: absolute, digest });
  }
  return result;
}

export const SkillFrontMatterSchema = z.looseObject({
  name: z.string().trim().min(1).max(128),
  description: z.string().trim().min(1).max(4_000),
});

export interface SkillDocument {
  name: string;
  description: string;
  /** The Markdown after the front matter. */
  body: string;
}

export class SkillFormatError extends Error {
  override name = 'SkillFormatError';
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
// `s`: `.*` then takes every character, so `$` cannot fail and make it give characters back.
const KEY_LINE = /^([A-Z_][\w-]{0,63}):(.*)$/is;

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    return v
      .slice(1, -1)
      .replace(/\\(["\\nt])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  // A trailing " # comment" is YAML syntax, not part of the value (found with indexOf: a regex
  // `\s+#` moved super-linearly over long runs of spaces).
  const comment = v.search(/\s#/);
  return comment < 0 ? v : v.slice(0, comment).trimEnd();
}

/** Flat front matter: `key: value`, `key: "quoted"`, and `key: |` / `key: >` block scalars. */
export function parseFrontMatter(yaml: string): Record<string, string> {
  // No prototype: a `__proto__:` key in hostile front matter is then just a key.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const match = KEY_LINE.exec(lines[i] ?? '');
    if (!match) continue;
    const key = match[1];
    const value = (match[2] ?? '').trimStart();
    if (/^[|>][+-]?$/.test(value.trim())) {
      const block: string[] = [];
      while (
        i + 1 < lines.length &&
        /^(\s+|$)/.test(lines[i + 1] ?? '') &&
        !KEY_LINE.test(lines[i + 1] ?? '')
      ) {
        i += 1;
        block.push((lines[i] ?? '').trim());
      }
      fields[key] = value.trim().startsWith('>') ? block.filter(Boolean).join(' ') : block.join('\n').trim();
    } else if (!Object.hasOwn(fields, key)) {
      fields[key] = unquote(value);
    }
  }
  return fields;
}

export function parseSkillMarkdown(text: string): SkillDocument {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new SkillFormatError(t('errors.discovery.skillNoFrontMatter'));
  const front = SkillFrontMatterSchema.safeParse(parseFrontMatter(match[1] ?? ''));
  if (!front.success) throw new SkillFormatError(t('errors.discovery.skillFrontMatter'));
  return { name: front.data.name, description: front.data.description, body: text.slice(match[0].length) };
}
