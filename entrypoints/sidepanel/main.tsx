import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/sidepanel/sidepanel.css';
import { SidePanelPage } from '@/lib/pages/sidepanel/SidePanelPage';

render(<SidePanelPage search={location.search} />, document.getElementById('app')!);
