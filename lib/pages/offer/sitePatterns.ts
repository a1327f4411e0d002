// wxt.config.ts imports this file, and the config is loaded without the @/ alias.
// eslint-disable-next-line no-restricted-imports
import { DEFAULT_SITE_MATCHES } from '../../finance/sites';
// eslint-disable-next-line no-restricted-imports
import { STORE_MODE } from '../../contract/buildMode';

/**
 * The sandbox's demo pages on loopback, so a newcomer can try the button against `npm start`.
 * Empty in the store build: the mode is a literal there, so the list is not even bundled.
 */
export const SANDBOX_DEMO_MATCHES: readonly string[] =
  import.meta.env.MODE === STORE_MODE ? [] : ['http://127.0.0.1/demo/*', 'http://localhost/demo/*'];

/**
 * The default finance sites, plus the demo pages in development and test builds only: a store
 * build asks for nothing on loopback. Further sites are added only at run time, after the user
 * grants them in the options page.
 */
export function contentScriptMatches(mode: string): string[] {
  return mode === STORE_MODE ? [...DEFAULT_SITE_MATCHES] : [...DEFAULT_SITE_MATCHES, ...SANDBOX_DEMO_MATCHES];
}
