import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "test-results/", "playwright-report/", "data/", ".cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@conform-to/react",
              importNames: ["useForm"],
              message: "Use useForm from ~/lib/use-form: it keeps the browser's checks until hydration (decision 0081).",
            },
            {
              name: "@conform-to/zod",
              importNames: ["parseWithZod"],
              message: "Use parseForm from ~/lib/parse-form: it reads typed numbers as the wire does (decision 0139).",
            },
          ],
        },
      ],
    },
  },
  { files: ["app/lib/use-form.ts", "app/lib/parse-form.ts", "**/*.test.tsx"], rules: { "no-restricted-imports": "off" } },
  // Playwright fixtures call their continuation `use`, which is not React's hook.
  { files: ["tests/e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
);
