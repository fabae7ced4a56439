/**
 * Names of the advertising PDUs a record can carry (the `adv_type` column). Link-layer PDU
 * type numbers and HCI report event types are both mapped onto these names; the numbers
 * differ between the two (see `hci.ts`).
 */
export const ADV_TYPE_NAMES = [
  'ADV_IND',
  'ADV_DIRECT_IND',
  'ADV_NONCONN_IND',
  'SCAN_REQ',
  'SCAN_RSP',
  'CONNECT_IND',
  'ADV_SCAN_IND',
  'ADV_EXT_IND',
  'AUX_CONNECT_RSP',
  'RESERVED_9',
  'RESERVED_10',
  'RESERVED_11',
  'RESERVED_12',
  'RESERVED_13',
  'RESERVED_14',
  'RESERVED_15',
  'AUX_ADV_IND',
  'AUX_SCAN_REQ',
  'AUX_SCAN_RSP',
  'AUX_CONNECT_REQ',
  'UNKNOWN',
] as const;

/** An `adv_type` value. */
export type AdvTypeName = (typeof ADV_TYPE_NAMES)[number];

/** Codes are indices into ADV_TYPE_NAMES; codes 0–15 equal the primary-channel LL PDU type. */
export const ADV_TYPE = {
  ADV_IND: 0,
  ADV_DIRECT_IND: 1,
  ADV_NONCONN_IND: 2,
  SCAN_REQ: 3,
  SCAN_RSP: 4,
  CONNECT_IND: 5,
  ADV_SCAN_IND: 6,
  ADV_EXT_IND: 7,
  AUX_CONNECT_RSP: 8,
  AUX_ADV_IND: 16,
  AUX_SCAN_REQ: 17,
  AUX_SCAN_RSP: 18,
  AUX_CONNECT_REQ: 19,
  UNKNOWN: 20,
} as const;

/**
 * The link-layer PDU type number behind an `adv_type` name (AUX_* names share the numbers of
 * their primary-channel counterparts), or null for `UNKNOWN`.
 */
export function llPduTypeOf(name: string): number | null {
  switch (name) {
    case 'AUX_ADV_IND':
    case 'AUX_SCAN_RSP':
      return 7;
    case 'AUX_SCAN_REQ':
      return 3;
    case 'AUX_CONNECT_REQ':
      return 5;
    case 'UNKNOWN':
      return null;
    default: {
      const index = (ADV_TYPE_NAMES as ReadonlyArray<string>).indexOf(name);
      return index >= 0 && index < 16 ? index : null;
    }
  }
}

/**
 * True for PDUs an advertiser sends (its AdvA is the sender): every ADV_*, SCAN_RSP and
 * AUX_* PDU except the requests. SCAN_REQ, CONNECT_IND, AUX_SCAN_REQ and AUX_CONNECT_REQ
 * carry the advertiser's address as their target, and reserved types carry none.
 */
export function isAdvertiserSent(code: number): boolean {
  switch (code) {
    case ADV_TYPE.ADV_IND:
    case ADV_TYPE.ADV_DIRECT_IND:
    case ADV_TYPE.ADV_NONCONN_IND:
    case ADV_TYPE.SCAN_RSP:
    case ADV_TYPE.ADV_SCAN_IND:
    case ADV_TYPE.ADV_EXT_IND:
    case ADV_TYPE.AUX_CONNECT_RSP:
    case ADV_TYPE.AUX_ADV_IND:
    case ADV_TYPE.AUX_SCAN_RSP:
      return true;
    default:
      return false;
  }
}
