// Known open models as data, with where each number comes from. Shapes drive the KV cache
// (layers × KV heads × head dim) and parameter counts drive weights and FLOPs.
import type { Precision } from './precision.js';

export interface MixtureOfExperts {
  /** Experts per MoE layer. */
  expertCount: number;
  /** Experts each token is routed to. */
  activeExpertsPerToken: number;
}

export interface ModelShape {
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  /** Key/value heads; fewer than attention heads means grouped-query attention. */
  kvHeads: number;
  headDim: number;
  /** Sliding-window attention caps the KV cache at this many tokens (Mistral-7B: 4096). */
  slidingWindowTokens: number | null;
}

export interface ModelSpec extends ModelShape {
  slug: string;
  name: string;
  /** All parameters, in billions: what has to sit in GPU memory. */
  totalParametersB: number;
  /** Parameters used per token, in billions: what drives FLOPs (differs for mixture-of-experts). */
  activeParametersB: number;
  experts: MixtureOfExperts | null;
  /** Precision the weights are published in; the default when a request names none. */
  nativePrecision: Precision;
  source: string;
  /** True when the shape was not given and defaults were assumed (custom models). */
  shapeAssumed: boolean;
}

const HF = 'https://huggingface.co';

/** Presets keyed by slug. Parameter counts as the model cards state them. */
export const MODEL_PRESETS: Readonly<Record<string, ModelSpec>> = Object.freeze({
  'llama-2-7b': preset('llama-2-7b', 'Llama-2-7B', 6.74, 6.74, [32, 4096, 32, 32, 128, null], {
    source: `${HF}/meta-llama/Llama-2-7b-hf config.json; transformers LlamaConfig defaults`,
  }),
  'llama-2-13b': preset('llama-2-13b', 'Llama-2-13B', 13.02, 13.02, [40, 5120, 40, 40, 128, null], {
    source: `${HF}/meta-llama/Llama-2-13b-hf config.json (40 layers, hidden 5120, 40 heads, no GQA)`,
  }),
  'llama-2-70b': preset('llama-2-70b', 'Llama-2-70B', 68.98, 68.98, [80, 8192, 64, 8, 128, null], {
    source: `${HF}/meta-llama/Llama-2-70b-hf config.json (GQA with 8 KV heads); MLPerf Inference llama2-70b`,
  }),
  'llama-3-8b': preset('llama-3-8b', 'Llama-3-8B', 8.03, 8.03, [32, 4096, 32, 8, 128, null], {
    source: `${HF}/meta-llama/Meta-Llama-3-8B config.json`,
  }),
  'llama-3-70b': preset('llama-3-70b', 'Llama-3-70B', 70.6, 70.6, [80, 8192, 64, 8, 128, null], {
    source: `${HF}/meta-llama/Meta-Llama-3-70B config.json`,
  }),
  'mistral-7b': preset('mistral-7b', 'Mistral-7B-v0.1', 7.24, 7.24, [32, 4096, 32, 8, 128, 4096], {
    source: `${HF}/mistralai/Mistral-7B-v0.1 config.json (sliding_window 4096); transformers MistralConfig`,
  }),
  'mixtral-8x7b': preset('mixtral-8x7b', 'Mixtral-8x7B-v0.1', 46.7, 12.9, [32, 4096, 32, 8, 128, null], {
    experts: { expertCount: 8, activeExpertsPerToken: 2 },
    source: `${HF}/mistralai/Mixtral-8x7B-v0.1 config.json (8 experts, top-2); Mistral AI "Mixtral of experts" (46.7B total, 12.9B active)`,
  }),
  'gpt-j-6b': preset('gpt-j-6b', 'GPT-J-6B', 6.05, 6.05, [28, 4096, 16, 16, 256, null], {
    nativePrecision: 'FP16',
    source: `${HF}/EleutherAI/gpt-j-6b config.json (28 layers, 16 heads of 256); NVIDIA/TensorRT-LLM blogs/H100vsA100.md`,
  }),
});

export const MODEL_PRESET_SLUGS: readonly string[] = Object.freeze(Object.keys(MODEL_PRESETS));

function preset(
  slug: string,
  name: string,
  totalParametersB: number,
  activeParametersB: number,
  [layers, hiddenSize, attentionHeads, kvHeads, headDim, slidingWindowTokens]: [number, number, number, number, number, number | null],
  extra: { source: string; experts?: MixtureOfExperts; nativePrecision?: Precision },
): ModelSpec {
  return Object.freeze({
    slug,
    name,
    totalParametersB,
    activeParametersB,
    layers,
    hiddenSize,
    attentionHeads,
    kvHeads,
    headDim,
    slidingWindowTokens,
    experts: extra.experts ?? null,
    nativePrecision: extra.nativePrecision ?? 'BF16',
    source: extra.source,
    shapeAssumed: false,
  });
}
