import { useEffect, useState } from 'preact/hooks';
import { DiscoveryView } from './DiscoveryView';
import { McpToolBrowser, type ToolCallState } from './McpToolBrowser';
import type { DeprecationNotice } from '@/lib/api/deprecations';
import type { DiscoveryReport } from '@/lib/discovery';
import { sendMessage } from '@/lib/messaging/client';
import type { ResponseOf } from '@/lib/messaging/protocol';
import { errorText } from '@/lib/pages/errorText';

export interface DiscoveryTabProps {
  report?: DiscoveryReport | null;
  reportError?: string;
  running: boolean;
  onRun: () => void;
  /** The tab is visible: MCP is contacted only once the user looks. */
  active: boolean;
}

export function DiscoveryTab({ report, reportError, running, onRun, active }: DiscoveryTabProps) {
  const [deprecations, setDeprecations] = useState<DeprecationNotice[]>([]);
  const [tools, setTools] = useState<ResponseOf<'mcpListTools'>>();
  const [toolsError, setToolsError] = useState<string>();
  const [calls, setCalls] = useState<Record<string, ToolCallState | undefined>>({});
  const [started, setStarted] = useState(false);

  useEffect(() => {
    if (!active || started) return;
    setStarted(true);
    sendMessage('getOverview', {}).then(
      (overview) => setDeprecations(overview.deprecations),
      () => setDeprecations([]),
    );
    sendMessage('mcpListTools', {}).then(setTools, (error: unknown) => setToolsError(errorText(error)));
  }, [active]);

  return (
    <DiscoveryView
      report={report}
      running={running}
      error={reportError}
      deprecations={deprecations}
      onRun={onRun}
      mcpTools={
        <McpToolBrowser
          tools={tools?.tools}
          serverName={tools?.serverName}
          protocolVersion={tools?.protocolVersion}
          error={toolsError}
          calls={calls}
          onCall={(name, args) => {
            setCalls((current) => ({ ...current, [name]: { status: 'calling' } }));
            sendMessage('mcpCallTool', { name, args }).then(
              (result) =>
                setCalls((current) => ({
                  ...current,
                  [name]: { status: 'done', content: result.content, isError: result.isError },
                })),
              (error: unknown) =>
                setCalls((current) => ({
                  ...current,
                  [name]: { status: 'failed', error: errorText(error) },
                })),
            );
          }}
        />
      }
    />
  );
}
