import { useId, useState, type KeyboardEvent } from "react";
import { domainColour } from "../mindmap/palette";

interface Props {
  id: string;
  label: string;
  value: string[];
  onChange(v: string[]): void;
  known: string[];
  invalid?: boolean;
  describedBy?: string;
}

/** Pick domains as chips: type (suggestions from the known domains), Enter or comma adds. */
export function DomainPicker({ id, label, value, onChange, known, invalid, describedBy }: Props) {
  const [text, setText] = useState("");
  const listId = useId();
  const add = (raw: string) => {
    const parts = raw.split(",").map((s) => s.trim()).filter(Boolean);
    if (!parts.length) return;
    onChange([...value, ...parts.filter((p) => !value.includes(p))]);
    setText("");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      add(text);
    } else if (e.key === "Backspace" && !text && value.length) {
      onChange(value.slice(0, -1));
    }
  };
  return (
    <div className={invalid ? "chips-input is-invalid" : "chips-input"}>
      {value.map((d) => (
        <span key={d} className="chip" style={{ ["--c" as string]: domainColour(d) }}>
          {d}
          <button type="button" aria-label={`remove ${d}`} onClick={() => onChange(value.filter((x) => x !== d))}>
            ×
          </button>
        </span>
      ))}
      <input
        id={id}
        name={id}
        list={listId}
        value={text}
        placeholder={value.length ? "" : "any"}
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          const v = e.target.value;
          // choosing a suggestion from the datalist adds it at once
          if (known.includes(v.trim()) && !value.includes(v.trim())) {
            onChange([...value, v.trim()]);
            setText("");
          } else setText(v);
        }}
        onKeyDown={onKey}
        onBlur={() => add(text)}
      />
      <datalist id={listId}>
        {known.filter((k) => !value.includes(k)).map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
    </div>
  );
}
