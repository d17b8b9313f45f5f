// Module ids named after their relative paths (not hashes of absolute paths), so the built
// extension is the same byte for byte in any checkout: `make viewer-check` compares it.
module.exports = { optimization: { moduleIds: "named", chunkIds: "named" } };
