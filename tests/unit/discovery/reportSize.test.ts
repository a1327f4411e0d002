import { beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache } from '@/lib/discovery/cache';
import type { DiscoveryReport } from '@/lib/discovery/report';
import { REPORT_LIMITS, runDiscovery } from '@/lib/discovery/run';
import { FakeService, healthyDocuments, sha256, steppingClock } from './fakeService';

/**
 * Sizes a service can inflate: one report is stored, sent over messaging and
 * lexed when the side panel opens, so what it keeps is bounded whatever the service serves.
 */
beforeEach(() => clearDiscoveryCache());

function skillOf(name: string, bodyChars: number): string {
  return `---\nname: ${name}\ndescription: The ${name} skill\n---\n${'word '.repeat(Math.ceil(bodyChars / 5))}\n`;
}

function serviceWithSkills(count: number, bodyChars: number): FakeService {
  const documents = healthyDocuments();
  const entries = Array.from({ length: count }, (_, index) => {
    const name = `skill-${index}`;
    const body = skillOf(name, bodyChars);
    documents[`/.well-known/agent-skills/${name}/SKILL.md`] = { body, contentType: 'text/markdown' };
    return { name, type: 'skill-md', description: name, url: `${name}/SKILL.md`, digest: sha256(body) };
  });
  documents['/.well-known/agent-skills/index.json'] = {
    body: JSON.stringify({ skills: entries }),
    contentType: 'application/json',
  };
  return new FakeService(documents);
}

function keptMarkdown(report: DiscoveryReport): number {
  let chars = 0;
  for (const source of Object.values(report.documents.markdownSources)) chars += source.text.length;
  for (const skill of report.documents.skills) chars += skill.body?.text.length ?? 0;
  return chars;
}

function run(service: FakeService) {
  return runDiscovery({ baseUrl: `${service.base}/`, fetch: service.fetch, now: steppingClock() });
}

describe('the discovery report is bounded', () => {
  it('50 verified skills of 150 KB: the report keeps no more than its Markdown limit, and says so', async () => {
    const report = await run(serviceWithSkills(50, 150_000));
    expect(report.documents.skills).toHaveLength(50);
    expect(report.documents.skills.every((skill) => skill.verification === 'verified')).toBe(true);
    // 7.5 MB served; the whole report, as stored and sent, stays under 3 MB.
    expect(JSON.stringify(report).length).toBeLessThan(3_000_000);
    expect(keptMarkdown(report)).toBeLessThanOrEqual(REPORT_LIMITS.maxMarkdownChars);
    const left = report.documents.skills.filter((skill) => !skill.body);
    expect(left.length).toBeGreaterThan(30);
    for (const skill of left) expect(skill.error).toMatch(/^Not kept: the discovery report already holds/);
  });

  it('a verified skill longer than a skill may show is kept without its text, with the reason', async () => {
    const report = await run(serviceWithSkills(1, REPORT_LIMITS.maxSkillBodyChars + 10_000));
    const [skill] = report.documents.skills;
    expect(skill?.verification).toBe('verified');
    expect(skill?.body).toBeUndefined();
    expect(skill?.error).toMatch(/is longer than the .* a skill may show; it is not kept\.$/);
  });
});
