/**
 * The user's words for the codes the bottom layers return (lib/contract and lib/finance carry no
 * translations: they run where the locale files are not bundled). Each table is checked by the
 * compiler: a new code without a message does not build.
 */
import type { UrlProblem } from '@/lib/contract/origins';
import type { SiteProblem } from '@/lib/finance/sites';
import { t, type TextKey } from './messages';

const URL_PROBLEMS: Record<UrlProblem, TextKey> = {
  empty: 'errors.url.empty',
  'not-a-url': 'errors.url.notAUrl',
  scheme: 'errors.url.scheme',
  credentials: 'errors.url.credentials',
  insecure: 'errors.url.insecure',
};

const SITE_PROBLEMS: Record<SiteProblem, TextKey> = {
  empty: 'errors.site.empty',
  'too-long': 'errors.site.tooLong',
  scheme: 'errors.site.scheme',
  credentials: 'errors.site.credentials',
  'every-site': 'errors.site.everySite',
  'bad-host': 'errors.site.badHost',
  'bad-wildcard': 'errors.site.badWildcard',
  'not-full-domain': 'errors.site.notFullDomain',
};

/** The sentence for a refused service or API URL. */
export function urlProblemText(problem: UrlProblem): string {
  return t(URL_PROBLEMS[problem]);
}

/** The sentence for a refused site address; `input` is the part it is about, shown as typed. */
export function siteProblemText(problem: SiteProblem, input = ''): string {
  return t(SITE_PROBLEMS[problem], { input });
}
