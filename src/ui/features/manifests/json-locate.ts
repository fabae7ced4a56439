/**
 * Finds where a JSONPath (`$.input_schema.required[1]`) points in JSON text, for putting the cursor
 * on a lint problem. A small scanner over the text: it only needs the start of a value, so it
 * tracks keys and array indices and skips strings, without building a tree.
 */
export function locateJsonPath(text: string, path: string): { line: number; column: number } | null {
  const segments = parsePath(path);
  if (!segments) return null;
  let index = 0;
  const skipSpace = () => {
    while (index < text.length && /\s/.test(text[index])) index++;
  };
  const readString = (): string | null => {
    if (text[index] !== '"') return null;
    let out = '';
    index++;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\\') {
        out += text[index + 1] ?? '';
        index += 2;
      } else out += text[index++];
    }
    index++;
    return out;
  };
  const skipValue = () => {
    skipSpace();
    const open = text[index];
    if (open === '"') return void readString();
    if (open === '{' || open === '[') {
      let depth = 0;
      while (index < text.length) {
        const char = text[index];
        if (char === '"') {
          readString();
          continue;
        }
        if (char === '{' || char === '[') depth++;
        if (char === '}' || char === ']') depth--;
        index++;
        if (depth === 0) return;
      }
      return;
    }
    while (index < text.length && !/[,}\]]/.test(text[index])) index++;
  };
  for (const segment of segments) {
    skipSpace();
    if (typeof segment === 'string') {
      if (text[index] !== '{') return null;
      index++;
      let found = false;
      while (index < text.length) {
        skipSpace();
        if (text[index] === '}') return null;
        const key = readString();
        if (key === null) return null;
        skipSpace();
        index++; // the colon
        if (key === segment) {
          found = true;
          break;
        }
        skipValue();
        skipSpace();
        if (text[index] === ',') index++;
      }
      if (!found) return null;
    } else {
      if (text[index] !== '[') return null;
      index++;
      for (let item = 0; item < segment; item++) {
        skipValue();
        skipSpace();
        if (text[index] !== ',') return null;
        index++;
      }
    }
  }
  skipSpace();
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function parsePath(path: string): Array<string | number> | null {
  if (!path.startsWith('$')) return null;
  const segments: Array<string | number> = [];
  const pattern = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return null;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}
