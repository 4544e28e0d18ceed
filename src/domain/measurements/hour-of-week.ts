// Which hour of the week (Monday 00:00 = 0 … Sunday 23:00 = 167) a timestamp falls in, in a time
// zone, from the zone's UTC offset at that very second (Intl, the IANA database Node carries).
// Offsets are looked up at the start of each UTC hour and kept, so a series of 200,000 samples costs
// a few hundred lookups. Where the offset at the start of a UTC hour and at the start of the next
// differ, the second of the change is found by bisection (a dozen lookups) and kept too: a change
// need not fall on a UTC hour (America/St_Johns, -3:30/-2:30, changes at 05:30 and 04:30 UTC;
// Asia/Kathmandu went from +5:30 to +5:45 at 18:30 UTC). No zone changes its offset twice within an
// hour, which this relies on.

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86_400;
export const HOURS_PER_WEEK = 168;

/** A zone Intl knows (IANA name such as Europe/Berlin, or UTC); false otherwise. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type HourOfWeek = (unixSeconds: number) => number;

/** The offsets within one UTC hour: `before` until the second `change` (excluded), `after` from it. */
interface HourOffsets {
  before: number;
  after: number;
  /** The first second at the `after` offset; Infinity when the offset holds all the hour. */
  change: number;
}

/** The mapping for one zone; the zone must be known (isKnownTimeZone). */
export function hourOfWeekIn(zone: string): HourOfWeek {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  /** The offset in seconds at a whole second. */
  const offsetAt = (second: number): number => {
    const at = second * 1000;
    const part = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
    for (const p of format.formatToParts(at)) if (p.type in part) part[p.type as keyof typeof part] = Number(p.value);
    return (Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second) - at) / 1000;
  };
  const atHourStart = new Map<number, number>();
  const offsetAtHourStart = (utcHour: number): number => {
    let offset = atHourStart.get(utcHour);
    if (offset === undefined) {
      offset = offsetAt(utcHour * SECONDS_PER_HOUR);
      atHourStart.set(utcHour, offset);
    }
    return offset;
  };
  const hours = new Map<number, HourOffsets>();
  const offsetsIn = (utcHour: number): HourOffsets => {
    let hour = hours.get(utcHour);
    if (hour === undefined) {
      const before = offsetAtHourStart(utcHour);
      const after = offsetAtHourStart(utcHour + 1);
      let change = Infinity;
      if (before !== after) {
        // The offset is `before` at lo and not at hi; offsets change on whole seconds.
        let lo = utcHour * SECONDS_PER_HOUR;
        let hi = lo + SECONDS_PER_HOUR;
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offsetAt(mid) === before) lo = mid;
          else hi = mid;
        }
        change = hi;
      }
      hour = { before, after, change };
      hours.set(utcHour, hour);
    }
    return hour;
  };
  return (unixSeconds) => {
    const hour = offsetsIn(Math.floor(unixSeconds / SECONDS_PER_HOUR));
    const local = unixSeconds + (unixSeconds >= hour.change ? hour.after : hour.before);
    const day = Math.floor(local / SECONDS_PER_DAY);
    // 1970-01-01 was a Thursday: day 0 is weekday 3 counted from Monday.
    const weekday = (((day + 3) % 7) + 7) % 7;
    return weekday * 24 + Math.floor((local - day * SECONDS_PER_DAY) / SECONDS_PER_HOUR);
  };
}
