import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'gpuCost:isPublic';
/** Open without an API key even when AUTH_MODE=required (health, metrics). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
