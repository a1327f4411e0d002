import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { OUTPUT_DIR, ROOT } from './paths';

/**
 * Checks of the built extension itself (run after the build, inside npm test): the manifest asks
 * for nothing beyond tests/fixtures/manifest/surface.json, and no bundle generates code. The store
 * builds (WXT mode `store`, what `npm run zip` ships) are built here and checked the same way.
 */

type Surface = Record<string, unknown>;
const ALLOWED = JSON.parse(readFileSync(`${ROOT}tests/fixtures/manifest/surface.json`, 'utf8')) as Record<
  string,
  Surface
>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The parts of a manifest that widen what the extension can reach or run. */
function surfaceOf(manifest: Record<string, unknown>): Surface {
  const scripts = (manifest.content_scripts ?? []) as { matches?: string[] }[];
  const resources = (manifest.web_accessible_resources ?? []) as (
    string | { resources?: string[]; matches?: string[]; use_dynamic_url?: boolean }
  )[];
  return {
    permissions: strings(manifest.permissions).sort(),
    optional_permissions: strings(manifest.optional_permissions).sort(),
    host_permissions: strings(manifest.host_permissions).sort(),
    optional_host_permissions: strings(manifest.optional_host_permissions).sort(),
    content_script_matches: [...new Set(scripts.flatMap((script) => script.matches ?? []))].sort(),
    web_accessible_resources: resources
      .flatMap((entry) =>
        typeof entry === 'string'
          ? [entry]
          : (entry.resources ?? []).map(
              (resource) =>
                `${resource} @ ${(entry.matches ?? []).join(' ')}${entry.use_dynamic_url ? ' (dynamic url)' : ''}`,
            ),
      )
      .sort(),
    content_security_policy: manifest.content_security_policy ?? null,
    externally_connectable: manifest.externally_connectable ?? null,
  };
}

/** What `built` has that `allowed` does not: list entries added, or any other value changed. */
function growth(built: Surface, allowed: Surface): string[] {
  const found: string[] = [];
  for (const [field, value] of Object.entries(built)) {
    const permitted = allowed[field];
    if (Array.isArray(value)) {
      const ok = new Set(strings(permitted));
      for (const item of strings(value)) if (!ok.has(item)) found.push(`${field}: ${item}`);
    } else if (JSON.stringify(value) !== JSON.stringify(permitted ?? null)) {
      found.push(`${field}: ${JSON.stringify(value)}`);
    }
  }
  return found;
}

function builtManifest(target: string): Record<string, unknown> | undefined {
  const file = join(OUTPUT_DIR, target, 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const CODE_GENERATION: [string, RegExp][] = [
  ['eval(', /(?<![\w$.])eval\s*\(/],
  ['new Function(', /\bnew\s+Function\s*\(/],
  ['Function("…")', /(?<![\w$.])Function\s*\(\s*["'`]/],
  ['setTimeout("…")', /\bset(?:Timeout|Interval)\s*\(\s*["'`]/],
  ['import(URL)', /\bimport\s*\(\s*["'`]https?:/],
];

test('the growth check itself flags a new permission, host, web-accessible resource and CSP', () => {
  const allowed = ALLOWED['chrome-mv3'];
  const manifest = {
    permissions: ['storage', 'tabs'],
    host_permissions: ['http://127.0.0.1/*', '<all_urls>'],
    web_accessible_resources: [{ resources: ['content-scripts/finance.css'], matches: ['<all_urls>'] }],
    content_security_policy: { extension_pages: "script-src 'self' 'unsafe-eval'" },
  };
  expect(growth(surfaceOf(manifest), allowed)).toEqual([
    'permissions: tabs',
    'host_permissions: <all_urls>',
    'web_accessible_resources: content-scripts/finance.css @ <all_urls>',
    `content_security_policy: ${JSON.stringify(manifest.content_security_policy)}`,
  ]);
});

test('the code-generation scan flags eval and Function and nothing that merely looks alike', () => {
  const flagged = (text: string) =>
    CODE_GENERATION.filter(([, pattern]) => pattern.test(text)).map(([n]) => n);
  expect(flagged('x=eval ("1")')).toEqual(['eval(']);
  expect(flagged('const f=new Function("a","return a")')).toEqual(['new Function(', 'Function("…")']);
  expect(flagged('setTimeout("alert(1)",0)')).toEqual(['setTimeout("…")']);
  expect(flagged('retrieval(x); obj.eval(y); evaluate(z); new FunctionCall()')).toEqual([]);
});

/** blank.html and popup-floor (wxt.config.ts): the floors bench/browser.ts measures the popup against. */
const BENCH_PAGES = /^(blank\.html|popup-floor[.-])/;

const STORE_BUILDS = [
  { target: 'chrome-mv3-store', args: ['wxt', 'build', '--mode', 'store'] },
  { target: 'firefox-mv2-store', args: ['wxt', 'build', '-b', 'firefox', '--mode', 'store'] },
];

/** When a build's manifest was written, or undefined when there is none. */
function builtAt(target: string): number | undefined {
  const manifest = join(OUTPUT_DIR, target, 'manifest.json');
  return existsSync(manifest) ? statSync(manifest).mtimeMs : undefined;
}

test.beforeAll(() => {
  test.setTimeout(240_000);
  // E2E_REUSE_BUILD=1 reuses a store build only if it is no older than the development build the
  // run uses (`npm test` builds that one first): an older store build is of older source.
  const development = builtAt('chrome-mv3') ?? Infinity;
  for (const { target, args } of STORE_BUILDS) {
    const built = builtAt(target);
    if (process.env.E2E_REUSE_BUILD === '1' && built !== undefined && built >= development) continue;
    execFileSync('npx', args, { cwd: ROOT, stdio: 'ignore' });
  }
});

for (const { target } of STORE_BUILDS) {
  test(`the ${target} manifest has no loopback host and no sandbox demo page`, () => {
    const manifest = builtManifest(target);
    expect(manifest, `${OUTPUT_DIR}/${target}/manifest.json`).toBeDefined();
    const surface = surfaceOf(manifest ?? {});
    const reach = [
      ...(surface.permissions as string[]),
      ...(surface.host_permissions as string[]),
      ...(surface.content_script_matches as string[]),
    ];
    expect(reach.filter((entry) => /127\.0\.0\.1|localhost|\/demo\//.test(entry))).toEqual([]);
    // Ground the check: the finance sites are still there.
    expect(surface.content_script_matches).toContain('*://finance.yahoo.com/quote/*');
  });

  test(`the ${target} build ships none of the bench's pages`, () => {
    const files = filesUnder(join(OUTPUT_DIR, target)).map((file) => basename(file));
    expect(files.filter((name) => BENCH_PAGES.test(name))).toEqual([]);
    // Ground the check: it listed a build with the popup in it.
    expect(files).toContain('popup.html');
  });
}

test("the development build has the bench's pages (npm run bench)", () => {
  const files = filesUnder(join(OUTPUT_DIR, 'chrome-mv3')).map((file) => basename(file));
  expect(files.filter((name) => BENCH_PAGES.test(name)).sort()).toEqual([
    'blank.html',
    expect.stringMatching(/^popup-floor-.*\.js$/),
    'popup-floor.html',
  ]);
});

test('the development build keeps the sandbox hosts and demo pages (npm start, e2e)', () => {
  const surface = surfaceOf(builtManifest('chrome-mv3') ?? {});
  expect(surface.host_permissions).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
  expect(surface.content_script_matches).toContain('http://127.0.0.1/demo/*');
});

for (const target of ['chrome-mv3', 'firefox-mv2', ...STORE_BUILDS.map((build) => build.target)]) {
  test(`the ${target} manifest asks for nothing beyond the snapshot`, () => {
    const manifest = builtManifest(target);
    test.skip(!manifest && target !== 'chrome-mv3', `${target} is not built here`);
    expect(manifest, `${OUTPUT_DIR}/${target}/manifest.json`).toBeDefined();
    const surface = surfaceOf(manifest ?? {});
    expect(
      growth(surface, ALLOWED[target]),
      'update tests/fixtures/manifest/surface.json only as a deliberate decision',
    ).toEqual([]);
    // Ground the check: it really read a manifest with content.
    expect((surface.permissions as string[]).length).toBeGreaterThan(0);
  });

  test(`no ${target} bundle evaluates strings as code`, () => {
    const dir = join(OUTPUT_DIR, target);
    test.skip(!existsSync(dir) && target !== 'chrome-mv3', `${target} is not built here`);
    const scripts = filesUnder(dir).filter((file) => /\.(m?js|html)$/.test(file));
    expect(scripts.length).toBeGreaterThan(4);
    const findings: string[] = [];
    for (const file of scripts) {
      const text = readFileSync(file, 'utf8');
      for (const [name, pattern] of CODE_GENERATION) {
        const match = pattern.exec(text);
        if (match)
          findings.push(
            `${file.slice(dir.length + 1)}: ${name} …${text.slice(Math.max(0, match.index - 60), match.index + 40)}…`,
          );
      }
    }
    expect(findings).toEqual([]);
  });
}

for (const target of ['chrome-mv3', 'firefox-mv2', ...STORE_BUILDS.map((build) => build.target)]) {
  test(`the ${target} manifest speaks every locale: default_locale, __MSG_ names, one _locales file per locales/*.yml`, () => {
    const manifest = builtManifest(target);
    test.skip(!manifest && target !== 'chrome-mv3', `${target} is not built here`);
    expect(manifest, `${OUTPUT_DIR}/${target}/manifest.json`).toBeDefined();
    const dir = join(OUTPUT_DIR, target);
    expect(manifest?.default_locale).toBe('en');
    expect(manifest?.name).toBe('__MSG_manifest_name__');
    expect(manifest?.description).toBe('__MSG_manifest_description__');
    const languages = readdirSync(join(ROOT, 'locales'))
      .filter((name) => name.endsWith('.yml'))
      .map((name) => name.slice(0, -'.yml'.length))
      .sort();
    expect(readdirSync(join(dir, '_locales')).sort()).toEqual(languages);
    // Every __MSG_…__ of the manifest (name, description, command descriptions) exists in each language.
    const names = [...JSON.stringify(manifest).matchAll(/__MSG_(\w+)__/g)].map((match) => match[1]);
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const language of languages) {
      const messages = JSON.parse(
        readFileSync(join(dir, '_locales', language, 'messages.json'), 'utf8'),
      ) as Record<string, { message: string }>;
      expect(
        names.filter((name) => !messages[name]?.message),
        `_locales/${language}`,
      ).toEqual([]);
    }
  });
}
