import { useRef, useState, type KeyboardEvent } from 'react';
import { isAddressColumn, type CaptureInfo, type CellValue, type ColumnSchema } from '../../../core/index.ts';
import { ROW_PAGE_SIZE, useCaptureRowPage } from '../../lib/runtime/capture-queries.ts';
import { PacketDetailsPane } from './PacketDetailsPane.tsx';
import { formatTime, type TimeMode } from './wall-clock.ts';

const ROW_HEIGHT = 26;
const VIEWPORT_HEIGHT = 360;
const OVERSCAN = 20;
const INDEX_WIDTH = 70;
const COLUMN_WIDTH = 130;
const ADDRESS_WIDTH = 150;
const TIME_WIDTH = 210;

interface Props {
  info: CaptureInfo;
  filter: string;
  rowCount: number;
  /** The columns shown, in the order shown (the column chooser's choice). */
  columns: ReadonlyArray<ColumnSchema>;
  timeMode: TimeMode;
}

/** The records under the current filter; only the visible rows are fetched from the worker and drawn. Click or arrow keys select a row for the details pane. */
export function RecordsTable({ info, filter, rowCount, columns, timeMode }: Props) {
  // Rows have one fixed height, so the visible window is arithmetic on scrollTop: O(1) per scroll
  // whatever the row count (a general virtualizer measures every row, which stalls at a million).
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rowCount - 1, Math.ceil((scrollTop + VIEWPORT_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const items = rowCount === 0 ? [] : Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
  const firstPage = Math.floor(first / ROW_PAGE_SIZE);
  const lastPage = Math.floor(Math.max(first, last) / ROW_PAGE_SIZE);
  const pageA = useCaptureRowPage(info.id, filter, firstPage, rowCount > 0);
  const pageB = useCaptureRowPage(info.id, filter, lastPage, rowCount > 0 && lastPage !== firstPage);
  const selectedPage = selected === null ? 0 : Math.floor(selected / ROW_PAGE_SIZE);
  const pageOfSelected = useCaptureRowPage(info.id, filter, selectedPage, selected !== null && selected < rowCount);
  const position = new Map(info.columns.map((column, index) => [column.name, index]));
  const rowAt = (index: number): CellValue[] | undefined => {
    const page = Math.floor(index / ROW_PAGE_SIZE);
    const data = page === firstPage ? pageA.data : page === lastPage ? pageB.data : undefined;
    return data?.[index - page * ROW_PAGE_SIZE];
  };
  const selectedRow = selected === null ? undefined : pageOfSelected.data?.[selected - selectedPage * ROW_PAGE_SIZE];

  const widthOf = (column: ColumnSchema) => (column.name === info.timeColumn ? TIME_WIDTH : isAddressColumn(column.name) ? ADDRESS_WIDTH : COLUMN_WIDTH);
  const template = `${INDEX_WIDTH}px ${columns.map((column) => `${widthOf(column)}px`).join(' ')}`;
  // Fixed widths keep the header and the virtual rows aligned while the whole table scrolls sideways.
  const width = INDEX_WIDTH + columns.reduce((sum, column) => sum + widthOf(column) + 8, 0) + 16;

  const select = (index: number) => {
    const next = Math.max(0, Math.min(rowCount - 1, index));
    setSelected(next);
    // Keep the selected row in view, as a list box does.
    const element = body.current;
    if (!element) return;
    const top = next * ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + VIEWPORT_HEIGHT) element.scrollTop = top + ROW_HEIGHT - VIEWPORT_HEIGHT;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (rowCount === 0) return;
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    if (event.key in step) select((selected ?? -1) + step[event.key]);
    else if (event.key === 'Home') select(0);
    else if (event.key === 'End') select(rowCount - 1);
    else return;
    event.preventDefault();
  };

  const cell = (column: ColumnSchema, value: CellValue | undefined): string => {
    if (value === undefined) return '';
    if (column.name === info.timeColumn && typeof value === 'number') return formatTime(value, timeMode, info);
    return formatCell(value);
  };

  return (
    <>
      {/* One ARIA table: the header row and the virtual body are its row groups; both scroll, so both take focus. */}
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
          ref={body}
          className="records__body"
          role="rowgroup"
          aria-label="Records: arrow keys select a packet for its details, scroll to read more"
          tabIndex={0}
          style={{ width, height: VIEWPORT_HEIGHT }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
          onKeyDown={onKeyDown}
          data-testid="capture.records-body"
        >
          <div style={{ height: rowCount * ROW_HEIGHT, position: 'relative' }}>
            {items.map((index) => {
              const row = rowAt(index);
              return (
                <div
                  key={index}
                  role="row"
                  aria-selected={index === selected}
                  className={`records__row${index === selected ? ' is-selected' : ''}`}
                  style={{ gridTemplateColumns: template, transform: `translateY(${index * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}
                  onClick={() => setSelected(index)}
                  data-testid="capture.record-row"
                >
                  <span className="muted" role="cell">
                    {index + 1}
                  </span>
                  {columns.map((column) => (
                    <span key={column.name} role="cell">
                      {row ? cell(column, row[position.get(column.name) ?? -1]) : ''}
                    </span>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {selected !== null && selected < rowCount && (
        <PacketDetailsPane
          index={selected}
          record={selectedRow ? Object.fromEntries(info.columns.map((column, index) => [column.name, selectedRow[index]])) : null}
          time={selectedRow && info.timeColumn ? timeText(selectedRow[position.get(info.timeColumn) ?? -1], info) : null}
          onClose={() => setSelected(null)}
        />
      )}
    </>
  );
}

/** Both readings of a record's time for the details pane. */
function timeText(value: CellValue | undefined, info: CaptureInfo): string | null {
  if (typeof value !== 'number') return null;
  return `${formatTime(value, 'utc', info)} (${formatTime(value, 'relative', info)} from the capture's start)`;
}

function formatCell(value: CellValue): string {
  if (value === null) return '∅';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  return String(value);
}
