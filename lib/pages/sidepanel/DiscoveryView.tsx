import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { DeprecationNotice } from '@/lib/api/deprecations';
import type { AgentCard, DiscoveryReport, DiscoveryStep, DiscoverySkill } from '@/lib/discovery';
import type { LlmsTxt } from '@/lib/discovery/llmsTxt';
import type { SkillVerification } from '@/lib/discovery/verify';
import { shownDocuments, type ShownDocuments } from './discoveryDocuments';
import { SafeMarkdown, safeHref } from './SafeMarkdown';
import { ErrorMessage } from '@/components/ErrorMessage';
import { isolatedMessage, ServiceText, Verbatim } from '@/components/ServiceText';
import { formattedLimits, formattedPrice } from './discoveryPricing';
import { formatDate, formatDateTime, formatNumber, plural, t, type TextKey, formatList } from '@/lib/i18n';

export const VERIFICATION_LABELS: Record<SkillVerification, TextKey> = {
  verified: 'sidepanel.discovery.verified',
  'digest-mismatch': 'sidepanel.discovery.digestMismatch',
  missing: 'sidepanel.discovery.missing',
  'invalid-digest': 'sidepanel.discovery.invalidDigest',
};

const STEP_STATUS: Record<DiscoveryStep['status'], TextKey> = {
  ok: 'sidepanel.discovery.stepStatus.ok',
  'not-modified': 'sidepanel.discovery.stepStatus.notModified',
  stale: 'sidepanel.discovery.stepStatus.stale',
  failed: 'sidepanel.discovery.stepStatus.failed',
  invalid: 'sidepanel.discovery.stepStatus.invalid',
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
  if (bytes < 1024) return t('sidepanel.discovery.bytes', { size: bytes });
  return t('sidepanel.discovery.kilobytes', { size: formatNumber(bytes / 1024, 1) });
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
      {llms.summary ? <p dir="auto">{llms.summary}</p> : null}
      {llms.sections.map((section) => (
        <div key={section.title}>
          <h4 dir="auto">{section.title}</h4>
          <ul>
            {section.links.map((link) => (
              <li key={link.url} dir="auto">
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
        {plural('sidepanel.discovery.openapi', summary.pathCount, {
          title: summary.title,
          version: summary.version,
          openapi: summary.openapi,
          url: summary.apiUrl,
        })}
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
    <ol aria-label={t('sidepanel.discovery.timeline')} class="timeline">
      {report.steps.map((reported) => {
        const step = shownStep(reported, shown);
        return (
          <li key={step.id} class="card">
            <div class="row">
              <strong>{step.title}</strong>
              <span class={`badge ${statusClass(step.status)}`}>{t(STEP_STATUS[step.status])}</span>
              <span class="hint">
                {[
                  pathOf(step.url),
                  formatBytes(step.bytes),
                  t('sidepanel.discovery.milliseconds', { ms: step.ms }),
                  step.source === 'cache'
                    ? t('sidepanel.discovery.fromCache')
                    : t('sidepanel.discovery.fromNetwork'),
                  ...(step.httpStatus
                    ? [t('sidepanel.discovery.http', { status: String(step.httpStatus) })]
                    : []),
                ].join(' · ')}
              </span>
            </div>
            {step.error ? (
              <p class="error" dir="auto">
                {step.error}
              </p>
            ) : null}
            {hasContent(step, { report, shown }) ? (
              <details>
                <summary>{t('sidepanel.discovery.read', { title: step.title })}</summary>
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
    <section aria-label={t('sidepanel.discovery.pricing')} class="stack">
      <h3>{t('sidepanel.discovery.pricing')}</h3>
      <table>
        <caption class="visually-hidden">{t('sidepanel.discovery.plans')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('sidepanel.discovery.plan')}</th>
            <th scope="col">{t('sidepanel.discovery.monthlyPrice')}</th>
            <th scope="col">{t('sidepanel.discovery.limits')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row" dir="auto">
                {row.name}
              </th>
              <PriceCell cell={row.monthlyPrice} />
              <LimitsCell cell={row.limits} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A price in the locale's currency format, left to right as amounts are; else the cell as sent. */
function PriceCell({ cell }: { cell: string }) {
  const price = formattedPrice(cell);
  return price ? (
    <td>
      <Verbatim>{price}</Verbatim>
    </td>
  ) : (
    <td dir="auto">{cell}</td>
  );
}

/** A rate limit in the user's words; else the cell as sent. */
function LimitsCell({ cell }: { cell: string }) {
  const limits = formattedLimits(cell);
  return limits ? <td>{limits}</td> : <td dir="auto">{cell}</td>;
}

/** Longer than this, a description is cut to its first sentence or line for the overview. */
const ONE_LINE = 160;

/** A service text as one short line: its first line, cut at a sentence's end or at ONE_LINE characters. */
export function oneLine(text: string): string {
  const line =
    text
      .slice(0, ONE_LINE * 4)
      .split(/\r?\n/, 1)[0]
      ?.trim() ?? '';
  const sentence = /^.{20,}?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  return sentence.length > ONE_LINE ? `${sentence.slice(0, ONE_LINE - 1).trimEnd()}…` : sentence;
}

/** What the service is: its agent card's name and description and its llms.txt summary. */
function Offer({ report }: { report: DiscoveryReport }) {
  const card = report.documents.agentCard;
  const summary = report.documents.llms?.summary;
  if (!card && !summary) return null;
  return (
    <section aria-label={t('panel.discovery.offer')} class="stack">
      <h3>{card?.name ? <ServiceText>{card.name}</ServiceText> : t('panel.discovery.offer')}</h3>
      {card?.description ? <p dir="auto">{card.description}</p> : null}
      {summary && summary !== card?.description ? <p dir="auto">{summary}</p> : null}
    </section>
  );
}

/** The agent card's technical record: version, capabilities and links (under Details). */
function AgentCardSection({ report }: { report: DiscoveryReport }) {
  const card = report.documents.agentCard;
  if (!card) return null;
  return (
    <section aria-label={t('sidepanel.discovery.agentCard')} class="stack">
      <h4>{t('sidepanel.discovery.agentCard')}</h4>
      <p>
        <strong>{card.name}</strong> {card.version}
      </p>
      {card.capabilities.length > 0 ? (
        <p class="hint">{t('sidepanel.discovery.capabilities', { list: formatList(card.capabilities) })}</p>
      ) : null}
      <ul aria-label={t('sidepanel.discovery.agentCardLinks')}>
        {card.links.map((link) => (
          <li key={`${link.rel}|${link.href}`}>
            <ExternalLink href={link.href}>{link.rel}</ExternalLink> <span class="hint">{link.type}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The words of a skill id or tool name (`playbook-authoring`, `get_category`), for a name people read: "Playbook authoring". */
function idInWords(id: string): string {
  const words = id
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .join(' ');
  return words ? words.charAt(0).toLocaleUpperCase() + words.slice(1) : id;
}

/**
 * A skill's name for people. The skills index and SKILL.md name a skill by its id; an agent card
 * may give it a name of its own (A2A `name` beside `id`), found by the description both carry.
 * Without one, the id in words.
 */
export function skillTitle(skill: DiscoverySkill, card: AgentCard | null): string {
  const named = card?.skills.find(
    (entry) =>
      entry.description !== '' && entry.description === skill.description && entry.name !== skill.name,
  );
  return named?.name ?? idInWords(skill.name);
}

function Skills({ report, shown }: ReportProps) {
  const skills = report.documents.skills;
  if (skills.length === 0) return null;
  return (
    <section aria-label={t('sidepanel.discovery.skills')} class="stack">
      <h3>{t('sidepanel.discovery.skills')}</h3>
      <ul aria-label={t('sidepanel.discovery.skills')} class="stack">
        {skills.map((skill) => (
          <li key={skill.name} class="card">
            <div class="row">
              <strong dir="auto">{skillTitle(skill, report.documents.agentCard)}</strong>
              <code class="hint" dir="ltr" title={t('sidepanel.discovery.skillId')}>
                {skill.name}
              </code>
              <span class={`badge ${skill.verification === 'verified' ? 'ok' : 'error'}`}>
                {t(VERIFICATION_LABELS[skill.verification])}
              </span>
            </div>
            <p class="hint" dir="auto">
              {skill.description}
            </p>
            {skill.error ? (
              <p class="error" dir="auto">
                {skill.error}
              </p>
            ) : null}
            {skill.verification !== 'verified' ? (
              <p class="warn">{t('sidepanel.discovery.skillHidden')}</p>
            ) : shown.skillBodies.has(skill.name) ? (
              <details>
                <summary>
                  {t('sidepanel.discovery.read', { title: skillTitle(skill, report.documents.agentCard) })}
                </summary>
                <SafeMarkdown blocks={shown.skillBodies.get(skill.name) ?? []} headingOffset={3} />
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The MCP server's tools by their names for people (the raw name beside), each with one line of what it does. */
function McpTools({ report }: { report: DiscoveryReport }) {
  const card = report.documents.mcpCard;
  if (!card?.tools || card.tools.length === 0) return null;
  return (
    <section aria-label={t('panel.discovery.tools')} class="stack">
      <h3>{t('panel.discovery.tools')}</h3>
      <p class="hint" dir="auto">
        {oneLine(card.description)}
      </p>
      <dl class="tools">
        {card.tools.map((tool) => (
          <div key={tool.name}>
            <dt class="row">
              <strong>
                <ServiceText>{tool.title || idInWords(tool.name)}</ServiceText>
              </strong>
              <code class="hint" dir="ltr" title={t('sidepanel.discovery.toolName')}>
                {tool.name}
              </code>
              {tool.readOnlyHint ? <span class="badge">{t('sidepanel.discovery.readOnlyNote')}</span> : null}
            </dt>
            <dd dir="auto">{oneLine(tool.description)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The MCP server card's technical record: name, version and endpoint (under Details). */
function McpCardSection({ report }: { report: DiscoveryReport }) {
  const card = report.documents.mcpCard;
  if (!card) return null;
  return (
    <section aria-label={t('sidepanel.discovery.mcpCard')} class="stack">
      <h4>{t('sidepanel.discovery.mcpCard')}</h4>
      <p>
        <strong>{card.name}</strong> {card.version}
      </p>
      <p class="hint">
        {isolatedMessage(t('sidepanel.discovery.endpoint'), { url: card.endpoint }, ['url'])}
      </p>
    </section>
  );
}

function sunsetDate(ms: number | undefined): string {
  return ms === undefined ? t('sidepanel.discovery.noDate') : formatDate(ms);
}

function Deprecations({ deprecations }: { deprecations: DeprecationNotice[] }) {
  return (
    <section aria-label={t('sidepanel.discovery.deprecations')} class="stack">
      <h3>{t('sidepanel.discovery.deprecatedHeading')}</h3>
      {deprecations.length === 0 ? (
        <p class="hint">{t('sidepanel.discovery.noDeprecations')}</p>
      ) : (
        <ul>
          {deprecations.map((notice) => {
            const past = notice.sunsetAt !== undefined && notice.sunsetAt <= Date.now();
            return (
              <li key={notice.operationId}>
                <code dir="ltr">{notice.operationId}</code>:{' '}
                {t(past ? 'sidepanel.discovery.sunsetOn' : 'sidepanel.discovery.sunsetsOn', {
                  date: sunsetDate(notice.sunsetAt),
                })}
                {notice.replacedBy ? (
                  <>
                    , {t('sidepanel.discovery.replacedBy')} <code dir="ltr">{notice.replacedBy}</code>
                  </>
                ) : null}
                {past ? <span class="error"> — {t('sidepanel.discovery.noLongerCalled')}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * What the service offers, for people: its summary, its prices, its skills and its tools. The
 * technical record (the fetch log with addresses, statuses and timings, the cards' links and
 * endpoint, the MCP tool browser, deprecations) is one click away under "Details".
 */
export function DiscoveryView({ report, running, error, deprecations, onRun, mcpTools }: DiscoveryViewProps) {
  const shown = useMemo(() => (report ? shownDocuments(report) : undefined), [report]);
  return (
    <div class="stack discovery">
      <div class="row">
        <button type="button" onClick={onRun} disabled={running}>
          {running ? t('sidepanel.discovery.running') : t('sidepanel.discovery.run')}
        </button>
        {report ? (
          <span class="hint">
            {t('sidepanel.discovery.lastRun', { time: formatDateTime(report.finishedAt) })}
          </span>
        ) : null}
      </div>
      <ErrorMessage message={error} />
      {report === undefined && !error ? <p class="hint">{t('sidepanel.discovery.loading')}</p> : null}
      {report === null && !running ? <p class="hint">{t('sidepanel.discovery.empty')}</p> : null}
      {report && shown ? (
        <>
          <Offer report={report} />
          <Pricing shown={shown} />
          <Skills report={report} shown={shown} />
          <McpTools report={report} />
        </>
      ) : null}
      <details class="discovery-details">
        <summary>{t('popup.problem.details')}</summary>
        <div class="stack">
          {report && shown ? (
            <>
              <Timeline report={report} shown={shown} />
              <AgentCardSection report={report} />
              <McpCardSection report={report} />
            </>
          ) : null}
          {mcpTools}
          <Deprecations deprecations={deprecations} />
        </div>
      </details>
    </div>
  );
}
