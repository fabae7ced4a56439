import { describe, expect, it } from 'vitest';
import { locateJsonPath } from './json-locate.ts';

const text = `{
  "name": "a",
  "input_schema": {
    "type": "object",
    "required": ["x", "y"],
    "properties": { "x": { "type": "string" } }
  }
}`;

describe('locateJsonPath', () => {
  it('finds keys and array items', () => {
    expect(locateJsonPath(text, '$.name')).toEqual({ line: 2, column: 11 });
    expect(locateJsonPath(text, '$.input_schema.required[1]')).toEqual({ line: 5, column: 23 });
    expect(locateJsonPath(text, '$.input_schema.properties.x.type')).toEqual({ line: 6, column: 36 });
    expect(locateJsonPath(text, '$')).toEqual({ line: 1, column: 1 });
  });

  it('returns null for what is not there', () => {
    expect(locateJsonPath(text, '$.missing')).toBeNull();
    expect(locateJsonPath(text, '$.input_schema.required[5]')).toBeNull();
    expect(locateJsonPath('not json', '$.a')).toBeNull();
  });
});
