import { render } from 'preact';
import '@/components/theme.css';
import '@/lib/pages/options/options.css';
import { OptionsPage } from '@/lib/pages/options/OptionsPage';

render(<OptionsPage />, document.getElementById('app')!);
