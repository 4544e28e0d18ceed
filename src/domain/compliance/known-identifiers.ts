// One rule for identifiers a request names (GPU models, providers, regions, presets): an unknown
// one is refused, naming the value and the closest known ones, never silently matching nothing.
import { unknownIdentifierMessage } from '../closest-names.js';
import type { CatalogIndex } from './catalog-index.js';
import { localRegionCode } from './evaluate.js';
import { PolicyError, type CompliancePolicy } from './policy.js';
import type { Discounts } from './ranking.js';
import type { GpuRequirement } from './requirement.js';

export class UnknownIdentifierError extends PolicyError {
  constructor(field: string, what: string, value: string, known: Iterable<string>) {
    super(field, unknownIdentifierMessage(what, value, known));
  }
}

interface KnownNames {
  gpus: ReadonlySet<string>;
  providers: ReadonlySet<string>;
  /** Both spellings a policy accepts: "aws:eu-central-1" and the provider's own "eu-central-1". */
  regions: ReadonlySet<string>;
}

const namesByIndex = new WeakMap<CatalogIndex, KnownNames>();

function knownNames(index: CatalogIndex): KnownNames {
  let names = namesByIndex.get(index);
  if (!names) {
    const regions = new Set<string>();
    for (const r of index.regions) {
      regions.add(r.code.toLowerCase());
      regions.add(localRegionCode(r.code).toLowerCase());
    }
    names = { gpus: new Set(index.gpuBySlug.keys()), providers: new Set(index.providerBySlug.keys()), regions };
    namesByIndex.set(index, names);
  }
  return names;
}

// At the top level, not a closure made per call: the service's bundle keeps function names
// (scripts/bundle.mjs), which costs a call for each named closure made per request.
function check(field: string, what: string, values: Iterable<string> | null | undefined, set: ReadonlySet<string>): void {
  for (const value of values ?? []) {
    if (!set.has(value.toLowerCase())) throw new UnknownIdentifierError(field, what, value, set);
  }
}

/**
 * Throws UnknownIdentifierError for the first GPU, provider (allow list, deny list, discount) or
 * region the catalog version does not know. Comparisons ignore case, as the matching does.
 */
export function assertKnownIdentifiers(
  index: CatalogIndex,
  { requirement, policy, discounts }: { requirement?: GpuRequirement; policy?: CompliancePolicy; discounts?: Discounts },
): void {
  const known = knownNames(index);
  check('gpus', 'GPU model', requirement?.gpus, known.gpus);
  check('providers', 'provider', policy?.providers, known.providers);
  check('excludeProviders', 'provider', policy?.excludeProviders, known.providers);
  check('regions', 'region', policy?.regions, known.regions);
  let i = 0;
  for (const provider of discounts?.keys() ?? []) {
    check(`discounts[${i}].provider`, 'provider', [provider], known.providers);
    i += 1;
  }
}
