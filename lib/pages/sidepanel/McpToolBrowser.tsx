import { useMemo, useState } from 'preact/hooks';
import type { McpToolSummary } from '@/lib/mcp/client';
import { buildArgs, contentBlocksOf, formModelOf, initialValues, type FormModel } from './schemaForm';
import { ErrorMessage } from '@/components/ErrorMessage';

export interface ToolCallState {
  status: 'calling' | 'done' | 'failed';
  content?: unknown;
  isError?: boolean;
  error?: string;
}

export interface McpToolBrowserProps {
  tools?: McpToolSummary[];
  serverName?: string;
  protocolVersion?: string;
  error?: string;
  calls: Record<string, ToolCallState | undefined>;
  onCall: (name: string, args: Record<string, unknown>) => void;
}

function ToolForm({
  tool,
  call,
  onCall,
}: {
  tool: McpToolSummary;
  call?: ToolCallState;
  onCall: McpToolBrowserProps['onCall'];
}) {
  const model: FormModel = useMemo(() => formModelOf(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(model));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));
  const id = (name: string) => `tool-${tool.name}-${name}`;
  return (
    <form
      class="stack"
      aria-label={`Call ${tool.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        const built = buildArgs(model, values);
        setErrors(built.ok ? {} : built.errors);
        if (built.ok) onCall(tool.name, built.args);
      }}
    >
      {model.kind === 'json' ? (
        <label>
          Arguments (JSON)
          <textarea
            rows={4}
            value={values.__json}
            onInput={(event) => set('__json', event.currentTarget.value)}
            aria-invalid={errors.__json ? true : undefined}
          />
          {errors.__json ? <span class="error">{errors.__json}</span> : null}
        </label>
      ) : (
        model.fields.map((field) => (
          <div key={field.name} class="stack field">
            {field.kind === 'boolean' ? (
              <label class="row">
                <input
                  type="checkbox"
                  id={id(field.name)}
                  checked={values[field.name] === 'true'}
                  onChange={(event) => set(field.name, event.currentTarget.checked ? 'true' : 'false')}
                />
                {field.name}
              </label>
            ) : (
              <label for={id(field.name)}>
                {field.name}
                {field.required ? ' (required)' : ''}
              </label>
            )}
            {field.kind === 'enum' ? (
              <select
                id={id(field.name)}
                value={values[field.name]}
                onChange={(event) => set(field.name, event.currentTarget.value)}
              >
                {field.required ? null : <option value="">(none)</option>}
                {field.options.map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : field.kind === 'boolean' ? null : (
              <input
                id={id(field.name)}
                type="text"
                inputMode={
                  field.kind === 'string' ? 'text' : field.kind === 'integer' ? 'numeric' : 'decimal'
                }
                aria-required={field.required}
                value={values[field.name]}
                aria-invalid={errors[field.name] ? true : undefined}
                onInput={(event) => set(field.name, event.currentTarget.value)}
              />
            )}
            {field.description ? <span class="hint">{field.description}</span> : null}
            {errors[field.name] ? <span class="error">{errors[field.name]}</span> : null}
          </div>
        ))
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={call?.status === 'calling' || !tool.readOnly}>
          Call {tool.name}
        </button>
        {!tool.readOnly ? <span class="warn">Not read-only: the extension will not call it.</span> : null}
      </div>
      {call ? <ToolResult call={call} name={tool.name} /> : null}
    </form>
  );
}

function ToolResult({ call, name }: { call: ToolCallState; name: string }) {
  if (call.status === 'calling') return <p role="status">Calling {name}…</p>;
  if (call.status === 'failed') return <ErrorMessage message={call.error} />;
  return (
    <section aria-label={`Result of ${name}`} class="stack tool-result">
      {call.isError ? <p class="error">The tool reported an error.</p> : null}
      {contentBlocksOf(call.content).map((block, index) => (
        <pre key={index} class={block.kind === 'json' ? 'json' : 'text'}>
          {block.text}
        </pre>
      ))}
    </section>
  );
}

/** The MCP server's public tools: their input schemas, a form per tool and the rendered result. */
export function McpToolBrowser({
  tools,
  serverName,
  protocolVersion,
  error,
  calls,
  onCall,
}: McpToolBrowserProps) {
  return (
    <section aria-label="MCP tools" class="stack">
      <h3>MCP tools</h3>
      {serverName ? (
        <p class="hint">
          {serverName}
          {protocolVersion ? ` · protocol ${protocolVersion}` : ''}
        </p>
      ) : null}
      <ErrorMessage message={error} />
      {!tools && !error ? <p class="hint">Connecting to the MCP server…</p> : null}
      {tools?.map((tool) => (
        <details key={tool.name} class="card">
          <summary>
            <strong>{tool.name}</strong> {tool.readOnly ? <span class="badge">read-only</span> : null}
            {tool.description ? <span class="hint"> — {tool.description}</span> : null}
          </summary>
          <details>
            <summary>Input schema</summary>
            <pre class="json">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
          </details>
          <ToolForm tool={tool} call={calls[tool.name]} onCall={onCall} />
        </details>
      ))}
    </section>
  );
}
