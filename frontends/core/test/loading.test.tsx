import { render, screen } from '@testing-library/react';
import { Loading } from '../src/ui';

it('a loading spinner is a status named by its label, on the spinner itself (an aria-label needs a role)', () => {
  render(<Loading label="Loading orders" size="large" style={{ margin: 48 }} />);
  const status = screen.getByRole('status', { name: 'Loading orders' });
  expect(status).toHaveClass('ant-spin');
  expect(status).toHaveAttribute('aria-busy', 'true');
  expect(status).toHaveStyle({ margin: '48px' });
});
