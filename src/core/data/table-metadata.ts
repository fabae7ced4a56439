import { RecordBatch, Schema, Table, type Field } from 'apache-arrow';
import { installLinearSchemaAssign } from './linear-schema.ts';

// Rebuilding a wide table's batches stays linear (see linear-schema.ts).
installLinearSchemaAssign();

/** A copy of the table whose schema metadata also holds `entries`. */
export function withMetadata(table: Table, entries: Record<string, string>): Table {
  const metadata = new Map(table.schema.metadata);
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  const schema = new Schema(table.schema.fields.map((field: Field) => field), metadata, table.schema.dictionaries);
  return new Table(schema, table.batches.map((batch) => new RecordBatch(schema, batch.data)));
}
