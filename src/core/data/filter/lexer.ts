import type { ComparisonOperator } from './ast.ts';
import { FILTER_KEYWORDS } from './ast.ts';
import type { FilterProblem } from './problem.ts';

export type FilterKeyword = 'AND' | 'OR' | 'NOT' | 'IN' | 'BETWEEN' | 'IS' | 'NULL' | 'TRUE' | 'FALSE' | 'LIKE' | 'CONTAINS';

interface TokenBase {
  /** Offset of the token's first character. */
  position: number;
  /** The token's source text ('' for the end). */
  text: string;
}

/** One lexical unit of a filter expression. */
export type Token =
  | (TokenBase & { type: 'identifier'; name: string })
  | (TokenBase & { type: 'keyword'; keyword: FilterKeyword })
  | (TokenBase & { type: 'number'; value: number })
  | (TokenBase & { type: 'string'; value: string })
  | (TokenBase & { type: 'operator'; operator: ComparisonOperator })
  | (TokenBase & { type: 'punctuation'; value: '(' | ')' | ',' })
  | (TokenBase & { type: 'end' })
  | (TokenBase & { type: 'error'; problem: FilterProblem });

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
const WHITESPACE = /\s/;
/** A bare Bluetooth address or its prefix as Wireshark prints it (`1e:bf:2d`, `1E:BF:2D:60:14:65`): read as a string. */
const BARE_ADDRESS = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2})+(?![0-9A-Za-z_:.])/;

function isDigit(character: string | undefined): boolean {
  return character !== undefined && DIGIT.test(character);
}

/** `'x'` for a character, `end of input` past the end. */
export function describeCharacter(character: string | undefined): string {
  return character === undefined ? 'end of input' : `'${character}'`;
}

function syntaxError(position: number, message: string): Token {
  return { type: 'error', position, text: '', problem: { kind: 'syntax', position, message } };
}

/**
 * Splits `source` into tokens. The list always ends with one `end` token or, at the
 * first character that cannot start a token, one `error` token; the parser reports that
 * error only if it gets that far, so the earliest problem in the text wins.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  for (;;) {
    while (index < source.length && WHITESPACE.test(source[index])) index++;
    if (index >= source.length) {
      tokens.push({ type: 'end', position: source.length, text: '' });
      return tokens;
    }
    const token = readToken(source, index);
    tokens.push(token);
    if (token.type === 'error') return tokens;
    index = token.position + token.text.length;
  }
}

function readToken(source: string, start: number): Token {
  const character = source[start];
  const next = source[start + 1];

  const address = BARE_ADDRESS.exec(source.slice(start, start + 18));
  if (address) return { type: 'string', value: address[0], position: start, text: address[0] };

  // Wireshark's operators: `&&`, `||`, `!` and `==` (the `!=`, `<`, … are the same in both).
  if (character === '&' && next === '&') return { type: 'keyword', keyword: 'AND', position: start, text: '&&' };
  if (character === '|' && next === '|') return { type: 'keyword', keyword: 'OR', position: start, text: '||' };
  if (character === '!' && next !== '=') return { type: 'keyword', keyword: 'NOT', position: start, text: '!' };
  if (character === '=' && next === '=') return { type: 'operator', operator: '=', position: start, text: '==' };
  if (character === '0' && (next === 'x' || next === 'X')) return readHexNumber(source, start);

  if (IDENTIFIER_START.test(character)) {
    let end = start + 1;
    // Dotted names (`btle.advertising_address`) are Wireshark field names; compileFilter maps them.
    while (end < source.length && (IDENTIFIER_PART.test(source[end]) || (source[end] === '.' && IDENTIFIER_START.test(source[end + 1] ?? '')))) end++;
    const text = source.slice(start, end);
    const upper = text.toUpperCase();
    if (FILTER_KEYWORDS.has(upper)) {
      // FILTER_KEYWORDS holds exactly the FilterKeyword members.
      return { type: 'keyword', keyword: upper as FilterKeyword, position: start, text };
    }
    return { type: 'identifier', name: text, position: start, text };
  }

  if (isDigit(character) || (character === '.' && isDigit(next)) || character === '-') {
    return readNumber(source, start);
  }

  if (character === "'") {
    const quoted = readQuoted(source, start, "'");
    if (quoted === null) {
      return syntaxError(start, `Expected a closing ' for the string starting at position ${start}, found end of input`);
    }
    return { type: 'string', value: quoted.value, position: start, text: source.slice(start, quoted.end) };
  }

  if (character === '"') {
    const quoted = readQuoted(source, start, '"');
    if (quoted === null) {
      return syntaxError(start, `Expected a closing " for the column name starting at position ${start}, found end of input`);
    }
    if (quoted.value === '') {
      return syntaxError(start, `Expected a column name between the double quotes at position ${start}, found an empty name`);
    }
    return { type: 'identifier', name: quoted.value, position: start, text: source.slice(start, quoted.end) };
  }

  if (character === '(' || character === ')' || character === ',') {
    return { type: 'punctuation', value: character, position: start, text: character };
  }

  const operator = readOperator(character, next);
  if (operator) return { type: 'operator', operator: operator.operator, position: start, text: operator.text };

  return syntaxError(start, unexpectedCharacterMessage(character, next, start));
}

function readOperator(character: string, next: string | undefined): { operator: ComparisonOperator; text: string } | null {
  switch (character) {
    case '=':
      return { operator: '=', text: '=' };
    case '!':
      return next === '=' ? { operator: '!=', text: '!=' } : null;
    case '<':
      if (next === '=') return { operator: '<=', text: '<=' };
      if (next === '>') return { operator: '!=', text: '<>' };
      return { operator: '<', text: '<' };
    case '>':
      return next === '=' ? { operator: '>=', text: '>=' } : { operator: '>', text: '>' };
    default:
      return null;
  }
}

function unexpectedCharacterMessage(character: string, next: string | undefined, position: number): string {
  const base = `Unexpected character '${character}' at position ${position}`;
  switch (character) {
    case '&':
      return `${base}; use AND or &&`;
    case '|':
      return `${base}; use OR or ||`;
    default:
      // Letters outside [A-Za-z] (é, ß, …) most likely belong to a column name.
      return /\p{L}/u.test(character) ? `${base}; double-quote column names with other characters, e.g. "${character}…"` : base;
  }
}

function readNumber(source: string, start: number): Token {
  let end = start;
  if (source[end] === '-') {
    end++;
    if (!(isDigit(source[end]) || (source[end] === '.' && isDigit(source[end + 1])))) {
      return syntaxError(start, `Expected a number after '-' at position ${start}, found ${describeCharacter(source[end])}`);
    }
  }
  while (isDigit(source[end])) end++;
  if (source[end] === '.') {
    end++;
    while (isDigit(source[end])) end++;
  }
  if (source[end] === 'e' || source[end] === 'E') {
    end++;
    if (source[end] === '+' || source[end] === '-') end++;
    if (!isDigit(source[end])) {
      return syntaxError(start, `Expected digits in the exponent of the number at position ${start}, found ${describeCharacter(source[end])}`);
    }
    while (isDigit(source[end])) end++;
  }
  const text = source.slice(start, end);
  const following = source[end];
  if (following !== undefined && (IDENTIFIER_PART.test(following) || following === '.')) {
    const hint = IDENTIFIER_PART.test(following) ? ' (a column name that starts with a digit needs double quotes)' : '';
    return syntaxError(end, `Expected a space or operator after the number ${text} at position ${end}, found '${following}'${hint}`);
  }
  return { type: 'number', value: Number(text), position: start, text };
}

/** `0x004C`: Wireshark prints company ids and PDU types in hex. */
function readHexNumber(source: string, start: number): Token {
  let end = start + 2;
  while (end < source.length && /[0-9A-Fa-f]/.test(source[end])) end++;
  const text = source.slice(start, end);
  if (end === start + 2) return syntaxError(start, `Expected hex digits after '0x' at position ${start}, found ${describeCharacter(source[end])}`);
  const following = source[end];
  if (following !== undefined && (IDENTIFIER_PART.test(following) || following === '.')) {
    return syntaxError(end, `Expected a space or operator after the number ${text} at position ${end}, found '${following}'`);
  }
  return { type: 'number', value: Number.parseInt(text.slice(2), 16), position: start, text };
}

/** Reads a quoted run where a doubled quote stands for one; null when unterminated. */
function readQuoted(source: string, start: number, quote: string): { value: string; end: number } | null {
  let value = '';
  let index = start + 1;
  while (index < source.length) {
    const character = source[index];
    if (character === quote) {
      if (source[index + 1] === quote) {
        value += quote;
        index += 2;
        continue;
      }
      return { value, end: index + 1 };
    }
    value += character;
    index++;
  }
  return null;
}
