import { describe, expect, it } from 'vitest';
import { permissionSlice, userSlice } from './list-view-slices';
import {
  defaultListView,
  hasListParams,
  isDefaultView,
  listViewToParams,
  listViewToQuery,
  parseListView,
  type ListUrlConfig,
} from './list-url';

const USERS: ListUrlConfig = {
  defaultSort: [],
  sortFields: ['_id', 'userName', 'email'],
  filterKeys: ['status', 'roleId'],
};
const PERMISSIONS: ListUrlConfig = {
  defaultSort: [{ field: '_id', order: 'desc' }],
  sortFields: ['_id', 'code', 'name'],
  filterKeys: ['group'],
};

const parse = (query: string, config = USERS) => parseListView(new URLSearchParams(query), config);

describe('list view ↔ URL', () => {
  it('an empty query is the seed default: page 1 of 10, the list default sort', () => {
    expect(parse('')).toEqual({
      filters: {},
      searchCriteria: '',
      sort: [],
      currentPage: 1,
      pageSize: 10,
    });
    expect(parse('', PERMISSIONS).sort).toEqual([{ field: '_id', order: 'desc' }]);
    // The defaults equal the seed slices' initial state.
    const { selectedId: _u, ...users } = userSlice.getInitialState();
    const { selectedId: _p, ...permissions } = permissionSlice.getInitialState();
    expect(defaultListView(USERS)).toEqual(users);
    expect(defaultListView(PERMISSIONS)).toEqual(permissions);
  });

  it('reads page, size, multi-level sort, search and filters', () => {
    expect(
      parse('page=3&pageSize=50&sort=userName:desc,email:asc&search=ada&filters[status]=locked'),
    ).toEqual({
      filters: { status: 'locked' },
      searchCriteria: 'ada',
      sort: [
        { field: 'userName', order: 'desc' },
        { field: 'email', order: 'asc' },
      ],
      currentPage: 3,
      pageSize: 50,
    });
  });

  it('drops what the server would refuse instead of sending it', () => {
    const view = parse(
      'page=0&pageSize=33&sort=password:asc,email:sideways,userName:asc,userName:desc&filters[evil]=1&filters[status]=',
    );
    expect(view.currentPage).toBe(1);
    expect(view.pageSize).toBe(10);
    expect(view.sort).toEqual([{ field: 'userName', order: 'asc' }]);
    expect(view.filters).toEqual({});
    expect(parse('page=-2&pageSize=1000').currentPage).toBe(1);
  });

  it('an empty sort parameter means "no sort", which differs from a default sort', () => {
    expect(parse('sort=', PERMISSIONS).sort).toEqual([]);
    const params = listViewToParams({ ...defaultListView(PERMISSIONS), sort: [] }, PERMISSIONS);
    expect(params.toString()).toBe('sort=');
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(listViewToParams(defaultListView(USERS), USERS).toString()).toBe('');
    expect(listViewToParams(defaultListView(PERMISSIONS), PERMISSIONS).toString()).toBe('');
    const view = {
      filters: { status: 'active', roleId: 'r1' },
      searchCriteria: 'smith & co',
      sort: [
        { field: 'email', order: 'desc' as const },
        { field: 'userName', order: 'asc' as const },
      ],
      currentPage: 4,
      pageSize: 20,
    };
    const params = listViewToParams(view, USERS);
    expect(params.get('sort')).toBe('email:desc,userName:asc');
    expect(params.get('filters[roleId]')).toBe('r1');
    expect(parseListView(new URLSearchParams(params.toString()), USERS)).toEqual(view);
  });

  it('knows when a URL says something about the list', () => {
    expect(hasListParams(new URLSearchParams(''))).toBe(false);
    expect(hasListParams(new URLSearchParams('other=1'))).toBe(false);
    expect(hasListParams(new URLSearchParams('filters[status]=x'))).toBe(true);
    expect(hasListParams(new URLSearchParams('sort='))).toBe(true);
  });

  it('resets through the seed slices: reset filters keeps the page size, full reset does not', () => {
    const { actions, reducer } = permissionSlice;
    const start = {
      ...parse('page=3&pageSize=50&sort=code:asc&search=x&filters[group]=Users', PERMISSIONS),
      selectedId: null,
    };
    const filtered = reducer(start, actions.resetFilters());
    expect(listViewToParams(filtered, PERMISSIONS).toString()).toBe('pageSize=50&sort=');
    const full = reducer(start, actions.resetState());
    expect(isDefaultView(full, PERMISSIONS)).toBe(true);
    // A new filter returns to page 1.
    const next = reducer(start, actions.setFilters({ group: 'Roles' }));
    expect(next.currentPage).toBe(1);
  });

  it('turns a view into the API query', () => {
    expect(
      listViewToQuery(parse('search=%20ada%20&sort=email:desc&filters[status]=active')),
    ).toEqual({
      page: 1,
      pageSize: 10,
      search: 'ada',
      sort: 'email:desc',
      filters: { status: 'active' },
    });
    expect(listViewToQuery(parse(''))).toEqual({
      page: 1,
      pageSize: 10,
      search: undefined,
      sort: undefined,
      filters: undefined,
    });
  });
});
