import { describe, expect, it } from 'vitest';
import { parseOpenApiDocument, routesOverlap, WRITE_OPERATIONS, writeReachedBy } from '@/lib/api';
import { writesDocument } from './support';

describe('which route a path can reach', () => {
  it.each([
    ['/playbooks/pb_1/activate', '/playbooks/{id}/activate', true],
    ['/Playbooks/PB_1/Activate/', '/playbooks/{id}/activate', true],
    ['/playbooks/{x}/live:{verb}', '/playbooks/{id}/live:stop', true],
    ['/playbooks/pb_1/live:stop', '/playbooks/{id}/live:{verb}', true],
    ['/playbooks/batch-get', '/playbooks/{id}/activate', false],
    ['/playbooks/pb_1/activatex', '/playbooks/{id}/activate', false],
    ['/graphql', '/playbooks', false],
  ])('%s and %s overlap: %s', (a, b, overlap) => expect(routesOverlap(a, b)).toBe(overlap));

  const doc = parseOpenApiDocument(writesDocument());
  it.each([
    ['POST', 'https://api.example.test/v1/playbooks/pb_1/pause', 'pausePlaybook'],
    ['POST', 'https://api.example.test/v1/PLAYBOOKS/pb%5F1/activate/', 'activatePlaybook'],
    ['POST', 'https://api.example.test/v1/playbooks', 'createPlaybook'],
    ['POST', 'https://api.example.test/v1/graphql', undefined],
    ['GET', 'https://api.example.test/v1/playbooks/pb_1/pause', undefined],
  ] as const)('a %s to %s reaches the write %s', (method, url, write) =>
    expect(writeReachedBy(doc, WRITE_OPERATIONS, method, url, 'https://api.example.test/v1')).toBe(write),
  );
});
