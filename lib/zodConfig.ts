import { z } from 'zod';

/**
 * Configures zod for the extension: jitless, because the extension's CSP forbids `new Function`,
 * which zod would otherwise try (and fall back from) to compile faster validators. Imported
 * first, for its effect, by every entrypoint that validates.
 */
z.config({ jitless: true });
