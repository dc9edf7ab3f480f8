/**
 * The portal's tables (docs/decisions/002-accounts-and-tokens.md), one file per area; drizzle-kit reads
 * this entry (drizzle.config.ts). Conventions: `common.ts`.
 */
export * from './common';
export * from './access';
export * from './sign-ins';
export * from './mail-and-audit';
export * from './mfa';
