import { render } from 'preact';
import '@/components/theme.css';
import { ConfirmPage } from '@/lib/ui/ConfirmPage';

const draftId = new URLSearchParams(location.search).get('draft') ?? '';
render(<ConfirmPage draftId={draftId} />, document.getElementById('app')!);
