import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, getSelectProps } from "@conform-to/react";
import { checkedNames, NameCheckboxes } from "./NameCheckboxes";

interface SpendSettingsFieldsProps {
  fields: {
    budgetAmount: FieldMetadata<number | undefined>;
    budgetPeriod: FieldMetadata<"total" | "month">;
    allowedModels: FieldMetadata<string[]>;
    rateLimitRpm: FieldMetadata<number | undefined>;
  };
  /** The model names an admin may allow (the registry's). */
  models: string[];
}

function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  return errors?.[0] ? (
    <p id={id} className="label text-error">
      {errors[0]}
    </p>
  ) : null;
}

/** A token's budget, allow-list and request rate: the same fields at creation and in its settings. */
export function SpendSettingsFields({ fields, models }: SpendSettingsFieldsProps) {
  const { key: amountKey, ...amountProps } = getInputProps(fields.budgetAmount, { type: "text" });
  const { key: periodKey, ...periodProps } = getSelectProps(fields.budgetPeriod);
  const { key: rpmKey, ...rpmProps } = getInputProps(fields.rateLimitRpm, { type: "number" });
  const allowed = checkedNames(fields.allowedModels.initialValue);
  // A model that left the registry stays visible while the token still names it.
  const names = [...new Set([...models, ...allowed])];
  return (
    <>
      <div className="flex flex-wrap gap-4">
        <fieldset className="fieldset max-w-xs">
          <label className="fieldset-legend" htmlFor={fields.budgetAmount.id}>
            Budget (USD)
          </label>
          <input key={amountKey} {...amountProps} inputMode="decimal" placeholder="No limit" className="input" />
          <FieldError id={fields.budgetAmount.errorId} errors={fields.budgetAmount.errors} />
        </fieldset>
        {/* A fixed width: shrunk to its option, the select grew with the one chosen and moved its neighbour. */}
        <fieldset className="fieldset w-60 max-w-full">
          <label className="fieldset-legend" htmlFor={fields.budgetPeriod.id}>
            Budget period
          </label>
          <select key={periodKey} {...periodProps} className="select">
            <option value="total">In total</option>
            <option value="month">Per calendar month (UTC)</option>
          </select>
        </fieldset>
        <fieldset className="fieldset max-w-xs">
          <label className="fieldset-legend" htmlFor={fields.rateLimitRpm.id}>
            Requests per minute
          </label>
          <input key={rpmKey} {...rpmProps} min={1} step={1} placeholder="No limit" className="input" />
          <FieldError id={fields.rateLimitRpm.errorId} errors={fields.rateLimitRpm.errors} />
        </fieldset>
      </div>
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Allowed models</legend>
        <NameCheckboxes name={fields.allowedModels.name} names={names} checked={allowed} groupKey={fields.allowedModels.key} />
        <p className="label">None checked: the token may call every model.</p>
        <FieldError id={fields.allowedModels.errorId} errors={fields.allowedModels.errors} />
      </fieldset>
    </>
  );
}
