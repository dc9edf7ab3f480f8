import { describe, expect, it } from 'vitest';
import { derivePower7Url } from './env';

describe('Power 7 API address', () => {
  it('is the current host on the port after the portal, 8001 by default', () => {
    expect(derivePower7Url({ protocol: 'http:', hostname: 'localhost', port: '5173' })).toBe(
      'http://localhost:8001',
    );
    expect(derivePower7Url({ protocol: 'https:', hostname: 'pa.example', port: '' })).toBe(
      'https://pa.example:8001',
    );
    expect(derivePower7Url({ protocol: 'http:', hostname: '127.0.0.1', port: '8000' })).toBe(
      'http://127.0.0.1:8001',
    );
    expect(derivePower7Url({ protocol: 'http:', hostname: '127.0.0.1', port: '18000' })).toBe(
      'http://127.0.0.1:18001',
    );
  });
});
