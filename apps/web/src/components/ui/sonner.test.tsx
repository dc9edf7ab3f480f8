import { act, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '@/components/theme-provider';
import { Toaster } from './sonner';

describe('toast area', () => {
  it('sits top-right, expanded, with close buttons, the seed sizes and Alt+T', async () => {
    render(
      <ThemeProvider>
        <Toaster />
      </ThemeProvider>,
    );
    act(() => {
      toast.success('Saved');
    });
    expect(await screen.findByText('Saved', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('region')).toHaveAttribute(
      'aria-label',
      expect.stringContaining('alt+T'),
    );
    const list = document.querySelector<HTMLElement>('[data-sonner-toaster]')!;
    expect(list).toHaveAttribute('data-x-position', 'right');
    expect(list).toHaveAttribute('data-y-position', 'top');
    expect(list.style.getPropertyValue('--width')).toBe('356px');
    expect(list.style.getPropertyValue('--gap')).toBe('14px');
    // Scoped to this test's toast: with Vitest's shared module state (isolate: false) a toast another
    // file raised late can share the area.
    const item = screen.getByText('Saved').closest<HTMLElement>('[data-sonner-toast]')!;
    // Sonner marks a toast expanded once it has mounted.
    await waitFor(() => expect(item).toHaveAttribute('data-expanded', 'true'));
    expect(item).toHaveAttribute('data-type', 'success');
    expect(item).toHaveAttribute('data-rich-colors', 'true');
    expect(within(item).getByRole('button', { name: /close/i })).toBeInTheDocument();
  });
});
