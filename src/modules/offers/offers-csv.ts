// Offers as CSV for spreadsheets. Column names follow the FinOps FOCUS specification where one
// fits (ListUnitPrice, PricingCategory, RegionId, SkuPriceId, ...); the rest are ours.
import { PRICING_MODEL_TRAITS } from '../../domain/catalog/pricing-model-traits.js';
import type { OfferConnectionModel } from './models/offers-result.model.js';

const COLUMNS = [
  'SkuPriceId',
  'ProviderName',
  'RegionId',
  'RegionCountry',
  'SkuId',
  'GpuModel',
  'GpuCount',
  'GpuMemoryGb',
  'PricingCategory',
  'PricingModel',
  'CommitmentTermMonths',
  'ListUnitPrice',
  'ListCurrency',
  'PricingUnit',
  'PricePerHour',
  'PricePerGpuHour',
  'BillingCurrency',
  'Source',
  'ObservedAt',
  'PriceKind',
  'Derivation',
  'Conversion',
  'SourceKind',
  'Availability',
  'ValidFrom',
  'ValidUntil',
  'FxRate',
  'FxRatePair',
  'FxRateDate',
  'CatalogVersion',
  // docs/carbon.md: at full load, PUE included, location-based; empty when a figure is missing, and then the reason.
  'EnergyKwhPerGpuHour',
  'CarbonGCo2ePerGpuHour',
  'GridIntensityGCo2ePerKwh',
  'GridSource',
  'CarbonUnknownReason',
];

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  // Quote when needed, and defuse spreadsheet formulas in free text.
  const safe = /^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s)) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function offersCsv(page: OfferConnectionModel): string {
  // The answer's FX rate on every row, as the JSON names it once: 1 unit of the pair's first currency buys FxRate of its second.
  const fx = page.exchangeRate;
  const rows = page.items.map((o) =>
    [
      o.id,
      o.provider,
      o.region,
      o.country,
      o.instanceType,
      o.gpu,
      o.gpuCount,
      o.gpuMemoryGb,
      PRICING_MODEL_TRAITS[o.pricingModel].csvPricingCategory,
      o.pricingModel,
      o.termMonths,
      o.listPricePerHour.amount,
      o.listPricePerHour.currency,
      'Hours',
      o.pricePerHour.amount,
      o.pricePerGpuHour.amount,
      o.pricePerHour.currency,
      o.source,
      o.observedAt,
      o.priceKind,
      o.derivation,
      o.conversion,
      o.sourceKind,
      o.availability,
      o.validFrom,
      o.validUntil,
      fx?.rate,
      fx ? `${fx.base}/${fx.currency}` : null,
      fx?.date,
      page.catalogVersion.label,
      o.energy,
      o.carbon,
      o.gridIntensity,
      o.gridSource,
      o.carbonUnknownReason,
    ]
      .map(cell)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
