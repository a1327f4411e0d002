// Code passed to page.evaluate / worker.evaluate runs inside the extension, where `chrome` exists.
declare const chrome: typeof import('@wxt-dev/browser').browser;
