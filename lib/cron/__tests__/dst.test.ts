import { describe, expect, it } from 'vitest';
import { nextOccurrences } from '../index';

const next = (expression: string, zone: string, after: string, count: number) =>
  nextOccurrences(expression, zone, new Date(after), count).map((date) => date.toISOString());

describe('SPEC §7.1 DST: a nonexistent local time is skipped, a repeated one fires once at its first instant', () => {
  it('§7.1 gap: 02:30 America/Los_Angeles on 2024-03-10 is skipped', () => {
    expect(next('30 2 * * ? *', 'America/Los_Angeles', '2024-03-09T12:00:00Z', 2)).toEqual([
      '2024-03-11T09:30:00.000Z', // 02:30 PDT, Mar 11 (Mar 10 02:30 does not exist)
      '2024-03-12T09:30:00.000Z', // 02:30 PDT
    ]);
  });

  it('§7.1 overlap: 01:30 America/Los_Angeles on 2024-11-03 fires once, at PDT', () => {
    expect(next('30 1 * * ? *', 'America/Los_Angeles', '2024-11-02T12:00:00Z', 2)).toEqual([
      '2024-11-03T08:30:00.000Z', // 01:30 PDT (first pass); 09:30Z = 01:30 PST does not fire
      '2024-11-04T09:30:00.000Z', // 01:30 PST, next day
    ]);
  });

  it('§7.1 gap: 02:30 America/New_York on 2026-03-08 is skipped', () => {
    expect(next('30 2 * * ? *', 'America/New_York', '2026-03-07T12:00:00Z', 1)).toEqual([
      '2026-03-09T06:30:00.000Z', // 02:30 EDT, next day
    ]);
  });

  it('§7.1 sub-hourly in the repeated hour: 0/30 America/New_York fires 01:00 and 01:30 of the first pass only', () => {
    expect(next('0/30 * * * ? *', 'America/New_York', '2026-11-01T04:45:00Z', 4)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT; 01:00 and 01:30 EST (06:00Z, 06:30Z) do not fire
      '2026-11-01T07:00:00.000Z', // 02:00 EST
      '2026-11-01T07:30:00.000Z', // 02:30 EST
    ]);
  });

  it('§7.1 sub-hourly in the repeated hour: 0/30 Europe/Berlin on 2024-10-27', () => {
    expect(next('0/30 * * * ? *', 'Europe/Berlin', '2024-10-26T23:45:00Z', 4)).toEqual([
      '2024-10-27T00:00:00.000Z', // 02:00 CEST
      '2024-10-27T00:30:00.000Z', // 02:30 CEST; 02:00 and 02:30 CET (01:00Z, 01:30Z) do not fire
      '2024-10-27T02:00:00.000Z', // 03:00 CET
      '2024-10-27T02:30:00.000Z', // 03:30 CET
    ]);
  });

  it('§7.1 every minute across the Europe/Berlin spring gap 2024-03-31 02:00–03:00', () => {
    expect(next('* * * * ? *', 'Europe/Berlin', '2024-03-31T00:58:00Z', 2)).toEqual([
      '2024-03-31T00:59:00.000Z', // 01:59 CET
      '2024-03-31T01:00:00.000Z', // 03:00 CEST: 02:00–02:59 do not exist
    ]);
  });

  it('§7.1 30-minute DST gap: 02:15 Australia/Lord_Howe on 2024-10-06 is skipped', () => {
    expect(next('15 2 * * ? *', 'Australia/Lord_Howe', '2024-10-04T12:00:00Z', 2)).toEqual([
      '2024-10-04T15:45:00.000Z', // 02:15 +10:30, Oct 5
      '2024-10-06T15:15:00.000Z', // 02:15 +11:00, Oct 7 (Oct 6 02:00–02:29 does not exist)
    ]);
  });

  it('§7.1 30-minute DST overlap: 01:45 Australia/Lord_Howe on 2024-04-07 fires once', () => {
    expect(next('45 1 * * ? *', 'Australia/Lord_Howe', '2024-04-06T12:00:00Z', 2)).toEqual([
      '2024-04-06T14:45:00.000Z', // 01:45 +11:00 (first pass); 15:15Z = 01:45 +10:30 does not fire
      '2024-04-07T15:15:00.000Z', // 01:45 +10:30, Apr 8
    ]);
    expect(next('0/30 * * * ? *', 'Australia/Lord_Howe', '2024-04-06T13:45:00Z', 3)).toEqual([
      '2024-04-06T14:00:00.000Z', // 01:00 +11:00
      '2024-04-06T14:30:00.000Z', // 01:30 +11:00; 01:30 +10:30 (15:00Z) does not fire
      '2024-04-06T15:30:00.000Z', // 02:00 +10:30
    ]);
  });

  it('§7.1 gap at midnight: 00:00 America/Santiago on 2024-09-08 is skipped', () => {
    expect(next('0 0 * * ? *', 'America/Santiago', '2024-09-06T12:00:00Z', 2)).toEqual([
      '2024-09-07T04:00:00.000Z', // 00:00 -04, Sep 7
      '2024-09-09T03:00:00.000Z', // 00:00 -03, Sep 9 (Sep 8 starts at 01:00)
    ]);
    expect(next('30 0 8 9 ? 2024', 'America/Santiago', '2024-01-01T00:00:00Z', 1)).toEqual([]);
  });

  it('§7.1 overlap before midnight: 23:30 America/Santiago on 2024-04-06 fires once', () => {
    expect(next('30 23 * * ? *', 'America/Santiago', '2024-04-06T12:00:00Z', 2)).toEqual([
      '2024-04-07T02:30:00.000Z', // 23:30 -03, Apr 6 (first pass); 03:30Z = 23:30 -04 does not fire
      '2024-04-08T03:30:00.000Z', // 23:30 -04, Apr 7
    ]);
  });

  it('§7.1 45-minute offsets: Asia/Kathmandu (+05:45) and Asia/Kolkata (+05:30)', () => {
    expect(next('0 9 * * ? *', 'Asia/Kathmandu', '2024-06-01T00:00:00Z', 1)).toEqual(['2024-06-01T03:15:00.000Z']); // 09:00 +05:45
    expect(next('30 18 * * ? *', 'Asia/Kolkata', '2024-06-01T00:00:00Z', 1)).toEqual(['2024-06-01T13:00:00.000Z']); // 18:30 +05:30
  });

  it('§7.1 Pacific/Chatham (+12:45/+13:45): 03:00 skipped on 2024-09-29, once on 2024-04-07', () => {
    expect(next('0 3 * * ? *', 'Pacific/Chatham', '2024-09-27T00:00:00Z', 2)).toEqual([
      '2024-09-27T14:15:00.000Z', // 03:00 +12:45, Sep 28
      '2024-09-29T13:15:00.000Z', // 03:00 +13:45, Sep 30 (Sep 29 02:45–03:44 does not exist)
    ]);
    expect(next('0 3 * * ? *', 'Pacific/Chatham', '2024-04-06T00:00:00Z', 2)).toEqual([
      '2024-04-06T13:15:00.000Z', // 03:00 +13:45, Apr 7 (first pass); 14:15Z = 03:00 +12:45 does not fire
      '2024-04-07T14:15:00.000Z', // 03:00 +12:45, Apr 8
    ]);
  });

  it('§7.1 `after` inside the second pass of a repeated hour still moves forward', () => {
    // after = 01:30 EST (second pass); 01:31–01:59 already fired in the first pass
    expect(next('* * * * ? *', 'America/New_York', '2026-11-01T06:30:00Z', 2)).toEqual([
      '2026-11-01T07:00:00.000Z', // 02:00 EST
      '2026-11-01T07:01:00.000Z', // 02:01 EST
    ]);
  });
});
