// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorMessage } from '@/components/ErrorMessage';

afterEach(cleanup);

describe('ErrorMessage', () => {
  it('announces the message as an alert, as text', () => {
    render(<ErrorMessage message="<b>Refused</b>: try again." />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('<b>Refused</b>: try again.');
    expect(alert.querySelector('b')).toBeNull();
  });

  it.each([undefined, null, ''])('renders nothing for %j', (message) => {
    const { container } = render(<ErrorMessage message={message} />);
    expect(container.childNodes).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
