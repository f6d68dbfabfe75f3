/** Runs a callback at the next frame, and takes it back. */
export interface Frames {
  request: (callback: () => void) => number;
  cancel: (handle: number) => void;
}

const browserFrames: Frames = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Hands `apply` the latest value pushed, at most once per animation frame. A streamed reply re-renders
 * (its reasoning split and Markdown parsed over the whole text) on each update: one per network read
 * made long replies quadratic, seconds of blocked main thread for a big table. A frame is as often as
 * the screen can show it. `flush` applies what is pending at once (the stream ended, was stopped or
 * failed), so no text is lost; a background tab, which runs no frames, gets its text there.
 */
export function frameBatch<T>(apply: (value: T) => void, frames: Frames = browserFrames) {
  let pending: { value: T } | null = null;
  let frame: number | null = null;
  const flush = () => {
    if (frame !== null) frames.cancel(frame);
    frame = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    apply(value);
  };
  return {
    push(value: T) {
      pending = { value };
      frame ??= frames.request(() => {
        frame = null;
        flush();
      });
    },
    flush,
  };
}
