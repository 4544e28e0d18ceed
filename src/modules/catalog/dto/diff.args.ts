import { ArgsType } from '@nestjs/graphql';
import { VERSION_REF } from '../../../common/inputs/input-bounds.js';
import { field, InputField } from '../../../common/inputs/input-field.js';

@ArgsType()
export class DiffArgs {
  @InputField(field.string({ ...VERSION_REF, required: true, description: 'Version id or label to compare from' }))
  from: string;

  @InputField(field.string({ ...VERSION_REF, required: true, description: 'Version id or label to compare to' }))
  to: string;
}
