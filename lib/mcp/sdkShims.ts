/**
 * The extension's build of `@modelcontextprotocol/client/_shims` (swapped in by build/mcpSdk.ts). The
 * SDK's browser shim makes a bundled copy of @cfworker/json-schema the Client's default validator,
 * which the bundle kept although connectMcp always passes its own; here the default is the
 * bounded validator, so there is one @cfworker copy and no unbounded path.
 */
export { BoundedJsonSchemaValidator as DefaultJsonSchemaValidator } from './boundedValidator';

/** As in the SDK's browser shim: in a browser (and its service worker) fetch throws TypeError on CORS. */
export const CORS_IS_POSSIBLE = true;
