import type { Paginated } from '@pa/contracts/list-query';
import type { Role } from '@pa/contracts/roles';
import type { User } from '@pa/contracts/users';
import { portalApi } from '@/lib/api/portal-api';

/** How many records of each kind the palette offers for a search. */
const RECORDS_PER_KIND = 5;

/** The palette's record searches (the lists' own `search`, a few rows each). */
export const paletteApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    paletteUsers: build.query<Paginated<User>, string>({
      query: (search) => ({
        url: '/users',
        params: { search, page: 1, pageSize: RECORDS_PER_KIND },
      }),
      providesTags: ['User'],
    }),
    paletteRoles: build.query<Paginated<Role>, string>({
      query: (search) => ({
        url: '/roles',
        params: { search, page: 1, pageSize: RECORDS_PER_KIND },
      }),
      providesTags: ['Role'],
    }),
  }),
});

export const { usePaletteUsersQuery, usePaletteRolesQuery } = paletteApi;
