import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/**
 * Says which page a client-side navigation opened (WCAG 4.1.3, 2.4.3): screen readers do not read a
 * title changed without a page load, so the new page's title goes to a polite live region. Only a
 * change of path counts: a dialog opened by `?dialog=`, or a filter changing the query, is not a new
 * page. The first page needs nothing (the browser reads its title as it loads).
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  const [message, setMessage] = useState("");
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    // Emptied first so the same title said twice is still a change; the title is written by the time
    // this runs (root's Layout renders it in the same commit), the delay lets the region be read afresh.
    setMessage("");
    const timer = window.setTimeout(() => setMessage(document.title), 100);
    return () => window.clearTimeout(timer);
  }, [pathname]);
  return (
    <div id="route-announcer" className="sr-only" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
