/**
 * Proleptic Gregorian calendar arithmetic with no timezone. A "wall ms" is a wall time read as if it
 * were UTC (days since 1970-01-01 × 86 400 000 + time of day); it is a WallTime packed into a number,
 * never an Instant.
 */
import type { WallTime } from './types';

export const MS_PER_SECOND = 1_000;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1–12) of `year`: 28–31. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_LENGTHS[month - 1];
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day: dayOfYear - Math.floor((153 * mp + 2) / 5) + 1 };
}

/** Weekday of a day count since 1970-01-01: 0 = Sunday … 6 = Saturday. */
export function weekdayOfDays(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

/** Packs a wall time into wall ms. */
export function wallMsOf(year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  return daysFromCivil(year, month, day) * MS_PER_DAY + hour * MS_PER_HOUR + minute * MS_PER_MINUTE + second * MS_PER_SECOND;
}

/** Unpacks wall ms (whole seconds) into a WallTime. */
export function wallTimeOf(wallMs: number): Required<WallTime> {
  const days = Math.floor(wallMs / MS_PER_DAY);
  const { year, month, day } = civilFromDays(days);
  const seconds = Math.floor((wallMs - days * MS_PER_DAY) / MS_PER_SECOND);
  return { year, month, day, hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60 };
}

/** True when every field is an integer in range and the day exists in that month. */
export function isRealWallTime(wall: WallTime): boolean {
  const { year, month, day, hour, minute, second = 0 } = wall;
  return (
    [year, month, day, hour, minute, second].every(Number.isInteger) &&
    year >= 1 && year <= 9999 &&
    month >= 1 && month <= 12 &&
    day >= 1 && day <= daysInMonth(year, month) &&
    hour >= 0 && hour <= 23 &&
    minute >= 0 && minute <= 59 &&
    second >= 0 && second <= 59
  );
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm:ss` for a wall time. */
export function formatWallTime(wall: WallTime): string {
  return `${pad(wall.year, 4)}-${pad(wall.month, 2)}-${pad(wall.day, 2)}T${pad(wall.hour, 2)}:${pad(wall.minute, 2)}:${pad(wall.second ?? 0, 2)}`;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** Reads a strict `YYYY-MM-DDTHH:mm:ss` (no offset, no fraction); null when malformed or not a real date/time. */
export function parseWallTime(text: string): Required<WallTime> | null {
  const match = typeof text === 'string' ? LOCAL_TIME.exec(text) : null;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const wall = { year, month, day, hour, minute, second };
  return isRealWallTime(wall) ? wall : null;
}
