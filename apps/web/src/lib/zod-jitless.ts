import { z } from 'zod';

// Zod compiles fast object parsers with `new Function`, probing `Function('')` when the first object
// schema is built; the CSP (script-src without 'unsafe-eval') blocks that and reports a violation.
// This module is main.tsx's first import, so it runs before any schema module is evaluated.
z.config({ jitless: true });
