import { Link } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";

/** What a demo page shows when its category, use case, template or task is unknown: why, and the way back. */
export function NotFoundCard({ title, children, to, back, arrow = false }: { title: string; children: ReactNode; to: string; back: string; arrow?: boolean }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body items-center text-center">
        <h2 className="card-title text-2xl">{title}</h2>
        <p className="text-base-content/70">{children}</p>
        <Link to={to} className="btn btn-primary mt-2">
          {arrow ? (
            <>
              <ArrowLeft className="size-4" aria-hidden /> {back}
            </>
          ) : (
            back
          )}
        </Link>
      </div>
    </div>
  );
}
