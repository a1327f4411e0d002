/**
 * llmstxt.org files (`# Name`, `> summary`, `## Section` lists of `- [title](url): note`) parsed
 * into sections and links. Hostile input is bounded: over-long lines are skipped, counts are
 * capped, and only http(s) link targets survive (resolved against the file's own URL).
 */
import { z } from 'zod';
import { resolveWebUrl } from './urls';

const MAX_LINE_LENGTH = 8_192;
const MAX_SECTIONS = 200;
const MAX_LINKS = 2_000;
const MAX_TITLE = 500;
const MAX_TEXT = 4_000;

export const LlmsLinkSchema = z.object({
  title: z.string().max(MAX_TITLE),
  url: z.url({ protocol: /^https?$/ }),
  note: z.string().max(MAX_TEXT),
});
export const LlmsSectionSchema = z.object({
  title: z.string().max(MAX_TITLE),
  links: z.array(LlmsLinkSchema),
});
export const LlmsTxtSchema = z.object({
  name: z.string().max(MAX_TITLE),
  summary: z.string().max(MAX_TEXT),
  details: z.string().max(MAX_TEXT),
  sections: z.array(LlmsSectionSchema).max(MAX_SECTIONS),
});
export type LlmsSection = z.infer<typeof LlmsSectionSchema>;
export type LlmsTxt = z.infer<typeof LlmsTxtSchema>;

// Bounded character classes, each next to a delimiter it cannot match, and `s` so `$` never fails
// after `.*`: no quantifier can trade characters with its neighbour, so matching is linear.
const LINK_LINE = /^[-*+]\s+\[([^\]]{0,500})\]\(\s*([^\s)]{1,4096})(?:\s+"[^"]{0,500}")?\s*\)(?::(.*))?$/s;

/**
 * An ATX heading (`## Title ##`) as level and title, or null. Read with string operations, not a
 * regex: the old `^(#{1,6})\s+(.*?)\s*#*\s*$` was cubic on a long run of spaces (1,500: 2.2 s).
 */
export function readHeading(line: string): { level: number; title: string } | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 35 /* # */) level += 1;
  if (level === 0 || level > 6) return null;
  const rest = line.slice(level);
  if (!/^\s/.test(rest)) return null;
  let title = rest.trim();
  // A closing run of `#` counts only when whitespace (or nothing) stands before it.
  let end = title.length;
  while (end > 0 && title.charCodeAt(end - 1) === 35) end -= 1;
  if (end === 0) title = '';
  else if (end < title.length && /\s/.test(title[end - 1] ?? '')) title = title.slice(0, end).trimEnd();
  return { level, title };
}

function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export function parseLlmsTxt(text: string, documentUrl: string): LlmsTxt {
  const result: LlmsTxt = { name: '', summary: '', details: '', sections: [] };
  const summaryLines: string[] = [];
  const detailLines: string[] = [];
  let current: LlmsSection | null = null;
  let linkCount = 0;
  let seenSection = false;

  for (const rawLine of text.split(/\r?\n/)) {
    if (rawLine.length > MAX_LINE_LENGTH) continue;
    const line = rawLine.trim();
    if (line.length === 0) continue;

    const heading = readHeading(line);
    if (heading) {
      const level = heading.level;
      const title = clip(heading.title, MAX_TITLE);
      if (level === 1 && !result.name && !seenSection) {
        result.name = title;
      } else if (level === 2) {
        seenSection = true;
        if (result.sections.length >= MAX_SECTIONS) {
          current = null;
          continue;
        }
        current = { title, links: [] };
        result.sections.push(current);
      }
      continue;
    }

    if (!seenSection && line.startsWith('>')) {
      if (detailLines.length === 0) summaryLines.push(line.replace(/^>\s?/, ''));
      continue;
    }

    const link = LINK_LINE.exec(line);
    if (link) {
      if (linkCount >= MAX_LINKS) continue;
      const url = resolveWebUrl(link[2] ?? '', documentUrl);
      if (!url) continue;
      if (!current) {
        // Links before any `##` heading still count; they get an untitled section.
        current = { title: '', links: [] };
        result.sections.push(current);
        seenSection = true;
      }
      current.links.push({ title: clip(link[1] ?? '', MAX_TITLE), url, note: clip(link[3] ?? '', MAX_TEXT) });
      linkCount += 1;
      continue;
    }

    if (!seenSection) detailLines.push(line);
  }

  result.summary = clip(summaryLines.join(' '), MAX_TEXT);
  result.details = clip(detailLines.join(' '), MAX_TEXT);
  return LlmsTxtSchema.parse(result);
}
