import { CreateForm } from "../panels/CreateForm";
import { SessionList } from "../panels/SessionList";
import { ArchiveList } from "../panels/ArchiveList";
import { Brand } from "../panels/Brand";
import { Link } from "../router";
import "./review.css";

export function SessionsPage() {
  return (
    <div className="page">
      <header className="topbar">
        <Brand />
        <span className="muted">walk idea space from a seed; watch it grow</span>
        <nav className="topnav" aria-label="Pages">
          <a href="#archived-wanders">Archived wanders</a>
          <Link to="/analysis" data-testid="analysis-link">
            Analysis
          </Link>
          <Link to="/reviews" data-testid="reviews-link">
            Review queue
          </Link>
          <Link to="/evaluation" data-testid="evaluation-link">
            Evaluate
          </Link>
        </nav>
      </header>
      <main className="home">
        <CreateForm />
        <SessionList />
        <ArchiveList />
      </main>
    </div>
  );
}
