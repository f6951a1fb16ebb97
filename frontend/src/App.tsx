import { matchRoute, usePath, Link } from "./router";
import { SessionsPage } from "./pages/SessionsPage";
import { SessionPage } from "./pages/SessionPage";
import { ArchivePage } from "./pages/ArchivePage";
import { BrickPage } from "./pages/BrickPage";
import { TokenPrompt } from "./panels/TokenPrompt";
import { lazy, Suspense } from "react";

// ECharts is big: the analysis page loads on demand.
const AnalysisPage = lazy(() => import("./analysis/AnalysisPage").then((m) => ({ default: m.AnalysisPage })));
// the review queue is a page few open: it loads on demand too
const ReviewQueuePage = lazy(() => import("./reviews/ReviewQueuePage").then((m) => ({ default: m.ReviewQueuePage })));
// so is the human evaluation page
const EvaluationPage = lazy(() => import("./evaluation/EvaluationPage").then((m) => ({ default: m.EvaluationPage })));

export function App() {
  return (
    <>
      <Routes />
      <TokenPrompt />
    </>
  );
}

function Routes() {
  const route = matchRoute(usePath());
  switch (route.name) {
    case "sessions":
      return <SessionsPage />;
    case "analysis":
      return (
        <Suspense fallback={<p>loading…</p>}>
          <AnalysisPage />
        </Suspense>
      );
    case "reviews":
      return (
        <Suspense fallback={<p>loading…</p>}>
          <ReviewQueuePage openId={route.id} />
        </Suspense>
      );
    case "evaluation":
      return (
        <Suspense fallback={<p>loading…</p>}>
          <EvaluationPage />
        </Suspense>
      );
    case "archive":
      return <ArchivePage key={route.id} sessionId={route.id} />;
    case "brick":
      return <BrickPage source={route.source} />;
    case "session":
      return <SessionPage key={route.id} sessionId={route.id} />;
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
