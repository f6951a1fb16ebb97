import { CreateForm } from "../panels/CreateForm";
import { SessionList } from "../panels/SessionList";
import { ArchiveList } from "../panels/ArchiveList";
import { Brand } from "../panels/Brand";

export function SessionsPage() {
  return (
    <div className="page">
      <header className="topbar">
        <Brand />
        <span className="muted">walk idea space from a seed; watch it grow</span>
      </header>
      <main className="home">
        <CreateForm />
        <SessionList />
        <ArchiveList />
      </main>
    </div>
  );
}
