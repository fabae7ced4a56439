// Public surface of the BLE capture importer (pcap, pcapng, btsnoop → normalized Arrow records).

export type { BleImport, BleImporter, BleImportOptions } from './ble-importer.ts';
export { createBleImporter, importBleCapture, detectBleContainer, BLE_METADATA, BLE_RECORDS_FORMAT } from './ble-importer.ts';
export type { BleContainer, CaptureImportProblem, CaptureImportProblemCode, ImportReport } from './import-report.ts';
export { BLE_RECORD_COLUMNS, ADDRESS_TYPE_NAMES } from './record-writer.ts';
export type { AdvTypeName } from './adv-types.ts';
export { ADV_TYPE_NAMES, llPduTypeOf } from './adv-types.ts';
export { LINKTYPE, SUPPORTED_LINK_TYPES, channelIndexOfRfChannel } from './link-types.ts';
export type { IdentityKey, IdentityKeySource } from './identity-keys.ts';
export type { ImportIntegrity, ImportIntegrityStatus, IntegrityInput } from './import-integrity.ts';
export { formatShare, importIntegrity } from './import-integrity.ts';
export type { PacketDetails, PacketDetailField, PacketDetailSection } from './packet-details.ts';
export { describeBleRecord } from './packet-details.ts';
