/**
 * The names a form checked, from conform's kept value: one checked box comes back as a string,
 * several as an array (a refused form without JavaScript keeps either).
 */
export function checkedNames(initial: unknown): Set<string> {
  const values = Array.isArray(initial) ? initial : initial === undefined || initial === null ? [] : [initial];
  return new Set(values.filter((value): value is string => typeof value === "string" && value !== ""));
}

/**
 * A row of checkboxes, one per name (scopes, models), posted under one field `name`. `groupKey` is
 * conform's key for the field: a new one (the form reset) renders the boxes afresh with their defaults.
 */
export function NameCheckboxes({ name, names, checked, groupKey }: { name: string; names: string[]; checked: Set<string>; groupKey: string | undefined }) {
  return (
    <div className="flex flex-wrap gap-x-6 gap-y-2" key={groupKey}>
      {names.map((value) => (
        <label key={value} className="label cursor-pointer gap-2 text-base-content">
          <input type="checkbox" name={name} value={value} className="checkbox checkbox-sm" defaultChecked={checked.has(value)} />
          <span className="font-mono text-sm">{value}</span>
        </label>
      ))}
    </div>
  );
}
