import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CaptureView } from '../../../core/index.ts';
import { getRuntime } from './sextant-runtime.ts';

export type CaptureViewAnswer = CaptureView | { error: string; position: number | null };

/** Counts, histogram, summaries and addresses of a capture under a filter (computed in a worker). */
export function useCaptureView(captureId: string, filter: string) {
  return useQuery({
    queryKey: ['capture-view', captureId, filter],
    // comlink's Remote<> distributes the union into a union of promises; it is one promise.
    queryFn: () => getRuntime().pool.query((api) => api.selectRows(captureId, filter) as Promise<CaptureViewAnswer>),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export const ROW_PAGE_SIZE = 200;

/** One page of records of a capture under a filter. */
export function useCaptureRowPage(captureId: string, filter: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['capture-rows', captureId, filter, page],
    queryFn: () => getRuntime().pool.query((api) => api.readRows(captureId, filter, page * ROW_PAGE_SIZE, ROW_PAGE_SIZE)),
    enabled,
    staleTime: Infinity,
  });
}
