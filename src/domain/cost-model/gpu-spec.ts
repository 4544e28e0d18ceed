// A GPU as the cost model needs it: plain numbers (quantities, not money).
import type { GpuModel } from '../catalog/catalog.types.js';

export interface GpuSpec {
  slug: string;
  /** Vendor GB (behaves like GiB). */
  memoryGb: number;
  memoryBandwidthGbps: number;
  /** Dense peaks, no sparsity. */
  fp16Tflops: number;
  int8Tops: number;
  fp8Tflops: number | null;
  /** Native FP8 tensor cores (compute capability ≥ 8.9). */
  fp8Support: boolean;
}

export function gpuSpecFromCatalog({ gpu }: { gpu: GpuModel }): GpuSpec {
  return {
    slug: gpu.slug,
    memoryGb: gpu.memoryGb.toNumber(),
    memoryBandwidthGbps: gpu.memoryBandwidthGbps.toNumber(),
    fp16Tflops: gpu.fp16Tflops.toNumber(),
    int8Tops: gpu.int8Tops.toNumber(),
    fp8Tflops: gpu.fp8Tflops === null ? null : gpu.fp8Tflops.toNumber(),
    fp8Support: gpu.fp8Support,
  };
}

const spec = (slug: string, memoryGb: number, memoryBandwidthGbps: number, fp16Tflops: number, int8Tops: number, fp8Tflops: number | null): GpuSpec => ({
  slug,
  memoryGb,
  memoryBandwidthGbps,
  fp16Tflops,
  int8Tops,
  fp8Tflops,
  fp8Support: fp8Tflops !== null,
});

/**
 * Datasheet figures (dense, no sparsity), sourced per GPU in data/catalog/gpus.yaml, for the
 * calibration points and for tests; the service itself takes GPU specs from the catalog.
 */
export const REFERENCE_GPUS = {
  t4: spec('t4-16gb', 16, 320, 65, 130, null),
  l4: spec('l4-24gb', 24, 300, 121, 242.5, 242.5),
  a10g: spec('a10g-24gb', 24, 600, 70, 140, null),
  l40s: spec('l40s-48gb', 48, 864, 362, 733, 733),
  a100_40: spec('a100-sxm-40gb', 40, 1555, 312, 624, null),
  a100_80: spec('a100-sxm-80gb', 80, 2039, 312, 624, null),
  h100: spec('h100-sxm-80gb', 80, 3350, 989, 1979, 1979),
  h100_pcie: spec('h100-pcie-80gb', 80, 2000, 756, 1513, 1513),
  h200: spec('h200-141gb', 141, 4800, 989, 1979, 1979),
  b200: spec('b200-180gb', 180, 8000, 2250, 4500, 4500),
  mi300x: spec('mi300x-192gb', 192, 5300, 1307, 2615, 2615),
} as const;
