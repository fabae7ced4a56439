import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { CaptureInfo, CellValue } from '../../../core/index.ts';
import { ROW_PAGE_SIZE, useCaptureRowPage } from '../../lib/capture-queries.ts';

const ROW_HEIGHT = 26;
const INDEX_WIDTH = 70;
const COLUMN_WIDTH = 130;

/** The records under the current filter; only the visible rows are fetched from the worker and drawn. */
export function RecordsTable({ info, filter, rowCount }: { info: CaptureInfo; filter: string; rowCount: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const items = virtualizer.getVirtualItems();
  const firstPage = items.length > 0 ? Math.floor(items[0].index / ROW_PAGE_SIZE) : 0;
  const lastPage = items.length > 0 ? Math.floor(items[items.length - 1].index / ROW_PAGE_SIZE) : 0;
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
    <div className="records" data-testid="capture.records">
      <div className="records__header" style={{ gridTemplateColumns: template, width }} role="row">
        <span role="columnheader">#</span>
        {columns.map((column) => (
          <span key={column.name} role="columnheader" title={column.kind}>
            {column.name}
          </span>
        ))}
      </div>
      <div ref={scroller} className="records__body" role="table" aria-label="Records" aria-rowcount={rowCount} style={{ width }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <div
                key={item.key}
                role="row"
                className="records__row"
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <span className="muted">{item.index + 1}</span>
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
