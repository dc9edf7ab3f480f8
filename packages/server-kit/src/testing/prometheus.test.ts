import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './prometheus';

describe("the tests' Prometheus text parser", () => {
  it('keeps each labelled histogram series apart, with escapes and special values', () => {
    const families = parsePrometheusText(
      [
        '# HELP h_seconds Time.',
        '# TYPE h_seconds histogram',
        'h_seconds_bucket{le="0.1",route="/a"} 1',
        'h_seconds_bucket{le="+Inf",route="/a"} 2',
        'h_seconds_sum{route="/a"} 0.3',
        'h_seconds_count{route="/a"} 2',
        'h_seconds_count{route="/b \\"x\\""} 5',
        '# TYPE g gauge',
        'g +Inf',
        '',
      ].join('\n'),
    );
    const samples = families.get('h_seconds')!.samples;
    expect(samples).toHaveLength(5);
    expect(samples.at(-1)).toEqual({
      name: 'h_seconds_count',
      labels: { route: '/b "x"' },
      value: 5,
    });
    expect(families.get('g')!.samples[0]!.value).toBe(Infinity);
  });

  it.each([
    ['an undeclared metric', 'x 1'],
    ['a bad value', '# TYPE x gauge\nx one'],
    ['a bad label', '# TYPE x gauge\nx{a=b} 1'],
    ['a series twice', '# TYPE x gauge\nx{a="1"} 1\nx{a="1"} 2'],
  ])('rejects %s', (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
