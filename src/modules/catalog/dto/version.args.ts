import { ArgsType, Field } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsOptional, IsString, Length, Matches } from 'class-validator';

/** Selects the catalog version a read answers from: `version` (id or label) or `asOf`. */
@ArgsType()
export class VersionArgs {
  @ApiPropertyOptional({ description: 'Catalog version id or label; default: the current version' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  version?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Answer from the version that was current at this time' })
  @Field(() => Date, { nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'must be an ISO 8601 timestamp' })
  asOf?: Date;
}

@ArgsType()
export class DiffArgs {
  @ApiPropertyOptional({ description: 'Version id or label to compare from' })
  @Field()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  from: string;

  @ApiPropertyOptional({ description: 'Version id or label to compare to' })
  @Field()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { message: 'must be a version id or label' })
  to: string;
}
