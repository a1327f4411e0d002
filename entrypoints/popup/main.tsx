// First: the snapshot read starts before any other module of the popup is evaluated.
import { snapshotRead } from './snapshotRead';
// Inlined into the one script: no stylesheet request blocks the first paint.
import themeCss from '@/components/theme.css?inline';
import popupCss from '@/lib/pages/popup/popup.css?inline';
import { startPopup } from '@/lib/pages/popup/start';

void startPopup(document.getElementById('app')!, snapshotRead);
// The styles go in while the database answers.
const style = document.createElement('style');
style.textContent = `${themeCss}\n${popupCss}`;
document.head.append(style);
