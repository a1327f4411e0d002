import { render } from 'preact';
// Inlined into the one script: no stylesheet request blocks the first paint.
import themeCss from '@/components/theme.css?inline';
import popupCss from '@/lib/pages/popup/popup.css?inline';
import { PopupPage } from '@/lib/pages/popup/PopupPage';
import { readPopupSnapshot } from '@/lib/store/snapshot';

// Started before anything renders: the database opens while Preact draws the frame.
const snapshotRead = readPopupSnapshot();
// Marked handled until the page attaches its own handler (which logs a failure).
snapshotRead.catch(() => undefined);
const style = document.createElement('style');
style.textContent = `${themeCss}\n${popupCss}`;
document.head.append(style);
render(<PopupPage snapshotRead={snapshotRead} />, document.getElementById('app')!);
