// wxt.config.ts imports this file, and the config is loaded without the @/ alias.
// eslint-disable-next-line no-restricted-imports
import { DEFAULT_SITE_MATCHES } from '../../finance/sites';
import { STORE_MODE } from './storeMode';

/** The sandbox's demo pages on loopback, so a newcomer can try the button against `npm start`. */
export const SANDBOX_DEMO_MATCHES = ['http://127.0.0.1/demo/*', 'http://localhost/demo/*'];

/**
 * The default finance sites, plus the demo pages in development and test builds only: a store
 * build asks for nothing on loopback. Further sites are added only at run time, after the user
 * grants them in the options page.
 */
export function contentScriptMatches(mode: string): string[] {
  return mode === STORE_MODE ? [...DEFAULT_SITE_MATCHES] : [...DEFAULT_SITE_MATCHES, ...SANDBOX_DEMO_MATCHES];
}
