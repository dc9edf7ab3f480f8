import type { UserDetails } from '@pa/contracts/accounts';
import type { AuthState } from '@/lib/signed-in/auth-slice';
import { fakeJwt } from './msw';

/** The demo company's administrator as /accounts/verify answers; `overrides` change fields. */
export const demoAdmin = (overrides: Partial<UserDetails> = {}): UserDetails => ({
  _id: 'u1',
  userName: 'admin',
  email: 'admin@demo.local',
  userFirstName: 'Demo',
  userLastName: 'Admin',
  phone: '',
  status: 'active',
  companyId: 'c1',
  companyName: 'Demo Company',
  roles: [{ _id: 'r1', name: 'Administrator' }],
  permissions: ['users.read', 'power7.run'],
  lastSignInAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

/** The store of a browser signed in as `userDetails`, its access token good for 15 minutes. */
export const signedInAs = (userDetails: UserDetails): Partial<AuthState> => ({
  accessToken: fakeJwt(900),
  isAuthenticated: true,
  userDetails,
});
