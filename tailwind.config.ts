import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      width: { sidebar: "260px" },
      maxWidth: { content: "1400px" },
    },
  },
} satisfies Config;
