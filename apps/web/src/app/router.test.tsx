import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './router';

const renderAt = (path: string) =>
  render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />);

describe('public routes', () => {
  it('shows the landing page with the tagline and a Sign In link', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Power Analyzer' })).toBeInTheDocument();
    expect(screen.getByText('The All in one tool for your business.')).toBeInTheDocument();
    expect(screen.getAllByAltText('Power Analyzer Logo').length).toBeGreaterThan(0);
    for (const link of screen.getAllByRole('link', { name: 'Sign In' })) {
      expect(link).toHaveAttribute('href', '/auth/signin');
    }
    expect(screen.getByText(`© ${new Date().getFullYear()} Power Analyzer`)).toBeInTheDocument();
  });

  it('shows the not-found page for About and unknown paths', () => {
    renderAt('/about');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
