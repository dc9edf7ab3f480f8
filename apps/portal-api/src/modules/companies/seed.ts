import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PortalDb } from '../../db/client';
import { companies } from '../../db/schema';
import { hashPassword } from '../accounts/passwords';
import { createCompany, ensureSystemAccess } from './create-company';

export const DEMO_COMPANY = 'Demo Company';
export const DEMO_ADMIN = { userName: 'admin', email: 'admin@demo.local' } as const;

export interface SeedResult {
  /** True when this start created the Demo Company. */
  created: boolean;
  /** False when the database held other companies but no Demo Company: none is made then. */
  demoCompany?: boolean;
  /** The generated password, only when this start generated it. */
  generatedPassword?: string;
}

/**
 * First start on an empty database: creates "Demo Company" and its administrator `admin` (`admin@demo.local`) with
 * DEMO_ADMIN_PASSWORD or a generated password. Every start: makes sure every company has the current
 * system permissions and its Administrator role holds them. Idempotent.
 */
export async function seed(db: PortalDb, demoAdminPassword?: string): Promise<SeedResult> {
  const [demo] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(sql`lower(${companies.name})`, DEMO_COMPANY.toLowerCase()));
  if (demo) {
    await ensureAllCompanies(db);
    return { created: false };
  }
  // Only an empty database gets the demo: a company made earlier (e.g. `npm run admin --
  // create-company` before the first start) may already use its names, and a start must never fail
  // because of data a user made.
  const [anyCompany] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (anyCompany) {
    await ensureAllCompanies(db);
    return { created: false, demoCompany: false };
  }
  const generated = demoAdminPassword ? undefined : randomBytes(15).toString('base64url');
  const password = demoAdminPassword ?? generated ?? '';
  const result = await createCompany(db, {
    name: DEMO_COMPANY,
    admin: {
      ...DEMO_ADMIN,
      userFirstName: 'Demo',
      userLastName: 'Admin',
      passwordHash: await hashPassword(password),
    },
  });
  await ensureAllCompanies(db);
  return result.created && generated
    ? { created: true, generatedPassword: generated }
    : { created: result.created };
}

async function ensureAllCompanies(db: PortalDb) {
  for (const company of await db.select({ id: companies.id }).from(companies)) {
    await db.transaction((tx) => ensureSystemAccess(tx, company.id));
  }
}
