/**
 * Why a typed site address was refused: a code, not a sentence. lib/finance/sites.ts gives it (it
 * also runs in pages' content scripts, which carry no translations); lib/i18n/problems.ts words
 * each code. Here, in the bottom layer, so lib/i18n need not import lib/finance.
 */
export type SiteProblem =
  | 'empty'
  | 'too-long'
  | 'scheme'
  | 'credentials'
  | 'every-site'
  | 'bad-host'
  | 'bad-wildcard'
  | 'not-full-domain';
