// @vitest-environment node
// A crystal's type is shown only when the classifier was confident.
import { describe, expect, it } from "vitest";
import { crystalTypeChip } from "./crystalType";

describe("a crystal's type chip", () => {
  it("names the type when the classifier was confident, with its figures on hover", () => {
    const chip = crystalTypeChip("Temporal", { V: 0.7, type_confident: true, type_margin: 0.09, type_similarity: 0.31 }, null);
    expect(chip).toMatchObject({ text: "type: Temporal", named: true });
    expect(chip!.title).toContain("0.090 ahead of the next type");
  });

  it("names no type below the threshold", () => {
    const chip = crystalTypeChip("Temporal", { V: 0.7, type_confident: false, type_margin: 0.012, type_similarity: 0.2 }, "Temporal");
    expect(chip).toMatchObject({ text: "no clear type", named: false });
    expect(chip!.title).toContain("Temporal");
    expect(chip!.title).toContain("0.012");
  });

  it("before the stored crystal comes: the formed event's type, or nothing when it named none", () => {
    expect(crystalTypeChip(undefined, null, "Dialectic")).toMatchObject({ text: "type: Dialectic" });
    expect(crystalTypeChip(undefined, null, null)).toBeNull();
  });

  it("a crystal from before the confidence was kept: the nearest type, as a hint", () => {
    expect(crystalTypeChip("Bound", { V: 0.8 }, null)).toMatchObject({ text: "nearest type: Bound" });
  });
});
