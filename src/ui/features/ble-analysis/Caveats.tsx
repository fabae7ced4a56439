/** tool-contract.md §7.3, kept beside the results so no score is read without them. */
export function Caveats() {
  return (
    <aside className="ble-caveats" aria-label="How to read these results" data-testid="ble.caveats">
      <h3>How to read these results</h3>
      <ul>
        <li>
          Confidences and link probabilities are <strong>posterior-like scores</strong> under the chosen rotation model, not p-values and not proof.
        </li>
        <li>Nearby devices with similar traffic (same vendor and model, similar movement) can inflate link probabilities: false positives happen.</li>
        <li>Capture blind spots can make the model connect addresses across intervals nobody observed.</li>
        <li>A generous linkage window raises recall and also the chance of false cluster merges.</li>
        <li>
          A cluster says which addresses probably came from one emitter. It <strong>does not attribute</strong> that emitter to a person or device owner.
        </li>
      </ul>
    </aside>
  );
}
