import { describe, expect, it } from 'vitest';
import { flexibleFireAt, flexibleOffsetSeconds } from '../flexible-window';

describe('SPEC §12.4 flexible time window offsets', () => {
  const id = '5f0c2b1e-3d4a-4b6c-8e9f-0a1b2c3d4e5f';

  it('deterministic per occurrence, inside [0, window)', () => {
    const t = new Date('2026-05-01T09:00:00Z');
    const offset = flexibleOffsetSeconds(id, t, 10);
    expect(flexibleOffsetSeconds(id, new Date(t), 10)).toBe(offset);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(600);
    expect(flexibleFireAt(id, t, 10).getTime() - t.getTime()).toBe(offset * 1000);
    expect(flexibleFireAt(id, t, null)).toBe(t);
  });

  it('spreads evenly: 20,000 occurrences over 10 equal parts of a 60-minute window, each within 5% of 2,000', () => {
    const counts = new Array(10).fill(0);
    for (let k = 0; k < 20_000; k++) {
      const offset = flexibleOffsetSeconds(id, new Date(Date.UTC(2026, 0, 1) + k * 60_000), 60);
      counts[Math.floor(offset / 360)]++;
    }
    for (const c of counts) expect(Math.abs(c - 2000)).toBeLessThan(100);
  });

  it('different schedules get different offsets for the same instant', () => {
    const t = new Date('2026-05-01T09:00:00Z');
    const offsets = new Set(Array.from({ length: 200 }, (_, i) => flexibleOffsetSeconds(`schedule-${i}`, t, 1440)));
    expect(offsets.size).toBeGreaterThan(190);
  });
});
