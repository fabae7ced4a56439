import { useState } from 'react';
import type { CaptureInfo, CellValue } from '../../../core/index.ts';
import { ROW_PAGE_SIZE, useCaptureRowPage } from '../../lib/runtime/capture-queries.ts';

const ROW_HEIGHT = 26;
const VIEWPORT_HEIGHT = 360;
const OVERSCAN = 20;
const INDEX_WIDTH = 70;
const COLUMN_WIDTH = 130;

/** The records under the current filter; only the visible rows are fetched from the worker and drawn. */
export function RecordsTable({ info, filter, rowCount }: { info: CaptureInfo; filter: string; rowCount: number }) {
  // Rows have one fixed height, so the visible window is arithmetic on scrollTop: O(1) per scroll
  // whatever the row count (a general virtualizer measures every row, which stalls at a million).
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rowCount - 1, Math.ceil((scrollTop + VIEWPORT_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const items = rowCount === 0 ? [] : Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
  const firstPage = Math.floor(first / ROW_PAGE_SIZE);
  const lastPage = Math.floor(Math.max(first, last) / ROW_PAGE_SIZE);
  const pageA = useCaptureRowPage(info.id, filter, firstPage, rowCount > 0);
  const pageB = useCaptureRowPage(info.id, filter, lastPage, rowCount > 0 && lastPage !== firstPage);
  const rowAt = (index: number): CellValue[] | undefined => {
    const page = Math.floor(index / ROW_PAGE_SIZE);
    const data = page === firstPage ? pageA.data : page === lastPage ? pageB.data : undefined;
    return data?.[index - page * ROW_PAGE_SIZE];
  };
  const columns = info.columns;
  const template = `${INDEX_WIDTH}px repeat(${columns.length}, ${COLUMN_WIDTH}px)`;
  // Fixed widths keep the header and the virtual rows aligned while the whole table scrolls sideways.
  const width = INDEX_WIDTH + columns.length * (COLUMN_WIDTH + 8) + 16;
  return (
    // One ARIA table: the header row and the virtual body are its row groups; both scroll, so both take focus.
    <div className="records" data-testid="capture.records" role="table" aria-label="Records" aria-rowcount={rowCount + 1} tabIndex={0}>
      <div role="rowgroup">
      <div className="records__header" style={{ gridTemplateColumns: template, width }} role="row">
        <span role="columnheader">#</span>
        {columns.map((column) => (
          <span key={column.name} role="columnheader" title={column.kind}>
            {column.name}
          </span>
        ))}
      </div>
      </div>
      <div
        className="records__body"
        role="rowgroup"
        aria-label="Records, scroll to read more"
        tabIndex={0}
        style={{ width, height: VIEWPORT_HEIGHT }}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      >
        <div style={{ height: rowCount * ROW_HEIGHT, position: 'relative' }}>
          {items.map((index) => {
            const row = rowAt(index);
            return (
              <div
                key={index}
                role="row"
                className="records__row"
                style={{ gridTemplateColumns: template, transform: `translateY(${index * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}
              >
                <span className="muted" role="cell">
                  {index + 1}
                </span>
                {columns.map((column, columnIndex) => (
                  <span key={column.name} role="cell">
                    {row ? formatCell(row[columnIndex]) : ''}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function formatCell(value: CellValue): string {
  if (value === null) return '∅';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  return String(value);
}
