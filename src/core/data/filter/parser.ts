import { err, ok, type Result } from '../../util/result.ts';
import type { FilterAst, FilterColumn, FilterLiteral, FilterOperand } from './ast.ts';
import { tokenize, type FilterKeyword, type Token } from './lexer.ts';
import type { FilterProblem } from './problem.ts';

/**
 * Parentheses and `NOT`s may nest this deep. The limit keeps every recursive walk of the
 * tree (parse, compile, render, reference) far from the call-stack limit.
 */
export const MAX_FILTER_DEPTH = 200;

const LONGEST_QUOTED_TOKEN = 40;

type Parsed<T> = Result<T, FilterProblem>;

/**
 * Parses a filter expression (a SQL `WHERE` subset) into its syntax tree. Precedence is
 * SQL's: `NOT` binds tighter than `AND`, which binds tighter than `OR`. Never throws:
 * any text yields either a tree or a `syntax` problem at the earliest offending position.
 * Column names and types are not checked here; see `compileFilter`.
 */
export function parseFilter(expression: string): Result<FilterAst, FilterProblem> {
  return new Parser(tokenize(expression)).parseExpression();
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parseExpression(): Parsed<FilterAst> {
    const first = this.peek();
    if (first.type === 'end') return this.expected('a condition', first);
    const expression = this.parseOr(0);
    if (!expression.ok) return expression;
    const next = this.peek();
    if (next.type !== 'end') return this.expected('AND, OR or the end of the expression', next);
    return expression;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private advance(): Token {
    const token = this.tokens[this.index];
    // The last token (end or error) is never consumed, so peek() always has a token.
    if (token.type !== 'end' && token.type !== 'error') this.index++;
    return token;
  }

  private isKeyword(token: Token, keyword: FilterKeyword): boolean {
    return token.type === 'keyword' && token.keyword === keyword;
  }

  /** "Expected {what} after '{previous}' at position {p}, found {token}"; a lexer error reports itself. */
  private expected<T>(what: string, found: Token, hint = ''): Parsed<T> {
    if (found.type === 'error') return err(found.problem);
    const previous = this.index > 0 ? this.tokens[this.index - 1] : undefined;
    const after = previous && previous.position < found.position ? ` after ${quoteToken(previous)}` : '';
    return err({
      kind: 'syntax',
      position: found.position,
      message: `Expected ${what}${after} at position ${found.position}, found ${describeToken(found)}${hint}`,
    });
  }

  private parseOr(depth: number): Parsed<FilterAst> {
    const first = this.parseAnd(depth);
    if (!first.ok) return first;
    const operands: FilterAst[] = [first.value];
    while (this.isKeyword(this.peek(), 'OR')) {
      this.advance();
      const next = this.parseAnd(depth);
      if (!next.ok) return next;
      operands.push(next.value);
    }
    return operands.length === 1 ? first : ok({ kind: 'or', operands, position: first.value.position });
  }

  private parseAnd(depth: number): Parsed<FilterAst> {
    const first = this.parseNot(depth);
    if (!first.ok) return first;
    const operands: FilterAst[] = [first.value];
    while (this.isKeyword(this.peek(), 'AND')) {
      this.advance();
      const next = this.parseNot(depth);
      if (!next.ok) return next;
      operands.push(next.value);
    }
    return operands.length === 1 ? first : ok({ kind: 'and', operands, position: first.value.position });
  }

  private parseNot(depth: number): Parsed<FilterAst> {
    const token = this.peek();
    if (!this.isKeyword(token, 'NOT')) return this.parseCondition(depth);
    if (depth >= MAX_FILTER_DEPTH) return this.tooDeep(token);
    this.advance();
    const operand = this.parseNot(depth + 1);
    if (!operand.ok) return operand;
    return ok({ kind: 'not', operand: operand.value, position: token.position });
  }

  private parseCondition(depth: number): Parsed<FilterAst> {
    const token = this.peek();
    if (token.type === 'punctuation' && token.value === '(') {
      if (depth >= MAX_FILTER_DEPTH) return this.tooDeep(token);
      this.advance();
      const inner = this.parseOr(depth + 1);
      if (!inner.ok) return inner;
      const close = this.peek();
      if (!(close.type === 'punctuation' && close.value === ')')) {
        return this.expected("')'", close, `; the '(' at position ${token.position} is not closed`);
      }
      this.advance();
      return inner;
    }

    const subject = this.parseOperand('a condition');
    if (!subject.ok) return subject;
    if (subject.value.kind === 'column') return this.parsePredicateOnColumn(subject.value);
    return this.parseComparisonFromLiteral(subject.value);
  }

  private parsePredicateOnColumn(subject: FilterColumn): Parsed<FilterAst> {
    const token = this.peek();
    if (token.type === 'operator') {
      this.advance();
      const right = this.parseOperand('a value');
      if (!right.ok) return right;
      return ok({ kind: 'comparison', operator: token.operator, left: subject, right: right.value, position: subject.position });
    }
    if (this.isKeyword(token, 'IN')) {
      this.advance();
      return this.parseInList(subject, false);
    }
    if (this.isKeyword(token, 'BETWEEN')) {
      this.advance();
      return this.parseBetween(subject, false);
    }
    if (this.isKeyword(token, 'LIKE') || this.isKeyword(token, 'CONTAINS')) {
      this.advance();
      return this.parseLike(subject, token, false);
    }
    if (this.isKeyword(token, 'NOT')) {
      this.advance();
      const next = this.peek();
      if (this.isKeyword(next, 'IN')) {
        this.advance();
        return this.parseInList(subject, true);
      }
      if (this.isKeyword(next, 'BETWEEN')) {
        this.advance();
        return this.parseBetween(subject, true);
      }
      if (this.isKeyword(next, 'LIKE') || this.isKeyword(next, 'CONTAINS')) {
        this.advance();
        return this.parseLike(subject, next, true);
      }
      return this.expected('IN, BETWEEN, LIKE or CONTAINS', next);
    }
    if (this.isKeyword(token, 'IS')) {
      this.advance();
      let negated = false;
      if (this.isKeyword(this.peek(), 'NOT')) {
        this.advance();
        negated = true;
      }
      const next = this.peek();
      if (!this.isKeyword(next, 'NULL')) return this.expected(negated ? 'NULL' : 'NULL or NOT NULL', next);
      this.advance();
      return ok({ kind: 'is_null', subject, negated, position: subject.position });
    }
    return this.expected('a comparison operator (=, !=, <>, <, <=, >, >=), IN, NOT IN, BETWEEN, LIKE, CONTAINS or IS', token);
  }

  /** `LIKE 'pat%'` / `CONTAINS 'text'`; a double-quoted text after CONTAINS is Wireshark's string, so it is read as one. */
  private parseLike(subject: FilterColumn, keyword: Token, negated: boolean): Parsed<FilterAst> {
    const operator = this.isKeyword(keyword, 'LIKE') ? 'like' : 'contains';
    const token = this.peek();
    let value: string;
    if (token.type === 'string') value = token.value;
    else if (token.type === 'identifier' && token.text.startsWith('"')) value = token.name;
    else return this.expected("a 'string'", token);
    this.advance();
    return ok({ kind: 'like', operator, subject, pattern: { kind: 'string', value, position: token.position }, negated, position: subject.position });
  }

  /** `0.95 <= signal_quality`: a literal may stand on the left when a column stands on the right. */
  private parseComparisonFromLiteral(left: FilterLiteral): Parsed<FilterAst> {
    const token = this.peek();
    if (token.type !== 'operator') {
      if (token.type === 'keyword' && (token.keyword === 'IN' || token.keyword === 'BETWEEN' || token.keyword === 'IS' || token.keyword === 'NOT')) {
        const literalToken = this.tokens[this.index - 1];
        return err({
          kind: 'syntax',
          position: left.position,
          message: `Expected a column name before ${quoteToken(token)} at position ${left.position}, found ${describeToken(literalToken)}`,
        });
      }
      return this.expected('a comparison operator (=, !=, <>, <, <=, >, >=)', token);
    }
    this.advance();
    const right = this.parseOperand('a column name');
    if (!right.ok) return right;
    if (right.value.kind !== 'column') {
      const rightToken = this.tokens[this.index - 1];
      return err({
        kind: 'syntax',
        position: right.value.position,
        message: `Expected a column name after ${quoteToken(token)} at position ${right.value.position}, found ${describeToken(rightToken)} (one side of a comparison must be a column)`,
      });
    }
    return ok({ kind: 'comparison', operator: token.operator, left, right: right.value, position: left.position });
  }

  private parseBetween(subject: FilterColumn, negated: boolean): Parsed<FilterAst> {
    const low = this.parseOperand('a value');
    if (!low.ok) return low;
    const and = this.peek();
    if (!this.isKeyword(and, 'AND')) return this.expected('AND', and);
    this.advance();
    const high = this.parseOperand('a value');
    if (!high.ok) return high;
    return ok({ kind: 'between', subject, low: low.value, high: high.value, negated, position: subject.position });
  }

  private parseInList(subject: FilterColumn, negated: boolean): Parsed<FilterAst> {
    const open = this.peek();
    if (!(open.type === 'punctuation' && open.value === '(')) return this.expected("'(' and a list of values", open);
    this.advance();
    const values: FilterLiteral[] = [];
    const first = this.peek();
    if (first.type === 'punctuation' && first.value === ')') return this.expected('at least one value in the IN list', first);
    for (;;) {
      const item = this.peek();
      const value = this.parseOperand('a value');
      if (!value.ok) return value;
      if (value.value.kind === 'column') {
        return err({
          kind: 'syntax',
          position: item.position,
          message: `Expected a number, a 'string', TRUE or FALSE in the IN list at position ${item.position}, found ${describeToken(item)} (IN lists hold literal values only)`,
        });
      }
      values.push(value.value);
      const separator = this.peek();
      if (separator.type === 'punctuation' && separator.value === ',') {
        this.advance();
        continue;
      }
      if (separator.type === 'punctuation' && separator.value === ')') {
        this.advance();
        return ok({ kind: 'in', subject, values, negated, position: subject.position });
      }
      return this.expected("',' or ')' in the IN list", separator);
    }
  }

  /** A column name or a literal; `what` names it in the error. */
  private parseOperand(what: string): Parsed<FilterOperand> {
    const token = this.peek();
    switch (token.type) {
      case 'identifier':
        this.advance();
        return ok({ kind: 'column', name: token.name, position: token.position });
      case 'number':
        this.advance();
        return ok({ kind: 'number', value: token.value, position: token.position });
      case 'string':
        this.advance();
        return ok({ kind: 'string', value: token.value, position: token.position });
      case 'keyword':
        if (token.keyword === 'TRUE' || token.keyword === 'FALSE') {
          this.advance();
          return ok({ kind: 'boolean', value: token.keyword === 'TRUE', position: token.position });
        }
        if (token.keyword === 'NULL') {
          return this.expected(what, token, '; compare with NULL using IS NULL or IS NOT NULL');
        }
        return this.expected(what, token);
      default:
        return this.expected(what, token);
    }
  }

  private tooDeep<T>(token: Token): Parsed<T> {
    return err({
      kind: 'syntax',
      position: token.position,
      message: `Expected at most ${MAX_FILTER_DEPTH} nested parentheses or NOTs at position ${token.position}, found more`,
    });
  }
}

function quoteToken(token: Token): string {
  return `'${shorten(token.text)}'`;
}

function describeToken(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'end of input';
    case 'string':
      return `string ${shorten(token.text)}`;
    default:
      return quoteToken(token);
  }
}

function shorten(text: string): string {
  return text.length > LONGEST_QUOTED_TOKEN ? `${text.slice(0, LONGEST_QUOTED_TOKEN - 1)}…` : text;
}
