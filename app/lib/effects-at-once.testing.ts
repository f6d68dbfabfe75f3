/**
 * For tests of a hook whose work is in its effects (timers, listeners): the project has no DOM to render
 * into, so `vi.mock("react", async (original) => effectsAtOnce(await original()))` makes the hook a plain
 * call. Each effect runs when the hook is called, once, as on a component's mount; a state setter keeps
 * the value but renders nothing. `unmount()` runs the cleanups, as the component leaving would.
 */
const cleanups: (() => void)[] = [];

export function effectsAtOnce<React extends object>(react: React): React {
  return {
    ...react,
    useEffect: (effect: () => void | (() => void)) => {
      const cleanup = effect();
      if (typeof cleanup === "function") cleanups.push(cleanup);
    },
    useState: <T>(initial: T | (() => T)) => {
      let value = typeof initial === "function" ? (initial as () => T)() : initial;
      return [value, (next: T) => (value = next)];
    },
  };
}

export function unmount() {
  for (const cleanup of cleanups.splice(0)) cleanup();
}
