import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { ThemeProvider } from '@/components/theme-provider';
import { THEME_STORAGE_KEY } from '@/config/constants';
import { writeTheme } from '@/lib/theme';
import { Toaster } from './sonner';

function renderToaster() {
  return render(
    <ThemeProvider>
      <Toaster />
    </ThemeProvider>,
  );
}

/** A toast's own element. With Vitest's shared module state (isolate: false) another file's late
 * toast can share the area, so every look-up goes through this test's text. */
const toastOf = (text: string) =>
  screen.getByText(text).closest<HTMLElement>('[data-sonner-toast]')!;

afterEach(() => {
  act(() => {
    toast.dismiss();
  });
  localStorage.removeItem(THEME_STORAGE_KEY);
});

describe('toast area', () => {
  it('shows a toast in the Notifications landmark, and its close button takes it away', async () => {
    renderToaster();
    act(() => {
      toast.success('Saved');
    });
    const area = screen.getByRole('complementary', { name: 'Notifications' });
    expect(await within(area).findByText('Saved', {}, { timeout: 5000 })).toBeInTheDocument();
    // A click only: jsdom has no pointer capture for Sonner's swipe handling of a pointer press.
    fireEvent.click(within(toastOf('Saved')).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument(), {
      timeout: 5000,
    });
  });

  it('moves the focus to the toasts on Alt+T', async () => {
    renderToaster();
    act(() => {
      toast('Exported');
    });
    await screen.findByText('Exported', {}, { timeout: 5000 });
    expect(document.activeElement).not.toBe(toastOf('Exported').closest('ol'));
    fireEvent.keyDown(document, { altKey: true, code: 'KeyT', key: 't' });
    expect(document.activeElement).toBe(toastOf('Exported').closest('ol'));
  });

  it('shows the newest three toasts when more are raised', async () => {
    renderToaster();
    act(() => {
      for (const n of [1, 2, 3, 4]) toast(`Toast ${n}`);
    });
    await screen.findByText('Toast 4', {}, { timeout: 5000 });
    await waitFor(() => expect(toastOf('Toast 1')).toHaveAttribute('data-visible', 'false'));
    for (const n of [2, 3, 4]) {
      expect(toastOf(`Toast ${n}`)).toHaveAttribute('data-visible', 'true');
    }
  });

  it("follows the app's theme", async () => {
    writeTheme('dark');
    renderToaster();
    act(() => {
      toast('In the dark');
    });
    await screen.findByText('In the dark', {}, { timeout: 5000 });
    expect(toastOf('In the dark').closest('ol')).toHaveAttribute('data-sonner-theme', 'dark');
  });
});
