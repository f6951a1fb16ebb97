// Follow the walk: fit the whole map while it is small enough to read; past that, keep the
// current locus in the middle at a readable zoom. A person panning or zooming turns
// following off; "Fit & follow" turns it back on. The view moves only when the current locus
// changes (a step; a switch of layout takes it elsewhere), on the first placement, on "Fit &
// follow" and when the map is resized: not for every batch of events (new candidates, a
// crystal forming), and never under a person's hand (see ViewHold). "Whole map" keeps the
// whole map in view as it changes, until a person moves the view.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useReactFlow, useStoreApi, type OnMoveEnd, type OnMoveStart, type Viewport } from "@xyflow/react";
import { handOnMap } from "../handOnMap";
import { useWander } from "../store";
import { keepsView } from "./followSlack";
import { ViewHold } from "./viewHold";
import { CANVAS_ABOVE, followMove, glideFor, wholeMove, type ViewState } from "./viewMoves";

export interface FollowInput extends ViewState {
  sessionId: string | null;
  /** Changes when following looks again: a step, a switch of layout. */
  followKey: string;
  /** Changes when the nodes glide to a new picture (a new semantic picture is fitted whole). */
  animKey: string;
  /** Changes when the map changes (Whole map fits it again). */
  wholeKey: string;
}

export interface Follow {
  follow: boolean;
  whole: boolean;
  /** "Fit & follow": following on, the view moved there at once. */
  followAgain: () => void;
  /** "Whole map": the whole map, kept whole as it changes. */
  showWhole: () => void;
  zoom: (by: "in" | "out") => void;
  onMoveStart: OnMoveStart;
  onMoveEnd: OnMoveEnd;
  /** Asked by a resize of the map's box. */
  resized: () => void;
}

export function useFollow(box: RefObject<HTMLDivElement | null>, input: FollowInput): Follow {
  const rf = useReactFlow();
  const [follow, setFollow] = useState(true);
  const [whole, setWhole] = useState(false);
  const hold = useMemo(() => new ViewHold(), []);
  /** When the glide that following started last ends (performance.now()). */
  const glideEnd = useRef(0);
  // A large map that comes at once (the backlog of a long walk) is first shown where the
  // follow puts the view.
  const [placedFor, setPlacedFor] = useState<string | null | undefined>(undefined);
  const placed = placedFor === input.sessionId;
  // (what the effects below read when they run: they run on their keys, not on every change)
  const latest = useRef({ ...input, follow, whole, placed });
  latest.current = { ...input, follow, whole, placed };

  const moveView = useCallback(
    (asked: number) => {
      const el = box.current;
      if (!el || latest.current.nodes.length === 0) return;
      const duration = followMove(rf, el, latest.current, asked);
      glideEnd.current = duration > 0 ? performance.now() + duration : 0;
    },
    [rf, box],
  );
  /** Moves the view to what following shows, once no pointer holds it (`now`: at once, for a
   * person's own "Fit & follow"). */
  const followView = useCallback(
    (duration = 350, now = false) => {
      if (now) {
        hold.cancel();
        moveView(duration);
      } else hold.run(() => moveView(duration));
    },
    [hold, moveView],
  );
  const wholeMap = useCallback(
    (asked = 350) => {
      const el = box.current;
      if (el && latest.current.nodes.length) wholeMove(rf, el, latest.current, asked);
    },
    [rf, box],
  );
  useHoldOnPointer(box, hold, glideEnd, () => latest.current.follow && hold.run(() => moveView(150)));
  useEffect(() => {
    if (!follow) hold.cancel();
  }, [follow, hold]);
  useWholeFits(latest, whole, hold, wholeMap);
  const nodeCount = input.nodes.length;
  const placing = nodeCount > CANVAS_ABOVE && !placed;
  useLayoutEffect(() => {
    if (placed || nodeCount === 0) return;
    if (placing && follow) followView(0); // before the first paint
    setPlacedFor(input.sessionId);
  }, [placed, placing, nodeCount, follow, followView, input.sessionId]);
  useStepFollow(box, latest, input.followKey, hold, followView);
  useFocus(latest, setFollow);
  const resized = useCallback(() => {
    if (latest.current.follow) followView(200);
  }, [followView]);

  return {
    follow,
    whole,
    ...viewButtons(rf, latest, setFollow, setWhole, followView, wholeMap),
    ...usePersonMoves(setFollow, setWhole),
    resized,
  };
}

type Latest = RefObject<FollowInput & { follow: boolean; whole: boolean; placed: boolean }>;

/** What the map's buttons do: "Fit & follow", "Whole map" and the zoom. */
function viewButtons(
  rf: ReturnType<typeof useReactFlow>,
  latest: Latest,
  setFollow: (on: boolean) => void,
  setWhole: (on: boolean) => void,
  followView: (duration?: number, now?: boolean) => void,
  wholeMap: () => void,
): Pick<Follow, "followAgain" | "showWhole" | "zoom"> {
  return {
    followAgain: () => {
      setFollow(true);
      setWhole(false);
      followView(350, true);
    },
    showWhole: () => {
      setFollow(false);
      setWhole(true);
      wholeMap();
    },
    zoom: (by) => {
      setWhole(false);
      const duration = glideFor(latest.current.nodes.length, 200);
      void (by === "in" ? rf.zoomIn({ duration }) : rf.zoomOut({ duration }));
    },
  };
}

/** When the whole map is fitted again: Whole map on and the map changed (a step, a move of
 * the archive's timeline); a new semantic picture (the switch to it, a refit), whatever the
 * view was doing: the picture is placed by the projection, not where the person last looked. */
function useWholeFits(latest: Latest, whole: boolean, hold: ViewHold, wholeMap: (asked?: number) => void): void {
  const { wholeKey, animKey } = latest.current;
  useEffect(() => {
    if (!whole) return;
    const t = setTimeout(() => hold.run(() => wholeMap(250)), 30);
    return () => clearTimeout(t);
  }, [whole, wholeKey, hold, wholeMap]);
  useEffect(() => {
    const v = latest.current;
    if (!v.semantic || v.follow || v.whole) return; // (following and Whole map fit it themselves)
    const t = setTimeout(() => hold.run(() => wholeMap(350)), 30);
    return () => clearTimeout(t);
  }, [animKey, latest, hold, wholeMap]);
}

/** A step moves the view when following: a large map whose walk steps off the screen (on
 * from an earlier, far locus) jumps there before the step is painted (the new locus shows at
 * once, and a glide across the map would mount and drop every area it passes over); else the
 * view follows once the walk nears the edge of the view (a large map, see followSlack), or
 * at each step (a small one, gliding). */
function useStepFollow(box: RefObject<HTMLDivElement | null>, latest: Latest, followKey: string, hold: ViewHold, followView: (duration?: number) => void): void {
  const rf = useReactFlow();
  const flowStore = useStoreApi();
  const jumpedFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    const v = latest.current;
    if (!v.follow || !v.placed || v.nodes.length <= CANVAS_ABOVE || !v.currentPos || !el || hold.held) return;
    const { x, y, zoom } = rf.getViewport();
    const sx = v.currentPos.x * zoom + x;
    const sy = v.currentPos.y * zoom + y;
    if (sx >= 0 && sy >= 0 && sx <= el.clientWidth && sy <= el.clientHeight) return;
    followView(0);
    jumpedFor.current = followKey;
  }, [followKey, box, latest, hold, rf, followView]);
  const hasNodes = latest.current.nodes.length > 0;
  useEffect(() => {
    const v = latest.current;
    if (!v.follow || !hasNodes) return;
    if (jumpedFor.current === followKey) return; // there already
    if (v.nodes.length > CANVAS_ABOVE && v.currentPos) {
      const { width, height } = flowStore.getState(); // the pane's size, as React Flow measured it
      if (keepsView(v.currentPos, rf.getViewport(), width, height)) return;
    }
    // (a large map jumps, a small one glides: see glideFor)
    const t = setTimeout(() => followView(350), 30);
    return () => clearTimeout(t);
  }, [followKey, hasNodes, latest, flowStore, rf, followView]);
}

/** A search's focus: the view goes to the locus found, and following stops. */
function useFocus(latest: Latest, setFollow: (on: boolean) => void): void {
  const rf = useReactFlow();
  const focus = useWander((s) => s.focus);
  useEffect(() => {
    if (!focus) return;
    const p = latest.current.positions.get(focus.id);
    if (!p) return;
    setFollow(false);
    // after a side panel that opens with it has resized the map
    const t = setTimeout(() => void rf.setCenter(p.x, p.y, { zoom: Math.max(rf.getZoom(), 0.9), duration: glideFor(latest.current.nodes.length, 300) }), 80);
    return () => clearTimeout(t);
  }, [focus, latest, rf, setFollow]);
}

/** A person moving the view (a click on the pane starts a "move" that goes nowhere) turns
 * following and Whole map off. */
function usePersonMoves(setFollow: (on: boolean) => void, setWhole: (on: boolean) => void): { onMoveStart: OnMoveStart; onMoveEnd: OnMoveEnd } {
  const moveStart = useRef<Viewport | null>(null);
  return {
    onMoveStart: (e, vp) => {
      moveStart.current = e ? vp : null;
    },
    onMoveEnd: (e, vp) => {
      const st = moveStart.current;
      moveStart.current = null;
      if (e && st && (Math.abs(st.x - vp.x) > 2 || Math.abs(st.y - vp.y) > 2 || Math.abs(st.zoom - vp.zoom) > 1e-3)) {
        setFollow(false);
        setWhole(false);
      }
    },
  };
}

/** A pointer pressed on the map holds the view (and stops a glide that is under way: it goes
 * on, `resume`, once the view is free again). */
function useHoldOnPointer(box: RefObject<HTMLDivElement | null>, hold: ViewHold, glideEnd: RefObject<number>, resume: () => void): void {
  const rf = useReactFlow();
  const again = useRef(resume);
  again.current = resume;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const down = (e: PointerEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest(".react-flow")) return;
      hold.press(e.pointerId);
      handOnMap.press(e.pointerId); // (the live feed gathers a run's steps meanwhile)
      if (performance.now() < glideEnd.current) {
        glideEnd.current = 0;
        void rf.setViewport(rf.getViewport()); // (a move of no duration interrupts the glide)
        again.current();
      }
    };
    const up = (e: PointerEvent) => {
      hold.release(e.pointerId);
      handOnMap.release(e.pointerId);
    };
    const blur = () => {
      hold.releaseAll();
      handOnMap.releaseAll();
    };
    el.addEventListener("pointerdown", down, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
    window.addEventListener("blur", blur);
    return () => {
      el.removeEventListener("pointerdown", down, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      window.removeEventListener("blur", blur);
      hold.cancel();
      handOnMap.releaseAll();
    };
  }, [box, hold, glideEnd, rf]);
}
