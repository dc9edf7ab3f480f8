import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ServerErrorRoute } from './server-error';

describe('routing errors', () => {
  it('show the 500 page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('render failed');
    };
    const router = createMemoryRouter(
      [{ path: '/', errorElement: <ServerErrorRoute />, element: <Boom /> }],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('500')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
