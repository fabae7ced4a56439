-- Merges payload summaries written by ble-summary-payloads.sql (a relation named
-- `payload_summaries`) into those of the shards' union.
SELECT
  hour,
  receiver,
  advertiser_addr,
  payload_signature,
  CAST(sum(packets) AS BIGINT) AS packets,
  min(first_ms) AS first_ms,
  max(last_ms) AS last_ms,
  min(company_id) AS company_id,
  min(manufacturer_data) AS manufacturer_data,
  min(service_data_uuid) AS service_data_uuid,
  min(service_data) AS service_data,
  min(local_name) AS local_name
FROM payload_summaries
GROUP BY hour, receiver, advertiser_addr, payload_signature
