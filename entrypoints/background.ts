import '@/lib/zodConfig';
import { defineBackground } from 'wxt/utils/define-background';
import { startBackground } from '@/lib/background';

// A classic worker (no `type: 'module'`): WXT builds it alone into one file, sharing no chunks
// with the pages, which is smaller and one request when the worker wakes.
export default defineBackground({ main: startBackground });
