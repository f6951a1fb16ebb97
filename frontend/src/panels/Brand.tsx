import { Link } from "../router";

export function Brand() {
  return (
    <Link to="/" className="brand" title="All wanders">
      <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden>
        <circle cx="5" cy="16" r="3.2" fill="#7dd3fc" />
        <circle cx="11" cy="6" r="2.6" fill="#c084fc" />
        <circle cx="18" cy="13" r="2.2" fill="#fbbf24" />
        <path d="M5 16 L11 6 L18 13" stroke="#cbd5e1" strokeWidth="1.3" fill="none" />
      </svg>
      <span>Wander</span>
      <span className="brand-sub">VISLZR</span>
    </Link>
  );
}
