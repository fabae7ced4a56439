import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CaptureInfo, CellValue } from '../../../core/index.ts';
import { useCaptures } from './queries.ts';
import { getRuntime, type CaptureViewAnswer } from './sextant-runtime.ts';

/** Counts, histogram, summaries and addresses of a capture under a filter (computed in a worker). */
export function useCaptureView(captureId: string, filter: string) {
  return useQuery({
    queryKey: ['capture-view', captureId, filter],
    queryFn: (): Promise<CaptureViewAnswer> => getRuntime().selectRows(captureId, filter),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export const ROW_PAGE_SIZE = 200;

/** One page of records of a capture under a filter. */
export function useCaptureRowPage(captureId: string, filter: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['capture-rows', captureId, filter, page],
    queryFn: () => getRuntime().readRows(captureId, filter, page * ROW_PAGE_SIZE, ROW_PAGE_SIZE),
    enabled,
    staleTime: Infinity,
  });
}

/** Packets read on demand (e.g. the BLE view's RSSI traces), from the tools workers. */
export interface CaptureRows {
  /** The captures the app holds now; null while they load. */
  captures: CaptureInfo[] | null;
  /** The first `limit` rows of a capture under a filter, every column, as the Captures page reads them. */
  readRows(captureId: string, filter: string, limit: number): Promise<CellValue[][]>;
  /** How many rows of a capture a filter keeps (0 for a filter the capture refuses). */
  countRows(captureId: string, filter: string): Promise<number>;
}

/** The captures held now and on-demand row access to them; a new object only when the captures change. */
export function useCaptureRows(): CaptureRows {
  const captures = useCaptures().data ?? null;
  return useMemo<CaptureRows>(
    () => ({
      captures,
      readRows: (captureId, filter, limit) => getRuntime().readRows(captureId, filter, 0, limit),
      countRows: async (captureId, filter) => {
        const view = await getRuntime().selectRows(captureId, filter);
        return 'error' in view ? 0 : view.rowCount;
      },
    }),
    [captures],
  );
}
