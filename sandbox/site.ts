/** The site origin: discovery documents (ETag, 304, HEAD, CORS *), /status, /apikey and sandbox pages. */
import { demoQuotePage } from './demo';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getCookie, setCookie } from 'hono/cookie';
import { createHash, randomBytes } from 'node:crypto';
import { escapeHtml, htmlPage } from './html';
import { SERVICE_NAME, SUMMARY } from './identity';
import { PLAN_ROWS } from './plans';
import { discoveryDocuments, type DiscoveryDocument } from './content';
import type { AppContext, AppEnv, SandboxContext } from './context';
import { openApiDocument, type Deprecation } from './openapi';
import { newApiKey, type User } from './store';

const CACHE_CONTROL = 'public, max-age=60, must-revalidate';
const SESSION_COOKIE = 'sandbox_session';

export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 27)}"`;
}

/** A form field as text; files and repeated fields read as empty. */
function formText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Serves one public document with validators; HEAD is answered by Hono from the GET route. */
function serveDocument(
  c: AppContext,
  contentType: string,
  body: string,
  extraHeaders: Record<string, string> = {},
): Response {
  const etag = strongEtag(body);
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': CACHE_CONTROL, ...extraHeaders };
  if (etagMatches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': contentType } });
}

export function deprecations(ctx: SandboxContext): Deprecation[] {
  const sunset = ctx.faults.sunset();
  const list: Deprecation[] = [{ operationId: 'listPlaybooksLegacy', sunset, replacedBy: 'listPlaybooks' }];
  if (ctx.faults.config.deprecateListPlaybooks)
    list.push({ operationId: 'listPlaybooks', sunset, replacedBy: 'graphql' });
  if (ctx.faults.config.openapiTamper.includes('pause-replaced-by-activate'))
    list.push({ operationId: 'pausePlaybook', sunset, replacedBy: 'activatePlaybook' });
  if (ctx.faults.config.openapiTamper.includes('read-replaced-by-post'))
    list.push({ operationId: 'getPlaybook', sunset, replacedBy: 'batchGetPlaybooks' });
  return list;
}

export function createSite(ctx: SandboxContext): Hono<AppEnv> {
  const site = new Hono<AppEnv>();
  const sessions = new Map<string, string>();
  let cached: { key: string; docs: Map<string, DiscoveryDocument> } | null = null;
  const docs = () => {
    const f = ctx.faults.config;
    const hostile = {
      llmsHeadingChars: f.llmsHeadingChars,
      hostileMarkdown: f.hostileMarkdown,
      endlessSkillFrontMatter: f.endlessSkillFrontMatter,
      hostileCards: f.hostileCards,
    };
    const key = JSON.stringify([ctx.baseUrl, f.tamperedSkillDigest, hostile]);
    if (!cached || cached.key !== key)
      cached = {
        key,
        docs: discoveryDocuments({
          baseUrl: ctx.baseUrl,
          apiUrl: ctx.apiUrl,
          tamperedSkillDigest: f.tamperedSkillDigest,
          limits: ctx.dialect.limits,
          hostile,
        }),
      };
    return cached.docs;
  };

  const publicCors = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['If-None-Match', 'Accept'],
    exposeHeaders: ['ETag'],
    maxAge: 600,
  });
  for (const path of [...docs().keys(), '/openapi.json', '/status']) site.use(path, publicCors);

  site.get('/openapi.json', (c) =>
    serveDocument(
      c,
      'application/json',
      JSON.stringify(
        openApiDocument({
          baseUrl: ctx.baseUrl,
          apiUrl: ctx.apiUrl,
          deprecations: deprecations(ctx),
          dialect: ctx.dialect,
          tamper: ctx.faults.config.openapiTamper,
          serversUrl: ctx.faults.config.serversUrl,
        }),
        null,
        2,
      ),
    ),
  );

  site.get('/status', (c) => {
    const accept = c.req.header('accept') ?? '';
    if (/application\/json/.test(accept) && !/text\/html/.test(accept))
      return serveDocument(c, 'application/json', JSON.stringify(ctx.status), { Vary: 'Accept' });
    const s = ctx.status;
    const rows = s.components
      .map(
        (comp) =>
          `<tr><th scope="row">${escapeHtml(comp.name)}</th><td class="${comp.status === 'operational' ? 'ok' : escapeHtml(comp.status)}">${escapeHtml(comp.status)}</td></tr>`,
      )
      .join('');
    const page = htmlPage(
      'Service status',
      `<section aria-labelledby="overall"><h2 id="overall">Overall: <span class="${s.status === 'operational' ? 'ok' : s.status}">${escapeHtml(s.status)}</span></h2>
<table><caption>Components</caption><thead><tr><th scope="col">Component</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>
<p>Updated <time datetime="${escapeHtml(s.updated_at)}">${escapeHtml(s.updated_at)}</time>. Machine-readable: request this page with <code>Accept: application/json</code>.</p></section>`,
    );
    return serveDocument(c, 'text/html; charset=utf-8', page, { Vary: 'Accept' });
  });

  site.get('/', (c) =>
    c.html(
      htmlPage(
        SERVICE_NAME,
        `<p>${escapeHtml(SUMMARY)}</p><h2>Plans</h2><ul>${PLAN_ROWS.map((p) => `<li>${escapeHtml(p.name)}: ${escapeHtml(p.price)}/month</li>`).join('')}</ul>
<h2>For developers and agents</h2><ul>${[
          '/llms.txt',
          '/openapi.json',
          '/api-docs',
          '/pricing.md',
          '/auth.md',
          '/.well-known/mcp/server-card.json',
          '/.well-known/agent-skills/index.json',
          '/sandbox.md',
        ]
          .map((p) => `<li><a href="${p}">${p}</a></li>`)
          .join('')}</ul>`,
      ),
    ),
  );

  site.get('/demo/quote/:symbol', (c) => {
    const page = demoQuotePage(c.req.param('symbol'));
    return c.html(page.html, page.status);
  });

  // --- /apikey: sign in, then create a key that is shown once -----------------------------------
  const signedIn = (c: AppContext): User | null => {
    const session = getCookie(c, SESSION_COOKIE);
    const userId = session ? sessions.get(session) : undefined;
    return userId ? ctx.store.getUser(userId) : null;
  };
  const sameOrigin = (c: AppContext) => {
    const origin = c.req.header('origin');
    return !origin || origin === ctx.baseUrl;
  };
  const apiKeyPage = (user: User | null, message = '', newKey?: string) =>
    htmlPage(
      'API keys',
      user
        ? `<p>Signed in as <strong>${escapeHtml(user.name)}</strong> (${escapeHtml(user.email)}).</p>
${newKey ? `<section aria-labelledby="new-key-heading" class="note"><h2 id="new-key-heading">Your new API key</h2><p>Copy it now: it is shown once and the service keeps only its hash.</p><p><code id="new-api-key" aria-label="New API key">${escapeHtml(newKey)}</code></p></section>` : ''}
<form method="post" action="/apikey/keys"><label for="label">Key name</label><input id="label" name="label" required maxlength="80" value="Browser extension">
<button type="submit">Create key</button></form>
<form method="post" action="/apikey/sign-out"><button type="submit">Sign out</button></form>`
        : `${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}<p>Sign in to create an API key for the extension or your own scripts.</p>
<form method="post" action="/apikey/sign-in"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
    );
  site.get('/apikey', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.html(apiKeyPage(signedIn(c)));
  });
  site.post('/apikey/sign-in', async (c) => {
    if (!sameOrigin(c)) return c.text('Cross-origin form posts are refused.', 403);
    const form = await c.req.parseBody();
    const user = ctx.store.signIn(formText(form.email), formText(form.password));
    if (!user) return c.html(apiKeyPage(null, 'The email or password is wrong.'), 401);
    const session = randomBytes(24).toString('base64url');
    sessions.set(session, user.id);
    setCookie(c, SESSION_COOKIE, session, { httpOnly: true, sameSite: 'Strict', path: '/apikey' });
    return c.redirect('/apikey', 303);
  });
  site.post('/apikey/sign-out', (c) => {
    const session = getCookie(c, SESSION_COOKIE);
    if (session) sessions.delete(session);
    setCookie(c, SESSION_COOKIE, '', { httpOnly: true, sameSite: 'Strict', path: '/apikey', maxAge: 0 });
    return c.redirect('/apikey', 303);
  });
  site.post('/apikey/keys', async (c) => {
    if (!sameOrigin(c)) return c.text('Cross-origin form posts are refused.', 403);
    const user = signedIn(c);
    if (!user) return c.html(apiKeyPage(null, 'Sign in first.'), 401);
    const form = await c.req.parseBody();
    const key = newApiKey();
    ctx.store.addApiKey(user.id, key, (formText(form.label) || 'API key').slice(0, 80));
    c.header('Cache-Control', 'no-store');
    return c.html(apiKeyPage(user, '', key), 201);
  });

  // --- pages the API hands out: brokerage linking and checkout ----------------------------------
  site.get('/sandbox/brokerage-link/:token', (c) => {
    const link = ctx.store.useAccountLink(c.req.param('token'), 'brokerage');
    if (!link)
      return c.html(htmlPage('Link not found', '<p>This brokerage link is unknown or expired.</p>'), 404);
    ctx.store.setBrokerageLinked(link.userId, true);
    return c.html(
      htmlPage(
        'Brokerage linked',
        `<p>Your sandbox brokerage (${escapeHtml(link.detail)}) is now linked. You can close this tab and activate a playbook.</p><p>No real account or money is involved.</p>`,
      ),
    );
  });
  site.get('/sandbox/checkout/:token', (c) => {
    const link = ctx.store.useAccountLink(c.req.param('token'), 'checkout');
    if (!link)
      return c.html(
        htmlPage('Checkout not found', '<p>This checkout session is unknown or expired.</p>'),
        404,
      );
    const plan = PLAN_ROWS.find((p) => p.id === link.detail);
    ctx.store.setPlan(link.userId, link.detail);
    return c.html(
      htmlPage(
        'Checkout complete',
        `<p>Your plan is now <strong>${escapeHtml(plan?.name ?? link.detail)}</strong> (${escapeHtml(plan?.price ?? '')}/month). Sandbox: no payment was taken.</p>`,
      ),
    );
  });

  site.get('/:path{.+}', (c) => {
    const doc = docs().get(c.req.path);
    if (!doc) return c.notFound();
    return serveDocument(c, doc.contentType, doc.body);
  });
  return site;
}
