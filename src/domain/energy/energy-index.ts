// The energy figures of one catalog version, indexed for lookups (docs/carbon.md): which grid
// intensity, PUE, board power and idle share apply to a region, a provider and a GPU, and where
// each came from. A region without a grid row of its own takes its country's (the fallback); a
// region without a PUE of its own takes its provider's fleet figure, else "default"; a GPU without a
// board power has no energy figure.
import { energyFigureKey, type EnergyFigure, type EnergyFigureKind, type GridSource } from '../catalog/catalog.types.js';

/**
 * Where an applied figure came from: the subject's own row (a region's, a GPU's), its country's
 * (grid intensity), its provider's fleet figure (PUE), or the default row (PUE, idle share).
 */
export type FigureBasis = 'OWN' | 'COUNTRY_FALLBACK' | 'PROVIDER_FALLBACK' | 'DEFAULT';

export interface AppliedFigure {
  value: number;
  basis: FigureBasis;
  /** The row's subject: "aws:us-west-2", "US", "aws", "default", "h100-sxm-80gb". */
  subject: string;
  year: number;
  source: string;
  /** How the figure was read or derived (the row's note); null when read as is. */
  note: string | null;
  /** Grid intensity only: PROVIDER or ELECTRICITY_MAPS; null for the other kinds. */
  gridSource: GridSource | null;
}

export interface EnergyIndex {
  /** g CO2e per kWh of the region's grid (location-based); null when neither region nor country has a row. */
  gridIntensity(regionCode: string, country: string): AppliedFigure | null;
  /** The region's PUE, else its provider's fleet PUE, else the default one; null when none exists. */
  pue(regionCode: string, provider: string): AppliedFigure | null;
  /** Board power (TDP) in watts; null for a GPU without a sourced figure. */
  gpuPowerWatts(gpu: string): AppliedFigure | null;
  /** Share of board power drawn idle (0..1); null without the row. */
  idleShare(): AppliedFigure | null;
}

export function indexEnergy(figures: readonly EnergyFigure[]): EnergyIndex {
  const byKey = new Map(figures.map((f) => [energyFigureKey(f), f]));
  // One object per (row, basis): answers reuse it, and the JSON writer's cache compares by identity.
  const applied = new Map<string, AppliedFigure>();
  const find = (kind: EnergyFigureKind, subject: string, basis: FigureBasis): AppliedFigure | null => {
    const key = energyFigureKey({ kind, subject });
    const f = byKey.get(key);
    if (!f) return null;
    let a = applied.get(`${key}|${basis}`);
    if (!a) {
      a = { value: f.value.toNumber(), basis, subject, year: f.year, source: f.source, note: f.note, gridSource: f.gridSource ?? null };
      applied.set(`${key}|${basis}`, a);
    }
    return a;
  };
  return {
    gridIntensity: (regionCode, country) => find('GRID_INTENSITY', regionCode, 'OWN') ?? find('GRID_INTENSITY', country, 'COUNTRY_FALLBACK'),
    pue: (regionCode, provider) => find('PUE', regionCode, 'OWN') ?? find('PUE', provider, 'PROVIDER_FALLBACK') ?? find('PUE', 'default', 'DEFAULT'),
    gpuPowerWatts: (gpu) => find('GPU_POWER', gpu, 'OWN'),
    idleShare: () => find('IDLE_POWER_SHARE', 'default', 'OWN'),
  };
}
