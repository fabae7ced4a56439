/**
 * Link-layer types (pcap LINKTYPE / DLT numbers, tcpdump.org/linktypes.html) the importer
 * decodes, and the decoder each one selects.
 */

/** pcap LINKTYPE numbers used here. */
export const LINKTYPE = {
  /** DLT_USER0: Ubertooth and crackle put LE link-layer bytes under it inside PPI. */
  USER0: 147,
  BLUETOOTH_HCI_H4: 187,
  PPI: 192,
  BLUETOOTH_HCI_H4_WITH_PHDR: 201,
  BLUETOOTH_LE_LL: 251,
  BLUETOOTH_LINUX_MONITOR: 254,
  BLUETOOTH_LE_LL_WITH_PHDR: 256,
  NORDIC_BLE: 272,
} as const;

/** btsnoop datalink numbers. */
export const BTSNOOP_DATALINK = { H1: 1001, H4: 1002, LINUX_MONITOR: 2001 } as const;

/** How a packet's bytes are decoded. */
export const DECODER = {
  LE_LL: 1,
  LE_LL_WITH_PHDR: 2,
  NORDIC_BLE: 3,
  PPI: 4,
  HCI_H4: 5,
  HCI_H4_WITH_PHDR: 6,
  LINUX_MONITOR: 7,
  BTSNOOP_H1: 8,
  BTSNOOP_LINUX_MONITOR: 9,
} as const;

/** One of DECODER's values. */
export type Decoder = (typeof DECODER)[keyof typeof DECODER];

/** The decoder for a pcap/pcapng link type, or null when the importer does not read it. */
export function decoderForLinkType(linkType: number): Decoder | null {
  switch (linkType) {
    case LINKTYPE.BLUETOOTH_LE_LL:
      return DECODER.LE_LL;
    case LINKTYPE.BLUETOOTH_LE_LL_WITH_PHDR:
      return DECODER.LE_LL_WITH_PHDR;
    case LINKTYPE.NORDIC_BLE:
      return DECODER.NORDIC_BLE;
    case LINKTYPE.PPI:
      return DECODER.PPI;
    case LINKTYPE.BLUETOOTH_HCI_H4:
      return DECODER.HCI_H4;
    case LINKTYPE.BLUETOOTH_HCI_H4_WITH_PHDR:
      return DECODER.HCI_H4_WITH_PHDR;
    case LINKTYPE.BLUETOOTH_LINUX_MONITOR:
      return DECODER.LINUX_MONITOR;
    default:
      return null;
  }
}

/** Link types `decoderForLinkType` accepts, for messages. */
export const SUPPORTED_LINK_TYPES: ReadonlyArray<number> = [
  LINKTYPE.BLUETOOTH_HCI_H4,
  LINKTYPE.PPI,
  LINKTYPE.BLUETOOTH_HCI_H4_WITH_PHDR,
  LINKTYPE.BLUETOOTH_LE_LL,
  LINKTYPE.BLUETOOTH_LINUX_MONITOR,
  LINKTYPE.BLUETOOTH_LE_LL_WITH_PHDR,
  LINKTYPE.NORDIC_BLE,
];

/**
 * The advertising channel index (0–39) of an RF channel number (0–39, 2402 + 2·n MHz):
 * advertising channels 37/38/39 sit at RF 0/12/39 and the data channels fill the gaps.
 * -1 when out of range.
 */
export function channelIndexOfRfChannel(rf: number): number {
  if (rf === 0) return 37;
  if (rf === 12) return 38;
  if (rf === 39) return 39;
  if (rf >= 1 && rf <= 11) return rf - 1;
  if (rf >= 13 && rf <= 38) return rf - 2;
  return -1;
}
