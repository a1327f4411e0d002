// The build modes live in lib/contract; wxt.config.ts (loaded without the @/ alias) reads this path.
// eslint-disable-next-line no-restricted-imports
export { STORE_MODE } from '../../contract/buildMode';
