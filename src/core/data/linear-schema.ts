import { Schema, type Field, type TypeMap } from 'apache-arrow';

/**
 * A Schema whose `assign` of its own fields is linear and positional.
 *
 * Why: apache-arrow's RecordBatch constructor re-derives the batch's schema with
 * `schema.assign(fields)`, passing the schema's own fields (some cloned nullable), and `assign`
 * finds each by name with a scan of all fields — quadratic in the width, once per record batch
 * (issue 14: 32,000 CSV columns took 2.5 s in that loop alone). With duplicate column names the
 * name lookup also pairs a field with the wrong position and the batch's schema no longer matches
 * its table's, which makes `new Table` throw. When the fields passed are the schema's own, in
 * order (what the constructor does), this `assign` replaces them position by position — the same
 * result apache-arrow's gives for unique names, in one pass; anything else goes to apache-arrow's.
 */
export class LinearSchema<T extends TypeMap = TypeMap> extends Schema<T> {
  override assign<R extends TypeMap = TypeMap>(schema: Schema<R>): Schema<T & R>;
  override assign<R extends TypeMap = TypeMap>(...fields: Array<Field<R[keyof R]> | Array<Field<R[keyof R]>>>): Schema<T & R>;
  override assign(...args: unknown[]): Schema {
    const [fields] = args;
    if (args.length === 1 && Array.isArray(fields) && this.isOwnFieldList(fields as Field[])) {
      const merged = (fields as Field[]).map((field, index) => {
        const metadata = new Map(this.fields[index].metadata);
        for (const [key, value] of field.metadata) metadata.set(key, value);
        return field.clone({ metadata });
      });
      return new LinearSchema(merged, new Map(this.metadata), new Map(this.dictionaries));
    }
    return super.assign(...(args as Array<Field | Field[]>));
  }

  /** The same names in the same order as this schema's fields. */
  private isOwnFieldList(fields: readonly Field[]): boolean {
    if (fields.length !== this.fields.length) return false;
    for (let index = 0; index < fields.length; index++) {
      if (fields[index]?.name !== this.fields[index].name) return false;
    }
    return true;
  }
}
