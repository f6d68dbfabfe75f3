import { NO_DATA, NO_DATA_LABEL } from "./reliability";

/** A figure's text; the dash that stands for "nothing to compute it from" is read out as words. */
export function Figure({ text }: { text: string }) {
  if (text !== NO_DATA) return <>{text}</>;
  return (
    <>
      <span aria-hidden>{NO_DATA}</span>
      <span className="sr-only">{NO_DATA_LABEL}</span>
    </>
  );
}
