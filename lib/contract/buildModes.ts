/** The WXT mode of the build that goes to the stores (`npm run zip`, `npm run build:store`). */
export const STORE_MODE = 'store';
