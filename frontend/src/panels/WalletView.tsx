// The paper wallet beside the proposals: its balance, open positions and the balance after each
// booked execution (newest first).
import type { WalletOut } from "../api/types.gen";
import { money } from "./ProposalsPanel";

type Position = { asset?: string; cost_cents?: number; worst_case_loss_cents?: number };
type Entry = { id?: number; asset?: string; amount_cents?: number; balance_after_cents?: number; created_at?: string };

export function WalletView({ wallet }: { wallet: WalletOut | null }) {
  if (!wallet) return null;
  const positions = wallet.positions as Position[];
  const ledger = (wallet.ledger as Entry[]).slice(-8).reverse();
  return (
    <section className="wallet" data-testid="wallet" aria-label="Paper wallet">
      <h3 title={`wallet: ${wallet.wallet}`}>Paper wallet</h3>
      <p className="wallet-balance">
        balance <b data-testid="wallet-balance">{money(wallet.balance_cents)}</b>
        {wallet.breaker ? <span className="proposal-error"> · breaker: {wallet.breaker}</span> : null}
      </p>
      {positions.length ? (
        <table className="wallet-table">
          <thead>
            <tr>
              <th>position</th>
              <th className="num">cost</th>
              <th className="num">worst case</th>
            </tr>
          </thead>
          <tbody>
            {positions.map((p, i) => (
              <tr key={`${p.asset}-${i}`}>
                <td>{p.asset}</td>
                <td className="num">{money(p.cost_cents)}</td>
                <td className="num">{money(-(p.worst_case_loss_cents ?? 0))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted small">No open position.</p>
      )}
      {ledger.length ? (
        <table className="wallet-table" data-testid="wallet-history">
          <thead>
            <tr>
              <th>booked</th>
              <th className="num">amount</th>
              <th className="num">balance after</th>
            </tr>
          </thead>
          <tbody>
            {ledger.map((e, i) => (
              <tr key={e.id ?? i}>
                <td title={e.asset}>{e.created_at ? new Date(e.created_at).toLocaleString() : "–"}</td>
                <td className="num">{money(e.amount_cents)}</td>
                <td className="num">{money(e.balance_after_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
