-- Merges summaries written by ble-summary.sql (a relation named `summaries`, the union of any
-- number of shards' summaries with the same bin width) into the summaries of the shards' union:
-- rows of one hour, receiver, address and bin are regrouped, counts and sums added, extremes
-- compared.
SELECT
  hour,
  receiver,
  advertiser_addr,
  bin_start_ms,
  CAST(sum(packets) AS BIGINT) AS packets,
  CAST(sum(crc_ok_packets) AS BIGINT) AS crc_ok_packets,
  min(first_ms) AS first_ms,
  max(last_ms) AS last_ms,
  CAST(sum(rssi_count) AS BIGINT) AS rssi_count,
  CAST(sum(rssi_sum) AS BIGINT) AS rssi_sum,
  CAST(sum(rssi_square_sum) AS BIGINT) AS rssi_square_sum,
  min(rssi_min) AS rssi_min,
  max(rssi_max) AS rssi_max,
  CAST(sum(channel_37_packets) AS BIGINT) AS channel_37_packets,
  CAST(sum(channel_38_packets) AS BIGINT) AS channel_38_packets,
  CAST(sum(channel_39_packets) AS BIGINT) AS channel_39_packets,
  CAST(sum(channel_37_rssi_sum) AS BIGINT) AS channel_37_rssi_sum,
  CAST(sum(channel_38_rssi_sum) AS BIGINT) AS channel_38_rssi_sum,
  CAST(sum(channel_39_rssi_sum) AS BIGINT) AS channel_39_rssi_sum,
  CAST(sum(channel_37_rssi_count) AS BIGINT) AS channel_37_rssi_count,
  CAST(sum(channel_38_rssi_count) AS BIGINT) AS channel_38_rssi_count,
  CAST(sum(channel_39_rssi_count) AS BIGINT) AS channel_39_rssi_count,
  CAST(sum(scan_response_packets) AS BIGINT) AS scan_response_packets,
  CAST(sum(scanned_packets) AS BIGINT) AS scanned_packets
FROM summaries
GROUP BY hour, receiver, advertiser_addr, bin_start_ms
