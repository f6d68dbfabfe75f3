import { lazy } from "react";
import { LazyDemo } from "~/features/demos/LazyDemo";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Image Edit" };

// Loaded lazily (SPEC §2): the editor is its own chunk, fetched when the page opens in the browser.
const ImageEditor = lazy(() => import("~/features/demos/ImageEditor"));

export default function ImageEditPage() {
  return (
    <LazyDemo
      component={ImageEditor}
      title="Image Edit"
      description="Upload an image and describe an edit: the demo shows a simulated edited image beside the original."
    />
  );
}
