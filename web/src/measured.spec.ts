import { formFromRequest, heatColour, luminance, measurementFormat, seriesInput } from './measured';

describe('the Measured view', () => {
  it('tells a range answer from CSV lines', () => {
    expect(measurementFormat('  {"status":"success"}')).toBe('prometheus');
    expect(measurementFormat('timestamp,value\n1,2')).toBe('csv');
    expect(seriesInput('  ')).toBeUndefined();
    expect(seriesInput('1,2')).toEqual({ csv: '1,2' });
  });

  it('shades a cell from near-white at 0% to the palette blue at 100%, grey without a sample', () => {
    expect(heatColour(0).background).toBe('rgb(244, 248, 251)');
    expect(heatColour(100)).toEqual({ background: 'rgb(0, 114, 178)', color: '#ffffff' });
    expect(heatColour(null).background).toBe('#eeeeee');
  });

  it('gives every cell a text colour with a contrast of at least 4.5:1 (WCAG AA)', () => {
    const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    for (let pct = 0; pct <= 100; pct++) {
      const { background, color } = heatColour(pct);
      const rgb = (background.match(/\d+/g) ?? []).map(Number) as [number, number, number];
      const text = color === '#ffffff' ? 1 : 0;
      expect(contrast(luminance(rgb), text)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("fills the view's fields from an estimate request with measurements, and keeps the defaults of what it leaves out", () => {
    const defaults = {
      model: 'llama-3-8b',
      tokensIn: '500',
      unit: 'REQUESTS_PER_SECOND',
      preset: '',
      timezone: 'UTC',
      fleetCount: '8',
      fleetRegion: 'eu-north-1',
    };
    const filled = formFromRequest(
      {
        model: { preset: 'mistral-7b' },
        workload: { avgInputTokens: 1200, avgOutputTokens: 300 },
        policy: { preset: 'EU_SOVEREIGN' },
        measurements: {
          traffic: { csv: '0,1\n300,2', unit: 'OUTPUT_TOKENS_PER_SECOND' },
          utilization: { prometheus: '{"status":"success"}' },
          fleet: { count: 2 },
        },
      },
      defaults,
    );
    expect(filled).toEqual({
      form: {
        model: 'mistral-7b',
        tokensIn: '1200',
        unit: 'OUTPUT_TOKENS_PER_SECOND',
        preset: 'EU_SOVEREIGN',
        timezone: 'UTC',
        fleetCount: '2',
        fleetRegion: 'eu-north-1',
      },
      traffic: '0,1\n300,2',
      utilization: '{"status":"success"}',
    });
  });
});
