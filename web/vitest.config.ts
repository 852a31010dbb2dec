import { defineConfig } from "vitest/config";

// Unit tests of the client's pure logic (src/**/*.test.ts), run by `npm test` in Node. They are
// type-checked with the rest of src/ by `npm run typecheck`; the build never reaches them, as
// nothing the app imports imports them.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test/setup.ts"],
  },
});
