import { describe, expect, it } from 'vitest';
import { permissionSlice, roleSlice, userSlice } from './list-view-slices';

describe('list-view slices', () => {
  it('start on page 1 of 10; permission and role lists sort by _id descending', () => {
    const init = { type: 'init' };
    expect(permissionSlice.reducer(undefined, init)).toEqual({
      selectedId: null,
      filters: {},
      searchCriteria: '',
      sort: [{ field: '_id', order: 'desc' }],
      currentPage: 1,
      pageSize: 10,
    });
    expect(roleSlice.reducer(undefined, init).sort).toEqual([{ field: '_id', order: 'desc' }]);
    expect(userSlice.reducer(undefined, init).sort).toEqual([]);
  });

  it('resetting filters clears filters, search and sort and returns to page 1', () => {
    const { actions, reducer } = userSlice;
    let state = reducer(undefined, actions.setFilters({ status: 'active' }));
    state = reducer(state, actions.setSearchCriteria('ada'));
    state = reducer(state, actions.setSort([{ field: 'userName', order: 'asc' }]));
    state = reducer(state, actions.setCurrentPage(4));
    state = reducer(state, actions.setSelectedId('u1'));
    state = reducer(state, actions.resetFilters());
    expect(state).toMatchObject({
      filters: {},
      searchCriteria: '',
      sort: [],
      currentPage: 1,
      selectedId: 'u1',
    });
  });

  it('a full reset returns to the defaults', () => {
    const { actions, reducer } = roleSlice;
    let state = reducer(undefined, actions.setPageSize(50));
    state = reducer(state, actions.setSelectedId('r1'));
    expect(reducer(state, actions.resetState())).toEqual(reducer(undefined, { type: 'init' }));
  });
});
