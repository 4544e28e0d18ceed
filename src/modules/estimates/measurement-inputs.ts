// An estimate's measurements from the request to the worker: the zone and the samples checked
// before any work (MEASUREMENT_MAX_SAMPLES, 413 beyond), queries run against PROMETHEUS_URL
// through its door (prometheus-queries.ts), and
// the current fleet priced from the catalog version. The texts are parsed in the worker.
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AppError, badInput } from '../../common/errors/app-error.js';
import { toAppError } from '../../common/errors/domain-errors.js';
import type { Currency } from '../../domain/catalog/catalog.types.js';
import { fleetOffer, type CatalogIndex } from '../../domain/compliance/index.js';
import { isKnownTimeZone, sampleCountUpperBound, type MeasurementsInput as Prepared, type MeasurementText } from '../../domain/measurements/index.js';
import type { MeasuredSeriesInput, MeasurementsInput } from './dto/measurements.input.js';
import type { ParsedTexts } from './estimate-bodies.js';
import { ANONYMOUS, PrometheusQueries, type Requester } from './prometheus-queries.js';

const SERIES = ['traffic', 'utilization', 'memoryUsed'] as const;

@Injectable()
export class MeasurementInputs {
  constructor(
    private readonly prometheus: PrometheusQueries,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'MEASUREMENT_MAX_SAMPLES'>,
  ) {}

  /**
   * Before any work: the zone is known, and the texts sent hold at most MEASUREMENT_MAX_SAMPLES
   * samples together. `read`: the texts read with the body (estimate-bodies.ts), by token.
   */
  check(m: MeasurementsInput, read?: ParsedTexts): void {
    if (m.timezone !== undefined && !isKnownTimeZone(m.timezone)) {
      throw badInput('REQUEST.INVALID', [
        { field: 'measurements.timezone', message: `"${m.timezone}" is not a time zone; give an IANA name such as Europe/Berlin or UTC` },
      ]);
    }
    let total = 0;
    for (const name of SERIES) {
      const series = m[name];
      const given = series ? [series.prometheus, series.csv, series.query].filter((s) => s !== undefined && s !== null).length : 1;
      if (given !== 1) throw badInput('REQUEST.INVALID', [{ field: `measurements.${name}`, message: 'give exactly one of prometheus, csv and query' }]);
      const text = textOf(series, name, read);
      if (text) total = this.countOrRefuse(text, total);
    }
  }

  /** The measurements for the worker: queries run, the fleet priced. */
  async prepare(
    m: MeasurementsInput,
    ctx: { index: CatalogIndex; currency: Currency; referenceDate: string },
    requester: Requester = ANONYMOUS,
    read?: ParsedTexts,
  ): Promise<Prepared> {
    let total = 0;
    const texts: Partial<Record<(typeof SERIES)[number], MeasurementText>> = {};
    for (const name of SERIES) {
      const series = m[name];
      if (!series) continue;
      let text = textOf(series, name, read);
      if (!text && series.query) {
        const field = `measurements.${name}.query`;
        text = { format: 'PROMETHEUS', text: await this.prometheus.run(series.query, field, requester), field };
      }
      if (text) {
        total = this.countOrRefuse(text, total);
        texts[name] = text;
      }
    }
    const traffic = texts.traffic;
    return {
      ...(traffic ? { traffic: { ...traffic, unit: m.traffic?.unit ?? 'REQUESTS_PER_SECOND', kind: m.traffic?.kind } } : {}),
      ...(texts.utilization ? { utilization: texts.utilization } : {}),
      ...(texts.memoryUsed ? { memoryUsed: texts.memoryUsed } : {}),
      timezone: m.timezone ?? 'UTC',
      percentile: m.percentile ?? 95,
      ...(ctx.index.gpus.length ? { maxGpuMemoryGib: Math.max(...ctx.index.gpus.map((g) => g.memoryGb.toNumber())) } : {}),
      ...(m.fleet ? { fleet: this.fleet(m.fleet, ctx) } : {}),
    };
  }

  private fleet(
    fleet: NonNullable<MeasurementsInput['fleet']>,
    ctx: { index: CatalogIndex; currency: Currency; referenceDate: string },
  ): NonNullable<Prepared['fleet']> {
    const pricingModel = fleet.pricingModel ?? 'ON_DEMAND';
    try {
      const offer = fleetOffer(ctx.index, { ...fleet, pricingModel }, ctx.currency, ctx.referenceDate);
      return {
        gpu: fleet.gpu.toLowerCase(),
        count: fleet.count,
        pricingModel,
        provider: fleet.provider.toLowerCase(),
        region: offer.region,
        offerRef: offer.offerRef,
        pricePerGpuHour: offer.pricePerGpuHour,
      };
    } catch (error) {
      throw toAppError(error, 'measurements.fleet.');
    }
  }

  private countOrRefuse(text: MeasurementText, before: number): number {
    const max = this.config.MEASUREMENT_MAX_SAMPLES;
    const total = before + (text.samples ?? sampleCountUpperBound(text.text, text.format));
    if (total > max) {
      throw new AppError(
        'MEASUREMENT.TOO_MANY_SAMPLES',
        'TOO_LARGE',
        `The measurements hold more than ${max} samples (MEASUREMENT_MAX_SAMPLES); use a larger step or a shorter range`,
        [{ field: text.field, message: `brings the samples to more than ${max}` }],
      );
    }
    return total;
  }
}

/** A series' text; one read ahead is its token, with its count of samples. */
function textOf(series: MeasuredSeriesInput | undefined, name: string, read: ParsedTexts | undefined): MeasurementText | null {
  const given: MeasurementText | null =
    series?.prometheus !== undefined
      ? { format: 'PROMETHEUS', text: series.prometheus, field: `measurements.${name}.prometheus` }
      : series?.csv !== undefined
        ? { format: 'CSV', text: series.csv, field: `measurements.${name}.csv` }
        : null;
  const ahead = given && read?.get(given.text);
  return given && ahead ? { ...given, samples: ahead.samples } : given;
}
