import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The build goes straight into the Python package, which serves it (see src/smear/server/app.py).
const outDir = fileURLToPath(new URL("../src/smear/server/static", import.meta.url));
// `npm run dev` talks to a server started with `smear serve --port 8000`.
const server = process.env.SMEAR_SERVER ?? "http://127.0.0.1:8000";

export default defineConfig({
  base: "/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2020",
    assetsDir: "assets",
    sourcemap: false,
    // .vite/manifest.json names every chunk and what it imports: bench/client_budget.py reads it.
    manifest: true,
  },
  server: {
    proxy: {
      "/socket.io": { target: server, ws: true },
      "/tables": { target: server },
      "/api": { target: server },
      "/health": { target: server },
    },
  },
});
