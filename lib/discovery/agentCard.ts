/**
 * The agent card (`/agent.json`): lenient about unknown keys because agent cards are a moving
 * draft, strict about what the extension shows (links must be http(s), resolved against the card).
 */
import { z } from 'zod';
import { resolveWebUrl } from './urls';

const Text = z.string().max(2_000);

const RawLink = z.looseObject({
  rel: Text.optional(),
  href: z.string().max(4_096),
  type: Text.optional(),
  title: Text.optional(),
});

const RawSkill = z.union([
  z.string().max(200),
  z.looseObject({
    name: z.string().max(200).optional(),
    id: z.string().max(200).optional(),
    description: Text.optional(),
  }),
]);

const RawAgentCardSchema = z.looseObject({
  name: z.string().min(1).max(200),
  description: Text.optional(),
  version: Text.optional(),
  url: z.string().max(4_096).optional(),
  capabilities: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  links: z.array(z.unknown()).max(500).optional(),
  skills: z.array(RawSkill).max(500).optional(),
});

export interface AgentCardLink {
  rel: string;
  href: string;
  type: string;
}

export interface AgentCardSkill {
  name: string;
  description: string;
}

export interface AgentCard {
  name: string;
  description: string;
  version: string;
  url: string | null;
  /** Capability names the card declares (object keys with a truthy value, or array entries). */
  capabilities: string[];
  links: AgentCardLink[];
  skills: AgentCardSkill[];
}

function capabilityNames(capabilities: Record<string, unknown> | unknown[] | undefined): string[] {
  if (!capabilities) return [];
  if (Array.isArray(capabilities))
    return capabilities.filter((c): c is string => typeof c === 'string').slice(0, 100);
  return Object.entries(capabilities)
    .filter(([, value]) => Boolean(value))
    .map(([name]) => name)
    .slice(0, 100);
}

/** Validates and normalizes a parsed agent card; throws a ZodError when `name` is missing. */
export function parseAgentCard(json: unknown, cardUrl: string): AgentCard {
  const card = RawAgentCardSchema.parse(json);
  const links: AgentCardLink[] = [];
  for (const entry of card.links ?? []) {
    // One malformed link is skipped rather than rejecting the whole card.
    const link = RawLink.safeParse(entry);
    if (!link.success) continue;
    const href = resolveWebUrl(link.data.href, cardUrl);
    if (href) links.push({ rel: link.data.rel ?? '', href, type: link.data.type ?? '' });
  }
  const skills = (card.skills ?? []).map((skill) =>
    typeof skill === 'string'
      ? { name: skill, description: '' }
      : { name: skill.name ?? skill.id ?? '', description: skill.description ?? '' },
  );
  return {
    name: card.name,
    description: card.description ?? '',
    version: card.version ?? '',
    url: card.url ? resolveWebUrl(card.url, cardUrl) : null,
    capabilities: capabilityNames(card.capabilities),
    links,
    skills: skills.filter((skill) => skill.name.length > 0),
  };
}
