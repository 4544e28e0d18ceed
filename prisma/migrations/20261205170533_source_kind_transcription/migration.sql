-- AlterEnum (hand-edited: BEFORE keeps the type's order the rank order of SOURCE_KINDS,
-- src/domain/catalog/catalog.types.ts)
ALTER TYPE "SourceKind" ADD VALUE 'TRANSCRIPTION' BEFORE 'ANNOUNCEMENT';
