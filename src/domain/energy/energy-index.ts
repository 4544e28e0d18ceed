// The energy figures of one catalog version, indexed for lookups (docs/carbon.md): which grid
// intensity, PUE, board power and idle share apply to a region, a provider and a GPU, and where
// each came from. A region without a row of its own takes its country's (the fallback); a
// provider without a PUE takes "default"; a GPU without a board power has no energy figure.
import { energyFigureKey, type EnergyFigure, type EnergyFigureKind } from '../catalog/catalog.types.js';

/** Where an applied figure came from: the subject's own row, or a fallback row. */
export type FigureBasis = 'OWN' | 'COUNTRY_FALLBACK' | 'DEFAULT';

export interface AppliedFigure {
  value: number;
  basis: FigureBasis;
  year: number;
  source: string;
}

export interface EnergyIndex {
  /** g CO2e per kWh of the region's grid (location-based); null when neither region nor country has a row. */
  gridIntensity(regionCode: string, country: string): AppliedFigure | null;
  /** The provider's PUE, else the default one; null when neither exists. */
  pue(provider: string): AppliedFigure | null;
  /** Board power (TDP) in watts; null for a GPU without a sourced figure. */
  gpuPowerWatts(gpu: string): AppliedFigure | null;
  /** Share of board power drawn idle (0..1); null without the row. */
  idleShare(): AppliedFigure | null;
}

export function indexEnergy(figures: readonly EnergyFigure[]): EnergyIndex {
  const byKey = new Map(figures.map((f) => [energyFigureKey(f), f]));
  const find = (kind: EnergyFigureKind, subject: string, basis: FigureBasis): AppliedFigure | null => {
    const f = byKey.get(energyFigureKey({ kind, subject }));
    return f ? { value: f.value.toNumber(), basis, year: f.year, source: f.source } : null;
  };
  return {
    gridIntensity: (regionCode, country) => find('GRID_INTENSITY', regionCode, 'OWN') ?? find('GRID_INTENSITY', country, 'COUNTRY_FALLBACK'),
    pue: (provider) => find('PUE', provider, 'OWN') ?? find('PUE', 'default', 'DEFAULT'),
    gpuPowerWatts: (gpu) => find('GPU_POWER', gpu, 'OWN'),
    idleShare: () => find('IDLE_POWER_SHARE', 'default', 'OWN'),
  };
}
