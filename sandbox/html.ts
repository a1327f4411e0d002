/** The sandbox's own small HTML pages: escaping and one accessible page frame. */
import { DISCLAIMER, SERVICE_NAME } from './identity';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.6rem}a{color:#0b5cad}table{border-collapse:collapse}td,th{border:1px solid #c9d1d9;padding:.3rem .6rem;text-align:left}
.note{background:#f3f6f9;border-left:4px solid #0b5cad;padding:.5rem 1rem}label{display:block;margin:.6rem 0 .2rem}
input,select{font:inherit;padding:.3rem}button{font:inherit;padding:.4rem 1rem;margin-top:.8rem}
.ok{color:#116329}.degraded{color:#9a6700}.outage{color:#cf222e}code{background:#f3f6f9;padding:0 .2rem}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}.note,code{background:#161b22}a{color:#58a6ff}}`;

/** A small accessible page: one h1, a main landmark, no external assets. `bodyHtml` must be escaped already. */
export function htmlPage(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · ${SERVICE_NAME}</title><style>${PAGE_STYLE}</style></head>
<body><header><p><a href="/">${SERVICE_NAME}</a> · <a href="/api-docs">API docs</a> · <a href="/status">Status</a> · <a href="/apikey">API keys</a></p></header>
<main><h1>${escapeHtml(title)}</h1>
${bodyHtml}
</main><footer><p class="note">${DISCLAIMER}</p></footer></body></html>
`;
}
