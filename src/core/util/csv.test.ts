import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvRow } from './csv.ts';

describe('csvCell (issue 14, item 3)', () => {
  it('neutralises text that a spreadsheet would read as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+SUM(A1:A9)')).toBe("'+SUM(A1:A9)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
  });

  it('leaves ordinary text alone and quotes by RFC 4180', () => {
    expect(csvCell('ch1')).toBe('ch1');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('x=1')).toBe('x=1');
  });

  it('writes numbers the tool computed as numbers, non-finite as empty', () => {
    expect(csvRow([-2.5, 0, 1e-300, Number.NaN, Infinity, null])).toBe('-2.5,0,1e-300,,,');
  });

  it('builds a document with a header and a final newline', () => {
    expect(csvDocument(['group', 'mean'], [['=1+1', -1]])).toBe("group,mean\n'=1+1,-1\n");
  });
});
