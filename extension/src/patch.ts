// The explorer's updates: operations on paths into the wire document, as Python's
// symdebug/renderers/wire_patch.py makes them (append the new items of a list, or set a value).
import type { Wire } from "./wire";
import { APPEND, type SET } from "./wire";

export interface Operation {
  op: typeof APPEND | typeof SET;
  path: string[];
  items?: unknown[];
  value?: unknown;
}

/** The wire with the operations applied, in order (containers on the way are copied). */
export function applyPatch(wire: Wire, operations: Operation[]): Wire {
  let result = wire;
  for (const operation of operations) result = applyOne(result, operation);
  return result;
}

function applyOne(wire: Wire, operation: Operation): Wire {
  if (!operation.path.length) return operation.value as Wire;
  const root: Record<string, unknown> = { ...wire };
  let parent = root;
  for (const key of operation.path.slice(0, -1)) {
    parent[key] = { ...(parent[key] as Record<string, unknown>) };
    parent = parent[key] as Record<string, unknown>;
  }
  const last = operation.path[operation.path.length - 1];
  parent[last] =
    operation.op === APPEND ? [...(parent[last] as unknown[]), ...(operation.items ?? [])] : operation.value;
  return root as unknown as Wire;
}
