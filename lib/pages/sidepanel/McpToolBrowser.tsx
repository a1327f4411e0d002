import { useMemo, useState } from 'preact/hooks';
import type { McpToolSummary } from '@/lib/mcp/client';
import {
  buildArgs,
  contentBlocksOf,
  formModelOf,
  initialValues,
  type FormModel,
  type SchemaField,
} from './schemaForm';
import { ErrorMessage } from '@/components/ErrorMessage';
import { t } from '@/lib/i18n';
import { MAX_LISTED_TOOLS, MAX_SCHEMA_CHARS, prettyJson } from './boundedJson';

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

/** One argument of a tool's call: a checkbox, a choice or a text field, with its hint and its error. */
function ToolField({
  field,
  id,
  value,
  error,
  onChange,
}: {
  field: SchemaField;
  id: string;
  value: string | undefined;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <div class="stack field">
      {field.kind === 'boolean' ? (
        <label class="row">
          <input
            type="checkbox"
            id={id}
            checked={value === 'true'}
            onChange={(event) => onChange(event.currentTarget.checked ? 'true' : 'false')}
          />
          {field.name}
        </label>
      ) : (
        <label for={id}>
          {field.name}
          {field.required ? ` ${t('sidepanel.mcp.required')}` : ''}
        </label>
      )}
      {field.kind === 'enum' ? (
        <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {field.required ? null : <option value="">{t('sidepanel.mcp.none')}</option>}
          {field.options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      ) : field.kind === 'boolean' ? null : (
        <input
          id={id}
          type="text"
          inputMode={field.kind === 'string' ? 'text' : field.kind === 'integer' ? 'numeric' : 'decimal'}
          aria-required={field.required}
          value={value}
          aria-invalid={error ? true : undefined}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      )}
      {field.description ? <span class="hint">{field.description}</span> : null}
      {error ? <span class="error">{error}</span> : null}
    </div>
  );
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
      aria-label={t('sidepanel.mcp.callForm', { name: tool.name })}
      onSubmit={(event) => {
        event.preventDefault();
        const built = buildArgs(model, values);
        setErrors(built.ok ? {} : built.errors);
        if (built.ok) onCall(tool.name, built.args);
      }}
    >
      {model.kind === 'json' ? (
        <label>
          {t('sidepanel.mcp.argumentsJson')}
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
          <ToolField
            key={field.name}
            field={field}
            id={id(field.name)}
            value={values[field.name]}
            error={errors[field.name]}
            onChange={(value) => set(field.name, value)}
          />
        ))
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={call?.status === 'calling' || !tool.readOnly}>
          {t('sidepanel.mcp.call', { name: tool.name })}
        </button>
        {!tool.readOnly ? <span class="warn">{t('sidepanel.mcp.notReadOnly')}</span> : null}
      </div>
      {call ? <ToolResult call={call} name={tool.name} /> : null}
    </form>
  );
}

function ToolResult({ call, name }: { call: ToolCallState; name: string }) {
  if (call.status === 'calling') return <p role="status">{t('sidepanel.mcp.calling', { name })}</p>;
  if (call.status === 'failed') return <ErrorMessage message={call.error} />;
  const blocks = contentBlocksOf(call.content);
  return (
    <section aria-label={t('sidepanel.mcp.resultOf', { name })} class="stack tool-result">
      {call.isError ? <p class="error">{t('sidepanel.mcp.toolError')}</p> : null}
      {blocks.map((block, index) => (
        <pre key={index} class={block.kind === 'json' ? 'json' : 'text'}>
          {block.text}
        </pre>
      ))}
      {blocks.at(-1)?.cut ? <p class="hint">{t('sidepanel.mcp.resultCut')}</p> : null}
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
    <section aria-label={t('sidepanel.mcp.label')} class="stack">
      <h3>{t('sidepanel.mcp.label')}</h3>
      {serverName ? (
        <p class="hint">
          {serverName}
          {protocolVersion ? ` · ${t('sidepanel.mcp.protocol', { version: protocolVersion })}` : ''}
        </p>
      ) : null}
      <ErrorMessage message={error} />
      {!tools && !error ? <p class="hint">{t('sidepanel.mcp.connecting')}</p> : null}
      {tools?.slice(0, MAX_LISTED_TOOLS).map((tool) => (
        <details key={tool.name} class="card">
          <summary>
            <strong>{tool.name}</strong>{' '}
            {tool.readOnly ? <span class="badge">{t('sidepanel.mcp.readOnly')}</span> : null}
            {tool.description ? <span class="hint"> — {tool.description}</span> : null}
          </summary>
          <details>
            <summary>{t('sidepanel.mcp.inputSchema')}</summary>
            <pre class="json">{prettyJson(tool.inputSchema, MAX_SCHEMA_CHARS).text}</pre>
          </details>
          <ToolForm tool={tool} call={calls[tool.name]} onCall={onCall} />
        </details>
      ))}
      {tools && tools.length > MAX_LISTED_TOOLS ? (
        <p class="hint">{t('sidepanel.mcp.toolsNotShown', { count: tools.length - MAX_LISTED_TOOLS })}</p>
      ) : null}
    </section>
  );
}
