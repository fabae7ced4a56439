import { RecordBatch, Table, type Field } from 'apache-arrow';
import { LinearSchema } from './linear-schema.ts';

/** A copy of the table whose schema metadata also holds `entries`. */
export function withMetadata(table: Table, entries: Record<string, string>): Table {
  const metadata = new Map(table.schema.metadata);
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  const schema = new LinearSchema(table.schema.fields.map((field: Field) => field), metadata, table.schema.dictionaries);
  return new Table(schema, table.batches.map((batch) => new RecordBatch(schema, batch.data)));
}
