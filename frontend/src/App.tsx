import { matchRoute, usePath, Link } from "./router";
import { SessionsPage } from "./pages/SessionsPage";
import { SessionPage } from "./pages/SessionPage";
import { ArchivePage } from "./pages/ArchivePage";

export function App() {
  const route = matchRoute(usePath());
  switch (route.name) {
    case "sessions":
      return <SessionsPage />;
    case "session":
      return <SessionPage key={route.id} sessionId={route.id} />;
    case "archive":
      return <ArchivePage key={route.id} sessionId={route.id} />;
    default:
      return (
        <div className="page page-center">
          <h1>Not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <Link to="/">Back to the wanders</Link>
          </p>
        </div>
      );
  }
}
