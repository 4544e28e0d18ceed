// Sourced defaults for rent or buy (docs/cost-model.md#rent-or-buy): electricity prices by site and
// server prices by GPU, used where the caller gives none. Each figure names its source, pinned to a
// commit; nothing here is invented, and a site or GPU without a row has no default.
import type { Currency } from '../catalog/catalog.types.js';

export interface SourcedPrice {
  /** The figure as the source gives it (a decimal string), in `currency`. */
  value: string;
  currency: Currency;
  /** What the figure is, its period, and where it was read. */
  source: string;
}

const EUROSTAT =
  'Eurostat nrg_pc_205, non-household electricity, band ID (2,000-19,999 MWh a year), 2025-S2, excluding VAT and recoverable taxes, ' +
  'as pulled from Eurostat on 2026-09-11 by EU27-data-sovereignty/eu27-data-sovereignty @ 4e9c2277 model/eurostat_pull.csv';
const eurostat = (line: number, eurPerMwh: string): SourcedPrice => ({
  value: (Number(eurPerMwh) / 1000).toFixed(4),
  currency: 'EUR',
  source: `${EUROSTAT} L${line} (${eurPerMwh} EUR/MWh)`,
});
const EIA =
  'EIA average retail price of electricity, commercial sector, 2024 annual, as tabulated by ejparajon/US-electricity-rate-changes ' +
  '@ 08c75b62 2014_2024_price_data.csv';

/** Electricity price per kWh by site: an ISO country (EU, Eurostat) or US-<state> (EIA). */
export const ELECTRICITY_BY_SITE: Readonly<Record<string, SourcedPrice>> = {
  AT: eurostat(2, '179.9'),
  BE: eurostat(8, '157.1'),
  DE: eurostat(32, '192.2'),
  DK: eurostat(38, '123.2'),
  ES: eurostat(56, '119.1'),
  FI: eurostat(62, '67.4'),
  FR: eurostat(68, '121.2'),
  IE: eurostat(86, '218.7'),
  IT: eurostat(92, '194.8'),
  NL: eurostat(122, '181.1'),
  PL: eurostat(128, '173.5'),
  RO: eurostat(140, '171.5'),
  SE: eurostat(146, '85.2'),
  'US-GA': { value: '0.1109', currency: 'USD', source: `${EIA} L452 (Georgia, 11.09 cents/kWh, taxes and riders passed through included)` },
  'US-VA': { value: '0.0893', currency: 'USD', source: `${EIA} L694 (Virginia, 8.93 cents/kWh, taxes and riders passed through included)` },
};

const MEMRA = 'avifenesh/memra @ 49d1d6f6 research/hw-buy-20260802/REPORT.md (market prices fetched 2026-08-02)';

/** Purchase price of one 8-GPU server by GPU: the source's own central figure of a market range. */
export const SERVER_PRICE_BY_GPU: Readonly<Record<string, SourcedPrice & { gpusPerServer: number }>> = {
  'h100-sxm-80gb': {
    value: '285000',
    currency: 'USD',
    gpusPerServer: 8,
    source: `${MEMRA}, row 'HGX H100 8-GPU server new': $250-320k (~$285k typical), mercatus-ai.com, verified 2026-07-14`,
  },
  'h200-141gb': {
    value: '370000',
    currency: 'USD',
    gpusPerServer: 8,
    source: `${MEMRA}, row 'HGX H200 8-GPU new': $320-420k (~$370k), mercatus-ai.com, 2026-07-08`,
  },
  'b200-180gb': {
    value: '450000',
    currency: 'USD',
    gpusPerServer: 8,
    source: `${MEMRA}, row 'HGX B200 8-GPU': $400-500k (~$450k), mercatus-ai.com, 2026-07-16`,
  },
};

/** Colocation per kW of board power a month: DERIVED, the middle of the one quoted range. */
export const COLOCATION_DEFAULT: SourcedPrice = {
  value: '200',
  currency: 'USD',
  source: `${MEMRA}, section 4.1: 'Colo committed-kW $150-250/kW/mo (QuoteColo 2026-05-23)'; 200 is the middle of that range (derived)`,
};
