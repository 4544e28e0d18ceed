// What the buyer needs, as opposed to what the policy allows (src/domain/compliance/requirement.ts).
// GpuRequirementInput is GraphQL's `requirement`; GraphQL's OfferFilter and the REST offer queries
// declare the same fields (offers.input.ts, offers.query.ts).
import { InputType } from '@nestjs/graphql';
import { GPU_COUNT_MODES, type GpuCountMode } from '../../domain/compliance/index.js';
import { GpuCountModeEnum } from '../models/policy-enums.js';
import { NAME, REQUIREMENT_BOUNDS } from './input-bounds.js';
import { field, InputField } from './input-field.js';
import { ModelInput } from './model.input.js';

export const REQUIREMENT = {
  gpus: field.list(field.string(NAME), { ...REQUIREMENT_BOUNDS.gpus, example: ['h100-sxm-80gb', 'h100-pcie-80gb'], description: 'Acceptable GPU model slugs' }),
  gpuCount: field.int({ ...REQUIREMENT_BOUNDS.gpuCount, description: 'GPUs per instance (exact), or in total with gpuCountMode TOTAL' }),
  gpuCountMode: field.enum<GpuCountMode>(GPU_COUNT_MODES, GpuCountModeEnum, { default: 'PER_INSTANCE' }),
  minGpuMemoryGb: field.number({ ...REQUIREMENT_BOUNDS.minGpuMemoryGb, description: 'Minimum memory per GPU, GB' }),
  model: field.object(() => ModelInput, { description: 'A model to serve, turned into a memory need per GPU by the estimator’s sizing' }),
};

@InputType('GpuRequirement')
export class GpuRequirementInput {
  @InputField(REQUIREMENT.gpus) gpus?: string[];
  @InputField(REQUIREMENT.gpuCount) gpuCount?: number;
  @InputField(REQUIREMENT.gpuCountMode) gpuCountMode?: GpuCountMode;
  @InputField(REQUIREMENT.minGpuMemoryGb) minGpuMemoryGb?: number;
  @InputField(REQUIREMENT.model) model?: ModelInput;
}
