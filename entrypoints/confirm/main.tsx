import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/confirm/confirm.css';
import { ConfirmPage } from '@/lib/pages/confirm/ConfirmPage';
import { draftIdFromSearch } from '@/lib/pages/navigation';
import { localizeDocument, t } from '@/lib/i18n';

localizeDocument(document);
document.title = t('confirm.windowTitle');

render(<ConfirmPage draftId={draftIdFromSearch(location.search)} />, document.getElementById('app')!);
