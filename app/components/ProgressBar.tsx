import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

/** A slim bar at the top while a navigation or submission is pending; it waits 150 ms to avoid flicker. */
export function ProgressBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 150);
    return () => clearTimeout(timer);
  }, [busy]);
  return (
    <div
      role="progressbar"
      aria-hidden={!visible}
      aria-label="Loading"
      className={`fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-primary transition-all duration-500 ${visible ? "scale-x-75 opacity-100" : "scale-x-0 opacity-0"}`}
    />
  );
}
