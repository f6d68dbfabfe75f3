import { useCallback, useEffect, useRef, useState } from "react";

/** The texts of SPEC §8 for speech input. */
export const SPEECH_NOT_SUPPORTED = "Speech recognition is not supported in this browser";
export const SPEECH_START_FAILED = "Failed to start speech recognition";
export const speechErrorText = (code: string) => `Speech recognition error: ${code}`;
export const SPEECH_LANG = "en-US";

interface RecognitionResultEvent {
  results: ArrayLike<ArrayLike<{ transcript: string }>>;
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: RecognitionResultEvent) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | undefined {
  const w = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/**
 * Voice input through the Web Speech API (en-US, non-continuous). A browser without it, a failing
 * start and a recognition error each leave the texts of SPEC §8 in `error`.
 */
export function useSpeechRecognition(onTranscript: (text: string) => void) {
  const [listening, setListening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const recognition = useRef<Recognition | null>(null);
  const callback = useRef(onTranscript);
  useEffect(() => {
    callback.current = onTranscript;
  });
  useEffect(() => () => recognition.current?.abort(), []);

  const start = useCallback(() => {
    setError(null);
    const Ctor = recognitionConstructor();
    if (!Ctor) {
      setError(SPEECH_NOT_SUPPORTED);
      return;
    }
    try {
      const r = new Ctor();
      r.lang = SPEECH_LANG;
      r.continuous = false;
      r.interimResults = false;
      r.onresult = (e) => {
        const text = Array.from(e.results)
          .map((result) => result[0]?.transcript ?? "")
          .join(" ")
          .trim();
        if (text) callback.current(text);
      };
      r.onerror = (e) => {
        setError(speechErrorText(e.error));
        setListening(false);
      };
      r.onend = () => setListening(false);
      recognition.current = r;
      r.start();
      setListening(true);
    } catch {
      setError(SPEECH_START_FAILED);
      setListening(false);
    }
  }, []);

  const stop = useCallback(() => {
    recognition.current?.stop();
    setListening(false);
  }, []);

  const toggle = useCallback(() => (listening ? stop() : start()), [listening, start, stop]);
  return { listening, error, start, stop, toggle, dismissError: () => setError(null) };
}

/**
 * Reads text aloud with speechSynthesis. `speaking` follows the utterance; since some browsers never
 * fire `end`, it also falls back after a generous estimate of the reading time. Leaving the page stops it.
 */
export function useSpeechSynthesis() {
  const [speaking, setSpeaking] = useState(false);
  const fallback = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(
    () => () => {
      clearTimeout(fallback.current);
      if (typeof window !== "undefined") window.speechSynthesis?.cancel();
    },
    [],
  );
  const done = useCallback(() => {
    clearTimeout(fallback.current);
    setSpeaking(false);
  }, []);
  const speak = useCallback(
    (text: string): boolean => {
      const synth = window.speechSynthesis;
      if (!synth || typeof window.SpeechSynthesisUtterance === "undefined") return false;
      synth.cancel();
      const utterance = new window.SpeechSynthesisUtterance(text);
      utterance.lang = SPEECH_LANG;
      utterance.onend = done;
      utterance.onerror = done;
      setSpeaking(true);
      clearTimeout(fallback.current);
      fallback.current = setTimeout(done, 2_000 + text.split(/\s+/).length * 500);
      synth.speak(utterance);
      return true;
    },
    [done],
  );
  const cancel = useCallback(() => {
    window.speechSynthesis?.cancel();
    done();
  }, [done]);
  return { speaking, speak, cancel };
}

/** What voice input adds to a prompt: the transcript after the text already typed, one space between. */
export function appendTranscript(current: string, transcript: string): string {
  return current.trim() ? `${current.trimEnd()} ${transcript}` : transcript;
}
