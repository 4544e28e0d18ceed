// The EC2 GPU instance families the AWS sources read (aws-spot and aws), and the catalog GPU of
// each, from AWS's accelerated computing instance pages. One map, so both sources read the same
// families and an offer the spot source writes has an on-demand and reserved twin from the other.
// The GPU count per instance comes from each feed (the CSV's AcceleratorCount, the offer file's
// `gpu` attribute), not from here.

/** Instance family (the part of the instance type before the dot) -> catalog GPU slug. */
export const AWS_GPU_FAMILIES: Readonly<Record<string, string>> = {
  g4dn: 't4-16gb',
  g5: 'a10g-24gb',
  g6: 'l4-24gb',
  g6e: 'l40s-48gb',
  p4d: 'a100-sxm-40gb',
  p4de: 'a100-sxm-80gb',
  p5: 'h100-sxm-80gb',
  p5e: 'h200-141gb',
  p5en: 'h200-141gb',
};

/** The catalog GPU of an instance type (`p5.48xlarge` -> `h100-sxm-80gb`), or undefined outside these families. */
export function awsGpuOf(instanceType: string): string | undefined {
  return AWS_GPU_FAMILIES[instanceType.split('.')[0] ?? ''];
}
