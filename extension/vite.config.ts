// Two self-contained bundles written into the Python package: the report viewer (IIFE,
// global `symdebugViewer`) and, with `--mode widget`, the notebook explorer (an ES module).
import { defineConfig } from "vite";

export default defineConfig(({ mode }) => ({
  build: {
    outDir: "../symdebug/_static",
    emptyOutDir: false,
    minify: true,
    lib: mode === "widget"
      ? { entry: "src/widget.ts", formats: ["es"], fileName: () => "widget.mjs" }
      : { entry: "src/index.ts", name: "symdebugViewer", formats: ["iife"], fileName: () => "viewer.js" },
  },
}));
