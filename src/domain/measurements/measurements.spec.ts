import { jest } from '@jest/globals';
import fc from 'fast-check';
import { Decimal } from '../money/money.js';
import { estimateInferenceCost } from '../cost-model/index.js';
import { estimateInput } from '../cost-model/estimate.factories.js';
import { analyzeTraffic, analyzeUtilization, coverageOf, counterRates, nearestRank, seriesSteps } from './analyze.js';
import { hourOfWeekIn, isKnownTimeZone } from './hour-of-week.js';
import { estimateFromMeasurements, type MeasurementsInput } from './measured-estimate.js';
import { MeasurementError, parseCsv, parsePrometheusMatrix, sampleCountUpperBound } from './series.js';
import { asMatrix, GPU_OFFSETS, syntheticSamples, UTILIZATION_MEAN_PCT } from './testing/synthetic-week.js';

const utc = hourOfWeekIn('UTC');
// Monday 2026-11-02 00:00 UTC.
const MONDAY = Date.parse('2026-11-02T00:00:00Z') / 1000;

function refusal(f: () => unknown): MeasurementError {
  try {
    f();
  } catch (error) {
    if (error instanceof MeasurementError) return error;
    throw error;
  }
  throw new Error('was not refused');
}

describe('parsing a range-query answer', () => {
  const matrix = (values: unknown[]) => JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: { gpu: '0' }, values }] } });

  it('reads the series, labels and samples', () => {
    const [s] = parsePrometheusMatrix(
      matrix([
        [MONDAY, '12.5'],
        [MONDAY + 60, '1e1'],
      ]),
    );
    expect(s).toEqual({ labels: { gpu: '0' }, t: [MONDAY, MONDAY + 60], v: [12.5, 10] });
  });

  it.each([
    ['an instant query', JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }), 'data.resultType', /"vector".*query_range/],
    ['NaN', matrix([[MONDAY, 'NaN']]), 'data.result[0].values[0][1]', /not a finite number/],
    ['+Inf', matrix([[MONDAY, '+Inf']]), 'data.result[0].values[0][1]', /not a finite number/],
    ['a word', matrix([[MONDAY, 'abc']]), 'data.result[0].values[0][1]', /not a finite number/],
    [
      'timestamps out of order',
      matrix([
        [MONDAY + 60, '1'],
        [MONDAY, '2'],
      ]),
      'data.result[0].values[1][0]',
      /not after/,
    ],
    [
      'a repeated timestamp',
      matrix([
        [MONDAY, '1'],
        [MONDAY, '2'],
      ]),
      'data.result[0].values[1][0]',
      /not after/,
    ],
    ['a failed query', JSON.stringify({ status: 'error', error: 'bad_data' }), 'status', /failed \(bad_data\)/],
    ['no JSON', '{"status":', '', /is not JSON/],
  ])('refuses %s, naming the place', (_name, text, field, message) => {
    const error = refusal(() => parsePrometheusMatrix(text));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('counts at most one sample per "[" before parsing', () => {
    const text = matrix([
      [MONDAY, '1'],
      [MONDAY + 60, '2'],
      [MONDAY + 120, '3'],
    ]);
    // 3 samples, plus the series' list and the result list.
    expect(sampleCountUpperBound(text, 'PROMETHEUS')).toBe(5);
    expect(sampleCountUpperBound('t,v\n1,2\n3,4', 'CSV')).toBe(3);
  });
});

describe('parsing a CSV', () => {
  it('reads Unix seconds and ISO date-times, after an optional header', () => {
    const [s] = parseCsv('timestamp,value\n2026-11-02T00:00:00Z,3\n1793577660,4.5\n');
    expect(s?.t).toEqual([MONDAY, 1793577660]);
    expect(s?.v).toEqual([3, 4.5]);
  });

  it('names the line of a bad value or time', () => {
    expect(refusal(() => parseCsv('1,2\n2,x')).field).toBe('line 2');
    expect(refusal(() => parseCsv('1,2\n2026-11-02 10:00,3')).message).toMatch(/ISO 8601/);
    expect(refusal(() => parseCsv('5,2\n4,3')).message).toMatch(/not after/);
  });

  it('reads quoted cells, CRLF and LF, blank lines, spaces and a byte order mark', () => {
    const text = `\uFEFF"timestamp","value"\r\n\r\n " 2026-11-02T00:00:00Z " , " 3 "\r\n \t \n${MONDAY + 60},  4.5  \n\n`;
    expect(parseCsv(text)).toEqual([{ labels: {}, t: [MONDAY, MONDAY + 60], v: [3, 4.5] }]);
    expect(parseCsv('1,2\r\n3,4\n5,6\r\n')[0]?.t).toEqual([1, 3, 5]);
  });

  it('counts lines as written, blank lines and quoted line ends included', () => {
    expect(refusal(() => parseCsv('\n\n1,2\n\n3,x')).field).toBe('line 5');
    expect(refusal(() => parseCsv('1,2\r\n\r\n3,x')).field).toBe('line 3');
    // The cell "3⏎4" starts on line 2 and ends on line 3.
    expect(refusal(() => parseCsv('1,2\n"3\n4",5'))).toMatchObject({ field: 'line 2', message: expect.stringMatching(/neither Unix seconds/) });
    // The value " 2⏎" (trimmed: 2) ends on line 2, so "3,x" is line 3.
    expect(refusal(() => parseCsv('1," 2\n"\n3,x')).field).toBe('line 3');
  });

  it.each([
    ['three cells', '1,2\n3,4,5', 'line 2', /has 3 cells; each line is timestamp,value/],
    ['one cell', '1,2\n\n3', 'line 3', /has 1 cell; each line is timestamp,value/],
    ['a quoted comma', '1,"2,5"', 'line 1', /"2,5" is not a finite number/],
    ['a quote not closed', '1,2\n3,"4\n5,6', 'line 3', /quote.*not closed/],
    ['text after a closing quote', '1,2\n3,"4"x\n5,6', 'line 2', /closing quote/],
    ['a quote inside an unquoted cell', '1,2\n3,4"x\n5,6', 'line 2', /quote.*unquoted cell/],
    ['a second header', 'timestamp,value\ntimestamp,value\n1,2', 'line 2', /neither Unix seconds/],
    ['a name over a number (not a header)', 'x,5\n1,2', 'line 1', /neither Unix seconds/],
    ['a header alone', 'timestamp,value\n', '', /holds no sample/],
  ])('refuses %s, naming the line', (_name, text, field, message) => {
    const error = refusal(() => parseCsv(text));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });
});

describe('timestamps and numbers', () => {
  // 2100-01-01T00:00:00Z: 130 years after 1970 with 32 leap days (1972 … 2096), 47,482 days of 86,400 s.
  const YEAR_2100 = 47_482 * 86_400;
  const matrix = (values: unknown[]) => JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: {}, values }] } });

  it('takes Unix seconds from 1970 to the last second before 2100', () => {
    expect(YEAR_2100).toBe(4_102_444_800);
    expect(parseCsv(`0,1\n${YEAR_2100 - 1},2`)[0]?.t).toEqual([0, YEAR_2100 - 1]);
    expect(parseCsv('2099-12-31T23:59:59Z,1')[0]?.t).toEqual([YEAR_2100 - 1]);
    expect(parsePrometheusMatrix(matrix([[YEAR_2100 - 0.5, '1']]))[0]?.t).toEqual([YEAR_2100 - 0.5]);
  });

  it.each([
    ['microseconds', '1000000000000000,10', /outside 1970-01-01 to 2100-01-01.*microseconds/],
    ['milliseconds', `${MONDAY * 1000},10`, /outside 1970-01-01 to 2100-01-01.*milliseconds; divide by 1000/],
    ['2100 in seconds', `1,1\n${YEAR_2100},10`, /outside 1970-01-01 to 2100-01-01/],
    ['2100 as a date', '2100-01-01T00:00:00Z,10', /outside 1970-01-01 to 2100-01-01/],
    ['before 1970', '1969-12-31T23:59:59Z,10', /outside 1970-01-01 to 2100-01-01/],
  ])('refuses a CSV timestamp in %s, naming the line', (_name, text, message) => {
    const error = refusal(() => parseCsv(text));
    expect(error.field).toBe(text.includes('\n') ? 'line 2' : 'line 1');
    expect(error.message).toMatch(message);
  });

  it.each([
    ['8.64e12 s', 8.64e12, /outside 1970-01-01 to 2100-01-01/],
    ['2100', 4_102_444_800, /outside 1970-01-01 to 2100-01-01/],
    ['a negative time', -1, /outside 1970-01-01 to 2100-01-01/],
    ['hexadecimal text', '0x10', /not a Unix timestamp/],
  ])('refuses a Prometheus timestamp of %s, naming the sample', (_name, t, message) => {
    const error = refusal(() =>
      parsePrometheusMatrix(
        matrix([
          [MONDAY, '1'],
          [t, '2'],
        ]),
      ),
    );
    expect(error.field).toBe('data.result[0].values[1][0]');
    expect(error.message).toMatch(message);
  });

  it('a timestamp out of range is INVALID_INPUT, not a RangeError from the hour of the week', () => {
    for (const [format, text, field, inside] of [
      ['CSV', '1000000000000000,10\n1000000000000300,12', 'measurements.traffic.csv', 'line 1: '],
      [
        'PROMETHEUS',
        matrix([
          [8.64e12, '1'],
          [8.64e12 + 60, '1'],
        ]),
        'measurements.traffic.prometheus',
        'data.result[0].values[0][0]: ',
      ],
    ] as const) {
      const outcome = estimateFromMeasurements(estimateInput(), {
        traffic: { format, text, field, unit: 'REQUESTS_PER_SECOND', kind: 'RATE' },
        timezone: 'Europe/Berlin',
        percentile: 95,
      });
      expect(outcome).toMatchObject({ kind: 'INVALID_INPUT', field, reason: expect.stringContaining(`${inside}timestamp`) });
    }
  });

  it.each(['0x10', '0X1F', '0b11', '0o17'])('refuses the value %s: numbers are decimal', (value) => {
    expect(refusal(() => parseCsv(`1,2\n2,${value}`))).toMatchObject({ field: 'line 2', message: expect.stringMatching(/is not a decimal number/) });
    expect(refusal(() => parsePrometheusMatrix(matrix([[MONDAY, value]])))).toMatchObject({
      field: 'data.result[0].values[0][1]',
      message: expect.stringMatching(/is not a decimal number/),
    });
    expect(refusal(() => parseCsv(`${value},2`))).toMatchObject({ field: 'line 1', message: expect.stringMatching(/neither Unix seconds/) });
  });

  it('reads the decimal forms Prometheus and spreadsheets write', () => {
    const values = ['42', '-1.5', '+2', '.5', '5.', '1e3', '1E-2', '0.000'];
    expect(parsePrometheusMatrix(matrix(values.map((v, i) => [MONDAY + i, v])))[0]?.v).toEqual([42, -1.5, 2, 0.5, 5, 1000, 0.01, 0]);
    expect(parseCsv(values.map((v, i) => `${MONDAY + i},${v}`).join('\n'))[0]?.v).toEqual([42, -1.5, 2, 0.5, 5, 1000, 0.01, 0]);
  });

  it.each([
    ['2026-02-30T00:00:00Z', /no such day 30 in that month \(it has 28\)/],
    ['2026-04-31T12:00:00+02:00', /no such day 31 in that month \(it has 30\)/],
    ['2100-02-29T00:00:00Z', /no such day 29/], // 2100 is not a leap year
    ['2026-13-01T00:00:00Z', /no such month/],
    ['2026-00-10T00:00:00Z', /no such month/],
    ['2026-01-00T00:00:00Z', /no such day 0/],
    ['2026-01-01T24:00:00Z', /no such time of day/],
    ['2026-01-01T23:60:00Z', /no such time of day/],
    ['2026-01-01T00:00:00+24:00', /no such offset/],
  ])('refuses the impossible date-time %s', (iso, message) => {
    expect(refusal(() => parseCsv(`1,2\n${iso},3`))).toMatchObject({ field: 'line 2', message: expect.stringMatching(message) });
  });

  it('reads possible ones, leap days and offsets included', () => {
    // 2028 is a leap year; +05:45 is 5.75 h ahead of UTC.
    expect(parseCsv('2028-02-29T00:00:00Z,1')[0]?.t).toEqual([Date.UTC(2028, 1, 29) / 1000]);
    expect(parseCsv('2026-11-02T00:00:00+05:45,1')[0]?.t).toEqual([MONDAY - 5.75 * 3600]);
    expect(parseCsv('2026-11-01T19:00:00.5-05:00,1')[0]?.t).toEqual([MONDAY + 0.5]);
  });
});

describe('hour of the week', () => {
  it('counts from Monday 00:00 in the zone, through daylight-saving changes', () => {
    expect(utc(MONDAY)).toBe(0);
    expect(utc(MONDAY + 3600 * 167 + 3599)).toBe(167);
    const berlin = hourOfWeekIn('Europe/Berlin');
    // Winter (CET, +1): Sunday 2026-11-01 23:00 UTC is Monday 00:00 in Berlin.
    expect(berlin(Date.parse('2026-11-01T23:00:00Z') / 1000)).toBe(0);
    // Summer (CEST, +2): the clocks went forward on 2026-03-29; Monday 2026-03-30 00:00 is 22:00 UTC the day before.
    expect(berlin(Date.parse('2026-03-29T22:00:00Z') / 1000)).toBe(0);
    expect(berlin(Date.parse('2026-03-29T00:30:00Z') / 1000)).toBe(6 * 24 + 1);
    expect(berlin(Date.parse('2026-03-29T01:30:00Z') / 1000)).toBe(6 * 24 + 3);
    expect(hourOfWeekIn('Asia/Kolkata')(MONDAY - 5.5 * 3600)).toBe(0);
    expect(isKnownTimeZone('Europe/Atlantis')).toBe(false);
  });

  const at = (iso: string) => Date.parse(iso) / 1000;
  /** `count` timestamps five minutes apart from `iso`. */
  const everyFiveMinutes = (iso: string, count: number) => Array.from({ length: count }, (_, i) => at(iso) + i * 300);
  /** How many of the timestamps fall in each hour of the week. */
  const perHour = (hourOfWeek: (t: number) => number, ts: number[]) => {
    const counts = new Map<number, number>();
    for (const t of ts) counts.set(hourOfWeek(t), (counts.get(hourOfWeek(t)) ?? 0) + 1);
    return counts;
  };

  // America/St_Johns is UTC-3:30 (NST) in winter and UTC-2:30 (NDT) in summer, changing at 02:00
  // local time (tzdata's Canada rule): on the second Sunday of March and the first Sunday of
  // November. 2026-01-01 was a Thursday, so 2026-03-01 and 2026-11-01 are Sundays (31 + 28 days, then
  // 245 = 35 weeks later): the changes are on Sunday 2026-03-08, 02:00 NST = 05:30 UTC, and on
  // Sunday 2026-11-01, 02:00 NDT = 04:30 UTC; neither is on a UTC hour. (Intl agrees:
  // 05:29:59Z is 01:59 GMT-03:30 and 05:30:00Z is 03:00 GMT-02:30; 04:29:59Z is 01:59 GMT-02:30 and
  // 04:30:00Z is 01:00 GMT-03:30.) Sunday is hours 144 to 167; local hour h of Sunday is 144 + h.
  const stJohns = hourOfWeekIn('America/St_Johns');

  it('follows St Johns into summer time at 05:30 UTC, mid UTC hour', () => {
    // 05:00 to 05:25 UTC are 01:30 to 01:55 NST (hour 145); 05:30 to 05:55 UTC are 03:00 to 03:25 NDT (147).
    expect(everyFiveMinutes('2026-03-08T05:00:00Z', 12).map(stJohns)).toEqual([145, 145, 145, 145, 145, 145, 147, 147, 147, 147, 147, 147]);
    expect(stJohns(at('2026-03-08T05:29:59Z'))).toBe(145);
    expect(stJohns(at('2026-03-08T05:29:59Z') + 0.5)).toBe(145);
    expect(stJohns(at('2026-03-08T05:30:00Z'))).toBe(147);
    expect(stJohns(at('2026-03-08T04:25:00Z'))).toBe(144); // 00:55 NST
    expect(stJohns(at('2026-03-08T06:30:00Z'))).toBe(148); // 04:00 NDT
    // The local Sunday runs from 00:00 NST (03:30 UTC) to 24:00 NDT (02:30 UTC on Monday), 23 hours
    // of twelve samples each: 02:00 to 03:00 local never happened.
    const sunday = perHour(stJohns, everyFiveMinutes('2026-03-08T03:30:00Z', 23 * 12));
    for (let h = 144; h < 168; h++) expect([h, sunday.get(h) ?? 0]).toEqual([h, h === 146 ? 0 : 12]);
  });

  it('follows St Johns back to winter time at 04:30 UTC, mid UTC hour', () => {
    // 04:00 to 04:25 UTC are 01:30 to 01:55 NDT; 04:30 to 04:55 UTC are 01:00 to 01:25 NST: all hour 145.
    expect(everyFiveMinutes('2026-11-01T04:00:00Z', 12).map(stJohns)).toEqual(Array(12).fill(145));
    expect(stJohns(at('2026-11-01T03:25:00Z'))).toBe(144); // 00:55 NDT
    expect(stJohns(at('2026-11-01T05:25:00Z'))).toBe(145); // 01:55 NST
    expect(stJohns(at('2026-11-01T05:30:00Z'))).toBe(146); // 02:00 NST
    // The local Sunday runs from 00:00 NDT (02:30 UTC) to 24:00 NST (03:30 UTC on Monday), 25 hours:
    // 01:00 to 02:00 local happened twice (03:30 to 05:30 UTC).
    const sunday = perHour(stJohns, everyFiveMinutes('2026-11-01T02:30:00Z', 25 * 12));
    for (let h = 144; h < 168; h++) expect([h, sunday.get(h) ?? 0]).toEqual([h, h === 145 ? 24 : 12]);
  });

  it('maps +5:45 (Kathmandu), including its change from +5:30 at 18:30 UTC', () => {
    const kathmandu = hourOfWeekIn('Asia/Kathmandu');
    // +5:45: Monday 2026-11-02 00:00 local is Sunday 2026-11-01 18:15 UTC; 10:00 local is 04:15 UTC.
    expect(kathmandu(at('2026-11-01T18:14:59Z'))).toBe(167);
    expect(kathmandu(at('2026-11-01T18:15:00Z'))).toBe(0);
    expect(kathmandu(at('2026-11-02T04:14:59Z'))).toBe(9);
    expect(kathmandu(at('2026-11-02T04:15:00Z'))).toBe(10);
    // tzdata: Asia/Kathmandu was +5:30 until 1986-01-01 00:00 local, 1985-12-31 18:30 UTC, then
    // +5:45 (Intl: 18:29:59Z is 23:59 GMT+05:30, 18:30:00Z is 00:15 GMT+05:45). 1970-01-01 was a
    // Thursday and 1986-01-01 is 16 × 365 + 4 leap days = 5,844 days = 834 weeks + 6 days later: a
    // Wednesday (hours 48 to 71), so 1985-12-31 is a Tuesday (hours 24 to 47).
    expect(kathmandu(at('1985-12-31T18:14:59Z'))).toBe(47); // 23:44:59 +5:30 (at +5:45 it would be Wednesday)
    expect(kathmandu(at('1985-12-31T18:29:59Z'))).toBe(47); // 23:59:59 +5:30
    expect(kathmandu(at('1985-12-31T18:30:00Z'))).toBe(48); // 00:15 +5:45
    expect(kathmandu(at('1985-12-31T19:14:59Z'))).toBe(48); // 00:59:59 +5:45
    expect(kathmandu(at('1985-12-31T19:15:00Z'))).toBe(49); // 01:00 +5:45
  });

  it('maps UTC and Berlin, five-minute samples straddling both changes of 2026', () => {
    expect(utc(MONDAY - 1)).toBe(167);
    expect(utc(MONDAY + 36 * 3600 + 1800)).toBe(36); // Tuesday 12:30
    const berlin = hourOfWeekIn('Europe/Berlin');
    // EU rule: at 01:00 UTC on the last Sundays of March (2026-03-29) and October (2026-10-25, a
    // week before Sunday 2026-11-01). Spring: 00:30 to 00:55 UTC are 01:30 to 01:55 CET (hour 145),
    // 01:00 to 01:25 UTC are 03:00 to 03:25 CEST (147).
    expect(everyFiveMinutes('2026-03-29T00:30:00Z', 12).map(berlin)).toEqual([145, 145, 145, 145, 145, 145, 147, 147, 147, 147, 147, 147]);
    // Autumn: 00:00 to 00:55 UTC are 02:00 to 02:55 CEST, 01:00 to 01:55 UTC 02:00 to 02:55 CET: all 146.
    expect(everyFiveMinutes('2026-10-25T00:00:00Z', 24).map(berlin)).toEqual(Array(24).fill(146));
    expect(berlin(at('2026-10-24T23:55:00Z'))).toBe(145); // 01:55 CEST
    expect(berlin(at('2026-10-25T02:00:00Z'))).toBe(147); // 03:00 CET
  });

  it('looks the zone up about once per UTC hour, not once per sample', () => {
    const formatToParts = jest.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const hourOfWeek = hourOfWeekIn('America/St_Johns');
      // 200,000 samples five minutes apart from Monday 2026-01-05: 16,667 UTC hours, and four
      // changes (2026-03-08, 2026-11-01, 2027-03-14, 2027-11-07), each bisected in 12 lookups.
      for (const t of everyFiveMinutes('2026-01-05T00:00:00Z', 200_000)) hourOfWeek(t);
      expect(formatToParts.mock.calls.length).toBeLessThanOrEqual(16_667 + 1 + 4 * 12);
    } finally {
      formatToParts.mockRestore();
    }
  });
});

describe('steps, gaps and counters', () => {
  it('finds the step, the gaps and the time held', () => {
    const s = { labels: {}, t: [0, 60, 120, 600, 660], v: [1, 1, 1, 1, 1] };
    const steps = seriesSteps([s]);
    expect(steps).toEqual([60]);
    // Held: 60 (first) + 60 + 60 + min(480, 60) + 60 = 300 s of a 720 s window.
    expect(coverageOf([s], steps)).toMatchObject({ gaps: 1, samples: 5, from: 0, to: 720, coveragePct: (100 * 300) / 720 });
  });

  it('refuses a step over an hour', () => {
    expect(refusal(() => seriesSteps([{ labels: {}, t: [0, 7200], v: [1, 1] }])).message).toMatch(/step of 7200 s/);
  });

  it("takes a counter's reset as a restart from zero, and skips gaps", () => {
    const s = { labels: {}, t: [0, 60, 120, 180, 240, 600, 660], v: [0, 60, 120, 30, 90, 150, 210] };
    const { rates, resets } = counterRates(s, 60, 'f');
    expect(resets).toBe(1);
    // 60/60, 60/60, 30/60 (reset: counted from 0), 60/60; 240→600 is a gap; 60/60.
    expect(rates.v).toEqual([1, 1, 0.5, 1, 1]);
    expect(rates.t).toEqual([60, 120, 180, 240, 660]);
  });

  it('takes series named *_total as counters, and a negative rate is refused', () => {
    const counter = { labels: { __name__: 'vllm:request_success_total' }, t: [MONDAY, MONDAY + 60, MONDAY + 120], v: [0, 120, 240] };
    const traffic = analyzeTraffic([counter], { unit: 'REQUESTS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' });
    expect(traffic.kind).toBe('COUNTER');
    expect(traffic.profile[0]).toBe(2);
    const negative = { labels: {}, t: [MONDAY, MONDAY + 60], v: [1, -1] };
    expect(
      refusal(() => analyzeTraffic([negative], { unit: 'REQUESTS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' })).field,
    ).toBe('f');
  });
});

describe('weights and ranks, by hand', () => {
  it('weights each GPU by its own step when series of one query have different steps', () => {
    // One hour, Monday 00:00 UTC. GPU 0 every minute: 30 samples at 80 %, then 30 at 100 %, held 60 s
    // each, 90 % over its hour. GPU 1 every 15 minutes: 10, 20, 30, 40 %, held 900 s each, 25 %.
    const perMinute = {
      labels: { gpu: '0' },
      t: Array.from({ length: 60 }, (_, i) => MONDAY + 60 * i),
      v: Array.from({ length: 60 }, (_, i) => (i < 30 ? 80 : 100)),
    };
    const perQuarter = { labels: { gpu: '1' }, t: [0, 1, 2, 3].map((i) => MONDAY + 900 * i), v: [10, 20, 30, 40] };
    // Time-weighted: (30 × 60 × 80 + 30 × 60 × 100 + 900 × (10 + 20 + 30 + 40)) / (60 × 60 + 4 × 900)
    // = (144,000 + 180,000 + 90,000) / 7,200 = 57.5 %. Counting samples alike would give
    // (2,400 + 3,000 + 100) / 64 = 85.9375 %: GPU 1's hour would weigh as GPU 0's four minutes.
    const result = analyzeUtilization([perMinute, perQuarter], { hourOfWeek: utc, field: 'f' });
    expect(result.meanPct).toBeCloseTo(57.5, 9);
    expect(result.byHourOfWeek[0]).toBeCloseTo(57.5, 9);
    expect(result.byHourOfWeek[1]).toBeNull();
  });

  it('takes the p95 of twelve five-minute samples an hour at rank ceil(0.95 × 12) = 12, the largest', () => {
    // A week of five-minute samples: hour h holds h + 1 to h + 12 in a shuffled order ((5i mod 12) is a
    // permutation of 0 to 11). Nearest rank: ceil(0.95 × 12) = ceil(11.4) = 12, so the p95 is the largest,
    // h + 12. Rounding the rank (11.4 to 11) would give h + 11; with 4 or 24 samples an hour
    // (3.8, 22.8) both ways agree, which is why this test has 12.
    const t: number[] = [];
    const v: number[] = [];
    for (let h = 0; h < 168; h++) {
      for (let i = 0; i < 12; i++) {
        t.push(MONDAY + h * 3600 + i * 300);
        v.push(h + 1 + ((5 * i) % 12));
      }
    }
    const result = analyzeTraffic([{ labels: {}, t, v }], {
      unit: 'REQUESTS_PER_SECOND',
      kind: 'RATE',
      percentile: 95,
      hourOfWeek: utc,
      avgOutputTokens: 1,
      field: 'f',
    });
    expect(result).toMatchObject({ stepSeconds: 300, filledHours: 0 });
    expect(result.profile).toEqual(Array.from({ length: 168 }, (_, h) => h + 12));
    // nearestRank itself, on one hour's twelve samples.
    expect(nearestRank([1, 6, 11, 4, 9, 2, 7, 12, 5, 10, 3, 8], 95)).toBe(12);
  });
});

describe('a synthetic fortnight', () => {
  const samples = syntheticSamples({ start: MONDAY, days: 14, stepSeconds: 300 });
  const traffic = [{ labels: {}, t: samples.map((s) => s.t), v: samples.map((s) => s.requestsPerSecond) }];
  const gpus = GPU_OFFSETS.map((_, g) => ({ labels: { gpu: String(g) }, t: samples.map((s) => s.t), v: samples.map((s) => s.utilization[g] ?? 0) }));

  it('gives each hour of the week the p95 of its samples, as sorting them by hand does', () => {
    const result = analyzeTraffic(traffic, { unit: 'REQUESTS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' });
    for (let h = 0; h < 168; h++) {
      const cell = samples.filter((s) => s.hourOfWeek === h).map((s) => s.requestsPerSecond);
      cell.sort((a, b) => a - b);
      // 24 samples per hour of the week (12 per hour, 2 weeks): the p95 by nearest rank is the 23rd.
      expect(cell).toHaveLength(24);
      expect(result.profile[h]).toBe(cell[22]);
    }
    expect(result).toMatchObject({ days: 14, coveragePct: 100, gaps: 0, filledHours: 0, stepSeconds: 300 });
  });

  it("finds the fleet's mean utilization of 5,520/168 % and the hours' own", () => {
    const result = analyzeUtilization(gpus, { hourOfWeek: utc, field: 'f' });
    expect(result.meanPct).toBeCloseTo(UTILIZATION_MEAN_PCT, 9);
    expect(result.byHourOfWeek[10]).toBeCloseTo(60, 9); // Monday 10:00
    expect(result.byHourOfWeek[2]).toBeCloseTo(20, 9); // Monday 02:00
    expect(result.byHourOfWeek[150]).toBeCloseTo(15, 9); // Sunday 06:00
    // By hand: 66 (one GPU in 8, in the 60 weekday day-hours of 168) is 60/168/8 = 4.46% of the
    // samples, under the top 5%; the next value, 64, holds rank ceil(0.95 n).
    expect(result.p95Pct).toBe(64);
  });

  it('output tokens/s become requests/s at the output tokens per request', () => {
    const tokens = [{ labels: {}, t: traffic[0]?.t ?? [], v: (traffic[0]?.v ?? []).map((v) => v * 200) }];
    const asRequests = analyzeTraffic(traffic, { unit: 'REQUESTS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' });
    const asTokens = analyzeTraffic(tokens, { unit: 'OUTPUT_TOKENS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' });
    asTokens.profile.forEach((v, h) => expect(v).toBeCloseTo(asRequests.profile[h] ?? NaN, 9));
  });

  it('in Berlin (CET, +1 in November) every hour moves one later', () => {
    const inUtc = analyzeTraffic(traffic, { unit: 'REQUESTS_PER_SECOND', percentile: 95, hourOfWeek: utc, avgOutputTokens: 200, field: 'f' });
    const inBerlin = analyzeTraffic(traffic, {
      unit: 'REQUESTS_PER_SECOND',
      percentile: 95,
      hourOfWeek: hourOfWeekIn('Europe/Berlin'),
      avgOutputTokens: 200,
      field: 'f',
    });
    for (let h = 0; h < 167; h++) expect(inBerlin.profile[h + 1]).toBe(inUtc.profile[h]);
  });

  it('plans the same as the derived profile typed in, and prices the fleet by hand', () => {
    const measurements: MeasurementsInput = {
      traffic: {
        format: 'PROMETHEUS',
        text: asMatrix([{ metric: {}, values: traffic[0]?.t.map((t, i) => [t, traffic[0]?.v[i] ?? 0]) ?? [] }]),
        field: 'measurements.traffic.prometheus',
        unit: 'REQUESTS_PER_SECOND',
      },
      utilization: {
        format: 'PROMETHEUS',
        text: asMatrix(gpus.map((g) => ({ metric: g.labels, values: g.t.map((t, i) => [t, g.v[i] ?? 0]) }))),
        field: 'measurements.utilization.prometheus',
      },
      timezone: 'UTC',
      percentile: 95,
      fleet: {
        gpu: 'h100-80gb',
        count: 8,
        pricingModel: 'ON_DEMAND',
        provider: 'aws',
        region: 'aws:us-east-1',
        offerRef: 'x',
        pricePerGpuHour: new Decimal('3.90'),
      },
    };
    const measured = estimateFromMeasurements(estimateInput(), measurements);
    if (measured.kind !== 'OK') throw new Error(measured.kind);
    const profile = measured.measured?.traffic?.profile ?? [];
    const typed = estimateInferenceCost(estimateInput({ workload: { weeklyProfile: profile, avgInputTokens: 500, avgOutputTokens: 200 } }));
    if (typed.kind !== 'OK') throw new Error(typed.kind);
    expect(measured.estimate.tiers).toEqual(typed.estimate.tiers);
    expect(measured.estimate.monthlyCost).toEqual(typed.estimate.monthlyCost);
    const fleet = measured.measured?.fleet;
    // By hand: 8 GPUs × 730 h × 3.90 = 22,776.00; idle 8 × 730 × (1 − 5,520/16,800) = 5,840 × 11,280/16,800 = 3,921.142857… h.
    expect(fleet?.monthlyCost.amount.toFixed(2)).toBe('22776.00');
    expect(fleet?.idleGpuHours).toBeCloseTo((5840 * 11280) / 16800, 6);
    expect(fleet?.waste?.amount.toFixed(2)).toBe(new Decimal(5840).mul(11280).div(16800).mul('3.90').toFixed(2));
    expect(fleet?.saving.amount.toFixed(4)).toBe(new Decimal('22776').minus(measured.estimate.gpuCost.amount).toFixed(4));
  });

  it('a measurement shorter than a week is planned with the missing hours filled, and says so', () => {
    const short = syntheticSamples({ start: MONDAY, days: 3, stepSeconds: 900 });
    const text = asMatrix([{ metric: {}, values: short.map((s) => [s.t, s.requestsPerSecond]) }]);
    const outcome = estimateFromMeasurements(estimateInput(), {
      traffic: { format: 'PROMETHEUS', text, field: 'measurements.traffic.prometheus', unit: 'REQUESTS_PER_SECOND' },
      timezone: 'UTC',
      percentile: 95,
    });
    if (outcome.kind !== 'OK') throw new Error(outcome.kind);
    expect(outcome.measured?.traffic?.filledHours).toBe(168 - 72);
    expect(outcome.estimate.warnings.join(' ')).toMatch(/spans 3\.0 days, less than a week/);
    // Thursday 10:00 (hour 82) was not seen: it takes the p95 of the 10:00 hours that were (Mon–Wed).
    const tenOClock = short.filter((s) => s.hourOfWeek % 24 === 10).map((s) => s.requestsPerSecond);
    expect(outcome.measured?.traffic?.profile[82]).toBe(nearestRank(tenOClock, 95));
  });

  it('an invalid measurement is INVALID_INPUT at its API field, the place inside in the message', () => {
    const outcome = estimateFromMeasurements(estimateInput(), {
      utilization: { format: 'CSV', text: '1,2\n2,101', field: 'measurements.utilization.csv' },
      timezone: 'UTC',
      percentile: 95,
    });
    expect(outcome).toMatchObject({ kind: 'INVALID_INPUT', field: 'measurements.utilization.csv', reason: expect.stringMatching(/0 to 100; 101/) });
  });
});

describe('properties', () => {
  it('the mean utilization is the step-weighted mean of every sample, whatever the step and span', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(15, 60, 300, 3600),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 4 }),
        (step, days, levels) => {
          const n = Math.floor((days * 86_400) / step);
          const series = levels.map((level, g) => ({
            labels: { gpu: String(g) },
            t: Array.from({ length: n }, (_, i) => MONDAY + i * step),
            v: Array.from({ length: n }, (_, i) => (level + i) % 101),
          }));
          let sum = 0;
          let count = 0;
          for (const s of series) {
            for (const v of s.v) {
              sum += v;
              count++;
            }
          }
          const result = analyzeUtilization(series, { hourOfWeek: utc, field: 'f' });
          expect(result.meanPct).toBeCloseTo(sum / count, 6);
          expect(result.coveragePct).toBeCloseTo(100, 6);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the p100 profile is the largest total of each hour, the series summed sample by sample', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 168 * 4, maxLength: 168 * 4 }), { minLength: 1, maxLength: 3 }), (rows) => {
        const series = rows.map((v) => ({ labels: {}, t: v.map((_, i) => MONDAY + i * 900), v }));
        const result = analyzeTraffic(series, { unit: 'REQUESTS_PER_SECOND', kind: 'RATE', percentile: 100, hourOfWeek: utc, avgOutputTokens: 1, field: 'f' });
        for (let h = 0; h < 168; h++) {
          let max = 0;
          for (let q = 0; q < 4; q++)
            max = Math.max(
              max,
              rows.reduce((sum, r) => sum + (r[h * 4 + q] ?? 0), 0),
            );
          expect(result.profile[h]).toBe(max);
        }
      }),
      { numRuns: 20 },
    );
  });
});
