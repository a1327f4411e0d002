import { z } from 'zod';

/**
 * The extension's CSP forbids `new Function`; zod would otherwise try it (and fall back) to
 * compile faster validators. Import this first in every entrypoint that validates.
 */
z.config({ jitless: true });
