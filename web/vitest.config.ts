import { defineConfig } from "vitest/config";

// Unit tests of the client (src/**/*.test.ts, and *.test.tsx for components), run by `npm test` in
// Node; a component's test file asks for a DOM with `// @vitest-environment happy-dom`. They are
// type-checked with the rest of src/ by `npm run typecheck`; the build never reaches them, as
// nothing the app imports imports them.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    setupFiles: ["src/test/setup.ts"],
    // The files of a worker share one environment: a fresh one for each file took three quarters
    // of the run. src/test/setup.ts puts back, after each test, the state tests change.
    isolate: false,
  },
});
