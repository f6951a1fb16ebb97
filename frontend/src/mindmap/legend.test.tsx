// The legend starts closed (open, it covered nodes and the layout switch at 1024 px) and stays
// as a person leaves it.
import { fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMap } from "./MindMap";
import { useWander } from "../store";

function mount() {
  useWander.getState().openSession("s-1");
  return render(
    <div style={{ width: 800, height: 600 }}>
      <ReactFlowProvider>
        <MindMap />
      </ReactFlowProvider>
    </div>,
  );
}

describe("the legend", { timeout: 20_000 }, () => {
  beforeEach(() => {
    localStorage.clear();
    useWander.setState(useWander.getInitialState());
  });

  it("is closed by default: only its toggle shows", () => {
    mount();
    const legend = screen.getByTestId("legend");
    expect(legend.textContent).toBe("legend ▸");
    expect(legend.classList.contains("is-open")).toBe(false);
  });

  it("opens on its toggle and stays open on the next map", () => {
    const r = mount();
    fireEvent.click(screen.getByRole("button", { name: /legend/ }));
    expect(screen.getByTestId("legend").textContent).toContain("path taken");
    expect(screen.getByTestId("legend").textContent).toContain("bridge between loci (near, across domains)");
    r.unmount();
    mount();
    expect(screen.getByTestId("legend").classList.contains("is-open")).toBe(true);
  });
});
