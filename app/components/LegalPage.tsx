import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <article className="prose card bg-base-100 shadow">
        <div className="card-body gap-3">
          <h1 className="text-2xl font-bold">{title}</h1>
          {children}
          <Link to="/login" className="link mt-4">
            Back to sign-in
          </Link>
        </div>
      </article>
    </main>
  );
}
