import { DataType, Precision, type Table, type Vector } from 'apache-arrow';
import { parquetWriteBuffer, type ColumnSource, type SchemaElement } from 'hyparquet-writer';

/**
 * A capture's table as a Parquet file (the Captures page's "Download Parquet"), written with
 * hyparquet-writer under an explicit schema: strings (plain or dictionary-encoded) as UTF-8,
 * floats as DOUBLE or FLOAT, integers as INT32 or INT64, booleans, binary, and lists of those as
 * Parquet LISTs (e.g. the service UUIDs); every column nullable and nulls kept. The table's
 * key/value metadata (the capture's id, time column, origin and source hash) goes into the
 * file's, so `readParquet` restores the same capture. Any other type is written as its JSON text.
 */
export function tableToParquet(table: Table, options: { createdBy?: string } = {}): Uint8Array {
  const columnData: ColumnSource[] = [];
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.numCols }];
  table.schema.fields.forEach((field, index) => {
    const column = parquetColumn(field.name, field.type, table.getChildAt(index)!);
    columnData.push({ name: field.name, data: column.data });
    schema.push(...column.schema);
  });
  const kvMetadata = [...table.schema.metadata].map(([key, value]) => ({ key, value }));
  return new Uint8Array(parquetWriteBuffer({ columnData, schema, kvMetadata, createdBy: options.createdBy ?? 'sextant' }));
}

type Scalar = string | number | bigint | boolean | Uint8Array;

/** How one Arrow value type is written: its schema element (less the name) and the conversion of a value. */
interface ScalarPlan {
  element: Omit<SchemaElement, 'name'>;
  convert: (value: unknown) => Scalar;
}

function scalarPlan(type: DataType): ScalarPlan {
  const textType = DataType.isDictionary(type) ? type.dictionary : type;
  if (DataType.isUtf8(textType) || DataType.isLargeUtf8(textType)) return { element: { type: 'BYTE_ARRAY', converted_type: 'UTF8' }, convert: String };
  if (DataType.isBool(type)) return { element: { type: 'BOOLEAN' }, convert: Boolean };
  if (DataType.isFloat(type)) return { element: { type: type.precision === Precision.DOUBLE ? 'DOUBLE' : 'FLOAT' }, convert: Number };
  if (DataType.isInt(type)) {
    if (type.bitWidth < 32 || (type.bitWidth === 32 && type.isSigned)) return { element: { type: 'INT32' }, convert: Number };
    return { element: { type: 'INT64' }, convert: (value) => BigInt(value as number | bigint) };
  }
  if (DataType.isBinary(type) || DataType.isLargeBinary(type)) return { element: { type: 'BYTE_ARRAY' }, convert: (value) => value as Uint8Array };
  return { element: { type: 'BYTE_ARRAY', converted_type: 'UTF8' }, convert: textOf };
}

function parquetColumn(name: string, type: DataType, vector: Vector): { schema: SchemaElement[]; data: Array<Scalar | Array<Scalar | null> | null> } {
  // Row by row through get(): it decodes dictionaries and honours validity for every type.
  const data = new Array<Scalar | Array<Scalar | null> | null>(vector.length);
  if (DataType.isList(type)) {
    const item = scalarPlan(type.children[0].type);
    for (let row = 0; row < vector.length; row++) {
      const list = vector.isValid(row) ? (vector.get(row) as Vector | null) : null;
      data[row] = list ? Array.from({ length: list.length }, (_, index) => (list.isValid(index) ? item.convert(list.get(index)) : null)) : null;
    }
    return {
      data,
      // The three-level LIST of the Parquet format's LogicalTypes.md.
      schema: [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', ...item.element },
      ],
    };
  }
  const plan = scalarPlan(type);
  for (let row = 0; row < vector.length; row++) data[row] = vector.isValid(row) ? plan.convert(vector.get(row)) : null;
  return { data, schema: [{ name, repetition_type: 'OPTIONAL', ...plan.element }] };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
