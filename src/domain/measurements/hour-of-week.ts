// Which hour of the week (Monday 00:00 = 0 … Sunday 23:00 = 167) a timestamp falls in, in a time
// zone. The zone's offset is looked up once per UTC hour (Intl, the IANA database Node carries) and
// kept, so a series of 200,000 samples costs a few hundred lookups; daylight-saving changes, which
// happen on the hour in every zone that has them, are followed.

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
  const offsets = new Map<number, number>();
  const offsetAt = (utcHour: number): number => {
    let offset = offsets.get(utcHour);
    if (offset === undefined) {
      const at = utcHour * SECONDS_PER_HOUR * 1000;
      const part = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
      for (const p of format.formatToParts(at)) if (p.type in part) part[p.type as keyof typeof part] = Number(p.value);
      const local = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
      offset = (local - at) / 1000;
      offsets.set(utcHour, offset);
    }
    return offset;
  };
  return (unixSeconds) => {
    const local = unixSeconds + offsetAt(Math.floor(unixSeconds / SECONDS_PER_HOUR));
    const day = Math.floor(local / SECONDS_PER_DAY);
    // 1970-01-01 was a Thursday: day 0 is weekday 3 counted from Monday.
    const weekday = (((day + 3) % 7) + 7) % 7;
    return weekday * 24 + Math.floor((local - day * SECONDS_PER_DAY) / SECONDS_PER_HOUR);
  };
}
