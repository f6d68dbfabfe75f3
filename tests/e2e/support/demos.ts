import type { Locator, Page } from "@playwright/test";
import { expect } from "./test";

export interface SpeechStubOptions {
  /** false: the browser has no speech recognition at all. */
  recognition?: boolean;
  /** What the fake recognizer "hears"; an `error:` prefix makes it fail with that code instead. */
  transcript?: string;
  /** The fake recognizer throws from start(). */
  failToStart?: boolean;
}

declare global {
  interface Window {
    __speech: { recognitions: { lang: string; continuous: boolean; interimResults: boolean }[]; spoken: string[] };
  }
}

/**
 * Debian's Chromium has no working speech recognition, and speechSynthesis may never fire `end`: stub
 * both before any page script runs. The fakes use setTimeout, so Playwright's clock drives them too.
 */
export async function stubSpeech(page: Page, options: SpeechStubOptions = {}) {
  await page.addInitScript(({ recognition = true, transcript = "Draw a red fox in the snow", failToStart = false }: SpeechStubOptions) => {
    const w = window as unknown as Record<string, unknown> & Window;
    w.__speech = { recognitions: [], spoken: [] };
    delete w.webkitSpeechRecognition;
    delete w.SpeechRecognition;
    if (recognition) {
      class FakeRecognition {
        lang = "";
        continuous = true;
        interimResults = true;
        onresult: ((e: unknown) => void) | null = null;
        onerror: ((e: unknown) => void) | null = null;
        onend: (() => void) | null = null;
        start() {
          if (failToStart) throw new Error("not allowed");
          w.__speech.recognitions.push({ lang: this.lang, continuous: this.continuous, interimResults: this.interimResults });
          setTimeout(() => {
            if (transcript.startsWith("error:")) this.onerror?.({ error: transcript.slice(6) });
            else this.onresult?.({ results: [[{ transcript }]] });
            this.onend?.();
          }, 500);
        }
        stop() {
          this.onend?.();
        }
        abort() {}
      }
      w.SpeechRecognition = FakeRecognition;
    }
    class FakeUtterance {
      text: string;
      lang = "";
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(text: string) {
        this.text = text;
      }
    }
    let current: FakeUtterance | null = null;
    const synth = {
      speak(u: FakeUtterance) {
        current = u;
        w.__speech.spoken.push(u.text);
        setTimeout(() => {
          if (current === u) {
            current = null;
            u.onend?.();
          }
        }, 3_000);
      },
      cancel() {
        current = null;
      },
    };
    Object.defineProperty(window, "speechSynthesis", { configurable: true, get: () => synth });
    w.SpeechSynthesisUtterance = FakeUtterance;
  }, options);
}

/** The microphone button is enabled only once the page is hydrated: a reliable "React is running" signal. */
export async function voiceReady(page: Page) {
  await expect(page.getByRole("button", { name: "Voice input" })).toBeEnabled();
}

/** Fills a field once React listens to it (a fill before hydration is lost to React's state). */
export async function fillHydrated(field: Locator, text: string, ready: Locator) {
  await expect(async () => {
    await field.fill("");
    await field.fill(text);
    await expect(ready).toBeEnabled({ timeout: 1_000 });
  }).toPass();
}

/**
 * Installs Playwright's clock and pauses it, so time moves only by `runFor`/`fastForward` (call before
 * navigation): the app's 1 s, 2 s, 5 s, 15 s and 20 s timers are then driven exactly, never waited for.
 */
export async function pausedClock(page: Page) {
  const start = new Date("2025-01-06T09:00:00Z");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1_000));
}
