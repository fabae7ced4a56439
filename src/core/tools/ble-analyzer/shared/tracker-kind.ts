/**
 * The kinds of item tracker the analyzer recognizes from their advertising payloads (the
 * `trackers/` stage): Apple Find My-style, Google Find My Device Network (FMDN)-style and
 * Samsung SmartTag-style tags. A tracker is a radio of its own: it may travel with a phone, but
 * it is never one of the phone's advertising sets.
 */
export type BleTrackerKind = 'find_my' | 'fmdn' | 'smarttag';
