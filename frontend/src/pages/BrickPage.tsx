// The brick viewer (002's scrub viewer): a Wheeler memory's evolution, seed to attractor,
// frame by frame. A slider picks the tick, Play runs the ticks; the CA state, the rotation
// retry's outcome and, for an oscillating brick, the tick its cycle began (marked on the
// slider's track) are shown. Reached from a crystal's attractor picture.
import { useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "../api/http";
import { Brand } from "../panels/Brand";
import { Link } from "../router";
import { decodeBrick, frameBytes, frameHash, frameRGBA, loadBrick, type BrickSource, type DecodedBrick } from "../memory/brick";
import "./brick.css";

const FPS = 12;

export function BrickPage({ source }: { source: BrickSource }) {
  const [brick, setBrick] = useState<DecodedBrick | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [playing, setPlaying] = useState(false);
  // the source by value: a page rendered again with an equal source loads nothing again
  const key = JSON.stringify(source);
  const wanted = useMemo(() => JSON.parse(key) as BrickSource, [key]);

  useEffect(() => {
    let live = true;
    setBrick(null);
    setError(null);
    loadBrick(wanted)
      .then((b) => {
        if (!live) return;
        const d = decodeBrick(b);
        setBrick(d);
        setTick(d.frameCount - 1); // open on the attractor, as the thumbnail shows it
      })
      .catch((e) => live && setError(e instanceof ApiError && e.status === 404 ? `No such brick: ${e.message}` : String(e instanceof Error ? e.message : e)));
    return () => {
      live = false;
    };
  }, [wanted]);

  const last = brick ? brick.frameCount - 1 : 0;
  useEffect(() => {
    if (!playing || !brick) return;
    const id = window.setInterval(() => {
      setTick((t) => {
        if (t >= last) {
          setPlaying(false);
          return t;
        }
        return t + 1;
      });
    }, 1000 / FPS);
    return () => window.clearInterval(id);
  }, [playing, brick, last]);

  const play = () => {
    if (!brick) return;
    if (!playing && tick >= last) setTick(0); // from the seed again
    setPlaying(!playing);
  };

  const title = source.kind === "crystal" ? "Crystal's brick" : source.kind === "memory" ? "Memory brick" : "Brick of a text";
  return (
    <div className="page brick-page" data-testid="brick-page">
      <header className="topbar">
        <Brand />
        <div className="session-title">
          <h1>{title}</h1>
          <span className="muted attractor" data-testid="brick-text">{brick?.text ?? "…"}</span>
        </div>
        <nav className="exports">
          <Link to="/">wanders</Link>
        </nav>
      </header>
      {error ? (
        <div className="page-center brick-error" role="alert" data-testid="brick-error">{error}</div>
      ) : !brick ? (
        <div className="page-center muted">evolving…</div>
      ) : (
        <BrickView brick={brick} tick={tick} playing={playing} onTick={(t) => { setPlaying(false); setTick(t); }} onPlay={play} />
      )}
    </div>
  );
}

function BrickView({ brick, tick, playing, onTick, onPlay }: { brick: DecodedBrick; tick: number; playing: boolean; onTick: (t: number) => void; onPlay: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = brick.frameCount - 1;
  const hash = useMemo(() => frameHash(frameBytes(brick, tick)), [brick, tick]);
  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return; // no canvas (a test's DOM): the frame's hash still says which frame it is
    const img = ctx.createImageData(brick.width, brick.height);
    img.data.set(frameRGBA(brick, tick));
    ctx.putImageData(img, 0, 0);
  }, [brick, tick]);

  const div = brick.divergence_tick;
  const at = (t: number) => `${last > 0 ? (t / last) * 100 : 0}%`;
  const failed = brick.outcome === "FAILED_ALL_ROTATIONS";
  return (
    <main className="brick-main">
      <canvas
        ref={canvas}
        className="brick-frame"
        width={brick.width}
        height={brick.height}
        data-testid="brick-frame"
        data-tick={tick}
        data-frame-hash={hash}
        aria-label={`frame at tick ${tick} of ${last}`}
      />
      <section className="brick-side">
        <div className="chips" data-testid="brick-state">
          <span className={`chip plain state-${brick.state.toLowerCase()}`} title="the CA state of the evolution kept">{brick.state}</span>
          <span className={`chip plain ${failed ? "outcome-failed" : "outcome-ok"}`} data-testid="brick-outcome" title="the rotation retry's outcome">
            {failed ? "FAILED_ALL_ROTATIONS" : `converged at ${brick.angle}°`}
          </span>
        </div>
        <dl className="brick-facts">
          <dt>ticks</dt>
          <dd>{brick.ticks}</dd>
          <dt>rotation</dt>
          <dd>{brick.angle}° ({brick.attempts} {brick.attempts === 1 ? "angle" : "angles"} tried)</dd>
          <dt>cycle</dt>
          <dd data-testid="brick-cycle">
            {brick.cycle_period !== null && brick.cycle_period !== undefined
              ? `period ${brick.cycle_period}, began at tick ${div ?? "?"}`
              : brick.state === "CONVERGED" ? "none: it settles" : "none found"}
          </dd>
        </dl>
        <div className="brick-controls">
          <button type="button" className="primary" onClick={onPlay} data-testid="brick-play" aria-pressed={playing}>
            {playing ? "Pause" : "Play"}
          </button>
          <span className="brick-tick" data-testid="brick-tick">tick {tick} / {last}</span>
          {div !== null && div !== undefined ? (
            <button type="button" className="linklike" onClick={() => onTick(div)} data-testid="brick-goto-divergence">
              go to tick {div}, where the cycle began
            </button>
          ) : null}
        </div>
        <div className="brick-slider">
          <input
            type="range"
            min={0}
            max={last}
            step={1}
            value={tick}
            onChange={(e) => onTick(Number(e.target.value))}
            aria-label="tick"
            data-testid="brick-slider"
          />
          {div !== null && div !== undefined ? (
            <span className="brick-divergence" style={{ left: at(div) }} title={`the cycle began at tick ${div}`} data-testid="brick-divergence" />
          ) : null}
          <div className="brick-scale muted small">
            <span>seed</span>
            <span>attractor</span>
          </div>
        </div>
      </section>
    </main>
  );
}
