// An energy figure of the catalog as an answer applied it (docs/carbon.md): offers and estimates
// name each figure with its basis, source, year and, for a grid intensity, its method.
import { Field, Float, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import type { GridSource } from '../../domain/catalog/catalog.types.js';
import type { AppliedFigure } from '../../domain/energy/index.js';
import { GridSourceEnum } from './enums.js';

const BASIS_TEXT =
  "OWN: the subject's own row (the region's grid or PUE, the GPU's board power); COUNTRY_FALLBACK: the grid average of the region's country; " +
  "PROVIDER_FALLBACK: the provider's fleet-wide PUE; DEFAULT: the default row (the industry-average PUE where the provider publishes none)";

@ObjectType('EnergyFigureApplied', { description: 'A figure of the catalog’s energy section as applied, with its source and year' })
export class EnergyFigureAppliedModel {
  @ApiProperty() @Field(() => Float) value: number;
  @ApiProperty({ enum: ['OWN', 'COUNTRY_FALLBACK', 'PROVIDER_FALLBACK', 'DEFAULT'], description: BASIS_TEXT })
  @Field({ description: BASIS_TEXT })
  basis: string;
  @ApiProperty({ example: 'aws:us-west-2', description: 'The row applied: a region code, an ISO country, a provider, a GPU or "default"' })
  @Field({ description: 'The row applied: a region code, an ISO country, a provider, a GPU or "default"' })
  subject: string;
  @ApiProperty({ description: 'The year the figure is for' }) @Field(() => Float, { description: 'The year the figure is for' }) year: number;
  @ApiProperty({ description: 'Where the figure was read (pinned to a commit where the source is a repository)' }) @Field() source: string;
  @ApiProperty({ nullable: true, type: String, description: 'How it was read or derived (e.g. the Electricity Maps zone); null when read as is' })
  @Field(() => String, { nullable: true })
  note: string | null;
  @ApiProperty({ enum: GridSourceEnum, enumName: 'GridSource', nullable: true, description: 'Grid intensity only: how it was made; null for other figures' })
  @Field(() => GridSourceEnum, { nullable: true, description: 'Grid intensity only: how it was made; null for other figures' })
  gridSource: GridSource | null;

  static of(f: AppliedFigure): EnergyFigureAppliedModel {
    let m = written.get(f);
    if (!m) {
      m = Object.assign(new EnergyFigureAppliedModel(), {
        value: f.value,
        basis: f.basis,
        subject: f.subject,
        year: f.year,
        source: f.source,
        note: f.note,
        gridSource: f.gridSource,
      });
      written.set(f, m);
    }
    return m;
  }
}

/** One model per applied figure (the energy index keeps one per row): answers share it. */
const written = new WeakMap<AppliedFigure, EnergyFigureAppliedModel>();
