/**
 * `BENCH_ONLY=idb`: what each step writes to the extension's IndexedDB, read off the profile's own
 * IndexedDB folder: which backend Chromium uses for it, how many bytes setup, a cold and
 * a warm discovery run, a popup open and an event batch add, and what the blank page then pays to
 * reopen the database after the worker stopped and the database went idle.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../sandbox/server';
import { launchExtension, marks, stopWorker } from './browser';
import { DATABASE_IDLE_MS } from './popupWake';
import { spread, type Spread } from './stats';

export interface FolderFile {
  path: string;
  bytes: number;
}

/** One record of the database: its store, key and JSON length (a stand-in for its stored size). */
export interface IdbRecord {
  store: string;
  key: string;
  chars: number;
}

export interface IdbStep {
  step: string;
  /** The records whose JSON changed over the step (new or rewritten with other content). */
  changed: IdbRecord[];
  /** The IndexedDB folder's bytes after the step, and their growth over the step before. */
  bytes: number;
  grown: number;
  /** Of the growth: the LevelDB log (what a reopen replays) and blob files (values over 64 KB). */
  logGrown: number;
  blobGrown: number;
  files: FolderFile[];
}

function listFiles(dir: string, prefix = ''): FolderFile[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return stat.isDirectory()
      ? listFiles(path, `${prefix}${name}/`)
      : [{ path: `${prefix}${name}`, bytes: stat.size }];
  });
}

/** Every record of the extension's database as `store\0key` → JSON, read in an extension page. */
const DUMP_RECORDS = `(async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('playbook-companion');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const out = [];
  for (const name of db.objectStoreNames) {
    const store = db.transaction(name).objectStore(name);
    const [keys, values] = await Promise.all(
      [store.getAllKeys(), store.getAll()].map(
        (request) => new Promise((resolve) => (request.onsuccess = () => resolve(request.result))),
      ),
    );
    keys.forEach((key, i) => out.push([name + '\\u0000' + String(key), JSON.stringify(values[i]) ?? '']));
  }
  db.close();
  return out;
})()`;

/** Writes `bytes` of incompressible Latin-1 text, 32 KB a record (Chromium moves values over 64 KB out to blob files), to the origin's scratch database. */
const WRITE_FILLER = `async (bytes) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('bench-scratch', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('filler');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  for (let done = 0; done < bytes; done += 32768) {
    let text = '';
    for (let i = 0; i < 32768 / 8; i++) text += Math.random().toString(36).slice(2, 10).padEnd(8, 'x');
    await new Promise((resolve, reject) => {
      const transaction = db.transaction('filler', 'readwrite');
      transaction.objectStore('filler').put(text, String(Math.random()));
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
    });
  }
  db.close();
}`;

export interface ReopenBySize {
  fillerKb: number;
  /** The LevelDB log (replayed on open) and tables (compacted, not replayed) at that point. */
  logBytes: number;
  tableBytes: number;
  reopen: Spread;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchIdbWrites(
  extensionDir: string,
  sandbox: Sandbox,
  options: { reopens?: number; fillerKb?: number[]; reopensPerSize?: number } = {},
): Promise<{ steps: IdbStep[]; reopen: Spread; bySize: ReopenBySize[] }> {
  const reopens = options.reopens ?? 10;
  const profile = mkdtempSync(join(tmpdir(), 'idb-bench-'));
  const { context, url, controller, send } = await launchExtension(extensionDir, sandbox, profile);
  const folder = join(profile, 'Default', 'IndexedDB');
  const steps: IdbStep[] = [];
  let before = new Map<string, string>();
  let lastLog = 0;
  let lastBlob = 0;
  const take = async (step: string) => {
    // Chromium writes the log as the transaction commits; a moment lets the last one land.
    await pause(300);
    const files = listFiles(folder).filter((file) => file.path.startsWith('chrome-extension_'));
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    const now = controller.isClosed()
      ? before
      : new Map(await controller.evaluate<[string, string][]>(DUMP_RECORDS));
    const changed = [...now]
      .filter(([id, json]) => before.get(id) !== json)
      .map(([id, json]) => {
        const [store = '', key = ''] = id.split('\u0000');
        return { store, key, chars: json.length };
      });
    before = now;
    const sum = (match: (path: string) => boolean) =>
      files.filter((file) => match(file.path)).reduce((total, file) => total + file.bytes, 0);
    const log = sum((path) => path.endsWith('.log'));
    const blob = sum((path) => path.includes('.indexeddb.blob/'));
    steps.push({
      step,
      bytes,
      grown: bytes - (steps.at(-1)?.bytes ?? 0),
      logGrown: log - lastLog,
      blobGrown: blob - lastBlob,
      changed,
      files,
    });
    lastLog = log;
    lastBlob = blob;
  };
  try {
    await take('setup (settings, key, first list page)');
    await send('runDiscovery', {});
    await take('discovery run, cold');
    await send('runDiscovery', {});
    await take('discovery run, warm (304s)');
    await send('runDiscovery', {});
    await take('discovery run, warm again');
    const opened: Awaited<ReturnType<typeof context.newPage>>[] = [];
    await marks(context, url('popup.html'), ['firstRow'], true, opened);
    await Promise.all(opened.map((page) => page.close()));
    await take('popup open (with its revalidation)');
    const playbooks = (await send('listPlaybooks', {})) as { items?: { id: string }[] };
    await take('first list page read again (listPlaybooks)');
    const id = playbooks.items?.[0]?.id;
    if (id) {
      for (let i = 0; i < 5; i++)
        await fetch(`${sandbox.baseUrl}/__admin/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ playbook_id: id, type: 'playbook.updated' }),
        });
      await send('pollEventsNow', {});
      await take('event batch (5 events, one poll)');
      await send('pollEventsNow', {});
      await take('event poll with nothing new');
    }
    await controller.close();
    const reopen: number[] = [];
    for (let run = 0; run < reopens; run++) {
      await stopWorker(context, url, 'blank.html');
      await pause(DATABASE_IDLE_MS);
      const pages: Awaited<ReturnType<typeof context.newPage>>[] = [];
      const blank = await marks(context, url('blank.html#database'), ['dbOpened'], false, pages);
      await Promise.all(pages.map((page) => page.close()));
      reopen.push(blank.dbOpened! - blank.dbOpenAsked!);
    }
    await take('after the reopens');
    // What a reopen costs as a function of what was written: filler written to a scratch database
    // of the same origin (Chromium keeps one LevelDB per origin for all its databases), then the
    // same reopen of the extension's database.
    const bySize: ReopenBySize[] = [];
    let written = 0;
    for (const target of options.fillerKb ?? []) {
      const pages: Awaited<ReturnType<typeof context.newPage>>[] = [];
      const filler = await context.newPage();
      pages.push(filler);
      await filler.goto(url('blank.html'));
      await filler.evaluate(`(${WRITE_FILLER})(${(target - written) * 1024})`);
      written = target;
      await Promise.all(pages.map((page) => page.close()));
      await pause(300);
      const files = listFiles(folder).filter((file) => file.path.startsWith('chrome-extension_'));
      const times: number[] = [];
      for (let run = 0; run < (options.reopensPerSize ?? 7); run++) {
        await stopWorker(context, url, 'blank.html');
        await pause(DATABASE_IDLE_MS);
        const opened: Awaited<ReturnType<typeof context.newPage>>[] = [];
        const blank = await marks(context, url('blank.html#database'), ['dbOpened'], false, opened);
        await Promise.all(opened.map((page) => page.close()));
        times.push(blank.dbOpened! - blank.dbOpenAsked!);
      }
      bySize.push({
        fillerKb: target,
        logBytes: files
          .filter((file) => file.path.endsWith('.log'))
          .reduce((sum, file) => sum + file.bytes, 0),
        tableBytes: files
          .filter((file) => file.path.endsWith('.ldb'))
          .reduce((sum, file) => sum + file.bytes, 0),
        reopen: spread(times),
      });
    }
    return { steps, reopen: spread(reopen), bySize };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
