/** build/offerWords.ts: the offer's eager words of every locale, from locales/*.yml. */
declare module 'virtual:offer-words' {
  const table: import('./words').OfferWordTable;
  export default table;
}
