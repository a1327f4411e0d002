import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/options/options.css';
import { localizeDocument, t } from '@/lib/i18n';
import { OptionsPage } from '@/lib/pages/options/OptionsPage';

// The page speaks the UI language (lang, dir, title) before anything is drawn.
localizeDocument(document);
document.title = t('options.documentTitle');
render(<OptionsPage />, document.getElementById('app')!);
