import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  parseFrontMatter,
  parseSkillMarkdown,
  parseSkillsIndex,
  SkillFormatError,
} from '@/lib/discovery/skills';
import { sha256Hex } from '@/lib/digest';
import { parseSha256Digest, verifySkillDigest } from '@/lib/discovery/verify';

const INDEX_URL = 'https://svc.example/.well-known/agent-skills/index.json';
const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

describe('parseSkillsIndex', () => {
  it('resolves relative URLs and skips unusable entries with a reason', () => {
    const index = parseSkillsIndex(
      {
        $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
        skills: [
          {
            name: 'research',
            type: 'skill-md',
            description: 'R',
            url: 'research/SKILL.md',
            digest: 'sha256:00',
          },
          {
            name: 'abs',
            type: 'skill-md',
            description: 'A',
            url: 'https://cdn.example/abs/SKILL.md',
            digest: 'sha256:11',
          },
          { name: 'archive', type: 'archive', description: 'Z', url: '/z.zip', digest: 'sha256:22' },
          {
            name: 'evil',
            type: 'skill-md',
            description: 'E',
            url: 'javascript:alert(1)',
            digest: 'sha256:33',
          },
          { name: 'research', type: 'skill-md', description: 'dup', url: '/dup', digest: 'sha256:44' },
          { type: 'skill-md' },
          'junk',
        ],
      },
      INDEX_URL,
    );
    expect(index.schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills).toEqual([
      {
        name: 'research',
        description: 'R',
        url: 'https://svc.example/.well-known/agent-skills/research/SKILL.md',
        digest: 'sha256:00',
      },
      { name: 'abs', description: 'A', url: 'https://cdn.example/abs/SKILL.md', digest: 'sha256:11' },
    ]);
    expect(index.skipped.map((s) => s.reason)).toEqual([
      'unsupported type "archive"',
      'url is not http(s)',
      'duplicate name',
      'malformed entry',
      'malformed entry',
    ]);
  });

  it.each([
    ['no skills key', {}],
    ['skills not an array', { skills: {} }],
    ['not an object', null],
  ])('rejects %s', (_name, json) => {
    expect(() => parseSkillsIndex(json, INDEX_URL)).toThrow();
  });
});

describe('SKILL.md', () => {
  it('splits front matter from the Markdown body', () => {
    const skill = parseSkillMarkdown(
      '---\nname: research\ndescription: "Turns a page: into a thesis"\nlicense: MIT\n---\n# Research\n\nBody.\n',
    );
    expect(skill).toEqual({
      name: 'research',
      description: 'Turns a page: into a thesis',
      body: '# Research\n\nBody.\n',
    });
  });

  it.each([
    ['plain', 'name: a\ndescription: b', { name: 'a', description: 'b' }],
    ['single quotes', "name: 'a'\ndescription: 'it''s'", { name: 'a', description: "it's" }],
    ['comment', 'name: a # the name\ndescription: b', { name: 'a', description: 'b' }],
    ['folded block', 'name: a\ndescription: >\n  one\n  two\n', { name: 'a', description: 'one two' }],
    ['literal block', 'name: a\ndescription: |\n  one\n  two\n', { name: 'a', description: 'one\ntwo' }],
    ['first key wins', 'name: a\nname: b\ndescription: c', { name: 'a', description: 'c' }],
    [
      'proto key is just a key',
      '__proto__: x\nname: a\ndescription: b',
      { name: 'a', description: 'b', ['__proto__']: 'x' },
    ],
  ])('front matter: %s', (_name, yaml, expected) => {
    expect(parseFrontMatter(yaml)).toMatchObject(expected);
  });

  it.each([
    ['no front matter', '# Just markdown'],
    ['unclosed front matter', '---\nname: a\ndescription: b\n'],
    ['missing description', '---\nname: a\n---\nbody'],
    ['empty name', '---\nname: ""\ndescription: b\n---\n'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseSkillMarkdown(text)).toThrow(SkillFormatError);
  });
});

describe('skill digests', () => {
  const bytes = new TextEncoder().encode('---\nname: a\ndescription: b\n---\nbody\n');
  const good = `sha256:${sha(bytes)}`;

  it('hashes with WebCrypto exactly as node:crypto does', async () => {
    expect(await sha256Hex(bytes)).toBe(sha(bytes));
    expect(await sha256Hex(new Uint8Array())).toBe(sha(''));
    // A view into a larger buffer hashes only its own bytes.
    const big = new Uint8Array([9, 9, ...bytes, 9]);
    expect(await sha256Hex(big.subarray(2, 2 + bytes.length))).toBe(sha(bytes));
  });

  it.each([
    ['matching digest', bytes, good, 'verified'],
    ['upper-case hex', bytes, good.toUpperCase().replace('SHA256', 'sha256'), 'verified'],
    ['one byte changed', new Uint8Array([...bytes.slice(0, -1), 0x21]), good, 'digest-mismatch'],
    ['extra trailing newline', new Uint8Array([...bytes, 0x0a]), good, 'digest-mismatch'],
    ['empty body', new Uint8Array(), good, 'digest-mismatch'],
    ['fetch failed', null, good, 'missing'],
    ['no prefix', bytes, sha(bytes), 'invalid-digest'],
    ['other algorithm', bytes, `sha512:${sha(bytes)}`, 'invalid-digest'],
    ['short hex', bytes, 'sha256:abc', 'invalid-digest'],
    ['non-hex', bytes, `sha256:${'z'.repeat(64)}`, 'invalid-digest'],
    ['empty digest', bytes, '', 'invalid-digest'],
    ['failed fetch with bad digest', null, 'md5:x', 'invalid-digest'],
  ])('%s → %s', async (_name, body, digest, expected) => {
    expect(await verifySkillDigest(body, digest)).toBe(expected);
  });

  it.each([
    ['sha256:' + 'A'.repeat(64), 'a'.repeat(64)],
    [' sha256:' + 'b'.repeat(64) + ' ', 'b'.repeat(64)],
    ['sha256:' + 'a'.repeat(65), null],
  ])('parseSha256Digest(%j)', (digest, expected) => {
    expect(parseSha256Digest(digest)).toBe(expected);
  });
});
