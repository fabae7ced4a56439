import { Schema, type Field } from 'apache-arrow';

/**
 * Makes apache-arrow's `Schema.prototype.assign` linear (and correct for duplicate names) in the
 * one case that runs once per record batch. Idempotent; the modules that build or decode tables of
 * any width (the tabular readers' batch builder, the metadata rebuild, the Arrow reader, the tool
 * host) call it at load. Tables of fixed, narrow width (BLE captures, demo data) do not need it.
 *
 * Why a patch of the library's prototype, not a subclass: every RecordBatch apache-arrow builds —
 * ours, and the ones its IPC reader decodes (which we cannot give a schema of our own) — re-derives
 * its schema with `schema.assign(fields)`, passing the schema's own fields in order (some cloned
 * nullable). `assign` finds each by name with a scan of all fields: quadratic in the width, once
 * per batch (issue 14: 32,000 CSV columns took 2.5 s there; a 23 MB Arrow file of 4,096 columns in
 * 100 batches took 5.9 s, a 5 MB one of 100,000 columns minutes). With duplicate column names the
 * name lookup also pairs fields with the wrong positions: an Arrow file with columns `x: Float64,
 * x: Int32` decoded as `x: Int32, x: Int32`, and rebuilding such a table threw.
 *
 * The replacement handles exactly that call — one array of fields with the schema's names in the
 * schema's order — position by position, with what the original computes for unique names: each
 * field's metadata merged over the old field's, the schema's metadata and dictionaries kept. Every
 * other call goes to apache-arrow's own `assign` unchanged.
 */
export function installLinearSchemaAssign(): void {
  const prototype = Schema.prototype as Schema & { [LINEAR]?: true };
  if (prototype[LINEAR]) return;
  const original = prototype.assign as (this: Schema, ...args: unknown[]) => Schema;
  const linear = function (this: Schema, ...args: unknown[]): Schema {
    const [fields] = args;
    if (args.length === 1 && Array.isArray(fields) && isOwnFieldList(this, fields as Field[])) {
      const merged = (fields as Field[]).map((field, index) => {
        const metadata = new Map(this.fields[index].metadata);
        for (const [key, value] of field.metadata) metadata.set(key, value);
        return field.clone({ metadata });
      });
      return new Schema(merged, new Map(this.metadata), new Map(this.dictionaries));
    }
    return original.apply(this, args);
  };
  prototype.assign = linear as Schema['assign'];
  prototype[LINEAR] = true;
}

const LINEAR = Symbol.for('sextant.linearSchemaAssign');

/** The same names in the same order as the schema's fields. */
function isOwnFieldList(schema: Schema, fields: readonly Field[]): boolean {
  if (fields.length !== schema.fields.length) return false;
  for (let index = 0; index < fields.length; index++) {
    if (fields[index]?.name !== schema.fields[index].name) return false;
  }
  return true;
}
