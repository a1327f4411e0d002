import { render } from 'preact';
import '@/components/theme.css';
import '@/components/options/options.css';
import { OptionsPage } from '@/lib/ui/OptionsPage';

render(<OptionsPage />, document.getElementById('app')!);
