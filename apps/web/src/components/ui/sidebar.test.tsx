import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readSidebarCookie, SidebarProvider, useSidebar } from './sidebar';

function Probe() {
  const { state } = useSidebar();
  return <p data-testid="state">{state}</p>;
}

describe('sidebar state', () => {
  it('is open by default and reads the cookie', () => {
    expect(readSidebarCookie('')).toBe(true);
    expect(readSidebarCookie('a=1; sidebar_state=false')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
  });

  it('Ctrl+B and Cmd+B toggle it and the cookie remembers it for 7 days', async () => {
    const user = userEvent.setup();
    render(
      <SidebarProvider>
        <Probe />
      </SidebarProvider>,
    );
    expect(screen.getByTestId('state')).toHaveTextContent('expanded');
    await user.keyboard('{Control>}b{/Control}');
    expect(screen.getByTestId('state')).toHaveTextContent('collapsed');
    expect(document.cookie).toContain('sidebar_state=false');
    await user.keyboard('{Meta>}b{/Meta}');
    expect(screen.getByTestId('state')).toHaveTextContent('expanded');
    expect(document.cookie).toContain('sidebar_state=true');
    await user.keyboard('b');
    expect(screen.getByTestId('state')).toHaveTextContent('expanded');
  });

  it('leaves Ctrl/Cmd+B to text fields, text areas, selects and rich text', async () => {
    const user = userEvent.setup();
    render(
      <SidebarProvider defaultOpen>
        <Probe />
        <input aria-label="Name" />
        <textarea aria-label="Notes" />
        <select aria-label="Kind">
          <option>a</option>
        </select>
        <div aria-label="Rich" contentEditable suppressContentEditableWarning role="textbox" />
      </SidebarProvider>,
    );
    for (const name of ['Name', 'Notes', 'Kind', 'Rich']) {
      await user.click(screen.getByLabelText(name));
      await user.keyboard('{Control>}b{/Control}');
      await user.keyboard('{Meta>}b{/Meta}');
      expect(screen.getByTestId('state')).toHaveTextContent('expanded');
    }
  });

  it('starts collapsed when the cookie says so', () => {
    document.cookie = 'sidebar_state=false; path=/';
    render(
      <SidebarProvider>
        <Probe />
      </SidebarProvider>,
    );
    expect(screen.getByTestId('state')).toHaveTextContent('collapsed');
  });
});
