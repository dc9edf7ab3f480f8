import { describe, expect, it } from 'vitest';
import { SpeedMeter } from './upload';

describe('upload speed', () => {
  it('measures the recent speed and the time left', () => {
    const meter = new SpeedMeter(1000);
    expect(meter.add(0, 0, 1000)).toEqual({
      at: 0,
      loaded: 0,
      total: 1000,
      bytesPerSecond: 0,
      secondsLeft: null,
    });
    const p = meter.add(500, 100, 1000);
    expect(p.bytesPerSecond).toBe(200);
    expect(p.secondsLeft).toBe(4.5);
    // older samples drop out of the window: a slower second half shows at once
    meter.add(1000, 200, 1000);
    const late = meter.add(2500, 250, 1000);
    expect(late.bytesPerSecond).toBeCloseTo(50 / 1.5);
  });
});
