import { render } from 'preact';
// Inlined into the one script: no stylesheet request blocks the first paint.
import themeCss from '@/components/theme.css?inline';
import popupCss from '@/lib/pages/popup/popup.css?inline';
import { PopupPage } from '@/lib/pages/popup/PopupPage';

const style = document.createElement('style');
style.textContent = `${themeCss}\n${popupCss}`;
document.head.append(style);
render(<PopupPage />, document.getElementById('app')!);
