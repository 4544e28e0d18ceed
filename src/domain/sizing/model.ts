// Resolving a requested model (preset or custom) into a shape, and the byte counts that follow.
import { unknownIdentifierMessage } from '../closest-names.js';
import { MODEL_PRESETS, type MixtureOfExperts, type ModelShape, type ModelSpec } from './model-presets.js';
import { bytesPerParameter, KV_BYTES_PER_VALUE, type Precision } from './precision.js';

/** A custom model: its size, and its shape if known. */
export interface CustomModelInput {
  /** Total parameters in billions (e.g. 7.24). */
  parametersB: number;
  /** Parameters used per token, billions; defaults to parametersB (dense model). */
  activeParametersB?: number;
  name?: string;
  layers?: number;
  hiddenSize?: number;
  attentionHeads?: number;
  kvHeads?: number;
  headDim?: number;
  slidingWindowTokens?: number | null;
  experts?: MixtureOfExperts | null;
  nativePrecision?: Precision;
}

export type ModelInput = { preset: string } | CustomModelInput;

export type ModelResolution = { ok: true; model: ModelSpec } | { ok: false; field: string; reason: string };

/**
 * Defaults for a custom model without a shape. Llama-family models keep hidden ≈ 128 × layers
 * (Llama-2-7B 4096/32, 13B 5120/40) and a dense transformer has ≈ 12 × layers × hidden²
 * parameters, so layers ≈ ∛(P / (12 × 128²)). Head dim 128 and 8 KV heads (grouped-query
 * attention) match Llama-3, Mistral and Mixtral; an older full-attention model has a larger KV
 * cache than assumed, so such callers should pass kvHeads.
 */
export const DEFAULT_HEAD_DIM = 128;
export const DEFAULT_KV_HEADS = 8;
const HIDDEN_PER_LAYER = 128;

export function resolveModel({ model }: { model: ModelInput }): ModelResolution {
  if ('preset' in model) {
    const name = model.preset.toLowerCase();
    // Own keys only: "__proto__" or "constructor" are not presets.
    const found = Object.hasOwn(MODEL_PRESETS, name) ? MODEL_PRESETS[name] : undefined;
    return found
      ? { ok: true, model: found }
      : { ok: false, field: 'model.preset', reason: unknownIdentifierMessage('model preset', model.preset, Object.keys(MODEL_PRESETS)) };
  }
  const { parametersB } = model;
  if (!(Number.isFinite(parametersB) && parametersB > 0)) {
    return { ok: false, field: 'model.parametersB', reason: 'parametersB must be a positive number of billions' };
  }
  const active = model.activeParametersB ?? parametersB;
  if (!(active > 0 && active <= parametersB)) {
    return { ok: false, field: 'model.activeParametersB', reason: 'activeParametersB must be in (0, parametersB]' };
  }
  const shape = defaultShape(parametersB);
  const given = [model.layers, model.hiddenSize, model.attentionHeads, model.kvHeads, model.headDim];
  const resolved: ModelShape = {
    layers: model.layers ?? shape.layers,
    hiddenSize: model.hiddenSize ?? shape.hiddenSize,
    attentionHeads: model.attentionHeads ?? shape.attentionHeads,
    kvHeads: model.kvHeads ?? Math.min(DEFAULT_KV_HEADS, model.attentionHeads ?? shape.attentionHeads),
    headDim: model.headDim ?? (model.hiddenSize && model.attentionHeads ? model.hiddenSize / model.attentionHeads : DEFAULT_HEAD_DIM),
    slidingWindowTokens: model.slidingWindowTokens ?? null,
  };
  for (const [field, value] of Object.entries(resolved)) {
    if (value !== null && !(Number.isFinite(value) && value > 0)) {
      return { ok: false, field: `model.${field}`, reason: `${field} must be positive` };
    }
  }
  return {
    ok: true,
    model: {
      ...resolved,
      slug: 'custom',
      name: model.name ?? `custom ${parametersB}B`,
      totalParametersB: parametersB,
      activeParametersB: active,
      experts: model.experts ?? null,
      nativePrecision: model.nativePrecision ?? 'BF16',
      source: 'caller-supplied',
      shapeAssumed: given.some((v) => v === undefined),
    },
  };
}

function defaultShape(parametersB: number): Omit<ModelShape, 'slidingWindowTokens' | 'kvHeads' | 'headDim'> {
  const layers = Math.max(1, Math.round(Math.cbrt((parametersB * 1e9) / (12 * HIDDEN_PER_LAYER ** 2))));
  const hiddenSize = layers * HIDDEN_PER_LAYER;
  return { layers, hiddenSize, attentionHeads: Math.max(1, hiddenSize / DEFAULT_HEAD_DIM) };
}

/** Bytes of all weights at a precision. */
export function weightBytes({ model, precision }: { model: ModelSpec; precision: Precision }): number {
  return model.totalParametersB * 1e9 * bytesPerParameter(precision);
}

/** KV cache per token: 2 (K and V) × layers × KV heads × head dim × bytes per value. */
export function kvBytesPerToken({ model, precision }: { model: ModelSpec; precision: Precision }): number {
  return 2 * model.layers * model.kvHeads * model.headDim * KV_BYTES_PER_VALUE[precision];
}

/** Tokens one sequence keeps in the cache: its context, capped by a sliding window. */
export function cachedTokens({ model, contextTokens }: { model: ModelSpec; contextTokens: number }): number {
  return model.slidingWindowTokens === null ? contextTokens : Math.min(contextTokens, model.slidingWindowTokens);
}

/**
 * Weight bytes one decode step reads for a batch. Dense models read everything. A
 * mixture-of-experts model reads its shared part plus the experts the batch's tokens hit:
 * with E experts and k per token, B tokens touch 1 − (1 − k/E)^B of them (uniform routing).
 * The shared part S follows from total = S + X and active = S + X·k/E.
 */
export function weightBytesReadPerStep({ model, precision, batch }: { model: ModelSpec; precision: Precision; batch: number }): number {
  const total = weightBytes({ model, precision });
  if (!model.experts) return total;
  const routed = model.experts.activeExpertsPerToken / model.experts.expertCount;
  const expertParamsB = (model.totalParametersB - model.activeParametersB) / (1 - routed);
  const sharedParamsB = model.totalParametersB - expertParamsB;
  const touched = 1 - (1 - routed) ** batch;
  return (sharedParamsB + expertParamsB * touched) * 1e9 * bytesPerParameter(precision);
}
