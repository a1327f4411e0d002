// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SidePanelView } from '@/lib/pages/sidepanel/SidePanelView';

afterEach(cleanup);

const panels = { playbooks: <p>Playbooks panel</p>, discovery: <p>Discovery</p>, events: <p>Events</p> };

describe('the side panel layout', () => {
  it('draws "On this page" after the tabs and their panels: its coming and going moves nothing above it', () => {
    const { container, getByRole } = render(
      <SidePanelView panels={panels} below={<section aria-label="On this page">On this page</section>} />,
    );
    const tabs = getByRole('tablist');
    const section = container.querySelector('[aria-label="On this page"]');
    const panel = container.querySelector('#panel-playbooks');
    expect(section).not.toBeNull();
    expect(tabs.compareDocumentPosition(section!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(panel!.compareDocumentPosition(section!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
