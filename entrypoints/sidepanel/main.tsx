import { render } from 'preact';
import '@/components/theme.css';
import { SidePanelPage } from '@/lib/ui/SidePanelPage';

render(<SidePanelPage search={location.search} />, document.getElementById('app')!);
