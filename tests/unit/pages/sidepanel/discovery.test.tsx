// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpToolBrowser } from '@/lib/pages/sidepanel/McpToolBrowser';
import { buildArgs, contentBlocksOf, formModelOf, initialValues } from '@/lib/pages/sidepanel/schemaForm';

afterEach(cleanup);

const SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'Words to look for' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    sort: { enum: ['new', 'top'], default: 'top' },
    exact: { type: 'boolean' },
  },
  required: ['query'],
};

describe('formModelOf', () => {
  it('turns a flat schema into fields with required flags and defaults', () => {
    const model = formModelOf(SEARCH_SCHEMA);
    expect(model.kind).toBe('fields');
    if (model.kind !== 'fields') return;
    expect(model.fields.map((f) => [f.name, f.kind, f.required, f.default])).toEqual([
      ['query', 'string', true, undefined],
      ['limit', 'integer', false, 10],
      ['sort', 'enum', false, 'top'],
      ['exact', 'boolean', false, undefined],
    ]);
    expect(initialValues(model)).toEqual({ query: '', limit: '10', sort: 'top', exact: '' });
  });

  it.each([
    ['nested object', { type: 'object', properties: { a: { type: 'object' } } }],
    ['array', { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }],
    ['union', { type: 'object', properties: { a: { type: ['string', 'null'] } } }],
    ['oneOf', { oneOf: [{ type: 'object' }] }],
    ['mixed enum', { type: 'object', properties: { a: { enum: ['x', { y: 1 }] } } }],
    ['not an object', { type: 'string' }],
    ['null', null],
    ['a string', 'schema'],
  ])('falls back to JSON for %s', (_name, schema) => {
    expect(formModelOf(schema).kind).toBe('json');
  });

  it('treats a schema without properties as an empty form', () => {
    expect(formModelOf({ type: 'object' })).toEqual({ kind: 'fields', fields: [] });
  });
});

describe('buildArgs', () => {
  const model = formModelOf(SEARCH_SCHEMA);
  it.each([
    [
      { query: 'AI', limit: '5', sort: 'new', exact: 'true' },
      { ok: true, args: { query: 'AI', limit: 5, sort: 'new', exact: true } },
    ],
    [
      { query: 'AI', limit: '', sort: '', exact: '' },
      { ok: true, args: { query: 'AI' } },
    ],
    [
      { query: '', limit: '5' },
      { ok: false, errors: { query: 'Required.' } },
    ],
    [
      { query: 'x', limit: '2.5' },
      { ok: false, errors: { limit: 'Enter a whole number.' } },
    ],
    [
      { query: 'x', limit: '0' },
      { ok: false, errors: { limit: 'At least 1.' } },
    ],
    [
      { query: 'x', limit: '51' },
      { ok: false, errors: { limit: 'At most 50.' } },
    ],
    [
      { query: 'x', limit: 'ten' },
      { ok: false, errors: { limit: 'Enter a number.' } },
    ],
    [
      { query: 'x', sort: 'worst' },
      { ok: false, errors: { sort: 'Choose one of the options.' } },
    ],
  ])('%j → %j', (values, expected) => {
    expect(buildArgs(model, values)).toEqual(expected);
  });

  it.each([
    ['{"a": [1, 2]}', { ok: true, args: { a: [1, 2] } }],
    ['[1]', { ok: false }],
    ['nope', { ok: false }],
    ['null', { ok: false }],
  ])('JSON fallback %s', (json, expected) => {
    expect(buildArgs({ kind: 'json' }, { __json: json })).toMatchObject(expected);
  });
});

describe('contentBlocksOf', () => {
  it('shows text as text and JSON (in text or not) pretty-printed', () => {
    expect(
      contentBlocksOf([
        { type: 'text', text: 'hello <b>' },
        { type: 'text', text: '{"a":1}' },
        { type: 'image', data: 'xx', mimeType: 'image/png' },
      ]),
    ).toEqual([
      { kind: 'text', text: 'hello <b>' },
      { kind: 'json', text: '{\n  "a": 1\n}' },
      { kind: 'json', text: '{\n  "type": "image",\n  "data": "xx",\n  "mimeType": "image/png"\n}' },
    ]);
  });
});

describe('McpToolBrowser', () => {
  const tool = {
    name: 'search',
    title: 'Search',
    description: 'Find',
    readOnly: true,
    inputSchema: SEARCH_SCHEMA,
  };

  it('calls a tool with the arguments the generated form built, and renders the result as text', () => {
    const onCall = vi.fn();
    const { rerender } = render(<McpToolBrowser tools={[tool]} calls={{}} onCall={onCall} />);
    fireEvent.input(screen.getByRole('textbox', { name: 'query (required)' }), {
      target: { value: 'chips' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Call search' }));
    expect(onCall).toHaveBeenCalledWith('search', { query: 'chips', limit: 10, sort: 'top' });

    rerender(
      <McpToolBrowser
        tools={[tool]}
        calls={{
          search: { status: 'done', content: [{ type: 'text', text: '<script>x</script>' }], isError: false },
        }}
        onCall={onCall}
      />,
    );
    const result = screen.getByRole('region', { name: 'Result of search' });
    expect(result.textContent).toContain('<script>x</script>');
    expect(result.querySelector('script')).toBeNull();
  });

  it('does not call with missing required fields, and refuses tools that are not read-only', () => {
    const onCall = vi.fn();
    render(
      <McpToolBrowser
        tools={[tool, { ...tool, name: 'write', readOnly: false }]}
        calls={{}}
        onCall={onCall}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Call search' }));
    expect(onCall).not.toHaveBeenCalled();
    expect(screen.getByText('Required.')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Call write' }).disabled).toBe(true);
  });
});
