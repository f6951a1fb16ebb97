// The live feed of one session: /ws/sessions/{id}?after_seq=N.
// The server replays every stored event with seq > after_seq (in `events` frames of many
// events when the URL asks for batch=1, else one `event` frame each), sends `caught_up`,
// then live events. On any drop we reconnect with backoff from the last seq we saw, so nothing is
// missed and nothing is delivered twice (events with seq <= last seq are ignored).
import type { EventOut, WsFrame } from "./types.gen";

/** Close codes of `wander serve` that mean "do not retry": bad request, unauthorized,
 * bad origin, unknown session. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4401, 4403, 4404]);

export type ConnState = "idle" | "connecting" | "live" | "reconnecting" | "closed";

/** The subset of the WebSocket API this client uses (so tests can pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface WanderSocketOptions {
  /** Builds the URL for a connection that resumes after `afterSeq`. */
  url: (afterSeq: number) => string;
  /** Last seq already applied (0 for a fresh map). */
  initialSeq?: number;
  onEvent: (event: EventOut) => void;
  onState?: (state: ConnState) => void;
  onCaughtUp?: (lastSeq: number) => void;
  /** The server refused the socket for good (see FATAL_CLOSE_CODES). */
  onFatal?: (code: number, reason: string) => void;
  /** First retry delay and the cap, in ms; doubles each failed attempt (with a little jitter). */
  backoffMs?: { initial: number; max: number };
  socketFactory?: SocketFactory;
  /** For tests: deterministic jitter. */
  random?: () => number;
}

export class WanderSocket {
  private sock: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;
  private everCaughtUp = false;
  private behind: number | null = null;
  private _lastSeq: number;
  private _state: ConnState = "idle";
  /** Every URL this client connected to, in order (diagnostics and tests). */
  readonly urls: string[] = [];
  private readonly opts: Required<Omit<WanderSocketOptions, "onState" | "onCaughtUp" | "onFatal" | "initialSeq">> &
    Pick<WanderSocketOptions, "onState" | "onCaughtUp" | "onFatal">;

  constructor(opts: WanderSocketOptions) {
    this._lastSeq = opts.initialSeq ?? 0;
    this.opts = {
      url: opts.url,
      onEvent: opts.onEvent,
      onState: opts.onState,
      onCaughtUp: opts.onCaughtUp,
      onFatal: opts.onFatal,
      backoffMs: opts.backoffMs ?? { initial: 500, max: 10_000 },
      socketFactory: opts.socketFactory ?? ((url) => new WebSocket(url) as unknown as SocketLike),
      random: opts.random ?? Math.random,
    };
  }

  get lastSeq(): number {
    return this._lastSeq;
  }
  get state(): ConnState {
    return this._state;
  }
  get socket(): SocketLike | null {
    return this.sock;
  }

  start(): void {
    this.stopped = false;
    this.setState(this.everCaughtUp ? "reconnecting" : "connecting");
    this.connect();
  }

  /** Closes for good: no reconnect. */
  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const s = this.sock;
    this.sock = null;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.onerror = null;
      s.onopen = null;
      try {
        s.close(1000, "client closed");
      } catch {
        /* already closed */
      }
    }
    this.setState("closed");
  }

  /** Simulates a network drop (test hook): closes the socket as if the server vanished. */
  drop(): void {
    this.sock?.close(4000, "dropped by test hook");
  }

  private setState(s: ConnState): void {
    if (s === this._state) return;
    this._state = s;
    this.opts.onState?.(s);
  }

  private connect(): void {
    this.timer = null;
    if (this.stopped) return;
    const url = this.opts.url(this._lastSeq);
    this.urls.push(url);
    let sock: SocketLike;
    try {
      sock = this.opts.socketFactory(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.sock = sock;
    sock.onopen = () => {
      this.attempt = 0;
    };
    sock.onmessage = (ev: MessageEvent) => this.handleMessage(ev.data);
    sock.onerror = () => {
      /* a close event follows */
    };
    sock.onclose = (ev: CloseEvent) => {
      if (this.sock !== sock) return;
      this.sock = null;
      if (this.stopped) return;
      if (ev && FATAL_CLOSE_CODES.has(ev.code)) {
        // The server refused this socket for good (unknown session, bad token, origin):
        // retrying cannot help.
        this.stopped = true;
        this.setState("closed");
        this.opts.onFatal?.(ev.code, ev.reason);
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.timer) return;
    this.setState("reconnecting");
    const { initial, max } = this.opts.backoffMs;
    const base = Math.min(max, initial * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + 0.4 * this.opts.random()));
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private deliver(ev: EventOut | undefined): void {
    if (!ev || typeof ev.seq !== "number" || ev.seq <= this._lastSeq) return; // duplicate or stale
    this._lastSeq = ev.seq;
    this.opts.onEvent(ev);
  }

  private handleMessage(data: unknown): void {
    if (typeof data !== "string") return;
    let frame: WsFrame;
    try {
      frame = JSON.parse(data) as WsFrame;
    } catch {
      return;
    }
    switch (frame.type) {
      case "event":
        this.deliver(frame.event);
        return;
      case "events": // stored events in seq order, batched (the backlog of a socket opened with batch=1)
        if (Array.isArray(frame.events)) for (const ev of frame.events) this.deliver(ev);
        return;
      case "caught_up":
        this.everCaughtUp = true;
        this.attempt = 0;
        this.setState("live");
        this.opts.onCaughtUp?.(frame.last_seq);
        return;
      case "heartbeat":
        // A heartbeat proves the link is up. If two heartbeats in a row report events we
        // have not seen (one may race an event still in flight), the live stream lost
        // some: reconnect, which replays them from the store.
        if (frame.last_seq > this._lastSeq && this._state === "live") {
          if (this.behind !== null && this.behind > this._lastSeq) {
            this.behind = null;
            this.sock?.close(4001, "behind heartbeat");
          } else {
            this.behind = frame.last_seq;
          }
        } else {
          this.behind = null;
        }
        return;
    }
  }
}
