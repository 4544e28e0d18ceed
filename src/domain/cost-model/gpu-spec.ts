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
