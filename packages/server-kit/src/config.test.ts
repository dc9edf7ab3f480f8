import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boolVar, ConfigError, listVar, loadConfig, portVar } from './config';

const schema = z.object({ PORT: portVar(8000), FLAG: boolVar(false), ORIGINS: listVar(['a']) });

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(loadConfig(schema, {})).toEqual({ PORT: 8000, FLAG: false, ORIGINS: ['a'] });
    expect(loadConfig(schema, { PORT: '9', FLAG: 'yes', ORIGINS: 'x, y' })).toEqual({
      PORT: 9,
      FLAG: true,
      ORIGINS: ['x', 'y'],
    });
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty', FLAG: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { PORT: '70000' })).toThrow(/PORT:/);
  });
});
