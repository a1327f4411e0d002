import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/sidepanel/sidepanel.css';
import { localizeDocument, t } from '@/lib/i18n';
import { SidePanelPage } from '@/lib/pages/sidepanel/SidePanelPage';

// The UI language before the first paint; index.html's English <title> stays as the fallback.
localizeDocument(document);
document.title = t('sidepanel.title');
render(<SidePanelPage search={location.search} />, document.getElementById('app')!);
