// What a crystal's panel says of its structural type (004's ten): the type only when the
// classifier was confident (the crystal's validity keeps type_similarity, type_margin and
// type_confident; the formed event names a type only then).
export interface TypeChip {
  text: string;
  title: string;
  /** A type is named (not "no clear type"). */
  named: boolean;
}

export function crystalTypeChip(structuralType: string | null | undefined, validity: Record<string, unknown> | null, fromEvents: string | null | undefined): TypeChip | null {
  if (validity === null) {
    // only the formed event so far: it names a type only when the classifier was confident
    return fromEvents ? { text: `type: ${fromEvents}`, title: "Its structural type (004), nearest by meaning by a clear lead", named: true } : null;
  }
  const margin = typeof validity.type_margin === "number" ? validity.type_margin : null;
  const sim = typeof validity.type_similarity === "number" ? validity.type_similarity : null;
  const figures = margin !== null ? ` (similarity ${sim?.toFixed(2) ?? "?"}, ${margin.toFixed(3)} ahead of the next type)` : "";
  if (validity.type_confident === false)
    return {
      text: "no clear type",
      title: `The nearest structural type, ${structuralType ?? "?"}, is too close to the next to name${figures}`,
      named: false,
    };
  if (!structuralType) return null;
  if (validity.type_confident === true) return { text: `type: ${structuralType}`, title: `Its structural type (004), nearest by meaning by a clear lead${figures}`, named: true };
  // a crystal from before the classifier's confidence was kept
  return { text: `nearest type: ${structuralType}`, title: "The nearest of the ten structural types (004) by meaning: a hint, not a verdict", named: true };
}
