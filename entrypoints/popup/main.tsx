import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/popup/popup.css';
import { PopupPage } from '@/lib/pages/popup/PopupPage';

render(<PopupPage />, document.getElementById('app')!);
