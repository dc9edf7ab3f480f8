import { createHmac } from 'node:crypto';

/* RFC 6238 written here on its own (RFC 4648 base32, RFC 4226 truncation): no code shared with the product. */
export function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** An authenticator app's code for a base32 secret at a 30-second step (default: the current one). */
export function totp(secret: string, step = Math.floor(Date.now() / 30_000)): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

export const stepNow = () => Math.floor(Date.now() / 30_000);

/** Waits (on the clock) until at least 5 s are left of the current step, so `stepNow` holds for the request. */
export async function awayFromStepEdge() {
  while (30_000 - (Date.now() % 30_000) < 5_000)
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 50));
}
