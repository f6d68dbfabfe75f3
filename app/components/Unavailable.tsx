/** An honest page for a screen that is routed and guarded but not built yet. */
export function Unavailable({ screen }: { screen: string }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">{screen} is not available yet</h2>
        <p className="text-base-content/70">This screen is being built. Its page exists so that links and permissions already work.</p>
      </div>
    </div>
  );
}
