import fs from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = fs.existsSync('apps/web/src/features')
  ? fs
      .readdirSync('apps/web/src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/**
 * Power 7's sub-features (issue #44): folders of `features/power7` named after what a user does. Its
 * shared folders are imported by the sub-features and import none of them; a sub-feature imports the
 * shared folders and only the sub-features it names here. A new folder is a sub-feature that imports
 * none until it is named.
 */
const power7 = './apps/web/src/features/power7';
const power7Shared = ['api', 'components', 'hooks', 'lib'];
const power7Uses = {
  // One session's page (process view) composes the others.
  sessions: ['draws', 'insight', 'liability', 'report', 'risk', 'scenarios'],
  insight: ['risk'], // the budget insight shows the risk exceedance curve
  report: ['insight', 'risk'], // the printable report prints the insight and the risk pages
  scenarios: ['upload', 'risk'], // rerun reuses the parameters form; compare draws the tails
  draws: ['upload'], // draws-explorer.test.ts checks the parameters form's file-size rule
  books: ['liability'], // the book's gauge and answers read as the liability limit's
};
const power7SubFeatures = fs.existsSync(power7)
  ? fs
      .readdirSync(power7, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !power7Shared.includes(d.name))
      .map((d) => d.name)
  : [];

const engineSrc = './packages/power7-engine/src';
const engineFolders = fs.existsSync(engineSrc)
  ? fs
      .readdirSync(engineSrc, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/**
 * Import directions (docs/architecture.md, "Workspaces"), enforced rather than hoped for:
 * packages never import apps; services never import the web app or each other;
 * inside the web app shared code → features → app, and features do not import each other.
 */
const boundaryZones = [
  { target: './packages', from: './apps', message: 'Packages must not import from apps.' },
  {
    target: './apps/portal-api',
    from: ['./apps/web', './apps/power7-api'],
    message: 'A service imports only packages.',
  },
  {
    target: './apps/power7-api',
    from: ['./apps/web', './apps/portal-api'],
    message: 'A service imports only packages.',
  },
  {
    target: './apps/web',
    from: ['./apps/portal-api', './apps/power7-api'],
    message: 'The web app talks to services over HTTP only.',
  },
  {
    // The browser bundle shares contracts only (its benches may use the engine's file generator).
    target: './apps/web/src',
    from: ['./packages/server-kit', './packages/power7-engine'],
    message: 'The web app uses @pa/contracts only; server-kit and the engine are server code.',
  },
  {
    target: './packages/contracts',
    from: ['./packages/server-kit', './packages/power7-engine'],
    message: 'Contracts depend on no other package of the workspace.',
  },
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'Features must not import each other; compose them in src/app.',
  })),
  ...power7SubFeatures.map((sub) => ({
    target: `${power7}/${sub}`,
    from: power7,
    except: [...power7Shared, sub, ...(power7Uses[sub] ?? [])].map((folder) => `./${folder}`),
    message:
      'A Power 7 sub-feature imports the shared api/, components/, hooks/, lib/ and only the sub-features power7Uses names.',
  })),
  {
    target: ['components', 'hooks', 'lib'].map((folder) => `${power7}/${folder}`),
    from: power7,
    except: power7Shared.map((folder) => `./${folder}`),
    message: "Power 7's shared folders must not import its sub-features.",
  },
  {
    // The liability endpoint reads its refused rows with the liability sub-feature's parser.
    target: `${power7}/api`,
    from: power7,
    except: ['./api', './lib', './liability/lib'],
    message: "Power 7's shared folders must not import its sub-features.",
  },
  // The engine (packages/power7-engine/README.md): `core/` is pure and stands alone; `store/`, the
  // facade a service uses, is imported by no other folder of the engine.
  {
    target: `${engineSrc}/core`,
    from: engineSrc,
    except: ['./core'],
    message: 'The engine core imports only itself and @pa/contracts.',
  },
  {
    target: engineFolders
      .filter((folder) => !['store', 'cli'].includes(folder))
      .map((folder) => `${engineSrc}/${folder}`),
    from: `${engineSrc}/store`,
    message: 'Only the facade (store/) and the CLI sit above the session store.',
  },
  {
    target: './apps/web/src/features',
    from: './apps/web/src/app',
    message: 'Features must not import the app layer.',
  },
  {
    target: [
      './apps/web/src/components',
      './apps/web/src/lib',
      './apps/web/src/config',
      './apps/web/src/hooks',
      './apps/web/src/types',
      './apps/web/src/utils',
    ],
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared code must not import features or the app layer.',
  },
];

/**
 * Inside each service (docs/architecture.md): routes → modules → db. Route handlers call modules and
 * never reach the database themselves; modules import no plugin or route (what a plugin decorates the
 * app with reaches a module as an argument); the database layer imports nothing above it.
 */
const services = ['portal-api', 'power7-api'];
const layerZones = services.flatMap((service) => {
  const src = `./apps/${service}/src`;
  return [
    {
      target: `${src}/routes`,
      from: `${src}/db`,
      message:
        'Routes call modules; the database (schema, client, queries) is reached through them.',
    },
    {
      target: `${src}/modules`,
      from: [`${src}/routes`, `${src}/plugins`],
      message: 'Modules sit below routes and plugins: pass what they need as arguments.',
    },
    {
      target: `${src}/db`,
      from: [`${src}/modules`, `${src}/routes`, `${src}/plugins`],
      message: 'The database layer imports nothing above it.',
    },
  ];
});

/** Product code never loads the test and benchmark helpers (their own entries). */
const helperImports = {
  group: ['@pa/*/testing/*', '@pa/*/bench/*'],
  message: 'Test and benchmark helpers are for tests and benchmarks only.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'artifacts/**',
      'test-results/**',
      'playwright-report/**',
      'apps/portal-api/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaryZones, ...layerZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // A workspace package is entered by its door (`exports` in its package.json), never by a
      // relative path into its folder.
      'import-x/no-relative-packages': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The engine core is pure computation: no Node built-ins (files, threads, OS), so it runs anywhere
    // and is tested without I/O. What needs them lives in reading/, analysis/, parallel/ or store/.
    files: ['packages/power7-engine/src/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-nodejs-modules': 'error' },
  },
  {
    // Small rooms (issue #44): no product file over 500 lines and no function over 120, in every
    // app and package (tests, e2e specs, benches and scripts aside; a route file is a few per-route
    // registrars). A measured kernel keeps its length, said on the line before it:
    // `// eslint-disable-next-line max-lines-per-function -- measured kernel: <why a split costs speed>`.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['apps/web/src/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    // Test and benchmark helpers sit behind their own entries (`@pa/server-kit/testing/…`,
    // `@pa/power7-engine/testing/…`, `@pa/power7-engine/bench/…`): product code never loads them.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'packages/*/src/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [helperImports] }],
    },
  },
  {
    // No query in a route file: drizzle's operators and `sql` live in the modules (the zones above
    // keep the schema and the client out of routes).
    files: ['apps/*/src/routes/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            helperImports,
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'Routes call modules; queries live in src/modules.',
            },
          ],
        },
      ],
    },
  },
  {
    // Authentication is declared once per route group (the signed-in accounts group in
    // accounts/index.ts, the administration group in admin-routes.ts; mfa-caller.ts takes either a
    // bearer token or an mfaToken), not route by route.
    files: ['apps/portal-api/src/routes/**/*.ts'],
    ignores: [
      'apps/portal-api/src/routes/api/accounts/index.ts',
      'apps/portal-api/src/routes/api/admin-routes.ts',
      'apps/portal-api/src/routes/api/accounts/mfa-caller.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'app',
          property: 'authenticate',
          message: 'Register the route in its group (accounts/index.ts or admin-routes.ts).',
        },
      ],
    },
  },
  // The two type-aware rules (no-floating-promises, no-misused-promises) run in oxlint's tsgolint on
  // TypeScript 7 (`npm run lint:promises`, .oxlintrc.json; ADR 027): ESLint builds no type program.
);
