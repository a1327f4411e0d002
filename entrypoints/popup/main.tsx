import { render } from 'preact';
import '@/components/theme.css';
import '@/components/popup/popup.css';
import { PopupPage } from '@/lib/ui/PopupPage';

render(<PopupPage />, document.getElementById('app')!);
