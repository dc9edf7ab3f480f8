import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * WCAG 1.4.11: the focus ring (`--ring`) must reach 3:1 against every surface it is drawn on, in
 * both themes. Computed from the CSS variables of index.css, so a token change cannot slip by.
 */
const css = fs.readFileSync(path.join(__dirname, '..', 'index.css'), 'utf8');
const block = (selector: RegExp) => css.slice(css.search(selector));

/** The variable's value in the first block after `from` (`oklch(L C H)`, maybe with `/ alpha`). */
function oklchOf(from: string, name: string): [number, number, number] {
  const match = new RegExp(`--${name}:\\s*oklch\\(([^)]*)\\)`).exec(from);
  if (!match?.[1]) throw new Error(`--${name} is not an oklch() colour`);
  const [l, c, h] = match[1].split('/')[0]!.trim().split(/\s+/).map(Number);
  return [l!, c!, h ?? 0];
}

/** OKLCH → linear sRGB (Björn Ottosson's matrices), clamped to the gamut as a browser shows it. */
function linearRgb([l, c, h]: [number, number, number]) {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
    -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
    -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_,
  ].map((v) => Math.min(1, Math.max(0, v)));
}

/** WCAG relative luminance (linear sRGB is what the formula's gamma step produces). */
const luminance = (colour: [number, number, number]) => {
  const [r, g, b] = linearRgb(colour);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};

function contrast(x: [number, number, number], y: [number, number, number]) {
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi! + 0.05) / (lo! + 0.05);
}

const SURFACES = ['background', 'card', 'popover', 'muted', 'sidebar', 'sidebar-accent'];
const THEMES = { light: block(/:root\s*{/), dark: block(/\.dark\s*{/) };

describe('focus ring contrast (WCAG 1.4.11, 3:1)', () => {
  it('the converter agrees with known values: white on black is 21:1, black on black 1:1', () => {
    expect(contrast([1, 0, 0], [0, 0, 0])).toBeCloseTo(21, 1);
    expect(contrast([0, 0, 0], [0, 0, 0])).toBe(1);
    // oklch(0.5 0 0) is sRGB #636363 (luminance 0.125): 6.0:1 against white.
    expect(contrast([0.5, 0, 0], [1, 0, 0])).toBeCloseTo(6.0, 1);
  });

  for (const [theme, from] of Object.entries(THEMES)) {
    for (const surface of SURFACES) {
      it(`--ring against --${surface} in the ${theme} theme`, () => {
        const ratio = contrast(oklchOf(from, 'ring'), oklchOf(from, surface));
        console.info(`focus ring on ${surface} (${theme}): ${ratio.toFixed(2)}:1`);
        expect(ratio, `${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(3);
      });
    }
    it(`--sidebar-ring equals --ring in the ${theme} theme`, () => {
      expect(oklchOf(from, 'sidebar-ring')).toEqual(oklchOf(from, 'ring'));
    });
  }
});
