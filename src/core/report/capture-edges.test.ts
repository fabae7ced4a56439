import { describe, expect, it } from 'vitest';
import { captureEdgeNotes } from './capture-edges.ts';

const segment = (address: string, start: string, end: string) => ({ address, start_ts: `2024-04-03T08:${start}Z`, end_ts: `2024-04-03T08:${end}Z` });

describe('captureEdgeNotes', () => {
  const timeline_segments = [
    segment('AA:00:00:00:00:01', '00:00.400', '05:00'),
    segment('AA:00:00:00:00:02', '05:02', '09:59.500'),
    segment('BB:00:00:00:00:01', '02:00', '04:00'),
    segment('BB:00:00:00:00:02', '04:05', '08:00'),
    segment('CC:00:00:00:00:01', '00:00', '10:00'),
  ];

  it('names the cluster address cut off by the capture start and end, in words', () => {
    const notes = captureEdgeNotes({
      probabilistic_links: [{ addresses: ['AA:00:00:00:00:02', 'AA:00:00:00:00:01'] }, { addresses: ['BB:00:00:00:00:01', 'BB:00:00:00:00:02'] }],
      timeline_segments,
    });
    expect(notes).toEqual([
      { clusterIndex: 0, address: 'AA:00:00:00:00:01', edge: 'start', text: "AA:00:00:00:00:01 first heard in the capture's first second: its predecessor may be outside the capture" },
      { clusterIndex: 0, address: 'AA:00:00:00:00:02', edge: 'end', text: "AA:00:00:00:00:02 last heard in the capture's last second: its successor may be outside the capture" },
    ]);
  });

  it('says nothing of a cluster inside the capture, or when the timestamps are unreadable', () => {
    expect(captureEdgeNotes({ probabilistic_links: [{ addresses: ['BB:00:00:00:00:01', 'BB:00:00:00:00:02'] }], timeline_segments })).toEqual([]);
    expect(captureEdgeNotes({ probabilistic_links: [{ addresses: ['X'] }], timeline_segments: [{ address: 'X', start_ts: 'soon', end_ts: 'later' }] })).toEqual([]);
  });

  it('only a cluster member starting more than a second after the first packet is not at the edge', () => {
    const notes = captureEdgeNotes({ probabilistic_links: [{ addresses: ['AA:00:00:00:00:01'] }], timeline_segments: [segment('CC:00:00:00:00:01', '00:00', '10:00'), segment('AA:00:00:00:00:01', '00:01.001', '05:00')] });
    expect(notes).toEqual([]);
  });
});
