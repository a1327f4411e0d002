import { DEFAULT_SITE_MATCHES } from '@/lib/finance/sites';

/**
 * The default finance sites, plus the sandbox's demo pages on loopback so a newcomer can try the
 * button against `npm start` with no outside site. Further sites are added only at run time,
 * after the user grants them in the options page.
 */
export const SANDBOX_DEMO_MATCHES = ['http://127.0.0.1/demo/*', 'http://localhost/demo/*'];
export const CONTENT_SCRIPT_MATCHES = [...DEFAULT_SITE_MATCHES, ...SANDBOX_DEMO_MATCHES];
