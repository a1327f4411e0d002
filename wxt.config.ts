import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // Explicit imports everywhere: a reader sees where every name comes from.
  imports: false,
  vite: () => ({ plugins: [preact()] }),
});
