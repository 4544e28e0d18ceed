// Policy and model enums, spelled the same in REST and GraphQL (docs/api-conventions.md#validation).
import { registerEnumType } from '@nestjs/graphql';
import { INTERRUPTION_TOLERANCES, OPERATOR_SCOPES, RESIDENCIES, GPU_COUNT_MODES } from '../../domain/compliance/index.js';
import { PRECISIONS } from '../../domain/sizing/index.js';

const asEnum = <T extends string>(values: readonly T[]): Record<T, T> => Object.fromEntries(values.map((v) => [v, v])) as Record<T, T>;

export const ResidencyEnum = asEnum(RESIDENCIES);
export const OperatorScopeEnum = asEnum(OPERATOR_SCOPES);
export const InterruptionToleranceEnum = asEnum(INTERRUPTION_TOLERANCES);
export const GpuCountModeEnum = asEnum(GPU_COUNT_MODES);
export const PrecisionEnum = asEnum(PRECISIONS);

registerEnumType(ResidencyEnum, {
  name: 'Residency',
  description: 'Where the data may be processed: EU-27, EEA (EU + IS, LI, NO), GDPR_ADEQUATE (EEA + adequacy decisions)',
});
registerEnumType(OperatorScopeEnum, { name: 'OperatorScope', description: 'EU: only EU/EEA-headquartered operators' });
registerEnumType(InterruptionToleranceEnum, { name: 'InterruptionTolerance', description: 'INTOLERANT workloads never get spot capacity' });
registerEnumType(GpuCountModeEnum, {
  name: 'GpuCountMode',
  description: 'PER_INSTANCE: instances with exactly gpuCount GPUs; TOTAL: gpuCount GPUs over any number of instances',
});
registerEnumType(PrecisionEnum, { name: 'Precision' });
