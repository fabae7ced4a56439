/** What the "packets" action needs: whether it can run, and how. */
export interface PacketsControl {
  /** Why the action is unavailable (e.g. the captures are gone), or null when it works. */
  unavailable: string | null;
  /** The address whose packets are being located, if any. */
  pending: string | null;
  open(address: string): void;
}

/** Jumps to the Captures page with the address's packets. */
export function PacketsButton({ address, control }: { address: string; control: PacketsControl }) {
  return (
    <button
      type="button"
      className="ble-packets"
      onClick={() => control.open(address)}
      disabled={control.unavailable !== null || control.pending !== null}
      title={control.unavailable ?? `Show the packets of ${address} on the Captures page`}
      aria-label={`Packets of ${address}`}
    >
      {control.pending === address ? 'Finding…' : 'Packets'}
    </button>
  );
}
