-- The BLE summary stage, payload part: per receiver, address and payload signature (the FNV-1a
-- 64 of the AD structures, docs/capture-schema.md), how often and when it was heard, with the
-- fields the payload templates read. Same dialect rules as ble-summary.sql; mergeable by
-- ble-summary-payloads-merge.sql (the descriptive fields are functions of the signature, so
-- any one row's value is every row's). `company_id` is a Parquet UINT16: DuckDB reads it as
-- USMALLINT, Spark (no unsigned types) as INT, so it is cast to INTEGER, the type both write.
-- Per hour partition, as the bins (ble-summary.sql says why): a payload heard in three hours is
-- three rows, which the merge SQL folds into one when a window spans them.
SELECT
  hour,
  receiver,
  advertiser_addr,
  payload_signature,
  CAST(count(*) AS BIGINT) AS packets,
  min(ts_ms) AS first_ms,
  max(ts_ms) AS last_ms,
  CAST(min(company_id) AS INTEGER) AS company_id,
  min(manufacturer_data) AS manufacturer_data,
  min(service_data_uuid) AS service_data_uuid,
  min(service_data) AS service_data,
  min(local_name) AS local_name
FROM packets
WHERE advertiser_addr IS NOT NULL AND ts_ms IS NOT NULL AND payload_signature IS NOT NULL
GROUP BY hour, receiver, advertiser_addr, payload_signature
