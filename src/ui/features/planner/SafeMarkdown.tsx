import { marked, type Token, type Tokens } from 'marked';
import type { ReactNode } from 'react';

/**
 * Markdown from a model, rendered as React elements and text only. marked (a well-kept parser)
 * only tokenizes; this renderer turns its tokens into elements and never produces HTML strings:
 * raw HTML in the source is shown as the text it is, links are shown as their text and address
 * (never clickable: a model's `javascript:` link stays inert), images as their alt text.
 */
export function SafeMarkdown({ source, headingLevel = 4 }: { source: string; headingLevel?: number }) {
  const tokens = marked.lexer(source, { gfm: true });
  return <>{blocks(tokens, headingLevel)}</>;
}

/** marked's lexer escapes these five in inline text and code spans; the elements take plain text. */
function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _);
}

function blocks(tokens: ReadonlyArray<Token>, headingLevel: number): ReactNode[] {
  return tokens.map((token, index) => block(token, index, headingLevel));
}

function block(token: Token, key: number, headingLevel: number): ReactNode {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'heading': {
      const level = Math.min(6, headingLevel + (token as Tokens.Heading).depth - 1);
      const Tag = `h${level}` as 'h4';
      return <Tag key={key}>{inline((token as Tokens.Heading).tokens)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'text':
      return <p key={key}>{t.tokens ? inline(t.tokens) : unescape(String(t.text))}</p>;
    case 'code':
      return (
        <pre key={key}>
          <code>{(token as Tokens.Code).text}</code>
        </pre>
      );
    case 'blockquote':
      return <blockquote key={key}>{blocks((token as Tokens.Blockquote).tokens, headingLevel)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, index) => <li key={index}>{item.loose ? blocks(item.tokens, headingLevel) : inlineBlocks(item.tokens)}</li>);
      return list.ordered ? (
        <ol key={key} start={typeof list.start === 'number' ? list.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      return (
        <table key={key} className="data-table markdown-table">
          <thead>
            <tr>
              {table.header.map((cell, index) => (
                <th key={index} scope="col">
                  {inline(cell.tokens)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, index) => (
                  <td key={index}>{inline(cell.tokens)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'html':
      // Raw HTML is data: shown as its source text.
      return (
        <p key={key} className="markdown-raw">
          {t.raw}
        </p>
      );
    default:
      return <p key={key}>{String(t.raw ?? '')}</p>;
  }
}

/** A tight list item's tokens: text runs inline, nested lists as blocks. */
function inlineBlocks(tokens: ReadonlyArray<Token>): ReactNode[] {
  return tokens.map((token, index) => {
    if (token.type === 'text') {
      const text = token as Tokens.Text;
      return <span key={index}>{text.tokens ? inline(text.tokens) : unescape(text.text)}</span>;
    }
    return block(token, index, 6);
  });
}

function inline(tokens: ReadonlyArray<Token> | undefined): ReactNode[] {
  return (tokens ?? []).map((token, key) => {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case 'text':
        return t.tokens ? <span key={key}>{inline(t.tokens)}</span> : unescape(String(t.text));
      case 'escape':
        return unescape(String(t.text));
      case 'strong':
        return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>;
      case 'em':
        return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>;
      case 'del':
        return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>;
      case 'codespan':
        return <code key={key}>{unescape((token as Tokens.Codespan).text)}</code>;
      case 'br':
        return <br key={key} />;
      case 'link': {
        const link = token as Tokens.Link;
        return (
          <span key={key} className="markdown-link">
            {inline(link.tokens)} (<span className="mono">{link.href}</span>)
          </span>
        );
      }
      case 'image':
        return `[image: ${(token as Tokens.Image).text}]`;
      default:
        // Inline HTML and anything else: its source, as text.
        return String(t.raw ?? '');
    }
  });
}
