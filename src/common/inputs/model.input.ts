// The model to serve (src/domain/sizing/model.ts): a preset, or parametersB with an optional
// shape. The estimate takes it as is (EstimateModelInput); an offer search also takes the context
// it must hold (ModelInput), to turn it into a memory need per GPU.
import { InputType } from '@nestjs/graphql';
import { MODEL_PRESET_SLUGS, PRECISIONS, type Precision } from '../../domain/sizing/index.js';
import { PrecisionEnum } from '../models/policy-enums.js';
import { MODEL_BOUNDS, NAME } from './input-bounds.js';
import { ExactlyOneOf, field, InputField } from './input-field.js';

export const MODEL = {
  // Presets are matched ignoring case, so the list is documented, not enforced as an enum.
  preset: field.string({ ...NAME, example: 'llama-3-8b', description: `A model preset: ${MODEL_PRESET_SLUGS.join(', ')}` }),
  precision: field.enum<Precision>(PRECISIONS, PrecisionEnum, { description: 'Precision of the weights; default: the model’s native precision' }),
  parametersB: field.number({ ...MODEL_BOUNDS.parametersB, description: 'Total parameters, billions (a custom model)' }),
  activeParametersB: field.number({ ...MODEL_BOUNDS.parametersB, description: 'Active parameters per token (mixture of experts), billions' }),
  layers: field.int(MODEL_BOUNDS.layers),
  hiddenSize: field.int(MODEL_BOUNDS.hiddenSize),
  attentionHeads: field.int(MODEL_BOUNDS.attentionHeads),
  kvHeads: field.int(MODEL_BOUNDS.kvHeads),
  headDim: field.int(MODEL_BOUNDS.headDim),
  contextTokens: field.int({ ...MODEL_BOUNDS.contextTokens, description: 'Context held in the KV cache per sequence, tokens' }),
};

@ExactlyOneOf('preset', 'parametersB')
@InputType('EstimateModelInput', { description: 'The model: a preset, or parametersB with an optional shape' })
export class EstimateModelInput {
  @InputField(MODEL.preset) preset?: string;
  @InputField(MODEL.precision) precision?: Precision;
  @InputField(MODEL.parametersB) parametersB?: number;
  @InputField(MODEL.activeParametersB) activeParametersB?: number;
  @InputField(MODEL.layers) layers?: number;
  @InputField(MODEL.hiddenSize) hiddenSize?: number;
  @InputField(MODEL.attentionHeads) attentionHeads?: number;
  @InputField(MODEL.kvHeads) kvHeads?: number;
  @InputField(MODEL.headDim) headDim?: number;
}

@ExactlyOneOf('preset', 'parametersB')
@InputType('ModelInput', { description: 'A model to serve: a preset (llama-3-8b, ...) or parametersB with an optional shape' })
export class ModelInput extends EstimateModelInput {
  @InputField(MODEL.contextTokens) contextTokens?: number;
}
