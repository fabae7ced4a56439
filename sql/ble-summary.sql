-- The BLE summary stage, first part: packets reduced to per-receiver, per-address, per-time-bin
-- summaries. Written once, in the SQL that DuckDB and Spark SQL share (no dialect-only syntax:
-- CASE inside SUM rather than FILTER, CAST rather than ::). It reads a relation named `packets`
-- with the normalized capture columns (docs/capture-schema.md); `{{bin_ms}}` is replaced by the
-- bin width in whole milliseconds before it runs.
--
-- Every column is mergeable exactly: counts and integer sums add, minima and maxima compare, so
-- the summaries of two shards regrouped by ble-summary-merge.sql equal the summaries of their
-- union. RSSI sums are integers (dBm), never floating-point means.
--
-- `hour` is the packets' hour partition (the UTC hour of ts_ms, as the dataset's parts are
-- partitioned): a summary belongs to one hour, so the stage runs slice by slice of hours in
-- bounded memory, however long the dataset, and a window of hours need read only its own hours.
-- A bin that straddles an hour boundary (a bin width that does not divide an hour) is two rows,
-- one per hour.
SELECT
  hour,
  receiver,
  advertiser_addr,
  CAST(floor(ts_ms / {{bin_ms}}) AS BIGINT) * {{bin_ms}} AS bin_start_ms,
  CAST(count(*) AS BIGINT) AS packets,
  CAST(sum(CASE WHEN crc_ok = false THEN 0 ELSE 1 END) AS BIGINT) AS crc_ok_packets,
  min(ts_ms) AS first_ms,
  max(ts_ms) AS last_ms,
  CAST(count(rssi) AS BIGINT) AS rssi_count,
  CAST(sum(CAST(rssi AS BIGINT)) AS BIGINT) AS rssi_sum,
  CAST(sum(CAST(rssi AS BIGINT) * CAST(rssi AS BIGINT)) AS BIGINT) AS rssi_square_sum,
  CAST(min(rssi) AS INTEGER) AS rssi_min,
  CAST(max(rssi) AS INTEGER) AS rssi_max,
  CAST(sum(CASE WHEN channel = 37 THEN 1 ELSE 0 END) AS BIGINT) AS channel_37_packets,
  CAST(sum(CASE WHEN channel = 38 THEN 1 ELSE 0 END) AS BIGINT) AS channel_38_packets,
  CAST(sum(CASE WHEN channel = 39 THEN 1 ELSE 0 END) AS BIGINT) AS channel_39_packets,
  CAST(sum(CASE WHEN channel = 37 THEN CAST(rssi AS BIGINT) ELSE 0 END) AS BIGINT) AS channel_37_rssi_sum,
  CAST(sum(CASE WHEN channel = 38 THEN CAST(rssi AS BIGINT) ELSE 0 END) AS BIGINT) AS channel_38_rssi_sum,
  CAST(sum(CASE WHEN channel = 39 THEN CAST(rssi AS BIGINT) ELSE 0 END) AS BIGINT) AS channel_39_rssi_sum,
  CAST(sum(CASE WHEN channel = 37 AND rssi IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS channel_37_rssi_count,
  CAST(sum(CASE WHEN channel = 38 AND rssi IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS channel_38_rssi_count,
  CAST(sum(CASE WHEN channel = 39 AND rssi IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS channel_39_rssi_count,
  CAST(sum(CASE WHEN adv_type = 'SCAN_RSP' OR adv_type = 'AUX_SCAN_RSP' THEN 1 ELSE 0 END) AS BIGINT) AS scan_response_packets,
  CAST(sum(CASE WHEN adv_type = 'SCAN_REQ' OR adv_type = 'AUX_SCAN_REQ' THEN 1 ELSE 0 END) AS BIGINT) AS scanned_packets
FROM packets
WHERE advertiser_addr IS NOT NULL AND ts_ms IS NOT NULL
GROUP BY hour, receiver, advertiser_addr, CAST(floor(ts_ms / {{bin_ms}}) AS BIGINT) * {{bin_ms}}
