// Renders assets/icon.svg to the PNG icons the manifest lists: npx tsx scripts/draw-icons.ts [--preview]
// --preview also writes a 4x pixel view of the 16 px icon and a sheet on light and dark toolbars.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const iconSource = join(repoRoot, 'assets', 'icon.svg');
const iconDir = join(repoRoot, 'public', 'icon');
const previewDir = join(tmpdir(), 'playbook-icon-preview');

const iconSizes = [16, 32, 48, 128] as const;
type IconSize = (typeof iconSizes)[number];

// At 16 px the master's strokes blur, so the SVG's #small drawing, made on a 16 px grid, is shown instead.
const smallVariantMaxSize = 16;

// Chrome's toolbar backgrounds: the icon must read on both.
const toolbarBackgrounds = ['#F1F3F4', '#202124'] as const;

function variantFor(size: number): { shown: string; hidden: string } {
  return size <= smallVariantMaxSize
    ? { shown: 'small', hidden: 'full' }
    : { shown: 'full', hidden: 'small' };
}

function iconPage(svg: string, size: number): string {
  const { shown, hidden } = variantFor(size);
  return `<!doctype html><html><head><style>
    html,body{margin:0;padding:0;background:transparent}
    body>svg{display:block;width:${size}px;height:${size}px}
    #${hidden}{display:none}#${shown}{display:inline}
  </style></head><body>${svg}</body></html>`;
}

async function renderIcon(page: Page, svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(iconPage(svg, size));
  // An SVG that lost its #full or #small drawing would otherwise yield a silently empty icon.
  const { shown } = variantFor(size);
  if ((await page.locator(`#${shown}`).count()) !== 1)
    throw new Error(`assets/icon.svg needs exactly one #${shown}`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

// Nearest-neighbour enlargement, so every pixel of the 16 px icon can be judged.
async function renderPixelView(page: Page, png: Buffer, scale: number): Promise<Buffer> {
  const side = 16 * scale;
  await page.setViewportSize({ width: side, height: side });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">
    <img src="${dataUrl(png)}" width="${side}" height="${side}" style="display:block;image-rendering:pixelated">
  </body></html>`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: side, height: side } });
}

// Every size at 1:1 and 16 px at 4x, on each toolbar colour.
async function renderSheet(page: Page, pngs: ReadonlyMap<IconSize, Buffer>): Promise<Buffer> {
  const cells = [...pngs].map(
    ([size, png]) => `<img src="${dataUrl(png)}" width="${size}" height="${size}">`,
  );
  const small = pngs.get(16);
  if (small)
    cells.push(`<img src="${dataUrl(small)}" width="64" height="64" style="image-rendering:pixelated">`);
  const rows = toolbarBackgrounds
    .map((background) => `<div style="background:${background}">${cells.join('')}</div>`)
    .join('');
  await page.setViewportSize({ width: 400, height: 300 });
  await page.setContent(`<!doctype html><html><head><style>
    body{margin:0;display:inline-block}
    div{display:flex;align-items:center;gap:24px;padding:16px 24px}
  </style></head><body>${rows}</body></html>`);
  return page.locator('body').screenshot();
}

const preview = process.argv.includes('--preview');
const svg = await readFile(iconSource, 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const pngs = new Map<IconSize, Buffer>();
  await mkdir(iconDir, { recursive: true });
  for (const size of iconSizes) {
    const png = await renderIcon(page, svg, size);
    pngs.set(size, png);
    await writeFile(join(iconDir, `${size}.png`), png);
    console.log(`wrote public/icon/${size}.png`);
  }
  if (preview) {
    await mkdir(previewDir, { recursive: true });
    await writeFile(join(previewDir, '16@4x.png'), await renderPixelView(page, pngs.get(16)!, 4));
    await writeFile(join(previewDir, 'sheet.png'), await renderSheet(page, pngs));
    await writeFile(join(previewDir, 'master@512.png'), await renderIcon(page, svg, 512));
    console.log(`wrote previews to ${previewDir}`);
  }
} finally {
  await browser.close();
}
