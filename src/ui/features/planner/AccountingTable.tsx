import { accountingTotals, formatCost, type AccountingRow } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';

/** Every LLM request and tool execution of a run, with totals (agent-contract §4). */
export function AccountingTable({ rows }: { rows: ReadonlyArray<AccountingRow> }) {
  if (rows.length === 0) return <p className="muted">No accounting entries yet.</p>;
  const totals = accountingTotals(rows);
  return (
    <table className="data-table accounting" data-testid="planner.accounting">
      <caption>Accounting</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Provider</th>
          <th scope="col">Model / tool</th>
          <th scope="col">Status</th>
          <th scope="col">Latency</th>
          <th scope="col">Tokens in</th>
          <th scope="col">Tokens out</th>
          <th scope="col">Cached</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={index} data-testid="planner.accounting.row" data-type={row.type} data-status={row.status} title={row.error}>
            <td>{row.type === 'llm' ? 'LLM request' : 'tool'}</td>
            <td>{row.provider}</td>
            <td>{row.model}</td>
            <td>
              <span className={`badge badge--${row.status === 'ok' ? 'ok' : 'error'}`}>{row.status}</span>
            </td>
            <td>{row.latencyMs.toFixed(0)} ms</td>
            <td>{row.type === 'llm' ? formatCount(row.inputTokens) : '—'}</td>
            <td>{row.type === 'llm' ? formatCount(row.outputTokens) : '—'}</td>
            <td>{row.type === 'llm' ? formatCount(row.cachedTokens) : '—'}</td>
            <td>{row.type === 'llm' ? formatCost(row.costUsd) : '—'}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="planner.accounting.totals">
          <th scope="row">Total</th>
          <td colSpan={2}>
            {totals.llmRequests} LLM requests · {totals.toolExecutions} tool executions
          </td>
          <td>{totals.failed > 0 ? `${totals.failed} failed` : 'all ok'}</td>
          <td>{totals.latencyMs.toFixed(0)} ms</td>
          <td>{formatCount(totals.inputTokens)}</td>
          <td>{formatCount(totals.outputTokens)}</td>
          <td>{formatCount(totals.cachedTokens)}</td>
          <td title={totals.costIncomplete ? 'Some requests have no known price' : undefined}>
            {formatCost(totals.costUsd)}
            {totals.costIncomplete ? '+' : ''}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
