import { use, type ReactElement } from 'react';
import { configureStore } from '@reduxjs/toolkit';
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createBrowserRouter, createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { permissionSlice } from '@/lib/list-view-slices';
import { useListView, type ListViewControls } from './use-list-view';

const config = { defaultSort: [], sortFields: ['code'], filterKeys: [] };

function renderWithStore(router: Parameters<typeof RouterProvider>[0]['router']) {
  const store = configureStore({
    reducer: { [permissionSlice.name]: permissionSlice.reducer },
  });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

describe('useListView', () => {
  it('a view change that lands while another page loads does not pull the user back to the list', async () => {
    let controls: ListViewControls | undefined;
    function List() {
      controls = useListView(permissionSlice, config);
      return <Link to="/permissions/1/update">Edit</Link>;
    }
    // the edit page's code is still loading when the debounced search fires
    let loaded: (page: { Component: () => ReactElement }) => void = () => {};
    const router = createMemoryRouter(
      [
        { path: '/permissions', Component: List },
        {
          path: '/permissions/:id/update',
          lazy: () => new Promise((resolve) => (loaded = resolve)),
        },
      ],
      { initialEntries: ['/permissions'] },
    );
    renderWithStore(router);
    act(() => screen.getByRole('link', { name: 'Edit' }).click());
    expect(router.state.navigation.state).toBe('loading');
    act(() => controls!.setSearch('export'));
    await act(async () => loaded({ Component: () => <h1>Edit permission</h1> }));
    expect(await screen.findByRole('heading', { name: 'Edit permission' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/permissions/1/update');

    // on the list itself, a search still goes into the address
    await act(() => router.navigate('/permissions'));
    act(() => controls!.setSearch('export'));
    expect(router.state.location.search).toContain('export');
  });

  it('a view change from a list the address bar has already left does not pull the user back', async () => {
    // The router has committed the edit page, but React keeps the list on screen while the edit
    // page suspends (a router update is a transition): a debounced search can fire in that gap.
    let controls: ListViewControls | undefined;
    function List() {
      controls = useListView(permissionSlice, config);
      return <h1>Permissions</h1>;
    }
    let drawn: () => void = () => {};
    const editPageData = new Promise<void>((resolve) => (drawn = resolve));
    function EditPage() {
      use(editPageData);
      return <h1>Edit permission</h1>;
    }
    window.history.replaceState(null, '', '/permissions');
    const router = createBrowserRouter([
      { path: '/permissions', Component: List },
      { path: '/permissions/:id/update', Component: EditPage },
    ]);
    renderWithStore(router);
    await act(() => router.navigate('/permissions/1/update'));
    expect(router.state.navigation.state).toBe('idle');
    expect(screen.getByRole('heading', { name: 'Permissions' })).toBeInTheDocument();
    act(() => controls!.setSearch('export'));
    await act(async () => drawn());
    expect(await screen.findByRole('heading', { name: 'Edit permission' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/permissions/1/update');

    // on the list itself, a search still goes into the address
    await act(() => router.navigate('/permissions'));
    act(() => controls!.setSearch('export'));
    expect(window.location.search).toContain('export');
  });
});
