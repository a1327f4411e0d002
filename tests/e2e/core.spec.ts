import { expect, test } from './helpers/proof';

/**
 * The end-to-end proofs of the background core. Three of them live with the suites they
 * belong to: the 429 burst waited out and the 5xx after commit that leaves exactly one playbook
 * in reliability.spec.ts, the sentinel key in security.spec.ts. This file holds the rest.
 */

interface Skill {
  name: string;
  verification: string;
  body?: unknown[];
}

test.beforeEach(({ sandbox }) => {
  sandbox.resetFaults();
  sandbox.clearRequests();
});

test('a tampered skill digest is reported: that skill is not trusted, the others still verify', async ({
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  // The popup's first read after Save starts a discovery run of its own 1.5 s later. It is let
  // finish first: started before the digest is tampered and done after the tampered run, its
  // clean report would be the stored one the overview below summarises.
  await expect.poll(() => probe.value('getDiscoveryReport')).not.toBeNull();
  const clean = await probe.value<{ documents: { skills: Skill[] } }>('runDiscovery');
  const names = clean.documents.skills.map((skill) => skill.name);
  expect(names.length).toBeGreaterThan(1);
  expect(clean.documents.skills.every((skill) => skill.verification === 'verified')).toBe(true);

  sandbox.setFaults({ tamperedSkillDigest: true });
  const tampered = await probe.value<{ documents: { skills: Skill[] } }>('runDiscovery');
  const failed = tampered.documents.skills.filter((skill) => skill.verification !== 'verified');
  expect(failed).toEqual([expect.objectContaining({ verification: 'digest-mismatch' })]);
  // A skill that failed verification is never shown as content.
  expect(failed[0].body).toBeUndefined();
  expect(tampered.documents.skills.filter((skill) => skill.verification === 'verified')).toHaveLength(
    names.length - 1,
  );
  // The popup's status region summarises it.
  const overview = await probe.value<{ discovery?: { skillsVerified: number; skillsFailed: number } }>(
    'getOverview',
  );
  expect(overview.discovery).toMatchObject({ skillsFailed: 1, skillsVerified: names.length - 1 });
  // The SKILL.md was fetched (verification needs its bytes) without credentials.
  const skillFetches = sandbox.requests().filter((r) => r.path.endsWith('/SKILL.md'));
  expect(skillFetches.length).toBeGreaterThan(0);
  for (const fetch of skillFetches) expect(fetch.headers.authorization).toBeUndefined();
});

test('the service worker wakes from a stop and answers from stored state, with the key still usable', async ({
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  const before = await probe.value<{ key: { savedAt?: number } }>('getState');
  await probe.stopWorker();
  const after = await probe.value<{ key: { savedAt?: number } }>('getState');
  expect(after).toEqual(before);
  sandbox.clearRequests();
  const page = await probe.value<{ items: unknown[] }>('listPlaybooks', {});
  expect(page.items.length).toBeGreaterThan(0);
  expect(sandbox.requests().some((r) => r.headers.authorization === `Bearer ${sandbox.demoKey}`)).toBe(true);
});
