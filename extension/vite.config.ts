// One self-contained bundle (IIFE, global `symdebugViewer`), written into the Python package.
import { defineConfig } from "vite";

export default defineConfig({
  build: {
    outDir: "../symdebug/_static",
    emptyOutDir: false,
    minify: true,
    lib: { entry: "src/index.ts", name: "symdebugViewer", formats: ["iife"], fileName: () => "viewer.js" },
  },
});
