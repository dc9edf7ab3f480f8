import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Input } from '@/components/ui/input';
import { portalApi } from '@/lib/api/portal-api';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { Field } from './field';
import { needsOf, type FieldsProps, type RecordDefinition } from './record-definition';
import { recordPages } from './record-scaffold';

/** A record type the kit has never seen: a department with a name (guarded by the roles codes). */
interface Department {
  _id: string;
  name: string;
  version: number;
}
const schema = z.object({ name: z.string().min(1, 'Give it a name.') });
type DepartmentForm = z.infer<typeof schema>;

const api = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getDepartment: build.query<Department, string>({ query: (id) => `/departments/${id}` }),
    createDepartment: build.mutation<Department, DepartmentForm>({
      query: (body) => ({ url: '/departments', method: 'POST', body }),
    }),
    updateDepartment: build.mutation<Department, { id: string; body: object }>({
      query: ({ id, body }) => ({ url: `/departments/${id}`, method: 'PATCH', body }),
    }),
    deleteDepartment: build.mutation<void, string>({
      query: (id) => ({ url: `/departments/${id}`, method: 'DELETE' }),
    }),
    restoreDepartment: build.mutation<Department, string>({
      query: (id) => ({ url: `/departments/${id}/restore`, method: 'POST' }),
    }),
  }),
});

function DepartmentFields({ form }: FieldsProps<Department, DepartmentForm, undefined>) {
  return (
    <Field id="department-name" label="Name" error={form.formState.errors.name?.message}>
      {(aria) => <Input {...aria} {...form.register('name')} />}
    </Field>
  );
}

const DEPARTMENTS: RecordDefinition<Department, DepartmentForm> = {
  noun: 'department',
  plural: 'departments',
  listPath: '/app/company/departments',
  need: needsOf('roles'),
  useQuery: api.endpoints.getDepartment.useQuery,
  nameOf: (d) => d.name,
  form: {
    schema: () => schema,
    empty: { name: '' },
    toValues: (d) => ({ name: d.name }),
    labels: { name: 'Name' },
    description: () => 'A part of the company.',
    className: 'max-w-2xl',
    useCreate: api.endpoints.createDepartment.useMutation,
    useUpdate: api.endpoints.updateDepartment.useMutation,
    endpoint: api.endpoints.getDepartment,
    Fields: DepartmentFields,
  },
  useRemove: api.endpoints.deleteDepartment.useMutation,
  useRestore: api.endpoints.restoreDepartment.useMutation,
  restoreNeed: 'roles.create',
  useDeleteWording: () => (d) => ({ what: [`The department “${d.name}”.`], block: null }),
};
const pages = recordPages(DEPARTMENTS);
const routes = [
  { path: '/app/company/departments', element: <p>The departments list</p> },
  { path: '/app/company/departments/create', element: <pages.Create /> },
  {
    path: '/app/company/departments/:id/read',
    element: <pages.View id="d1">{(d) => <h1>Department {d.name}</h1>}</pages.View>,
  },
  { path: '/app/company/departments/:id/delete', element: <pages.Delete id="d1" /> },
];
const sales: Department = { _id: 'd1', name: 'Sales', version: 1 };

const openAs = (permissions: string[], path: string) =>
  renderApp(routes, path, {
    accessToken: fakeJwt(900),
    isAuthenticated: true,
    userDetails: { _id: 'u1', permissions } as never,
  });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(http.get(`${PORTAL}/departments/d1`, () => HttpResponse.json(okEnvelope(sales))));
});

describe('a record type defined once: its pages come from the kit', () => {
  it('create: refused without the create permission', async () => {
    openAs(['roles.read'], '/app/company/departments/create');
    expect(await screen.findByText(/creating departments/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });

  it('create: checks the form, posts it, then shows the new record', async () => {
    let posted: unknown;
    server.use(
      http.post(`${PORTAL}/departments`, async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(okEnvelope(sales));
      }),
    );
    openAs(['roles.read', 'roles.create'], '/app/company/departments/create');
    expect(await screen.findByRole('heading', { name: 'Create department' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create department' }));
    expect(await screen.findByText('Give it a name.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'Sales');
    await userEvent.click(screen.getByRole('button', { name: 'Create department' }));
    expect(
      await screen.findByRole('heading', { name: 'Department Sales' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(posted).toEqual({ name: 'Sales' });
  });

  it('delete: says what goes and that it can be undone, deletes, and goes back to the list', async () => {
    let deleted = false;
    server.use(
      http.delete(`${PORTAL}/departments/d1`, () => {
        deleted = true;
        return HttpResponse.json(okEnvelope(null));
      }),
    );
    openAs(['roles.read', 'roles.delete', 'roles.create'], '/app/company/departments/d1/delete');
    expect(
      await screen.findByRole('heading', { name: 'Delete department Sales?' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The department “Sales”. You can undo it for a few seconds afterwards.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The departments list')).toBeInTheDocument();
    expect(deleted).toBe(true);
  });
});
