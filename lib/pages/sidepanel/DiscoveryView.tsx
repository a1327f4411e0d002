import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { DeprecationNotice } from '@/lib/api/deprecations';
import type { DiscoveryReport, DiscoveryStep } from '@/lib/discovery';
import type { LlmsTxt } from '@/lib/discovery/llmsTxt';
import type { SkillVerification } from '@/lib/discovery/verify';
import { shownDocuments, type ShownDocuments } from './discoveryDocuments';
import { SafeMarkdown, safeHref } from './SafeMarkdown';
import { ErrorMessage } from '@/components/ErrorMessage';

export const VERIFICATION_LABELS: Record<SkillVerification, string> = {
  verified: 'verified',
  'digest-mismatch': 'digest mismatch',
  missing: 'missing',
  'invalid-digest': 'invalid digest',
};

export interface DiscoveryViewProps {
  report?: DiscoveryReport | null;
  running: boolean;
  error?: string;
  deprecations: DeprecationNotice[];
  onRun: () => void;
  /** The MCP tool browser, rendered by its own controller. */
  mcpTools?: ComponentChildren;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function ExternalLink({ href, children }: { href: string; children: ComponentChildren }) {
  const safe = safeHref(href);
  if (!safe) return <>{children}</>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function LlmsSections({ llms }: { llms: LlmsTxt }) {
  return (
    <div class="md">
      {llms.summary ? <p>{llms.summary}</p> : null}
      {llms.sections.map((section) => (
        <div key={section.title}>
          <h4>{section.title}</h4>
          <ul>
            {section.links.map((link) => (
              <li key={link.url}>
                <ExternalLink href={link.url}>{link.title}</ExternalLink>
                {link.note ? `: ${link.note}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

interface ReportProps {
  report: DiscoveryReport;
  shown: ShownDocuments;
}

function StepContent({ step, report, shown }: ReportProps & { step: DiscoveryStep }) {
  const { documents } = report;
  const blocks = shown.markdown.get(pathOf(step.url));
  if (blocks) return <SafeMarkdown blocks={blocks} headingOffset={3} />;
  if (step.id === 'llms' && documents.llms) return <LlmsSections llms={documents.llms} />;
  if (step.id === 'llms-full' && documents.llmsFull) return <LlmsSections llms={documents.llmsFull} />;
  if (step.id === 'developers-llms' && documents.developersLlms)
    return <LlmsSections llms={documents.developersLlms} />;
  if (step.id === 'openapi' && documents.openapiSummary) {
    const summary = documents.openapiSummary;
    return (
      <p>
        {summary.title} {summary.version} (OpenAPI {summary.openapi}), {summary.pathCount} paths, API at{' '}
        {summary.apiUrl}
      </p>
    );
  }
  return null;
}

function hasContent(step: DiscoveryStep, { report, shown }: ReportProps): boolean {
  const { documents } = report;
  if (shown.markdown.has(pathOf(step.url))) return true;
  if (step.id === 'llms') return Boolean(documents.llms);
  if (step.id === 'llms-full') return Boolean(documents.llmsFull);
  if (step.id === 'developers-llms') return Boolean(documents.developersLlms);
  return step.id === 'openapi' && Boolean(documents.openapiSummary);
}

function statusClass(status: DiscoveryStep['status']): string {
  if (status === 'failed' || status === 'invalid') return 'error';
  if (status === 'stale') return 'warn';
  return 'ok';
}

/** The step as shown: a fetched pricing document without a plan table is invalid, as the run used to mark it. */
function shownStep(step: DiscoveryStep, shown: ShownDocuments): DiscoveryStep {
  if (step.id !== 'pricing' || step.status !== 'ok' || !shown.pricingError) return step;
  return { ...step, status: 'invalid', error: shown.pricingError };
}

function Timeline({ report, shown }: ReportProps) {
  return (
    <ol aria-label="Discovery run" class="timeline">
      {report.steps.map((reported) => {
        const step = shownStep(reported, shown);
        return (
          <li key={step.id} class="card">
            <div class="row">
              <strong>{step.title}</strong>
              <span class={`badge ${statusClass(step.status)}`}>{step.status}</span>
              <span class="hint">
                {pathOf(step.url)} · {formatBytes(step.bytes)} · {step.ms} ms ·{' '}
                {step.source === 'cache' ? 'from cache' : 'from network'}
                {step.httpStatus ? ` · HTTP ${step.httpStatus}` : ''}
              </span>
            </div>
            {step.error ? <p class="error">{step.error}</p> : null}
            {hasContent(step, { report, shown }) ? (
              <details>
                <summary>Read {step.title}</summary>
                <StepContent step={step} report={report} shown={shown} />
              </details>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function Pricing({ shown }: { shown: ShownDocuments }) {
  const rows = shown.pricing;
  if (!rows || rows.length === 0) return null;
  return (
    <section aria-label="Pricing" class="stack">
      <h3>Pricing</h3>
      <table>
        <caption class="visually-hidden">Plans</caption>
        <thead>
          <tr>
            <th scope="col">Plan</th>
            <th scope="col">Monthly price</th>
            <th scope="col">Limits</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row">{row.name}</th>
              <td>{row.monthlyPrice}</td>
              <td>{row.limits}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AgentCardSection({ report }: { report: DiscoveryReport }) {
  const card = report.documents.agentCard;
  if (!card) return null;
  return (
    <section aria-label="Agent card" class="stack">
      <h3>Agent card</h3>
      <p>
        <strong>{card.name}</strong> {card.version} — {card.description}
      </p>
      {card.capabilities.length > 0 ? <p class="hint">Capabilities: {card.capabilities.join(', ')}</p> : null}
      <ul aria-label="Agent card links">
        {card.links.map((link) => (
          <li key={`${link.rel}|${link.href}`}>
            <ExternalLink href={link.href}>{link.rel}</ExternalLink> <span class="hint">{link.type}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Skills({ report, shown }: ReportProps) {
  const skills = report.documents.skills;
  if (skills.length === 0) return null;
  return (
    <section aria-label="Skills" class="stack">
      <h3>Skills</h3>
      <ul aria-label="Skills" class="stack">
        {skills.map((skill) => (
          <li key={skill.name} class="card">
            <div class="row">
              <strong>{skill.name}</strong>
              <span class={`badge ${skill.verification === 'verified' ? 'ok' : 'error'}`}>
                {VERIFICATION_LABELS[skill.verification]}
              </span>
            </div>
            <p class="hint">{skill.description}</p>
            {skill.error ? <p class="error">{skill.error}</p> : null}
            {skill.verification !== 'verified' ? (
              <p class="warn">Not shown: its content does not match what the index promises.</p>
            ) : shown.skillBodies.has(skill.name) ? (
              <details>
                <summary>Read {skill.name}</summary>
                <SafeMarkdown blocks={shown.skillBodies.get(skill.name) ?? []} headingOffset={3} />
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function McpCardSection({ report }: { report: DiscoveryReport }) {
  const card = report.documents.mcpCard;
  if (!card) return null;
  return (
    <section aria-label="MCP server card" class="stack">
      <h3>MCP server card</h3>
      <p>
        <strong>{card.name}</strong> {card.version} — {card.description}
      </p>
      <p class="hint">Endpoint: {card.endpoint}</p>
      {card.tools && card.tools.length > 0 ? (
        <ul>
          {card.tools.map((tool) => (
            <li key={tool.name}>
              {tool.name}
              {tool.readOnlyHint ? ' (read-only)' : ''}: {tool.description}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function formatDate(ms: number | undefined): string {
  return ms === undefined ? 'no date' : new Date(ms).toISOString().slice(0, 10);
}

function Deprecations({ deprecations }: { deprecations: DeprecationNotice[] }) {
  return (
    <section aria-label="Deprecations" class="stack">
      <h3>Deprecated operations</h3>
      {deprecations.length === 0 ? (
        <p class="hint">No deprecated operation in use.</p>
      ) : (
        <ul>
          {deprecations.map((notice) => {
            const past = notice.sunsetAt !== undefined && notice.sunsetAt <= Date.now();
            return (
              <li key={notice.operationId}>
                <code>{notice.operationId}</code>: {past ? 'sunset on' : 'sunsets on'}{' '}
                {formatDate(notice.sunsetAt)}
                {notice.replacedBy ? (
                  <>
                    , replaced by <code>{notice.replacedBy}</code>
                  </>
                ) : null}
                {past ? <span class="error"> — no longer called</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Everything the service publishes, in the order discovery read it. */
export function DiscoveryView({ report, running, error, deprecations, onRun, mcpTools }: DiscoveryViewProps) {
  const shown = useMemo(() => (report ? shownDocuments(report) : undefined), [report]);
  return (
    <div class="stack discovery">
      <div class="row">
        <button type="button" onClick={onRun} disabled={running}>
          {running ? 'Running discovery…' : 'Run discovery again'}
        </button>
        {report ? <span class="hint">Last run {new Date(report.finishedAt).toLocaleString()}</span> : null}
      </div>
      <ErrorMessage message={error} />
      {report === undefined && !error ? <p class="hint">Loading the discovery report…</p> : null}
      {report === null && !running ? <p class="hint">No discovery run yet.</p> : null}
      {report && shown ? (
        <>
          <Timeline report={report} shown={shown} />
          <Pricing shown={shown} />
          <AgentCardSection report={report} />
          <Skills report={report} shown={shown} />
          <McpCardSection report={report} />
        </>
      ) : null}
      {mcpTools}
      <Deprecations deprecations={deprecations} />
    </div>
  );
}
