// Inlined into the one script: no stylesheet request blocks the first paint.
import themeCss from '@/components/theme.css?inline';
import popupCss from '@/lib/pages/popup/popup.css?inline';
import { startPopup } from '@/lib/pages/popup/start';

// First: the snapshot read starts inside, and the styles go in while the database answers.
void startPopup(document.getElementById('app')!);
const style = document.createElement('style');
style.textContent = `${themeCss}\n${popupCss}`;
document.head.append(style);
