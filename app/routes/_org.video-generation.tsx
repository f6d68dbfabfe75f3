import { lazy } from "react";
import { LazyDemo } from "~/features/demos/LazyDemo";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Video Generation" };

// Loaded lazily (SPEC §2): the generator is its own chunk, fetched when the page opens in the browser.
const VideoGenerator = lazy(() => import("~/features/demos/VideoGenerator"));

export default function VideoGenerationPage() {
  return (
    <LazyDemo
      component={VideoGenerator}
      title="Video Generation"
      description="Describe a scene and get a short simulated video clip, with a choice of model, duration and aspect ratio."
    />
  );
}
